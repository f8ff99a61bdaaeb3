"""The recorded games (``tests/recorded_games.py``) replay move for move: same seeds, same bots, same games.

The default suite replays the first games of every game (each line-up at least once) and the
playout totals but one (Shelfie's three-player run with the lookahead bot); ``-m slow`` replays all 200 games
of each and that run.
"""

from __future__ import annotations

import pytest

from tests.recorded_games import LINE_UPS, PLAYOUT_RUNS, LineUp, load, play_recorded, playout_totals

SMOKE_GAMES = 6  # the most line-ups of a game: each line-up at least once


def _check_games(game: str, count: int | None) -> None:
    recorded = load(game)["games"][:count]
    assert len(recorded) == (count or 200)
    for old in recorded:
        new = play_recorded(game, old["seed"], LineUp(tuple(old["bots"]), old["options"]))
        assert new["actions"] == old["actions"], f"{game} seed {old['seed']} {old['bots']}: moves differ"
        assert new["scores"] == old["scores"], f"{game} seed {old['seed']} {old['bots']}: scores differ"


@pytest.mark.parametrize("game", sorted(LINE_UPS))
def test_recorded_games_replay(game: str) -> None:
    assert len(LINE_UPS[game]) <= SMOKE_GAMES  # every line-up of the game among the games replayed
    _check_games(game, SMOKE_GAMES)


#: The recorded playout runs; the one with Shelfie's lookahead bot (~8 CPU-s) runs with ``-m slow``.
RUNS = [pytest.param(game, index, id=f"{game}-{index + 1}",
                     marks=[pytest.mark.slow] if any(bot.startswith("lookahead") for bot in run[0]) else [])
        for game in sorted(LINE_UPS) for index, run in enumerate(PLAYOUT_RUNS[game])]


def test_every_playout_run_is_recorded() -> None:
    assert {game: len(load(game)["playouts"]) for game in LINE_UPS} == {g: len(r) for g, r in PLAYOUT_RUNS.items()}


@pytest.mark.parametrize(("game", "index"), RUNS)
def test_recorded_playout_totals(game: str, index: int) -> None:
    assert playout_totals(game, *PLAYOUT_RUNS[game][index]) == load(game)["playouts"][index]


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(LINE_UPS))
def test_all_recorded_games_replay(game: str) -> None:
    _check_games(game, None)
