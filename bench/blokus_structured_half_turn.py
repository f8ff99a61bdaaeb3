"""All 84 Blokus pieces on 21×17 (the centre empty), searched in structured families of half-turn layouts.

The 18×20 and 19×19 layouts are found in seconds because the mirrors (or the quarter turn) make a quarter of the
board hold one piece of every shape: a 21-piece puzzle.  On 21×17 a mirror maps its middle column (or row) onto
itself, so the mirrors cannot act on the whole board.  These families let them act on part of it:

* ``klein A B``: a band of width 2A+1 down the middle columns and one of width 2B+1 across the middle rows; the four
  corner rectangles outside the bands are the images of the top-left one (``Q``) under the two mirrors, colours
  permuted as the corners are, so each shape in ``Q`` gives one piece to every colour.  The bands hold the other
  shapes, four pieces each, in half-turn pairs (red and green are the images of blue and yellow).
* ``th`` / ``tv``: ``Q`` is the top-left 10×8, copied 10 columns right (``th``) or 8 rows down (``tv``) with the
  colours permuted by ``--sigma``, and both copies turned half a turn; the 36 cells left over form thin bands.

Every family is a restriction: "nothing found" in one says nothing about 21×17 itself.  SAT (CaDiCaL 1.9.5 through
python-sat) with cell-colour variables, the edge rule, a corner contact for every piece, the start corners, and
connectivity as lazy cuts.  ``--sample`` tiles ``Q`` at random (a random exact cover, the shapes of ``Q`` drawn with
``--band-sets`` or at random) and asks SAT to colour it and fill the bands, a conflict budget a try.

    python bench/blokus_structured_half_turn.py klein --a 1 --b 1 --sample --time-limit 120
    python bench/blokus_structured_half_turn.py th --sample --band-sets "I4,I5;1,I3,I5;2,I3,I4"

Results: ``bench/results/solitaire_all_pieces.md`` (2026-12-07, "structured families").
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pysat.card import CardEnc, EncType  # noqa: E402
from pysat.formula import IDPool  # noqa: E402
from pysat.solvers import Solver  # noqa: E402

from puzzles.polyomino import Region, Shape, piece_set  # noqa: E402
from solvers.blokus.solitaire_sat import DIAGONALS, STEPS  # noqa: E402

Cell = tuple[int, int]
Cells = tuple[Cell, ...]
ROWS, COLS = 17, 21
CENTRE = (8, 10)
CORNERS = [(0, 0), (0, COLS - 1), (ROWS - 1, COLS - 1), (ROWS - 1, 0)]  # blue, yellow, red, green
IDENTITY, LEFT_RIGHT, TOP_BOTTOM, HALF_TURN = [0, 1, 2, 3], [1, 0, 3, 2], [3, 2, 1, 0], [2, 3, 0, 1]
SIGMAS = {"h": LEFT_RIGHT, "v": TOP_BOTTOM, "c": [1, 2, 3, 0], "cc": [3, 0, 1, 2]}
ALL_CELLS = frozenset((r, c) for r in range(ROWS) for c in range(COLS))
CellMap = Callable[[Cells], Cells]


def mirror_lr(p: Cells) -> Cells:
    return tuple(sorted((r, COLS - 1 - c) for r, c in p))


def mirror_tb(p: Cells) -> Cells:
    return tuple(sorted((ROWS - 1 - r, c) for r, c in p))


def half_turn(p: Cells) -> Cells:
    return tuple(sorted((ROWS - 1 - r, COLS - 1 - c) for r, c in p))


def shifted(dr: int, dc: int) -> CellMap:
    return lambda p: tuple((r + dr, c + dc) for r, c in p)


def family(name: str, a: int = 1, b: int = 1, sigma: str = "h") -> tuple[set[Cell], list[tuple[CellMap, list[int]]]]:
    """``Q`` and the maps (cells, colours) that copy a piece of ``Q`` to its four places."""
    if name == "klein":
        q = {(r, c) for r in range(8 - b) for c in range(10 - a)}
        return q, [(lambda p: p, IDENTITY), (mirror_lr, LEFT_RIGHT), (mirror_tb, TOP_BOTTOM), (half_turn, HALF_TURN)]
    move = {"th": shifted(0, 10), "tv": shifted(8, 0)}[name]
    perm = SIGMAS[sigma]
    q = {(r, c) for r in range(8) for c in range(10)}
    return q, [(lambda p: p, IDENTITY), (move, perm), (half_turn, HALF_TURN),
               (lambda p: half_turn(move(p)), [HALF_TURN[perm[k]] for k in range(4)])]


def placements(region: set[Cell] | frozenset[Cell], shape: Shape) -> list[Cells]:
    """Every placement of ``shape`` (turned and flipped) inside ``region`` (cells of the board), sorted."""
    return sorted(Region(frozenset(region), ROWS, COLS).placements(shape))


class Model:
    """The SAT model of one family: a variable per placement of ``Q`` and colour (four pieces on the board) and per
    half-turn pair in the bands (two pieces), and a variable per cell and colour."""

    def __init__(self, name: str, a: int = 1, b: int = 1, sigma: str = "h", contacts: bool = True) -> None:
        self.pool = IDPool()
        self.clauses: list[list[int]] = []
        self.shapes = piece_set("blokus")
        self.q, self.maps = family(name, a, b, sigma)
        self.zone = ALL_CELLS - {u for f, _ in self.maps for u in f(tuple(self.q))} - {CENTRE}
        self.pieces_of: dict[int, list[tuple[Cells, int]]] = {}  # variable -> its pieces (cells, colour)
        self.in_q = {s: self.pool.id(("z", s)) for s in range(len(self.shapes))}
        for s in range(len(self.shapes)):
            self._shape_variables(s)
        self.colour = {(u, k): self.pool.id(("c", u, k)) for u in ALL_CELLS for k in range(4)}
        self._cover()
        self._rules(contacts)
        self.clauses += [[self.colour[(CORNERS[k], k)]] for k in range(4)]

    def core_variable(self, p: Cells, k: int) -> int:
        return self.pool.id(("q", p, k))

    def _shape_variables(self, s: int) -> None:
        """A shape is in ``Q`` once (any colour), or in the bands twice: one of blue/red and one of yellow/green."""
        core = []
        for p in placements(self.q, self.shapes[s]):
            for k in range(4):
                x = self.core_variable(p, k)
                self.pieces_of[x] = [(f(p), perm[k]) for f, perm in self.maps]
                core.append(x)
        pairs: dict[int, list[int]] = {0: [], 1: []}
        for p in placements(self.zone, self.shapes[s]):
            image = half_turn(p)
            if set(p) & set(image):
                continue
            for k in range(4):
                if (p, k) < (image, HALF_TURN[k]):
                    x = self.pool.id(("x", p, k))
                    self.pieces_of[x] = [(p, k), (image, HALF_TURN[k])]
                    pairs[k % 2].append(x)
        self._exactly_one_if(core, self.in_q[s])
        for k in (0, 1):
            self._exactly_one_if(pairs[k], -self.in_q[s])

    def _cover(self) -> None:
        """Every cell but the centre covered once; a cell's colour is its piece's."""
        cover: dict[Cell, list[int]] = {u: [] for u in ALL_CELLS}
        by_colour: dict[tuple[Cell, int], list[int]] = {}
        for x, pieces in self.pieces_of.items():
            for p, k in pieces:
                for u in p:
                    cover[u].append(x)
                    by_colour.setdefault((u, k), []).append(x)
                    self.clauses.append([-x, self.colour[(u, k)]])
        for u in ALL_CELLS:
            if u == CENTRE:
                self.clauses += [[-x] for x in cover[u]] + [[-self.colour[(u, k)]] for k in range(4)]
                continue
            self.clauses += CardEnc.equals(lits=cover[u], bound=1, vpool=self.pool, encoding=EncType.seqcounter).clauses
            self.clauses += [[-self.colour[(u, k)]] + by_colour.get((u, k), []) for k in range(4)]

    def _rules(self, contacts: bool) -> None:
        """No two pieces of a colour share an edge; every piece off its colour's corner touches its colour at one."""
        for x, pieces in self.pieces_of.items():
            for p, k in pieces:
                own = set(p)
                edge = {(r + dr, c + dc) for r, c in p for dr, dc in STEPS} - own
                self.clauses += [[-x, -self.colour[(w, k)]] for w in edge & ALL_CELLS]
                if contacts and CORNERS[k] not in own:
                    corner = {(r + dr, c + dc) for r, c in p for dr, dc in DIAGONALS} - own - edge
                    self.clauses.append([-x] + [self.colour[(w, k)] for w in corner & ALL_CELLS])

    def _exactly_one_if(self, lits: list[int], when: int) -> None:
        """sum(lits) == 1 if ``when`` else 0."""
        if not lits:
            self.clauses.append([-when])
            return
        self.clauses += CardEnc.atmost(lits=lits, bound=1, vpool=self.pool, encoding=EncType.seqcounter).clauses
        self.clauses.append([-when] + lits)
        self.clauses += [[-x, when] for x in lits]

    def groups(self, chosen: set[int]) -> list[tuple[int, list[int], set[Cell]]]:
        """Every colour's corner-connected groups of pieces: (colour, their variables, their cells)."""
        out = []
        for k in range(4):
            pieces = [(x, p) for x in chosen if x in self.pieces_of for p, kk in self.pieces_of[x] if kk == k]
            owner = {u: i for i, (_, p) in enumerate(pieces) for u in p}
            seen: set[int] = set()
            for i in range(len(pieces)):
                if i in seen:
                    continue
                stack, group = [i], []
                seen.add(i)
                while stack:
                    j = stack.pop()
                    group.append(j)
                    for r, c in pieces[j][1]:
                        for dr, dc in DIAGONALS:
                            o = owner.get((r + dr, c + dc))
                            if o is not None and o not in seen:
                                seen.add(o)
                                stack.append(o)
                out.append((k, [pieces[j][0] for j in group], {u for j in group for u in pieces[j][1]}))
        return out

    def cut(self, k: int, variables: list[int], cells: set[Cell]) -> list[int]:
        """A group of colour ``k`` away from its corner needs one more piece of ``k`` at one of its corners."""
        around = {(r + dr, c + dc) for r, c in cells for dr, dc in DIAGONALS} - cells
        return [-x for x in variables] + [self.colour[(w, k)] for w in around & ALL_CELLS]

    def picture(self, chosen: set[int]) -> str:
        grid = [["." for _ in range(COLS)] for _ in range(ROWS)]
        for x in chosen:
            for p, k in self.pieces_of.get(x, []):
                for r, c in p:
                    grid[r][c] = "BYRG"[k]
        return "\n".join("".join(row) for row in grid)


