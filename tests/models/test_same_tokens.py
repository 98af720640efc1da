"""Backends that see the same tokens (issue 21), on the embedded SmolLM2 GGUF through ``hf`` and ``llamacpp``:

- both read the same prompt token ids, BOS included, on a chat task and on a ``chat: false`` task;
- after a chat template ending in ``[/INST]`` an option is scored as ``" X"`` and ``"X"``, added;
- the batched option scoring (hf: prompts x options; llamacpp: options as parallel sequences) equals the
  one-option-at-a-time computations it replaced;
- option scores are cached: a hit makes no model call.

The shipped GGUF declares no BOS (``tokenizer.ggml.add_bos_token = false``), so on it no backend adds one and
they agree trivially; the tests use a copy with that one flag set to true, where a backend that leaves BOS out
of a plain prompt (``hf`` before issue 21) reads other tokens than llama.cpp.
"""

import shutil

import pytest

pytest.importorskip("llama_cpp")
pytest.importorskip("torch")

import numpy as np  # noqa: E402

from polibench.cache import CachingBackend, ResponseCache  # noqa: E402
from polibench.models.choices import option_forms  # noqa: E402
from polibench.models.hf import HFBackend  # noqa: E402
from polibench.models.llamacpp import LlamaCppBackend  # noqa: E402
from polibench.models.llamacpp_batch import BatchDecoder  # noqa: E402
from polibench.pipeline.plan import build_samples  # noqa: E402
from polibench.records import ChatMessage, GenerationSettings, Prompt  # noqa: E402
from polibench.taskspec.loader import load_registry  # noqa: E402

INST = "{% for m in messages %}[INST] {{ m['content'] }} [/INST]{% endfor %}"  # Mistral-style, ends in "[/INST]"
OPTIONS = ["1) Strongly disagree", "2) Disagree", "3) Agree", "4) Strongly agree"]


@pytest.fixture(scope="module")
def bos_gguf(embedded_gguf, tmp_path_factory):
    """The embedded GGUF with ``tokenizer.ggml.add_bos_token`` set to true (see the module docstring)."""
    from gguf import GGUFReader

    path = tmp_path_factory.mktemp("bos") / "SmolLM2-135M-Instruct-bos.gguf"
    shutil.copyfile(embedded_gguf, path)
    reader = GGUFReader(path, "r+")
    flag = reader.fields["tokenizer.ggml.add_bos_token"].parts[-1]
    assert not flag[0]
    flag[0] = True
    reader.data.flush()
    del reader
    return path


@pytest.fixture(scope="module")
def hf(bos_gguf):
    return HFBackend(str(bos_gguf), device="cpu", dtype="float32", batch_size=4)


@pytest.fixture(scope="module")
def llama(bos_gguf):
    with LlamaCppBackend(str(bos_gguf), n_ctx=512, n_threads=1) as backend:
        yield backend


def task_prompts(task: str, n: int = 2) -> list[Prompt]:
    registry = load_registry()
    samples = build_samples(registry.task(task), registry, limit=1, samples_per_prompt=1,
                            model_name="SmolLM2-135M-Instruct")[:n]
    return [Prompt(text=s.prompt, seed=s.seed, messages=tuple(s.messages) if s.messages else None) for s in samples]


def chat(text: str) -> Prompt:
    return Prompt(text=text, seed=0, messages=(ChatMessage(role="user", content=text),))


def test_hf_and_llamacpp_read_the_same_prompt_tokens(hf, llama):
    bos = llama.llm.token_bos()
    plain, templated = task_prompts("liu-gender"), task_prompts("rottger-forced")
    assert all(p.messages is None for p in plain) and all(p.messages for p in templated)
    for prompt in plain + templated:
        ids = llama.prompt_ids(prompt)
        assert hf.prompt_ids(prompt) == ids
        if prompt.messages:  # the chat template writes its own start: nothing added in front of it
            assert ids == llama.llm.tokenize(llama.render(prompt)[0].encode(), add_bos=False, special=True)
        else:  # one BOS, as the GGUF declares
            assert ids[0] == bos and ids[1] != bos
    # the generation paths read those ids too
    settings = GenerationSettings(max_new_tokens=1, temperature=0)
    for prompt in (plain[0], templated[0]):
        expected = len(llama.prompt_ids(prompt))
        assert hf.generate([prompt], settings)[0].usage.prompt_tokens == expected
        assert llama.generate([prompt], settings)[0].usage.prompt_tokens == expected


def full_forward(hf, ids: list[int], n_context: int) -> float:
    """The continuation's log-probability from one forward pass over the whole sequence, in float64."""
    import torch

    with torch.no_grad():
        logits = hf.lm(torch.tensor([ids])).logits[0].double()
    logprobs = torch.log_softmax(logits, dim=-1)
    return sum(float(logprobs[i - 1, ids[i]]) for i in range(n_context, len(ids)))


def one_at_a_time(hf, prompt: Prompt, option: str) -> tuple[float, list[list[int]]]:
    """logsumexp over the option's forms, each scored by its own full forward pass; and the forms' token ids."""
    context = hf.render(prompt)
    encode = hf.encoder(prompt)
    context_ids = encode(context)
    values, tokens = [], []
    for form in option_forms(context, option):
        ids = encode(context + form)
        assert ids[:len(context_ids)] == context_ids
        values.append(full_forward(hf, ids, len(context_ids)))
        tokens.append(ids[len(context_ids):])
    return float(np.logaddexp.reduce(values)), tokens


