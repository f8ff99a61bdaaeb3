"""Hostile JSON and hand-written input (issue 33): every loader refuses deep, huge or non-regular input with one
line before parsing it; towers states go through a schema and the box's counts; the small input items."""

from __future__ import annotations

import base64
import json
import pickle
import time
import zlib
from pathlib import Path
from typing import Any

import pytest

from puzzles.safe_json import MAX_JSON_BYTES, MAX_JSON_DEPTH, load_json_file, load_json_text

DEEP = "[" * 100_000
DEEP_OBJECT = '{"a":' * 100_000


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A deep file (10^5 brackets), a huge one (over the limit, sparse: no GB written) and a BOM file."""
    folder = tmp_path_factory.mktemp("hostile")
    deep = folder / "deep.json"
    deep.write_text(DEEP)
    huge = folder / "huge.json"
    with huge.open("wb") as handle:
        handle.write(b"[")
        handle.truncate(MAX_JSON_BYTES + 10)
    return {"deep": deep, "huge": huge}


def one_line_error(result: Any, *needles: str) -> None:
    """Exit status 1, one ``Error:`` line naming the problem, no traceback."""
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 1, result.output
    assert lines and lines[-1].startswith("Error: "), result.output
    assert "Traceback" not in result.output
    for needle in needles:
        assert needle in lines[-1], lines[-1]


# -- the safe JSON functions ---------------------------------------------------------------------------------
def test_depth_limit_is_checked_before_parsing() -> None:
    for text in (DEEP, DEEP_OBJECT, "[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1)):
        started = time.monotonic()
        with pytest.raises(ValueError, match=f"^doc: JSON nested deeper than {MAX_JSON_DEPTH} levels$"):
            load_json_text(text, "doc")
        assert time.monotonic() - started < 2
    at_limit = "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH
    assert load_json_text(at_limit, "doc") == json.loads(at_limit)
    # brackets inside strings (escaped quotes too) do not count
    assert load_json_text(json.dumps({"a": "[" * 500 + '\\"{' * 100}), "doc") == {"a": "[" * 500 + '\\"{' * 100}


def test_size_bom_constants_and_bad_text() -> None:
    with pytest.raises(ValueError, match=r"^doc: too large \(17 bytes; the limit is 16\)$"):
        load_json_text('{"a": [1, 2, 3]} ', "doc", max_bytes=16)
    assert load_json_text('\ufeff{"a": 1}', "doc") == {"a": 1}
    assert load_json_text(b'\xef\xbb\xbf[1, 2]', "doc") == [1, 2]
    with pytest.raises(ValueError, match="^doc: not valid JSON"):
        load_json_text("{not json", "doc")
    with pytest.raises(ValueError, match="NaN is not a JSON number"):
        load_json_text('{"a": NaN}', "doc")
    with pytest.raises(ValueError, match=r"^doc: not UTF-8 text \(byte 2\)$"):
        load_json_text(b'[\xff]', "doc")


def test_files_are_checked_before_they_are_read(hostile: dict[str, Path], tmp_path: Path) -> None:
    started = time.monotonic()
    with pytest.raises(ValueError, match=f"^{hostile['huge']}: too large \\(16,777,226 bytes; the limit is 16,777,216\\)$"):
        load_json_file(hostile["huge"])
    with pytest.raises(ValueError, match="^/dev/zero: not a regular file$"):
        load_json_file("/dev/zero")
    with pytest.raises(ValueError, match="is a directory, not a file$"):
        load_json_file(tmp_path)
    with pytest.raises(FileNotFoundError, match="no such file$"):
        load_json_file(tmp_path / "missing.json")
    assert time.monotonic() - started < 2


# -- every loader ----------------------------------------------------------------------------------------------
LOADERS = [
    ("towers solve", ["towers", "solve", "{file}"]),
    ("blokus replay", ["blokus", "replay", "{file}"]),
    ("towers play --load", ["towers", "play", "--load", "{file}", "--bots", "random,random"]),
    ("shelfie play --load", ["shelfie", "play", "--load", "{file}", "--bots", "random,random"]),
    ("projectl play --load", ["projectl", "play", "--load", "{file}", "--bots", "random,random"]),
    ("blokus play --load", ["blokus", "play", "--load", "{file}", "--bots", "random,random"]),
    ("towers play --from (a challenge)", ["towers", "play", "--from", "{file}", "--bots", "random,random"]),
]


@pytest.mark.parametrize("kind", ["deep", "huge"])
@pytest.mark.parametrize(("name", "args"), LOADERS, ids=[name for name, _ in LOADERS])
def test_every_loader_refuses_deep_and_huge_json(run_cli: Any, hostile: dict[str, Path], name: str,
                                                 args: list[str], kind: str) -> None:
    path = hostile[kind]
    started = time.monotonic()
    result = run_cli(*[arg.format(file=path) for arg in args])
    one_line_error(result, str(path), "nested deeper than 64 levels" if kind == "deep" else "too large")
    assert time.monotonic() - started < 2


def test_checkpoint_lines_go_through_safe_json(run_cli: Any, hostile: dict[str, Path], tmp_path: Path) -> None:
    checkpoint = tmp_path / "count.jsonl"
    checkpoint.write_text(DEEP + "\n")
    one_line_error(run_cli("tile", "6x10", "--count", "--checkpoint", str(checkpoint)), "nested deeper than 64 levels")
    one_line_error(run_cli("tile", "6x10", "--count", "--checkpoint", str(hostile["huge"])), str(hostile["huge"]))


def test_record_loader_refuses_devices(run_cli: Any) -> None:
    one_line_error(run_cli("blokus", "replay", "/dev/zero"), "/dev/zero: not a regular file")
    one_line_error(run_cli("towers", "solve", "/dev/zero"), "/dev/zero: not a regular file")


# -- towers states: a schema, then the rules ---------------------------------------------------------------------
@pytest.fixture(scope="module")
def towers_state() -> dict[str, Any]:
    from puzzles.towers.engine import new_game

    state = new_game(2, seed=4)
    while state.round < 5 or state.phase != "pick":
        state.apply(state.legal_actions()[0])
    return state.to_json()


def _mutated(data: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    copy = json.loads(json.dumps(data))
    target = copy
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return copy


@pytest.mark.parametrize(("path", "value", "message"), [
    (("public", "round"), 4.5, "public.round: 4.5 is not of type 'integer'"),
    (("public", "round"), "4", "public.round: '4' is not of type 'integer'"),
    (("public", "round"), 9, "public.round: 9 is greater than the maximum of 6"),
    (("public", "winner"), 1, "public.winner: P2 while the game is not over"),
    (("public", "instant"), "false", "public.instant: 'false' is not of type 'boolean'"),
    (("public", "towers"), [[]] * 5, "public.towers: [[], [], [], [], []] is too short"),
    (("public", "hand_size", 0), -1, "public.hand_size[0]: -1 is less than the minimum of 0"),
    (("private", 0, "pool"), ["R1"] * 500, "private[0].pool: ['R1', 'R1',"),
    (("private", 0, "pool"), ["R1"], "private[0]: R1 more often than P1's box holds it"),
    (("private", 1, "removed"), ["Q9"], "private[1].removed[0]: 'Q9' does not match"),
])
def test_towers_state_field_errors(towers_state: dict[str, Any], path: tuple[Any, ...], value: Any,
                                   message: str) -> None:
    from puzzles.towers import TowersState

    with pytest.raises(ValueError) as caught:
        TowersState.from_json(_mutated(towers_state, path, value))
    text = str(caught.value)
    assert "\n" not in text and text.startswith(f"invalid towers state: {message}"), text


def test_towers_solve_names_the_field(run_cli: Any, towers_state: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    path.write_text("\ufeff" + json.dumps(_mutated(towers_state, ("public", "round"), 4.5)))
    one_line_error(run_cli("towers", "solve", str(path)), "public.round: 4.5 is not of type 'integer'")
    path.write_text("\ufeff" + json.dumps(towers_state))  # a BOM is accepted
    assert run_cli("towers", "solve", str(path), "--time-limit", "30").exit_code == 0


def test_live_states_pass_the_new_checks() -> None:
    """Every state of whole played games loads back (the box, the winner rule and the schema hold in play)."""
    import random

    from puzzles.towers import TowersState
    from puzzles.towers.engine import new_game

    for seed in range(3):
        rng, state = random.Random(seed), new_game(2, seed=seed)
        while True:
            assert TowersState.from_json(state.to_json()) == state
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))


# -- the small items -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "0", "-2"])
@pytest.mark.parametrize("command", [
    ["tile", "6x10"], ["cover", "{dlx}"], ["generate", "tiling"], ["towers", "solve", "{state}"],
    ["shelfie", "best-shelf"], ["blokus", "solitaire", "tetrominoes"], ["towers", "playout"], ["blokus", "playout"],
])
def test_time_limit_must_be_positive_and_finite(run_cli: Any, tmp_path: Path, towers_state: dict[str, Any],
                                                command: list[str], value: str) -> None:
    (tmp_path / "p.dlx").write_text("a\na\n")
    (tmp_path / "s.json").write_text(json.dumps(towers_state))
    args = [arg.format(dlx=tmp_path / "p.dlx", state=tmp_path / "s.json") for arg in command]
    result = run_cli(*args, "--time-limit", value)
    assert result.exit_code == 2, result.output
    assert f"Invalid value for '--time-limit': '{value}' is not a positive, finite number of seconds" in result.output


def test_files_with_a_bom_are_read(run_cli: Any, tmp_path: Path) -> None:
    region = tmp_path / "region.txt"
    region.write_text("\ufeff#####\n#####\n#####\n")
    result = run_cli("tile", str(region), "--pieces", "5*I3", "--count", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["count_raw"] == 4  # as the 5x3 rectangle
    shelf = tmp_path / "shelf.txt"
    shelf.write_text("\ufeff.....\n.....\n.....\n.....\nCC...\nCCB..\n")
    result = run_cli("shelfie", "score", str(shelf), "--json")
    assert result.exit_code == 0, result.output
    card = tmp_path / "card.txt"
    card.write_text("\ufeff" + Path("examples/card.txt").read_text())
    result = run_cli("projectl", "check", str(card), "--stock", "I2x4")
    assert result.exit_code == 0, result.output
    record = tmp_path / "game.json"
    record.write_text('\ufeff{"format": "kibitz-blokus", "variant": "duo", "moves": []}')
    assert run_cli("blokus", "replay", str(record)).exit_code == 0


def test_region_file_size_is_checked_first(run_cli: Any, tmp_path: Path) -> None:
    region = tmp_path / "big.txt"
    with region.open("wb") as handle:
        handle.write(b"#")
        handle.truncate(10 * 1024 * 1024)
    started = time.monotonic()
    one_line_error(run_cli("tile", str(region), "--pieces", "trominoes"),
                   f"region file {region} is too large (10,485,760 bytes; at most 2,097,152)")
    assert time.monotonic() - started < 2


def test_shelf_and_stock_checks(run_cli: Any, tmp_path: Path) -> None:
    shelf = tmp_path / "float.txt"
    shelf.write_text("C....\n.....\n.....\n.....\n.....\n.....\n")
    one_line_error(run_cli("shelfie", "score", str(shelf)), "column 1: tile at row 1 sits above an empty cell")
    over = tmp_path / "over.txt"
    over.write_text("CCCCC\nCCCCC\nCCCCC\nCCCCC\nCCCCC\nBBBBB\n")
    one_line_error(run_cli("shelfie", "score", str(over)), "25 tiles of type C, only 22 exist")
    one_line_error(run_cli("projectl", "check", "examples/card.txt", "--stock", "I2x99999999999999999999"),
                   "pieces I2 in a stock; at most 100")


@pytest.mark.parametrize(("value", "ok"), [(True, True), (False, True), ("false", False), (0, False), (None, False)])
def test_free_corners_only_a_json_boolean(run_cli: Any, tmp_path: Path, value: Any, ok: bool) -> None:
    record = tmp_path / "game.json"
    record.write_text(json.dumps({"format": "kibitz-blokus", "variant": "classic", "free_corners": value, "moves": []}))
    result = run_cli("blokus", "replay", str(record))
    if ok:
        assert result.exit_code == 0, result.output
    else:
        one_line_error(result, f"free_corners: {value!r} is not true or false")


# -- OpenSpiel ---------------------------------------------------------------------------------------------------
def _forged(serialized: str, history: str | None = None, box: Any = None) -> str:
    """``serialized`` with its history line and/or its pickled box replaced."""
    lines = serialized.split("\n")
    if history is not None:
        lines[0] = "history=" + history
    if box is not None:
        lines[2] = "__dict__=" + base64.b64encode(pickle.dumps({"_box": box})).decode()
    return "\n".join(lines)


class _BoxOf:
    """Pickles as the box of another game's state."""

    def __init__(self, module: str, qualname: str, text: str) -> None:
        self.args = (module, qualname, text, [], [])

    def __reduce__(self) -> tuple[Any, ...]:
        from solvers.openspiel import _unbox

        return (_unbox, self.args)


