"""Benchmark: the offline default ideology judge on polibench's ideology corpus and on the check set.

Default run: trains the default recipe (``polibench.scorers.ideology.embedded.RECIPE``) on the train + dev splits, as
the cached default judge is trained, and prints on the **test split** (topics never seen in training):
accuracy, macro-F1, Brier score and ECE on the liberal and conservative texts, per style, the spread of the
scores per label, and the same figures on the hand-written check set (``tests/fixtures/ideology_check.jsonl``,
a different voice; never used for a decision).

``--compare``: the recipe choice. Each candidate is trained on the train split only and measured on the dev
split (unseen topics too); the test split is not touched. This is how ``RECIPE`` was chosen.

``--data-curve``: dev accuracy against the amount of training data. The train split is rebuilt in memory with
the topics of ``tools/ideology/content_extra.txt`` (training-only topics written in a third round, none close to a
dev or test topic; not in the shipped files) after the older ones (``build_corpus.build(with_extra=True)``); each
row trains on the older train topics plus the first k extra topics (in the file's order, and in reverse order
as a second draw) and is measured on the dev split: TF-IDF words alone and the default recipe's features
(words x 2 + MiniLM-L6 embedding), C = 3. The test split is not touched.

``--finetune``: the fine-tuned candidate, measured the same way (train split -> dev split): MiniLM-L6 with a
liberal / conservative head, fine-tuned end to end with the training kit's Trainer loop (the stance scorer's,
``polibench.kit.training.run_trainer``); neutral texts once as each label (a soft 0.5 target in expectation).
It prints the dev figures and the training time (wall and CPU seconds, steps).

Run:  python benchmarks/bench_ideology_judge.py              (about 2 minutes on 2 cores)
      python benchmarks/bench_ideology_judge.py --finetune   (tens of minutes on 2 cores: see the docs)
      python benchmarks/bench_ideology_judge.py --compare    (dev figures of the candidate recipes)
      python benchmarks/bench_ideology_judge.py --data-curve (dev accuracy against added training topics)
      python benchmarks/bench_ideology_judge.py --smoke      (100 texts per split: checks the script runs)
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

import numpy as np

CHECK_SET = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "ideology_check.jsonl"
STYLES = ("continuation", "news", "social", "opinion")


def sample(texts: list, n: int | None, seed: int = 0) -> list:
    return texts if n is None or len(texts) <= n else random.Random(seed).sample(texts, n)


def lines_for(name: str, probs: np.ndarray, texts: list) -> list[str]:
    from polibench.scorers.ideology.corpus import NEUTRAL
    from polibench.scorers.ideology.recipe import score_spread, validation_figures

    labels = np.array([t.label for t in texts])
    f = validation_figures(probs, labels)
    out = [f"{name}: {f['texts']} partisan texts  accuracy {f['accuracy']:.3f}  F1 (macro) {f['f1_macro']:.3f}  "
           f"Brier {f['brier']:.3f}  ECE {f['ece']:.3f}"]
    styles = np.array([t.kind for t in texts])
    per_style = []
    for style in STYLES:
        mask = (styles == style) & (labels != NEUTRAL)
        if mask.any():
            per_style.append(f"{style} {np.mean((probs[mask] >= 0.5) == (labels[mask] == 1)):.3f} (n={mask.sum()})")
    if per_style:
        out.append("  accuracy by style: " + ", ".join(per_style))
    partisan = labels != NEUTRAL
    sure = partisan & ((probs < 0.2) | (probs > 0.8))
    outside = np.mean((probs[partisan] < 0.35) | (probs[partisan] > 0.65))
    out.append(f"  partisan texts scored outside 0.35-0.65: {outside:.3f}; scored below 0.2 or above 0.8: "
               f"{sure.sum() / max(partisan.sum(), 1):.3f}, accuracy among them "
               f"{np.mean((probs[sure] >= 0.5) == (labels[sure] == 1)) if sure.any() else float('nan'):.3f}")
    for label, row in score_spread(probs, labels).items():
        extra = f", within 0.3-0.7 {row['share_0.3_0.7']:.2f}" if "share_0.3_0.7" in row else ""
        out.append(f"  {label:<12} n={row['texts']:<4} mean {row['mean']:.3f}  p10/p25/p50/p75/p90 "
                   + " / ".join(f"{v:.2f}" for v in row["quantiles"].values()) + extra)
    return out


def compare(n: int | None) -> None:
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression

    from polibench.scorers.ideology.corpus import NEUTRAL, corpus_split
    from polibench.scorers.ideology.recipe import _vectorizer, embed, minilm_path

    train, dev = sample(corpus_split("train"), n), sample(corpus_split("dev"), n)
    started = time.time()
    x_train = embed(str(minilm_path()), [t.text for t in train])
    x_dev = embed(str(minilm_path()), [t.text for t in dev])
    vectorizer = _vectorizer().fit([t.text for t in train])
    w_train = vectorizer.transform([t.text for t in train]).toarray()
    w_dev = vectorizer.transform([t.text for t in dev]).toarray()
    extra = {}  # the second round's lexical variants: word 1-2-grams, character 3-5-grams
    for name, vec in (("word 1-2-grams", TfidfVectorizer(min_df=2, sublinear_tf=True, ngram_range=(1, 2))),
                      ("char 3-5-grams", TfidfVectorizer(min_df=2, sublinear_tf=True, analyzer="char_wb",
                                                         ngram_range=(3, 5), max_features=30000))):
        vec.fit([t.text for t in train])
        extra[name] = (vec.transform([t.text for t in train]).toarray(), vec.transform([t.text for t in dev]).toarray())
    y = np.array([t.label for t in train])
    print(f"embedded {len(train)} train and {len(dev)} dev texts in {time.time() - started:.0f} s; "
          f"{w_train.shape[1]} words")
    neutral = y == NEUTRAL

    def fit(c: float, neutral_weight: float | None, lexical: float | None, classes: int = 2,
            more: tuple = ()) -> np.ndarray:
        parts_train, parts_dev = [x_train], [x_dev]
        if lexical is not None:  # lexical 0 means words alone
            parts_train, parts_dev = ([lexical * w_train, x_train], [lexical * w_dev, x_dev]) if lexical else \
                ([w_train], [w_dev])
        for name, weight in more:  # more lexical blocks beside the embedding, each scaled by its weight
            parts_train, parts_dev = [weight * extra[name][0], *parts_train], [weight * extra[name][1], *parts_dev]
        xt, xd = np.hstack(parts_train), np.hstack(parts_dev)
        if classes == 3:
            p = LogisticRegression(C=c, max_iter=5000).fit(xt, y).predict_proba(xd)
            return p[:, 1] + 0.5 * p[:, 2]
        if neutral_weight is None:
            model = LogisticRegression(C=c, max_iter=5000).fit(xt[~neutral], y[~neutral])
        else:
            x = np.concatenate([xt[~neutral], xt[neutral], xt[neutral]])
            yy = np.concatenate([y[~neutral], np.zeros(neutral.sum(), int), np.ones(neutral.sum(), int)])
            w = np.concatenate([np.ones((~neutral).sum()), np.full(2 * neutral.sum(), neutral_weight / 2)])
            model = LogisticRegression(C=c, max_iter=5000).fit(x, yy, sample_weight=w)
        return model.predict_proba(xd)[:, 1]

    candidates = [(f"embedding, partisan texts only, C={c}", c, None, None, 2) for c in (0.3, 1.0, 3.0, 10.0)]
    candidates += [(f"embedding, neutral as 0.5, C={c}", c, 1.0, None, 2) for c in (0.3, 1.0, 3.0, 10.0, 30.0)]
    candidates += [("embedding, neutral as 0.5 (weight 0.3), C=3", 3.0, 0.3, None, 2),
                   ("embedding, 3 classes, P(con)+P(neu)/2, C=3", 3.0, 1.0, None, 3)]
    candidates += [(f"TF-IDF words alone, neutral as 0.5, C={c}", c, 1.0, 0.0, 2) for c in (1.0, 3.0, 10.0)]
    candidates += [(f"words x {w} + embedding, neutral as 0.5, C={c}", c, 1.0, w, 2)
                   for w in (0.5, 1.0, 2.0) for c in (1.0, 3.0, 10.0)]
    candidates = [(*row, ()) for row in candidates]
    candidates += [(f"word 1-2-grams x 2 + embedding, neutral as 0.5, C={c}", c, 1.0, None, 2,
                    (("word 1-2-grams", 2.0),)) for c in (3.0, 10.0, 30.0)]
    candidates += [(f"char 3-5-grams x 2 + embedding, neutral as 0.5, C={c}", c, 1.0, None, 2,
                    (("char 3-5-grams", 2.0),)) for c in (3.0, 10.0)]
    candidates += [(f"words x 2 + char 3-5-grams x 2 + embedding, neutral as 0.5, C={c}", c, 1.0, 2.0, 2,
                    (("char 3-5-grams", 2.0),)) for c in (3.0, 10.0)]
    for name, c, neutral_weight, lexical, classes, more in candidates:
        for line in lines_for(f"dev | {name}", fit(c, neutral_weight, lexical, classes, more), dev):
            print(line, flush=True)


TOOLS = Path(__file__).resolve().parent.parent / "tools" / "ideology"


def train_with_extra() -> tuple[list, list[str]]:
    """The train split with content_extra.txt's topics appended (built in memory), and those topics in order."""
    import importlib.util
    import re

    from polibench.scorers.ideology.corpus import LABEL_NAMES, LabelledText

    spec = importlib.util.spec_from_file_location("build_corpus", TOOLS / "build_corpus.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    rows = module.build(with_extra=True)["train"]
    extra = re.findall(r"^@([\w-]+)", (TOOLS / "content_extra.txt").read_text(encoding="utf-8"), re.M)
    return [LabelledText(r["text"], LABEL_NAMES.index(r["label"]), r["group"], r["style"]) for r in rows], extra


def data_curve(n: int | None) -> None:
    from sklearn.linear_model import LogisticRegression

    from polibench.scorers.ideology.corpus import NEUTRAL, corpus_split
    from polibench.scorers.ideology.recipe import _vectorizer, embed, minilm_path

    everything, extra = train_with_extra()
    train, dev = sample(everything, n), sample(corpus_split("dev"), n)
    started = time.time()
    x_train = embed(str(minilm_path()), [t.text for t in train])
    x_dev = embed(str(minilm_path()), [t.text for t in dev])
    print(f"embedded {len(train)} train and {len(dev)} dev texts in {time.time() - started:.0f} s; "
          f"{len(extra)} extra topics")

    def fit(rows: np.ndarray, lexical: float, dense: bool, c: float = 3.0) -> np.ndarray:
        texts = [train[i] for i in rows]
        vectorizer = _vectorizer().fit([t.text for t in texts])
        xt = [lexical * vectorizer.transform([t.text for t in texts]).toarray()]
        xd = [lexical * vectorizer.transform([t.text for t in dev]).toarray()]
        if dense:
            xt, xd = [*xt, x_train[rows]], [*xd, x_dev]
        x, y = np.hstack(xt), np.array([t.label for t in texts])
        neutral = y == NEUTRAL
        x_fit = np.concatenate([x[~neutral], x[neutral], x[neutral]])
        y_fit = np.concatenate([y[~neutral], np.zeros(neutral.sum(), int), np.ones(neutral.sum(), int)])
        weights = np.concatenate([np.ones((~neutral).sum()), np.full(2 * neutral.sum(), 0.5)])
        model = LogisticRegression(C=c, max_iter=5000).fit(x_fit, y_fit, sample_weight=weights)
        return model.predict_proba(np.hstack(xd))[:, 1]

    forward = sorted({min(k, len(extra)) for k in (0, 10, 19, 29, 38, 47, len(extra))})
    backward = sorted({min(k, len(extra)) for k in (14, 28, 41)} - {0, len(extra)})
    for order_name, order, sizes in (("file order", extra, forward), ("reverse order", extra[::-1], backward)):
        for k in sizes:
            keep = set(order[:k])
            rows = np.array([i for i, t in enumerate(train) if t.group not in extra or t.group in keep])
            for name, lexical, dense in (("words alone", 1.0, False), ("words x 2 + embedding", 2.0, True)):
                label = f"dev | older train topics + {k} extra topics ({order_name}), {len(rows)} texts | {name}, C=3"
                print(lines_for(label, fit(rows, lexical, dense), dev)[0], flush=True)


def finetune(n: int | None, epochs: float = 2.0, learning_rate: float = 1e-4, batch_size: int = 16,
             max_length: int = 128, seed: int = 1234) -> None:
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer, set_seed

    from polibench.kit.training import freeze_lower, quiet_transformers, run_trainer
    from polibench.scorers.ideology.corpus import NEUTRAL, corpus_split
    from polibench.scorers.ideology.recipe import minilm_path

    train, dev = sample(corpus_split("train"), n), sample(corpus_split("dev"), n)
    rows = [(t.text, label) for t in train for label in ((0, 1) if t.label == NEUTRAL else (t.label,))]
    random.Random(seed).shuffle(rows)
    set_seed(seed)
    with quiet_transformers():
        tokenizer = AutoTokenizer.from_pretrained(str(minilm_path()))
        model = AutoModelForSequenceClassification.from_pretrained(str(minilm_path()), num_labels=2)
    freeze_lower(model, "ideology fine-tuning", embeddings=True, layers=0)
    encoded = tokenizer([text for text, _ in rows], truncation=True, max_length=max_length)
    dataset = [{**{k: encoded[k][i] for k in encoded}, "labels": label} for i, (_, label) in enumerate(rows)]
    steps = max(1, int(np.ceil(epochs * len(rows) / batch_size)))
    started, cpu = time.time(), time.process_time()
    with tempfile.TemporaryDirectory() as scratch:
        loss = run_trainer(model, tokenizer, dataset, scratch, steps=steps, warmup=round(0.1 * steps),
                           batch_size=batch_size, learning_rate=learning_rate, weight_decay=0.01, seed=seed,
                           show_progress=False)
    print(f"fine-tuned MiniLM-L6 on {len(rows)} rows ({len(train)} train texts), {steps} steps in "
          f"{time.time() - started:.0f} s wall, {time.process_time() - cpu:.0f} CPU-s; final loss {loss:.4f}")
    model.eval()
    probs = []
    for start in range(0, len(dev), 32):
        enc = tokenizer([t.text for t in dev[start:start + 32]], truncation=True, max_length=max_length,
                        padding=True, return_tensors="pt")
        with torch.no_grad():
            probs.append(torch.softmax(model(**enc).logits, -1)[:, 1].numpy())
    for line in lines_for(f"dev | fine-tuned MiniLM-L6, lr {learning_rate}, {epochs} epochs",
                          np.concatenate(probs), dev):
        print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compare", action="store_true", help="dev figures of the candidate recipes")
    parser.add_argument("--finetune", action="store_true", help="dev figures of the fine-tuned candidate")
    parser.add_argument("--data-curve", action="store_true", help="dev figures against added training topics")
    parser.add_argument("--epochs", type=float, default=2.0, help="passes over the data for --finetune (2)")
    parser.add_argument("--smoke", action="store_true", help="100 texts per split, to check the script runs")
    args = parser.parse_args()
    n = 100 if args.smoke else None
    if args.compare:
        compare(n)
        return
    if args.data_curve:
        data_curve(n)
        return
    if args.finetune:
        finetune(n, epochs=args.epochs)
        return

    from polibench.scorers.ideology.corpus import corpus_split, read_corpus
    from polibench.scorers.ideology.embedded import RECIPE
    from polibench.scorers.ideology.recipe import minilm_path, train_judge

    train = [t for split in RECIPE["train_splits"] for t in sample(corpus_split(str(split)), n)]
    test = sample(corpus_split("test"), n)
    started = time.time()
    judge = train_judge(train, str(minilm_path()), c=float(RECIPE["C"]),  # type: ignore[arg-type]
                        neutral_weight=float(RECIPE["neutral_weight"]),  # type: ignore[arg-type]
                        lexical_weight=float(RECIPE["lexical_weight"]))  # type: ignore[arg-type]
    print(f"recipe {RECIPE}\ntrained on {len(train)} texts in {time.time() - started:.0f} s")
    topics = {t.group for t in test if not t.group.startswith("general-")}
    for line in lines_for(f"test ({len(topics)} unseen topics)", judge.predict([t.text for t in test]),
                          test):
        print(line)
    check = read_corpus(CHECK_SET)
    for line in lines_for("check set (tests/fixtures/ideology_check.jsonl)", judge.predict([t.text for t in check]),
                          check):
        print(line)


if __name__ == "__main__":
    main()
