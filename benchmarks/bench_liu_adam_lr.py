"""Development check: Adam's rate for Algorithm 1 (``polibench.debias.liu.ADAM_LR``), chosen by how well the
paper's K = 15 steps of Adam solve its Eq. 9, argmax_Delta lambda R(Delta) - KL(pi_Delta || pi_0).

Liu et al. name Adam but not its rate. polibench steps Delta = rms(h_t) * u with Adam on u (see
:mod:`polibench.debias.liu`), so the rate is in units of the hidden state's root-mean-square. A rate is good
when the K steps reach most of what the argmax can reach, whatever lambda the adaptive rule has come to:

- hidden states: every position from the 4th token on of **development prompts**, the ``liu-topic`` prompts
  filled with its first keywords (the planted-debias benchmark evaluates ``liu-location``), read by the
  **base** models (never a planted one);
- for each state, mode (Mode 1's word rewards; Mode 2's candidate rewards from the guidance judge
  ``ideology_tfidf``, the preceding tokens filling its windows) and lambda in ``--lambdas`` (0.1, 0.6, 2.4):
  F = lambda R - KL after K steps at each rate, and F* the best F that any rate reaches, at K steps or after
  ``--reference-steps`` (100);
- gain = (F_K - F(0)) / (F* - F(0)), 1 = the K steps reach the best found; below 0 = they end worse than no
  calibration. The chosen rate is the one with the highest mean gain (decided before the check was run), and
  the script prints it with the mean KL the K steps spend.

This is an optimiser check on base models and development prompts; it reads no bias figure.

Run:  PYTHONPATH=. python benchmarks/bench_liu_adam_lr.py --model DIR [--model DIR ...] [--smoke]
``--smoke`` (CI): a tiny GPT-2 pre-trained here for a few steps, 2 prompts, 2 rates, 20 reference steps.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

RATES = (0.001, 0.003, 0.01, 0.03, 0.1, 0.3)
LAMBDAS = (0.1, 0.6, 2.4)


def development_texts(keywords: int) -> list[str]:
    """The liu-topic prompts (all 10 wordings) filled with its first ``keywords`` keywords."""
    from polibench.taskspec.loader import load_registry
    from polibench.taskspec.schema import fill_template, item_slots

    registry = load_registry()
    task = registry.task("liu-topic")
    variant_set = registry.variant_sets[task.variant_set]
    items = registry.instruments[task.instruments[0]].items[:keywords]
    return [fill_template(v.template, item.text, "model", item_slots(variant_set, item))
            for item in items for v in variant_set.variants]


def hidden_states(backend, texts: list[str], first: int = 3):
    """(states, preceding token ids): the base model's last hidden state at every position >= ``first``."""
    import torch

    states, before = [], []
    for text in texts:
        ids = backend.tokenizer(text, add_special_tokens=False)["input_ids"]
        with torch.no_grad():
            hidden = backend.base(input_ids=torch.tensor([ids])).last_hidden_state[0]
        for t in range(first, len(ids)):
            states.append(hidden[t])
            before.append(ids[:t + 1])
    return torch.stack(states), before


def value(logp, base_logp, lam: float, token_rewards, candidates, rewards):
    """(F = lambda R - KL, KL) per row, from calibrated log-probs (as polibench.debias.liu computes R and KL)."""
    import torch

    kl = (logp.exp() * (logp - base_logp)).sum(-1)
    if candidates is None:
        reward = (logp.exp() * token_rewards).sum(-1)
    else:
        reward = (torch.softmax(logp.gather(-1, candidates), -1) * rewards).sum(-1)
    return lam * reward - kl, kl


