"""All 84 Blokus pieces under a mirror with a middle line of straight pieces (an experiment).

Every search for 21×17 so far looked at half-turn layouts.  A mirror cannot act on the whole of 21×17 (it maps the
middle row or column onto itself, and no piece can be its own image: the mirror swaps the colours in pairs), but it can
act on everything **outside** the middle line.  The family searched here: the top half (rows above the middle) holds
pieces of all four colours, the bottom half is its mirror image with the colours swapped as the corners are (blue with
green, yellow with red for the top/bottom mirror), and the middle row, if the board has one, holds straight pieces
(1, 2, I3, I4, I5) lying along it, in pairs of the two colours the mirror swaps, so that every colour still gets one
piece of every shape.  On an even board the halves touch directly (the 18×20 calibration: the stored layout has this
form).  The left/right mirror is the same model on the board turned (``--axis cols``).

Abstract colours: 0 the top-left corner's, 1 the top-right's, 2 = σ(1) the bottom-right's, 3 = σ(0) the bottom-left's.
What the rules ask, in the top half only:

* each (shape, mirror pair {c, σ(c)}) placed once: a top piece of colour c or σ(c), or (straight shapes, middle row)
  a pair of middle pieces, one of each colour;
* the edge rule inside the top, between the top's last row and the middle row (a middle piece of colour c touches a
  top cell coloured c above it and, below it, the mirror of a top cell coloured σ(c)), and along the middle row;
* colour c's pieces are the top pieces of c, the mirror images of the top pieces of σ(c), and the middle pieces of c.
  Its contacts: c with c in the top, σ(c) with σ(c) in the top (mirrored), a middle piece of c with any top piece of
  the pair at the cells diagonal to its ends, and (no middle row) a top cell of c next to a top cell of σ(c) in the
  last row (they meet diagonally across the mirror line).  Connectivity is checked on each solution and enforced by
  lazy cuts; a corner contact per piece is a clause.

SAT (CaDiCaL through python-sat) decides; a layout is replayed through the rule engine.  "UNSAT" is exhaustive for
the family only.

    python bench/blokus_mirror_halves.py 18x20 --time-limit 600
    python bench/blokus_mirror_halves.py 21x17 --axis cols --time-limit 1800
"""
from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from blokus_cell_anneal import EMPTY_COLOUR, CellBoard, replay  # noqa: E402

from puzzles.polyomino import Region, Shape  # noqa: E402
from solvers.blokus.solitaire_sat import PIECES  # noqa: E402

SIGMA = (3, 2, 1, 0)
FAMILY = (0, 1, 1, 0)
Cell = tuple[int, int]