def solve(model: Model, solver: Solver, assumptions: list[int], conflicts: int,
          deadline: float) -> tuple[str, set[int], int]:
    """SAT with lazy connectivity cuts within a conflict budget and a CPU deadline (checked every 20,000
    conflicts and after every round of cuts, each round counted as 20,000 conflicts): ("found" | "refuted" |
    "unknown", the true variables, cuts)."""
    cuts = spent = 0
    while True:
        solver.conf_budget(min(conflicts - spent, 20000))
        answer = solver.solve_limited(assumptions=assumptions)
        spent += 20000
        if answer is None:
            if spent < conflicts and time.process_time() < deadline:
                continue
            return "unknown", set(), cuts
        if not answer:
            return "refuted", set(), cuts
        chosen = {x for x in solver.get_model() if x > 0}
        apart = [g for g in model.groups(chosen) if CORNERS[g[0]] not in g[2]]
        if not apart:
            return "found", chosen, cuts
        for k, variables, cells in apart:
            solver.add_clause(model.cut(k, variables, cells))
            cuts += 1
        if spent >= conflicts or time.process_time() >= deadline:
            return "unknown", set(), cuts


def random_tiling(q: set[Cell], shapes: list[Shape], rng: random.Random, nodes: int = 20000) -> list[Cells] | None:
    """A random exact cover of ``q`` by the given shapes, once each (None if the node budget runs out)."""
    cells = sorted(q)
    starting: dict[Cell, list[tuple[Cells, int]]] = {}
    for s, shape in enumerate(shapes):
        for p in placements(q, shape):
            starting.setdefault(p[0], []).append((p, s))
    filled: set[Cell] = set()
    used: set[int] = set()
    out: list[Cells] = []
    budget = [nodes]

    def extend() -> bool:
        budget[0] -= 1
        first = next((c for c in cells if c not in filled), None)
        if first is None:
            return True
        if budget[0] < 0:
            return False
        options = [(p, s) for p, s in starting.get(first, []) if s not in used and not filled.intersection(p)]
        rng.shuffle(options)
        for p, s in options:
            filled.update(p)
            used.add(s)
            out.append(p)
            if extend():
                return True
            out.pop()
            used.discard(s)
            filled.difference_update(p)
        return False

    return out if extend() else None


