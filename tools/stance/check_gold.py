"""Check the gold stance set: python tools/stance/check_gold.py [DATA_DIR]

Verifies fields, labels, styles and sources; unique ids; no statement_id shared between train, dev and test; no
wording shared between them either (gold v4: no response, sentence or statement frame in two splits, wording.py);
no held-out marker anywhere; then prints counts per label x split, per style (x split) and per source. Exit status 1
on any error.
"""
from __future__ import annotations

import collections
import json
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import wording  # noqa: E402

LABELS = ("agree", "disagree", "neutral", "unrelated")
STYLES = (
    "explicit_first", "explicit_end", "hedged", "refusal", "implicit_argument", "negation_trap", "likert_number",
    "likert_text", "reformulated_statement", "opposite_statement", "off_topic", "echo", "very_short", "very_long",
    "sarcasm", "real_model", "restated_pair", "restated_stance", "restated_neutral",
)
SOURCES = ("written", "smollm2-135m")
FIELDS = {"id", "statement_id", "statement", "response", "label", "style", "source"}
SPLITS = ("train", "dev", "test")
SID_RE = re.compile(r"^(pct|wvs|extra)-\d{2}$")


def content() -> dict[str, dict[str, str]]:
    """statement_id -> per-statement texts (statement forms, arguments, sarcastic lines) that wording.py masks."""
    from content_lib import CONTENT, load_statements, parse_content

    return {**load_statements(), **parse_content(CONTENT / "content_restated.txt")}


def held_out_leaks(splits: dict[str, list[dict]]) -> list[str]:
    """The markers kept out of the gold data on purpose (polibench.scorers.stance.restated: the property test's held-out
    set and the untouched fresh set) must occur in no response."""
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))
    from polibench.scorers.stance.restated import AGREE_FRESH, AGREE_HELDOUT, DISAGREE_FRESH, DISAGREE_HELDOUT, marker

    responses = [str(r.get("response", "")).lower() for rows in splits.values() for r in rows]
    out = []
    for template in AGREE_HELDOUT + DISAGREE_HELDOUT + AGREE_FRESH + DISAGREE_FRESH:
        words = marker(template).lower()
        hits = sum(words in r for r in responses)
        if hits:
            out.append(f"held-out marker {words!r} occurs in {hits} responses")
    return out


def main() -> int:
    root = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2] / "polibench" / "data" / "stance"
    errors: list[str] = []
    splits: dict[str, list[dict]] = {}
    for name in SPLITS:
        rows = []
        path = root / f"{name}.jsonl"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            try:
                r = json.loads(line)
            except json.JSONDecodeError as exc:
                errors.append(f"{name}:{n}: bad JSON ({exc})")
                continue
            if set(r) != FIELDS:
                errors.append(f"{name}:{n}: fields {sorted(r)} != {sorted(FIELDS)}")
            if r.get("label") not in LABELS:
                errors.append(f"{name}:{n}: label {r.get('label')!r}")
            if r.get("style") not in STYLES:
                errors.append(f"{name}:{n}: style {r.get('style')!r}")
            if r.get("source") not in SOURCES:
                errors.append(f"{name}:{n}: source {r.get('source')!r}")
            if (r.get("style") == "real_model") != (r.get("source") == "smollm2-135m"):
                errors.append(f"{name}:{n}: style/source mismatch")
            if not SID_RE.match(str(r.get("statement_id", ""))):
                errors.append(f"{name}:{n}: statement_id {r.get('statement_id')!r}")
            for k in ("statement", "response", "id"):
                if not isinstance(r.get(k), str) or not r.get(k).strip():
                    errors.append(f"{name}:{n}: empty {k}")
            rows.append(r)
        ids = [r.get("id") for r in rows]
        if ids != sorted(ids):
            errors.append(f"{name}: rows not sorted by id")
        splits[name] = rows

    all_ids = [r.get("id") for rows in splits.values() for r in rows]
    dup = [k for k, v in collections.Counter(all_ids).items() if v > 1]
    if dup:
        errors.append(f"duplicate ids: {dup[:10]}")
    sid = {name: {r.get("statement_id") for r in rows} for name, rows in splits.items()}
    for i, a in enumerate(SPLITS):
        for b in SPLITS[i + 1:]:
            if sid[a] & sid[b]:
                errors.append(f"statement_id in both {a} and {b}: {sorted(sid[a] & sid[b])}")
    errors += [f"wording in two splits: {line}" for line in wording.describe(wording.crossings(splits, content()))]
    pairs = collections.Counter((r["statement"], r["response"]) for rows in splits.values() for r in rows)
    dups = [k for k, v in pairs.items() if v > 1]
    if dups:
        print(f"note: {len(dups)} (statement, response) pairs occur more than once")

    errors += held_out_leaks(splits)
    total = sum(len(v) for v in splits.values())
    print(f"rows: {total}  (" + ", ".join(f"{n} {len(splits[n])}" for n in SPLITS) + "); statement groups: "
          + ", ".join(f"{n} {len(sid[n])}" for n in SPLITS))
    print("\nlabel x split")
    print(f"{'label':<11}" + "".join(f"{s:>8}" for s in (*SPLITS, "total", "share")))
    for lab in LABELS:
        n = [sum(r["label"] == lab for r in splits[name]) for name in SPLITS]
        print(f"{lab:<11}" + "".join(f"{k:>8}" for k in n) + f"{sum(n):>8}{sum(n) / max(total, 1):>8.1%}")
    print("\nstyle x label (all rows), and rows per split")
    print(f"{'style':<24}" + "".join(f"{lab[:8]:>10}" for lab in LABELS) + f"{'total':>8}"
          + "".join(f"{n:>7}" for n in SPLITS))
    for st in STYLES:
        rows = [r for v in splits.values() for r in v if r["style"] == st]
        c = collections.Counter(r["label"] for r in rows)
        per = [sum(r["style"] == st for r in splits[n]) for n in SPLITS]
        print(f"{st:<24}" + "".join(f"{c[lab]:>10}" for lab in LABELS) + f"{len(rows):>8}"
              + "".join(f"{k:>7}" for k in per))
    src = collections.Counter(r["source"] for v in splits.values() for r in v)
    print("\nsource:", dict(src))
    if errors:
        print("\nERRORS:")
        for e in errors[:50]:
            print(" ", e)
        return 1
    print("\nOK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
