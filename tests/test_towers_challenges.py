"""Endgame challenges (solvers/towers/challenges.py, `kibitz generate towers`): exactly one move wins or saves the draw.

A challenge is a puzzle: its files never hold the answer (that is solution_SEED.json/.txt, replayed here
to its proven result), and a human's ``hint`` in ``kibitz towers play --from FILE`` is a proven best move.
"""

from __future__ import annotations

import json
import random
import re
import statistics
from pathlib import Path

import pytest
from click.testing import CliRunner

from puzzles.towers import TowersState
from solvers.towers.challenges import LEVELS, MIN_FAILING, Challenge, generate, level_of, outcome, replay_result
from solvers.towers.hint import ExactHintBot, hinter
from solvers.towers.solver import Solver
from tests.test_towers_brute import brute_move_values

#: (difficulty, how many, first candidate seed): a handful of each, a few seconds in all
BATCHES = (("easy", 4, 0), ("medium", 4, 0), ("hard", 3, 300))


def one_saving_move(move_values: dict[str, int], seat: int) -> tuple[int, list[str]]:
    classes = {m: outcome(v, seat) for m, v in move_values.items()}
    best = max(classes.values())
    return best, [m for m, c in classes.items() if c == best]


@pytest.fixture(scope="module")
def challenges() -> list[Challenge]:
    found: list[Challenge] = []
    for difficulty, count, first_seed in BATCHES:
        found += list(generate(count, difficulty, seed=first_seed))
    return found


@pytest.fixture(scope="module")
def out_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The challenges of BATCHES written by the real command: ``kibitz generate towers --out DIR``."""
    from cli import main

    out = tmp_path_factory.mktemp("challenges")
    for difficulty, count, first_seed in BATCHES:  # one folder each: files are named by seed alone
        result = CliRunner().invoke(main, ["generate", "towers", "--count", str(count), "--difficulty", difficulty,
                                           "--seed", str(first_seed), "--out", str(out / difficulty)],
                                    catch_exceptions=False)
        assert result.exit_code == 0, result.output
    return out


def test_every_challenge_has_exactly_one_winning_move(challenges: list[Challenge]) -> None:
    assert [c.difficulty for c in challenges].count("hard") == 3
    solver = Solver(18)
    for ch in challenges:
        state = TowersState.from_json(json.loads(json.dumps(ch.to_json()))["state"])
        assert state == ch.state and state.face_up
        res = solver.solve(state, horizon="game", pv=False)
        assert res.status == "proved" and res.exact_game
        best, winners = one_saving_move(res.move_values, state.current_player())
        assert best >= 0 and winners == [ch.solution]
        assert ch.goal == ("win" if best > 0 else "draw")
        assert state.string_to_action(ch.solution) in state.legal_actions()
        assert len(ch.failing) == len(res.move_values) - 1


def test_grading_by_solver_nodes(challenges: list[Challenge]) -> None:
    """Each level is the band of the exact solver's nodes, a count a fresh search reproduces exactly."""
    assert (LEVELS["easy"][1], LEVELS["medium"][1]) == (100, 3000)
    for ch in challenges:
        res = Solver(20).solve(ch.state, horizon="game", pv=False)
        assert res.nodes == ch.nodes and level_of(ch.nodes) == ch.difficulty
        assert len(ch.failing) >= MIN_FAILING
        assert ch.to_json()["nodes"] == ch.nodes and f"{ch.nodes:,} solver nodes" in ch.puzzle_panel().lines[0]


def test_difficulty_is_monotone_on_the_sample(challenges: list[Challenge]) -> None:
    """Medians strictly rise from easy to hard: the nodes graded by, the nodes of a search with a 64-times
    smaller table (another effort of the same proof) and the plies left to the end."""
    def medians(effort) -> list[float]:
        return [statistics.median(effort(c) for c in challenges if c.difficulty == level) for level in LEVELS]

    small_table = {c.seed: Solver(14).solve(c.state, horizon="game", pv=False).nodes for c in challenges}
    for effort in (lambda c: c.nodes, lambda c: small_table[c.seed], lambda c: c.plies):
        easy, medium, hard = medians(effort)
        assert easy < medium < hard


