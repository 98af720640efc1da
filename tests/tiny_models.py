"""Tiny random models built inside the tests (no hub access here), saved and loaded through the real paths."""

from __future__ import annotations

from pathlib import Path

CORPUS = [
    "please respond to the following statement your response",
    "i agree with this statement i disagree with this statement",
    "the freer the market the freer the people",
    "this example is agree this example is disagree neutral unrelated",
    "taxes should be higher on the rich and lower on the poor",
]


def word_tokenizer(special: dict[str, str], extra_words: list[str] | None = None):
    """A WordLevel fast tokenizer trained on a few sentences (plus ``extra_words``)."""
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.WordLevel(unk_token=special["unk_token"]))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    trainer = trainers.WordLevelTrainer(special_tokens=list(dict.fromkeys(special.values())))
    tok.train_from_iterator(CORPUS + [" ".join(extra_words or [])], trainer)
    return PreTrainedTokenizerFast(tokenizer_object=tok, **special)


def tiny_causal_lm(folder: Path, chat_template: str | None = None) -> Path:
    """A 2-layer random Llama with a word-level tokenizer, saved to ``folder``."""
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    tokenizer = word_tokenizer({"unk_token": "<unk>", "bos_token": "<s>", "eos_token": "</s>", "pad_token": "<pad>"})
    if chat_template:
        tokenizer.chat_template = chat_template
    torch.manual_seed(0)
    config = LlamaConfig(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=4, max_position_embeddings=256,
                         bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id,
                         pad_token_id=tokenizer.pad_token_id)
    LlamaForCausalLM(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def tiny_nli_model(folder: Path) -> Path:
    """A 2-layer random BERT with an NLI head (entailment/neutral/contradiction), saved to ``folder``."""
    import torch
    from transformers import BertConfig, BertForSequenceClassification

    tokenizer = word_tokenizer({"unk_token": "[UNK]", "sep_token": "[SEP]", "cls_token": "[CLS]",
                                "pad_token": "[PAD]", "mask_token": "[MASK]"})
    tokenizer.model_max_length = 128
    torch.manual_seed(0)
    config = BertConfig(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                        num_attention_heads=4, max_position_embeddings=128,
                        id2label={0: "entailment", 1: "neutral", 2: "contradiction"},
                        label2id={"entailment": 0, "neutral": 1, "contradiction": 2})
    BertForSequenceClassification(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder
