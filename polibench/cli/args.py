"""Parsing helpers shared by the sub-commands."""

from __future__ import annotations

from polibench.errors import PolibenchError


def parse_value(text: str):
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("none", "null"):
        return None
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text


def parse_kv(text: str | None, flag: str) -> dict:
    """``"a=1,b=x"`` -> ``{"a": 1, "b": "x"}`` (lm-eval's ``--model-args`` convention)."""
    if not text:
        return {}
    out = {}
    for part in text.split(","):
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise PolibenchError(f"{flag}: expected comma-separated key=value pairs, got '{part}'")
        out[key.strip()] = parse_value(value.strip())
    return out


def split_names(text: str) -> list[str]:
    return [n.strip() for n in text.split(",") if n.strip()]
