"""The split method for the coloured tetromino rectangle: shape tilings first, then their colourings.

Docs: ``docs/tetromino-count.md``; rules: ``docs/rules/blokus.md`` (the solitaire puzzle).

A coloured tiling is a **shape tiling** (the region tiled by ``colors`` copies of every shape, colours
ignored) together with a split of its pieces into ``colors`` **colour classes**, each holding one
piece of every shape.  Colour classes are indexed by their piece of the first shape (the I), so a split
is a tiling *modulo colour permutation* (what the canonical search of
:mod:`solvers.blokus.tetromino_search` counts); raw = that × colors!.

* **Shape tilings** (:func:`_split_search`): a compiled first-empty-cell search over geometric
  placements (two 64-bit words per mask, placements bucketed by their first cell, a count left per
  shape), with sound cuts: after each placement, every empty pocket it closes off (flood fill from its
  empty edge neighbours, stopped once a pocket is larger than ``hole_limit``) must have a size that the
  pieces can fill (a multiple of the common piece area; a pocket of exactly one piece's area must be
  one placement of a shape still left), and the checkerboard balance must stay reachable: every
  tetromino but the T covers 2+2 cells of the two colours, a T 3+1, so the empty cells' imbalance D
  must satisfy |D| ≤ 2·(Ts left) and D ≡ 2·(Ts left) mod 4 (generally: the shapes' imbalances, any signs).
  Optional **colour cuts** (:func:`_colour_step`: the placed pieces must admit a partial colouring, on by
  default with the corner rule, where almost no shape tiling has a colouring; :func:`_adjacent_ok`: a piece
  next to every copy of another shape) and the **symmetry reduction** of the first placements (one kept
  shape tiling per orbit, weighted by the orbit's size: :meth:`SplitSearch._anchor_tables`).
* **Colourings of one shape tiling** (at each leaf): an exact cover of the pieces by *independent
  transversals* (one piece per shape, with the edge rule pairwise not edge-adjacent; with the corner
  rule each piece also touching another piece of its class at a corner-only cell, the direct search's
  ``corner_cells`` semantics).  A small DFS over (class, shape) with piece bitmasks: microseconds.
* **Symmetry** by Burnside, as the canonical search: for each symmetry g of the region that maps the
  shape tiling onto itself (a piece permutation π), the colourings with π mapping classes to classes
  add to ``fix_any``, those with every class mapped to itself to ``fix_id``; the identity adds the
  colouring count to both.  Then orbits under G (colours kept) = colors!·Σfix_id/|G| and orbits under
  G × colours = Σfix_any/|G| (:meth:`~solvers.blokus.tetromino_search.TetrominoSearch.orbit_counts`).

Parts: every state with ``depth`` shape placements (first-empty-cell order) that passes the cuts is one
independent part (:meth:`SplitSearch.split`); a part's record is (colourings, fix_any, fix_id,
shape tilings, nodes).
"""

from __future__ import annotations

import itertools
import math
import mmap
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np
from numba import njit

from puzzles.polyomino import Cell
from solvers.blokus.tetromino_search import SPLIT_MEMORY_BUDGET, part_bytes
from solvers.interrupt import INTERRUPTED, TIME_LIMIT, new_flag, run_polling

# stats slots of the kernel
COLOURINGS, FIX_ANY, FIX_ID, TILINGS, NODES, STOPPED, PREFIXES, COLOURED, CUT_COLOUR, CUT_ANCHOR, CSP_NODES = range(11)
N_STATS = 11
CUT_OFF, CUT_PARTIAL, CUT_ADJACENT = 0, 1, 2  # colour cuts: none, partial colourings (_colour_step), adjacency only
CSP_LIMIT = 20_000  # colour-search nodes per feasibility test; past it the state is kept (sound, no witness)
HOLE_LIMIT = 0  # pockets up to this many cells are checked after each placement (0: off; it cost more than it
# saved on 10x8: 31.7 M nodes in 2.6 CPU-s without, 22.3 M in 3.3 CPU-s at 3, bench/tetromino_split.py)
CORNER_HOLE_LIMIT = 4  # with the partial-colouring cut (corner rule) it pays: 10x8 77.4 M nodes in 36.0 CPU-s
# instead of 85.5 M in 44.1, 9x9 minus the centre 30.0 M in 12.5 instead of 33.5 M in 15.0
MAX_PIECES = 64  # pieces of a tiling as bits of one uint64


@njit(cache=True)
def _bit(lo, hi, c):
    """Whether cell ``c`` is set in the two-word mask."""
    if c < 64:
        return (lo >> np.uint64(c)) & np.uint64(1)
    return (hi >> np.uint64(c - 64)) & np.uint64(1)


@njit(cache=True)
def _first_empty(c, board_lo, board_hi, n_cells):
    """The first cell at or after ``c`` not on the board (``n_cells`` if none)."""
    while c < n_cells and _bit(board_lo, board_hi, c):
        c += 1
    return c


@njit(cache=True)
def _pocket_ok(  # noqa: C901
        t, board_lo, board_hi, nbr_cells, nbr_count, cell_nb, mark, stamp, comp, hole_limit, area,
               min_area, m_lo, m_hi, g_shape, bucket, left):
    """False when placing option ``t`` (already on the board) closed off an empty pocket the pieces left cannot
    fill: flood fill from each empty edge neighbour of ``t``, abandoned once larger than ``hole_limit``.

    ``mark[c] == stamp``: cell c was reached in this call; ``mark[n + c] == stamp`` (n cells): its pocket was
    found open (a later flood that reaches it is open too, not closed by the marks)."""
    n_cells = cell_nb.shape[0]
    for i in range(nbr_count[t]):
        seed = nbr_cells[t, i]
        if mark[seed] == stamp or _bit(board_lo, board_hi, seed):
            continue
        mark[seed] = stamp
        comp[0] = seed
        size = 1
        head = 0
        is_open = False
        while head < size and not is_open:
            x = comp[head]
            head += 1
            for d in range(4):
                y = cell_nb[x, d]
                if y < 0 or _bit(board_lo, board_hi, y):
                    continue
                if mark[y] == stamp:
                    if mark[y + n_cells] == stamp:  # part of a pocket already found open
                        is_open = True
                        break
                    continue
                if size == hole_limit:
                    is_open = True
                    break
                mark[y] = stamp
                comp[size] = y
                size += 1
        if is_open:  # remember its cells as open, so another seed reaching them knows
            for j in range(size):
                mark[comp[j] + n_cells] = stamp
            continue
        if size < min_area or (area > 0 and size % area != 0):
            return False
        if area > 0 and size == area:  # one piece must fill it exactly: a placement of a shape still left
            lo = np.uint64(0)
            hi = np.uint64(0)
            first = comp[0]
            for j in range(size):
                x = comp[j]
                if x < first:
                    first = x
                if x < 64:
                    lo |= np.uint64(1) << np.uint64(x)
                else:
                    hi |= np.uint64(1) << np.uint64(x - 64)
            fits = False
            for u in range(bucket[first], bucket[first + 1]):
                if m_lo[u] == lo and m_hi[u] == hi and left[g_shape[u]] > 0:
                    fits = True
                    break
            if not fits:
                return False
    return True


@njit(cache=True)
def _parity_ok(imbalance, left, shape_bal, step):
    """Whether the empty cells' checkerboard imbalance can still be met by the pieces left (each shape's
    imbalance with either sign); ``step`` = 2·gcd of the non-zero shape imbalances (0: none)."""
    reach = 0
    for s in range(left.shape[0]):
        reach += shape_bal[s] * left[s]
    if imbalance < 0:
        imbalance = -imbalance
    if imbalance > reach:
        return False
    if step > 0 and (reach - imbalance) % step != 0:
        return False
    return step > 0 or imbalance == 0


DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)  # de Bruijn sequence: (bit * DEBRUIJN) >> 58 differs for each single bit
DEBRUIJN_INDEX = np.zeros(64, np.int64)
for _i in range(64):
    DEBRUIJN_INDEX[((1 << _i) * 0x03F79D71B4CB0A89 % (1 << 64)) >> 58] = _i


