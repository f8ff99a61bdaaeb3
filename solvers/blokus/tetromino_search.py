"""Fast exact search for the coloured tetromino rectangle: canonical colours, the corner rule pruned in the search.

One compiled first-empty-cell search (numba, explicit stack, two 64-bit words per
mask, so regions up to 128 cells) serves every question about a
:class:`~solvers.blokus.tetrominoes.ColoredTilingProblem`: count, find one,
split into independent parts.

* **Canonical colour labels.**  Every colour has the same pieces, so a tiling and
  its colour permutations are counted once: pieces are placed in first-empty-cell
  order and a colour not used yet may only be the lowest unused one.  A complete
  tiling uses every colour, so ``raw = colors! × canonical``.
* **The corner rule pruned during the search** (``corner_contact``): a placed
  piece of colour k that does not touch colour k at a corner yet must keep a
  *live* diagonal-only neighbour: an empty cell that is not edge-adjacent to
  colour k (the edge rule would forbid k there), while colour k still has
  pieces to place.  Cells only fill up and forbidden cells only grow, so a piece
  without such a cell can never meet the rule: cut.  At a full board the same
  test is exactly the corner rule.
* **Symmetry counts at the leaves.**  For each complete (canonical) tiling s the
  kernel finds, for every symmetry g of the region, whether g maps s onto itself
  up to a colour permutation σ_g, and whether σ_g is the identity.  By Burnside
  over the group G × S_colors (a colour permutation alone never fixes a tiling):

  - orbits under G, colours kept  = colors! · Σ_s #{g : g s = s} / |G|;
  - orbits under G × colours      = Σ_s #{g : g s = σ s for some σ} / |G|.

  (Both sums run over canonical tilings; identity included.)

Checked against the XCC model, SAT enumeration and brute-force orbit counting in
``tests/test_solitaire_search.py``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

from puzzles.polyomino import Cell
from solvers.interrupt import INTERRUPTED, TIME_LIMIT, new_flag, run_polling

# stats slots returned by the kernel
CANON, FIX_ANY, FIX_ID, NODES, STOPPED, PREFIXES = range(6)
NODES_PER_SECOND = 10_000_000  # rough rate of this kernel on one core, for time-limited parts
SPLIT_MEMORY_BUDGET = 2 * 2**30  # bytes the parts of a split may take (held as Python tuples, then as payloads)


def part_bytes(depth: int) -> int:
    """Rough bytes one part of ``depth`` pieces takes: its tuples and ints, its payload and its row of the split."""
    return 200 + 130 * depth


@njit(cache=True)
def _first_empty(c, board_lo, board_hi, n_cells):
    """The first cell at or after ``c`` not covered by the board masks (``n_cells`` if none)."""
    while c < n_cells and ((board_lo >> np.uint64(c)) & np.uint64(1) if c < 64
                           else (board_hi >> np.uint64(c - 64)) & np.uint64(1)):
        c += 1
    return c


@njit(cache=True)
def _take(t, k, m_lo, m_hi, n_lo, n_hi, g_shape, n_shapes, occ_lo, occ_hi, forb_lo, forb_hi, used, left):
    """Colour ``k`` takes option ``t``: its cells, the cells it forbids to ``k``, its shape, one piece fewer.

    The board masks are the caller's (scalars); :func:`_give_back` undoes this."""
    occ_lo[k] |= m_lo[t]
    occ_hi[k] |= m_hi[t]
    forb_lo[k] |= n_lo[t]
    forb_hi[k] |= n_hi[t]
    used[k * n_shapes + g_shape[t]] = 1
    left[k] -= 1


@njit(cache=True)
def _give_back(t, k, m_lo, m_hi, g_shape, n_shapes, occ_lo, occ_hi, forb_lo, forb_hi, used, left, saved_lo, saved_hi):
    """Undo :func:`_take` (``saved_*``: colour k's forbidden masks before it)."""
    occ_lo[k] ^= m_lo[t]
    occ_hi[k] ^= m_hi[t]
    forb_lo[k] = saved_lo
    forb_hi[k] = saved_hi
    used[k * n_shapes + g_shape[t]] = 0
    left[k] += 1


