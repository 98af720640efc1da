"""Fuzzing prepared fairness data (manifest.json and the split files read by ``load_prepared``): a load or
one message naming the file (and line), never a traceback."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest
from fairness_helpers import YODER_IDENTITY
from fuzz_helpers import FUZZ
from hypothesis import given
from hypothesis import strategies as st

from polibench.errors import PolibenchError
from polibench.fairness.data import MANIFEST, load_prepared, prepare
from polibench.fairness.spec import load_task
from polibench.hashing import file_sha256


@pytest.fixture(scope="module")
def prepared(tmp_path_factory):
    root = tmp_path_factory.mktemp("fairness-data")
    prepare(load_task("hate-identity"), YODER_IDENTITY, data_dir=root, show_progress=False)
    return root


@FUZZ
@given(data=st.data(), target=st.sampled_from(["manifest", "train", "test"]), rehash=st.booleans())
def test_a_mutated_prepared_file_loads_or_names_the_file(prepared, data, target, rehash):
    task = load_task("hate-identity")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        shutil.copytree(prepared / task.name, root / task.name)
        folder = root / task.name
        path = folder / (MANIFEST if target == "manifest" else f"{target}.jsonl")
        content = path.read_bytes()
        at = data.draw(st.integers(0, len(content)))
        content = content[:at] + data.draw(st.binary(max_size=12)) + content[at + data.draw(st.integers(0, 40)):]
        path.write_bytes(content)
        if rehash and target != "manifest":  # an edit that also updates the manifest (the hash check passes)
            manifest = json.loads((folder / MANIFEST).read_text())
            manifest["files"][path.name] = file_sha256(path)
            (folder / MANIFEST).write_text(json.dumps(manifest))
        try:
            load_prepared(task, data_dir=root)
        except PolibenchError as exc:
            assert str(path) in str(exc) or str(folder) in str(exc), str(exc)
