"""numba kernels shared by the Python engine and the fast playouts: move generation and placing.

Both :class:`puzzles.blokus.engine.BlokusState` and the random-game kernel of
:mod:`solvers.blokus_bots` call these functions on the same arrays, so the
engine and the playouts cannot disagree about the rules.

``tables`` is the tuple :func:`table_tuple` builds from :class:`BoardTables`;
``arrays`` is the per-state tuple ``(forbidden, is_attach, attach, attach_len,
starts, nstarts, left, placed, last_piece, done)``:

* ``forbidden[c, q]`` — 1 when cell ``q`` is off the board, occupied, or
  edge-adjacent to a piece of color ``c``;
* ``attach[c, :attach_len[c]]`` — cells diagonally touching color ``c``
  (append-only; entries that later became forbidden are skipped), with
  ``is_attach`` as its membership mask;
* ``starts[c, :nstarts[c]]`` — the cells a first piece may cover (one fixed
  corner, the four corners with ``free_corners``, the Duo starting point);
* ``left[c, p]`` — piece ``p`` not yet placed; ``placed[c]`` — pieces placed;
  ``last_piece[c]`` — last piece placed (-1 none); ``done[c]`` — no more turns.
"""

from __future__ import annotations

import numpy as np
from numba import njit

NUM_PIECES = 21


def table_tuple(t) -> tuple:
    """The arrays of a :class:`BoardTables` in the order the kernels expect."""
    return (t.pl_piece, t.pl_size, t.pl_cells, t.pl_adj, t.pl_nadj, t.pl_corners, t.pl_ncorners, t.cp_start, t.cp_list)


@njit(cache=True)
def is_legal_cells(f, cells) -> bool:
    """None of the (padded) five cells is forbidden."""
    return not (f[cells[0]] | f[cells[1]] | f[cells[2]] | f[cells[3]] | f[cells[4]])


@njit(cache=True)
def gen_moves(color, tables, arrays, marker, stamp, out) -> int:
    """Write the legal placements of ``color`` into ``out``; return how many.

    Loops over attach points (or the starting cells before the first piece) x
    pieces left, looks up the placements of that piece covering that cell, and
    de-duplicates with ``marker`` (entries equal to ``stamp`` were seen).
    """
    pl_piece, pl_size, pl_cells, pl_adj, pl_nadj, pl_corners, pl_ncorners, cp_start, cp_list = tables
    forbidden, is_attach, attach, attach_len, starts, nstarts, left, placed, last_piece, done = arrays
    f = forbidden[color]
    lft = left[color]
    if placed[color] == 0:
        pts = starts[color]
        npts = nstarts[color]
    else:
        pts = attach[color]
        npts = attach_len[color]
    n = 0
    for i in range(npts):
        a = pts[i]
        if f[a]:
            continue
        base = a * NUM_PIECES
        for p in range(NUM_PIECES):
            if lft[p] == 0:
                continue
            for k in range(cp_start[base + p], cp_start[base + p + 1]):
                m = cp_list[k]
                if marker[m] == stamp:
                    continue
                marker[m] = stamp
                if is_legal_cells(f, pl_cells[m]):
                    out[n] = m
                    n += 1
    return n


@njit(cache=True)
def gen_moves_from(color, first, tables, arrays, marker, stamp, out, n) -> int:
    """Like :func:`gen_moves` but only over attach points ``first..attach_len``, appending at ``out[n]``."""
    pl_piece, pl_size, pl_cells, pl_adj, pl_nadj, pl_corners, pl_ncorners, cp_start, cp_list = tables
    forbidden, is_attach, attach, attach_len, starts, nstarts, left, placed, last_piece, done = arrays
    f = forbidden[color]
    lft = left[color]
    for i in range(first, attach_len[color]):
        a = attach[color, i]
        if f[a]:
            continue
        base = a * NUM_PIECES
        for p in range(NUM_PIECES):
            if lft[p] == 0:
                continue
            for k in range(cp_start[base + p], cp_start[base + p + 1]):
                m = cp_list[k]
                if marker[m] == stamp:
                    continue
                marker[m] = stamp
                if is_legal_cells(f, pl_cells[m]):
                    out[n] = m
                    n += 1
    return n


@njit(cache=True)
def check_move(color, m, tables, arrays) -> int:
    """0 when placement ``m`` is legal for ``color``, else a reason code.

    1: piece already placed; 2: a cell is occupied or edge-adjacent to own color;
    3: first piece misses the starting cell(s); 4: no corner contact with own color.
    """
    pl_piece, pl_size, pl_cells, pl_adj, pl_nadj, pl_corners, pl_ncorners, cp_start, cp_list = tables
    forbidden, is_attach, attach, attach_len, starts, nstarts, left, placed, last_piece, done = arrays
    if left[color, pl_piece[m]] == 0:
        return 1  # piece already placed
    size = pl_size[m]
    cells = pl_cells[m]
    for j in range(size):
        if forbidden[color, cells[j]]:
            return 2  # occupied, or edge contact with own color
    if placed[color] == 0:
        for j in range(size):
            for i in range(nstarts[color]):
                if cells[j] == starts[color, i]:
                    return 0
        return 3  # first piece must cover a starting cell
    for j in range(size):
        if is_attach[color, cells[j]]:
            return 0
    return 4  # no corner contact with own color


@njit(cache=True)
def place(color, m, tables, arrays) -> None:
    """Put placement ``m`` of ``color`` on the board (no legality check)."""
    pl_piece, pl_size, pl_cells, pl_adj, pl_nadj, pl_corners, pl_ncorners, cp_start, cp_list = tables
    forbidden, is_attach, attach, attach_len, starts, nstarts, left, placed, last_piece, done = arrays
    ncolors = forbidden.shape[0]
    for j in range(pl_size[m]):
        q = pl_cells[m, j]
        for k in range(ncolors):
            forbidden[k, q] = 1
    f = forbidden[color]
    for j in range(pl_nadj[m]):
        f[pl_adj[m, j]] = 1
    for j in range(pl_ncorners[m]):
        q = pl_corners[m, j]
        if f[q] == 0 and is_attach[color, q] == 0:
            is_attach[color, q] = 1
            attach[color, attach_len[color]] = q
            attach_len[color] += 1
    p = pl_piece[m]
    left[color, p] = 0
    placed[color] += 1
    last_piece[color] = p
    if placed[color] == NUM_PIECES:
        done[color] = 1


@njit(cache=True)
def next_color(color, done) -> int:
    """The next color after ``color`` that still has turns, or -1 when none has."""
    ncolors = done.shape[0]
    for step in range(1, ncolors + 1):
        c = (color + step) % ncolors
        if done[c] == 0:
            return c
    return -1


@njit(cache=True)
def color_score(color, left, last_piece, piece_sizes, monomino) -> int:
    """Official score: -1 per unplaced square; +15 for all placed, +5 more if the monomino was last."""
    missing = 0
    for p in range(NUM_PIECES):
        if left[color, p]:
            missing += piece_sizes[p]
    if missing > 0:
        return -missing
    return 20 if last_piece[color] == monomino else 15


def new_marker(num_placements: int) -> np.ndarray:
    return np.zeros(num_placements, dtype=np.int32)
