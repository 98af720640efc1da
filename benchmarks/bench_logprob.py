"""The log-probability channel's speed: polibench's ``hf`` backend against lm-eval's ``loglikelihood`` requests,
on the same ``rottger-logprob`` prompts and options, the same model and the same batch size, in one run.

The model is the embedded SmolLM2-135M-Instruct GGUF, de-quantised by transformers and written as an HF folder
(``save_pretrained``; its tokenizer splits digits as llama.cpp does, see polibench.models.hf), which both
harnesses load. polibench scores each prompt's four options with ``HFBackend.score_choices`` (prompts x options
batched, each prompt evaluated once). lm-eval gets a YAML task written here over the same prompts (the chat
template already applied, so both see the same text) with the options as ``multiple_choice`` choices and an
empty target delimiter; its ``HFLM.loglikelihood`` then scores the task's requests (one per prompt and option).
Only the scoring is timed (model loading and request building are not). The run prints both rates, their
ratio, the largest difference between the two harnesses' log-probabilities and the machine's load average.

    python benchmarks/bench_logprob.py --smoke                # 8 prompts, seconds after the model loads
    python benchmarks/bench_logprob.py                        # the 620 prompts (62 statements x 10 templates)
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

from polibench.models.embedded_folder import hf_folder
from polibench.pipeline.plan import build_samples
from polibench.records import Prompt
from polibench.taskspec.loader import load_registry

TASK = "polibench_rottger_logprob"
TASK_YAML = """task: {task}
dataset_path: json
dataset_kwargs:
  data_files:
    test: {docs}
test_split: test
output_type: multiple_choice
doc_to_text: "{{{{context}}}}"
doc_to_choice: "{{{{options}}}}"
doc_to_target: 0
target_delimiter: ""
metric_list:
  - metric: acc
"""


def rottger_prompts(n: int) -> tuple[list[Prompt], list[list[str]]]:
    registry = load_registry()
    samples = build_samples(registry.task("rottger-logprob"), registry, samples_per_prompt=1)[:n]
    prompts = [Prompt(text=s.prompt, seed=s.seed, messages=tuple(s.messages) if s.messages else None) for s in samples]
    return prompts, [list(s.options or []) for s in samples]


def lm_eval_requests(contexts: list[str], options: list[list[str]], workdir: Path) -> list:
    """The loglikelihood requests of a YAML task written over these contexts and options."""
    from lm_eval.tasks import TaskManager, get_task_dict

    docs = workdir / "docs.jsonl"
    docs.write_text("".join(json.dumps({"context": c, "options": o}) + "\n" for c, o in zip(contexts, options)))
    (workdir / f"{TASK}.yaml").write_text(TASK_YAML.format(task=TASK, docs=docs))
    # include_defaults=False: the task is self-contained; indexing lm-eval's thousands of task files is seconds
    task = get_task_dict([TASK], TaskManager(include_path=str(workdir), include_defaults=False))[TASK]
    task.build_all_requests(rank=0, world_size=1)
    instances = sorted(task.instances, key=lambda inst: (inst.doc_id, inst.idx))
    expected = [(c, o) for c, opts in zip(contexts, options) for o in opts]
    if [tuple(inst.arguments) for inst in instances] != expected:
        raise SystemExit("lm-eval's requests are not the prompts and options polibench scores")
    return instances


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="8 prompts")
    parser.add_argument("--prompts", type=int, default=620, help="rottger-logprob prompts to score (at most 620)")
    parser.add_argument("--batch-size", type=int, default=8, help="the same for both harnesses (hf's CPU default)")
    parser.add_argument("--chunk", type=int, default=20, help="prompts per turn; the harnesses alternate turns")
    parser.add_argument("--hf-dir", type=Path, help="where to keep the HF folder made from the GGUF (default: temp)")
    args = parser.parse_args()
    n = min(8, args.prompts) if args.smoke else args.prompts  # --smoke --prompts 2: fewer still

    import torch
    from lm_eval.models.huggingface import HFLM

    from polibench.models.hf import HFBackend

    prompts, options = rottger_prompts(n)
    with tempfile.TemporaryDirectory() as tmp:
        folder = hf_folder(args.hf_dir or Path(tmp) / "hf")
        ours = HFBackend(str(folder), device="cpu", dtype="float32", batch_size=args.batch_size)
        contexts = [ours.render(p) for p in prompts]
        if any(not c.endswith("\n") for c in contexts):
            raise SystemExit("expected ChatML contexts ending in a newline (one surface form per option)")
        requests = lm_eval_requests(contexts, options, Path(tmp))
        theirs = HFLM(pretrained=str(folder), device="cpu", dtype="float32", batch_size=args.batch_size)

        # Chunks alternate between the harnesses (and which goes first), so a change in the machine's load
        # during the run hits both alike: the ratio stays fair on a shared machine.
        load_before = os.getloadavg()
        our_scores: list[list[float]] = []
        their_scores: list[float] = []
        our_seconds = their_seconds = 0.0
        for index, begin in enumerate(range(0, n, args.chunk)):
            end = min(begin + args.chunk, n)
            chunk_requests = requests[sum(len(o) for o in options[:begin]):sum(len(o) for o in options[:end])]

            def run_ours(begin: int = begin, end: int = end) -> float:
                start = time.perf_counter()
                our_scores.extend(ours.score_choices(prompts[begin:end], options[begin:end]))
                return time.perf_counter() - start

            def run_theirs(chunk_requests: list = chunk_requests) -> float:
                start = time.perf_counter()
                their_scores.extend(value for value, _ in theirs.loglikelihood(chunk_requests, disable_tqdm=True))
                return time.perf_counter() - start

            if index % 2 == 0:
                our_seconds += run_ours()
                their_seconds += run_theirs()
            else:
                their_seconds += run_theirs()
                our_seconds += run_ours()
            print(f"  {end}/{n} prompts: polibench {our_seconds:7.1f} s, lm-eval {their_seconds:7.1f} s", flush=True)
        load_after = os.getloadavg()

    flat = [v for row in our_scores for v in row]
    largest = max(abs(a - b) for a, b in zip(flat, their_scores))
    ours_rate, theirs_rate = n / our_seconds, n / their_seconds
    print(f"rottger-logprob: {n} prompts x 4 options ({len(requests)} loglikelihood requests), SmolLM2-135M-Instruct "
          f"(HF folder from the embedded GGUF, float32, CPU, {torch.get_num_threads()} torch threads), "
          f"batch size {args.batch_size}")
    print(f"polibench hf score_choices: {our_seconds:7.1f} s  {ours_rate:7.2f} prompts/s")
    print(f"lm-eval HFLM.loglikelihood: {their_seconds:7.1f} s  {theirs_rate:7.2f} prompts/s")
    print(f"ratio polibench / lm-eval: {ours_rate / theirs_rate:.2f}")
    print(f"largest |log-prob difference| between the two: {largest:.2e}")
    print(f"load average (1 min) before / after: {load_before[0]:.1f} / {load_after[0]:.1f} "
          f"on {os.cpu_count()} CPUs")
    if largest > 1e-2:  # float32 rounding of differently padded batches stays near 1e-3
        raise SystemExit("the two harnesses disagree on the log-probabilities: the rates compare different work")


if __name__ == "__main__":
    main()
