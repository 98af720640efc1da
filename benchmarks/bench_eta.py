"""Is the progress bar's ETA within a factor of 2 of the truth after the first 5% of a run? On the embedded model.

Generates the PCT on the embedded SmolLM2 model (llamacpp, batches of 16, no response cache) through the same
generation stage and ETA estimator as ``polibench run`` (polibench.models.stage, polibench.models.eta), records
the remaining time the bar would show at every completed response, and compares it, once the run is over, with
the time that really remained. Printed: the worst factor between the two from 5% of the responses on (while
more than ``--tail`` seconds remained; closer to the end a factor says little, so the largest absolute error
there is printed instead), the factor at 5%, 10%, 25%, 50% and 75%, and the load average before and after (the
machine may be shared). ``--prior`` gives the estimator a recorded speed (seconds per response), as a run after
the first on the same machine has; by default it has none, as on the first run.

    python benchmarks/bench_eta.py                 # the demo's size: 62 statements x 10 responses (~7 min)
    python benchmarks/bench_eta.py --limit 20      # 200 responses
    python benchmarks/bench_eta.py --smoke         # 2 statements x 4 responses: checks the script works
"""

from __future__ import annotations

import argparse
import os
import time

from polibench.models.eta import EtaEstimator, decode_batch
from polibench.models.registry import create_backend
from polibench.models.select import choose
from polibench.models.stage import generate_samples
from polibench.pipeline.plan import build_samples
from polibench.taskspec.loader import load_registry


class RecordingEstimator(EtaEstimator):
    """The run's estimator, keeping (elapsed, done, shown remaining seconds) at every update."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.trace: list[tuple[float, int, float | None]] = []

    def update(self, done: int, reused: int, elapsed: float) -> None:
        super().update(done, reused, elapsed)
        self.trace.append((elapsed, done, self.remaining()))


def factors(trace: list[tuple[float, int, float | None]], end: float, total: int, tail: float, start: int) -> dict:
    """Worst factor from ``start`` responses on (while more than ``tail`` s remained), the largest error in the
    tail, and the factor at 5%, 10%, 25%, 50% and 75%."""
    worst, worst_at, tail_error, at = 1.0, None, 0.0, {}
    for elapsed, done, shown in trace:
        if shown is None:
            continue
        for share in (0.05, 0.1, 0.25, 0.5, 0.75):
            if share not in at and done >= share * total:
                at[share] = (done, shown, end - elapsed)
        if done < start:
            continue
        left = end - elapsed
        if left <= tail:
            tail_error = max(tail_error, abs(shown - left))
            continue
        factor = max(shown / left, left / shown) if shown > 0 else float("inf")
        if factor > worst:
            worst, worst_at = factor, done
    return {"worst": worst, "worst_at": worst_at, "tail_error": tail_error, "at": at}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, help="only the first N statements (default: all 62)")
    parser.add_argument("--samples", type=int, help="responses per statement (default: the task's, 10)")
    parser.add_argument("--prior", type=float, help="a recorded speed, seconds per response (default: none)")
    parser.add_argument("--tail", type=float, default=30.0, help="seconds before the end left out of the factor")
    parser.add_argument("--threads", type=int, help="llama.cpp threads (default: the backend's, all cores)")
    parser.add_argument("--smoke", action="store_true", help="2 statements x 4 responses of 16 tokens at most")
    args = parser.parse_args()
    if args.smoke:
        args.limit, args.samples = 2, 4

    registry = load_registry([])
    task = registry.task("pct")
    generation = task.generation.model_copy(update={"max_new_tokens": 16}) if args.smoke else task.generation
    backend_name, model, _ = choose(None, None)
    load_before = os.getloadavg()
    with create_backend(backend_name, model, {"n_threads": args.threads} if args.threads else {}) as backend:
        samples = build_samples(task, registry, samples_per_prompt=args.samples, limit=args.limit,
                                model_name=backend.display_name)
        estimator = RecordingEstimator(len(samples), prior_seconds=args.prior, batch=decode_batch(backend))
        start = time.perf_counter()
        generate_samples(samples, backend, generation, show_progress=False, estimator=estimator)
        end = time.perf_counter() - start
    start = estimator.warm_up_size()
    found = factors(estimator.trace, end, len(samples), args.tail, start)
    print(f"backend {backend_name}, {len(samples)} responses in {end:.1f} s; prior "
          f"{'none' if args.prior is None else f'{args.prior} s per response'}; "
          f"{args.threads or 'default'} threads; load average "
          f"{load_before[0]:.1f} before, {os.getloadavg()[0]:.1f} after ({os.cpu_count()} CPUs)")
    for share, (done, shown, left) in sorted(found["at"].items()):
        factor = f"{max(shown / left, left / shown):.2f}" if shown > 0 and left > 0 else "n/a (a zero time)"
        print(f"  at {share:>4.0%} ({done} done): ETA shown {shown:6.1f} s, true {left:6.1f} s, factor {factor}")
    print(f"worst factor from {start} responses on (5% and a whole batch of {estimator.batch}), while more than "
          f"{args.tail:.0f} s remained: {found['worst']:.2f} "
          f"(at {found['worst_at']} responses); largest error in the last {args.tail:.0f} s: "
          f"{found['tail_error']:.1f} s")


if __name__ == "__main__":
    main()
