"""Backends by name, imported lazily so that ``polibench list`` does not pay for torch or vLLM."""

from __future__ import annotations

import importlib
import inspect

from polibench.errors import BackendError
from polibench.models.base import ModelBackend

# name -> "module:Class"; a backend's heavy dependencies are imported only when it is chosen.
BACKENDS: dict[str, str] = {
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


def available_backends() -> dict[str, str]:
    """Every backend by name: the built-in ones and those of installed plugin packages (entry-point group
    ``polibench.backends``, :mod:`polibench.plugins`; a plugin does not replace a built-in name)."""
    from polibench import plugins

    for name, target in plugins.targets("backends").items():
        BACKENDS.setdefault(name, target)
    return BACKENDS


def register_backend(name: str, target: str) -> None:
    """Register a backend implemented outside polibench (``"package.module:Class"``)."""
    BACKENDS[name] = target


def backend_class(name: str) -> type[ModelBackend]:
    if name not in available_backends():
        raise BackendError(f"unknown backend '{name}'; available: {', '.join(sorted(BACKENDS))}")
    module_name, _, class_name = BACKENDS[name].partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise BackendError(f"backend '{name}' needs a package that is not installed ({exc.name}); "
                           f"see the README's install section") from None
    return getattr(module, class_name)


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
