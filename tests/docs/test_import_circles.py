"""Import circles within polibench/: modules that import each other, directly or through a chain, lazy imports
inside functions and ``TYPE_CHECKING`` imports included (as import-linter counts them). The layers contract cannot
see a circle inside one layer, so this test does: none may appear (the last known ones went with issue 40, the
metric registries' import-at-the-bottom registrations, and issue 41, the vLLM backend with its Ray pool: a replica
is built from the backend class the driver hands it).

Anyone can list them with the same code: ``python tests/docs/test_import_circles.py``."""

from __future__ import annotations

import sys


def import_circles(package: str = "polibench") -> list[set[str]]:
    """The strongly connected components of more than one module in ``package``'s import graph (grimp's, the graph
    import-linter checks), found with Tarjan's algorithm."""
    import grimp

    graph = grimp.build_graph(package, include_external_packages=False)
    edges = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in sorted(graph.modules)}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[set[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in edges[module]:
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == module:
                    break
            if len(component) > 1:
                circles.append(component)

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        for module in edges:
            if module not in index:
                visit(module)
    finally:
        sys.setrecursionlimit(limit)
    return sorted(circles, key=sorted)


def test_the_search_finds_a_planted_circle(tmp_path, monkeypatch):
    package = tmp_path / "planted_circle"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("def f():\n    from planted_circle import b\n")
    (package / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import planted_circle.c\n")
    (package / "c.py").write_text("import planted_circle.a\n")
    (package / "d.py").write_text("import planted_circle.a\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert import_circles("planted_circle") == [{"planted_circle.a", "planted_circle.b", "planted_circle.c"}]


def test_no_import_circle():
    assert [sorted(circle) for circle in import_circles()] == []


if __name__ == "__main__":
    found = import_circles()
    for circle in found:
        print(f"{len(circle)} modules: {' '.join(sorted(circle))}")
    print(f"{len(found)} import circles within polibench/")
