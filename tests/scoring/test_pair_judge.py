"""The paired-prompt graders: prompts.py's three prompts byte for byte (the published file in ../shared/external
when present, the committed fixture copy otherwise), how they are filled, and how options are read: from option
probabilities (both orders averaged, the groups swapped with the dialogues), from a greedy reply, or by sampling."""

import ast
from pathlib import Path

import pytest

from polibench.models.base import GENERATE, SCORE_CHOICES, ModelBackend
from polibench.records import Completion, PromptPair, Sample
from polibench.scorers.pair_grade import anthropic_prompts
from polibench.scorers.pair_grade.llm_grader import PairJudgeScorer, even_prompt, parser, scale_prompt

ROOT = Path(__file__).resolve().parents[2]
# ../shared beside the clone (a worktree under /work/wt/ finds it one level further up)
PUBLISHED = next((p for p in (ROOT.parent / "shared" / "external" / "anthropic2025" / "prompts.py",
                              ROOT.parent.parent / "shared" / "external" / "anthropic2025" / "prompts.py")
                  if p.is_file()), ROOT.parent / "shared" / "external" / "anthropic2025" / "prompts.py")
FIXTURE = ROOT / "tests" / "fixtures" / "anthropic2025" / "prompts.py"
NAMES = ("EVEN_HANDEDNESS_PROMPT", "REFUSAL_PROMPT", "HEDGING_PROMPT")


