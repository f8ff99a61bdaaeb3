"""numba kernels shared by the Python engine and the fast playouts: move generation, placing, whole games.

Both :class:`puzzles.blokus.engine.BlokusState` and the random-game kernel of
:mod:`solvers.blokus.bots` call these functions on the same arrays, so the
engine and the playouts cannot disagree about the rules.  Playouts (the random
games here and mcts-rave's in :mod:`solvers.blokus.mcts.playout`) keep their legal-move
lists with one upkeep, :func:`turn_moves` / :func:`refresh_moves`.

``tables`` is the :class:`KernelTables` that :func:`kernel_tables` builds from a
:class:`~puzzles.blokus.tables.BoardTables` (its placement arrays, then the packed
:func:`move_records` and :func:`move_geometry` rows); ``arrays`` is a position's
:class:`BlokusArrays`:

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

import sys
import weakref
from typing import Any, NamedTuple

import numpy as np
from numba import njit

NUM_PIECES = 21

#: The options of the hot kernels: cached, and without numba's reference counting (NRT).  They
#: allocate nothing and return no arrays, and NRT's atomic increment/decrement of every array taken
#: from the ``tables``/``arrays`` tuples at each call cost more than the work of a small kernel
#: (``place``, ``turn_moves``); functions that allocate keep the default ``njit(cache=True)``.
hot = njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # _nrt: numba option missing from its stubs
hot_inline = njit(cache=True, _nrt=False, inline="always")  # type: ignore[call-overload]
#: a search entry point that releases the GIL, so that search threads run at once
hot_nogil = njit(cache=True, _nrt=False, nogil=True)  # type: ignore[call-overload]


#: Columns of :func:`move_geometry`'s rows: size, edge neighbours, corner points, piece, then the lists.
GEO_SIZE, GEO_NADJ, GEO_NCORNERS, GEO_PIECE, GEO_CELLS, GEO_ADJ, GEO_CORNERS = 0, 1, 2, 3, 4, 9, 21
_DERIVED: weakref.WeakKeyDictionary[Any, tuple[np.ndarray, np.ndarray]] = weakref.WeakKeyDictionary()


class KernelTables(NamedTuple):
    """A board's arrays as the kernels read them (one per board, shared by every state; see
    :class:`~puzzles.blokus.tables.BoardTables` for the placement arrays and the ``cp_*`` lists)."""

    pl_piece: np.ndarray
    pl_size: np.ndarray
    pl_cells: np.ndarray
    pl_adj: np.ndarray
    pl_nadj: np.ndarray
    pl_corners: np.ndarray
    pl_ncorners: np.ndarray
    cp_start: np.ndarray
    cp_list: np.ndarray
    rec: np.ndarray  #: :func:`move_records`: one 16-byte row per placement
    geo: np.ndarray  #: :func:`move_geometry`: one 64-byte row per placement


class BlokusArrays(NamedTuple):
    """A position's arrays (the module docstring says what each holds); colors index the rows."""

    forbidden: np.ndarray  #: uint8 [colors, area]
    is_attach: np.ndarray  #: uint8 [colors, area]
    attach: np.ndarray  #: int32 [colors, area]
    attach_len: np.ndarray  #: int32 [colors]
    starts: np.ndarray  #: int32 [colors, 4]
    nstarts: np.ndarray  #: int32 [colors]
    left: np.ndarray  #: uint8 [colors, pieces]
    placed: np.ndarray  #: int32 [colors]
    last_piece: np.ndarray  #: int32 [colors]
    done: np.ndarray  #: uint8 [colors]

    def copy(self) -> BlokusArrays:
        """A copy of every array."""
        return BlokusArrays._make([a.copy() for a in self])


