"""Every shell command in README.md and docs/*.md runs: each ```bash block not marked out of CI is run with
bash (errexit, pipefail) in a temporary copy of the repository, as a reader would paste it, offline, with this
test session's polibench cache (the trained stance scorer is reused, never retrained per block).

The blocks of one file run in order in one copy (a later block may read what an earlier one wrote, as the
reader's would). ``polibench`` and ``python`` are this interpreter; ``pip`` is tests/docs/pip_check.py, which
installs nothing and checks that what the command names is installed (and that an extra exists). A ```text
block right after the line ``<!-- expected output -->`` must equal what the ```bash block before it printed.
Marks and their reasons: tests/docs/doc_blocks.py and docs/testing.md, "Commands in the docs".
After a change to what a command prints, ``python tests/docs/test_docs_commands.py --update`` runs the blocks
that have an expected output and writes what they print into the docs (review the diff: it is a claim).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from doc_blocks import ROOT, DocBlock, all_blocks, doc_files, mark_problem, stray_marks

BLOCKS = all_blocks()
RUN = [b for b in BLOCKS if b.runs]
COPY_IGNORE = shutil.ignore_patterns(".git", ".venv*", "runs", "site", "__pycache__", "*.egg-info", ".*_cache",
                                     ".hypothesis", "artifacts")
# a block that needs the stance scorer trains it if the session has not (recipe 2: about a quarter of an hour on 2
# cores; in the full suite tests/benchmarks has trained it first, see tests/conftest.py trained_default)
BLOCK_TIMEOUT_S = 1800


def test_every_mark_follows_the_convention():
    problems = [p for b in BLOCKS if (p := mark_problem(b))]
    problems += [p for path in doc_files() for p in stray_marks(path)]
    assert not problems, "\n".join(problems)


def test_some_blocks_run_and_the_readme_opens_with_one():
    assert len(RUN) >= 5
    readme = [b for b in BLOCKS if b.path == Path("README.md")]
    assert readme[0].runs, "README.md's first command must run in CI (it is the one-minute first command)"


def test_the_mark_check_catches_mistakes(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text("def test_real():\n    pass\n")
    (tmp_path / "README.md").write_text(
        "<!-- not-run-in-ci: gpu-only -->\n```bash\nok\n```\n"
        "<!-- not-run-in-ci: because -->\n```bash\nbad reason\n```\n"
        "<!-- not-run-in-ci: long; checked by tests/test_x.py::test_real -->\n```bash\nok\n```\n"
        "<!-- not-run-in-ci: long; checked by tests/test_x.py::test_gone -->\n```bash\nno such test\n```\n"
        "<!-- not-run-in-ci: long; checked by tests/missing.py -->\n```bash\nno such file\n```\n"
        "<!-- not-run-in-ci: hub-only -->\n\n```bash\nmark too far up: runs\n```\n"
        "  ```bash\n  indented\n  ```\n")
    from doc_blocks import blocks

    found = blocks(Path("README.md"), tmp_path)
    problems = [mark_problem(b, tmp_path) for b in found]
    assert [p is None for p in problems] == [True, False, True, False, False, True, True]
    assert [b.runs for b in found] == [False, False, False, False, False, True, True]
    assert found[-1].text == "indented\n"
    assert stray_marks(Path("README.md"), tmp_path) == [
        "README.md:21: a not-run-in-ci mark not followed by a ```bash fence"]


@pytest.fixture(scope="module")
def shims(tmp_path_factory) -> Path:
    return make_shims(tmp_path_factory.mktemp("doc-bin"))


def make_shims(bin_dir: Path) -> Path:
    """A bin folder whose ``polibench``, ``python``, ``python3`` are this interpreter and ``pip`` the checker."""
    here = Path(__file__).resolve().parent
    scripts = {"polibench": f'exec "{sys.executable}" -m polibench "$@"',
               "python": f'exec "{sys.executable}" "$@"', "python3": f'exec "{sys.executable}" "$@"',
               "pip": f'exec "{sys.executable}" "{here / "pip_check.py"}" "$@"'}
    for name, body in scripts.items():
        path = bin_dir / name
        path.write_text(f"#!/bin/sh\n{body}\n")
        path.chmod(0o755)
    return bin_dir


@pytest.fixture(scope="module")
def copies(tmp_path_factory):
    """One copy of the repository per documentation file, made when its first block runs."""
    made: dict[Path, Path] = {}

    def copy_for(doc: Path) -> Path:
        if doc not in made:
            made[doc] = tmp_path_factory.mktemp("doc-" + doc.stem) / "repo"
            shutil.copytree(ROOT, made[doc], ignore=COPY_IGNORE)
        return made[doc]
    return copy_for


def environment(shims: Path, repo: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "PYTEST_"))}
    env.update(PATH=f"{shims}{os.pathsep}{env.get('PATH', '')}", PYTHONPATH=str(repo), HF_HUB_OFFLINE="1",
               TRANSFORMERS_OFFLINE="1", POLIBENCH_CACHE=os.environ["POLIBENCH_CACHE"], NO_COLOR="1")
    return env


def expected_output(block: DocBlock) -> str | None:
    """The ```text block after ``<!-- expected output -->`` that follows ``block`` (blank lines between)."""
    found = expected_output_lines(block)
    return None if found is None else "\n".join(found[2])


def expected_output_lines(block: DocBlock) -> tuple[int, int, list[str]] | None:
    """(first, end) line indexes of the expected-output text and its lines, with the fence's indentation."""
    lines = (ROOT / block.path).read_text(encoding="utf-8").splitlines()
    i = block.line  # the line after the opening fence (0-based index of the next line)
    while lines[i].strip() != "```":
        i += 1
    i += 1
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i + 1 >= len(lines) or lines[i].strip() != "<!-- expected output -->" or lines[i + 1].strip() != "```text":
        return None
    end = i + 2
    while lines[end].strip() != "```":
        end += 1
    indent = len(lines[i + 1]) - len(lines[i + 1].lstrip())
    return i + 2, end, [line[indent:] for line in lines[i + 2:end]]