def test_openspiel_deserialize_refuses_forged_states() -> None:
    pytest.importorskip("pyspiel")
    from puzzles.game import GAMES
    from solvers.openspiel import kibitz_state, load_game

    game = load_game("blokus", variant="duo", players=2)
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[3])
    good = state.serialize()
    assert kibitz_state(game.deserialize_state(good)) == kibitz_state(state)
    with pytest.raises(ValueError, match="history names player 7, the game has 2"):
        game.deserialize_state(_forged(good, history="7:0"))
    towers = GAMES["towers"].new_game(2, 1)
    with pytest.raises(ValueError, match="a towers state given to kibitz_blokus"):
        game.deserialize_state(_forged(good, history="", box=_BoxOf("puzzles.towers.engine", "TowersState",
                                                                     towers.dumps())))
    with pytest.raises(ValueError, match="game 'towers': not a blokus state"):
        game.deserialize_state(_forged(good, history="", box=_BoxOf("puzzles.blokus.engine", "BlokusState",
                                                                     towers.dumps())))
    with pytest.raises(ValueError, match="is not a kibitz game state"):
        game.deserialize_state(_forged(good, box=_BoxOf("os", "system", "{}")))
    with pytest.raises(ValueError, match="serialized state: JSON nested deeper than 64 levels"):
        game.deserialize_state(_forged(good, history="", box=_BoxOf("puzzles.blokus.engine", "BlokusState", DEEP)))
    with pytest.raises(ValueError, match="not the one its history reaches"):
        game.deserialize_state(_forged(good, history=""))


def test_openspiel_position_parameter_is_bounded() -> None:
    pytest.importorskip("pyspiel")
    from solvers.openspiel import load_game

    bomb = base64.urlsafe_b64encode(zlib.compress(b" " * (MAX_JSON_BYTES + 100), 9)).decode()
    with pytest.raises(ValueError, match="position: over 16,777,216 bytes once inflated"):
        load_game("towers", position=bomb)
    deep = base64.urlsafe_b64encode(zlib.compress(DEEP.encode(), 9)).decode()
    with pytest.raises(ValueError, match="position: JSON nested deeper than 64 levels"):
        load_game("towers", position=deep)
    from puzzles.game import GAMES
    from solvers.openspiel import position_parameter

    towers = position_parameter(GAMES["towers"].new_game(2, 1))
    with pytest.raises(ValueError, match="position: game 'towers': not a blokus state"):
        load_game("blokus", position=towers)


def test_shelfie_chance_outcomes_empty_at_a_decision_node() -> None:
    pytest.importorskip("pyspiel")
    from solvers.openspiel import load_game

    state = load_game("shelfie", players=2).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert not state.is_chance_node() and state.chance_outcomes() == []