def kernel_tables(t: Any) -> KernelTables:
    """The :class:`KernelTables` of a :class:`~puzzles.blokus.tables.BoardTables`; the two packed copies
    (:func:`move_records`, :func:`move_geometry`) are made here once per board."""
    if sys.byteorder != "little":
        raise RuntimeError("the playout kernels read move records as little-endian 64-bit words (refresh_moves)")
    derived = _DERIVED.get(t)
    if derived is None:
        n = t.pl_piece.shape[0]
        buf = np.zeros(n * 32 + 32, dtype=np.uint16)
        skip = (-buf.ctypes.data % 64) // 2  # rows start on 64-byte cache lines
        geo = buf[skip:skip + n * 32].reshape(n, 32)
        move_geometry(t.pl_piece, t.pl_size, t.pl_cells, t.pl_adj, t.pl_nadj, t.pl_corners, t.pl_ncorners, geo)
        derived = _DERIVED[t] = (move_records(t.pl_piece, t.pl_size, t.pl_cells, t.pl_ncorners, t.area), geo)
    return KernelTables(t.pl_piece, t.pl_size, t.pl_cells, t.pl_adj, t.pl_nadj, t.pl_corners, t.pl_ncorners,
                        t.cp_start, t.cp_list, *derived)


@hot
def gen_moves(color, tables, arrays, marker, stamp, out) -> int:
    """Write the legal placements of ``color`` into ``out``; return how many.

    Loops over attach points (or the starting cells before the first piece) x
    pieces left, looks up the placements of that piece covering that cell, and
    de-duplicates with ``marker`` (entries equal to ``stamp`` were seen).
    """
    f = arrays.forbidden[color]
    lft = arrays.left[color]
    width = np.int64(np.sqrt(f.shape[0]) + 0.5)
    if arrays.placed[color] == 0:
        pts = arrays.starts[color]
        npts = arrays.nstarts[color]
    else:
        pts = arrays.attach[color]
        npts = arrays.attach_len[color]
    n = int(np.int64(0))  # not the literal 0: numba would compile _moves_at_point for it too (a second, unused copy)
    for i in range(npts):
        n = _moves_at_point(pts[i], f, lft, width, tables.cp_start, tables.cp_list, tables.pl_cells, marker, stamp,
                            out, n)
    return n


@hot_inline
def _point_key(a, f, width):
    """The ``cp_start`` key of attach point ``a`` and piece 0 (:class:`BoardTables`: ``(cell * 16 + pattern)
    * 21 + piece``, the pattern being which of the point's four edge neighbours ``f`` forbids)."""
    return ((a << 4) | (f[a - width] | (f[a + 1] << 1) | (f[a + width] << 2) | (f[a - 1] << 3))) * NUM_PIECES


@hot
def _moves_at_point(a, f, lft, width, cp_start, cp_list, pl_cells, marker, stamp, out, n) -> int:
    """Append to ``out[n:]`` the legal placements (not yet stamped) that use attach point ``a``."""
    if f[a]:
        return n
    base = _point_key(a, f, width)
    for p in range(NUM_PIECES):
        if lft[p] == 0:
            continue
        key = base + p
        for k in range(np.uint32(cp_start[key]), np.uint32(cp_start[key + 1])):
            m = np.uint32(cp_list[k])  # unsigned indices: numba checks signed ones for wraparound
            if marker[m] == stamp:
                continue
            marker[m] = stamp
            if not (f[np.uint32(pl_cells[m, 0])] | f[np.uint32(pl_cells[m, 1])] | f[np.uint32(pl_cells[m, 2])]
                    | f[np.uint32(pl_cells[m, 3])] | f[np.uint32(pl_cells[m, 4])]):
                out[n] = m
                n += 1
    return n


@njit(cache=True)
def move_records(pl_piece, pl_size, pl_cells, pl_ncorners, area):
    """One 16-byte row per placement for the list upkeep of the playouts (:func:`refresh_moves`).

    ``rec[m, :5]`` its cells, padded with ``area`` (a cell past the board whose
    feature value is always 0, see :func:`set_features`); ``rec[m, 5]`` its piece's
    cell in the feature grid, ``area + 1 + piece`` (set while the piece is placed, so
    one sum over the six gives legality); ``rec[m, 6]`` its weight class
    ``piece * 16 + corner points``; ``rec[m, 7]`` its size.
    """
    n = pl_piece.shape[0]
    rec = np.empty((n, 8), dtype=np.uint16)
    for m in range(n):
        for j in range(5):
            rec[m, j] = pl_cells[m, j] if j < pl_size[m] else area
        rec[m, 5] = area + 1 + pl_piece[m]
        rec[m, 6] = pl_piece[m] * 16 + pl_ncorners[m]
        rec[m, 7] = pl_size[m]
    return rec