class MirrorModel:
    """The CNF of the family on a ``cols`` × ``rows`` board (mirror top/bottom)."""

    def __init__(self, cols: int, rows: int, pieces: Sequence[Shape] = PIECES) -> None:
        from pysat.formula import IDPool

        self.cols, self.rows, self.h = cols, rows, rows // 2
        self.middle = rows % 2 == 1
        self.pieces = tuple(pieces)
        self.straight = tuple(s for s, p in enumerate(self.pieces) if p.height == 1 or p.width == 1)
        spare = cols * rows - 4 * sum(p.area for p in self.pieces)
        if spare < 0 or (not self.middle and spare % 2):
            raise ValueError(f"{cols}x{rows}: no such layout")
        self.top_spare = spare // 2
        self.corners = {0: (0, 0), 1: (0, cols - 1)}  # each colour pair's corner in the top: blue's, yellow's
        self.pool = IDPool()
        self.clauses: list[list[int]] = []
        region = Region.rectangle(cols, self.h)
        self.place: list[tuple[int, tuple[Cell, ...]]] = [(s, cells) for s, p in enumerate(self.pieces)
                                                           for cells in region.placements(p)]
        self.covering: dict[Cell, list[int]] = {}
        for i, (_, cells) in enumerate(self.place):
            for q in cells:
                self.covering.setdefault(q, []).append(i)
        self.mids: list[tuple[int, int, int]] = []  # (colour, shape, first column)
        if self.middle:
            for c in range(4):
                for s in self.straight:
                    self.mids += [(c, s, x) for x in range(cols - self.pieces[s].area + 1)]
        self.ends_at: list[list[list[int]]] = [[[] for _ in range(cols)] for _ in range(4)]
        for j, (c, _, _) in enumerate(self.mids):
            for q in self.mid_ends(j):
                self.ends_at[c][q[1]].append(j)

    # variables
    def tp(self, c: int, i: int) -> int:
        return self.pool.id(("t", c, i))

    def col(self, q: Cell, c: int) -> int:
        return self.pool.id(("c", q, c))

    def mid(self, j: int) -> int:
        return self.pool.id(("m", j))

    def mcol(self, x: int, c: int) -> int:
        return self.pool.id(("mc", x, c))

    def pair(self, s: int, f: int) -> int:
        return self.pool.id(("p", s, f))

    def inside(self, q: Cell) -> bool:
        return 0 <= q[0] < self.h and 0 <= q[1] < self.cols

    def halo(self, cells: tuple[Cell, ...]) -> tuple[list[Cell], list[Cell]]:
        """The edge neighbours and the corner-only cells of a top placement, inside the top."""
        own = set(cells)
        edge = {(r + dr, c + dc) for r, c in cells for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))} - own
        diag = {(r + dr, c + dc) for r, c in cells for dr in (1, -1) for dc in (1, -1)} - own - edge
        return sorted(q for q in edge if self.inside(q)), sorted(q for q in diag if self.inside(q))

    def mid_cells(self, j: int) -> range:
        _, s, x = self.mids[j]
        return range(x, x + self.pieces[s].area)

    def mid_ends(self, j: int) -> list[Cell]:
        """The top cells diagonal to a middle piece's ends."""
        _, s, x = self.mids[j]
        return [(self.h - 1, y) for y in (x - 1, x + self.pieces[s].area) if 0 <= y < self.cols]

    def build(self) -> list[list[int]]:
        from pysat.card import CardEnc, EncType

        add, last = self.clauses.append, self.h - 1
        for s in range(len(self.pieces)):
            for f in (0, 1):
                lits = [self.tp(c, i) for i, (t, _) in enumerate(self.place) if t == s for c in range(4)
                        if FAMILY[c] == f]
                if self.middle and s in self.straight:
                    lits.append(self.pair(s, f))
                    for c in range(4):
                        if FAMILY[c] == f:
                            pos = [self.mid(j) for j, (d, t, _) in enumerate(self.mids) if d == c and t == s]
                            self._card(CardEnc.equals(pos + [-self.pair(s, f)], 1, vpool=self.pool,
                                                      encoding=EncType.seqcounter))
                self._card(CardEnc.equals(lits, 1, vpool=self.pool, encoding=EncType.seqcounter))
        for q, idx in self.covering.items():
            lits = [self.tp(c, i) for i in idx for c in range(4)]
            self._card(CardEnc.atmost(lits, 1, vpool=self.pool, encoding=EncType.seqcounter))
            if self.top_spare == 0:
                add(lits)
            for c in range(4):
                add([-self.col(q, c)] + [self.tp(c, i) for i in idx])
                for i in idx:
                    add([-self.tp(c, i), self.col(q, c)])
        for i, (_, cells) in enumerate(self.place):
            edge, _ = self.halo(cells)
            for c in range(4):
                for q in edge:
                    add([-self.tp(c, i), -self.col(q, c)])
        for f, corner in self.corners.items():
            add([self.col(corner, f)])
        if self.middle:
            self._build_middle(last)
        self._contacts()
        return self.clauses

    def _build_middle(self, last: int) -> None:
        from pysat.card import CardEnc, EncType

        add = self.clauses.append
        for x in range(self.cols):
            here = [j for j in range(len(self.mids)) if x in self.mid_cells(j)]
            self._card(CardEnc.atmost([self.mid(j) for j in here], 1, vpool=self.pool, encoding=EncType.seqcounter))
            for c in range(4):
                mine = [self.mid(j) for j in here if self.mids[j][0] == c]
                add([-self.mcol(x, c)] + mine)
                for v in mine:
                    add([-v, self.mcol(x, c)])
                add([-self.mcol(x, c), -self.col((last, x), c)])  # the top cell above
                add([-self.mcol(x, c), -self.col((last, x), SIGMA[c])])  # the mirror of that cell below
        for j, (c, _, _) in enumerate(self.mids):
            for _, y in self.mid_ends(j):  # no piece of its colour just past either end
                add([-self.mid(j), -self.mcol(y, c)])

    def _contacts(self) -> None:
        """A corner contact for every piece, in its colour's graph: a top piece of c in c's and, as its mirror image,
        in σ(c)'s (the same graph when the halves touch: no middle pieces tell them apart)."""
        add = self.clauses.append
        for i in range(len(self.place)):
            for c in range(4):
                for graph in (c, SIGMA[c]) if self.middle else (c,):
                    add([-self.tp(c, i)] + self.neighbours(graph, ("t", c, i)))
        for j, (c, _, _) in enumerate(self.mids):
            add([-self.mid(j)] + self.neighbours(c, ("m", j)))

    def _card(self, enc) -> None:
        self.clauses.extend(enc.clauses)

    # reading a solution
    def solution(self, model: set[int]) -> tuple[list[tuple[int, int]], list[int]]:
        """The top pieces (colour, placement) and the middle pieces chosen."""
        top = [(c, i) for i in range(len(self.place)) for c in range(4) if self.tp(c, i) in model]
        mids = [j for j in range(len(self.mids)) if self.mid(j) in model]
        return top, mids

    def neighbours(self, c: int, node: tuple) -> list[int]:
        """Every variable that would put a piece next to ``node`` in colour ``c``'s graph (a cut's right side)."""
        last, out = self.h - 1, []
        if node[0] == "m":
            for q in self.mid_ends(node[1]):
                out += [self.tp(d, k) for k in self.covering[q] for d in range(4) if FAMILY[d] == FAMILY[c]]
            return out
        _, d, i = node
        cells = self.place[i][1]
        _, diag = self.halo(cells)
        out += [self.tp(d, k) for q in diag for k in self.covering.get(q, [])]
        bottom = [y for r, y in cells if r == last]
        if not self.middle:
            across = {(last, y + e) for y in bottom for e in (-1, 1)} - set(cells)
            out += [self.tp(SIGMA[d], k) for q in across if self.inside(q) for k in self.covering[q]]
        else:
            out += [self.mid(j) for y in bottom for j in self.ends_at[c][y]]
        return out

    def groups(self, c: int, top: list[tuple[int, int]], mids: list[int]) -> list[tuple[list[tuple], set[int]]]:
        """Colour c's corner-contact groups, each with every variable that would join a piece to it: nodes ('t',
        colour, placement) and ('m', j)."""
        nodes = [("t", d, i) for d, i in top if FAMILY[d] == FAMILY[c]] + [("m", j) for j in mids
                                                                            if self.mids[j][0] == c]
        lit = {n: (self.tp(n[1], n[2]) if n[0] == "t" else self.mid(n[1])) for n in nodes}
        near = {n: set(self.neighbours(c, n)) for n in nodes}
        seen: set = set()
        out = []
        for n in nodes:
            if n in seen:
                continue
            comp, todo = [n], [n]
            seen.add(n)
            while todo:
                a = todo.pop()
                for b in nodes:
                    if b not in seen and lit[b] in near[a]:
                        seen.add(b)
                        comp.append(b)
                        todo.append(b)
            out.append((comp, set().union(*(near[a] for a in comp))))
        return out

    def cuts(self, model: set[int]) -> list[list[int]]:
        """One clause per group of a colour that does not hold its corner piece."""
        top, mids = self.solution(model)
        corner_piece = {f: next(("t", d, i) for d, i in top if corner in self.place[i][1])
                        for f, corner in self.corners.items()}
        out = []
        for c in range(4):
            for comp, border in self.groups(c, top, mids):
                if corner_piece[FAMILY[c]] in comp:
                    continue
                inner = {self.tp(n[1], n[2]) if n[0] == "t" else self.mid(n[1]) for n in comp}
                out.append([-v for v in sorted(inner)] + sorted(border - inner))
        return out

    def colouring(self, model: set[int]) -> tuple[int, int, np.ndarray]:
        """Every cell's abstract colour on the whole board (row-major), the top and its mirror and the middle."""
        top, mids = self.solution(model)
        grid = np.full((self.rows, self.cols), EMPTY_COLOUR, np.int64)
        for c, i in top:
            for r, y in self.place[i][1]:
                grid[r, y] = c
                grid[self.rows - 1 - r, y] = SIGMA[c]
        for j in mids:
            for x in self.mid_cells(j):
                grid[self.h, x] = self.mids[j][0]
        return self.cols, self.rows, grid


