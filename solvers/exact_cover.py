"""Exact cover with colors (Knuth's Algorithm X/C with dancing links), compiled with numba.

* **Primary** items must be covered exactly once, **secondary** items at most
  once; a secondary item in an option may carry a **color** (``x:A``), and
  options may share a secondary item only when they give it the same color
  (Knuth's XCC, Algorithm C in TAOCP 7.2.2.1).
* The item to branch on is chosen by MRV (fewest remaining options, first in
  item order on ties; the first item with at most one option is taken at once,
  as a forced move cannot branch), so results are deterministic.
* The search is an explicit-stack state machine: :func:`_dlx_run` runs for at
  most ``chunk`` nodes and returns, and the Python driver resumes it.  Between
  chunks the driver reports progress, checks node/time limits and lets Ctrl-C
  through, so long runs can be watched and interrupted cleanly.

Input: the Python API (:class:`ExactCoverProblem` with item names and options
as lists of item names, ``"x:A"`` for a colored secondary item) or Knuth's
text format (:func:`parse_knuth`): the first line lists the primary items, then
``|`` and the secondary items; each further line is one option; lines starting
with ``|`` are comments.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

from solvers.interrupt import INTERRUPTED, TIME_LIMIT, run_polling

# status codes returned by the kernels
FINISHED, SUSPENDED, BUFFER_FULL = 0, 1, 2
DEFAULT_CHUNK = 2_000_000


@dataclass(frozen=True)
class SearchResult:
    """Outcome of a count or search: how many solutions, whether the search was exhaustive."""

    count: int
    complete: bool
    nodes: int
    seconds: float
    stopped_by: str = ""  # "", "node_limit", "time_limit", "interrupt"


class SearchLimits:
    """Node/time limits and progress reporting shared by the compiled searches."""

    def __init__(
        self,
        node_limit: int | None = None,
        time_limit: float | None = None,
        progress: Callable[[int, int], None] | None = None,
        chunk: int = DEFAULT_CHUNK,
    ) -> None:
        self.node_limit = node_limit
        self.time_limit = time_limit
        self.progress = progress
        self.chunk = chunk
        self.start = time.perf_counter()

    def next_chunk(self, nodes_done: int) -> int:
        """Nodes allowed in the next kernel call (0 when a limit is reached)."""
        if self.node_limit is not None:
            return max(0, min(self.chunk, self.node_limit - nodes_done))
        return self.chunk

    def remaining(self, nodes_used: int) -> SearchLimits:
        """The same limits (same clock) less ``nodes_used`` nodes, for the next part of a split search."""
        node_limit = None if self.node_limit is None else max(0, self.node_limit - nodes_used)
        part = SearchLimits(node_limit, self.time_limit, self.progress, self.chunk)
        part.start = self.start
        return part

    def expired(self) -> bool:
        return self.time_limit is not None and time.perf_counter() - self.start >= self.time_limit

    def elapsed(self) -> float:
        return time.perf_counter() - self.start


# --------------------------------------------------------------------------
# problem definition and Knuth's format
# --------------------------------------------------------------------------


def split_color(token: str) -> tuple[str, str]:
    """``"x:A"`` → ``("x", "A")``; ``"x"`` → ``("x", "")``."""
    name, _, color = token.partition(":")
    return name, color


class ExactCoverProblem:
    """Items (primary and secondary) and options; each option is a list of item names."""

    def __init__(
        self,
        primary: Sequence[str],
        options: Sequence[Sequence[str]],
        secondary: Sequence[str] = (),
    ) -> None:
        self.primary = list(primary)
        self.secondary = list(secondary)
        self.options = [list(option) for option in options]
        self._validate()

    def _validate(self) -> None:
        names = self.primary + self.secondary
        if len(set(names)) != len(names):  # linear, not quadratic: 100,000 items must load at once
            seen: set[str] = set()
            twice: set[str] = set()
            for name in names:
                (twice if name in seen else seen).add(name)
            raise ValueError(f"item listed twice: {min(twice)}")
        primary, secondary = set(self.primary), set(self.secondary)
        for number, option in enumerate(self.options, 1):
            seen = set()
            for token in option:
                name, color = split_color(token)
                if ":" in color or (":" in token and not color):
                    raise ValueError(f"option {number} has a malformed item {token!r}; write item or item:color")
                if name not in primary and name not in secondary:
                    raise ValueError(f"option {number} uses unknown item {name!r}")
                if color and name in primary:
                    raise ValueError(f"option {number} colors primary item {name!r}; only secondary items take colors")
                if name in seen:
                    raise ValueError(f"option {number} names item {name!r} twice")
                seen.add(name)
            if not seen & primary:
                raise ValueError(f"option {number} has no primary item")

    # -- compiled form ----------------------------------------------------------
    def compile(self) -> DancingLinks:
        return DancingLinks(self)

    # -- convenience ----------------------------------------------------------
    def solve(self, **limits) -> list[int] | None:
        """One solution as option indices, or None when there is none (exhaustive)."""
        for solution in self.solutions(**limits):
            return solution
        return None

    def solutions(self, **limits) -> Iterator[list[int]]:
        """Every solution, as sorted lists of option indices, in search order."""
        yield from self.compile().solutions(SearchLimits(**limits))

    def count(self, **limits) -> SearchResult:
        """Count all solutions (or up to the limits)."""
        return self.compile().count(SearchLimits(**limits))

    def format_solution(self, solution: Sequence[int]) -> list[str]:
        return [" ".join(self.options[i]) for i in solution]


def parse_knuth(text: str) -> ExactCoverProblem:
    """Parse Knuth's DLX/XCC text format; errors name the offending line."""
    lines = [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1)]
    lines = [(n, line) for n, line in lines if line and not line.startswith("|")]
    if not lines:
        raise ValueError("empty exact-cover file: the first line must list the items")
    first_number, first = lines[0]
    head, bar, tail = first.partition("|")
    primary, secondary = head.split(), tail.split()
    if not primary:
        raise ValueError(f"line {first_number}: no primary items")
    if bar and "|" in tail:
        raise ValueError(f"line {first_number}: more than one '|' in the item line")
    for name in primary + secondary:
        if ":" in name:
            raise ValueError(f"line {first_number}: item name {name!r} may not contain ':'")
    options = []
    for _, line in lines[1:]:
        if "|" in line:
            line = line.split("|", 1)[0].strip()  # trailing comment
            if not line:
                continue
        options.append(line.split())
    try:
        return ExactCoverProblem(primary, options, secondary)
    except ValueError as error:
        message = str(error)
        if message.startswith("option "):
            index = int(message.split()[1]) - 1
            line_number = lines[1 + index][0] if 1 + index < len(lines) else first_number
            raise ValueError(f"line {line_number}: {message}") from None
        raise ValueError(f"line {first_number}: {message}") from None


