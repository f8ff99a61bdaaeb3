"""Blokus SGF records read as Pentobi reads them: game names, move properties, one move per node, collections."""

from __future__ import annotations

from pathlib import Path

import pytest

from puzzles.blokus.engine import BlokusState
from puzzles.blokus.records import from_sgf, load, parse_collection, to_sgf


def test_duo_numbered_colours_replay_two_moves() -> None:
    state = from_sgf("(;GM[Blokus Duo];1[e10];2[j5])")
    assert state.variant.name == "duo"
    assert [m.text for _, m in state.moves_played] == ["e10", "j5"]
    assert state.to_move == 0


@pytest.mark.parametrize("gm,variant", [("blokus", "classic"), ("BLOKUS DUO", "duo"), ("Blokus two-player", "two-player")])
def test_game_names_are_case_insensitive(gm: str, variant: str) -> None:
    assert from_sgf(f"(;GM[{gm}])").variant.name == variant


def test_two_moves_in_one_node_are_refused() -> None:
    with pytest.raises(ValueError, match="more than one move in one node"):
        from_sgf("(;GM[Blokus];1[a20]2[t20])")
    with pytest.raises(ValueError, match="more than one move"):
        from_sgf("(;GM[Blokus];1[a20][t1,t2])")
    assert len(from_sgf("(;GM[Blokus Duo];B[e10][f10])").history) == 1  # Pentobi < 0.3: one value per cell


def test_several_game_trees_are_refused_or_selected(tmp_path: Path) -> None:
    text = "(;GM[Blokus Duo];B[e10])\n(;GM[Blokus Duo];B[e10];W[j5])\n(;GM[Blokus Duo])\n"
    with pytest.raises(ValueError, match="holds 3 games"):
        from_sgf(text)
    assert len(from_sgf(text, game_index=1).history) == 2
    path = tmp_path / "selfplay.blksgf"
    path.write_text(text)
    assert len(load(path, game_index=0).history) == 1
    with pytest.raises(ValueError, match="out of range"):
        load(path, game_index=3)


def test_deep_nesting_and_variations() -> None:
    deep = "(" * 20_000 + ";GM[Blokus Duo];B[e10]" + ")" * 20_000
    assert len(from_sgf(deep).history) == 1
    branching = "(;GM[Blokus Duo];B[e10](;W[j5];B[d8,d9])(;W[k4]))"
    assert [m.text for _, m in from_sgf(branching).moves_played] == ["e10", "j5", "d8,d9"]
    assert len(parse_collection(branching)) == 1
    for bad in ["(;GM[Blokus Duo]", "(;GM[Blokus Duo]))", "x(;GM[Blokus])", "(;GM[Blokus];1[a20)"]:
        with pytest.raises(ValueError):
            from_sgf(bad)


def test_round_trip_still_holds() -> None:
    state = BlokusState("two-player")
    for text in ("a20", "t20", "t1", "a1"):
        state.apply(state.string_to_action(text))
    again = from_sgf(to_sgf(state))
    assert again == state


def test_cli_selects_a_game_of_a_selfplay_file(tmp_path: Path) -> None:
    """``replay``/``moves`` refuse a several-game file with a one-line error and take ``--game-index``."""
    from click.testing import CliRunner

    from cli import main

    path = tmp_path / "selfplay.blksgf"
    path.write_text("(;GM[Blokus Duo];B[e10])\n(;GM[Blokus Duo];B[e10];W[j5])\n")
    runner = CliRunner()
    refused = runner.invoke(main, ["blokus", "replay", str(path)])
    assert refused.exit_code == 1 and refused.output.count("\n") == 1 and "--game-index 0..1" in refused.output
    second = runner.invoke(main, ["blokus", "replay", str(path), "--game-index", "1", "--json"])
    assert second.exit_code == 0 and '"moves": 2' in second.output
    moves = runner.invoke(main, ["blokus", "moves", str(path), "--game-index", "0", "--json"])
    assert moves.exit_code == 0 and '"to_move": "orange"' in moves.output
    beyond = runner.invoke(main, ["blokus", "moves", str(path), "--game-index", "2"])
    assert beyond.exit_code == 1 and "out of range" in beyond.output and "Traceback" not in beyond.output
