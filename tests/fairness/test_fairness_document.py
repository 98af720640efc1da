"""The fairness evaluation document is typed and versioned: shipped documents read back to the same JSON, and
a document of another version or with a wrong field is one clear error."""

import copy
import json
from pathlib import Path

import pytest

from polibench.errors import PolibenchError
from polibench.fairness.document import SCHEMA_VERSION, FairnessEvaluation, load_document, parse_document

SHIPPED = sorted((Path(__file__).resolve().parents[2] / "leaderboard" / "fairness").glob("*.json"))


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_shipped_documents_read_back_to_the_same_json(path):
    original = json.loads(path.read_text(encoding="utf-8"))["document"]
    document = parse_document(copy.deepcopy(original), str(path))
    assert isinstance(document, FairnessEvaluation) and document.version == SCHEMA_VERSION
    assert json.dumps(document.as_dict()) == json.dumps(original)  # same keys, same order, same numbers
    task = next(iter(document.tasks.values()))
    model = next(iter(task.models.values()))
    assert model.overall["bacc"].value == original["tasks"][next(iter(original["tasks"]))]["models"][
        next(iter(task.models))]["overall"]["bacc"]["value"]


def test_another_version_and_a_wrong_field_are_one_clear_error(tmp_path):
    original = json.loads(SHIPPED[0].read_text(encoding="utf-8"))["document"]
    path = tmp_path / "eval.json"
    path.write_text(json.dumps({**original, "version": 2}), encoding="utf-8")
    with pytest.raises(PolibenchError, match=r"eval.json: fairness evaluation version 2 is not one this polibench "
                                             r"reads \(1\); run `polibench fairness eval` again"):
        load_document(path)
    broken = copy.deepcopy(original)
    task = next(iter(broken["tasks"]))
    model = next(iter(broken["tasks"][task]["models"]))
    broken["tasks"][task]["models"][model]["n_test"] = "many"
    path.write_text(json.dumps(broken), encoding="utf-8")
    with pytest.raises(PolibenchError, match=rf"eval.json: field 'tasks.{task}.models.{model}.n_test'"):
        load_document(path)
    path.write_text(json.dumps({"format": "something-else"}), encoding="utf-8")
    with pytest.raises(PolibenchError, match="not the output of `polibench fairness eval`"):
        load_document(path)