@njit(cache=True)
def move_geometry(pl_piece, pl_size, pl_cells, pl_adj, pl_nadj, pl_corners, pl_ncorners, geo):
    """Fill ``geo[m]`` (32 ``uint16``, one cache line per placement): size, number of edge
    neighbours, number of corner points, piece, then its cells (from ``GEO_CELLS``), edge
    neighbours (``GEO_ADJ``, at most 12) and corner points (``GEO_CORNERS``, at most 8)."""
    for m in range(pl_piece.shape[0]):
        geo[m, GEO_SIZE] = pl_size[m]
        geo[m, GEO_NADJ] = pl_nadj[m]
        geo[m, GEO_NCORNERS] = pl_ncorners[m]
        geo[m, GEO_PIECE] = pl_piece[m]
        for j in range(pl_size[m]):
            geo[m, GEO_CELLS + j] = pl_cells[m, j]
        for j in range(pl_nadj[m]):
            geo[m, GEO_ADJ + j] = pl_adj[m, j]
        for j in range(pl_ncorners[m]):
            geo[m, GEO_CORNERS + j] = pl_corners[m, j]


@hot_inline
def feature_size(area: int) -> int:
    """The size of a feature grid (:func:`set_features`) for a board of ``area`` cells."""
    return area + 1 + NUM_PIECES


#: Entries of a weight table by feature sum (``glocal``, :func:`local_weights`): more than the largest sum,
#: six record cells of at most 64 each (:func:`refresh_moves`)
FEATURE_SUMS = 512


@hot_inline
def set_features(f, lft, feat):
    """One color's feature grid: ``feat[q] = 64`` where ``f`` (its forbidden grid) is set, else 0;
    ``feat[area] = 0``; ``feat[area + 1 + p] = 64`` when its piece ``p`` is placed (``lft``), else 0.

    Callers may then add small local-point values (< 64 per move) to free cells: a
    placement is legal for that color when the sum over its six record cells
    (:func:`move_records`) is below 64, and that sum is its local value.
    """
    area = f.shape[0]
    for q in range(area):
        feat[q] = f[q] << 6
    feat[area] = 0
    for p in range(NUM_PIECES):
        feat[area + 1 + p] = (1 - lft[p]) << 6


#: Marks of the moves listed in a playout are stamps (:func:`next_stamp`), one value per playout.
MAX_STAMP = 255


@hot_inline
def next_stamp(mark, stamp):
    """A new mark value for a playout or list build (``stamp[0]``); all marks are cleared when the values run out."""
    s = stamp[0] + 1
    if s > MAX_STAMP:
        for k in range(mark.shape[0]):
            for m in range(mark.shape[1]):
                mark[k, m] = 0
        s = 1
    stamp[0] = s
    return np.uint8(s)


