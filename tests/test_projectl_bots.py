"""Project L bots and the play/playout/generate-deck commands (smoke in the default suite, statistics under slow)."""

from __future__ import annotations

import json
import random

import pytest

from puzzles.projectl.cards import parse_deck
from puzzles.projectl.engine import new_game
from solvers.projectl.bots import GreedyBot, MCTSBot, make_bot, play_match, playout_series
from solvers.projectl.deckgen import DEFAULT_SEED, deck_text


def test_greedy_games_conserve_and_finish() -> None:
    for rules in ("classic", "revised"):
        st = new_game(3, 4, rules=rules)
        total = st.piece_totals()
        rng = random.Random(4)
        bots = [GreedyBot(), GreedyBot(), GreedyBot()]
        while not st.is_terminal():
            st.apply(bots[st.player].choose(st, rng))
            assert st.piece_totals() == total
        assert st.end_reason == "deck exhausted"
        assert sum(st.scores()) > 40


def test_greedy_beats_random_smoke() -> None:
    result = playout_series(["greedy", "random"], 6, seed=3)
    assert result["games"] == 6
    assert result["bots"][0]["win_rate"] == 1.0
    assert result["bots"][0]["mean_score"] > 30 > result["bots"][1]["mean_score"]


def test_mcts_plays_legal_game_smoke() -> None:
    st = new_game(2, 1)
    play_match(st, [MCTSBot(iterations=4), GreedyBot()], 1)
    assert st.is_terminal() and max(st.scores()) > 20


def test_solo_greedy_smoke() -> None:
    result = playout_series(["greedy"], 3, seed=0, solo=True, difficulty="unbeatable")
    assert result["games"] == 3 and result["opponent_mean_score"] > 0


def test_make_bot_rejects_unknown() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("genius")
    assert make_bot("mcts:8").iterations == 8


def test_greedy_finishes_what_it_can() -> None:
    cards = parse_deck(
        "W01 2 I2\n##...\n.....\n.....\n.....\n.....\n\n"
        + "\n\n".join(f"W{i:02d} 0 O1\n#....\n.....\n.....\n.....\n....." for i in range(2, 6))
        + "\n\n"
        + "\n\n".join(f"B{i:02d} 3 O1\n###..\n.....\n.....\n.....\n....." for i in range(1, 6))
    )
    st = new_game(2, 0, cards=cards)
    w01 = next(i for i, c in enumerate(st.cards) if c.id == "W01")
    st.puzzles[0].append([w01, st.cards[w01].recess, []])
    for row in (st.white_row, st.black_row):
        if w01 in row:
            row[row.index(w01)] = -1
    if w01 in st.white_deck:
        st.white_deck.remove(w01)
    action = GreedyBot().choose(st, random.Random(0))
    assert action[0] == "place" and action[2] == 1  # the I2 finishes W01 at once


# --------------------------------------------------------------------------
# CLI
# --------------------------------------------------------------------------


def test_cli_playout_json(run_cli) -> None:
    result = run_cli("projectl", "playout", "--games", "4", "--bots", "greedy,random", "--seed", "2", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 4 and data["bots"][0]["seat_bot"] == "greedy" and data["bots"][0]["win_rate"] == 1.0
    again = json.loads(run_cli("projectl", "playout", "--games", "4", "--bots", "greedy,random", "--seed", "2", "--json").output)
    assert again == data
    bad = run_cli("projectl", "playout", "--bots", "greedy,wizard")
    assert bad.exit_code != 0 and "unknown bot" in bad.output


def test_cli_play_human_seat(run_cli) -> None:
    result = run_cli("projectl", "play", "--bots", "human,greedy", "--seed", "2", input="help\ntake W 0\nupgrade O1 I4\nquit\n")
    assert result.exit_code == 0, result.output
    assert "legal kinds" in result.output
    assert "illegal: O1 may become another shape of its level, one level higher, not I4" in result.output
    assert "stopped" in result.output


def test_cli_play_bots_only_json(run_cli) -> None:
    result = run_cli("projectl", "play", "--bots", "greedy,greedy", "--seed", "5", "--json")
    data = json.loads(result.output)
    assert result.exit_code == 0 and data["end"] == "deck exhausted" and len(data["scores"]) == 2


def test_cli_generate_deck(run_cli, tmp_path) -> None:
    out = tmp_path / "deck.txt"
    result = run_cli("projectl", "generate-deck", "--seed", str(DEFAULT_SEED), "--out", str(out))
    assert result.exit_code == 0 and out.read_text() == deck_text(DEFAULT_SEED)
    data = json.loads(run_cli("projectl", "generate-deck", "--seed", "9", "--json").output)
    assert data["statistics"]["black"]["count"] == 20 and len(data["cards"]) == 52


# --------------------------------------------------------------------------
# statistics (slow): run with  pytest -m slow tests/test_projectl_bots.py
# --------------------------------------------------------------------------


@pytest.mark.slow
def test_greedy_beats_random_200_games() -> None:
    result = playout_series(["greedy", "random"], 200, seed=100)
    print(result)
    assert result["bots"][0]["win_rate"] >= 0.90


@pytest.mark.slow
def test_mcts_beats_greedy_200_games() -> None:
    result = playout_series(["mcts:12", "greedy"], 200, seed=200)
    print(result)
    assert result["bots"][0]["win_rate"] >= 0.55


@pytest.mark.slow
@pytest.mark.parametrize("difficulty", ["normal", "hard", "unbeatable"])
def test_solo_greedy_win_rate_reported(difficulty) -> None:
    result = playout_series(["greedy"], 200, seed=300, solo=True, difficulty=difficulty)
    print(difficulty, result)
    assert result["games"] == 200
