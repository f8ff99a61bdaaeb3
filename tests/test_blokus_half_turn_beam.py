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


def stored(name: str, centre_out: bool = False) -> tuple[Any, set[tuple[int, ...]], np.ndarray]:
    """The board, the stored layout's 84 placements (cell indices) and its owner array (piece ids by cell)."""
    data = json.loads((DATA / f"blokus_all_pieces_{name}_4c.json").read_text())
    cols, rows = map(int, data["board"].split("x"))
    board = bench.HalfTurnBoard(cols, rows, centre_out)
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


@pytest.mark.parametrize("cuts", [False, True])  # without and with the waste and pocket cuts, the centre first
@pytest.mark.parametrize("name", ["18x20", "19x19"])
def test_branching_on_colour_pairs_finds_the_stored_tilings_with_their_pairs_and_parities(name, cuts):
    board, keep, _ = stored(name, centre_out=cuts)
    state = next(bench.tilings(board, colours=False, pairs=True, waste=cuts, pockets=cuts, width=4, switch=1,
                               dfs_nodes=10**6, seed=0, limit=60.0, keep=keep))
    tiling, view = state[: board.n], board.view(state)
    result, colour = bench.colour_tiling(board, tiling)
    assert result == "found" and colour is not None
    pair, parent, parity = view["colour"], view["uf_parent"], view["uf_parity"]

    def relative(orbit: int) -> tuple[int, int]:
        return bench._find(orbit, parent, parity)

    for a, b in bench._adjacent(board, tiling):  # the edge rule as parities: same pair, touching, other colours
        if pair[a] == pair[b] and a // 2 != b // 2:
            (ra, pa), (rb, pb) = relative(a // 2), relative(b // 2)
            assert ra != rb or pa ^ pb == 1 ^ ((a ^ b) & 1)
    for c, root in enumerate(bench._roots(board, tiling)):  # the start corners tied to the ground with their colour
        assert pair[root] == c % 2 and relative(root // 2) == (bench.GROUND, (c // 2) ^ (root & 1))


@pytest.mark.parametrize("cols, rows", [(21, 17), (18, 20), (19, 19), (4, 3), (5, 5)])
def test_the_centre_out_order_pairs_each_cell_with_its_image(cols, rows):
    board = bench.HalfTurnBoard(cols, rows, centre_out=True)
    n, order = board.n, board.cell_order
    assert sorted(order) == [(r, c) for r in range(rows) for c in range(cols)]
    assert all(order[n - 1 - i] == (rows - 1 - r, cols - 1 - c) for i, (r, c) in enumerate(order))
    assert order[0] == (0, (cols - 1) // 2) and order[n // 2 - 1] == (rows - 1, 0)  # the middle first, corners last


@pytest.mark.parametrize("pairs", [False, True])
@pytest.mark.parametrize("name", ["18x20", "19x19"])
def test_the_most_constrained_cell_endgame_finds_the_stored_tilings(name, pairs):
    board, keep, _ = stored(name)
    found = list(bench.tilings(board, colours=False, pairs=pairs, waste=True, pockets=True, endgame=True, width=4,
                               switch=1, dfs_nodes=10**6, seed=0, limit=60.0, keep=keep))
    stats: dict = {}  # the same search as a look-ahead from the first cell: it finds the tiling before any expansion
    ahead = list(bench.tilings(board, colours=False, pairs=pairs, endgame=True, width=4, switch=0, dfs_nodes=0,
                               seed=0, limit=60.0, keep=keep, lookahead=10**6, stats=stats))
    assert ahead and stats["looked"] == 1 and stats["pruned"] == 0
    assert found
    tiling = found[0][: board.n]
    assert len(board.pieces(tiling)) == 84 and bench.colour_tiling(board, tiling)[0] == "found"


def test_a_pocket_the_shapes_left_cannot_tile_is_refused():
    board = bench.HalfTurnBoard(21, 17)
    start, order = board.candidates(bench.random.Random(0))
    state = board.initial_state()
    owner, left = board.view(state)["owner"], board.view(state)["left"]
    pocket = [board.idx(0, 2), board.idx(0, 3)]  # two free cells in the top row, walled in
    wall = [board.idx(r, c) for r, c in ((0, 1), (0, 4), (1, 2), (1, 3))]
    owner[wall] = 7
    owner[[board.n - 1 - q for q in wall]] = 8
    newc = np.array(wall + [0] * 16, np.int64)

    def ok() -> bool:
        return bool(bench._pockets_ok(newc, len(wall), board.n, state, board.nbr, start, order, board.pl_cells,
                                      board.pl_size, board.pl_shape))

    assert ok()  # the domino, or two monominoes
    domino, monomino = (bench.SHAPE_KEYS[bench.Shape(frozenset(cells)).canonical().key()]
                        for cells in ({(0, 0), (0, 1)}, {(0, 0)}))
    left[domino] = 0
    assert ok()  # two monominoes
    left[monomino] = 1
    assert not ok()
    board.view(state)["spare"][0] = 1
    assert ok()  # one monomino and one cell left empty
    cells = np.zeros(6, np.int64)
    assert bench._pocket(pocket[0], board.n, owner, board.nbr, cells) == 2 and sorted(cells[:2]) == sorted(pocket)