@hot_inline
def refresh_moves(rec, cp_start, cp_list, f, mk, stamp, feat, src, s0, nsrc, fresh, pts, first, npts, out, wt, glocal,
                  wbuf):
    """One turn's upkeep of a color's legal-move list (Pentobi's ``State::update_moves``).

    ``rec``, ``cp_start``, ``cp_list`` are the board's tables (:class:`KernelTables`), ``f`` and
    ``mk`` the color's rows of ``forbidden`` and ``mark`` (only these, so that a call passes few
    arguments), ``feat`` its feature grid (:func:`set_features`).

    Keeps the moves of ``src[s0:s0 + nsrc]`` that are still legal (the sum of ``feat`` over
    their record cells is below 64), then appends the legal moves at the points
    ``pts[first:npts]`` (new attach points, or the starting cells) not yet listed;
    writes them to ``out`` (which may be ``src``), and to ``wbuf`` the running sum of their
    weights ``wt[class] * glocal[feature sum]`` (for :func:`draw`; ``glocal`` is 0 from 64 on).
    Marks: ``mk[m] == stamp`` for every move listed in this playout and for some illegal ones
    (a move never becomes legal again), so a legal move is listed once; with ``fresh`` the
    moves of ``src`` are not marked yet (``src`` is another list than the color's own).
    Returns (number of moves, sum of their weights).
    """
    width = np.int64(np.sqrt(f.shape[0]) + 0.5)
    pieces = np.uint32(f.shape[0] + 1)
    words = rec.view(np.uint64)  # a record as two little-endian 64-bit words: six feature cells, then the class
    n = 0
    total = 0.0
    # unsigned indices (numba checks signed ones for wraparound), no row views, and no branch on whether a
    # move is kept (about a third are dropped, unpredictably): each move is written at ``n``, which only
    # advances when it is kept; a dropped move's weight is 0.  ``fresh`` is a constant at every (inlined)
    # call, so the compiler drops the test from the loop
    for i in range(nsrc):
        m = np.uint32(src[s0 + i])
        a = words[m, 0]
        b = words[m, 1]
        s = (np.uint32(feat[a & 0xFFFF]) + feat[(a >> 16) & 0xFFFF] + feat[(a >> 32) & 0xFFFF] + feat[a >> 48]
             + feat[b & 0xFFFF] + feat[(b >> 16) & 0xFFFF])
        total += wt[(b >> 32) & 0xFFFF] * glocal[s]
        out[n] = m
        wbuf[n] = total
        if fresh:
            mk[m] = stamp
        n += np.uint32(s < 64)
    for i in range(first, npts):
        a = np.int64(pts[i])
        if f[a]:
            continue
        base = _point_key(a, f, width)
        for p in range(NUM_PIECES):
            if feat[pieces + p]:
                continue  # placed
            key = base + p
            for k in range(np.uint32(cp_start[key]), np.uint32(cp_start[key + 1])):
                m = np.uint32(cp_list[k])
                a = words[m, 0]
                b = words[m, 1]
                s = (np.uint32(feat[a & 0xFFFF]) + feat[(a >> 16) & 0xFFFF] + feat[(a >> 32) & 0xFFFF] + feat[a >> 48]
                     + feat[b & 0xFFFF]) | (np.uint32(mk[m] == stamp) << 6)  # >= 64: illegal, or listed already
                total += wt[(b >> 32) & 0xFFFF] * glocal[s]
                out[n] = m
                wbuf[n] = total
                mk[m] = stamp  # listed now, or illegal
                n += np.uint32(s < 64)
    return n, total


@hot
def check_move(color, m, tables, arrays) -> int:
    """0 when placement ``m`` is legal for ``color``, else a reason code.

    1: piece already placed; 2: a cell is occupied or edge-adjacent to own color;
    3: first piece misses the starting cell(s); 4: no corner contact with own color.
    """
    if arrays.left[color, tables.pl_piece[m]] == 0:
        return 1  # piece already placed
    size = tables.pl_size[m]
    cells = tables.pl_cells[m]
    for j in range(size):
        if arrays.forbidden[color, cells[j]]:
            return 2  # occupied, or edge contact with own color
    if arrays.placed[color] == 0:
        for j in range(size):
            for i in range(arrays.nstarts[color]):
                if cells[j] == arrays.starts[color, i]:
                    return 0
        return 3  # first piece must cover a starting cell
    for j in range(size):
        if arrays.is_attach[color, cells[j]]:
            return 0
    return 4  # no corner contact with own color