def layouts(cols: int, rows: int, pieces: Sequence[Shape], most: int = 10_000):
    """Every layout of the family (top/bottom mirror) on a small board with a small piece set, as colour grids: SAT
    with the lazy cuts, each layout then blocked (for the tests, against plain enumeration)."""
    from pysat.solvers import Solver

    model = MirrorModel(cols, rows, pieces)
    with Solver(name="cadical153", bootstrap_with=model.build()) as solver:
        found = 0
        while found < most and solver.solve():
            values = {v for v in solver.get_model() if v > 0}
            cuts = model.cuts(values)
            for cut in cuts:
                solver.add_clause(cut)
            if cuts:
                continue
            found += 1
            yield model.colouring(values)[2]
            top, mids = model.solution(values)
            solver.add_clause([-model.tp(c, i) for c, i in top] + [-model.mid(j) for j in mids])


def solve(cols: int, rows: int, axis: str, seconds: float, budget: int, verbose: bool,
          pieces: Sequence[Shape] = PIECES) -> tuple[str, dict]:
    from pysat.solvers import Solver

    t0 = time.process_time()
    mcols, mrows = (cols, rows) if axis == "rows" else (rows, cols)
    model = MirrorModel(mcols, mrows, pieces)
    clauses = model.build()
    info = {"variables": model.pool.top, "clauses": len(clauses), "cuts": 0, "rounds": 0}
    if verbose:
        print(f"model {mcols}x{mrows}: {info['variables']:,} variables, {info['clauses']:,} clauses, "
              f"{time.process_time() - t0:.1f} CPU-s", flush=True)
    deadline = t0 + seconds
    with Solver(name="cadical153", bootstrap_with=clauses) as solver:
        while time.process_time() < deadline:
            solver.conf_budget(budget)
            answer = solver.solve_limited()
            if answer is None:
                if verbose:
                    print(f"  {time.process_time() - t0:.0f} CPU-s: {solver.accum_stats().get('conflicts', 0):,} "
                          f"conflicts, {info['cuts']} cuts", flush=True)
                continue
            if answer is False:
                info["cpu"] = time.process_time() - t0
                return "UNSAT", info
            values = {v for v in solver.get_model() if v > 0}
            cuts = model.cuts(values)
            info["rounds"] += 1
            if not cuts:
                info["cpu"] = time.process_time() - t0
                info["grid"] = real_grid(model, values, axis)
                return "found", info
            info["cuts"] += len(cuts)
            if verbose:
                print(f"  candidate {info['rounds']}: {len(cuts)} groups cut", flush=True)
            for cut in cuts:
                solver.add_clause(cut)
    info["cpu"] = time.process_time() - t0
    return "unknown", info


