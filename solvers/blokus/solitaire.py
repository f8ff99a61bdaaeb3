"""Blokus solitaire: all 84 pieces (4 colors x 21) on the 20x20 board under the real rules, and all the
pieces of 1..4 colors on other rectangles (:class:`Geometry`).

Method (a plain CP-SAT model with exact connectivity to the corners is far too
slow here): a **move-by-move cooperative depth-first search**.
Moves are generated exactly as in the game (first piece on the color's corner,
then only at that color's corner contacts, never edge-touching its own color),
so connectivity to the corner holds by construction and the search order *is*
a legal play order.

The pruning bound that makes it work is **waste**: a *unit* that no color can
ever use again (unoccupied, and edge-adjacent to every color that could still
fill it) is dead for good, because forbidden cells only grow.  The pieces need
356 of the 400 cells, so at most 44 cells may die; the search backtracks as
soon as more do, and it orders moves by how few units they kill.

* ``symmetric``: only solutions invariant under the quarter turn
  R(r, c) = (c, 19 - r), which carries blue's corner a20 to yellow's t20, then
  red's t1 and green's a1.  Then only blue is searched; each blue move P
  comes with R(P), R²(P), R³(P) for yellow, red and green, so a round of four
  moves is legal whenever P is.  Units are the 100 rotation orbits of cells
  (blue may use at most one cell per orbit), blue needs 89 of them: at most 11
  orbits may die.
* general (not ``symmetric``): any solution.  A search of all four colors
  (moving in turn or the most constrained first, units = cells, 44 may die)
  falls short of 84 pieces, and CP-SAT repairs of its best positions do not
  close the gap; so the general mode starts from the
  symmetric solution and **re-arranges** it by large-neighbourhood moves:
  free a window (its pieces and those that lose their connection to the
  corner) and let CP-SAT place those pieces again, at least one elsewhere
  (see ``_complete``: exact connectivity by levels).  After
  ``rearrange_rounds`` moves, and once it is no longer quarter-turn
  symmetric, the solution is replayed.

Within a color, pieces go largest first (pentominoes, then 4, 3, 2, 1), so
the monomino is always the last piece: every solution found is *perfect*
(4 x 20 points) and ``--perfect`` costs nothing extra.  Moves with the fewest
killed units come first, ties broken by keeping corner contacts alive and by a
seeded random key; each level tries only its best ``breadth`` moves, and the
search restarts with a new seed after ``restart_nodes`` nodes (a randomized
limited-discrepancy search).

Other boards (``cols`` x ``rows``, 1..4 colors, each color from its own corner of the rectangle: the
engine's ``solitaire-WxH-k`` variant).  The symmetric search generalises to any group of board
symmetries that carries blue's corner to each other color's corner: the quarter turn (4 colors on a
square), the two mirrors and the half turn (4 colors on a non-square rectangle), the half turn (2
colors, opposite corners), the identity (1 color).  Units are the group's orbits of cells; an orbit
with fewer cells than colors (a cell a symmetry fixes) can never be used and is left empty.  Three
colors have no such group: their search runs all three colors (units = cells, the most constrained
color moves), which is also what ``symmetric=False`` means on boards other than the classic one when
no re-arrangement is asked.

Every solution is replayed through the rule engine
(:class:`puzzles.blokus.engine.BlokusState`), which re-checks each move.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache

import numpy as np
from numba import njit
from ortools.sat.python import cp_model

from puzzles.blokus.engine import VARIANTS, BlokusState, Variant, solitaire_variant
from puzzles.blokus.tables import BoardTables, cell_name, pentobi_order
from puzzles.blokus.tables import board_tables as engine_tables
from puzzles.polyomino import parse_size, piece_set

SIZE = 20
PIECES = piece_set("blokus")  # the engine numbers pieces in this order too (Pentobi names)
NUM_PIECES = len(PIECES)
PIECE_SIZES = tuple(p.area for p in PIECES)
CELLS_NEEDED = 4 * sum(PIECE_SIZES)  # 356


def board_tables() -> BoardTables:
    """The engine's placement tables of the 20x20 board (flat bordered cells, edge and corner lists)."""
    return engine_tables(SIZE)


def move_text(cells, rows: int = SIZE) -> str:
    """Pentobi spelling of a placement (a1 = bottom-left), cells sorted as Pentobi writes them."""
    return ",".join(cell_name(r, c, rows) for r, c in pentobi_order(tuple(cells), rows))


SYMMETRIES = ("quarter-turn", "half-turn", "mirrors")


class Geometry:
    """A solitaire board: ``cols`` x ``rows`` cells, ``colors`` colors (each from its own corner), the
    engine variant and tables, and the symmetry used by the symmetric search: color k plays the pieces
    of the searched color ``source[k]`` mapped by ``maps[k]`` (a map (row, col) -> (row, col); the
    identity for a searched color); ``maps`` is None when there is no symmetry.

    ``symmetry`` (4 colors; default: ``quarter-turn`` on a square, ``mirrors`` otherwise):
    ``quarter-turn`` (blue searched, color k = blue turned k times), ``mirrors`` (blue searched; yellow,
    red, green its left-right, point and top-bottom mirror images), ``half-turn`` (blue and yellow
    searched, red and green their images under the half turn).  Two colors: the half turn; one: none.
    """

    def __init__(self, cols: int = SIZE, rows: int = SIZE, colors: int = 4, symmetry: str | None = None) -> None:
        self.cols, self.rows, self.ncolors = cols, rows, colors
        self.variant: Variant = (VARIANTS["classic"] if (cols, rows, colors) == (SIZE, SIZE, 4)
                                 else solitaire_variant(cols, rows, colors))
        self.tables = engine_tables(cols, rows)
        self.starts = [self.tables.flat(*self.variant.starts[k][0]) for k in range(colors)]
        self.cells_needed = colors * sum(PIECE_SIZES)
        h, w = rows - 1, cols - 1
        maps: list[Callable[[int, int], tuple[int, int]]] | None
        ident: Callable[[int, int], tuple[int, int]] = lambda r, c: (r, c)  # noqa: E731
        half: Callable[[int, int], tuple[int, int]] = lambda r, c: (h - r, w - c)  # noqa: E731
        self.source = [0] * colors
        if symmetry is not None and (colors != 4 or symmetry not in SYMMETRIES):
            raise ValueError(f"symmetry {symmetry!r}: choose one of {', '.join(SYMMETRIES)} (4 colors only)")
        if symmetry == "quarter-turn" and cols != rows:
            raise ValueError(f"the quarter turn needs a square board, not {cols}x{rows}")
        if colors == 1:
            maps, self.symmetry = [ident], "identity"
        elif colors == 2:  # blue top-left, red bottom-right
            maps, self.symmetry = [ident, half], "half turn"
        elif colors == 4 and symmetry == "half-turn":
            maps, self.symmetry, self.source = [ident, ident, half, half], "half turn", [0, 1, 0, 1]
        elif colors == 4 and (symmetry == "quarter-turn" or symmetry is None and cols == rows):
            maps, self.symmetry = [_turner(k, cols) for k in range(4)], "quarter turn"
        elif colors == 4:
            maps = [ident, lambda r, c: (r, w - c), half, lambda r, c: (h - r, c)]
            self.symmetry = "mirrors"
        else:
            maps, self.symmetry = None, "none"
        self.maps = maps
        self.searched = sorted(set(self.source))  # the colors the symmetric search moves

    @property
    def name(self) -> str:
        return f"{self.cols}x{self.rows}, {self.ncolors} color{'s' if self.ncolors > 1 else ''}"

    def is_classic(self) -> bool:
        """The standard 20x20 board with four colors (the one Pentobi's SGF records)."""
        return self.variant.name == "classic"


