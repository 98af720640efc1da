"""Frozen sentence embeddings, as the offline judges read text: a transformers encoder (MiniLM-L6 by default),
mean-pooled over the attention mask and L2-normalised, on CPU. Used by the ideology judge
(polibench/scorers/ideology/recipe.py) and the offline issue-stance scorer (polibench/scorers/issue_stance/model.py).

Each encoder is loaded once per process. Texts of similar length share a batch (less padding, the same vectors);
the result keeps the input order."""

from __future__ import annotations

from typing import Callable, Optional, Sequence

import numpy as np

from polibench.errors import PolibenchError
from polibench.kit.training import quiet_transformers

_LOADED: dict[str, tuple] = {}


def mean_pooled(encoder: str, texts: Sequence[str], *, max_length: int, batch_size: int, who: str,
                progress: Optional[Callable[[int], None]] = None) -> np.ndarray:
    """(len(texts), dim) float32 embeddings of ``texts`` under the encoder at ``encoder`` (a folder or a hub id);
    an empty text reads as one space. ``who`` names the caller in the error for an encoder that cannot load;
    ``progress(n)`` is told each batch's size."""
    import torch
    from transformers import AutoModel, AutoTokenizer

    if encoder not in _LOADED:
        try:
            with quiet_transformers():
                _LOADED[encoder] = (AutoTokenizer.from_pretrained(encoder),
                                    AutoModel.from_pretrained(encoder).float().eval())
        except OSError as exc:
            raise PolibenchError(f"{who}: cannot load the encoder '{encoder}' ({exc})") from None
    tokenizer, model = _LOADED[encoder]
    order = sorted(range(len(texts)), key=lambda i: len(texts[i] or ""))
    out: Optional[np.ndarray] = None
    for start in range(0, len(order), batch_size):
        idx = order[start:start + batch_size]
        enc = tokenizer([texts[i] or " " for i in idx], truncation=True, max_length=max_length, padding=True,
                        return_tensors="pt")
        with torch.no_grad():
            hidden = model(**enc).last_hidden_state
        mask = enc["attention_mask"].unsqueeze(-1).to(hidden.dtype)
        pooled = torch.nn.functional.normalize((hidden * mask).sum(1) / mask.sum(1).clamp(min=1.0), dim=-1)
        if out is None:
            out = np.zeros((len(texts), pooled.shape[1]), dtype=np.float32)
        out[idx] = pooled.numpy()
        if progress:
            progress(len(idx))
    return out if out is not None else np.zeros((0, 1), dtype=np.float32)
