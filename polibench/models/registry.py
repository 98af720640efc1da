"""Backends by name, imported lazily so that ``polibench list`` does not pay for torch or vLLM."""

from __future__ import annotations

import inspect

from polibench.errors import BackendError
from polibench.kit.registry import Registry, subclass_of
from polibench.models.base import ModelBackend

# name -> "module:Class"; a backend's heavy dependencies are imported only when it is chosen.
BUILTIN_BACKENDS = {
    "hf": "polibench.models.hf:HFBackend",
    "llamacpp": "polibench.models.llamacpp:LlamaCppBackend",
    "vllm": "polibench.models.vllm:VLLMBackend",
    "openai": "polibench.models.openai_api:OpenAIBackend",
    "mlm": "polibench.models.mlm:MaskedLMBackend",
    "lm-eval": "polibench.models.lm_eval_bridge:LMEvalBackend",
    "mock": "polibench.models.mock:MockBackend",
    "planted": "polibench.models.planted:PlantedBackend",
    "planted-language": "polibench.models.planted_language:PlantedLanguageBackend",
}

# Every backend by name: the built-in ones, then those installed plugin packages declare in the entry-point group
# ``polibench.backends`` (a plugin never replaces a built-in name).
BACKENDS: Registry[type[ModelBackend]] = Registry(
    "backend", group="backends", error=BackendError, check=subclass_of(ModelBackend),
    install_hint="see the README's install section", entries=BUILTIN_BACKENDS)


def register_backend(name: str, target: str, replace: bool = False) -> None:
    """Register a backend implemented outside polibench (``"package.module:Class"``)."""
    BACKENDS.add(name, target, replace=replace)


def backend_class(name: str) -> type[ModelBackend]:
    """The class of backend ``name``, imported now; an unknown name, or a backend whose package is not installed,
    is one :class:`BackendError`."""
    return BACKENDS.get(name)


def check_backend_args(name: str, model: str | None, model_args: dict, what: str = "--model-args") -> None:
    """The backend is known and installed, its constructor accepts ``model_args`` (checked against its
    signature, without building it: building may load the model) and ``model`` passes its
    :meth:`~polibench.models.base.ModelBackend.check_model`; ``what`` names the arguments in the message."""
    cls = backend_class(name)
    try:
        inspect.signature(cls.__init__).bind(None, model, **model_args)
    except TypeError as exc:
        raise BackendError(f"backend '{name}': bad {what} ({exc})") from None
    cls.check_model(model)
    cls.check_settings(model, model_args)


def create_backend(name: str, model: str | None, model_args: dict) -> ModelBackend:
    cls = backend_class(name)
    try:
        return cls(model, **model_args)
    except TypeError as exc:
        raise BackendError(f"backend '{name}': bad --model-args ({exc})") from None
