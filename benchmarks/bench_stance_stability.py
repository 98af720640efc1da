"""How far the embedded stance scorer's reading moves when its training is perturbed (issue 36 §1).

    PYTHONPATH=$PWD nice -n 10 python benchmarks/bench_stance_stability.py --work /work/cache/stance/study \
        [--recipe 2] [--runs reference,kernels-default,threads-1,seed-1,...] [--entries leaderboard/entries]
    PYTHONPATH=$PWD python benchmarks/bench_stance_stability.py --work DIR --table       # the table only
    PYTHONPATH=$PWD python benchmarks/bench_stance_stability.py --smoke                  # CI size, scratch folder

Each *run* trains the scorer's recipe (``polibench.scorers.stance.embedded.recipe(version)``) on the gold data it
trains on, once, in its own process, with one perturbation of the arithmetic or of the training (:data:`RUNS`): torch's
CPU kernels (``ATEN_CPU_CAPABILITY=default`` instead of the machine's own, AVX2 here), MKL's code path
(``MKL_CBWR=COMPATIBLE``), oneDNN off, one thread instead of two, another training seed, or relative noise of
1e-7 on the initial weights (what another machine's float32 rounding does to the first steps). The reference run
trains as a user's first use does here. Each run then reads every response that a shipped leaderboard entry's
stance scorer read (the unique (statement, response) pairs, in batches sorted by length), and its readings are
replayed through each entry's scoring stage (:mod:`polibench.leaderboard.reread`) against the reference run's:

* the share of (label, kept) pairs that agree with the reference reading, pooled and per entry;
* how far each headline estimate (coordinate, bias) moves, as a share of its interval's width.

``--ensembles A+B:C+D`` adds rows that compare two ensembles of finished runs (their probabilities averaged pair
by pair), e.g. the reference and seeds 1-2 against seeds 3-5: what averaging several seeds would buy.

Goal (issue 36): >= 99% of the pairs agree and no estimate moves by more than a tenth of its interval's width.
Resumable: each run's model and probabilities stay under ``--work`` and are reused; ``--table`` recomputes the
table from them. A run whose weights hash equals the reference's is not scored again (its reading is identical).
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


@dataclasses.dataclass(frozen=True)
class Run:
    """One perturbation of the reference training (``env``: set before torch is imported)."""

    what: str
    threads: int = 2
    seed: int | None = None  # None: the recipe's own
    noise: float = 0.0
    env: tuple[tuple[str, str], ...] = ()
    onednn: bool = True


RUNS = {
    "reference": Run("the recipe as a first use trains it here (machine's kernels, 2 threads)"),
    "kernels-default": Run("torch's generic CPU kernels (ATEN_CPU_CAPABILITY=default, not AVX2)",
                           env=(("ATEN_CPU_CAPABILITY", "default"),)),
    "mkl-compatible": Run("MKL's compatible code path (MKL_CBWR=COMPATIBLE): other matrix-product rounding",
                          env=(("MKL_CBWR", "COMPATIBLE"),)),
    "onednn-off": Run("oneDNN off (torch.backends.mkldnn.enabled = False)", onednn=False),
    "threads-1": Run("one torch thread instead of two (other reduction order in every sum)", threads=1),
    "noise-1e-7": Run("relative noise of 1e-7 on the initial weights (another machine's float32 rounding)", noise=1e-7),
    **{f"seed-{k}": Run(f"training seed {k} instead of the recipe's", seed=k) for k in range(1, 6)},
}
DEFAULT_RUNS = tuple(RUNS)
GOAL_AGREEMENT, GOAL_MOVE = 0.99, 0.10


# ------------------------------------------------------------------------------------------------ the responses
def chosen(name: str, only: str | None) -> bool:
    """Whether entry file ``name`` is in the study: ``only`` is a comma-separated list of parts of names (None: all)."""
    return not only or any(part and part in name for part in only.split(","))


def scorer_pairs(entries: Path, only: str | None = None, limit: int | None = None) -> list[tuple[str, str]]:
    """The unique (statement, response) pairs that the shipped entries' stance scorers read, in a fixed order."""
    from polibench.leaderboard.reread import entry_files, read_by_scorer
    from polibench.leaderboard.schema import entry_paths

    pairs: dict[tuple[str, str], None] = {}
    paths = sorted(entry_paths(entries), key=lambda p: ("rottger" in p.name, p.name))  # the short answers first
    for path in paths:
        if not chosen(path.name, only):
            continue
        _, samples = entry_files(path)
        read = [s for s in samples if read_by_scorer(s)]
        for s in read[:limit]:
            pairs.setdefault((s.statement, s.response or ""), None)
    return list(pairs)


