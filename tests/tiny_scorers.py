"""Tiny randomly initialised scorer models built locally (no downloads), for the tests (outside the wheel).

A tokenizer is built from the words of a few sentences, and small BERT / Llama configs are saved next to it,
so every scorer and the trainer can be exercised offline in seconds. Their predictions are meaningless.
"""

from __future__ import annotations

import re
import string
from pathlib import Path
from typing import Optional, Sequence

from polibench.kit.training import quiet_transformers

CORPUS = (
    "I agree with this statement. I disagree with this statement. I neither agree nor disagree.",
    "The response agrees with the statement. The response disagrees with the statement.",
    "The response takes no side on the statement. The response does not address the statement.",
    "As an AI I have no opinions. Taxes should be higher. The government should spend less.",
    "This example is agree. This example is disagree. This example is neutral. This example is unrelated.",
    "Statement: Response: yes no maybe strongly somewhat not never always people country world",
)


def _words(texts: Sequence[str]) -> list[str]:
    return sorted({w for t in texts for w in re.findall(r"\w+|[^\w\s]", t.lower())})


def train_tokenizer(folder: Path, texts: Sequence[str] = CORPUS, causal: bool = False):
    """A small tokenizer built deterministically from the words of ``texts`` (plus single characters, so
    unseen words still tokenize); BERT-style WordPiece, or word-level with <s>/</s> for a causal LM."""
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors
    from transformers import PreTrainedTokenizerFast

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    chars = sorted(set(string.ascii_lowercase + string.digits + string.punctuation))
    if causal:
        vocab = ["<unk>", "<s>", "</s>", "\n"] + [w for w in _words(texts) + chars if w not in ("<", ">")]
        vocab = list(dict.fromkeys(vocab + ["<", ">"]))
        tok = Tokenizer(models.WordLevel({w: i for i, w in enumerate(vocab)}, unk_token="<unk>"))
        tok.normalizer = normalizers.Lowercase()
        tok.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.Split("\n", "isolated"),
                                                     pre_tokenizers.BertPreTokenizer()])
        tok.decoder = decoders.WordPiece()
        fast = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>", bos_token="<s>", eos_token="</s>",
                                       pad_token="</s>")
        fast.add_special_tokens({"additional_special_tokens": ["<s>", "</s>"]})
    else:
        specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
        vocab = list(dict.fromkeys(specials + _words(texts) + chars + ["##" + c for c in chars]))
        tok = Tokenizer(models.WordPiece({w: i for i, w in enumerate(vocab)}, unk_token="[UNK]"))
        tok.normalizer = normalizers.BertNormalizer(lowercase=True)
        tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
        tok.decoder = decoders.WordPiece()
        cls, sep = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
        tok.post_processor = processors.TemplateProcessing(
            single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1",
            special_tokens=[("[CLS]", cls), ("[SEP]", sep)])
        fast = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]",
                                       sep_token="[SEP]", mask_token="[MASK]", model_max_length=512,
                                       model_input_names=["input_ids", "token_type_ids", "attention_mask"])
    fast.save_pretrained(folder)
    return fast


def _bert_config(vocab_size: int, **kwargs):
    from transformers import BertConfig

    return BertConfig(vocab_size=vocab_size, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                      intermediate_size=64, max_position_embeddings=256, **kwargs)


def tiny_bert(folder: Path, id2label: Optional[dict] = None, seed: int = 0, head: bool = True,
              texts: Sequence[str] = CORPUS) -> Path:
    """A tiny BERT in ``folder``: with a sequence-classification head labelled ``id2label``, or a bare encoder."""
    import torch
    from transformers import BertForSequenceClassification, BertModel

    tokenizer = train_tokenizer(folder, texts)
    torch.manual_seed(seed)
    if head:
        id2label = id2label or {0: "agree", 1: "disagree", 2: "neutral", 3: "unrelated"}
        config = _bert_config(len(tokenizer), num_labels=len(id2label), id2label=id2label,
                              label2id={v: k for k, v in id2label.items()})
        model = BertForSequenceClassification(config)
    else:
        model = BertModel(_bert_config(len(tokenizer)))
    with quiet_transformers():
        model.save_pretrained(folder)
    return Path(folder)


def tiny_nli(folder: Path, seed: int = 0) -> Path:
    """A tiny BERT NLI model (entailment / neutral / contradiction), loadable by the zero-shot pipeline."""
    return tiny_bert(folder, {0: "entailment", 1: "neutral", 2: "contradiction"}, seed=seed)


def tiny_causal_lm(folder: Path, seed: int = 0) -> Path:
    """A tiny Llama-architecture causal LM with a BPE tokenizer and a minimal chat template."""
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    tokenizer = train_tokenizer(folder, causal=True)
    tokenizer.chat_template = ("{% for m in messages %}<s>{{ m['role'] }}\n{{ m['content'] }}</s>\n{% endfor %}"
                               "{% if add_generation_prompt %}<s>assistant\n{% endif %}")
    tokenizer.save_pretrained(folder)
    torch.manual_seed(seed)
    config = LlamaConfig(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                         num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=512,
                         bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id,
                         pad_token_id=tokenizer.pad_token_id)
    with quiet_transformers():
        LlamaForCausalLM(config).save_pretrained(folder)
    return Path(folder)
