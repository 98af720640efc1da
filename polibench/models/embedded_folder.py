"""The embedded SmolLM2 GGUF (or another GGUF) as a Hugging Face model folder, for engines that read only those.

vLLM (and lm-eval's ``hf`` model) load a folder of ``config.json``, safetensors weights and a tokenizer. The
``hf`` backend de-quantises the GGUF into float weights (transformers does, and polibench gives the tokenizer
llama.cpp's digit splitting: :func:`polibench.models.hf.match_llama_cpp_pre_tokenizer`); transformers then
refuses to save a model it loaded from a GGUF, so the same weights are copied into a plain model of the same
config and saved with the tokenizer. About 540 MB in float32 for SmolLM2-135M; never commit one.

    python -c "from polibench.models.embedded_folder import hf_folder; print(hf_folder('smollm2-hf'))"
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Optional, Union


def hf_folder(folder: Union[str, Path], gguf: Optional[Union[str, Path]] = None, dtype: str = "float32") -> Path:
    """``gguf`` (default: the embedded model) saved as an HF folder in ``folder``; a folder that already holds a
    ``config.json`` is returned as it is."""
    folder = Path(folder)
    if (folder / "config.json").is_file():
        return folder
    import torch
    from transformers import AutoModelForCausalLM

    from polibench.models.embedded import embedded_gguf_path
    from polibench.models.hf import HFBackend

    source = Path(gguf) if gguf is not None else embedded_gguf_path()
    with HFBackend(str(source), device="cpu", dtype=dtype, batch_size=1) as backend:
        config = copy.deepcopy(backend.lm.config)
        if hasattr(config, "quantization_config"):
            del config.quantization_config
        plain = AutoModelForCausalLM.from_config(config, dtype=getattr(torch, dtype))
        plain.load_state_dict(backend.lm.state_dict())
        plain.save_pretrained(folder)
        backend.tokenizer.save_pretrained(folder)
    return folder
