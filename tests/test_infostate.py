"""Information states in the game layer: ``information_state_string`` / ``information_state_tensor``."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from puzzles import GAMES
from puzzles.game import InformationStateUnavailableError
from puzzles.towers.engine import Pass, Place, TowersState
from puzzles.towers.infostate import TENSOR_SIZE, public_placements


def _random_towers_states(seed: int) -> list[TowersState]:
    """Every state of one random tower game (chance nodes included), in order."""
    rng = random.Random(seed)
    state = TowersState.new_game(seed)
    states = [state.clone()]
    while not state.is_terminal():
        state.apply(state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
        states.append(state.clone())
    return states


def _towers_at(seed: int, stop: int) -> TowersState:
    """The state ``stop`` actions into the random game of ``seed`` (the last one if it ends before)."""
    states = _random_towers_states(seed)
    return states[min(stop, len(states) - 1)]


def test_which_games_declare_information_states() -> None:
    assert {name for name, info in GAMES.items() if info.has_information_state} == {"towers", "projectl"}


@pytest.mark.parametrize("name,options", [("blokus", {"variant": "duo"}), ("shelfie", {})])
def test_a_game_without_information_states_says_so(name: str, options: dict) -> None:
    state = GAMES[name].new_game(2, **options)
    for call in (lambda: state.information_state_string(0), lambda: state.information_state_tensor(0),
                 state.information_state_tensor_shape):
        with pytest.raises(InformationStateUnavailableError, match="has no information-state support"):
            call()


def test_towers_tensor_shape_and_type() -> None:
    state = _towers_at(1, 80)
    assert state.information_state_tensor_shape() == (TENSOR_SIZE,) == (4011,)
    tensor = state.information_state_tensor(1)
    assert tensor.dtype == np.float32 and tensor.shape == (4011,)


@pytest.mark.parametrize("stop", [5, 30, 50, 70, 95, 120])
def test_towers_infostate_hides_the_opponents_stones(stop: int) -> None:
    """Two states that differ only in seat 1's hidden stones: equal for seat 0, different for seat 1."""
    state = _towers_at(2, stop)
    other = state.resample(0, random.Random(stop))
    assert other.private_json(1) != state.private_json(1)
    assert other.information_state_string(0) == state.information_state_string(0)
    assert np.array_equal(other.information_state_tensor(0), state.information_state_tensor(0))
    assert other.information_state_string(1) != state.information_state_string(1)
    assert not np.array_equal(other.information_state_tensor(1), state.information_state_tensor(1))


def test_towers_placements_are_read_from_the_public_log() -> None:
    rng = random.Random(5)
    state = TowersState.new_game(5)
    played: list[Place | Pass] = []
    while not state.is_terminal():
        action = state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        if isinstance(action, Place | Pass):
            played.append(action)
        state.apply(action)
    assert public_placements(state.public_json()["log"]) == played
    tensor = state.information_state_tensor(0)
    block = tensor[1239 + 72 + 192 : 1239 + 72 + 192 + 36 * 45].reshape(36, 45)
    for slot, action in zip(block, played, strict=False):
        if isinstance(action, Pass):
            assert slot[0] == 1 and slot.sum() == 1
        else:
            assert slot[1 + action.stone] == 1 and slot[38 + action.tower] == 1 and slot[44] == action.replace
            assert slot.sum() == 2 + action.replace
    assert block[len(played):].sum() == 0


@pytest.mark.parametrize("seeds", [range(4), pytest.param(range(4, 40), marks=pytest.mark.slow)])
def test_towers_tensor_and_string_name_the_same_information_states(seeds: range) -> None:
    """Over every state of random games and both seats: equal strings <=> equal tensors."""
    by_string: dict[str, bytes] = {}
    by_tensor: dict[bytes, str] = {}
    for seed in seeds:
        for state in _random_towers_states(seed):
            for seat in (0, 1):
                text, tensor = state.information_state_string(seat), state.information_state_tensor(seat).tobytes()
                assert by_string.setdefault(text, tensor) == tensor
                assert by_tensor.setdefault(tensor, text) == text
    assert len(by_string) > 100 * len(seeds)


def _random_projectl(players: int, seed: int, moves: int, **options: object) -> Any:
    rng = random.Random(seed)
    state = GAMES["projectl"].new_game(players, seed, **options)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("players,moves", [(1, 10), (2, 0), (2, 150), (3, 400)])
def test_projectl_infostate_does_not_see_the_deck_order(players: int, moves: int) -> None:
    state = _random_projectl(players, moves, moves)
    other = state.resample(0, random.Random(1))
    assert other.to_json() != state.to_json()  # the decks really were reshuffled
    assert state.information_state_tensor_shape() == (GAMES["projectl"].new_game(players).information_state_tensor_shape())
    for seat in range(players):
        assert other.information_state_string(seat) == state.information_state_string(seat)
        assert np.array_equal(other.information_state_tensor(seat), state.information_state_tensor(seat))
        assert '"history":' in state.information_state_string(seat)


@pytest.mark.parametrize("rules,moves", [("classic", 200), ("revised", 300)])
def test_projectl_tensor_says_which_cards_left_the_decks(rules: str, moves: int) -> None:
    state = _random_projectl(2, 4, moves, rules=rules)
    cards = state.information_state_tensor(1)[-2 * 52:].reshape(52, 2)
    assert set(np.flatnonzero(cards[:, 0]).tolist()) == state._seen_cards()
    bottoms = {c: (k + 1) / 30 for deck, known in ((state.white_deck, state.white_known),
                                                    (state.black_deck, state.black_known)) for k, c in enumerate(deck[:known])}
    assert {int(c): float(v) for c, v in enumerate(cards[:, 1]) if v} == pytest.approx(bottoms)
