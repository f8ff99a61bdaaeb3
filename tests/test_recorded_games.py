"""The recorded games (``tests/recorded_games.py``) replay move for move: same seeds, same bots, same games.

The default suite replays the first games of every game (each line-up at least twice) and the
playout totals; ``-m slow`` replays all 200 games of each.
"""

from __future__ import annotations

import pytest

from tests.recorded_games import LINE_UPS, PLAYOUT_RUNS, LineUp, load, play_recorded, playout_totals

SMOKE_GAMES = 12


def _check_games(game: str, count: int | None) -> None:
    recorded = load(game)["games"][:count]
    assert len(recorded) == (count or 200)
    for old in recorded:
        new = play_recorded(game, old["seed"], LineUp(tuple(old["bots"]), old["options"]))
        assert new["actions"] == old["actions"], f"{game} seed {old['seed']} {old['bots']}: moves differ"
        assert new["scores"] == old["scores"], f"{game} seed {old['seed']} {old['bots']}: scores differ"


@pytest.mark.parametrize("game", sorted(LINE_UPS))
def test_recorded_games_replay(game: str) -> None:
    _check_games(game, SMOKE_GAMES)


@pytest.mark.parametrize("game", sorted(LINE_UPS))
def test_recorded_playout_totals(game: str) -> None:
    recorded = load(game)["playouts"]
    assert len(recorded) == len(PLAYOUT_RUNS[game])
    for old, run in zip(recorded, PLAYOUT_RUNS[game]):
        assert playout_totals(game, *run) == old


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(LINE_UPS))
def test_all_recorded_games_replay(game: str) -> None:
    _check_games(game, None)