@hot_inline
def place(color, m, tables, arrays) -> None:
    """Put placement ``m`` of ``color`` on the board (no legality check)."""
    geo = tables.geo
    forbidden, is_attach, attach, attach_len = arrays.forbidden, arrays.is_attach, arrays.attach, arrays.attach_len
    ncolors = forbidden.shape[0]
    mu = np.uint32(m)  # unsigned indices: numba checks signed ones for wraparound
    for j in range(geo[mu, GEO_SIZE]):
        q = geo[mu, GEO_CELLS + j]
        for k in range(ncolors):
            forbidden[k, q] = 1
    f = forbidden[color]
    for j in range(geo[mu, GEO_NADJ]):
        f[geo[mu, GEO_ADJ + j]] = 1
    for j in range(geo[mu, GEO_NCORNERS]):
        q = geo[mu, GEO_CORNERS + j]
        if f[q] == 0 and is_attach[color, q] == 0:
            is_attach[color, q] = 1
            attach[color, attach_len[color]] = q
            attach_len[color] += 1
    p = geo[mu, GEO_PIECE]
    arrays.left[color, p] = 0
    arrays.placed[color] += 1
    arrays.last_piece[color] = p
    if arrays.placed[color] == NUM_PIECES:
        arrays.done[color] = 1


# -- entry points for Python: the engine passes the tables and arrays as plain tuples of their fields, since
#    numba's dispatcher types named tuples some microseconds slower a call (a tenth of an engine ply) --


@hot
def gen_moves_entry(color, tables, arrays, marker, stamp, out) -> int:
    """:func:`gen_moves` for Python callers (``tables``, ``arrays``: plain tuples of the named ones' fields)."""
    return gen_moves(color, KernelTables(*tables), BlokusArrays(*arrays), marker, stamp, out)


@hot
def check_move_entry(color, m, tables, arrays) -> int:
    """:func:`check_move` for Python callers (plain tuples, as :func:`gen_moves_entry`)."""
    return check_move(color, m, KernelTables(*tables), BlokusArrays(*arrays))


def snapshot_sizes(ncolors: int, area: int) -> tuple[int, int]:
    """Lengths of a move's two snapshot buffers (:func:`play_entry`): ``uint8`` (forbidden, is_attach, left,
    done) and ``int32`` (attach_len, placed, last_piece)."""
    return 2 * ncolors * area + ncolors * NUM_PIECES + ncolors, 3 * ncolors


@hot_inline
def _save(arrays, snap8, snap32) -> None:
    """Copy the arrays a move changes into the snapshot buffers (flat views, so that the copies vectorize)."""
    nc = arrays.done.shape[0]
    n = arrays.forbidden.size
    nl = nc * NUM_PIECES
    forbidden, is_attach, left = arrays.forbidden.reshape(n), arrays.is_attach.reshape(n), arrays.left.reshape(nl)
    for i in range(n):
        snap8[i] = forbidden[i]
    for i in range(n):
        snap8[n + i] = is_attach[i]
    for i in range(nl):
        snap8[2 * n + i] = left[i]
    for c in range(nc):
        snap8[2 * n + nl + c] = arrays.done[c]
        snap32[c] = arrays.attach_len[c]
        snap32[nc + c] = arrays.placed[c]
        snap32[2 * nc + c] = arrays.last_piece[c]


@hot_inline
def _restore(arrays, snap8, snap32) -> None:
    """The inverse of :func:`_save`."""
    nc = arrays.done.shape[0]
    n = arrays.forbidden.size
    nl = nc * NUM_PIECES
    forbidden, is_attach, left = arrays.forbidden.reshape(n), arrays.is_attach.reshape(n), arrays.left.reshape(nl)
    for i in range(n):
        forbidden[i] = snap8[i]
    for i in range(n):
        is_attach[i] = snap8[n + i]
    for i in range(nl):
        left[i] = snap8[2 * n + i]
    for c in range(nc):
        arrays.done[c] = snap8[2 * n + nl + c]
        arrays.attach_len[c] = snap32[c]
        arrays.placed[c] = snap32[nc + c]
        arrays.last_piece[c] = snap32[2 * nc + c]