# --------------------------------------------------------------------------
# Algorithm C (dancing links with colors), compiled
# --------------------------------------------------------------------------


@njit(cache=True)
def _hide(p, top, ulink, dlink, color, length):
    q = p + 1
    while q != p:
        x = top[q]
        u = ulink[q]
        if x <= 0:
            q = u
        elif color[q] < 0:
            q += 1
        else:
            d = dlink[q]
            dlink[u] = d
            ulink[d] = u
            length[x] -= 1
            q += 1


@njit(cache=True)
def _unhide(p, top, ulink, dlink, color, length):
    q = p - 1
    while q != p:
        x = top[q]
        d = dlink[q]
        if x <= 0:
            q = d
        elif color[q] < 0:
            q -= 1
        else:
            u = ulink[q]
            dlink[u] = q
            ulink[d] = q
            length[x] += 1
            q -= 1


@njit(cache=True)
def _cover(i, top, ulink, dlink, color, length, llink, rlink):
    p = dlink[i]
    while p != i:
        _hide(p, top, ulink, dlink, color, length)
        p = dlink[p]
    left = llink[i]
    right = rlink[i]
    rlink[left] = right
    llink[right] = left


@njit(cache=True)
def _uncover(i, top, ulink, dlink, color, length, llink, rlink):
    left = llink[i]
    right = rlink[i]
    rlink[left] = i
    llink[right] = i
    p = ulink[i]
    while p != i:
        _unhide(p, top, ulink, dlink, color, length)
        p = ulink[p]


