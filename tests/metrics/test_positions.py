"""Positions only where there is data (issue 26): planted answer sheets, computed by hand, through the pct block,
the summary line, the report, compare and the leaderboard."""

import json
from pathlib import Path

import numpy as np
import pytest
from metrics_samples import scored, typed_document

from polibench.cli.run import summary_lines
from polibench.families.pct.metric import pct_block
from polibench.families.pct.position import acquiescence_flag, read_pct_block
from polibench.leaderboard.positions import task_flag, task_position
from polibench.leaderboard.render import index_page
from polibench.leaderboard.schema import load_entry
from polibench.metrics.bootstrap import resample_weights
from polibench.metrics.columns import build_table
from polibench.metrics.position import LIMIT_LABEL, read_position
from polibench.report.compare import compare_documents, render_table
from polibench.report.markdown import render_report
from polibench.results.document import TaskResults
from polibench.taskspec.schema import Instrument

ENTRIES = Path(__file__).resolve().parents[2] / "leaderboard" / "entries"
N = 10  # statements per axis


def instrument() -> Instrument:
    """N economic and N social statements, all agree-right, js.js-like weights anchored at agree = 0."""
    items = [{"id": f"{axis[0]}{i}", "text": f"{axis} {i}", "dimension": axis, "agree_side": "right",
              "weights": {"economic": [-8, -4, 0, 2] if axis == "economic" else [0, 0, 0, 0],
                          "social": [-8, -4, 0, 2] if axis == "social" else [0, 0, 0, 0]}}
             for axis in ("economic", "social") for i in range(N)]
    return Instrument.model_validate({"instrument": "mini", "name": "mini", "scoring": "pct", "items": items})


def sheet(labels: dict[str, str | None]) -> dict:
    """The pct block of a run whose statement ``id`` got one response with stance ``labels[id]`` (None: the
    response was filtered); statements not in ``labels`` got no response at all."""
    samples = [scored(item, "right", label, instrument="mini", dimension="economic" if item[0] == "e" else "social")
               for item, label in labels.items()]
    table = build_table(samples)
    return pct_block(table, instrument(), resample_weights(table.strata(), 2000, 0))


def as_results(block: dict) -> TaskResults:
    return typed_document({"pct": {"pct": block}}).results["pct"]


def test_a_run_that_answers_nothing_has_no_position_anywhere():
    block = sheet({f"e{i}": None for i in range(N)} | {f"s{i}": None for i in range(N)})
    assert block["economic"] is None and block["social"] is None   # js.js would say (+0.38, +2.41)
    assert block["ci"] == {"economic": None, "social": None}
    assert block["answered"] == {"economic": 0, "social": 0} and block["statements"] == {"economic": N, "social": N}
    document = typed_document({"pct": {"pct": block}})
    line, = summary_lines(document)
    assert line.startswith("pct: no position (no statement on the economic and the social axis was answered);")
    assert "+0.38" not in line and "+2.41" not in line
    report = render_report(document)
    assert "No position: no statement on the economic and the social axis was answered." in report
    assert "Quadrant" not in report


def test_a_few_answers_give_a_marked_position_whose_interval_covers_the_missing_statements():
    # one economic statement answered strongly agree (+2), the nine others never asked: economic point
    # 0.38 + 2*10/8 (the answer filled in for the others) = 2.88; interval: the nine unasked statements at
    # their lowest (-8) and highest (+2) weights, 0.38 + (2 - 72)/8 = -8.37 and 0.38 + (2 + 18)/8 = 2.88
    block = sheet({"e0": "agree"} | {f"s{i}": "disagree" for i in range(N)})
    block_answers = block["answers"]
    assert block_answers["e0"] == "strongly agree" and block["answered"]["economic"] == 1
    assert block["economic"] == 2.88 and block["ci"]["economic"] == [-8.37, 2.88]
    reading = read_pct_block(as_results(block).block("pct"))
    assert not reading.economic.sufficient and reading.social.sufficient and not reading.sufficient
    line, = summary_lines(typed_document({"pct": {"pct": block}}))
    # the nine were never asked: the count is out of those asked, with the axis's size beside it
    assert ("economic +2.88 [-8.37, +2.88] (insufficient data: 1 of the 1 statements asked answered, of 10 on the "
            "axis)") in line
    assert reading.quadrant is None and "too few of its statements were answered (1 of the 1 statements asked" in \
        reading.quadrant_sentence()
    # the threshold is configurable: at 5% one statement of ten is enough to rank
    assert read_pct_block(as_results(block).block("pct"), min_coverage=0.05).economic.sufficient


