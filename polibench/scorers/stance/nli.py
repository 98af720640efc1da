"""``nli`` scorer: zero-shot stance with an NLI model through transformers' zero-shot pipeline.

Two ways of reading stance from an NLI model (``mapping``):

``hypotheses`` (default): every stance label becomes a hypothesis, and the label probabilities are the
softmax over the hypotheses' *entailment* logits (the zero-shot pipeline's single-label rule); the
confidence is the top probability.

- With Feng et al.'s two labels (agree/disagree) nothing changes from their setup: the premise is
  ``statement + " " + response`` and each label word is put into ``hypothesis_template`` ("This example
  is {}." by default, the pipeline default they used).
- When ``neutral`` or ``unrelated`` is asked for, bare words are poor hypotheses ("This example is
  unrelated."), so each label gets a sentence about the response (:data:`STANCE_HYPOTHESES`), and the
  premise names its two parts (``Statement: ... Response: ...``) so that "the statement" and "the
  response" in the hypotheses refer to something. Contradiction and neutral logits are deliberately not
  mapped to labels here: a response contradicts "The response agrees with the statement" when it
  disagrees, but equally when it is neutral or off-topic, so reading contradiction as *disagree* would
  turn every refusal into disagreement. Each label therefore needs its own entailed hypothesis.

``pair``: the classic stance-as-NLI reading, premise = the response, hypothesis = the statement, and
the NLI head's own three-way softmax mapped as entailment -> agree, contradiction -> disagree,
neutral -> neutral. It cannot tell *unrelated* from *neutral* (both are "neutral" to NLI), so it never
returns ``unrelated``; when ``neutral`` is not among the task's labels a neutral-top response abstains.

Every piece is configurable: ``hypothesis_template``, ``label_hypotheses`` (label -> text put into the
template), ``premise_template`` (with ``{statement}`` and ``{response}``). Default model
``facebook/bart-large-mnli`` (downloaded from the Hugging Face hub on first use); any local folder with an
NLI head (``id2label`` naming entailment, neutral, contradiction) works.
"""

from __future__ import annotations

from typing import Optional, Sequence

from polibench.devices import pick_device
from polibench.errors import PolibenchError
from polibench.scoring.base import StanceResult, StanceScorer
from polibench.scoring.checkpoint import check_device, checkpoint_config

FENG_TEMPLATE = "This example is {}."
FENG_PREMISE = "{statement} {response}"
STANCE_PREMISE = "Statement: {statement}\nResponse: {response}"
STANCE_HYPOTHESES = {
    "agree": "The response agrees with the statement.",
    "disagree": "The response disagrees with the statement.",
    "neutral": "The response takes no side on the statement.",
    "unrelated": "The response does not address the statement.",
}
PAIR_MAPPING = {"entailment": "agree", "contradiction": "disagree", "neutral": "neutral"}
MAPPINGS = ("hypotheses", "pair")


def nli_role(label_name: str) -> Optional[str]:
    """entailment / neutral / contradiction for an NLI head's label name, else None."""
    name = label_name.lower()
    for role in ("entail", "contradict", "neutral"):
        if name.startswith(role):
            return {"entail": "entailment", "contradict": "contradiction"}.get(role, role)
    return None


