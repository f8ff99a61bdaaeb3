"""The strip DP (solvers/blokus/strip_dp.py): its refutations are proofs, so it must never refute a board that has
a layout.  Checked against an independent brute-force search on small piece sets, and on every stored one-color
layout of a narrow board, whose own choices the DP must carry through all its pruning."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from puzzles.polyomino import Shape, piece_set
from solvers.blokus.solitaire_sat import check_layout, empty_edge_budget, layout_cells
from solvers.blokus.strip_dp import PIECES, find_layout, play_order, refute

DATA = Path(__file__).parent / "data"
STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def _stored(board: str) -> list[tuple[tuple[int, int], ...]]:
    """The one-color layout stored for ``board`` in tests/data: each piece's cells, (row, col), in play order."""
    return layout_cells(json.loads((DATA / f"blokus_sat_layout_{board}_1c.json").read_text()))


def _from_anchor(cells: frozenset[tuple[int, int]]) -> list[tuple[int, int]]:
    """A shape's cells as offsets from its first cell in scan order (column by column)."""
    ar, ac = min(cells, key=lambda rc: (rc[1], rc[0]))
    return [(r - ar, c - ac) for r, c in cells]


def _connected(covered: set[tuple[int, int]]) -> bool:
    """Whether the covered cells are one 8-connected set with (0, 0)."""
    todo, seen = [(0, 0)], {(0, 0)}
    while todo:
        r, c = todo.pop()
        for n in ((r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)):
            if n in covered and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(covered)


def _with_edges(shape: list[tuple[int, int]]) -> tuple[list[tuple[int, int]], list[tuple[int, int]],
                                                         tuple[int, int, int, int]]:
    """A shape's offsets, the offsets edge-adjacent to it (where no other piece may be) and its extent (lowest and
    highest row offset, then column offset): the brute force's per-shape tables."""
    edges = {(r + dr, c + dc) for r, c in shape for dr, dc in STEPS} - set(shape)
    rows, cols = [r for r, _ in shape], [c for _, c in shape]
    return shape, sorted(edges), (min(rows), max(rows), min(cols), max(cols))


def has_layout(short: int, long: int, pieces: tuple[Shape, ...]) -> bool:
    """Brute force: all pieces on a ``short`` x ``long`` board (rows x columns), no two sharing an edge, the covered
    cells 8-connected (the corner-contact chain) and the cell (0, 0) covered (the start corner)."""
    return a_layout(short, long, pieces) is not None


def a_layout(short: int, long: int, pieces: tuple[Shape, ...]) -> set[tuple[int, int]] | None:
    """:func:`has_layout`'s search: the covered cells of the first layout found, or None."""
    cells = [(r, c) for c in range(long) for r in range(short)]
    spare = short * long - sum(len(p.cells) for p in pieces)
    shapes = [[_with_edges(_from_anchor(o)) for o in {frozenset(o.cells) for o in p.orientations()}] for p in pieces]
    covered: set[tuple[int, int]] = set()
    empty: set[tuple[int, int]] = set()
    found_layout: list[set[tuple[int, int]]] = []

    def search(i: int, left: frozenset[int]) -> bool:
        while i < len(cells) and (cells[i] in covered or cells[i] in empty):
            i += 1
        if not left:
            if (0, 0) in covered and _connected(covered):
                found_layout.append(set(covered))
                return True
            return False
        if i == len(cells):
            return False
        r0, c0 = cells[i]
        for k in sorted(left):
            for shape, edges, (low, high, left_most, right_most) in shapes[k]:
                if r0 + low < 0 or r0 + high >= short or c0 + left_most < 0 or c0 + right_most >= long:
                    continue
                placed = {(r + r0, c + c0) for r, c in shape}
                if any((r + r0, c + c0) in covered for r, c in edges) or not covered.isdisjoint(placed):
                    continue
                covered.update(placed)
                found = search(i + 1, left - {k})
                covered.difference_update(placed)
                if found:
                    return True
        if i > 0 and len(empty) < spare:
            empty.add(cells[i])
            found = search(i + 1, left)
            empty.discard(cells[i])
            return found
        return False

    if spare >= 0 and search(0, frozenset(range(len(pieces)))):
        return found_layout[0]
    return None