# ------------------------------------------------------------------------------------------------ one run
def train_and_read(run_name: str, recipe_version: int, work: Path, pairs_file: Path, smoke: bool) -> None:
    """In this (fresh) process: train the recipe with the run's perturbation, then read the pairs."""
    import torch

    from polibench.scorers.stance.classifier import ClassifierScorer
    from polibench.scorers.stance.embedded import minilm_path, recipe, training_examples
    from polibench.scorers.stance.train import train_classifier
    from polibench.scoring.fingerprint import weights_digest

    run = RUNS[run_name]
    torch.set_num_threads(run.threads)
    torch.backends.mkldnn.enabled = run.onednn
    settings = recipe(recipe_version)
    if run.seed is not None:
        settings = dataclasses.replace(settings, seed=run.seed)
    if settings.threads is not None and run.threads != 2:  # a recipe that fixes its threads trains on the run's
        settings = dataclasses.replace(settings, threads=run.threads)
    train = training_examples()
    if smoke:
        train, settings = train[:16], dataclasses.replace(settings, steps=2, batch_size=8, max_length=64)
    folder = work / f"recipe-{recipe_version}" / run_name
    model = folder / "model"
    if not (model / "config.json").is_file():
        callbacks = [_noise_callback(run.noise)] if run.noise else []
        started = time.time()
        train_classifier(str(minilm_path()), train, model, settings, show_progress=False, callbacks=callbacks)
        print(f"{run_name}: trained in {time.time() - started:.0f} s", flush=True)
    torch.set_num_threads(2)  # reading is not chaotic: every run reads on two threads
    scorer = ClassifierScorer(model=str(model), batch_size=16)
    _, loaded, _ = scorer.load()
    digest = weights_digest(loaded.state_dict())
    (folder / "weights.txt").write_text(digest + "\n", encoding="utf-8")
    pairs = [tuple(p) for p in json.loads(pairs_file.read_text(encoding="utf-8"))]
    reference = work / f"recipe-{recipe_version}" / "reference"
    if run_name != "reference" and (reference / "weights.txt").is_file() \
            and (reference / "weights.txt").read_text().strip() == digest:
        (folder / "same_as_reference").write_text(digest + "\n", encoding="utf-8")
        print(f"{run_name}: weights identical to the reference run's ({digest}): its reading is the reference's",
              flush=True)
        return
    done = stored_readings(folder)
    todo = [p for p in pairs if pair_key(p) not in done]
    started = time.time()
    with (folder / READINGS).open("a", encoding="utf-8") as out:
        for start in range(0, len(todo), 256):  # saved as it goes: a killed run resumes where it stopped
            chunk = todo[start:start + 256]
            for pair, probs in zip(chunk, scorer.predict_probs([p[0] for p in chunk], [p[1] for p in chunk])):
                out.write(json.dumps({"k": pair_key(pair), "p": probs}) + "\n")
            out.flush()
            print(f"{run_name}: read {start + len(chunk)}/{len(todo)} responses in {time.time() - started:.0f} s",
                  flush=True)


def _noise_callback(relative: float):
    """Multiply every trainable weight by (1 + relative * N(0, 1)) when training begins (fixed noise seed)."""
    import torch
    from transformers import TrainerCallback

    class Noise(TrainerCallback):
        def on_train_begin(self, args, state, control, model=None, **kwargs):
            generator = torch.Generator().manual_seed(7)
            with torch.no_grad():
                for _, parameter in sorted(model.named_parameters()):
                    if parameter.requires_grad:
                        noise = torch.randn(parameter.shape, generator=generator, dtype=torch.float64)
                        parameter.mul_((1 + relative * noise).to(parameter.dtype))

    return Noise()


READINGS = "readings.jsonl"


def pair_key(pair) -> str:
    return hashlib.sha256(f"{pair[0]}\0{pair[1]}".encode()).hexdigest()[:20]


def stored_readings(folder: Path) -> dict[str, dict]:
    path = folder / READINGS
    if not path.is_file():
        return {}
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:  # a line cut by a killed run
            continue
        out[row["k"]] = row["p"]
    return out


def run_in_process(run_name: str, args, pairs_file: Path) -> None:
    """One run in a fresh process, so that its environment (kernels, MKL path) applies from torch's import on."""
    env = {**os.environ, **dict(RUNS[run_name].env), "PYTHONPATH": str(ROOT)}
    command = [sys.executable, __file__, "--work", str(args.work), "--recipe", str(args.recipe), "--_one", run_name,
               "--_pairs", str(pairs_file)] + (["--smoke"] if args.smoke else [])
    subprocess.run(command, env=env, check=True)


# ------------------------------------------------------------------------------------------------ the table
class ReplayScorer:
    """A stance scorer that returns stored probabilities (the run's reading) for known pairs."""

    def __new__(cls, labels, table):
        from polibench.scoring.base import StanceResult, StanceScorer

        class Replay(StanceScorer):
            name = "embedded"

            def score(self, statements, responses, progress=None):
                out = []
                for statement, response in zip(statements, responses):
                    probs = table[(statement, response or "")]
                    top = max(probs, key=probs.get)
                    out.append(StanceResult(top if top in self.labels else None, probs[top], probs))
                    if progress:
                        progress(1)
                return out

        return Replay(labels)


