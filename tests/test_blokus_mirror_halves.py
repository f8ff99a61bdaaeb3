"""The mirror family of bench/blokus_mirror_halves.py: on small boards with small piece sets its SAT model finds
exactly the layouts a plain enumeration finds, and each is a layout by an independent check."""

from __future__ import annotations

import numpy as np
import pytest

from puzzles.polyomino import Shape, normalize, piece
from tests.bench_scripts import bench_module

bench = bench_module("blokus_mirror_halves")
SIGMA = np.array([3, 2, 1, 0, bench.EMPTY_COLOUR])


def _problems(grid: np.ndarray, pieces: list[Shape]) -> list[str]:
    """What keeps a colour grid (blue 0, yellow 1, red 2, green 3 from the top-left corner clockwise) from being a
    layout of ``pieces`` in every colour: the corner, the pieces (edge-connected patches), corner connectivity."""
    rows, cols = grid.shape
    corners = [(0, 0), (0, cols - 1), (rows - 1, cols - 1), (rows - 1, 0)]
    want = sorted(p.canonical().key() for p in pieces)
    out = []
    for c, corner in enumerate(corners):
        cells = {(r, x) for r in range(rows) for x in range(cols) if grid[r, x] == c}
        patches = [_reach(cells, q, ((1, 0), (-1, 0), (0, 1), (0, -1))) for q in cells]
        shapes = sorted({tuple(sorted(p)): Shape(normalize(p)).canonical().key() for p in patches}.values())
        if corner not in cells:
            out.append(f"colour {c}: corner")
        if shapes != want:
            out.append(f"colour {c}: pieces")
        if cells and _reach(cells, corner, [(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1)]) != cells:
            out.append(f"colour {c}: not corner-connected")
    return out


def _reach(cells: set, start: tuple[int, int], steps) -> set:
    seen, todo = {start}, [start]
    while todo:
        r, x = todo.pop()
        for dr, dx in steps:
            nxt = (r + dr, x + dx)
            if nxt in cells and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


# counts by a plain enumeration (every top half filled cell by cell with coloured pieces under the edge rule, every
# arrangement of the missing straight pairs in the middle row, each full board checked as above; 80-280 CPU-s each)
@pytest.mark.parametrize(("cols", "rows", "names", "count"), [
    (4, 6, "1 2 V3", 8), (5, 5, "1 2 V3", 0), (4, 7, "1 2 V3", 10), (3, 9, "1 2 V3", 14), (4, 9, "1 V3 O4", 8),
])
def test_the_model_finds_every_layout_of_the_family_and_only_layouts(cols, rows, names, count):
    pieces = [piece(n) for n in names.split()]
    grids = list(bench.layouts(cols, rows, pieces))
    assert len(grids) == count and len({g.tobytes() for g in grids}) == count
    for grid in grids:
        assert _problems(grid, pieces) == []
        outside = np.ones(rows, bool)
        outside[rows // 2] = rows % 2 == 0
        # the rows outside the middle one are mirror images with the colours swapped as the corners are
        assert (SIGMA[grid[::-1]][outside] == grid[outside]).all()


def test_the_left_right_mirror_is_the_model_on_the_board_turned():
    pieces = [piece(n) for n in ("1", "2", "V3")]
    status, info = bench.solve(7, 4, "cols", 30.0, 10_000, verbose=False, pieces=pieces)
    grid = info["grid"]
    assert status == "found" and grid.shape == (4, 7) and _problems(grid, pieces) == []
    assert (np.array([1, 0, 3, 2, bench.EMPTY_COLOUR])[grid[:, ::-1]][:, [0, 1, 2, 4, 5, 6]] == grid[:, [0, 1, 2, 4, 5, 6]]).all()


def test_a_board_too_small_is_refused():
    with pytest.raises(ValueError):
        bench.MirrorModel(17, 20)
