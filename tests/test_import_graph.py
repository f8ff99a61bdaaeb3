"""The project's import graph has no cycle, except an engine's lazy import of its renderer.

Every ``import`` statement of ``puzzles``, ``solvers``, ``commands``, ``kibitz`` and ``cli.py`` is read
(those inside functions too); an edge goes from a module to each project module it imports.  A lazy
import (inside a function) of a ``render`` module is the one allowed way back, since the renderer
imports the engine it draws.  ``puzzles`` never imports ``solvers``, and nothing imports ``cli``.
"""

from __future__ import annotations

import ast
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


def _imports(tree: ast.Module, name: str, modules: dict[str, Path], is_package: bool) -> list[tuple[str, bool]]:
    """(module imported, lazily) for every import statement of one module."""
    lazy_nodes = {id(n) for f in ast.walk(tree) if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
                  for n in ast.walk(f)}
    type_only = {id(n) for s in ast.walk(tree) if isinstance(s, ast.If) and "TYPE_CHECKING" in ast.unparse(s.test)
                 for n in ast.walk(s)}
    found = []
    for node in ast.walk(tree):
        if id(node) in type_only:
            continue
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = name.split(".") if is_package else name.split(".")[:-1]
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        found += [(t, id(node) in lazy_nodes) for t in targets if t in modules and t != name]
    return found


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
    graph = _graph()
    allowed = [(a, b) for a, b, lazy in graph.edges(data="lazy") if lazy and b.rsplit(".", 1)[-1] == "render"]
    graph.remove_edges_from(allowed)
    assert list(nx.simple_cycles(graph)) == []


def test_layers() -> None:
    graph = _graph()
    assert not [(a, b) for a, b in graph.edges if a.startswith("puzzles") and b.startswith("solvers")]
    assert not [a for a, b in graph.edges if b == "cli"]
