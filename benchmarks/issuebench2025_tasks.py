"""Write tasks/issuebench/*.yaml from IssueBench's prompt ingredients (run once; the YAML is the source after).

    python benchmarks/issuebench2025_tasks.py /work/shared/external/issuebench2025
    python benchmarks/issuebench2025_tasks.py /work/shared/external/issuebench2025 --smoke  # scratch folder
    # another template sample, as a task folder for --include-path (N = 1000: every template)
    python benchmarks/issuebench2025_tasks.py /work/shared/external/issuebench2025 --templates N [--seed S] \
        --out DIR

Reads issues.csv, templates_sample.csv and prompts_debug.csv of greg-kal/issuebench (commit 8e3089a, CC BY 4.0;
Röttger et al. 2025) and writes:

- the instrument ``issuebench``: the 212 issues with ``tag_exclude`` empty, each in its three framings (item
  ``<topic_id>-pro`` / ``-con`` / ``-neutral``, text = ``topic_pro`` / ``topic_con`` / ``topic_neutral``);
- the variant set ``issuebench``: a fixed sample of 20 of the 1,000 templates of templates_sample.csv
  (``annot1_template``; its one ``X`` -> ``{statement}``), the default subset;
- ``issuebench-debug`` (instrument and variant set): prompts_debug.csv's 5 issues x 3 framings x 10 templates;
- the tasks ``issuebench`` and ``issuebench-debug``; the CC BY 4.0 licence text beside them.

With ``--templates N``, it writes instead, into ``--out DIR``, the variant set and task ``issuebench-tN-sS``: a
sample of N templates (seed S, default 2025; N = 1000 is every template, 636,000 prompts) on the built-in
``issuebench`` instrument, for ``polibench run --include-path DIR``. The full template set is not built in:
parsing it would slow every command, and few runs need it.

A prompt is the template with its ``X`` replaced by the framing's topic text, so a built prompt is byte-identical
to the paper's ``prompt_text`` (tests/taskspec/test_issuebench_tasks.py checks that against prompts_debug.csv).
"""

from __future__ import annotations

import csv
import random
from pathlib import Path

from _task_files import Literal, open_folder, write_spec

SCRIPT = Path(__file__).name
ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tasks" / "issuebench"
SOURCE = ("Röttger, Hinck, Hofmann, Hackenburg, Pyatkin, Brahman, Hovy 2025, 'IssueBench: Millions of Realistic "
          "Prompts for Measuring Issue Bias in LLM Writing Assistance' (arXiv 2502.08395); "
          "github.com/greg-kal/issuebench at 8e3089ab9f9205de536aef67f77c4a64b3acb9dd (CC BY 4.0; licence text in "
          "tasks/issuebench/LICENSE)")
FRAMINGS = ("pro", "con", "neutral")
DEFAULT_TEMPLATES = 20   # the default task's template sample
SAMPLE_SEED = 2025       # random.Random(SAMPLE_SEED).sample of the templates sorted by id
GENERATION = {"samples": 1, "max_new_tokens": 1024, "temperature": 0.0, "seed": 1234}
SCORING = {"scorer": "issue_judge", "threshold": 0.0, "labels": ["agree", "disagree"]}


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def issue_items(issues: list[dict[str, str]]) -> list[dict]:
    """Three items per issue, in the order pro, con, neutral."""
    items = []
    for row in issues:
        issue = {"issue_id": row["topic_id"], "topic_neutral": row["topic_neutral"], "topic_pro": row["topic_pro"],
                 "topic_con": row["topic_con"]}
        for framing in FRAMINGS:
            items.append({"id": f"{row['topic_id']}-{framing}", "text": row[f"topic_{framing}"],
                          "issue": {**issue, "framing": framing}})
    return items


def variant(template_id: str, template: str) -> dict:
    """A template with its one ``X`` as the ``{statement}`` slot (chat: the prompt is the user turn)."""
    if template.count("X") != 1 or "{statement}" in template or "{model_name}" in template:
        raise SystemExit(f"template {template_id}: expected exactly one X slot and no polibench slot: {template!r}")
    return {"id": template_id, "template": Literal(template.replace("X", "{statement}")), "chat": True,
            "scoring": "stance"}


def main(source: Path, out: Path = OUT) -> None:
    issues = [r for r in read_csv(source / "issues.csv") if not r["tag_exclude"].strip()]
    assert len(issues) == 212, f"expected the paper's 212 issues, found {len(issues)}"
    templates = sorted(read_csv(source / "templates_sample.csv"), key=lambda r: r["id"])
    debug = read_csv(source / "prompts_debug.csv")
    by_id = {r["topic_id"]: r for r in read_csv(source / "issues.csv")}
    open_folder(out, licence_from=source)

    for text in (t["annot1_template"] for t in templates):
        if "{statement}" in text or "{model_name}" in text:
            raise SystemExit(f"a template holds a polibench slot: {text!r}")
    for name, rows, what in [
        ("issuebench", issues, f"the {len(issues)} issues of issues.csv with tag_exclude empty"),
        ("issuebench-debug", [by_id[t] for t in dict.fromkeys(r["topic_id"] for r in debug)],
         "the 5 issues of prompts_debug.csv"),
    ]:
        items = issue_items(rows)
        for item in items:
            if "{model_name}" in item["text"] or "{statement}" in item["text"]:
                raise SystemExit(f"issue {item['id']}: topic text holds a polibench slot")
        write_spec(out, "instrument", name, SCRIPT, {
                   "instrument": name, "name": f"IssueBench issues ({what})", "version": 1,
                   "description": f"IssueBench (Röttger et al. 2025, CC BY 4.0): {what}, each in its three framings "
                                  "(pro, con, neutral). An item is one framing: its text is the topic text that "
                                  "fills a template's X; it carries all three framings for the grader.",
                   "provenance": {"issues": SOURCE + ", 2_final_dataset/prompt_ingredients/issues.csv (topic_id, "
                                                     "topic_neutral, topic_pro, topic_con copied unchanged)",
                                  "licence": "CC BY 4.0; the licence text ships as tasks/issuebench/LICENSE",
                                  "converted_from": SOURCE + " by benchmarks/issuebench2025_tasks.py"},
                   "items": items})

    debug_templates = {r["template_id"]: r["template_text"] for r in debug}
    write_template_sample(out, "issuebench", templates, DEFAULT_TEMPLATES, SAMPLE_SEED, "the default subset")
    write_variant_set(out, "issuebench-debug", [variant(k, v) for k, v in debug_templates.items()],
                      "the 10 templates of prompts_debug.csv (template_text)")
    write_task(out, "issuebench-debug", "issuebench-debug", "issuebench-debug",
               "prompts_debug.csv: 5 issues x 3 framings x 10 templates (150 prompts), a small check of the pipeline")


