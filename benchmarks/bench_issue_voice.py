"""Choose the offline issue-stance scorer's recipe for model-voice text on the voice dev split; (once) report test.

    python benchmarks/bench_issue_voice.py --compare     # candidates fit on train splits, measured on voice-dev
    python benchmarks/bench_issue_voice.py --test        # the default recipe, fit as shipped, on voice-test (once)
    python benchmarks/bench_issue_voice.py --smoke       # a few responses with MiniLM: checks it runs

Candidates differ in the encoder (MiniLM-L6 or all-mpnet-base-v2, frozen), the training data (the first gold
set's train split, or it with the model-voice train split) and the head (the two-stage model of
:mod:`polibench.scorers.issue_stance.model`, or one logistic regression on pooled features). Each line: 3-way (pro /
neutral or refusal / con) and 6-way macro-F1 with everything kept, then the share kept and the 3-way accuracy
(precision) at confidence >= 0.5 / 0.7 / 0.9. The voice dev split's six topics and its frames are unseen in
training; the first gold set's dev split is printed beside it. Embeddings are cached with ``--cache DIR``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _embedding_cache import CachedEncoder  # noqa: E402

from polibench.models.sentence_encoders import encoder_path  # noqa: E402
from polibench.records import ISSUE_LABELS  # noqa: E402
from polibench.scorers.issue_stance.data import THREE_WAY, load_issue_examples  # noqa: E402
from polibench.scorers.issue_stance.evaluate import threshold_rows  # noqa: E402
from polibench.scorers.issue_stance.model import (  # noqa: E402
    encode_examples,
    fit_encoded,
    fit_single_stage,
    polarity_vector,
)
from polibench.scoring.base import StanceResult  # noqa: E402


def figures(gold, probs) -> str:
    results = [StanceResult(ISSUE_LABELS[int(p.argmax())], float(p.max())) for p in probs]
    rows = {r["threshold"]: r for r in threshold_rows(gold, results, (0.0, 0.5, 0.7, 0.9))}
    kept = "  ".join(f">={t}: kept {rows[t]['retained_share']:.2f} acc3 {rows[t]['three_way']['accuracy']:.3f}"
                     for t in (0.5, 0.7, 0.9))
    per = rows[0.0]["three_way"]["per_class"]
    per_text = " ".join(f"{k} {v['f1']:.2f}" for k, v in per.items())
    return (f"3-way {rows[0.0]['three_way']['macro_f1']:.3f} ({per_text})  6-way {rows[0.0]['six_way']['macro_f1']:.3f}"
            f"  | {kept}")


def single_stage(train_enc, train_ex, eval_enc, c, polarity=None):
    """The single-stage model (:func:`polibench.scorers.issue_stance.model.fit_single_stage`); with ``polarity``, the
    ``sigma * m`` features too."""
    model = fit_single_stage("", polarity if polarity is not None else np.zeros(1), train_enc, train_ex, head_c=c,
                             polar=polarity is not None)
    return model.predict_encoded(eval_enc)


def sample(examples, n, seed=0):
    if n is None or len(examples) <= n:
        return examples
    rng = np.random.default_rng(seed)
    return [examples[i] for i in sorted(rng.choice(len(examples), n, replace=False))]


def run_compare(args) -> None:
    n = 24 if args.smoke else None
    old_train = sample(load_issue_examples("gold:train"), n)
    voice_train = sample(load_issue_examples("gold:voice-train"), n)
    voice_dev, old_dev = sample(load_issue_examples("gold:voice-dev"), n), sample(load_issue_examples("gold:dev"), n)
    for name in (["minilm"] if args.smoke else args.encoders.split(",")):
        enc = CachedEncoder(encoder_path(name), Path(args.cache), name)
        polarity = polarity_vector(enc)  # type: ignore[arg-type]
        started = time.perf_counter()
        encoded = {key: encode_examples(enc, rows) for key, rows in  # type: ignore[arg-type]
                   (("old_train", old_train), ("voice_train", voice_train), ("voice_dev", voice_dev),
                    ("old_dev", old_dev))}
        enc.save()
        print(f"== encoder {name} (embedded in {time.perf_counter() - started:.0f} s)", flush=True)
        for label, keys in (("first gold train", ("old_train",)),
                            ("first gold + voice train", ("old_train", "voice_train"))):
            train = [e for k in keys for e in {"old_train": old_train, "voice_train": voice_train}[k]]
            train_enc = [e for k in keys for e in encoded[k]]
            for c, polar in ((0.1, False), (0.1, True)):
                for dev_name, dev, dev_enc in (("voice dev", voice_dev, encoded["voice_dev"]),
                                               ("first dev", old_dev, encoded["old_dev"])):
                    probs = single_stage(train_enc, train, dev_enc, c, polarity if polar else None)
                    print(f"  single-stage C={c}{' + sigma*m' if polar else ''}, {label} [{dev_name}]: "
                          + figures([e.label for e in dev], probs), flush=True)
            grid = [(0.3, 0.1)]
            for sentence_c, head_c in grid:
                started = time.perf_counter()
                model = fit_encoded(enc.path, polarity, train_enc, train, sentence_c=sentence_c, head_c=head_c,
                                    embeddings=True)
                for dev_name, dev, dev_enc in (("voice dev", voice_dev, encoded["voice_dev"]),
                                               ("first dev", old_dev, encoded["old_dev"])):
                    print(f"  two-stage sc={sentence_c} hc={head_c}, {label} [{dev_name}] "
                          f"({time.perf_counter() - started:.0f} s): "
                          + figures([e.label for e in dev], model.predict_encoded(dev_enc)), flush=True)


def run_test(args) -> None:
    from polibench.scorers.issue_stance.embedded import RECIPE, training_examples

    name = str(RECIPE["encoder"])
    enc = CachedEncoder(encoder_path(name), Path(args.cache), name)
    train = training_examples()
    test = load_issue_examples("gold:voice-test")
    polarity = polarity_vector(enc)  # type: ignore[arg-type]
    started = time.perf_counter()
    fit = dict(RECIPE["fit"])  # type: ignore[call-overload]
    encoded = encode_examples(enc, train)  # type: ignore[arg-type]
    model = (fit_single_stage(enc.path, polarity, encoded, train, head_c=fit["head_c"], polar=fit.get("polar", False))
             if fit.pop("kind", "two-stage") == "single-stage"
             else fit_encoded(enc.path, polarity, encoded, train, **fit))
    print(f"default recipe {RECIPE} (fit {time.perf_counter() - started:.0f} s)")
    for split in ("gold:voice-test", "gold:test"):
        rows = load_issue_examples(split)
        print(f"  [{split}] " + figures([e.label for e in rows], model.predict_encoded(encode_examples(enc, rows))))
    enc.save()
    print("  three-way gold counts (voice-test): "
          + str({side: sum(THREE_WAY[e.label] == side for e in test) for side in ("pro", "neutral", "con")}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--compare", action="store_true")
    parser.add_argument("--test", action="store_true")
    parser.add_argument("--smoke", action="store_true")
    parser.add_argument("--encoders", default="minilm,mpnet")
    parser.add_argument("--cache", default=str(Path.home() / ".cache" / "polibench-bench" / "embeddings"))
    args = parser.parse_args()
    if args.test:
        run_test(args)
    else:
        run_compare(args)


if __name__ == "__main__":
    main()
