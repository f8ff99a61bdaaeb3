"""mcts-rave's playout local points against Pentobi's definition (``PlayoutFeatures::set_local``), by the rules.

A local point of the colour to move is a cell it may use that is an attach point of one of the last three
placements by an opponent colour (not its own, not its second colour: the partner in two-player, or for the
three-player green the colour of the seat moving it), or an edge neighbour of such an attach point, where that
opponent may still play; it counts 2 when it is also the mover's own attach point.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from puzzles.blokus import kernel as K
from puzzles.blokus.engine import BlokusState
from solvers.blokus.mcts.driver import Params, recent_placements
from solvers.blokus.mcts.playout import mark_local_points
from solvers.blokus.mcts.priors import second_colour

Cell = tuple[int, int]


def attach_points(cells: tuple[Cell, ...], size: int) -> set[Cell]:
    """The on-board cells diagonal to a piece's cell and not edge-adjacent to any (the rules' corners)."""
    piece = set(cells)
    edges = {(r + dr, c + dc) for r, c in piece for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))}
    diagonal = {(r + dr, c + dc) for r, c in piece for dr in (-1, 1) for dc in (-1, 1)}
    return {(r, c) for r, c in diagonal - edges - piece if 0 <= r < size and 0 <= c < size}


def second_colour_by_the_rules(state: BlokusState, c: int) -> int:
    """The partner colour in two-player; the mover's own colour for the three-player green; else ``c``."""
    if state.variant.name == "two-player":
        return (c + 2) % 4
    if state.variant.name == "three-player" and c == 3:
        return state.current_player()
    return c


def expected_local_points(state: BlokusState, c: int, second: int) -> dict[int, int]:
    """Pentobi's local points of colour ``c`` in the padded grid's indices, with their values (1 or 2)."""
    size, flat = state.tables.size, state.tables.flat
    forbidden, is_attach = state.arrays.forbidden, state.arrays.is_attach
    placements = [(k, move) for k, move, _ in state.history if not move.is_pass][-3:]
    local: dict[int, int] = {}
    for k, move in placements:
        if k in (c, second):
            continue
        for r, col in attach_points(move.cells, size):
            if forbidden[k, flat(r, col)]:
                continue
            for cell in ((r, col), (r - 1, col), (r, col + 1), (r + 1, col), (r, col - 1)):
                q = flat(*cell)
                if not forbidden[k, q] and not forbidden[c, q]:
                    local[q] = 1 + int(is_attach[c, q])
    return local


def kernel_local_points(state: BlokusState, c: int) -> dict[int, int]:
    """The local points ``mark_local_points`` writes into colour ``c``'s feature grid."""
    arrays = state.arrays
    params = Params(state)
    recent = recent_placements(state)
    area = arrays.forbidden.shape[1]
    feat = np.zeros(area + 1 + K.NUM_PIECES, dtype=np.int64)
    K.set_features(arrays.forbidden[c], arrays.left[c], feat)
    before = feat.copy()
    sc = second_colour.py_func(c, params.second, arrays.placed)
    mark_local_points.py_func(c, sc, recent, arrays.forbidden, arrays.is_attach, state.ktables.geo,
                              int(np.sqrt(area) + 0.5), feat)
    return {int(q): int(feat[q]) for q in np.flatnonzero(feat != before)}


def positions(variant: str, seed: int, count: int) -> list[BlokusState]:
    """``count`` positions of a random game, each after at least three placements."""
    rng = random.Random(seed)
    state = BlokusState(variant)
    found = []
    while not state.is_terminal() and len(found) < count:
        state.apply(rng.choice(state.legal_actions()))
        if sum(not move.is_pass for _, move, _ in state.history) >= 3 and not state.is_terminal():
            found.append(state.clone())
    return found


@pytest.mark.parametrize(("variant", "seed"), [("duo", 1), ("classic", 2), ("two-player", 3), ("three-player", 4)])
def test_local_points_are_pentobis(variant: str, seed: int) -> None:
    """At each position of a random game, the kernel marks exactly the rules' local points of the colour to move."""
    marked = 0
    for state in positions(variant, seed, 40):
        c = state.current_color()
        expected = expected_local_points(state, c, second_colour_by_the_rules(state, c))
        assert kernel_local_points(state, c) == expected
        marked += len(expected)
    assert marked > 40


def test_the_three_player_green_ignores_its_movers_own_placements() -> None:
    """For green, the seat moving it is not an opponent: its colour's recent placements give no local points."""
    differs = 0
    for seed in range(5, 15):
        for state in positions("three-player", seed, 60):
            if state.current_color() != 3:
                continue
            mover = state.current_player()
            assert kernel_local_points(state, 3) == expected_local_points(state, 3, mover)
            differs += expected_local_points(state, 3, mover) != expected_local_points(state, 3, 3)
    assert differs >= 3
