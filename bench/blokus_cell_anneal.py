"""All 84 Blokus pieces as a colouring of the cells, by simulated annealing (an experiment).

Every search tried for 21×17 before this one builds the layout piece by piece (trees, beams, SAT, CP-SAT).  This one
looks at a layout as a *colouring of the cells*, which the rules pin down exactly:

* the pieces of one colour are the edge-connected components of its cells (two of its pieces never share an edge);
* every free polyomino of 1 to 5 cells is a Blokus piece, so a colour is a full set when its components are at most
  5 cells and pairwise different shapes and it has 89 cells (the 21 shapes hold exactly 89);
* its pieces are corner-connected exactly when its cells are 8-connected (two pieces of it touching at a corner
  touch diagonally, and the other two cells there are not its own), and its start corner is its own.

So a layout invariant under a symmetry group G (the half turn, or the quarter turn on a square) is a label per orbit
of G: which cell of the orbit takes the orbit's base colour (blue, or yellow for the half turn's second class), the
others following by the colour permutation of G.  The cost of a labelling counts, per base colour, the cells of
components past 5, the shapes twice or missing, and the 8-components past the first; a layout has cost 0.  Moves keep
each colour's cell count: turn an orbit (which of its cells is blue), or swap the labels of two neighbouring orbits.
A labelling of cost 0 is replayed through the rule engine.

Options: ``--contacts W,CAP`` adds W per corner contact a base colour has short of CAP (a layout needs 20 per colour;
the stored 18×20 has 21–22), a slope towards connected colours that the group count alone lacks; ``--focus P`` draws
that share of the moves among the orbits in a defect (refreshed every 500 moves); ``--temper R`` runs parallel
tempering instead of cooling cycles; ``--repair S`` hands each cycle's best to CP-SAT: each colour keeps the pieces
reached from its corner (each shape once) and the project's completion model places the rest anywhere.
``--stage2 S`` (half turn): every labelling met with one colour class right (its base colour a full, connected set,
so its image too) is kept, and a SAT model (each shape once, one cell of each orbit, the edge rule, the corner, a
contact per piece, lazy connectivity cuts) places the other class on the cells left, S seconds each; a refutation
is exhaustive, for that class's cells.  ``--class-weights`` weighs the two classes in the cost.  Results:
``bench/results/solitaire_all_pieces.md`` (2026-12-07 last, "the cells' colouring, annealed").

    python bench/blokus_cell_anneal.py 18x20 --contacts 0.5,21 --focus 0.8 --time-limit 300
    python bench/blokus_cell_anneal.py 21x17 --contacts 0.5,21 --focus 0.8 --repair 20 --time-limit 1200
"""
from __future__ import annotations

import argparse
import json
import math
import time
from collections import Counter

import numpy as np
from numba import njit

from puzzles.blokus.engine import BlokusState, solitaire_variant
from puzzles.polyomino import Shape
from solvers.blokus.solitaire import move_text
from solvers.blokus.solitaire_sat import PIECES, play_order

COMPILE_CACHE = False  # the tests may load this script under another module name, which numba's cache cannot re-import
EMPTY_COLOUR = 4
MAX_PIECE = 5
SET_CELLS = sum(p.area for p in PIECES)  # 89


def shape_table() -> np.ndarray:
    """Shape number (0..20) of every fixed orientation, indexed by its cells as bits of a 5×5 box; -1 elsewhere."""
    table = np.full(1 << 25, -1, np.int8)
    for s, piece in enumerate(PIECES):
        for shape in piece.orientations():
            table[sum(1 << (5 * r + c) for r, c in shape.cells)] = s
    return table