def q_shapes(model: Model, args: argparse.Namespace, rng: random.Random) -> list[int]:
    """The shapes of ``Q``: all but one of ``--band-sets``, or a random set of the right area."""
    names = [shape.name for shape in model.shapes]
    if args.band_sets:
        band = rng.choice(args.band_sets.split(";")).split(",")
        return [i for i in range(len(names)) if names[i] not in band]
    while True:
        chosen = [i for i, shape in enumerate(model.shapes)
                  if rng.random() < {5: 0.85, 4: 0.45}.get(len(shape.cells), 0.3)]
        if sum(len(model.shapes[i].cells) for i in chosen) == len(model.q):
            return chosen


def sample(model: Model, args: argparse.Namespace, start: float) -> tuple[str, set[int]]:
    """Random tilings of ``Q``, each handed to SAT (colours and bands free) with ``--budget`` conflicts."""
    rng = random.Random(args.seed)
    tries = refuted = unknown = 0
    with Solver(name="cadical195", bootstrap_with=model.clauses) as solver:
        while time.process_time() - start < args.time_limit:
            tiling = random_tiling(model.q, [model.shapes[s] for s in q_shapes(model, args, rng)], rng)
            if tiling is None:
                continue
            tries += 1
            this_tiling = model.pool.id(("try", tries))
            for p in tiling:
                solver.add_clause([-this_tiling] + [model.core_variable(p, k) for k in range(4)])
            status, chosen, _ = solve(model, solver, [this_tiling], args.budget, start + args.time_limit)
            if status == "found":
                return status, chosen
            refuted += status == "refuted"
            unknown += status == "unknown"
            if tries % args.report == 0:
                print(f"{tries} tilings of Q: {refuted} refuted, {unknown} unknown at {args.budget:,} conflicts, "
                      f"{time.process_time() - start:.0f} CPU-s", flush=True)
    print(f"{tries} tilings of Q: {refuted} refuted, {unknown} unknown at {args.budget:,} conflicts")
    return "unknown", set()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("family", choices=["klein", "th", "tv"])
    parser.add_argument("--a", type=int, default=1, help="klein: the vertical band is 2A+1 columns wide")
    parser.add_argument("--b", type=int, default=1, help="klein: the horizontal band is 2B+1 rows high")
    parser.add_argument("--sigma", choices=sorted(SIGMAS), default="h", help="th/tv: the copy's colour permutation")
    parser.add_argument("--sample", action="store_true", help="random tilings of Q, each completed by SAT")
    parser.add_argument("--band-sets", default="", help="sample: the shapes left to the bands, e.g. 'I4,I5;2,I3,I4'")
    parser.add_argument("--budget", type=int, default=5000, help="sample: conflicts a try")
    parser.add_argument("--time-limit", type=float, default=120, help="CPU seconds (checked every 20,000 conflicts)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--report", type=int, default=20)
    parser.add_argument("--out", default="", help="write a found layout here (JSON: pieces as cells and colours)")
    args = parser.parse_args()
    start = time.process_time()
    model = Model(args.family, args.a, args.b, args.sigma)
    print(f"{args.family}: Q {len(model.q)} cells, bands {len(model.zone)} cells; {len(model.pieces_of):,} placement "
          f"variables, {len(model.clauses):,} clauses ({time.process_time() - start:.1f} CPU-s)", flush=True)
    if args.sample:
        status, chosen = sample(model, args, start)
    else:
        with Solver(name="cadical195", bootstrap_with=model.clauses) as solver:
            status, chosen, _ = solve(model, solver, [], 10**15, start + args.time_limit)
    print(f"{status} after {time.process_time() - start:.1f} CPU-s")
    if status == "found":
        print(model.picture(chosen))
        if args.out:
            pieces = [{"colour": "BYRG"[k], "cells": list(p)} for x in chosen if x in model.pieces_of
                      for p, k in model.pieces_of[x]]
            Path(args.out).write_text(json.dumps({"family": args.family, "pieces": pieces}))


if __name__ == "__main__":
    main()