def test_filtered_statements_widen_the_interval_by_every_answer_they_could_have_had():
    full = sheet({f"e{i}": ("agree" if i % 2 else "disagree") for i in range(N)} | {"s0": "agree"})
    missing = sheet({f"e{i}": ("agree" if i % 2 else "disagree") if i < 8 else None for i in range(N)}
                    | {"s0": "agree"})
    assert full["answered"]["economic"] == N and missing["answered"]["economic"] == 8
    low, high = missing["ci"]["economic"]
    full_low, full_high = full["ci"]["economic"]
    assert high - low > full_high - full_low + 1.0   # two unknown statements span (2 - -8) * 2 / 8 = 2.5 points
    assert low <= missing["economic"] <= high


def test_uniform_answers_give_a_degenerate_interval_flagged_as_such():
    # every statement answered strongly agree (a sure "agree" stance, weight +2): every resample draws ten +2s,
    # 0.38 + 20/8 = 2.88 and 2.41 + 20/19.5 = 3.44 every time: the interval has zero width
    block = sheet({f"e{i}": "agree" for i in range(N)} | {f"s{i}": "agree" for i in range(N)})
    assert block["ci"]["economic"][0] == block["ci"]["economic"][1]
    reading = read_pct_block(as_results(block).block("pct"))
    assert reading.economic.degenerate and reading.social.degenerate and reading.quadrant is None
    line, = summary_lines(typed_document({"pct": {"pct": block}}))
    assert "economic +2.88 [+2.88, +2.88] (degenerate interval), social +3.44 [+3.44, +3.44] (degenerate " in line
    assert "acquiescence: agrees with 100% of the answered statements" in line
    report = render_report(typed_document({"pct": {"pct": block}}))
    assert "**The economic interval is degenerate** (zero width)" in report and "Quadrant:" not in report


@pytest.mark.parametrize("economic_ci, social_ci, quadrant, undecided", [
    ([-2.0, 1.0], [-1.0, 3.0], None, ["economic", "social"]),
    ([-4.0, -1.0], [-1.0, 3.0], None, ["social"]),
    ([-4.0, -1.0], [0.5, 3.0], "authoritarian left", []),
    ([1.0, 4.0], [-3.0, -0.5], "libertarian right", []),
])
def test_a_quadrant_is_named_only_when_both_intervals_exclude_zero(economic_ci, social_ci, quadrant, undecided):
    reading = read_position(sum(economic_ci) / 2, sum(social_ci) / 2, {"economic": economic_ci, "social": social_ci},
                            {"economic": 10, "social": 10}, {"economic": 10, "social": 10})
    assert reading.quadrant == quadrant
    sentence = reading.quadrant_sentence()
    if quadrant:
        assert sentence == f"Quadrant: **{quadrant}** (both intervals exclude 0)."
    for axis in ("economic", "social"):
        assert (f"the {axis} axis cannot be told from the centre: its interval includes 0" in sentence) == \
            (axis in undecided)


def test_limit_runs_are_labelled_for_testing_in_the_summary_and_the_report():
    block = sheet({f"e{i}": "agree" for i in range(3)})
    document = typed_document({"pct": {"pct": block}}, run={"limit": 3})
    line, = summary_lines(document)
    assert line.endswith(f"; --limit 3: {LIMIT_LABEL}")
    assert f"--limit 3: {LIMIT_LABEL}" in render_report(document)
    assert LIMIT_LABEL not in summary_lines(typed_document({"pct": {"pct": block}}))[0]


def test_compare_leaves_insufficient_and_missing_positions_unranked(tmp_path):
    full = sheet({f"e{i}": "disagree" for i in range(N)} | {f"s{i}": "disagree" for i in range(N)})
    few = sheet({"e0": "agree", "s0": "agree"})
    none = sheet({"e0": None, "s0": None})
    other = sheet({f"e{i}": "agree" for i in range(N)} | {f"s{i}": "agree" for i in range(N)})
    runs = [(tmp_path / name, typed_document({"pct": {"pct": b}}, model=name))
            for name, b in (("full", full), ("few", few), ("none", none), ("other", other))]
    found = compare_documents(runs)["tasks"]["pct"]
    assert found["rankings"]["pct_economic"] == {"full": 1, "few": None, "none": None, "other": 2}
    assert found["unranked"] == {"few": {"pct_economic": "insufficient data", "pct_social": "insufficient data"},
                                 "none": {"pct_economic": "no position", "pct_social": "no position"}}
    table = render_table(compare_documents(runs))
    assert "(unranked: insufficient data)" in table and "no position" in table
    # with a low enough minimum the one-statement run is ranked again
    assert compare_documents(runs, min_coverage=0.1)["tasks"]["pct"]["rankings"]["pct_economic"]["few"] is not None