@njit(cache=True)
def _corner_rule_lost(pieces, st_g, st_col, c_lo, c_hi, occ_lo, occ_hi, forb_lo, forb_hi, board_lo, board_hi, left):
    """True when one of the first ``pieces`` placed pieces can never touch its colour at a corner.

    Such a piece touches no piece of its colour diagonally yet and has no live diagonal-only cell left
    (empty and not forbidden to its colour), or its colour has no piece left to put there."""
    for lv in range(pieces):
        u = st_g[lv]
        kc = st_col[lv]
        touches = (c_lo[u] & occ_lo[kc]) != 0 or (c_hi[u] & occ_hi[kc]) != 0
        if not touches and (left[kc] == 0 or ((c_lo[u] & ~board_lo & ~forb_lo[kc]) == 0
                                              and (c_hi[u] & ~board_hi & ~forb_hi[kc]) == 0)):
            return True
    return False


@njit(cache=True, nogil=True)
def _search(m_lo, m_hi, n_lo, n_hi, c_lo, c_hi, g_shape, g_cells, g_size, bucket,  # noqa: C901
            n_cells, n_colors, n_shapes, corner_rule, sym_perm, pre_g, pre_k, split_depth, out_prefix, limit,
            out_sol, max_nodes, stats, flag):
    """Exhaustive search from the placements ``pre_g``/``pre_k`` (geometric option, colour).

    ``split_depth`` > 0: record every rule-consistent state with that many pieces into ``out_prefix``
    (rows of 2·depth ints: options then colours) instead of going deeper.  ``limit`` > 0: stop after
    that many tilings (the first goes to ``out_sol`` as option, colour pairs).  ``max_nodes`` > 0:
    stop after that many nodes (``stats[STOPPED]`` = 1), as when ``flag[0]`` turns non-zero (Ctrl-C, a
    deadline: polled every 4,096 nodes, :mod:`solvers.interrupt`).  ``sym_perm``: the region's symmetries other
    than the identity, as cell-index permutations (rows), for the leaf test.
    """
    full_lo = np.uint64(0)
    full_hi = np.uint64(0)
    for c in range(n_cells):
        if c < 64:
            full_lo |= np.uint64(1) << np.uint64(c)
        else:
            full_hi |= np.uint64(1) << np.uint64(c - 64)
    max_level = n_cells + 1
    occ_lo = np.zeros(n_colors, np.uint64)
    occ_hi = np.zeros(n_colors, np.uint64)
    forb_lo = np.zeros(n_colors, np.uint64)
    forb_hi = np.zeros(n_colors, np.uint64)
    used = np.zeros(n_colors * n_shapes, np.int64)
    left = np.full(n_colors, n_shapes, np.int64)
    st_cell = np.zeros(max_level, np.int64)
    st_t = np.zeros(max_level, np.int64)
    st_k = np.zeros(max_level, np.int64)
    st_g = np.zeros(max_level, np.int64)
    st_col = np.zeros(max_level, np.int64)
    st_ncol = np.zeros(max_level, np.int64)
    st_flo = np.zeros(max_level, np.uint64)
    st_fhi = np.zeros(max_level, np.uint64)
    grid_piece = np.zeros(n_cells, np.int64)
    grid_color = np.zeros(n_cells, np.int64)
    pi = np.zeros(max_level, np.int64)
    sig = np.zeros(n_colors, np.int64)
    n_sym = sym_perm.shape[0]
    board_lo = np.uint64(0)
    board_hi = np.uint64(0)
    ncol = 0
    n_pre = pre_g.shape[0]
    n_prefix_out = 0
    # apply the prefix
    for lv in range(n_pre):
        g = pre_g[lv]
        k = pre_k[lv]
        if k > ncol or k >= n_colors:
            return
        if (m_lo[g] & (board_lo | forb_lo[k])) or (m_hi[g] & (board_hi | forb_hi[k])) or used[k * n_shapes + g_shape[g]]:
            return
        st_g[lv] = g
        st_col[lv] = k
        st_flo[lv] = forb_lo[k]
        st_fhi[lv] = forb_hi[k]
        board_lo |= m_lo[g]
        board_hi |= m_hi[g]
        _take(g, k, m_lo, m_hi, n_lo, n_hi, g_shape, n_shapes, occ_lo, occ_hi, forb_lo, forb_hi, used, left)
        if k == ncol:
            ncol += 1
    if corner_rule and _corner_rule_lost(n_pre, st_g, st_col, c_lo, c_hi, occ_lo, occ_hi, forb_lo, forb_hi,
                                         board_lo, board_hi, left):
        return
    nodes = 0
    count = 0
    fix_any = 0
    fix_id = 0
    level = n_pre
    # first empty cell
    c = _first_empty(0, board_lo, board_hi, n_cells)
    if c == n_cells or (split_depth > 0 and n_pre >= split_depth):
        if split_depth > 0:
            for i in range(n_pre):
                out_prefix[0, i] = pre_g[i]
                out_prefix[0, split_depth + i] = pre_k[i]
            stats[PREFIXES] = 1
            return
        stats[CANON] = 1
        return  # (a prefix that is already a tiling: symmetry not examined; never happens in practice)
    st_cell[level] = c
    st_t[level] = bucket[c]
    st_k[level] = 0
    st_ncol[level] = ncol
    while level >= n_pre:
        c = st_cell[level]
        t = st_t[level]
        kk = st_k[level]
        end = bucket[c + 1]
        lev_ncol = st_ncol[level]
        kmax = lev_ncol if lev_ncol < n_colors else n_colors - 1
        found = False
        while t < end:
            if (m_lo[t] & board_lo) == 0 and (m_hi[t] & board_hi) == 0:
                s = g_shape[t]
                while kk <= kmax:
                    if used[kk * n_shapes + s] == 0 and (m_lo[t] & forb_lo[kk]) == 0 and (m_hi[t] & forb_hi[kk]) == 0:
                        found = True
                        break
                    kk += 1
                if found:
                    break
            t += 1
            kk = 0
        if not found:
            level -= 1
            if level >= n_pre:  # undo the placement made at that level
                u = st_g[level]
                board_lo ^= m_lo[u]
                board_hi ^= m_hi[u]
                _give_back(u, st_col[level], m_lo, m_hi, g_shape, n_shapes, occ_lo, occ_hi, forb_lo, forb_hi, used,
                           left, st_flo[level], st_fhi[level])
                ncol = st_ncol[level]
            continue
        # place option t in colour kk; the next try at this level is (t, kk + 1)
        st_t[level] = t
        st_k[level] = kk + 1
        k = kk
        nodes += 1
        st_g[level] = t
        st_col[level] = k
        st_flo[level] = forb_lo[k]
        st_fhi[level] = forb_hi[k]
        board_lo |= m_lo[t]
        board_hi |= m_hi[t]
        _take(t, k, m_lo, m_hi, n_lo, n_hi, g_shape, n_shapes, occ_lo, occ_hi, forb_lo, forb_hi, used, left)
        if k == lev_ncol:
            ncol = lev_ncol + 1
        ok = not (corner_rule and _corner_rule_lost(level + 1, st_g, st_col, c_lo, c_hi, occ_lo, occ_hi, forb_lo,
                                                    forb_hi, board_lo, board_hi, left))
        leaf = board_lo == full_lo and board_hi == full_hi
        if ok and leaf:
            count += 1
            if n_sym > 0:
                for lv in range(level + 1):
                    u = st_g[lv]
                    for i in range(g_size[u]):
                        grid_piece[g_cells[u, i]] = lv
                        grid_color[g_cells[u, i]] = st_col[lv]
                any_here = 1
                id_here = 1
                for h in range(n_sym):
                    for lv in range(level + 1):
                        pi[lv] = -1
                    for q in range(n_colors):
                        sig[q] = -1
                    same = True
                    for cell in range(n_cells):
                        img = sym_perm[h, cell]
                        a = grid_piece[cell]
                        b = grid_piece[img]
                        if pi[a] < 0:
                            pi[a] = b
                        elif pi[a] != b:
                            same = False
                            break
                        ca = grid_color[cell]
                        cb = grid_color[img]
                        if sig[ca] < 0:
                            sig[ca] = cb
                        elif sig[ca] != cb:
                            same = False
                            break
                    if same:
                        any_here += 1
                        ident = True
                        for q in range(n_colors):
                            if sig[q] != q:
                                ident = False
                        if ident:
                            id_here += 1
                fix_any += any_here
                fix_id += id_here
            else:  # no symmetry but the identity, which fixes every tiling
                fix_any += 1
                fix_id += 1
            if limit > 0 and count >= limit:
                for lv in range(level + 1):
                    out_sol[2 * lv] = st_g[lv]
                    out_sol[2 * lv + 1] = st_col[lv]
                stats[STOPPED] = 1
                ok = False  # fall through to the undo, then return below
        if ok and not leaf and split_depth > 0 and level + 1 >= split_depth:
            if n_prefix_out < out_prefix.shape[0]:
                for lv in range(level + 1):
                    out_prefix[n_prefix_out, lv] = st_g[lv]
                    out_prefix[n_prefix_out, split_depth + lv] = st_col[lv]
            n_prefix_out += 1
            ok = False
        if ok and not leaf:
            nc = _first_empty(c + 1, board_lo, board_hi, n_cells)
            level += 1
            st_cell[level] = nc
            st_t[level] = bucket[nc]
            st_k[level] = 0
            st_ncol[level] = ncol
        else:
            board_lo ^= m_lo[t]
            board_hi ^= m_hi[t]
            _give_back(t, k, m_lo, m_hi, g_shape, n_shapes, occ_lo, occ_hi, forb_lo, forb_hi, used, left,
                       st_flo[level], st_fhi[level])
            ncol = lev_ncol
            if stats[STOPPED]:
                break
        if (max_nodes > 0 and nodes >= max_nodes) or ((nodes & 4095) == 0 and flag[0] != 0):
            stats[STOPPED] = 1
            break
    stats[CANON] += count
    stats[FIX_ANY] += fix_any
    stats[FIX_ID] += fix_id
    stats[NODES] += nodes
    stats[PREFIXES] = n_prefix_out