def readings(work: Path, recipe_version: int, pairs: list[tuple[str, str]], names) -> dict[str, dict]:
    """Each finished run's probabilities for every pair (a run whose weights are the reference's gets its reading)."""
    out = {}
    base = work / f"recipe-{recipe_version}"
    for name in names:
        folder = base / ("reference" if (base / name / "same_as_reference").is_file() else name)
        stored = stored_readings(folder)
        if pairs and all(pair_key(p) in stored for p in pairs):
            out[name] = {p: stored[pair_key(p)] for p in pairs}
    return out


def finished(work: Path, recipe_version: int, name: str, pairs) -> bool:
    return name in readings(work, recipe_version, pairs, [name])


def averaged(tables: list[dict]) -> dict:
    """Several runs' probabilities averaged pair by pair: the reading of an ensemble of their scorers."""
    return {pair: {label: sum(t[pair][label] for t in tables) / len(tables) for label in tables[0][pair]}
            for pair in tables[0]}


def ensemble_comparisons(specs: list[str], runs: dict) -> list[tuple[str, str, str, str]]:
    """``A+B+C:D+E+F`` -> the averaged readings of both sides added to ``runs``, and (row, base, other, what)."""
    out = []
    for spec in specs:
        sides = [side.split("+") for side in spec.split(":")]
        if len(sides) != 2 or not all(sides[0]) or not all(sides[1]):
            raise SystemExit(f"--ensembles: {spec!r} is not of the form RUN+RUN...:RUN+RUN...")
        missing = sorted({name for side in sides for name in side} - set(runs))
        if missing:
            raise SystemExit(f"--ensembles {spec}: run(s) {', '.join(missing)} not read yet (or not in --runs)")
        keys = []
        for side in sides:
            key = f"mean({','.join(side)})"
            runs.setdefault(key, averaged([runs[name] for name in side]))
            keys.append(key)
        out.append((f"{keys[1]} vs {keys[0]}", keys[0], keys[1],
                    f"an ensemble of {len(sides[1])} run(s)' scorers (probabilities averaged) against another of "
                    f"{len(sides[0])}"))
    return out


def table(args, pairs: list[tuple[str, str]]) -> dict:
    """Compare every finished run with the reference run (and each --ensembles pair), entry by entry; print and
    return the figures."""
    from polibench.leaderboard.reread import compare, entry_files, reread_samples
    from polibench.leaderboard.schema import entry_paths

    runs = readings(args.work, args.recipe, pairs, args.runs)
    if "reference" not in runs:
        raise SystemExit("the reference run has not been read yet")
    comparisons = [(name, "reference", name, RUNS[name].what) for name in runs if name != "reference"]
    comparisons += ensemble_comparisons(args.ensembles, runs)
    known = set(pairs)
    figures: dict = {"recipe": args.recipe, "runs": {}}
    entries = [p for p in entry_paths(args.entries) if chosen(p.name, args.only)]
    replayed = {}
    for path in entries:
        document, samples = entry_files(path)
        if args.smoke:  # keep the pairs that were read, and only those
            samples = [s for s in samples if s.stance is None or (s.statement, s.response or "") in known
                       or ":" in (s.stance.scorer or "") or s.stance.scorer in ("", "none")]
        replayed[path.name] = (document, {name: reread_samples(document, samples, _replayer(table_))
                                          for name, table_ in runs.items()})
    for row, base, name, what in comparisons:
        read = changed = 0
        worst_entry, worst_move, per_entry = (None, 1.0), (None, 0.0), {}
        for entry, (document, by_run) in replayed.items():
            found = compare(entry, document, by_run[base], by_run[name])
            read, changed = read + found.read, changed + found.pairs_changed
            move = found.largest_move or 0.0
            per_entry[entry] = {"read": found.read, "pairs_changed": found.pairs_changed,
                                "agreement": round(found.agreement, 4), "largest_move": round(move, 4),
                                "moves": [m.describe() for m in found.movements if (m.share or 0) > GOAL_MOVE]}
            if worst_entry[0] is None or found.agreement < worst_entry[1]:
                worst_entry = (entry, found.agreement)
            if move > worst_move[1]:
                worst_move = (f"{entry}: {max(found.movements, key=lambda m: m.share or 0).describe()}", move)
        agreement = 1 - changed / read if read else 1.0
        figures["runs"][row] = {"what": what, "read": read, "pairs_changed": changed,
                                "agreement": round(agreement, 4), "worst_entry": worst_entry[0],
                                "worst_entry_agreement": round(worst_entry[1], 4),
                                "largest_move": round(worst_move[1], 4), "largest_move_at": worst_move[0],
                                "meets_goal": agreement >= GOAL_AGREEMENT and worst_entry[1] >= GOAL_AGREEMENT
                                and worst_move[1] <= GOAL_MOVE, "entries": per_entry}
    print_table(figures)
    return figures