@njit(cache=True)
def _commit(p, j, top, ulink, dlink, color, length, llink, rlink):
    c = color[p]
    if c == 0:
        _cover(j, top, ulink, dlink, color, length, llink, rlink)
    elif c > 0:  # purify: mark same-colored options done, hide the others (p itself untouched)
        q = dlink[j]
        while q != j:
            if color[q] != c:
                _hide(q, top, ulink, dlink, color, length)
            elif q != p:
                color[q] = -1
            q = dlink[q]


@njit(cache=True)
def _uncommit(p, j, top, ulink, dlink, color, length, llink, rlink):
    c = color[p]
    if c == 0:
        _uncover(j, top, ulink, dlink, color, length, llink, rlink)
    elif c > 0:  # unpurify
        q = ulink[j]
        while q != j:
            if color[q] < 0:
                color[q] = c
            elif q != p:
                _unhide(q, top, ulink, dlink, color, length)
            q = ulink[q]


@njit(cache=True, nogil=True)
def _dlx_run(  # noqa: C901
    top, ulink, dlink, color, length, llink, rlink, node_option,
    x, items, state, max_nodes, solutions, perms, label_map, opt_ptr, opt_cells, opt_cell_label, grid, flag,
):
    """Run Algorithm C for at most ``max_nodes`` nodes, resuming from ``state``.

    state = [level, phase, nodes, count]; phase 2 = choose an item (C2),
    5 = try option x[level] (C5), 6 = undo it and move on (C6), 8 = backtrack
    (C8), 9 = finished.  Solutions (option indices, -1 padded) go into
    ``solutions`` until it is full; with zero rows they are only counted.  When
    ``perms`` has more than one row, only solutions that are lexicographically
    smallest among their images under the region symmetries are counted.
    A non-zero ``flag[0]`` (:mod:`solvers.interrupt`, polled every 4,096 nodes) suspends the search as
    ``max_nodes`` does, so it can be resumed or abandoned.
    """
    level = state[0]
    phase = state[1]
    nodes = 0
    stored = 0
    while True:
        if phase == 2:
            if rlink[0] == 0:
                canonical = True
                if perms.shape[0] > 1:
                    canonical = _is_canonical(x, level, node_option, perms, label_map, opt_ptr, opt_cells, opt_cell_label, grid)
                if canonical:
                    state[3] += 1
                    if solutions.shape[0] > 0:
                        for k in range(solutions.shape[1]):
                            solutions[stored, k] = node_option[x[k]] if k < level else -1
                        stored += 1
                phase = 8
                if solutions.shape[0] > 0 and stored == solutions.shape[0]:
                    state[0] = level
                    state[1] = phase
                    state[2] += nodes
                    return BUFFER_FULL, stored
                continue
            if nodes >= max_nodes or ((nodes & 4095) == 0 and flag[0] != 0):
                state[0] = level
                state[1] = phase
                state[2] += nodes
                return SUSPENDED, stored
            nodes += 1
            best = -1
            best_len = 1 << 60
            i = rlink[0]
            while i != 0:
                if length[i] < best_len:
                    best_len = length[i]
                    best = i
                    if best_len <= 1:  # forced (or dead): no branching to save, and no O(items) scan per level
                        break
                i = rlink[i]
            _cover(best, top, ulink, dlink, color, length, llink, rlink)
            items[level] = best
            x[level] = dlink[best]
            phase = 5
        elif phase == 5:
            xl = x[level]
            i = items[level]
            if xl == i:
                _uncover(i, top, ulink, dlink, color, length, llink, rlink)
                phase = 8
                continue
            p = xl + 1
            while p != xl:
                j = top[p]
                if j <= 0:
                    p = ulink[p]
                else:
                    _commit(p, j, top, ulink, dlink, color, length, llink, rlink)
                    p += 1
            level += 1
            phase = 2
        elif phase == 6:
            xl = x[level]
            p = xl - 1
            while p != xl:
                j = top[p]
                if j <= 0:
                    p = dlink[p]
                else:
                    _uncommit(p, j, top, ulink, dlink, color, length, llink, rlink)
                    p -= 1
            x[level] = dlink[xl]
            phase = 5
        elif phase == 8:
            if level == 0:
                state[0] = 0
                state[1] = 9
                state[2] += nodes
                return FINISHED, stored
            level -= 1
            phase = 6
        else:
            return FINISHED, stored


