"""No bot of a hidden-information game reads what its seat cannot see.

For every bot of every imperfect-information game and at least 50 positions
each: the real position and a redraw of everything the mover cannot see
(``resample``: same observation for the mover, other hidden cards) must lead
to the same action with the same seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from puzzles.game import CHANCE, GAMES, GameState, Information
from solvers.bots import bot_factories, make_bot

POSITIONS = 50
CHEAP_BUDGET = 8  # a small budget keeps search bots fast; peeking shows at any budget
HIDDEN_GAMES = [name for name, info in GAMES.items() if info.information is Information.IMPERFECT]
CASES = [(game, bot) for game in HIDDEN_GAMES for bot in bot_factories(game) if bot != "human"]


def _spec(game: str, bot: str) -> str:
    """``bot:8`` where the bot takes a budget, else the bare name."""
    try:
        make_bot(game, f"{bot}:{CHEAP_BUDGET}")
    except ValueError:
        return bot
    return f"{bot}:{CHEAP_BUDGET}"


def positions(game: str, count: int, keep: Callable[[Any], bool] = lambda state: True) -> list[GameState[Any]]:
    """``count`` decision positions (more than one legal action, ``keep`` holding) from seeded random games."""
    info = GAMES[game]
    found: list[GameState[Any]] = []
    seed = 0
    while len(found) < count:
        rng = random.Random(seed)
        state = info.new_game(None, seed)
        take_every = 1 + seed % 4
        step = 0
        while not state.is_terminal() and len(found) < count:
            if state.current_player() == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            step += 1
            if len(legal) > 1 and step % take_every == 0 and keep(state):
                found.append(state.clone())
            state.apply(rng.choice(legal))
        seed += 1
    return found


def _is_round_6_announcement(state: Any) -> bool:
    from puzzles.towers.engine import Announce

    return bool(state.round == 5 and state.phase == "pick" and isinstance(state.legal_actions()[0], Announce))


def _cheap_for(game: str, bot: str) -> Callable[[Any], bool]:
    """Which positions to check: all, except round 6's announcements for ``equilibrium``, which solves two whole
    subgames there (seconds each); :func:`test_equilibrium_bot_announces_round_6_only_from_what_its_seat_sees`
    checks those, for both seats."""
    if (game, bot) == ("towers", "equilibrium"):
        return lambda state: not _is_round_6_announcement(state)
    return lambda state: True


@pytest.mark.parametrize(("game", "bot"), CASES)
def test_bot_decides_only_from_what_its_seat_sees(game: str, bot: str) -> None:
    spec = _spec(game, bot)
    hidden_differs = 0
    for index, state in enumerate(positions(game, POSITIONS, _cheap_for(game, bot))):
        mover = state.current_player()
        other = state.resample(mover, random.Random(10_000 + index))
        assert other.observation(mover) == state.observation(mover)
        hidden_differs += other != state
        real = make_bot(game, spec).choose(state.clone(), random.Random(index))
        redrawn = make_bot(game, spec).choose(other.clone(), random.Random(index))
        assert real == redrawn, f"{spec} at position {index}: {real} vs {redrawn} after redrawing hidden information"
    assert hidden_differs >= POSITIONS // 2, "the redraws hardly changed the hidden information"


def _greedy_game_redrawn(seed: int, wanted: Callable[[Any], bool]) -> Iterator[tuple[Any, Any]]:
    """Each position of a greedy Rainbow Blackjack game (``seed``) where ``wanted`` holds, beside it with the
    mover's hidden information redrawn (the mover sees no difference, the state differs); then the greedy move."""
    from puzzles.towers import TowersState
    from solvers.towers.bots import GreedyBot

    state, rng, index = TowersState.new_game(seed), random.Random(seed), 0
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        if wanted(state):
            mover = state.current_player()
            other = state.resample(mover, random.Random(seed + index))
            assert other.observation(mover) == state.observation(mover) and other != state
            yield state, other
            index += 1
        state.apply(GreedyBot().choose(state, rng))


@pytest.mark.parametrize("resolve", [False, True], ids=["solved-once", "re-solving"])
def test_equilibrium_bot_in_round_6_decides_only_from_what_its_seat_sees(resolve: bool) -> None:
    """The random positions above rarely reach round 6, where ``equilibrium`` plays its solved subgame (or, with
    ``resolve``, the subgame re-solved at each placement): check there."""
    from solvers.towers.bots import EquilibriumBot

    checked = 0
    for seed in (2, 4, 6, 12):  # greedy games whose round-6 subgames solve in a fraction of a second
        placing = _greedy_game_redrawn(
            seed, lambda s: s.round == 5 and s.phase == "place" and len(s.legal_actions()) > 1)
        for state, other in placing:
            real = EquilibriumBot(resolve=resolve).choose(state.clone(), random.Random(checked))
            redrawn = EquilibriumBot(resolve=resolve).choose(other.clone(), random.Random(checked))
            assert real == redrawn, f"seed {seed}: {real} vs {redrawn} after redrawing hidden information"
            checked += 1
    assert checked >= 12


def test_equilibrium_bot_announces_round_6_only_from_what_its_seat_sees() -> None:
    """Round 6's announcements, solved by ``equilibrium`` (both seats, a greedy game whose subgames are small: of
    the seeds whose players hold the fewest possible hands there, 6's two subgames are among the fastest: ~3 s)."""
    from solvers.towers.bots import EquilibriumBot

    checked = 0
    announcing = _greedy_game_redrawn(6, _is_round_6_announcement)
    for state, other in announcing:
        assert EquilibriumBot().announcement(state.clone()) is not None  # solved, not ismcts's rule
        real = EquilibriumBot(iterations=8).choose(state.clone(), random.Random(checked))
        redrawn = EquilibriumBot(iterations=8).choose(other.clone(), random.Random(checked))
        assert real == redrawn, f"P{state.current_player() + 1}: {real} vs {redrawn} after redrawing hidden information"
        checked += 1
    assert checked == 2