@hot
def play_entry(color, m, check, tables, arrays, owner, snap8, snap32) -> int:
    """One engine move in one call: placement ``m`` of ``color`` (-1: the pass, which ends the color's turns).

    With ``check``, an illegal placement (:func:`check_move`) changes nothing and returns ``-2 - code``.
    Else the arrays the move changes are saved into ``snap8``/``snap32`` (:func:`snapshot_sizes`; the
    attach lists only grow, so their lengths restore them), the move is made, its cells get ``color`` in
    ``owner``, and the next color to move is returned (-1: the game is over).  Plain tuples, as
    :func:`gen_moves_entry`; :func:`undo_entry` takes the move back.
    """
    t = KernelTables(*tables)
    a = BlokusArrays(*arrays)
    if check and m >= 0:
        code = check_move(color, m, t, a)
        if code != 0:
            return -2 - code
    _save(a, snap8, snap32)
    if m < 0:
        a.done[color] = 1
    else:
        place(color, m, t, a)
        geo = t.geo
        mu = np.uint32(m)
        for j in range(geo[mu, GEO_SIZE]):
            owner[geo[mu, GEO_CELLS + j]] = color
    return next_color(color, a.done)


@hot
def undo_entry(m, tables, arrays, owner, snap8, snap32) -> None:
    """Take back the move :func:`play_entry` made (placement ``m``, -1 for a pass) from its snapshot."""
    _restore(BlokusArrays(*arrays), snap8, snap32)
    if m >= 0:
        geo = KernelTables(*tables).geo
        mu = np.uint32(m)
        for j in range(geo[mu, GEO_SIZE]):
            owner[geo[mu, GEO_CELLS + j]] = -1


@hot_inline
def next_color(color, done) -> int:
    """The next color after ``color`` that still has turns, or -1 when none has."""
    ncolors = done.shape[0]
    c = color
    for _ in range(ncolors):
        c += 1
        if c == ncolors:  # no modulo: an integer division costs more than the rest of this loop
            c = 0
        if done[c] == 0:
            return c
    return -1


@hot_inline
def color_score(color, left, last_piece, piece_sizes, monomino) -> int:
    """Official score: -1 per unplaced square; +15 for all placed, +5 more if the monomino was last."""
    missing = 0
    for p in range(NUM_PIECES):
        missing += left[color, p] * piece_sizes[p]  # no branch: left is 0 or 1
    if missing > 0:
        return -missing
    return 20 if last_piece[color] == monomino else 15


# -- whole games (kept in this module so numba's on-disk cache is invalidated together with the
#    move generator it inlines; the policies and Python wrappers live in solvers.blokus.bots) --


@hot
def root_moves(tables, arrays, marker, stamp, roots):
    """Every color's legal moves at the start of a series of playouts into ``roots`` =
    (lists, their lengths, attach points processed, list kind: 1 starting cells, 2 attach points)."""
    lists, counts, processed, kinds = roots
    for k in range(arrays.forbidden.shape[0]):
        stamp[0] += 1
        counts[k] = gen_moves(k, tables, arrays, marker, stamp[0], lists[k])
        processed[k] = arrays.attach_len[k]
        kinds[k] = 1 if arrays.placed[k] == 0 else 2