@njit(cache=True)
def _is_canonical(x, level, node_option, perms, label_map, opt_ptr, opt_cells, opt_cell_label, grid):
    """True when the solution's label grid is <= its image under every symmetry."""
    for k in range(level):
        o = node_option[x[k]]
        for t in range(opt_ptr[o], opt_ptr[o + 1]):
            grid[opt_cells[t]] = opt_cell_label[t]
    return _grid_is_minimal(grid, perms, label_map)


@njit(cache=True)
def _grid_is_minimal(grid, perms, label_map):
    """Is the label grid lexicographically <= its image under every symmetry?

    The image under g has, at cell j, the label of cell ``perms[g, j]`` (the
    inverse map) transformed by ``label_map[g]`` (labels encode directions).
    """
    n = grid.shape[0]
    for g in range(1, perms.shape[0]):
        for i in range(n):
            image_label = label_map[g, grid[perms[g, i]]]
            if image_label < grid[i]:
                return False
            if image_label > grid[i]:
                break
    return True


class ResumableSearch:
    """Drives a resumable compiled search chunk by chunk: limits, progress, Ctrl-C, solution batches.

    Subclasses keep ``state`` = [.., phase (9 = finished), nodes, count, ..] and implement
    :meth:`_step` (one kernel call) and :meth:`_decode` (a stored row as option indices).
    """

    state: np.ndarray
    row_width: int
    stopped_by = ""

    def _step(self, allowed: int, buffer: np.ndarray, flag: np.ndarray) -> tuple[int, int]:
        raise NotImplementedError

    def _decode(self, row: np.ndarray) -> list[int]:
        raise NotImplementedError

    def run(self, limits: SearchLimits, capacity: int) -> Iterator[np.ndarray]:
        """Run until finished or a limit; yields blocks of stored solutions when ``capacity`` > 0.

        Ctrl-C yields the block found so far, then raises KeyboardInterrupt; ``stopped_by`` is ``"interrupt"``
        from before that block, so a reader that stops at it (enough solutions) still knows."""
        buffer = np.zeros((capacity, self.row_width), np.int64)
        self.stopped_by = ""
        while self.state[1] != 9:
            allowed = limits.next_chunk(int(self.state[2]))
            if allowed == 0:
                self.stopped_by = "node_limit"
                return
            (status, stored), why = self._polled_step(allowed, buffer, limits)
            if why == INTERRUPTED:  # said before the last block: a reader that stops at it still sees the Ctrl-C
                self.stopped_by = "interrupt"
            if stored:
                yield buffer[:stored].copy()
            if why == INTERRUPTED:
                raise KeyboardInterrupt
            if limits.progress is not None:
                limits.progress(int(self.state[2]), int(self.state[3]))
            if status != FINISHED and (why == TIME_LIMIT or limits.expired()):
                self.stopped_by = "time_limit"
                return

    def _polled_step(self, allowed: int, buffer: np.ndarray, limits: SearchLimits) -> tuple[tuple[int, int], int]:
        """One kernel call that Ctrl-C or the time limit suspend within 4,096 nodes (:mod:`solvers.interrupt`)."""
        left = None if limits.time_limit is None else max(0.0, limits.time_limit - limits.elapsed())
        return run_polling(lambda flag: self._step(allowed, buffer, flag), left)

    def count(self, limits: SearchLimits) -> SearchResult:
        """Count solutions; Ctrl-C returns the partial count with ``stopped_by='interrupt'``."""
        try:
            for _ in self.run(limits, 0):
                pass
        except KeyboardInterrupt:
            self.stopped_by = "interrupt"
        return SearchResult(int(self.state[3]), bool(self.state[1] == 9), int(self.state[2]), limits.elapsed(),
                            self.stopped_by)

    def solutions(self, limits: SearchLimits, batch: int = 64) -> Iterator[list[int]]:
        """Yield each solution as a sorted list of option indices."""
        for block in self.run(limits, batch):
            for row in block:
                yield self._decode(row)