def _replayer(table_):
    return lambda task, labels: ReplayScorer(labels, table_)


def print_table(figures: dict) -> None:
    print(f"\nrecipe {figures['recipe']}: each run against the reference run (goal: >= {GOAL_AGREEMENT:.0%} of "
          f"(label, kept) pairs agree, pooled and in every entry; no estimate moves > {GOAL_MOVE:.0%} of its "
          "interval's width)\n")
    print("| run | what changes | (label, kept) agree | worst entry | largest move (share of width) | goal |")
    print("|---|---|---|---|---|---|")
    for name, f in figures["runs"].items():
        print(f"| {name} | {f['what']} | {f['agreement']:.2%} ({f['read'] - f['pairs_changed']}/{f['read']}) | "
              f"{f['worst_entry_agreement']:.1%} ({f['worst_entry']}) | {f['largest_move']:.2f} | "
              f"{'met' if f['meets_goal'] else 'MISSED'} |")
    for name, f in figures["runs"].items():
        if f["largest_move"] > GOAL_MOVE:
            print(f"{name}: largest move {f['largest_move_at']}")


# ------------------------------------------------------------------------------------------------ main
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, help="where models, readings and the table are kept (resumable)")
    parser.add_argument("--recipe", type=int, default=None, help="recipe version (default: the embedded default's)")
    parser.add_argument("--runs", default=",".join(DEFAULT_RUNS), help=f"comma-separated, of {', '.join(RUNS)}")
    parser.add_argument("--entries", type=Path, default=ROOT / "leaderboard" / "entries")
    parser.add_argument("--only", help="only the entries whose file name contains one of these (comma-separated), "
                                       "e.g. SmolLM2,prismia")
    parser.add_argument("--table", action="store_true", help="print the table from the runs done so far")
    parser.add_argument("--ensembles", default="",
                        help="also compare ensembles of finished runs, probabilities averaged: comma-separated "
                             "A+B+C:D+E+F (e.g. reference+seed-1+seed-2:seed-3+seed-4+seed-5); each side's runs "
                             "must be in --runs")
    parser.add_argument("--smoke", action="store_true", help="CI size: 16 examples, 2 steps of 8 at length 64, 2 "
                                                             "runs, 20 responses of the demo entry, in a scratch "
                                                             "folder")
    parser.add_argument("--_one", help=argparse.SUPPRESS)
    parser.add_argument("--_pairs", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    from polibench.scorers.stance.embedded import RECIPE_VERSION

    args.recipe = args.recipe or RECIPE_VERSION
    if args._one:
        train_and_read(args._one, args.recipe, args.work, args._pairs, args.smoke)
        return 0
    args.runs = [r for r in args.runs.split(",") if r]
    args.ensembles = [e for e in args.ensembles.split(",") if e]
    unknown = [r for r in args.runs if r not in RUNS]
    if unknown:
        parser.error(f"unknown run(s) {unknown}; known: {', '.join(RUNS)}")
    if "reference" not in args.runs:
        args.runs.insert(0, "reference")
    with tempfile.TemporaryDirectory() as scratch:
        if args.smoke:
            args.work, args.runs, args.only = Path(scratch), ["reference", "threads-1"], "SmolLM2"
            args.ensembles = ["reference:reference+threads-1"]
        if args.work is None:
            parser.error("--work DIR is needed (or --smoke)")
        args.work.mkdir(parents=True, exist_ok=True)
        pairs = scorer_pairs(args.entries, args.only, 20 if args.smoke else None)
        selection = hashlib.sha256(json.dumps(pairs).encode()).hexdigest()[:10]
        pairs_file = args.work / f"pairs-{selection}.json"  # one file per selection of entries
        if not pairs_file.is_file() or json.loads(pairs_file.read_text(encoding="utf-8")) != [list(p) for p in pairs]:
            pairs_file.write_text(json.dumps(pairs), encoding="utf-8")
        if not args.table:
            for name in args.runs:
                if not finished(args.work, args.recipe, name, pairs):
                    run_in_process(name, args, pairs_file)
        figures = table(args, [tuple(p) for p in json.loads(pairs_file.read_text(encoding="utf-8"))])
        name = "all" if not args.only else "".join(c if c.isalnum() else "-" for c in args.only)
        out = args.work / f"recipe-{args.recipe}" / f"table-{name}.json"
        if not args.smoke:
            out.write_text(json.dumps(figures, indent=1), encoding="utf-8")
            print(f"\nwrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
