"""The ``mlm`` backend and ``mask_lexicon`` scorer on a tiny BERT built here, lexicon words in its vocabulary."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tiny_models import tiny_masked_lm

torch = pytest.importorskip("torch")

from polibench.cli.main import main  # noqa: E402
from polibench.models.mlm import MaskedLMBackend  # noqa: E402
from polibench.records import GenerationSettings, Prompt, Sample, TokenProb  # noqa: E402
from polibench.results.files import read_samples  # noqa: E402
from polibench.scorers.stance.mask_lexicon import NEGATIVE, POSITIVE, MaskLexiconScorer  # noqa: E402
from polibench.scoring.stage import score_samples  # noqa: E402

WORDS = ("please respond to the following statement : i with this . table chair think government should "
         "be").split()


@pytest.fixture(autouse=True)
def _own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("POLIBENCH_CACHE", str(tmp_path / "cache"))


def build_tiny_mlm(folder: Path, favourites: dict[str, float]) -> Path:
    """A 1-layer BERT whose output bias makes ``favourites`` (word -> logit) the likely fills."""
    return tiny_masked_lm(folder, set(WORDS) | set(POSITIVE) | set(NEGATIVE), favourites)


@pytest.fixture(scope="module")
def agreeing_model(tmp_path_factory) -> Path:
    return build_tiny_mlm(tmp_path_factory.mktemp("mlm") / "agreeing", {"agree": 20.0, "support": 19.0,
                                                                         "disagree": 17.0, "table": 16.0})


def test_fills_use_the_models_own_mask_token_and_top_k(agreeing_model):
    backend = MaskedLMBackend(str(agreeing_model))
    prompt = Prompt(text="Please respond to the following statement: The government should be small. "
                         "I <mask> with this statement.", seed=1)
    assert backend.masked_text(prompt, "[MASK]").endswith("I [MASK] with this statement.")
    (completion,) = backend.generate([prompt], GenerationSettings(top_k=10, samples=1))
    fills = completion.mask_fills
    assert len(fills) == 10
    assert [f.token for f in fills[:4]] == ["agree", "support", "disagree", "table"]
    probs = [f.prob for f in fills]
    assert probs == sorted(probs, reverse=True) and 0.99 < sum(probs) <= 1.0 + 1e-6
    assert completion.text.startswith("agree ")  # readable listing; nothing parses it
    with pytest.raises(Exception, match="<mask>"):
        backend.generate([Prompt(text="no slot here", seed=1)], GenerationSettings())


def fills(*pairs) -> list[TokenProb]:
    return [TokenProb(token=t, prob=p) for t, p in pairs]


def test_lexicon_aggregation_and_abstention():
    scorer = MaskLexiconScorer()
    result = scorer.score_fills(fills(("agree", 0.5), ("Ġsupport", 0.2), ("disagree", 0.3), ("x", 0.1)))
    assert result.label == "agree"
    assert result.probs["agree"] == pytest.approx(0.7) and result.probs["disagree"] == pytest.approx(0.3)
    against = scorer.score_fills(fills(("reject", 0.4), ("▁agree", 0.1)))
    assert against.label == "disagree" and against.probs["disagree"] == pytest.approx(0.8)
    assert scorer.score_fills(fills(("table", 0.9))).label is None
    assert scorer.score_fills(None).label is None
    # text alone (a generative model's answer) carries no fills: abstain, whatever it says
    assert scorer.score(["s"], ["I agree with this statement."])[0].label is None


def test_old_samples_with_fills_in_the_text_are_read_and_scored_the_same(tmp_path):
    """samples.jsonl written before ``mask_fills`` existed hid the fills in ``response`` as JSON."""
    base = dict(task="pct-mlm", instrument="pct", item_id="q1", statement="s", variant="v", sample_index=0, seed=1,
                prompt="I <mask> with this statement.")
    legacy_text = json.dumps({"mask_fills": [["agree", 0.5], ["support", 0.2], ["disagree", 0.3]]})
    new = Sample(**base, response="agree 0.500, support 0.200, disagree 0.300",
                 mask_fills=fills(("agree", 0.5), ("support", 0.2), ("disagree", 0.3)))
    old_line = {k: v for k, v in new.model_dump(mode="json").items() if k != "mask_fills"}
    old_line["response"] = legacy_text
    path = tmp_path / "samples.jsonl"
    path.write_text(json.dumps(old_line) + "\n")
    (read,) = read_samples(path)
    assert read.mask_fills == new.mask_fills and read.response == legacy_text  # text kept as written
    scored_old, scored_new = (score_samples([s], MaskLexiconScorer(), 0.5, show_progress=False)[0].stance
                              for s in (read, new))
    assert scored_old == scored_new and scored_old.label == "agree" and scored_old.confidence == pytest.approx(0.7)


def test_lexicons_are_feng_et_al():
    candidates = [Path(__file__).resolve().parents[3] / "shared" / "reference" / "feng2023.json",
                  Path("/work/shared/reference/feng2023.json")]
    path = next((p for p in candidates if p.is_file()), None)
    if path is None:
        pytest.skip("shared/reference/feng2023.json is not beside this checkout")
    probe = json.loads(path.read_text())["encoder_probe"]
    assert list(POSITIVE) == probe["positive_lexicon"] and list(NEGATIVE) == probe["negative_lexicon"]
    assert probe["top_k_tokens"] == 10


def test_pct_mlm_task_end_to_end(agreeing_model, tmp_path, tmp_path_factory):
    out = tmp_path / "run"
    assert main(["run", "--backend", "mlm", "--model", str(agreeing_model), "--tasks", "pct-mlm", "--limit", "3",
                 "--output", str(out), "--no-progress"]) == 0
    samples = read_samples(out / "samples.jsonl")
    assert len(samples) == 3 and all(s.stance.kept and s.stance.label == "agree" for s in samples)
    answers = json.loads((out / "results.json").read_text())["results"]["pct-mlm"]["pct"]["answers"]
    # agree = 0.965 of the lexicon mass: a normalised difference over 0.3, hence "strongly".
    assert [answers[s.item_id] for s in samples] == ["strongly agree"] * 3

    leaning_no = build_tiny_mlm(tmp_path_factory.mktemp("mlm") / "mild", {"disagree": 5.0, "agree": 4.5})
    out2 = tmp_path / "run2"
    assert main(["run", "--backend", "mlm", "--model", str(leaning_no), "--tasks", "pct-mlm", "--limit", "1",
                 "--output", str(out2), "--no-progress"]) == 0
    answers2 = json.loads((out2 / "results.json").read_text())["results"]["pct-mlm"]["pct"]["answers"]
    (asked,) = read_samples(out2 / "samples.jsonl")  # the statement --limit 1 picked
    assert answers2[asked.item_id] == "disagree"  # 0.62 vs 0.38: under the 0.3 margin