class DancingLinks(ResumableSearch):
    """The compiled (array) form of an :class:`ExactCoverProblem`, searched by :func:`_dlx_run`."""

    def __init__(self, problem: ExactCoverProblem, symmetry: SymmetryData | None = None) -> None:
        self.problem = problem
        names = problem.primary + problem.secondary
        index = {name: i + 1 for i, name in enumerate(names)}
        n_items, n_primary = len(names), len(problem.primary)
        color_ids: dict[str, int] = {}
        total_nodes = n_items + 2 + sum(len(o) + 1 for o in problem.options)
        top = np.zeros(total_nodes, np.int64)
        ulink = np.zeros(total_nodes, np.int64)
        dlink = np.zeros(total_nodes, np.int64)
        color = np.zeros(total_nodes, np.int64)
        node_option = np.full(total_nodes, -1, np.int64)
        length = np.zeros(n_items + 2, np.int64)
        llink = np.zeros(n_items + 2, np.int64)
        rlink = np.zeros(n_items + 2, np.int64)
        # item lists: primary items circular through 0, secondary through n_items + 1
        for i in range(1, n_items + 1):
            ulink[i] = dlink[i] = i
        chain_primary = [0] + list(range(1, n_primary + 1))
        chain_secondary = [n_items + 1] + list(range(n_primary + 1, n_items + 1))
        for chain in (chain_primary, chain_secondary):
            for k, item in enumerate(chain):
                rlink[item] = chain[(k + 1) % len(chain)]
                llink[item] = chain[k - 1]
        # options, each followed by a spacer (Knuth's layout)
        spacer = n_items + 1
        top[spacer] = 0
        last_spacer = spacer
        p = spacer + 1
        for number, option in enumerate(problem.options):
            first = p
            for token in option:
                name, col = split_color(token)
                item = index[name]
                top[p] = item
                node_option[p] = number
                length[item] += 1
                up = ulink[item]
                ulink[p], dlink[p] = up, item
                dlink[up] = p
                ulink[item] = p
                if col:
                    color[p] = color_ids.setdefault(col, len(color_ids) + 1)
                p += 1
            dlink[last_spacer] = p - 1
            top[p] = -(number + 1)
            ulink[p] = first
            last_spacer = p
            p += 1
        self.arrays = (top, ulink, dlink, color, length, llink, rlink, node_option)
        depth = n_primary + 1
        self.x = np.zeros(depth + 1, np.int64)
        self.items = np.zeros(depth + 1, np.int64)
        self.state = np.array([0, 2, 0, 0], np.int64)
        self.row_width = len(self.x)
        self.symmetry = symmetry or SymmetryData.none()

    def _step(self, allowed: int, buffer: np.ndarray, flag: np.ndarray) -> tuple[int, int]:
        sym = self.symmetry
        return _dlx_run(
            *self.arrays, self.x, self.items, self.state, allowed, buffer,
            sym.perms, sym.label_map, sym.opt_ptr, sym.opt_cells, sym.opt_cell_label, sym.grid, flag,
        )

    def _decode(self, row: np.ndarray) -> list[int]:
        return sorted(int(o) for o in row if o >= 0)


