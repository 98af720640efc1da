"""Re-read the shipped entries' samples with this polibench's answer readers, after a change to a reader.

    PYTHONPATH=$PWD python benchmarks/reparse_entries.py leaderboard/entries
    PYTHONPATH=$PWD python benchmarks/refresh_entries.py leaderboard/entries   # then recompute every number

A reader (the forced-choice parser, the Likert reader) decides some answers before the stance scorer sees them
(polibench.scoring.readers). When a reader changes, a shipped sample whose reading changes must be read again:
a response the reader now reads gets the reader's stance; a response it now leaves goes to the entry's own
stance scorer. Only those samples are read again, so the scorer runs on a handful of responses instead of the
whole entry. The scorer must be the one the entry was scored with: its name, labels, threshold and options (the
embedded scorer's key) are checked against the entry's results.json, and an entry scored with anything else is
left alone with a message (re-import it instead, e.g. benchmarks/rottger2024_import.py). The entry's samples
file, the samples hash in its results.json and its hashes are rewritten; run refresh_entries.py afterwards.
``--dry-run`` only counts the samples whose reading would change; ``--smoke`` is that dry run on the first entry,
in a temporary copy.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from collections import Counter
from pathlib import Path

from polibench.leaderboard.artifacts import gzip_bytes, read_artifact, sha256_bytes
from polibench.leaderboard.schema import entry_json, entry_paths, load_entry
from polibench.leaderboard.verify import files_shipped
from polibench.records import Sample
from polibench.results.files import atomic_write_text, parse_json, parse_samples
from polibench.results.migrate import migrate
from polibench.scoring.readers import reader_for
from polibench.scoring.registry import create_scorer
from polibench.scoring.stage import score_samples

SETTINGS = ("scorer", "labels", "threshold")  # the rest of a task's scoring record is the scorer's own options


def reading_changed(sample: Sample) -> bool:
    """Whether this polibench's reader reads ``sample`` otherwise than its stored stance says it was read."""
    reader = reader_for(sample.scoring)
    if not reader.reads_text or sample.stance is None or not (sample.response or "").strip():
        return False
    now = reader.read(sample)
    stored = sample.stance
    read_before = ":" in stored.scorer and stored.scorer.split(":", 1)[0] == reader.name.removesuffix("_reversed")
    if now is None:
        return read_before
    return not read_before or now.model_dump() != stored.model_dump()


def reparse(path: Path, dry_run: bool = False) -> str:
    """Re-read one entry's changed samples in place; what was done, in words."""
    entry = load_entry(path)
    folder = path.parent
    if not files_shipped(entry, folder):
        return "skipped (files not shipped)"
    samples = parse_samples(read_artifact(folder, entry.samples), entry.samples.file)
    changed = [n for n, s in enumerate(samples) if reading_changed(s)]
    if not changed or dry_run:
        return f"{len(changed)} samples read otherwise" + (" (dry run)" if dry_run and changed else "")
    document = migrate(parse_json(read_artifact(folder, entry.results), entry.results.file), entry.results.file)
    per_task = Counter(samples[n].task for n in changed)
    for task in per_task:
        record = document.scoring[task]
        scorer = create_scorer(record["scorer"], record["labels"])
        options = {k: v for k, v in record.items() if k not in SETTINGS}
        if {k: scorer.options.get(k) for k in options} != options:
            return (f"left alone: task {task} was scored with {record['scorer']} {options}, this polibench's "
                    f"scorer has {scorer.options}; re-import the entry instead")
        mine = [n for n in changed if samples[n].task == task]
        for n, read in zip(mine, score_samples([samples[n] for n in mine], scorer, threshold=record["threshold"],
                                               show_progress=False)):
            samples[n] = read
        getattr(scorer, "close", lambda: None)()
    data = "".join(s.model_dump_json() + "\n" for s in samples).encode("utf-8")
    samples_file = gzip_bytes(data, folder / entry.samples.file)
    document = document.model_copy(update={"samples_sha256": sha256_bytes(data)})
    results_file = gzip_bytes(document.to_json().encode("utf-8"), folder / entry.results.file)
    atomic_write_text(path, entry_json(entry.model_copy(update={"samples": samples_file, "results": results_file})))
    return f"{len(changed)} samples read again ({', '.join(f'{t}: {n}' for t, n in sorted(per_task.items()))})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("entries", type=Path, help="entries folder (leaderboard/entries)")
    parser.add_argument("--dry-run", action="store_true", help="only count the samples whose reading would change")
    parser.add_argument("--smoke", action="store_true", help="the dry run on the first entry, in a temporary copy")
    args = parser.parse_args(argv)
    paths = entry_paths(args.entries)
    left = 0
    with tempfile.TemporaryDirectory() as tmp:
        if args.smoke:
            for p in args.entries.glob(paths[0].name.removesuffix(".json") + ".*"):
                shutil.copy(p, tmp)
            paths, args.dry_run = [Path(tmp) / paths[0].name], True
        for path in paths:
            outcome = reparse(path, args.dry_run)
            left += outcome.startswith("left alone")
            print(f"{path.name}: {outcome}", flush=True)
    return 1 if left else 0


if __name__ == "__main__":
    sys.exit(main())
