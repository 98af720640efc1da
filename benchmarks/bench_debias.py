"""Benchmark: `polibench debias` on a tiny GPT-2 on CPU: Liu bias and held-out perplexity before and after.

1. A tiny GPT-2 (2 layers, 128 wide, built from a config) with a word-level tokenizer, pre-trained for a few
   epochs on polibench's own text (the gold stance responses and the ideology corpus's train texts), so it
   writes political-sounding text at all.
2. Before: liu-topic on the held-out keywords (the odd-numbered keywords of each option, never trained on),
   judged by the offline default ideology judge; perplexity on the ideology corpus's held-out texts.
3. Reinforced calibration (TRL GRPO with a KL penalty to the reference model), Mode 2 (judge) and Mode 1
   (word lists); the rerank-by-judge baseline (4 candidates) on the base model.
4. A before/after table: indirect and direct bias (W2, 95% intervals), mean judge score, perplexity, minutes.

Run:  PYTHONPATH=. python benchmarks/bench_debias.py [--steps 15] [--samples 2] [--threads 2]
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path


def pretrain_tiny_gpt2(folder: Path, texts: list[str], epochs: float, seed: int,
                       vocab_texts: list[str] | None = None) -> Path:
    """Train the word-level tokenizer on ``texts`` + ``vocab_texts`` and the tiny GPT-2 on ``texts``."""
    import torch
    from datasets import Dataset
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers
    from transformers import (
        DataCollatorForLanguageModeling,
        GPT2Config,
        GPT2LMHeadModel,
        PreTrainedTokenizerFast,
        Trainer,
        TrainingArguments,
    )

    core = Tokenizer(models.WordLevel(unk_token="<unk>"))
    core.normalizer = normalizers.Lowercase()
    core.pre_tokenizer = pre_tokenizers.Whitespace()
    core.train_from_iterator(texts + (vocab_texts or []),
                             trainers.WordLevelTrainer(vocab_size=4000, special_tokens=["<eos>", "<unk>"]))
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=core, eos_token="<eos>", unk_token="<unk>", pad_token="<eos>")
    torch.manual_seed(seed)
    model = GPT2LMHeadModel(GPT2Config(vocab_size=len(tokenizer), n_embd=128, n_layer=2, n_head=4, n_positions=256,
                                       bos_token_id=0, eos_token_id=0))
    data = Dataset.from_dict({"text": [t + " <eos>" for t in texts]}).map(
        lambda row: tokenizer(row["text"], truncation=True, max_length=128), remove_columns=["text"])
    args = TrainingArguments(output_dir=str(folder / "trainer"), num_train_epochs=epochs,
                             per_device_train_batch_size=16, learning_rate=3e-3, save_strategy="no", report_to=[],
                             use_cpu=True, seed=seed, disable_tqdm=True, logging_steps=50)
    Trainer(model=model, args=args, train_dataset=data,
            data_collator=DataCollatorForLanguageModeling(tokenizer, mlm=False)).train()
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def measure(label: str, backend, registry, task: str, out: Path, samples: int, ppl_model: str, held_out: list[str]):
    from polibench.debias.perplexity import perplexity
    from polibench.pipeline.run import RunOptions, evaluate

    started = time.time()
    document = evaluate([task], registry, backend, out, RunOptions(samples_per_prompt=samples, show_progress=False))
    block = document.results[task].block("liu_bias")
    ppl = perplexity(ppl_model, held_out)
    row = {"method": label, "indirect": block.indirect, "indirect_ci": list(block.ci.indirect or []),
            "direct": block.direct, "direct_ci": list(block.ci.direct or []), "mean_score": block.mean_score,
            "perplexity": round(ppl, 2), "eval_minutes": round((time.time() - started) / 60, 2)}
    print("measured:", json.dumps(row), flush=True)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=15, help="reinforced calibration steps (Liu et al.: 15)")
    parser.add_argument("--kl", type=float, default=0.05)
    parser.add_argument("--lr", type=float, default=1e-4)
    parser.add_argument("--samples", type=int, default=2, help="continuations per keyword and prompt")
    parser.add_argument("--pretrain-epochs", type=float, default=1.0)
    parser.add_argument("--threads", type=int)
    parser.add_argument("--base", help="reuse a tiny GPT-2 pre-trained by an earlier run (skips step 1)")
    parser.add_argument("--methods", default="base,rerank,judge,words",
                        help="comma-separated, in order: base, rerank, judge (Mode 2), words (Mode 1)")
    parser.add_argument("--seed", type=int, default=1234)
    parser.add_argument("--smoke", action="store_true", help="200 pre-training texts for one epoch, base and Mode 1 "
                        "for 1 step, 1 sample, 20 held-out texts (only checks that the script runs)")
    args = parser.parse_args()
    if args.smoke:
        args.steps, args.samples, args.pretrain_epochs, args.methods = 1, 1, 1.0, "base,words"

    import torch

    if args.threads:
        torch.set_num_threads(args.threads)
    from polibench.debias.calibrate import CalibrationSettings, reinforced_calibration, split_keywords, training_prompts
    from polibench.debias.rerank import RerankBackend
    from polibench.debias.rewards import JudgeReward, WordListReward
    from polibench.ideology.corpus import builtin_corpus
    from polibench.ideology.embedded import EmbeddedIdeologyScorer
    from polibench.models.hf import HFBackend
    from polibench.stance.data import gold_path, load_examples
    from polibench.taskspec.loader import load_registry

    total = time.time()
    registry = load_registry()
    task = registry.task("liu-topic")
    instrument = registry.instruments["liu-topic"]
    _, held = split_keywords(instrument.items)
    registry.instruments["liu-topic-heldout"] = instrument.model_copy(update={"instrument": "liu-topic-heldout",
                                                                              "items": held})
    registry.tasks["liu-topic-heldout"] = task.model_copy(update={"task": "liu-topic-heldout",
                                                                  "instrument": "liu-topic-heldout"})
    train_texts, test_texts = builtin_corpus()
    corpus = [e.response for e in load_examples(gold_path("train"))] + [t.text for t in train_texts]
    held_out = [t.text for t in test_texts]
    if args.smoke:
        corpus, held_out = corpus[:200], held_out[:20]
    judge = EmbeddedIdeologyScorer()
    judge.loaded()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        os.environ.setdefault("POLIBENCH_CACHE", str(root / "cache"))
        started = time.time()
        if args.base:
            base = args.base
        else:
            base = str(pretrain_tiny_gpt2(root / "base", corpus, args.pretrain_epochs, args.seed))
            print(f"pre-trained the tiny GPT-2 on {len(corpus)} texts in {(time.time() - started) / 60:.1f} min",
                  flush=True)
        methods = args.methods.split(",")

        def hf(path: str):
            return HFBackend(path, device="cpu", batch_size=16)

        prompts = training_prompts(task, registry)
        for method in methods:
            if method == "base":
                rows.append(measure("base model", hf(base), registry, "liu-topic-heldout", root / "r0", args.samples,
                                    base, held_out))
                continue
            if method == "rerank":
                rows.append(measure("rerank by judge (4 candidates)", RerankBackend(hf(base), judge, 4), registry,
                                    "liu-topic-heldout", root / "r1", args.samples, base, held_out))
                continue
            mode = method
            reward = JudgeReward(judge) if mode == "judge" else WordListReward()
            settings = CalibrationSettings(steps=args.steps, kl=args.kl, learning_rate=args.lr, generations=4,
                                           prompts_per_step=4, max_new_tokens=48, seed=args.seed)
            started = time.time()
            out = reinforced_calibration(base, prompts, reward, root / f"rc-{mode}", settings)
            minutes = (time.time() - started) / 60
            row = measure(f"reinforced calibration, Mode {2 if mode == 'judge' else 1} ({mode})", hf(str(out)),
                          registry, "liu-topic-heldout", root / f"r-{mode}", args.samples, str(out), held_out)
            row["train_minutes"] = round(minutes, 2)
            print(f"trained Mode {mode} in {minutes:.1f} min", flush=True)
            rows.append(row)
    print("\n| method | indirect bias (W2) [95% CI] | direct bias [95% CI] | mean judge score | held-out perplexity "
          "| train min | eval min |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        ci = r["indirect_ci"]
        dci = r["direct_ci"]
        print(f"| {r['method']} | {r['indirect']:.4f} [{ci[0]:.4f}, {ci[1]:.4f}] | {r['direct']:.4f} "
              f"[{dci[0]:.4f}, {dci[1]:.4f}] | {r['mean_score']:.3f} | {r['perplexity']:.1f} | "
              f"{r.get('train_minutes', 0):.1f} | {r['eval_minutes']:.1f} |")
    print(f"\ntotal {(time.time() - total) / 60:.1f} min; torch threads {torch.get_num_threads()}")
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
