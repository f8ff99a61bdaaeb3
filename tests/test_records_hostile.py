"""A saved game is a record, loaded by replaying its actions through the rules: hostile saves cannot load.

Real saves of the four games are written through the real path (``play`` with a human seat typing moves, then
``save FILE``), plus a towers challenge file.  Each is mutated (actions dropped, duplicated, swapped, edited,
cut; seed, players, options, types changed; the cached state edited; the JSON cut or nested) and loaded with
the real ``play --load``.  Every mutation is either refused with exactly one line (exit status 1, no
traceback) or loads a position equal to a plain replay of its actions through the rules.
"""

from __future__ import annotations

import contextlib
import copy
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from puzzles.game import CHANCE, GAMES, GameState, load_record
from solvers.bots import make_bot

#: game -> (extra play options, bots, human decisions before the save) per base save
BASES: dict[str, list[tuple[list[str], str, int, int]]] = {
    "blokus": [(["--players", "2"], "human,random", 2, 4), (["--variant", "duo"], "random,human", 5, 3)],
    "projectl": [([], "human,random", 1, 5), ([], "random,human", 4, 3)],
    "shelfie": [([], "human,random", 0, 3), (["--players", "3"], "random,human,random", 6, 2)],
    "towers": [([], "human,random", 3, 8), ([], "random,human", 8, 14)],
}


class _StopScript(Exception):
    """The scripted seat has made all its moves."""


class _Script:
    """Stands for the human seat while the game is simulated: picks legal moves with its own generator
    (the game's random stream is left as the human's typing leaves it) and notes their text."""

    name = "script"

    def __init__(self, decisions: int, seed: int) -> None:
        self.left, self.rng, self.typed = decisions, random.Random(seed), []

    def choose(self, state: GameState[Any], rng: random.Random) -> Any:
        if self.left == 0:
            raise _StopScript
        self.left -= 1
        action = self.rng.choice(state.legal_actions())
        self.typed.append(state.action_to_string(action))
        return action


def _human_moves(game: str, options: list[str], bots: str, seed: int, decisions: int) -> list[str]:
    """The moves a human seat types in ``play`` to make ``decisions`` moves (simulated with the same dealer)."""
    from solvers.playout import play_game

    players = int(options[1]) if options[:1] == ["--players"] else None
    option_values = {"variant": options[1]} if options[:1] == ["--variant"] else {}
    state = GAMES[game].new_game(players, seed, **option_values)
    script = _Script(decisions, seed)
    seats = [script if spec == "human" else make_bot(game, spec) for spec in bots.split(",")]
    with contextlib.suppress(_StopScript):
        play_game(state, seats, random.Random(seed))
    return script.typed


def _invoke(*args: str, input: str | None = None) -> Result:
    from cli import main

    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


