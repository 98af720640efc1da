"""The test suite's one kit of tiny random models (no hub access here): each builder makes a model with a few
layers and a word-level tokenizer from a config, seeds torch, saves both to ``folder`` with
``save_pretrained`` and returns ``folder``, so tests load them through polibench's real loading paths.

- :func:`tiny_causal_lm`: 2-layer Llama (hf backend; optional chat template).
- :func:`tiny_gpt2_lm`: 1-layer GPT-2 with a fixed 17-word vocabulary (lm-eval's ``hf`` model).
- :func:`tiny_nli_model`: 2-layer BERT with an entailment/neutral/contradiction head (NLI scorer, fairness).
- :func:`tiny_masked_lm`: 1-layer BERT masked LM whose output bias makes chosen words the likely fills (mlm).
- :func:`tiny_ideology_classifier`: 1-layer BERT with a liberal/conservative head (ideology judges).
- :func:`tiny_encoder`: 1-layer BERT encoder without a head (the issue-stance scorer's sentence encoder).

torch, tokenizers and transformers are imported inside the builders: importing this module costs nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

CORPUS = [
    "please respond to the following statement your response",
    "i agree with this statement i disagree with this statement",
    "the freer the market the freer the people",
    "this example is agree this example is disagree neutral unrelated",
    "taxes should be higher on the rich and lower on the poor",
]
GPT2_WORDS = ("<eos> <unk> please respond to the following statement : i agree disagree with this . your "
              "response").split()
BERT_SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]


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


def tiny_gpt2_lm(folder: Path) -> Path:
    """A 1-layer random GPT-2 over :data:`GPT2_WORDS` (whitespace-split, no chat template), saved to ``folder``."""
    import torch
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

    core = Tokenizer(models.WordLevel(vocab={w: i for i, w in enumerate(GPT2_WORDS)}, unk_token="<unk>"))
    core.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=core, eos_token="<eos>", unk_token="<unk>",
                                        pad_token="<eos>")
    torch.manual_seed(0)
    model = GPT2LMHeadModel(GPT2Config(vocab_size=len(GPT2_WORDS), n_embd=16, n_layer=1, n_head=2, n_positions=256,
                                       bos_token_id=0, eos_token_id=0))
    model.save_pretrained(folder)
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


def tiny_masked_lm(folder: Path, words: Iterable[str], favourites: dict[str, float]) -> Path:
    """A 1-layer BERT masked LM over :data:`BERT_SPECIALS` + sorted ``words`` (lowercased, whitespace-split,
    ``[CLS] ... [SEP]``) whose output bias makes ``favourites`` (word -> logit) the likely fills; every other
    word gets logit bias -20. Saved to ``folder``."""
    import torch
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors
    from transformers import BertConfig, BertForMaskedLM, PreTrainedTokenizerFast

    vocab = {tok: i for i, tok in enumerate(BERT_SPECIALS + sorted(set(words)))}
    core = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    core.normalizer = normalizers.Lowercase()
    core.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    core.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])])
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=core, unk_token="[UNK]", pad_token="[PAD]",
                                        cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]")
    torch.manual_seed(0)
    config = BertConfig(vocab_size=len(vocab), hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
                        intermediate_size=32, max_position_embeddings=128)
    model = BertForMaskedLM(config)
    with torch.no_grad():
        bias = torch.full((len(vocab),), -20.0)
        for word, logit in favourites.items():
            bias[vocab[word]] = logit
        model.cls.predictions.decoder.bias.copy_(bias)
        model.cls.predictions.bias.copy_(bias)
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def tiny_ideology_classifier(folder: Path) -> Path:
    """A 1-layer random BERT with a liberal/conservative head (the ``ideology_classifier`` judge, and an
    encoder for ``polibench ideology train``), saved to ``folder``."""
    import torch
    from transformers import BertConfig, BertForSequenceClassification

    tokenizer = word_tokenizer({"unk_token": "[UNK]", "sep_token": "[SEP]", "cls_token": "[CLS]",
                                "pad_token": "[PAD]", "mask_token": "[MASK]"})
    tokenizer.model_max_length = 64
    torch.manual_seed(0)
    config = BertConfig(vocab_size=len(tokenizer), hidden_size=16, intermediate_size=32, num_hidden_layers=1,
                        num_attention_heads=2, max_position_embeddings=64,
                        id2label={0: "liberal", 1: "conservative"}, label2id={"liberal": 0, "conservative": 1})
    BertForSequenceClassification(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def tiny_encoder(folder: Path, words: Iterable[str]) -> Path:
    """A 1-layer random BERT encoder (no head) over a word-level vocabulary with ``words`` (the issue scorer's
    sentence encoder in tests)."""
    import torch
    from transformers import BertConfig, BertModel

    tokenizer = word_tokenizer({"unk_token": "[UNK]", "sep_token": "[SEP]", "cls_token": "[CLS]",
                                "pad_token": "[PAD]", "mask_token": "[MASK]"}, sorted(set(words)))
    tokenizer.model_max_length = 128
    torch.manual_seed(0)
    config = BertConfig(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64, num_hidden_layers=1,
                        num_attention_heads=4, max_position_embeddings=128)
    BertModel(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder
