"""An exhaustive frontier DP over narrow boards for the one-color rectangle question.

Do one color's 21 pieces fit a ``short x long`` rectangle (short side 2..6) under the rules?  The DP scans the
board cell by cell along its long side, column by column, and keeps every reachable *state*: the pieces used so
far and the occupancy of a window of cells around the scan point (two columns behind, five ahead, enough for any
piece anchored at the current cell).  At an empty cell it either leaves the cell empty or anchors an unused piece
there (the piece's first cell in scan order).

What it enforces follows from the rules, so every real layout is one of its paths:

- no two pieces share an edge (exact: a new piece may not touch any covered cell along an edge);
- the covered cells are one 8-connected set (the corner-contact chain from the first piece needs it),
  checked as: two neighbouring columns that both hold cells must meet along a side or a diagonal, and
  after a column with no covered cell nothing more is covered;
- the first piece covers the start corner, the first cell of the scan;
- at most ``cells - 89`` cells stay empty, counting those the row-run bound still needs: in each long row two
  pieces' runs of cells have an empty cell between them;
- the perimeter budget: no edge joins two pieces, so the covered cells' boundary is the pieces' perimeters
  (216 unit edges), and then the edges between two empty cells plus the empty cells' edges on the border
  number exactly ``2 * empty + short + long - 108`` (for the 21 pieces).  Each state keeps the fewest of those
  edges any path to it met (the cell's up and left neighbours, and the border, counted as it is left empty),
  and a state over the budget dies.

:func:`refute` runs it forward: no finished state is a proof that no layout exists, a finished state proves
nothing (the connectivity is relaxed).  ``grouped`` merges pieces of one size and run count into a kind, a
weaker relaxation with far fewer states.  :func:`find_layout` settles a board: the grouped DP's live states
(forward and backward), the exact pieces' DP inside them, then a depth-first search for a corner-connected
layout.  States are numpy ``uint64`` keys, deduplicated with ``np.unique`` after each cell.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from puzzles.polyomino import Shape, normalize, piece_set
from solvers.blokus.solitaire_sat import empty_edge_budget, play_order

PIECES = piece_set("blokus")
Cell = tuple[int, int]
USED_BITS = len(PIECES)  # the window's bits sit above the used-piece bits in a state key (at most 21 pieces)


@dataclass(frozen=True)
class Placement:
    """One piece in one orientation, anchored at its first cell in scan order, as window bit masks."""

    piece: int
    cells: int  # window bits the piece covers
    touching: int  # window bits edge-adjacent to the piece, inside the board (must be empty)
    columns: int  # how many columns it spans


@dataclass(frozen=True)
class StripResult:
    """The DP's answer for one board: refuted (a proof) or not, with its cost."""

    short: int
    long: int
    refuted: bool
    peak_states: int
    seconds: float
    stopped: bool = False  # should_stop() ended it first: unknown at the limit, not refuted
    fewest_empty_edges: int | None = None  # over the finished states (a layout has exactly the budget); None: refuted


def placements(short: int, row: int, kinds: Sequence[Sequence[Shape]]) -> list[Placement]:
    """Every placement of a piece of each kind anchored at ``row`` of a column (bit ``2 * short`` is the anchor)."""
    behind = 2 * short
    found = []
    for index, kind in enumerate(kinds):
        seen = set()
        for orientation in (o for shape in kind for o in shape.orientations()):
            cells = sorted((c, r) for r, c in orientation.cells)  # (column, row) in scan order
            anchor_col, anchor_row = cells[0]
            rel = frozenset((c - anchor_col, r - anchor_row + row) for c, r in cells)
            if rel in seen or any(not 0 <= r < short for _, r in rel):
                continue
            seen.add(rel)
            mask = sum(1 << (behind + c * short + r - row) for c, r in rel)
            touching = 0
            for c, r in rel:
                for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    nc, nr = c + dc, r + dr
                    if (nc, nr) in rel or not 0 <= nr < short or nc > 4:
                        continue  # column 5 ahead is never covered yet; the board's length is checked per column
                    touching |= 1 << (behind + nc * short + nr - row)
            found.append(Placement(index, mask, touching, 1 + max(c for c, _ in rel)))
    return found