@dataclass
class SymmetryData:
    """Arrays for symmetry-aware counting (see :func:`_grid_is_minimal`).

    ``perms[g, j]`` is the cell that lands on cell ``j`` under symmetry g (row 0
    is the identity).  Each option gives every cell it covers a label
    (``opt_cells[opt_ptr[o]:opt_ptr[o+1]]`` and ``opt_cell_label`` alongside);
    labels must determine the solution (e.g. piece kind plus which neighbours
    belong to the same piece) and ``label_map[g]`` says how g transforms a label.
    """

    perms: np.ndarray
    label_map: np.ndarray
    opt_ptr: np.ndarray
    opt_cells: np.ndarray
    opt_cell_label: np.ndarray
    grid: np.ndarray

    @classmethod
    def none(cls) -> SymmetryData:
        empty = np.zeros(1, np.int64)
        return cls(np.zeros((1, 1), np.int64), np.zeros((1, 1), np.int64), np.zeros(2, np.int64), empty, empty,
                   np.zeros(1, np.int64))

    @classmethod
    def build(
        cls, perms: np.ndarray, label_map: np.ndarray, option_cells: Sequence[Sequence[int]],
        option_labels: Sequence[Sequence[int]], n_cells: int,
    ) -> SymmetryData:
        """Flatten per-option cells and labels (in the order given)."""
        ptr = np.zeros(len(option_cells) + 1, np.int64)
        ptr[1:] = np.cumsum([len(c) for c in option_cells])
        flat_cells = np.array([c for cells in option_cells for c in cells] or [0], np.int64)
        flat_labels = np.array([lab for labels in option_labels for lab in labels] or [0], np.int64)
        return cls(perms, label_map, ptr, flat_cells, flat_labels, np.zeros(n_cells, np.int64))


def build_symmetry_perms(forward: Sequence[Sequence[int]]) -> np.ndarray:
    """From forward maps (cell i goes to forward[g][i]) build the inverse maps the kernels use."""
    perms = np.zeros((len(forward), len(forward[0])), np.int64)
    for g, images in enumerate(forward):
        for i, j in enumerate(images):
            perms[g, j] = i
    return perms


# --------------------------------------------------------------------------
# bit-parallel exact cover of ordered cells, with multiplicities
# --------------------------------------------------------------------------
#
# For tilings (every option covers board cells, pieces come in kinds with
# min/max counts) a first-empty-cell search over a bitboard is much faster than
# generic dancing links: when the first uncovered cell is c, every usable option
# has c as its lowest cell, so the options are bucketed by lowest cell and tested
# against the board with a few word ANDs.  Boards of any size use ceil(cells / 64)
# words.

ONE = np.uint64(1)


@njit(cache=True)
def _next_empty(board, start, n_cells):
    i = start
    while i < n_cells:
        w = i >> 6
        m = ~board[w] >> np.uint64(i & 63)
        if m != np.uint64(0):
            while (m & ONE) == np.uint64(0):
                m >>= ONE
                i += 1
            return i
        i = (w + 1) << 6
    return n_cells


