"""Blokus on other boards: rectangle tables, the solitaire variants, rendering, stored all-pieces layouts.

The layouts in ``tests/data/blokus_all_pieces_*.json`` were found by
``kibitz blokus solitaire all-pieces --board WxH --colors K`` (the command line is stored in each file);
the default suite replays them through the rule engine, the slow suite finds the 19x19 and 18x20 ones again.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from puzzles.blokus.engine import BlokusState, get_variant, solitaire_variant
from puzzles.blokus.render import board_svg, board_text
from puzzles.blokus.tables import board_tables
from puzzles.game import IllegalActionError

DATA = Path(__file__).parent / "data"
LAYOUTS = sorted(DATA.glob("blokus_all_pieces_*.json"))
FOUR_COLOR_BOARDS = {"19x19", "18x20"}  # the published boards the issue asks for


def _load(path: Path) -> tuple[dict, BlokusState]:
    data = json.loads(path.read_text())
    return data, BlokusState.from_json(data)  # every move parsed and re-checked by the engine


# -- tables and variants ----------------------------------------------------------------------------------------


def test_square_tables_unchanged() -> None:
    t = board_tables(20)
    assert (t.cols, t.rows, t.size, t.width) == (20, 20, 20, 22)
    assert t.num_placements == 30_433
    assert board_tables(20, 20) is t  # one cached object per board


@pytest.mark.parametrize("cols, rows", [(13, 13), (7, 5), (3, 9)])
def test_placements_are_numbered_as_the_region_places_them(cols: int, rows: int) -> None:
    """The tables' placements (built with numpy, every start) are Region.placements' placements in its order, each
    padded with its first cell: the numbers that bots' seeded choices and the perft counts depend on."""
    from puzzles.blokus.tables import PIECES
    from puzzles.polyomino import Region

    t = board_tables(cols, rows)
    pieces, cells = [], []
    for p, shape in enumerate(PIECES):
        for placed in Region.rectangle(cols, rows).placements(shape):
            flat = [t.flat(r, c) for r, c in placed]
            pieces.append(p)
            cells.append(flat + flat[:1] * (5 - len(flat)))
    assert t.pl_piece.tolist() == pieces and t.pl_cells.tolist() == cells


def test_rectangle_tables_block_the_cells_outside() -> None:
    t = board_tables(7, 5)  # 7 columns, 5 rows, laid out in a 7x7 padded square
    assert (t.cols, t.rows, t.size, t.width) == (7, 5, 7, 9)
    assert int((t.border == 0).sum()) == 35
    cells = {t.unflat(int(q)) for m in range(t.num_placements) for q in t.pl_cells[m, : t.pl_size[m]]}
    assert cells == {(r, c) for r in range(5) for c in range(7)}
    for m in range(t.num_placements):  # edge and corner lists never leave the rectangle
        for q in list(t.pl_adj[m, : t.pl_nadj[m]]) + list(t.pl_corners[m, : t.pl_ncorners[m]]):
            assert t.border[q] == 0
    assert t.moves[t.placement_of([(0, 0)])].text == "a5"
    with pytest.raises(ValueError, match="off the 7x5 board"):
        t.parse_cells("h1")
    with pytest.raises(ValueError, match="off the 7x5 board"):
        t.parse_cells("a6")


def test_solitaire_variant_corners_and_names() -> None:
    v = get_variant("solitaire-18x20-4")
    assert v == solitaire_variant(18, 20, 4) and (v.width, v.height, v.size) == (18, 20, 20)
    assert v.starts == (((0, 0),), ((0, 17),), ((19, 17),), ((19, 0),))
    assert v.num_players == 1 and v.is_solitaire and not v.is_standard_board
    assert solitaire_variant(12, 15, 2).colors == ("blue", "red")
    assert solitaire_variant(12, 15, 2).starts == (((0, 0),), ((14, 11),))
    assert solitaire_variant(10, 10, 3).colors == ("blue", "yellow", "red")
    assert not get_variant("classic").is_solitaire and get_variant("classic").width == 20
    assert (solitaire_variant(3, 53, 1).width, solitaire_variant(3, 53, 1).height) == (3, 53)  # the thin boards
    for bad in ("solitaire-2x20-4", "solitaire-27x20-1", "solitaire-20x63-1", "solitaire-20x20-5", "solitaire-20-4"):
        with pytest.raises(ValueError):
            get_variant(bad)


def test_rules_on_a_rectangle() -> None:
    state = BlokusState("solitaire-7x5-2")
    first = {m.text for m in state.legal_actions()}
    assert "a5" in first and all("a5" in t.split(",") for t in first)  # blue's first piece covers a5
    state.apply(state.string_to_action("a5,b5"))
    assert {"g1"} <= {c for m in state.legal_actions() for c in m.text.split(",")}  # red starts at g1
    state.apply(state.string_to_action("g1"))
    with pytest.raises(IllegalActionError, match="edge"):
        state.apply(state.string_to_action("c5"))  # edge contact with blue's domino
    state.apply(state.string_to_action("c4"))
    assert state.current_player() == 0 and state.scores() == [float(-86 - 88)]  # blue placed 3 cells, red 1
    again = BlokusState.from_json(json.loads(json.dumps(state.to_json())))
    assert again == state and again.grid() == state.grid() and len(state.grid()) == 5 and len(state.grid()[0]) == 7
    with pytest.raises(ValueError):
        BlokusState("solitaire-7x5-2", free_corners=True)