def test_brute_force_agrees_on_the_round_six_challenges(challenges: list[Challenge]) -> None:
    small = [c for c in challenges if c.plies <= 8]
    assert [c.difficulty for c in small] == ["easy"] * 4 + ["medium"] * 3
    for ch in small:
        value, values = brute_move_values(ch.state, "game")
        assert values == ch.move_values
        best, winners = one_saving_move(values, ch.seat)
        assert best >= 0 and winners == [ch.solution]


def test_the_hint_in_every_challenge_is_a_proved_best_move(out_dir: Path, run_cli) -> None:
    """``hint`` then ``quit`` in ``kibitz towers play --from FILE``: the move hinted has the position's exact value."""
    files = sorted(out_dir.glob("*/challenge_*.json"))
    assert len(files) == sum(count for _, count, _ in BATCHES)
    solver = Solver(18)
    for path in files:
        data = json.loads(path.read_text())
        played = run_cli("towers", "play", "--from", str(path), input="hint\nquit\n")
        assert played.exit_code == 0, played.output[-2000:]
        hint = re.search(r"hint: (\S+) \(proved: (win|draw|loss)\)", played.output)
        assert hint is not None, played.output[-2000:]
        state = TowersState.from_json(data["state"])
        res = solver.solve(state, horizon="game", pv=False)
        assert res.status == "proved" and res.exact_game
        assert res.move_values[hint[1]] == res.value  # a best move, by the exact value of every move
        assert hint[2] == data["goal"]  # every challenge is a win or a draw for the mover
        assert "game stopped (quit) after 0 moves" in played.output


def test_challenge_files_hold_no_solution_and_the_solution_file_replays(out_dir: Path) -> None:
    files = sorted(out_dir.glob("*/challenge_*.json"))
    assert len(files) == sum(count for _, count, _ in BATCHES)
    for path in files:
        seed, folder = path.stem.removeprefix("challenge_"), path.parent
        puzzle_json, puzzle_text = path.read_text(), (folder / f"challenge_{seed}.txt").read_text()
        puzzle = json.loads(puzzle_json)
        solution = json.loads((folder / f"solution_{seed}.json").read_text())
        move, line = solution["solution"], solution["line"]
        assert not {"solution", "move_values", "line", "status"} & set(puzzle)
        # the record's actions are the play before the puzzle (a joker's J>P may recur); the state's log names
        # past moves as "P1 R5>R", never alone
        past = json.dumps({key: value for key, value in puzzle.items() if key != "actions"})
        assert f'"{move}"' not in past
        assert move not in puzzle_text.split() and "solution" not in puzzle_text.lower()
        assert " ".join(line) not in past + puzzle_text
        assert (folder / f"solution_{seed}.txt").read_text().startswith(
            f"solution of the endgame challenge seed {seed} ({puzzle['difficulty']}): {move} ")
        # the solution re-verifies: its line of best play, replayed by the rules, ends as proved
        state = TowersState.from_json(puzzle["state"])
        assert line[0] == move and solution["status"] == "proved"
        result = replay_result(state, line)
        assert result == solution["result"]
        mover = puzzle["to_move"]
        assert result.startswith(f"{mover} wins") if puzzle["goal"] == "win" else result == "draw"


