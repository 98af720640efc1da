"""Benchmark: how a stance scorer reads restated answers built from markers kept out of the gold data, per marker.

For every statement of every built-in instrument (the property test's statements,
tests/stance/test_stance_restated.py) and every marker of ``polibench.scorers.stance.restated`` (``AGREE_HELDOUT`` /
``DISAGREE_HELDOUT``, the property test's held-out set, and ``AGREE_FRESH`` / ``DISAGREE_FRESH``, the set never
used for a decision), the answer "<marker> <statement>" is scored, and this prints per marker and per set:

* ``read``: share whose top label is the marker's side (any confidence);
* ``kept``: share with confidence >= 0.9 (the default filter);
* ``right>=0.9``: share read right at >= 0.9 (what the property test requires of every answer);
* ``misread``: share labelled with the wrong label (any confidence), and the labels it gave instead.

Run:  python benchmarks/bench_stance_restated.py [--scorer embedded]     (~3,000 answers: ~2-3 min on 2 cores)
      python benchmarks/bench_stance_restated.py --smoke --scorer lexical  (3 statements, 2 markers a set)
"""

from __future__ import annotations

import argparse
import collections

FILTER = 0.9


def builtin_statements() -> list[str]:
    """The property test's statements: items of the built-in English instruments whose text is a claim (a sentence,
    not a question; the PCT's translations are read by option tables, never by the stance scorer)."""
    from polibench.taskspec.loader import load_registry

    return sorted({item.text for inst in load_registry().instruments.values() for item in inst.items
                   if getattr(inst, "language", None) in (None, "en") and item.text.rstrip().endswith((".", "!"))})


def marker_rows(scorer, statements: list[str], templates, side: str) -> list[tuple[str, int, int, int, int, str]]:
    """Per template: (template, n, read right, kept, right at >= 0.9, the wrong labels given)."""
    from polibench.scorers.stance.restated import restate

    pairs = [(t, s, restate(t, s)) for t in templates for s in statements]
    results = scorer.score([p[1] for p in pairs], [p[2] for p in pairs])
    by: dict[str, list] = collections.defaultdict(list)
    for (template, _, _), result in zip(pairs, results):
        by[template].append(result)
    rows = []
    for template in templates:
        got = by[template]
        wrong = collections.Counter(r.label for r in got if r.label != side)
        rows.append((template, len(got), sum(r.label == side for r in got),
                     sum(r.confidence >= FILTER for r in got),
                     sum(r.label == side and r.confidence >= FILTER for r in got),
                     ", ".join(f"{label} {n}" for label, n in wrong.most_common())))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scorer", default="embedded", help="stance scorer (default: embedded, the default)")
    parser.add_argument("--scorer-args", help="k=v,... for the scorer, e.g. model=CHECKPOINT with --scorer classifier")
    parser.add_argument("--smoke", action="store_true", help="3 statements, 2 markers a set (checks the script runs)")
    args = parser.parse_args()

    from polibench.cli.args import parse_kv
    from polibench.scorers.stance.restated import AGREE_FRESH, AGREE_HELDOUT, DISAGREE_FRESH, DISAGREE_HELDOUT
    from polibench.scoring.registry import create_scorer

    scorer = create_scorer(args.scorer, ("agree", "disagree", "neutral", "unrelated"),
                           **parse_kv(args.scorer_args, "--scorer-args"))
    statements = builtin_statements()
    sets = [("held-out", "agree", AGREE_HELDOUT), ("held-out", "disagree", DISAGREE_HELDOUT),
            ("fresh", "agree", AGREE_FRESH), ("fresh", "disagree", DISAGREE_FRESH)]
    if args.smoke:
        statements, sets = statements[:3], [(n, side, pool[:2]) for n, side, pool in sets]
    print(f"scorer {args.scorer}, {len(statements)} statements")
    for name, side, pool in sets:
        rows = marker_rows(scorer, statements, pool, side)
        n = sum(r[1] for r in rows)
        print(f"\n{name} {side}: read {sum(r[2] for r in rows) / n:.1%}  kept {sum(r[3] for r in rows) / n:.1%}  "
              f"right>=0.9 {sum(r[4] for r in rows) / n:.1%}  misread {1 - sum(r[2] for r in rows) / n:.1%}  (n={n})")
        for template, k, right, kept, sure, wrong in rows:
            print(f"  {template:<52} read {right / k:6.1%}  kept {kept / k:6.1%}  right>=0.9 {sure / k:6.1%}  "
                  f"misread {1 - right / k:6.1%}" + (f"  ({wrong})" if wrong else ""))


if __name__ == "__main__":
    main()
