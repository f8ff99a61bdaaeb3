"""My Shelfie scoring API: Bookshelf parsing, adjacency, personal goals, every common goal."""

from __future__ import annotations

import numpy as np
import pytest

from puzzles.shelfie import (
    COMMON_GOAL_KEYS,
    Bookshelf,
    adjacency_points,
    common_goal_met,
    groups,
    load_data,
    personal_goal_card,
    personal_goal_points,
)
from tests import shelfie_reference as reference

RULEBOOK = ["PP...", "PPPP.", "FFPPB", "FGGGB", "FTCCC", "TTTCC"]


def S(*rows: str, strict: bool = True) -> Bookshelf:
    """Shelf from rows given bottom-aligned: missing top rows are empty."""
    rows = ["....."] * (6 - len(rows)) + list(rows)
    return Bookshelf.from_rows(rows, strict=strict)


def met(key: str, shelf: Bookshelf, **options: bool) -> bool:
    """The kernel's answer (through the scoring API), checked against the plain-Python reference."""
    answer = common_goal_met(key, shelf, **options)
    assert answer == reference.common_goal_met(key, shelf, **options)
    return answer


# --- Bookshelf -----------------------------------------------------------------------------------


def test_rulebook_adjacency_example_scores_21() -> None:
    shelf = Bookshelf.from_rows(RULEBOOK)
    assert adjacency_points(shelf) == 21 == load_data()["rulebook_adjacency_example"]["points"]
    sizes = sorted(len(cells) for _, cells in groups(shelf))
    assert sizes == [2, 3, 4, 4, 5, 8]  # B2 G3 F4 T4 C5 P8: 0+2+3+3+5+8
    assert groups(shelf) == reference.groups(shelf) and reference.adjacency_points(shelf) == 21


@pytest.mark.parametrize("size,points", [(1, 0), (2, 0), (3, 2), (4, 3), (5, 5), (6, 8), (7, 8), (10, 8)])
def test_adjacency_group_sizes(size: int, points: int) -> None:
    cells = ["....."] * 6
    grid = [list(r) for r in cells]
    order = [(5, 0), (5, 1), (5, 2), (5, 3), (5, 4), (4, 0), (4, 1), (4, 2), (4, 3), (4, 4)]
    for r, c in order[:size]:
        grid[r][c] = "T"
    assert adjacency_points(Bookshelf.from_rows(["".join(r) for r in grid], strict=False)) == points


def test_from_rows_round_trip_and_views() -> None:
    shelf = Bookshelf.from_rows(RULEBOOK)
    assert shelf.rows() == RULEBOOK
    assert Bookshelf.from_rows(" / ".join(RULEBOOK)) == shelf
    assert Bookshelf.from_text("# comment\n" + "\n".join(RULEBOOK) + "\n") == shelf
    assert shelf.heights() == [6, 6, 5, 5, 4]
    assert shelf.free_cells(2) == 1 and shelf.num_tiles() == 26 and not shelf.is_full()
    assert sum(shelf.counts()) == 26
    assert Bookshelf.from_rows(["pp...", "PPPP.", "ffppb", "FGGGB", "FTCCC", "TTTCC"]) == shelf