def _turner(k: int, size: int) -> Callable[[int, int], tuple[int, int]]:
    """The quarter turn ``k`` times on a ``size`` x ``size`` board, as a map."""
    return lambda r, c: rotate(r, c, k, size)


@cache
def geometry(cols: int = SIZE, rows: int = SIZE, colors: int = 4, symmetry: str | None = None) -> Geometry:
    """The (cached) :class:`Geometry`; ValueError for sides outside 5..26, colors outside 1..4, or a board
    with fewer cells than the colors' pieces (89 per color)."""
    if colors not in (1, 2, 3, 4):
        raise ValueError(f"--colors must be 1..4, not {colors}")
    if not (5 <= cols <= 26 and 5 <= rows <= 26):
        raise ValueError(f"board sides must be 5..26, got {cols}x{rows}")
    need = colors * sum(PIECE_SIZES)
    if cols * rows < need:
        raise ValueError(f"impossible: a {cols}x{rows} board has {cols * rows} cells, fewer than the {need} cells of "
                         f"{colors} x 21 pieces ({sum(PIECE_SIZES)} per color)")
    return Geometry(cols, rows, colors, symmetry)


def parse_board(text: str) -> tuple[int, int]:
    """``"19x19"`` -> (19, 19) (columns x rows), read by :func:`~puzzles.polyomino.parse_size` as regions
    are; ValueError when malformed."""
    size = parse_size(text)
    if size is None:
        raise ValueError(f"malformed board {text!r} (expected WxH, e.g. 19x19)")
    return size


@dataclass
class SolitaireResult:
    status: str  # "found", "time_limit" (unknown at the time limit), "interrupted" (Ctrl-C)
    seconds: float
    placed: int
    best_placed: int
    nodes: int
    state: BlokusState | None = None
    moves: list[tuple[str, str]] = field(default_factory=list)  # (color name, Pentobi cells)
    restarts: int = 0
    rearranged: int = 0  # general mode: CP-SAT window moves made on the symmetric solution
    quarter_turn_symmetric: bool | None = None  # symmetric under the board's group (the quarter turn on 20x20)
    board: str = "20x20"
    colors: int = 4
    symmetry: str = "quarter turn"
    empty_cells: int | None = None

    def to_json(self) -> dict:
        scores = dict(zip(self.state.color_names, self.state.color_scores())) if self.state is not None else {}
        return {
            "status": self.status, "board": self.board, "colors": self.colors, "symmetry": self.symmetry,
            "empty_cells": self.empty_cells,
            "placed": self.placed, "seconds": round(self.seconds, 3), "nodes": self.nodes,
            "restarts": self.restarts, "best_placed": self.best_placed, "scores": scores,
            "rearranged": self.rearranged, "quarter_turn_symmetric": self.quarter_turn_symmetric,
            "moves": [{"color": c, "cells": cells} for c, cells in self.moves],
        }


def rotate(r: int, c: int, k: int = 1, size: int = SIZE) -> tuple[int, int]:
    """Quarter turn k times: (r, c) -> (c, 19 - r) maps each color's corner to the next color's."""
    for _ in range(k % 4):
        r, c = c, size - 1 - r
    return r, c


@njit(cache=True)
def _candidates(color, pieces_ok, attach, n_attach, first, start_cell, pl_piece, pl_size, pl_cells, pl_adj, pl_nadj,  # noqa: C901
                pl_corners, pl_ncorners, cp_start, cp_list, unit_of, unit_cells, unit_n, unit_used, forb, active,
                marker, stamp, out_m, out_kill, out_attach, width, out_contact):
    """Legal moves of ``color`` with an allowed piece, each with the units it kills, its new corner
    contacts and its contact (edges shared with occupied or off-board cells: packing tightness)."""
    n = 0
    ncolors = forb.shape[0]
    na = 1 if first else n_attach
    for a_i in range(na):
        a = start_cell if first else attach[a_i]
        if forb[color, a] or unit_used[unit_of[a]]:
            continue
        for p in range(pieces_ok.shape[0]):
            if not pieces_ok[p]:
                continue
            key = a * 21 + p
            for li in range(cp_start[key], cp_start[key + 1]):
                m = cp_list[li]
                if marker[m] == stamp:
                    continue
                marker[m] = stamp
                size = pl_size[m]
                ok = True
                for i in range(size):
                    q = pl_cells[m, i]
                    if forb[color, q] or unit_used[unit_of[q]]:
                        ok = False
                        break
                    for j in range(i):  # two cells of one unit (symmetric mode, near the centre)
                        if unit_of[pl_cells[m, j]] == unit_of[q]:
                            ok = False
                    if not ok:
                        break
                if not ok:
                    continue
                # units killed: units of the newly forbidden edge neighbours that no longer have a usable cell
                kill = 0
                for e in range(pl_nadj[m]):
                    x = pl_adj[m, e]
                    u = unit_of[x]
                    if unit_used[u]:
                        continue
                    mine = False
                    for i in range(size):
                        if unit_of[pl_cells[m, i]] == u:
                            mine = True
                    if mine:
                        continue
                    # already counted through an earlier neighbour of the same unit?
                    dup = False
                    for e2 in range(e):
                        if unit_of[pl_adj[m, e2]] == u:
                            dup = True
                            break
                    if dup:
                        continue
                    alive = False
                    for t in range(unit_n[u]):
                        y = unit_cells[u, t]
                        for k in range(ncolors):
                            if not active[k] or forb[k, y]:
                                continue
                            if k == color:
                                blocked = False
                                for e3 in range(pl_nadj[m]):
                                    if pl_adj[m, e3] == y:
                                        blocked = True
                                        break
                                if blocked:
                                    continue
                            alive = True
                            break
                        if alive:
                            break
                    if not alive:
                        kill += 1
                # new corner contacts that stay usable
                att = 0
                for e in range(pl_ncorners[m]):
                    y = pl_corners[m, e]
                    if forb[color, y] or unit_used[unit_of[y]]:
                        continue
                    blocked = False
                    for e3 in range(pl_nadj[m]):
                        if pl_adj[m, e3] == y:
                            blocked = True
                            break
                    if not blocked:
                        att += 1
                contact = 0
                for i in range(size):
                    q = pl_cells[m, i]
                    for y in (q - 1, q + 1, q - width, q + width):
                        if unit_used[unit_of[y]]:
                            inside = False
                            for j in range(size):
                                if pl_cells[m, j] == y:
                                    inside = True
                            if not inside:
                                contact += 1
                out_m[n] = m
                out_kill[n] = kill
                out_attach[n] = att
                out_contact[n] = contact
                n += 1
    return n


