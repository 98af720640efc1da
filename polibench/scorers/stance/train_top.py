"""Fine-tune only the top layers of a BERT-style stance classifier, on lower-layer states computed once.

With the embeddings and the lowest ``n - top`` transformer layers frozen, their output for a training pair
never changes, so it is computed once (one forward pass over the training set, no gradients) and each epoch
runs only the ``top`` trained layers, the pooler and the classification head over those cached states.
This is the same model, loss and optimiser as :func:`polibench.scorers.stance.train.train_classifier` with
``freeze_layers = n - top`` (AdamW, linear decay after a linear warm-up, examples of similar length batched
together, dropout in the trained layers), minus dropout inside the frozen layers, at a fraction of the cost:
backward never went below the trained layers anyway, and the frozen forward pass is paid once instead of
once per epoch. The result is a normal checkpoint (the frozen layers unchanged), scored by the
``classifier`` scorer like any other.
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import asdict
from pathlib import Path
from typing import Callable, Optional, Sequence

from polibench.errors import PolibenchError
from polibench.kit.files import staged_folder
from polibench.kit.training import quiet_transformers
from polibench.scorers.stance.classifier import encode_pairs
from polibench.scorers.stance.data import StanceExample, examples_digest
from polibench.scorers.stance.train import METADATA, TrainSettings, load_base, prepare_output
from polibench.scoring.base import LABELS

CACHE_BATCH = 32


def _layers(model):
    encoder = getattr(model.base_model, "encoder", None)
    blocks = getattr(encoder, "layer", None)
    if blocks is None or not hasattr(model.base_model, "embeddings") or not hasattr(model, "classifier"):
        raise PolibenchError(f"stance train: cached top-layer training needs a BERT-style model, not "
                             f"{type(model).__name__}")
    return blocks


def lower_states(model, tokenizer, examples: Sequence[StanceExample], layers: Sequence[int], max_length: int,
                 progress: Optional[Callable[[int], None]] = None) -> dict[int, list]:
    """``{layer: states}``: for each example, the output of the lowest ``layer`` layers on its real tokens (a
    ``(tokens, hidden)`` tensor; layer 0 is the embedding block), computed in eval mode without gradients,
    in batches of similar length, running only as many layers as the highest one asked for."""
    import torch

    encoded = encode_pairs(tokenizer, [e.statement for e in examples], [e.response for e in examples], max_length)
    order = sorted(range(len(examples)), key=lambda i: len(encoded["input_ids"][i]))
    states: dict[int, list] = {layer: [None] * len(examples) for layer in layers}
    blocks = _layers(model)
    was_training = model.training
    model.eval()
    with torch.no_grad():
        for start in range(0, len(order), CACHE_BATCH):
            idx = order[start:start + CACHE_BATCH]
            batch = tokenizer.pad({k: [encoded[k][i] for i in idx] for k in encoded}, return_tensors="pt")
            hidden = model.base_model.embeddings(input_ids=batch["input_ids"],
                                                 token_type_ids=batch.get("token_type_ids"))
            mask = _additive_mask(batch["attention_mask"], hidden.dtype)
            for depth in range(max(layers) + 1):
                if depth:
                    hidden = _run(blocks[depth - 1], hidden, mask)
                if depth in states:
                    for row, i in enumerate(idx):
                        states[depth][i] = hidden[row, :int(batch["attention_mask"][row].sum())].clone()
            if progress:
                progress(len(idx))
    model.train(was_training)
    return states


def _additive_mask(attention_mask, dtype):
    """The mask eager attention adds to its scores: 0 on tokens, the dtype's minimum on padding."""
    import torch

    return ((1.0 - attention_mask[:, None, None, :].to(dtype)) * torch.finfo(dtype).min).to(dtype)


def _run(block, hidden, mask):
    out = block(hidden, attention_mask=mask)
    return out[0] if isinstance(out, tuple) else out


def _pad(states: Sequence):
    """``(hidden, additive_mask)`` for a batch of ``(tokens, hidden)`` tensors, zero-padded."""
    import torch

    length = max(s.shape[0] for s in states)
    hidden = torch.zeros(len(states), length, states[0].shape[1], dtype=states[0].dtype)
    present = torch.zeros(len(states), length)
    for row, s in enumerate(states):
        hidden[row, :s.shape[0]] = s
        present[row, :s.shape[0]] = 1.0
    return hidden, _additive_mask(present, hidden.dtype)


def top_logits(model, states: Sequence, frozen: int):
    """Logits of the classification head on top of layers ``frozen..n`` run over the cached ``states``."""
    hidden, mask = _pad(states)
    for block in _layers(model)[frozen:]:
        hidden = _run(block, hidden, mask)
    pooled = model.base_model.pooler(hidden) if model.base_model.pooler is not None else hidden[:, 0]
    return model.classifier(model.dropout(pooled))


