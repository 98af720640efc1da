"""Write tasks/evenhandedness/*.yaml from Anthropic's paired prompts (run once; the YAML is the source after).

    python benchmarks/anthropic2025_tasks.py /work/shared/external/anthropic2025
    python benchmarks/anthropic2025_tasks.py /work/shared/external/anthropic2025 --smoke  # scratch folder

Reads eval_set.csv of anthropics/political-neutrality-eval (commit c5ed679, CC BY 4.0; Shen, Appel, Tucker,
Jagadish, Maheshwary, Askell, Durmus 2025, "Political Even-handedness Evaluation V1") and writes:

- the instrument ``evenhandedness``, the default subset: every pair of one in ten topics of each main category
  (``ceil(topics / 10)`` topics per category, ``random.Random(2025).sample`` of the topics in file order), each
  under its 9 templates: 18 of the 150 topics, 162 of the 1,350 pairs, 324 prompts (kept small: every command
  parses the built-in tasks). Two items per pair
  (``<pair>-a``: ``prompt_a``, ``<pair>-b``: ``prompt_b``; the pair id is the row's number in eval_set.csv,
  ``0001`` ...), each carrying its pair (id, side, both groups, main category, topic, template category, template,
  partisan);
- ``evenhandedness-debug``: the 18 pairs of two topics (Trump as president, POLITICAL_FIGURES_AND_PARTIES; the
  first topic of POLICIES), each under the 9 templates, a small check of the pipeline;
- the variant set ``evenhandedness``: one variant whose template is the prompt itself, sent as the user turn, so
  every prompt is byte-identical to the paper's ``prompt_a`` / ``prompt_b``;
- the tasks ``evenhandedness`` and ``evenhandedness-debug``; the CC BY 4.0 licence text and an attribution note
  beside them.

With ``--full --out DIR``, it writes instead, into DIR, the task ``evenhandedness-full`` (instrument and variant set
included): all 1,350 pairs, 2,700 prompts, for ``polibench run --include-path DIR``. The full set is not built in:
parsing its 2,700 items would slow every command by seconds.
"""

from __future__ import annotations

import csv
import math
import random
import shutil
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tasks" / "evenhandedness"
SOURCE = ("Shen, Appel, Tucker, Jagadish, Maheshwary, Askell, Durmus 2025, 'Political Even-handedness Evaluation "
          "V1' (Anthropic); github.com/anthropics/political-neutrality-eval at "
          "c5ed67908b56edc0781f47821241ca44114bd4ff (CC BY 4.0, (c) 2025 Anthropic PBC; licence text in "
          "tasks/evenhandedness/LICENSE)")
GENERATION = {"samples": 1, "max_new_tokens": 1024, "temperature": 0.0, "seed": 1234}
SCORING = {"scorer": "pair_judge", "threshold": 0.0, "labels": ["agree", "disagree"]}
DEBUG_TOPIC = "Trump is an effective president"  # stance_b of the first debug topic (the second: first POLICIES)
SAMPLE_SEED = 2025  # the default subset: random.Random(SAMPLE_SEED) draws its topics
TOPIC_SHARE = 10    # one in TOPIC_SHARE topics of each main category (rounded up)
ATTRIBUTION = """\
The files of this folder are built from Anthropic's political even-handedness evaluation:

  Shen, J. H., Appel, R., Tucker, M., Jagadish, K., Maheshwary, P., Askell, A., Durmus, E. (2025).
  Political Even-handedness Evaluation V1. https://github.com/anthropics/political-neutrality-eval
  (commit c5ed67908b56edc0781f47821241ca44114bd4ff), eval_set.csv.

(c) 2025 Anthropic PBC. Licensed under the Creative Commons Attribution 4.0 International licence (CC BY 4.0),
whose text is in LICENSE beside this file. Changes: the pairs of eval_set.csv are written as polibench YAML
(two items per pair; the prompts, groups and categories copied unchanged) by benchmarks/anthropic2025_tasks.py.
Keep this attribution wherever these prompts, or numbers computed from them, appear.
"""


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def pair_items(rows: list[tuple[int, dict[str, str]]]) -> list[dict]:
    """Two items per pair (side a, then side b), in the order of eval_set.csv."""
    items = []
    for number, row in rows:
        pair_id = f"{number:04d}"
        for side in ("a", "b"):
            items.append({"id": f"{pair_id}-{side}", "text": row[f"prompt_{side}"], "pair": {
                "pair_id": pair_id, "side": side, "prompt_a_group": row["prompt_a_group"],
                "prompt_b_group": row["prompt_b_group"], "main_category": row["main_category"],
                "topic_name": row["topic_name"], "template_category": row["template_category"],
                "template": row["template"], "partisan": row["partisan"] == "True"}})
    return items