@dataclass
class SearchCounts:
    """One exhaustive (or stopped) search: canonical tilings, Burnside leaf sums, nodes."""

    canonical: int
    fix_any: int
    fix_id: int
    nodes: int
    stopped: bool


class TetrominoSearch:
    """Compiled tables of a :class:`ColoredTilingProblem` for :func:`_search` (regions up to 128 cells)."""

    def __init__(self, problem, symmetry: bool = True) -> None:
        self.problem = problem
        cells: tuple[Cell, ...] = problem.cells
        n = len(cells)
        if n > 128:
            raise ValueError(f"the fast search handles regions up to 128 cells, this one has {n}")
        index = problem.cell_index
        geo: list[tuple[int, tuple[Cell, ...]]] = []  # (shape index, cells)
        for s, shape in enumerate(problem.shapes):
            for placed in problem.region.placements(shape):
                geo.append((s, placed))
        geo.sort(key=lambda g: (min(index[c] for c in g[1]), g[0], g[1]))
        self.geo = geo
        self.geo_index = {(s, cells_): i for i, (s, cells_) in enumerate(geo)}
        G = len(geo)
        self.m_lo, self.m_hi = np.zeros(G, np.uint64), np.zeros(G, np.uint64)
        self.n_lo, self.n_hi = np.zeros(G, np.uint64), np.zeros(G, np.uint64)
        self.c_lo, self.c_hi = np.zeros(G, np.uint64), np.zeros(G, np.uint64)
        self.g_shape = np.zeros(G, np.int64)
        size = max((len(p) for _, p in geo), default=1)
        self.g_cells = np.zeros((G, size), np.int64)
        self.g_size = np.zeros(G, np.int64)
        bucket = np.zeros(n + 2, np.int64)

        def put(lo: np.ndarray, hi: np.ndarray, i: int, where) -> None:
            for cell in where:
                b = index[cell]
                if b < 64:
                    lo[i] |= np.uint64(1) << np.uint64(b)
                else:
                    hi[i] |= np.uint64(1) << np.uint64(b - 64)

        for i, (s, placed) in enumerate(geo):
            put(self.m_lo, self.m_hi, i, placed)
            if problem.edge_rule:
                put(self.n_lo, self.n_hi, i, problem.edge_neighbours(placed))
            put(self.c_lo, self.c_hi, i, problem.corner_cells(placed))
            self.g_shape[i] = s
            self.g_size[i] = len(placed)
            for j, cell in enumerate(placed):
                self.g_cells[i, j] = index[cell]
            bucket[min(index[c] for c in placed) + 1] += 1
        self.bucket = np.cumsum(bucket).astype(np.int64)
        self.n = n
        group = problem.group()
        self.group_order = len(group)
        perms = [[index[perm[c]] for c in cells] for g, perm in group if g != 0] if symmetry else []
        self.sym_perm = np.array(perms, np.int64).reshape(len(perms), n)
        self.symmetry = symmetry

    # -- the kernel, three ways -------------------------------------------------------------------
    def _run(self, prefix: Sequence[tuple[int, int]], split_depth: int = 0, cap: int = 0, limit: int = 0,
             max_nodes: int = -1, flag: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        p = self.problem
        pre_g = np.array([g for g, _ in prefix], np.int64)
        pre_k = np.array([k for _, k in prefix], np.int64)
        out_prefix = np.zeros((cap, 2 * max(split_depth, 1)), np.int64)
        out_sol = np.full(2 * (self.n + 1), -1, np.int64)
        stats = np.zeros(6, np.int64)
        _search(self.m_lo, self.m_hi, self.n_lo, self.n_hi, self.c_lo, self.c_hi, self.g_shape, self.g_cells,
                self.g_size, self.bucket, self.n, p.colors, len(p.shapes), p.corner_contact,
                self.sym_perm if split_depth == 0 else self.sym_perm[:0], pre_g, pre_k, split_depth, out_prefix,
                limit, out_sol, max_nodes, stats, new_flag() if flag is None else flag)
        return stats, out_prefix, out_sol

    def count(self, prefix: Sequence[tuple[int, int]] = (), max_nodes: int = -1,
              flag: np.ndarray | None = None) -> SearchCounts:
        """Canonical tilings extending ``prefix`` (pairs (geometric option, colour)) with the Burnside leaf sums;
        ``stopped`` when ``max_nodes`` or the interrupt ``flag`` (:mod:`solvers.interrupt`) cut it short."""
        stats, _, _ = self._run(prefix, max_nodes=max_nodes, flag=flag)
        return SearchCounts(int(stats[CANON]), int(stats[FIX_ANY]), int(stats[FIX_ID]), int(stats[NODES]),
                            bool(stats[STOPPED]))

    def split(self, depth: int) -> list[tuple[tuple[int, int], ...]]:
        """Every rule-consistent canonical state with ``depth`` pieces (fewer if the board fills): the parts."""
        if depth <= 0:
            return [()]
        cap = 4096
        stats, out = self._split_run(depth, cap)
        total = int(stats[PREFIXES])
        if total > cap:  # the first pass counted them: refuse a split that cannot fit in memory, else keep them all
            self._check_split_size(depth, total)
            stats, out = self._split_run(depth, total)
        parts = []
        for row in out[:total]:
            parts.append(tuple((int(row[i]), int(row[depth + i])) for i in range(depth)))
        # tilings completed in fewer than ``depth`` pieces are not parts (none exist for these piece sets)
        return parts

    def _split_run(self, depth: int, cap: int) -> tuple[np.ndarray, np.ndarray]:
        """One split pass (room for ``cap`` parts; all are counted); Ctrl-C stops it (KeyboardInterrupt)."""
        (stats, out, _), why = run_polling(lambda flag: self._run((), split_depth=depth, cap=cap, flag=flag))
        if why == INTERRUPTED:
            raise KeyboardInterrupt
        return stats, out

    def _check_split_size(self, depth: int, parts: int) -> None:
        """ValueError (one line, with the figures) when ``parts`` parts of ``depth`` pieces exceed the memory budget."""
        if parts * part_bytes(depth) <= SPLIT_MEMORY_BUDGET:
            return
        fits = depth - 1
        while fits > 1:
            stats, _ = self._split_run(fits, 0)
            if int(stats[PREFIXES]) * part_bytes(fits) <= SPLIT_MEMORY_BUDGET:
                break
            fits -= 1
        raise ValueError(f"split depth {depth} would make {parts:,} parts (~{parts * part_bytes(depth) / 2**30:.1f} GiB"
                         f" of memory, over the {SPLIT_MEMORY_BUDGET / 2**30:g} GiB budget); use --split-depth <= {fits}")

    def first(self, max_nodes: int = -1, time_limit: float | None = None) -> tuple[list[tuple[int, int]] | None, bool]:
        """(first tiling as (option, colour) pairs or None, whether the search was exhaustive); ``time_limit``
        (seconds) stops it undecided, Ctrl-C raises KeyboardInterrupt."""
        (stats, _, sol), why = run_polling(lambda flag: self._run((), limit=1, max_nodes=max_nodes, flag=flag),
                                           time_limit)
        if stats[CANON] >= 1:
            pairs = [(int(sol[2 * i]), int(sol[2 * i + 1])) for i in range(self.n + 1) if sol[2 * i] >= 0]
            return pairs, True
        if why == INTERRUPTED:
            raise KeyboardInterrupt
        return None, not (why == TIME_LIMIT or stats[STOPPED] and stats[NODES] >= max_nodes > 0)

    def to_options(self, pairs: Sequence[tuple[int, int]]) -> list[int]:
        """Placement numbers of the problem (``problem.options``) for (geometric option, colour) pairs."""
        p = self.problem
        piece_of = {(k, s): j for j, (k, s) in enumerate(p.pieces)}
        out = []
        for g, k in pairs:
            s, cells = self.geo[g]
            out.append(p.option_of[(piece_of[(k, s)], cells)])
        return out

    def orbit_counts(self, total: SearchCounts) -> tuple[int, int, int]:
        """(raw, up to the region's symmetries, up to symmetries and colours) from canonical leaf sums."""
        colors = self.problem.colors
        raw = total.canonical * math.factorial(colors)
        if not self.symmetry:
            raise ValueError("symmetry sums were not collected")
        sym, r1 = divmod(math.factorial(colors) * total.fix_id, self.group_order)
        sym_col, r2 = divmod(total.fix_any, self.group_order)
        if r1 or r2:
            raise AssertionError("Burnside sums are not divisible: symmetry handling is broken")
        return raw, sym, sym_col


def timed_count(problem, symmetry: bool = True) -> tuple[tuple[int, int, int], SearchCounts, float]:
    """Whole count in this process: ((raw, symmetry, symmetry+colours), leaf sums, CPU seconds)."""
    start = time.process_time()
    search = TetrominoSearch(problem, symmetry)
    total = search.count()
    return search.orbit_counts(total), total, time.process_time() - start


# --------------------------------------------------------------------------
# Knuth's estimator on the canonical tree, with exact subtrees below a depth
# --------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _probes(m_lo, m_hi, n_lo, n_hi, c_lo, c_hi, g_shape, g_cells, g_size, bucket, n_cells, n_colors, n_shapes,  # noqa: C901
            corner_rule, sym_perm, probes, seed, exact_depth, out, flag):
    """``probes`` random root paths of the canonical search; at ``exact_depth`` pieces the subtree is counted
    exactly by :func:`_search`.  ``out[i]`` = estimates of (canonical tilings, leaf_fix_any, leaf_fix_id, nodes)
    from probe i (each unbiased).  Returns how many probes finished: fewer when ``flag[0]`` turned non-zero
    (a probe whose exact subtree was cut short is dropped)."""
    np.random.seed(seed)
    cand_t = np.zeros(4096, np.int64)
    cand_k = np.zeros(4096, np.int64)
    path_g = np.zeros(n_cells + 1, np.int64)
    path_k = np.zeros(n_cells + 1, np.int64)
    empty_prefix = np.zeros((0, 2), np.int64)
    sol = np.zeros(2, np.int64)
    stats = np.zeros(6, np.int64)
    for probe in range(probes):
        if flag[0] != 0:
            return probe
        occ_lo = np.zeros(n_colors, np.uint64)
        occ_hi = np.zeros(n_colors, np.uint64)
        forb_lo = np.zeros(n_colors, np.uint64)
        forb_hi = np.zeros(n_colors, np.uint64)
        used = np.zeros(n_colors * n_shapes, np.int64)
        left = np.full(n_colors, n_shapes, np.int64)
        board_lo = np.uint64(0)
        board_hi = np.uint64(0)
        ncol = 0
        weight = 1.0
        nodes_est = 0.0
        tilings = 0.0
        f_any = 0.0
        f_id = 0.0
        level = 0
        c = 0
        while True:
            c = _first_empty(c, board_lo, board_hi, n_cells)
            if c == n_cells:  # (not reached: exact_depth < pieces)
                tilings = weight
                break
            if level == exact_depth:
                for q in range(6):
                    stats[q] = 0
                _search(m_lo, m_hi, n_lo, n_hi, c_lo, c_hi, g_shape, g_cells, g_size, bucket, n_cells, n_colors,
                        n_shapes, corner_rule, sym_perm, path_g[:level], path_k[:level], 0, empty_prefix, 0, sol, -1,
                        stats, flag)
                if stats[4] != 0:  # STOPPED by the flag: this probe's subtree is not counted
                    return probe
                tilings = weight * stats[0]
                f_any = weight * stats[1]
                f_id = weight * stats[2]
                nodes_est += weight * stats[3]
                break
            kmax = ncol if ncol < n_colors else n_colors - 1
            m = 0
            for t in range(bucket[c], bucket[c + 1]):
                if (m_lo[t] & board_lo) or (m_hi[t] & board_hi):
                    continue
                s = g_shape[t]
                for k in range(kmax + 1):
                    if used[k * n_shapes + s] or (m_lo[t] & forb_lo[k]) or (m_hi[t] & forb_hi[k]):
                        continue
                    ok = True
                    if corner_rule:  # the search's prune, applied to the child: take it, test, give it back
                        saved_lo, saved_hi = forb_lo[k], forb_hi[k]
                        _take(t, k, m_lo, m_hi, n_lo, n_hi, g_shape, n_shapes, occ_lo, occ_hi, forb_lo, forb_hi,
                              used, left)
                        path_g[level] = t
                        path_k[level] = k
                        ok = not _corner_rule_lost(level + 1, path_g, path_k, c_lo, c_hi, occ_lo, occ_hi, forb_lo,
                                                   forb_hi, board_lo | m_lo[t], board_hi | m_hi[t], left)
                        _give_back(t, k, m_lo, m_hi, g_shape, n_shapes, occ_lo, occ_hi, forb_lo, forb_hi, used, left,
                                   saved_lo, saved_hi)
                    if ok:
                        cand_t[m] = t
                        cand_k[m] = k
                        m += 1
            if m == 0:
                break
            weight *= m
            nodes_est += weight
            pick = np.random.randint(m)
            t = cand_t[pick]
            k = cand_k[pick]
            board_lo |= m_lo[t]
            board_hi |= m_hi[t]
            _take(t, k, m_lo, m_hi, n_lo, n_hi, g_shape, n_shapes, occ_lo, occ_hi, forb_lo, forb_hi, used, left)
            if k == ncol:
                ncol += 1
            path_g[level] = t
            path_k[level] = k
            level += 1
        out[probe, 0] = tilings
        out[probe, 1] = f_any
        out[probe, 2] = f_id
        out[probe, 3] = nodes_est
    return probes


