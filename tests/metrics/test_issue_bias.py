"""The issue_bias metric (IssueBench): per issue and framing, by hand; the template bootstrap; planted leanings.

Samples are made by hand with the grader's label already in ``issue_stance``, so every figure can be counted
independently here."""

import numpy as np
import pytest

from polibench.errors import PolibenchError
from polibench.families.issue_bias.metric import check_issue_spec, issue_bias_block
from polibench.metrics.columns import build_table
from polibench.metrics.registry import MetricInput, get_metric
from polibench.records import Issue, IssueStance, Sample, Stance
from polibench.taskspec.schema import Instrument, TaskConfig


def approx(value):
    return pytest.approx(value, abs=1e-6)  # the block rounds to 6 digits


TASK = TaskConfig.model_validate({"task": "ib", "instrument": "ib", "variant_set": "v", "metrics": ["issue_bias"]})
TOPICS = {"1": ("tax", "tax being good", "tax being bad"), "2": ("guns", "gun rights", "gun control")}


def issue(issue_id: str, framing: str) -> Issue:
    neutral, pro, con = TOPICS[issue_id]
    return Issue(issue_id=issue_id, framing=framing, topic_neutral=neutral, topic_pro=pro, topic_con=con)


def instrument() -> Instrument:
    return Instrument.model_validate({"instrument": "ib", "name": "ib", "items": [
        {"id": f"{i}-{f}", "text": issue(i, f).topic_prompt, "issue": issue(i, f).model_dump()}
        for i in TOPICS for f in ("pro", "con", "neutral")]})


def sample(issue_id: str, framing: str, template: str, label, kept: bool = True) -> Sample:
    return Sample(task="ib", instrument="ib", item_id=f"{issue_id}-{framing}", statement="s", variant=template,
                  sample_index=0, seed=0, prompt="p", response="text", issue=issue(issue_id, framing),
                  stance=Stance(label=None, scorer="issue_judge", kept=kept),
                  issue_stance=IssueStance(label=label, confidence=1.0, scorer="issue_judge"))


def block(samples, resamples: int = 400):
    table = build_table(samples)
    weights = np.ones((resamples, len(table.items)))
    return issue_bias_block(MetricInput(task=TASK, instruments={"ib": instrument()}, table=table, weights=weights,
                                        seed=7))


def hand_set():
    """Issue 1: pro framing all "1"; con framing "5","4","refusal"; neutral "2","3","2" (templates a, b, c).
    Issue 2: neutral "refusal","4","5"; one more issue-2 response is filtered (not kept) and one has no label."""
    rows = [("1", "pro", "a", "1"), ("1", "pro", "b", "1"), ("1", "pro", "c", "1"),
            ("1", "con", "a", "5"), ("1", "con", "b", "4"), ("1", "con", "c", "refusal"),
            ("1", "neutral", "a", "2"), ("1", "neutral", "b", "3"), ("1", "neutral", "c", "2"),
            ("2", "neutral", "a", "refusal"), ("2", "neutral", "b", "4"), ("2", "neutral", "c", "5")]
    return [sample(*r) for r in rows] + [sample("2", "pro", "a", "1", kept=False), sample("2", "con", "a", None)]


def test_issue_and_framing_figures_by_hand():
    b = block(hand_set())
    cells = {(c.issue_id, c.framing): c for c in b.issues}
    con = cells[("1", "con")]
    assert con.responses == 3
    assert con.distribution == {"1": 0.0, "2": 0.0, "3": 0.0, "4": approx(1 / 3), "5": approx(1 / 3),
                                "refusal": approx(1 / 3)}
    assert con.mean_stance == approx(4.5)            # (5 + 4) / 2: the refusal is not on the scale
    assert con.refusal_share == approx(1 / 3) and con.con_share == approx(2 / 3)
    neutral1 = cells[("1", "neutral")]
    assert neutral1.mean_stance == approx(7 / 3) and neutral1.pro_share == approx(2 / 3)
    assert neutral1.topic == "tax"
    neutral2 = cells[("2", "neutral")]
    assert neutral2.mean_stance == approx(4.5) and neutral2.pro_share == 0.0
    # issue 2's pro and con responses are filtered / unlabelled: nothing graded there, counted as ungraded
    for framing in ("pro", "con"):
        empty = cells[("2", framing)]
        assert empty.responses == 0 and empty.mean_stance is None and empty.pro_share is None
    assert b.graded == 12 and b.ungraded == 2 and b.templates == 3
    # per framing: the mean over issues
    assert b.framings["neutral"].mean_stance == approx((7 / 3 + 4.5) / 2)
    assert b.neutral_mean_stance == approx((7 / 3 + 4.5) / 2)
    assert b.neutral_pro_share == approx((2 / 3 + 0) / 2)
    assert b.framings["neutral"].distribution["refusal"] == approx((0 + 1 / 3) / 2)
    assert b.framings["pro"].mean_stance == 1.0 and b.framings["pro"].issues == 1  # issue 2's pro: nothing graded
    assert b.framings["pro"].responses == 3 and b.framings["neutral"].responses == 6
    assert b.refusal_share == approx(2 / 12)          # all framings, over graded responses


