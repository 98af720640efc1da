"""GRPO fine-tuning against political bias (``polibench debias --method grpo``): polibench's own method, not
Liu et al.'s.

TRL's ``GRPOTrainer`` (group-relative advantages over ``num_generations`` samples per prompt, a KL penalty
weighted by a fixed ``beta`` to the frozen reference model) updates the **weights**, with a reward from
:mod:`polibench.debias.rewards`. Liu et al. 2022's reinforced calibration (Algorithm 1) is a different
algorithm: K SGD steps on the hidden state at every decoding step, with an adaptive lambda driven by a KL
target; it is :mod:`polibench.debias.liu`. The defaults below (15 steps, beta 0.05) are polibench's choices,
not values from the paper. The prompts are the generation-bias task's prompts filled with its training
keywords (:func:`split_keywords`), so the evaluation keywords are never trained on.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

from polibench.errors import PolibenchError
from polibench.kit.training import precision_flags, quiet_transformers
from polibench.taskspec.loader import TaskRegistry
from polibench.taskspec.schema import Item, TaskConfig, fill_template, item_slots


@dataclass
class CalibrationSettings:
    steps: int = 15                 # GRPO optimisation steps in total (polibench's default)
    kl: float = 0.05                # GRPO's fixed KL weight beta to the reference model (polibench's default)
    learning_rate: float = 1e-5
    generations: int = 4            # samples per prompt (GRPO's group)
    prompts_per_step: int = 4
    max_new_tokens: int = 32
    temperature: float = 1.0
    seed: int = 1234


def split_keywords(items: list[Item]) -> tuple[list[Item], list[Item]]:
    """(train, held out): every other keyword of each option, so both halves cover every option."""
    seen: dict[Optional[str], int] = {}
    train, held = [], []
    for item in items:
        index = seen.get(item.group, 0)
        seen[item.group] = index + 1
        (train if index % 2 == 0 else held).append(item)
    return train, held


def training_prompts(task: TaskConfig, registry: TaskRegistry) -> list[str]:
    """Every prompt of the task (all triggers) filled with the training half of its keywords."""
    variant_set = registry.variant_sets[task.variant_set]
    prompts = []
    for name in task.instruments:
        train, _ = split_keywords(registry.instruments[name].items)
        prompts += [fill_template(v.template, item.text, "model", item_slots(variant_set, item))
                    for item in train for v in variant_set.variants]
    if not prompts:
        raise PolibenchError(f"task '{task.task}' has no keywords to train on")
    return prompts


def grpo_finetune(model: str, prompts: list[str], reward: Callable, output: Path, settings: CalibrationSettings,
                  device: str = "cpu") -> Path:
    """Train ``model`` (a local folder or hub id) on ``prompts`` with ``reward``; save the policy to ``output``."""
    try:
        from datasets import Dataset
        from trl import GRPOConfig, GRPOTrainer
    except ImportError as exc:
        raise PolibenchError(f"polibench debias needs TRL and datasets ({exc.name} is missing): "
                             "pip install 'polibench[debias]'") from None
    from transformers import AutoTokenizer

    with quiet_transformers():
        tokenizer = AutoTokenizer.from_pretrained(model)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    tokenizer.padding_side = "left"
    batch = settings.prompts_per_step * settings.generations
    config = GRPOConfig(
        output_dir=str(output / "trainer"), max_steps=settings.steps, learning_rate=settings.learning_rate,
        beta=settings.kl, num_generations=settings.generations, per_device_train_batch_size=batch,
        max_completion_length=settings.max_new_tokens, temperature=settings.temperature, seed=settings.seed,
        logging_steps=1, save_strategy="no", report_to=[], use_cpu=device == "cpu", **precision_flags("fp32"),
        disable_tqdm=True)
    trainer = GRPOTrainer(model=model, reward_funcs=reward, args=config,
                          train_dataset=Dataset.from_dict({"prompt": prompts}), processing_class=tokenizer)
    trainer.train()
    trainer.model.save_pretrained(output)
    tokenizer.padding_side = "right"
    tokenizer.save_pretrained(output)
    return output
