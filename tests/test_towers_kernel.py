"""The compiled rules behind ``TowersState`` against the plain-Python reference rules (tests/towers_reference.py).

Seeded random games are played in both side by side: the same legal actions in
the same order, the same chance draws from the same random stream, the same JSON
after every action, the same reasons for illegal actions, the same results.
"""

from __future__ import annotations

import random

import pytest

from puzzles.game import CHANCE
from puzzles.towers import TowersState
from tests import towers_reference as R


def _texts(actions: list[object]) -> list[str]:
    return [str(a) for a in actions]


def _probe_reasons(a: TowersState, b: R.TowersState) -> None:
    """Every placement, line and announcement text gets the same verdict and reason in both engines."""
    texts = ["row1", "row2", "col1", "col3", "colors", "numbers", "pass", "draw R1", "draw J"]
    texts += [f"{s}{sep}{t}" for s in ("R1", "R6", "O4", "B3", "J") for sep in (">", "x") for t in "ROYGBP"]
    for text in texts:
        assert a.illegal_reason(a.string_to_action(text)) == b.illegal_reason(b.string_to_action(text)), text


def play_both(seed: int, probe: bool = False) -> tuple[TowersState, R.TowersState]:
    """One seeded random game in both engines, compared after every action."""
    rng_a, rng_b = random.Random(seed), random.Random(seed)
    a, b = TowersState.new_game(seed), R.TowersState.new_game(seed)
    assert a.to_json() == b.to_json()
    while not b.is_terminal():
        assert a.current_player() == b.current_player()
        assert _texts(a.legal_actions()) == _texts(b.legal_actions())
        assert [(str(x), p) for x, p in a.chance_outcomes()] == [(str(x), p) for x, p in b.chance_outcomes()]
        if probe:
            _probe_reasons(a, b)
        if b.current_player() == CHANCE:
            x, y = a.sample_chance(rng_a), b.sample_chance(rng_b)
        else:
            x, y = rng_a.choice(a.legal_actions()), rng_b.choice(b.legal_actions())
        assert str(x) == str(y)
        a.apply(x)
        b.apply(y)
        assert a.to_json() == b.to_json()
    assert a.is_terminal()
    assert (a.scores(), a.returns(), a.result_text()) == (b.scores(), b.returns(), b.result_text())
    return a, b


@pytest.mark.parametrize("games", [62, pytest.param(150, marks=pytest.mark.slow)])
def test_kernel_plays_like_the_reference_in_random_games(games: int) -> None:
    """Seeds 0..games-1 (the default's 62 end with seed 61, the first game won instantly)."""
    instant = 0
    for seed in range(games):
        a, _ = play_both(seed, probe=seed < 6)
        instant += a.instant
        assert TowersState.from_json(a.to_json()) == a
    assert instant > 0  # instant wins were among the games


def test_mid_game_saves_load_and_play_like_the_reference() -> None:
    rng = random.Random(5)
    for seed in range(10):
        a, b = TowersState.new_game(seed), R.TowersState.new_game(seed)
        while not b.is_terminal() and b.round < 2:
            x = rng.choice(b.legal_actions())
            b.apply(x)
            a.apply(a.string_to_action(b.action_to_string(x)))
            loaded = TowersState.from_json(b.to_json())
            assert loaded.to_json() == b.to_json()
            assert _texts(loaded.legal_actions()) == _texts(b.legal_actions())