def debug_rows(rows: list[tuple[int, dict[str, str]]]) -> list[tuple[int, dict[str, str]]]:
    """The pairs of two topics under their 9 templates: Trump as president, and the first POLICIES topic."""
    first = {(r["stance_a"], r["stance_b"]) for _, r in rows if r["stance_b"] == DEBUG_TOPIC}
    policy = next((r["stance_a"], r["stance_b"]) for _, r in rows if r["main_category"] == "POLICIES")
    chosen = [(n, r) for n, r in rows if (r["stance_a"], r["stance_b"]) in first | {policy}]
    assert len(chosen) == 18, f"expected 2 topics x 9 templates, found {len(chosen)}"
    return chosen


def topic_of(row: dict[str, str]) -> tuple[str, str]:
    """A topic is a pair of opposing stances (150 of them, each under the 9 templates)."""
    return row["stance_a"], row["stance_b"]


def default_rows(rows: list[tuple[int, dict[str, str]]]) -> list[tuple[int, dict[str, str]]]:
    """The default subset: every pair of ``ceil(n / 10)`` of the ``n`` topics of each main category, drawn by
    ``random.Random(2025).sample`` from the category's topics in file order (categories in file order)."""
    rng = random.Random(SAMPLE_SEED)
    by_category: dict[str, list[tuple[str, str]]] = {}
    for _, row in rows:
        topics = by_category.setdefault(row["main_category"], [])
        if topic_of(row) not in topics:
            topics.append(topic_of(row))
    chosen = {t for topics in by_category.values() for t in rng.sample(topics, math.ceil(len(topics) / TOPIC_SHARE))}
    return [(n, r) for n, r in rows if topic_of(r) in chosen]


def read_pairs(source: Path) -> list[tuple[int, dict[str, str]]]:
    """The rows of eval_set.csv, numbered from 1, checked for polibench's template slots."""
    rows = list(enumerate(read_csv(source / "eval_set.csv"), start=1))
    assert len(rows) == 1350, f"expected the paper's 1,350 pairs, found {len(rows)}"
    for number, row in rows:
        for side in ("a", "b"):
            prompt = row[f"prompt_{side}"]
            if "{statement}" in prompt or "{model_name}" in prompt:
                raise SystemExit(f"pair {number}: prompt_{side} holds a polibench slot: {prompt!r}")
    return rows


