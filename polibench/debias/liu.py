"""Liu et al. 2022's reinforced calibration (Algorithm 1) at decoding time, on any transformers causal LM.

**The paper's algorithm** (Liu et al. 2022, Algorithm 1 and Eq. 9; ``shared/reference/liu2022.json``, key
``algorithm_1``), as ``polibench debias --method liu`` runs it by default. At every decoding step t of every
continuation:

1. the LM reads the text so far; h_t is its last hidden state (the input of the LM head, after the final
   norm), and pi_0 = softmax(head(h_t)) the model's own next-token distribution;
2. a perturbation Delta of h_t (zero at the start of the step) takes **K steps of Adam** (``steps``, the
   paper: 15; ``torch.optim.Adam``) towards

       argmax_Delta  lambda_t * R(Delta) - KL(pi_Delta || pi_0),    pi_Delta = softmax(head(h_t + Delta))   (Eq. 9)

   where R is the expected debiasing reward of the next token under pi_Delta (below). **lambda weights the
   reward**: it is the debias strength, 0 = no debiasing (the model's own distribution), 0.6 by default, 0.9
   the strongest the paper studies (its sweep: 0.1, 0.3, 0.5, 0.7, 0.9);
3. the next token is sampled from pi_Delta under the task's sampling settings (temperature, top-k, top-p);
4. lambda adapts against the KL threshold sigma (0.02 in Mode 1, 0.05 in Mode 2), lambda_0 = 0.6:
   lambda_{t+1} = lambda_t / 2 when KL_t >= 2 sigma, 2 lambda_t when KL_t <= sigma / 2, else unchanged.

The rewards (higher = more neutral):

- **Mode 1** (the paper's Eq. 5, word embeddings): the LM's *own input embeddings* of the top-250 TF-IDF
  words of each side of a partisan corpus (:func:`tfidf_words`; a word of several tokens is the mean of its
  token embeddings). For a vocabulary token v with embedding e_v, d_L(v) and d_C(v) are its mean cosine
  distances to the liberal and the conservative words, and the reward has three terms,
  r_1(v) = d_L(v) + d_C(v) - |d_L(v) - d_C(v)|: far from liberal words, far from conservative words, and
  balanced between them (the three together equal 2 min(d_L, d_C)). R = sum_v pi_Delta(v) r_1(v).
- **Mode 2** (a guidance judge f_debias, p = P(conservative)): r(text) = -log max(p, 1 - p), largest (log 2)
  for a neutral text. For each of the ``candidates`` most likely next tokens a under pi_0, the judge reads the
  trailing windows ending in a: the last j generated tokens with a, j = 1 .. tau (``window``, the paper: 5);
  the reward of a is their discounted mean sum_j gamma^(j-1) r(window_j) / sum_j gamma^(j-1) (``discount``
  gamma). R = sum_a pi~_Delta(a) r_2(a), pi~ being pi_Delta renormalised over the candidates.

**polibench's reading where the paper does not pin it down**: which hidden state (the last one, perturbed
afresh at each step), the exact form of Eq. 5's three terms, the way tau and gamma combine the windows, the
candidate set of Mode 2, gamma's value (0.9), and Adam's learning rate: the paper names Adam, not its rate.
Here Delta = rms(h_t) * u and Adam steps u with ``lr`` (``ADAM_LR``), so each of the first steps moves every
coordinate of h_t by about ``lr`` times h_t's root-mean-square and one value suits models whose hidden states
differ in scale; ``ADAM_LR`` was chosen on a development check of how well the K steps solve Eq. 9's argmax
(benchmarks/bench_liu_adam_lr.py), before any planted-debias run.

**polibench's own safeguards, off by default** (named options, recorded in ``debias.json`` when used):

- ``optimizer="backtracking"`` (``--optimizer backtracking``): instead of Adam, normalised-gradient steps of
  ``lr`` (0.1) times |h_t|, each taken only if it raises lambda R - KL; otherwise that row stays where it is and
  its step length halves. So the K steps never end below Delta = 0 on the objective;
- ``kl_cap`` (``--kl-cap C``): a step that would take a token's KL above C sigma is not taken (that row stays
  where it was), and a token where a step was refused counts as above the threshold, so lambda halves.

With neither, every token's KL is what Adam reaches on Eq. 9 under the adaptive lambda, as the paper's rule
has it. docs/generation-bias.md says which parts are the paper's and which polibench's, and what the earlier
versions (lambda on the KL, the PPO thresholds 1.5 sigma / sigma / 1.5, backtracking and a cap of 1.5 sigma by
default) measured.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import asdict, dataclass, field
from typing import Optional, Sequence

from polibench.errors import PolibenchError
from polibench.models.base import GENERATE, ModelBackend, ProgressFn, cut_at_stop
from polibench.records import Completion, GenerationSettings, Prompt, Usage
from polibench.scorers.ideology.corpus import LabelledText
from polibench.scorers.ideology.judges import IdeologyScorer

PAPER_STEPS = 15            # Liu et al.: K = 15 iterations (of SGD via Adam)
PAPER_LAMBDA = 0.6          # Liu et al.: lambda_0 = 0.6, the debias strength (adapted)
PAPER_LAMBDA_SWEEP = (0.1, 0.3, 0.5, 0.7, 0.9)  # Liu et al.'s Tables 6 and 7
PAPER_SIGMA = {1: 0.02, 2: 0.05}  # Liu et al.: KL threshold 0.02 (Mode 1) / 0.05 (Mode 2)
PAPER_WINDOW = 5            # Liu et al.: Mode 2 window tau = 5
PAPER_WORDS = 250           # Liu et al.: 250 TF-IDF words per side
HALVE_AT, DOUBLE_AT = 2.0, 0.5  # Liu et al.: halve lambda when KL >= 2 sigma, double it when KL <= sigma / 2
OPTIMIZERS = ("adam", "backtracking")  # adam: the paper's; backtracking: polibench's own safeguard
ADAM_LR = 0.001             # polibench: Adam's rate in rms(h_t) units (bench_liu_adam_lr; the paper gives none)
BACKTRACKING_LR = 0.1       # polibench: the backtracking optimiser's first step, 0.1 x |h_t|


@dataclass
class LiuSettings:
    mode: int = 2
    steps: int = PAPER_STEPS
    sigma: Optional[float] = None      # None: the paper's value for the mode
    initial_lambda: float = PAPER_LAMBDA
    window: int = PAPER_WINDOW
    discount: float = 0.9
    candidates: int = 10
    lr: Optional[float] = None         # None: the optimiser's default (ADAM_LR or BACKTRACKING_LR)
    words_per_side: int = PAPER_WORDS
    optimizer: str = "adam"            # "backtracking": polibench's own safeguard, not the paper's
    kl_cap: Optional[float] = None     # polibench's own safeguard: no step takes a token's KL above kl_cap * sigma

    @property
    def kl_target(self) -> float:
        return PAPER_SIGMA[self.mode] if self.sigma is None else self.sigma

    @property
    def step_size(self) -> float:
        if self.lr is not None:
            return self.lr
        return ADAM_LR if self.optimizer == "adam" else BACKTRACKING_LR

    def safeguards(self) -> list[str]:
        """polibench's own additions to the paper's Algorithm 1 in use (empty: the paper's algorithm)."""
        out = []
        if self.optimizer == "backtracking":
            out.append(f"backtracking: normalised steps of {self.step_size} x |h_t|, each taken only if it raises "
                       "lambda R - KL (polibench's, not the paper's Adam)")
        if self.kl_cap is not None:
            out.append(f"kl_cap: no step takes a token's KL above {self.kl_cap} sigma = "
                       f"{self.kl_cap * self.kl_target:g}; a token held there halves lambda (polibench's)")
        return out

    def check(self) -> None:
        problems = []
        if self.mode not in (1, 2):
            problems.append(f"mode must be 1 or 2 (got {self.mode})")
        if self.steps < 0:
            problems.append(f"--steps must be 0 or more (got {self.steps})")
        if self.kl_target <= 0:
            problems.append(f"--sigma must be above 0 (got {self.kl_target})")
        if not self.initial_lambda >= 0 or math.isinf(self.initial_lambda):
            problems.append(f"--lambda must be 0 or more (got {self.initial_lambda}; 0 = no debiasing)")
        if self.window < 1:
            problems.append(f"--window must be at least 1 (got {self.window})")
        if not 0 < self.discount <= 1:
            problems.append(f"--discount must be in (0, 1] (got {self.discount})")
        if self.candidates < 2:
            problems.append(f"--candidates must be at least 2 (got {self.candidates})")
        if self.optimizer not in OPTIMIZERS:
            problems.append(f"--optimizer must be one of {', '.join(OPTIMIZERS)} (got {self.optimizer!r})")
        if self.lr is not None and not self.lr > 0:
            problems.append(f"--lr must be above 0 (got {self.lr})")
        if self.kl_cap is not None and not self.kl_cap > 0:
            problems.append(f"--kl-cap must be above 0 (times sigma; got {self.kl_cap})")
        if self.words_per_side < 1:
            problems.append(f"--words must be at least 1 (got {self.words_per_side})")
        if problems:
            raise PolibenchError("; ".join(problems))


def adapt_lambda(lam: float, kl: float, sigma: float, capped: bool = False) -> float:
    """The paper's rule for the debias strength: halve lambda when the step's KL >= 2 sigma, double it when
    KL <= sigma / 2, else keep it. A token held at polibench's KL cap (``capped``: a step refused for crossing
    it) counts as above the threshold."""
    if capped or kl >= HALVE_AT * sigma:
        return lam / 2.0
    if kl <= DOUBLE_AT * sigma:
        return lam * 2.0
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
    kl_at_or_above_halving: int = 0    # tokens whose KL >= 2 sigma (lambda halves after them)
    kl_at_or_below_doubling: int = 0   # tokens whose KL <= sigma / 2 (lambda doubles after them)
    capped: int = 0                    # tokens where a step was refused for crossing polibench's KL cap
    lambda_max: float = 0.0
    lambdas_final: list[float] = field(default_factory=list)

    def add(self, kl: float, lam: float, capped: bool, sigma: float) -> None:
        self.tokens += 1
        self.kl_sum += kl
        self.lambda_sum += lam
        self.lambda_max = max(self.lambda_max, lam)
        self.kl_at_or_above_halving += int(kl >= HALVE_AT * sigma)
        self.kl_at_or_below_doubling += int(kl <= DOUBLE_AT * sigma)
        self.capped += int(capped)

    def summary(self, sigma: float) -> dict:
        n = max(self.tokens, 1)
        return {"tokens": self.tokens, "mean_kl": round(self.kl_sum / n, 5),
                "mean_lambda": round(self.lambda_sum / n, 4), "max_lambda": round(self.lambda_max, 4),
                "share_kl_at_or_above_2_sigma": round(self.kl_at_or_above_halving / n, 4),
                "share_kl_at_or_below_half_sigma": round(self.kl_at_or_below_doubling / n, 4),
                "share_held_at_kl_cap": round(self.capped / n, 4), "sigma": sigma}


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
                         sigma_used=settings.kl_target, lr_used=settings.step_size,
                         safeguards=settings.safeguards(),
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
        """Eq. 9 on each row's hidden state: K steps towards argmax lambda R - KL (Adam by default; polibench's
        backtracking steps if asked), within polibench's KL cap if one is set. Per row: the calibrated log-probs,
        their KL to the model's own, and whether a step was refused at the cap."""
        import torch

        s = self.settings
        hidden = hidden.detach().float()
        with torch.no_grad():
            base_logp = torch.log_softmax(self.head(hidden).float(), -1)
        lam_t = torch.tensor(lam, dtype=torch.float32, device=hidden.device)

        def objective(delta):
            """Per row: log pi_Delta, KL(pi_Delta || pi_0), R(Delta)."""
            logp = torch.log_softmax(self.head(hidden + delta).float(), -1)
            kl = (logp.exp() * (logp - base_logp)).sum(-1)
            if candidates is None:
                reward = (logp.exp() * self.token_rewards).sum(-1)
            else:
                reward = (torch.softmax(logp.gather(-1, candidates), -1) * rewards).sum(-1)
            return logp, kl, reward

        def loss_of(delta):
            """Per row: -(lambda R - KL), the quantity the steps lower; rows are independent."""
            _, kl, reward = objective(delta)
            return -(lam_t * reward - kl), kl

        limit = None if s.kl_cap is None else s.kl_cap * s.kl_target
        capped = torch.zeros(hidden.shape[0], dtype=torch.bool, device=hidden.device)
        # at lambda = 0 Eq. 9 is max -KL, whose maximiser is Delta = 0: those rows stay there (Adam would step on
        # float32 rounding of the zero gradient, which it normalises to full-size steps)
        moving = lam_t > 0
        if s.optimizer == "adam":
            delta = self._adam_steps(hidden, loss_of, limit, capped, moving)
        else:
            delta = self._backtracking_steps(hidden, loss_of, limit, capped, moving)
        with torch.no_grad():
            logp, kl, _ = objective(delta)
        return logp, kl, capped

    def _adam_steps(self, hidden, loss_of, limit, capped, moving):
        """The paper's K steps of Adam (torch.optim.Adam) on Delta = rms(h_t) * u, u starting at 0. With a KL cap
        (polibench's), a row whose step would cross it goes back to where it was and is marked in ``capped``."""
        import torch

        scale = hidden.pow(2).mean(-1, keepdim=True).sqrt()  # each row's rms: Adam's steps are in its units
        u = torch.zeros_like(hidden, requires_grad=True)
        optimiser = torch.optim.Adam([u], lr=self.settings.step_size)
        for _ in range(self.settings.steps):
            before = u.detach().clone()
            optimiser.zero_grad()
            with torch.enable_grad():
                loss, _ = loss_of(scale * u)
                loss.sum().backward()
            u.grad.mul_(moving[:, None])  # type: ignore[union-attr]
            optimiser.step()
            if limit is not None:
                with torch.no_grad():
                    _, kl = loss_of(scale * u)
                    over = kl > limit
                    capped |= over
                    u.copy_(torch.where(over[:, None], before, u))
        return (scale * u).detach()

    def _backtracking_steps(self, hidden, loss_of, limit, capped, moving):
        """polibench's own optimiser: K normalised-gradient steps of ``lr`` x |h_t|, each taken only if it lowers
        -(lambda R - KL) (and keeps the KL within the cap, if any); otherwise that row stays where it is and its
        step length halves. A row where a step that would have raised the objective was refused at the cap is
        marked in ``capped``."""
        import torch

        def loss_and_grad(d):
            d = d.detach().requires_grad_(True)
            with torch.enable_grad():
                loss, kl = loss_of(d)
                (grad,) = torch.autograd.grad(loss.sum(), d)
            return loss.detach(), grad, kl.detach()

        delta = torch.zeros_like(hidden)
        step = self.settings.step_size * hidden.norm(dim=-1, keepdim=True)
        if not self.settings.steps:
            return delta
        loss, grad, _ = loss_and_grad(delta)
        for _ in range(self.settings.steps):
            direction = grad / grad.norm(dim=-1, keepdim=True).clamp(min=1e-12)
            trial = delta - step * direction
            trial_loss, trial_grad, trial_kl = loss_and_grad(trial)
            too_far = trial_kl > limit if limit is not None else torch.zeros_like(capped)
            capped |= too_far & (trial_loss < loss) & moving  # the objective wanted to go past the cap
            better = ((trial_loss < loss) & ~too_far & moving)[:, None]
            delta = torch.where(better, trial, delta)
            loss = torch.where(better[:, 0], trial_loss, loss)
            grad = torch.where(better, trial_grad, grad)
            step = torch.where(better, step, step / 2)
        return delta

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
            logp, kl, capped = self.calibrate(hidden, lam, candidates, rewards)
            for b in range(batch):
                if active[b]:
                    self.stats.add(float(kl[b]), lam[b], bool(capped[b]), s.kl_target)
                    lam[b] = adapt_lambda(lam[b], float(kl[b]), s.kl_target, bool(capped[b]))
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
                logp, kl, capped = self.calibrate(hidden, [lam[b] for b in live], candidates, rewards)
                targets = ids[live, t + 1]
                total -= float(logp.gather(-1, targets[:, None]).sum())
                count += len(live)
                for i, b in enumerate(live):
                    lam[b] = adapt_lambda(lam[b], float(kl[i]), self.settings.kl_target, bool(capped[i]))
        return math.exp(total / count) if count else float("nan")

    def close(self) -> None:
        self.lm = None  # type: ignore[assignment]
        super().close()
