"""The project's import graph has no cycle, except an engine's lazy import of its renderer.

Every ``import`` statement of ``puzzles``, ``solvers``, ``commands``, ``kibitz`` and ``cli.py`` is read
(those inside functions too); an edge goes from a module to each project module it imports.  A lazy
import (inside a function) of a ``render`` module is the one allowed way back, since the renderer
imports the engine it draws.  ``puzzles`` never imports ``solvers``, and nothing imports ``cli``.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("puzzles", "solvers", "commands", "kibitz")


def _modules() -> dict[str, Path]:
    found = {"cli": ROOT / "cli.py"}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _import_nodes(node: ast.AST, lazy: bool = False) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Every import statement under ``node`` with whether it runs lazily (inside a function), in one walk;
    imports under ``if TYPE_CHECKING`` are left out.  Only statements are walked (an import is a statement, and
    no expression holds one): the walk skips most of each tree."""
    for child in ast.iter_child_nodes(node):
        if not isinstance(child, ast.stmt | ast.excepthandler | ast.match_case):
            continue
        if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
            continue
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child, lazy
        yield from _import_nodes(child, lazy or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef))


def _imports(tree: ast.Module, name: str, modules: dict[str, Path], is_package: bool) -> list[tuple[str, bool]]:
    """(module imported, lazily) for every import statement of one module."""
    found = []
    for node, lazy in _import_nodes(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                anchor = name.split(".") if is_package else name.split(".")[:-1]
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        found += [(t, lazy) for t in targets if t in modules and t != name]
    return found


@functools.cache
def _graph() -> nx.DiGraph:
    modules = _modules()
    graph = nx.DiGraph()
    for name, path in modules.items():
        tree = ast.parse(path.read_text(), str(path))
        for target, lazy in _imports(tree, name, modules, path.name == "__init__.py"):
            if graph.has_edge(name, target):
                graph[name][target]["lazy"] &= lazy
            else:
                graph.add_edge(name, target, lazy=lazy)
    return graph


def test_no_import_cycle_but_lazy_renderers() -> None:
    graph = _graph().copy()
    allowed = [(a, b) for a, b, lazy in graph.edges(data="lazy") if lazy and b.rsplit(".", 1)[-1] == "render"]
    graph.remove_edges_from(allowed)
    assert list(nx.simple_cycles(graph)) == []


def test_layers() -> None:
    graph = _graph()
    assert not [(a, b) for a, b in graph.edges if a.startswith("puzzles") and b.startswith("solvers")]
    assert not [a for a, b in graph.edges if b == "cli"]
