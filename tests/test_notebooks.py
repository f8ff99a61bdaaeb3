"""Every notebook in notebooks/ runs top to bottom, checks what it computed, and draws no empty plot.

The default run executes the two quickest (towers, a hidden-information game, and pettingzoo); the four longer
studies execute with ``-m slow`` (about 50 s together).  By default every notebook also gets a smoke check: its
code compiles, its import lines run (so a renamed function fails here), its stored outputs hold no error, and its
stored figures have their data.

The study notebooks keep the numbers behind each figure in ``PLOTTED`` and print them as JSON in their
last cell (tagged ``figure-data``); the test reads that output and requires one entry per figure shown,
each with data that is neither empty, nor non-finite, nor all one value.
"""

from __future__ import annotations

import ast
import json
import math
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))

#: notebooks of the optional extras: skipped when the extra is not installed
EXTRAS = {"openspiel": "pyspiel", "pettingzoo": "pettingzoo"}


def outputs(notebook: Any) -> list[Any]:
    return [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]


def figure_data(notebook: Any) -> dict[str, list[list[float]]] | None:
    """The JSON printed by the cell tagged ``figure-data`` (None when the notebook has no such cell)."""
    for cell in notebook.cells:
        if "figure-data" in cell.get("metadata", {}).get("tags", []):
            text = "".join(o.get("text", "") for o in cell.get("outputs", []) if o.get("output_type") == "stream")
            return json.loads(text)
    return None


def check_figures(notebook: Any) -> None:
    """One figure-data entry per figure shown; every entry's data non-empty, finite and not all one value."""
    shown = sum("image/png" in o.get("data", {}) for o in outputs(notebook))
    data = figure_data(notebook) or {}
    assert len(data) == shown, f"{shown} figures shown, {len(data)} with their data recorded"
    for name, series in data.items():
        assert series and all(series), f"figure {name!r} plots an empty series"
        values = [v for s in series for v in s]
        assert all(math.isfinite(v) for v in values), f"figure {name!r} plots NaN or infinity"
        assert max(values) > min(values), f"figure {name!r} plots one value only: {values[0]}"


def check_asserts(notebook: Any) -> None:
    """A notebook checks what it computed: some code cell asserts."""
    assert any("assert " in cell.source for cell in notebook.cells if cell.cell_type == "code")


#: executed in the default run; the others with ``-m slow``
QUICK = {"towers", "pettingzoo"}


@pytest.mark.parametrize("path", [pytest.param(p, id=p.stem, marks=() if p.stem in QUICK else pytest.mark.slow)
                                  for p in NOTEBOOKS])
def test_notebook_executes(path: Path) -> None:
    if path.stem in EXTRAS:
        pytest.importorskip(EXTRAS[path.stem])
    notebook = nbformat.read(path, as_version=4)
    check_asserts(notebook)
    client = NotebookClient(notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    errors = [o for o in outputs(notebook) if o.get("output_type") == "error"]
    assert not errors
    check_figures(notebook)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_smoke(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without running it: the code compiles, every import line runs, the stored outputs hold no error, the stored
    figures have their data, and some cell asserts."""
    if path.stem in EXTRAS:
        pytest.importorskip(EXTRAS[path.stem])
    notebook = nbformat.read(path, as_version=4)
    check_asserts(notebook)
    imports: list[ast.stmt] = []
    for number, cell in enumerate(notebook.cells):
        if cell.cell_type != "code":
            continue
        tree = ast.parse(cell.source, filename=f"{path.name} cell {number}")
        imports += [node for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))]
    assert imports
    monkeypatch.chdir(path.parent)  # as a notebook runs: from notebooks/, with bench/ on the path where it says so
    monkeypatch.syspath_prepend(str(path.parent.parent / "bench"))
    exec(compile(ast.Module(body=imports, type_ignores=[]), path.name, "exec"), {})  # noqa: S102
    assert not [o for o in outputs(notebook) if o.get("output_type") == "error"]
    check_figures(notebook)


def fake_notebook(figures: int, data: dict[str, Any] | None) -> Any:
    """A notebook with ``figures`` PNG outputs and, when given, a figure-data cell printing ``data``."""
    cells = [nbformat.v4.new_code_cell("plt.show()") for _ in range(figures)]
    for cell in cells:
        cell.outputs = [nbformat.v4.new_output("display_data", data={"image/png": "iVBORw0KGgo="})]
    if data is not None:
        cell = nbformat.v4.new_code_cell("print(json.dumps(PLOTTED))", metadata={"tags": ["figure-data"]})
        cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=json.dumps(data) + "\n")]
        cells.append(cell)
    return nbformat.v4.new_notebook(cells=cells)


@pytest.mark.parametrize("figures, data, problem", [
    (1, {"flat": [[0.0, 0.0, 0.0]]}, "one value only"),
    (1, {"empty": [[1.0, 2.0], []]}, "empty series"),
    (1, {"nan": [[1.0, float("nan")]]}, "NaN"),
    (2, {"one": [[1.0, 2.0]]}, "2 figures shown, 1"),
    (1, None, "1 figures shown, 0"),
])
def test_check_figures_rejects_empty_plots(figures: int, data: dict[str, Any] | None, problem: str) -> None:
    with pytest.raises(AssertionError, match=problem):
        check_figures(fake_notebook(figures, data))


def test_check_figures_accepts_real_data() -> None:
    check_figures(fake_notebook(2, {"a": [[1.0, 2.0]], "b": [[0.0], [3.0, 3.0]]}))
    check_figures(fake_notebook(0, None))


def test_the_smoke_fails_on_an_import_that_no_longer_resolves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "study.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "from kibitz import TowersState, NoSuchName\nassert True")]), path)
    with pytest.raises(ImportError, match="NoSuchName"):
        test_notebook_smoke(path, monkeypatch)
