"""Import Röttger et al. 2024's published completions and submit one leaderboard entry per model.

    PYTHONPATH=$PWD python benchmarks/rottger2024_import.py /work/shared/external/rottger2024 \
        --work runs/rottger2024 --entries leaderboard/entries
    python benchmarks/rottger2024_import.py --table          # the per-model table of docs/channels.md
    python benchmarks/rottger2024_import.py --parser-check   # the parser: unread single options, conflicting, precision

For each of the 10 models: write its completions as a polibench import file (item, variant, response, model,
prompt, task), run ``polibench import`` on every task the model has (rottger-forced, rottger-forced-forcing,
rottger-open, rottger-open-forcing), scored by the offline ``embedded`` stance scorer with the 0.9 filter (the
forced-choice parser reads exact option answers first), then ``polibench submit``. Every prompt is checked
byte for byte against the task's prompt. Scoring 15,500 responses on CPU takes a while: this is run once, by
hand, never in the tests. ``--fixture`` also writes tests/fixtures/rottger2024/prompts.jsonl.gz (the distinct
prompts, for the byte-identity test).

The completions are CC BY 4.0 (Röttger, Hofmann, Pyatkin, Hinck, Kirk, Schütze, Hovy 2024) and evaluation
material only: never training or gold data.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TASKS = {
    "explicit_paraphrase_experiments_240124": ("rottger-forced", "templ_id"),
    "explicit_jailbreak_experiments_230124": ("rottger-forced-forcing", "jail_id"),
    "implicit_paraphrase_experiments_230124": ("rottger-open", "templ_id"),
    "implicit_jailbreak_experiments_230124": ("rottger-open-forcing", "jail_id"),
}
CITATION = ("Röttger, Hofmann, Pyatkin, Hinck, Kirk, Schütze, Hovy (2024). Political Compass or Spinning Arrow? "
            "Towards More Meaningful Evaluations for Values and Opinions in Large Language Models. ACL 2024. "
            "Completions from github.com/paul-rottger/llm-values-pct (commit b4e5d89), data/completions/.")
LICENCE = "CC BY 4.0"


def item_id(pct_id: str) -> str:
    number = int(re.fullmatch(r"pc-(\d+)", pct_id).group(1))  # type: ignore[union-attr]
    return f"pct-{number:02d}"


def import_rows(source: Path) -> dict[str, list[dict]]:
    """The import rows per model."""
    per_model: dict[str, list[dict]] = defaultdict(list)
    with gzip.open(source / "completions.jsonl.gz", "rt", encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            task, variant_field = TASKS[row["experiment"]]
            per_model[row["model"]].append({"task": task, "item": item_id(row["pct_id"]),
                                            "variant": row[variant_field], "response": row["completion"],
                                            "model": row["model"], "prompt": row["full_prompt"]})
    return per_model


def write_fixture(per_model: dict[str, list[dict]]) -> None:
    seen = {}
    for rows in per_model.values():
        for r in rows:
            seen[(r["task"], r["item"], r["variant"])] = r["prompt"]
    out = ROOT / "tests" / "fixtures" / "rottger2024" / "prompts.jsonl.gz"
    out.parent.mkdir(parents=True, exist_ok=True)
    with gzip.GzipFile(out, "wb", mtime=0) as handle:
        for (task, item, variant), prompt in sorted(seen.items()):
            handle.write((json.dumps({"task": task, "item": item, "variant": variant, "full_prompt": prompt},
                                     ensure_ascii=False) + "\n").encode("utf-8"))
    print(f"wrote {out} ({len(seen)} prompts)")


def polibench(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "polibench", *args], check=True, cwd=ROOT)


def print_table(entries_dir: Path) -> None:
    """Per model and task pair (Markdown): each channel's own position with its interval (each on its own answer
    scale), the side gap open − forced with its paired two-level interval, the statements with a side in both
    channels, the statements without a side in each (no kept answer / refused / tied), the share on the same side,
    and the share of responses each channel kept."""
    from polibench.leaderboard.schema import entry_paths, load_entry

    def fmt(metric) -> str:
        if metric is None or metric.value is None:
            return "–"
        return f"{metric.value:+.2f}" + (f" [{metric.ci[0]:+.2f}, {metric.ci[1]:+.2f}]" if metric.ci else "")

    def coord(task, axis: str) -> str:
        return fmt(task.estimate("pct_coordinates", axis))

    def gap(c, axis) -> str:
        ci = c.side_gap_ci[axis]
        return (f"{c.side_gap[axis]:+.2f}" + (f" [{ci[0]:+.2f}, {ci[1]:+.2f}]" if ci else "")
                + (" (degenerate)" if c.side_gap_degenerate.get(axis) else ""))

    def dropped(c, task) -> str:
        d = c.dropped.get(task)
        return "–" if d is None else f"{d.no_kept_answer} / {d.refused} / {d.tied}"

    print("| model | tasks | forced econ. (own scale) | open econ. (own scale) | forced social (own scale) "
          "| open social (own scale) | side gap econ. | side gap social | side in both | no side forced "
          "| no side open | same side | forced kept | open kept |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for path in entry_paths(entries_dir):
        entry = load_entry(path)
        if entry.imported is None or not any(t.name.startswith("rottger-") for t in entry.tasks):
            continue  # Röttger et al.'s entries only (PrismIA's are imported too)
        tasks = {t.name: t for t in entry.tasks}
        for c in entry.run_block("channels") or []:
            a, b = tasks[c.a], tasks[c.b]
            same = "–" if c.side_agreement is None else f"{c.side_agreement:.2f}"
            print(f"| {entry.model.id} | {c.a.removeprefix('rottger-')} / {c.b.removeprefix('rottger-')} "
                  f"| {coord(a, 'economic')} | {coord(b, 'economic')} | {coord(a, 'social')} | {coord(b, 'social')} "
                  f"| {gap(c, 'economic')} | {gap(c, 'social')} | {c.items_both} | {dropped(c, c.a)} "
                  f"| {dropped(c, c.b)} | {same} "
                  f"| {a.coverage.kept_share:.3f} | {b.coverage.kept_share:.3f} |")
        if not entry.run_block("channels"):
            for t in entry.tasks:
                print(f"| {entry.model.id} | {t.name.removeprefix('rottger-')} only | {coord(t, 'economic')} | – "
                      f"| {coord(t, 'social')} | – | – | – | – | – | – | – | {t.coverage.kept_share:.3f} | – |")


NUMBERED_OPTION = re.compile(r"(?<![\w])([1-4])\s*[).]\s*\**\s*(strongly disagree|disagree|agree|strongly agree)\b",
                             re.I)


def print_parser_check(entries_dir: Path) -> None:
    """The forced-choice parser against the imported entries. Recall: among the forced-choice responses that name
    exactly one numbered option ("N) Label" or "N. Label", N that option's number), how many the parser did not read
    as it, and why (several options, refused, conflicting: named and then taken back or opposed). Conflicting: how
    many responses in all the parser left to the stance scorer as conflicting. Precision: on the stratified sample
    read by hand (tests/fixtures/rottger2024/forced_choice_precision.jsonl), per stratum and weighted by how many
    of the entries' parsed responses each stratum holds."""
    from collections import Counter

    from polibench.leaderboard.schema import entry_paths
    from polibench.scoring.forced_choice import _CHAT_MARKER, CONFLICTING, OPTIONS, READ, _option, read_forced_choice

    named = unread = 0
    why: Counter = Counter()
    conflicting = 0
    parsed: Counter = Counter()
    for path in entry_paths(entries_dir):
        if not json.loads(path.read_text(encoding="utf-8")).get("imported"):  # raw JSON: older entries count too
            continue
        with gzip.open(Path(str(path).removesuffix(".json") + ".samples.jsonl.gz"), "rt", encoding="utf-8") as handle:
            for line in handle:
                sample = json.loads(line)
                if not sample["task"].startswith("rottger-forced"):
                    continue
                response = sample["response"] or ""
                option, status = read_forced_choice(response, reverse=sample["task"].endswith("reversed"))
                conflicting += status == CONFLICTING
                if status == READ:
                    whole = _option(_CHAT_MARKER.sub("", response, count=1)) is not None
                    parsed["whole response is the option" if whole else "option found inside a longer answer"] += 1
                options = {n for n, label in ((int(m.group(1)) - 1, m.group(2).lower())
                                              for m in NUMBERED_OPTION.finditer(response))
                           if OPTIONS[n] == label}
                if len(options) == 1:
                    named += 1
                    missed = (sample["stance"] or {}).get("scorer") != f"forced_choice:{OPTIONS[options.pop()]}"
                    unread += missed
                    if missed:
                        why[status] += 1
    print(f"forced-choice responses naming exactly one numbered option: {named}; not read as that option: {unread}"
          + (f" ({', '.join(f'{n} {k}' for k, n in why.most_common())})" if why else ""))
    print(f"responses left to the stance scorer as conflicting (one option named, then taken back or opposed): "
          f"{conflicting}")
    fixture = ROOT / "tests" / "fixtures" / "rottger2024" / "forced_choice_precision.jsonl"
    right: Counter = Counter()
    total: Counter = Counter()
    for line in fixture.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        total[row["stratum"]] += 1
        right[row["stratum"]] += read_forced_choice(row["response"])[0] == row["expected"]
    weighted = sum(parsed[k] * right[k] / total[k] for k in total) / max(1, sum(parsed[k] for k in total))
    print("precision on the sample read by hand: " + "; ".join(
        f"{k}: {right[k]}/{total[k]} (stratum holds {parsed[k]} parsed responses)" for k in total)
        + f"; weighted by stratum: {weighted:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path, nargs="?", help="the folder of Röttger et al.'s completions (to import)")
    parser.add_argument("--work", type=Path, default=ROOT / "runs" / "rottger2024")
    parser.add_argument("--entries", type=Path, default=ROOT / "leaderboard" / "entries")
    parser.add_argument("--models", help="comma-separated subset of models")
    parser.add_argument("--fixture", action="store_true")
    parser.add_argument("--no-submit", action="store_true")
    parser.add_argument("--table", action="store_true", help="only print the per-model table from --entries")
    parser.add_argument("--parser-check", action="store_true",
                        help="only count forced-choice responses naming one numbered option, not read as it")
    parser.add_argument("--reverse", action="store_true", help="models in reverse order (to split the work)")
    parser.add_argument("--skip-started", action="store_true", help="skip models whose run folder exists")
    parser.add_argument("--smoke", action="store_true", help="the first model's forced-choice rows (620), lexical "
                        "scorer, scratch folders, no submission (only checks that the script runs)")
    args = parser.parse_args()
    extra: tuple[str, ...] = ()
    if args.smoke:
        args.source = args.source or Path("/work/shared/external/rottger2024")
        args.work, args.no_submit = Path(tempfile.mkdtemp(prefix="rottger-smoke-")), True
        extra = ("--scorer", "lexical")
    if args.table:
        print_table(args.entries)
        return
    if args.parser_check:
        print_parser_check(args.entries)
        return
    if args.source is None:
        parser.error("give the folder of the completions (SOURCE), or --table / --parser-check")
    per_model = import_rows(args.source)
    if args.fixture:
        write_fixture(per_model)
    wanted = args.models.split(",") if args.models else sorted(per_model, reverse=args.reverse)
    if args.smoke:
        wanted = wanted[:1]
        per_model = {m: [r for r in per_model[m] if r["task"] == "rottger-forced"] for m in wanted}
    args.work.mkdir(parents=True, exist_ok=True)
    for model in wanted:
        rows = per_model[model]
        tasks = sorted({r["task"] for r in rows})
        name = model.replace("/", "__")
        path = args.work / f"{name}.jsonl"
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        run_dir = args.work / name
        if args.skip_started and run_dir.exists():
            continue
        run_dir.mkdir(parents=True, exist_ok=True)  # claim the model at once (another --skip-started process skips it)
        print(f"{model}: {len(rows)} responses, tasks {', '.join(tasks)}", flush=True)
        polibench("import", str(path), "--tasks", ",".join(tasks), "--output", str(run_dir),
                  "--citation", CITATION, "--licence", LICENCE, "--no-progress", *extra)
        if not args.no_submit:
            polibench("submit", str(run_dir), "--entries", str(args.entries), "--force")


if __name__ == "__main__":
    main()