def _connected_columns(short: int) -> np.ndarray:
    """For two columns' occupancy (``2 * short`` bits, the older column low): do they meet at a side or corner?"""
    table = np.zeros(1 << (2 * short), dtype=bool)
    for bits in range(len(table)):
        older = [r for r in range(short) if bits >> r & 1]
        newer = [r for r in range(short) if bits >> (short + r) & 1]
        table[bits] = any(abs(a - b) <= 1 for a in older for b in newer)
    return table


class _Strip:
    """One board's DP: its placements, tables and one step of the scan (the cut, the choices, the pruning)."""

    def __init__(self, short: int, long: int, pieces: tuple[Shape, ...], grouped: bool) -> None:
        self.short, self.long = short, long
        self.spare = short * long - sum(len(p.cells) for p in pieces)
        self.empty_edge_budget = empty_edge_budget(short, long, pieces)
        self.behind, self.window_bits = 2 * short, 7 * short
        self.kinds = _kinds(short, pieces, grouped)
        self.by_row = [placements(short, row, self.kinds) for row in range(short)]
        self.counts = _Counts(short, self.kinds)
        self.meets = _connected_columns(short)
        # each row's last decided cell and the cells after it: between two pieces' runs there, an empty cell to come
        self.run_cells = np.uint64(((1 << self.window_bits) - 1) & ~((1 << (self.behind - short)) - 1))
        self.column_mask = np.uint64((1 << short) - 1)
        self.moves: set[tuple[int, int, int]] | None = None  # only these choices (``follow``)
        self.empty_cells: set[int] | None = None

    def step(self, states: np.ndarray, cell: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The states after deciding ``cell``: (children, index of each one's parent in ``states``, the choice: -1
        the cell was covered already, -2 left empty, else the index of the placement in ``by_row[row]``)."""
        col, row = divmod(cell, self.short)
        index = np.arange(states.size)
        if row == 0 and col >= 2:
            index = index[_cut(states, self.short, self.meets, self.column_mask, self.counts)]
        windows = states[index] >> np.uint64(USED_BITS)
        here = ((windows >> np.uint64(self.behind)) & np.uint64(1)) == 1
        free = index[~here]
        free_states, free_windows = states[free], windows[~here]
        parts = [(states[index[here]], index[here], -1)]
        if cell > 0 and (self.empty_cells is None or cell in self.empty_cells):
            parts.append((free_states, free, -2))
        for number, placement in enumerate(self.by_row[row]):
            if col + placement.columns > self.long or (
                    self.moves is not None and (cell, placement.piece, placement.cells) not in self.moves):
                continue
            ok = ((free_windows & np.uint64(placement.cells | placement.touching)) == 0) & self.counts.left(
                free_states & self.counts.mask, placement.piece)
            if ok.any():
                parts.append((free_states[ok] + self.counts.one[placement.piece]
                              + np.uint64(placement.cells << USED_BITS), free[ok], number))
        children = _shift(np.concatenate([p[0] for p in parts]), self.window_bits, self.counts.mask)
        parents = np.concatenate([p[1] for p in parts])
        choices = np.concatenate([np.full(p[0].size, p[2], dtype=np.int64) for p in parts])
        keep = self.within_budget(children, cell)
        return children[keep], parents[keep], choices[keep]

    def forward(self, states: np.ndarray, empty_edges: np.ndarray, cell: int,
                keep: Callable[[np.ndarray, int], np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """The distinct states after deciding ``cell`` and, for each, the fewest empty edges (empty-empty and
        empty-border unit edges) of a path to it; those over the perimeter budget (and, with ``keep(states,
        cell + 1)``, those it rejects) are dropped."""
        children, parents, choices = self.step(states, cell)
        edges = empty_edges[parents] + np.where(choices == -2, self.edges_if_empty(states[parents], cell), 0)
        alive = edges <= self.empty_edge_budget
        if keep is not None:
            alive[alive] = keep(children[alive], cell + 1)
        children, edges = children[alive], edges[alive]
        order = np.lexsort((edges, children))
        children, edges = children[order], edges[order]
        first = np.ones(children.size, dtype=bool)
        first[1:] = children[1:] != children[:-1]
        return children[first], edges[first]

    def edges_if_empty(self, states: np.ndarray, cell: int) -> np.ndarray:
        """The empty edges that leaving ``cell`` empty adds: on the border, and to an empty up or left neighbour
        (decided already; the right and lower ones count when they are decided)."""
        col, row = divmod(cell, self.short)
        border = (row == 0) + (row == self.short - 1) + (col == 0) + (col == self.long - 1)
        windows = states >> np.uint64(USED_BITS)
        edges = np.full(states.size, border, dtype=np.int16)
        for bit, has in ((self.behind - 1, row > 0), (self.behind - self.short, col > 0)):
            if has:
                edges += ((windows >> np.uint64(bit)) & np.uint64(1)) == 0
        return edges

    def within_budget(self, states: np.ndarray, cell: int) -> np.ndarray:
        """Whether the empty cells so far, plus those the row-run bound still needs, fit the board's spare cells."""
        windows = states >> np.uint64(USED_BITS)
        used = (states & self.counts.mask).astype(np.int64)
        ahead = np.bitwise_count(windows >> np.uint64(self.behind)).astype(np.int64)
        empty = (cell + 1) - (self.counts.cells[used] - ahead)  # scanned cells minus the covered ones behind
        covered = windows & self.run_cells
        placed_runs = np.bitwise_count(covered & ~(covered << np.uint64(self.short))).astype(np.int64)
        still_needed = np.maximum(self.counts.runs_left[used] + placed_runs - self.short, 0)
        return empty + still_needed <= self.spare

    def finished(self, states: np.ndarray) -> np.ndarray:
        """Whether each state after the last cell is a complete layout of the relaxation."""
        done = (states & self.counts.mask) == self.counts.full
        return done & _cut(states, self.short, self.meets, self.column_mask, self.counts, final=True)


def refute(short: int, long: int, pieces: tuple[Shape, ...] = PIECES, grouped: bool = False,
           progress: Callable[[int, int], None] | None = None,
           should_stop: Callable[[], bool] | None = None, follow: Sequence[Sequence[Cell]] | None = None) -> StripResult:
    """Run the DP on a ``short x long`` board (short side 2..6); ``refuted`` proves the pieces cannot fit it.

    ``progress(cells scanned, states)`` is called after every cell; ``should_stop()`` ends the run early,
    answered as ``stopped`` (unknown at the limit, never refuted).  ``follow`` (a layout: each piece's cells as (row, col) on a board
    ``short`` columns wide, row 0 the start corner's) keeps only that layout's choices: a check that the DP's
    pruning never drops a real layout, whose answer must then be "not refuted".

    ``grouped`` relaxes the rules further, for far fewer states: pieces of the same size and the same fewest row
    runs become one kind, and the DP only counts how many of each kind it placed, each in any of the kind's
    shapes.  Every real layout is still a path of it, so its refutations are still proofs."""
    start = time.process_time()
    strip = _checked_strip(short, long, pieces, grouped)
    if strip is None:
        return StripResult(short, long, True, 0, time.process_time() - start)
    if follow is not None:
        strip.moves, strip.empty_cells = _followed(short, long, strip.behind, strip.kinds, follow)
    states, empty_edges, peak = np.array([0], dtype=np.uint64), np.zeros(1, dtype=np.int16), 1
    for cell in range(short * long):
        if should_stop is not None and should_stop():
            return StripResult(short, long, False, peak, time.process_time() - start, stopped=True)
        states, empty_edges = strip.forward(states, empty_edges, cell)
        peak = max(peak, int(states.size))
        if progress is not None:
            progress(cell + 1, int(states.size))
        if states.size == 0:
            break
    finished = strip.finished(states)
    fewest = int(empty_edges[finished].min()) if finished.any() else None
    return StripResult(short, long, fewest is None, peak, time.process_time() - start, fewest_empty_edges=fewest)


def _checked_strip(short: int, long: int, pieces: tuple[Shape, ...], grouped: bool) -> _Strip | None:
    """The DP of a board, or None when counting alone refutes it (too few cells, or a piece that fits nowhere)."""
    if not 2 <= short <= 6 or long < short or len(pieces) > USED_BITS:
        raise ValueError(f"the strip DP takes a short side of 2..6 and at most {USED_BITS} pieces")
    if short * long < sum(len(p.cells) for p in pieces) or not _fewest_row_runs(short, pieces).size \
            or empty_edge_budget(short, long, pieces) < 0:
        return None
    return _Strip(short, long, pieces, grouped)


def _followed(short: int, long: int, behind: int, kinds: Sequence[Sequence[Shape]],
              layout: Sequence[Sequence[Cell]]) -> tuple[set[tuple[int, int, int]], set[int]]:
    """A layout as the DP's choices: (anchor cell, piece, window bits) of each piece, and its empty cells."""
    kind_of = {normalize(o.cells): index for index, kind in enumerate(kinds) for p in kind for o in p.orientations()}
    moves, covered = set(), set()
    for cells in layout:
        scan = sorted(row * short + col for row, col in cells)  # the board's row is the DP's column
        anchor = scan[0]
        moves.add((anchor, kind_of[normalize(cells)], sum(1 << (behind + index - anchor) for index in scan)))
        covered.update(scan)
    return moves, set(range(short * long)) - covered


def _kinds(short: int, pieces: tuple[Shape, ...], grouped: bool) -> list[list[Shape]]:
    """The pieces as kinds: one each, or (``grouped``) by size and fewest row runs, in first-seen order."""
    if not grouped:
        return [[p] for p in pieces]
    by_key: dict[tuple[int, int], list[Shape]] = {}
    for shape, runs in zip(pieces, _fewest_row_runs(short, pieces)):
        by_key.setdefault((len(shape.cells), int(runs)), []).append(shape)
    return list(by_key.values())


class _Counts:
    """How many pieces of each kind are placed, as bit fields of a state key's low bits, with tables by key."""

    def __init__(self, short: int, kinds: Sequence[Sequence[Shape]]) -> None:
        caps = [len(kind) for kind in kinds]
        widths = [cap.bit_length() for cap in caps]
        offsets = np.cumsum([0, *widths[:-1]]).tolist()
        bits = sum(widths)
        assert bits <= USED_BITS
        self.one = [np.uint64(1 << off) for off in offsets]
        self.shift = [np.uint64(off) for off in offsets]
        self.field = [np.uint64((1 << w) - 1) for w in widths]
        self.cap = [np.uint64(cap) for cap in caps]
        self.full = np.uint64(sum(cap << off for cap, off in zip(caps, offsets)))
        self.mask = np.uint64((1 << USED_BITS) - 1)
        # tables by key (2**bits of them), the first kind in the lowest field: each kind multiplies the table
        self.cells = np.zeros(1, dtype=np.int16)  # cells of the pieces placed
        self.runs_left = np.zeros(1, dtype=np.int16)  # fewest row runs of the pieces still to place
        for kind, cap, width in zip(kinds, caps, widths):
            size, runs = len(kind[0].cells), int(_fewest_row_runs(short, (kind[0],))[0])
            self.cells = np.concatenate([self.cells + placed * size for placed in range(1 << width)])
            self.runs_left = np.concatenate([self.runs_left + (cap - placed) * runs for placed in range(1 << width)])

    def left(self, used: np.ndarray, kind: int) -> np.ndarray:
        """Whether each state has a piece of ``kind`` still to place."""
        return ((used >> self.shift[kind]) & self.field[kind]) < self.cap[kind]


def _fewest_row_runs(short: int, pieces: tuple[Shape, ...]) -> np.ndarray:
    """Each piece's fewest row runs (maximal segments along the long side) over the orientations that fit;
    empty when one of the pieces fits in no orientation."""
    def runs(cells: frozenset) -> int:
        return sum(1 for r, c in cells if (r, c - 1) not in cells)
    fewest = [min((runs(o.cells) for o in p.orientations() if o.height <= short), default=-1) for p in pieces]
    return np.array([] if -1 in fewest else fewest, dtype=np.int64)


def _shift(states: np.ndarray, window_bits: int, used_mask: np.uint64) -> np.ndarray:
    """Move the window one cell along the scan (the oldest cell drops out)."""
    used = states & used_mask
    windows = (states >> np.uint64(USED_BITS + 1)) & np.uint64((1 << window_bits) - 1)
    return used | (windows << np.uint64(USED_BITS))


def _cut(states: np.ndarray, short: int, meets: np.ndarray, column_mask: np.uint64, counts: _Counts,
         final: bool = False) -> np.ndarray:
    """Which states' two finished columns (the window's oldest) connect, or ended with every piece placed."""
    windows = states >> np.uint64(USED_BITS)
    older = windows & column_mask
    newer = (windows >> np.uint64(short)) & column_mask
    ahead = windows >> np.uint64(2 * short)
    complete = ((states & counts.mask) == counts.full) & (ahead == 0)
    joined = meets[(windows & np.uint64((1 << (2 * short)) - 1)).astype(np.int64)]
    if final:  # the last two columns: joined, or the covered cells ended before the last one
        return joined | (newer == 0) | (older == 0)
    # a finished column without cells ends the covered cells: only a complete state lives on
    return np.where((older == 0) | (newer == 0), complete, joined)


@dataclass
class StripSearch:
    """A layout search on a narrow board: ``status`` is ``found`` (``layout``: each piece's cells as (row, col) on
    the board ``short`` columns wide and ``long`` rows high, in a play order from the top-left corner),
    ``impossible`` (proved: no path of the DP completes to a layout) or ``unknown`` (``should_stop`` ended it
    first: unknown at the limit)."""

    short: int
    long: int
    status: str
    seconds: float
    layout: list[tuple[Cell, ...]] | None = None
    paths_tried: int = 0


def find_layout(short: int, long: int, pieces: tuple[Shape, ...] = PIECES, progress: Callable[[str], None] | None = None,
                should_stop: Callable[[], bool] | None = None,
                follow: Sequence[Sequence[Cell]] | None = None) -> StripSearch:
    """Search one color's layout on a ``short x long`` board, exhaustively.

    The grouped DP runs forward and keeps every layer of states; a backward pass keeps the states that still
    reach a finished one (live).  The exact pieces' DP then runs the same way, keeping only states whose grouped
    image is live.  A depth-first search over the exact live states accepts a layout only when its covered cells
    are one corner-connected chain from the start corner (the DP checks that column by column).  Every real
    layout is a path of all three, so "impossible" (no live state, or the search exhausted) is a proof.
    ``follow`` keeps only a given layout's choices, as :func:`refute`'s does."""
    start = time.process_time()

    def said(text: str) -> None:
        if progress is not None:
            progress(text)

    def answer(status: str, layout: list[tuple[Cell, ...]] | None = None, tried: int = 0) -> StripSearch:
        return StripSearch(short, long, status, time.process_time() - start, layout, tried)

    grouped, exact = _checked_strip(short, long, pieces, True), _checked_strip(short, long, pieces, False)
    if grouped is None or exact is None:
        return answer("impossible")
    if follow is not None:
        for strip in (grouped, exact):
            strip.moves, strip.empty_cells = _followed(short, long, strip.behind, strip.kinds, follow)
    live = _live_layers(grouped, said, should_stop)
    if live is None:
        return answer("unknown")
    if live[0].size == 0:
        return answer("impossible")
    said(f"grouped DP: {sum(layer.size for layer in live):,} live states; the exact pieces' DP inside them")
    image = _grouped_images(exact, grouped)

    def grouped_live(states: np.ndarray, cell: int) -> np.ndarray:
        keys = (states & ~exact.counts.mask) | image[(states & exact.counts.mask).astype(np.int64)]
        return _members(keys, live[cell])

    exact_live = _live_layers(exact, said, should_stop, grouped_live)
    if exact_live is None:
        return answer("unknown")
    if exact_live[0].size == 0:
        return answer("impossible")
    said(f"exact DP: {sum(layer.size for layer in exact_live):,} live states; searching them for a connected layout")
    search = _GuidedSearch(exact, exact_live, should_stop)
    layout = search.run()
    if layout is None:
        return answer("unknown" if search.stopped else "impossible", tried=search.tried)
    return answer("found", layout, search.tried)


def _live_layers(strip: _Strip, said: Callable[[str], None], should_stop: Callable[[], bool] | None,
                 keep: Callable[[np.ndarray, int], np.ndarray] | None = None) -> list[np.ndarray] | None:
    """Each layer's states (before deciding that cell) that some choices complete; None when stopped.
    ``keep(states, cell)`` limits the states reached before ``cell`` (to the images of another DP's live ones)."""
    layers, empty_edges = [np.array([0], dtype=np.uint64)], np.zeros(1, dtype=np.int16)
    for cell in range(strip.short * strip.long):
        if should_stop is not None and should_stop():
            return None
        states, empty_edges = strip.forward(layers[-1], empty_edges, cell, keep)
        layers.append(states)
        if cell % (4 * strip.short) == 0:
            said(f"forward: {cell} of {strip.short * strip.long} cells, {layers[-1].size:,} states")
    layers[-1] = layers[-1][strip.finished(layers[-1])]
    for cell in range(strip.short * strip.long - 1, -1, -1):
        if layers[cell + 1].size == 0:  # nothing after it lives: neither does anything here (no step needed)
            layers[cell] = layers[cell][:0]
            continue
        if should_stop is not None and should_stop():
            return None
        children, parents, _ = strip.step(layers[cell], cell)
        alive = _members(children, layers[cell + 1])
        layers[cell] = layers[cell][np.unique(parents[alive])]
        if cell % (4 * strip.short) == 0:
            said(f"backward: {cell} cells to go, {layers[cell].size:,} live states there")
    return layers


def _grouped_images(exact: _Strip, grouped: _Strip) -> np.ndarray:
    """For each exact used-piece set, the grouped counts key of the same pieces."""
    kind_of = {id(shape): index for index, kind in enumerate(grouped.kinds) for shape in kind}
    image = np.zeros(1, dtype=np.uint64)
    for kind in exact.kinds:  # one piece each, the first in the lowest bit
        one = grouped.counts.one[kind_of[id(kind[0])]]
        image = np.concatenate([image, image + one])
    return image


class _GuidedSearch:
    """Depth-first over the exact DP's live states: every one of them reaches a finished state, so the search
    only enumerates paths until one is a corner-connected layout (that depends on the whole path: no memo)."""

    def __init__(self, exact: _Strip, live: list[np.ndarray], should_stop: Callable[[], bool] | None) -> None:
        self.exact, self.live, self.should_stop = exact, live, should_stop
        self.cells = exact.short * exact.long
        self.tried, self.nodes, self.stopped = 0, 0, False
        self.path: list[tuple[int, Placement]] = []

    def run(self) -> list[tuple[Cell, ...]] | None:
        return self.descend(np.uint64(0), 0)

    def descend(self, state: np.uint64, cell: int) -> list[tuple[Cell, ...]] | None:
        """A layout through this state, or None."""
        if cell == self.cells:
            self.tried += 1
            return self.layout()
        self.nodes += 1
        if self.stopped or (self.should_stop is not None and self.nodes % 256 == 0 and self.should_stop()):
            self.stopped = True
            return None
        children, _, choices = self.exact.step(np.array([state], dtype=np.uint64), cell)
        keep = _members(children, self.live[cell + 1])
        row = cell % self.exact.short
        for child, choice in zip(children[keep], choices[keep]):
            if choice >= 0:
                self.path.append((cell, self.exact.by_row[row][choice]))
            found = self.descend(child, cell + 1)
            if choice >= 0:
                self.path.pop()
            if found is not None:
                return found
        return None

    def layout(self) -> list[tuple[Cell, ...]] | None:
        """The path's pieces as (row, col) cells of the board ``short`` columns wide, in a play order from the
        top-left corner (None when its covered cells are not one corner-connected chain from there)."""
        short, behind = self.exact.short, self.exact.behind
        pieces = []
        for anchor, placement in self.path:
            indices = [anchor + bit - behind for bit in range(placement.cells.bit_length()) if placement.cells >> bit & 1]
            pieces.append(tuple(sorted((index // short, index % short) for index in indices)))
        return play_order(pieces)


def _members(keys: np.ndarray, layer: np.ndarray) -> np.ndarray:
    """Whether each key is in ``layer`` (sorted, as ``np.unique`` leaves it)."""
    if layer.size == 0:
        return np.zeros(keys.size, dtype=bool)
    return layer[np.minimum(np.searchsorted(layer, keys), layer.size - 1)] == keys