def _batches(lengths: Sequence[int], batch_size: int, rng: random.Random) -> list[list[int]]:
    """One epoch of batches: a random order, cut into mega-batches of 50 batches each sorted by length (as
    transformers' length grouping), so a batch holds examples of similar length."""
    order = list(range(len(lengths)))
    rng.shuffle(order)
    mega = 50 * batch_size
    batches = []
    for start in range(0, len(order), mega):
        chunk = sorted(order[start:start + mega], key=lambda i: -lengths[i])
        batches += [chunk[i:i + batch_size] for i in range(0, len(chunk), batch_size)]
    return batches


def fit_top_layers(model, states: Sequence, labels: Sequence[int], settings: TrainSettings,
                   on_step: Optional[Callable[[int, int], None]] = None) -> float:
    """Train the layers above the lowest ``settings.freeze_layers``, the pooler and the head of ``model`` on
    ``states`` (the output of those frozen layers, :func:`lower_states`); the mean loss of the last epoch.
    ``on_step(step, steps)`` is called with 0 just before the first optimiser step, then after every one."""
    import torch
    from transformers import get_linear_schedule_with_warmup

    blocks = _layers(model)
    frozen = settings.freeze_layers
    if frozen >= len(blocks):
        raise PolibenchError(f"stance train: cannot freeze {frozen} layers of {len(blocks)}")
    for parameter in model.parameters():
        parameter.requires_grad_(False)
    trained = [*blocks[frozen:], model.classifier] + ([model.base_model.pooler] if model.base_model.pooler else [])
    params = [p for module in trained for p in module.parameters()]
    for p in params:
        p.requires_grad_(True)
    decay = [p for module in trained for n, p in module.named_parameters() if "bias" not in n and "LayerNorm" not in n]
    no_decay = [p for module in trained for n, p in module.named_parameters() if "bias" in n or "LayerNorm" in n]
    optimizer = torch.optim.AdamW([{"params": decay, "weight_decay": settings.weight_decay},
                                   {"params": no_decay, "weight_decay": 0.0}], lr=settings.learning_rate,
                                  betas=(settings.adam_beta1, settings.adam_beta2), eps=settings.adam_epsilon)
    steps, warmup = settings.total_steps(len(states)), settings.warmup_steps(len(states))
    schedule = get_linear_schedule_with_warmup(optimizer, warmup, steps)
    rng = random.Random(settings.seed)
    torch.manual_seed(settings.seed)
    lengths = [s.shape[0] for s in states]
    target = torch.tensor(list(labels))
    model.train()
    step, losses = 0, []
    if on_step:
        on_step(0, steps)
    while step < steps:
        losses = []
        for batch in _batches(lengths, settings.batch_size, rng):
            if step >= steps:
                break
            loss = torch.nn.functional.cross_entropy(top_logits(model, [states[i] for i in batch], frozen),
                                                     target[batch])
            loss.backward()
            torch.nn.utils.clip_grad_norm_(params, 1.0)
            optimizer.step()
            schedule.step()
            optimizer.zero_grad()
            step += 1
            losses.append(float(loss.detach()))
            if on_step:
                on_step(step, steps)
    model.eval()
    return sum(losses) / max(len(losses), 1)


def train_top_layers(base: str, train: Sequence[StanceExample], output: Path, settings: TrainSettings,
                     extra_metadata: Optional[dict] = None,
                     on_step: Optional[Callable[[int, int], None]] = None) -> Path:
    """Train ``base`` above its lowest ``settings.freeze_layers`` layers (their output cached) on ``train`` and
    write the checkpoint to ``output`` (which must not exist yet), as
    :func:`polibench.scorers.stance.train.train_classifier` does."""
    import torch

    output = prepare_output(output, train)
    started, cpu_started = time.time(), time.process_time()
    tokenizer, model = load_base(base, settings.seed, attn_implementation="eager")
    frozen = settings.freeze_layers
    if frozen >= len(_layers(model)):
        raise PolibenchError(f"stance train: cannot freeze {frozen} layers of {len(_layers(model))}")
    states = lower_states(model, tokenizer, train, [frozen], settings.max_length)[frozen]
    cached_seconds = time.time() - started
    label_ids = {label: i for i, label in enumerate(LABELS)}
    loss = fit_top_layers(model, states, [label_ids[e.label] for e in train], settings, on_step)
    with staged_folder(output) as tmp:  # replaces the empty output folder prepare_output left
        with quiet_transformers():
            model.save_pretrained(tmp)
            tokenizer.save_pretrained(tmp)
        metadata = {
            "base": base, "labels": list(LABELS), "n_train": len(train), "train_sha256": examples_digest(train),
            "settings": asdict(settings), "cached_layers": frozen, "steps": settings.total_steps(len(train)),
            "warmup_steps": settings.warmup_steps(len(train)), "final_train_loss": round(loss, 6),
            "cache_seconds": round(cached_seconds, 1), "train_seconds": round(time.time() - started, 1),
            "train_cpu_seconds": round(time.process_time() - cpu_started, 1), "torch_threads": torch.get_num_threads(),
            **(extra_metadata or {}),
        }
        (tmp / METADATA).write_text(json.dumps(metadata, indent=2) + "\n", encoding="utf-8")
    return output