def test_after_inst_hf_adds_the_leading_space_form_and_batches_prompts_by_options(hf, monkeypatch):
    statement = chat("Taxes on the rich should be raised.")
    own_scores = hf.score_choices([statement], [OPTIONS[:2]])[0]
    monkeypatch.setattr(hf.tokenizer, "chat_template", INST)
    assert hf.render(statement).endswith("[/INST]")
    # two prompts of different lengths in one batch (left-padded), their options side by side
    inst_scores = hf.score_choices([statement, chat("Hi")], [OPTIONS[:2], ["Hello", " Hello"]])
    for option, ours in zip(OPTIONS[:2], inst_scores[0]):
        expected, forms = one_at_a_time(hf, statement, option)
        assert len(forms) == 2 and forms[0] != forms[1]  # " 1) ..." and "1) ..." are other tokens
        assert ours == pytest.approx(expected, abs=1e-4)
    # an option that begins with a space has one form; "Hello" has two
    assert inst_scores[1][0] == pytest.approx(one_at_a_time(hf, chat("Hi"), "Hello")[0], abs=1e-4)
    assert inst_scores[1][1] == pytest.approx(one_at_a_time(hf, chat("Hi"), " Hello")[0], abs=1e-4)
    # ChatML's assistant header ends in "\n": the option alone
    monkeypatch.undo()
    assert hf.render(statement).endswith("assistant\n")
    for option, ours in zip(OPTIONS[:2], own_scores):
        expected, forms = one_at_a_time(hf, statement, option)
        assert len(forms) == 1 and ours == pytest.approx(expected, abs=1e-4)


def token_by_token(llama, context_ids: list[int], option_ids: list[int]) -> float:
    """The llamacpp backend's former score_choices for one option: the context evaluated, then the option's tokens
    one by one, each read from the last-token logits of the backend's own llama.cpp context."""
    import llama_cpp

    llm = llama.llm

    def last_logprobs():
        logits = np.ctypeslib.as_array(llama_cpp.llama_get_logits_ith(llm.ctx, -1),
                                       shape=(llm.n_vocab(),)).astype(np.float64)
        top = logits.max()
        return logits - top - np.log(np.exp(logits - top).sum())

    llm.reset()
    llm.eval(context_ids)
    total = 0.0
    for k, token in enumerate(option_ids):
        total += float(last_logprobs()[token])
        if k + 1 < len(option_ids):
            llm.eval([token])
    llm.reset()
    return total


def whole_sequence(reference, ids: list[int], n_context: int) -> float:
    """The continuation's log-probability from one evaluation of the whole sequence by a llama.cpp context that
    keeps every position's logits (the computation lm-eval's loglikelihood makes)."""
    reference.reset()
    reference.eval(ids)
    scores = np.asarray(reference.scores[:len(ids)], dtype=np.float64)
    top = scores.max(1, keepdims=True)
    logprobs = scores - top - np.log(np.exp(scores - top).sum(1, keepdims=True))
    return float(sum(logprobs[i - 1, ids[i]] for i in range(n_context, len(ids))))


def test_llamacpp_scores_options_in_parallel_as_it_did_one_by_one(llama, bos_gguf, monkeypatch):
    """The parallel sequences give what the former token-by-token path and one evaluation of prompt + option
    give, to llama.cpp's rounding: its Q4_1 kernels round differently for one token and for a batch, and the three
    computations differ by up to ~0.2 nat on improbable options (measured over 24 rottger-logprob option forms
    under ChatML: |fast - whole| <= 0.002, |old - whole| <= 0.092; after "[/INST]" up to 0.18). A wrong position or
    KV cell costs several nats. The exact check of the batching arithmetic is hf's, against float forward passes."""
    from llama_cpp import Llama
    from llama_cpp.llama_chat_format import Jinja2ChatFormatter

    reference = Llama(model_path=str(bos_gguf), n_ctx=512, n_threads=1, logits_all=True, verbose=False)
    monkeypatch.setattr(llama, "_formatter", Jinja2ChatFormatter(template=INST, eos_token="", bos_token=""))
    prompts = [task_prompts("rottger-logprob", 1)[0], Prompt(text="The capital of France is", seed=0)]
    options = [OPTIONS[:2], ["Paris", " banana"]]
    scores = llama.score_choices(prompts, options)
    for prompt, choices, row in zip(prompts, options, scores):
        context, _ = llama.render(prompt)
        encode = llama.encoder(prompt)
        context_ids = encode(context)
        for option, ours in zip(choices, row):
            forms = [encode(context + form)[len(context_ids):] for form in option_forms(context, option)]
            assert len(forms) == (1 if option.startswith(" ") else 2)  # "[/INST]" and "is" end without a space
            whole = [whole_sequence(reference, context_ids + tokens, len(context_ids)) for tokens in forms]
            assert ours == pytest.approx(float(np.logaddexp.reduce(whole)), abs=0.25)
            old = [token_by_token(llama, context_ids, tokens) for tokens in forms]
            assert ours == pytest.approx(float(np.logaddexp.reduce(old)), abs=0.25)
    reference.close()
    assert context.endswith("is") and scores[1][0] > scores[1][1]  # Paris, not banana


def test_option_scores_are_cached_and_a_hit_makes_no_model_call(llama, tmp_path, monkeypatch):
    prompts = [chat("Taxes on the rich should be raised."), chat("Hi")]
    options = [OPTIONS[:2], OPTIONS[:2]]
    with ResponseCache(tmp_path / "cache.sqlite") as cache:
        cached = CachingBackend(llama, cache)
        first = cached.score_choices(prompts, options)
        assert cache.writes == 2 and cache.hits == 0

        def no_model_call(*args, **kwargs):
            raise AssertionError("the model was called")

        monkeypatch.setattr(BatchDecoder, "score", no_model_call)
        assert cached.score_choices(prompts, options) == first
        assert cache.hits == 2
        with pytest.raises(AssertionError, match="model was called"):  # other options: another request
            cached.score_choices(prompts[:1], [OPTIONS[1::-1]])