@pytest.mark.parametrize(
    "rows,message",
    [
        (["P....", "....."] + ["....."] * 4, "above an empty cell"),
        (["....."] * 5, "6 rows"),
        (["....."] * 5 + ["PPP."], "4 cells"),
        (["....."] * 5 + ["PPXP."], "unknown tile letter 'X'"),
        (["PPPPP"] * 6, "only 22"),
    ],
)
def test_from_rows_strict_rejects_impossible_shelves(rows: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Bookshelf.from_rows(rows)


def test_from_rows_loose_accepts_any_pattern_but_not_bad_letters() -> None:
    shelf = Bookshelf.from_rows(["P....", "....."] + ["....."] * 4, strict=False)
    assert shelf.num_tiles() == 1
    assert Bookshelf.from_rows(["PPPPP"] * 6, strict=False).counts()[5] == 30
    with pytest.raises(ValueError, match="unknown tile letter"):
        Bookshelf.from_rows(["....."] * 5 + ["PPZP."], strict=False)
    with pytest.raises(ValueError, match="6 rows"):
        Bookshelf.from_rows(["....."] * 7, strict=False)


# --- personal goals ----------------------------------------------------------------------------


def test_personal_goal_cards_have_one_cell_of_each_type() -> None:
    for card in range(1, 13):
        cells = personal_goal_card(card)
        assert len(cells) == 6 and sorted(t for _, _, t in cells) == list(range(6))
    with pytest.raises(ValueError, match="personal goal card"):
        personal_goal_card(13)


@pytest.mark.parametrize("card", [1, 7, 12])
def test_personal_goal_points_for_0_to_6_matches(card: int) -> None:
    cells = personal_goal_card(card)
    for k, expected in enumerate([0, 1, 2, 4, 6, 9, 12]):
        grid = np.full((6, 5), -1, dtype=np.int8)
        for r, c, t in cells[:k]:
            grid[r, c] = t
        for r, c, t in cells[k:]:  # a wrong type on the other cells
            grid[r, c] = (t + 1) % 6
        assert personal_goal_points(card, Bookshelf(grid)) == expected


def test_personal_goal_on_a_real_shelf() -> None:
    # card 1: P(0,0) F(0,2) C(1,4) B(2,3) G(3,1) T(5,2)
    shelf = Bookshelf.from_rows(["P.F..", "P.F.C", "PGFBC", "PGFBC", "PGFBC", "PGTBC"])
    assert personal_goal_points(1, shelf) == 12
    assert personal_goal_points(1, ["....."] * 6) == 0


# --- common goals --------------------------------------------------------------------------------


def test_goal_keys_are_the_digest_keys() -> None:
    assert len(COMMON_GOAL_KEYS) == 12
    with pytest.raises(ValueError, match="unknown common goal"):
        common_goal_met("SEVEN_PAIRS", S("CCBBG"))
    assert common_goal_met("six-pairs", S("CCBBG", "TTFFG", "PPCCB"))  # keys are forgiving


def test_six_pairs() -> None:
    assert met("SIX_PAIRS", S("CCBBG", "TTFFG", "PPCCB"))  # 7 separate pairs
    # touching same-type pairs form ONE group: the four C count once
    assert not met("SIX_PAIRS", S("CCBBG", "CCFFG", "PPTBC"))
    assert met("SIX_PAIRS", S("CCBBG", "CCFFG", "PPTTB"))  # C4, BB, GG, FF, PP, TT
    assert not met("SIX_PAIRS", S("CBGFT", "BGFTC"))


def test_four_groups_of_four() -> None:
    assert met("FOUR_GROUPS_OF_FOUR", S("CBGF.", "CBGF.", "CBGF.", "CBGF."))
    # two touching groups of four are one group of eight
    assert not met("FOUR_GROUPS_OF_FOUR", S("CCGF.", "CCGF.", "CCGF.", "CCGF."))
    assert not met("FOUR_GROUPS_OF_FOUR", S("CBG..", "CBG..", "CBG..", "CBG.."))


def test_two_squares_default_and_options() -> None:
    two_kinds = S("CCBB.", "CCBB.")
    assert met("TWO_SQUARES", two_kinds)
    assert not met("TWO_SQUARES", two_kinds, squares_same_type=True)
    # a square inside a larger group is not a 2x2 group by default
    in_group = S("C....", "CCBB.", "CCBB.")
    assert not met("TWO_SQUARES", in_group)
    assert met("TWO_SQUARES", in_group, squares_inside_groups=True)
    # a 2x4 block: one group of 8 by default, two squares when they may sit inside groups
    block = S("CCCC.", "CCCC.")
    assert not met("TWO_SQUARES", block)
    assert met("TWO_SQUARES", block, squares_inside_groups=True)
    assert met("TWO_SQUARES", block, squares_inside_groups=True, squares_same_type=True)
    # overlapping squares (a 2x3 block) are not two squares
    assert not met("TWO_SQUARES", S("CCC..", "CCC.."), squares_inside_groups=True)
    same = S("CC.CC", "CC.CC")
    assert met("TWO_SQUARES", same, squares_same_type=True)
    assert met("TWO_SQUARES", same)
    assert not met("TWO_SQUARES", S("CCBB.", "CCBT."))  # one square only


def test_four_corners() -> None:
    corners = S("T...T", "C...C", "B...B", "G...G", "F...F", "T...T")
    assert met("FOUR_CORNERS", corners)
    assert not met("FOUR_CORNERS", S("T...P", "C...C", "B...B", "G...G", "F...F", "T...T"))
    assert not met("FOUR_CORNERS", S("C...C", "B...B", "G...G", "F...F", "T...T"))  # top corners empty


def test_eight_same() -> None:
    assert met("EIGHT_SAME", S("P.P..", "PBPBP", "PCPCP"))  # 8 plants, not all touching
    assert not met("EIGHT_SAME", S("P....", "PBPBP", "PCPCP"))


STAIR_DOWN_RIGHT = ["G....", "CG...", "CBG..", "CBTG.", "CBTFG", "CBTFP"]  # filler varies by column


@pytest.mark.parametrize(
    "rows",
    [
        STAIR_DOWN_RIGHT,  # (0,0)..(4,4)
        [".....", "G....", "CG...", "CBG..", "CBTG.", "CBTFG"],  # (1,0)..(5,4)
        [r[::-1] for r in STAIR_DOWN_RIGHT],  # (0,4)..(4,0)
        [".....", "....G", "...GC", "..GBC", ".GTBC", "GFTBC"],  # (1,4)..(5,0)
    ],
)
def test_diagonal_all_four_lines(rows: list[str]) -> None:
    shelf = Bookshelf.from_rows(rows)
    assert met("DIAGONAL", shelf)
    broken = [list(r) for r in rows]
    for r, row in enumerate(broken):  # change the diagonal's middle tile
        for c, ch in enumerate(row):
            if ch == "G" and r in (2, 3) and c == 2:
                row[c] = "B"
    assert not met("DIAGONAL", Bookshelf.from_rows(["".join(r) for r in broken]))


def test_diagonal_needs_five() -> None:
    assert not met("DIAGONAL", S("G....", "CG...", "CCG..", "CCCG."))


def test_x_shape() -> None:
    assert met("X_SHAPE", S("TBT..", "CTC..", "TBT.."))
    assert met("X_SHAPE", S("..FBF", "..CFC", "..FBF", "..CCC"))
    assert not met("X_SHAPE", S("TBT..", "CCC..", "TBT.."))  # centre differs
    assert not met("X_SHAPE", S("BTB..", "TTT..", "BTB.."))  # a plus is not an X


def test_four_rows_max3_full_rows_only() -> None:
    assert met("FOUR_ROWS_MAX3", S("CCBBG", "GGCCB", "BBGGC", "CBGCB"))
    assert not met("FOUR_ROWS_MAX3", S("CCBFG", "GGCCB", "BBGGC", "CBGCB"))  # a row with 4 types
    assert not met("FOUR_ROWS_MAX3", S("CCCC.", "GGCCB", "BBGGC", "CBGCB"))  # 4th row not full


def test_three_columns_max3_full_columns_only() -> None:
    cols = S("CCC..", "BCB..", "GGG..", "CCC..", "BBB..", "GCG..")
    assert met("THREE_COLUMNS_MAX3", cols)
    assert not met("THREE_COLUMNS_MAX3", S("CCF..", "BCB..", "GGG..", "CPC..", "BBB..", "GTG.."))
    assert not met("THREE_COLUMNS_MAX3", S("CC...", "BCB..", "GGG..", "CCC..", "BBB..", "GCG.."))


def test_two_rows_all_different() -> None:
    assert met("TWO_ROWS_ALL_DIFFERENT", S("CBGFT", "BGFTP"))
    assert not met("TWO_ROWS_ALL_DIFFERENT", S("CBGFC", "BGFTP"))
    assert not met("TWO_ROWS_ALL_DIFFERENT", S("CBGF.", "BGFTP"))


def test_two_columns_all_different() -> None:
    assert met("TWO_COLUMNS_ALL_DIFFERENT", S("CB...", "BG...", "GF...", "FT...", "TP...", "PC..."))
    assert not met("TWO_COLUMNS_ALL_DIFFERENT", S("CB...", "BG...", "GF...", "FT...", "TP...", "PB..."))
    assert not met("TWO_COLUMNS_ALL_DIFFERENT", S("B....", "BG...", "GF...", "FT...", "TP...", "PC..."))


@pytest.mark.parametrize(
    "heights,expected",
    [
        ([1, 2, 3, 4, 5], True),
        ([2, 3, 4, 5, 6], True),
        ([5, 4, 3, 2, 1], True),
        ([6, 5, 4, 3, 2], True),
        ([0, 1, 2, 3, 4], False),  # base 0 is not allowed
        ([4, 3, 2, 1, 0], False),
        ([1, 2, 3, 4, 6], False),
        ([1, 2, 3, 5, 4], False),
        ([3, 3, 3, 3, 3], False),
    ],
)
def test_staircase(heights: list[int], expected: bool) -> None:
    grid = np.full((6, 5), -1, dtype=np.int8)
    for c, h in enumerate(heights):
        grid[6 - h:, c] = (c + np.arange(h)) % 6
    assert met("STAIRCASE", Bookshelf(grid)) is expected


def test_staircase_with_a_hole_fails_on_loose_shelves() -> None:
    rows = [".....", "....C", "...CC", "..CC.", ".CCCC", "CCCCC"]
    assert not met("STAIRCASE", Bookshelf.from_rows(rows, strict=False))


def test_empty_shelf_meets_nothing_and_full_uniform_rows_meet_rows_goals() -> None:
    empty = Bookshelf()
    assert not any(common_goal_met(k, empty) for k in COMMON_GOAL_KEYS)
    rows = Bookshelf.from_rows(["CCCCC", "BBBBB", "GGGGG", "FFFFF", "TTTTT", "PPPPP"])
    assert met("FOUR_ROWS_MAX3", rows) and met("THREE_COLUMNS_MAX3", rows) is False
    assert met("TWO_COLUMNS_ALL_DIFFERENT", rows) and not met("TWO_ROWS_ALL_DIFFERENT", rows)
