"""The `kibitz blokus` commands, run in-process."""

from __future__ import annotations

import json
from pathlib import Path

DATA = Path(__file__).parent / "data"


def test_perft_json(run_cli) -> None:
    result = run_cli("blokus", "perft", "2", "--json")
    assert result.exit_code == 0
    assert json.loads(result.output)["count"] == 3_364


def test_replay_json_scores(run_cli) -> None:
    result = run_cli("blokus", "replay", str(DATA / "pentobi_classic_selfplay.blksgf"), "--json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["moves"] == 75
    assert data["scores"] == {"blue": -17, "yellow": -3, "red": -9, "green": -7}


def test_replay_refuses_illegal_record(run_cli, tmp_path: Path) -> None:
    bad = tmp_path / "bad.blksgf"
    bad.write_text("(;GM[Blokus];1[a20];2[t20];3[t1];4[a1];1[b20,c20])")  # domino along blue's edge
    result = run_cli("blokus", "replay", str(bad))
    assert result.exit_code == 1
    assert "SGF move 5" in result.output and "edge" in result.output
    assert run_cli("blokus", "replay", str(tmp_path / "missing.blksgf")).exit_code == 1


def test_moves_after_n(run_cli) -> None:
    result = run_cli("blokus", "moves", str(DATA / "pentobi_classic_selfplay.blksgf"), "--after", "0")
    assert result.exit_code == 0
    lines = result.output.split()
    assert len(lines) == 58 and "a20" in lines
    result = run_cli("blokus", "moves", str(DATA / "pentobi_classic_selfplay.blksgf"), "--after", "2", "--json")
    data = json.loads(result.output)
    assert data["to_move"] == "red" and data["count"] == 58
    ended = run_cli("blokus", "moves", str(DATA / "pentobi_classic_selfplay.blksgf"))
    assert ended.exit_code == 1 and "game is over" in ended.output


def test_moves_after_past_the_record_is_refused(run_cli, tmp_path: Path) -> None:
    short = tmp_path / "short.blksgf"
    short.write_text("(;GM[Blokus];1[a20])")
    for after, args in (("10", []), ("2", ["--json"])):
        result = run_cli("blokus", "moves", str(short), "--after", after, *args)
        assert result.exit_code == 1
        assert result.output == f"Error: --after {after} is past the end: the record holds 1 move (--after 0..1)\n"
    assert run_cli("blokus", "moves", str(short), "--after", "1").output.split()[:2] == ["t20", "s20,t20"]
    record = tmp_path / "short.json"
    assert run_cli("blokus", "replay", str(short), "--json").exit_code == 0
    run_cli("blokus", "play", "--variant", "duo", "--bots", "random", "--seed", "1", "--sgf", str(record))
    moves = json.loads(run_cli("blokus", "replay", str(record), "--json").output)["moves"]
    result = run_cli("blokus", "moves", str(record), "--after", str(moves + 1))
    assert result.exit_code == 1 and f"the record holds {moves} moves (--after 0..{moves})" in result.output


def test_play_bots_and_save(run_cli, tmp_path: Path) -> None:
    out = tmp_path / "g.blksgf"
    args = ["blokus", "play", "--players", "2", "--variant", "duo", "--bots", "greedy,random", "--seed", "3"]
    result = run_cli(*args, "--sgf", str(out))
    assert result.exit_code == 0, result.output
    assert "final scores" in result.output and f"saved {out}" in result.output
    replay = json.loads(run_cli("blokus", "replay", str(out), "--json").output)
    assert replay["finished"] and replay["variant"] == "duo"
    again = json.loads(run_cli(*args, "--json").output)
    assert again["color_scores"] == replay["scores"] and again["finished"] and again["variant"] == "duo"
    assert again["scores"] == list(replay["seat_scores"].values())
    as_json = tmp_path / "g.json"
    assert run_cli(*args, "--sgf", str(as_json), "--json").exit_code == 0
    assert json.loads(run_cli("blokus", "replay", str(as_json), "--json").output) == replay


def test_play_human_seat(run_cli) -> None:
    # blue is human: an illegal try is refused with a reason, '? W' lists the W's moves, then a legal move
    result = run_cli("blokus", "play", "--bots", "human,random,random,random", "--seed", "1",
                     input="t1\n? W\na20,b20,b19,c19,c18\n")
    assert "starting cell" in result.output
    assert "c18,b19,c19,a20,b20" in result.output.split("your move")[2]  # the '? W' listing
    assert "1. seat 1 (human): c18,b19,c19,a20,b20" in result.output
    assert "blue to move" in result.output


def test_playout_json(run_cli) -> None:
    result = run_cli("blokus", "playout", "--games", "6", "--players", "2", "--bots", "greedy,random",
                     "--variant", "two-player", "--json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["games"] == 6 and data["players"] == 2
    assert [row["bot"] for row in data["bots"]] == ["greedy", "random"]
    assert abs(sum(row["win_rate"] for row in data["bots"]) - 1.0) < 1e-9
    assert data["bots"][0]["win_rate"] > 0.5
    text = run_cli("blokus", "playout", "--games", "2", "--bots", "random")
    assert text.exit_code == 0 and "wins" in text.output


def test_playout_random_runs_in_the_kernel(run_cli) -> None:
    args = ["blokus", "playout", "--games", "300", "--bots", "random", "--players", "3", "--free-corners", "--json"]
    one = json.loads(run_cli(*args, "--workers", "1").output)
    assert one["games"] == 300 and one["status"] == "complete"
    assert abs(sum(row["win_rate"] for row in one["bots"]) - 1.0) < 1e-9


def test_bad_options(run_cli) -> None:
    result = run_cli("blokus", "playout", "--bots", "random,random")
    assert result.exit_code == 1 and "one bot per seat (4)" in result.output
    result = run_cli("blokus", "play", "--bots", "alphazero")
    assert result.exit_code != 0 and "unknown blokus bot" in result.output
    result = run_cli("blokus", "play", "--variant", "duo", "--players", "4", "--bots", "random")
    assert result.exit_code == 1 and "duo is played by 2 players, not 4" in result.output
    result = run_cli("blokus", "play", "--variant", "duo", "--bots", "random", "--json")  # duo implies 2 seats
    assert result.exit_code == 0 and json.loads(result.output)["bots"] == ["random", "random"]
