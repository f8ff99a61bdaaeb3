"""Polyomino tiling challenges with a unique solution, proved by an exhaustive count.

A challenge is a region and a set of distinct pieces (drawn from a named set:
pentominoes, tetrominoes, trominoes, blokus = one Blokus color's 21 pieces, ...)
that tile the region in exactly one way.

Generation (deterministic for a seed):

1. draw ``n`` distinct pieces from the set (``n`` from the difficulty level);
2. build the region by dropping the pieces one by one, each in a random
   orientation at a random spot touching what is there already; spots with
   more contact are preferred, so regions are compact but irregular (they may
   enclose holes);
3. count every tiling of that region by those pieces with the bitboard exact
   cover (each piece exactly once, free to rotate and turn over); keep the
   challenge only if the count is exactly 1 (raw count: the one solution is also
   the only one among mirror images) and its difficulty falls in the band.

**Difficulty** = search nodes of that exhaustive first-empty-cell search (the
work a solver needs to find the solution and prove there is no other):
easy < 150, medium 150..3,000, hard > 3,000.

**Decision**: the solution is verified independently (cells, shapes, counts)
before a challenge is returned; challenges are different when their regions
differ up to rotation/reflection or their piece sets differ.  A challenge is a
puzzle: its text and ``to_json(with_solution=False)`` never hold the answer,
which :meth:`Challenge.solution_json` gives apart.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import Executor
from dataclasses import dataclass

from puzzles.polyomino import Cell, Region, Shape, Tiling, normalize, piece_set, svg_cells
from puzzles.sheets import EMPTY_FILL, Panel, cells_figure, colour, shape_figure
from solvers.exact_cover import SearchLimits
from solvers.tiling import PieceSpec, TilingProblem, verify_tiling

LEVELS = {
    # name: (pieces drawn (min, max), node band [lo, hi))
    "easy": ((4, 5), (0, 150)),
    "medium": ((6, 8), (150, 3_000)),
    "hard": ((8, 11), (3_000, 10**12)),
}


@dataclass(frozen=True)
class Challenge:
    """A region, the pieces that tile it uniquely, the solution and how hard it was to prove."""

    seed: int
    level: str
    piece_set: str
    region: Region
    pieces: tuple[Shape, ...]
    solution: Tiling
    nodes: int

    def region_text(self) -> str:
        return self.region.to_ascii()

    def to_text(self) -> str:
        names = " ".join(p.name for p in self.pieces)
        return (f"Tiling challenge {self.seed} ({self.level}: {self.nodes:,} search nodes to solve and prove unique;"
                f" {self.region.area} cells)\n"
                f"pieces ({self.piece_set}): {names}\n{self.region_text()}")

    def to_json(self, with_solution: bool = True) -> dict:
        data = {
            "seed": self.seed, "difficulty": self.level, "nodes": self.nodes, "piece_set": self.piece_set,
            "pieces": [p.name for p in self.pieces], "region": self.region_text().split("\n"), "cells": self.region.area,
        }
        if with_solution:
            data["solution"] = self.solution.to_json()
        return data

    def solution_json(self) -> dict:
        """The answer, kept apart from the puzzle: every piece's cells (row, column from 0) and how it was proved."""
        return {
            "kind": "tiling challenge solution", "seed": self.seed, "difficulty": self.level,
            "piece_set": self.piece_set, **self.solution.to_json(),
            "status": "proved", "proof": "unique: an exhaustive count found exactly one tiling",
        }

    def region_svg(self) -> str:
        return self.region._repr_svg_()

    def solution_svg(self) -> str:
        return self.solution._repr_svg_()

    def key(self) -> tuple:
        return (canonical_cells(self.region.cells), tuple(sorted(p.name for p in self.pieces)))

    def difficulty_line(self) -> str:
        """The level with its measure: the search nodes to find the tiling and prove it the only one."""
        return (f"Difficulty: {self.level}, {self.nodes:,} search nodes to solve and prove unique"
                f" ({band_text(LEVELS)})")

    def puzzle_panel(self) -> Panel:
        """The puzzle sheet: the empty region to fill and the pieces in their colours (no answer)."""
        region = cells_figure({cell: EMPTY_FILL for cell in self.region.cells}, self.region.height, self.region.width,
                              caption=f"the region ({self.region.area} cells)", role="region")
        pieces = [shape_figure(p.cells, colour(i), p.name) for i, p in enumerate(self.pieces)]
        lines = [self.difficulty_line(),
                 f"Fill the region with these {len(self.pieces)} pieces ({self.piece_set}), each once; "
                 "turn and flip them freely. Exactly one way works."]
        return Panel("puzzle", f"Tiling challenge {self.seed}", lines, [region, *pieces], self.to_text(),
                     self.to_json(with_solution=False))

    def solution_panel(self) -> Panel:
        """The solution sheet: the region filled, each piece in the colour it has on the puzzle sheet."""
        index = {p.name: i for i, p in enumerate(self.pieces)}
        fills = {cell: colour(index[p.name]) for p in self.solution.pieces for cell in p.cells}
        groups = {cell: p.name for p in self.solution.pieces for cell in p.cells}
        figure = cells_figure(fills, self.region.height, self.region.width, groups=groups, role="solution",
                              caption="the only tiling")
        lines = [f"Proved: an exhaustive count found exactly one tiling ({self.nodes:,} nodes, {self.level})."]
        text = f"Solution of tiling challenge {self.seed}: the only tiling\n{self.solution.to_text(color=False)}"
        return Panel("solution", f"Solution of tiling challenge {self.seed}", lines, [figure], text, self.solution_json())


