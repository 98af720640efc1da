"""Recompute every shipped leaderboard entry from its shipped samples, after a change to a metric or to the scorer.

    PYTHONPATH=$PWD python benchmarks/refresh_entries.py leaderboard/entries
    PYTHONPATH=$PWD python benchmarks/refresh_entries.py leaderboard/entries --reread     # after a scorer change

For each entry whose samples and results are shipped: recompute every task's results and the run-level metrics
from the samples (no model call, no stance scoring: the samples carry their stances), write the new
results.json.gz beside the entry (recording the SHA-256 of the shipped samples in it), and rewrite the entry's task
summaries, run-level blocks and results hash.
A built-in task's pairings with other tasks (``compare_with:``, which its stored config may predate) are taken
from this polibench's task file; they are left out of the spec hash. Everything else (model,
dates, samples) is kept. ``polibench leaderboard verify`` must then report every entry verified. Takes a few
seconds; ``--smoke`` refreshes only the first entry into a temporary copy and verifies it.

``--reread`` first reads every entry's responses again with this machine's stance scorer (each task's own scorer by
name, ``embedded`` for every shipped entry, trained here on first use; issue 36): every sample goes through the
scoring stage again (answer readers, scorer, the run's threshold), the samples file gets the new stances and the
results' ``scoring`` block the scorer's description with its fingerprint. Nothing is generated; the responses, the
model, the dates and the import records stay. About 12,700 responses a scorer reads over the shipped entries: tens of
minutes on 2 cores (with ``--smoke``, the first 40 of the first entry's, into the temporary copy).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

from polibench.leaderboard import extract
from polibench.leaderboard.artifacts import gzip_bytes, read_artifact, sha256_bytes
from polibench.leaderboard.reread import Scorers, reread_samples
from polibench.leaderboard.schema import entry_json, entry_paths, load_entry
from polibench.leaderboard.verify import VERIFIED, files_shipped, verify_path
from polibench.results.check import recompute, recompute_run_metrics
from polibench.results.files import atomic_write_text, parse_json, parse_samples
from polibench.results.migrate import migrate
from polibench.taskspec.loader import load_registry


def refresh(path: Path, scorers: Scorers | None = None) -> bool:
    """Recompute one entry in place (re-reading its responses with ``scorers`` first when given); False when its
    files are not shipped."""
    entry = load_entry(path)
    folder = path.parent
    if not files_shipped(entry, folder):
        return False
    shipped = read_artifact(folder, entry.samples)
    samples = parse_samples(shipped, entry.samples.file)
    document = migrate(parse_json(read_artifact(folder, entry.results), entry.results.file), entry.results.file)
    if scorers is not None:
        samples = reread_samples(document, samples, scorers.scorer_for)
        document = document.model_copy(update={"scoring": {
            name: {**scorers.used(name), "threshold": block.get("threshold")}
            for name, block in document.scoring.items()}})
        shipped = "".join(s.model_dump_json() + "\n" for s in samples).encode("utf-8")
        entry = entry.model_copy(update={"samples": gzip_bytes(shipped, folder / entry.samples.file)})
    # the results record the hash of the samples they are computed from (before, a re-reading left the old one)
    document = document.model_copy(update={"samples_sha256": sha256_bytes(shipped)})
    builtin = load_registry().tasks
    configs = {name: ({**config, "compare_with": [p.model_dump(mode="json") for p in builtin[name].compare_with]}
                      if name in builtin and builtin[name].compare_with and "compare_with" not in config else config)
               for name, config in document.configs.items()}
    document = document.model_copy(update={"configs": configs})
    document = document.model_copy(update={"results": recompute(document, samples)})
    document = document.model_copy(update={"run_metrics": recompute_run_metrics(document, samples, document.results)})
    results = gzip_bytes(document.to_json().encode("utf-8"), folder / entry.results.file)
    entry = entry.model_copy(update={"tasks": extract.task_results(document, document.results), "results": results,
                                     "run_metrics": extract.run_blocks(document.run_metrics)})
    atomic_write_text(path, entry_json(entry))
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("entries", type=Path, help="entries folder (leaderboard/entries)")
    parser.add_argument("--smoke", action="store_true", help="first entry only, in a temporary copy")
    parser.add_argument("--reread", action="store_true", help="re-read every entry's responses with this machine's "
                                                              "stance scorer first (after a scorer change)")
    args = parser.parse_args(argv)
    paths = entry_paths(args.entries)
    with tempfile.TemporaryDirectory() as tmp:
        if args.smoke:
            paths = paths[:1]
            for p in args.entries.glob(paths[0].name.removesuffix(".json") + ".*"):
                shutil.copy(p, tmp)
            paths = [Path(tmp) / paths[0].name]
        failed = 0
        for path in paths:
            scorers = None
            if args.reread:
                results = read_artifact(path.parent, load_entry(path).results)
                recorded = migrate(parse_json(results, "results"), "results")
                scorers = Scorers(names={name: block.get("scorer") or "embedded"
                                         for name, block in recorded.scoring.items()}, quiet=True)
                if args.smoke:
                    _keep_first_read(path, 40)
            done = refresh(path, scorers)
            outcome = verify_path(path)
            failed += outcome.status != VERIFIED
            print(f"{'refreshed' if done else 'skipped (files not shipped)'} {path.name}: {outcome.status}"
                  f"{' ' + outcome.detail if outcome.status != VERIFIED else ''}")
    return 1 if failed else 0


def _keep_first_read(path: Path, n: int) -> None:
    """--smoke --reread: the scratch copy of the entry keeps only its first ``n`` samples per task (and its numbers are
    recomputed from them), so that the smoke run reads few responses."""
    entry = load_entry(path)
    folder = path.parent
    samples = parse_samples(read_artifact(folder, entry.samples), entry.samples.file)
    kept, seen = [], {}
    for s in samples:
        seen[s.task] = seen.get(s.task, 0) + 1
        if seen[s.task] <= n:
            kept.append(s)
    document = migrate(parse_json(read_artifact(folder, entry.results), entry.results.file), entry.results.file)
    document = document.model_copy(update={"n_samples": {t: min(c, n) for t, c in seen.items()}})
    written = "".join(s.model_dump_json() + "\n" for s in kept).encode("utf-8")
    samples_artifact = gzip_bytes(written, folder / entry.samples.file)
    results = gzip_bytes(document.to_json().encode("utf-8"), folder / entry.results.file)
    run = entry.run.model_copy(update={"n_samples": len(kept)})
    atomic_write_text(path, entry_json(entry.model_copy(update={"samples": samples_artifact, "results": results,
                                                                "run": run})))


if __name__ == "__main__":
    sys.exit(main())
