"""All 84 Blokus pieces under the half turn, by annealing the pieces' placements (an experiment).

The cell annealing (``blokus_cell_anneal.py``) moves single cells, so a piece changes shape on the way and the
distinct-shapes rule is what it fights.  Here the pieces are fixed and only their places move, as in local search for
packings: a state is one placement per (base colour, shape), 42 of them (blue and yellow; red and green are their half
turns), each avoiding the centre and its own image.  The cost adds

* ``O`` per overlap: a cell covered more than once, images included (the areas fix the holes by the overlaps);
* ``E`` per edge-rule conflict: the edges shared by two pieces of one base colour, twice (their images mirror them);
* connectivity, per base colour: ``G`` per corner-contact group past the first (and one without its start corner),
  ``U`` per piece not reached from the piece on the start corner (``--weights O,E,G,U``);
* colour-free terms that say how colourable the packing is: ``--crossings W,T`` (points where four pieces meet,
  short of T: a layout's corner contacts are nearly all there) and ``--pairs L,W,T`` (pieces with no corner-only
  partner of another shape, and such pairs short of T).

A state of cost 0 is a layout; it is replayed through the rule engine.  Moves: shift a piece (any orientation, its
box's corner moved by at most 2), put it anywhere, put it over an uncovered cell (``--hole``), give it its image's
place (blue takes red's cells), or swap the places of blue's and yellow's copies of one shape (``--swap``).
Two exact steps work on the packings the annealing meets:

* ``--recolour S``: a packing without overlaps keeps its pieces, and SAT chooses every colour (per shape, which of
  its two half-turn pairs is blue/red, and which piece of a pair takes the base colour) under the edge rule, the
  start corners, a corner contact per piece and connectivity (lazy cuts): a layout, or a proof that no colouring of
  that packing is one, in milliseconds;
* ``--refill S``: after a cycle whose best has a few overlaps, the pieces near them go, and dancing links places the
  same shapes on the cells freed, every way up to ``--refill-solutions``, each then recoloured.

Results: ``bench/results/solitaire_all_pieces.md`` (2026-12-07, "the pieces' places annealed").

    python bench/blokus_piece_anneal.py 18x20 --hole 0.3 --weights 2,1,0,0 --t-hot 3 --t-cold 0.15 --time-limit 120
    python bench/blokus_piece_anneal.py 21x17 --hole 0.3 --weights 2,1,1,0 --pairs 1,0.5,90 --t-hot 3 --t-cold 0.1 \
        --recolour 5 --refill 10 --restart --time-limit 900
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
from numba import njit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from blokus_cell_anneal import (  # noqa: E402
    EMPTY_COLOUR,
    CellBoard,
    grid,
    pieces_by_colour,
    replay,
    stored_colouring,
)

from solvers.blokus.solitaire_sat import PIECES  # noqa: E402

COMPILE_CACHE = False  # loaded by the tests under another module name, which numba's cache cannot re-import
NSHAPES = len(PIECES)
SLOTS = 2 * NSHAPES  # blue's and yellow's pieces; red's and green's are their images
NPIECES = 2 * SLOTS
TRACE = False


class Placements:
    """Every placement of every shape on the board that avoids the centre and its own half-turn image, as arrays:
    cells, image cells, the ring (every edge neighbour of its cells, once per edge, inner ones too), the corner cells
    (diagonal, not edge neighbours), its image's placement number, and a lookup by (shape, orientation, box
    corner); ``tables`` holds them for the kernels."""

    def __init__(self, board: CellBoard) -> None:
        self.board = board
        n, cols, rows = board.n, board.cols, board.rows
        blocked = {int(q) for q in board.fixed_empty}
        rows_out: list[tuple[list[int], int, int, int, int]] = []
        self.shape_start = np.zeros(NSHAPES + 1, np.int64)
        self.lookup = np.full((NSHAPES, 8, rows, cols), -1, np.int64)
        for s, piece in enumerate(PIECES):
            self.shape_start[s] = len(rows_out)
            for o, shape in enumerate(piece.orientations()):
                for r0 in range(rows - shape.height + 1):
                    for c0 in range(cols - shape.width + 1):
                        cells = sorted((r + r0) * cols + c + c0 for r, c in shape.cells)
                        if blocked.intersection(cells) or {n - 1 - q for q in cells}.intersection(cells):
                            continue
                        self.lookup[s, o, r0, c0] = len(rows_out)
                        rows_out.append((cells, s, o, r0, c0))
        self.shape_start[NSHAPES] = len(rows_out)
        self.count = len(rows_out)
        rings = [self._ring(cells) for cells, *_ in rows_out]
        corners = [self._corners(cells, ring) for (cells, *_), ring in zip(rows_out, rings)]
        self.cells = _padded([cells for cells, *_ in rows_out])
        self.image = _padded([[n - 1 - q for q in cells] for cells, *_ in rows_out])
        self.size = np.array([len(cells) for cells, *_ in rows_out], np.int64)
        self.ring, self.nring = _padded(rings), np.array([len(r) for r in rings], np.int64)
        self.corner, self.ncorner = _padded(corners), np.array([len(c) for c in corners], np.int64)
        self.shape = np.array([s for _, s, *_ in rows_out], np.int64)
        self.r0 = np.array([r for *_, r, _ in rows_out], np.int64)
        self.c0 = np.array([c for *_, c in rows_out], np.int64)
        self.by_cells = {tuple(cells): p for p, (cells, *_) in enumerate(rows_out)}
        self.image_of = np.array([self.by_cells[tuple(sorted(n - 1 - q for q in cells))] for cells, *_ in rows_out],
                                 np.int64)
        self.tables = self._kernel_tables()

    def _ring(self, cells: list[int]) -> list[int]:
        """Every edge neighbour of each of its cells, inner ones too (so that with overlaps the count stays
        symmetric: a pair of edge-adjacent cells of two pieces counts once from each side)."""
        return sorted(int(y) for q in cells for y in self.board.nbr4[q] if y >= 0)

    def _corners(self, cells: list[int], ring: list[int]) -> list[int]:
        return sorted({int(y) for q in cells for y in self.board.nbr8[q] if y >= 0} - set(cells) - set(ring))

    def random_state(self, rng: np.random.Generator) -> np.ndarray:
        """One random placement per slot (slot k * 21 + s: base colour k, shape s)."""
        return np.array([rng.integers(self.shape_start[s], self.shape_start[s + 1])
                         for _ in range(2) for s in range(NSHAPES)], np.int64)

    def colouring(self, cur: np.ndarray) -> np.ndarray:
        """The colour of every cell (EMPTY_COLOUR where none) for a state of cost 0."""
        col = np.full(self.board.n, EMPTY_COLOUR, np.int64)
        for i, p in enumerate(cur):
            k = i // NSHAPES
            col[self.cells[p, : self.size[p]]] = k
            col[self.image[p, : self.size[p]]] = k + 2
        return col

    def state_of(self, col: np.ndarray) -> np.ndarray:
        """The state (a placement per slot) of a half-turn layout given as a colouring."""
        cur = np.full(SLOTS, -1, np.int64)
        for k, pieces in enumerate(pieces_by_colour(self.board, col)[:2]):
            for piece in pieces:
                p = self.by_cells[tuple(sorted(r * self.board.cols + c for r, c in piece))]
                cur[k * NSHAPES + self.shape[p]] = p
        return cur

    def _kernel_tables(self) -> tuple[np.ndarray, ...]:
        """The arrays the kernels read, by position (built once: ``state_cost`` runs per refill)."""
        norient = np.array([len(piece.orientations()) for piece in PIECES], np.int64)
        offsets = np.zeros((NSHAPES, 8, 5, 2), np.int64)
        for s, piece in enumerate(PIECES):
            for o, shape in enumerate(piece.orientations()):
                offsets[s, o, : piece.area] = sorted(shape.cells)
        cols, rows = self.board.cols, self.board.rows
        point_cells = np.array([[r * cols + c, r * cols + c + 1, (r + 1) * cols + c, (r + 1) * cols + c + 1]
                                for r in range(rows - 1) for c in range(cols - 1)], np.int64)
        cell_points = np.full((self.board.n, 4), -1, np.int64)
        for pt, four in enumerate(point_cells):
            for a, q in enumerate(four):
                cell_points[q, a] = pt
        diag = np.ascontiguousarray(self.board.nbr8[:, [0, 2, 5, 7]])
        return (self.cells, self.image, self.size, self.ring, self.nring, self.corner, self.ncorner, self.shape,
                self.r0, self.c0, self.shape_start, self.lookup, self.image_of, norient, offsets,
                cell_points, point_cells, self.board.nbr4, diag)


def _padded(rows: list[list[int]]) -> np.ndarray:
    out = np.full((len(rows), max(len(r) for r in rows)), -1, np.int64)
    for i, r in enumerate(rows):
        out[i, : len(r)] = r
    return out


@njit(cache=COMPILE_CACHE)
def _put(p, i, delta, cnt, own, cellp, cells, image, size):
    """Put slot i's placement p on the board (``delta`` 1) or take it off (-1); returns the change in overlaps.
    ``own[k]`` counts base colour k's pieces on a cell, ``own[2]`` sums the numbers (plus one) of the pieces there
    (2i: slot i's piece, 2i + 1: its image), which names a cell's piece when it has one; ``cellp[q]`` lists them
    (at most 8, their count in column 8)."""
    change = 0
    for t in range(size[p]):
        for side in range(2):
            q = cells[p, t] if side == 0 else image[p, t]
            x = 2 * i + side
            change += max(cnt[q] + delta - 1, 0) - max(cnt[q] - 1, 0)
            cnt[q] += delta
            own[2, q] += delta * (x + 1)
            if delta > 0 and cellp[q, 8] < 8:
                cellp[q, cellp[q, 8]] = x
                cellp[q, 8] += 1
            for b in range(cellp[q, 8] if delta < 0 else 0):
                if cellp[q, b] == x:
                    cellp[q, 8] -= 1
                    cellp[q, b] = cellp[q, cellp[q, 8]]
                    break
        own[i // NSHAPES, cells[p, t]] += delta
    return change


@njit(cache=COMPILE_CACHE)
def _touch_remove(x, touch, cop):
    """Forget piece x's contacts.  ``touch[0, x, y]``/``touch[1, x, y]``: the edge/diagonal cell pairs of pieces x
    and y (pieces 2i and 2i + 1: slot i's and its image); ``cop[x]``: x's corner-only partners of another shape
    (a diagonal pair, no edge: a possible corner contact of one colour), ``cop[NP]`` their number,
    ``cop[NP + 1]`` the pieces with none."""
    for y in range(NPIECES):
        if touch[0, x, y] or touch[1, x, y]:
            if _corner_only(x, y, touch):
                cop[NPIECES] -= 1
                cop[x] -= 1
                cop[y] -= 1
            touch[0, x, y], touch[0, y, x], touch[1, x, y], touch[1, y, x] = 0, 0, 0, 0


@njit(cache=COMPILE_CACHE)
def _corner_only(x, y, touch):
    return (x // 2) % NSHAPES != (y // 2) % NSHAPES and touch[1, x, y] > 0 and touch[0, x, y] == 0


@njit(cache=COMPILE_CACHE)
def _touch_add(x, p, touch, cop, cellp, cells, image, size, nbr4, diag, both):
    """Count piece x's (at placement p, or its image for odd x) contacts with the pieces on the board; ``both``:
    into both directions of the pair (x moved), else x's row only (the whole board rebuilt)."""
    for t in range(size[p]):
        u = cells[p, t] if x % 2 == 0 else image[p, t]
        for kind in range(2):
            for a in range(4):
                v = nbr4[u, a] if kind == 0 else diag[u, a]
                if v < 0:
                    continue
                for b in range(cellp[v, 8]):
                    y = cellp[v, b]
                    if (y // 2) % NSHAPES == (x // 2) % NSHAPES:
                        continue
                    touch[kind, x, y] += 1
                    if both:
                        touch[kind, y, x] += 1
    if both:
        for y in range(NPIECES):
            if _corner_only(x, y, touch):
                cop[NPIECES] += 1
                cop[x] += 1
                cop[y] += 1


@njit(cache=COMPILE_CACHE)
def _lonely(cop):
    cop[NPIECES + 1] = 0
    for x in range(NPIECES):
        if cop[x] == 0:
            cop[NPIECES + 1] += 1


@njit(cache=COMPILE_CACHE)
def _crossing(pt, cnt, own, point_cells):
    """Whether point pt is a crossing: its four cells covered once each, by four different pieces."""
    for a in range(4):
        if cnt[point_cells[pt, a]] != 1:
            return 0
    for a in range(4):
        for b in range(a):
            if own[2, point_cells[pt, a]] == own[2, point_cells[pt, b]]:
                return 0
    return 1


@njit(cache=COMPILE_CACHE)
def _gather_points(p, p_new, pts, mark, stamp, cells, image, size, cell_points):
    """The points at a corner of a cell of p or p_new or their images, each once, into ``pts``; returns how many."""
    stamp[0] += 1
    st = stamp[0]
    npts = 0
    for pl in (p, p_new):
        for t in range(size[pl]):
            for side in range(2):
                q = cells[pl, t] if side == 0 else image[pl, t]
                for a in range(4):
                    pt = cell_points[q, a]
                    if pt >= 0 and mark[pt] != st:
                        mark[pt] = st
                        pts[npts] = pt
                        npts += 1
    return npts


@njit(cache=COMPILE_CACHE)
def _crossings_at(pts, npts, cnt, own, point_cells):
    total = 0
    for a in range(npts):
        total += _crossing(pts[a], cnt, own, point_cells)
    return total


@njit(cache=COMPILE_CACHE)
def _ring_sum(p, own_k, ring, nring):
    """The edges p shares with base colour k's pieces (edge-rule conflicts of p)."""
    total = 0
    for t in range(nring[p]):
        total += own_k[ring[p, t]]
    return total


@njit(cache=COMPILE_CACHE)
def _contact_row(k, a, cur, adj, mark, stamp, cells, size, corner, ncorner):
    """Recompute which pieces of base colour k touch piece a at one of its corner cells."""
    stamp[0] += 1
    st = stamp[0]
    p = cur[k * NSHAPES + a]
    for t in range(ncorner[p]):
        mark[corner[p, t]] = st
    for b in range(NSHAPES):
        if b == a:
            continue
        q = cur[k * NSHAPES + b]
        hit = False
        for t in range(size[q]):
            if mark[cells[q, t]] == st:
                hit = True
                break
        adj[k, a, b] = hit
        adj[k, b, a] = hit


@njit(cache=COMPILE_CACHE)
def _connectivity(k, cur, adj, own, corner_cell, cells, size, weights, queue, seen):
    """Base colour k's connectivity cost: groups past the first, one more without its start corner, and
    ``weights[3]`` per piece not reached from the piece on the start corner."""
    seen[:] = -1
    groups, reached = 0, 0
    for a in range(NSHAPES):
        if seen[a] >= 0:
            continue
        seen[a] = groups
        queue[0] = a
        head, tail = 0, 1
        while head < tail:
            x = queue[head]
            head += 1
            for b in range(NSHAPES):
                if adj[k, x, b] and seen[b] < 0:
                    seen[b] = groups
                    queue[tail] = b
                    tail += 1
        groups += 1
    a = _corner_slot(k, cur, corner_cell, cells, size)
    if a >= 0:
        for b in range(NSHAPES):
            if seen[b] == seen[a]:
                reached += 1
    return weights[2] * (groups - 1 + (0 if a >= 0 else 1)) + weights[3] * (NSHAPES - reached)


@njit(cache=COMPILE_CACHE)
def _corner_slot(k, cur, corner_cell, cells, size):
    """The shape of base colour k's piece on its start corner, or -1."""
    for a in range(NSHAPES):
        p = cur[k * NSHAPES + a]
        for t in range(size[p]):
            if cells[p, t] == corner_cell[k]:
                return a
    return -1


@njit(cache=COMPILE_CACHE)
def _relocate(i, p_new, cur, cnt, own, adj, mark, stamp, pts, touch, cop, cellp, tables):
    """Move slot i to placement p_new; returns (overlap change, edge-rule change, crossings change)."""
    cells, image, size, ring, nring, corner, ncorner = tables[0], tables[1], tables[2], tables[3], tables[4], tables[5], tables[6]
    k, a = i // NSHAPES, i % NSHAPES
    p = cur[i]
    npts = _gather_points(p, p_new, pts, mark, stamp, cells, image, size, tables[15])
    d_cross = -_crossings_at(pts, npts, cnt, own, tables[16])
    _touch_remove(2 * i, touch, cop)
    _touch_remove(2 * i + 1, touch, cop)
    d_over = _put(p, i, -1, cnt, own, cellp, cells, image, size)
    d_edge = 2 * (_ring_sum(p_new, own[k], ring, nring) - _ring_sum(p, own[k], ring, nring))
    d_over += _put(p_new, i, 1, cnt, own, cellp, cells, image, size)
    _touch_add(2 * i, p_new, touch, cop, cellp, cells, image, size, tables[17], tables[18], True)
    _touch_add(2 * i + 1, p_new, touch, cop, cellp, cells, image, size, tables[17], tables[18], True)
    _lonely(cop)
    d_cross += _crossings_at(pts, npts, cnt, own, tables[16])
    cur[i] = p_new
    _contact_row(k, a, cur, adj, mark, stamp, cells, size, corner, ncorner)
    return d_over, d_edge, d_cross


@njit(cache=COMPILE_CACHE)
def _full_cost(cur, cnt, own, adj, mark, stamp, tables, weights, corner_cell, conn, queue, seen, touch, cop, cellp):
    """Put every slot on an empty board and return (overlaps, edge conflicts, crossings); ``conn`` gets each
    colour's connectivity cost."""
    cells, image, size, ring, nring = tables[0], tables[1], tables[2], tables[3], tables[4]
    cnt[:] = 0
    own[:] = 0
    cellp[:] = 0
    touch[:] = 0
    cop[:] = 0
    over, edge = 0, 0
    for i in range(SLOTS):
        edge += 2 * _ring_sum(cur[i], own[i // NSHAPES], ring, nring)
        over += _put(cur[i], i, 1, cnt, own, cellp, cells, image, size)
    for x in range(NPIECES):
        _touch_add(x, cur[x // 2], touch, cop, cellp, cells, image, size, tables[17], tables[18], False)
    for x in range(NPIECES):
        for y in range(x):
            if _corner_only(x, y, touch):
                cop[NPIECES] += 1
                cop[x] += 1
                cop[y] += 1
    _lonely(cop)
    for k in range(2):
        for a in range(NSHAPES):
            _contact_row(k, a, cur, adj, mark, stamp, cells, size, tables[5], tables[6])
        conn[k] = _connectivity(k, cur, adj, own, corner_cell, cells, size, weights, queue, seen)
    cross = 0
    for pt in range(tables[16].shape[0]):
        cross += _crossing(pt, cnt, own, tables[16])
    return over, edge, cross


@njit(cache=COMPILE_CACHE)
def _pair_cost(cop, weights):
    """``weights[6]`` per piece with no corner-only partner, ``weights[7]`` per corner-only pair short of
    ``weights[8]`` (each colour's tree needs 20)."""
    return weights[6] * cop[NPIECES + 1] + weights[7] * max(weights[8] - cop[NPIECES], 0.0)


@njit(cache=COMPILE_CACHE)
def _propose(i, cur, rng_pick, tables):
    """A new placement for slot i, or -1: shift (any orientation, box corner within 2), anywhere, or its image."""
    shape, r0, c0, shape_start, lookup, image_of = tables[7], tables[8], tables[9], tables[10], tables[11], tables[12]
    p = cur[i]
    s = shape[p]
    if rng_pick < 0.1:
        return image_of[p]
    if rng_pick < 0.25:
        return np.random.randint(shape_start[s], shape_start[s + 1])
    o = np.random.randint(tables[13][s])
    r = r0[p] + np.random.randint(-2, 3)
    c = c0[p] + np.random.randint(-2, 3)
    if r < 0 or c < 0 or r >= lookup.shape[2] or c >= lookup.shape[3]:
        return -1
    return lookup[s, o, r, c]


@njit(cache=COMPILE_CACHE)
def _into_hole(i, cur, cnt, blocked, width, tables):
    """A placement for slot i that covers a random uncovered cell (any orientation, any of its cells there), or -1."""
    shape, size, lookup, norient, offsets = tables[7], tables[2], tables[11], tables[13], tables[14]
    n = cnt.shape[0]
    start = np.random.randint(n)
    for d in range(n):
        h = (start + d) % n
        if cnt[h] == 0 and not blocked[h]:
            s = shape[cur[i]]
            o = np.random.randint(norient[s])
            t = np.random.randint(size[cur[i]])
            r, c = h // width - offsets[s, o, t, 0], h % width - offsets[s, o, t, 1]
            if r < 0 or c < 0 or r >= lookup.shape[2] or c >= lookup.shape[3]:
                return -1
            return lookup[s, o, r, c]
    return -1


@njit(cache=COMPILE_CACHE)
def _defects(cur, cnt, own, adj, corner_cell, tables, out, seen, queue, weights):
    """Slots in a defect: overlapping, breaking the edge rule, or not reached from their start corner."""
    cells, image, size, ring, nring = tables[0], tables[1], tables[2], tables[3], tables[4]
    n = 0
    for k in range(2):
        _connectivity(k, cur, adj, own, corner_cell, cells, size, weights, queue, seen)
        a = _corner_slot(k, cur, corner_cell, cells, size)
        corner_group = seen[a] if a >= 0 else -1
        for a in range(NSHAPES):
            i = k * NSHAPES + a
            p = cur[i]
            bad = seen[a] != corner_group or _ring_sum(p, own[k], ring, nring) > 0
            for t in range(size[p]):
                if cnt[cells[p, t]] > 1 or cnt[image[p, t]] > 1:
                    bad = True
            if bad:
                out[n] = i
                n += 1
    return n


@njit(cache=COMPILE_CACHE)
def _anneal(cur, ncells, tables, weights, corner_cell, t_hot, t_cold, moves, focus, p_swap, p_hole, blocked, width, seed,
            best_cur, packings, npackings, gap, min_cross):
    """One cooling cycle from ``cur``; ``best_cur`` gets the best state met, ``packings`` the states without
    overlaps met (at most one per ``gap`` moves; ``npackings[0]`` counts them).  Returns the best cost and its
    parts: overlaps, edge conflicts, connectivity, crossings, corner-only pairs, pieces without one."""
    np.random.seed(seed)
    cnt = np.zeros(ncells, np.int64)
    own = np.zeros((3, cnt.shape[0]), np.int64)
    pts = np.zeros(80, np.int64)
    touch, cop = np.zeros((2, NPIECES, NPIECES), np.int64), np.zeros(NPIECES + 2, np.int64)
    cellp = np.zeros((ncells, 9), np.int64)
    adj = np.zeros((2, NSHAPES, NSHAPES), np.bool_)
    mark, stamp = np.zeros(cnt.shape[0], np.int64), np.zeros(1, np.int64)
    conn, queue, seen = np.zeros(2), np.zeros(NSHAPES, np.int64), np.zeros(NSHAPES, np.int64)
    over, edge, cross = _full_cost(cur, cnt, own, adj, mark, stamp, tables, weights, corner_cell, conn, queue, seen,
                                   touch, cop, cellp)
    cost = (weights[0] * over + weights[1] * edge + conn[0] + conn[1] + weights[4] * max(weights[5] - cross, 0.0)
            + _pair_cost(cop, weights))
    best = cost
    best_parts = np.array([over, edge, conn[0] + conn[1], cross, cop[NPIECES], cop[NPIECES + 1]], np.float64)
    best_cur[:] = cur
    defect = np.zeros(SLOTS, np.int64)
    ndefect = 0
    ratio = (t_cold / t_hot) ** (1.0 / max(moves - 1, 1))
    temp = t_hot
    undo_slot, undo_pl = np.zeros(2, np.int64), np.zeros(2, np.int64)
    last_packing = -gap
    for step in range(moves):
        temp *= ratio
        if focus > 0 and step % 1000 == 0:
            ndefect = _defects(cur, cnt, own, adj, corner_cell, tables, defect, seen, queue, weights)
        if ndefect and np.random.random() < focus:
            i = defect[np.random.randint(ndefect)]
        else:
            i = np.random.randint(SLOTS)
        nundo = 0
        d_over, d_edge, d_cross = 0, 0, 0
        old_pairs = _pair_cost(cop, weights)
        if np.random.random() < p_swap:  # blue's and yellow's copies of this shape trade places
            j = (i + NSHAPES) % SLOTS
            pi, pj = cur[i], cur[j]
            a, b, e = _relocate(i, pj, cur, cnt, own, adj, mark, stamp, pts, touch, cop, cellp, tables)
            c, d, f = _relocate(j, pi, cur, cnt, own, adj, mark, stamp, pts, touch, cop, cellp, tables)
            d_over, d_edge, d_cross = a + c, b + d, e + f
            undo_slot[0], undo_pl[0], undo_slot[1], undo_pl[1] = j, pj, i, pi
            nundo = 2
        else:
            if np.random.random() < p_hole:
                p_new = _into_hole(i, cur, cnt, blocked, width, tables)
            else:
                p_new = _propose(i, cur, np.random.random(), tables)
            if p_new < 0 or p_new == cur[i]:
                continue
            undo_slot[0], undo_pl[0] = i, cur[i]
            d_over, d_edge, d_cross = _relocate(i, p_new, cur, cnt, own, adj, mark, stamp, pts, touch, cop, cellp,
                                                tables)
            nundo = 1
        old_conn0, old_conn1 = conn[0], conn[1]
        for k in range(2):
            conn[k] = _connectivity(k, cur, adj, own, corner_cell, tables[0], tables[2], weights, queue, seen)
        after = (cost + weights[0] * d_over + weights[1] * d_edge + conn[0] + conn[1] - old_conn0 - old_conn1
                 + weights[4] * (max(weights[5] - cross - d_cross, 0.0) - max(weights[5] - cross, 0.0))
                 + _pair_cost(cop, weights) - old_pairs)
        if after <= cost or np.random.random() < math.exp((cost - after) / temp):
            cost = after
            over += d_over
            edge += d_edge
            cross += d_cross
            if over == 0 and cross >= min_cross and step - last_packing >= gap and npackings[0] < packings.shape[0]:
                packings[npackings[0]] = cur
                npackings[0] += 1
                last_packing = step
            if cost < best:
                best = cost
                best_parts[0], best_parts[1], best_parts[2], best_parts[3] = over, edge, conn[0] + conn[1], cross
                best_parts[4], best_parts[5] = cop[NPIECES], cop[NPIECES + 1]
                best_cur[:] = cur
                if best <= 0:
                    break
            continue
        for u in range(nundo):
            _relocate(undo_slot[u], undo_pl[u], cur, cnt, own, adj, mark, stamp, pts, touch, cop, cellp, tables)
        conn[0], conn[1] = old_conn0, old_conn1
    return best, best_parts


def recolour(places: Placements, cur: np.ndarray, seconds: float = 10.0) -> tuple[str, np.ndarray | None]:
    """Keep the pieces where they are and choose their colours by SAT: per shape, which of its two half-turn pairs
    is blue/red (the other yellow/green) and which piece of each pair takes the base colour; the edge rule, the
    start corners, a corner contact per piece and connectivity by lazy cuts.  Returns ('found', the colouring),
    ('refuted', None): no colouring of this packing is a layout; or ('unknown', None).  ``cur`` must not overlap."""
    from pysat.solvers import Solver

    board = places.board
    owner, edge_pairs, corner_pairs = _touching_pairs(places, cur)
    start = {colour: int(owner[r * board.cols + c]) for colour, (r, c) in enumerate(board.corners)}
    if min(start.values()) < 0:
        return "refuted", None
    lits = _piece_literals(len(cur))
    clauses, same = _colour_clauses(lits, edge_pairs, corner_pairs, 2 * len(cur))
    for colour in (0, 1):  # blue and yellow on their corners; red and green follow
        cx, bx = lits(start[colour])
        clauses += [[cx if colour == 0 else -cx], [bx]]
    deadline = time.process_time() + seconds
    with Solver(name="cadical153", bootstrap_with=clauses) as solver:
        while time.process_time() < deadline:
            if not solver.solve():
                return "refuted", None
            model = {v for v in solver.get_model() if v > 0}
            colour = [_piece_colour(lits(x), model) for x in range(2 * len(cur))]
            cuts = _isolated_groups(colour, same, start, lits)
            if not cuts:
                col = np.full(board.n, EMPTY_COLOUR, np.int64)
                col[owner >= 0] = np.array(colour)[owner[owner >= 0]]
                return "found", col
            for cut in cuts:
                solver.add_clause(cut)
    return "unknown", None


def _touching_pairs(places: Placements, cur: np.ndarray) -> tuple[np.ndarray, set, set]:
    """Each cell's piece (2j: slot j's, 2j + 1: its image; -1: none), the pairs of pieces sharing an edge and the
    pairs touching only at corners (a piece and its own image left out: they always differ)."""
    board = places.board
    owner = np.full(board.n, -1, np.int64)
    for j, p in enumerate(cur):
        owner[places.cells[p, : places.size[p]]] = 2 * j
        owner[places.image[p, : places.size[p]]] = 2 * j + 1
    pairs: list[set[tuple[int, int]]] = [set(), set()]
    for kind, table in enumerate((board.nbr4, board.nbr8)):
        for q in np.flatnonzero(owner >= 0):
            for y in table[q]:
                if y >= 0 and owner[y] >= 0 and owner[y] // 2 != owner[q] // 2:
                    a, b = int(owner[q]), int(owner[y])
                    pairs[kind].add((min(a, b), max(a, b)))
    return owner, pairs[0], pairs[1] - pairs[0]


def _piece_literals(nslots: int):
    """Piece x's (class literal, base literal): pair j = x // 2 is blue/red when variable j + 1 is true, and its
    first piece takes the base colour (blue or yellow) when variable nslots + j + 1 is."""
    def lits(x: int) -> tuple[int, int]:
        j, side = divmod(x, 2)
        return 1 + j, (1 + nslots + j) if side == 0 else -(1 + nslots + j)
    return lits


def _colour_clauses(lits, edge_pairs: set, corner_pairs: set, npieces: int) -> tuple[list[list[int]], dict]:
    """The classes (each shape's two pairs take the two), the edge rule, and a corner contact per piece through a
    variable per corner-only pair that implies the same colour; returns (clauses, those variables)."""
    clauses: list[list[int]] = []
    for s in range(NSHAPES):
        a, b = lits(2 * s)[0], lits(2 * (s + NSHAPES))[0]
        clauses += [[a, b], [-a, -b]]
    for x, y in edge_pairs:  # not the same class with the same base bit
        (cx, bx), (cy, by) = lits(x), lits(y)
        clauses += [[-u * cx, -u * cy, -v * bx, -v * by] for u in (1, -1) for v in (1, -1)]
    same: dict[tuple[int, int], int] = {}
    touching: list[list[int]] = [[] for _ in range(npieces)]
    top = npieces  # the class and base variables are 1 .. npieces
    for x, y in sorted(corner_pairs):
        top += 1
        same[x, y] = top
        touching[x].append(top)
        touching[y].append(top)
        (cx, bx), (cy, by) = lits(x), lits(y)
        clauses += [[-top, -cx, cy], [-top, cx, -cy], [-top, -bx, by], [-top, bx, -by]]
    if TRACE:
        print(f"    recolour: {sum(not t for t in touching)} pieces with no corner-only neighbour, "
              f"{len(corner_pairs)} corner-only pairs, {len(edge_pairs)} edge pairs", flush=True)
    return clauses + touching, same  # an empty clause (a piece with no corner-only neighbour) refutes at once


def _piece_colour(lits: tuple[int, int], model: set[int]) -> int:
    in_class = (lits[0] in model) == (lits[0] > 0)
    base = (abs(lits[1]) in model) == (lits[1] > 0)
    return (0 if in_class else 1) + (0 if base else 2)


def _isolated_groups(colour: list[int], same: dict[tuple[int, int], int], start: dict[int, int], lits) -> list:
    """A clause per corner-contact group not holding its colour's start piece: a member changes colour, or a piece
    outside touches a member at a corner in the same colour."""
    links: dict[int, list[tuple[int, int]]] = {x: [] for x in range(len(colour))}
    for (x, y), v in same.items():
        links[x].append((y, v))
        links[y].append((x, v))
    group_of = [-1] * len(colour)
    cuts = []
    for x in range(len(colour)):
        if group_of[x] >= 0:
            continue
        group, todo = [x], [x]
        group_of[x] = x
        while todo:
            u = todo.pop()
            for w, _ in links[u]:
                if group_of[w] < 0 and colour[w] == colour[u]:
                    group_of[w] = x
                    group.append(w)
                    todo.append(w)
        c = colour[x]
        if start[c] in group:
            continue
        clause = []
        for u in group:
            cu, bu = lits(u)
            in_class = cu if c % 2 == 0 else -cu
            base = bu if c < 2 else -bu
            clause += [-in_class, -base]
            clause += [v for w, v in links[u] if w not in group]
        cuts.append(clause)
    return cuts


def refill(places: Placements, cur: np.ndarray, radius: int, seconds: float, most: int = 1, coloured: bool = False
           ) -> tuple[str, list[np.ndarray]]:
    """Take off every piece within ``radius`` (king moves) of a cell covered twice (or, ``coloured``, breaking the
    edge rule), with its image, and place the same shapes again on the cells left free, without overlaps.  Returns
    ('found', up to ``most`` new states), ('refuted', []): none, or ('unknown', []).  Dancing links: the pieces, the
    free orbits and a hole for each orbit to spare are the items.  Without ``coloured`` the colours are left to
    ``recolour`` (a piece or its image: one option); with it each piece keeps its colour and the edge rule holds
    (options touching a kept piece of their colour along an edge are left out; an item per free edge and colour, at
    most once, keeps two placed pieces of one colour from sharing it)."""
    from solvers.exact_cover import ExactCoverProblem, SearchLimits

    board = places.board
    freed = _pieces_near_defects(places, cur, radius, coloured)
    taken = np.zeros(board.n, bool)
    taken[board.fixed_empty] = True
    kept_colour = np.full(board.n, EMPTY_COLOUR, np.int64)
    for i, p in enumerate(cur):
        if i not in freed:
            taken[places.cells[p, : places.size[p]]] = True
            taken[places.image[p, : places.size[p]]] = True
            kept_colour[places.cells[p, : places.size[p]]] = i // NSHAPES
    options, chosen, edges = _refill_options(places, cur, freed, taken, kept_colour, coloured)
    items = sorted({f"o{min(int(q), board.n - 1 - int(q))}" for q in np.flatnonzero(~taken)})  # the holes too
    spare = len(items) - sum(int(places.size[cur[i]]) for i in freed)
    holes = [f"h{k}" for k in range(spare)]  # the orbits left empty: hole k on any free orbit
    options += [[hole, orbit] for hole in holes for orbit in items]
    chosen += [(-1, -1)] * (len(holes) * len(items))
    slots = [f"s{i}" for i in freed]
    if spare < 0 or not set(slots) <= {option[0] for option in options}:
        return "refuted", []
    search, found = ExactCoverProblem(slots + holes + items, options, sorted(edges)).compile(), []
    for solution in search.solutions(SearchLimits(time_limit=seconds)):
        new = cur.copy()
        for k in solution:
            if chosen[k][0] >= 0:
                new[chosen[k][0]] = chosen[k][1]
        found.append(new)
        if len(found) == most:
            break
    return ("found" if found else "unknown" if search.stopped_by else "refuted"), found


def _pieces_near_defects(places: Placements, cur: np.ndarray, radius: int, coloured: bool) -> list[int]:
    """The slots with a cell (or an image cell) within ``radius`` of a cell covered twice or, ``coloured``, of a
    cell sharing an edge with another piece of its colour."""
    board = places.board
    cnt, piece = np.zeros(board.n, np.int64), np.full(board.n, -1, np.int64)
    for i, p in enumerate(cur):
        for side, cells in enumerate((places.cells[p, : places.size[p]], places.image[p, : places.size[p]])):
            cnt[cells] += 1
            piece[cells] = 2 * i + side
    bad = cnt > 1
    if coloured:  # piece 2i is blue or yellow, 2i + 1 its image: red or green
        colour = np.where(piece >= 0, (piece // 2) // NSHAPES + 2 * (piece % 2), -1)
        for q in np.flatnonzero(piece >= 0):
            bad[q] |= any(y >= 0 and colour[y] == colour[q] and piece[y] != piece[q] for y in board.nbr4[q])
    near = np.zeros(board.n, bool)
    for q in np.flatnonzero(bad):
        r, c = divmod(int(q), board.cols)
        near[[rr * board.cols + cc for rr in range(max(r - radius, 0), min(r + radius + 1, board.rows))
              for cc in range(max(c - radius, 0), min(c + radius + 1, board.cols))]] = True
    return [i for i, p in enumerate(cur) if near[places.cells[p, : places.size[p]]].any()
            or near[places.image[p, : places.size[p]]].any()]


def _refill_options(places: Placements, cur: np.ndarray, freed: list[int], taken: np.ndarray,
                    kept_colour: np.ndarray, coloured: bool) -> tuple[list[list[str]], list[tuple[int, int]], set]:
    """The exact-cover options of the freed slots: (slot, its orbits, and with ``coloured`` its free edges in its
    colour), the (slot, placement) of each, and the edge items."""
    board = places.board
    options, chosen, edges = [], [], set()
    for i in freed:
        s = int(places.shape[cur[i]])
        for p in range(places.shape_start[s], places.shape_start[s + 1]):
            cells = [int(q) for q in places.cells[p, : places.size[p]]]
            if taken[cells].any() or (not coloured and p > places.image_of[p]):
                continue
            ring = [int(y) for q in cells for y in board.nbr4[q] if y >= 0 and y not in cells]
            if coloured and (kept_colour[ring] == i // NSHAPES).any():
                continue
            sides = [f"e{min(q, y)}_{max(q, y)}c{i // NSHAPES}" for q in cells for y in board.nbr4[q]
                     if coloured and y >= 0 and y not in cells and not taken[y]]
            options.append([f"s{i}"] + [f"o{min(q, board.n - 1 - q)}" for q in cells] + sides)
            chosen.append((i, p))
            edges.update(sides)
    return options, chosen, edges


def state_cost(places: Placements, cur: np.ndarray) -> tuple[int, int, float]:
    """(overlaps, edge-rule conflicts, corner-contact groups past one per colour and start corners not taken) of a
    state, counted afresh; (0, 0, 0) is a layout."""
    n = places.board.n
    conn = np.zeros(2)
    over, edge, _ = _full_cost(cur, np.zeros(n, np.int64), np.zeros((3, n), np.int64),
                               np.zeros((2, NSHAPES, NSHAPES), np.bool_), np.zeros(n, np.int64), np.zeros(1, np.int64),
                               places.tables, np.array([1.0, 1, 1, 0, 0, 0, 0, 0, 0]),
                               np.array([0, places.board.cols - 1], np.int64), conn, np.zeros(NSHAPES, np.int64),
                               np.zeros(NSHAPES, np.int64), np.zeros((2, NPIECES, NPIECES), np.int64),
                               np.zeros(NPIECES + 2, np.int64), np.zeros((n, 9), np.int64))
    return int(over), int(edge), float(conn.sum())


def _recolour_packings(places: Placements, packings: np.ndarray, seen: set, tried: Counter, seconds: float,
                       survey: bool = False) -> np.ndarray | None:
    """Recolour every packing not seen before (as pieces and images, colours ignored); the first layout or None
    (``survey``: every packing, and None)."""
    for cur in packings:
        key = frozenset(frozenset((int(p), int(places.image_of[p]))) for p in cur)
        if key in seen:
            continue
        seen.add(key)
        status, col = recolour(places, cur, seconds)
        tried[status] += 1
        if col is not None and not survey:
            return col
    return None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("board", help="COLSxROWS, e.g. 21x17")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--time-limit", type=float, default=300.0)
    parser.add_argument("--cycle", type=int, default=5_000_000, help="moves per cooling cycle")
    parser.add_argument("--t-hot", type=float, default=2.0)
    parser.add_argument("--t-cold", type=float, default=0.1)
    parser.add_argument("--weights", default="1,1,1,0",
                        help="O,E,G,U: overlaps, edge-rule cells, groups, pieces not reached from the corner")
    parser.add_argument("--focus", type=float, default=0.0, help="share of moves among the pieces in a defect")
    parser.add_argument("--swap", type=float, default=0.1, help="share of moves that swap blue's and yellow's copy")
    parser.add_argument("--hole", type=float, default=0.0, help="share of moves that cover an uncovered cell")
    parser.add_argument("--recolour", type=float, default=0.0,
                        help="recolour every packing without overlaps met by SAT, this many seconds each")
    parser.add_argument("--crossings", default="0,0",
                        help="W,T: add W per crossing (four pieces at a point) short of T; a layout's corner contacts "
                             "are nearly all at crossings, two at most each")
    parser.add_argument("--pairs", default="0,0,0",
                        help="L,W,T: add L per piece with no corner-only partner of another shape, W per corner-only "
                             "pair short of T (colours ignored: what a recolouring needs)")
    parser.add_argument("--min-crossings", type=int, default=0, help="recolour only packings with this many crossings")
    parser.add_argument("--refill", type=float, default=0.0,
                        help="after a cycle whose best overlaps: free the pieces near the overlaps and place them "
                             "again by SAT (about this many seconds)")
    parser.add_argument("--refill-max", type=int, default=8, help="refill only with at most this many overlaps")
    parser.add_argument("--keep-colours", action="store_true",
                        help="refill: each piece keeps its colour, the edge rule holds, and a packing whose colours "
                             "connect is a layout (no recolouring)")
    parser.add_argument("--refill-solutions", type=int, default=2000, help="refill: recolour up to this many")
    parser.add_argument("--radius", type=int, default=2, help="refill: free the pieces this close to an overlap")
    parser.add_argument("--trace", action="store_true", help="print what each recolouring sees")
    parser.add_argument("--survey", action="store_true", help="recolour every packing kept, never stop")
    parser.add_argument("--keep", type=int, default=2000, help="packings kept per cycle for --recolour")
    parser.add_argument("--gap", type=int, default=1000, help="moves between two packings kept")
    parser.add_argument("--restart", action="store_true", help="each cycle from a fresh random state")
    parser.add_argument("--start", help="start from this stored layout (the tests/data format) instead of at random")
    parser.add_argument("--out", help="write a layout found here (JSON, the tests/data format)")
    return parser


def main() -> None:
    args = _parser().parse_args()
    global TRACE
    TRACE = args.trace
    cols, rows = map(int, args.board.split("x"))
    board = CellBoard(cols, rows, "half")
    places = Placements(board)
    tables = places.tables
    weights = np.array([float(w) for w in args.weights.split(",") + args.crossings.split(",")
                        + args.pairs.split(",")])
    corner_cell = np.array([0, cols - 1], np.int64)
    blocked = np.zeros(board.n, np.bool_)
    blocked[board.fixed_empty] = True
    rng = np.random.default_rng(args.seed)
    cur = places.random_state(rng) if not args.start else places.state_of(stored_colouring(board, args.start))
    best_cur = cur.copy()
    packings = np.zeros((max(args.keep, args.refill_solutions), SLOTS), np.int64)
    npackings = np.zeros(1, np.int64)
    seen: set[frozenset[frozenset[int]]] = set()
    tried: Counter[str] = Counter()
    print(f"{args.board}, half turn: {places.count} placements, {board.spare} orbits to spare; compiling ...",
          flush=True)
    t0, cycles, overall = time.process_time(), 0, math.inf
    while time.process_time() - t0 < args.time_limit:
        if args.restart and cycles:
            cur = places.random_state(rng)
        best, parts = _anneal(cur, board.n, tables, weights, corner_cell, args.t_hot, args.t_cold, args.cycle,
                              args.focus, args.swap, args.hole, blocked, cols, args.seed * 100_003 + cycles, best_cur,
                              packings, npackings, args.gap, args.min_crossings)
        cycles += 1
        overall = min(overall, best)
        if not args.restart:
            cur[:] = best_cur
        over, edge, conn, cross, pairs, lonely = parts
        print(f"cycle {cycles}: best {best:g} (overlaps {over:g}, edge {edge:g}, connectivity {conn:g}, crossings "
              f"{cross:g}, corner-only pairs {pairs:g}, pieces without {lonely:g}; overall "
              f"{overall:g}), {time.process_time() - t0:.0f} CPU-s", flush=True)
        col = places.colouring(best_cur) if best <= 0 else None
        relaxed = col is not None and weights[2] == 0 and weights[3] == 0
        if args.refill and col is None and 0 < over <= args.refill_max:
            status, fills = refill(places, best_cur, args.radius, args.refill, args.refill_solutions,
                                   args.keep_colours)
            print(f"  refill{' keeping the colours' if args.keep_colours else ''}: {status}, {len(fills)} packings",
                  flush=True)
            if args.keep_colours:
                costs = [state_cost(places, new) for new in fills]
                col = next((places.colouring(new) for new, c in zip(fills, costs) if c == (0, 0, 0)), None)
                print(f"    fewest groups past one: {min((c[2] for c in costs), default=math.inf):g}", flush=True)
            for new in fills if not args.keep_colours else []:
                packings[npackings[0] % len(packings)] = new
                npackings[0] = min(npackings[0] + 1, len(packings))
        if args.recolour and (col is None or relaxed):
            col = _recolour_packings(places, packings[: npackings[0]], seen, tried, args.recolour, args.survey)
            npackings[0] = 0
            relaxed = False
            print(f"  recolouring: {len(seen)} packings, " + ", ".join(f"{k} {v}" for k, v in tried.items()),
                  flush=True)
        if col is not None:
            print(grid(board, col))
            if relaxed:
                print(f"a packing with the edge rule kept (connectivity not asked), {time.process_time() - t0:.0f} "
                      "CPU-s", flush=True)
                break
            _, moves = replay(board, col)
            print(f"FOUND, replayed through the rule engine ({len(moves)} moves), "
                  f"{time.process_time() - t0:.0f} CPU-s", flush=True)
            if args.out:
                record = {"format": "kibitz-blokus", "variant": f"solitaire-{cols}x{rows}-4", "free_corners": False,
                          "board": args.board, "colors": 4, "empty_cells": int((col == EMPTY_COLOUR).sum()),
                          "symmetry": "half-turn", "search": {"method": "placement annealing", "seed": args.seed},
                          "command": "python bench/blokus_piece_anneal.py " + " ".join(sys.argv[1:]),
                          "cpu_seconds": round(time.process_time() - t0, 1), "moves": moves}
                with open(args.out, "w") as handle:
                    json.dump(record, handle, indent=1)
            break


if __name__ == "__main__":
    main()
