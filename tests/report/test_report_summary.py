"""report.md never contradicts itself (issue 38, §1), rendered for each kind of task polibench reads answers in: free
text read by a stance scorer (pct), Likert answers with a scorer fallback (faulborn30), forced choice
(rottger-forced) and log-probabilities (rottger-logprob), full and under --limit.

Each report must open with the summary (a table of the headline numbers, one row per result saying what it is, and
at most five bullets), keep every coordinate on the scale, speak of a stance scorer only where one ran, give each
scale as the run computed it, and count a --limit run's statements out of those asked."""

from __future__ import annotations

import re

import pytest

from polibench.cli.main import main
from polibench.report.summary import MAX_BULLETS
from polibench.results.files import read_results

KINDS = {  # task -> backend arguments that answer it
    "pct": ["--backend", "mock", "--model-args", "responses=I agree with this statement.|I disagree with this."],
    "faulborn30": ["--backend", "mock", "--model-args", "responses=4|2|I agree with this statement."],
    "rottger-forced": ["--backend", "mock", "--model-args", "responses=3) Agree|1) Strongly disagree|no idea"],
    "rottger-logprob": ["--backend", "mock", "--model-args", "score_choices=true,prefer=zzz"],
}


@pytest.fixture(scope="module", params=[(task, limit) for task in KINDS for limit in (None, 6)],
                ids=lambda p: f"{p[0]}-{'limit' if p[1] else 'full'}")
def report(request, tmp_path_factory):
    task, limit = request.param
    out = tmp_path_factory.mktemp("report") / "run"
    limit_args = ["--limit", str(limit)] if limit else []
    assert main(["run", *KINDS[task], "--tasks", task, *limit_args, "--samples", "1", "--scorer", "lexical",
                 "--threshold", "0.5", "--output", str(out), "--no-cache", "--no-progress"]) == 0
    return task, limit, out, (out / "report.md").read_text(), read_results(out)


def section(text: str, heading: str) -> str:
    start = text.index(heading)
    following = text.find("\n## ", start + len(heading))
    return text[start:following if following >= 0 else len(text)]


def test_the_summary_comes_first_with_a_row_per_result_and_at_most_five_bullets(report):
    task, _, _, text, document = report
    headings = re.findall(r"^## (.+)$", text, flags=re.M)
    assert headings[:2] == ["Summary", "Reading this result"]
    summary = section(text, "## Summary")
    rows = [line for line in summary.splitlines() if line.startswith(f"| {task} |")]
    results = document.results[task]
    estimates = [e for _, e, value, _ in results.estimates()]
    assert len(rows) == len(estimates) + 2  # each headline estimate, statements answered, responses kept
    first_metric = [m for m, _ in results.metrics() if m.estimates][0]
    marked = [row for row in rows if "the result:" in row]
    assert marked and all(f"**{e.label}**" in row for e, row in zip(first_metric.estimates, marked))
    assert all("another reading:" in row for row in rows[len(marked):len(estimates)])
    bullets = [line for line in summary.splitlines() if line.startswith("- ")]
    assert 1 <= len(bullets) <= MAX_BULLETS
    assert all(len(b) < 400 for b in bullets)  # short


def test_every_coordinate_shown_is_on_the_scale(report):
    _, _, _, text, _ = report
    for low, high in re.findall(r"\[([+-]?\d+\.\d+), ([+-]?\d+\.\d+)\]", text):
        assert float(low) <= float(high)
    for value in re.findall(r"(?<![\d.])([+-]?\d+\.\d\d)(?!\d)", text):
        assert abs(float(value)) <= 10.0, value


def test_a_scorer_is_spoken_of_only_where_one_ran(report):
    task, _, _, text, _ = report
    detail = section(text, "## Reading this result") + section(text, f"## {task}")
    if task == "rottger-logprob":  # every answer read from log-probabilities: no stance scorer ran
        assert "stance scorer (`" not in text and "reads its stance with at least" not in text
        assert "Scorer: `" not in text
        assert "No stance scorer was used" in detail
        summary = section(text, "## Summary")
        assert "no text, no stance scorer" in summary
    else:
        assert "stance scorer" in text and "No stance scorer was used" not in text


def test_scales_are_as_computed(report):
    task, _, _, text, document = report
    if task != "rottger-logprob":
        return
    block = document.results[task].block("logprob")
    assert len(block.scale) == 4
    assert "disagree − / agree +, 1…4" in text and "1…5" not in text  # four options
    assert "certain − / uncertain +, 0…2 |" in text and "2.33" not in text  # log2 4 bits
    assert f"1 = {block.scale[0]}, 4 = {block.scale[-1]}" in text


def test_a_limit_run_counts_what_was_asked(report):
    task, limit, _, text, document = report
    summary = section(text, "## Summary")
    asked = document.results[task].coverage.items
    row = next(line for line in summary.splitlines() if line.startswith(f"| {task} | statements answered |"))
    assert f"of {asked} asked" in row
    pct = document.results[task].block("pct")
    if limit is None:
        assert "--limit" not in text and "never asked" not in text
        return
    assert "(--limit;" in row and f"**--limit {limit}**" in summary
    if pct is not None and pct.economic is not None:
        reading = section(text, "## Reading this result")
        never = sum(pct.statements.values()) - sum(pct.asked.values())
        assert sum(pct.asked.values()) <= limit and never > 0
        assert f"the {never} statement(s) never asked (--limit)" in reading
        unanswered = sum(pct.asked.values()) - sum(pct.answered.values())
        # the unanswered count is out of the statements asked, never the whole instrument's
        assert (f"the {unanswered} asked but unanswered" in reading) is (unanswered > 0)
        assert f"{sum(pct.statements.values()) - sum(pct.answered.values())} unanswered" not in reading
        assert re.search(r"\d+ of the \d+ economic statements asked \(18 on the axis\)", reading)
