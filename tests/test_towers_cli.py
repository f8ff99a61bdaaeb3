"""kibitz towers ...: play, solve, plan, playout, state."""

from __future__ import annotations

import json

import pytest

from puzzles.towers import TowersState


def test_playout_json_random_vs_random(run_cli) -> None:
    result = run_cli("towers", "playout", "--games", "500", "--bots", "random", "--seed", "3", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 500 and data["status"] == "complete"
    assert sum(row["win_rate"] for row in data["bots"]) == pytest.approx(1.0)
    assert {"win_ci95", "mean_score"} <= set(data["bots"][0]) and len(data["seat_win_rates"]) == 2
    again = json.loads(run_cli("towers", "playout", "--games", "500", "--seed", "3", "--json").output)
    assert again == data  # seeded; random is the default bot


def test_playout_text_with_bots_and_old_seat_options(run_cli) -> None:
    result = run_cli("towers", "playout", "--games", "2", "--bots", "greedy,random", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert "greedy" in result.output and "wins by seat" in result.output
    old = run_cli("towers", "playout", "--games", "2", "--p1", "greedy", "--p2", "random", "--seed", "1", "--json")
    assert old.exit_code == 0, old.output
    data = json.loads(old.output)
    assert [row["bot"] for row in data["bots"]] == ["greedy", "random"] and data["rotate"] is False
    both = run_cli("towers", "playout", "--games", "2", "--p1", "greedy", "--bots", "random")
    assert both.exit_code != 0 and "not both" in both.output


def test_state_then_solve(run_cli, tmp_path) -> None:
    out = run_cli("towers", "state", "--seed", "4", "--round", "6")
    assert out.exit_code == 0
    path = tmp_path / "s.json"
    path.write_text(out.output)
    state = TowersState.from_json(json.loads(out.output))
    assert state.round == 5 and state.phase == "pick"
    res = run_cli("towers", "solve", str(path), "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["exact_game"] and data["best_move"] in data["move_values"]
    assert data["outcome"] in ("P1 wins", "P2 wins", "draw")
    assert data["status"] == "proved" and data["interrupted"] is False and data["nodes"] > 0 and data["seconds"] >= 0
    assert data["horizon_round_index"] == 5 and "horizon_round" not in data  # 0-based, like the state's "round"
    text = run_cli("towers", "solve", str(path))
    assert "best move:" in text.output and "principal variation:" in text.output
    assert "(to the end of round 6 of 6, the end of the game)" in text.output


def test_solve_bad_input(run_cli, tmp_path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    res = run_cli("towers", "solve", str(bad))
    assert res.exit_code != 0 and "Error:" in res.output and "not valid JSON" in res.output
    res = run_cli("towers", "solve", str(tmp_path / "missing.json"))
    assert res.exit_code != 0 and "Error:" in res.output


def test_plan(run_cli, tmp_path) -> None:
    res = run_cli("towers", "plan", "--stones", "R6,R5,R4,J", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["max_towers_at_21"] == 1
    res = run_cli("towers", "plan", "--stones", "R6,Q9")
    assert res.exit_code != 0 and "not a stone" in res.output
    state = run_cli("towers", "state", "--seed", "2", "--round", "3", "--placements", "2").output
    path = tmp_path / "s.json"
    path.write_text(state)
    res = run_cli("towers", "plan", "--stones", "Y6,Y5", "--towers", str(path), "--json")
    data = json.loads(res.output)
    assert "this_round" in data and "secure_towers" in data["this_round"]


def test_plan_refuses_stones_that_are_not_the_placers(run_cli, tmp_path) -> None:
    """The README's lines: s.json has P2 to move, and R6, R5, B4 are P1's stones, already on the towers."""
    path = tmp_path / "s.json"
    path.write_text(run_cli("towers", "state", "--seed", "4", "--round", "5").output)
    res = run_cli("towers", "plan", "--stones", "R6,R5,B4,J", "--towers", str(path), "--max-placements", "3")
    assert res.exit_code == 1
    assert res.output == (f"Error: --stones: R6, R5, B4 are not P2's: P2 places orange, green, purple and jokers "
                          f"(P2 is to move in {path}; --player chooses); --player 1 plans P1's\n")
    res = run_cli("towers", "plan", "--stones", "R6,R5,B4,J", "--towers", str(path), "--player", "1", "--json")
    assert res.exit_code == 1
    assert res.output == (f"Error: --stones: R6, R5, B4 are no longer P1's to place in {path} (already on a tower, "
                          "discarded or removed); P1 still has: Y3 Y4 B3 B5 J J\n")
    res = run_cli("towers", "plan", "--stones", "R6,R6,J,J,J,J")
    assert res.exit_code == 1 and "P1 has each coloured stone once and 3 jokers; R6, J too many" in res.output
    res = run_cli("towers", "plan", "--stones", "O5,G4,P6", "--towers", str(path), "--opponent", "R6")
    assert res.exit_code == 1 and "--opponent: R6 is no longer P1's to place" in res.output


def test_plan_says_why_it_is_empty(run_cli, tmp_path) -> None:
    path = tmp_path / "s.json"
    path.write_text(run_cli("towers", "state", "--seed", "4", "--round", "5").output)
    res = run_cli("towers", "plan", "--stones", "O5,G4,P6", "--towers", str(path), "--max-placements", "3")
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[0].startswith("P2 can have at most 1 tower(s) at exactly 21 with O5 G4 P6 in at most 3 placement(s) (proved, ")
    assert lines[1:3] == ["  red: already at 21 and P2's (no stone needed)",
                          "  no stone to place: no other tower can be brought to exactly 21 with these stones"
                          " in at most 3 placement(s)"]
    data = json.loads(run_cli("towers", "plan", "--stones", "O5,G4,P6", "--towers", str(path), "--json").output)
    assert data["plan"] == {} and data["already_at_21"] == ["red"] and data["max_towers_at_21"] == 1
    assert data["status"] == "proved" and data["interrupted"] is False and data["seconds"] >= 0
    none = run_cli("towers", "plan", "--stones", "R1,B1", "--max-placements", "2")
    assert none.output.splitlines()[1] == "  no tower can be brought to exactly 21 with these stones in at most 2 placement(s)"


def test_human_play_explains_illegal_input(run_cli) -> None:
    res = run_cli("towers", "play", "--bots", "human,random", "--seed", "1", input="row9\nZ9>R\nrow1\n")
    assert res.exit_code != 0  # input ended
    assert "no such line" in res.output and "not a stone" in res.output and "your grid 1 (P1)" in res.output
    assert "P1 row1" in res.output or "row1" in res.output


def test_human_plays_a_whole_game(run_cli) -> None:
    # answer every prompt by trying all action words until one is legal
    words = ["row1", "row2", "row3", "col1", "col2", "col3", "colors", "pass"]
    words += [f"{c}{v}>{t}" for c in "ROYGBP" for v in range(1, 7) for t in "ROYGBP"]
    words += [f"J>{t}" for t in "ROYGBP"]
    res = run_cli("towers", "play", "--bots", "human,greedy", "--seed", "2", input="\n".join(words * 40) + "\n")
    assert res.exit_code == 0, res.output[-2000:]
    assert "game over: P2 wins" in res.output and "final scores: seat 1 (human): 1, seat 2 (greedy): 5" in res.output


def test_bot_game_json(run_cli) -> None:
    res = run_cli("towers", "play", "--bots", "greedy,random", "--seed", "5", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["result"] and len(data["towers_owned"]) == 2 and data["bots"] == ["greedy", "random"]
    assert data["moves"] and data["log"]
    old = run_cli("towers", "play", "--p1", "greedy", "--p2", "random", "--seed", "5", "--json")
    assert json.loads(old.output) == data  # the old seat options still work
