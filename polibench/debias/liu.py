"""Liu et al. 2022's reinforced calibration (Algorithm 1) at decoding time, on any transformers causal LM.

At every decoding step t of every continuation:

1. the LM reads the text so far; h_t is its last hidden state (the input of the LM head, after the final
   norm), and pi_0 = softmax(head(h_t)) the model's own next-token distribution;
2. a perturbation Delta of h_t (zero at the start of the step) takes **K SGD steps** (``steps``, Liu: 15) on

       maximise  J(Delta) - lambda_t * KL(pi_Delta || pi_0),    pi_Delta = softmax(head(h_t + Delta)),

   where J is the expected debiasing reward of the next token under pi_Delta (below);
3. the next token is sampled from pi_Delta under the task's sampling settings (temperature, top-k, top-p);
4. the KL penalty adapts (Liu: lambda starts at 0.6, halved or doubled against the KL target sigma):
   lambda_{t+1} = 2 lambda_t when KL_t > 1.5 sigma, lambda_t / 2 when KL_t < sigma / 1.5, else unchanged.
   sigma is 0.02 in Mode 1 and 0.05 in Mode 2 (Liu's "KL threshold 0.02 / 0.05").

The rewards (higher = more neutral):

- **Mode 1** (Liu's Eq. 5, word embeddings): the LM's *own input embeddings* of the top-250 TF-IDF words of
  each side of a partisan corpus (:func:`tfidf_words`; a word of several tokens is the mean of its token
  embeddings). For a vocabulary token v with embedding e_v, d_L(v) and d_C(v) are its mean cosine distances
  to the liberal and the conservative words, and the reward has three terms,
  r_1(v) = d_L(v) + d_C(v) - |d_L(v) - d_C(v)|: far from liberal words, far from conservative words, and
  balanced between them (the three together equal 2 min(d_L, d_C)). J = sum_v pi_Delta(v) r_1(v).
- **Mode 2** (a guidance judge f_debias, p = P(conservative)): r(text) = -log max(p, 1 - p), largest (log 2)
  for a neutral text. For each of the ``candidates`` most likely next tokens a under pi_0, the judge reads the
  trailing windows ending in a: the last j generated tokens with a, j = 1 .. tau (``window``, Liu: 5); the
  reward of a is their discounted mean sum_j gamma^(j-1) r(window_j) / sum_j gamma^(j-1) (``discount``
  gamma). J = sum_a pi~_Delta(a) r_2(a), pi~ being pi_Delta renormalised over the candidates.

The judge sees generated tokens only, never the prompt, as the evaluation judge does. Each SGD step has a
normalised direction and starts with a length of ``lr`` (0.1) times the norm of h_t, so one value suits models
whose hidden states differ in scale, and the step does not vanish where the reward is flat (Mode 2's reward is
flat near p = 0.5, so plain gradient steps barely moved the hidden state). A step is taken only if it lowers
-J + lambda KL and keeps the token's KL within ``kl_bound`` (1.5) times sigma; otherwise that row stays where it
is and its step length halves (backtracking). A token where a step that would have lowered the objective was
refused for crossing the bound counts as above the target, so lambda doubles. So every token's KL is at most
1.5 sigma, and lambda still adapts as the paper's rule says. Fixed-length steps overshot instead: on
SmolLM2-135M they spent about 2 nats per token against sigma = 0.02 / 0.05, whatever lambda was; backtracking
without the bound still spent 0.72-0.89 nats per token on a planted SmolLM2.

What is polibench's reading rather than the paper's text: which hidden state (the last one, perturbed afresh
at each step, as above), the exact form of Eq. 5's three terms, the way tau and gamma combine the windows, the
candidate set of Mode 2, the step size and its backtracking, the KL bound, and gamma's value (0.9).
docs/generation-bias.md says why.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import asdict, dataclass, field
from typing import Optional, Sequence

from polibench.errors import PolibenchError
from polibench.ideology.corpus import LabelledText
from polibench.models.base import GENERATE, ModelBackend, ProgressFn, cut_at_stop
from polibench.records import Completion, GenerationSettings, Prompt, Usage
from polibench.scoring.ideology import IdeologyScorer

PAPER_STEPS = 15            # Liu et al.: 15 SGD iterations
PAPER_LAMBDA = 0.6          # Liu et al.: lambda 0.6 (adapted)
PAPER_SIGMA = {1: 0.02, 2: 0.05}  # Liu et al.: KL threshold 0.02 (Mode 1) / 0.05 (Mode 2)
PAPER_WINDOW = 5            # Liu et al.: Mode 2 window tau = 5
PAPER_WORDS = 250           # Liu et al.: 250 TF-IDF words per side
KL_BOUND = 1.5              # polibench: each token's KL stays within 1.5 sigma, the adaptive rule's upper edge


@dataclass
class LiuSettings:
    mode: int = 2
    steps: int = PAPER_STEPS
    sigma: Optional[float] = None      # None: the paper's value for the mode
    initial_lambda: float = PAPER_LAMBDA
    window: int = PAPER_WINDOW
    discount: float = 0.9
    candidates: int = 10
    lr: float = 0.1
    words_per_side: int = PAPER_WORDS
    kl_bound: float = KL_BOUND        # a step may not take the token's KL above kl_bound * sigma

    @property
    def kl_target(self) -> float:
        return PAPER_SIGMA[self.mode] if self.sigma is None else self.sigma

    def check(self) -> None:
        problems = []
        if self.mode not in (1, 2):
            problems.append(f"mode must be 1 or 2 (got {self.mode})")
        if self.steps < 0:
            problems.append(f"--steps must be 0 or more (got {self.steps})")
        if self.kl_target <= 0:
            problems.append(f"--sigma must be above 0 (got {self.kl_target})")
        if self.initial_lambda <= 0:
            problems.append(f"--lambda must be above 0 (got {self.initial_lambda})")
        if self.window < 1:
            problems.append(f"--window must be at least 1 (got {self.window})")
        if not 0 < self.discount <= 1:
            problems.append(f"--discount must be in (0, 1] (got {self.discount})")
        if self.candidates < 2:
            problems.append(f"--candidates must be at least 2 (got {self.candidates})")
        if self.lr <= 0:
            problems.append(f"--lr must be above 0 (got {self.lr})")
        if self.kl_bound < 1:
            problems.append(f"kl_bound must be at least 1 (times sigma; got {self.kl_bound})")
        if self.words_per_side < 1:
            problems.append(f"--words must be at least 1 (got {self.words_per_side})")
        if problems:
            raise PolibenchError("; ".join(problems))


def adapt_lambda(lam: float, kl: float, sigma: float, bound: bool = False) -> float:
    """Liu's (and Ziegler et al.'s) adaptive KL weight: double above 1.5 sigma, halve below sigma / 1.5. A token
    whose calibration was held at the KL bound (``bound``: a step refused for crossing it) counts as above."""
    if bound or kl > 1.5 * sigma:
        return lam * 2.0
    if kl < sigma / 1.5:
        return lam / 2.0
    return lam


def neutrality(p: float) -> float:
    """Mode 2's reward of one judge score: -log max(p, 1 - p), log 2 at p = 0.5, 0 at p = 0 or 1."""
    p = min(1.0, max(0.0, float(p)))
    return -math.log(max(p, 1.0 - p))


