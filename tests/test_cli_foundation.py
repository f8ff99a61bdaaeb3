"""The tile and cover commands, including their one-line errors on bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from puzzles.polyomino import Region, Shape
from tests.test_exact_cover import KNUTH_XCC


def test_tile_count_json(run_cli) -> None:
    result = run_cli("tile", "6x10", "--pieces", "pentominoes", "--count", "--json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert (data["count_raw"], data["count_symmetry"], data["complete"]) == (9356, 2339, True)
    unique = json.loads(run_cli("tile", "3x20", "--count", "--unique", "--json").output)
    assert unique["count_symmetry"] == 2


def test_tile_find_prints_a_verified_tiling(run_cli) -> None:
    result = run_cli("tile", "6x10", "--pieces", "pentominoes", "--json")
    data = json.loads(result.output)
    assert result.exit_code == 0 and data["found"]
    cells = [tuple(c) for p in data["tiling"]["pieces"] for c in p["cells"]]
    assert sorted(cells) == sorted(Region.from_spec("6x10").cells)
    assert sorted(p["name"] for p in data["tiling"]["pieces"]) == sorted("FILNPTUVWXYZ")
    text = run_cli("tile", "8x5", "--pieces", "2*tetrominoes", "--backend", "sat").output  # (3x20 pentominoes: 5 s of Glucose)
    assert len(text.splitlines()) == 6 and text.splitlines()[-1].startswith("found: one tiling, verified")


def test_tile_all_lists_each_tiling(run_cli) -> None:
    data = json.loads(run_cli("tile", "3x20", "--all", "--json").output)
    assert data["count"] == 8 and len({json.dumps(t, sort_keys=True) for t in data["tilings"]}) == 8
    assert json.loads(run_cli("tile", "3x20", "--all", "--unique", "--json").output)["count"] == 2


def test_tile_region_and_pieces_from_files(run_cli, tmp_path: Path) -> None:
    region = tmp_path / "ring.txt"
    region.write_text("########\n########\n########\n###..###\n###..###\n########\n########\n########\n")
    data = json.loads(run_cli("tile", str(region), "--count", "--json").output)
    assert (data["count_raw"], data["count_symmetry"]) == (520, 65)
    pieces = tmp_path / "pieces.txt"
    pieces.write_text("name: A\n##\n\nname: A\n##\n")
    data = json.loads(run_cli("tile", "2x2", "--pieces", str(pieces), "--count", "--json").output)
    assert (data["count_raw"], data["count_symmetry"]) == (2, 1)
    assert run_cli("tile", "5x4", "--pieces", "tetrominoes").output.strip() == "no tiling exists (proved: exhaustive search)"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["tile", "6x10", "--pieces", "pentominoes,Q"], "unknown piece or piece set 'Q'"),
        (["tile", "6x1q"], "malformed region"),
        (["tile", "0x5"], "positive sides"),
        (["tile", "6x10", "--count", "--backend", "sat"], "need the dlx backend"),
    ],
)
def test_tile_bad_input_one_line_error(run_cli, args: list[str], message: str) -> None:
    result = run_cli(*args)
    assert result.exit_code != 0
    assert message in result.output and len(result.output.strip().splitlines()) == 1


def test_non_polyomino_piece_file_is_refused(run_cli, tmp_path: Path) -> None:
    pieces = tmp_path / "bad.txt"
    pieces.write_text("#.#\n")
    result = run_cli("tile", "3x1", "--pieces", str(pieces))
    assert result.exit_code != 0 and "not a polyomino" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_cover_command(run_cli, tmp_path: Path) -> None:
    path = tmp_path / "xcc.dlx"
    path.write_text(KNUTH_XCC)
    data = json.loads(run_cli("cover", str(path), "--all", "--json").output)
    assert data["count"] == 1 and sorted(data["solutions"][0]) == ["p r x:A y", "q x:A"]
    assert json.loads(run_cli("cover", str(path), "--count", "--json").output)["count_raw"] == 1


@pytest.mark.parametrize(
    ("text", "message"),
    [("a b\na c\n", "line 2: option 1 uses unknown item 'c'"), ("a b | x\na x:A:B\n", "malformed item")],
)
def test_cover_bad_files(run_cli, tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.dlx"
    path.write_text(text)
    result = run_cli("cover", str(path))
    assert result.exit_code != 0 and message in result.output
    assert len(result.output.strip().splitlines()) == 1
    missing = run_cli("cover", str(tmp_path / "nope.dlx"))
    assert missing.exit_code != 0 and "nope.dlx" in missing.output


def test_shape_is_hashable_and_usable_as_key() -> None:
    assert len({Shape.from_ascii("##"), Shape.from_ascii("#/#").transformed(1)}) == 1


# -- the human at the terminal: the same commands in every game ----------------------------------------

HUMAN_VS = {"blokus": "human,random,random,random", "projectl": "human,random", "shelfie": "human,random", "towers": "human,random"}


@pytest.mark.parametrize("game", sorted(HUMAN_VS))
def test_quit_help_and_hint_are_the_same_in_every_game(run_cli, game: str) -> None:
    result = run_cli(game, "play", "--bots", HUMAN_VS[game], input="help\nhint\n?\nundo\nquit\n")
    assert result.exit_code == 0, result.output
    assert "save FILE" in result.output and "  hint: " in result.output and "nothing to undo yet" in result.output
    assert "game stopped (quit) after" in result.output and "seed 0" in result.output
    assert "Traceback" not in result.output


def test_undo_save_and_load(run_cli, tmp_path: Path) -> None:
    """undo takes back the human's move and the replies; save FILE + play --load continues the same game."""
    import json

    saved = tmp_path / "game.json"
    lines = ["d2 e2 3", "undo", "d2 3", f"save {saved}", "quit"]
    result = run_cli("shelfie", "play", "--bots", "human,greedy", "--json", input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    assert "took back 2 moves" in result.output
    data = json.loads(saved.read_text())
    assert data["format"] == "kibitz-record" and data["game"] == "shelfie" and data["players"] == 2
    assert data["actions"][0].startswith("refill:") and data["actions"][1] == "d2 3" and len(data["actions"]) == 3
    again = run_cli("shelfie", "play", "--load", str(saved), "--json", input="quit\n")
    out = again.stdout
    final = json.loads(out[out.index("{"):])
    assert again.exit_code == 0 and final["moves"] == data["actions"] and final["status"] == "quit"
    assert run_cli("towers", "play", "--load", str(saved)).exit_code == 1  # a shelfie save is not a towers game


# -- bad input: one line, non-zero exit, no traceback -------------------------------------------------------

def _bad_files(tmp: Path) -> dict[str, Path]:
    files = {
        "shelf_short": "PP...\nPPPP.\n",
        "shelf_letter": "PP...\nPPPP.\nFFPPB\nFGGGB\nFTCCC\nTTTCZ\n",
        "shelf_float": "P....\n.....\n.....\n.....\n.....\n.....\n",  # a tile over a hole (strict)
        "card_badrow": "W01 0 I2\n.....\n..#\n.....\n.....\n.....\n",
        "card_badshape": "W01 0 Q7\n.....\n.....\n.#...\n.#...\n.....\n",
        "card_empty": "",
        "save_text": "not json",
        "save_nostate": '{"game": "shelfie"}',
        "save_damaged": '{"game": "shelfie", "state": {"nonsense": 1}}',
    }
    paths = {}
    for name, text in files.items():
        paths[name] = tmp / f"{name}.txt"
        paths[name].write_text(text)
    return paths


BAD_INPUTS: list[list[str]] = [
    ["shelfie", "score", "{shelf_short}"],
    ["shelfie", "score", "{shelf_letter}"],
    ["shelfie", "score", "{shelf_float}"],
    ["shelfie", "score", "{missing}"],
    ["shelfie", "score", "{dir}"],
    ["shelfie", "score", "examples/shelf.txt", "--personal", "13"],
    ["shelfie", "score", "examples/shelf.txt", "--goals", "SIX_PAIRS"],
    ["shelfie", "score", "examples/shelf.txt", "--goals", "SIX_PAIRS,NOPE"],
    ["shelfie", "best-shelf", "--personal", "3", "--goals", "STAIRCASE,STAIRCASE"],
    ["shelfie", "best-shelf", "--personal", "0", "--goals", "STAIRCASE,DIAGONAL"],
    ["shelfie", "best-shelf", "--personal", "3", "--goals", "STAIRCASE,DIAGONAL", "--time-limit", "-1"],
    ["shelfie", "best-shelf", "--personal", "3", "--goals", "STAIRCASE,DIAGONAL", "--threads", "0"],
    ["shelfie", "play", "--players", "5"],
    ["shelfie", "play", "--bots", "greedy,wizard"],
    ["shelfie", "play", "--bots", "greedy,greedy,greedy"],
    ["shelfie", "play", "--bots", "mcts:0"],
    ["shelfie", "play", "--bots", "lookahead:fast"],
    ["shelfie", "play", "--common-goals", "DIAGONAL"],
    ["shelfie", "play", "--personal-cards", "3,x"],
    ["shelfie", "play", "--load", "{missing}"],
    ["shelfie", "play", "--load", "{save_text}"],
    ["shelfie", "play", "--load", "{save_nostate}"],
    ["shelfie", "play", "--load", "{save_damaged}"],
    ["shelfie", "playout", "--games", "0"],
    ["shelfie", "playout", "--bots", "human"],
    ["shelfie", "playout", "--workers", "0"],
    ["shelfie", "playout", "--seed", "x"],
    ["projectl", "check", "{card_badrow}"],
    ["projectl", "check", "{card_badshape}"],
    ["projectl", "check", "{card_empty}"],
    ["projectl", "check", "{missing}"],
    ["projectl", "check", "examples/card.txt", "--stock", "I2,Q9"],
    ["projectl", "check", "examples/card.txt", "--stock", "I2x-1"],
    ["projectl", "check", "examples/hand.txt"],
    ["projectl", "check", "examples/hand.txt", "--card", "W99"],
    ["projectl", "check", "examples/hand.txt", "--turn", "--actions", "4"],
    ["projectl", "play", "--players", "5"],
    ["projectl", "play", "--rules", "modern"],
    ["projectl", "play", "--bots", "greedy,random,random"],
    ["projectl", "playout", "--bots", "greedy,wizard"],
    ["projectl", "playout", "--games", "-3"],
    ["projectl", "generate-deck", "--out", "{dir}"],
]


@pytest.mark.parametrize("args", BAD_INPUTS, ids=[" ".join(a) for a in BAD_INPUTS])
def test_bad_input_is_one_line_error(run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]) -> None:
    files = {k: str(v) for k, v in _bad_files(tmp_path).items()}
    files.update(missing=str(tmp_path / "no-such-file.txt"), dir=str(tmp_path))
    monkeypatch.chdir(Path(__file__).resolve().parent.parent)
    from click.testing import CliRunner

    from cli import main

    result = CliRunner().invoke(main, [a.format(**files) for a in args], input="quit\n")
    assert result.exit_code not in (0, None), result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), (
        f"traceback: {result.exception!r}")
    errors = [line for line in result.output.splitlines() if line.startswith("Error")]
    assert len(errors) == 1 and "Traceback" not in result.output, result.output


@pytest.mark.parametrize("game", ["projectl", "shelfie", "towers"])
def test_play_writes_the_final_position_as_svg(run_cli, tmp_path: Path, game: str) -> None:
    picture = tmp_path / "end.svg"
    result = run_cli(game, "play", "--bots", "random", "--svg", str(picture), "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["svg"] == str(picture)
    assert picture.read_text().startswith("<svg")
    assert run_cli(game, "play", "--svg", str(tmp_path / "no" / "x.svg")).exit_code == 1