@njit(cache=True)
def _dead_units(unit_cells, unit_n, unit_used, forb, active, n_units):
    dead = 0
    for u in range(n_units):
        if unit_used[u]:
            continue
        alive = False
        for t in range(unit_n[u]):
            y = unit_cells[u, t]
            for k in range(forb.shape[0]):
                if active[k] and not forb[k, y]:
                    alive = True
                    break
            if alive:
                break
        if not alive:
            dead += 1
    return dead


@njit(cache=True)
def _fits_on_unit(u, s, unit_cells, unit_n, unit_used, unit_of, forb, active, left, piece_sizes, reach, cp_start,
                  cp_list, pl_cells, pl_size) -> bool:
    """Whether a piece of ``s`` cells in the hand of a searched color fits on a cell of unit ``u`` that the
    color can reach (``reach``), with all its cells free for that color and in unused, distinct units."""
    for k in range(forb.shape[0]):
        if not active[k]:
            continue
        for p in range(piece_sizes.shape[0]):
            if piece_sizes[p] != s or not left[k, p]:
                continue
            for t in range(unit_n[u]):
                y = unit_cells[u, t]
                if forb[k, y] or not reach[k, y]:
                    continue
                key = y * 21 + p
                for li in range(cp_start[key], cp_start[key + 1]):
                    if _fits_free(cp_list[li], k, forb, unit_used, unit_of, pl_cells, pl_size):
                        return True
    return False


@njit(cache=True)
def _fits_free(m, k, forb, unit_used, unit_of, pl_cells, pl_size) -> bool:
    """Placement ``m``'s cells are free for color ``k`` and lie in unused, distinct units."""
    for i in range(pl_size[m]):
        q = pl_cells[m, i]
        if forb[k, q] or unit_used[unit_of[q]]:
            return False
        for j in range(i):
            if unit_of[pl_cells[m, j]] == unit_of[q]:
                return False
    return True


@njit(cache=True)
def _waste_bound(unit_cells, unit_n, unit_used, unit_of, forb, active, left, piece_sizes, cp_start, cp_list, pl_cells,  # noqa: C901
                 pl_size, n_units, attach, n_attach, starts, width):
    """A lower bound on the units that will stay empty: a unit is lost when no piece in hand (of any
    color still searched) fits on a reachable cell of it (all its cells free for that color, in unused,
    distinct units, and in an 8-connected region of such cells that holds one of the color's usable
    corner contacts: every later piece of the color is reached through a chain of pieces touching at
    corners); and the units only pieces of at most ``s`` cells can still cover cannot outnumber the
    cells of those pieces in hand."""
    ncolors = forb.shape[0]
    area = forb.shape[1]
    reach = np.zeros((ncolors, area), np.uint8)
    stack = np.empty(area, np.int64)
    for k in range(ncolors):
        if not active[k]:
            continue
        top = 0
        first = True
        for p in range(piece_sizes.shape[0]):
            if not left[k, p]:
                first = False
        if first:
            stack[0] = starts[k]
            reach[k, starts[k]] = 1
            top = 1
        else:
            for i in range(n_attach[k]):
                y = attach[k, i]
                if not forb[k, y] and not unit_used[unit_of[y]] and not reach[k, y]:
                    reach[k, y] = 1
                    stack[top] = y
                    top += 1
        while top > 0:
            top -= 1
            q = stack[top]
            for d in (-width - 1, -width, -width + 1, -1, 1, width - 1, width, width + 1):
                y = q + d
                if 0 <= y < area and not reach[k, y] and not forb[k, y] and not unit_used[unit_of[y]]:
                    reach[k, y] = 1
                    stack[top] = y
                    top += 1
    best = np.zeros(n_units, np.int64)  # largest piece size that still fits on the unit (0: none)
    for u in range(n_units):
        if unit_used[u]:
            continue
        for s in range(5, 0, -1):
            if _fits_on_unit(u, s, unit_cells, unit_n, unit_used, unit_of, forb, active, left, piece_sizes, reach,
                             cp_start, cp_list, pl_cells, pl_size):
                best[u] = s
                break
    lost = 0
    for u in range(n_units):
        if not unit_used[u] and best[u] == 0:
            lost += 1
    extra = 0
    for s in range(1, 5):
        units_small = 0
        for u in range(n_units):
            if not unit_used[u] and 0 < best[u] <= s:
                units_small += 1
        cells_small = 0
        for k in range(ncolors):
            if not active[k]:
                continue
            for p in range(piece_sizes.shape[0]):
                if left[k, p] and piece_sizes[p] <= s:
                    cells_small += piece_sizes[p]
        if units_small - cells_small > extra:
            extra = units_small - cells_small
    return lost + extra