class NLIScorer(StanceScorer):
    name = "nli"

    def __init__(self, labels: Sequence[str] = ("agree", "disagree"), *, model: str = "facebook/bart-large-mnli",
                 mapping: str = "hypotheses", hypothesis_template: Optional[str] = None,
                 label_hypotheses: Optional[dict] = None, premise_template: Optional[str] = None,
                 batch_size: int = 8, device: str = "auto"):
        if mapping not in MAPPINGS:
            raise PolibenchError(f"nli scorer: mapping must be one of {', '.join(MAPPINGS)} (got '{mapping}')")
        super().__init__(labels)
        stance_mode = bool(set(self.labels) & {"neutral", "unrelated"})
        if label_hypotheses is None:
            label_hypotheses = {label: STANCE_HYPOTHESES[label] for label in self.labels} if stance_mode else \
                {label: label for label in self.labels}
        missing = [label for label in self.labels if label not in (label_hypotheses or {})]
        if missing:
            raise PolibenchError(f"nli scorer: label_hypotheses has no text for {missing}")
        self.hypotheses = {label: str(label_hypotheses[label]) for label in self.labels}
        self.template = hypothesis_template or ("{}" if stance_mode else FENG_TEMPLATE)
        self.premise = premise_template or (STANCE_PREMISE if stance_mode else FENG_PREMISE)
        if mapping == "pair":
            self.premise = premise_template or "{response}"
        self.mapping, self.model_name, self.batch_size, self.device = mapping, model, max(1, int(batch_size)), device
        self.options = {"model": model, "mapping": mapping, "hypothesis_template": self.template,
                        "label_hypotheses": self.hypotheses, "premise_template": self.premise}
        self._pipe = None

    def preflight(self) -> None:
        """The templates format, the device exists, the checkpoint's files resolve (locally or in the HF
        cache) and its NLI head has the roles the mapping reads; no weights are loaded."""
        try:
            probe = self.template.format("x")
            self.premise.format(statement="s", response="r")
        except (KeyError, IndexError, ValueError) as exc:
            raise PolibenchError(f"nli scorer: hypothesis_template needs one '{{}}' and premise_template only "
                                 f"{{statement}} and {{response}} ({type(exc).__name__}: {exc})") from None
        if probe == self.template:
            raise PolibenchError(f"nli scorer: hypothesis_template must contain '{{}}' (got {self.template!r})")
        check_device(self.device, "nli scorer")
        config = checkpoint_config(self.model_name, "nli scorer")
        roles = {nli_role(str(name)) for name in (config.id2label or {}).values()}
        needed = set(PAIR_MAPPING) if self.mapping == "pair" else {"entailment"}
        if not needed <= roles:
            raise PolibenchError(f"nli scorer: mapping={self.mapping} needs an NLI head with "
                                 f"{', '.join(sorted(needed))} label(s); '{self.model_name}' has {config.id2label}")

    def _pipeline(self):
        if self._pipe is None:
            from transformers import pipeline

            try:
                self._pipe = pipeline("zero-shot-classification", model=self.model_name,
                                      device=pick_device(self.device))
            except (OSError, ValueError) as exc:
                raise PolibenchError(f"nli scorer: could not load '{self.model_name}' ({str(exc).splitlines()[0]}). "
                                     "Offline? Pass a local folder with scorer_args model=PATH, or use "
                                     "--scorer lexical.") from None
        return self._pipe

    def premises(self, statements: Sequence[str], responses: Sequence[str]) -> list[str]:
        return [self.premise.format(statement=s, response=r or "") for s, r in zip(statements, responses)]

    def score(self, statements: Sequence[str], responses: Sequence[str], progress=None) -> list[StanceResult]:
        if self.mapping == "pair":
            return self._score_pairs(statements, responses, progress)
        pipe = self._pipeline()
        by_text = {text: label for label, text in self.hypotheses.items()}
        results: list[StanceResult] = []
        texts = self.premises(statements, responses)
        for start in range(0, len(texts), self.batch_size):
            batch = texts[start:start + self.batch_size]
            outputs = pipe(batch, candidate_labels=list(self.hypotheses.values()), hypothesis_template=self.template,
                           multi_label=False)
            if isinstance(outputs, dict):
                outputs = [outputs]
            for out in outputs:
                probs = {by_text[text]: float(p) for text, p in zip(out["labels"], out["scores"])}
                label = max(probs, key=probs.get)
                results.append(StanceResult(label, probs[label], probs))
            if progress:
                progress(len(batch))
        return results

    def _score_pairs(self, statements: Sequence[str], responses: Sequence[str], progress=None) -> list[StanceResult]:
        """``pair`` mapping: premise = response (via ``premise_template``), hypothesis = statement."""
        import torch

        pipe = self._pipeline()
        roles = {i: nli_role(name) for i, name in pipe.model.config.id2label.items()}
        if set(roles.values()) != set(PAIR_MAPPING):
            raise PolibenchError(f"nli scorer: mapping=pair needs an NLI head with entailment, neutral and "
                                 f"contradiction labels; '{self.model_name}' has {pipe.model.config.id2label}")
        premises = self.premises(statements, responses)
        results: list[StanceResult] = []
        for start in range(0, len(premises), self.batch_size):
            encoded = pipe.tokenizer(premises[start:start + self.batch_size],
                                     list(statements[start:start + self.batch_size]),
                                     truncation="only_first", padding=True, return_tensors="pt")
            with torch.no_grad():
                logits = pipe.model(**{k: v.to(pipe.model.device) for k, v in encoded.items()}).logits.float()
            for row in torch.softmax(logits, dim=-1).cpu().tolist():
                probs = {PAIR_MAPPING[roles[i]]: float(p) for i, p in enumerate(row)}
                top = max(probs, key=probs.get)
                results.append(StanceResult(top if top in self.labels else None, probs[top], probs))
            if progress:
                progress(len(encoded["input_ids"]))
        return results