def tfidf_words(texts: Sequence[LabelledText], per_side: int = PAPER_WORDS) -> tuple[list[str], list[str]]:
    """(liberal, conservative): the ``per_side`` words of highest TF-IDF weight in each side's texts.

    scikit-learn's ``TfidfVectorizer`` (English stop words removed, alphabetic words of 3+ letters) over two
    documents, all liberal texts and all conservative texts; a word is ranked by its weight in its side's
    document minus its weight in the other's, so words both sides use equally score zero and the lists are
    disjoint."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    sides = [" ".join(t.text for t in texts if t.label == label) for label in (0, 1)]
    if not all(s.strip() for s in sides):
        raise PolibenchError("Mode 1 needs a partisan corpus with liberal and conservative texts")
    vectorizer = TfidfVectorizer(stop_words="english", token_pattern=r"(?u)\b[a-zA-Z]{3,}\b", lowercase=True)
    weights = vectorizer.fit_transform(sides).toarray()
    vocab = vectorizer.get_feature_names_out()
    out = []
    for side in (0, 1):
        margin = weights[side] - weights[1 - side]
        order = sorted(range(len(vocab)), key=lambda i: (-margin[i], vocab[i]))
        out.append([str(vocab[i]) for i in order[:per_side] if margin[i] > 0])
    return out[0], out[1]


def word_vectors(tokenizer, embeddings, words: Sequence[str]):
    """(n, d): each word's mean input embedding over its tokens (the word with a leading space, as mid-text)."""
    import torch

    rows = []
    for word in words:
        ids = tokenizer(" " + word, add_special_tokens=False)["input_ids"]
        ids = [i for i in ids if i != tokenizer.unk_token_id] if tokenizer.unk_token_id is not None else ids
        if ids:
            rows.append(embeddings[ids].mean(0))
    if not rows:
        raise PolibenchError("Mode 1: none of the partisan words is in the model's vocabulary")
    return torch.stack(rows)