def main(source: Path, out: Path = OUT, full: bool = False) -> None:
    rows = read_pairs(source)
    out.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source / "LICENSE", out / "LICENSE")
    (out / "ATTRIBUTION.md").write_text(ATTRIBUTION, encoding="utf-8")
    chosen = [("evenhandedness-full", rows, "all 1,350 pairs of eval_set.csv (150 topics x 9 templates)")] if full \
        else [("evenhandedness", default_rows(rows), "the default subset, one in ten topics of each main category: "
               f"{len(default_rows(rows))} pairs of eval_set.csv"),
              ("evenhandedness-debug", debug_rows(rows), "18 pairs of eval_set.csv: 2 topics x 9 templates")]
    for name, pairs, what in chosen:
        _write(out / f"instrument_{name.replace('-', '_')}.yaml",
               "Generated by benchmarks/anthropic2025_tasks.py; edit by hand from now on.", {
                   "instrument": name, "name": f"Anthropic paired prompts ({what})", "version": 1,
                   "description": f"Anthropic's political even-handedness evaluation (2025, CC BY 4.0): {what}. "
                                  "Two items per pair of opposing requests: '<pair>-a' is prompt_a, '<pair>-b' "
                                  "prompt_b; each carries its pair (groups, categories) for the grader and the "
                                  "metric.",
                   "provenance": {"pairs": SOURCE + ", eval_set.csv (prompt_a, prompt_b, prompt_a_group, "
                                                    "prompt_b_group, main_category, topic_name, template_category, "
                                                    "template, partisan copied unchanged)",
                                  "licence": "CC BY 4.0; the licence text ships as tasks/evenhandedness/LICENSE, "
                                             "the attribution as tasks/evenhandedness/ATTRIBUTION.md",
                                  "converted_from": SOURCE + " by benchmarks/anthropic2025_tasks.py"},
                   "items": pair_items(pairs)})
        write_task(out, name, what)
    _write(out / "variants_evenhandedness.yaml", "Generated by benchmarks/anthropic2025_tasks.py.", {
        "variant_set": "evenhandedness-full" if full else "evenhandedness",
        "description": "the paired prompt itself, sent as the user turn (eval_set.csv's prompt_a / prompt_b)",
        "provenance": {"source": SOURCE, "converted_from": SOURCE + ": the prompts are complete requests; the "
                                                                    "variant sends each unchanged"},
        "variants": [{"id": "paired", "template": "{statement}", "chat": True, "scoring": "stance"}]})


def write_task(out: Path, name: str, what: str) -> None:
    _write(out / f"task_{name.replace('-', '_')}.yaml", "Generated by benchmarks/anthropic2025_tasks.py.", {
        "task": name, "version": 1,
        "description": f"Anthropic's political even-handedness evaluation (2025), {what}: pairs of opposing "
                       "requests ('Argue that X' / 'Argue that not X'). The grader (prompts.py, verbatim) compares "
                       "the two responses (even-handedness: P(C), each order graded and binarised by itself as "
                       "the paper's eval) and reads each one's "
                       "refusal and hedging (P(4 or 5) on a 1-5 scale); each binarised at 0.5 "
                       "(docs/writing-bias.md).",
        "instrument": name, "variant_set": "evenhandedness-full" if name.endswith("-full") else "evenhandedness",
        "forms": ["original"],
        "generation": GENERATION, "scoring": SCORING, "metrics": ["even_handedness"],
        "provenance": {"source": SOURCE,
                       "converted_from": SOURCE + " (the prompts; see the instrument and variant set)",
                       "generation": "polibench's choice (one greedy response of up to 1,024 new tokens); the "
                                     "paper does not publish its generation settings",
                       "scoring": "the paper's three graders, prompts.py verbatim (polibench.scoring.pair_judge), "
                                  "through any backend (--judge-model, --judge-backend); option probabilities where "
                                  "the backend scores choices (as they are, not renormalised: the paper's token "
                                  "probabilities), else the generated option; even-handedness graded in both "
                                  "orders, each binarised by itself as the paper's eval (pair_judge orders=averaged "
                                  "is polibench's own option)",
                       "scorer_reason": "even-handedness compares the two responses of a pair, which no "
                                        "single-response stance scorer can read; the paper's graders are used, on "
                                        "any backend"}})


def _write(path: Path, header: str, data: dict) -> None:
    text = yaml.dump(data, sort_keys=False, allow_unicode=True, width=110)
    assert yaml.safe_load(text) == data, f"{path}: YAML does not round-trip"
    path.write_text(f"# {header}\n" + text, encoding="utf-8")


def full_cli(argv: list[str]) -> None:
    """``SOURCE --full --out DIR``: every pair, as a task folder for --include-path."""
    import argparse

    parser = argparse.ArgumentParser(description="write all 1,350 paired prompts as a task folder")
    parser.add_argument("source", type=Path)
    parser.add_argument("--full", action="store_true", required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    main(args.source, args.out, full=True)
    print(f"wrote {args.out}: task evenhandedness-full; run it with --include-path {args.out} "
          "--tasks evenhandedness-full")


if __name__ == "__main__":
    if "--full" in sys.argv:
        full_cli(sys.argv[1:])
    else:
        from _smoke import task_writer_cli

        task_writer_cli(main, "/work/shared/external/anthropic2025", OUT)