def _permutation_tables() -> tuple[np.ndarray, np.ndarray]:
    """Tables of the colourings' permutation count (:func:`_colourings_by_permutations`), 4 copies a shape.

    ``PERM_AVOIDS[pattern]``: bit k set when permutation k (``itertools.permutations(range(4))`` order, i -> P_k(i))
    avoids the 4x4 bit pattern (bit 4i+j: piece i of one shape touches piece j of another), i.e. no i with bit
    4i+P_k(i).  ``RIGHT_COMPOSE[b, byte, v]``: the set {pi o P_b : pi in the byte's 8 permutations set in v}, so the
    24-bit set ``m`` right-composed with P_b is the OR over its three bytes."""
    perms = list(itertools.permutations(range(4)))
    index = {p: k for k, p in enumerate(perms)}
    patterns = np.arange(1 << 16, dtype=np.int64)
    avoids = np.zeros(1 << 16, np.uint64)
    for k, perm in enumerate(perms):
        bits = sum(1 << (4 * i + perm[i]) for i in range(4))
        avoids |= ((patterns & bits) == 0).astype(np.uint64) << np.uint64(k)
    values = np.arange(256, dtype=np.int64)
    compose = np.zeros((len(perms), 3, 256), np.uint64)
    for b, right in enumerate(perms):
        for k, left in enumerate(perms):
            image = index[tuple(left[right[c]] for c in range(4))]
            compose[b, k // 8] |= ((values >> (k % 8)) & 1).astype(np.uint64) << np.uint64(image)
    return avoids, compose


PERM_AVOIDS, RIGHT_COMPOSE = _permutation_tables()


@njit(cache=True)
def _low_index(bit):
    """The index of the single set bit of ``bit`` (a de Bruijn multiply, no loop)."""
    return DEBRUIJN_INDEX[(bit * DEBRUIJN) >> np.uint64(58)]


@njit(cache=True)
def _class_ok(members, cor):
    """Corner rule for one class (bitmask of pieces): each piece touches another of the class at a corner."""
    m = members
    while m:
        low = m & (~m + np.uint64(1))
        if (cor[_low_index(low)] & (members ^ low)) == 0:
            return False
        m ^= low
    return True


@njit(cache=True)
def _transversals(a, n_shapes, by_shape, shape_mask, adj, cor, edge_rule, corner_rule, trans, stack_m, stack_c):
    """Every valid class of the shape-0 piece ``a`` (one piece per shape, pairwise not edge-adjacent with the edge
    rule, corner contacts with the corner rule) into ``trans[a]`` as piece bitmasks; returns how many."""
    p0 = by_shape[0, a]
    n = 0
    stack_m[0] = np.uint64(1) << np.uint64(p0)
    stack_c[1] = shape_mask[1] & ~adj[p0] if edge_rule else shape_mask[1]
    s = 1
    while s >= 1:
        cand = stack_c[s]
        if cand == 0:
            s -= 1
            continue
        low = cand & (~cand + np.uint64(1))
        stack_c[s] = cand ^ low
        members = stack_m[s - 1] | low
        if s == n_shapes - 1:
            if not corner_rule or _class_ok(members, cor):
                trans[a, n] = members
                n += 1
            continue
        stack_m[s] = members
        nxt = shape_mask[s + 1]
        if edge_rule:
            m = members
            while m:
                b = m & (~m + np.uint64(1))
                nxt &= ~adj[_low_index(b)]
                m ^= b
        stack_c[s + 1] = nxt
        s += 1
    return n


@njit(cache=True)
def _right_compose(b, mask):
    """The permutation set ``mask`` (24 bits) each composed with permutation ``b`` on the right (see
    :data:`RIGHT_COMPOSE`)."""
    return (RIGHT_COMPOSE[b, 0, mask & np.uint64(255)] | RIGHT_COMPOSE[b, 1, (mask >> np.uint64(8)) & np.uint64(255)]
            | RIGHT_COMPOSE[b, 2, mask >> np.uint64(16)])


@njit(cache=True)
def _colourings_by_permutations(n_shapes, by_shape, adj_k, ok, cand, rest, order):  # noqa: C901
    """Colourings of one shape tiling, 4 copies a shape, edge rule only: the count of permutation tuples.

    Class c holds the shape-0 piece c; shape s gives it its piece sigma_s(c), a permutation of the 4 copies.  Two
    shapes' permutations agree when no class gets touching pieces: with sigma_s fixed, the sigma_t that agree are
    {pi o sigma_s : pi avoids the s-t touching pattern}, a 24-bit set (:data:`PERM_AVOIDS`, :func:`_right_compose`).
    A DFS over the other shapes, fewest permutations first, keeps each later shape's set; the last one's is
    counted.  ``adj_k[p]``: the pieces piece p touches, bit 4s + j for copy j of shape s.  ``ok``/``cand``/``rest``/
    ``order``: scratch (``ok[s, t]``: the permutations pi avoiding the s-t pattern; ``cand[d, t]``: shape t's set at
    depth d; ``order``: the shapes in DFS order)."""
    one = np.uint64(1)
    for s in range(n_shapes):
        for t in range(n_shapes):
            if s == t:
                continue
            pattern = np.uint64(0)
            for i in range(4):
                row = (adj_k[by_shape[s, i]] >> np.uint64(4 * t)) & np.uint64(15)
                pattern |= row << np.uint64(4 * i)
            ok[s, t] = PERM_AVOIDS[pattern]
    last = n_shapes - 1
    for t in range(1, n_shapes):
        cand[1, t] = ok[0, t]  # shape 0 is the identity: its pattern with t is sigma_t's own
        if cand[1, t] == 0:
            return 0
        order[t] = t  # insertion sort by the number of permutations left
        k = t
        while k > 1 and _popcount(cand[1, order[k - 1]]) > _popcount(cand[1, t]):
            order[k] = order[k - 1]
            k -= 1
        order[k] = t
    if last == 1:
        return _popcount(cand[1, 1])
    total = 0
    d = 1
    rest[1] = cand[1, order[1]]
    while d >= 1:
        if rest[d] == 0:
            d -= 1
            continue
        low = rest[d] & (~rest[d] + one)
        rest[d] ^= low
        sigma = _low_index(low)
        a = order[d]
        if d == last - 1:
            b = order[last]
            total += _popcount(cand[d, b] & _right_compose(sigma, ok[a, b]))
            continue
        alive = True
        for e in range(d + 1, n_shapes):
            b = order[e]
            c = cand[d, b] & _right_compose(sigma, ok[a, b])
            if c == 0:
                alive = False
                break
            cand[d + 1, b] = c
        if alive:
            d += 1
            rest[d] = cand[d, order[d]]
    return total


@njit(cache=True)
def _colourings(  # noqa: C901
        n_pieces, n_shapes, copies, by_shape, adj, cor, edge_rule, corner_rule, fix_pi, n_fix, out3, ws_u, ws_i, trans):
    """Colourings of one shape tiling modulo colour permutation (classes indexed by their shape-0 piece).

    ``by_shape[s, i]``: the i-th piece of shape s; ``adj``/``cor``: per piece, the bitmask of pieces it
    edge-touches / touches at a corner-only cell.  Each class's valid transversals are listed first (bit
    tricks), then disjoint picks are counted class by class, the last class being the pieces left (looked
    up in its list).  ``out3`` gets (colourings, fix_any extra, fix_id extra), the extras over the ``n_fix``
    piece permutations ``fix_pi`` (symmetries fixing the shape tiling), for Burnside."""
    out3[0] = 0
    out3[1] = 0
    out3[2] = 0
    per = n_shapes - 1
    if per == 0:
        out3[0] = 1
        return
    if not edge_rule and not corner_rule and n_fix == 0:  # every split into transversals: (copies!)^(shapes-1)
        ways = 1
        for x in range(2, copies + 1):
            ways *= x
        out3[0] = ways ** per
        return
    # scratch (no allocation per tiling): ws_u rows shape_mask, stack_m, stack_c, used; ws_i rows n_trans, pick,
    # sig, cls; trans the classes
    shape_mask = ws_u[0, :n_shapes]
    stack_m = ws_u[1, :n_shapes]
    stack_c = ws_u[2, :n_shapes + 1]
    used = ws_u[3, :copies + 1]
    n_trans = ws_i[0, :copies]
    for s in range(n_shapes):
        shape_mask[s] = np.uint64(0)
        for i in range(copies):
            shape_mask[s] |= np.uint64(1) << np.uint64(by_shape[s, i])
    for a in range(copies):
        n_trans[a] = _transversals(a, n_shapes, by_shape, shape_mask, adj, cor, edge_rule, corner_rule, trans,
                                   stack_m, stack_c)
        if n_trans[a] == 0:
            return
    all_mask = np.uint64(0)
    for s in range(n_shapes):
        all_mask |= shape_mask[s]
    pick = ws_i[1, :copies]
    used[0] = np.uint64(0)
    last = copies - 1
    sig = ws_i[2, :copies]
    cls = ws_i[3, :n_pieces]
    a = 0
    pick[0] = 0
    while a >= 0:
        if a == last:  # the pieces left must be one of the last class's transversals
            rest = all_mask & ~used[a]
            for j in range(n_trans[last]):
                if trans[last, j] == rest:
                    out3[0] += 1
                    if n_fix > 0:
                        for b in range(last):
                            _mark_class(trans[b, pick[b] - 1], b, cls)  # pick: the next one to try
                        _mark_class(rest, last, cls)
                        _fix_sums(n_pieces, copies, cls, fix_pi, n_fix, sig, out3)
                    break
            a -= 1
            continue
        j = pick[a]
        while j < n_trans[a] and (trans[a, j] & used[a]) != 0:
            j += 1
        if j == n_trans[a]:
            a -= 1
            continue
        pick[a] = j + 1
        used[a + 1] = used[a] | trans[a, j]
        a += 1
        if a < last:
            pick[a] = 0


@njit(cache=True)
def _mark_class(members, a, cls):
    """cls[p] = a for the pieces of the class bitmask ``members``."""
    m = members
    while m:
        low = m & (~m + np.uint64(1))
        cls[_low_index(low)] = a
        m ^= low


@njit(cache=True)
def _fix_sums(n_pieces, copies, cls, fix_pi, n_fix, sig, out3):
    """Burnside: for each piece permutation in ``fix_pi``, whether it maps classes to classes (out3[1] += 1) and
    each class to itself (out3[2] += 1)."""
    for f in range(n_fix):
        for x in range(copies):
            sig[x] = -1
        same = True
        for p in range(n_pieces):
            ca = cls[p]
            cb = cls[fix_pi[f, p]]
            if sig[ca] < 0:
                sig[ca] = cb
            elif sig[ca] != cb:
                same = False
                break
        if same:
            out3[1] += 1
            ident = True
            for x in range(copies):
                if sig[x] != x:
                    ident = False
            if ident:
                out3[2] += 1


@njit(cache=True)
def _fixing_symmetries(n_pieces, n_cells, sym_perm, grid, fix_pi, pi):
    """How many of the symmetries ``sym_perm`` map the tiling on ``grid`` (piece per cell) onto itself; their piece
    permutations into ``fix_pi``'s first rows (``pi``: scratch)."""
    n_fix = 0
    for h in range(sym_perm.shape[0]):
        for p in range(n_pieces):
            pi[p] = -1
        same = True
        for cell in range(n_cells):
            a = grid[cell]
            b = grid[sym_perm[h, cell]]
            if pi[a] < 0:
                pi[a] = b
            elif pi[a] != b:
                same = False
                break
        if same:
            for p in range(n_pieces):
                fix_pi[n_fix, p] = pi[p]
            n_fix += 1
    return n_fix


@njit(cache=True)
def _leaf(  # noqa: C901
        level, st_g, m_lo, m_hi, e_lo, e_hi, k_lo, k_hi, g_shape, g_cells, g_size, n_cells, n_shapes, copies,
          edge_rule, corner_rule, sym_perm, grid, by_shape, fill, adj, cor, fix_pi, pi, out3, ws_u, ws_i, trans,
          nbr_cells, nbr_count):
    """The colour classes of the complete shape tiling ``st_g[:level]``: (colourings, fix extras) in ``out3``.

    With 4 copies a shape, the edge rule only and no symmetry fixing the tiling (nearly every leaf of the seed
    rule's count), the permutation count (:func:`_colourings_by_permutations`) over touching read off the pieces'
    grid; otherwise the transversals' exact cover (:func:`_colourings`)."""
    n_pieces = level
    kidx = ws_i[4, :n_pieces]  # piece p is copy j of shape s: 4s + j (the permutation count's index)
    for s in range(n_shapes):
        fill[s] = 0
    for p in range(n_pieces):
        u = st_g[p]
        s = g_shape[u]
        by_shape[s, fill[s]] = p
        kidx[p] = s * copies + fill[s]
        fill[s] += 1
        for i in range(g_size[u]):
            grid[g_cells[u, i]] = p
    n_fix = _fixing_symmetries(n_pieces, n_cells, sym_perm, grid, fix_pi, pi)
    if copies == 4 and edge_rule and not corner_rule and n_fix == 0:
        one = np.uint64(1)
        for p in range(n_pieces):  # adj[p] here by (shape, copy) index: what p's edge neighbour cells hold
            u = st_g[p]
            a = np.uint64(0)
            for i in range(nbr_count[u]):
                a |= one << np.uint64(kidx[grid[nbr_cells[u, i]]])
            adj[p] = a
        ok, cand, rest, order = _permutation_scratch(ws_u, ws_i, n_shapes)
        out3[0] = _colourings_by_permutations(n_shapes, by_shape, adj, ok, cand, rest, order)
        out3[1] = 0
        out3[2] = 0
        return
    for p in range(n_pieces):
        adj[p] = np.uint64(0)
        cor[p] = np.uint64(0)
    for p in range(n_pieces):
        u = st_g[p]
        for q in range(p + 1, n_pieces):
            v = st_g[q]
            if (e_lo[u] & m_lo[v]) or (e_hi[u] & m_hi[v]):
                adj[p] |= np.uint64(1) << np.uint64(q)
                adj[q] |= np.uint64(1) << np.uint64(p)
            if corner_rule:
                if (k_lo[u] & m_lo[v]) or (k_hi[u] & m_hi[v]):
                    cor[p] |= np.uint64(1) << np.uint64(q)
                if (k_lo[v] & m_lo[u]) or (k_hi[v] & m_hi[u]):
                    cor[q] |= np.uint64(1) << np.uint64(p)
    _colourings(n_pieces, n_shapes, copies, by_shape, adj, cor, edge_rule, corner_rule, fix_pi, n_fix, out3, ws_u, ws_i,
                trans)


@njit(cache=True)
def _high_index(x):
    """The index of the highest set bit of a non-zero ``x``."""
    p = 0
    while x > np.uint64(1):
        x >>= np.uint64(1)
        p += 1
    return p


@njit(cache=True)
def _colour_step(  # noqa: C901
        level, st_g, board_lo, board_hi, m_lo, m_hi, e_lo, e_hi, k_lo, k_hi, g_shape, n_shapes, colors, edge_rule,
        corner_rule, adjm, partners, closed_m, wit, has_wit, col, mu, checks, smask, adjfull, lastp, conf, owner, mode, stats):
    """The colour-feasibility cut after placing piece ``level`` (option ``st_g[level]``): False when the pieces
    placed admit no partial colouring, so no colouring of any tiling extending them exists.

    A partial colouring gives every placed piece one of ``colors`` colours (canonical: a new colour is the
    lowest unused), pieces of one shape distinct colours, with the edge rule edge-adjacent pieces distinct
    colours, and with the corner rule every *closed* piece (all its corner-only cells filled, so its possible
    partners are all placed) a partner of its colour: a piece of another shape in one of those cells, not
    edge-adjacent to it.  Sound: any colouring of a tiling through this state, renamed canonically, is one.

    Found by a DFS over the pieces in placement order, resumed from ``wit[level - 1]``, the lexicographically
    first partial colouring of the state before (every partial colouring now extends one of then, so none
    comes before it: the search stays complete and usually ends at once).  Past ``CSP_LIMIT`` nodes it gives
    up (True, no witness: the next test starts from scratch).  Updates ``adjm[level]`` (edge-adjacent earlier
    pieces), ``partners``/``closed_m[level + 1]`` (the closed pieces) and ``wit[level]``/``has_wit[level]``."""
    u = st_g[level]
    one = np.uint64(1)
    a = np.uint64(0)
    for q in range(level):
        v = st_g[q]
        if (e_lo[u] & m_lo[v]) or (e_hi[u] & m_hi[v]):
            a |= one << np.uint64(q)
    adjm[level] = a
    if mode == CUT_ADJACENT:
        return _adjacent_ok(level, a, st_g, g_shape, n_shapes, colors, smask, adjfull)
    closed = closed_m[level]
    new = np.uint64(0)
    if corner_rule:
        for p in range(level + 1):
            bp = one << np.uint64(p)
            if closed & bp:
                continue
            v = st_g[p]
            if p < level and not ((k_lo[v] & m_lo[u]) or (k_hi[v] & m_hi[u])):
                continue  # its corner cells did not change
            if (k_lo[v] & ~board_lo) or (k_hi[v] & ~board_hi):
                continue  # still open
            pm = np.uint64(0)
            for q in range(level + 1):
                w = st_g[q]
                if q == p or g_shape[w] == g_shape[v]:
                    continue
                if not ((k_lo[v] & m_lo[w]) or (k_hi[v] & m_hi[w])):
                    continue
                if edge_rule and ((e_lo[v] & m_lo[w]) or (e_hi[v] & m_hi[w])):
                    continue
                pm |= one << np.uint64(q)
            if pm == 0:
                closed_m[level + 1] = closed
                has_wit[level] = 0
                return False
            partners[p] = pm
            lastp[p] = max(p, _high_index(pm))
            new |= bp
    closed |= new
    closed_m[level + 1] = closed
    n = level + 1
    for s in range(n_shapes):
        smask[s] = np.uint64(0)
    for q in range(n):
        smask[g_shape[st_g[q]]] |= one << np.uint64(q)
        checks[q] = np.uint64(0)
    m = closed
    while m:
        low = m & (~m + one)
        checks[lastp[_low_index(low)]] |= low
        m ^= low
    # where to resume: the witness of the state before, up to the first index whose checks it fails
    start = 0
    col[0] = -1
    mu[0] = 0
    if level > 0 and has_wit[level - 1]:
        start = level
        for q in range(level):
            col[q] = wit[level - 1, q]
        fail = level
        m = new
        while m:
            low = m & (~m + one)
            p = _low_index(low)
            if not _partner_ok(p, partners, col) and lastp[p] < fail:
                fail = lastp[p]
            m ^= low
        start = fail
        for q in range(start + 1):
            mu[q] = 0 if q == 0 else max(mu[q - 1], col[q - 1] + 1)
        if start == level:
            col[level] = -1
    # conflict-directed backjumping: conf[i] = earlier pieces whose colours ruled out the values tried at i;
    # the pieces up to the resume point also had the values before the witness's ruled out, by all before them
    for q in range(start + 1):
        conf[q] = (one << np.uint64(q)) - one
    if start == level and col[level] < 0:
        conf[level] = np.uint64(0)
    i = start
    nodes = 0
    while True:
        nodes += 1
        if nodes > CSP_LIMIT:
            stats[CSP_NODES] += nodes
            has_wit[level] = 0
            return True
        bi = one << np.uint64(i)
        below = bi - one
        near = smask[g_shape[st_g[i]]] & below
        if edge_rule:
            near |= adjm[i] & below
        forb = 0
        while near:
            low = near & (~near + one)
            q = _low_index(low)
            forb |= 1 << col[q]
            owner[col[q]] = q
            near ^= low
        lim = min(mu[i] + 1, colors)
        c = col[i] + 1
        found = False
        while c < lim:
            if (forb >> c) & 1:
                conf[i] |= one << np.uint64(owner[c])
            else:
                col[i] = c
                ok = True
                chk = checks[i]
                while chk:
                    low = chk & (~chk + one)
                    p = _low_index(low)
                    if not _partner_ok(p, partners, col):
                        conf[i] |= (partners[p] | low) & below
                        ok = False
                        break
                    chk ^= low
                if ok:
                    found = True
                    break
            c += 1
        if not found:
            if conf[i] == 0:
                break
            h = _high_index(conf[i])
            conf[h] |= conf[i] & ((one << np.uint64(h)) - one)
            for q in range(h + 1, i + 1):
                col[q] = -1
            i = h
            continue
        if i == level:
            stats[CSP_NODES] += nodes
            for q in range(n):
                wit[level, q] = col[q]
            has_wit[level] = 1
            return True
        mu[i + 1] = max(mu[i], c + 1)
        i += 1
        col[i] = -1
        conf[i] = np.uint64(0)
    stats[CSP_NODES] += nodes
    has_wit[level] = 0
    return False


@njit(cache=True)
def _popcount(x):
    """Set bits of ``x`` (a uint64; SWAR, no loop)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True)
def _adjacent_ok(level, a, st_g, g_shape, n_shapes, colors, smask, adjfull):
    """The cheap colour cut (edge rule): False when a placed piece is edge-adjacent to every copy of another
    shape (those copies take all the colours, so none is left for it).  Only pieces next to the new piece
    ``level`` (edge-adjacent earlier pieces ``a``) can have become so.  Keeps ``smask`` (pieces per shape) and
    ``adjfull`` (each piece's edge-adjacent pieces) for the pieces up to ``level``."""
    one = np.uint64(1)
    bl = one << np.uint64(level)
    below = bl - one
    for s in range(n_shapes):
        smask[s] &= below
    s_new = g_shape[st_g[level]]
    smask[s_new] |= bl
    for q in range(level):
        adjfull[q] &= below
    adjfull[level] = a
    for s in range(n_shapes):
        if s != s_new and _popcount(a & smask[s]) == colors:
            return False
    m = a
    while m:
        low = m & (~m + one)
        q = _low_index(low)
        adjfull[q] |= bl
        if g_shape[st_g[q]] != s_new and _popcount(adjfull[q] & smask[s_new]) == colors:
            return False
        m ^= low
    return True


@njit(cache=True)
def _partner_ok(p, partners, col):
    """Whether the closed piece ``p`` has a partner of its colour (all its partners coloured)."""
    m = partners[p]
    one = np.uint64(1)
    while m:
        low = m & (~m + one)
        if col[_low_index(low)] == col[p]:
            return True
        m ^= low
    return False


@njit(cache=True)
def _anchor_ok(t, add, anc_t, anc_cov, to_frame):
    """Symmetry reduction: record (``add``) or clear the anchors placement ``t`` covers; on adding, False when
    some anchor's piece, read in that anchor's frame, beats anchor 0's (then the tiling is not the kept one)."""
    cov = anc_cov[t]
    if cov == 0:
        return True
    k = 0
    while cov:
        if cov & 1:
            anc_t[k] = t if add else -1
        cov >>= 1
        k += 1
    if not add or anc_t[0] < 0:
        return True
    s0 = anc_t[0]
    for k in range(1, anc_t.shape[0]):  # noqa: SIM110 (numba-compiled)
        if anc_t[k] >= 0 and to_frame[k, anc_t[k]] > s0:
            return False
    return True


@njit(cache=True)
def _anchor_weight(anc_t, to_frame, st_g, n_pieces):
    """The weight of a complete tiling under the symmetry reduction: 0 when it is not its orbit's kept tiling,
    else |G| / |its stabiliser|; 1 without reduction.  Anchors tying anchor 0's signature are resolved by
    the whole tiling read in their frame (sorted placement numbers, lexicographic), so each orbit keeps
    exactly one tiling, the one whose (anchor-0 signature, placement numbers) is largest."""
    n = anc_t.shape[0]
    if n == 0:
        return 1
    stab = 1
    tied = False
    for k in range(1, n):  # noqa: SIM110 (numba-compiled)
        if to_frame[k, anc_t[k]] == anc_t[0]:
            tied = True
            break
    if not tied:  # (most leaves: no sort needed)
        return n
    own = np.sort(st_g[:n_pieces])
    other = np.empty(n_pieces, np.int64)
    for k in range(1, n):
        if to_frame[k, anc_t[k]] != anc_t[0]:
            continue
        for i in range(n_pieces):
            other[i] = to_frame[k, st_g[i]]
        other.sort()
        cmp = 0
        for i in range(n_pieces):
            if other[i] != own[i]:
                cmp = 1 if other[i] > own[i] else -1
                break
        if cmp > 0:
            return 0
        if cmp == 0:
            stab += 1
    return n // stab


@njit(cache=True)
def _bound(anc_t, anc_rank):
    """(s0, its code) for the guide: anchor 0's placement and 1 + its rank among the placements covering
    anchor 0, or (-1, 0) without the symmetry reduction or before anchor 0 is placed."""
    if anc_t.shape[0] == 0 or anc_t[0] < 0:
        return -1, 0
    return anc_t[0], anc_rank[anc_t[0]]


# --- the shape-tiling guide: a memo of "how many shape tilings complete this state" --------------------------
# A state of the first-empty-cell search is (q = the first empty cell, the occupancy of q .. q+F-1, the copies
# left per shape): every cell before q is filled and none after the window (no placement reaches past its
# first cell + F - 1).  Its completions are counted once, by an explicit-stack search that looks every state
# up in the memo (the shape-tiling DP of tetromino_dp, done lazily), so the split search never enters a
# subtree without a shape tiling: its dead ends cost one lookup each.
GUIDE_FLOOR = 3  # placements leaving at most this many pieces are not looked up (a plain search is cheaper there)
GUIDE_MAX_SLOTS_LOG2 = 26  # memo slots (16 bytes each) at most: 1 GiB (10x8 has ~27 M states per anchor bound)
# A memo row's value: completions + 1 in the low bits, then the state's live placements (bit i: the i-th placement
# at its first empty cell leaves a state with completions), so a search at the state skips the others unlooked-up.
GUIDE_COUNT_BITS = 40
GUIDE_COUNT_MASK = np.uint64((1 << GUIDE_COUNT_BITS) - 1)
GUIDE_MAX_BUCKET = 64 - GUIDE_COUNT_BITS  # placements per first cell that the live mask holds


@njit(cache=True)
def _window(lo, hi, q, width):
    """The occupancy bits of cells ``q .. q+width-1`` of the two-word board (``width`` < 64)."""
    if q >= 64:
        w = hi >> np.uint64(q - 64)
    elif q == 0:
        w = lo
    else:
        w = (lo >> np.uint64(q)) | (hi << np.uint64(64 - q))
    return w & ((np.uint64(1) << np.uint64(width)) - np.uint64(1))


@njit(cache=True)
def _guide_key(q, lo, hi, left, width, count_bits, bound):
    """The state's key: window bits, then q (7 bits), the copies left per shape, the anchor bound's code."""
    key = _window(lo, hi, q, width) | (np.uint64(q) << np.uint64(width))
    shift = width + 7
    for s in range(left.shape[0]):
        key |= np.uint64(left[s]) << np.uint64(shift)
        shift += count_bits
    return key | (np.uint64(bound) << np.uint64(shift))


@njit(cache=True)
def _beats_bound(t, s0, anc_cov, to_frame):
    """Whether placement ``t`` covers an anchor k > 0 whose signature (t read in anchor 0's frame) beats
    anchor 0's ``s0``: then no tiling through it is kept by the symmetry reduction."""
    cov = anc_cov[t] >> 1
    k = 1
    while cov:
        if (cov & 1) and to_frame[k, t] > s0:
            return True
        cov >>= 1
        k += 1
    return False


@njit(cache=True)
def _guide_home(memo, key):
    """The key's first row in the memo (where linear probing starts)."""
    h = key * np.uint64(0x9E3779B97F4A7C15)
    h ^= h >> np.uint64(29)
    return np.int64(h & np.uint64(memo.shape[0] - 1))


@njit(cache=True)
def _guide_slot(memo, key):
    """The key's row in the memo (rows: key, value; 0 = empty): where it is, or the empty row where it would go
    (linear probing)."""
    mask = np.int64(memo.shape[0] - 1)
    i = _guide_home(memo, key)
    while memo[i, 1] != 0 and memo[i, 0] != key:
        i = (i + 1) & mask
    return i


@njit(cache=True)
def _guide_get(memo, key):
    """The value remembered for ``key`` (completions + 1, live mask above: :data:`GUIDE_COUNT_BITS`), 0 if none."""
    return memo[_guide_slot(memo, key), 1]


@njit(cache=True)
def _guide_count(value):
    """The completions of a remembered value, or -1 for none."""
    return np.int64(value & GUIDE_COUNT_MASK) - 1 if value != 0 else np.int64(-1)


@njit(cache=True)
def _guide_store(memo, fill, key, value, live):
    """Remember ``value`` completions and the ``live`` mask for ``key``; a memo at its load limit (3/4) is emptied
    first (it is only a cache: a state forgotten is counted again, through the states stored after it).  Parts come
    in the order of their first placement, which is anchor 0's, so the states of earlier anchor bounds are the ones
    lost."""
    if value + 1 > np.int64(GUIDE_COUNT_MASK):
        raise OverflowError("a state's shape-tiling completions overflow the guide's count field")
    if fill[0] * 4 >= memo.shape[0] * 3:
        memo[:, :] = 0
        fill[0] = 0
        fill[1] += 1
    i = _guide_slot(memo, key)
    if memo[i, 1] == 0:
        fill[0] += 1
    memo[i, 0] = key
    memo[i, 1] = np.uint64(value + 1) | (live << np.uint64(GUIDE_COUNT_BITS))


@njit(cache=True)
def _completions(q0, lo, hi, left, m_lo, m_hi, g_shape, bucket, n_cells, width, count_bits,  # noqa: C901
                 memo, fill, st_q, st_t, st_g, st_key, st_sum, st_live, s0, bound, anc_cov, to_frame, live_out, flag):
    """How many shape tilings fill the empty cells of the state (first empty cell ``q0``, board, copies
    ``left``); memoised.  With the symmetry reduction and anchor 0 placed (``s0`` >= 0, ``bound`` its code
    > 0), only tilings whose anchors k > 0 do not beat ``s0`` (the others are never kept).  ``left`` is
    restored on return; the ``st_*`` arrays are scratch (one slot a level).  ``live_out[0]``: the state's live mask
    (bit i: placement ``bucket[q0] + i`` leads to completions).  -1 when the interrupt ``flag`` (read on entry and
    every 16 steps: a cold memo can take seconds, each step may first touch a page of the memo, which took
    milliseconds on this machine, and the search calls this at every node, so thousands of short calls pass between
    its own polls) stopped it; the states finished before are kept."""
    live_out[0] = 0
    if flag[0] != 0:
        return np.int64(-1)
    if q0 >= n_cells:
        return np.int64(1)
    key = _guide_key(q0, lo, hi, left, width, count_bits, bound)
    value = _guide_get(memo, key)
    if value != 0:
        live_out[0] = value >> np.uint64(GUIDE_COUNT_BITS)
        return _guide_count(value)
    level = 0
    st_q[0] = q0
    st_t[0] = bucket[q0]
    st_key[0] = key
    st_sum[0] = 0
    st_live[0] = 0
    steps = 0
    while True:
        steps += 1
        if (steps & 15) == 0 and flag[0] != 0:  # often: a step may fault in a fresh page of the memo (ms here)
            while level > 0:  # put the board and the copies back as they came
                level -= 1
                u = st_g[level]
                lo ^= m_lo[u]
                hi ^= m_hi[u]
                left[g_shape[u]] += 1
            return np.int64(-1)
        q = st_q[level]
        t = st_t[level]
        end = bucket[q + 1]
        found = -1
        while t < end:
            if (left[g_shape[t]] > 0 and (m_lo[t] & lo) == 0 and (m_hi[t] & hi) == 0
                    and (bound == 0 or anc_cov[t] == 0 or not _beats_bound(t, s0, anc_cov, to_frame))):
                found = t
                break
            t += 1
        if found < 0:
            total = st_sum[level]
            _guide_store(memo, fill, st_key[level], total, st_live[level])
            if level == 0:
                live_out[0] = st_live[0]
                return total
            level -= 1
            u = st_g[level]
            lo ^= m_lo[u]
            hi ^= m_hi[u]
            left[g_shape[u]] += 1
            st_sum[level] += total
            if total > 0:
                st_live[level] |= np.uint64(1) << np.uint64(u - bucket[st_q[level]])
            continue
        st_t[level] = found + 1
        lo |= m_lo[found]
        hi |= m_hi[found]
        left[g_shape[found]] -= 1
        q2 = _first_empty(q + 1, lo, hi, n_cells)
        known = np.int64(1)
        key2 = np.uint64(0)
        if q2 < n_cells:
            key2 = _guide_key(q2, lo, hi, left, width, count_bits, bound)
            known = _guide_count(_guide_get(memo, key2))
        if known >= 0:
            st_sum[level] += known
            if known > 0:
                st_live[level] |= np.uint64(1) << np.uint64(found - bucket[q])
            lo ^= m_lo[found]
            hi ^= m_hi[found]
            left[g_shape[found]] += 1
            continue
        st_g[level] = found
        level += 1
        st_q[level] = q2
        st_t[level] = bucket[q2]
        st_key[level] = key2
        st_sum[level] = 0
        st_live[level] = 0


@njit(cache=True)
def _permutation_scratch(ws_u, ws_i, n_shapes):
    """The permutation count's scratch inside :func:`_colour_scratch`'s tables: (ok, cand, rest, order) for
    :func:`_colourings_by_permutations` (ws_u rows 4.., ws_i row 5; row 4 of ws_i is ``_leaf``'s piece index)."""
    base = 4 + n_shapes
    return (ws_u[4:base, :n_shapes], ws_u[base:base + n_shapes, :n_shapes], ws_u[base + n_shapes, :n_shapes],
            ws_i[5, :n_shapes])


@njit(cache=True)
def _colour_scratch(n_shapes, copies):
    """The colourings' scratch tables (see :func:`_colourings`), made once per search, not per tiling."""
    ws_u = np.zeros((4 + 2 * n_shapes + 1, max(n_shapes, copies) + 2), np.uint64)  # rows 4..: the permutation count's
    ws_i = np.zeros((6, max(copies * n_shapes, copies) + 1), np.int64)  # rows 4, 5: the permutation count's
    trans = np.empty((copies, copies ** max(n_shapes - 1, 0)), np.uint64)
    return ws_u, ws_i, trans


@njit(cache=True, nogil=True)
def _split_search(m_lo, m_hi, e_lo, e_hi, k_lo, k_hi, g_shape, g_cells, g_size, g_bal, bucket,  # noqa: C901
                  nbr_cells, nbr_count, cell_nb, n_cells, n_shapes, copies, shape_bal, step, area, min_area,
                  hole_limit, edge_rule, corner_rule, imbalance0, colour_cut, anc_cov, to_frame, sym_perm, pre_g,
                  split_depth, out_prefix, max_nodes, stats, flag, guide_floor, memo, memo_fill,
                  guide_width, guide_bits, anc_rank):
    """Every shape tiling extending the placements ``pre_g``, each with its colour-class counts.

    With a memo (``memo`` not empty) the search is guided: a placement that leaves more than ``guide_floor``
    pieces to place is kept only if some shape tiling completes it (:func:`_completions`).

    ``split_depth`` > 0: instead record every state with that many placements that passes the cuts into
    ``out_prefix`` (all counted in ``stats[PREFIXES]``, as many as fit stored).  ``max_nodes`` > 0 or a
    non-zero ``flag[0]`` (polled every 4,096 nodes) stop it: ``stats[STOPPED]`` = 1, the sums partial."""
    full_lo = np.uint64(0)
    full_hi = np.uint64(0)
    for c in range(n_cells):
        if c < 64:
            full_lo |= np.uint64(1) << np.uint64(c)
        else:
            full_hi |= np.uint64(1) << np.uint64(c - 64)
    n_pieces = copies * n_shapes
    max_level = n_pieces + 1
    left = np.full(n_shapes, copies, np.int64)
    st_cell = np.zeros(max_level, np.int64)
    st_t = np.zeros(max_level, np.int64)
    st_g = np.zeros(max_level, np.int64)
    mark = np.zeros(2 * n_cells, np.int64)
    comp = np.zeros(n_cells + 1, np.int64)
    grid = np.zeros(n_cells, np.int64)
    by_shape = np.zeros((n_shapes, copies), np.int64)
    fill = np.zeros(n_shapes, np.int64)
    adj = np.zeros(max_level, np.uint64)
    cor = np.zeros(max_level, np.uint64)
    fix_pi = np.zeros((sym_perm.shape[0] + 1, max_level), np.int64)
    pi = np.zeros(max_level, np.int64)
    out3 = np.zeros(3, np.int64)
    ws_u, ws_i, trans = _colour_scratch(n_shapes, copies)
    # the colour cut's state (see _colour_step) and the anchors' pieces (symmetry reduction)
    adjm = np.zeros(max_level, np.uint64)
    partners = np.zeros(max_level, np.uint64)
    closed_m = np.zeros(max_level + 1, np.uint64)
    wit = np.zeros((max_level, max_level), np.int64)
    has_wit = np.zeros(max_level, np.int64)
    col = np.zeros(max_level, np.int64)
    mu = np.zeros(max_level, np.int64)
    checks = np.zeros(max_level, np.uint64)
    smask = np.zeros(n_shapes, np.uint64)
    adjfull = np.zeros(max_level, np.uint64)
    lastp = np.zeros(max_level, np.int64)
    conf = np.zeros(max_level, np.uint64)
    owner = np.zeros(copies, np.int64)
    anc_t = np.full(to_frame.shape[0], -1, np.int64)
    board_lo = np.uint64(0)
    board_hi = np.uint64(0)
    imbalance = imbalance0
    n_pre = pre_g.shape[0]
    stamp = 0
    for lv in range(n_pre):
        g = pre_g[lv]
        if (m_lo[g] & board_lo) or (m_hi[g] & board_hi) or left[g_shape[g]] == 0:
            return
        board_lo |= m_lo[g]
        board_hi |= m_hi[g]
        left[g_shape[g]] -= 1
        imbalance -= g_bal[g]
        st_g[lv] = g
        if not _anchor_ok(g, True, anc_t, anc_cov, to_frame):
            return
        if colour_cut and not _colour_step(lv, st_g, board_lo, board_hi, m_lo, m_hi, e_lo, e_hi, k_lo, k_hi, g_shape,
                                           n_shapes, copies, edge_rule, corner_rule, adjm, partners, closed_m, wit,
                                           has_wit, col, mu, checks, smask, adjfull, lastp, conf, owner, colour_cut, stats):
            return
    guided = memo.shape[0] > 0
    g_q = np.zeros(max_level + 1, np.int64)
    g_t = np.zeros(max_level + 1, np.int64)
    g_g = np.zeros(max_level + 1, np.int64)
    g_key = np.zeros(max_level + 1, np.uint64)
    g_sum = np.zeros(max_level + 1, np.int64)
    g_live = np.zeros(max_level + 1, np.uint64)
    live_out = np.zeros(1, np.uint64)
    # the live mask of each level's state, where the guide gave one: placements off it lead to no shape tiling, so
    # they are passed over without a lookup (counted as nodes all the same, as the lookup that refused them was)
    st_live = np.zeros(max_level + 1, np.uint64)
    st_has_live = np.zeros(max_level + 1, np.bool_)
    s0, bcode = _bound(anc_t, anc_rank)
    if guided:
        if _completions(_first_empty(0, board_lo, board_hi, n_cells), board_lo, board_hi, left, m_lo, m_hi, g_shape,
                        bucket, n_cells, guide_width, guide_bits, memo, memo_fill, g_q, g_t, g_g, g_key, g_sum, g_live,
                        s0, bcode, anc_cov, to_frame, live_out, flag) <= 0:
            stats[STOPPED] = 1 if flag[0] != 0 else 0
            return
        st_live[n_pre] = live_out[0]
        st_has_live[n_pre] = True
    if board_lo == full_lo and board_hi == full_hi:
        if split_depth > 0:
            stats[PREFIXES] = 0  # (a prefix that tiles the region is no part; cannot happen with depth < pieces)
            return
        w = _anchor_weight(anc_t, to_frame, st_g, n_pre)
        if w == 0:
            return
        _leaf(n_pre, st_g, m_lo, m_hi, e_lo, e_hi, k_lo, k_hi, g_shape, g_cells, g_size, n_cells, n_shapes, copies,
              edge_rule, corner_rule, sym_perm, grid, by_shape, fill, adj, cor, fix_pi, pi, out3, ws_u, ws_i, trans,
              nbr_cells, nbr_count)
        stats[COLOURINGS] += w * out3[0]
        stats[FIX_ANY] += w * (out3[0] + out3[1])
        stats[FIX_ID] += w * (out3[0] + out3[2])
        stats[TILINGS] += w
        stats[COLOURED] += w if out3[0] > 0 else 0
        return
    if split_depth > 0 and n_pre >= split_depth:
        for i in range(n_pre):
            out_prefix[0, i] = pre_g[i]
        stats[PREFIXES] = 1
        return
    nodes = 0
    next_poll = 4096  # the interrupt flag is read once nodes reach it
    stop = False
    colourings = 0
    fix_any = 0
    fix_id = 0
    tilings = 0
    coloured = 0
    n_out = 0
    level = n_pre
    st_cell[level] = _first_empty(0, board_lo, board_hi, n_cells)
    st_t[level] = bucket[st_cell[level]]
    while level >= n_pre:
        c = st_cell[level]
        t = st_t[level]
        end = bucket[c + 1]
        found = -1
        masked = st_has_live[level] and n_pieces - level - 1 > guide_floor
        while t < end:
            if left[g_shape[t]] > 0 and (m_lo[t] & board_lo) == 0 and (m_hi[t] & board_hi) == 0:
                if masked and ((st_live[level] >> np.uint64(t - bucket[c])) & np.uint64(1)) == 0:
                    nodes += 1
                    t += 1
                    continue
                found = t
                break
            t += 1
        if found < 0:
            level -= 1
            if level >= n_pre:
                u = st_g[level]
                board_lo ^= m_lo[u]
                board_hi ^= m_hi[u]
                left[g_shape[u]] += 1
                imbalance += g_bal[u]
                _anchor_ok(u, False, anc_t, anc_cov, to_frame)
            continue
        st_t[level] = found + 1
        t = found
        nodes += 1
        board_lo |= m_lo[t]
        board_hi |= m_hi[t]
        left[g_shape[t]] -= 1
        imbalance -= g_bal[t]
        st_g[level] = t
        nxt = -1  # the next first empty cell, once found
        go = _anchor_ok(t, True, anc_t, anc_cov, to_frame)
        if not go:
            stats[CUT_ANCHOR] += 1
        elif board_lo == full_lo and board_hi == full_hi:
            w = _anchor_weight(anc_t, to_frame, st_g, level + 1)
            out3[0] = out3[1] = out3[2] = 0
            if w > 0:
                _leaf(level + 1, st_g, m_lo, m_hi, e_lo, e_hi, k_lo, k_hi, g_shape, g_cells, g_size, n_cells,
                      n_shapes, copies, edge_rule, corner_rule, sym_perm, grid, by_shape, fill, adj, cor, fix_pi, pi,
                      out3, ws_u, ws_i, trans, nbr_cells, nbr_count)
            colourings += w * out3[0]
            fix_any += w * (out3[0] + out3[1])
            fix_id += w * (out3[0] + out3[2])
            tilings += w
            if out3[0] > 0:
                coloured += w
            go = False
        else:
            go = g_bal[t] == 0 or _parity_ok(imbalance, left, shape_bal, step)
            st_has_live[level + 1] = False
            if go and guided and n_pieces - level - 1 > guide_floor:
                s0, bcode = _bound(anc_t, anc_rank)
                nxt = _first_empty(c + 1, board_lo, board_hi, n_cells)
                ahead = _completions(nxt, board_lo, board_hi, left, m_lo, m_hi, g_shape, bucket, n_cells, guide_width,
                                     guide_bits, memo, memo_fill, g_q, g_t, g_g, g_key, g_sum, g_live, s0, bcode, anc_cov,
                                     to_frame, live_out, flag)
                stop = ahead < 0
                go = ahead > 0
                st_live[level + 1] = live_out[0]
                st_has_live[level + 1] = True
            if go and hole_limit > 0:
                stamp += 1
                go = _pocket_ok(t, board_lo, board_hi, nbr_cells, nbr_count, cell_nb, mark, stamp, comp, hole_limit,
                                area, min_area, m_lo, m_hi, g_shape, bucket, left)
            if go and colour_cut:
                go = _colour_step(level, st_g, board_lo, board_hi, m_lo, m_hi, e_lo, e_hi, k_lo, k_hi, g_shape,
                                  n_shapes, copies, edge_rule, corner_rule, adjm, partners, closed_m, wit, has_wit,
                                  col, mu, checks, smask, adjfull, lastp, conf, owner, colour_cut, stats)
                if not go:
                    stats[CUT_COLOUR] += 1
            if go and split_depth > 0 and level + 1 >= split_depth:
                if n_out < out_prefix.shape[0]:
                    for lv in range(level + 1):
                        out_prefix[n_out, lv] = st_g[lv]
                n_out += 1
                go = False
        if go:
            level += 1
            st_cell[level] = nxt if nxt >= 0 else _first_empty(c + 1, board_lo, board_hi, n_cells)
            st_t[level] = bucket[st_cell[level]]
        else:
            board_lo ^= m_lo[t]
            board_hi ^= m_hi[t]
            left[g_shape[t]] += 1
            imbalance += g_bal[t]
            _anchor_ok(t, False, anc_t, anc_cov, to_frame)
        if nodes >= next_poll:  # (nodes passed over by the live masks jump, so no test for a multiple of 4,096)
            next_poll = nodes + 4096
            stop = flag[0] != 0
        if stop or (max_nodes > 0 and nodes >= max_nodes):
            stats[STOPPED] = 1
            break
    stats[COLOURINGS] += colourings
    stats[FIX_ANY] += fix_any
    stats[FIX_ID] += fix_id
    stats[TILINGS] += tilings
    stats[COLOURED] += coloured
    stats[NODES] += nodes
    stats[PREFIXES] = n_out


@njit(cache=True, nogil=True)
def _split_probes(m_lo, m_hi, e_lo, e_hi, k_lo, k_hi, g_shape, g_cells, g_size, g_bal, bucket,  # noqa: C901
                  nbr_cells, nbr_count, cell_nb, n_cells, n_shapes, copies, shape_bal, step, area, min_area,
                  hole_limit, edge_rule, corner_rule, imbalance0, colour_cut, anc_cov, to_frame, sym_perm, probes,
                  seed, out, flag):
    """Knuth's estimator on the split tree: ``probes`` random root paths, each child chosen uniformly among
    those that pass the cuts.  ``out[i]`` = (shape tilings, colourings, nodes) estimated by path i
    (unbiased for the exhaustive search's figures).  Returns the paths finished (fewer after ``flag``)."""
    np.random.seed(seed)
    n_pieces = copies * n_shapes
    max_level = n_pieces + 1
    full_lo = np.uint64(0)
    full_hi = np.uint64(0)
    for c in range(n_cells):
        if c < 64:
            full_lo |= np.uint64(1) << np.uint64(c)
        else:
            full_hi |= np.uint64(1) << np.uint64(c - 64)
    cand = np.zeros(4096, np.int64)
    st_g = np.zeros(max_level, np.int64)
    mark = np.zeros(2 * n_cells, np.int64)
    comp = np.zeros(n_cells + 1, np.int64)
    grid = np.zeros(n_cells, np.int64)
    by_shape = np.zeros((n_shapes, copies), np.int64)
    fill = np.zeros(n_shapes, np.int64)
    adj = np.zeros(max_level, np.uint64)
    cor = np.zeros(max_level, np.uint64)
    no_sym = sym_perm[:0]
    fix_pi = np.zeros((1, max_level), np.int64)
    pi = np.zeros(max_level, np.int64)
    out3 = np.zeros(3, np.int64)
    ws_u, ws_i, trans = _colour_scratch(n_shapes, copies)
    adjm = np.zeros(max_level, np.uint64)
    partners = np.zeros(max_level, np.uint64)
    closed_m = np.zeros(max_level + 1, np.uint64)
    wit = np.zeros((max_level, max_level), np.int64)
    has_wit = np.zeros(max_level, np.int64)
    col = np.zeros(max_level, np.int64)
    mu = np.zeros(max_level, np.int64)
    checks = np.zeros(max_level, np.uint64)
    smask = np.zeros(n_shapes, np.uint64)
    adjfull = np.zeros(max_level, np.uint64)
    lastp = np.zeros(max_level, np.int64)
    conf = np.zeros(max_level, np.uint64)
    owner = np.zeros(copies, np.int64)
    anc_t = np.full(to_frame.shape[0], -1, np.int64)
    stats = np.zeros(N_STATS, np.int64)
    stamp = 0
    for probe in range(probes):
        if flag[0] != 0:
            return probe
        anc_t[:] = -1
        left = np.full(n_shapes, copies, np.int64)
        board_lo = np.uint64(0)
        board_hi = np.uint64(0)
        imbalance = imbalance0
        weight = 1.0
        nodes_est = 0.0
        level = 0
        c = 0
        out[probe, 0] = 0.0
        out[probe, 1] = 0.0
        while True:
            c = _first_empty(c, board_lo, board_hi, n_cells)
            tried = 0
            m = 0
            for t in range(bucket[c], bucket[c + 1]):
                if left[g_shape[t]] == 0 or (m_lo[t] & board_lo) or (m_hi[t] & board_hi):
                    continue
                tried += 1
                nlo = board_lo | m_lo[t]
                nhi = board_hi | m_hi[t]
                left[g_shape[t]] -= 1
                st_g[level] = t
                ok = _anchor_ok(t, True, anc_t, anc_cov, to_frame)
                _anchor_ok(t, False, anc_t, anc_cov, to_frame)
                if ok and not (nlo == full_lo and nhi == full_hi):
                    ok = g_bal[t] == 0 or _parity_ok(imbalance - g_bal[t], left, shape_bal, step)
                    if ok and hole_limit > 0:
                        stamp += 1
                        ok = _pocket_ok(t, nlo, nhi, nbr_cells, nbr_count, cell_nb, mark, stamp, comp, hole_limit,
                                        area, min_area, m_lo, m_hi, g_shape, bucket, left)
                    if ok and colour_cut:
                        ok = _colour_step(level, st_g, nlo, nhi, m_lo, m_hi, e_lo, e_hi, k_lo, k_hi, g_shape, n_shapes,
                                          copies, edge_rule, corner_rule, adjm, partners, closed_m, wit, has_wit, col,
                                          mu, checks, smask, adjfull, lastp, conf, owner, colour_cut, stats)
                left[g_shape[t]] += 1
                if ok:
                    cand[m] = t
                    m += 1
            nodes_est += weight * tried
            if m == 0:
                break
            weight *= m
            t = cand[np.random.randint(m)]
            board_lo |= m_lo[t]
            board_hi |= m_hi[t]
            left[g_shape[t]] -= 1
            imbalance -= g_bal[t]
            st_g[level] = t
            _anchor_ok(t, True, anc_t, anc_cov, to_frame)
            if board_lo == full_lo and board_hi == full_hi:
                w = _anchor_weight(anc_t, to_frame, st_g, level + 1)
                _leaf(level + 1, st_g, m_lo, m_hi, e_lo, e_hi, k_lo, k_hi, g_shape, g_cells, g_size, n_cells, n_shapes,
                      copies, edge_rule, corner_rule, no_sym, grid, by_shape, fill, adj, cor, fix_pi, pi, out3, ws_u, ws_i,
                      trans, nbr_cells, nbr_count)
                out[probe, 0] = weight * w
                out[probe, 1] = weight * w * out3[0]
                break
            if colour_cut:  # the chosen child's colour state (the candidates' tests overwrote it)
                _colour_step(level, st_g, board_lo, board_hi, m_lo, m_hi, e_lo, e_hi, k_lo, k_hi, g_shape, n_shapes,
                             copies, edge_rule, corner_rule, adjm, partners, closed_m, wit, has_wit, col, mu, checks,
                             smask, adjfull, lastp, conf, owner, colour_cut, stats)
            level += 1
        out[probe, 2] = nodes_est
    return probes


@dataclass
class SplitCounts:
    """One part (or whole search) of the split method: colourings modulo colour permutation (the canonical
    count), the Burnside leaf sums, shape tilings and search nodes."""

    colourings: int
    fix_any: int
    fix_id: int
    tilings: int
    nodes: int
    stopped: bool

    def record(self) -> tuple[int, int, int, int, int]:
        """The checkpoint record of a part: (colourings, fix_any, fix_id, shape tilings, nodes)."""
        return self.colourings, self.fix_any, self.fix_id, self.tilings, self.nodes


def _huge_zeros(rows: int) -> np.ndarray:
    """A zeroed (rows, 2) uint64 table in anonymous memory advised to use huge pages where the kernel offers them
    (the memo is probed at random: 2 MiB pages spare most TLB misses); plain zeros elsewhere."""
    size = rows * 16
    if size < 1 << 22 or not hasattr(mmap, "MADV_HUGEPAGE"):
        return np.zeros((rows, 2), np.uint64)
    buffer = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    buffer.madvise(mmap.MADV_HUGEPAGE)
    return np.frombuffer(buffer, np.uint64).reshape(rows, 2)


def _no_memo() -> tuple[np.ndarray, np.ndarray]:
    """An empty guide memo and its (fill, times emptied): the search runs unguided."""
    return np.zeros((0, 2), np.uint64), np.zeros(2, np.int64)


class SplitSearch:
    """Compiled tables of a :class:`~solvers.blokus.tetrominoes.ColoredTilingProblem` for the split method
    (regions up to 128 cells, up to 64 pieces; every colour holds the same shapes)."""

    def __init__(self, problem, symmetry: bool = True, hole_limit: int | None = None, colour_cut: int | None = None,
                 reduce: bool = False, guide: bool = True, guide_slots: int | None = None) -> None:
        """``colour_cut``: ``CUT_PARTIAL`` (partial colourings, :func:`_colour_step`), ``CUT_ADJACENT`` (a piece
        next to every copy of a shape, :func:`_adjacent_ok`) or ``CUT_OFF``; None: partial with the corner rule,
        where it pays, else off; ``hole_limit``: the pocket cut's limit (None: ``CORNER_HOLE_LIMIT`` with the
        partial-colouring cut, where the pocket cut is cheap beside it, else ``HOLE_LIMIT``); ``reduce``: keep one tiling per anchor signature class (:meth:`_anchor_tables`), when the region
        has symmetries acting freely on some cell's orbit."""
        self.problem = problem
        cells: tuple[Cell, ...] = problem.cells
        n = len(cells)
        if n > 128:
            raise ValueError(f"the split method handles regions up to 128 cells, this one has {n}")
        if len(problem.pieces) > MAX_PIECES:
            raise ValueError(f"the split method handles up to {MAX_PIECES} pieces, this problem has {len(problem.pieces)}")
        index = problem.cell_index
        geo: list[tuple[int, tuple[Cell, ...]]] = []
        for s, shape in enumerate(problem.shapes):
            for placed in problem.region.placements(shape):
                geo.append((s, placed))
        geo.sort(key=lambda g: (min(index[c] for c in g[1]), g[0], g[1]))
        self.geo = geo
        self.n, self.symmetry = n, symmetry
        self._tables(geo, index)
        self._cell_tables(cells, index)
        self._shape_tables(problem)
        group = problem.group()
        self.group_order = len(group)
        perms = [[index[perm[c]] for c in cells] for g, perm in group if g != 0] if symmetry else []
        self.sym_perm = np.array(perms, np.int64).reshape(len(perms), n)
        if colour_cut is None:
            colour_cut = CUT_PARTIAL if problem.corner_contact else CUT_OFF
        if not (problem.edge_rule or problem.corner_contact) or (colour_cut == CUT_ADJACENT and not problem.edge_rule):
            colour_cut = CUT_OFF
        self.colour_cut = int(colour_cut)
        if hole_limit is None:
            hole_limit = CORNER_HOLE_LIMIT if self.colour_cut == CUT_PARTIAL else HOLE_LIMIT
        self.hole_limit = hole_limit
        self.anchors: list[Cell] = []
        self.anc_cov = np.zeros(len(geo), np.int64)
        self.to_frame = np.zeros((0, len(geo)), np.int64)
        if reduce:
            self._anchor_tables(group, index)
        self._guide_tables(guide, guide_slots)

    def _guide_tables(self, guide: bool, slots: int | None) -> None:
        """The guide's key layout (window width F, bits per count) and memo size; the memo itself is made on the
        first count (``count`` only: ``split`` makes the parts unguided, so their numbering stays that of the
        committed checkpoints)."""
        reach = max(int(self.g_cells[t, :self.g_size[t]].max() - self.g_cells[t, :self.g_size[t]].min())
                    for t in range(len(self.geo))) + 1 if len(self.geo) else 1
        self.guide_width = reach
        self.guide_bits = max(1, int(self.problem.colors).bit_length())
        self.anc_rank = np.zeros(len(self.geo), np.int64)  # 1 + rank among the placements covering anchor 0
        covering = [t for t in range(len(self.geo)) if self.anc_cov[t] & 1]
        self.anc_rank[covering] = np.arange(1, len(covering) + 1)
        bound_bits = (len(covering) + 1).bit_length()
        fits = reach + 7 + len(self.problem.shapes) * self.guide_bits + bound_bits <= 64
        widest = int(np.diff(self.bucket).max()) if len(self.bucket) > 1 else 0  # placements at one first cell
        self.guide = guide and fits and self.n <= 128 and widest <= GUIDE_MAX_BUCKET
        self.guide_slots = slots or 1 << min(GUIDE_MAX_SLOTS_LOG2, max(12, self.n // 3))
        self._memo: tuple[np.ndarray, np.ndarray] | None = None

    def memo(self) -> tuple[np.ndarray, np.ndarray]:
        """The guide's memo (rows: state key, completions + 1, 0 when empty) and (its fill, times emptied); an
        empty memo when the search is not guided."""
        if not self.guide:
            return _no_memo()
        if self._memo is None:
            self._memo = (_huge_zeros(self.guide_slots), np.zeros(2, np.int64))
        return self._memo

    def shape_tilings(self, prefix: Sequence[int] = ()) -> int:
        """The number of shape tilings extending ``prefix`` (no cuts, no colours), from the guide's memo."""
        if not self.guide:
            raise ValueError("this search has no guide (its state does not fit a 64-bit key)")
        memo, fill = self.memo()
        lo, hi = np.uint64(0), np.uint64(0)
        left = np.full(len(self.problem.shapes), self.problem.colors, np.int64)
        for t in prefix:
            if (self.m_lo[t] & lo) or (self.m_hi[t] & hi) or left[self.g_shape[t]] == 0:
                return 0
            lo, hi = lo | self.m_lo[t], hi | self.m_hi[t]
            left[self.g_shape[t]] -= 1
        scratch = [np.zeros(len(self.problem.pieces) + 2, dtype)
                   for dtype in (np.int64, np.int64, np.int64, np.uint64, np.int64, np.uint64)]
        q = int(_first_empty(0, lo, hi, self.n))
        return int(cast(Callable[..., int], _completions)(q, lo, hi, left, self.m_lo, self.m_hi, self.g_shape, self.bucket, self.n,
                                self.guide_width, self.guide_bits, memo, fill, *scratch, -1, 0, self.anc_cov,
                                self.to_frame, np.zeros(1, np.uint64), new_flag()))

    def _anchor_tables(self, group: list[tuple[int, dict[Cell, Cell]]], index: dict[Cell, int]) -> None:
        """Symmetry reduction of the first placements: anchors a_g = g(a) for the first cell a (in search order)
        whose orbit has |G| cells (G acts freely on it); ``anc_cov[t]``: the anchors placement t covers (bit per
        g, identity first); ``to_frame[g, t]``: the placement g⁻¹(t) (for t at a_g: read in a's frame).

        Each orbit of shape tilings keeps one tiling, weighted by the orbit's size |G|/|Stab(T)|: the T whose
        key (s_a(T), sorted placement numbers of T) is the largest of the keys of g⁻¹T over g in G, where
        s_a(T) is the number of T's piece at a, so s_a(g⁻¹T) = s_g(T) := number of g⁻¹(T's piece at a_g).
        The search prunes as soon as some placed s_g(T) > s_a(T) (then g⁻¹T has the larger key); at a leaf
        the anchors that tie are resolved by the whole tiling (:func:`_anchor_weight`).  Exact for every sum
        the search makes, since each summand f(T) (colourings, and the Burnside leaf sums fix_any, fix_id) is
        the same on the whole orbit: a colouring c of T maps to g·c of gT, and h fixes (T, c) as g·h·g⁻¹ fixes
        (gT, g·c), a bijection between the stabilisers (G need not be abelian).  So
        Σ_T f(T) = Σ_orbits |orbit|·f(kept T).  (Weighting every T with maximal s_a alone by |G|/(anchors that
        tie) is not enough: three tied corners out of four give 4/3.)"""
        cells = self.problem.cells
        if len(group) < 2:
            return
        group = sorted(group, key=lambda g: any(v != c for c, v in g[1].items()))  # the identity first
        number = {(s, cells_): t for t, (s, cells_) in enumerate(self.geo)}
        for a in sorted(cells, key=lambda c: index[c]):
            orbit = [perm[a] for _, perm in group]
            if len(set(orbit)) == len(group):
                break
        else:
            return
        to_frame = np.full((len(group), len(self.geo)), -1, np.int64)
        for k, (_, perm) in enumerate(group):
            inverse = {v: c for c, v in perm.items()}
            for t, (s, placed) in enumerate(self.geo):
                if orbit[k] in placed:
                    self.anc_cov[t] |= 1 << k
                image = tuple(sorted(inverse[c] for c in placed))
                if (s, image) not in number:  # a shape whose mirror image is not in the set: no reduction
                    self.anc_cov[:] = 0
                    return
                to_frame[k, t] = number[(s, image)]
        self.anchors, self.to_frame = orbit, to_frame

    def _tables(self, geo: list[tuple[int, tuple[Cell, ...]]], index: dict[Cell, int]) -> None:
        """Per placement: cell, edge-neighbour and corner-only masks, shape, cells, checkerboard imbalance;
        placements bucketed by first cell; empty edge neighbours as cell lists (for the pocket check)."""
        p, G, n = self.problem, len(geo), self.n
        self.m_lo, self.m_hi = np.zeros(G, np.uint64), np.zeros(G, np.uint64)
        self.e_lo, self.e_hi = np.zeros(G, np.uint64), np.zeros(G, np.uint64)
        self.k_lo, self.k_hi = np.zeros(G, np.uint64), np.zeros(G, np.uint64)
        self.g_shape, self.g_size, self.g_bal = np.zeros(G, np.int64), np.zeros(G, np.int64), np.zeros(G, np.int64)
        size = max((len(c) for _, c in geo), default=1)
        self.g_cells = np.zeros((G, size), np.int64)
        near = [p.edge_neighbours(c) for _, c in geo]
        self.nbr_cells = np.zeros((G, max((len(x) for x in near), default=1)), np.int64)
        self.nbr_count = np.zeros(G, np.int64)
        bucket = np.zeros(n + 2, np.int64)

        def put(lo: np.ndarray, hi: np.ndarray, i: int, where: Sequence[Cell]) -> None:
            for cell in where:
                b = index[cell]
                if b < 64:
                    lo[i] |= np.uint64(1) << np.uint64(b)
                else:
                    hi[i] |= np.uint64(1) << np.uint64(b - 64)

        for i, (s, placed) in enumerate(geo):
            put(self.m_lo, self.m_hi, i, placed)
            put(self.e_lo, self.e_hi, i, near[i])
            put(self.k_lo, self.k_hi, i, p.corner_cells(placed))
            self.g_shape[i], self.g_size[i] = s, len(placed)
            self.g_bal[i] = sum(1 if (r + c) % 2 == 0 else -1 for r, c in placed)
            self.g_cells[i, :len(placed)] = [index[c] for c in placed]
            self.nbr_cells[i, :len(near[i])] = [index[c] for c in near[i]]
            self.nbr_count[i] = len(near[i])
            bucket[min(index[c] for c in placed) + 1] += 1
        self.bucket = np.cumsum(bucket).astype(np.int64)

    def _cell_tables(self, cells: tuple[Cell, ...], index: dict[Cell, int]) -> None:
        """Each cell's four edge neighbours (-1: outside) and the region's checkerboard imbalance."""
        self.cell_nb = np.full((self.n, 4), -1, np.int64)
        for i, (r, c) in enumerate(cells):
            for d, (dr, dc) in enumerate(((-1, 0), (1, 0), (0, -1), (0, 1))):
                self.cell_nb[i, d] = index.get((r + dr, c + dc), -1)
        self.imbalance = sum(1 if (r + c) % 2 == 0 else -1 for r, c in cells)

    def _shape_tables(self, problem) -> None:
        """Per shape its checkerboard imbalance (either sign); the parity step; the common piece area (0: mixed)."""
        bal = []
        for shape in problem.shapes:
            bal.append(abs(sum(1 if (r + c) % 2 == 0 else -1 for r, c in shape.cells)))
        self.shape_bal = np.array(bal, np.int64)
        g = 0
        for b in bal:
            g = math.gcd(g, b)
        self.step = 2 * g
        areas = {shape.area for shape in problem.shapes}
        self.area = areas.pop() if len(areas) == 1 else 0
        self.min_area = min(shape.area for shape in problem.shapes)

    def _args(self) -> tuple:
        p = self.problem
        return (self.m_lo, self.m_hi, self.e_lo, self.e_hi, self.k_lo, self.k_hi, self.g_shape, self.g_cells,
                self.g_size, self.g_bal, self.bucket, self.nbr_cells, self.nbr_count, self.cell_nb, self.n,
                len(p.shapes), p.colors, self.shape_bal, self.step, self.area, self.min_area, self.hole_limit,
                p.edge_rule, p.corner_contact, self.imbalance, self.colour_cut, self.anc_cov, self.to_frame)

    def _run(self, prefix: Sequence[int], split_depth: int = 0, cap: int = 0, max_nodes: int = -1,
             flag: np.ndarray | None = None, symmetry: bool = True) -> tuple[np.ndarray, np.ndarray]:
        out_prefix = np.zeros((cap, max(split_depth, 1)), np.int64)
        stats = np.zeros(N_STATS, np.int64)
        sym = self.sym_perm if symmetry and split_depth == 0 else self.sym_perm[:0]
        memo, fill = self.memo() if split_depth == 0 else _no_memo()
        cast(Callable[..., None], _split_search)(*self._args(), sym, np.array(prefix, np.int64), split_depth, out_prefix,
                                                 max_nodes, stats, new_flag() if flag is None else flag, GUIDE_FLOOR,
                                                 memo, fill, self.guide_width, self.guide_bits, self.anc_rank)
        return stats, out_prefix

    def count(self, prefix: Sequence[int] = (), max_nodes: int = -1, flag: np.ndarray | None = None) -> SplitCounts:
        """The part below the placements ``prefix`` (geometric option numbers); ``stopped`` when ``max_nodes``
        or the interrupt ``flag`` cut it short."""
        stats, _ = self._run(prefix, max_nodes=max_nodes, flag=flag)
        return SplitCounts(int(stats[COLOURINGS]), int(stats[FIX_ANY]), int(stats[FIX_ID]), int(stats[TILINGS]),
                           int(stats[NODES]), bool(stats[STOPPED]))

    def stats(self, prefix: Sequence[int] = ()) -> np.ndarray:
        """The kernel's statistics of the part below ``prefix`` (slots ``COLOURINGS`` .. ``CSP_NODES``)."""
        return self._run(prefix)[0]

    def split(self, depth: int) -> list[tuple[int, ...]]:
        """Every state with ``depth`` shape placements that passes the cuts: the independent parts."""
        if depth <= 0:
            return [()]
        (stats, out), why = run_polling(lambda flag: self._run((), depth, 0, flag=flag))
        total = int(stats[PREFIXES])
        if why == INTERRUPTED:
            raise KeyboardInterrupt
        if total * part_bytes(depth) > SPLIT_MEMORY_BUDGET:
            fits = depth - 1
            while fits > 1 and int(self._run((), fits, 0)[0][PREFIXES]) * part_bytes(fits) > SPLIT_MEMORY_BUDGET:
                fits -= 1
            raise ValueError(f"split depth {depth} would make {total:,} parts (~{total * part_bytes(depth) / 2**30:.1f} "
                             f"GiB of memory, over the {SPLIT_MEMORY_BUDGET / 2**30:g} GiB budget); use --split-depth "
                             f"<= {fits}")
        (stats, out), why = run_polling(lambda flag: self._run((), depth, total, flag=flag))
        if why == INTERRUPTED:
            raise KeyboardInterrupt
        return [tuple(int(x) for x in row) for row in out[:total]]

    def random_prefix(self, depth: int, rng: random.Random, max_nodes: int = 100_000) -> tuple[int, ...] | None:
        """The first ``depth`` placements of a random shape tiling (randomised first-empty-cell search; None if
        it finds none within ``max_nodes``): a part with at least one shape tiling, to check by hand or against
        the direct search."""
        cells = [frozenset(self.g_cells[t, :self.g_size[t]].tolist()) for t in range(len(self.geo))]
        left = [self.problem.colors] * len(self.problem.shapes)
        path: list[int] = []
        budget = [max_nodes]

        def extend(board: frozenset[int]) -> bool:
            if len(board) == self.n:
                return True
            c = min(set(range(self.n)) - board)
            fits = [t for t in range(self.bucket[c], self.bucket[c + 1]) if left[self.g_shape[t]] and not board & cells[t]]
            rng.shuffle(fits)
            for t in fits:
                budget[0] -= 1
                if budget[0] < 0:
                    return False
                path.append(t)
                left[self.g_shape[t]] -= 1
                if extend(board | cells[t]):
                    return True
                left[self.g_shape[t]] += 1
                path.pop()
            return False

        return tuple(path[:depth]) if extend(frozenset()) else None

    def orbit_counts(self, total: SplitCounts) -> tuple[int, int, int]:
        """(raw, up to the region's symmetries, up to symmetries and colours) from the summed records."""
        colors = self.problem.colors
        sym, r1 = divmod(math.factorial(colors) * total.fix_id, self.group_order)
        sym_col, r2 = divmod(total.fix_any, self.group_order)
        if r1 or r2:
            raise AssertionError("Burnside sums are not divisible: symmetry handling is broken")
        return total.colourings * math.factorial(colors), sym, sym_col

    def estimate(self, probes: int, seed: int = 0, time_limit: float | None = None) -> dict:
        """Knuth's estimate of the split tree (unguided: the guide's dead subtrees included): shape tilings,
        colourings (modulo colours), nodes, each with its standard error; ``time_limit`` or Ctrl-C stops early with the paths done."""
        start = time.process_time()
        out = np.zeros((probes, 3), np.float64)
        probe = cast(Callable[..., int], _split_probes)
        done, why = run_polling(lambda flag: int(probe(*self._args(), self.sym_perm, probes, seed, out, flag)),
                                time_limit)
        if done < 2:
            raise KeyboardInterrupt
        rows = out[:done]
        mean = rows.mean(axis=0)
        err = rows.std(axis=0, ddof=1) / math.sqrt(done)
        return {"probes": done, "seed": seed, "cpu_seconds": round(time.process_time() - start, 3),
                "tilings": float(mean[0]), "tilings_stderr": float(err[0]),
                "colourings": float(mean[1]), "colourings_stderr": float(err[1]),
                "raw": float(mean[1]) * math.factorial(self.problem.colors),
                "nodes": float(mean[2]), "nodes_stderr": float(err[2]),
                "status": "estimate" if why not in (INTERRUPTED, TIME_LIMIT) else "estimate (stopped: fewer paths)"}


def timed_split_count(problem, symmetry: bool = True, hole_limit: int | None = None, colour_cut: int | None = None,
                      reduce: bool = False) -> tuple[tuple[int, int, int], SplitCounts, float]:
    """Whole split count in this process: ((raw, symmetry, symmetry+colours), sums, CPU seconds)."""
    start = time.process_time()
    search = SplitSearch(problem, symmetry, hole_limit, colour_cut, reduce)
    total = search.count()
    return search.orbit_counts(total), total, time.process_time() - start


def part_runner(search: SplitSearch) -> Callable[[Sequence[int], np.ndarray], SplitCounts]:
    """A part counter for :func:`solvers.interrupt.run_polling` (flag last)."""
    return lambda prefix, flag: search.count(prefix, flag=flag)
