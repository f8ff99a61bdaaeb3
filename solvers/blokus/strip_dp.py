"""An exhaustive frontier DP over narrow boards for the one-color rectangle question.

Does one color's 21 pieces fit a ``short x long`` rectangle (short side 3 or 4) under the rules?  The DP
scans the board cell by cell along its long side, column by column, and keeps every reachable *state*:
the set of pieces used so far and the occupancy of a window of cells around the scan point (two columns
behind, five ahead, enough for any piece anchored at the current cell).  At an empty cell it either
leaves the cell empty or anchors an unused piece there (the piece's first cell in scan order).

It checks a relaxation of the rules, so an empty final set of states is a proof that no layout exists:

- no two pieces share an edge (exact: a new piece may not touch any covered cell along an edge);
- the covered cells are one 8-connected set (the corner-contact chain from the first piece needs it),
  checked as: two neighbouring columns that both hold cells must meet along a side or a diagonal, and
  after a column with no covered cell nothing more is covered;
- the first piece covers a corner of the board; the four corners are alike by the rectangle's symmetry,
  so the DP asks for the first cell of its scan;
- exactly ``cells - 89`` cells stay empty (pruned as soon as more are empty).

A surviving state is no layout (the connectivity is relaxed), so the DP says only "impossible" or
"not refuted".  States are numpy ``uint64`` keys, deduplicated with ``np.unique`` after each cell.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from puzzles.polyomino import Shape, piece_set

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
    interrupted: bool = False


def placements(short: int, row: int, pieces: tuple[Shape, ...] = PIECES) -> list[Placement]:
    """Every placement anchored at ``row`` of a column (bit ``2 * short`` is the anchor cell)."""
    behind = 2 * short
    found = []
    for index, shape in enumerate(pieces):
        seen = set()
        for orientation in shape.orientations():
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


def refute(short: int, long: int, pieces: tuple[Shape, ...] = PIECES,
           progress: Callable[[int, int], None] | None = None,
           should_stop: Callable[[], bool] | None = None, follow: Sequence[Sequence[Cell]] | None = None) -> StripResult:
    """Run the DP on a ``short x long`` board (short side 2..6); ``refuted`` proves the pieces cannot fit it.

    ``progress(cells scanned, states)`` is called after every cell; ``should_stop()`` ends the run early,
    answered as ``interrupted`` (never refuted).  ``follow`` (a layout: each piece's cells as (row, col) on a board
    ``short`` columns wide, row 0 the start corner's) keeps only that layout's choices: a check that the DP's
    pruning never drops a real layout, whose answer must then be "not refuted"."""
    if not 2 <= short <= 6 or long < short or len(pieces) > USED_BITS:
        raise ValueError(f"the strip DP takes a short side of 2..6 and at most {USED_BITS} pieces")
    start = time.process_time()
    sizes = np.array([len(p.cells) for p in pieces], dtype=np.int64)
    all_used = np.uint64((1 << len(pieces)) - 1)
    spare = short * long - int(sizes.sum())
    behind, window_bits = 2 * short, 7 * short
    by_row = [placements(short, row, pieces) for row in range(short)]
    if spare < 0 or not all(_fewest_row_runs(short, (p,)).size for p in pieces):
        return StripResult(short, long, True, 0, time.process_time() - start)
    used_cells = _subset_sums(sizes)
    unused_runs = _subset_sums(_fewest_row_runs(short, pieces))[::-1].copy()  # by used set: the unused pieces' runs
    meets = _connected_columns(short)
    # each row's last decided cell and the cells after it: between two pieces' runs there, an empty cell to come
    run_cells = np.uint64(((1 << window_bits) - 1) & ~((1 << (behind - short)) - 1))
    column_mask = np.uint64((1 << short) - 1)
    states = np.array([0], dtype=np.uint64)
    peak = 1
    moves, empty_cells = _followed(short, long, behind, pieces, follow) if follow is not None else (None, None)
    for cell in range(short * long):
        col, row = divmod(cell, short)
        if row == 0 and col >= 2:
            states = _cut(states, short, meets, column_mask, all_used)
            if states.size == 0:
                break
        if should_stop is not None and should_stop():
            return StripResult(short, long, False, peak, time.process_time() - start, interrupted=True)
        windows = states >> np.uint64(USED_BITS)
        used = states & all_used
        here = (windows >> np.uint64(behind)) & np.uint64(1)
        free = states[here == 0]
        free_windows, free_used = windows[here == 0], used[here == 0]
        parts = [states[here == 1]]
        if cell > 0 and (empty_cells is None or cell in empty_cells):
            parts.append(free)  # leave the cell empty
        for placement in by_row[row]:
            if col + placement.columns > long or (moves is not None and (cell, placement.piece, placement.cells) not in moves):
                continue
            bit = np.uint64(1 << placement.piece)
            ok = ((free_windows & np.uint64(placement.cells | placement.touching)) == 0) & ((free_used & bit) == 0)
            if ok.any():
                parts.append(free[ok] | bit | np.uint64(placement.cells << USED_BITS))
        states = np.unique(np.concatenate(parts))
        states = _shift(states, window_bits, all_used)
        # empty cells so far: scanned cells minus the covered ones behind the scan point
        windows = states >> np.uint64(USED_BITS)
        ahead = np.bitwise_count(windows >> np.uint64(behind)).astype(np.int64)
        covered_behind = used_cells[(states & all_used).astype(np.int64)] - ahead
        empty = (cell + 1) - covered_behind
        covered = windows & run_cells
        placed_runs = np.bitwise_count(covered & ~(covered << np.uint64(short))).astype(np.int64)
        runs = unused_runs[(states & all_used).astype(np.int64)] + placed_runs
        still_needed = np.maximum(runs - short, 0)
        states = states[empty + still_needed <= spare]
        peak = max(peak, int(states.size))
        if progress is not None:
            progress(cell + 1, int(states.size))
        if states.size == 0:
            break
    done = states[(states & all_used) == all_used]
    if done.size:
        done = _cut(done, short, meets, column_mask, all_used, final=True)
    return StripResult(short, long, done.size == 0, peak, time.process_time() - start)


def _followed(short: int, long: int, behind: int, pieces: tuple[Shape, ...],
              layout: Sequence[Sequence[Cell]]) -> tuple[set[tuple[int, int, int]], set[int]]:
    """A layout as the DP's choices: (anchor cell, piece, window bits) of each piece, and its empty cells."""
    def shape_key(cells: Iterable[Cell]) -> frozenset[Cell]:
        rows, cols = zip(*cells)
        return frozenset((r - min(rows), c - min(cols)) for r, c in cells)
    kinds = {shape_key(o.cells): index for index, p in enumerate(pieces) for o in p.orientations()}
    moves, covered = set(), set()
    for cells in layout:
        scan = sorted(row * short + col for row, col in cells)  # the board's row is the DP's column
        anchor = scan[0]
        moves.add((anchor, kinds[shape_key(cells)], sum(1 << (behind + index - anchor) for index in scan)))
        covered.update(scan)
    return moves, set(range(short * long)) - covered


def _subset_sums(values: np.ndarray) -> np.ndarray:
    """For every set of pieces (a bit mask), the sum of their values."""
    sums = np.zeros(1 << len(values), dtype=np.int16)
    for index, value in enumerate(values):
        sums[1 << index:2 << index] = sums[:1 << index] + value
    return sums


def _fewest_row_runs(short: int, pieces: tuple[Shape, ...]) -> np.ndarray:
    """Each piece's fewest row runs (maximal segments along the long side) over the orientations that fit;
    empty when one of the pieces fits in no orientation."""
    def runs(cells: frozenset) -> int:
        return sum(1 for r, c in cells if (r, c - 1) not in cells)
    fewest = [min((runs(o.cells) for o in p.orientations() if o.height <= short), default=-1) for p in pieces]
    return np.array([] if -1 in fewest else fewest, dtype=np.int64)


def _shift(states: np.ndarray, window_bits: int, all_used: np.uint64) -> np.ndarray:
    """Move the window one cell along the scan (the oldest cell drops out)."""
    used = states & all_used
    windows = (states >> np.uint64(USED_BITS + 1)) & np.uint64((1 << window_bits) - 1)
    return used | (windows << np.uint64(USED_BITS))


def _cut(states: np.ndarray, short: int, meets: np.ndarray, column_mask: np.uint64, all_used: np.uint64,
         final: bool = False) -> np.ndarray:
    """Keep the states whose two finished columns (the window's oldest) connect, or that ended with all pieces."""
    windows = states >> np.uint64(USED_BITS)
    older = windows & column_mask
    newer = (windows >> np.uint64(short)) & column_mask
    ahead = windows >> np.uint64(2 * short)
    complete = ((states & all_used) == all_used) & (ahead == 0)
    joined = meets[(windows & np.uint64((1 << (2 * short)) - 1)).astype(np.int64)]
    # older empty: the covered cells ended earlier (then only a complete state lives on)
    ended = (older == 0) | (newer == 0)
    keep = np.where(ended, complete, joined) if not final else (joined | ((newer == 0) & complete) | (older == 0))
    return states[keep]
