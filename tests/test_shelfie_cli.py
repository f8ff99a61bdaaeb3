"""The `kibitz shelfie` commands, in-process through click's runner."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

RULEBOOK = "PP...\nPPPP.\nFFPPB\nFGGGB\nFTCCC\nTTTCC\n"


def test_score_text_and_json(run_cli, tmp_path: Path) -> None:
    shelf = tmp_path / "shelf.txt"
    shelf.write_text("# the rulebook example\n" + RULEBOOK)
    result = run_cli("shelfie", "score", str(shelf), "--personal", "1", "--goals", "SIX_PAIRS,EIGHT_SAME")
    assert result.exit_code == 0 and "adjacency: 21 points" in result.output
    result = run_cli("shelfie", "score", str(shelf), "--personal", "1", "--json")
    data = json.loads(result.output)
    assert data["adjacency"] == 21 and data["personal_points"] == 4
    assert data["goals_met"]["SIX_PAIRS"] and not data["goals_met"]["DIAGONAL"] and len(data["goals_met"]) == 12
    assert data["total_without_tokens"] == 25


def test_score_rejects_bad_shelves_with_one_line(run_cli, tmp_path: Path) -> None:
    shelf = tmp_path / "bad.txt"
    shelf.write_text("P....\n.....\n.....\n.....\n.....\n.....\n")
    result = run_cli("shelfie", "score", str(shelf))
    assert result.exit_code == 1 and "above an empty cell" in result.output
    assert run_cli("shelfie", "score", str(shelf), "--loose").exit_code == 0
    shelf.write_text(RULEBOOK)
    bad = run_cli("shelfie", "score", str(shelf), "--goals", "SIX_PAIRS,NOPE")
    assert bad.exit_code == 1 and "unknown common goal" in bad.output
    assert run_cli("shelfie", "score", str(tmp_path / "missing.txt")).exit_code != 0


def test_playout_json(run_cli) -> None:
    result = run_cli("shelfie", "playout", "--games", "40", "--players", "2", "--bots", "greedy,random",
                     "--seed", "3", "--json")
    data = json.loads(result.output)
    assert data["games"] == 40 and data["bots"][0]["win_rate"] >= 0.9
    again = json.loads(run_cli("shelfie", "playout", "--games", "40", "--players", "2", "--bots", "greedy,random",
                               "--seed", "3", "--json").output)
    assert again["bots"] == data["bots"]  # seeded
    human = run_cli("shelfie", "playout", "--bots", "human")
    assert human.exit_code == 2 and "no human seats" in human.output  # a usage error of the generic command


def test_play_between_bots_and_with_a_human(run_cli) -> None:
    result = run_cli("shelfie", "play", "--players", "2", "--bots", "greedy,random", "--seed", "5", "--json")
    data = json.loads(result.output)
    assert result.exit_code == 0 and len(data["scores"]) == 2 and data["winner"] in (0, 1)
    # a human who types nonsense, asks for a hint, then quits
    result = run_cli("shelfie", "play", "--players", "2", "--bots", "human,greedy", "--seed", "5",
                     input="z9 1\nhint\nquit\n")
    assert "illegal:" in result.output and "best points now" in result.output
    assert result.exit_code == 0 and "game stopped (quit)" in result.output


def test_play_takes_the_game_options(run_cli) -> None:
    result = run_cli("shelfie", "play", "--players", "3", "--bots", "greedy,lookahead,random", "--seed", "2",
                     "--common-goals", "SIX_PAIRS,DIAGONAL", "--personal-cards", "4,5,6",
                     "--refill-rule", "four_or_fewer", "--json")
    data = json.loads(result.output)
    assert result.exit_code == 0 and data["common_goals"] == ["SIX_PAIRS", "DIAGONAL"]
    assert data["personal_cards"] == [4, 5, 6] and data["options"]["refill_rule"] == "four_or_fewer"
    bad = run_cli("shelfie", "play", "--bots", "greedy", "--common-goals", "SIX_PAIRS")
    assert bad.exit_code == 1 and "two different keys" in bad.output


def test_human_can_finish_a_game_with_hint_moves(run_cli) -> None:
    import random

    from puzzles.shelfie import new_game
    from solvers.shelfie.bots import GreedyBot

    # replay the same seeded game to know the human's legal moves in advance
    seed = 8
    state = new_game(2, seed=seed)
    rng = random.Random(seed)
    lines = []
    bot = GreedyBot()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        if state.current_player() == 0:
            move = state.legal_actions()[0]
            lines.append(str(move))
        else:
            move = bot.choose(state, rng)
        state.apply(move)
    result = run_cli("shelfie", "play", "--players", "2", "--bots", "human,greedy", "--seed", str(seed),
                     input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    assert "final scores" in result.output and f"P1 {int(state.scores()[0])}" in result.output


def test_best_shelf_command(run_cli) -> None:
    result = run_cli("shelfie", "best-shelf", "--personal", "3", "--goals", "STAIRCASE,EIGHT_SAME",
                     "--time-limit", "1", "--json")
    data = json.loads(result.output)
    assert result.exit_code == 0 and len(data["shelf"]) == 6
    assert data["score"] >= 30 and data["bound"] >= data["score"]
    assert run_cli("shelfie", "best-shelf", "--personal", "3", "--goals", "STAIRCASE").exit_code == 1


def test_best_shelf_time_limit_is_an_answer_with_its_status(run_cli) -> None:
    """A time-out is not an error: the best shelf, its bound and the status, in text and in JSON."""
    args = ["shelfie", "best-shelf", "--personal", "5", "--goals", "TWO_COLUMNS_ALL_DIFFERENT,X_SHAPE",
            "--time-limit", "0.5", "--seed", "1", "--threads", "1"]
    data = json.loads(run_cli(*args, "--json").output)
    assert data["status"] == "TIME_LIMIT" and data["optimal"] is False and data["seed"] == 1
    assert data["verdict"] == f"best found, bound {data['bound']:g} (time limit 0.5 s)"
    assert data["bound"] >= 58 >= data["score"]  # the optimum is 58 (bench/results/shelfie_best_shelf_all.tsv)
    text = run_cli(*args)
    assert text.exit_code == 0 and "best found, bound" in text.output and "Error" not in text.output


#: ``kibitz`` with a "ready" line on stderr once best-shelf's first CP-SAT piece is launched (a signal to wait
#: for instead of a fixed delay, which a cold numba cache or a loaded machine can outlast).
BEST_SHELF_READY = """
import sys
import solvers.shelfie.best_shelf as best_shelf
launch = best_shelf._PieceSearch.launch
def announced(self, *args, **kwargs):
    launch(self, *args, **kwargs)
    print("ready", file=sys.stderr, flush=True)
