"""Endgame challenges (solvers/towers/challenges.py, `kibitz generate towers`): exactly one move wins or saves the draw."""

from __future__ import annotations

import json

import pytest

from puzzles.towers import TowersState
from solvers.towers.challenges import Challenge, generate, outcome
from solvers.towers.solver import Solver
from tests.test_towers_brute import brute_move_values


def one_saving_move(move_values: dict[str, int], seat: int) -> tuple[int, list[str]]:
    classes = {m: outcome(v, seat) for m, v in move_values.items()}
    best = max(classes.values())
    return best, [m for m, c in classes.items() if c == best]


@pytest.fixture(scope="module")
def challenges() -> list[Challenge]:
    found: list[Challenge] = []
    for difficulty, count, first_seed in (("easy", 4, 0), ("medium", 4, 0), ("hard", 1, 190)):
        found += list(generate(count, difficulty, seed=first_seed))
    return found


def test_every_challenge_has_exactly_one_winning_move(challenges: list[Challenge]) -> None:
    assert [c.difficulty for c in challenges].count("hard") == 1
    solver = Solver(18)
    for ch in challenges:
        state = TowersState.from_json(json.loads(json.dumps(ch.to_json()))["state"])
        assert state == ch.state
        res = solver.solve(state, horizon="game", pv=False)
        assert res.status == "proved" and res.exact_game
        best, winners = one_saving_move(res.move_values, state.current_player())
        assert best >= 0 and winners == [ch.solution]
        assert ch.goal == ("win" if best > 0 else "draw")
        assert state.string_to_action(ch.solution) in state.legal_actions()
        assert len(ch.failing) == len(res.move_values) - 1


def test_grading_by_depth_and_failing_moves(challenges: list[Challenge]) -> None:
    for ch in challenges:
        lo, hi, min_fail = {"easy": (2, 4, 2), "medium": (5, 8, 3), "hard": (9, 16, 3)}[ch.difficulty]
        assert lo <= ch.plies <= hi and len(ch.failing) >= min_fail


def test_brute_force_agrees_on_the_round_six_challenges(challenges: list[Challenge]) -> None:
    small = [c for c in challenges if c.difficulty in ("easy", "medium")]
    assert len(small) == 8
    for ch in small:
        value, values = brute_move_values(ch.state, "game")
        assert values == ch.move_values
        best, winners = one_saving_move(values, ch.seat)
        assert best >= 0 and winners == [ch.solution]


def test_generate_command_writes_playable_challenges(run_cli, tmp_path) -> None:
    result = run_cli("generate", "towers", "--count", "2", "--difficulty", "easy", "--seed", "5", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    files = sorted(tmp_path.glob("challenge_*.json"))
    assert len(files) == 2 and len(list(tmp_path.glob("challenge_*.txt"))) == 2
    data = json.loads(files[0].read_text())
    assert data["kind"] == "towers endgame challenge" and data["difficulty"] == "easy"
    assert "to move and" in result.output
    played = run_cli("towers", "play", "--from", str(files[0]), "--json", input=data["solution"] + "\n")
    assert played.exit_code == 0, played.output
    end = json.loads(played.output[played.output.index("{"):])
    assert end["moves"][0] == data["solution"]
    if data["goal"] == "draw":
        assert end["winner"] != (0 if data["to_move"] == "P1" else 1) or end["result"] == "draw"
    as_json = run_cli("generate", "towers", "--count", "1", "--difficulty", "easy", "--seed", "5", "--json")
    assert json.loads(as_json.output)["challenges"][0]["seed"] == data["seed"]
