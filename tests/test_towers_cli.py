"""kibitz towers ...: play, solve, plan, playout, state."""

from __future__ import annotations

import json

from puzzles.towers import TowersState


def test_playout_json_random_vs_random(run_cli) -> None:
    result = run_cli("towers", "playout", "--games", "500", "--p1", "random", "--p2", "random", "--seed", "3", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 500
    assert data["p1_wins"] + data["p2_wins"] + data["draws"] == 500
    assert {"instant_wins", "p1_win_ci95", "first_player_advantage"} <= set(data)
    again = json.loads(run_cli("towers", "playout", "--games", "500", "--seed", "3", "--json").output)
    assert again == data  # seeded


def test_playout_text_with_bots(run_cli) -> None:
    result = run_cli("towers", "playout", "--games", "2", "--p1", "greedy", "--p2", "random", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert "P1 wins" in result.output and "instant wins" in result.output


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
    text = run_cli("towers", "solve", str(path))
    assert "best move:" in text.output and "principal variation:" in text.output


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


def test_human_play_explains_illegal_input(run_cli) -> None:
    res = run_cli("towers", "play", "--p1", "human", "--p2", "random", "--seed", "1", input="row9\nZ9>R\nrow1\n")
    assert res.exit_code != 0
    assert "illegal" in res.output and "your grid 1 (P1)" in res.output
    assert "input ended" in res.output


def test_human_plays_a_whole_game(run_cli) -> None:
    # answer every prompt by trying all action words until one is legal
    words = ["row1", "row2", "row3", "col1", "col2", "col3", "colors", "pass"]
    words += [f"{c}{v}>{t}" for c in "ROYGBP" for v in range(1, 7) for t in "ROYGBP"]
    words += [f"J>{t}" for t in "ROYGBP"]
    res = run_cli("towers", "play", "--p1", "human", "--p2", "greedy", "--seed", "2", input="\n".join(words * 40) + "\n")
    assert res.exit_code == 0, res.output[-2000:]
    assert "result:" in res.output


def test_bot_game_json(run_cli) -> None:
    res = run_cli("towers", "play", "--p1", "greedy", "--p2", "random", "--seed", "5", "--json")
    assert res.exit_code == 0
    data = json.loads(res.output)
    assert data["result"] and len(data["towers_owned"]) == 2
