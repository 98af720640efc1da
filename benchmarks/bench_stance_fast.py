"""Benchmark: faster first-use recipes for the embedded stance scorer (issue 25), on the dev split only.

The dev split is the one recipes are chosen on: gold:dev since gold v4 (before it, ``split_by_statement(gold train,
0.2, seed=0)``, which the figures of issue 25 in docs/stance.md used). One
forward pass of MiniLM-L6 over the dev-train and dev examples keeps the output of layers 3 to 6; then:

* ``top-K``: the top K layers, pooler and head fine-tuned on the cached output of the lower 6 - K layers
  (:mod:`polibench.scorers.stance.train_top`), at the learning rates and epochs given;
* ``frozen-lr``: the whole encoder frozen, a logistic regression (scikit-learn) on the pair's last-layer
  features (mean-pooled tokens and the [CLS] vector of ``[CLS] statement [SEP] response [SEP]``).

For each: macro-F1 and retained share on dev at thresholds 0.0, 0.8 and 0.9, and training seconds (wall and
CPU): the cache pass up to the layer the candidate starts from (measured once, for the whole pass, and
prorated per layer) plus its own fit. The test split is never read.

The figures in docs/stance.md ("Faster first-use recipes") came from runs on one torch thread, keeping the
layer outputs between runs (``--states``), e.g.:

      nice -n 10 python benchmarks/bench_stance_fast.py --threads 1 --states /tmp/states.pt --tops 2 --lrs 5e-4 \
          --epochs 5 3 --cs

Run:  nice -n 10 python benchmarks/bench_stance_fast.py [--tops 1 2 --lrs 2e-4 5e-4 --epochs 3 5 --cs 1 10]
      python benchmarks/bench_stance_fast.py --smoke     (a few steps on 40 examples: checks the script runs)
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import time
from pathlib import Path


def figures(examples, probs) -> str:
    """Dev figures at 0.0 / 0.8 / 0.9 from class probabilities (rows in polibench's label order)."""
    from polibench.scorers.stance.evaluate import threshold_rows
    from polibench.scoring.base import LABELS, StanceResult

    results = [StanceResult(LABELS[int(p.argmax())], float(p.max()), {}) for p in probs]
    rows = {row["threshold"]: row for row in threshold_rows(examples, results, (0.0, 0.8, 0.9))}
    return "  ".join(f"at {t}: {rows[t]['macro_f1']:.3f} ({rows[t]['retained_share']:6.1%})" for t in (0.0, 0.8, 0.9))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tops", type=int, nargs="*", default=[1, 2], help="numbers of top layers trained")
    parser.add_argument("--lrs", type=float, nargs="*", default=[2e-4, 5e-4], help="learning rates")
    parser.add_argument("--epochs", type=float, nargs="*", default=[3.0, 5.0], help="epochs")
    parser.add_argument("--cs", type=float, nargs="*", default=[1.0, 10.0], help="C of the frozen-encoder regression")
    parser.add_argument("--threads", type=int, help="torch threads (default: torch's choice)")
    parser.add_argument("--states", type=Path, help="keep the cached layer outputs in this file and reuse them "
                                                    "(the cache pass's time is stored with them)")
    parser.add_argument("--smoke", action="store_true", help="a few steps on 40 examples, to check the script runs")
    args = parser.parse_args()

    import numpy as np
    import torch
    from sklearn.linear_model import LogisticRegression

    from polibench.scorers.stance.data import load_examples
    from polibench.scorers.stance.embedded import minilm_path, recipe
    from polibench.scorers.stance.train import load_base
    from polibench.scorers.stance.train_top import fit_top_layers, lower_states, top_logits
    from polibench.scoring.base import LABELS

    if args.threads:
        torch.set_num_threads(args.threads)
    rest, dev = load_examples("gold:train"), load_examples("gold:dev")
    if args.smoke:  # one candidate of each kind, 3 steps
        rest, dev = rest[:40], dev[:40]
        args.tops, args.lrs, args.epochs, args.cs = args.tops[:1], args.lrs[:1], args.epochs[:1], args.cs[:1]
    print(f"dev split: {len(rest)} train / {len(dev)} dev examples; torch threads {torch.get_num_threads()}")
    base = str(minilm_path())
    tokenizer, model = load_base(base, recipe().seed, attn_implementation="eager")
    n_layers = model.config.num_hidden_layers
    layers = range(max(0, n_layers - 3), n_layers + 1)  # what top-1 to top-3 and the frozen encoder start from
    if args.states and args.states.is_file():
        cached, dev_states, pass_wall, pass_cpu, pass_load = torch.load(args.states)
    else:
        pass_load = os.getloadavg()[0]
        wall, cpu = time.time(), time.process_time()
        cached = lower_states(model, tokenizer, rest, layers, recipe().max_length)
        pass_wall, pass_cpu = time.time() - wall, time.process_time() - cpu
        dev_states = lower_states(model, tokenizer, dev, layers, recipe().max_length)
        if args.states:
            torch.save((cached, dev_states, pass_wall, pass_cpu, pass_load), args.states)
    print(f"cache pass over the {len(rest)} training examples, {n_layers} layers: {pass_wall:.1f} s wall, "
          f"{pass_cpu:.1f} s CPU (load average {pass_load:.1f} at its start)")
    labels = [LABELS.index(e.label) for e in rest]
    initial = {k: v.clone() for k, v in model.state_dict().items()}

    if args.cs:
        print("\nfrozen encoder + logistic regression on [mean-pool, CLS] of the pair's last layer")
        feats = {name: np.stack([np.concatenate([s.mean(0).numpy(), s[0].numpy()]) for s in states[n_layers]])
                 for name, states in (("train", cached), ("dev", dev_states))}
    for c in args.cs:
        wall, cpu = time.time(), time.process_time()
        head = LogisticRegression(C=c, max_iter=3000).fit(feats["train"], labels)
        fit_wall, fit_cpu = time.time() - wall, time.process_time() - cpu
        probs = np.zeros((len(dev), len(LABELS)))
        probs[:, head.classes_] = head.predict_proba(feats["dev"])
        print(f"frozen-lr C={c:<5g} train {pass_wall + fit_wall:5.1f} s wall ({pass_cpu + fit_cpu:5.1f} CPU)  "
              f"{figures(dev, probs)}")

    print("\ntop layers fine-tuned on cached lower-layer states (recipe otherwise: batch 16, 10% warm-up, wd 0.2)")
    for top in args.tops:
        frozen = n_layers - top
        for epochs in args.epochs:
            for lr in args.lrs:
                model.load_state_dict(initial)
                settings = dataclasses.replace(recipe(), learning_rate=lr, epochs=epochs, freeze_layers=frozen,
                                               steps=3 if args.smoke else None)
                wall, cpu = time.time(), time.process_time()
                fit_top_layers(model, cached[frozen], labels, settings)
                fit_wall, fit_cpu = time.time() - wall, time.process_time() - cpu
                with torch.no_grad():
                    probs = np.concatenate([torch.softmax(top_logits(model, dev_states[frozen][i:i + 64], frozen),
                                                          -1).numpy() for i in range(0, len(dev), 64)])
                share = frozen / n_layers  # the cache pass runs only the frozen layers
                print(f"top-{top} lr {lr:g} {epochs:g} ep (load {os.getloadavg()[0]:4.1f}): "
                      f"train {share * pass_wall + fit_wall:5.1f} s wall "
                      f"({share * pass_cpu + fit_cpu:5.1f} CPU; fit {fit_wall:5.1f})  {figures(dev, probs)}",
                      flush=True)


if __name__ == "__main__":
    main()
