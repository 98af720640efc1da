"""The shared kit: one JSONL reader (U+2028-safe, one error wording), atomic writers, the one ``Strict`` base."""

import json

import pytest
from pydantic import ValidationError

from polibench.errors import PolibenchError
from polibench.kit.files import atomic_write_text
from polibench.kit.jsonl import read_jsonl
from polibench.kit.strict import Strict

SEPARATORS = "\u2028\u2029\x85\x1c\x1d\x1e\x0b\x0c\r"  # str.splitlines() splits on each of these


def test_rows_keep_raw_line_separators_inside_strings(tmp_path):
    text = f"one{SEPARATORS}two"
    path = tmp_path / "rows.jsonl"
    row = json.dumps({"text": text}, ensure_ascii=False)
    assert len(row.splitlines()) > 1  # the trap the reader must not fall into
    path.write_bytes(b"\n" + row.encode("utf-8") + b"\n\n" + b'{"text": "b"}\n')
    assert read_jsonl(path) == [(2, {"text": text}), (4, {"text": "b"})]
    assert read_jsonl(path.read_bytes(), "upload") == read_jsonl(path)


@pytest.mark.parametrize("content, message", [
    (b'{"a": 1}\n{oops\n', "rows.jsonl: line 2: not valid JSON (Expecting property name enclosed in double quotes "
                           "at column 2)"),
    (b'{"a": 1}\n\n[1, 2]\n', "rows.jsonl: line 3: expected a JSON object, got an array"),
    (b'{"a": "caf\xe9"}\n', "rows.jsonl: line 1: expected UTF-8 text (byte 0xe9 at column 11 is not valid UTF-8)"),
    (b"[" * 100000 + b"\n", "rows.jsonl: line 1: not valid JSON (nested too deeply)"),
])
def test_a_bad_line_is_one_error_naming_file_and_line(tmp_path, content, message):
    path = tmp_path / "rows.jsonl"
    path.write_bytes(content)
    with pytest.raises(PolibenchError) as err:
        read_jsonl(path)
    assert str(err.value) == f"{path.parent}/{message}"


def test_a_missing_file_is_named(tmp_path):
    with pytest.raises(PolibenchError, match="nothing.jsonl: no such file"):
        read_jsonl(tmp_path / "nothing.jsonl")


def test_values_other_than_objects_on_request(tmp_path):
    path = tmp_path / "v.jsonl"
    path.write_text('[1]\n"s"\n', encoding="utf-8")
    assert read_jsonl(path, objects=False) == [(1, [1]), (2, "s")]


def test_atomic_write_replaces_whole_and_leaves_no_temporary(tmp_path):
    path = tmp_path / "out.txt"
    atomic_write_text(path, "old\n")
    atomic_write_text(path, "new \u2028 text\n")
    assert path.read_text(encoding="utf-8") == "new \u2028 text\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_strict_refuses_unknown_fields():
    class Point(Strict):
        x: int

    assert Point(x=1).x == 1
    with pytest.raises(ValidationError, match="extra"):
        Point.model_validate({"x": 1, "y": 2})


def test_every_schema_uses_the_one_strict_base():
    from polibench.fairness import spec
    from polibench.leaderboard import schema
    from polibench.metrics import blocks
    from polibench.pretrain import corpus
    from polibench.taskspec import schema as taskschema

    assert all(m.Strict is Strict for m in (spec, schema, blocks, corpus, taskschema))


def test_publish_folder_replaces_a_folder_whole_and_a_failed_write_leaves_the_old_one(tmp_path):
    from polibench.kit.files import publish_folder

    target = tmp_path / "model"

    def write(text):
        def fill(folder):
            folder.mkdir()
            (folder / "weights").write_text(text)
            if text == "broken":
                raise OSError("disk full")
        return fill

    publish_folder(target, write("one"))
    publish_folder(target, write("two"))
    assert (target / "weights").read_text() == "two" and sorted(p.name for p in target.parent.iterdir()) == ["model"]
    with pytest.raises(OSError):
        publish_folder(target, write("broken"))
    assert (target / "weights").read_text() == "two"
    assert sorted(p.name for p in target.parent.iterdir()) == ["model"]  # no temporary folder left behind