def sample_templates(templates: list[dict[str, str]], n: int, seed: int) -> list[dict]:
    """``n`` of the templates (sorted by id): ``random.Random(seed).sample`` of their ids, kept in id order."""
    if not 1 <= n <= len(templates):
        raise SystemExit(f"--templates: expected 1 to {len(templates)}, got {n}")
    chosen = set(random.Random(seed).sample([t["id"] for t in templates], n))
    return [variant(t["id"], t["annot1_template"]) for t in templates if t["id"] in chosen]


def write_template_sample(out: Path, name: str, templates: list[dict[str, str]], n: int, seed: int,
                          what: str) -> None:
    """The variant set and task ``name``: ``n`` templates (seed ``seed``) on the ``issuebench`` instrument."""
    every = n == len(templates)
    description = (f"all {n:,} user-prompt templates of templates_sample.csv" if every else
                   f"a sample of {n} of the {len(templates):,} user-prompt templates of templates_sample.csv "
                   f"(random.Random({seed}).sample of the ids sorted)") + f" (annot1_template), {what}"
    write_variant_set(out, name, sample_templates(templates, n, seed), description)
    write_task(out, name, "issuebench", name, f"212 issues x 3 framings x {n} templates ({636 * n:,} prompts), "
                                              f"{what}")


def write_variant_set(out: Path, name: str, variants: list[dict], description: str) -> None:
    write_spec(out, "variants", name, SCRIPT, {
        "variant_set": name, "description": description,
        "provenance": {"source": SOURCE, "converted_from": SOURCE + ": " + description + "; prompt = template "
                       "with its X replaced by the framing's topic text"},
        "variants": variants})


def write_task(out: Path, name: str, instrument: str, variant_set: str, size: str) -> None:
    write_spec(out, "task", name, SCRIPT, {
        "task": name, "version": 1,
        "description": f"IssueBench (Röttger et al. 2025), {size}: realistic writing requests about political "
                       "issues. Each response is labelled by the IssueBench grader (stance_templates.csv "
                       "templ-5: 1 exclusively pro ... 5 exclusively con, or refusal); issue bias is the "
                       "distribution of those labels across templates, per issue and framing. --issues and "
                       "--limit choose fewer issues (docs/writing-bias.md).",
        "instrument": instrument, "variant_set": variant_set, "forms": ["original"],
        "generation": GENERATION, "scoring": SCORING, "metrics": ["issue_bias"],
        "provenance": {"source": SOURCE,
                       "converted_from": SOURCE + " (the prompts; see the instrument and variant set)",
                       "generation": "polibench's choice (one greedy response of up to 1,024 new tokens); the "
                                     "paper collected one response per prompt from each model",
                       "scoring": "the paper's grader: stance_templates.csv templ-5 verbatim "
                                  "(polibench.scoring.issue_judge), through any backend (--judge-model, "
                                  "--judge-backend); labels read from log-probabilities where the backend "
                                  "scores choices, else from the generated answer; no confidence filter",
                       "scorer_reason": "IssueBench labels a written response 1-5 or refusal relative to the issue's "
                                        "three framings, which the offline stance scorer (agree/disagree with a "
                                        "statement) cannot read; the paper's grader is used, on any backend"}})



def sample_cli(argv: list[str]) -> None:
    """``SOURCE --templates N [--seed S] --out DIR``: a template sample as a task folder for --include-path."""
    import argparse

    parser = argparse.ArgumentParser(description="write an IssueBench template sample as a task folder")
    parser.add_argument("source", type=Path)
    parser.add_argument("--templates", type=int, required=True)
    parser.add_argument("--seed", type=int, default=SAMPLE_SEED)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    templates = sorted(read_csv(args.source / "templates_sample.csv"), key=lambda r: r["id"])
    open_folder(args.out)
    name = f"issuebench-t{args.templates}-s{args.seed}"
    write_template_sample(args.out, name, templates, args.templates, args.seed, "a user-chosen sample")
    print(f"wrote {args.out}: task {name}; run it with --include-path {args.out} --tasks {name}")


if __name__ == "__main__":
    import sys

    if "--templates" in sys.argv:
        sample_cli(sys.argv[1:])
    else:
        from _smoke import task_writer_cli

        task_writer_cli(main, "/work/shared/external/issuebench2025", OUT)
