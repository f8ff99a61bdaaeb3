"""The coloured tetromino rectangle counted by a frontier DP (broken-profile transfer matrix) with memoization.

Docs: ``docs/tetromino-count.md`` (the DP method); rules: ``docs/rules/blokus.md`` (the solitaire puzzle).

The split method (:mod:`solvers.blokus.tetromino_split`) enumerates every shape tiling; this module *counts*
coloured tilings without listing them, by merging partial tilings that have the same future.

* **Order.** Cells line by line along the narrow side of the region's bounding box (width ``W``; the
  region is transposed when it is at least as wide as tall: the order of ``Region.ordered_cells``), so a
  tiling is built by always covering the first empty cell ``p`` with a placement whose first cell is ``p``
  (every tiling exactly once).
* **State at p** (all cells before p are filled): the cells ``p-W .. p+F-1`` (``F`` = one past the
  farthest cell a placement reaches from its first cell, ``3W + 1`` for the I), each coded empty,
  filled-neutral, or filled with colour k; a filled cell keeps its colour only while it still has an empty
  edge neighbour and its colour an unused shape (it can still forbid a placement), otherwise it becomes
  neutral so that states merge; plus ``U``,
  the (shape, colour) pairs used so far (each pair is used exactly once in a tiling).  Cells after the
  window are empty (no placement made so far reaches them).
* **Transition**: every placement of a shape covering p (p its first cell) on empty cells, with every
  colour k whose (shape, k) is unused and that no edge neighbour of the piece has.
* **Colour symmetry**: states are canonicalised under the colour permutations before lookup (colours
  renamed by first appearance in the window, then the absent ones by their column of ``U``; absent
  colours with equal columns are interchangeable, so a transition to one of them is made once with
  their number as weight).  Counts stay raw (colours labelled): a state's count is invariant under
  renaming its colours.
* **Forward DP**: one open-addressing hash table per first-empty cell (keys: the window's 3-bit codes in
  uint64 words, then the used pairs; value the number of ways to reach the state, raw); the tables are processed in cell order, each emitting
  into later ones and then freed, so only the states of about ``F`` cells are held at once.  The states
  reaching "no empty cell" sum to the raw count; modulo colours = raw / colours!.
* **Symmetry** (orbits under the region's symmetries, and under symmetries × colour permutations) by
  Burnside from the raw count and the fixed-point counts Fix(g, σ), g ≠ identity (tilings that g maps
  onto themselves with colours permuted by σ: few), counted by a compiled first-empty-cell search that
  places every piece together with its orbit under (g, σ) (:func:`fixed_counts`).

* **Shape tilings** (``shapes_only``): the same DP with one colour and a 3-bit count per shape instead of
  ``U`` (at most ``colors`` copies of each), every filled cell neutral: colours ignored.

Without the edge rule the colour check is skipped and every filled cell is neutral.  The corner
rule is not supported (a corner contact may be made by a later piece, which the window does not track).
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np
from numba import njit
from numba.typed import List

from puzzles.polyomino import Cell
from solvers.blokus.tetromino_split import SplitSearch, _first_empty
from solvers.interrupt import INTERRUPTED, TIME_LIMIT, run_polling

EMPTY, NEUTRAL = 0, 1  # cell codes; colour k is code k + 2
CODE_BITS = 3
CELLS_PER_WORD = 21  # 3-bit codes in a 64-bit word
MAX_COLORS = 4
START_SLOTS = 1 << 10
MAX_LOAD = 0.7
POLL = 1 << 14  # states between looks at the interrupt flag
# stats slots of the kernel
RAW, STATES_DONE, TRANSITIONS, STOPPED, HELD = range(5)
N_STATS = 5
BY_FLAG, BY_MEMORY = 1, 2  # stats[STOPPED]
MEMORY_BUDGET = 6 << 30  # bytes of hash tables a DP may hold (then it stops: the count is out of its reach)


@njit(cache=True)
def _hash(key):
    """A 64-bit mix of the key words (splitmix64 finaliser after each word)."""
    h = np.uint64(0x9E3779B97F4A7C15)
    for w in range(key.shape[0]):
        h ^= key[w]
        h ^= h >> np.uint64(31)
        h *= np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(29)
        h *= np.uint64(0x94D049BB133111EB)
        h ^= h >> np.uint64(32)
    return h


@njit(cache=True)
def _put(keys, vals, key, v):
    """Add ``v`` (> 0) to the value of ``key``; 1 when the key is new.  An empty slot has value 0."""
    mask = np.uint64(vals.shape[0] - 1)
    i = np.int64(_hash(key) & mask)
    width = keys.shape[1]
    while True:
        if vals[i] == 0:
            for w in range(width):
                keys[i, w] = key[w]
            vals[i] = v
            return 1
        same = True
        for w in range(width):
            if keys[i, w] != key[w]:
                same = False
                break
        if same:
            vals[i] += v
            return 0
        i = (i + 1) & np.int64(mask)


@njit(cache=True)
def _insert(tab_k, tab_v, fills, q, key, v):
    """Add ``v`` ways to the state ``key`` in the table of cell ``q``, doubling the table when it is full."""
    keys = tab_k[q]
    vals = tab_v[q]
    if (fills[q] + 1) * 10 > vals.shape[0] * 7:
        cap = vals.shape[0] * 2
        nk = np.zeros((cap, keys.shape[1]), np.uint64)
        nv = np.zeros(cap, np.int64)
        for i in range(vals.shape[0]):
            if vals[i] != 0:
                _put(nk, nv, keys[i], vals[i])
        tab_k[q] = nk
        tab_v[q] = nv
        keys = nk
        vals = nv
    new = _put(keys, vals, key, v)
    fills[q] += new
    return new


@njit(cache=True)
def _neutralise(ext, p, used, W, F, n, inreg, n_shapes, edge_rule):
    """Filled cells of the window that no longer matter become neutral: all without the edge rule, else those of
    a finished colour (all its shapes used) and those without an empty edge neighbour."""
    full = (np.uint64(1) << np.uint64(n_shapes)) - np.uint64(1)
    for j in range(W + F):
        if ext[j] < 2:
            continue
        if not edge_rule:
            ext[j] = NEUTRAL
            continue
        if (used >> np.uint64((ext[j] - 2) * n_shapes)) & full == full:
            ext[j] = NEUTRAL
            continue
        x = p - W + j
        col = x % W
        if j + W < ext.shape[0]:
            live = ext[j + W] == EMPTY
        else:
            live = x + W < n and inreg[x + W]
        if not live and j >= W and ext[j - W] == EMPTY:
            live = True
        if not live and col > 0 and j >= 1 and ext[j - 1] == EMPTY:
            live = True
        if not live and col < W - 1 and j + 1 < ext.shape[0] and ext[j + 1] == EMPTY:
            live = True
        if not live:
            ext[j] = NEUTRAL


@njit(cache=True)
def _finish(ext, p, used, W, F, n, inreg, n_shapes, n_colors, edge_rule, rel, cols, out):
    """Neutralise, canonicalise and pack the state whose window ``ext`` starts at cell ``p - W``; the key in
    ``out`` (the window's codes, 21 to a word, then the used pairs; ``n_shapes`` bits per colour)."""
    win = W + F
    _neutralise(ext, p, used, W, F, n, inreg, n_shapes, edge_rule)
    # canonical colour names: first appearance in the window, then the absent colours by their column of used
    for k in range(n_colors):
        rel[k] = -1
    nxt = 0
    for j in range(win):
        if ext[j] >= 2 and rel[ext[j] - 2] < 0:
            rel[ext[j] - 2] = nxt
            nxt += 1
    colmask = (np.uint64(1) << np.uint64(n_shapes)) - np.uint64(1)
    for k in range(n_colors):
        cols[k] = (used >> np.uint64(k * n_shapes)) & colmask
    while nxt < n_colors:
        best = -1
        for k in range(n_colors):
            if rel[k] < 0 and (best < 0 or cols[k] < cols[best]):
                best = k
        rel[best] = nxt
        nxt += 1
    last = out.shape[0] - 1
    for w in range(last + 1):
        out[w] = np.uint64(0)
    for j in range(win):
        code = ext[j]
        if code >= 2:
            code = rel[code - 2] + 2
        w = j // CELLS_PER_WORD
        out[w] |= np.uint64(code) << np.uint64(CODE_BITS * (j - w * CELLS_PER_WORD))
    for k in range(n_colors):
        out[last] |= cols[k] << np.uint64(rel[k] * n_shapes)


@njit(cache=True, nogil=True)
def _expand(p, tab_k, tab_v, fills, W, F, n, inreg, n_shapes, n_colors, edge_rule, copies,  # noqa: C901
            col_start, pl_shape, pl_size, pl_cells, pl_nsize, pl_nbrs, max_held, flag, stats):
    """Every state of cell ``p``'s table: each placement and colour into the table of the next empty cell (the
    finished tilings into ``stats[RAW]``); then the table is freed.  Returns False when ``flag`` stopped it or
    the states held (``stats[HELD]``) passed ``max_held``.  ``copies > 0``: shape tilings (one colour, at most
    ``copies`` pieces of each shape, ``used`` holding a 3-bit count per shape)."""
    keys = tab_k[p]
    vals = tab_v[p]
    win = W + F
    size = 2 * W + 2 * F + 2
    ext = np.zeros(size, np.int64)
    nxt = np.zeros(size, np.int64)
    rel = np.zeros(n_colors, np.int64)
    cols = np.zeros(n_colors, np.uint64)
    last = keys.shape[1] - 1
    out = np.zeros(last + 1, np.uint64)
    weight = np.zeros(n_colors, np.int64)
    colmask = (np.uint64(1) << np.uint64(n_shapes)) - np.uint64(1)
    ubits = 3 * n_shapes if copies > 0 else n_shapes
    col = p % W
    seen = 0
    for i in range(vals.shape[0]):
        v = vals[i]
        if v == 0:
            continue
        seen += 1
        if seen % POLL == 0 and (flag[0] != 0 or stats[HELD] > max_held):
            stats[STOPPED] = BY_FLAG if flag[0] != 0 else BY_MEMORY
            return False
        stats[STATES_DONE] += 1
        used = keys[i, last]
        for j in range(win):
            w = j // CELLS_PER_WORD
            ext[j] = np.int64((keys[i, w] >> np.uint64(CODE_BITS * (j - w * CELLS_PER_WORD))) & np.uint64(7))
        for j in range(win, size):
            x = p - W + j
            ext[j] = EMPTY if x < n and inreg[x] else NEUTRAL
        # colours interchangeable here (absent from the window, equal columns of used): one representative each
        present = 0
        for j in range(win):
            if ext[j] >= 2:
                present |= 1 << (ext[j] - 2)
        for k in range(n_colors):
            weight[k] = 1
            if present & (1 << k):
                continue
            ck = (used >> np.uint64(k * n_shapes)) & colmask
            for h in range(k):
                if not present & (1 << h) and weight[h] > 0 and (used >> np.uint64(h * n_shapes)) & colmask == ck:
                    weight[h] += 1
                    weight[k] = 0
                    break
        for t in range(col_start[col], col_start[col + 1]):
            fits = True
            for a in range(pl_size[t]):
                if ext[W + pl_cells[t, a]] != EMPTY:
                    fits = False
                    break
            if not fits:
                continue
            s = pl_shape[t]
            near = 0
            if edge_rule:
                for a in range(pl_nsize[t]):
                    code = ext[W + pl_nbrs[t, a]]
                    if code >= 2:
                        near |= 1 << (code - 2)
            for k in range(n_colors):
                if weight[k] == 0 or near & (1 << k):
                    continue
                if copies > 0:
                    if (used >> np.uint64(3 * s)) & np.uint64(7) >= np.uint64(copies):
                        continue
                    now = used + (np.uint64(1) << np.uint64(3 * s))
                else:
                    bit = np.uint64(1) << np.uint64(k * n_shapes + s)
                    if used & bit:
                        continue
                    now = used | bit
                stats[TRANSITIONS] += 1
                for a in range(pl_size[t]):
                    ext[W + pl_cells[t, a]] = k + 2
                q = -1
                for j in range(W + 1, size):
                    if ext[j] == EMPTY:
                        q = p - W + j
                        break
                if q < 0:
                    x = p - W + size
                    while x < n and not inreg[x]:
                        x += 1
                    q = x if x < n else -1
                if q < 0:
                    stats[RAW] += v * weight[k]
                else:
                    d = q - p
                    for j in range(size):
                        if j + d < size:
                            nxt[j] = ext[j + d]
                        else:
                            x = q - W + j
                            nxt[j] = EMPTY if x < n and inreg[x] else NEUTRAL
                    _finish(nxt, q, now, W, F, n, inreg, ubits, n_colors, edge_rule, rel, cols, out)
                    stats[HELD] += _insert(tab_k, tab_v, fills, q, out, v * weight[k])
                for a in range(pl_size[t]):
                    ext[W + pl_cells[t, a]] = EMPTY
    stats[HELD] -= fills[p]
    fills[p] = 0
    tab_k[p] = np.zeros((1, last + 1), np.uint64)
    tab_v[p] = np.zeros(1, np.int64)
    return True


@dataclass
class DPCounts:
    """A DP count: raw coloured tilings, the orbit counts (None when not asked for), states and CPU seconds."""

    raw: int
    modulo_colors: int
    symmetry: int | None
    symmetry_colors: int | None
    states: int
    peak_states: int
    transitions: int
    seconds: float
    complete: bool = True
    states_per_line: tuple[int, ...] = ()
    stopped_by: str = ""  # "", "time_limit", "memory" (more states than the budget) or "stop_line"


class TetrominoDP:
    """Compiled tables of a :class:`~solvers.blokus.tetrominoes.ColoredTilingProblem` for the frontier DP
    (up to 4 colours, up to 64 (shape, colour) pairs, no corner rule)."""

    def __init__(self, problem, shapes_only: bool = False) -> None:
        """``shapes_only``: count the shape tilings instead (colours ignored, ``colors`` copies of each shape)."""
        if problem.corner_contact and not shapes_only:
            raise ValueError("the DP method does not support the corner rule (use --method direct)")
        if problem.colors > MAX_COLORS:
            raise ValueError(f"the DP method handles up to {MAX_COLORS} colours")
        self.problem = problem
        self.copies = problem.colors if shapes_only else 0
        self.colors = 1 if shapes_only else problem.colors
        self.edge_rule = problem.edge_rule and not shapes_only
        cells = list(problem.region.cells)
        rows = [r for r, _ in cells]
        cols = [c for _, c in cells]
        r0, c0 = min(rows), min(cols)
        height, width = max(rows) - r0 + 1, max(cols) - c0 + 1
        self.transposed = height <= width  # lines along the short side, as Region.ordered_cells
        if self.transposed:
            height, width = width, height
        self.W, self.lines = width, height
        self.n = width * height
        self.index: dict[Cell, int] = {}
        for r, c in cells:
            line, pos = (c - c0, r - r0) if self.transposed else (r - r0, c - c0)
            self.index[(r, c)] = line * width + pos
        self.inreg = np.zeros(self.n, np.bool_)
        for x in self.index.values():
            self.inreg[x] = True
        self.n_shapes = len(problem.shapes)
        if self.n_shapes * problem.colors > 64 or (shapes_only and (self.n_shapes > 21 or problem.colors > 7)):
            raise ValueError("the DP method handles up to 64 (shape, colour) pairs")
        self.ubits = 3 * self.n_shapes if shapes_only else self.n_shapes  # bits of used per colour
        self._placements()
        self.words = -(-(self.W + self.F) // CELLS_PER_WORD) + 1  # key: window codes, then the used pairs

    def _placements(self) -> None:
        """For each column of the first cell: the placements (shape, orientation) whose first cell (line order)
        it is, as cell and edge-neighbour offsets from it; ``F`` = the farthest offset a placement reaches."""
        W = self.W
        by_col: list[list[tuple[int, list[int], list[int]]]] = [[] for _ in range(W)]
        far = 1
        for s, shape in enumerate(self.problem.shapes):
            seen = set()
            for o in shape.orientations():
                # (line, pos) coordinates of the orientation in the DP's frame
                pts = sorted((c, r) if self.transposed else (r, c) for r, c in o.cells)
                key = tuple(pts)
                if key in seen:
                    continue
                seen.add(key)
                a_line, a_pos = pts[0]
                rel = [(ln - a_line, ps - a_pos) for ln, ps in pts]
                own = set(rel)
                nbrs = sorted({(ln + dl, ps + dp) for ln, ps in rel for dl, dp in ((-1, 0), (1, 0), (0, -1), (0, 1))}
                              - own)
                for col in range(W):
                    if any(not 0 <= col + ps < W for _, ps in rel):
                        continue
                    offs = [ln * W + ps for ln, ps in rel]
                    near = [ln * W + ps for ln, ps in nbrs if 0 <= col + ps < W and ln * W + ps >= -W]
                    far = max(far, max(offs) + 1)
                    by_col[col].append((s, offs, near))
        self.F = far
        flat = [x for lst in by_col for x in lst]
        count = len(flat)
        size = max(len(o) for _, o, _ in flat)
        nsize = max(len(nb) for _, _, nb in flat)
        self.col_start = np.zeros(W + 1, np.int64)
        self.col_start[1:] = np.cumsum([len(lst) for lst in by_col])
        self.pl_shape = np.zeros(count, np.int64)
        self.pl_size = np.zeros(count, np.int64)
        self.pl_cells = np.zeros((count, size), np.int64)
        self.pl_nsize = np.zeros(count, np.int64)
        self.pl_nbrs = np.zeros((count, nsize), np.int64)
        for t, (s, offs, near) in enumerate(flat):
            self.pl_shape[t], self.pl_size[t], self.pl_nsize[t] = s, len(offs), len(near)
            self.pl_cells[t, :len(offs)] = offs
            self.pl_nbrs[t, :len(near)] = near

    def start_state(self, pieces: Sequence[tuple[int, int, Sequence[Cell]]] = ()) -> tuple[int, np.ndarray] | None:
        """(first empty cell, key) of the state after placing ``pieces`` ((colour, shape, cells) in region
        coordinates, covering a prefix of the DP's cell order; the colour is ignored for shape tilings); None
        when nothing is empty."""
        board = np.where(self.inreg, EMPTY, NEUTRAL).astype(np.int64)
        used = 0
        for colour, shape, cells in pieces:
            for cell in cells:
                board[self.index[cell]] = (0 if self.copies else colour) + 2
            used = used + (1 << 3 * shape) if self.copies else used | 1 << (colour * self.n_shapes + shape)
        empty = np.flatnonzero(board == EMPTY)
        if len(empty) == 0:
            return None
        p = int(empty[0])
        W, F = self.W, self.F
        size = 2 * W + 2 * F + 2
        ext = np.full(size, NEUTRAL, np.int64)
        for j in range(size):
            x = p - W + j
            if 0 <= x < self.n:
                ext[j] = board[x]
        out = np.zeros(self.words, np.uint64)
        _finish(ext, p, np.uint64(used), W, F, self.n, self.inreg, self.ubits, self.colors, self.edge_rule,
                np.zeros(self.colors, np.int64), np.zeros(self.colors, np.uint64), out)
        return p, out

    def run(self, starts: Sequence[tuple[int, np.ndarray, int]] | None = None,
            progress: Callable[[int, int, int], None] | None = None, time_limit: float | None = None,
            stop_line: int | None = None, memory_budget: int = MEMORY_BUDGET) -> DPCounts:
        """The forward DP from ``starts`` ((cell, key, ways); default the empty region), summing the tilings
        completed.  ``progress(cell, states held, states so far)`` after each cell; ``stop_line`` stops
        before that line (states per line only, for measuring).  Ctrl-C raises KeyboardInterrupt; the
        ``time_limit`` or more states than ``memory_budget`` bytes of tables hold return an incomplete count
        (``stopped_by`` says which)."""
        begin = time.process_time()
        n, W = self.n, self.W
        tab_k = List()
        tab_v = List()
        for _ in range(n + 1):
            tab_k.append(np.zeros((START_SLOTS, self.words), np.uint64))
            tab_v.append(np.zeros(START_SLOTS, np.int64))
        fills = np.zeros(n + 1, np.int64)
        stats = np.zeros(N_STATS, np.int64)
        if starts is None:
            first = self.start_state()
            starts = [] if first is None else [(first[0], first[1], 1)]
        for p, key, ways in starts:
            _insert(tab_k, tab_v, fills, p, key, ways)
        stats[HELD] = fills.sum()
        max_held = int(memory_budget * MAX_LOAD / 2 / (8 * (self.words + 1)))  # tables are 35-70% full
        states = peak = 0
        per_line = [0] * self.lines
        expand = cast(Callable[..., bool], _expand)
        deadline = None if time_limit is None else time.monotonic() + time_limit
        stopped = ""
        for p in range(min((p for p, _, _ in starts), default=n), n):
            if stop_line is not None and p // W >= stop_line:
                stopped = "stop_line"
                break
            here = int(fills[p])
            states += here
            per_line[p // W] += here
            if here == 0:
                if progress is not None:
                    progress(p, int(stats[HELD]), states)
                continue
            left = None if deadline is None else max(deadline - time.monotonic(), 0.0)
            args = (p, tab_k, tab_v, fills, W, self.F, n, self.inreg, self.n_shapes, self.colors, self.edge_rule,
                    self.copies, self.col_start, self.pl_shape, self.pl_size, self.pl_cells,
                    self.pl_nsize, self.pl_nbrs, max_held)
            ok, why = run_polling(lambda flag, a=args: expand(*a, flag, stats), left)  # type: ignore[misc]
            peak = max(peak, int(stats[HELD]) + (here if ok else 0))
            if why == INTERRUPTED:
                raise KeyboardInterrupt
            if not ok:
                stopped = "time_limit" if why == TIME_LIMIT else "memory"
                break
            if progress is not None:
                progress(p, int(stats[HELD]), states)
        raw = int(stats[RAW])
        return DPCounts(raw, raw // math.factorial(self.colors), None, None, states, peak,
                        int(stats[TRANSITIONS]), time.process_time() - begin, not stopped, tuple(per_line), stopped)


@njit(cache=True)
def _fixed_search(board_lo, board_hi, col_lo, col_hi, used, m_lo, m_hi, e_lo, e_hi, g_shape, bucket, img, sigma,
                  n_cells, edge_rule, orbit_t, orbit_c, depth):
    """Tilings fixed by a symmetry g with the colours permuted by σ: a first-empty-cell search placing each piece
    together with its orbit (g(P) coloured σ(c), ...; ``img``: each placement's image under g).  Returns how
    many complete the board."""
    c = _first_empty(0, board_lo, board_hi, n_cells)
    if c == n_cells:
        return 1
    total = 0
    n_colors = col_lo.shape[0]
    base = depth * 4
    for t in range(bucket[c], bucket[c + 1]):
        if (m_lo[t] & board_lo) or (m_hi[t] & board_hi):
            continue
        for k in range(n_colors):
            if used[g_shape[t], k]:
                continue
            # the orbit of (t, k) under (g, σ): every member on free cells, unused pair, no same-colour edge
            lo, hi = board_lo, board_hi
            size = 0
            u, h = t, k
            ok = True
            while True:
                if (m_lo[u] & lo) or (m_hi[u] & hi) or used[g_shape[u], h]:
                    ok = False
                    break
                if edge_rule and ((e_lo[u] & col_lo[h]) or (e_hi[u] & col_hi[h])):
                    ok = False
                    break
                orbit_t[base + size] = u
                orbit_c[base + size] = h
                size += 1
                lo |= m_lo[u]
                hi |= m_hi[u]
                used[g_shape[u], h] = True
                col_lo[h] |= m_lo[u]
                col_hi[h] |= m_hi[u]
                u, h = img[u], sigma[h]
                if u == t and h == k:
                    break
                if size == 4:
                    ok = False
                    break
            if ok:
                total += _fixed_search(lo, hi, col_lo, col_hi, used, m_lo, m_hi, e_lo, e_hi, g_shape, bucket, img,
                                       sigma, n_cells, edge_rule, orbit_t, orbit_c, depth + 1)
            for i in range(size):
                u = orbit_t[base + i]
                h = orbit_c[base + i]
                used[g_shape[u], h] = False
                col_lo[h] &= ~m_lo[u]
                col_hi[h] &= ~m_hi[u]
    return total


def fixed_counts(problem) -> dict[tuple[int, tuple[int, ...]], int]:
    """Fix(g, σ) for every symmetry g ≠ identity of the region and colour permutation σ (no corner rule): the
    coloured tilings g maps onto themselves with colours renamed by σ, by :func:`_fixed_search`."""
    split = SplitSearch(problem, symmetry=False)
    number = {(s, frozenset(cells)): t for t, (s, cells) in enumerate(split.geo)}
    out: dict[tuple[int, tuple[int, ...]], int] = {}
    colors, n_shapes = problem.colors, len(problem.shapes)
    search = cast(Callable[..., int], _fixed_search)
    for g, perm in problem.group():
        if g == 0:
            continue
        img = np.array([number[(s, frozenset(perm[x] for x in cells))] for s, cells in split.geo], np.int64)
        for sigma in itertools.permutations(range(colors)):
            out[(g, sigma)] = int(search(
                np.uint64(0), np.uint64(0), np.zeros(colors, np.uint64), np.zeros(colors, np.uint64),
                np.zeros((n_shapes, colors), np.bool_), split.m_lo, split.m_hi, split.e_lo, split.e_hi,
                split.g_shape, split.bucket, img, np.array(sigma, np.int64), split.n, problem.edge_rule,
                np.zeros(4 * (len(problem.pieces) + 1), np.int64), np.zeros(4 * (len(problem.pieces) + 1), np.int64), 0))
    return out


def prefix_starts(problem, dp: TetrominoDP, placed: Sequence[tuple[int, Sequence[Cell]]]) -> list[tuple[int, np.ndarray, int]]:
    """The DP's start states for every colouring of the shape placements ``placed`` ((shape, cells), covering a
    prefix of the cell order, e.g. a part of the split method): distinct (shape, colour) pairs, the edge rule
    among them.  The DP from them counts the raw tilings extending ``placed``."""
    starts = []
    for colours in itertools.product(range(problem.colors), repeat=len(placed)):
        if len({(s, k) for (s, _), k in zip(placed, colours, strict=True)}) < len(placed):
            continue
        if problem.edge_rule and any(colours[a] == colours[b] and set(problem.edge_neighbours(placed[a][1]))
                                     & set(placed[b][1]) for a in range(len(placed)) for b in range(a)):
            continue
        state = dp.start_state([(k, s, cells) for (s, cells), k in zip(placed, colours, strict=True)])
        if state is None:
            raise ValueError("the placements fill the region: nothing left to count")
        starts.append((state[0], state[1], 1))
    return starts


def symmetry_counts(problem, raw: int) -> tuple[int, int]:
    """(orbits under the region's symmetries, under symmetries × colour permutations) by Burnside, from the raw
    count and the fixed-point counts Fix(g, σ) for g ≠ identity (Fix(identity, σ ≠ id) = 0)."""
    group = problem.group()
    colors = problem.colors
    identity = tuple(range(colors))
    fixed = fixed_counts(problem)
    sym = raw + sum(v for (_, sigma), v in fixed.items() if sigma == identity)
    every = raw + sum(fixed.values())
    q1, r1 = divmod(sym, len(group))
    q2, r2 = divmod(every, len(group) * math.factorial(colors))
    if r1 or r2:
        raise AssertionError("Burnside sums are not divisible: symmetry handling is broken")
    return q1, q2


def dp_count(problem, symmetry: bool = True, progress: Callable[[int, int, int], None] | None = None,
             time_limit: float | None = None) -> DPCounts:
    """The whole count by the DP (raw, modulo colours, and with ``symmetry`` the orbit counts)."""
    begin = time.process_time()
    result = TetrominoDP(problem).run(progress=progress, time_limit=time_limit)
    if symmetry and result.complete:
        result.symmetry, result.symmetry_colors = symmetry_counts(problem, result.raw)
    result.seconds = time.process_time() - begin
    return result