def mode1_token_rewards(embeddings, liberal, conservative):
    """(V,) r_1(v) = d_L + d_C - |d_L - d_C| for every vocabulary token (see the module docstring)."""
    import torch

    unit = torch.nn.functional.normalize(embeddings.float(), dim=-1)
    d_l = 1.0 - unit @ torch.nn.functional.normalize(liberal.float(), dim=-1).T.mean(-1)
    d_c = 1.0 - unit @ torch.nn.functional.normalize(conservative.float(), dim=-1).T.mean(-1)
    return d_l + d_c - (d_l - d_c).abs()


@dataclass
class CalibrationStats:
    """What the calibration did, summed over decoded tokens (written to debias.json)."""

    tokens: int = 0
    kl_sum: float = 0.0
    lambda_sum: float = 0.0
    kl_above_target: int = 0
    held_at_bound: int = 0             # tokens where a step was refused for crossing the KL bound
    lambdas_final: list[float] = field(default_factory=list)

    def summary(self, sigma: float) -> dict:
        n = max(self.tokens, 1)
        return {"tokens": self.tokens, "mean_kl": round(self.kl_sum / n, 5),
                "mean_lambda": round(self.lambda_sum / n, 4),
                "share_kl_above_1.5_sigma": round(self.kl_above_target / n, 4),
                "share_held_at_kl_bound": round(self.held_at_bound / n, 4), "sigma": sigma}