def run(model: str, rates, lambdas, reference_steps: int, texts: list[str], guidance, corpus) -> list[dict]:
    import torch

    from polibench.debias.liu import LiuCalibratedBackend, LiuSettings

    rows = []
    for mode in (1, 2):
        backend = LiuCalibratedBackend(model, LiuSettings(mode=mode), guidance=guidance, corpus=corpus)
        states, before = hidden_states(backend, texts)
        candidates = rewards = None
        with torch.no_grad():
            base_logp = torch.log_softmax(backend.head(states).float(), -1)
        if mode == 2:
            with torch.no_grad():
                candidates = backend.head(states).float().topk(backend.settings.candidates, dim=-1).indices
            rewards = backend._rewards_mode2(before, candidates, [True] * len(before))

        k = LiuSettings().steps
        for lam in lambdas:
            lams = [lam] * len(states)
            start, _ = value(base_logp, base_logp, lam, backend.token_rewards, candidates, rewards)
            at_k, kl_k, best = {}, {}, start.clone()
            for rate in rates:
                for steps in (k, reference_steps):
                    backend.settings = LiuSettings(mode=mode, lr=rate, steps=steps)
                    logp, _, _ = backend.calibrate(states, lams, candidates, rewards)
                    f, kl = value(logp, base_logp, lam, backend.token_rewards, candidates, rewards)
                    best = torch.maximum(best, f)
                    if steps == k:
                        at_k[rate], kl_k[rate] = f, kl
            reach = (best - start).clamp(min=1e-12)
            for rate in rates:
                gain = ((at_k[rate] - start) / reach).tolist()
                rows.append({"model": Path(model).name or model, "mode": mode, "lambda": lam, "rate": rate,
                             "states": len(gain), "mean_gain": statistics.fmean(gain),
                             "median_gain": statistics.median(gain), "min_gain": min(gain),
                             "share_worse_than_start": sum(g < 0 for g in gain) / len(gain),
                             "mean_kl_at_k": float(kl_k[rate].mean())})
                print("measured:", json.dumps(rows[-1]), flush=True)
        backend.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--model", action="append", default=[], help="a base transformers causal LM folder")
    parser.add_argument("--smoke", action="store_true", help="CI size: a tiny GPT-2 built here, 2 prompts, 2 rates")
    parser.add_argument("--keywords", type=int, default=3, help="liu-topic keywords (x 10 prompts) read (3)")
    parser.add_argument("--reference-steps", type=int, default=100, help="Adam steps of the reference runs (100)")
    parser.add_argument("--threads", type=int)
    args = parser.parse_args()

    import torch

    if args.threads:
        torch.set_num_threads(args.threads)
    from polibench.scorers.ideology.tfidf import TfidfIdeologyScorer, partisan_corpus

    started = time.time()
    rates, lambdas, reference = RATES, LAMBDAS, args.reference_steps
    texts = development_texts(args.keywords)
    with tempfile.TemporaryDirectory() as tmp:
        models = list(args.model)
        words, _ = partisan_corpus()
        if args.smoke:
            from bench_planted_debias import pretrain_tiny_gpt2

            texts = development_texts(1)[:2]
            models = [str(pretrain_tiny_gpt2(Path(tmp) / "tiny", texts * 8, 0.25, 1,
                                             vocab_texts=[t.text for t in words[:300]]))]
            rates, lambdas, reference = (0.01, 0.1), (0.6,), 20
        if not models:
            parser.error("give at least one --model (or --smoke)")
        rows = []
        for model in models:
            rows += run(model, rates, lambdas, reference, texts, TfidfIdeologyScorer(), words)
    print("\n| model | mode | λ | Adam rate | states | mean gain | median gain | min gain | share ending below "
          "F(0) | mean KL after K steps |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['model']} | {r['mode']} | {r['lambda']} | {r['rate']} | {r['states']} | {r['mean_gain']:.3f} | "
              f"{r['median_gain']:.3f} | {r['min_gain']:.3f} | {r['share_worse_than_start']:.3f} | "
              f"{r['mean_kl_at_k']:.5f} |")
    overall = {rate: statistics.fmean(r["mean_gain"] for r in rows if r["rate"] == rate) for rate in rates}
    chosen = max(rates, key=lambda rate: overall[rate])
    print("\nmean gain over every model, mode and lambda: "
          + ", ".join(f"{rate}: {gain:.3f}" for rate, gain in overall.items()))
    print(f"highest mean gain: rate {chosen}; {(time.time() - started) / 60:.1f} min, torch threads "
          f"{torch.get_num_threads()}")
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