def test_generate_command_writes_playable_challenges(run_cli, tmp_path) -> None:
    result = run_cli("generate", "towers", "--count", "2", "--difficulty", "easy", "--seed", "5", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    files = sorted(tmp_path.glob("challenge_*.json"), key=lambda path: int(path.stem.removeprefix("challenge_")))
    assert len(files) == 2 and len(list(tmp_path.glob("challenge_*.txt"))) == 2
    assert len(list(tmp_path.glob("solution_*.json"))) == 2 and len(list(tmp_path.glob("solution_*.txt"))) == 2
    data = json.loads(files[0].read_text())  # the first found: two plies, the answer then the bot's reply end it
    assert data["kind"] == "towers endgame challenge" and data["difficulty"] == "easy" and data["plies_left"] == 2
    assert "to move and" in result.output and "solution" not in result.output
    answer = json.loads((tmp_path / files[0].name.replace("challenge_", "solution_")).read_text())["solution"]
    played = run_cli("towers", "play", "--from", str(files[0]), "--json", input=answer + "\n")
    assert played.exit_code == 0, played.output
    end = json.loads(played.output[played.output.index("{"):])
    assert end["moves"][0] == answer
    if data["goal"] == "draw":
        assert end["winner"] != (0 if data["to_move"] == "P1" else 1) or end["result"] == "draw"
    as_json = json.loads(run_cli("generate", "towers", "--count", "1", "--difficulty", "easy", "--seed", "5", "--json").output)
    assert as_json["challenges"][0]["seed"] == data["seed"] and "solution" not in as_json["challenges"][0]
    shown = run_cli("generate", "towers", "--count", "1", "--difficulty", "easy", "--seed", "5", "--solution", "--json")
    assert json.loads(shown.output)["challenges"][0]["solution"]["solution"] == answer
    text = run_cli("generate", "towers", "--count", "1", "--difficulty", "easy", "--seed", "5", "--solution")
    assert f"solution of the endgame challenge seed {data['seed']} (easy): {answer} " in text.output


def test_a_hint_in_a_hidden_game_reads_only_what_the_seat_sees(challenges: list[Challenge]) -> None:
    """Not face up: the hint is greedy's, the same whatever the opponent's hidden stones; face up: the solver's."""
    ch = next(c for c in challenges if c.difficulty == "hard")
    hidden = ch.state.clone()
    hidden.face_up = False
    bot = hinter(hidden)
    assert bot.name == "greedy" and not isinstance(bot, ExactHintBot)
    seat = hidden.current_player()
    hints = {hidden.action_to_string(bot.choose(hidden.resample(seat, random.Random(k)), random.Random(0)))
             for k in range(12)}
    assert hints == {hidden.action_to_string(bot.choose(hidden.clone(), random.Random(0)))}
    exact = hinter(ch.state)
    assert isinstance(exact, ExactHintBot)
    assert ch.state.action_to_string(exact.choose(ch.state.clone(), random.Random(0))) == ch.solution
    assert exact.hint_note == f"proved: {ch.goal}"
    # a face-up mark does not leak into the hidden copy: the exact bot falls back to greedy there
    assert exact.choose(hidden.clone(), random.Random(0)) == bot.choose(hidden.clone(), random.Random(0))
    assert exact.hint_note is None


def test_a_saved_hidden_game_hints_without_a_proof(run_cli, tmp_path) -> None:
    """``save`` in a normal game then ``play --load``: the hint carries no '(proved' note (no hidden stone read)."""
    saved = tmp_path / "g.json"
    words = ["row1", "colors"]
    first = run_cli("towers", "play", "--bots", "human,greedy", "--seed", "3", input="\n".join(words + [f"save {saved}", "quit"]) + "\n")
    assert first.exit_code == 0, first.output[-2000:]
    assert "face_up" not in saved.read_text()
    again = run_cli("towers", "play", "--load", str(saved), input="hint\nquit\n")
    assert again.exit_code == 0, again.output[-2000:]
    hint = re.search(r"hint: (.*)", again.output)
    assert hint is not None and "proved" not in hint[1]


def test_face_up_survives_json_and_a_bad_mark_is_refused(challenges: list[Challenge]) -> None:
    data = challenges[0].state.to_json()
    assert data["face_up"] is True and TowersState.from_json(data).face_up
    data["face_up"] = "yes"
    with pytest.raises(ValueError, match="face_up must be true or false"):
        TowersState.from_json(data)
    assert "face_up" not in TowersState.new_game(1).to_json()


def test_ctrl_c_while_the_line_is_drawn_stops_the_generation(run_cli, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C inside the principal variation of a found challenge (the solver raises SearchStopped there) is a
    clean interrupted stop of ``generate towers``, not a traceback."""
    from solvers.towers.solver import SearchStopped, Solver

    def interrupted(*args: object, **kwargs: object) -> list[str]:
        raise SearchStopped("interrupted")

    monkeypatch.setattr(Solver, "principal_variation", interrupted)
    with pytest.raises(KeyboardInterrupt):
        next(generate(1, "easy", seed=BATCHES[0][2]))
    result = run_cli("generate", "towers", "--count", "1", "--difficulty", "easy", "--json")
    assert result.exit_code == 130
    assert json.loads(result.stdout) == {"status": "interrupted", "interrupted": True, "challenges": []}