@njit(cache=True, nogil=True)
def _bitset_run(  # noqa: C901
    opt_mask, opt_kind, bucket, kind_min, kind_max, used, board, n_cells,
    cell, pos, chosen, state, max_nodes, solutions, perms, label_map, opt_ptr, opt_cells, opt_cell_label, grid,
    opt_weight, mode, flag,
):
    """First-empty-cell exact cover over a bitboard; resumable like :func:`_dlx_run`.

    state = [depth, phase (0 running, 9 finished), nodes, count, stabiliser sum].
    Options are sorted by lowest cell; ``bucket[c]:bucket[c+1]`` start at c.
    ``mode`` 0: count every solution; 1: count only canonical ones (one per
    symmetry class); 2: weighted count for symmetry-reduced searches, where a
    solution adds the product of its options' weights to the count and that
    times its stabiliser size (images equal to itself) to ``state[4]``.
    """
    words = opt_mask.shape[1]
    d = state[0]
    nodes = 0
    stored = 0
    polled = 0
    if state[1] == 9:
        return FINISHED, 0
    while True:
        if nodes - polled >= 4096:  # the interrupt flag suspends the search as max_nodes does
            polled = nodes
            if flag[0] != 0:
                max_nodes = nodes
        if nodes >= max_nodes:
            state[0] = d
            state[2] += nodes
            return SUSPENDED, stored
        c = cell[d]
        p = pos[d]
        end = bucket[c + 1]
        descended = False
        while p < end:
            o = p
            p += 1
            k = opt_kind[o]
            if used[k] >= kind_max[k]:
                continue
            clash = False
            for w in range(words):
                if opt_mask[o, w] & board[w]:
                    clash = True
                    break
            if clash:
                continue
            for w in range(words):
                board[w] |= opt_mask[o, w]
            used[k] += 1
            chosen[d] = o
            nodes += 1
            nc = _next_empty(board, c + 1, n_cells)
            if nc < n_cells:
                pos[d] = p
                d += 1
                cell[d] = nc
                pos[d] = bucket[nc]
                descended = True
                break
            # every cell covered: a solution if the minimum counts hold
            good = True
            for kk in range(kind_min.shape[0]):
                if used[kk] < kind_min[kk]:
                    good = False
                    break
            weight = 1
            if good and mode > 0:
                for t in range(d + 1):
                    oo = chosen[t]
                    weight *= opt_weight[oo]
                    for q in range(opt_ptr[oo], opt_ptr[oo + 1]):
                        grid[opt_cells[q]] = opt_cell_label[q]
                if mode == 1:
                    good = _grid_is_minimal(grid, perms, label_map)
                else:
                    state[4] += weight * _stabiliser_size(grid, perms, label_map)
            for w in range(words):
                board[w] ^= opt_mask[o, w]
            used[k] -= 1
            if good:
                state[3] += weight
                if solutions.shape[0] > 0:
                    for t in range(solutions.shape[1]):
                        solutions[stored, t] = chosen[t] if t <= d else -1
                    stored += 1
                    if stored == solutions.shape[0]:
                        pos[d] = p
                        state[0] = d
                        state[2] += nodes
                        return BUFFER_FULL, stored
        if descended:
            continue
        if d == 0:
            state[0] = 0
            state[1] = 9
            state[2] += nodes
            return FINISHED, stored
        d -= 1
        o = chosen[d]
        for w in range(words):
            board[w] ^= opt_mask[o, w]
        used[opt_kind[o]] -= 1


@njit(cache=True)
def _stabiliser_size(grid, perms, label_map):
    """How many symmetries (identity included) map the label grid onto itself."""
    n = grid.shape[0]
    size = 0
    for g in range(perms.shape[0]):
        same = True
        for i in range(n):
            if label_map[g, grid[perms[g, i]]] != grid[i]:
                same = False
                break
        if same:
            size += 1
    return size