def run_block(block: DocBlock, shims: Path, repo: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-e", "-o", "pipefail", "-c", block.text], cwd=repo, env=environment(shims, repo),
                          capture_output=True, text=True, timeout=BLOCK_TIMEOUT_S, stdin=subprocess.DEVNULL)


def printed_text(stdout: str) -> str:
    return re.sub(r"\s+\n", "\n", stdout).strip()


@pytest.mark.parametrize("block", RUN, ids=[b.id for b in RUN])
def test_doc_block_runs(block, shims, copies):
    done = run_block(block, shims, copies(block.path))
    assert done.returncode == 0, (f"{block.id} exited {done.returncode}\n--- block\n{block.text}--- stdout\n"
                                  f"{done.stdout[-3000:]}\n--- stderr\n{done.stderr[-3000:]}")
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    shown = expected_output(block)
    if shown is not None:
        printed = printed_text(done.stdout)
        assert printed == shown.strip(), f"{block.id}: the docs show\n{shown}\nbut it printed\n{printed}"


def test_manual_install_matches_the_makefile():
    """docs/install.md's manual install (not run: it compiles llama.cpp) pins what `make install` pins, and its pip
    lines name packages that this environment has (tests/docs/pip_check.py)."""
    block = next(b for b in BLOCKS if b.path == Path("docs/install.md") and b.text.startswith("python3 -m venv"))
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")

    def make_var(name: str) -> str:
        return re.search(rf"^{name}\s*\?=\s*(.+)$", makefile, re.M).group(1).strip()

    for name in ("TORCH_SPEC", "LLAMA_CPP_SPEC"):
        assert make_var(name) in block.text, (name, make_var(name))
    assert f'CMAKE_ARGS="{make_var("LLAMA_CMAKE_ARGS")}"' in block.text
    for package in re.findall(r"pip install --no-deps (.+?)\s+#", block.text)[0].split():
        assert re.search(rf"\b{re.escape(package)}\b", makefile), package


def test_the_errors_page_shows_what_a_bad_task_file_really_prints(tmp_path, capsys):
    """docs/errors.md's YAML example and the transcript under it (it exits 2, so it is not a bash block)."""
    from polibench.cli.main import main

    text = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
    yaml_text = re.search(r"this task file\n\n```yaml\n(.*?)```", text, re.S).group(1)
    transcript = re.search(r"gives\n\n```\n\$ (polibench list --include-path my_tasks/)\n(.*?)```", text, re.S)
    (tmp_path / "my_tasks").mkdir()
    (tmp_path / "my_tasks" / "sky.yaml").write_text(yaml_text)
    argv = transcript.group(1).split()[1:]
    argv[-1] = str(tmp_path / "my_tasks") + "/"
    assert main(argv) == 2
    printed = capsys.readouterr().err.replace(str(tmp_path) + "/", "")
    assert printed.strip() == transcript.group(2).strip()


def update_expected_outputs() -> None:
    """Rewrite every expected-output block with what its command prints now (``--update``)."""
    import tempfile

    os.environ.setdefault("POLIBENCH_CACHE", tempfile.mkdtemp(prefix="polibench-docs-"))
    printed = []
    with tempfile.TemporaryDirectory() as folder:
        shims, repos = make_shims(Path(folder)), {}
        # in order, and up to the file's last block with an expected output: a block may read what an earlier
        # one of its file wrote, and nothing after that last one can change an expected output
        last = {b.path: n for n, b in enumerate(RUN) if expected_output_lines(b) is not None}
        for block in (b for n, b in enumerate(RUN) if n <= last.get(b.path, -1)):
            if block.path not in repos:
                repos[block.path] = Path(folder) / block.path.stem / "repo"
                shutil.copytree(ROOT, repos[block.path], ignore=COPY_IGNORE)
            done = run_block(block, shims, repos[block.path])
            if done.returncode != 0:
                sys.exit(f"{block.id} exited {done.returncode}:\n{done.stderr[-2000:]}")
            printed.append((block, printed_text(done.stdout)))
    for block, text in reversed(printed):  # from the end, so the line numbers of earlier blocks stay right
        found = expected_output_lines(block)
        if found is None:
            continue
        first, end, _ = found
        path = ROOT / block.path
        lines = path.read_text(encoding="utf-8").splitlines()
        fence = lines[first - 1]
        indent = fence[:len(fence) - len(fence.lstrip())]
        new = [indent + line if line else line for line in text.splitlines()]
        if lines[first:end] != new:
            lines[first:end] = new
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
            print(f"updated {block.id}")

if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        sys.exit("usage: python tests/docs/test_docs_commands.py --update")
    update_expected_outputs()


def test_the_errors_page_quotes_the_unknown_backend_line_polibench_prints(tmp_path, capsys):
    """docs/errors.md's one wording for an unknown name, as `polibench run --backend nope` prints it."""
    from polibench.cli.main import main

    text = " ".join((ROOT / "docs" / "errors.md").read_text(encoding="utf-8").split())
    quoted = re.search(r"`polibench run --backend nope` says `(unknown backend 'nope'; registered backends: [^`]*)`",
                       text).group(1)
    assert main(["run", "--backend", "nope", "--tasks", "pct", "--output", str(tmp_path / "run")]) == 2
    assert capsys.readouterr().err.strip() == f"polibench: error: {quoted}"
    assert not (tmp_path / "run").exists()