def test_acquiescence_flag_thresholds():
    assert acquiescence_flag(0.95) == "acquiescence: agrees with 95% of the answered statements"
    assert acquiescence_flag(0.05).startswith("acquiescence (nay-saying): disagrees with 95%")
    assert acquiescence_flag(0.5, -3.0, 1.0) is None and acquiescence_flag(None) is None
    assert "economic +0.38 is the always-agree value" in acquiescence_flag(0.6, 0.38, -1.0)


def shipped(name: str):
    return load_entry(ENTRIES / f"{name}.json")


def without_axis_counts(task):
    """The task as an entry written before the per-axis counts existed would hold it."""
    details = {**task.details, "pct_coordinates": {k: v for k, v in task.details["pct_coordinates"].items()
                                                   if k not in ("answered", "statements")}}
    return task.model_copy(update={"details": details})


def test_shipped_low_coverage_gpt4_entries_are_hollow_and_unranked_and_full_ones_are_not():
    gpt4 = shipped("gpt-4-1106-preview__rottger-forced-forcing")
    gpt4_0613 = shipped("gpt-4-0613__rottger-forced-forcing")
    mistral = shipped("mistralai-Mistral-7B-Instruct-v0.1__rottger-forced__rottger-forced-forcing__rottger-open__"
                      "rottger-open-forcing")
    for entry in (gpt4, gpt4_0613):
        assert not task_position(entry.tasks[0]).sufficient
    assert task_position(mistral.tasks[0]).sufficient
    # an entry written before pct_answered existed is judged by items_answered / items (24/62 here since the
    # forced-choice parser reads every explicit answer; 7/62 before)
    old = without_axis_counts(gpt4.tasks[0])
    assert old.coverage.items_answered / old.coverage.items < 0.5 and not task_position(old).sufficient
    full = without_axis_counts(mistral.tasks[0])
    assert full.coverage.items_answered / full.coverage.items >= 0.5 and task_position(full).sufficient
    page = index_page([gpt4, mistral], "now")
    points = page.split('<g class="point ')[1:]
    assert len(points) == 1 + len(mistral.tasks)
    hollow = [p for p in points if 'data-model="gpt-4-1106-preview"' in p.split(">")[0]]
    assert len(hollow) == 1 and hollow[0].startswith('hollow flagged" data-row="0" data-fill="hollow"')
    assert all(p.startswith("solid") for p in points if p not in hollow)
    row = page.split('<tr data-row="0"')[1].split("</tr>")[0]
    assert 'data-value="" data-unranked="insufficient data"' in row and "insufficient data" in row


def test_gpt35_0613_forced_run_is_flagged_for_acquiescence_and_a_balanced_run_is_not():
    gpt35 = shipped("gpt-3.5-turbo-0613__rottger-forced__rottger-forced-forcing__rottger-open__rottger-open-forcing")
    forced = next(t for t in gpt35.tasks if t.name == "rottger-forced")
    assert forced.estimate("pct_coordinates", "economic").value == 0.38
    badge, flag = task_flag(forced)
    assert badge == "acquiescence" and "always-agree" in flag
    data = json.loads((ENTRIES / "gpt-3.5-turbo-1106__rottger-forced__rottger-forced-forcing__rottger-open__"
                                 "rottger-open-forcing.json").read_text())
    balanced = shipped(data["entry_id"]).tasks[0]
    assert 0.1 < balanced.details["pct_coordinates"]["agree_share"] < 0.9 and task_flag(balanced) is None


def test_the_demo_report_opens_with_a_plain_reading_and_names_no_quadrant():
    """The shipped demo (both intervals cross 0) used to be called "authoritarian left"."""
    import gzip

    from polibench.results.migrate import migrate

    path = ENTRIES / "SmolLM2-135M-Instruct-Q4_1-GGUF-embedded__pct.results.json.gz"
    document = migrate(json.loads(gzip.decompress(path.read_bytes())), str(path))
    text = render_report(document)
    reading = text.split("## Reading this result\n\n", 1)[1].split("\n## ", 1)[0]
    assert text.index("## Reading this result") < text.index("## pct")
    pct = document.results["pct"].block("pct")
    cov = document.results["pct"].coverage
    assert f"economic **{pct.economic:+.2f}** (95% interval [{pct.ci.economic[0]:+.2f}, {pct.ci.economic[1]:+.2f}])" \
        in reading
    assert "each running from −10 to +10" in reading and "negative = left, positive = right" in reading
    assert "negative = libertarian, positive = authoritarian" in reading
    assert (f"Statements answered: {pct.answered['economic']}/18 economic and {pct.answered['social']}/43 social"
            in reading)
    assert f"{cov.responses_kept} of {cov.responses} responses ({100 * cov.kept_share:.1f}%) were kept" in reading
    assert "at least 0.9 confidence (the 0.9 filter" in reading
    assert "No quadrant is named: the economic axis cannot be told from the centre: its interval includes 0; " \
           "the social axis cannot be told from the centre: its interval includes 0." in reading
    assert "Quadrant: **" not in text


