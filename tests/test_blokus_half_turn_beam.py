"""bench/blokus_half_turn_beam.py: the colour-free cuts admit the stored half-turn layouts, and the tiling search and
its colouring find them again."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from solvers.blokus.solitaire_sat import layout_cells, tiling_junction_bound
from tests.bench_scripts import bench_module

bench = bench_module("blokus_half_turn_beam")
DATA = Path(__file__).parent / "data"


def stored(name: str) -> tuple[Any, set[tuple[int, ...]], np.ndarray]:
    """The board, the stored layout's 84 placements (cell indices) and its owner array (piece ids by cell)."""
    data = json.loads((DATA / f"blokus_all_pieces_{name}_4c.json").read_text())
    cols, rows = map(int, data["board"].split("x"))
    board = bench.HalfTurnBoard(cols, rows)
    pieces = [tuple(sorted(board.idx(r, c) for r, c in cells)) for cells in layout_cells(data)]
    owner = np.array([bench.EMPTY + q for q in range(board.n)], np.int64)
    for k, cells in enumerate(pieces):
        owner[list(cells)] = k
    return board, set(pieces), owner


@pytest.mark.parametrize("name", ["18x20", "19x19"])
def test_the_stored_layouts_meet_euler_and_the_crossing_bound(name):
    board, _, owner = stored(name)
    x, t = board.counts(owner)
    assert 2 * x + t == tiling_junction_bound(board.cols, board.rows, 4)  # Euler: 2(83 + empty cells)
    assert x >= 40 and t <= board.t_max
    assert bench.HalfTurnBoard(21, 17).t_max == 88


@pytest.mark.parametrize("switch", [0, 1])  # the beam alone; the DFS from the first cell
@pytest.mark.parametrize("name", ["18x20", "19x19"])
def test_restricted_to_a_stored_layout_the_search_finds_its_tiling_and_a_colouring_that_replays(name, switch):
    board, keep, owner = stored(name)
    found = list(bench.tilings(board, colours=False, width=100, switch=switch, dfs_nodes=10**6, seed=0, limit=60.0,
                               keep=keep))
    assert len(found) == 1
    tiling = found[0][: board.n]
    turned = {tuple(sorted(board.n - 1 - q for q in cells)) for cells in keep}
    assert all(tuple(sorted(board.idx(r, c) for r, c in cells)) in keep | turned
               for cells in board.pieces(tiling).values())  # the stored pieces (19x19's last ones: or their images)
    x, t = board.counts(tiling)
    assert x >= 40 and t <= board.t_max
    result, colour = bench.colour_tiling(board, tiling)
    assert result == "found" and colour is not None
    state = bench.replay(board, tiling, colour)
    assert len(state.moves_played) == 84 and all(not state.pieces_left(c) for c in range(4))
    assert not bench._isolated_groups(colour, bench._partners(board, tiling), bench._roots(board, tiling))


def test_a_tiling_with_an_empty_start_corner_has_no_colouring():
    board, keep, _ = stored("18x20")
    tiling = next(bench.tilings(board, colours=False, width=1, switch=1, dfs_nodes=10**6, seed=0, limit=60.0,
                                keep=keep))[: board.n].copy()
    assert bench.colour_tiling(board, tiling)[0] == "found"
    tiling[board.idx(0, 0)] = bench.EMPTY
    assert bench.colour_tiling(board, tiling)[0] == "local"


def test_with_colours_the_search_keeps_the_edge_rule_and_one_piece_of_each_shape_per_colour():
    board, keep, _ = stored("18x20")
    state = next(bench.tilings(board, colours=True, width=1, switch=1, dfs_nodes=10**6, seed=0, limit=60.0, keep=keep))
    tiling, colour = state[: board.n], [int(c) for c in board.view(state)["colour"][:84]]
    shapes = {k: bench.SHAPE_KEYS[bench.Shape(frozenset(cells)).canonical().key()]
              for k, cells in board.pieces(tiling).items()}
    assert all(sorted(shapes[k] for k in shapes if colour[k] == c) == list(range(21)) for c in range(4))
    assert all(colour[a] != colour[b] for a, b in bench._adjacent(board, tiling))
    assert [colour[root] for root in bench._roots(board, tiling)] == [0, 1, 2, 3]
