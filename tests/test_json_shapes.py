"""One JSON key set per kind of command: every ``play`` and every ``playout``/``blokus match`` share their keys.

``play``: game, status, interrupted, seed, bots, options, moves, scores, returns (then the game's extras).
``playout`` and ``blokus match``: game, status, interrupted, seed, games, games_requested, bots (one row per
bot: bot, games, wins, win_rate, win_ci95, mean_score), seat_win_rates, time_limit (then their extras).
Seats, players and rounds in JSON are indices from 0.
"""

from __future__ import annotations

import json

import pytest

from puzzles.game import GAMES

PLAY_KEYS = ["game", "status", "interrupted", "seed", "bots", "options", "moves", "scores", "returns"]
SERIES_KEYS = ["game", "status", "interrupted", "seed", "games", "games_requested", "bots", "seat_win_rates",
               "time_limit"]
BOT_ROW_KEYS = ["bot", "games", "wins", "win_rate", "win_ci95", "mean_score"]
#: Per game: options that keep a game of random bots short.
SHORT = {"blokus": ["--variant", "duo"], "projectl": ["--max-rounds", "3"], "shelfie": [], "towers": []}


@pytest.mark.parametrize("game", list(GAMES))
def test_every_play_has_the_play_keys(run_cli, game: str) -> None:
    result = run_cli(game, "play", "--bots", "random", "--seed", "2", *SHORT[game], "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert list(data)[: len(PLAY_KEYS)] == PLAY_KEYS
    assert data["game"] == game and data["status"] == "complete" and data["interrupted"] is False
    assert data["seed"] == 2 and set(data["bots"]) == {"random"} and len(data["scores"]) == len(data["bots"])
    assert len(data["returns"]) == len(data["bots"]) and sum(data["returns"]) == pytest.approx(1.0)
    assert data["moves"] and all(isinstance(move, str) for move in data["moves"])


@pytest.mark.parametrize("game", list(GAMES))
def test_every_playout_has_the_series_keys(run_cli, game: str) -> None:
    result = run_cli(game, "playout", "--games", "2", "--bots", "random", "--seed", "4", *SHORT[game], "--json",
                     "--quiet")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(SERIES_KEYS) <= set(data)
    assert data["game"] == game and data["status"] == "complete" and data["interrupted"] is False
    assert data["seed"] == 4 and data["games"] == data["games_requested"] == 2 and data["time_limit"] is None
    assert all(list(row)[: len(BOT_ROW_KEYS)] == BOT_ROW_KEYS and row["games"] == 2 for row in data["bots"])
    assert sum(row["wins"] for row in data["bots"]) == pytest.approx(2.0)
    assert len(data["seat_win_rates"]) == len(data["bots"])


def test_blokus_match_has_the_series_keys(run_cli) -> None:
    """The opponent in-process (``--opponent-bot``: the same JSON as over GTP, without starting an engine process;
    the GTP opponent's match JSON: tests/test_blokus_match.py::test_match_command_json)."""
    result = run_cli("blokus", "match", "--variant", "duo", "--bots", "greedy", "--opponent-bot", "random",
                     "--games", "2", "--seed", "3", "--json", "--quiet")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert list(data)[: len(SERIES_KEYS)] == SERIES_KEYS
    assert data["game"] == "blokus" and data["status"] == "complete" and data["interrupted"] is False
    assert data["seed"] == 3 and data["games"] == data["games_requested"] == 2 and data["time_limit"] is None
    side_a, side_b = data["bots"]
    assert [list(row) for row in data["bots"]] == [BOT_ROW_KEYS, BOT_ROW_KEYS]
    assert side_a["bot"] == data["side_a"] and side_b["bot"] == data["side_b"]
    assert side_a["wins"] == data["wins"] + data["ties"] / 2 and side_a["wins"] + side_b["wins"] == 2
    assert side_a["win_rate"] == data["score"] and side_a["win_ci95"][0] <= side_a["win_rate"] <= side_a["win_ci95"][1]
    assert sum(data["seat_win_rates"]) == pytest.approx(1.0) and len(data["seat_win_rates"]) == 2
    assert "games_asked" not in data and "ci95" not in data


@pytest.mark.parametrize("game", list(GAMES))
def test_every_play_seats_a_human_by_default_and_its_help_names_the_bots(run_cli, game: str) -> None:
    from solvers.bots import bot_factories

    result = run_cli(game, "play", "--json", input="quit\n")
    data = json.loads(result.stdout)
    assert result.exit_code == 0 and data["status"] == "quit" and data["bots"][0] == "human"
    assert "human" not in data["bots"][1:] and len(data["bots"]) == GAMES[game].default_players
    names = ", ".join(bot_factories(game))
    assert f"Bots: {names}." in " ".join(run_cli(game, "play", "--help").output.split())
    playout_names = ", ".join(name for name in bot_factories(game) if name != "human")
    assert f"Bots: {playout_names}." in " ".join(run_cli(game, "playout", "--help").output.split())
