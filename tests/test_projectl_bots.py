"""Project L bots and the play/playout/generate-deck commands (smoke in the default suite, statistics under slow)."""

from __future__ import annotations

import json
import random

import pytest

from puzzles.projectl.cards import SHAPE_INDEX, parse_deck
from puzzles.projectl.engine import MASTER, MASTER_END, MasterPlace, Place, ProjectLState
from solvers.bots import make_bot
from solvers.mcts import MCTSBot
from solvers.playout import play_game, run_playouts
from solvers.projectl.bots import GreedyBot
from solvers.projectl.deckgen import DEFAULT_SEED, deck_text
from tests.projectl_helpers import deck_order_shuffled

new_game = ProjectLState.new_game


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
    result = run_playouts("projectl", ["greedy", "random"], 6, seed=3).summary()
    assert result["games"] == 6
    assert result["bots"][0]["win_rate"] == 1.0
    assert result["bots"][0]["mean_score"] > 30 > result["bots"][1]["mean_score"]


def test_mcts_plays_legal_game_smoke() -> None:
    st = new_game(2, 1)
    play_game(st, [make_bot("projectl", "mcts:4"), GreedyBot()], random.Random(1))
    assert st.is_terminal() and max(st.scores()) > 20


def test_solo_greedy_smoke() -> None:
    """One seat: the solo variant; a win is a strictly higher score than the automated opponent's."""
    stats = run_playouts("projectl", ["greedy"], 3, seed=0, players=1, options={"difficulty": "unbeatable"})
    result = stats.summary()
    assert result["games"] == 3 and len(result["bots"]) == 1 and result["bots"][0]["mean_score"] > 0
    st = new_game(1, 0, solo=True, difficulty="unbeatable")
    play_game(st, [GreedyBot()], random.Random(0))
    assert st.opponent_score() > 0
    assert st.returns() == [1.0 if st.scores()[0] > st.opponent_score() else 0.0]


def test_make_bot_names_and_budgets() -> None:
    with pytest.raises(ValueError, match="unknown projectl bot"):
        make_bot("projectl", "genius")
    bot = make_bot("projectl", "mcts:8")
    assert isinstance(bot, MCTSBot) and bot.iterations == 8 and bot.determinize and bot.name == "mcts:8"
    timed = make_bot("projectl", "mcts:0.5s")
    assert isinstance(timed, MCTSBot) and timed.seconds == 0.5 and timed.iterations is None
    assert make_bot("projectl", "greedy").name == "greedy"


def test_mcts_does_not_read_the_deck_order() -> None:
    """Same public position, decks in another order: the same action (the old bot differed in ~1/3)."""
    st = new_game(2, 12)
    rng = random.Random(12)
    greedy = GreedyBot()
    checked = 0
    while not st.is_terminal() and checked < 12:
        if st.phase == "play" and not st.in_master and len(st.history) % 5 == 0:
            other = deck_order_shuffled(st, len(st.history))
            if other.white_deck != st.white_deck or other.black_deck != st.black_deck:
                real = make_bot("projectl", "mcts:6").choose(st.clone(), random.Random(checked))
                redrawn = make_bot("projectl", "mcts:6").choose(other, random.Random(checked))
                assert real == redrawn
                checked += 1
        st.apply(greedy.choose(st, rng))
    assert checked >= 8


def test_greedy_plans_master_by_position() -> None:
    """A Master plan is replayed only at the positions it was made for, so one planner serves a whole search."""
    st = new_game(2, 3)
    rng = random.Random(3)
    greedy = GreedyBot()
    for _ in range(400):
        if st.is_terminal():
            break
        action = greedy.choose(st, rng)
        if action == MASTER:
            assert GreedyBot().choose(st.clone(), rng) == MASTER
            after = st.clone()
            after.apply(action)
            assert isinstance(greedy.choose(after.clone(), rng), MasterPlace)  # the plan, on a copy
            assert GreedyBot().choose(after, rng) == MASTER_END  # a planner that made no plan ends Master
            break
        st.apply(action)
    else:
        pytest.fail("no Master action in 400 greedy moves")


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
    assert isinstance(action, Place) and action.shape == SHAPE_INDEX["I2"]  # the I2 finishes W01 at once


# --------------------------------------------------------------------------
# CLI
# --------------------------------------------------------------------------


def test_cli_playout_json(run_cli) -> None:
    result = run_cli("projectl", "playout", "--games", "4", "--bots", "greedy,random", "--seed", "2", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 4 and data["bots"][0]["bot"] == "greedy" and data["bots"][0]["win_rate"] == 1.0
    again = json.loads(run_cli("projectl", "playout", "--games", "4", "--bots", "greedy,random", "--seed", "2", "--json").output)
    assert again == data
    bad = run_cli("projectl", "playout", "--bots", "greedy,wizard")
    assert bad.exit_code != 0 and "unknown projectl bot" in bad.output
    solo = json.loads(run_cli("projectl", "playout", "--games", "2", "--players", "1", "--bots", "greedy",
                              "--difficulty", "hard", "--json").output)
    assert solo["games"] == 2 and len(solo["bots"]) == 1


def test_cli_play_human_seat(run_cli) -> None:
    result = run_cli("projectl", "play", "--bots", "human,greedy", "--seed", "2", input="?\nfly\nupgrade O1 I4\n")
    assert "upgrade O1 I2" in result.output  # '?' lists the legal actions
    assert "cannot read action 'fly'" in result.output
    assert "O1 may become another shape of its level, one level higher, not I4" in result.output
    assert result.exit_code == 130 and "game interrupted" in result.output  # the input ran out


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
    result = run_playouts("projectl", ["greedy", "random"], 200, seed=100).summary()
    print(result)
    assert result["bots"][0]["win_rate"] >= 0.90


@pytest.mark.slow
def test_mcts_beats_greedy_200_games() -> None:
    """The MCTS searches redrawn decks (it cannot see their order) and still beats greedy, seats rotated."""
    result = run_playouts("projectl", ["mcts:12", "greedy"], 200, seed=200).summary()
    print(result)
    assert result["bots"][0]["win_rate"] >= 0.55


@pytest.mark.slow
@pytest.mark.parametrize("difficulty", ["normal", "hard", "unbeatable"])
def test_solo_greedy_win_rate_reported(difficulty) -> None:
    result = run_playouts("projectl", ["greedy"], 200, seed=300, players=1,
                          options={"difficulty": difficulty}).summary()
    print(difficulty, result)
    assert result["games"] == 200


def test_table_cards_are_drawn_as_grids(run_cli) -> None:
    from puzzles.projectl.cards import card_text
    from puzzles.projectl.engine import new_game

    state = new_game(2, seed=0)
    result = run_cli("projectl", "play", "--bots", "human,greedy", input="quit\n")
    assert result.exit_code == 0 and "game stopped (quit)" in result.output
    first = state.cards[state.white_row[0]]
    assert f"W0:{first.id} {first.points}p +{first.reward}" in result.output
    grid = card_text(first, coords=False).splitlines()[1:]
    rows = [line for line in result.output.splitlines() if line.startswith("     ")]
    assert all(any(line[4:].startswith(g) for line in rows) for g in grid)