def _complete(kept: list[tuple[int, int]], time_limit: float, workers: int, seed: int, *,
              hint: Sequence[tuple[int, int]] = (), avoid: Sequence[tuple[int, int]] = (),
              geo: Geometry | None = None, trees: bool = False) -> list[tuple[int, int]] | None:
    """Place all the pieces not in ``kept`` with CP-SAT.

    ``kept`` is a legal position, each color's pieces connected to its corner.  The model: one boolean
    per placement of a piece in hand on cells free for its color (not covered, not edge-adjacent to its
    kept pieces); each piece exactly once; each cell at most once; no edge contact between two new
    pieces of one color.  Connectivity is exact, by levels: a new piece covers its color's corner when
    the color has no kept piece, or touches a kept piece of its color at a corner, or touches a new
    piece of its color with a lower level.  Each color's monomino sits above
    every other level, so it can be placed last (the perfect score).  ``hint`` seeds the search;
    ``avoid``: not all of these placements again.  ``trees``: each color's kept pieces are instead one
    corner-connected tree that need not reach the corner yet; a new piece of a lower level must carry it where
    it does not (see :func:`_add_contacts`).  Returns the new placements as (color, placement) in
    a legal order (by level within a color), or None (proven impossible, or out of time).
    """
    geo = geo or geometry()
    model = cp_model.CpModel()
    used, own, in_hand, support = _kept_position(kept, geo)
    x: dict[tuple[int, int], cp_model.IntVar] = {}  # (color, placement) -> var
    cover: dict[tuple[int, int], list] = {}  # (color, cell) -> vars
    level: dict[tuple[int, int], cp_model.IntVar] = {}
    for k in range(geo.ncolors):
        if not _add_hand(model, geo, k, used, own[k], in_hand[k], x, cover, level):
            return None
    tree_levels = [model.new_int_var(1, NUM_PIECES, "") for _ in range(geo.ncolors)] if trees else None
    carriers = _add_contacts(model, geo, x, cover, level, own, support, tree_levels)
    for k in range(geo.ncolors):
        if trees and support[k] and geo.starts[k] not in own[k]:  # a tree away from the corner needs a carrier
            model.add_bool_or(carriers[k])
    if avoid:
        model.add(sum(x[km] for km in avoid if km in x) <= len(avoid) - 1)
    if hint:
        hinted = set(hint)
        for key, v in x.items():
            model.add_hint(v, key in hinted)
    return _solve_completion(model, geo, x, level, time_limit, workers, seed, int(in_hand.sum()))


def _kept_position(kept: list[tuple[int, int]],
                   geo: Geometry) -> tuple[np.ndarray, list[set[int]], np.ndarray, list[set[int]]]:
    """Of the kept pieces: the covered cells (and the border), each color's cells, the pieces still in
    hand, and each color's cells new pieces may attach to (not the monomino: it goes last)."""
    t, nc = geo.tables, geo.ncolors
    used = np.zeros(t.area, bool)
    used[t.border == 1] = True
    own: list[set[int]] = [set() for _ in range(nc)]
    in_hand = np.ones((nc, NUM_PIECES), bool)
    support: list[set[int]] = [set() for _ in range(nc)]
    for color, m in kept:
        cells = [int(q) for q in t.pl_cells[m, : t.pl_size[m]]]
        own[color].update(cells)
        if t.pl_size[m] > 1:
            support[color].update(cells)
        used[cells] = True
        in_hand[color, t.pl_piece[m]] = False
    return used, own, in_hand, support


def _add_hand(model: cp_model.CpModel, geo: Geometry, k: int, used: np.ndarray, own: set[int], in_hand: np.ndarray,
              x: dict[tuple[int, int], cp_model.IntVar], cover: dict[tuple[int, int], list],
              level: dict[tuple[int, int], cp_model.IntVar]) -> bool:
    """Color ``k``'s pieces in hand: a level each and one boolean per placement on cells free for the
    color, exactly one per piece; False when a piece has no placement left."""
    t = geo.tables
    monomino = PIECE_SIZES.index(1)
    forb = used.copy()
    for q in own:
        forb[[q - 1, q + 1, q - t.width, q + t.width]] = True
    hand = np.nonzero(in_hand)[0]
    top = len(hand) + 1
    for p in hand.tolist():
        level[(k, p)] = model.new_constant(top) if p == monomino else model.new_int_var(1, top - 1, "")
        ms = np.nonzero(t.pl_piece == p)[0]
        sizes = t.pl_size[ms]
        bad = np.zeros(len(ms), bool)
        for i in range(5):
            bad |= (i < sizes) & forb[t.pl_cells[ms, i]]
        options = []
        for m in ms[~bad]:
            v = model.new_bool_var("")
            x[(k, int(m))] = v
            options.append(v)
            for q in t.pl_cells[m, : t.pl_size[m]]:
                cover.setdefault((k, int(q)), []).append(v)
        if not options:
            return False
        model.add_exactly_one(options)
    return True


def _add_contacts(model: cp_model.CpModel, geo: Geometry, x: dict[tuple[int, int], cp_model.IntVar],
                  cover: dict[tuple[int, int], list], level: dict[tuple[int, int], cp_model.IntVar],
                  own: list[set[int]], support: list[set[int]],
                  trees: Sequence[cp_model.IntVar] | None = None) -> list[list[cp_model.IntVar]]:
    """Each cell at most once, no edge contact between new pieces of one color, and connection by levels
    (see :func:`_complete`).

    ``trees`` (one level per color): each color's kept pieces are one corner-connected tree that need not reach
    the corner yet.  A new piece touching the tree at a corner then either hangs on it (a level above the tree's)
    or may carry it (a level below, supported like any other new piece); returns, per color, the literals of the
    pieces that carry the tree (the caller asks for one where the tree is away from the corner).  Without
    ``trees`` the kept pieces reach their corners and a new piece touching them needs nothing more."""
    t, nc, starts = geo.tables, geo.ncolors, geo.starts
    occ: dict[tuple[int, int], cp_model.IntVar] = {}
    cell_level: dict[tuple[int, int], cp_model.IntVar] = {}
    for (k, q), vs in cover.items():
        occ[(k, q)] = model.new_bool_var("")
        model.add(sum(vs) == occ[(k, q)])
        cell_level[(k, q)] = model.new_int_var(0, NUM_PIECES + 1, "")
    for q in {q for _, q in cover}:
        model.add_at_most_one([v for k in range(nc) for v in cover.get((k, q), [])])
    carriers: list[list[cp_model.IntVar]] = [[] for _ in range(nc)]
    for (k, m), v in x.items():
        lv = level[(k, int(t.pl_piece[m]))]
        for y in t.pl_adj[m, : t.pl_nadj[m]]:
            if (k, int(y)) in occ:
                model.add_implication(v, occ[(k, int(y))].negated())
        cells = [int(q) for q in t.pl_cells[m, : t.pl_size[m]]]
        for q in cells:
            model.add(cell_level[(k, q)] == lv).only_enforce_if(v)
        corners = [int(y) for y in t.pl_corners[m, : t.pl_ncorners[m]]]
        touches = any(y in support[k] for y in corners)
        supports = []
        if touches and trees is not None:
            above = _tree_link(model, v, lv, trees[k], carriers[k], t.pl_size[m] > 1)
            supports.append(above)
        elif touches or (not own[k] and starts[k] in cells):
            continue  # touches its color's kept pieces, or is the color's first piece
        if trees is not None and starts[k] in cells:
            continue  # the piece on the corner (it may carry the tree)
        for y in corners:
            if (k, y) in occ:
                s_var = model.new_bool_var("")
                model.add_implication(s_var, occ[(k, y)])
                model.add(cell_level[(k, y)] < lv).only_enforce_if(s_var)
                supports.append(s_var)
        model.add_bool_or(supports + [v.negated()])
    return carriers