class BitsetCover(ResumableSearch):
    """Exact cover of cells ``0..n_cells-1`` by options with kinds and per-kind min/max counts.

    ``options`` are (kind, cell indices) pairs; cell order is the branching
    order (first empty cell first).  ``prefilled`` cells start covered.
    ``symmetry`` = (perms, label_map, per-option cell labels) enables ``mode`` 1
    or 2 of :func:`_bitset_run`; ``weights`` are per-option weights for mode 2.
    """

    def __init__(
        self,
        n_cells: int,
        options: Sequence[tuple[int, Sequence[int]]],
        kind_min: Sequence[int],
        kind_max: Sequence[int],
        prefilled: Sequence[int] = (),
        symmetry: tuple[np.ndarray, np.ndarray, Sequence[Sequence[int]]] | None = None,
        mode: int = 0,
        weights: Sequence[int] | None = None,
    ) -> None:
        self.n_cells = n_cells
        words = max(1, (n_cells + 63) // 64)
        order = sorted(range(len(options)), key=lambda i: min(options[i][1]))
        self.option_order = order  # kernel option t is options[order[t]]
        self.opt_mask = np.zeros((len(options), words), np.uint64)
        self.opt_kind = np.zeros(len(options), np.int64)
        self.bucket = np.zeros(n_cells + 2, np.int64)
        for t, i in enumerate(order):
            kind, cells = options[i]
            self.opt_kind[t] = kind
            for cell in cells:
                self.opt_mask[t, cell >> 6] |= np.uint64(1) << np.uint64(cell & 63)
            self.bucket[min(cells) + 1] += 1
        self.bucket = np.cumsum(self.bucket).astype(np.int64)
        self.kind_min = np.asarray(kind_min, np.int64)
        self.kind_max = np.asarray(kind_max, np.int64)
        self.used = np.zeros(len(kind_min), np.int64)
        self.board = np.zeros(words, np.uint64)
        for cell in prefilled:
            self.board[cell >> 6] |= np.uint64(1) << np.uint64(cell & 63)
        self.cell = np.zeros(n_cells + 1, np.int64)
        self.pos = np.zeros(n_cells + 1, np.int64)
        self.chosen = np.zeros(n_cells + 1, np.int64)
        first = _next_empty(self.board, 0, n_cells)
        self.cell[0] = first
        self.pos[0] = self.bucket[first] if first < n_cells else 0
        self.state = np.array([0, 0, 0, 0, 0], np.int64)
        self.row_width = n_cells + 1
        self.empty_board = first >= n_cells
        self.mode = mode
        self.opt_weight = np.array([weights[i] if weights is not None else 1 for i in order] or [1], np.int64)
        self.symmetry = SymmetryData.none()
        if symmetry is not None:  # (perms, label_map, per-option cell labels), put in kernel order
            perms, label_map, labels = symmetry
            self.symmetry = SymmetryData.build(
                perms, label_map, [options[i][1] for i in order], [labels[i] for i in order], n_cells
            )
        self.stopped_by = ""

    def reset(self, prefilled: Sequence[int], kind_min: Sequence[int], kind_max: Sequence[int]) -> None:
        """Start a fresh search on the same options: other pre-covered cells and counts."""
        self.board[:] = 0
        for cell in prefilled:
            self.board[cell >> 6] |= np.uint64(1) << np.uint64(cell & 63)
        self.kind_min[:] = kind_min
        self.kind_max[:] = kind_max
        self.used[:] = 0
        first = _next_empty(self.board, 0, self.n_cells)
        self.cell[0] = first
        self.pos[0] = self.bucket[first] if first < self.n_cells else 0
        self.state[:] = 0
        self.empty_board = first >= self.n_cells
        self.stopped_by = ""

    def run(self, limits: SearchLimits, capacity: int) -> Iterator[np.ndarray]:
        """As :meth:`ResumableSearch.run`; a board with nothing to cover has one empty solution."""
        if not self.empty_board:
            yield from super().run(limits, capacity)
            return
        if self.state[1] != 9:
            self.state[1] = 9
            if (self.kind_min <= 0).all():
                # the prefilled cells are the whole solution: weigh it as the kernel would
                sym = self.symmetry
                if self.mode == 1 and not _grid_is_minimal(sym.grid, sym.perms, sym.label_map):
                    return
                if self.mode == 2:
                    self.state[4] += _stabiliser_size(sym.grid, sym.perms, sym.label_map)
                self.state[3] = 1
                if capacity:
                    yield np.full((1, 1), -1, np.int64)

    def _step(self, allowed: int, buffer: np.ndarray, flag: np.ndarray) -> tuple[int, int]:
        sym = self.symmetry
        return _bitset_run(
            self.opt_mask, self.opt_kind, self.bucket, self.kind_min, self.kind_max, self.used,
            self.board, self.n_cells, self.cell, self.pos, self.chosen, self.state, allowed, buffer,
            sym.perms, sym.label_map, sym.opt_ptr, sym.opt_cells, sym.opt_cell_label, sym.grid, self.opt_weight, self.mode,
            flag,
        )

    def _decode(self, row: np.ndarray) -> list[int]:
        return sorted(self.option_order[int(t)] for t in row if t >= 0)

    @property
    def stabiliser_sum(self) -> int:
        """Sum of weight × stabiliser size over solutions found (mode 2); divide by |G| for orbits."""
        return int(self.state[4])