best_shelf._PieceSearch.launch = announced
from cli import main
main()
"""


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="needs process groups (POSIX)")
def test_best_shelf_ctrl_c_keeps_the_best_shelf(tmp_path) -> None:
    """Ctrl-C during the proof: no C++ abort (CP-SAT's own SIGINT handler is off), the best shelf, exit 130."""
    command = [sys.executable, "-c", BEST_SHELF_READY, "shelfie", "best-shelf", "--personal", "5",
               "--goals", "TWO_COLUMNS_ALL_DIFFERENT,X_SHAPE", "--json", "--quiet"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, cwd=tmp_path)
    err_lines: list[str] = []

    def read_stderr() -> None:
        for line in proc.stderr:
            err_lines.append(line)

    reader = threading.Thread(target=read_stderr, daemon=True)
    reader.start()
    started = time.monotonic()
    while "ready\n" not in err_lines:  # the first CP-SAT piece has started (the hill climb's shelf is kept)
        assert proc.poll() is None, "best-shelf ended before its proof started"
        assert time.monotonic() - started < 300, "best-shelf never started its proof"
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGINT)
    try:
        proc.wait(timeout=2)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("best-shelf did not stop within 2 s of Ctrl-C")
    out = proc.stdout.read()
    reader.join(10)
    err = "".join(err_lines)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "terminate" not in err
    data = json.loads(out)
    assert data["interrupted"] is True and data["status"] == "INTERRUPTED" and len(data["shelf"]) == 6
    assert data["score"] <= 58 <= data["bound"]


def test_the_human_sees_their_personal_card_drawn_and_what_the_goals_mean(run_cli) -> None:
    from puzzles.shelfie.engine import new_game
    from puzzles.shelfie.render import GOAL_TEXT, personal_card_text

    state = new_game(2, seed=0)
    result = run_cli("shelfie", "play", "--bots", "human,greedy", input="quit\n")
    card = state.personal_cards[0]
    assert f"your card {card}" in result.output and "0/6: 0 pts" in result.output
    for line in personal_card_text(card, state.shelf(0)):  # lower case: wanted there, not matched yet
        assert line in result.output
    for key in state.common_goals:
        assert f"{key} [8, 4]: {GOAL_TEXT[key]}" in result.output
    assert "card ?" in result.output  # the opponent's card stays hidden