@hot_inline
def turn_moves(c, tables, arrays, feat, mark, stamp, lists, nlist, inited, processed, start, wt, glocal, wbuf):
    """Color ``c``'s legal-move list for its turn, kept incrementally through a playout (Pentobi's scheme).

    On the color's first turn of the playout its list starts from ``start`` = (moves array,
    offset, count, attach points processed, kind: 1 starting cells, 2 attach points), its
    legal moves where the playout began (:func:`root_moves` gives them at the root; moves
    only ever become illegal), later from its own list of the previous turn;
    :func:`refresh_moves` drops what became illegal and expands the attach points created
    since.  A list of starting moves is generated anew once the color has placed its first
    piece.  ``inited[c]`` (0 before the first turn, else the kind of the list; all 0 when a
    playout starts) and ``processed[c]`` track this; ``feat`` must hold ``c``'s features and
    ``stamp`` be the playout's mark value (:func:`next_stamp`).
    Returns (number of moves, sum of their weights), the moves in ``lists[c]``, running sums of the weights in ``wbuf``.
    """
    src, s0, nsrc, sproc, skind = start
    attach = arrays.attach
    attach_len = arrays.attach_len
    L = lists[c]
    rec, cp_start, cp_list = tables.rec, tables.cp_start, tables.cp_list
    f, mk = arrays.forbidden[c], mark[c]
    first = inited[c] == 0
    kind = skind if first else inited[c]
    if kind == 1 and arrays.placed[c] > 0:
        if not first:
            for i in range(nlist[c]):
                mk[L[i]] = 0  # no longer listed (marked moves are then all illegal)
        n, total = refresh_moves(rec, cp_start, cp_list, f, mk, stamp, feat, L, 0, 0, False, attach[c], 0,
                                 attach_len[c], L, wt, glocal, wbuf)
        inited[c] = 2
    elif first:
        n, total = refresh_moves(rec, cp_start, cp_list, f, mk, stamp, feat, src, s0, nsrc, True, attach[c], sproc,
                                 attach_len[c], L, wt, glocal, wbuf)
        inited[c] = skind
    else:
        n, total = refresh_moves(rec, cp_start, cp_list, f, mk, stamp, feat, L, 0, nlist[c], False, attach[c],
                                 processed[c], attach_len[c], L, wt, glocal, wbuf)
    processed[c] = attach_len[c]
    nlist[c] = n
    return n, total


def local_weights(local_gammas: np.ndarray | None = None) -> np.ndarray:
    """``glocal`` for :func:`refresh_moves`: the weight factor by feature sum, ``local_gammas[min(s, last)]``
    below 64 (all 1 without local points), 0 from 64 on (illegal moves)."""
    table = np.zeros(FEATURE_SUMS, dtype=np.float64)
    if local_gammas is None:
        table[:64] = 1.0
    else:
        table[:64] = local_gammas[np.minimum(np.arange(64), len(local_gammas) - 1)]
    return table


@njit(cache=True)
def play_to_end(tables, arrays, to_move, weights, uniform, scratch, rec_color, rec_move, rec_count):
    """Play to the end from ``arrays`` (mutated); return the number of plies.

    Keeps one legal-move list per color incrementally (:func:`turn_moves`: on a color's
    turn its old list is re-filtered and only the attach points created since are
    expanded).  Moves are drawn uniformly (``uniform``) or with probability
    proportional to ``weights[piece]``.  ``scratch`` is :func:`game_scratch`'s.  Ply ``i`` is recorded in ``rec_*[i]`` when
    they are long enough: color, placement (-1 = pass), number of legal placements.
    """
    feat, mark, lists, nlist, wbuf, marker, stamp, roots, mstamp, glocal = scratch
    forbidden = arrays.forbidden
    done = arrays.done
    nc = forbidden.shape[0]
    wt = np.empty(NUM_PIECES * 16, dtype=np.float64)
    for k in range(wt.shape[0]):
        wt[k] = 1.0 if uniform else weights[k >> 4]
    mark_value = next_stamp(mark, mstamp)
    inited = np.zeros(nc, dtype=np.int32)
    processed = np.zeros(nc, dtype=np.int32)
    root_moves(tables, arrays, marker, stamp, roots)
    plies = 0
    c = to_move
    while c >= 0:
        L = lists[c]
        set_features(forbidden[c], arrays.left[c], feat)
        start = (roots[0][c], 0, roots[1][c], roots[2][c], roots[3][c])
        n, total = turn_moves(c, tables, arrays, feat, mark, mark_value, lists, nlist, inited, processed, start, wt,
                              glocal, wbuf)
        if plies < rec_color.shape[0]:
            rec_color[plies] = c
            rec_count[plies] = n
        if n == 0:
            done[c] = 1
            if plies < rec_color.shape[0]:
                rec_move[plies] = -1
        else:
            m = L[np.random.randint(0, n)] if uniform else draw(L, wbuf, n, total)
            place(c, m, tables, arrays)
            if plies < rec_color.shape[0]:
                rec_move[plies] = m
        plies += 1
        c = next_color(c, done)
    return plies