def _tree_link(model: cp_model.CpModel, v: cp_model.IntVar, lv: cp_model.IntVar, tree: cp_model.IntVar,
               carriers: list[cp_model.IntVar], can_carry: bool) -> cp_model.IntVar:
    """A new piece ``v`` touching its color's kept tree: the literal "it hangs on the tree" (its level above the
    tree's); the literal "it carries the tree" (below) joins ``carriers`` unless it is the monomino."""
    below, above = model.new_bool_var(""), model.new_bool_var("")
    model.add_implication(below, v)
    model.add_implication(above, v)
    model.add(lv < tree).only_enforce_if(below)
    model.add(lv > tree).only_enforce_if(above)
    if can_carry:
        carriers.append(below)
    return above


def _solve_completion(model: cp_model.CpModel, geo: Geometry, x: dict[tuple[int, int], cp_model.IntVar],
                      level: dict[tuple[int, int], cp_model.IntVar], time_limit: float, workers: int, seed: int,
                      pieces_in_hand: int) -> list[tuple[int, int]] | None:
    """Solve the completion model; the new placements ordered by level, or None."""
    t = geo.tables
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = seed
    solver.parameters.cp_model_probing_level = 0  # probing took seconds on these models and paid nothing
    solver.parameters.symmetry_level = 0
    solver.parameters.catch_sigint_signal = False  # Ctrl-C stops it through stop_search, never inside C++
    from solvers.tiling import _run_interruptible

    answer, stopped = _run_interruptible(lambda: solver.solve(model), solver.stop_search, None)
    if stopped == "incomplete":
        raise KeyboardInterrupt
    status = answer if answer is not None else cp_model.UNKNOWN
    if _TRACE:
        print(f"  complete: {pieces_in_hand} pieces in hand, {len(x)} placements: {solver.status_name(status)} "
              f"{solver.wall_time:.2f} s", flush=True)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    chosen = [(solver.value(level[(k, int(t.pl_piece[m]))]), k, m) for (k, m), v in x.items() if solver.boolean_value(v)]
    return [(k, m) for _, k, m in sorted(chosen)]


def _ordered(placements: list[tuple[int, int]], geo: Geometry | None = None) -> list[tuple[int, int]]:
    """The placements connected to their color's corner, in a legal play order (monomino last, supporting
    nothing); pieces that lost their connection are dropped."""
    geo = geo or geometry()
    t = geo.tables
    out: list[tuple[int, int]] = []
    for k in range(geo.ncolors):
        start = geo.starts[k]
        mine = [m for c, m in placements if c == k]
        cells = {m: {int(q) for q in t.pl_cells[m, : t.pl_size[m]]} for m in mine}
        touch = {m: cells[m] | {int(y) for y in t.pl_corners[m, : t.pl_ncorners[m]]} for m in mine}
        reached = [m for m in mine if start in cells[m]]
        frontier = list(reached)
        while frontier:
            a = frontier.pop()
            if t.pl_size[a] == 1:
                continue  # the monomino supports nothing
            for b in mine:
                if b not in reached and touch[b] & cells[a]:
                    reached.append(b)
                    frontier.append(b)
        reached.sort(key=lambda m: t.pl_size[m] == 1)  # stable: monomino to the end
        out.extend((k, m) for m in reached)
    return out


def is_quarter_turn_symmetric(placements: list[tuple[int, int]], geo: Geometry | None = None) -> bool:
    """Whether the board's symmetry group maps blue's pieces onto every color's (on 20x20: the quarter
    turn R maps each color's pieces onto the next color's); False when the board has no such group."""
    geo = geo or geometry()
    if geo.maps is None:
        return False
    t = geo.tables
    drawn = {(k, frozenset(t.moves[m].cells)) for k, m in placements}
    images = {(k, frozenset(geo.maps[k](r, c) for r, c in cells))
              for k in range(geo.ncolors) for s, cells in drawn if s == geo.source[k]}
    return images == drawn


def _rearrange(start: list[tuple[int, int]], rounds: int, deadline: float, rng: random.Random, workers: int,
               progress: Callable[[str], None] | None, geo: Geometry | None = None) -> tuple[list[tuple[int, int]], int]:
    """Large-neighbourhood moves on a complete solution: free a window (its pieces, and the pieces that
    lose their connection to the corner), and let CP-SAT place them all again, at least one of them
    elsewhere.  ``rounds`` successful moves, and until the solution is no longer quarter-turn symmetric.
    Returns (placements in a legal order, moves made)."""
    geo = geo or geometry()
    t = geo.tables
    current = _ordered(start, geo)
    moved = 0
    while time.perf_counter() < deadline - 0.05 and (moved < rounds or is_quarter_turn_symmetric(current, geo)):
        r0, c0 = rng.randrange(geo.rows), rng.randrange(geo.cols)
        h = rng.choice(_WINDOW_HALF_SIZES)
        window = {t.flat(r, c) for r in range(r0 - h, r0 + h + 1) for c in range(c0 - h, c0 + h + 1)
                  if 0 <= r < geo.rows and 0 <= c < geo.cols}
        kept = _ordered([(k, m) for k, m in current if not window & set(t.pl_cells[m, : t.pl_size[m]].tolist())], geo)
        if len(current) - len(kept) > _MAX_HAND:
            continue  # too large a neighbourhood (a window near a corner cuts off long chains)
        kept_set = set(kept)
        removed = [km for km in current if km not in kept_set]
        found = _complete(kept, max(0.01, min(_WINDOW_SECONDS, deadline - time.perf_counter())), workers,
                          rng.randrange(1 << 30), hint=removed, avoid=removed, geo=geo)
        if found is None:
            continue
        current = _ordered(kept + found, geo)
        if len(current) != len(start):
            raise AssertionError("a re-placed piece lost its connection")
        moved += 1
        if progress:
            progress(f"re-arranged {len(removed)} pieces around {move_text([(r0, c0)], geo.rows)}")
    return current, moved