def band_text(levels: dict[str, tuple[tuple[int, int], tuple[int, int]]]) -> str:
    """The node bands of the levels in words: ``easy < 150 <= medium < 3,000 <= hard``."""
    names = list(levels)
    return " <= ".join(f"{name} < {levels[name][1][1]:,}" for name in names[:-1]) + f" <= {names[-1]}"


def canonical_cells(cells: Iterable[Cell]) -> tuple[Cell, ...]:
    """The cells of a region up to translation, rotation and reflection (a hashable key)."""
    return Shape(normalize(cells)).canonical().key()


def build_region(shapes: list[Shape], rng: random.Random) -> Region | None:
    """Drop the pieces one by one in random orientations, each touching the blob (prefer more contact)."""
    blob: set[Cell] = set()
    for shape in shapes:
        orients = shape.orientations()
        if not blob:
            blob |= set(rng.choice(orients).cells)
            continue
        rows = [r for r, _ in blob]
        cols = [c for _, c in blob]
        frontier = {(r + dr, c + dc) for r, c in blob for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))} - blob
        best: list[tuple[float, frozenset[Cell]]] = []
        for orient in orients:
            for top in range(min(rows) - orient.height, max(rows) + 2):
                for left in range(min(cols) - orient.width, max(cols) + 2):
                    cells = frozenset((r + top, c + left) for r, c in orient.cells)
                    if cells & blob or not cells & frontier:
                        continue
                    contact = sum(1 for r, c in cells for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)) if (r + dr, c + dc) in blob)
                    best.append((contact + 2.5 * rng.random(), cells))
        if not best:
            return None
        best.sort(key=lambda item: -item[0])
        blob |= set(best[0][1])
    cells = normalize(blob)
    return Region(cells, 1 + max(r for r, _ in cells), 1 + max(c for _, c in cells))


def attempt(seed: int, level: str, set_name: str, node_cap: int | None = None) -> Challenge | None:
    """One try: the challenge for this seed if it is unique and within the level's band, else None."""
    if level not in LEVELS:
        raise ValueError(f"unknown difficulty {level!r}; use {', '.join(LEVELS)}")
    pool = list({s.name: s for s in piece_set(set_name)}.values())
    (low_n, high_n), (lo, hi) = LEVELS[level]
    rng = random.Random(seed)
    n = min(len(pool), rng.randint(low_n, high_n))
    if n < 2:
        raise ValueError(f"the set {set_name!r} has too few pieces for a challenge")
    shapes = rng.sample(pool, n)
    region = build_region(shapes, rng)
    if region is None:
        return None
    problem = TilingProblem(region, [PieceSpec(s) for s in shapes])
    cover = problem.cover()
    cap = node_cap if node_cap is not None else (hi if hi < 10**12 else 50_000_000)
    solutions = []
    for solution in cover.solutions(SearchLimits(node_limit=cap)):
        solutions.append(solution)
        if len(solutions) > 1:
            break
    if cover.stopped_by == "interrupt":  # Ctrl-C stops the whole generation, also when it came with two solutions
        raise KeyboardInterrupt
    if len(solutions) > 1:
        return None
    if cover.stopped_by:  # too hard for the band (or for the cap): not proved here
        return None
    nodes = int(cover.state[2])
    if len(solutions) != 1 or not lo <= nodes < hi:
        return None
    tiling = problem.to_tiling(solutions[0])
    verify_tiling(problem, tiling)
    return Challenge(seed, level, set_name, region, tuple(shapes), tiling, nodes)


def generate(
    count: int = 1,
    level: str = "medium",
    set_name: str = "pentominoes",
    seed: int = 0,
    time_limit: float | None = None,
    executor: Executor | None = None,
    batch: int = 16,
) -> Iterator[Challenge]:
    """``count`` different unique-solution challenges, trying seeds ``seed, seed+1, ...``.

    With an ``executor`` (:mod:`solvers.parallel`) seeds are tried ``batch`` at a time in
    parallel and the results are scanned in seed order, so the challenges are the same.
    """
    piece_set(set_name)  # validates the name
    start = time.perf_counter()
    seen: set[tuple] = set()
    found = 0
    if count <= 0:
        return
    for challenge in _attempts(seed, level, set_name, executor, batch):
        if time_limit is not None and time.perf_counter() - start > time_limit:
            raise TimeoutError(f"found {found} of {count} challenges in {time_limit:g} s")
        if challenge is None or challenge.key() in seen:
            continue
        seen.add(challenge.key())
        found += 1
        yield challenge
        if found >= count:
            return


def _attempts(seed: int, level: str, set_name: str, executor: Executor | None, batch: int) -> Iterator[Challenge | None]:
    """The result of ``attempt`` for seeds ``seed, seed+1, ...``, in seed order (forever)."""
    from solvers.parallel import run_tasks

    s = seed
    while True:
        if executor is None:
            yield attempt(s, level, set_name)
            s += 1
            continue
        payloads = [(x, level, set_name) for x in range(s, s + batch)]
        yield from run_tasks(_attempt_task, payloads, lambda done, c: done + [c], [], executor).value
        s += batch


def _attempt_task(payload: tuple[int, str, str]) -> Challenge | None:
    return attempt(*payload)


def region_svg(region: Region) -> str:
    return svg_cells({cell: -1 for cell in region.cells}, region.height, region.width)