def _empty_edges(short: int, long: int, layout: list[tuple[tuple[int, int], ...]]) -> int:
    """Counted on a layout (rows ``long``, columns ``short``): unit edges between two empty cells, and empty cells'
    edges on the border."""
    covered = {q for piece in layout for q in piece}
    empty = {(r, c) for r in range(long) for c in range(short)} - covered
    inner = sum((r + 1, c) in empty for r, c in empty) + sum((r, c + 1) in empty for r, c in empty)
    border = sum((r == 0) + (r == long - 1) + (c == 0) + (c == short - 1) for r, c in empty)
    return inner + border


def random_boards(seed: int, count: int, most_pieces: int) -> Iterator[tuple[tuple[Shape, ...], int, int]]:
    """``count`` small instances: 2..``most_pieces`` Blokus pieces, and a board (short, long) from the fewest cells
    that could hold them to 3 columns more."""
    rng = random.Random(seed)
    blokus = piece_set("blokus")
    for _ in range(count):
        pieces = tuple(rng.sample(blokus, rng.randint(2, most_pieces)))
        short = rng.choice([2, 3, 3, 4])
        yield pieces, short, max(short, -(-sum(len(p.cells) for p in pieces) // short) + rng.randint(0, 3))


def test_every_layout_spends_exactly_the_empty_edge_budget() -> None:
    """The budget the DP prunes by, against layouts the brute force found on small piece sets."""
    checked = 0
    for pieces, short, long in random_boards(5, 60, 5):
        covered = a_layout(short, long, pieces)
        if covered is not None:
            transposed = [tuple((c, r) for r, c in covered)]  # rows along the long side, as _empty_edges counts
            assert _empty_edges(short, long, transposed) == empty_edge_budget(short, long, pieces)
            checked += 1
    assert checked >= 10


def test_never_refutes_a_board_with_a_layout_and_refutes_the_others_here() -> None:
    verdicts = []
    for pieces, short, long in random_boards(7, 70, 5):
        grouped = refute(short, long, pieces, grouped=True).refuted
        verdicts.append((has_layout(short, long, pieces), refute(short, long, pieces).refuted, grouped, long, pieces))
    assert not [v for v in verdicts if v[0] and v[1]], "refuted a board that has a layout"
    assert all(v[1] for v in verdicts if v[2]), "the grouped DP (a relaxation of the exact one) refuted more"
    # a relaxation (connectivity is checked column by column), yet it refutes all but 2 of the boards without one
    assert len([v for v in verdicts if not v[0] and not v[1]]) <= 2
    assert sum(v[2] for v in verdicts) >= 10
    assert sum(v[0] for v in verdicts) >= 10 and sum(v[1] for v in verdicts) >= 10  # both answers exercised


@pytest.mark.parametrize("grouped", [False, True], ids=["exact", "grouped"])
@pytest.mark.parametrize("board", ["3x48", "3x53", "4x39", "4x40", "4x41", "5x32", "6x27"])
def test_a_stored_layout_survives_every_pruning_step(board: str, grouped: bool) -> None:
    cols, rows = map(int, board.split("x"))
    layout = _stored(board)
    result = refute(cols, rows, grouped=grouped, follow=layout)
    assert not result.refuted and result.peak_states == 1
    assert result.fewest_empty_edges == empty_edge_budget(cols, rows, PIECES) == _empty_edges(cols, rows, layout)
    assert refute(cols, rows, grouped=grouped, follow=layout[:-1]).refuted  # one piece left out: nothing places it


@pytest.mark.parametrize("grouped", [False, True], ids=["exact", "grouped"])
@pytest.mark.parametrize("board", ["3x44", "6x22"])
def test_refutes_a_board_sat_left_unknown(board: str, grouped: bool) -> None:
    """3x44 and 6x22 (43 empty cells each): SAT ran 2,400 CPU-s on each without an answer; the DP refutes 3x44 in
    about a second, and 6x22 too once it keeps to the perimeter budget (6 empty edges)."""
    short, long = map(int, board.split("x"))
    result = refute(short, long, grouped=grouped)
    assert result.refuted and not result.stopped


def test_stops_when_asked_and_says_so() -> None:
    result = refute(3, 44, should_stop=lambda: True)
    assert result.stopped and not result.refuted
    assert find_layout(3, 44, should_stop=lambda: True).status == "unknown"  # unknown at the limit, not impossible


def test_the_guided_search_finds_exactly_the_boards_with_a_layout() -> None:
    """find_layout against the brute force: a layout that follows the rules where one exists, else "impossible"."""
    found = 0
    for pieces, short, long in random_boards(11, 36, 6):
        result = find_layout(short, long, pieces)
        if has_layout(short, long, pieces):
            assert result.status == "found" and result.layout is not None
            check_layout(short, long, result.layout, pieces)  # (row, col) cells on a board ``short`` columns wide
            found += 1
        else:
            assert result.status == "impossible"
    assert found >= 5


@pytest.mark.parametrize("board", ["3x48", "3x53", "4x39"])
def test_the_guided_search_finds_a_stored_layout_when_kept_to_its_choices(board: str) -> None:
    """The whole search on 21 pieces (grouped layers, live states, the exact pieces' images, the depth-first
    search, the play order), kept to one stored layout's choices: it finds that layout, in a legal play order."""
    cols, rows = map(int, board.split("x"))
    layout = _stored(board)
    result = find_layout(cols, rows, follow=layout)
    assert result.status == "found" and result.layout is not None
    assert sorted(map(sorted, result.layout)) == sorted(map(sorted, layout))
    check_layout(cols, rows, result.layout)
    assert find_layout(cols, rows, follow=layout[:-1]).status == "impossible"


RESULTS = Path(__file__).resolve().parent.parent / "bench" / "results" / "blokus_rectangles.json"
STRIP_RECORDS = [r for r in json.loads(RESULTS.read_text()).values() if r["proof"] == "strip DP"]
STRIP_PROOFS = sorted((r for r in STRIP_RECORDS if r["status"] == "unsat"), key=lambda r: r["cpu_seconds"])


def test_the_results_files_strip_dp_records_are_narrow_boards_with_their_layouts() -> None:
    """Proved impossible, or found with the layout stored (which the rectangle tests replay)."""
    assert STRIP_PROOFS and all(r["status"] in ("unsat", "found") and r["cols"] <= 6 for r in STRIP_RECORDS)
    for record in (r for r in STRIP_RECORDS if r["status"] == "found"):
        layout = _stored(record["board"])
        check_layout(record["cols"], record["rows"], layout)  # raises on any broken rule


@pytest.mark.slow
@pytest.mark.parametrize("record", [r for r in STRIP_PROOFS if r["cpu_seconds"] <= 300], ids=lambda r: r["board"])
def test_a_strip_dp_proof_in_the_results_file_holds_again(record: dict) -> None:
    """The results file's strip-DP refutations of up to 300 CPU-s, searched again (3x44, 3x46, 3x47: ~3 min)."""
    assert find_layout(record["cols"], record["rows"]).status == "impossible"


def test_play_order_plays_the_monomino_last_unless_it_joins_the_chain() -> None:
    """The game's +5 for the monomino last: the 3x48 layout (its monomino is not needed by the chain) scores 20."""
    layout = _stored("3x48")
    order = play_order(random.Random(3).sample(layout, len(layout)))
    assert order is not None and len(order[-1]) == 1
    check_layout(3, 48, order)
    bridge = [((0, 0), (0, 1)), ((2, 3), (2, 4)), ((1, 2),)]  # the monomino links the two dominoes
    assert play_order(bridge) == [bridge[0], bridge[2], bridge[1]]