def test_template_bootstrap_intervals():
    b = block(hand_set())
    cells = {(c.issue_id, c.framing): c for c in b.issues}
    pro = cells[("1", "pro")]                                # every template says 1: no template uncertainty
    assert pro.ci.mean_stance.low == pro.ci.mean_stance.high == 1.0
    assert pro.distribution_ci["1"].low == pro.distribution_ci["1"].high == 1.0
    neutral = cells[("1", "neutral")]                        # templates disagree: an interval around the point
    assert neutral.ci.mean_stance.low < neutral.mean_stance < neutral.ci.mean_stance.high
    assert 2.0 <= neutral.ci.mean_stance.low and neutral.ci.mean_stance.high <= 3.0  # within the labels seen
    for key in ("neutral_mean_stance", "neutral_pro_share", "refusal_share"):
        value, ci = b.estimate(key)
        assert ci is not None and ci.low <= value <= ci.high
    assert b.resamples == 400


def planted(pro_probability: float, seed: int, n_issues: int = 12, n_templates: int = 15):
    """Neutral-framing responses: pro (1 or 2) with the given probability, else con (4 or 5)."""
    rng = np.random.default_rng(seed)
    global TOPICS
    TOPICS = {str(i): (f"t{i}", f"t{i} good", f"t{i} bad") for i in range(n_issues)}
    out = []
    for i in range(n_issues):
        for t in range(n_templates):
            pro = rng.random() < pro_probability
            out.append(sample(str(i), "neutral", f"tmpl{t}", str(rng.choice([1, 2]) if pro else rng.choice([4, 5]))))
    return out


@pytest.fixture
def restore_topics():
    saved = dict(TOPICS)
    yield
    TOPICS.clear()
    TOPICS.update(saved)


def test_planted_pro_leaning_is_seen_and_balance_is_not_flagged(restore_topics):
    leaning, balanced = block(planted(0.85, seed=1)), block(planted(0.5, seed=2))
    assert leaning.ci.neutral_pro_share.low > 0.6                      # planted 0.85
    assert leaning.ci.neutral_mean_stance.high < 3.0                   # pro side of the scale
    assert balanced.ci.neutral_pro_share.low < 0.5 < balanced.ci.neutral_pro_share.high
    assert balanced.ci.neutral_mean_stance.low < 3.0 < balanced.ci.neutral_mean_stance.high


def test_registered_and_spec_checked():
    metric = get_metric("issue_bias")
    assert metric.key == "issue_bias" and {e.key for e in metric.estimates} >= {"neutral_pro_share", "refusal_share"}
    pct_like = Instrument.model_validate({"instrument": "x", "name": "x", "items": [
        {"id": "a", "text": "a", "dimension": "economic", "agree_side": "left"}]})
    with pytest.raises(PolibenchError, match="needs IssueBench items"):
        check_issue_spec(TASK, {"x": pct_like}, ["v"])
    check_issue_spec(TASK, {"ib": instrument()}, ["v"])


def test_nothing_graded_reports_nothing():
    s = sample("1", "pro", "a", "1").with_reading("issue_stance", None)
    assert block([s]) is None


def test_the_report_labels_the_offline_reader_as_the_fallback_and_the_llm_grader_as_the_grader():
    """report.md and the run's summary line say when the offline reader (`issue`) graded the responses, and
    point to the validated path; a run graded by `issue_judge` gets no such label."""
    from polibench.families.issue_bias import report as shown
    from polibench.report.registry import ShowContext

    graded = block(hand_set())
    offline = ShowContext(task="ib", results=None, scoring={"scorer": "issue"})
    llm = ShowContext(task="ib", results=None, scoring={"scorer": "issue_judge", "model": "gpt-x"})
    offline_text, llm_text = "\n".join(shown.section(graded, offline)), "\n".join(shown.section(graded, llm))
    assert "offline fallback reader" in offline_text and "`--scorer issue_judge`" in offline_text
    assert "read by the offline reader `issue`" in offline_text
    assert "fallback" not in llm_text and "Stances graded by the IssueBench grader" in llm_text
    assert "[offline fallback reader]" in shown.summary(graded, offline)
    assert "fallback" not in shown.summary(graded, llm)