_WINDOW_HALF_SIZES = (1, 2, 2, 3)  # windows of 3x3 to 7x7 cells
_WINDOW_SECONDS = 2.0  # CP-SAT time per window
_MAX_HAND = 16  # pieces re-placed in one window, at most

_TRACE = False  # debugging: print each CP-SAT completion



class _Search:
    """The cooperative DFS (see module docstring).

    Symmetric (``geo.maps``): only the searched colors (``geo.searched``: blue, or blue and yellow) move,
    units are the orbits of the symmetry group.
    Otherwise every color is searched (the color with the fewest candidate moves goes next), units are
    cells.
    """

    def __init__(self, seed: int, breadth: int, restart_nodes: int, geo: Geometry | None = None,
                 symmetric: bool = True, strong: bool | None = None) -> None:
        self.geo = geo = geo or geometry()
        self.symmetric = symmetric and geo.maps is not None
        self.t = geo.tables
        t = self.t
        self.ncolors = len(geo.searched) if self.symmetric else geo.ncolors
        group = [g for g, s in zip(geo.maps or [], geo.source) if s == 0]
        self.area = t.area
        self.border = t.border.astype(np.uint8)
        # units
        unit_of = np.full(t.area, -1, np.int64)
        units: list[list[int]] = []
        unusable: list[list[int]] = []  # orbits with fewer cells than colors (a symmetry fixes their cells)
        for r in range(geo.rows):
            for c in range(geo.cols):
                q = t.flat(r, c)
                if unit_of[q] >= 0:
                    continue
                if self.symmetric:
                    assert geo.maps is not None
                    members = sorted({t.flat(*g(r, c)) for g in group})
                else:
                    members = [q]
                if self.symmetric and len(members) < len(group):
                    for x in members:
                        unit_of[x] = -2
                    unusable.append(members)
                    continue
                for x in members:
                    unit_of[x] = len(units)
                units.append(members)
        border_unit = len(units)
        unit_of[unit_of < 0] = border_unit  # off-board and unusable cells: one permanently used unit
        units.append([])
        self.unusable_cells = sum(len(u) for u in unusable)
        self.unit_of = unit_of
        self.n_units = len(units)
        self.unit_cells = np.zeros((self.n_units, max(len(u) for u in units)), np.int64)
        self.unit_n = np.zeros(self.n_units, np.int64)
        for u, members in enumerate(units):
            self.unit_cells[u, : len(members)] = members
            self.unit_n[u] = len(members)
        self.real_units = border_unit
        needed = sum(PIECE_SIZES) * self.ncolors
        self.budget = self.real_units - needed  # units that may die
        self.rng = random.Random(seed)
        self.breadth = breadth
        self.restart_nodes = restart_nodes
        self.marker = np.zeros(t.num_placements, np.int64)
        self.stamp = 0
        cap = t.num_placements
        self.out_m = np.zeros(cap, np.int64)
        self.out_kill = np.zeros(cap, np.int64)
        self.out_attach = np.zeros(cap, np.int64)
        self.out_contact = np.zeros(cap, np.int64)
        self.starts = geo.starts
        self.start_cells = np.array(geo.starts, np.int64)
        # own CSR lists (cell * 21 + piece -> placements covering the cell), independent of the engine's layout
        keys = np.concatenate([t.pl_cells[m, : t.pl_size[m]].astype(np.int64) * NUM_PIECES + t.pl_piece[m]
                               for m in range(t.num_placements)])
        owners = np.repeat(np.arange(t.num_placements, dtype=np.int64), t.pl_size)
        order = np.argsort(keys, kind="stable")
        self.cp_list = owners[order]
        self.cp_start = np.zeros(t.area * NUM_PIECES + 1, np.int64)
        np.cumsum(np.bincount(keys, minlength=t.area * NUM_PIECES), out=self.cp_start[1:])
        self.order_sizes = sorted(set(PIECE_SIZES), reverse=True)
        self.piece_sizes = np.array(PIECE_SIZES, np.int64)
        # the stronger waste bound (:func:`_waste_bound`) pays on tight boards (few cells to spare)
        self.strong = self.budget <= 6 if strong is None else strong
        self.tail = 4 * self.ncolors  # plies searched in full at the end (strong mode)
        # strong mode: at the start of the tail, CP-SAT tries to place every color's remaining pieces
        # (all colors, no symmetry asked: more freedom than the symmetric tail)
        self.complete_at = NUM_PIECES * self.ncolors - self.tail if self.strong else -1
        self.complete_seconds = 2.0
        self.completed = False  # the last run's path holds every color's placements (CP-SAT completion)
        self.best = self.nodes = self.restarts = 0  # of the last run (read after an interruption too)

    def complete_when(self, pieces_left: int | None, seconds: float) -> None:
        """Run the CP-SAT completion when each searched color has ``pieces_left`` pieces in hand (None: never)."""
        self.complete_at = -1 if pieces_left is None else (NUM_PIECES - pieces_left) * self.ncolors
        self.complete_seconds = seconds

    def reset(self) -> None:
        t = self.t
        self.unit_used = np.zeros(self.n_units, np.uint8)
        self.unit_used[self.real_units] = 1
        self.forb = np.repeat(self.border[None, :], self.ncolors, axis=0).astype(np.uint8)
        self.active = np.ones(self.ncolors, np.uint8)
        self.left = np.ones((self.ncolors, NUM_PIECES), np.uint8)
        self.attach = np.zeros((self.ncolors, t.area), np.int64)
        self.n_attach = [0] * self.ncolors
        self.path: list[tuple[int, int]] = []  # (color, placement) per ply, in search order

    def allowed_pieces(self, color: int) -> np.ndarray:
        """The pieces ``color`` may play now (a 0/1 mask): its largest ones in hand."""
        left = self.left[color]
        top = max((PIECE_SIZES[p] for p in range(NUM_PIECES) if left[p]), default=0)
        return np.array([1 if left[p] and PIECE_SIZES[p] == top else 0 for p in range(NUM_PIECES)], np.uint8)

    def moves_for(self, color: int) -> list[tuple[int, int, int, int]]:
        t = self.t
        left = self.left[color]
        ok = self.allowed_pieces(color)
        if not ok.any():
            return []
        self.stamp += 1
        first = left.sum() == NUM_PIECES
        n = _candidates(color, ok, self.attach[color], self.n_attach[color], first, self.starts[color],
                        t.pl_piece, t.pl_size, t.pl_cells, t.pl_adj, t.pl_nadj, t.pl_corners, t.pl_ncorners,
                        self.cp_start, self.cp_list, self.unit_of, self.unit_cells, self.unit_n, self.unit_used,
                        self.forb, self.active, self.marker, self.stamp, self.out_m, self.out_kill, self.out_attach,
                        t.width, self.out_contact)
        return [(int(self.out_m[i]), int(self.out_kill[i]), int(self.out_attach[i]), int(self.out_contact[i]))
                for i in range(n)]

    def place(self, color: int, m: int) -> tuple:
        t = self.t
        snap = (self.unit_used.copy(), self.forb.copy(), self.left.copy(), self.active.copy(), self.n_attach[color])
        cells = t.pl_cells[m, : t.pl_size[m]]
        for q in cells:
            self.unit_used[self.unit_of[q]] = 1
        self.forb[color, cells] = 1
        self.forb[:, cells] = 1  # occupied for every color
        self.forb[color, t.pl_adj[m, : t.pl_nadj[m]]] = 1
        self.left[color, t.pl_piece[m]] = 0
        if not self.left[color].any():
            self.active[color] = 0
        att = self.attach[color]
        n = self.n_attach[color]
        for y in t.pl_corners[m, : t.pl_ncorners[m]]:
            att[n] = y
            n += 1
        self.n_attach[color] = n
        self.path.append((color, m))
        return snap

    def undo(self, color: int, snap: tuple) -> None:
        self.unit_used, self.forb, self.left, self.active, self.n_attach[color] = snap
        self.path.pop()

    def dead(self) -> int:
        if self.strong:
            return _waste_bound(self.unit_cells, self.unit_n, self.unit_used, self.unit_of, self.forb, self.active,
                                self.left, self.piece_sizes, self.cp_start, self.cp_list, self.t.pl_cells,
                                self.t.pl_size, self.real_units, self.attach, np.array(self.n_attach, np.int64),
                                self.start_cells, self.t.width)
        return _dead_units(self.unit_cells, self.unit_n, self.unit_used, self.forb, self.active, self.real_units)

    def _try_complete(self, deadline: float = float("inf")) -> list[tuple[int, int]] | None:
        """Every color's placements (a legal order) when CP-SAT completes the current position, else None;
        the CP-SAT call never runs past ``deadline``."""
        geo = self.geo
        kept = expand_symmetric(self.path, geo) if self.symmetric else list(self.path)
        seconds = min(self.complete_seconds, deadline - time.perf_counter())
        if seconds <= 0.01:
            return None
        found = _complete(_ordered(kept, geo), seconds, 1, self.rng.randrange(1 << 30), geo=geo)
        if found is None:
            return None
        done = _ordered(kept + found, geo)
        return done if len(done) == NUM_PIECES * geo.ncolors else None

    def run(self, deadline: float,
            progress: Callable[[str], None] | None) -> tuple[list[tuple[int, int]] | None, int, int, int]:
        """Restarted DFS until a solution or the deadline: (placements in play order, best depth, nodes, restarts).
        The first descent always starts, even past the deadline (its DFS stops within 64 nodes then): every kernel
        of the search runs at least once, as ``kibitz warmup`` needs on a slow machine."""
        total_plies = NUM_PIECES * self.ncolors
        self.best = 0
        self.nodes = 0
        self.restarts = 0
        self.completed = False
        first = True
        while first or time.perf_counter() < deadline:
            first = False
            self.reset()
            budget_nodes = [self.restart_nodes]
            self.best_depth = 0
            try:
                found = self._dfs(0, total_plies, deadline, budget_nodes)
            finally:
                self.nodes += self.restart_nodes - max(budget_nodes[0], 0)
                self.best = max(self.best, self.best_depth)
            if found:
                return list(self.path), total_plies, self.nodes, self.restarts
            self.restarts += 1
            if progress:
                progress(f"restart {self.restarts}, best {self.best}/{total_plies} plies")
        return None, self.best, self.nodes, self.restarts

    best_depth = 0

    def _next_color(self) -> tuple[int, list[tuple[int, int, int, int]]]:
        """The color to move and its moves: the most constrained active color; no moves when an active
        color has none (the position is lost)."""
        if self.ncolors == 1:
            return 0, self.moves_for(0)
        color, moves = -1, list[tuple[int, int, int, int]]()
        for k in range(self.ncolors):
            if not self.active[k]:
                continue
            mk = self.moves_for(k)
            if not mk:
                return k, mk
            if color < 0 or len(mk) < len(moves):
                color, moves = k, mk
        return color, moves

    def _dfs(self, ply: int, total: int, deadline: float, budget: list[int]) -> bool:
        self.best_depth = max(self.best_depth, ply)
        if ply == total:
            return True
        if budget[0] <= 0 or (budget[0] & 63) == 0 and time.perf_counter() > deadline:
            return False
        if ply == self.complete_at:
            done = self._try_complete(deadline)
            if done is not None:
                self.path = done
                self.completed = True
                return True
        color, moves = self._next_color()
        if not moves:
            return False
        dead_now = self.dead()
        slack = self.budget - dead_now
        moves = [mv for mv in moves if mv[1] <= slack]
        rnd = self.rng.random
        if self.strong:  # tight boards: pack (most edges against filled cells and walls) first
            moves.sort(key=lambda mv: (mv[1], -mv[3], -mv[2] if mv[2] < 2 else 0, rnd()))
        else:
            moves.sort(key=lambda mv: (mv[1], -mv[2] if mv[2] < 2 else 0, rnd()))
        # tight boards: every move in the last plies (small pieces filling the last holes; few candidates)
        limit = len(moves) if self.strong and total - ply <= self.tail else self.breadth
        for m, _kill, *_ in moves[:limit]:
            budget[0] -= 1
            if budget[0] < 0:
                return False
            snap = self.place(color, m)
            if self.dead() <= self.budget and self._dfs(ply + 1, total, deadline, budget):
                return True
            self.undo(color, snap)
            if time.perf_counter() > deadline:
                return False
        return False


