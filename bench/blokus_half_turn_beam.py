"""All 84 Blokus pieces, half-turn layouts by beam search over tilings (an experiment; 21×17 not found).

A layout invariant under the half turn R is a tiling of the board by 42 orbits {P, R(P)} (two per shape), each
coloured blue/red or yellow/green.  Every search tried so far branched on colours first and failed on 18×20, where
such layouts exist.  This one looks at the *tiling* and at two conditions no colour is needed for:

* **Euler.**  With each empty cell a face of its own, the lattice points of any tiling satisfy ``2X + T = 2(83 + E)``
  (X: points where four faces meet, T: points where three meet, on the border two; E: empty cells).  Each colour
  needs 20 corner contacts, a contact only happens at a four-face point and a point gives at most two, so X >= 40:
  at most ``2(83 + E) - 80`` T points (88 on 21×17).  A random tiling has X = 10-35.
* **Every piece at a crossing** whose diagonal partner can share its colour (another shape; with colours: the
  same colour).

The search fills the cells of one half (along the shorter side; their images follow) first-empty-cell, as a *beam*:
the partial tilings whose first empty cell is q are ranked by ``T - X`` (plus noise and, with colours, the pieces
still short of a contact) and the best ``--width`` are expanded.  From cell ``--switch`` on, each kept state is
finished by an exhaustive DFS (``--dfs-nodes`` candidates).  ``--colours`` branches on colours too (four per orbit;
the edge rule, one orbit per shape blue/red, the start corners); without it every tiling found is coloured by a
small SAT model (orbit pair and orientation per orbit, lazy connectivity cuts).  A layout found is replayed through
the rule engine.

``--pairs`` sits between the two: it branches on each orbit's colour *pair* only (blue/red or yellow/green; the
second orbit of a shape takes the other pair) and keeps the orientations (which piece of the orbit is blue or red)
as parities in a union-find: two touching pieces of one pair must differ, a start corner ties its orbit to a fixed
node, and a piece whose corner points are all decided with one possible partner left must share its colour.  So
one state stands for every orientation its constraints allow, where ``--colours`` spends its width on them.
``--waste`` cuts on ``T`` plus the crossings' diagonal pairs that cannot be contacts (by Euler, the 80 contacts
need that sum at most ``2(83 + E) - 80``); ``--pockets`` cuts when a pocket of at most 5 free cells cannot be tiled
by the shapes left; ``--centre-out`` searches the half's columns from the middle one outwards.  ``--endgame``
finishes states from ``--switch`` on by a DFS over the most constrained cell, which reports the states it refutes
(searched to the end, no tiling); ``--lookahead N`` runs the finishing DFS with N candidates on every state from
``--lookahead-from`` on before expanding it, and drops the states it refutes.  Results:
``bench/results/solitaire_all_pieces.md`` (2026-12-07 late night, "beam search over tilings", and afternoon,
"colour pairs").

    python bench/blokus_half_turn_beam.py 21x17 --width 5000 --switch 130 --dfs-nodes 300000 --time-limit 400
    python bench/blokus_half_turn_beam.py 18x20 --colours --width 10000 --time-limit 1200
    python bench/blokus_half_turn_beam.py 21x17 --pairs --waste --width 10000 --time-limit 1200
"""
from __future__ import annotations

import argparse
import random
import time

import numpy as np
from numba import njit

from puzzles.blokus.engine import BlokusState, solitaire_variant
from puzzles.polyomino import Shape
from solvers.blokus.solitaire import move_text
from solvers.blokus.solitaire_sat import PIECES, play_order, tiling_point_weight, tiling_weight_bound

COMPILE_CACHE = False  # the tests load this script under another module name, which numba's cache cannot re-import
EMPTY = 1000  # owner ids from EMPTY on are empty cells (each its own face); -2: not decided
FREE = -2
STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))
SHAPE_KEYS = {p.canonical().key(): s for s, p in enumerate(PIECES)}
# colours clockwise from the top-left corner: blue 0, yellow 1, red 2, green 3; the half turn adds 2
# state layout: owner[n], then these blocks of 100 / 21 / 1 entries
GROUND = 42  # the parity union-find's fixed node (orbits are 0-41): a start corner ties its orbit to it
BLOCKS = (("shape_of", 100), ("open", 100), ("ok", 100), ("left", 21), ("spare", 1), ("pieces", 1), ("t", 1),
          ("x", 1), ("colour", 100), ("pair", 21), ("waste", 1), ("uf_parent", GROUND + 1), ("uf_parity", GROUND + 1),
          ("placement", GROUND))
EXTRA = sum(size for _, size in BLOCKS)
# each block's offset after owner[n] (the kernels read these module constants)
(SHAPE_OF, OPEN, OK, LEFT, SPARE, PIECES_PLACED, T_COUNT, X_COUNT, COLOUR, PAIR, WASTE, UF_PARENT, UF_PARITY,
 PLACEMENT) = np.cumsum([0] + [size for _, size in BLOCKS[:-1]]).tolist()