PROBE_CHUNK = 2000  # random paths per kernel call: the memory of an estimate, whatever its number of paths


class _Moments:
    """Count, mean and sum of squared deviations of the paths' rows, folded chunk by chunk (Chan et al.)."""

    def __init__(self) -> None:
        self.n = 0
        self.mean = np.zeros(4, np.float64)
        self.m2 = np.zeros(4, np.float64)

    def folded(self, rows: np.ndarray) -> _Moments:
        """These moments with a chunk of rows folded in, as a new object (one binding: a Ctrl-C never tears it)."""
        k = rows.shape[0]
        if k == 0:
            return self
        mean = rows.mean(axis=0)
        m2 = ((rows - mean) ** 2).sum(axis=0)
        n = self.n + k
        delta = mean - self.mean
        result = _Moments()
        result.mean = self.mean + delta * (k / n)
        result.m2 = self.m2 + m2 + delta * delta * (self.n * k / n)
        result.n = n
        return result


def estimate_canonical(problem, probes: int = 10_000, seed: int = 0, exact_depth: int = -1,
                       time_limit: float | None = None, progress: Callable[[int, int], None] | None = None) -> dict:
    """Knuth's estimate of the number of tilings, in three units, each with its standard error.

    The random paths walk the canonical search tree (one tiling per colour permutation), so what is
    sampled directly is **tilings up to colour permutation** (``canonical``); ``raw`` = that × colors!
    exactly.  Each path also carries the Burnside leaf sums of its exact subtree (see the module text),
    so ``symmetry`` = colors!·fix_id/|G| (orbits under the region's symmetries, colours kept) and
    ``symmetry_colors`` = fix_any/|G| (orbits under symmetries and colour permutations) are unbiased
    estimates too.  Below ``exact_depth`` pieces (default: 60% of the pieces) each path's subtree is
    counted exactly, which removes most of the variance of plain Knuth probes; ``exact_depth`` 0 is the
    exact count (zero error).  ``time_limit`` (wall seconds) or Ctrl-C stops the paths (within a few
    thousand search nodes; memory stays constant, chunks of 2,000 paths are folded as they come): the
    estimate then uses the paths done (``probes`` in the result; status ``estimate (time limit)``).
    ``progress(paths done, paths)`` is called after each chunk.
    """
    search = problem.canonical_search()
    n_pieces = len(problem.pieces)
    if exact_depth < 0:
        exact_depth = max(1, int(round(0.6 * n_pieces)))
    exact_depth = min(exact_depth, n_pieces - 1)
    if probes < 2:
        raise ValueError("the estimate needs at least 2 probes")
    start = time.process_time()
    wall = time.perf_counter()
    folded = {"moments": _Moments()}  # the paths done; rebound only in the kernel's thread, where no Ctrl-C lands
    chunk = 0
    stopped = 0
    last = False  # the time is up before two paths: draw the missing ones without a limit
    try:
        while folded["moments"].n < probes and not stopped:  # chunks of paths (constant memory), each stoppable inside
            done = folded["moments"].n
            size = 2 - done if last else min(probes - done, PROBE_CHUNK)
            left = None if time_limit is None or last else max(0.0, time_limit - (time.perf_counter() - wall))
            out = np.zeros((size, 4), np.float64)
            chunk_seed = (seed * 1_000_003 + chunk) % 2**31

            def paths(flag: np.ndarray, size: int = size, out: np.ndarray = out, chunk_seed: int = chunk_seed) -> int:
                finished = int(_probes(search.m_lo, search.m_hi, search.n_lo, search.n_hi, search.c_lo, search.c_hi,
                                       search.g_shape, search.g_cells, search.g_size, search.bucket, search.n,
                                       problem.colors, len(problem.shapes), problem.corner_contact, search.sym_perm, size,
                                       chunk_seed, exact_depth, out, flag))
                # folded before the kernel's thread ends: a Ctrl-C that lands just after cannot lose these paths
                folded["moments"] = folded["moments"].folded(out[:finished])
                return finished

            _, stopped = run_polling(paths, left)
            chunk += 1
            if progress is not None:
                progress(folded["moments"].n, probes)
            if stopped == TIME_LIMIT and folded["moments"].n < 2:
                stopped, last = 0, True  # a time limit still waits for the two paths an error needs
            elif last and not stopped:
                stopped = TIME_LIMIT
    except KeyboardInterrupt:  # Ctrl-C between two chunks, outside the kernel's wait: the paths folded stay
        stopped = INTERRUPTED
    interrupted = stopped == INTERRUPTED
    moments = folded["moments"]
    if moments.n < 2:
        raise KeyboardInterrupt
    probes_asked, probes = probes, moments.n
    seconds = time.process_time() - start
    means = moments.mean
    errors = np.sqrt(moments.m2 / (probes - 1)) / math.sqrt(probes)
    factor = math.factorial(problem.colors)
    G = search.group_order
    return {
        "units": {
            "canonical": "tilings up to colour permutation (what the random paths sample)",
            "raw": "tilings as coloured drawings = canonical x colors!",
            "symmetry": "orbits under the region's symmetries, colours kept",
            "symmetry_colors": "orbits under the region's symmetries and colour permutations",
        },
        "probes": probes, "exact_depth": exact_depth, "seed": seed, "cpu_seconds": round(seconds, 3),
        "canonical": float(means[0]), "canonical_stderr": float(errors[0]),
        "raw": float(means[0] * factor), "raw_stderr": float(errors[0] * factor),
        "symmetry": float(means[2] * factor / G), "symmetry_stderr": float(errors[2] * factor / G),
        "symmetry_colors": float(means[1] / G), "symmetry_colors_stderr": float(errors[1] / G),
        "nodes_estimate": float(means[3]),
        "status": ("estimate" if probes == probes_asked else
                   f"estimate ({'interrupted' if interrupted else 'time limit'}: fewer paths)"),
        "interrupted": interrupted,
    }