class CellBoard:
    """The board's cells, the orbits of the symmetry and the labels: label ``k * m + r`` (class k, turn r) gives the
    orbit's j-th cell the colour ``base[k] + (j + r) * step``; the last label leaves the orbit empty."""

    def __init__(self, cols: int, rows: int, symmetry: str = "half") -> None:
        if symmetry == "quarter" and cols != rows:
            raise ValueError("the quarter turn needs a square board")
        self.cols, self.rows, self.n = cols, rows, cols * rows
        self.m = 2 if symmetry == "half" else 4
        self.step, self.base = 4 // self.m, [0, 1] if symmetry == "half" else [0]
        turn = self._half if symmetry == "half" else self._quarter
        seen, orbits, self.fixed_empty = set(), [], []
        for q in range(self.n):
            if q in seen:
                continue
            orbit = [q]
            while (nxt := turn(orbit[-1])) != q:
                orbit.append(nxt)
            seen.update(orbit)
            if len(orbit) == self.m:
                orbits.append(orbit)
            else:  # the centre: its own image, so empty (its colour would have to be its image's)
                self.fixed_empty.extend(orbit)
        self.orbit_cells = np.array(orbits, np.int64)
        self.orbit_of = np.full(self.n, -1, np.int64)
        for o, cells in enumerate(orbits):
            self.orbit_of[cells] = o
        ncls = len(self.base)
        self.nlabels = ncls * self.m + 1
        self.empty_label = self.nlabels - 1
        self.lab_col = np.full((self.nlabels, self.m), EMPTY_COLOUR, np.int64)
        for k in range(ncls):
            for r in range(self.m):
                for j in range(self.m):
                    self.lab_col[k * self.m + r, j] = (self.base[k] + (j + r) * self.step) % 4
        self.corners = [(0, 0), (0, cols - 1), (rows - 1, cols - 1), (rows - 1, 0)]
        self.spare = len(orbits) - SET_CELLS * ncls
        if self.spare < 0:
            raise ValueError(f"{cols}x{rows} is too small")
        self.nbr4 = self._neighbours(((1, 0), (-1, 0), (0, 1), (0, -1)))
        self.nbr8 = self._neighbours(tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc))

    def _half(self, q: int) -> int:
        return self.n - 1 - q

    def _quarter(self, q: int) -> int:
        r, c = divmod(q, self.cols)
        return c * self.cols + (self.rows - 1 - r)

    def _neighbours(self, steps: tuple[tuple[int, int], ...]) -> np.ndarray:
        table = np.full((self.n, len(steps)), -1, np.int64)
        for q in range(self.n):
            r, c = divmod(q, self.cols)
            for k, (dr, dc) in enumerate(steps):
                if 0 <= r + dr < self.rows and 0 <= c + dc < self.cols:
                    table[q, k] = (r + dr) * self.cols + c + dc
        return table

    def corner_labels(self) -> dict[int, int]:
        """The label each base colour's start corner's orbit must have (blue on the top left; yellow on the top
        right); the other corners are their images."""
        fixed = {}
        for colour, (r, c) in enumerate(self.corners[: len(self.base)]):
            q = r * self.cols + c
            o = int(self.orbit_of[q])
            j = int(np.flatnonzero(self.orbit_cells[o] == q)[0])
            fixed[o] = next(lab for lab in range(self.nlabels - 1) if self.lab_col[lab, j] == colour)
        return fixed

    def random_labels(self, rng: np.random.Generator) -> np.ndarray:
        """A labelling with the right number of orbits per class, the corners fixed."""
        fixed = self.corner_labels()
        labels = np.full(len(self.orbit_cells), -1, np.int64)
        pool = []
        for k in range(len(self.base)):
            have = sum(1 for lab in fixed.values() if lab // self.m == k)
            pool += [k * self.m + int(rng.integers(self.m)) for _ in range(SET_CELLS - have)]
        pool += [self.empty_label] * self.spare
        free = [o for o in range(len(self.orbit_cells)) if o not in fixed]
        rng.shuffle(pool)
        for o, lab in zip(free, pool):
            labels[o] = lab
        for o, lab in fixed.items():
            labels[o] = lab
        return labels

    def colours(self, labels: np.ndarray) -> np.ndarray:
        """The colour of every cell (EMPTY_COLOUR for the empty ones) under ``labels``."""
        col = np.full(self.n, EMPTY_COLOUR, np.int64)
        for o, lab in enumerate(labels):
            col[self.orbit_cells[o]] = self.lab_col[lab]
        return col


@njit(cache=COMPILE_CACHE)
def _groups(col, c, nbr8, stamp, mark, stack):
    """The 8-connected components of colour c's cells."""
    stamp[0] += 1
    s8 = stamp[0]
    groups = 0
    for q in range(col.shape[0]):
        if col[q] != c or mark[q] == s8:
            continue
        groups += 1
        mark[q] = s8
        stack[0] = q
        top = 1
        while top:
            top -= 1
            x = stack[top]
            for k in range(8):
                y = nbr8[x, k]
                if y >= 0 and col[y] == c and mark[y] != s8:
                    mark[y] = s8
                    stack[top] = y
                    top += 1
    return groups


@njit(cache=COMPILE_CACHE)
def _colour_cost(col, c, width, nbr4, nbr8, table, stamp, mark, stack, counts, weights):
    """Cost of colour c: cells of components past 5, shapes twice or missing, 8-components past the first."""
    n = col.shape[0]
    comp, sid, csize = stack[2 * n: 3 * n], stack[3 * n: 4 * n + 1], stack[4 * n + 1: 5 * n + 2]  # scratch
    comp[:] = -1
    counts[:] = 0
    ncomp = _components(col, c, width, nbr4, table, comp, sid, csize, 0, counts, stack[n: 2 * n], stack[:n])
    big = 0
    for k in range(ncomp):
        if sid[k] == 21:
            big += csize[k] - MAX_PIECE
    twice, missing = 0, 0
    for s in range(21):
        if counts[s] > 1:
            twice += counts[s] - 1
        elif counts[s] == 0:
            missing += 1
    groups = _groups(col, c, nbr8, stamp, mark, stack)
    return weights[0] * big + weights[1] * twice + weights[2] * missing + weights[3] * max(groups - 1, 0)


@njit(cache=COMPILE_CACHE)
def _contacts(col, c, width):
    """Points where two cells of colour c touch diagonally and the other two are not c (corner contacts)."""
    n, found = col.shape[0], 0
    for q in range(n - width):
        if q % width == width - 1:
            continue
        a, b, d, e = col[q] == c, col[q + 1] == c, col[q + width] == c, col[q + width + 1] == c
        if (a and e and not b and not d) or (b and d and not a and not e):
            found += 1
    return found


@njit(cache=COMPILE_CACHE)
def _cost(col, bases, width, nbr4, nbr8, table, stamp, mark, stack, counts, weights, parts):
    """The labelling's cost: each base colour's (``parts``, without contacts), plus ``weights[4]`` per corner
    contact short of ``weights[5]``, times its class weight ``weights[6 + b]``."""
    total = 0.0
    for b in range(bases.shape[0]):
        parts[b] = _colour_cost(col, bases[b], width, nbr4, nbr8, table, stamp, mark, stack, counts, weights)
        short = max(0, weights[5] - _contacts(col, bases[b], width)) if weights[4] > 0 else 0
        total += weights[6 + b] * (parts[b] + weights[4] * short)
    return total


@njit(cache=COMPILE_CACHE)
def _set(o, lab, labels, col, orbit_cells, lab_col):
    labels[o] = lab
    for j in range(orbit_cells.shape[1]):
        col[orbit_cells[o, j]] = lab_col[lab, j]


@njit(cache=COMPILE_CACHE)
def _paint(labels, col, orbit_cells, lab_col):
    """Colour ``col`` as ``labels`` say."""
    for o in range(labels.shape[0]):
        _set(o, labels[o], labels, col, orbit_cells, lab_col)


@njit(cache=COMPILE_CACHE)
def _step(o, labels, col, cost, temp, is_movable, orbit_cells, orbit_of, lab_col, m, empty_label, bases, width, nbr4,
          nbr8, table, weights, stamp, mark, stack, counts, parts, undo):
    """One Metropolis move of orbit ``o`` at ``temp``: a random move, kept by the Metropolis rule or undone.
    Returns (kept, the cost now); ``parts`` holds the moved labelling's per-class costs when kept."""
    if not _propose(o, labels, col, is_movable, orbit_cells, orbit_of, lab_col, m, empty_label, nbr4, undo):
        return False, cost
    after = _cost(col, bases, width, nbr4, nbr8, table, stamp, mark, stack, counts, weights, parts)
    if after <= cost or np.random.random() < math.exp((cost - after) / temp):
        return True, after
    _revert(undo, labels, col, orbit_cells, lab_col)
    return False, cost


@njit(cache=COMPILE_CACHE)
def _keep_candidate(labels, b, m, cand, cand_class, ncand):
    """Store ``labels`` as a candidate for class b unless class b's orbits are labelled as in the last one."""
    k = ncand[0]
    if k and cand_class[k - 1] == b:
        same = True
        for o in range(labels.shape[0]):
            if (labels[o] // m == b or cand[k - 1, o] // m == b) and labels[o] != cand[k - 1, o]:
                same = False
                break
        if same:
            return
    cand[k] = labels
    cand_class[k] = b
    ncand[0] = k + 1


@njit(cache=COMPILE_CACHE)
def _anneal(labels, movable, is_movable, orbit_cells, orbit_of, lab_col, m, empty_label, bases, width, nbr4, nbr8,
            table, weights, corner_cells, focus, t_hot, t_cold, cycle, iterations, seed, best_labels, cand, cand_class,
            ncand):
    """Anneal ``labels`` in place (cycles of ``cycle`` moves cooling from t_hot to t_cold); the best labelling goes
    to ``best_labels``, and labellings with one colour class right (cost 0) to ``cand`` (while there is room; each
    different from the one before).  Returns (best cost, moves made)."""
    np.random.seed(seed)
    n = nbr4.shape[0]
    col = np.full(n, 4, np.int64)
    _paint(labels, col, orbit_cells, lab_col)
    stamp, mark = np.zeros(1, np.int64), np.zeros(n, np.int64)
    stack, counts = np.zeros(6 * n + 8, np.int64), np.zeros(22, np.int64)
    parts = np.zeros(bases.shape[0])
    cost = _cost(col, bases, width, nbr4, nbr8, table, stamp, mark, stack, counts, weights, parts)
    best = cost
    best_labels[:] = labels
    ratio = math.log(t_cold / t_hot)
    undo, defect, ndefect = np.zeros(4, np.int64), np.zeros(labels.shape[0], np.int64), 0
    for it in range(iterations):
        temp = t_hot * math.exp(ratio * (it % cycle) / cycle)
        if focus > 0 and it % 500 == 0:
            ndefect = _defects(col, bases, corner_cells, width, nbr4, nbr8, table, orbit_of, is_movable, defect)
        if ndefect and np.random.random() < focus:
            o = defect[np.random.randint(ndefect)]
        else:
            o = movable[np.random.randint(movable.shape[0])]
        kept, cost = _step(o, labels, col, cost, temp, is_movable, orbit_cells, orbit_of, lab_col, m, empty_label,
                           bases, width, nbr4, nbr8, table, weights, stamp, mark, stack, counts, parts, undo)
        if not kept:
            continue
        for b in range(bases.shape[0]):
            if parts[b] == 0 and ncand[0] < cand.shape[0]:
                _keep_candidate(labels, b, m, cand, cand_class, ncand)
        if cost < best:
            best = cost
            best_labels[:] = labels
            if best == 0:
                return best, it + 1
    return best, iterations


@njit(cache=COMPILE_CACHE)
def _propose(o, labels, col, is_movable, orbit_cells, orbit_of, lab_col, m, empty_label, nbr4, undo):
    """Make a random move of orbit ``o`` in place (turn it, or swap its label with a neighbouring orbit's, perhaps
    turning both); ``undo`` gets (orbit, old label, second orbit or -1, its old label).  False when the draw made
    no move."""
    old = labels[o]
    kind = np.random.randint(3)
    undo[0], undo[1], undo[2], undo[3] = o, old, -1, -1
    if kind == 0:
        if old == empty_label or m == 1:
            return False
        _set(o, (old // m) * m + (old % m + 1 + np.random.randint(m - 1)) % m, labels, col, orbit_cells, lab_col)
        return True
    y = nbr4[orbit_cells[o, np.random.randint(m)], np.random.randint(4)]
    if y < 0:
        return False
    o2 = orbit_of[y]
    if o2 < 0 or o2 == o or labels[o2] == old or not is_movable[o2]:
        return False
    old2 = labels[o2]
    new, new2 = old2, old
    if kind == 2:  # swap and turn both
        if new != empty_label:
            new = (new // m) * m + np.random.randint(m)
        if new2 != empty_label:
            new2 = (new2 // m) * m + np.random.randint(m)
    undo[2], undo[3] = o2, old2
    _set(o, new, labels, col, orbit_cells, lab_col)
    _set(o2, new2, labels, col, orbit_cells, lab_col)
    return True


@njit(cache=COMPILE_CACHE)
def _components(col, c, width, nbr4, table, comp, sid, csize, ncomp, counts, cells, stack):
    """Number colour c's edge-connected components from ``ncomp`` on (``comp`` per cell; per component ``sid``, its
    shape or 21 past 5 cells, and ``csize``) and count the shapes; returns the next free number."""
    n = col.shape[0]
    for q in range(n):
        if col[q] != c or comp[q] >= 0:
            continue
        comp[q], stack[0], top, size = ncomp, q, 1, 0
        while top:
            top -= 1
            x = stack[top]
            cells[size] = x
            size += 1
            for k in range(4):
                y = nbr4[x, k]
                if y >= 0 and col[y] == c and comp[y] < 0:
                    comp[y] = ncomp
                    stack[top] = y
                    top += 1
        shape = 21
        if size <= MAX_PIECE:
            minr, minc, mask = n, n, 0
            for i in range(size):
                minr, minc = min(minr, cells[i] // width), min(minc, cells[i] % width)
            for i in range(size):
                mask |= 1 << (5 * (cells[i] // width - minr) + cells[i] % width - minc)
            shape = table[mask]
        sid[ncomp], csize[ncomp] = shape, size
        counts[shape] += 1
        ncomp += 1
    return ncomp


@njit(cache=COMPILE_CACHE)
def _reach8(col, start, nbr8, stack):
    """The cells of start's colour 8-connected to it."""
    reached = np.zeros(col.shape[0], np.bool_)
    reached[start], stack[0], top = True, start, 1
    while top:
        top -= 1
        x = stack[top]
        for k in range(8):
            y = nbr8[x, k]
            if y >= 0 and col[y] == col[start] and not reached[y]:
                reached[y] = True
                stack[top] = y
                top += 1
    return reached


@njit(cache=COMPILE_CACHE)
def _defects(col, bases, corner_cells, width, nbr4, nbr8, table, orbit_of, is_movable, out):
    """The movable orbits with a cell in a defect (a component past 5 cells, a shape twice, or away from its
    colour's corner group) go to ``out``; returns how many."""
    n = col.shape[0]
    comp, sid, csize = np.full(n, -1, np.int64), np.zeros(n + 1, np.int64), np.zeros(n + 1, np.int64)
    bad, seen = np.zeros(n, np.bool_), np.zeros(out.shape[0], np.bool_)
    cells, stack = np.zeros(n, np.int64), np.zeros(n, np.int64)
    ncomp = 0
    for b in range(bases.shape[0]):
        c, counts = bases[b], np.zeros(22, np.int64)
        ncomp = _components(col, c, width, nbr4, table, comp, sid, csize, ncomp, counts, cells, stack)
        reached = _reach8(col, corner_cells[b], nbr8, stack)
        for q in range(n):
            if col[q] == c and (sid[comp[q]] == 21 or counts[sid[comp[q]]] > 1 or not reached[q]):
                bad[q] = True
    found = 0
    for q in range(n):
        o = orbit_of[q]
        if bad[q] and o >= 0 and is_movable[o] and not seen[o]:
            seen[o] = True
            out[found] = o
            found += 1
    return found


@njit(cache=COMPILE_CACHE)
def _revert(undo, labels, col, orbit_cells, lab_col):
    _set(undo[0], undo[1], labels, col, orbit_cells, lab_col)
    if undo[2] >= 0:
        _set(undo[2], undo[3], labels, col, orbit_cells, lab_col)


@njit(cache=COMPILE_CACHE)
def _temper(labels, movable, is_movable, orbit_cells, orbit_of, lab_col, m, empty_label, bases, width, nbr4, nbr8,
            table, weights, corner_cells, focus, temps, sweep, rounds, seed, best_labels):
    """Parallel tempering: one replica per temperature (each a copy of ``labels``), ``sweep`` moves each per round,
    then neighbouring temperatures swap replicas by the Metropolis rule.  The best labelling goes to
    ``best_labels``; returns (best cost, rounds made)."""
    np.random.seed(seed)
    n, nrep, norb = nbr4.shape[0], temps.shape[0], labels.shape[0]
    reps = np.zeros((nrep, norb), np.int64)
    cols = np.full((nrep, n), 4, np.int64)
    costs, parts = np.zeros(nrep), np.zeros(bases.shape[0])
    stamp, mark = np.zeros(1, np.int64), np.zeros(n, np.int64)
    stack, counts, undo = np.zeros(6 * n + 8, np.int64), np.zeros(22, np.int64), np.zeros(4, np.int64)
    for k in range(nrep):
        reps[k] = labels
        _paint(reps[k], cols[k], orbit_cells, lab_col)
        costs[k] = _cost(cols[k], bases, width, nbr4, nbr8, table, stamp, mark, stack, counts, weights, parts)
    best = costs[0]
    best_labels[:] = labels
    for rnd in range(rounds):
        for k in range(nrep):
            lab, col, cost, temp = reps[k], cols[k], costs[k], temps[k]
            for _ in range(sweep):
                o = movable[np.random.randint(movable.shape[0])]
                kept, cost = _step(o, lab, col, cost, temp, is_movable, orbit_cells, orbit_of, lab_col, m,
                                   empty_label, bases, width, nbr4, nbr8, table, weights, stamp, mark, stack, counts,
                                   parts, undo)
                if kept and cost < best:
                    best = cost
                    best_labels[:] = lab
                    if best == 0:
                        return best, rnd + 1
            costs[k] = cost
        for k in range(nrep - 1):
            x = (1.0 / temps[k] - 1.0 / temps[k + 1]) * (costs[k] - costs[k + 1])
            if x >= 0 or np.random.random() < math.exp(x):
                tmp = reps[k].copy()
                reps[k] = reps[k + 1]
                reps[k + 1] = tmp
                tmpc = cols[k].copy()
                cols[k] = cols[k + 1]
                cols[k + 1] = tmpc
                costs[k], costs[k + 1] = costs[k + 1], costs[k]
    return best, rounds


def pieces_by_colour(board: CellBoard, col: np.ndarray) -> list[list[tuple[tuple[int, int], ...]]]:
    """Each colour's edge-connected components, as cell tuples."""
    out: list[list[tuple[tuple[int, int], ...]]] = [[] for _ in range(4)]
    seen = np.zeros(board.n, bool)
    for q in range(board.n):
        if col[q] == EMPTY_COLOUR or seen[q]:
            continue
        comp, todo = [], [q]
        seen[q] = True
        while todo:
            x = todo.pop()
            comp.append(divmod(x, board.cols))
            for y in board.nbr4[x]:
                if y >= 0 and not seen[y] and col[y] == col[q]:
                    seen[y] = True
                    todo.append(int(y))
        out[int(col[q])].append(tuple(sorted(comp)))
    return out


def stored_colouring(board: CellBoard, path: str) -> np.ndarray:
    """The colour of every cell of a stored layout (the tests/data format) on ``board``."""
    from solvers.blokus.solitaire_sat import layout_cells

    with open(path) as handle:
        data = json.load(handle)
    col = np.full(board.n, EMPTY_COLOUR, np.int64)
    for move, cells in zip(data["moves"], layout_cells(data)):
        for r, c in cells:
            col[r * board.cols + c] = ("blue", "yellow", "red", "green").index(move["color"])
    return col


def replay(board: CellBoard, col: np.ndarray) -> tuple[BlokusState, list[dict[str, str]]]:
    """Play the colouring through the rule engine, colours in turn; ValueError when it is not a layout."""
    orders, pieces = [], pieces_by_colour(board, col)
    for c, corner in enumerate(board.corners):
        order = play_order(pieces[c], corner)
        if order is None or len(order) != 21:
            raise ValueError(f"colour {c + 1} is not 21 corner-connected pieces")
        orders.append(order)
    state = BlokusState(solitaire_variant(board.cols, board.rows, 4))
    moves = []
    for i in range(21):
        for c in range(4):
            text = move_text(orders[c][i], board.rows)
            state.apply(state.string_to_action(text))
            moves.append({"color": ("blue", "yellow", "red", "green")[c], "move": text})
    return state, moves


def _work(board: CellBoard) -> tuple[np.ndarray, ...]:
    """Scratch arrays for the cost kernels: stamp, marks, stack, shape counts."""
    return (np.zeros(1, np.int64), np.zeros(board.n, np.int64), np.zeros(6 * board.n + 8, np.int64),
            np.zeros(22, np.int64))


def breakdown(board: CellBoard, col: np.ndarray, table: np.ndarray) -> str:
    """Per base colour: cells past 5, shapes twice, shapes missing, 8-components."""
    parts = []
    for c in board.base:
        terms = [_colour_cost(col, c, board.cols, board.nbr4, board.nbr8, table, *_work(board), np.eye(6)[k])
                 for k in range(4)]
        terms.append(_contacts(col, c, board.cols))
        parts.append("byrg"[c] + ": " + "/".join(f"{t:g}" for t in terms[:3]) + f"/{terms[3] + 1:g} groups/{terms[4]} contacts")
    return ", ".join(parts)


def corner_tree(board: CellBoard, pieces: list[tuple[tuple[int, int], ...]], corner: tuple[int, int]) -> list:
    """The pieces reached from the one on ``corner`` through corner contacts, each shape once (first reached)."""
    start = [p for p in pieces if corner in p and len(p) <= MAX_PIECE]
    if not start:
        return []
    tree, shapes, todo = [start[0]], {_shape_key(start[0])}, [start[0]]
    rest = [p for p in pieces if p is not start[0] and len(p) <= MAX_PIECE]
    while todo:
        piece = todo.pop()
        corners = {(r + dr, c + dc) for r, c in piece for dr in (-1, 1) for dc in (-1, 1)}
        for other in [p for p in rest if corners.intersection(p)]:
            rest.remove(other)
            if (key := _shape_key(other)) not in shapes:
                shapes.add(key)
                tree.append(other)
                todo.append(other)
    return tree


def _shape_key(cells: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    return Shape(frozenset(cells)).canonical().key()


def repair(board: CellBoard, col: np.ndarray, seconds: float, seed: int) -> tuple[int, np.ndarray | None]:
    """Keep each colour's pieces reached from its corner (each shape once) and let CP-SAT place every other piece
    anywhere (the project's completion model, no symmetry).  Returns (pieces kept, the full colouring or None)."""
    from solvers.blokus import solitaire

    geo = solitaire.Geometry(board.cols, board.rows, 4)
    t = geo.tables
    by_colour = pieces_by_colour(board, col)
    kept = [(c, t.placement_of(list(p))) for c, corner in enumerate(board.corners)
            for p in corner_tree(board, by_colour[c], corner)]
    new = solitaire._complete(kept, seconds, 1, seed, geo=geo)
    if new is None:
        return len(kept), None
    full = np.full(board.n, EMPTY_COLOUR, np.int64)
    for c, m in kept + new:
        for q in t.pl_cells[m, : t.pl_size[m]]:
            r, cc = t.unflat(int(q))
            full[r * board.cols + cc] = c
    return len(kept), full


def stage2_sat(board: CellBoard, col: np.ndarray, keep: int, seconds: float, trace: bool = False,
               empty_free: bool = True) -> tuple[str, np.ndarray | None]:
    """With colour class ``keep`` (0: blue and red, 1: yellow and green) of ``col`` kept, place the other class's
    base colour by SAT on all the other cells but the centre, its image following by the half turn: each shape once, one cell of each
    orbit at most, the edge rule, the start corner, a corner contact for every piece, and connectivity by lazy cuts
    (a group away from the corner needs one more piece at its corners).  ``empty_free=False`` keeps the empty cells
    of ``col`` empty.  Returns ('found', the layout), ('refuted', None) or ('unknown', None)."""
    from pysat.formula import IDPool
    from pysat.solvers import Solver

    base = 1 - keep
    free = (col != keep) & (col != keep + 2) & (empty_free | (col != EMPTY_COLOUR))
    free[board.fixed_empty] = False  # the centre
    corner = board.corners[base][0] * board.cols + board.corners[base][1]
    if not free[corner]:
        return "refuted", None
    pool = IDPool()
    place = _stage2_placements(board, free, pool)
    covering: dict[int, list[int]] = {}
    for v, (cells, _) in place.items():
        for q in cells:
            covering.setdefault(q, []).append(v)
    deadline, cuts = time.process_time() + seconds, 0
    with Solver(name="cadical153", bootstrap_with=_stage2_clauses(board, place, covering, corner, pool)) as solver:
        while time.process_time() < deadline:
            solver.conf_budget(20_000)
            answer = solver.solve_limited()
            if answer is None:
                continue
            if not answer:
                return "refuted", None
            full = np.where(free, EMPTY_COLOUR, col)
            chosen = {v: place[v][0] for v in solver.get_model() if v > 0 and v in place}
            for cells in chosen.values():
                full[cells], full[[board.n - 1 - q for q in cells]] = base, base + 2
            new_cuts = _group_cuts(board, full, chosen, covering, corner)
            if not new_cuts:
                return "found", full
            for clause in new_cuts:
                solver.add_clause(clause)
            cuts += len(new_cuts)
            if trace:
                print(f"    stage 2: {cuts} cuts, {time.process_time() - deadline + seconds:.1f} CPU-s", flush=True)
    return "unknown", None


def _stage2_placements(board: CellBoard, free: np.ndarray, pool) -> dict[int, tuple[list[int], int]]:
    """Every placement of a piece on free cells that holds no cell with its image, by variable: (cells, shape)."""
    place = {}
    for s, piece in enumerate(PIECES):
        for shape in piece.orientations():
            for r0 in range(board.rows - shape.height + 1):
                for c0 in range(board.cols - shape.width + 1):
                    cells = [(r + r0) * board.cols + c + c0 for r, c in shape.cells]
                    if all(free[q] for q in cells) and not set(cells) & {board.n - 1 - q for q in cells}:
                        place[pool.id(("p", s, tuple(cells)))] = (cells, s)
    return place


def _stage2_clauses(board: CellBoard, place: dict, covering: dict[int, list[int]], corner: int, pool) -> list:
    from pysat.card import CardEnc, EncType

    clauses: list[list[int]] = [list(covering.get(corner, []))]
    for s in range(len(PIECES)):
        lits = [v for v, (_, t) in place.items() if t == s]
        clauses += CardEnc.equals(lits, 1, vpool=pool, encoding=EncType.seqcounter).clauses
    for q in range(board.n // 2):  # each orbit at most once (its image takes the other colour)
        lits = covering.get(q, []) + covering.get(board.n - 1 - q, [])
        if len(lits) > 1:
            clauses += CardEnc.atmost(lits, 1, vpool=pool, encoding=EncType.seqcounter).clauses
    for v, (cells, _) in place.items():
        near = {int(y) for q in cells for y in board.nbr4[q] if y >= 0} | set(cells)
        clauses += [[-v, -w] for h in near - set(cells) for w in covering.get(h, []) if w > v]  # the edge rule
        if corner not in cells:  # a corner contact
            touch = {int(y) for q in cells for y in board.nbr8[q] if y >= 0} - near
            clauses.append([-v] + [w for h in touch for w in covering.get(h, [])])
    return clauses


def _group_cuts(board: CellBoard, full: np.ndarray, chosen: dict[int, list[int]], covering: dict[int, list[int]],
                corner: int) -> list[list[int]]:
    """One clause per group of the placed colour away from its corner: one of its pieces goes, or a piece joins it
    at one of its corners."""
    stack, cuts, done = np.zeros(board.n, np.int64), [], np.zeros(board.n, bool)
    done |= _reach8(full, corner, board.nbr8, stack)
    for cells in chosen.values():
        if done[cells[0]]:
            continue
        group = _reach8(full, cells[0], board.nbr8, stack)
        done |= group
        ring = {int(y) for q in np.flatnonzero(group) for y in board.nbr8[q] if y >= 0 and not group[y]}
        members = [w for w, other in chosen.items() if group[other[0]]]
        cuts.append([-w for w in members] + [w for h in ring for w in covering.get(h, [])])
    return cuts


def grid(board: CellBoard, col: np.ndarray) -> str:
    return "\n".join("".join("byrg."[int(col[r * board.cols + c])] for c in range(board.cols))
                     for r in range(board.rows))


def _stage2_candidates(board: CellBoard, cand: np.ndarray, cand_class: np.ndarray, seen: set, tried: Counter,
                       args: argparse.Namespace, col: np.ndarray, best: float) -> tuple[float, np.ndarray]:
    """Stage 2 on every new candidate (a class's cells not tried before); ``tried`` counts the outcomes."""
    for labels, b in zip(cand, cand_class):
        cand_col = board.colours(labels)
        key = frozenset(np.flatnonzero(cand_col == b).tolist())
        if key in seen:
            continue
        seen.add(key)
        status, full = stage2_sat(board, cand_col, int(b), args.stage2, args.trace)
        tried[status] += 1
        if status == "unknown" and args.unknowns:  # for a longer try later: the class's base-colour cells
            with open(args.unknowns, "a") as handle:
                handle.write(json.dumps({"board": args.board, "class": int(b), "cells": sorted(key)}) + "\n")
        if full is not None:
            return 0, full
    counts = ", ".join(f"{k} {v}" for k, v in tried.items())
    print(f"  stage 2: {counts or 'no labelling with a colour class right yet'}", flush=True)
    return best, col


def _report_layout(board: CellBoard, col: np.ndarray, args: argparse.Namespace, seconds: float) -> None:
    """Print a layout found, replay it through the rule engine and write it to ``--out``."""
    print(grid(board, col))
    _, moves = replay(board, col)
    print(f"FOUND, replayed through the rule engine ({len(moves)} moves), {seconds:.0f} CPU-s", flush=True)
    if args.out:
        record = {"format": "kibitz-blokus", "variant": f"solitaire-{board.cols}x{board.rows}-4",
                  "free_corners": False, "board": args.board, "colors": 4,
                  "empty_cells": int((col == EMPTY_COLOUR).sum()), "symmetry": f"{args.symmetry}-turn",
                  "search": {"method": "cell annealing", "seed": args.seed},
                  "command": "python bench/blokus_cell_anneal.py " + args.board, "cpu_seconds": round(seconds, 1),
                  "moves": moves}
        with open(args.out, "w") as handle:
            json.dump(record, handle, indent=1)


def retry_unknowns(board: CellBoard, path: str, seconds: float) -> Counter[str]:
    """Stage 2 again, ``seconds`` each, on the classes a run left unknown (``--unknowns``)."""
    outcomes: Counter[str] = Counter()
    with open(path) as handle:
        records = [json.loads(line) for line in handle]
    for record in records:
        b = record["class"]
        col = np.full(board.n, 1 - b, np.int64)  # the other class's cells: free
        col[board.fixed_empty] = EMPTY_COLOUR
        col[record["cells"]] = b
        col[[board.n - 1 - q for q in record["cells"]]] = b + 2
        status, full = stage2_sat(board, col, b, seconds)
        outcomes[status] += 1
        print(f"  {status}", flush=True)
        if full is not None:
            print(grid(board, full))
            replay(board, full)
            print("FOUND, replayed through the rule engine")
            break
    return outcomes


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("board", help="COLSxROWS, e.g. 21x17")
    parser.add_argument("--symmetry", choices=("half", "quarter"), default="half")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--time-limit", type=float, default=300.0)
    parser.add_argument("--cycle", type=int, default=2_000_000, help="moves per cooling cycle")
    parser.add_argument("--t-hot", type=float, default=2.0)
    parser.add_argument("--t-cold", type=float, default=0.05)
    parser.add_argument("--weights", default="1,1,1,1", help="big, twice, missing, groups")
    parser.add_argument("--contacts", default="0,0",
                        help="W,CAP: add W for each corner contact a base colour has fewer than CAP")
    parser.add_argument("--restart", action="store_true", help="each cycle from a fresh random labelling")
    parser.add_argument("--focus", type=float, default=0.0,
                        help="share of moves drawn among the orbits in a defect (annealing only)")
    parser.add_argument("--temper", type=int, default=0,
                        help="parallel tempering with this many replicas (temperatures from --t-cold to --t-hot)")
    parser.add_argument("--sweep", type=int, default=2000, help="moves per replica between swaps (tempering)")
    parser.add_argument("--repair", type=float, default=0.0,
                        help="after each cycle, CP-SAT (this many seconds) completes the pieces kept from the best")
    parser.add_argument("--stage2", type=float, default=0.0,
                        help="each labelling met with one colour class right: SAT (this many seconds) places the other")
    parser.add_argument("--unknowns", help="append the classes stage 2 left unknown here (JSON lines)")
    parser.add_argument("--retry", help="only run stage 2 (--stage2 seconds each) on the classes in this file")
    parser.add_argument("--class-weights", default="1,1", help="the cost's weight of each colour class")
    parser.add_argument("--trace", action="store_true", help="print each CP-SAT completion")
    parser.add_argument("--out", help="write a layout found here (JSON, the tests/data format)")
    return parser


def main() -> None:
    parser = _parser()
    args = parser.parse_args()
    if args.stage2 and args.symmetry != "half":
        parser.error("--stage2 needs the half turn")
    cols, rows = map(int, args.board.split("x"))
    board = CellBoard(cols, rows, args.symmetry)
    if args.retry:
        print(dict(retry_unknowns(board, args.retry, args.stage2)))
        return
    table = shape_table()
    weights = np.array([float(w) for w in args.weights.split(",") + args.contacts.split(",")
                        + args.class_weights.split(",")])
    cand = np.zeros((200, len(board.orbit_cells)), np.int64)  # labellings with a class right, for stage 2
    cand_class, ncand = np.zeros(200, np.int64), np.zeros(1, np.int64)
    seen: set[frozenset[int]] = set()
    tried: Counter[str] = Counter()
    fixed = board.corner_labels()
    movable = np.array([o for o in range(len(board.orbit_cells)) if o not in fixed], np.int64)
    is_movable = np.zeros(len(board.orbit_cells), np.bool_)
    is_movable[movable] = True
    rng = np.random.default_rng(args.seed)
    corner_cells = np.array([r * cols + c for r, c in board.corners[: len(board.base)]], np.int64)
    labels = board.random_labels(rng)
    best_labels = labels.copy()
    print(f"{args.board}, {args.symmetry} turn: {len(board.orbit_cells)} orbits, {board.spare} to spare; compiling ...",
          flush=True)
    t0, cycles, overall = time.process_time(), 0, math.inf
    while time.process_time() - t0 < args.time_limit:
        if args.restart and cycles:
            labels = board.random_labels(rng)
        kernel_args = (labels, movable, is_movable, board.orbit_cells, board.orbit_of, board.lab_col, board.m,
                       board.empty_label, np.array(board.base, np.int64), cols, board.nbr4, board.nbr8, table, weights,
                       corner_cells, args.focus)
        if args.temper:
            temps = np.geomspace(args.t_cold, args.t_hot, args.temper)
            best, _ = _temper(*kernel_args, temps, args.sweep, max(1, args.cycle // (args.sweep * args.temper)),
                              args.seed * 100_003 + cycles, best_labels)
        else:
            best, _ = _anneal(*kernel_args, args.t_hot, args.t_cold, args.cycle, args.cycle,
                              args.seed * 100_003 + cycles, best_labels, cand, cand_class, ncand)
        cycles += 1
        overall = min(overall, best)
        if not args.restart:
            labels[:] = best_labels
        print(f"cycle {cycles}: best cost {best:g} ({breakdown(board, board.colours(best_labels), table)}; overall "
              f"{overall:g}), {time.process_time() - t0:.0f} CPU-s", flush=True)
        col = board.colours(best_labels)
        if best and args.stage2:
            best, col = _stage2_candidates(board, cand[: ncand[0]], cand_class, seen, tried, args, col, best)
            ncand[0] = 0
        if best and args.repair:
            if args.trace:
                from solvers.blokus import solitaire
                solitaire._TRACE = True
            nkept, full = repair(board, col, args.repair, args.seed + cycles)
            print(f"  repair: {nkept} pieces kept, {'completed' if full is not None else 'no completion'}",
                  flush=True)
            if full is not None:
                best, col = 0, full
        if best == 0:
            _report_layout(board, col, args, time.process_time() - t0)
            break


if __name__ == "__main__":
    main()
