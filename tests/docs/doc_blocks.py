"""The ```bash blocks of README.md and docs/*.md, and the marks that keep a block out of CI.

Convention (docs/testing.md, "Commands in the docs"): every ```bash block is run by
tests/docs/test_docs_commands.py, unless the line just before its opening fence is exactly one of

    <!-- not-run-in-ci: gpu-only -->
    <!-- not-run-in-ci: hub-only -->
    <!-- not-run-in-ci: long; checked by tests/PATH -->

``gpu-only``: needs a CUDA GPU. ``hub-only``: needs the network (the Hugging Face hub, an API, a download).
``long``: takes minutes; ``tests/PATH`` (a test file, optionally ``::test_name``) is the test that runs the
same thing, and must exist.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parents[2]
MARK = re.compile(r"<!-- not-run-in-ci: (?P<reason>gpu-only|hub-only|long; checked by "
                  r"(?P<test>tests/[\w./-]+\.py)(?:::(?P<name>\w+))?) -->")
MARK_START = "<!-- not-run-in-ci"


@dataclass(frozen=True)
class DocBlock:
    path: Path          # relative to the repository root
    line: int           # 1-based line of the opening fence
    text: str
    mark: Optional[str]  # the line before the fence when it starts with MARK_START

    @property
    def id(self) -> str:
        return f"{self.path}:{self.line}"

    @property
    def runs(self) -> bool:
        return self.mark is None


def doc_files(root: Path = ROOT) -> list[Path]:
    return [Path("README.md"), *sorted(p.relative_to(root) for p in (root / "docs").glob("*.md"))]


def blocks(path: Path, root: Path = ROOT) -> list[DocBlock]:
    """The ```bash blocks of one file (fences at any indentation, as in list items)."""
    lines = (root / path).read_text(encoding="utf-8").splitlines()
    found, i = [], 0
    while i < len(lines):
        if lines[i].strip() == "```bash":
            indent = len(lines[i]) - len(lines[i].lstrip())
            end = i + 1
            while end < len(lines) and lines[end].strip() != "```":
                end += 1
            if end == len(lines):
                raise ValueError(f"{path}:{i + 1}: a ```bash block that is never closed")
            before = lines[i - 1].strip() if i else ""
            text = "\n".join(line[indent:] for line in lines[i + 1:end]) + "\n"
            found.append(DocBlock(path, i + 1, text, before if before.startswith(MARK_START) else None))
            i = end
        i += 1
    return found


def all_blocks(root: Path = ROOT) -> list[DocBlock]:
    return [b for path in doc_files(root) for b in blocks(path, root)]


def mark_problem(block: DocBlock, root: Path = ROOT) -> Optional[str]:
    """Why a block's mark is not one of the convention's (None when it is, or when there is none)."""
    if block.mark is None:
        return None
    match = MARK.fullmatch(block.mark)
    if match is None:
        return (f"{block.id}: {block.mark!r} is not '<!-- not-run-in-ci: gpu-only|hub-only|long; checked by "
                "tests/PATH -->'")
    test = match.group("test")
    if test and not (root / test).is_file():
        return f"{block.id}: {test} (named by its mark) does not exist"
    name = match.group("name")
    if test and name and not re.search(rf"^def {name}\(", (root / test).read_text(encoding="utf-8"), re.M):
        return f"{block.id}: {test} has no test named {name}"
    return None


def stray_marks(path: Path, root: Path = ROOT) -> list[str]:
    """Marks that are not on the line just before a ```bash fence (they would keep nothing out of CI)."""
    lines = (root / path).read_text(encoding="utf-8").splitlines()
    return [f"{path}:{n + 1}: a not-run-in-ci mark not followed by a ```bash fence"
            for n, line in enumerate(lines)
            if line.strip().startswith(MARK_START) and (n + 1 >= len(lines) or lines[n + 1].strip() != "```bash")]


def marked_files(path: Path, mark: str, root: Path = ROOT) -> dict[str, str]:
    """The fenced blocks of one file that follow a line ``<!-- MARK: NAME -->``, as ``{NAME: text}`` (a worked
    example whose files the docs spell out, e.g. docs/architecture.md's ``family-file`` blocks). A mark not
    followed by a fence, a block never closed, or a name given twice is a ``ValueError``."""
    pattern = re.compile(rf"<!-- {re.escape(mark)}: (?P<name>\S+) -->")
    lines = (root / path).read_text(encoding="utf-8").splitlines()
    found: dict[str, str] = {}
    for n, line in enumerate(lines):
        match = pattern.fullmatch(line.strip())
        if match is None:
            continue
        name = match.group("name")
        if n + 1 >= len(lines) or not lines[n + 1].strip().startswith("```"):
            raise ValueError(f"{path}:{n + 1}: the mark of {name} is not followed by a fenced block")
        end = n + 2
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        if end == len(lines):
            raise ValueError(f"{path}:{n + 2}: the block of {name} is never closed")
        if name in found:
            raise ValueError(f"{path}:{n + 1}: {name} is given twice")
        found[name] = "\n".join(lines[n + 2:end]) + "\n"
    return found