def replay(path: list[tuple[int, int]], symmetric: bool, geo: Geometry | None = None) -> BlokusState:
    """Play the solution through the rule engine (each move re-checked); returns the final state.

    Each color keeps the order in which the search placed its pieces; the colors then take turns
    (blue, yellow, red, green), which is legal because a move's legality depends only on its own
    color's earlier pieces and on the cells being free, and all placements are disjoint.
    ``symmetric``: ``path`` holds the searched colors' moves only; color k plays the images of color
    ``geo.source[k]``'s under ``geo.maps[k]``.
    """
    geo = geo or geometry()
    t = geo.tables
    per_color: list[list[tuple]] = [[] for _ in range(geo.ncolors)]
    for color, m in path:
        cells = t.moves[m].cells
        if symmetric:
            assert geo.maps is not None
            for k in range(geo.ncolors):
                if geo.source[k] == color:
                    per_color[k].append(tuple(geo.maps[k](r, c) for r, c in cells))
        else:
            per_color[color].append(cells)
    state = BlokusState(geo.variant)
    for i in range(max(len(x) for x in per_color)):
        for k in range(geo.ncolors):
            if i < len(per_color[k]):  # parsed and re-checked by the engine
                state.apply(state.string_to_action(move_text(per_color[k][i], geo.rows)))
    return state