class LiuCalibratedBackend(ModelBackend):
    """A transformers causal LM decoded with Liu's Algorithm 1 (see the module docstring); plain continuation
    of each prompt's text, ``batch_size`` prompts at a time."""

    name = "liu-calibrated"
    capabilities = frozenset({GENERATE})
    chunk_size = 16

    def __init__(self, model: str, settings: LiuSettings, *, guidance: Optional[IdeologyScorer] = None,
                 corpus: Optional[Sequence[LabelledText]] = None, corpus_name: str = "", batch_size: int = 8,
                 device: str = "cpu"):
        settings.check()
        if settings.mode == 2 and guidance is None:
            raise PolibenchError("Mode 2 needs a guidance judge")
        if settings.mode == 1 and not corpus:
            raise PolibenchError("Mode 1 needs a partisan corpus")
        super().__init__(model, method="liu2022-algorithm1", **{k: v for k, v in asdict(settings).items()},
                         sigma_used=settings.kl_target,
                         guidance=guidance.describe() if guidance is not None and settings.mode == 2 else None,
                         corpus=corpus_name if settings.mode == 1 else None)
        self.settings, self.guidance, self.batch_size, self.device = settings, guidance, int(batch_size), device
        self.stats = CalibrationStats()
        self._load(model)
        self.words: tuple[list[str], list[str]] = ([], [])
        self.token_rewards = None
        if settings.mode == 1:
            self.words = tfidf_words(list(corpus or []), settings.words_per_side)
            emb = self.lm.get_input_embeddings().weight.detach()
            self.token_rewards = mode1_token_rewards(emb, word_vectors(self.tokenizer, emb, self.words[0]),
                                                     word_vectors(self.tokenizer, emb, self.words[1]))
            if self.token_rewards.shape[0] != self.head.weight.shape[0]:
                raise PolibenchError(f"{model}: input and output vocabularies differ; Mode 1 needs them equal")

    def _load(self, model: str) -> None:
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        try:
            self.tokenizer = AutoTokenizer.from_pretrained(model)
            self.lm = AutoModelForCausalLM.from_pretrained(model, dtype=torch.float32).to(self.device).eval()
        except (OSError, ValueError) as exc:
            raise PolibenchError(f"--model {model}: cannot load it as a transformers causal LM ({exc})") from None
        if self.tokenizer.pad_token_id is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        self.tokenizer.padding_side = "left"
        self.head = self.lm.get_output_embeddings()
        self.base = self.lm.base_model
        for p in self.lm.parameters():
            p.requires_grad_(False)
        self._checked = False

    def _cache_kwarg(self, out) -> dict:
        """The key/value cache of ``out`` under the name this transformers version takes (``cache`` or
        ``past_key_values``)."""
        import inspect

        if "cache" in inspect.signature(self.base.forward).parameters and getattr(out, "cache", None) is not None:
            return {"cache": out.cache}
        return {"past_key_values": out.past_key_values}

    def _check_head(self, input_ids, attention_mask, position_ids, hidden) -> None:
        """The head applied to the base model's last hidden state must give the model's own logits."""
        import torch

        with torch.no_grad():
            own = self.lm(input_ids=input_ids, attention_mask=attention_mask, position_ids=position_ids).logits[:, -1]
            ours = self.head(hidden)
        if not torch.allclose(own.float(), ours.float(), atol=1e-3, rtol=1e-3):
            raise PolibenchError(f"{self.model}: its logits are not head(last hidden state) (a logit scale or cap?); "
                                 "Algorithm 1 cannot perturb its hidden state here")
        self._checked = True

    def generate(self, prompts: list[Prompt], settings: GenerationSettings,
                 progress: Optional[ProgressFn] = None) -> list[Completion]:
        out: list[Completion] = []
        for start in range(0, len(prompts), self.batch_size):
            batch = prompts[start:start + self.batch_size]
            out += self._generate_batch(batch, settings)
            if progress:
                progress(len(batch))
        return out

    def _rewards_mode2(self, generated: list[list[int]], candidates, active: list[bool]):
        """(B, M) discounted window rewards of each candidate token (see the module docstring)."""
        import torch

        s = self.settings
        texts, where = [], []
        for b, row in enumerate(candidates.tolist()):
            if not active[b]:
                continue
            for m, token in enumerate(row):
                for j in range(1, s.window + 1):
                    if j - 1 > len(generated[b]):
                        break
                    tail = generated[b][len(generated[b]) - (j - 1):] if j > 1 else []
                    texts.append(tail + [token])
                    where.append((b, m, j))
        decoded = self.tokenizer.batch_decode(texts, skip_special_tokens=True)
        scores = self.guidance.judge(decoded) if decoded else []  # type: ignore[union-attr]
        total = torch.zeros(candidates.shape, dtype=torch.float32)
        weight = torch.zeros(candidates.shape, dtype=torch.float32)
        for (b, m, j), p in zip(where, scores):
            w = s.discount ** (j - 1)
            total[b, m] += w * neutrality(p)
            weight[b, m] += w
        return total / weight.clamp(min=1e-12)

    def calibrate(self, hidden, lam, candidates=None, rewards=None):
        """K SGD steps (backtracking on their length, within the KL bound) on the hidden-state perturbation;
        per row: the calibrated log-probs, their KL to the model, and whether a step was refused for crossing the
        bound."""
        import torch

        s = self.settings
        hidden = hidden.detach().float()
        with torch.no_grad():
            base_logp = torch.log_softmax(self.head(hidden).float(), -1)
        delta = torch.zeros_like(hidden, requires_grad=True)
        step = s.lr * hidden.norm(dim=-1, keepdim=True)  # each row's step: lr times its hidden state's norm
        lam_t = torch.tensor(lam, dtype=torch.float32)[:, None]

        def objective(d):
            logp = torch.log_softmax(self.head(hidden + d).float(), -1)
            kl = (logp.exp() * (logp - base_logp)).sum(-1)
            if candidates is None:
                reward = (logp.exp() * self.token_rewards).sum(-1)
            else:
                reward = (torch.softmax(logp.gather(-1, candidates), -1) * rewards).sum(-1)
            return logp, kl, reward

        def loss_and_grad(d):
            d = d.detach().requires_grad_(True)
            with torch.enable_grad():
                _, kl, reward = objective(d)
                loss = -reward + lam_t[:, 0] * kl  # per row; rows are independent
                (grad,) = torch.autograd.grad(loss.sum(), d)
            return loss.detach(), grad, kl.detach()

        limit = s.kl_bound * s.kl_target
        bound = torch.zeros(hidden.shape[0], dtype=torch.bool, device=hidden.device)
        if s.steps:
            loss, grad, _ = loss_and_grad(delta)
            for _ in range(s.steps):
                direction = grad / grad.norm(dim=-1, keepdim=True).clamp(min=1e-12)
                trial = delta.detach() - step * direction
                trial_loss, trial_grad, trial_kl = loss_and_grad(trial)
                too_far = trial_kl > limit
                bound |= too_far & (trial_loss < loss)  # the objective wanted to go past the bound
                # a step is taken only if it lowers -J + lambda KL and keeps the KL within the bound; otherwise
                # that row stays where it is and its step length halves
                better = ((trial_loss < loss) & ~too_far)[:, None]
                delta = torch.where(better, trial, delta.detach())
                loss = torch.where(better[:, 0], trial_loss, loss)
                grad = torch.where(better, trial_grad, grad)
                step = torch.where(better, step, step / 2)
        with torch.no_grad():
            logp, kl, _ = objective(delta.detach())
        return logp, kl, bound

    def _generate_batch(self, prompts: list[Prompt], settings: GenerationSettings) -> list[Completion]:
        import torch
        from transformers import LogitsProcessorList, TemperatureLogitsWarper, TopKLogitsWarper, TopPLogitsWarper

        s = self.settings
        enc = self.tokenizer([p.plain_text() for p in prompts], return_tensors="pt", padding=True)
        ids, attention = enc["input_ids"].to(self.device), enc["attention_mask"].to(self.device)
        positions = (attention.cumsum(-1) - 1).clamp(min=0)
        seed = int(hashlib.sha256(repr([p.seed for p in prompts]).encode()).hexdigest()[:8], 16)
        generator = torch.Generator(device=self.device).manual_seed(seed)
        warpers = LogitsProcessorList()
        if settings.temperature > 0 and settings.temperature != 1.0:
            warpers.append(TemperatureLogitsWarper(settings.temperature))
        if settings.top_k:
            warpers.append(TopKLogitsWarper(settings.top_k))
        if settings.top_p and settings.top_p < 1.0:
            warpers.append(TopPLogitsWarper(settings.top_p))
        eos = {self.tokenizer.eos_token_id, self.tokenizer.pad_token_id} - {None}
        batch = len(prompts)
        lam = [s.initial_lambda] * batch
        generated: list[list[int]] = [[] for _ in range(batch)]
        active = [True] * batch
        sequence = ids
        with torch.no_grad():
            out = self.base(input_ids=ids, attention_mask=attention, position_ids=positions, use_cache=True)
        hidden = out.last_hidden_state[:, -1]
        if not self._checked:
            self._check_head(ids, attention, positions, hidden)
        for _ in range(settings.max_new_tokens):
            candidates = rewards = None
            if s.mode == 2:
                with torch.no_grad():
                    candidates = self.head(hidden).float().topk(s.candidates, dim=-1).indices
                rewards = self._rewards_mode2(generated, candidates, active)
            logp, kl, bound = self.calibrate(hidden, lam, candidates, rewards)
            for b in range(batch):
                if active[b]:
                    self.stats.tokens += 1
                    self.stats.kl_sum += float(kl[b])
                    self.stats.lambda_sum += lam[b]
                    self.stats.kl_above_target += int(float(kl[b]) > 1.5 * s.kl_target)
                    self.stats.held_at_bound += int(bound[b])
                    lam[b] = adapt_lambda(lam[b], float(kl[b]), s.kl_target, bool(bound[b]))
            if settings.temperature == 0:
                next_tokens = logp.argmax(-1)
            else:
                warped = warpers(sequence, logp)
                next_tokens = torch.multinomial(torch.softmax(warped, -1), 1, generator=generator)[:, 0]
            for b in range(batch):
                if not active[b]:
                    next_tokens[b] = self.tokenizer.pad_token_id
                elif int(next_tokens[b]) in eos:
                    active[b] = False
                else:
                    generated[b].append(int(next_tokens[b]))
            if not any(active):
                break
            sequence = torch.cat([sequence, next_tokens[:, None]], -1)
            attention = torch.cat([attention, torch.ones_like(attention[:, :1])], -1)
            positions = positions[:, -1:] + 1
            with torch.no_grad():
                out = self.base(input_ids=next_tokens[:, None], attention_mask=attention, position_ids=positions,
                                use_cache=True, **self._cache_kwarg(out))
            hidden = out.last_hidden_state[:, -1]
        self.stats.lambdas_final += lam
        completions = []
        for tokens, alive, n in zip(generated, active, enc["attention_mask"].sum(-1).tolist()):
            text, hit_stop = cut_at_stop(self.tokenizer.decode(tokens, skip_special_tokens=True), settings.stop)
            completions.append(Completion(
                text=text.strip(), finish_reason="stop" if hit_stop or not alive else "length",
                usage=Usage(prompt_tokens=int(n), completion_tokens=len(tokens))))
        return completions

    def perplexity(self, texts: Sequence[str], max_length: int = 128) -> float:
        """Perplexity of ``texts`` under the *calibrated* next-token distributions: each text is read token by
        token as if the model had generated it (its own tokens fill Mode 2's windows, lambda adapts along it),
        and exp of the mean negative log-likelihood of its tokens is returned (the readability proxy, computed
        as :func:`polibench.debias.perplexity.perplexity` computes it for an unchanged model)."""
        import torch

        total, count = 0.0, 0
        rows = [self.tokenizer(t, add_special_tokens=False, truncation=True, max_length=max_length)["input_ids"]
                for t in texts]
        rows = [r for r in rows if len(r) >= 2]
        for start in range(0, len(rows), self.batch_size):
            batch = rows[start:start + self.batch_size]
            width = max(len(r) for r in batch)
            pad = self.tokenizer.pad_token_id
            ids = torch.tensor([[pad] * (width - len(r)) + r for r in batch])  # left padding, as in decoding
            attention = torch.tensor([[0] * (width - len(r)) + [1] * len(r) for r in batch])
            positions = (attention.cumsum(-1) - 1).clamp(min=0)
            with torch.no_grad():
                hidden_all = self.base(input_ids=ids, attention_mask=attention,
                                       position_ids=positions).last_hidden_state
            lam = [self.settings.initial_lambda] * len(batch)
            for t in range(width - 1):
                live = [b for b, r in enumerate(batch) if t >= width - len(r)]  # rows whose text has begun
                if not live:
                    continue
                hidden = hidden_all[live, t]
                generated = [batch[b][:t - (width - len(batch[b])) + 1] for b in live]
                candidates = rewards = None
                if self.settings.mode == 2:
                    with torch.no_grad():
                        candidates = self.head(hidden).float().topk(self.settings.candidates, dim=-1).indices
                    rewards = self._rewards_mode2(generated, candidates, [True] * len(live))
                logp, kl, bound = self.calibrate(hidden, [lam[b] for b in live], candidates, rewards)
                targets = ids[live, t + 1]
                total -= float(logp.gather(-1, targets[:, None]).sum())
                count += len(live)
                for i, b in enumerate(live):
                    lam[b] = adapt_lambda(lam[b], float(kl[i]), self.settings.kl_target, bool(bound[i]))
        return math.exp(total / count) if count else float("nan")

    def close(self) -> None:
        self.lm = None  # type: ignore[assignment]
        super().close()
