"""SAT models of the all-pieces solitaire puzzles: proofs that a rectangle is too small, or a layout.

The question (``docs/rules/blokus.md``, "Solitaire puzzles"): can all 21 pieces of one color be placed on a
``cols`` x ``rows`` rectangle under the rules?  The color's first piece covers its start corner (blue: the
top-left cell), every later piece touches an earlier piece of its color corner to corner, and two pieces of
one color never share an edge.  A set of placements is playable in some order exactly when (a) one of them
covers the start corner, (b) no two share a cell or an edge, (c) the graph "touches at a corner" on them is
connected: play them in breadth-first order from the corner piece.

The model (CaDiCaL 1.9.5 through python-sat), one boolean per placement and per cell:

* each piece exactly once; each cell covered by at most one piece; ``cell`` true iff a piece covers it;
* a placement forbids every cell edge-adjacent to it (its halo) to all pieces (same color: rule (b));
* a placement needs one of its corner cells (diagonal neighbours off its halo) covered: every piece
  touches another at a corner, the relaxation of (c) to "no isolated piece";
* the start corner is covered (a).

Connectivity is added lazily: when the solver answers with a disconnected layout, each component S gets the
cut "if all of S is placed, some cell at a corner of S (off S) is covered".  Every real layout satisfies every
cut (a component of fewer than 21 pieces touches another piece at a corner, and that piece covers such a
cell), so UNSAT of the model with its cuts proves that no layout exists; SAT with a connected answer is a
layout, which the caller replays through the rule engine.

Redundant per-color counts make the proofs fast on thin boards (3x41: UNSAT in seconds, none in 67 CPU s
without them): exactly 89 covered cells, and exactly 216 unit edges between a covered cell and an uncovered
cell or the border (the pieces' perimeter, since no edge joins two pieces of a color).  With one color the
same identity, counted from the empty side, is a small bound (:func:`empty_edge_budget`): at most
``2 * empty + cols + rows - 108`` unit edges between two empty cells or an empty cell and the border.  It
propagates where the count of 216 does not (7x19, 6 such edges: UNSAT in 1 CPU-s, 433 without it).  Each
color also meets itself corner to corner at 20 lattice points or more, plus one per empty cell its cells shut in
(:meth:`LayoutModel._add_corner_contacts`, from the Euler number of a connected color): a consequence of the
connectivity the local rules and the lazy cuts only reach late (10x14: 87 CPU-s, 167 without it).  And one color's
lattice points with one covered cell around them, plus twice those with none, number at most
:func:`exposed_corner_count` (:meth:`LayoutModel._add_exposed_corners`): each empty border cell costs 2 there, which
the empty-edge budget does not see (10x14: 1.1 CPU-s; 11x13: 1.8, unknown before after 17,000).

Several colors (:class:`LayoutModel`): one such model per color, coupled by "each cell at most once" (and
"every cell covered" where no cell is spare, as on 21x17 with the half turn: all but the centre) and by two counts
over the lattice points: the junctions where three or four regions meet (:func:`tiling_junction_bound`, Euler's formula
with the pieces as faces: exactly 168 on 21x17) and the same less the colors' corner contacts
(:func:`tiling_weight_bound`: at most 88 on 21x17);
with ``half_turn`` red and green are the images of blue and yellow (the searched colors), which halves the
model and forces the centre cell of an odd board empty.  UNSAT there proves only that no half-turn
symmetric layout exists.

Cheap refusals come first (:func:`perimeter_bound`): the 21 pieces have 216 unit edges of perimeter; each
faces the board's border or an empty cell (never another piece: no shared edges), and an empty cell has at
most 4 sides, so ``4 * empty + 2 * (cols + rows) >= 216``.  :func:`run_bound` splits that count into rows
and columns, with the orientations the pieces can take on the board (it refuses 3x42, which 600 CPU s of
SAT did not settle).  :func:`border_bound` counts the board's lattice points by the cells around them: one color's
pieces fix ``one + 2 * none`` (points with one covered cell, and with none) in every layout
(:func:`exposed_corner_count`: 13 on 11x13), and the border alone needs more than that on 14 of the 15 boards SAT
proved impossible (not 3x45) and on 11x13, which SAT left unknown after 17,000 CPU-s.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from itertools import combinations

from puzzles.polyomino import Region, Shape, piece_set

PIECES = piece_set("blokus")
PIECE_SIZES = tuple(p.area for p in PIECES)
CELLS_PER_COLOR = sum(PIECE_SIZES)  # 89
STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONALS = ((1, 1), (1, -1), (-1, 1), (-1, -1))
SOLVER = "cadical195"
CHUNK_CONFLICTS = 20_000  # the solver stops this often to look at the CPU clock and at Ctrl-C (a chunk: up to ~6 s).
# Shorter chunks answer sooner but search worse: each call restarts CaDiCaL's search, and with 5,000 it found 12x14 and
# 11x15 in 73 and 134 CPU s, against 17 and 36 (python-sat's CaDiCaL cannot be interrupted mid-call, nor frees the GIL)

Cell = tuple[int, int]


def piece_perimeter(cells: tuple[Cell, ...]) -> int:
    """Unit edges on the boundary of a piece (4 per cell, minus 2 per pair of edge neighbours)."""
    inside = set(cells)
    return sum(1 for r, c in cells for dr, dc in STEPS if (r + dr, c + dc) not in inside)


TOTAL_PERIMETER = sum(piece_perimeter(tuple(p.cells)) for p in PIECES)  # 216


def perimeter_bound(cols: int, rows: int) -> bool:
    """True when the perimeter count refuses the board for one color: ``4 * empty + 2 * (cols + rows) < 216``.

    Proof: no two pieces share an edge, so each of the pieces' 216 boundary unit edges faces either the
    board's border (at most ``2 * (cols + rows)`` of them) or an empty cell, and an empty cell has 4 sides: the
    same count as :func:`empty_edge_budget`, whose budget is then below zero (the sum is even, so halving it keeps
    the sign).
    """
    return empty_edge_budget(cols, rows) < 0


def empty_edge_budget(cols: int, rows: int, pieces: Sequence[Shape] = PIECES) -> int:
    """Unit edges between two empty cells, plus empty cells' edges on the border, in every layout of ``pieces`` on
    the board (one color): the board's ``4 * cells`` edge ends count each inner edge twice and each border edge
    once, and the covered cells' boundary is exactly the pieces' perimeters (no edge joins two of them).
    Negative: no layout (:func:`perimeter_bound`'s refusal)."""
    empty = cols * rows - sum(p.area for p in pieces)
    perimeter = sum(piece_perimeter(tuple(p.cells)) for p in pieces)
    return (4 * empty + 2 * (cols + rows) - perimeter) // 2


def piece_runs(cells: tuple[Cell, ...]) -> tuple[int, int]:
    """(row runs, column runs) of a piece as placed: its maximal segments of cells along rows, and along columns.
    They add up to half its perimeter, so an orientation only moves runs from one count to the other."""
    inside = set(cells)
    return (sum(1 for r, c in cells if (r, c - 1) not in inside), sum(1 for r, c in cells if (r - 1, c) not in inside))


def fewest_runs(shape: Shape) -> tuple[int, int]:
    """The fewest row runs and the fewest column runs over a piece's orientations (each minimised on its own)."""
    runs = [piece_runs(tuple(o.cells)) for o in shape.orientations()]
    return min(r for r, _ in runs), min(c for _, c in runs)


def run_bound(cols: int, rows: int) -> bool:
    """True when the runs count refuses the board for one color (it implies :func:`perimeter_bound`'s refusals).

    Proof: two pieces never share an edge, so in each row the maximal segments of covered cells (runs) are
    each one piece's cells, with at least one empty cell between two runs: ``cols >= covered + runs - 1`` in
    every row.  Summed over rows, ``rows * cols >= 89 + row runs - rows``; over columns the same with column runs
    and ``cols``.  Each piece adds its runs in the orientation it lies in (:func:`piece_runs`), and only
    orientations that fit the board count; no choice of them meets both sums here.  On 3-row boards the
    3x3 pentominoes cannot lie flat, which :func:`perimeter_bound` (both sums added) does not see."""
    spare = cols * rows - CELLS_PER_COLOR
    most_row_runs, most_col_runs = spare + rows, spare + cols
    row_run_sums = {0}
    for shape in PIECES:
        runs = {piece_runs(tuple(o.cells)) for o in shape.orientations() if o.height <= rows and o.width <= cols}
        row_run_sums = {total + row for total in row_run_sums for row, _ in runs if total + row <= most_row_runs}
    return not any(TOTAL_PERIMETER // 2 - total <= most_col_runs for total in row_run_sums)


#: The lattice points' classes by the cells around them (outside the board counts as empty): none covered, one,
#: two side by side, two diagonal, three, four (:func:`point_classes`).
POINT_CLASSES = ("none", "one", "side", "diagonal", "three", "four")


def point_classes(cols: int, rows: int, covered: set[Cell] | frozenset[Cell]) -> dict[str, int]:
    """How many of the board's ``(cols + 1) * (rows + 1)`` lattice points fall in each of :data:`POINT_CLASSES`,
    given the covered cells ((row, col)); cells outside the board count as empty."""
    counts = dict.fromkeys(POINT_CLASSES, 0)
    for r in range(rows + 1):
        for c in range(cols + 1):
            on = [q in covered for q in ((r - 1, c - 1), (r - 1, c), (r, c - 1), (r, c))]
            two = "diagonal" if on[0] == on[3] else "side"
            counts[("none", "one", two, "three", "four")[sum(on)]] += 1
    return counts


def straight_points(pieces: Sequence[Shape] = PIECES) -> int:
    """The lattice points where a piece's boundary goes straight on (two of its cells side by side around the point,
    the other two not its own), summed over the pieces: 74 for one Blokus color."""
    return sum(point_classes(shape.width, shape.height, shape.cells)["side"] for shape in pieces)


def exposed_corner_count(cols: int, rows: int, pieces: Sequence[Shape] = PIECES) -> int:
    """``one + 2 * none`` over the board's lattice points (:func:`point_classes`), the same in every layout of
    ``pieces`` (one color): 13 on 11x13.

    Proof.  Two covered cells side by side are one piece (no edge joins two pieces of a color), and the other two
    cells around a point where a piece's boundary goes straight on border its cells, so no other piece covers them:
    ``side`` is :func:`straight_points`.  Count (point, unit edge at it with no covered cell on either side) pairs:
    4 at a point "none", 2 at "one", 1 at "side", 0 at the others.  Each such edge on the board has both ends on
    its lattice points, and they are the empty edges (:func:`empty_edge_budget`, the same in every layout); the
    ``2 * (cols + rows) + 4`` edges outside the board that end on its border points have one.  So
    ``4 * none + 2 * one + side = 2 * budget + 2 * (cols + rows) + 4``."""
    side = straight_points(pieces)  # even: in each piece, straight points = perimeter - corners, both even
    return empty_edge_budget(cols, rows, pieces) + cols + rows + 2 - side // 2


def border_points_need(cols: int, rows: int, pieces: Sequence[Shape] = PIECES) -> int:
    """The least ``one + 2 * none`` over the board's border lattice points alone (:func:`point_classes`) in any
    layout of ``pieces`` (one color, both sides at least 2): 20 on 11x13.

    Proof.  The ``ring = 2 * (cols + rows) - 4`` cells along the border form a cycle in which neighbours share an
    edge, so each run of covered ones lies in one piece: at most ``most`` cells (the largest piece).  With ``e`` of
    them empty there are at most ``e`` runs, so ``ring - e <= most * e``.  The point between two ring cells is in
    the class "one" at each change from covered to empty and "none" between two empty ones (``2 * e`` between them,
    "none" counting twice), and each board corner is "one" or "none": at least ``2 * e + 4``."""
    ring = 2 * (cols + rows) - 4
    most = max(p.area for p in pieces)
    return 2 * -(-ring // (most + 1)) + 4


def border_bound(cols: int, rows: int, pieces: Sequence[Shape] = PIECES) -> bool:
    """True when the border's lattice points alone need more (:func:`border_points_need`) than all the points have
    (:func:`exposed_corner_count`): no layout (one color).  It refuses 11x13, 12x12, 9x16 and 8x18, which SAT left
    unknown, and 14 of the 15 boards SAT proved impossible (not 3x45)."""
    return min(cols, rows) >= 2 and border_points_need(cols, rows, pieces) > exposed_corner_count(cols, rows, pieces)


def tiling_point_weight(labels: Sequence[int | None]) -> tuple[int, int]:
    """``(g, d)`` at one lattice point of a layout of several colors, from the labels of the four cells around it,
    in the order north-west, north-east, south-west, south-east: a color (0, 1, ...), -1 for an empty cell, None for
    outside the board.

    Two cells side by side with different labels are split by a boundary edge (two cells of one color side by side
    are one piece; two outside cells are not split), and ``g = max(0, edges - 2)`` over the point's four edges (1 where
    three regions meet, 2 where four do).  ``d`` counts the colors whose two cells diagonal at the point meet corner
    to corner: the color on both, on neither of the other two."""
    nw, ne, sw, se = labels
    edges = sum(a != b and not (a is None and b is None) for a, b in ((nw, ne), (sw, se), (nw, sw), (ne, se)))
    d = sum(a is not None and a >= 0 and a == b and a not in (c, e) for a, b, c, e in ((nw, se, ne, sw), (ne, sw, nw, se)))
    return max(0, edges - 2), d


def tiling_sums(grid: Sequence[Sequence[int]]) -> tuple[int, int]:
    """``(sum(g), sum(d))`` of :func:`tiling_point_weight` over the board's lattice points; ``grid[r][c]`` is a color
    or -1."""
    rows, cols = len(grid), len(grid[0])

    def label(r: int, c: int) -> int | None:
        return grid[r][c] if 0 <= r < rows and 0 <= c < cols else None

    junctions = contacts = 0
    for r in range(rows + 1):
        for c in range(cols + 1):
            g, d = tiling_point_weight([label(r - 1, c - 1), label(r - 1, c), label(r, c - 1), label(r, c)])
            junctions += g
            contacts += d
    return junctions, contacts


def tiling_weight_bound(cols: int, rows: int, colors: int) -> int:
    """The most ``sum(g - d)`` (:func:`tiling_sums`) any layout of all ``colors`` x 21 pieces on the board can have:
    ``22 * colors - 2 + 2 * spare`` (``spare`` = the empty cells), 88 for all 84 pieces on 21x17.

    Proof.  The boundary edges (between cells of different labels, or a cell and the outside) form a plane graph
    whose faces are the pieces (two cells of one color side by side are one piece), the empty regions (``e`` of them,
    at most ``spare``) and the outside.  At a lattice point ``edges - 2`` is what the point adds to ``2 * (E - V)``,
    so Euler's formula, ``V - E + F = 1 + components``, gives ``sum(g) <= 2 * (F - 2) = 2 * (21 * colors + e - 1)``.
    Each color's pieces meet corner to corner at exactly ``20 + holes`` points
    (:meth:`LayoutModel._add_corner_contacts`), so ``sum(d) >= 20 * colors``.  The difference is the bound, with
    equality when the graph is connected, every empty cell is a region of its own and no color has a hole."""
    spare = cols * rows - colors * CELLS_PER_COLOR
    return 22 * colors - 2 + 2 * spare


def tiling_junction_bound(cols: int, rows: int, colors: int) -> int:
    """The most ``sum(g)`` (:func:`tiling_point_weight`) any layout of all ``colors`` x 21 pieces on the board can have,
    ``2 * (21 * colors + spare - 1)``: 168 for all 84 pieces on 21x17, and there exactly.

    Proof: :func:`tiling_weight_bound`'s Euler formula.  With one empty cell the faces are the pieces, the cell and the
    outside, and the graph is connected, since no face has a hole (no piece has one, and one cell cannot enclose a
    piece), so the sum is exactly the bound."""
    spare = cols * rows - colors * CELLS_PER_COLOR
    return 2 * (len(PIECES) * colors + spare - 1)


def min_rows_by_perimeter(cols: int) -> int:
    """The fewest rows a ``cols``-wide board needs to pass :func:`perimeter_bound`."""
    rows = 1
    while perimeter_bound(cols, rows):
        rows += 1
    return rows


@dataclass
class LayoutResult:
    """The answer for one board: ``status`` is ``unsat`` (proved: no layout), ``found`` (``layout``: (color,
    cells) per piece in a legal play order), ``time_limit`` (unknown at ``limit`` CPU seconds), ``bands_tried``
    (unknown: a band search, :func:`shrink_layout`, tried every band before its limit) or ``interrupted``;
    ``proof`` says what decided it (``perimeter bound``, ``run bound``, ``border bound`` or the SAT solver)."""

    cols: int
    rows: int
    colors: int = 1
    status: str = "time_limit"
    proof: str = ""
    cpu_seconds: float = 0.0
    limit: float | None = None
    cuts: int = 0
    conflicts: int = 0
    variables: int = 0
    clauses: int = 0
    layout: list[tuple[int, tuple[Cell, ...]]] = field(default_factory=list)

    @property
    def board(self) -> str:
        return f"{self.cols}x{self.rows}"

    def describe(self) -> str:
        """One line a person reads."""
        limit = f"{self.limit:g}" if self.limit is not None else "no"
        text = {"unsat": f"proved impossible ({self.proof})", "found": f"found ({self.proof})",
                "time_limit": f"unknown at the limit of {limit} CPU s", "interrupted": "unknown: interrupted",
                "bands_tried": "unknown: no band of rows gave a layout (the band search proves nothing)"}
        return f"{self.board} ({self.cols * self.rows} cells): {text[self.status]}, {self.cpu_seconds:.1f} CPU s"


def _half_turn(cols: int, rows: int) -> Callable[[Cell], Cell]:
    return lambda rc: (rows - 1 - rc[0], cols - 1 - rc[1])


def _identity(rc: Cell) -> Cell:
    return rc


class LayoutModel:
    """The CNF of ``colors`` colors on a ``cols`` x ``rows`` rectangle (see the module docstring).

    ``half_turn`` (2 or 4 colors): the layout is invariant under the half turn, which carries blue to red
    (and yellow to green), so only the searched colors (blue; blue and yellow) have variables and the
    others are their images.  Variables: placement ``i`` of searched color ``s`` is ``1 + s * n + i``
    (``n`` placements), then one per (searched color, cell), then auxiliaries.  ``counting`` adds the
    redundant per-color counts (89 cells, 216 perimeter edges); they make thin boards quick to refute.
    """

    def __init__(self, cols: int, rows: int, colors: int = 1, half_turn: bool = False, counting: bool = True) -> None:
        from puzzles.blokus.engine import solitaire_variant

        self.cols, self.rows, self.colors, self.counting = cols, rows, colors, counting
        region = Region.rectangle(cols, rows)
        self.pieces: list[int] = []
        self.cells: list[tuple[Cell, ...]] = []
        for p, shape in enumerate(PIECES):
            for cells in region.placements(shape):
                self.pieces.append(p)
                self.cells.append(cells)
        if half_turn and colors not in (2, 4):
            raise ValueError("the half turn needs 2 or 4 colors")
        searched = colors // 2 if half_turn else colors
        half = _half_turn(cols, rows)
        # real color k plays the pieces of searched color source[k] mapped by maps[k]
        self.source = [k % searched for k in range(colors)]
        self.maps = [_identity if k < searched else half for k in range(colors)]
        self.searched = searched
        self.starts = [v[0] for v in solitaire_variant(cols, rows, colors).starts] if colors > 1 else [(0, 0)]
        n = len(self.cells)
        self.top = searched * n
        self.cell_var = {(s, q): self._new() for s in range(searched) for q in sorted(region.cells)}
        self.clauses: list[list[int]] = []

    def x(self, s: int, i: int) -> int:
        return 1 + s * len(self.cells) + i

    def _new(self) -> int:
        self.top += 1
        return self.top

    def inside(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.rows and 0 <= cell[1] < self.cols

    def halo(self, i: int) -> list[Cell]:
        """The cells edge-adjacent to placement ``i`` (forbidden to every other piece of its color)."""
        own = set(self.cells[i])
        near = {(r + dr, c + dc) for r, c in own for dr, dc in STEPS} - own
        return sorted(q for q in near if self.inside(q))

    def corners(self, i: int) -> list[Cell]:
        """The cells touching placement ``i`` only at a corner (where a piece of its color may attach)."""
        own = set(self.cells[i])
        near = {(r + dr, c + dc) for r, c in own for dr, dc in STEPS}
        diag = {(r + dr, c + dc) for r, c in own for dr, dc in DIAGONALS} - own - near
        return sorted(q for q in diag if self.inside(q))

    @cached_property
    def _neighbourhoods(self) -> list[tuple[list[Cell], list[Cell]]]:
        """Each placement's :meth:`halo` and :meth:`corners`, computed once for every color."""
        return [(self.halo(i), self.corners(i)) for i in range(len(self.cells))]

    def build(self) -> list[list[int]]:
        """All clauses: pieces, cells, halos, corner contacts, start corners (and the counts).

        When the board has no spare cell beyond those the half turn forces empty (21x17: only the centre), every
        other cell is covered, and the model says so: a clause per cell, which the counts imply only globally."""
        on_cell: dict[tuple[int, int, Cell], int] = {}  # (searched color, piece, cell) -> boolean
        for s in range(self.searched):
            self._add_color(s, on_cell)
        covers: dict[Cell, list[int]] = {}
        for q in sorted({q for _, _, q in on_cell}):
            lits = [on_cell[(self.source[k], p, self.maps[k](q))] for k in range(self.colors)
                    for p in range(len(PIECES)) if (self.source[k], p, self.maps[k](q)) in on_cell]
            twice = {v for v in lits if lits.count(v) > 1}  # a cell its own image: no color may cover it
            self.clauses += [[-v] for v in sorted(twice)]
            self._at_most_one(sorted(set(lits) - twice))
            if not twice:
                covers[q] = sorted(set(lits))
        forced_empty = self.cols * self.rows - len(covers)
        if self.counting and self.cols * self.rows - self.colors * CELLS_PER_COLOR == forced_empty:
            self.clauses += list(covers.values())
        if self.counting and self.colors > 1:
            self._add_tiling_points()
        return self.clauses

    def _at_most_one(self, lits: list[int]) -> None:
        from pysat.card import CardEnc, EncType

        if len(lits) > 1:
            encoded = CardEnc.atmost(lits, 1, top_id=self.top, encoding=EncType.seqcounter)
            self.top = max(self.top, encoded.nv)
            self.clauses += encoded.clauses

    def _add_color(self, s: int, on_cell: dict[tuple[int, int, Cell], int]) -> None:
        """One searched color: each piece once, cell booleans exact, halos, corner contacts, start corner."""
        covering: dict[tuple[int, Cell], list[int]] = {}
        per_piece: dict[int, list[int]] = {}
        for i, (p, cells) in enumerate(zip(self.pieces, self.cells)):
            per_piece.setdefault(p, []).append(self.x(s, i))
            for q in cells:
                covering.setdefault((p, q), []).append(self.x(s, i))
        for options in per_piece.values():
            self.clauses.append(options)
            self._at_most_one(options)
        per_cell: dict[Cell, list[int]] = {}
        for (p, q), xs in covering.items():
            y = on_cell[(s, p, q)] = self._new()
            per_cell.setdefault(q, []).append(y)
            self.clauses += [[-x, y] for x in xs] + [[-y, *xs], [-y, self.cell_var[(s, q)]]]
        for q, ys in per_cell.items():
            self.clauses.append([-self.cell_var[(s, q)], *ys])
            self._at_most_one(ys)
        var = {q: v for (t, q), v in self.cell_var.items() if t == s}
        for i, (halo, corners) in enumerate(self._neighbourhoods):
            x = self.x(s, i)
            self.clauses += [[-x, -var[q]] for q in halo]
            self.clauses.append([-x, *(var[q] for q in corners)])
        self.clauses.append([self.cell_var[(s, self.starts[s])]])
        if self.counting:
            self._add_counts(s)
            self._add_corner_contacts(s)
            if self.colors == 1:
                self._add_empty_edges()
                self._add_exposed_corners()

    def _add_counts(self, s: int) -> None:
        """Redundant counts of color ``s``: 89 covered cells, and 216 unit edges between a covered cell and
        a cell it does not cover or the border (the pieces' perimeter: no edge joins two of its pieces)."""
        from pysat.card import CardEnc, EncType

        covered = [v for (t, _), v in self.cell_var.items() if t == s]
        boundary: list[int] = []
        for (t, (r, c)), v in list(self.cell_var.items()):
            if t != s:
                continue
            boundary += [v] * sum(not self.inside((r + dr, c + dc)) for dr, dc in STEPS)
            for q in ((r + 1, c), (r, c + 1)):
                if self.inside(q):
                    d, w = self._new(), self.cell_var[(s, q)]
                    self.clauses += [[-d, v, w], [-d, -v, -w], [d, -v, w], [d, v, -w]]  # d = v xor w
                    boundary.append(d)
        for lits, bound in ((covered, CELLS_PER_COLOR), (boundary, TOTAL_PERIMETER)):
            encoded = CardEnc.equals(lits, bound, top_id=self.top, encoding=EncType.kmtotalizer)
            self.top = max(self.top, encoded.nv)
            self.clauses += encoded.clauses

    def _add_corner_contacts(self, s: int) -> None:
        """Color ``s``: its pieces meet corner to corner at 20 lattice points more than it has empty cells shut in
        by four of its cells.  At such a contact, of the four cells around the point two diagonal ones are covered
        and the other two not (two pieces: no piece of 5 cells or fewer has such a pair).

        Proof: the color's covered cells are one 8-connected set, whose Euler number, ``1 - holes``, is
        ``(Q1 - Q3 - 2 QD) / 4`` over the points with 1 or 3 cells or the two diagonal ones covered (Gray's
        formula); ``Q1 - Q3 + 2 QD`` counts convex minus concave corners, 4 per piece, 84 in all.  So
        ``QD = 20 + holes``, and an empty cell inside the board with four covered neighbours is a hole of its own.
        The model's local rules only give every piece one contact: 11 points at least."""
        from pysat.card import CardEnc, EncType

        cell = {q: v for (t, q), v in self.cell_var.items() if t == s}
        counted: list[int] = []  # contacts, and inner cells that are not shut in: at least 20 + inner cells
        for r in range(self.rows - 1):
            for c in range(self.cols - 1):
                a, b, d, e = (cell[q] for q in ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)))
                for on, off in (((a, e), (b, d)), ((b, d), (a, e))):
                    z = self._new()  # true only at such a contact
                    self.clauses += [[-z, on[0]], [-z, on[1]], [-z, -off[0]], [-z, -off[1]]]
                    counted.append(z)
        inner = [(r, c) for r in range(1, self.rows - 1) for c in range(1, self.cols - 1)]
        for r, c in inner:
            z = self._new()  # true only if the cell is covered or has an empty neighbour
            self.clauses.append([-z, cell[(r, c)], *(-cell[q] for q in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)))])
            counted.append(z)
        encoded = CardEnc.atleast(counted, len(PIECES) - 1 + len(inner), top_id=self.top, encoding=EncType.seqcounter)
        self.top = max(self.top, encoded.nv)
        self.clauses += encoded.clauses

    def _add_empty_edges(self) -> None:
        """One color: at most :func:`empty_edge_budget` unit edges between two empty cells or between an empty cell
        and the border.  The counts above imply it, but as a small bound (18 on 10x14) it propagates early: once the
        budget is spent, every other empty cell must sit inside, among covered cells.

        Split by direction it also sees the pieces' orientations: in each row the ``cols + 1`` unit edges across it
        are inside a run of covered cells, at one of a run's two ends, or empty-edged, so the rows' empty edges plus
        the pieces' row runs number ``rows * (cols + 1) - 89`` (columns likewise with column runs).  Each piece's
        runs beyond its fewest count through a few booleans its placements force."""

        across_rows: list[int] = []  # empty edges crossing a row (left-right neighbours, left and right border)
        across_cols: list[int] = []
        for (_, (r, c)), v in self.cell_var.items():
            for (dr, dc), side in (((0, -1), across_rows), ((0, 1), across_rows), ((-1, 0), across_cols),
                                   ((1, 0), across_cols)):
                q = (r + dr, c + dc)
                if self.inside(q) and (dr < 0 or dc < 0):
                    continue  # each inner edge once: as its left or upper cell's right or lower edge
                z = self._new()  # true whenever the edge has no covered cell beside it
                self.clauses.append([z, v, *([self.cell_var[(0, q)]] if self.inside(q) else [])])
                side.append(z)
        fewest = [fewest_runs(shape) for shape in PIECES]
        extra_row_runs, extra_col_runs = self._extra_runs(fewest)
        budget = empty_edge_budget(self.cols, self.rows)
        for lits, bound in ((across_rows + across_cols, budget),
                            (across_rows + extra_row_runs,
                             self.rows * (self.cols + 1) - CELLS_PER_COLOR - sum(runs[0] for runs in fewest)),
                            (across_cols + extra_col_runs,
                             self.cols * (self.rows + 1) - CELLS_PER_COLOR - sum(runs[1] for runs in fewest))):
            self._at_most_bound(lits, bound)  # below zero: the perimeter or run bound's refusal

    def _add_exposed_corners(self) -> None:
        """One color: the lattice points with one covered cell around them, plus twice those with none, number at
        most :func:`exposed_corner_count` (exactly, in every layout).  The empty-edge budget says the same in sum,
        but per point it sees what :func:`border_bound` sees: each empty cell along the border costs 2."""
        cell = {q: v for (_, q), v in self.cell_var.items()}
        counted: list[int] = []
        for r in range(self.rows + 1):
            for c in range(self.cols + 1):
                around = [cell[q] for q in ((r - 1, c - 1), (r - 1, c), (r, c - 1), (r, c)) if q in cell]
                none = [self._new(), self._new()]  # twice: true when no cell around the point is covered
                self.clauses += [[*around, z] for z in none]
                one = self._new()  # true when exactly one is
                self.clauses += [[-v, *(w for w in around if w != v), one] for v in around]
                counted += [*none, one]
        self._at_most_bound(counted, exposed_corner_count(self.cols, self.rows))

    def label_literal(self, k: int, q: Cell) -> int:
        """True when real color ``k`` covers cell ``q`` (under the half turn, a searched color covers its image)."""
        return self.cell_var[(self.source[k], self.maps[k](q))]

    def _add_tiling_points(self) -> None:
        """Several colors: at most :func:`tiling_weight_bound` of ``g - d`` (:func:`tiling_point_weight`) summed over
        the lattice points, and :func:`tiling_junction_bound` of ``g`` (exactly, with one empty cell).  Each point gets
        two booleans equal to its ``g`` (:meth:`_junctions`: three or more of its edges are boundaries; all four are)
        and two that count its weight: the first is forced by the first of those unless both diagonals are contacts,
        the second by the second unless one is.  A boundary boolean is forced when the two cells' labels differ, and it implies that
        they do; a diagonal's boolean when its two cells share a color, and it implies that they do.  With the
        half turn and no point its own image, each pair of image points is counted once, against half the bound."""
        sep: dict[tuple[Cell, Cell], int] = {}
        colors = range(self.colors)

        def boundary(a: Cell, b: Cell) -> int | bool:
            if not self.inside(a) or not self.inside(b):
                return self.inside(a) or self.inside(b)
            key = (min(a, b), max(a, b))
            if key not in sep:
                z = sep[key] = self._new()
                for k in colors:
                    la, lb = self.label_literal(k, a), self.label_literal(k, b)
                    self.clauses += [[-la, lb, z], [la, -lb, z], [-z, -la, -lb]]
                self.clauses.append([-z, *(self.label_literal(k, a) for k in colors),
                                     *(self.label_literal(k, b) for k in colors)])
            return sep[key]

        def same_color(a: Cell, b: Cell) -> int | bool:
            if not self.inside(a) or not self.inside(b):
                return False
            z, both = self._new(), []
            for k in colors:
                m, la, lb = self._new(), self.label_literal(k, a), self.label_literal(k, b)
                self.clauses += [[-m, la], [-m, lb], [m, -la, -lb], [z, -m]]
                both.append(m)
            self.clauses.append([-z, *both])
            return z

        points = [(r, c) for r in range(self.rows + 1) for c in range(self.cols + 1)]
        paired = self.searched < self.colors and all((self.rows - r, self.cols - c) != (r, c) for r, c in points)
        if paired:
            points = [p for p in points if p <= (self.rows - p[0], self.cols - p[1])]
        counted: list[int] = []
        junctions: list[int] = []
        for r, c in points:
            nw, ne, sw, se = (r - 1, c - 1), (r - 1, c), (r, c - 1), (r, c)
            point = self._junctions([boundary(nw, ne), boundary(sw, se), boundary(nw, sw), boundary(ne, se)])
            if not point:
                continue  # two edges or fewer can be boundaries: g = 0
            three, four = point
            diagonals = [dg for dg in (same_color(nw, se), same_color(ne, sw)) if not isinstance(dg, bool)]
            u1, u2 = self._new(), self._new()
            if len(diagonals) < 2:  # on the border no diagonal can be a contact
                self.clauses.append([-three, u1])
            self.clauses += [[-three, dg, u1] for dg in diagonals] + [[-four, *diagonals, u2]]
            counted += [u1, u2]
            junctions += point
        bound = tiling_weight_bound(self.cols, self.rows, self.colors)
        self._at_most_bound(counted, bound // 2 if paired else bound)
        euler = tiling_junction_bound(self.cols, self.rows, self.colors)
        if self.cols * self.rows - self.colors * CELLS_PER_COLOR == 1:  # exactly, with one empty cell
            self._exactly(junctions, euler // 2 if paired else euler)
        else:
            self._at_most_bound(junctions, euler // 2 if paired else euler)

    def _junctions(self, edges: list[int | bool]) -> list[int]:
        """Two booleans equal to a point's ``g`` (:func:`tiling_point_weight`) in sum: three or more of its ``edges``
        (boundary literals, or True and False for edges along or outside the border) are boundaries; all four are."""
        free = [e for e in edges if not isinstance(e, bool)]
        always, never = sum(e is True for e in edges), sum(e is False for e in edges)
        if never > 1:
            return []
        three, four = self._new(), self._new()
        if never:  # three: every other edge a boundary; four: never
            self.clauses += [[-three, e] for e in free] + [[-four]]
        else:  # three: no two edges that are not boundaries; four: all
            self.clauses += [[-three, a, b] for a, b in combinations(free, 2)]
            self.clauses += [[-four, e] for e in free] + [[*(-e for e in free), four]]
        self.clauses += [[*(-e for e in chosen), three] for chosen in combinations(free, max(0, 3 - always))]
        return [three, four]

    def _exactly(self, lits: list[int], count: int) -> None:
        from pysat.card import CardEnc, EncType

        encoded = CardEnc.equals(lits, count, top_id=self.top, encoding=EncType.kmtotalizer)
        self.top = max(self.top, encoded.nv)
        self.clauses += encoded.clauses

    def _at_most_bound(self, lits: list[int], bound: int) -> None:
        """At most ``bound`` of ``lits`` true; a bound below zero (a refusal of the bounds, when the caller skipped
        them) is a contradiction, not an encoding error."""
        from pysat.card import CardEnc, EncType

        if bound < 0:
            z = self._new()
            self.clauses += [[z], [-z]]
            return
        encoded = CardEnc.atmost(lits, bound, top_id=self.top, encoding=EncType.kmtotalizer)
        self.top = max(self.top, encoded.nv)
        self.clauses += encoded.clauses

    def _extra_runs(self, fewest: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
        """Unary counters of each piece's row runs and column runs beyond the fewest its orientations have: the
        ``j``-th boolean is true when the placement chosen has at least ``j`` more (one color)."""
        extra: tuple[list[int], list[int]] = ([], [])
        counters: dict[tuple[int, int, int], int] = {}
        for i, (p, cells) in enumerate(zip(self.pieces, self.cells)):
            for k, runs in enumerate(piece_runs(cells)):
                for j in range(1, runs - fewest[p][k] + 1):
                    if (p, k, j) not in counters:
                        counters[(p, k, j)] = self._new()
                        extra[k].append(counters[(p, k, j)])
                    self.clauses.append([-self.x(0, i), counters[(p, k, j)]])
        return extra

    @cached_property
    def corner_sets(self) -> list[set[Cell]]:
        return [set(corners) for _, corners in self._neighbourhoods]

    def touches(self, a: int, b: int) -> bool:
        """Placement ``b`` covers a corner cell of placement ``a``."""
        return not self.corner_sets[a].isdisjoint(self.cells[b])

    def components(self, chosen: list[int]) -> list[list[int]]:
        """The chosen placements of one color split by "touch at a corner" (placement indices)."""
        left, parts = set(chosen), []
        while left:
            seed = left.pop()
            part, frontier = [seed], [seed]
            while frontier:
                a = frontier.pop()
                for b in [b for b in left if self.touches(a, b)]:
                    left.discard(b)
                    part.append(b)
                    frontier.append(b)
            parts.append(sorted(part))
        return parts

    def cut(self, s: int, part: list[int]) -> list[int]:
        """All of ``part`` placed (color ``s``) -> a cell at a corner of it (off its cells) is covered by ``s``."""
        own = {q for i in part for q in self.cells[i]}
        touch = sorted({q for i in part for q in self.corner_sets[i]} - own)
        return [-self.x(s, i) for i in part] + [self.cell_var[(s, q)] for q in touch]

    def play_order(self, s: int, chosen: list[int]) -> list[int]:
        """A legal order of searched color ``s``'s connected pieces (placement indices), by :func:`play_order`."""
        index = {self.cells[i]: i for i in chosen}
        order = play_order([self.cells[i] for i in chosen], self.starts[s])
        if order is None:
            raise ValueError("the pieces are not a corner chain from the start corner")
        return [index[cells] for cells in order]

    def layout(self, values: list[int]) -> tuple[list[tuple[int, tuple[Cell, ...]]], list[list[int]]]:
        """The real colors' placements in a legal order (colors take turns), or no placements and the cuts
        for every component when a searched color is not connected."""
        cuts: list[list[int]] = []
        orders = []
        for s in range(self.searched):
            chosen = [i for i in range(len(self.cells)) if values[self.x(s, i) - 1] > 0]
            parts = self.components(chosen)
            if len(parts) > 1:
                cuts += [self.cut(s, part) for part in parts]
            orders.append(self.play_order(s, chosen) if len(parts) == 1 else [])
        if cuts:
            return [], cuts
        return [(k, tuple(sorted(self.maps[k](q) for q in self.cells[orders[self.source[k]][j]])))
                for j in range(len(PIECES)) for k in range(self.colors)], []


def play_order(pieces: Sequence[tuple[Cell, ...]], start: Cell = (0, 0)) -> list[tuple[Cell, ...]] | None:
    """One color's pieces (cells) in an order where the first covers ``start`` (its start corner) and each later
    one touches an earlier one at a corner; None when there is none.  The monomino comes last when the others form such a chain without it
    (the game's bonus for playing it last)."""
    monomino = [p for p in pieces if len(p) == 1]
    if len(monomino) == 1 and len(pieces) > 1:
        order = _corner_chain([p for p in pieces if len(p) > 1], start)
        (row, col), = monomino[0]
        corners = {(row + dr, col + dc) for dr in (-1, 1) for dc in (-1, 1)}
        if order is not None and any(corners.intersection(p) for p in order):
            return [*order, monomino[0]]
    return _corner_chain(pieces, start)


def _corner_chain(pieces: Sequence[tuple[Cell, ...]], start: Cell) -> list[tuple[Cell, ...]] | None:
    """The pieces in a corner chain from ``start``, first found; None when there is none."""
    left = [p for p in pieces if start not in p]
    order = [p for p in pieces if start in p]
    if not order:
        return None
    corners = set()
    while left:
        corners |= {(r + dr, c + dc) for r, c in order[-1] for dr in (-1, 1) for dc in (-1, 1)}
        following = next((p for p in left if corners.intersection(p)), None)
        if following is None:
            return None
        left.remove(following)
        order.append(following)
    return order


def solve_layout(cols: int, rows: int, colors: int = 1, time_limit: float | None = 60.0, half_turn: bool = False,
                 progress: Callable[[str], None] | None = None, counting: bool = True,
                 bounds: bool = True) -> LayoutResult:
    """Settle one board: the perimeter, run and border bounds (one color; ``bounds=False`` skips them), else the SAT model
    with lazy connectivity cuts.

    ``time_limit`` is in CPU seconds of this process (looked at every :data:`CHUNK_CONFLICTS` conflicts).
    A layout found comes in a legal play order; :func:`replay_layout` plays it through the rule engine.
    """
    start = time.process_time()
    if bounds and colors == 1 and perimeter_bound(cols, rows):
        return LayoutResult(cols, rows, colors, "unsat", "perimeter bound", time.process_time() - start, time_limit)
    if bounds and colors == 1 and run_bound(cols, rows):
        return LayoutResult(cols, rows, colors, "unsat", "run bound", time.process_time() - start, time_limit)
    if bounds and colors == 1 and border_bound(cols, rows):
        return LayoutResult(cols, rows, colors, "unsat", "border bound", time.process_time() - start, time_limit)
    from pysat.solvers import Solver

    model = LayoutModel(cols, rows, colors, half_turn, counting)
    clauses = model.build()
    result = LayoutResult(cols, rows, colors, proof=f"SAT, {SOLVER}", limit=time_limit, variables=model.top,
                          clauses=len(clauses))
    with Solver(name=SOLVER, bootstrap_with=clauses) as solver:
        del clauses
        try:
            _solve_with_cuts(solver, model, result, start, progress)
        except KeyboardInterrupt:
            result.status = "interrupted"
        return _finish(result, solver, start)


@contextmanager
def _ctrl_c_between_chunks() -> Iterator[None]:
    """Leave Ctrl-C to Python while a chunk of conflicts runs.  In the main thread python-sat catches SIGINT with
    a longjmp out of the C++ solver, which can leave its heap corrupt (seen: "free(): invalid pointer" and an
    abort, or a hang, about 1 run in 6).  Told it is not in the main thread, python-sat installs no handler; the
    solver finishes its chunk, consistent, and Python raises KeyboardInterrupt as the call returns."""
    from pysat import solvers as pysat_solvers

    check = pysat_solvers.MainThread.check
    pysat_solvers.MainThread.check = staticmethod(lambda: False)  # type: ignore[method-assign]
    try:
        yield
    finally:
        pysat_solvers.MainThread.check = check  # type: ignore[method-assign]


def _solve_with_cuts(solver, model: LayoutModel, result: LayoutResult, start: float,
                     progress: Callable[[str], None] | None, assumptions: Sequence[int] = ()) -> None:
    """Solve in chunks of conflicts, adding a cut per component of each disconnected answer; fills ``result``.
    The cuts hold for every layout, so a solver keeps them from one set of ``assumptions`` to the next.  A Ctrl-C
    inside the solver comes out as KeyboardInterrupt when its chunk returns (:func:`_ctrl_c_between_chunks`)."""
    while result.limit is None or time.process_time() - start < result.limit:
        solver.conf_budget(CHUNK_CONFLICTS)
        with _ctrl_c_between_chunks():
            answer = solver.solve_limited(assumptions=list(assumptions))
        result.conflicts = int(solver.accum_stats().get("conflicts", 0))
        if answer is None:
            if progress:
                progress(f"{result.board}: {result.conflicts} conflicts, {result.cuts} cuts, "
                         f"{time.process_time() - start:.0f} CPU s")
            continue
        if answer is False:
            result.status = "unsat"
            return
        layout, cuts = model.layout(solver.get_model())
        if not cuts:
            result.status, result.layout = "found", layout
            return
        for clause in cuts:
            solver.add_clause(clause)
        result.cuts += len(cuts)


#: Rows re-solved at once by :func:`shrink_layout`, from the fewest up.
SHRINK_WINDOWS = (3, 4, 5, 6, 7, 8)


def shrink_layout(cols: int, rows: int, layout: Sequence[tuple[Cell, ...]], time_limit: float = 600.0,
                  window_limit: float = 20.0, windows: Sequence[int] = SHRINK_WINDOWS,
                  progress: Callable[[str], None] | None = None) -> LayoutResult:
    """A layout of one color on ``cols`` x ``rows - 1``, searched near a layout on ``cols`` x ``rows``: a
    large-neighbourhood search.  For each band of ``w`` rows of the smaller board (``w`` in ``windows``), the
    pieces wholly above the band keep their cells, those wholly below it move up one row, and the SAT model
    places the others (the fixed pieces are assumptions of one solver, so its learnt clauses and cuts serve
    every band).  ``found``, ``bands_tried`` (every band tried, none gave a layout) or ``time_limit`` (the limit
    came first); in neither case is anything proved about the board.  Transpose the cells to shrink the columns
    instead."""
    from pysat.solvers import Solver

    start = time.process_time()
    model = LayoutModel(cols, rows - 1)
    index = {frozenset(cells): i for i, cells in enumerate(model.cells)}
    result = LayoutResult(cols, rows - 1, proof=f"SAT, {SOLVER}, bands re-solved from {cols}x{rows}", limit=time_limit)
    clauses = model.build()
    result.variables, result.clauses = model.top, len(clauses)
    with Solver(name=SOLVER, bootstrap_with=clauses) as solver:
        del clauses
        try:
            for width in windows:
                for top in range(rows - width):
                    if time.process_time() - start >= time_limit:
                        return _finish(result, solver, start)
                    kept = [cells for cells in layout if max(r for r, _ in cells) < top]
                    kept += [tuple((r - 1, c) for r, c in cells) for cells in layout
                             if min(r for r, _ in cells) > top + width]
                    band = LayoutResult(cols, rows - 1, limit=min(window_limit, time_limit - (time.process_time() - start)))
                    _solve_with_cuts(solver, model, band, time.process_time(), None,
                                     [model.x(0, index[frozenset(cells)]) for cells in kept])
                    result.cuts, result.conflicts = result.cuts + band.cuts, band.conflicts
                    if progress:
                        progress(f"{result.board}: band of {width} rows at row {top + 1}: {band.status}")
                    if band.status == "found":
                        result.status, result.layout = "found", band.layout
                        return _finish(result, solver, start)
            result.status = "bands_tried"
        except KeyboardInterrupt:
            result.status = "interrupted"
        return _finish(result, solver, start)


def _finish(result: LayoutResult, solver, start: float) -> LayoutResult:
    """The CPU time and the conflicts (when interrupted, as counted after the last whole chunk: the solver is not
    asked again once a Ctrl-C has come)."""
    if result.status != "interrupted":
        result.conflicts = int(solver.accum_stats().get("conflicts", 0))
    result.cpu_seconds = time.process_time() - start
    return result


def replay_layout(result: LayoutResult):
    """Play a found layout through the rule engine on ``solitaire-CxR-K`` (every move parsed and re-checked
    there); returns the final state."""
    from puzzles.blokus.engine import BlokusState, solitaire_variant
    from solvers.blokus.solitaire import move_text

    state = BlokusState(solitaire_variant(result.cols, result.rows, result.colors))
    for color, cells in result.layout:
        if state.current_color() != color:
            raise ValueError(f"color {color + 1} out of turn")
        state.apply(state.string_to_action(move_text(cells, result.rows)))
    return state


def layout_cells(data: dict) -> list[tuple[Cell, ...]]:
    """One color's pieces, each as its cells ((row, col), row 0 at the top) in play order, from a stored layout:
    a game record (``format`` ``kibitz-blokus``: its moves) or a list of cells (``format`` ``cells``)."""
    from puzzles.blokus.tables import parse_cell

    if data.get("format") == "cells":
        return [tuple((r, c) for r, c in piece) for piece in data["pieces"]]
    cols, rows = map(int, data["board"].split("x"))
    return [tuple(parse_cell(name, rows, cols) for name in m["move"].split(",")) for m in data["moves"]]


def check_layout(cols: int, rows: int, layout: list[tuple[Cell, ...]], pieces: Sequence[Shape] = PIECES) -> None:
    """Check one color's layout against the rules directly (for boards the engine does not play, sides
    beyond 26 columns or 62 rows, and a second opinion on the others); ValueError on the first broken rule.  ``layout``: each piece's cells in play order.

    The ``pieces`` (one color's 21 unless given) once each (free shapes), inside the board, no overlap, the first
    on the top-left corner, no two sharing an edge, each later one touching an earlier one at a corner."""
    if sorted(Shape(frozenset(cells)).canonical().key() for cells in layout) != sorted(
            p.canonical().key() for p in pieces):
        raise ValueError(f"not the {len(pieces)} pieces once each")
    if len({q for cells in layout for q in cells}) != sum(len(p.cells) for p in pieces) or not all(
            0 <= r < rows and 0 <= c < cols for cells in layout for r, c in cells):
        raise ValueError("pieces overlap or leave the board")
    if (0, 0) not in layout[0]:
        raise ValueError("the first piece does not cover the start corner")
    for j, cells in enumerate(layout):
        earlier = {q for piece in layout[:j] for q in piece}
        if any((r + dr, c + dc) in earlier for r, c in cells for dr, dc in STEPS):
            raise ValueError(f"piece {j + 1} shares an edge with an earlier piece")
        if j and not any((r + dr, c + dc) in earlier for r, c in cells for dr, dc in DIAGONALS):
            raise ValueError(f"piece {j + 1} touches no earlier piece at a corner")
