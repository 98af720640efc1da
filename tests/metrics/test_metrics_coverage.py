"""Coverage: answered / unrelated / filtered shares, overall and per variant and form, by hand."""

from metrics_samples import scored

from polibench.families.coverage.metric import coverage
from polibench.metrics.columns import build_table


def test_coverage_by_hand():
    s = [
        scored("a", "right", "agree", variant="v1"), scored("a", "right", "disagree", variant="v1", index=1),
        scored("a", "right", "neutral", variant="v1", index=2), scored("b", "left", "agree", variant="v2"),
        scored("b", "left", "agree", variant="v2", index=1, form="opposite"),
        scored("b", "left", "unrelated", variant="v2", index=2), scored("c", "left", "unrelated", variant="v2"),
        scored("c", "left", "agree", variant="v1", kept=False, index=1),       # low confidence
        scored("c", "left", None, variant="v1", index=2),                       # scorer abstained
        scored("c", "left", None, variant="v2", index=3, reason="empty_response"),
    ]
    out = coverage(build_table(s))
    # 10 responses: 5 answered, 2 unrelated, 3 filtered; items a and b answered, c only unrelated/filtered
    assert (out["items"], out["items_answered"], out["responses"], out["responses_kept"]) == (3, 2, 10, 7)
    assert (out["answered_share"], out["unrelated_share"], out["filtered_share"]) == (0.5, 0.2, 0.3)
    assert (out["filtered_low_confidence"], out["filtered_abstained"], out["filtered_empty"]) == (1, 1, 1)
    assert out["kept_share"] == 0.7
    assert out["kept_labels"] == {"agree": 3, "disagree": 1, "neutral": 1, "unrelated": 2}
    # v1: 5 responses, 3 answered, 0 unrelated, 2 filtered; v2: 5 responses, 2 answered, 2 unrelated, 1 filtered
    assert out["per_variant"] == {
        "v1": {"responses": 5, "answered_share": 0.6, "unrelated_share": 0.0, "filtered_share": 0.4},
        "v2": {"responses": 5, "answered_share": 0.4, "unrelated_share": 0.4, "filtered_share": 0.2}}
    assert out["per_form"]["opposite"] == {"responses": 1, "answered_share": 1.0, "unrelated_share": 0.0,
                                           "filtered_share": 0.0}


def test_no_responses():
    out = coverage(build_table([]))
    assert out["responses"] == 0 and out["answered_share"] == 0.0 and out["per_variant"] == {}