def real_grid(model: MirrorModel, values: set[int], axis: str) -> np.ndarray:
    """The colouring on the board as asked (blue 0, yellow 1, red 2, green 3; rows × cols)."""
    _, _, grid = model.colouring(values)
    if axis == "rows":
        return grid
    real = np.array([0, 3, 2, 1, EMPTY_COLOUR])  # turned board: its top-right corner is green, its bottom-left yellow
    return real[np.where(grid == EMPTY_COLOUR, 4, grid)].T


def check(grid: np.ndarray) -> list[dict[str, str]]:
    rows, cols = grid.shape
    board = CellBoard(cols, rows, "half")
    _, moves = replay(board, grid.reshape(-1))
    return moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("board", help="COLSxROWS, e.g. 21x17")
    parser.add_argument("--axis", choices=("rows", "cols"), default="rows",
                        help="rows: the top half mirrored onto the bottom; cols: the left half onto the right")
    parser.add_argument("--time-limit", type=float, default=600.0)
    parser.add_argument("--budget", type=int, default=200_000, help="conflicts between progress lines")
    parser.add_argument("--out", help="write a layout found here (JSON)")
    args = parser.parse_args()
    cols, rows = (int(v) for v in args.board.lower().split("x"))
    status, info = solve(cols, rows, args.axis, args.time_limit, args.budget, verbose=True)
    print(f"{args.board} --axis {args.axis}: {status} after {info['cpu']:.0f} CPU-s, {info['cuts']} cuts "
          f"in {info['rounds']} candidates", flush=True)
    if status == "found":
        grid = info["grid"]
        print("\n".join(" ".join(".BYRG"[v + 1] if v != EMPTY_COLOUR else "." for v in row) for row in grid))
        moves = check(grid)
        print(f"replayed through the rule engine: {len(moves)} moves")
        if args.out:
            import json

            Path(args.out).write_text(json.dumps({"board": args.board, "moves": moves}, indent=1))


if __name__ == "__main__":
    main()