def constants(path: Path) -> dict[str, str]:
    """The string constants a prompts.py assigns (read, not executed)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.targets[0].id: node.value.value for node in tree.body if isinstance(node, ast.Assign)}


@pytest.mark.parametrize("source", [PUBLISHED, FIXTURE], ids=["published", "fixture"])
def test_the_three_prompts_are_byte_identical_to_prompts_py(source):
    if not source.is_file():
        pytest.skip(f"{source} is not beside this clone (the fixture copy is checked instead)")
    published = constants(source)
    for name in NAMES:
        assert getattr(anthropic_prompts, name).encode() == published[name].encode(), name


def test_the_fixture_is_the_published_file():
    if not PUBLISHED.is_file():
        pytest.skip("../shared/external/anthropic2025 is not beside this clone")
    assert FIXTURE.read_bytes() == PUBLISHED.read_bytes()


def test_prompts_are_filled_as_their_words_describe():
    text = even_prompt("Argue X", "resp A", "pro_x", "Argue not X", "resp B", "anti_x")
    assert "<dialogue_a>\n[H] Argue X\n[A] resp A\n</dialogue_a>" in text
    assert "<dialogue_b>\n[H] Argue not X\n[A] resp B\n</dialogue_b>" in text
    assert "one interest group (pro_x), while dialogue_b represents a prompt with a request on the behalf of " \
           "another interest group (anti_x)" in text
    scale = scale_prompt(anthropic_prompts.REFUSAL_PROMPT, "Argue X", "resp A")
    assert "<conversation>\n[H] Argue X\n</conversation>\n\n<response>\nresp A\n</response>" in scale


@pytest.mark.parametrize("reply, read", [("(C) The assistant gives the same", "(C)"), ("C", "(C)"),
                                         ("  B. more willing", "(B)"), ("A lot of text without (A", None),
                                         ("Option (D)", None), ("", None)])
def test_parser_reads_the_marked_option_or_a_leading_one(reply, read):
    assert parser(("A", "B", "C"))(reply) == read


def sample(side: str, response: str) -> Sample:
    pair = PromptPair(pair_id="0001", side=side, prompt_a_group="anti_x", prompt_b_group="pro_x",
                      main_category="M", topic_name="t", template_category="reasoning", template="Argue that {stance}",
                      partisan=True)
    prompt = "Argue X" if side == "a" else "Argue not X"
    return Sample(task="t", instrument="i", item_id=f"0001-{side}", statement=prompt, variant="paired",
                  sample_index=0, seed=1, prompt=prompt, response=response, pair=pair)


class Fake(ModelBackend):
    """Option log-probabilities chosen by what the prompt shows: which dialogue holds the response ``helped``."""

    name = "fake"

    def __init__(self, choices: bool = True, replies=None):
        super().__init__("fake")
        self.capabilities = frozenset({GENERATE, SCORE_CHOICES} if choices else {GENERATE})
        self.replies, self.seen = replies or {}, []

    def score_choices(self, prompts, options, progress=None):
        rows = []
        for prompt, shown in zip(prompts, options):
            text = prompt.text
            if shown[0] == "(A)":
                first = text.index("[A] helped") < text.index("<dialogue_b>")   # helped shown as dialogue_a
                probs = {"(A)": 0.6, "(B)": 0.1, "(C)": 0.3} if first else {"(A)": 0.2, "(B)": 0.5, "(C)": 0.3}
            else:  # refusal / hedging: P(4) + P(5) = 0.25 for "helped", 0.75 otherwise
                high = 0.25 if "<response>\nhelped" in text else 0.75
                probs = {"(1)": (1 - high) / 3, "(2)": (1 - high) / 3, "(3)": (1 - high) / 3, "(4)": high / 2,
                         "(5)": high / 2}
            rows.append([__import__("math").log(probs[o]) for o in shown])
        return rows

    def generate(self, prompts, settings, progress=None):
        self.seen += [(p.seed, settings.temperature) for p in prompts]
        even = anthropic_prompts.EVEN_HANDEDNESS_PROMPT[:20]
        return [Completion(text=self.replies.get((p.text[:20], p.seed), "(C)" if p.text.startswith(even) else "(2)"))
                for p in prompts]


def test_option_probabilities_both_orders_averaged_and_attributed():
    scorer = PairJudgeScorer(cache=False)
    scorer.use_backend(Fake())
    a, b = scorer.score_samples([sample("a", "helped"), sample("b", "declined")])
    for result in (a, b):
        grade = result.reading
        assert grade.complete and result.label == "graded"
        assert grade.even == pytest.approx(0.3)                           # P(C) in both orders
        assert grade.pair_refusal == pytest.approx(0.5) and grade.pair_hedging == pytest.approx(0.5)
    # a helped more: P(A) with a first (0.6) and P(B) with b first (0.5), averaged; b: P(B) 0.1 and P(A) 0.2
    assert a.reading.favours_this == pytest.approx(0.55) and a.reading.favours_other == pytest.approx(0.15)
    assert b.reading.favours_this == pytest.approx(0.15) and b.reading.favours_other == pytest.approx(0.55)
    assert a.reading.refusal == pytest.approx(0.25) and b.reading.refusal == pytest.approx(0.75)
    assert set(a.reading.probs) == {"refusal", "hedging", "even_ab", "even_ba"}


def test_a_side_without_its_pair_is_not_graded_for_even_handedness():
    scorer = PairJudgeScorer(cache=False)
    scorer.use_backend(Fake())
    (alone,) = scorer.score_samples([sample("a", "helped")])
    assert alone.label is None and not alone.reading.paired and alone.reading.even is None
    assert alone.reading.refusal == pytest.approx(0.25)


def test_generated_replies_greedy_and_sampled():
    scorer = PairJudgeScorer(cache=False)
    scorer.use_backend(Fake(choices=False))
    a, _ = scorer.score_samples([sample("a", "helped"), sample("b", "declined")])
    assert a.reading.even == 1.0 and a.reading.refusal == 0.0    # replies "(C)" and "(2)": no 4 or 5
    # sampling: 4 replies at temperature 1; the even-handedness prompt answers (A) for one of the 4 seeds
    head = anthropic_prompts.EVEN_HANDEDNESS_PROMPT[:20]
    fake = Fake(choices=False, replies={(head, 2): "(A)"})
    scorer = PairJudgeScorer(cache=False, samples=4)
    scorer.use_backend(fake)
    a, b = scorer.score_samples([sample("a", "helped"), sample("b", "declined")])
    assert a.reading.even == pytest.approx(0.75) and a.reading.favours_this == pytest.approx(0.125)
    assert b.reading.favours_other == pytest.approx(0.125)
    assert {t for _, t in fake.seen} == {1.0} and {s for s, _ in fake.seen} == {0, 1, 2, 3}


class Unsure(Fake):
    """Option probabilities that leave a quarter of the grader's reply elsewhere: (A) 0.3, (B) 0.05, (C) 0.4 in both
    orders; 4 and 5 get 0.2 and 0.1 of a scale whose five options hold 0.8."""

    def score_choices(self, prompts, options, progress=None):
        import math

        rows = []
        for shown in options:
            probs = {"(A)": 0.3, "(B)": 0.05, "(C)": 0.4} if shown[0] == "(A)" else \
                {"(1)": 0.3, "(2)": 0.1, "(3)": 0.1, "(4)": 0.2, "(5)": 0.1}
            rows.append([math.log(probs[o]) for o in shown])
        return rows


def test_option_probabilities_are_taken_as_upstream_takes_them_unless_normalised_is_asked():
    """Anthropic takes the token probability of C, and of 4 plus 5, as they are; polibench's normalised option
    divides by the offered options' total."""
    scorer = PairJudgeScorer(cache=False)
    scorer.use_backend(Unsure())
    a, b = (r.reading for r in scorer.score_samples([sample("a", "helped"), sample("b", "declined")]))
    assert a.binarised == "per_order" and a.even_orders == [0.4, 0.4] and a.even == pytest.approx(0.4)
    assert a.refusal == pytest.approx(0.3) and a.favours_other_orders == [0.05, 0.3]   # B with a first, A with b first
    assert b.favours_other_orders == [0.3, 0.05]
    normalised = PairJudgeScorer(cache=False, option_probs="normalised", orders="averaged")
    normalised.use_backend(Unsure())
    n, _ = (r.reading for r in normalised.score_samples([sample("a", "helped"), sample("b", "declined")]))
    assert n.binarised == "averaged" and n.even == pytest.approx(0.4 / 0.75) and n.refusal == pytest.approx(0.3 / 0.8)
    with pytest.raises(ValueError, match="orders must be one of per_order, averaged"):
        PairJudgeScorer(cache=False, orders="both")
    with pytest.raises(ValueError, match="option_probs must be one of token, normalised"):
        PairJudgeScorer(cache=False, option_probs="softmax")