class HalfTurnBoard:
    """Cells indexed column by column (``c * rows + r``; with ``centre_out``, the half's columns from the middle
    one outwards, its image in reverse after the centre), so the half turn is always ``n - 1 - i``; the orbit
    placements (a placement and its image disjoint, the centre of an odd board never covered) by first cell; the
    lattice points; each placement's edge neighbours; the colours' start corners."""

    def __init__(self, cols: int, rows: int, centre_out: bool = False) -> None:
        self.cols, self.rows, self.n = cols, rows, cols * rows
        n = self.n
        self.cell_order = self.ordered_cells(centre_out)
        self.index = {cell: i for i, cell in enumerate(self.cell_order)}
        self.centre = (n - 1) // 2 if n % 2 else -1
        self.spare = (n - 4 * 89) // 2  # empty orbits besides the centre
        self.t_max = tiling_weight_bound(cols, rows, 4)  # the most T points: X >= 40 by Euler's formula
        found: dict[tuple[int, ...], int] = {}
        for s, shape in enumerate(PIECES):
            for o in shape.orientations():
                for top in range(rows - o.height + 1):
                    for left in range(cols - o.width + 1):
                        cells = tuple(sorted(self.idx(r + top, c + left) for r, c in o.cells))
                        if self.centre not in cells and not {n - 1 - q for q in cells} & set(cells):
                            found[cells] = s
        self.placements = sorted(found.items(), key=lambda item: item[0])
        self.pl_cells = np.full((len(self.placements), 5), -1, np.int64)
        self.pl_size = np.array([len(cells) for cells, _ in self.placements], np.int64)
        self.pl_shape = np.array([s for _, s in self.placements], np.int64)
        self.halo = np.full((len(self.placements), 16), -1, np.int64)
        self.nhalo = np.zeros(len(self.placements), np.int64)
        for k, (cells, _) in enumerate(self.placements):
            self.pl_cells[k, : len(cells)] = cells
            around = sorted({self.idx(r + dr, c + dc) for r, c in map(self.rc, cells) for dr, dc in STEPS
                             if 0 <= r + dr < rows and 0 <= c + dc < cols} - set(cells))
            self.halo[k, : len(around)] = around
            self.nhalo[k] = len(around)
        points = []
        for i in range(rows + 1):
            for j in range(cols + 1):
                inside = [self.idx(r, c) for r, c in ((i - 1, j - 1), (i - 1, j), (i, j - 1), (i, j))
                          if 0 <= r < rows and 0 <= c < cols]
                if len(inside) in (2, 4):  # interior (NW, NE, SW, SE) or border; the board's corners never count
                    points.append(inside + [-1] * (4 - len(inside)))
        self.pts = np.array(points, np.int64)
        self.cell_pts = np.full((n, 4), -1, np.int64)
        self.cell_npts = np.zeros(n, np.int64)
        for p, cells in enumerate(points):
            for q in cells:
                if q >= 0:
                    self.cell_pts[q, self.cell_npts[q]] = p
                    self.cell_npts[q] += 1
        self.nbr = self.neighbours()
        self.corner_colour = np.full(n, -1, np.int64)
        for k, (r, c) in enumerate(self.corners()):
            self.corner_colour[self.idx(r, c)] = k

    def neighbours(self) -> np.ndarray:
        """Each cell's edge neighbours (-1: off the board)."""
        nbr = np.full((self.n, 4), -1, np.int64)
        for q in range(self.n):
            r, c = self.rc(q)
            for k, (dr, dc) in enumerate(STEPS):
                if 0 <= r + dr < self.rows and 0 <= c + dc < self.cols:
                    nbr[q, k] = self.idx(r + dr, c + dc)
        return nbr

    def ordered_cells(self, centre_out: bool) -> list[tuple[int, int]]:
        """The cells (row, col) in search order: one cell of each half-turn pair first, then the centre (odd
        boards), then the images in reverse."""
        rows, cols = self.rows, self.cols
        if not centre_out:
            return [(r, c) for c in range(cols) for r in range(rows)]
        middle = [(r, cols // 2) for r in range(rows // 2)] if cols % 2 else []
        half = middle + [(r, c) for c in range((cols - 1) // 2 - cols % 2, -1, -1) for r in range(rows)]
        centre = [(rows // 2, cols // 2)] if self.n % 2 else []
        return half + centre + [(rows - 1 - r, cols - 1 - c) for r, c in reversed(half)]

    def idx(self, r: int, c: int) -> int:
        return self.index[r, c]

    def rc(self, i: int) -> tuple[int, int]:
        return self.cell_order[i]

    def corners(self) -> list[tuple[int, int]]:
        """Blue's, yellow's, red's and green's start corners (clockwise from the top left)."""
        return [(0, 0), (0, self.cols - 1), (self.rows - 1, self.cols - 1), (self.rows - 1, 0)]

    def candidates(self, rng: random.Random, keep: set[tuple[int, ...]] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Placements by first cell (CSR; shuffled, larger pieces first), only those in ``keep`` when given."""
        start = np.zeros(self.n + 1, np.int64)
        order: list[int] = []
        by_first: list[list[int]] = [[] for _ in range(self.n)]
        for k, (cells, _) in enumerate(self.placements):
            if keep is None or cells in keep:
                by_first[cells[0]].append(k)
        for q in range(self.n):
            rng.shuffle(by_first[q])
            order += sorted(by_first[q], key=lambda k: -self.pl_size[k])
            start[q + 1] = len(order)
        return start, np.array(order, np.int64)

    def covering(self, keep: set[tuple[int, ...]] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Placements by every cell they cover (CSR), only those in ``keep`` or their images when given: the
        most-constrained-cell endgame's candidates (the image of a kept placement may cover the cell chosen)."""
        by_cell: list[list[int]] = [[] for _ in range(self.n)]
        for k, (cells, _) in enumerate(self.placements):
            if keep is None or cells in keep or tuple(sorted(self.n - 1 - q for q in cells)) in keep:
                for q in cells:
                    by_cell[q].append(k)
        start = np.cumsum([0] + [len(ks) for ks in by_cell]).astype(np.int64)
        return start, np.array([k for ks in by_cell for k in ks], np.int64)

    def initial_state(self) -> np.ndarray:
        state = np.zeros(self.n + EXTRA, np.int64)
        state[: self.n] = FREE
        if self.centre >= 0:
            state[self.centre] = EMPTY + self.centre
        view = self.view(state)
        view["left"][:] = 2
        view["spare"][0] = self.spare
        view["pair"][:] = -1
        view["uf_parent"][:] = np.arange(GROUND + 1)
        return state

    def view(self, state: np.ndarray) -> dict[str, np.ndarray]:
        out, at = {"owner": state[: self.n]}, self.n
        for name, size in BLOCKS:
            out[name] = state[at: at + size]
            at += size
        return out

    def counts(self, owner: np.ndarray) -> tuple[int, int]:
        """(X, T) of a full tiling: the points where four faces meet (``g = 2`` in
        :func:`~solvers.blokus.solitaire_sat.tiling_point_weight`, each empty cell a face of its own) and where three
        meet, two on the border (``g = 1``)."""
        def label(r: int, c: int) -> int | None:
            return int(owner[self.idx(r, c)]) if 0 <= r < self.rows and 0 <= c < self.cols else None

        weights = [tiling_point_weight([label(i - 1, j - 1), label(i - 1, j), label(i, j - 1), label(i, j)])[0]
                   for i in range(self.rows + 1) for j in range(self.cols + 1)]
        return weights.count(2), weights.count(1)

    def pieces(self, owner: np.ndarray) -> dict[int, tuple[tuple[int, int], ...]]:
        """Each piece id's cells (row, col)."""
        cells: dict[int, list[tuple[int, int]]] = {}
        for q in range(self.n):
            if 0 <= owner[q] < EMPTY:
                cells.setdefault(int(owner[q]), []).append(self.rc(q))
        return {k: tuple(sorted(v)) for k, v in cells.items()}


@njit(cache=COMPILE_CACHE)
def _faces(p, pts, owner):
    """-1 while a cell at point p is undecided, else the number of faces meeting there (border: 2 cells)."""
    a = pts[p]
    k_max = 2 if a[2] < 0 else 4
    for k in range(k_max):
        if owner[a[k]] == FREE:
            return -1
    if k_max == 2:
        return 2 if owner[a[0]] == owner[a[1]] else 3  # a border point where two faces meet is a T (g = 1)
    distinct = 1
    for k in range(1, 4):
        new = True
        for j in range(k):
            if owner[a[j]] == owner[a[k]]:
                new = False
        if new:
            distinct += 1
    return distinct


@njit(cache=COMPILE_CACHE)
def _find(x, uf_parent, uf_parity):
    """The root of orbit x in the parity union-find and x's parity relative to it."""
    parity = 0
    while uf_parent[x] != x:
        parity ^= uf_parity[x]
        x = uf_parent[x]
    return x, parity


@njit(cache=COMPILE_CACHE)
def _relate(x, y, d, uf_parent, uf_parity):
    """Record f_x ^ f_y = d (f: 1 when the orbit's first piece has the second colour of its pair, red or green);
    False when it contradicts what is recorded."""
    rx, px = _find(x, uf_parent, uf_parity)
    ry, py = _find(y, uf_parent, uf_parity)
    if rx == ry:
        return (px ^ py) == d
    if rx == GROUND:
        rx, ry, px, py = ry, rx, py, px
    uf_parent[rx] = ry
    uf_parity[rx] = px ^ py ^ d
    return True


@njit(cache=COMPILE_CACHE)
def _partner_ok(p, k, pts, owner, shape_of, colour, ncol, uf_parent, uf_parity):
    """At a four-face point, can the piece at position k touch its diagonal partner as one colour?  With pairs
    (``ncol == 2``): the same pair and no recorded parity against it (pieces 2o and 2o + 1 are orbit o)."""
    me, other = owner[pts[p, k]], owner[pts[p, 3 - k]]
    if other >= EMPTY or me >= EMPTY:
        return False
    if ncol == 1:
        return shape_of[me] != shape_of[other]
    if ncol == 4 or colour[me] != colour[other]:
        return colour[me] == colour[other]
    if me // 2 == other // 2:
        return False
    r1, p1 = _find(me // 2, uf_parent, uf_parity)
    r2, p2 = _find(other // 2, uf_parent, uf_parity)
    return r1 != r2 or (p1 ^ p2) == ((me ^ other) & 1)


@njit(cache=COMPILE_CACHE)
def _first_new(p, pts, newc, nnew):
    """The first of point p's cells among the new ones (-1: none)."""
    for k in range(4):
        for j in range(nnew):
            if pts[p, k] >= 0 and newc[j] == pts[p, k]:
                return pts[p, k]
    return -1


@njit(cache=COMPILE_CACHE)
def _settle(p, faces, pts, owner, shape_of, colour, ncol, open_pts, ok, uf_parent, uf_parity):
    """A decided interior point: each piece alone at it loses an open corner point, and gains a contact when it
    is a crossing with a partner that can share its colour; returns the point's diagonal pairs that cannot."""
    waste = 0
    for k in range(4):
        me = owner[pts[p, k]]
        can = faces == 4 and _partner_ok(p, k, pts, owner, shape_of, colour, ncol, uf_parent, uf_parity)
        if faces == 4 and k < 2 and not can:
            waste += 1
        if me < 0 or me >= EMPTY:
            continue
        alone = True
        for k2 in range(4):
            if k2 != k and owner[pts[p, k2]] == me:
                alone = False
        if alone:
            open_pts[me] -= 1
            if can:
                ok[me] += 1
    return waste


@njit(cache=COMPILE_CACHE)
def _touch(newc, nnew, pts, cell_pts, cell_npts, owner, shape_of, colour, ncol, open_pts, ok, xs, waste, uf_parent,
           uf_parity):
    """The points the new cells decide (each counted at its first new cell): the pieces' open corner points and
    contacts, X (``xs``) and the crossings' diagonal pairs that cannot be contacts (``waste``); returns their T
    points."""
    tpts = 0
    for j in range(nnew):
        c = newc[j]
        for t in range(cell_npts[c]):
            p = cell_pts[c, t]
            faces = _faces(p, pts, owner)
            if faces < 0 or _first_new(p, pts, newc, nnew) != c:
                continue
            tpts += faces == 3
            if pts[p, 2] >= 0:
                xs[0] += faces == 4
                waste[0] += _settle(p, faces, pts, owner, shape_of, colour, ncol, open_pts, ok, uf_parent, uf_parity)
    return tpts


@njit(cache=COMPILE_CACHE)
def _corner_points(cells, nc, pts, cell_pts, cell_npts):
    """Interior points where the piece holds exactly one of the four cells (where it can make a contact)."""
    count = 0
    for j in range(nc):
        c = cells[j]
        for t in range(cell_npts[c]):
            p = cell_pts[c, t]
            if pts[p, 2] < 0:
                continue
            mine = 0
            for k in range(4):
                for j2 in range(nc):
                    if cells[j2] == pts[p, k]:
                        mine += 1
            count += mine == 1
    return count


@njit(cache=COMPILE_CACHE)
def _blocks(state, n):
    """The state's owner array and blocks (views, in the order of ``BLOCKS``)."""
    return (state[:n], state[n + SHAPE_OF:n + OPEN], state[n + OPEN:n + OK], state[n + OK:n + LEFT],
            state[n + LEFT:n + SPARE], state[n + SPARE:n + SPARE + 1], state[n + PIECES_PLACED:n + T_COUNT],
            state[n + T_COUNT:n + X_COUNT], state[n + X_COUNT:n + COLOUR], state[n + COLOUR:n + PAIR],
            state[n + PAIR:n + WASTE], state[n + WASTE:n + UF_PARENT], state[n + UF_PARENT:n + UF_PARITY],
            state[n + UF_PARITY:n + PLACEMENT], state[n + PLACEMENT:n + EXTRA])


@njit(cache=COMPILE_CACHE)
def _corner_ok(cell, side, orbit, col, ncol, corner_colour, uf_parent, uf_parity):
    """May the orbit's piece on ``side`` (0: first, 1: image) cover ``cell``, with colour or pair ``col``?"""
    k = corner_colour[cell]
    if k < 0:
        return True
    if ncol == 4:
        return (col + 2 * side) % 4 == k
    return col == k % 2 and _relate(orbit, GROUND, (k // 2) ^ side, uf_parent, uf_parity)


@njit(cache=COMPILE_CACHE)
def _may_place(m, a, col, n, pl_cells, pl_size, pl_shape, halo, nhalo, corner_colour, ncol, owner, left, pair, colour,
               uf_parent, uf_parity):
    """May placement m and its image be pieces a and a + 1 with colour or pair ``col``: a copy of the shape left
    (with colours, in that pair), the cells free, the start corners, the edge rule (pairs: as parities)?"""
    s = pl_shape[m]
    if left[s] == 0 or (ncol > 1 and left[s] == 1 and pair[s] == col % 2):
        return False
    for j in range(pl_size[m]):
        c = pl_cells[m, j]
        if owner[c] != FREE or owner[n - 1 - c] != FREE:
            return False
        if ncol > 1 and not (_corner_ok(c, 0, a // 2, col, ncol, corner_colour, uf_parent, uf_parity)
                             and _corner_ok(n - 1 - c, 1, a // 2, col, ncol, corner_colour, uf_parent, uf_parity)):
            return False
    for j in range(nhalo[m] if ncol > 1 else 0):
        o = owner[halo[m, j]]
        if not 0 <= o < EMPTY or colour[o] % ncol != col or o // 2 == a // 2:
            continue
        if ncol == 4 or not _relate(a // 2, o // 2, 1 ^ (o & 1), uf_parent, uf_parity):
            return False
    return True


@njit(cache=COMPILE_CACHE)
def _apply(cand, q, n, start, order, pl_cells, pl_size, pl_shape, halo, nhalo, corner_colour, pts, cell_pts,
           cell_npts, ncol, state, newc):
    """Candidate ``cand`` (placement index * 4 + colour or pair; the last index: q left empty) at the first empty
    cell q: the number of cells it fills (0: not allowed, the state then partly changed), T added to its count."""
    owner, shape_of, open_pts, ok, left, spare, pieces, tcount, xs, colour, pair, waste, uf_parent, uf_parity, \
        placement = _blocks(state, n)
    idx, col = cand // 4, cand % 4
    if col >= ncol:
        return 0
    a = pieces[0]
    if idx < start[q + 1]:
        m = order[idx]
        s, size = pl_shape[m], pl_size[m]
        if not _may_place(m, a, col, n, pl_cells, pl_size, pl_shape, halo, nhalo, corner_colour, ncol, owner, left,
                          pair, colour, uf_parent, uf_parity):
            return 0
        for j in range(size):
            c = pl_cells[m, j]
            owner[c], owner[n - 1 - c] = a, a + 1
            newc[j], newc[size + j] = c, n - 1 - c
        shape_of[a] = shape_of[a + 1] = s
        placement[a // 2] = m
        colour[a], colour[a + 1] = col, (col + 2) % 4 if ncol == 4 else col
        if left[s] == 2:
            pair[s] = col % 2
        left[s] -= 1
        pieces[0] = a + 2
        open_pts[a] = _corner_points(newc[:size], size, pts, cell_pts, cell_npts)
        open_pts[a + 1] = _corner_points(newc[size:2 * size], size, pts, cell_pts, cell_npts)
        ok[a] = ok[a + 1] = 0
        for j in range(size):  # the pieces on the start corners need no contact
            if corner_colour[pl_cells[m, j]] >= 0 or corner_colour[n - 1 - pl_cells[m, j]] >= 0:
                ok[a] += 1000
                ok[a + 1] += 1000
        nnew = 2 * size
    else:
        if spare[0] == 0 or col != 0 or corner_colour[q] >= 0:
            return 0
        spare[0] -= 1
        owner[q], owner[n - 1 - q] = EMPTY + q, EMPTY + n - 1 - q
        newc[0], newc[1] = q, n - 1 - q
        nnew = 2
    tcount[0] += _touch(newc, nnew, pts, cell_pts, cell_npts, owner, shape_of, colour, ncol, open_pts, ok, xs, waste,
                        uf_parent, uf_parity)
    if ncol == 2:
        _close(n, pieces[0], pl_cells, pl_size, pts, cell_pts, cell_npts, owner, shape_of, colour, open_pts, ok,
               uf_parent, uf_parity, placement)
    return nnew


@njit(cache=COMPILE_CACHE)
def _close(n, npieces, pl_cells, pl_size, pts, cell_pts, cell_npts, owner, shape_of, colour, open_pts, ok, uf_parent,
           uf_parity, placement):
    """First pieces (their images follow by symmetry) whose corner points are all decided: count their possible
    partners again with today's parities (0: the piece is dead), and when one partner is left, record the parity
    that makes it a contact.  A piece done is marked by ``open_pts = -1``."""
    for me in range(0, npieces, 2):
        if open_pts[me] != 0:
            continue
        open_pts[me] = open_pts[me + 1] = -1
        if ok[me] >= 1000:
            continue
        m, found, single = placement[me // 2], -1, True
        for j in range(pl_size[m]):
            c = pl_cells[m, j]
            for t in range(cell_npts[c]):
                p = cell_pts[c, t]
                if pts[p, 2] < 0 or _faces(p, pts, owner) != 4:
                    continue
                for k in range(4):
                    if pts[p, k] == c and _partner_ok(p, k, pts, owner, shape_of, colour, 2, uf_parent, uf_parity):
                        other = owner[pts[p, 3 - k]]
                        single = single and (found < 0 or found == other)
                        found = other
        if found < 0 or single and not _relate(me // 2, found // 2, found & 1, uf_parent, uf_parity):
            ok[me] = ok[me + 1] = 0


@njit(cache=COMPILE_CACHE)
def _dead(n, state, t_max, waste_cut):
    """Too many T points (with ``waste_cut``, plus crossing pairs that cannot be contacts: each colour's 20
    contacts need ``T + waste <= t_max`` by Euler), or a piece with no open corner point and no contact."""
    if state[n + T_COUNT] + waste_cut * state[n + WASTE] > t_max:
        return True
    for pc in range(state[n + PIECES_PLACED]):  # noqa: SIM110 (numba compiles no generator inside any())
        if state[n + OPEN + pc] <= 0 and state[n + OK + pc] == 0:
            return True
    return False


@njit(cache=COMPILE_CACHE)
def _pocket(h, n, owner, nbr, cells):
    """The free region of cell h into ``cells`` while it has at most 5 cells: its size (6: larger; 0: it holds a
    cell and that cell's image, a pocket this cut leaves alone)."""
    cells[0], size, at = h, 1, 0
    while at < size:
        c = cells[at]
        at += 1
        for k in range(4):
            d = nbr[c, k]
            if d < 0 or owner[d] != FREE:
                continue
            seen = False
            for j in range(size):
                seen = seen or cells[j] == d
            if seen:
                continue
            if size == 5:
                return 6
            cells[size] = d
            size += 1
    for j in range(size):
        for i in range(size):
            if cells[i] == n - 1 - cells[j]:
                return 0
    return size


@njit(cache=COMPILE_CACHE)
def _first_unused(cells, size):
    """The pocket's unused cell (``cells[j] >= 0``) with the lowest index (-1: none)."""
    first = -1
    for j in range(size):
        if cells[j] >= 0 and (first < 0 or cells[j] < cells[first]):
            first = j
    return first


@njit(cache=COMPILE_CACHE)
def _take(cells, d, took, flip_to_used):
    """Mark level d's cells used (or free again)."""
    for i in range(5):
        j = took[d, i]
        if j >= 0 and (cells[j] >= 0) == flip_to_used:
            cells[j] = -1 - cells[j]


@njit(cache=COMPILE_CACHE)
def _option(c, k, cells, size, left, used, spare, start, order, pl_cells, pl_size, pl_shape, took_d):
    """Option k at pocket cell c (k < start[c]: leave it empty): the shape it uses (-1: empty, -2: not allowed),
    the pocket positions it takes into ``took_d``."""
    took_d[:] = -1
    if k < start[c]:
        if spare <= 0:
            return -2
        for j in range(size):
            if cells[j] == c:
                took_d[0] = j
        return -1
    m = order[k]
    if left[pl_shape[m]] - used[pl_shape[m]] <= 0:
        return -2
    for i in range(pl_size[m]):
        for j in range(size):
            if cells[j] == pl_cells[m, i]:
                took_d[i] = j
        if took_d[i] < 0:
            return -2
    return pl_shape[m]


@njit(cache=COMPILE_CACHE)
def _tileable(cells, size, left, spare, start, order, pl_cells, pl_size, pl_shape):
    """Can the shapes left tile the pocket (at most 5 cells), ``spare`` of them left empty?  An explicit stack: per
    level the pocket cell covered (its lowest unused cell), the next option (``start[c] - 1``: left empty, else an
    index into ``order``), the shape it used and the pocket positions it took (used cells read ``-1 - cell``)."""
    used = np.zeros(21, np.int64)
    cell, option, shape = np.zeros(6, np.int64), np.zeros(6, np.int64), np.full(6, -2, np.int64)
    took = np.full((6, 5), -1, np.int64)
    first = _first_unused(cells, size)
    if first < 0:
        return True
    d, cell[0], option[0] = 0, cells[first], start[cells[first]] - 1
    found = False
    while d >= 0 and not found:
        _take(cells, d, took, False)  # undo this level's last option
        if shape[d] == -1:
            spare += 1
        elif shape[d] >= 0:
            used[shape[d]] -= 1
        shape[d] = -2
        while shape[d] == -2 and option[d] < start[cell[d] + 1]:
            shape[d] = _option(cell[d], option[d], cells, size, left, used, spare, start, order, pl_cells, pl_size,
                               pl_shape, took[d])
            option[d] += 1
        if shape[d] == -2:
            took[d, :] = -1
            d -= 1
            continue
        if shape[d] == -1:
            spare -= 1
        else:
            used[shape[d]] += 1
        _take(cells, d, took, True)
        first = _first_unused(cells, size)
        if first < 0:
            found = True
        else:
            d += 1
            cell[d], option[d], shape[d] = cells[first], start[cells[first]] - 1, -2
            took[d, :] = -1
    for level in range(d, -1, -1):  # give the pocket its cells back
        _take(cells, level, took, False)
    return found


@njit(cache=COMPILE_CACHE)
def _pockets_ok(newc, nnew, n, state, nbr, start, order, pl_cells, pl_size, pl_shape):
    """Every pocket of at most 5 free cells next to the new cells (and not its own image) can be tiled by the
    shapes left, each pocket on its own."""
    owner, left, spare = state[:n], state[n + LEFT:n + SPARE], state[n + SPARE]
    cells = np.zeros(6, np.int64)
    for j in range(nnew):
        for k in range(4):
            h = nbr[newc[j], k]
            if h < 0 or owner[h] != FREE:
                continue
            size = _pocket(h, n, owner, nbr, cells)
            if 0 < size <= 5 and not _tileable(cells, size, left, spare, start, order, pl_cells, pl_size, pl_shape):
                return False
    return True


@njit(cache=COMPILE_CACHE)
def _first_free(owner, q):
    while q < owner.shape[0] and owner[q] != FREE:
        q += 1
    return q


@njit(cache=COMPILE_CACHE)
def _options(c, n, cstart, corder, pl_cells, pl_size, pl_shape, halo, nhalo, corner_colour, ncol, state, parent,
             parity, enough):
    """How many candidates cell c has (placements over it that may be placed, times colours; leaving it empty),
    counted up to ``enough``."""
    owner, left, pair, colour = state[:n], state[n + LEFT:n + SPARE], state[n + PAIR:n + WASTE], \
        state[n + COLOUR:n + PAIR]
    a = state[n + PIECES_PLACED]
    count = 1 if state[n + SPARE] > 0 and corner_colour[c] < 0 else 0
    for idx in range(cstart[c], cstart[c + 1]):
        for col in range(ncol):
            parent[:] = state[n + UF_PARENT:n + UF_PARITY]
            parity[:] = state[n + UF_PARITY:n + PLACEMENT]
            count += _may_place(corder[idx], a, col, n, pl_cells, pl_size, pl_shape, halo, nhalo, corner_colour, ncol,
                                owner, left, pair, colour, parent, parity)
            if count >= enough:
                return count
    return count


@njit(cache=COMPILE_CACHE)
def _most_constrained(n, cstart, corder, pl_cells, pl_size, pl_shape, halo, nhalo, corner_colour, ncol, state):
    """The free cell of the half with the fewest candidates (-1: none free; -2: one has none)."""
    parent, parity = np.zeros(GROUND + 1, np.int64), np.zeros(GROUND + 1, np.int64)
    best, best_count = -1, 1 << 30
    for c in range(n // 2):
        if state[c] != FREE:
            continue
        count = _options(c, n, cstart, corder, pl_cells, pl_size, pl_shape, halo, nhalo, corner_colour, ncol, state,
                         parent, parity, best_count)
        if count == 0:
            return -2
        if count < best_count:
            best, best_count = c, count
    return best


@njit(cache=COMPILE_CACHE)
def _next_cell(most_constrained, q, n, cstart, corder, pl_cells, pl_size, pl_shape, halo, nhalo, corner_colour, ncol,
               state):
    """The cell the next level covers: the first free one from q, or the half's most constrained one; -1 when the
    half is full, -2 when a free cell has no candidate."""
    if most_constrained:
        return _most_constrained(n, cstart, corder, pl_cells, pl_size, pl_shape, halo, nhalo, corner_colour, ncol,
                                 state)
    q = _first_free(state[:n], q)
    return q if q < n // 2 else -1


@njit(cache=COMPILE_CACHE)
def _dfs(q0, most_constrained, n, start, order, cstart, corder, pl_cells, pl_size, pl_shape, halo, nhalo,
         corner_colour, pts, cell_pts, cell_npts, ncol, t_max, waste_cut, pocket_cut, nbr, state, budget, out, nout):
    """Every completion of ``state`` (into ``out``) within ``budget`` candidates: each level covers the first free
    cell from q0 on by the placements starting there (``cstart``/``corder`` = ``start``/``order``), or with
    ``most_constrained`` the half's most constrained free cell by any placement over it (``cstart``/``corder``:
    the placements by every cell they cover).  An explicit stack: per level the cell, the candidate it is at and
    the state before it."""
    depth_max = n // 2 + 1
    cells = np.zeros(depth_max, np.int64)
    cands = np.zeros(depth_max, np.int64)
    saved = np.zeros((depth_max, state.shape[0]), np.int64)
    newc = np.zeros(20, np.int64)
    tables = (pl_cells, pl_size, pl_shape, halo, nhalo, corner_colour, ncol)
    d = 0
    saved[0, :] = state
    cells[0] = _next_cell(most_constrained, q0, n, cstart, corder, *tables, state)
    cands[0] = cstart[cells[0]] * 4 if cells[0] >= 0 else 0
    while d >= 0:
        c = cells[d]
        state[:] = saved[d]
        if c == -1:  # a full tiling
            if nout[0] < out.shape[0]:
                out[nout[0], :] = state
                nout[0] += 1
            d -= 1
            continue
        if c == -2 or cands[d] >= (cstart[c + 1] + 1) * 4 or budget[0] <= 0 or nout[0] >= out.shape[0]:
            d -= 1
            continue
        cand = cands[d]
        cands[d] += 1
        budget[0] -= 1
        nnew = _apply(cand, c, n, cstart, corder, pl_cells, pl_size, pl_shape, halo, nhalo, corner_colour, pts,
                      cell_pts, cell_npts, ncol, state, newc)
        if nnew == 0 or _dead(n, state, t_max, waste_cut) or pocket_cut and not _pockets_ok(
                newc, nnew, n, state, nbr, start, order, pl_cells, pl_size, pl_shape):
            continue
        d += 1
        saved[d, :] = state
        cells[d] = _next_cell(most_constrained, c, n, cstart, corder, *tables, state)
        cands[d] = cstart[cells[d]] * 4 if cells[d] >= 0 else 0


@njit(cache=COMPILE_CACHE)
def _expand(state, n, start, order, pl_cells, pl_size, pl_shape, halo, nhalo, corner_colour, pts, cell_pts, cell_npts,
            ncol, t_max, waste_cut, pocket_cut, nbr, x_weight, out, out_score, out_q, nout):
    """The children of one beam state that pass the cuts, with their scores and first empty cells."""
    newc = np.zeros(20, np.int64)
    before = state.copy()
    q = _first_free(state[:n], 0)
    for cand in range(start[q] * 4, (start[q + 1] + 1) * 4):
        state[:] = before
        nnew = _apply(cand, q, n, start, order, pl_cells, pl_size, pl_shape, halo, nhalo, corner_colour, pts, cell_pts,
                      cell_npts, ncol, state, newc)
        if nnew == 0 or _dead(n, state, t_max, waste_cut) or nout[0] >= out.shape[0] or pocket_cut and not _pockets_ok(
                newc, nnew, n, state, nbr, start, order, pl_cells, pl_size, pl_shape):
            continue
        k = nout[0]
        out[k, :] = state
        out_q[k] = _first_free(state[:n], q)
        risk = 0.0  # pieces still short of a contact, the fewer open points the worse
        for pc in range(state[n + PIECES_PLACED]):
            if state[n + OK + pc] == 0:
                risk += 1.0 / (1 + state[n + OPEN + pc])
        out_score[k] = state[n + T_COUNT] + waste_cut * state[n + WASTE] - x_weight * state[n + X_COUNT] \
            + (risk if ncol > 1 else 0.0) + 0.5 * np.random.random()
        nout[0] = k + 1
    state[:] = before


@njit(cache=COMPILE_CACHE)
def _seed(seed):
    np.random.seed(seed)


def tilings(board: HalfTurnBoard, *, colours: bool, width: int, switch: int, dfs_nodes: int, seed: int,
            limit: float, x_weight: float = 1.0, keep: set[tuple[int, ...]] | None = None, stats: dict | None = None,
            pairs: bool = False, waste: bool = False, pockets: bool = False, endgame: bool = False,
            lookahead: int = 0, lookahead_from: int = 0):
    """Full tilings (states) found by the beam and its DFS completions, as they come; ``stats`` counts them.
    ``colours``: branch on the four colours; ``pairs``: on the orbits' colour pairs only (blue/red or
    yellow/green), the orientations kept as parities in a union-find; ``waste``: cut on T plus the crossing pairs
    that cannot be contacts, not on T alone; ``pockets``: cut when a pocket of at most 5 free cells (not its own
    image) cannot be tiled by the shapes left; ``endgame``: the DFS from ``switch`` on covers the most constrained
    cell first; ``lookahead``: before a state at cell ``lookahead_from`` or later is expanded, that DFS runs with
    this many candidates, and a state it refutes is dropped."""
    n, half, ncol = board.n, board.n // 2, 4 if colours else 2 if pairs else 1
    stats = {} if stats is None else stats
    stats.update(states=0, completions=0, refuted=0, looked=0, pruned=0, deepest=0)
    _seed(seed)
    start, order = board.candidates(random.Random(seed), keep)
    cover = board.covering(keep) if endgame else (start, order)  # the finishing DFS's candidates by cell
    tables = (start, order, board.pl_cells, board.pl_size, board.pl_shape, board.halo, board.nhalo,
              board.corner_colour, board.pts, board.cell_pts, board.cell_npts, ncol, board.t_max, int(waste), pockets,
              board.nbr)

    def finish(state: np.ndarray, nodes: int) -> tuple[np.ndarray, bool]:
        """The state's completions (at most 20) within ``nodes`` candidates, and whether it was searched to the end
        with none (refuted)."""
        done = np.zeros((20, n + EXTRA), np.int64)
        count, budget = np.zeros(1, np.int64), np.array([nodes], np.int64)
        _dfs(int(_first_free(state[:n], 0)), endgame, n, start, order, *cover, *tables[2:], state.copy(), budget,
             done, count)
        return done[: int(count[0])], bool(count[0] == 0 and budget[0] > 0)

    buckets: dict[int, list[tuple[float, np.ndarray]]] = {0: [(0.0, board.initial_state().astype(np.int16))]}
    out = np.zeros((8000, n + EXTRA), np.int64)
    out_score, out_q, nout = np.zeros(8000), np.zeros(8000, np.int64), np.zeros(1, np.int64)
    t0 = time.process_time()
    for q in range(half + 1):
        if q not in buckets or time.process_time() - t0 > limit:
            continue
        ranked = sorted(buckets.pop(q), key=lambda item: item[0])[:width]
        stats["deepest"] = q
        for _, kept in ranked:
            state = kept.astype(np.int64)
            stats["states"] += 1
            if q >= half or switch and q >= switch:
                found, refuted = finish(state, dfs_nodes)
                stats["completions"] += 1
                stats["refuted"] += refuted
                yield from found
                continue
            if lookahead and q >= lookahead_from:
                found, refuted = finish(state, lookahead)
                stats["looked"] += 1
                stats["pruned"] += refuted
                yield from found
                if refuted or len(found):
                    continue
            nout[0] = 0
            _expand(state, n, *tables, x_weight, out, out_score, out_q, nout)
            for k in range(int(nout[0])):  # kept as int16 (every entry fits), each bucket cut to its best
                bucket = buckets.setdefault(min(int(out_q[k]), half), [])
                bucket.append((float(out_score[k]), out[k].astype(np.int16)))
                if len(bucket) > 2 * width:  # (a stable sort, so the same best as sorting them all at the end)
                    bucket.sort(key=lambda item: item[0])
                    del bucket[width:]
            if time.process_time() - t0 > limit:
                break


def colour_tiling(board: HalfTurnBoard, owner: np.ndarray, max_cuts: int = 2000) -> tuple[str, list[int] | None]:
    """Colour a full tiling: per orbit a pair (blue/red or yellow/green, one orbit of each shape each) and an
    orientation; the edge rule, the start corners, a contact for every piece, every colour connected (lazy cuts).
    Returns ('found', colour per piece id), ('local', None) when the rules without connectivity fail, or
    ('cuts', None) when the cuts exhaust it (or ``max_cuts`` is reached)."""
    from pysat.solvers import Solver

    roots = _roots(board, owner)
    if any(root >= EMPTY for root in roots):
        return "local", None
    pieces = board.pieces(owner)
    shape = {k: SHAPE_KEYS[Shape(frozenset(cells)).canonical().key()] for k, cells in pieces.items()}
    top = max(pieces) + 1
    var = iter(range(1, 10**7))
    pair = {o: next(var) for o in range(0, top, 2)}
    ori = {o: next(var) for o in range(0, top, 2)}
    col, clauses = {}, []
    for p in range(top):
        a, b = pair[p - p % 2], ori[p - p % 2] if p % 2 == 0 else -ori[p - p % 2]
        for c, (x, y) in enumerate(((a, b), (-a, b), (a, -b), (-a, -b))):  # blue, yellow, red, green
            col[p, c] = v = next(var)
            clauses += [[-v, x], [-v, y], [v, -x, -y]]
    by_shape: dict[int, list[int]] = {}
    for o in range(0, top, 2):
        by_shape.setdefault(shape[o], []).append(pair[o])
    clauses += [lits for a, b in by_shape.values() for lits in ([a, b], [-a, -b])]
    partners = {a: {b for b in others if shape[a] != shape[b]} for a, others in _partners(board, owner).items()}
    clauses += [[-col[a, c], -col[b, c]] for a, b in _adjacent(board, owner) for c in range(4)]
    same = {}
    for a in range(top):
        for b in partners[a]:
            same[a, b] = v = next(var)
            clauses += [[-v, -col[a, c], col[b, c]] for c in range(4)]
    clauses += [[col[root, c]] for c, root in enumerate(roots)]
    clauses += [[same[p, b] for b in partners[p]] for p in range(top) if p not in roots]
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        for cuts in range(max_cuts + 1):
            if not solver.solve():
                return ("local" if cuts == 0 else "cuts"), None
            model = set(v for v in solver.get_model() if v > 0)
            colour = [next(c for c in range(4) if col[p, c] in model) for p in range(top)]
            groups = _isolated_groups(colour, partners, roots)
            if not groups:
                return "found", colour
            for c, group in groups:
                outside = {b for a in group for b in partners[a]} - group
                solver.add_clause([-col[a, c] for a in group] + [col[b, c] for b in outside])
    return "cuts", None


def _isolated_groups(colour: list[int], partners: dict[int, set[int]], roots: list[int]) -> list[tuple[int, set[int]]]:
    """Each colour's corner-connected groups that miss its start piece."""
    seen: set[int] = set()
    groups = []
    for p in sorted(range(len(colour)), key=lambda p: p not in roots):
        if p in seen:
            continue
        group, stack = {p}, [p]
        while stack:
            a = stack.pop()
            for b in partners[a]:
                if colour[b] == colour[a] and b not in group:
                    group.add(b)
                    stack.append(b)
        seen |= group
        if roots[colour[p]] not in group:
            groups.append((colour[p], group))
    return groups


def replay(board: HalfTurnBoard, owner: np.ndarray, colour: list[int]) -> BlokusState:
    """Play the layout through the rule engine: each colour's pieces in a corner-connected order, the colours in
    turn; ValueError when a move is illegal."""
    pieces = board.pieces(owner)
    orders = []
    for c, corner in enumerate(board.corners()):
        order = play_order([cells for p, cells in pieces.items() if colour[p] == c], corner)
        if order is None:
            raise ValueError(f"colour {c + 1} is not corner-connected")
        orders.append(order)
    state = BlokusState(solitaire_variant(board.cols, board.rows, 4))
    for i in range(21):
        for c in range(4):
            state.apply(state.string_to_action(move_text(orders[c][i], board.rows)))
    return state


def grid(board: HalfTurnBoard, owner: np.ndarray, colour: list[int]) -> str:
    return "\n".join("".join("byrg"[colour[int(owner[board.idx(r, c)])]] if owner[board.idx(r, c)] < EMPTY else "."
                             for c in range(board.cols)) for r in range(board.rows))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("board", help="COLSxROWS, e.g. 21x17")
    parser.add_argument("--colours", action="store_true", help="branch on colours in the search too")
    parser.add_argument("--pairs", action="store_true",
                        help="branch on colour pairs only (orientations as parities); a SAT model colours each tiling")
    parser.add_argument("--waste", action="store_true",
                        help="cut on T plus the crossing pairs that cannot be contacts (Euler), not on T alone")
    parser.add_argument("--pockets", action="store_true",
                        help="cut when a pocket of at most 5 free cells cannot be tiled by the shapes left")
    parser.add_argument("--centre-out", action="store_true",
                        help="search the half's columns from the middle one outwards (the corners last)")
    parser.add_argument("--endgame", action="store_true",
                        help="from --switch on, the DFS covers the most constrained cell first")
    parser.add_argument("--lookahead", type=int, default=0,
                        help="drop the states a DFS of this many candidates refutes (from --lookahead-from on)")
    parser.add_argument("--lookahead-from", type=int, default=0)
    parser.add_argument("--width", type=int, default=2000)
    parser.add_argument("--switch", type=int, default=0, help="finish by DFS from this cell on (0: never)")
    parser.add_argument("--dfs-nodes", type=int, default=300_000)
    parser.add_argument("--x-weight", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--time-limit", type=float, default=300.0)
    args = parser.parse_args()
    cols, rows = map(int, args.board.split("x"))
    board = HalfTurnBoard(cols, rows, centre_out=args.centre_out)
    print(f"{args.board}: {len(board.placements):,} orbit placements, at most {board.t_max} T points; compiling ...",
          flush=True)
    t0, stats, outcomes = time.process_time(), {}, {"found": 0, "local": 0, "cuts": 0, "disconnected": 0}
    for state in tilings(board, colours=args.colours, width=args.width, switch=args.switch, dfs_nodes=args.dfs_nodes,
                         seed=args.seed, limit=args.time_limit, x_weight=args.x_weight, stats=stats, pairs=args.pairs,
                         waste=args.waste, pockets=args.pockets, endgame=args.endgame,
                         lookahead=args.lookahead, lookahead_from=args.lookahead_from):
        owner = state[: board.n]
        if args.colours:
            colour = [int(c) for c in board.view(state)["colour"][: 84]]
            result = "found" if not _isolated_groups(colour, _partners(board, owner), _roots(board, owner)) \
                else "disconnected"
        else:
            result, found = colour_tiling(board, owner)
            colour = found or []
        outcomes[result] += 1
        x, t = board.counts(owner)
        print(f"tiling: X = {x}, T = {t}: {result}", flush=True)
        if result == "found":
            replay(board, owner, colour)
            print(f"FOUND, replayed through the rule engine:\n{grid(board, owner, colour)}")
            break
    print(f"{args.board}: {stats['states']:,} beam states, {stats['completions']:,} DFS completions "
          f"({stats['refuted']:,} searched to the end with no tiling), {stats['pruned']:,} of {stats['looked']:,} "
          f"states refuted by the look-ahead, deepest cell "
          f"{stats['deepest']} of {board.n // 2}; tilings {outcomes}; {time.process_time() - t0:.0f} CPU-s")


def _partners(board: HalfTurnBoard, owner: np.ndarray) -> dict[int, set[int]]:
    partners: dict[int, set[int]] = {p: set() for p in board.pieces(owner)}
    for cells in board.pts:
        faces = [int(owner[q]) for q in cells]
        if cells[2] >= 0 and len(set(faces)) == 4:
            for k in range(4):
                if faces[k] < EMPTY and faces[3 - k] < EMPTY:
                    partners[faces[k]].add(faces[3 - k])
    return partners


def _adjacent(board: HalfTurnBoard, owner: np.ndarray) -> set[tuple[int, int]]:
    """Pairs of pieces sharing an edge."""
    pairs = set()
    for q in range(board.n):
        r, c = board.rc(q)
        for q2 in ([board.idx(r + 1, c)] if r + 1 < board.rows else []) + (
                [board.idx(r, c + 1)] if c + 1 < board.cols else []):
            a, b = int(owner[q]), int(owner[q2])
            if a != b and a < EMPTY and b < EMPTY:
                pairs.add((min(a, b), max(a, b)))
    return pairs


def _roots(board: HalfTurnBoard, owner: np.ndarray) -> list[int]:
    return [int(owner[board.idx(r, c)]) for r, c in board.corners()]


if __name__ == "__main__":
    main()