def test_cached_or_made_trains_once_while_a_concurrent_caller_waits_and_then_loads(tmp_path):
    """Two threads ask for the same model at once: one makes it (slowly), the other waits on the lock and loads
    what the first published; a third call loads without waiting; a folder without its marker is made again."""
    import threading
    import time

    from polibench.kit.files import cached_or_made, publish_folder

    made, loaded, results = [], [], []

    def make(folder):
        made.append(threading.current_thread().name)
        time.sleep(0.3)
        publish_folder(folder, lambda tmp: (tmp.mkdir(), (tmp / "model.json").write_text("made")))
        return "made"

    def load(folder):
        loaded.append(threading.current_thread().name)
        return (folder / "model.json").read_text()

    target = tmp_path / "cache" / "model-abc"
    threads = [threading.Thread(target=lambda: results.append(cached_or_made(target, "model.json", load, make)),
                                name=f"t{i}") for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(made) == 1 and len(loaded) == 1 and made != loaded and sorted(results) == ["made", "made"]
    assert cached_or_made(target, "model.json", load, make) == "made" and len(made) == 1
    (target / "model.json").unlink()
    assert cached_or_made(target, "model.json", load, make) == "made" and len(made) == 2


def _plain_mode(folder, kind):
    """The mode this process gives a new file or folder made the ordinary way (the umask applied)."""
    probe = folder / f"probe-{kind}"
    probe.mkdir() if kind == "dir" else probe.write_text("")
    return probe.stat().st_mode & 0o777


def test_atomic_path_publishes_with_the_ordinary_mode_and_a_failure_leaves_the_old_file_and_nothing_else(tmp_path):
    from polibench.kit.files import atomic_path

    path = tmp_path / "figure.png"
    with atomic_path(path) as first, atomic_path(path) as second:  # two writers at once: two temporary names
        assert first != second and first.parent == second.parent == tmp_path
        first.write_bytes(b"one")
        second.write_bytes(b"two")
    assert path.read_bytes() == b"one"  # the writer that finished last wins; neither saw the other's file
    with pytest.raises(OSError, match="disk full"), atomic_path(path) as tmp:
        tmp.write_bytes(b"half")
        raise OSError("disk full")
    assert path.read_bytes() == b"one" and [p.name for p in tmp_path.iterdir()] == ["figure.png"]
    assert path.stat().st_mode & 0o777 == _plain_mode(tmp_path, "file")


def test_staged_folder_swaps_whole_keeps_the_old_one_on_failure_and_leaves_no_temporary(tmp_path):
    from polibench.kit.files import staged_folder

    target = tmp_path / "site"
    for text in ("one", "two"):
        with staged_folder(target) as tmp:
            assert tmp.is_dir() and not any(tmp.iterdir())
            (tmp / "index.html").write_text(text)
            assert not target.exists() or (target / "index.html").read_text() != text  # not visible before the end
    assert (target / "index.html").read_text() == "two" and [p.name for p in tmp_path.iterdir()] == ["site"]
    with pytest.raises(KeyboardInterrupt), staged_folder(target) as tmp:
        (tmp / "index.html").write_text("half")
        raise KeyboardInterrupt
    assert (target / "index.html").read_text() == "two" and [p.name for p in tmp_path.iterdir()] == ["site"]
    assert target.stat().st_mode & 0o777 == _plain_mode(tmp_path, "dir")


def test_cached_or_made_clears_what_a_killed_maker_left_before_making_again(tmp_path):
    from polibench.kit.files import cached_or_made, publish_folder, staged_folder

    target = tmp_path / "model-abc"
    staging = staged_folder(target)
    (staging.__enter__() / "weights").write_text("half")  # a maker killed mid-write: never exits its block
    assert len(list(tmp_path.glob(".model-abc.tmp-*"))) == 1

    def make(folder):
        publish_folder(folder, lambda tmp: (tmp.mkdir(), (tmp / "model.json").write_text("made")))
        return "made"

    assert cached_or_made(target, "model.json", lambda folder: "loaded", make) == "made"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".model-abc.lock", "model-abc"]


def package_sources():
    """``(path relative to polibench/, source)`` of every module of the package, in path order."""
    from pathlib import Path

    import polibench

    root = Path(polibench.__file__).parent
    return [(path.relative_to(root).as_posix(), path.read_text(encoding="utf-8"))
            for path in sorted(root.rglob("*.py"))]


def test_no_module_writes_atomically_on_its_own():
    """Temporary files and renames into place live in polibench.kit.files alone (unique names, nothing left behind
    on failure); the one exception is the run's samples.jsonl.partial, kept on purpose when a run is interrupted."""
    import re

    allowed = {"kit/files.py": None, "results/files.py": "os.replace(self.partial, final)"}
    pattern = re.compile(r"os\.replace\(|os\.rename\(|\.rename\(|mkstemp|mkdtemp|NamedTemporaryFile|\.tmp\b")
    found = []
    for name, source in package_sources():
        for number, line in enumerate(source.splitlines(), 1):
            if pattern.search(line) and name in allowed and (allowed[name] is None or allowed[name] in line):
                continue
            if pattern.search(line) and not line.lstrip().startswith("#"):
                found.append(f"{name}:{number}: {line.strip()}")
    assert found == []


def test_every_pydantic_model_is_strict():
    """No model spells extra="forbid" by hand or derives from BaseModel directly; the two that keep unknown
    fields on purpose (they hold the blocks of registered metrics by key) are named here."""
    import ast

    open_on_purpose = {"results/document.py:TaskResults", "metrics/run_level.py:RunMetrics"}
    found = []
    for name, source in package_sources():
        if "BaseModel" not in source and "forbid" not in source:
            continue
        if 'extra="forbid"' in source and name != "kit/strict.py":
            found.append(f"{name}: extra=\"forbid\"")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.ClassDef) and any(getattr(b, "id", getattr(b, "attr", "")) == "BaseModel"
                                                      for b in node.bases):
                if f"{name}:{node.name}" not in open_on_purpose and name != "kit/strict.py":
                    found.append(f"{name}:{node.name}")
    assert found == []
