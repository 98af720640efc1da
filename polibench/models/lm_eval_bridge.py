"""``lm-eval`` backend: drive any model registered in lm-evaluation-harness (``pip install -e '.[lmeval]'``).

``--backend lm-eval --model-args model=NAME,ARG=VALUE,...``: ``NAME`` is an lm-eval model name (``hf``,
``vllm``, ``local-completions``, ``gguf``, a model your own package registered with
``@register_model``, ...); the other arguments go to that model's constructor, as with lm-eval's own
``--model_args``. polibench's ``--model``, when given, becomes the model's ``pretrained`` argument (or
``model`` for lm-eval's API models, whose constructors take ``model=``).

Requests go through the model's ``generate_until`` one at a time, each after seeding Python's, NumPy's
and torch's random generators with the sample's seed, so a response depends only on its prompt and seed
(and each is persisted as soon as it exists). ``batched=true`` hands a whole chunk to ``generate_until`` at
once (faster for local models; the chunk shares one seed, so responses then depend on the chunk, as with
the ``hf`` backend). Chat prompts go through the model's ``apply_chat_template`` when it has one
(``apply_chat_template=false`` sends plain text). Bridge-only arguments: ``model``, ``batched``,
``apply_chat_template``.
"""

from __future__ import annotations

import hashlib
import random
from pathlib import Path
from typing import Optional

from polibench.errors import BackendError
from polibench.models.base import Completion, Prompt
from polibench.models.identity import model_fingerprint
from polibench.models.streaming import ResultFn, StreamingBackend
from polibench.records import GenerationSettings


def seed_everything(seed: int) -> None:
    random.seed(seed)
    try:
        import numpy

        numpy.random.seed(seed % (2 ** 32))
    except ImportError:
        pass
    import sys

    if "torch" in sys.modules:  # only if the model uses torch; never import it just to seed
        sys.modules["torch"].manual_seed(seed)


def model_slot(lm_class) -> str:
    """The constructor argument that names the checkpoint: ``pretrained`` (hf, vllm ...) or ``model`` (APIs)."""
    import inspect

    try:
        params = inspect.signature(lm_class.__init__).parameters
    except (TypeError, ValueError):
        return "pretrained"
    return "model" if "model" in params and "pretrained" not in params else "pretrained"


class LMEvalBackend(StreamingBackend):
    name = "lm-eval"

    def __init__(self, model: Optional[str] = None, /, *, batched: bool = False, apply_chat_template: bool = True,
                 **lm_args):
        # ``model`` is positional-only, so that ``model=NAME`` in --model-args (lm-eval's model) lands in lm_args.
        lm_name = lm_args.pop("model", None)
        if not lm_name:
            raise BackendError("lm-eval: name the lm-eval model in --model-args, e.g. "
                               "--model-args model=hf,pretrained=gpt2")
        try:
            import lm_eval.models  # noqa: F401 - lm-eval's own models, registered lazily by name
            from lm_eval.api.registry import get_model
        except ImportError:
            raise BackendError("the lm-eval backend needs lm-evaluation-harness: pip install -e '.[lmeval]'") \
                from None
        try:
            self.lm_class = get_model(str(lm_name))
        except ValueError:
            from lm_eval.api.registry import model_registry

            names = ", ".join(sorted(model_registry.keys()))
            raise BackendError(f"lm-eval: no model named '{lm_name}' is registered in lm-eval; known: {names}") \
                from None
        if model:
            slot = model_slot(self.lm_class)
            lm_args.setdefault(slot, model)
        self.lm_name = str(lm_name)
        self.lm_args = lm_args
        self.batched = bool(batched)
        self.use_chat_template = bool(apply_chat_template)
        super().__init__(model or lm_args.get("pretrained"), lm_eval_model=self.lm_name, batched=self.batched,
                         apply_chat_template=self.use_chat_template, **lm_args)
        self._lm = None

    @property
    def display_name(self) -> str:
        source = self.lm_args.get("pretrained") or self.lm_args.get("model_name") or self.lm_name
        return str(source).rstrip("/").split("/")[-1]

    def cache_identity(self) -> dict:
        identity = {"backend": self.name, "lm_eval_model": self.lm_name,
                    "args": {k: str(v) for k, v in sorted(self.lm_args.items())},
                    "batched": self.batched, "apply_chat_template": self.use_chat_template}
        pretrained = self.lm_args.get("pretrained")
        fingerprint = model_fingerprint(str(pretrained)) if pretrained else None
        if fingerprint:
            identity["folder_sha256"] = fingerprint
            identity["args"]["pretrained"] = Path(str(pretrained)).name
        return identity

    @property
    def lm(self):
        """The lm-eval model, built on first use."""
        if self._lm is None:
            try:
                self._lm = self.lm_class.create_from_arg_obj(dict(self.lm_args))
            except TypeError as exc:
                raise BackendError(f"lm-eval: bad --model-args for model '{self.lm_name}' ({exc})") from None
            except (OSError, ValueError) as exc:
                raise BackendError(f"lm-eval: could not build model '{self.lm_name}': "
                                   f"{str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None
        return self._lm

    def context(self, prompt: Prompt) -> str:
        """The context string lm-eval gets: the model's chat template over the messages, else plain text."""
        if prompt.messages and self.use_chat_template:
            try:
                return self.lm.apply_chat_template([m.model_dump() for m in prompt.messages],
                                                   add_generation_prompt=True)
            except (NotImplementedError, AttributeError, TypeError, ValueError):
                pass
        return prompt.plain_text()

    @staticmethod
    def gen_kwargs(settings: GenerationSettings) -> dict:
        kwargs: dict = {"until": list(settings.stop), "max_gen_toks": settings.max_new_tokens,
                        "do_sample": settings.temperature > 0, "temperature": settings.temperature}
        if settings.temperature > 0:
            if settings.top_k:
                kwargs["top_k"] = settings.top_k
            if settings.top_p is not None:
                kwargs["top_p"] = settings.top_p
        return kwargs

    def _instances(self, prompts: list[Prompt], settings: GenerationSettings) -> list:
        from lm_eval.api.instance import Instance

        kwargs = self.gen_kwargs(settings)
        return [Instance(request_type="generate_until", doc={}, arguments=(self.context(p), dict(kwargs)), idx=i,
                         metadata=("polibench", i, 1)) for i, p in enumerate(prompts)]

    def _call(self, instances: list) -> list[str]:
        try:
            return self.lm.generate_until(instances, disable_tqdm=True)
        except TypeError:
            return self.lm.generate_until(instances)

    def generate_each(self, prompts: list[Prompt], settings: GenerationSettings, on_result: ResultFn) -> None:
        instances = self._instances(prompts, settings)
        if self.batched:
            seeds = repr([p.seed for p in prompts]).encode()
            seed_everything(int(hashlib.sha256(seeds).hexdigest()[:8], 16))
            texts = self._call(instances)
            for i, text in enumerate(texts):
                on_result(i, Completion(text=str(text).strip(), finish_reason=None))
            return
        for i, (prompt, instance) in enumerate(zip(prompts, instances)):
            seed_everything(prompt.seed)
            (text,) = self._call([instance])
            on_result(i, Completion(text=str(text).strip(), finish_reason=None))

    def close(self) -> None:
        self._lm = None
        super().close()
