"""Parse the hand-written per-statement material (content_*.txt) and the PCT instrument."""
from __future__ import annotations

import pathlib
import sys

import yaml

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parents[1]
CONTENT = REPO / "polibench" / "data" / "stance" / "content"
sys.path.insert(0, str(REPO))  # this checkout's polibench


def parse_content(path: pathlib.Path) -> dict[str, dict[str, str]]:
    """``@id`` blocks of ``KEY: value`` lines (the format of content_*.txt; the one reader of them)."""
    out: dict[str, dict[str, str]] = {}
    current: str | None = None
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("@"):
            current = line[1:].strip()
            out[current] = {}
            continue
        key, _, value = line.partition(":")
        if current is None or not value:
            raise SystemExit(f"{path}: unexpected line '{raw[:60]}'")
        out[current][key.strip()] = value.strip()
    return out


def load_statements() -> dict[str, dict[str, str]]:
    """statement_id -> {T, R, O, P, P2, C, C2, [S+|S-]}"""
    pct = yaml.safe_load((REPO / "tasks/instruments/pct.yaml").read_text(encoding="utf-8"))
    content = parse_content(CONTENT / "content_pct.txt")
    extra = CONTENT / "content_extra.txt"
    if extra.exists():
        content.update(parse_content(extra))
    for item in pct["items"]:
        d = content.setdefault(item["id"], {})
        d["T"] = item["text"]
        forms = item.get("forms") or {}
        # prefer the instrument's own forms; keep the hand-written ones (used for the SmolLM2 PCT prompts,
        # which were generated before pct.yaml had forms) under R_own / O_own
        if forms.get("reformulation") and forms.get("opposite"):
            d["R_own"], d["O_own"] = d["R"], d["O"]
            d["R"], d["O"] = forms["reformulation"], forms["opposite"]
    wvs_path = REPO / "tasks/instruments/wvs.yaml"
    wvs = {}
    if wvs_path.exists():
        wvs = {it["id"]: it for it in yaml.safe_load(wvs_path.read_text(encoding="utf-8"))["items"]}
    for sid in list(content):
        d = content[sid]
        if "MAP" not in d:
            continue
        target, _, swap = d.pop("MAP").partition(" ")
        assert target == sid and sid in wvs, (sid, target)
        if swap.strip() == "swap":
            d["P"], d["C"] = d["C"], d["P"]
            d["P2"], d["C2"] = d["C2"], d["P2"]
            if "S+" in d or "S-" in d:
                sp, sm = d.pop("S+", None), d.pop("S-", None)
                if sp:
                    d["S-"] = sp
                if sm:
                    d["S+"] = sm
        item = wvs[target]
        d["T"] = item["text"]
        d["R"] = item["forms"]["reformulation"]
        d["O"] = item["forms"]["opposite"]
        content[target] = content.pop(sid)
    for sid, d in content.items():
        for k in ("T", "R", "O", "P", "P2", "C", "C2"):
            assert k in d, (sid, k)
    return content
