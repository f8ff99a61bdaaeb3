"""The exact endgame search (solvers/blokus/endgame.py) against plain minimax, and the bot that uses it."""

from __future__ import annotations

import random

import numpy as np
import pytest

from puzzles.blokus.engine import BlokusState
from puzzles.blokus.tables import PASS
from puzzles.game import TERMINAL
from solvers.blokus.endgame import EndgameUnsolved, solve_endgame
from solvers.blokus.mcts import FastMCTSBot


def minimax(state: BlokusState, seat: int, memo: dict | None = None) -> int:
    """The final margin for ``seat`` with best play: plain minimax over the engine's legal actions, each
    position's exact value remembered (keyed by the set of placements made and the colour to move)."""
    if state.is_terminal():
        scores = state.scores()
        return int(scores[seat] - scores[1 - seat])
    memo = {} if memo is None else memo
    key = (hash(frozenset((c, m.index) for c, m, _ in state.history if not m.is_pass)), state.to_move)
    if key not in memo:
        values = []
        for action in state.legal_actions():
            state.apply(action)
            values.append(minimax(state, seat, memo))
            state.undo()
        memo[key] = max(values) if state.current_player() == seat else min(values)
    return memo[key]


def late_position(variant: str, seed: int, most: int) -> BlokusState:
    """A position from a seeded random game once both seats have at most ``most`` legal placements in all."""
    state, rng = BlokusState(variant), random.Random(seed)
    while not state.is_terminal():
        if sum(len(state.legal_placements(c)) for c in range(state.num_colors)) <= most:
            return state
        state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("the game ended first")


def snapshot(state: BlokusState) -> tuple:
    """What the rules see of a position (the attach lists only up to their lengths: beyond is scratch)."""
    a = state.arrays
    attach = tuple(a.attach[c, : a.attach_len[c]].tobytes() for c in range(state.num_colors))
    return (state.to_move, [(c, m.index) for c, m, _ in state.history], state.owner.tobytes(), attach,
            tuple(x.tobytes() for name, x in a._asdict().items() if name != "attach"))


@pytest.mark.parametrize("variant,seed", [("duo", s) for s in range(6)] + [("two-player", s) for s in range(3)])
def test_endgame_value_equals_plain_minimax(variant: str, seed: int) -> None:
    state = late_position(variant, seed, 24)
    before = snapshot(state)
    seat = state.current_player()
    result = solve_endgame(state)
    assert snapshot(state) == before  # the search leaves the position as it found it
    assert result.margin == minimax(state, seat)
    # the move it names secures that margin
    state.apply(state.tables.moves[result.placement] if result.placement >= 0 else PASS)
    assert minimax(state, seat) == result.margin


def test_endgame_passes_for_a_colour_that_cannot_move() -> None:
    for seed in range(40):
        state = late_position("duo", seed, 6)
        while not state.is_terminal() and len(state.legal_placements()) > 0:
            state.apply(state.legal_actions()[0])
        if not state.is_terminal():
            break
    else:
        pytest.skip("no position with a colour to move and no placement among these seeds")
    seat = state.current_player()
    result = solve_endgame(state)
    assert result.placement == -1
    assert result.margin == minimax(state, seat)


def test_endgame_gives_up_at_its_node_limit_and_leaves_the_position() -> None:
    state = late_position("duo", 1, 120)
    before = snapshot(state)
    with pytest.raises(EndgameUnsolved):
        solve_endgame(state, max_nodes=300)
    assert snapshot(state) == before


def test_endgame_refuses_more_than_two_seats_and_the_end() -> None:
    with pytest.raises(ValueError, match="two seats"):
        solve_endgame(BlokusState("classic"))
    state = late_position("duo", 0, 9)
    while state.current_player() != TERMINAL:
        state.apply(state.legal_actions()[0])
    with pytest.raises(ValueError, match="over"):
        solve_endgame(state)


def test_bot_with_the_endgame_knob_plays_a_proved_move() -> None:
    state = late_position("duo", 2, 40)
    seat = state.current_player()
    bot = FastMCTSBot(iterations=300, knobs={"endgame": 1.0})
    move = bot.choose(state, random.Random(0))
    proof = bot.last_endgame
    if proof is None:  # a lost position: MCTS chose; the proof says the margin is below 0
        assert solve_endgame(state).margin < 0
        return
    assert move.index == proof.placement
    state.apply(move)
    assert -solve_endgame(state).margin == proof.margin if state.current_player() != seat else True
    again = FastMCTSBot(iterations=300, knobs={"endgame": 1.0})
    state.undo()
    assert again.choose(state, random.Random(0)) == move  # deterministic with an iteration budget


def test_unknown_knob_names_the_endgame_knob() -> None:
    with pytest.raises(ValueError, match="endgame"):
        FastMCTSBot(knobs={"nonsense": 1.0})
    assert np.isfinite(FastMCTSBot(knobs={"endgame": 0.0}).iterations or 0)


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 9])
def test_windowed_searches_sharing_one_table_keep_the_fail_soft_bounds(seed: int) -> None:
    """Null and narrow windows, one after another on one transposition table (as a search re-visits positions
    with other windows): each answer is a true bound, or the value itself inside the window. Seed 9 is one
    where a table that took every stored bound as exact answers wrongly."""
    from solvers.blokus.endgame import _Search

    state = late_position("duo", seed, 24)
    true = minimax(state, state.current_player())
    search = _Search(state, 10**7, None)
    rng = random.Random(seed)
    fixed = [(true + 3, true + 4), (true - 4, true - 3), (true - 1, true + 1), (true, true + 1),
             (true - 1, true), (-99, 99), (true + 1, true + 2), (true - 2, true - 1)]
    drawn = [(low, low + rng.choice([1, 1, 2, 5])) for low in (true + rng.randint(-8, 8) for _ in range(30))]
    for low, high in fixed + drawn:
        got = search.value(low, high)[0]
        if got <= low:
            assert true <= got, (low, high, got, true)
        elif got >= high:
            assert true >= got, (low, high, got, true)
        else:
            assert got == true, (low, high, got, true)