def test_render_shows_only_the_rectangle() -> None:
    state = BlokusState("solitaire-7x5-1")
    text = board_text(state, color=False, pieces=False).splitlines()
    assert text[0].split() == list("abcdefg") and len(text) == 6 and text[1].split() == ["5", "+"] + ["."] * 6
    svg = board_svg(state, size=10)
    cells = re.findall(r'class="cell" data-row="(\d+)" data-col="(\d+)"', svg)
    assert sorted((int(r), int(c)) for r, c in cells) == [(r, c) for r in range(5) for c in range(7)]


# -- stored layouts ---------------------------------------------------------------------------------------------


def test_the_four_color_layouts_are_stored() -> None:
    boards = {json.loads(p.read_text())["board"] for p in LAYOUTS if json.loads(p.read_text())["colors"] == 4}
    assert boards >= FOUR_COLOR_BOARDS


@pytest.mark.parametrize("path", LAYOUTS, ids=[p.stem for p in LAYOUTS])
def test_stored_layout_replays(path: Path) -> None:
    from solvers.blokus.solitaire import verify_solution

    data, state = _load(path)
    cols, rows = map(int, data["board"].split("x"))
    assert (state.tables.cols, state.tables.rows, state.num_colors) == (cols, rows, data["colors"])
    verify_solution(state)  # all 21 pieces of every color, no overlap
    assert state.is_terminal()
    assert state.color_scores() == [20] * data["colors"]  # perfect: each color's monomino last
    empty = sum(row.count(-1) for row in state.grid())
    assert empty == cols * rows - 89 * data["colors"] == data["empty_cells"]
    svg = board_svg(state)
    assert svg.count('stroke="#bbbbbb"') == cols * rows


# -- the command ------------------------------------------------------------------------------------------------


def test_all_pieces_refuses_impossible_and_unsupported(run_cli, tmp_path: Path) -> None:
    result = run_cli("blokus", "solitaire", "all-pieces", "--board", "13x13", "--colors", "2")
    assert result.exit_code != 0 and "fewer than the 178 cells" in result.output
    assert len(result.output.strip().splitlines()) == 1
    result = run_cli("blokus", "solitaire", "all-pieces", "--board", "20", "--colors", "1")
    assert result.exit_code != 0 and "malformed board" in result.output
    result = run_cli("blokus", "solitaire", "all-pieces", "--board", "19x19", "--sgf", str(tmp_path / "x.blksgf"))
    assert result.exit_code != 0 and "SGF" in result.output and not (tmp_path / "x.blksgf").exists()
    result = run_cli("blokus", "solitaire", "all-pieces", "--board", "20x20", "--colors", "3", "--symmetric")
    assert result.exit_code != 0 and "symmetry" in result.output


def test_all_pieces_interrupted_says_so(run_cli, monkeypatch) -> None:
    from solvers.blokus import solitaire

    def interrupted(self, deadline, progress):
        raise KeyboardInterrupt

    monkeypatch.setattr(solitaire._Search, "run", interrupted)
    result = run_cli("blokus", "solitaire", "all-pieces", "--board", "19x19")
    assert result.exit_code == 130 and "interrupted" in result.output
    result = run_cli("blokus", "solitaire", "all-pieces", "--board", "19x19", "--json")
    assert result.exit_code == 130 and json.loads(result.output)["status"] == "interrupted"


def test_all_pieces_one_color_on_a_roomy_board(run_cli, tmp_path: Path) -> None:
    svg = tmp_path / "one.svg"
    result = run_cli("blokus", "solitaire", "all-pieces", "--board", "14x14", "--colors", "1", "--time-limit", "60",
                     "--svg", str(svg), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["status"] == "found" and data["placed"] == 21 and data["scores"] == {"blue": 20}
    assert data["board"] == "14x14" and data["empty_cells"] == 196 - 89
    state = BlokusState("solitaire-14x14-1")
    for move in data["moves"]:
        state.apply(state.string_to_action(move["cells"]))
    assert state.color_scores() == [20]
    assert svg.read_text().count('stroke="#bbbbbb"') == 196


# -- slow: find the published boards again ----------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("board", sorted(FOUR_COLOR_BOARDS))
def test_refind_four_color_layout(board: str) -> None:
    from solvers.blokus.solitaire import solve_all_pieces, verify_solution

    stored = [json.loads(p.read_text()) for p in LAYOUTS]
    data = next(d for d in stored if d["board"] == board and d["colors"] == 4)
    cols, rows = map(int, board.split("x"))
    result = solve_all_pieces(symmetric=True, perfect=True, time_limit=3600, board=(cols, rows), colors=4,
                              **data["search"])
    assert result.status == "found" and result.state is not None
    verify_solution(result.state)
    assert result.empty_cells == data["empty_cells"] and result.state.color_scores() == [20] * 4


def test_codecs_refuse_solitaire_boards() -> None:
    """The OpenSpiel/PettingZoo action layout is for the game variants: a solitaire board is refused, not mis-sized."""
    from puzzles.blokus.codec import BlokusCodec

    with pytest.raises(ValueError, match="solitaire"):
        BlokusCodec(BlokusState(solitaire_variant(18, 20, 4)))
