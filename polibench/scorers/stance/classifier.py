"""``classifier`` scorer: any sequence-classification checkpoint whose labels are the stance labels.

The input is the pair ``(statement, response)`` as a tokenizer sentence pair (``[CLS] statement [SEP]
response [SEP]`` for BERT), cut to ``max_length`` tokens from the end of the longer side; the output is a
softmax over the checkpoint's labels, and the confidence is the top probability. The checkpoint's
``id2label`` names must include the labels asked for (agree/disagree/neutral/unrelated; any case).

When the task asks for fewer labels than the checkpoint knows (Feng et al.'s agree/disagree), ``probs``
still holds all of the checkpoint's labels, and a response whose top label is not asked for (e.g. a
neutral answer in a 2-label task) is an abstention: it is reported, never forced onto agree or disagree.

``polibench stance train`` makes such checkpoints; the embedded default (:mod:`polibench.scorers.stance.embedded`)
is one of them.
"""

from __future__ import annotations

from typing import Optional, Sequence

from polibench.devices import pick_device
from polibench.errors import PolibenchError
from polibench.scoring.base import LABELS, StanceResult, StanceScorer
from polibench.scoring.checkpoint import check_device, checkpoint_config, quiet_transformers

__all__ = ["ClassifierScorer", "MAX_LENGTH", "checkpoint_labels", "encode_pairs", "quiet_transformers"]

MAX_LENGTH = 256


def encode_pairs(tokenizer, statements: Sequence[str], responses: Sequence[str], max_length: int = MAX_LENGTH,
                 **kwargs):
    """The one way statements and responses become model input, shared by training and scoring."""
    return tokenizer(list(statements), [r or "" for r in responses], truncation="longest_first",
                     max_length=max_length, **kwargs)


def checkpoint_labels(config) -> dict[int, str]:
    """``id2label`` with names lower-cased; raise when a stance label is missing or names repeat."""
    id2label = {int(i): str(name).strip().lower() for i, name in (config.id2label or {}).items()}
    if len(set(id2label.values())) != len(id2label):
        raise PolibenchError(f"classifier: repeated label names in id2label {id2label}")
    return id2label


class ClassifierScorer(StanceScorer):
    name = "classifier"

    def __init__(self, labels: Sequence[str] = LABELS, *, model: Optional[str] = None, batch_size: int = 16,
                 max_length: int = MAX_LENGTH, device: str = "auto"):
        super().__init__(labels, model=model, max_length=max_length)
        self.model_name, self.batch_size, self.max_length, self.device = model, max(1, int(batch_size)), \
            int(max_length), device
        self._loaded = None
        self._fingerprint: Optional[dict[str, str]] = None

    def model_path(self) -> str:
        """Where to load the checkpoint from (subclasses may build it first)."""
        if not self.model_name:
            raise PolibenchError("classifier scorer needs a checkpoint: --scorer-args model=PATH_OR_HUB_ID "
                                 "(see `polibench stance train`)")
        return self.model_name

    def check_labels(self, path: str, config) -> dict[int, str]:
        """The checkpoint's ``id2label``, after checking that it names every label the task asks for."""
        id2label = checkpoint_labels(config)
        missing = [label for label in self.labels if label not in id2label.values()]
        if missing:
            raise PolibenchError(f"{self.name} scorer: '{path}' has labels {sorted(id2label.values())}, "
                                 f"not the stance labels {missing}")
        return id2label

    def preflight(self) -> None:
        """The checkpoint's config, tokenizer and weights files resolve (locally or in the HF cache) and its
        labels include the task's; nothing is loaded onto a device."""
        check_device(self.device, f"{self.name} scorer")
        path = self.model_path()
        self.check_labels(path, checkpoint_config(path, f"{self.name} scorer"))

    def load(self):
        """``(tokenizer, model, id2label)``, loaded once."""
        if self._loaded is None:
            from transformers import AutoModelForSequenceClassification, AutoTokenizer

            path = self.model_path()
            try:
                with quiet_transformers():
                    tokenizer = AutoTokenizer.from_pretrained(path)
                    model = AutoModelForSequenceClassification.from_pretrained(path)
            except (OSError, ValueError) as exc:
                raise PolibenchError(f"classifier scorer: could not load '{path}' "
                                     f"({str(exc).splitlines()[0]})") from None
            id2label = self.check_labels(path, model.config)
            self.device = pick_device(self.device)
            model.to(self.device).eval()
            self._loaded = (tokenizer, model, id2label)
        return self._loaded

    def predict_probs(self, statements: Sequence[str], responses: Sequence[str],
                      progress=None) -> list[dict[str, float]]:
        """Softmax over the checkpoint's labels for each pair, in order (batched, longest first)."""
        import torch

        tokenizer, model, id2label = self.load()
        order = sorted(range(len(statements)), key=lambda i: -len(statements[i]) - len(responses[i] or ""))
        out: list[Optional[dict[str, float]]] = [None] * len(order)
        for start in range(0, len(order), self.batch_size):
            batch = order[start:start + self.batch_size]
            encoded = encode_pairs(tokenizer, [statements[i] for i in batch], [responses[i] for i in batch],
                                   self.max_length, padding=True, return_tensors="pt")
            with torch.no_grad():
                logits = model(**{k: v.to(self.device) for k, v in encoded.items()}).logits.float()
            for i, row in zip(batch, torch.softmax(logits, dim=-1).cpu().tolist()):
                out[i] = {id2label[j]: float(p) for j, p in enumerate(row)}
            if progress:
                progress(len(batch))
        return out  # type: ignore[return-value]

    def fingerprint(self) -> dict[str, str]:
        """The loaded checkpoint's fingerprint (:mod:`polibench.scoring.fingerprint`): weights and canary readings."""
        if self._fingerprint is None:
            from polibench.scoring.fingerprint import CANARY, fingerprint

            _, model, _ = self.load()
            probs = self.predict_probs([s for s, _ in CANARY], [r for _, r in CANARY])
            self._fingerprint = fingerprint(model.state_dict(), probs)
        return self._fingerprint

    def describe(self) -> dict:
        """The scorer's options and, once its checkpoint has been loaded (it read something), its fingerprint."""
        found = super().describe()
        if self._loaded is not None:
            found["fingerprint"] = self.fingerprint()
        return found

    def score(self, statements: Sequence[str], responses: Sequence[str], progress=None) -> list[StanceResult]:
        results = []
        for probs in self.predict_probs(statements, responses, progress):
            top = max(probs, key=probs.get)
            results.append(StanceResult(top if top in self.labels else None, probs[top], probs))
        return results