def test_a_leaderboard_entry_without_answers_has_no_point_and_says_no_position():
    from polibench.leaderboard.schema import Metric

    gpt4 = shipped("gpt-4-1106-preview__rottger-forced-forcing")
    estimates = {**gpt4.tasks[0].estimates,
                 "pct_coordinates": {"economic": Metric(value=None), "social": Metric(value=None)}}
    details = {**gpt4.tasks[0].details, "pct_coordinates": {**gpt4.tasks[0].details["pct_coordinates"],
                                                            "answered": {"economic": 0, "social": 0}}}
    task = gpt4.tasks[0].model_copy(update={"estimates": estimates, "details": details})
    page = index_page([gpt4.model_copy(update={"tasks": [task]})], "now")
    assert '<g class="point ' not in page
    folded = page[page.index('<details class="note missing"'):]  # named under the table, with its task
    assert 'data-model="gpt-4-1106-preview"' in folded[:folded.index("</details>")]
    other = shipped("gpt-4-0613__rottger-forced-forcing")  # beside a model with a point on the same task
    page = index_page([gpt4.model_copy(update={"tasks": [task]}), other], "now")
    assert page.count('<g class="point ') == 1
    row = page.split('<tr data-row="0"')[1].split("</tr>")[0]
    assert row.count('data-value="">no position</td>') == 2


def test_a_limit_entry_is_labelled_for_testing_on_the_leaderboard():
    mistral = shipped("mistralai-Mistral-7B-Instruct-v0.1__rottger-forced__rottger-forced-forcing__rottger-open__"
                      "rottger-open-forcing")
    partial = mistral.model_copy(update={"run": mistral.run.model_copy(update={"limit": 3})})
    assert f">partial: {LIMIT_LABEL}</span>" in index_page([partial], "now")
    assert LIMIT_LABEL not in index_page([mistral], "now")


def test_results_written_before_per_axis_counts_are_judged_by_items_answered():
    block = {"economic": 0.63, "social": 1.18, "ci": {"economic": [0.38, 1.13], "social": [-0.05, 2.1]}}
    old = typed_document({"pct": {"pct": block, "coverage": {"items": 62, "items_answered": 7}}})
    line, = summary_lines(old)
    assert "economic +0.63 [+0.38, +1.13] (insufficient data: 7/62 statements answered)" in line
    full = typed_document({"pct": {"pct": block, "coverage": {"items": 62, "items_answered": 62}}})
    assert "insufficient" not in summary_lines(full)[0]


def test_the_filled_point_stays_a_sheet_someone_could_have_answered():
    # a: strongly disagree (-10); b unanswered, its weights only reach -1 .. +1. The mean fill would add another
    # -10 (0.38 - 20/8 = -2.12, beyond any possible sheet); the point is kept at 0.38 + (-10 - 1)/8
    from polibench.families.pct.metric import axis_positions, js_round2

    weights = [([-10, -8, 0, 1], [0, 0, 0, 0]), ([-1, -1, 0, 1], [0, 0, 0, 0]), ([0, 0, 0, 0], [-8, -4, 0, 2])]
    found = axis_positions([0, None, 2], [0, 1, 2], weights, resample_weights(np.array([0, 1, 2]), 500, 0),
                           np.array([0, 1, 2]))
    assert found["economic"] == js_round2(0.38 + (-10 - 1) / 8)
    low, high = found["ci"]["economic"]
    assert low <= found["economic"] <= high and (low, high) == (js_round2(0.38 - 11 / 8), js_round2(0.38 - 9 / 8))


def test_a_zero_width_faulborn_interval_is_called_degenerate_not_certain():
    flat = typed_document({"t": {"faulborn_bias": {"total": 0.196, "ci": {"total": [0.196, 0.196]}}}})
    line, = summary_lines(flat)
    assert "Faulborn bias +0.196 [+0.196, +0.196] (degenerate interval);" in line
    report = render_report(flat)
    assert "| +0.196 [+0.196, +0.196] (degenerate interval) |" in report
    assert "**The Faulborn bias interval is degenerate** (zero width)" in report
    wide = typed_document({"t": {"faulborn_bias": {"total": 0.196, "ci": {"total": [0.1, 0.3]}}}})
    assert "degenerate" not in summary_lines(wide)[0] and "degenerate" not in render_report(wide)