@hot_inline
def draw(moves, wbuf, n, total):
    """A move of ``moves[:n]`` drawn with probability its weight / ``total`` (one random number);
    ``wbuf[:n]`` holds the running sums of the weights (a binary search finds the first above the draw)."""
    r = np.random.random() * total
    lo = 0
    hi = n - 1
    while lo < hi:
        mid = (lo + hi) >> 1
        if wbuf[mid] > r:
            hi = mid
        else:
            lo = mid + 1
    return moves[lo]


@njit(cache=True)
def seed_rng(seed):
    np.random.seed(seed)


@njit(cache=True)
def game_scratch(tables, nc, area):
    """The work arrays :func:`play_to_end` needs (shared by a series of games on one board).

    (feature grid, per-color move marks, per-color move lists, list lengths, weights of one list,
    stamp marker of :func:`gen_moves` and its stamp, the start lists of :func:`root_moves`, the
    last mark value (:func:`next_stamp`), the weight factors by feature sum without local points).
    """
    n_pl = tables.pl_piece.shape[0]
    roots = (np.empty((nc, n_pl), dtype=np.int32), np.zeros(nc, dtype=np.int32), np.zeros(nc, dtype=np.int32),
             np.zeros(nc, dtype=np.int32))
    glocal = np.zeros(FEATURE_SUMS, dtype=np.float64)
    glocal[:64] = 1.0  # local_weights() without local points
    return (np.zeros(feature_size(area), dtype=np.uint8), np.zeros((nc, n_pl), dtype=np.uint8),
            np.empty((nc, n_pl), dtype=np.int32), np.zeros(nc, dtype=np.int32), np.empty(n_pl, dtype=np.float64),
            np.zeros(n_pl, dtype=np.int32), np.zeros(1, dtype=np.int64), roots, np.zeros(1, dtype=np.int64), glocal)


@njit(cache=True)
def _play_copy(tables, init_arrays, weights, uniform, scratch, piece_sizes, monomino, scores_out):
    """Play one game on a copy of the initial arrays, its color scores into ``scores_out``; return its plies."""
    a = init_arrays
    arrays = BlokusArrays(a.forbidden.copy(), a.is_attach.copy(), a.attach.copy(), a.attach_len.copy(), a.starts,
                          a.nstarts, a.left.copy(), a.placed.copy(), a.last_piece.copy(), a.done.copy())
    none = np.empty(0, dtype=np.int32)
    nplies = play_to_end(tables, arrays, 0, weights, uniform, scratch, none, none, none)
    for c in range(scores_out.shape[0]):
        scores_out[c] = color_score(c, arrays.left, arrays.last_piece, piece_sizes, monomino)
    return nplies


@njit(cache=True)
def play_batch(tables, init_arrays, games, seed, weights, uniform, piece_sizes, monomino):
    """Play ``games`` games from the initial arrays on one random stream; return their color scores and plies."""
    np.random.seed(seed)
    nc, area = init_arrays.forbidden.shape
    scratch = game_scratch(tables, nc, area)
    scores = np.zeros((games, nc), dtype=np.int32)
    plies = np.zeros(games, dtype=np.int32)
    for g in range(games):
        plies[g] = _play_copy(tables, init_arrays, weights, uniform, scratch, piece_sizes, monomino, scores[g])
    return scores, plies


@njit(cache=True)
def play_seeded(tables, init_arrays, seeds, weights, uniform, piece_sizes, monomino):
    """Play one game from the initial arrays per entry of ``seeds``, reseeding before each.

    Game ``g`` depends only on ``seeds[g]`` (not on the games before it), so a
    series cut into ranges gives the same games.  Returns color scores [games, colors].
    """
    nc, area = init_arrays.forbidden.shape
    scratch = game_scratch(tables, nc, area)
    scores = np.zeros((seeds.shape[0], nc), dtype=np.int32)
    for g in range(seeds.shape[0]):
        np.random.seed(seeds[g])
        _play_copy(tables, init_arrays, weights, uniform, scratch, piece_sizes, monomino, scores[g])
    return scores
