"""Polyomino core: shapes, orientations, canonical forms, regions, placements, rendering."""

from __future__ import annotations

import re

import pytest

from puzzles.polyomino import PIECE_SETS, Placed, Region, Shape, Tiling, piece, piece_set


@pytest.mark.parametrize(
    ("family", "count", "orientations"),
    [("monomino", 1, 1), ("domino", 1, 2), ("trominoes", 2, 6), ("tetrominoes", 5, 19),
     ("pentominoes", 12, 63), ("blokus", 21, 91), ("projectl", 9, 28)],
)
def test_named_sets_have_the_known_sizes(family: str, count: int, orientations: int) -> None:
    shapes = piece_set(family)
    assert len(shapes) == count
    assert sum(len(s.orientations()) for s in shapes) == orientations
    assert len({s.canonical() for s in shapes}) == count  # all different free shapes


def test_blokus_set_is_every_free_polyomino_up_to_five_cells() -> None:
    areas = sorted(s.area for s in piece_set("blokus"))
    assert areas == [1, 2, 3, 3] + [4] * 5 + [5] * 12
    assert sum(areas) == 89


def test_ascii_parsing_normalises_and_compares() -> None:
    s = Shape.from_ascii("##./.##")
    assert s.cells == frozenset({(0, 0), (0, 1), (1, 1), (1, 2)})
    assert Shape.from_ascii("\n  ..##\n  .##.\n") .cells == Shape.from_ascii(".##/##.").cells
    assert s.area == 4 and s.bounding_box == (2, 3)
    assert s != Shape.from_ascii(".##/##.")  # fixed shapes differ
    assert s.canonical() == Shape.from_ascii(".##/##.").canonical()  # same free shape
    assert s.is_same_free_shape(piece("S", "tetrominoes"))
    assert len(s.rotations()) == 2 and len(s.orientations()) == 4 and s.orientations(free=False) == [s]


def test_non_polyomino_is_rejected() -> None:
    with pytest.raises(ValueError, match="not a polyomino"):
        Shape.from_ascii("#.#")
    with pytest.raises(ValueError):
        Shape.from_ascii("...")
    with pytest.raises(ValueError, match="unexpected character"):
        Shape.from_ascii("#?#")


def test_region_parsing_and_symmetry_groups() -> None:
    assert Region.from_spec("6x10").area == 60
    assert (Region.from_spec("6x10").width, Region.from_spec("6x10").height) == (6, 10)
    assert Region.from_spec("6x10").symmetries() == [0, 2, 4, 5]
    assert len(Region.from_spec("8x8").symmetries()) == 8
    holed = Region.rectangle(8, 8).without([(3, 3), (3, 4), (4, 3), (4, 4)])
    assert holed.area == 60 and len(holed.symmetries()) == 8
    corner_missing = Region.rectangle(8, 8).without([(0, 0)])
    assert corner_missing.symmetries() == [0, 6]  # only the main diagonal survives
    assert Region.from_spec("##./###").area == 5
    with pytest.raises(ValueError):
        Region.from_spec("6x")
    with pytest.raises(ValueError):
        Region.from_spec("0x4")



def test_region_from_spec_reads_sizes_inline_art_and_files(tmp_path) -> None:
    """The one region parser: WxH, inline art and a file of art give the same regions; bad input is one line."""
    art = tmp_path / "region.txt"
    art.write_text("##.\n###\n")
    assert Region.from_spec(str(art)) == Region.from_spec("##./###") == Region.rectangle(3, 2).without([(0, 2)])
    assert Region.from_spec(" 6X10 ") == Region.rectangle(6, 10)
    binary = tmp_path / "region.bin"
    binary.write_bytes(b"\xff\xfe#")
    cases = [("6x1q", "malformed region '6x1q' (and no such file): use WxH"), ("   ", "malformed region '   '"),
             (str(tmp_path), "is a folder, not a file"), (str(binary), "is not a text file"),
             ("1001x1000", "region 1001x1000 has 1,001,000 cells; at most 1,000,000"),
             ("0x4", "a rectangle needs positive sides, got 0x4"), ("._./...", "the region has no cells")]
    for spec, message in cases:
        with pytest.raises(ValueError, match=re.escape(message)) as caught:
            Region.from_spec(spec)
        assert "\n" not in str(caught.value)


def test_one_size_parser_for_regions_and_boards() -> None:
    """WxH is read by parse_size alone: Region.from_spec and the Blokus boards agree on what a size is."""
    from puzzles.polyomino import parse_size
    from solvers.blokus.solitaire import parse_board

    for text, size in [("6x10", (6, 10)), (" 6X10 ", (6, 10)), ("20 x 20", (20, 20)), ("19×19", (19, 19))]:
        assert parse_size(text) == parse_board(text) == size
        assert Region.from_spec(text) == Region.rectangle(*size)
    assert parse_size("0x4") == (0, 4)  # a size; the rectangle refuses it (see above)
    for text in ["20", "6x", "x", "19x19x1", "ax3", "-3x4", "1.5x2", "\u00b2x3", ""]:
        assert parse_size(text) is None
        with pytest.raises(ValueError, match=re.escape(f"malformed board {text!r} (expected WxH, e.g. 19x19)")):
            parse_board(text)
        with pytest.raises(ValueError, match="malformed region"):
            Region.from_spec(text)

def test_placements_counts() -> None:
    board = Region.rectangle(20, 20)
    assert len(board.placements(piece("X", "pentominoes"))) == 18 * 18
    # on an empty Blokus board the 21 pieces have 30,433 placements
    assert sum(len(board.placements(s)) for s in piece_set("blokus")) == 30433
    assert len(Region.rectangle(2, 2).placements(piece("O", "tetrominoes"))) == 1
    assert len(Region.rectangle(3, 2).placements(piece("L", "tetrominoes"), free=False)) == 1


def test_rendering_text_and_svg() -> None:
    region = Region.rectangle(2, 2)
    tiling = Tiling(region, (Placed("A", ((0, 0), (0, 1))), Placed("B", ((1, 0), (1, 1)))))
    tiling.verify()
    assert tiling.to_text(color=False) == " A A\n B B"
    assert "\x1b[" in tiling.to_text(color=True)
    for obj in (tiling, region, piece("F", "pentominoes")):
        svg = obj._repr_svg_()
        assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert svg.count("<rect") == 5


def test_tiling_verify_catches_errors() -> None:
    region = Region.rectangle(2, 2)
    with pytest.raises(ValueError, match="covered by both"):
        Tiling(region, (Placed("A", ((0, 0), (0, 1))), Placed("B", ((0, 1), (1, 1))))).verify()
    with pytest.raises(ValueError, match="uncovered"):
        Tiling(region, (Placed("A", ((0, 0), (0, 1))),)).verify()
    with pytest.raises(ValueError, match="outside"):
        Tiling(region, (Placed("A", ((0, 0), (0, 1), (0, 2))), Placed("B", ((1, 0), (1, 1))))).verify()


def test_sets_registry_is_complete() -> None:
    assert set(PIECE_SETS) == {"monomino", "domino", "trominoes", "tetrominoes", "pentominoes", "blokus", "projectl"}
    with pytest.raises(ValueError, match="unknown piece set"):
        piece_set("hexominoes")
