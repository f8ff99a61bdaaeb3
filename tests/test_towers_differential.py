"""The exact solver against the independent brute force (tests/test_towers_brute.py), position by position.

Positions come from seeded random play: round starts of every round (both
grids; P1 or P2 opening, as the rules' starter order gives), the second
player's line pick, and placements at every step of a round, searched to the
end of the round or of the game (the game horizon crosses into the next round
where the brute force can afford it).  For each one the value AND the value of
every legal root move must agree.  The default suite has 200 positions (100 of
them second-round starts, where issue 14's wrong values were); the slow tests 220 and 2,000 more.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from puzzles.game import CHANCE
from puzzles.towers import TowersState
from solvers.towers.solver import Solver
from tests.test_towers_brute import brute_move_values

# (round 0-5, phase, step, horizon): step is the pick step (0 starter, 2 second player) or the placement step
KINDS: list[tuple[int, str, int, str]] = (
    [(r, "pick", 0, "round") for r in range(6)]
    + [(r, "pick", 2, "round") for r in range(6)]
    + [(r, "place", k, "round") for r in range(6) for k in (1, 3, 5)]
    + [(r, "pick", 0, "game") for r in (2, 5)]
    + [(r, "place", k, "game") for r in (1, 4) for k in (4, 5)]
    + [(r, "place", k, "game") for r in (2, 5) for k in (2, 4)]
)
#: second rounds of a grid, where a seat that opened with a column has a used-line mask above 7 (issue 14's bug)
SECOND_ROUNDS: list[tuple[int, str, int, str]] = [(1, "pick", 0, "round"), (4, "pick", 0, "round")]


def reach(seed: int, rnd: int, phase: str, step: int) -> TowersState | None:
    """Seeded random play to (round, phase, step); None if the game ends first (an instant win)."""
    rng = random.Random(seed)
    s = TowersState.new_game(seed)
    while not s.is_terminal():
        if s.round > rnd:
            return None
        if s.round == rnd and s.phase == phase and s.step == step:
            return s
        s.apply(s.sample_chance(rng) if s.current_player() == CHANCE else rng.choice(s.legal_actions()))
    return None


def positions(first_seed: int, count: int, kinds: list[tuple[int, str, int, str]] = KINDS) -> Iterator[tuple[int, TowersState, str]]:
    """``count`` positions cycling through ``kinds``, seeds from ``first_seed`` on."""
    seed, made = first_seed, 0
    while made < count:
        rnd, phase, step, horizon = kinds[seed % len(kinds)]
        s = reach(seed, rnd, phase, step)
        if s is not None:
            made += 1
            yield seed, s, horizon
        seed += 1


def check(first_seed: int, count: int, kinds: list[tuple[int, str, int, str]] = KINDS) -> dict[str, set[object]]:
    """Compare solver and brute force on ``count`` positions; returns what the positions covered."""
    solver = Solver(18)
    seen: dict[str, set[object]] = {"round": set(), "kind": set(), "directions": set(), "opener": set()}
    for seed, s, horizon in positions(first_seed, count, kinds):
        want_value, want_moves = brute_move_values(s, horizon)
        got = solver.solve(s, horizon=horizon, pv=False)
        assert (seed, got.value, got.move_values) == (seed, want_value, want_moves)
        g = s.grid_index()
        seen["round"].add(s.round)
        seen["kind"].add((s.phase, s.step, horizon))
        seen["opener"].add(s.starter)
        seen["directions"].add(tuple(s.direction[p][g] for p in (0, 1)))
    return seen


@pytest.mark.parametrize("count", [100, pytest.param(220, marks=pytest.mark.slow)])
def test_solver_agrees_with_brute_force_on_random_positions(count: int) -> None:
    seen = check(0, count)
    assert seen["round"] == set(range(6))
    assert seen["opener"] == {0, 1}
    assert {(0, 0), (0, 1), (1, 0), (1, 1), (-1, -1)} <= seen["directions"]  # rows and columns for both seats
    assert len(seen["kind"]) == len({(k[1], k[2], k[3]) for k in KINDS})


def test_solver_agrees_with_brute_force_on_100_second_round_starts() -> None:
    seen = check(0, 100, SECOND_ROUNDS)
    assert {(0, 1), (1, 0), (1, 1)} <= seen["directions"]  # column openers among them


def test_the_reported_round_two_position() -> None:
    """Issue 14: seed 447362, round 2 start: the true value is 0 (row1 0, row2 0), once reported as -64."""
    rng = random.Random(447362)
    s = TowersState()
    while not (s.round == 1 and s.phase == "pick" and s.step == 0):
        s.apply(s.sample_chance(rng) if s.current_player() == CHANCE else rng.choice(s.legal_actions()))
    got = Solver(18).solve(s, horizon="round", pv=False)
    assert (got.value, got.move_values) == (0, {"row1": 0, "row2": 0})
    assert brute_move_values(s, "round") == (0, {"row1": 0, "row2": 0})


@pytest.mark.slow
def test_solver_agrees_with_brute_force_on_2000_more_positions() -> None:
    seen = check(100_000, 1700)
    assert seen["round"] == set(range(6))
    check(100_000, 300, SECOND_ROUNDS)
