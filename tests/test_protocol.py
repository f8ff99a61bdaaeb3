"""Every registered game, at every player count, keeps the game-layer protocol at every step of random games.

At each step: JSON round trip, clone independence, action-text round trip,
illegal actions refused with the state unchanged, chance outcomes summing to 1
(or sampling declared), undo back to the state before (where declared),
``resample`` consistent with the observation; returns at the end.
"""

from __future__ import annotations

import json
import math
import random
from typing import Any

import pytest

from puzzles.game import CHANCE, GAMES, TERMINAL, ChanceMode, GameState, IllegalActionError, Information

CASES = [(name, players) for name, info in GAMES.items() for players in info.player_counts]
TEXT_SAMPLES = 12  # legal actions whose text round trip is checked at each step
MAX_STEPS = 2000


def _snapshot(state: GameState[Any]) -> str:
    return state.dumps()


def _check_json(state: GameState[Any]) -> None:
    data = json.loads(state.dumps())
    again = type(state).from_json(data)
    assert again == state
    assert again.dumps() == state.dumps()


def _check_clone(state: GameState[Any], action: Any) -> None:
    before = _snapshot(state)
    copy = state.clone()
    copy.apply(action)
    assert _snapshot(state) == before, "applying to a clone changed the original"


def _check_text(state: GameState[Any], legal: list[Any], rng: random.Random) -> None:
    for action in rng.sample(legal, min(TEXT_SAMPLES, len(legal))):
        text = state.action_to_string(action)
        assert isinstance(text, str) and text
        assert state.string_to_action(text) == action
        hash(action)  # actions are hashable values


def _check_illegal(state: GameState[Any], legal: list[Any], seen: list[Any]) -> bool:
    """Try an action that was legal somewhere earlier but is not legal now; True if one was tried."""
    legal_set = set(legal)
    for action in reversed(seen):
        if action in legal_set:
            continue
        before = _snapshot(state)
        assert state.illegal_reason(action) is not None
        with pytest.raises(IllegalActionError):
            state.apply(action)
        assert _snapshot(state) == before, "a refused action changed the state"
        return True
    return False


def _check_chance(state: GameState[Any], rng: random.Random) -> Any:
    mode = state.info.chance
    assert mode is not ChanceMode.NONE, "a chance node in a game that declares no chance"
    if mode is ChanceMode.EXPLICIT:
        outcomes = state.chance_outcomes()
        assert outcomes
        assert math.isclose(sum(p for _, p in outcomes), 1.0, abs_tol=1e-9)
        assert all(p > 0 for _, p in outcomes)
    else:
        assert state.chance_outcomes() == []
        assert state.legal_actions() == []
    return state.sample_chance(rng)


def _check_undo(state: GameState[Any], action: Any) -> None:
    before = _snapshot(state)
    state.apply(action)
    state.undo()
    assert _snapshot(state) == before


def _check_resample(state: GameState[Any], rng: random.Random) -> None:
    for player in range(state.num_players):
        draw = state.resample(player, random.Random(rng.random()))
        assert draw.observation(player) == state.observation(player)
        assert type(draw).from_json(json.loads(draw.dumps())) == draw
        if state.info.information is Information.PERFECT:
            assert draw == state


@pytest.mark.parametrize(("game", "players"), CASES)
def test_random_game_keeps_the_protocol(game: str, players: int) -> None:
    info = GAMES[game]
    rng = random.Random(players)
    state = info.new_game(players, seed=players)
    assert state.num_players == players
    assert info.new_game(players, seed=players) == state, "new_game is not deterministic for a seed"
    seen: list[Any] = []
    illegal_tried = steps = 0
    while not state.is_terminal():
        steps += 1
        assert steps < MAX_STEPS
        _check_json(state)
        _check_resample(state, rng)
        player = state.current_player()
        if player == CHANCE:
            action = _check_chance(state, rng)
        else:
            assert 0 <= player < players
            legal = state.legal_actions()
            assert legal, "a player to move with no legal action"
            _check_text(state, legal, rng)
            illegal_tried += _check_illegal(state, legal, seen)
            seen.extend(legal[:8])
            action = rng.choice(legal)
            assert state.illegal_reason(action) is None
        _check_clone(state, action)
        if info.has_undo:
            _check_undo(state, action)
        state.apply(action)
    assert state.current_player() == TERMINAL
    _check_json(state)
    returns, scores = state.returns(), state.scores()
    assert len(returns) == len(scores) == players
    assert all(0.0 <= r <= 1.0 for r in returns)
    assert illegal_tried > 0


@pytest.mark.parametrize("game", list(GAMES))
def test_new_game_refuses_bad_parameters(game: str) -> None:
    info = GAMES[game]
    with pytest.raises(ValueError, match="players"):
        info.new_game(info.max_players + 1)
    with pytest.raises(ValueError, match="no option"):
        info.new_game(info.default_players, 0, no_such_option=1)


@pytest.mark.parametrize("game", list(GAMES))
def test_states_are_not_hashable(game: str) -> None:
    state = GAMES[game].new_game()
    with pytest.raises(TypeError):
        hash(state)