@pytest.fixture(scope="module")
def bases(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """Real saves of every game (written by ``save FILE`` in ``play``) and a towers challenge file."""
    folder = tmp_path_factory.mktemp("saves")
    found = []
    for game, setups in BASES.items():
        for options, bots, seed, decisions in setups:
            path = folder / f"{game}_{seed}.json"
            typed = _human_moves(game, options, bots, seed, decisions)
            lines = [*typed, f"save {path}", "quit"]
            played = _invoke(game, "play", *options, "--bots", bots, "--seed", str(seed), input="\n".join(lines) + "\n")
            assert played.exit_code == 0, played.output[-2000:]
            assert f"saved to {path}" in played.output, played.output[-2000:]
            found.append(json.loads(path.read_text()))
    from solvers.towers.challenges import generate

    challenge = next(iter(generate(1, "easy", seed=5)))
    found.append(json.loads(json.dumps(challenge.to_json())))
    return found


# -- what a load must give --------------------------------------------------------------------------------

def _rules_replay(data: dict[str, Any]) -> GameState[Any]:
    """The position a record's actions reach when each is simply applied by the engine (apply checks legality)."""
    state = GAMES[data["game"]].new_game(data["players"], data["seed"], **data.get("options", {}))
    for text in data["actions"]:
        state.apply(state.string_to_action(text))
    if data.get("face_up"):
        state.face_up = True  # type: ignore[attr-defined]
    return state


def _load_via_cli(game: str, text: str, path: Path) -> tuple[bool, str]:
    """``kibitz GAME play --load FILE`` on ``text``: (loaded, its one error line); fails the test on anything else."""
    path.write_text(text, encoding="utf-8")
    result = _invoke(game, "play", "--load", str(path), "--bots", "human", "--json", input="quit\n")
    assert "Traceback" not in result.output
    if result.exit_code == 0:
        end = json.loads(result.stdout[result.stdout.index("{"):])
        assert end["status"] in ("quit", "complete")
        return True, ""
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 1 and len(lines) == 1 and lines[0].startswith("Error: "), result.output[-1000:]
    assert result.stdout == ""
    return False, lines[0]


def _check(game: str, text: str, path: Path) -> tuple[bool, str]:
    """Load ``text`` through the CLI; a load must equal the rules' replay of its actions (cached state too)."""
    loaded, error = _load_via_cli(game, text, path)
    if loaded:
        data = json.loads(text.removeprefix("\ufeff"))
        expected = _rules_replay(data)
        _, state, _ = load_record(data, game)
        assert state.to_json() == expected.to_json()
        if "state" in data:
            assert data["state"] == json.loads(json.dumps(expected.to_json()))
    return loaded, error


# -- mutations ---------------------------------------------------------------------------------------------

Mutation = Callable[[dict[str, Any], random.Random], Any]
GARBAGE_ACTIONS = ["", " ", "zzz", "pass", "row9", "draw Z9", "refill:", "refill:QQQ", "a1 9", "take W 99", "²",
                   "x" * 401, "draw J", "colors", "R6>O", "d5 e5 3", "a20", "place 0 0 0"]
WRONG_VALUES: list[Any] = [None, True, False, -1, 0, 1, 2, 5, 99, 2**70, 1.5, 2.0, "2", "", "x", [], [1], {}, {"a": 1},
                           float("inf")]


def _index(data: dict[str, Any], rng: random.Random) -> int:
    return rng.randrange(len(data["actions"])) if data["actions"] else 0


def _drop(data: dict[str, Any], rng: random.Random) -> Any:
    if data["actions"]:
        del data["actions"][_index(data, rng)]
    return data


def _duplicate(data: dict[str, Any], rng: random.Random) -> Any:
    i = _index(data, rng)
    data["actions"].insert(i, data["actions"][i] if data["actions"] else "pass")
    return data


def _swap(data: dict[str, Any], rng: random.Random) -> Any:
    if len(data["actions"]) > 1:
        i, j = rng.sample(range(len(data["actions"])), 2)
        data["actions"][i], data["actions"][j] = data["actions"][j], data["actions"][i]
    return data


def _edit(data: dict[str, Any], rng: random.Random) -> Any:
    i = _index(data, rng)
    pool = [*GARBAGE_ACTIONS, *data["actions"]]
    value = rng.choice(pool) if rng.random() < 0.8 else rng.choice(WRONG_VALUES)
    if data["actions"]:
        data["actions"][i] = value
    return data


def _truncate(data: dict[str, Any], rng: random.Random) -> Any:
    """Cut the actions; half the time the cached state and seen moves go too (then a shorter game may load)."""
    del data["actions"][rng.randrange(len(data["actions"]) + 1):]
    if rng.random() < 0.5:
        data.pop("state", None)
        data.pop("moves_seen", None)
        data.pop("setup", None)
    return data


def _append(data: dict[str, Any], rng: random.Random) -> Any:
    data["actions"].append(rng.choice([*GARBAGE_ACTIONS, *data["actions"]]))
    return data


def _field(data: dict[str, Any], rng: random.Random) -> Any:
    """A top-level field set to a wrong (or another) value, or removed."""
    name = rng.choice(["format", "version", "game", "players", "seed", "options", "actions", "setup", "face_up",
                       "bots", "moves_seen", "state"])
    if rng.random() < 0.15:
        data.pop(name, None)
    elif name == "game":
        data[name] = rng.choice([*GAMES, "chess", 5, None])
    elif name == "seed" and rng.random() < 0.5:
        data[name] = data["seed"] + rng.choice([-1, 1, 1000])
    elif name == "players" and rng.random() < 0.5:
        data[name] = rng.choice([1, 2, 3, 4, 5])
    else:
        data[name] = rng.choice(WRONG_VALUES)
    return data


def _option(data: dict[str, Any], rng: random.Random) -> Any:
    """One option set to another value: unknown names, wrong types, values outside the choices, other choices."""
    options = data.setdefault("options", {})
    info = GAMES[data["game"]] if data.get("game") in GAMES else None
    known = [o for o in info.options] if info else []
    if not known or rng.random() < 0.2:
        options[rng.choice(["colour", "free_corners", "variant", "x"])] = rng.choice(WRONG_VALUES)
        return data
    option = rng.choice(known)
    choices = list(option.choices or []) + [option.default]
    options[option.name] = rng.choice(choices + WRONG_VALUES + ["classic", "duo", "revised", "3,7", "DIAGONAL"])
    return data


def _state_leaf(data: dict[str, Any], rng: random.Random) -> Any:
    """One value anywhere inside the cached state changed (a number moved, a text or list altered)."""
    if not isinstance(data.get("state"), dict):
        return data
    holder, key = _random_leaf(data["state"], rng)
    if holder is None:
        return data
    value = holder[key]
    if isinstance(value, bool):
        holder[key] = not value
    elif isinstance(value, int):
        holder[key] = value + rng.choice([-1, 1, 500, -500])
    elif isinstance(value, str):
        holder[key] = rng.choice([value[::-1] + "x", "", "J", "Z9", value + value])
    elif isinstance(value, list):
        if value and rng.random() < 0.5:
            value.pop(rng.randrange(len(value)))
        else:
            value.append(copy.deepcopy(value[0]) if value else 1)
    else:
        holder[key] = rng.choice(WRONG_VALUES)
    return data


def _random_leaf(node: Any, rng: random.Random) -> tuple[Any, Any]:
    """A random (container, key) inside ``node`` (a leaf, or a list to grow or shrink)."""
    holder, key = None, None
    while isinstance(node, dict | list) and node:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        holder, key = node, rng.choice(keys)
        if isinstance(node[key], list) and rng.random() < 0.25:
            break
        node = node[key]
    return holder, key


def _whole(data: dict[str, Any], rng: random.Random) -> Any:
    """The document as another JSON value, cut short, or nested garbage."""
    text = json.dumps(data)
    return rng.choice([
        [data], "a string", 42, None, [], {},
        _Raw(text[: rng.randrange(len(text))]),
        _Raw("[" * 5000 + "]" * 5000),
        _Raw('{"format": "kibitz-record", "version": 1, "game": "towers", "actions": ' + "[" * 3000 + "]" * 3000 + "}"),
        {**data, "extra": {"deep": json.loads("[" * 40 + "]" * 40)}},
        _Raw(text + "garbage"),
        _Raw("\ufeff" + text),
    ])


class _Raw(str):
    """Text written as it is (not JSON-encoded again)."""


MUTATIONS: list[Mutation] = [_drop, _duplicate, _swap, _edit, _edit, _truncate, _append, _field, _field, _option,
                             _state_leaf, _state_leaf, _whole]


def _mutant(base: dict[str, Any], rng: random.Random) -> str:
    """A mutated copy of ``base`` as text: one to three mutations in a row."""
    data: Any = copy.deepcopy(base)
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        if not isinstance(data, dict) or not isinstance(data.get("actions"), list):
            break
        data = rng.choice(MUTATIONS)(data, rng)
    return data if isinstance(data, _Raw) else json.dumps(data)


def _run_mutations(bases: list[dict[str, Any]], count: int, folder: Path) -> dict[str, int]:
    rng = random.Random(33)
    outcome = {"loaded": 0, "refused": 0}
    for n in range(count):
        base = bases[n % len(bases)]
        text = _mutant(base, rng)
        loaded, _ = _check(base["game"], text, folder / f"m{n}.json")
        outcome["loaded" if loaded else "refused"] += 1
    return outcome


# -- the tests ---------------------------------------------------------------------------------------------

def test_the_saves_load_as_they_were(bases: list[dict[str, Any]], tmp_path: Path) -> None:
    """Unchanged, every save and the challenge load (and equal a plain replay); a save is a record of actions."""
    assert len(bases) == 9
    for data in bases:
        assert data["format"] == "kibitz-record" and data["version"] == 1 and isinstance(data["actions"], list)
        assert _check(data["game"], json.dumps(data), tmp_path / "same.json") == (True, "")
    challenge = bases[-1]
    assert challenge["face_up"] is True and challenge["setup"] == len(challenge["actions"]) > 20


def test_300_mutated_saves_are_refused_in_one_line_or_load_their_replay(bases: list[dict[str, Any]],
                                                                        tmp_path: Path) -> None:
    outcome = _run_mutations(bases, 324, tmp_path)
    assert outcome["refused"] >= 250 and outcome["loaded"] >= 10, outcome


@pytest.mark.slow
def test_5000_mutated_saves(bases: list[dict[str, Any]], tmp_path: Path) -> None:
    outcome = _run_mutations(bases, 5000, tmp_path)
    assert outcome["refused"] >= 4000 and outcome["loaded"] >= 100, outcome


def _base(bases: list[dict[str, Any]], game: str) -> dict[str, Any]:
    return copy.deepcopy(next(data for data in bases if data["game"] == game))


def _edited_state(game: str) -> list[tuple[str, Callable[[dict[str, Any]], None]]]:
    """The impossible positions of the issue, written into a save's cached state by hand."""
    def towers_pool(state: dict[str, Any]) -> None:
        state["private"][0]["pool"] = ["R1"] * 500

    def towers_winner(state: dict[str, Any]) -> None:
        state["public"]["winner"] = 0

    def shelfie_floating(state: dict[str, Any]) -> None:
        state["shelves"][0][0] = "C" + state["shelves"][0][0][1:]

    def shelfie_too_many(state: dict[str, Any]) -> None:
        state["bag"]["C"] = 99

    def shelfie_turn(state: dict[str, Any]) -> None:
        state["turn"] = -1

    def shelfie_end_token(state: dict[str, Any]) -> None:
        state["tokens"][0] = [5]

    def projectl_supply(state: dict[str, Any]) -> None:
        state["supply"][0] = -1

    def projectl_stock(state: dict[str, Any]) -> None:
        state["stock"][0][0] = 99

    def projectl_card(state: dict[str, Any]) -> None:
        state["white_row"][0] = 999

    def projectl_ten_puzzles(state: dict[str, Any]) -> None:
        state["puzzles"][0] = [[c, 0, []] for c in range(10)]

    def projectl_duplicate(state: dict[str, Any]) -> None:
        state["white_row"][1] = state["white_row"][0]

    def blokus_extra_move(state: dict[str, Any]) -> None:
        state["moves"].append({"color": "blue", "move": "a1"})

    edits = {
        "towers": [("a pool of 500 stones", towers_pool), ("a winner mid-game", towers_winner)],
        "shelfie": [("a floating tile", shelfie_floating), ("99 tiles of one type", shelfie_too_many),
                    ("a negative turn", shelfie_turn), ("an end token worth 5", shelfie_end_token)],
        "projectl": [("negative supply", projectl_supply), ("a stock of 99", projectl_stock),
                     ("card id 999", projectl_card), ("ten puzzles in hand", projectl_ten_puzzles),
                     ("a duplicated card", projectl_duplicate)],
        "blokus": [("a move not in the actions", blokus_extra_move)],
    }
    return edits[game]


@pytest.mark.parametrize("game", sorted(BASES))
def test_impossible_cached_states_are_refused(bases: list[dict[str, Any]], tmp_path: Path, game: str) -> None:
    for what, edit in _edited_state(game):
        data = _base(bases, game)
        edit(data["state"])
        loaded, error = _check(game, json.dumps(data), tmp_path / "edited.json")
        assert not loaded, what
        assert ": state: the saved state does not match its actions (first at state" in error, what
        assert error.endswith("; the file was edited or damaged)")


@pytest.mark.parametrize(("change", "expected"), [
    (lambda d: d["actions"].__setitem__(2, "zzz"), "actions[2]: 'zzz' is not an action ("),
    (lambda d: d["actions"].__setitem__(2, "a1 1"), "actions[2]: 'a1 1' is illegal here: "),
    (lambda d: d["actions"].__setitem__(2, 7), "actions[2]: must be string, not an integer"),
    (lambda d: d.__setitem__("seed", 1.5), "seed: must be integer, not a number"),
    (lambda d: d.__setitem__("seed", "3"), "seed: must be integer, not a string"),
    (lambda d: d.__setitem__("players", 9), "players: 9 is above 4"),
    (lambda d: d.__setitem__("players", 1), "players: 1 is below 2"),
    (lambda d: d.__setitem__("game", "chess"), "game: \"chess\" is not one of: "),
    (lambda d: d.update(game="towers", options={}), "game: a record of Rainbow Blackjack, not of My Shelfie"),
    (lambda d: d.__setitem__("version", 2), "version: must be 1, not 2"),
    (lambda d: d.pop("actions"), "actions: missing"),
    (lambda d: d["options"].__setitem__("refill_rule", "never"), "options.refill_rule: \"never\" is not one of: "),
    (lambda d: d["options"].__setitem__("colour", "red"), "options.colour: unknown field"),
    (lambda d: d["options"].__setitem__("squares_same_type", "false"), "options.squares_same_type: must be boolean"),
    (lambda d: d.__setitem__("bots", ["wizard", "random"]), "bots: unknown shelfie bot 'wizard'"),
    (lambda d: d.__setitem__("moves_seen", ["?"]), "moves_seen: must list the "),
    (lambda d: d.__setitem__("setup", 999), "setup: 999 is more than the "),
    (lambda d: d.__setitem__("face_up", True), "face_up: My Shelfie has no face-up puzzles"),
    (lambda d: d["actions"].append("refill:" + "C" * 29), "is illegal here: no refill is due"),
])
def test_each_bad_field_is_named_in_one_line(bases: list[dict[str, Any]], tmp_path: Path,
                                             change: Callable[[dict[str, Any]], Any], expected: str) -> None:
    data = _base(bases, "shelfie")
    data.pop("state")
    change(data)
    loaded, error = _load_via_cli("shelfie", json.dumps(data), tmp_path / "bad.json")
    assert not loaded and expected in error, error
    assert error.startswith(f"Error: {tmp_path / 'bad.json'}: ")


def test_a_chance_outcome_must_be_possible(bases: list[dict[str, Any]], tmp_path: Path) -> None:
    """A towers draw of a stone its seat's pool does not hold, and a Shelfie refill with more tiles than exist."""
    towers = copy.deepcopy(bases[-1])  # the challenge: its play reaches the second deal
    draw = next(i for i, text in enumerate(towers["actions"]) if text.startswith("draw "))
    state = GAMES["towers"].new_game(2, towers["seed"])
    for text in towers["actions"][:draw]:
        state.apply(state.string_to_action(text))
    assert state.current_player() == CHANCE
    pool = {text for text, _ in ((state.action_to_string(a), p) for a, p in state.chance_outcomes())}
    towers["actions"][draw] = next(f"draw {s}" for s in ("R1", "Y1", "B1", "G1", "O1", "P1") if f"draw {s}" not in pool)
    loaded, error = _load_via_cli("towers", json.dumps(towers), tmp_path / "t.json")
    assert not loaded and f"actions[{draw}]: " in error and "is not in P" in error, error
    shelfie = _base(bases, "shelfie")
    shelfie["actions"][0] = "refill:" + "C" * len(shelfie["actions"][0].removeprefix("refill:"))
    loaded, error = _load_via_cli("shelfie", json.dumps(shelfie), tmp_path / "s.json")
    assert not loaded and "actions[0]: " in error and "tiles of type C can be drawn" in error, error


def test_old_saves_load_only_with_their_moves(bases: list[dict[str, Any]], tmp_path: Path) -> None:
    """The format before records: a state with its moves is replayed and checked; without them it is refused."""
    data = _base(bases, "shelfie")
    old = {"game": "shelfie", "state": data["state"], "seed": data["seed"], "options": data["options"],
           "bots": data["bots"], "moves": data["actions"], "moves_seen": data["moves_seen"]}
    assert _load_via_cli("shelfie", json.dumps(old), tmp_path / "old.json") == (True, "")
    old["moves"] = old["moves"][:-1]
    loaded, error = _load_via_cli("shelfie", json.dumps(old), tmp_path / "old.json")
    assert not loaded and "the saved state does not match its actions" in error, error
    challenge = {"game": "towers", "kind": "towers endgame challenge", "state": bases[-1]["state"]}
    loaded, error = _load_via_cli("towers", json.dumps(challenge), tmp_path / "old.json")
    assert not loaded and "an old save or challenge file without its actions" in error, error


def test_undo_after_a_load_keeps_the_loaded_moves(bases: list[dict[str, Any]], tmp_path: Path) -> None:
    """Load, move, undo, move, save: the new save holds the loaded moves, then the moves kept, and loads."""
    saved, again = tmp_path / "first.json", tmp_path / "second.json"
    data = _base(bases, "shelfie")
    saved.write_text(json.dumps(data))
    state = load_record(data)[1]
    move = state.action_to_string(state.legal_actions()[0])
    lines = [move, "undo", move, f"save {again}", "quit"]
    result = _invoke("shelfie", "play", "--load", str(saved), input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output[-2000:]
    assert f"saved to {again}" in result.output
    second = json.loads(again.read_text())
    assert second["actions"][: len(data["actions"])] == data["actions"]
    assert second["actions"][len(data["actions"])] == move and len(second["moves_seen"]) == len(second["actions"])
    assert _check("shelfie", json.dumps(second), tmp_path / "check.json") == (True, "")


def test_a_challenge_is_a_record_of_its_seeded_play(bases: list[dict[str, Any]], tmp_path: Path) -> None:
    """Its actions replay to its position; a changed one, or an edited position, is refused."""
    challenge = copy.deepcopy(bases[-1])
    assert _rules_replay(challenge).to_json() == challenge["state"]
    challenge["actions"][-1] = challenge["actions"][-2]
    loaded, error = _load_via_cli("towers", json.dumps(challenge), tmp_path / "c.json")
    assert not loaded and f"actions[{len(challenge['actions']) - 1}]: " in error, error
    challenge = copy.deepcopy(bases[-1])
    challenge["state"]["private"][1]["hand"] = ["J"]
    loaded, error = _load_via_cli("towers", json.dumps(challenge), tmp_path / "c.json")
    assert not loaded and "the saved state does not match its actions" in error, error