def verify_solution(state: BlokusState) -> None:
    """Independent final check: every color placed its 21 pieces, none overlap (89 cells per color)."""
    nc = state.num_colors
    placed = [(c, m) for c, m in state.moves_played if not m.is_pass]
    if len(placed) != NUM_PIECES * nc:
        raise ValueError(f"{len(placed)} pieces placed, not {NUM_PIECES * nc}")
    for color in range(nc):
        pieces = sorted(m.piece for c, m in placed if c == color)
        if len(set(pieces)) != NUM_PIECES:
            raise ValueError(f"color {color} did not place 21 different pieces")
    cells = [cell for _, m in placed for cell in m.cells]
    need = nc * sum(PIECE_SIZES)
    if len(set(cells)) != need or len(cells) != need:
        raise ValueError("pieces overlap")


def expand_symmetric(path: list[tuple[int, int]], geo: Geometry | None = None) -> list[tuple[int, int]]:
    """A symmetric search's moves as all colors' placements (color k: ``geo.source[k]``'s mapped by
    ``geo.maps[k]``)."""
    geo = geo or geometry()
    assert geo.maps is not None
    t = geo.tables
    return [(k, t.placement_of([geo.maps[k](r, c) for r, c in t.moves[m].cells]))
            for k in range(geo.ncolors) for s, m in path if s == geo.source[k]]


def solve_all_pieces(
    symmetric: bool = True,
    perfect: bool = False,
    time_limit: float = 60.0,
    seed: int = 0,
    workers: int = 1,
    breadth: int = 3,
    restart_nodes: int | None = None,
    rearrange_rounds: int = 8,
    progress: Callable[[str], None] | None = None,
    board: tuple[int, int] = (SIZE, SIZE),
    colors: int = 4,
    symmetry: str | None = None,
    complete_pieces_left: int | None = -1,
    complete_seconds: float = 2.0,
    strong: bool | None = None,
) -> SolitaireResult:
    """Search for all the pieces of ``colors`` colors on a ``board`` of (columns, rows); the result is
    replayed through the engine and verified.

    ``symmetric``: the answer is invariant under the board's symmetry group (:class:`Geometry`; the
    quarter turn on 20x20).  Otherwise (general mode) the symmetric solution is then re-arranged by
    CP-SAT window moves (``rearrange_rounds`` of them, and until it is no longer symmetric; ``workers``
    CP-SAT workers); if time runs out first, the symmetric solution is returned (it is a solution of
    the general problem too), and ``quarter_turn_symmetric`` in the result says which.  One color has
    only the identity (both modes are the same search); three colors have no group (``symmetric`` is
    refused, the general mode searches the three colors directly).
    ``symmetry``: which one (:class:`Geometry`; 4 colors only; default: the quarter turn on a square,
    the mirrors otherwise).
    ``complete_pieces_left``: when each searched color has that many pieces in hand, CP-SAT tries for
    ``complete_seconds`` to place every color's remaining pieces in any arrangement (``_complete``);
    -1: the default (tight boards: 4, i.e. after the tetrominoes; otherwise never), None: never.
    ``strong``: the waste bound with coverage and reachability, packing order, full tail (default: on
    when at most 6 units may stay empty).
    ``perfect`` needs nothing extra: the monomino is always each color's last piece.
    Status: ``found``, ``time_limit`` (unknown: the search is not exhaustive, so it never proves that no
    layout exists) or ``interrupted`` (Ctrl-C).  Impossible by area: ValueError at once.
    """
    geo = geometry(board[0], board[1], colors, symmetry)
    if symmetric and geo.maps is None:
        raise ValueError(f"{colors} colors have no board symmetry carrying one corner to the others; "
                         "search without --symmetric")
    start = time.perf_counter()
    sym_search = geo.maps is not None
    search = _Search(seed, breadth, restart_nodes or 4000, geo, symmetric=sym_search, strong=strong)
    if complete_pieces_left != -1:
        search.complete_when(complete_pieces_left, complete_seconds)
    deadline = start + time_limit
    name, sym = f"{geo.cols}x{geo.rows}", geo.symmetry if symmetric or geo.ncolors == 1 else "none"
    scale = geo.ncolors // len(geo.searched) if sym_search else 1  # a symmetric ply places this many pieces
    try:
        path, best, nodes, restarts = search.run(deadline, progress)
    except KeyboardInterrupt:
        return SolitaireResult("interrupted", time.perf_counter() - start, 0, search.best * scale, search.nodes,
                               restarts=search.restarts, board=name, colors=colors, symmetry=sym)
    if path is None:
        return SolitaireResult("time_limit", time.perf_counter() - start, 0, best * scale, nodes, restarts=restarts,
                               board=name, colors=colors, symmetry=sym)
    moved = 0
    if search.completed:
        sym += " (CP-SAT completed the last pieces of every color, in any arrangement)"
    if not sym_search or search.completed:
        state = replay(path, False, geo)
    elif symmetric or geo.ncolors == 1:
        state = replay(path, True, geo)
    else:
        try:
            placements, moved = _rearrange(expand_symmetric(path, geo), rearrange_rounds, deadline,
                                           random.Random(seed), workers, progress, geo)
        except KeyboardInterrupt:
            placements = expand_symmetric(path, geo)
        state = replay(_ordered(placements, geo), False, geo)
    seconds = time.perf_counter() - start
    verify_solution(state)
    if perfect:
        for color in range(geo.ncolors):
            last = [m for c, m in state.moves_played if c == color and not m.is_pass][-1]
            if last.piece != "1":
                raise AssertionError("the monomino is not the last piece")
    moves = [(state.color_names[c], m.text) for c, m in state.moves_played if not m.is_pass]
    final = [(c, m.index) for c, m in state.moves_played if not m.is_pass]  # a move's index is its placement
    placed = NUM_PIECES * geo.ncolors
    return SolitaireResult("found", seconds, placed, placed, nodes, state, moves, restarts, moved,
                           is_quarter_turn_symmetric(final, geo), board=name, colors=colors, symmetry=sym,
                           empty_cells=geo.cols * geo.rows - geo.cells_needed)
