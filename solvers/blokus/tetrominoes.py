"""The Blokus tetromino rectangle: 5 tetrominoes (I O T L S) per color tile a region, same colors never edge-touch.

Model (exact cover with colors, Knuth's XCC):

* primary items: every region cell ``c<i>`` and every piece ``p<j>`` (one piece =
  one (color, shape) pair, each used exactly once);
* the edge rule as **colored secondary items**, one per cell and color
  (``e<i>k<color>``): a placement of color k colors the items of its own cells
  ``1`` and those of its edge neighbours (outside the piece) ``0``.  Two pieces
  of color k clash exactly when one covers a cell the other edge-touches (``1``
  against ``0``); two pieces merely bordering the same foreign cell agree (``0``).
* ``corner_contact`` (the published puzzle): every piece also touches a piece of
  its own color at a corner.  That is no exact-cover constraint: SAT/CP-SAT add
  it as clauses, DLX filters the covers it enumerates.

Counts are reported three ways:

* ``raw``: tilings as colored drawings (each cell's piece, shape and color);
* ``symmetry``: orbits under the region's own symmetries (rotations/reflections
  that map the region onto itself), colors kept;
* ``symmetry_colors``: orbits under those symmetries combined with every
  permutation of the colors.

Orbit counts use Burnside's lemma: ``orbits = (1/|H|) Σ_h Fix(h)``; ``Fix(h)``
for h ≠ identity is itself an exact-cover count over h-orbits of placements
(a tiling fixed by h is a union of such orbits), tiny next to the raw count.

Long counts are split into independent subproblems: all ways to cover the
first uncovered cells (region order) down to ``depth`` levels; each becomes a
reduced XCC instance.  Parts are counted in any order, in parallel processes,
and recorded in a JSON checkpoint file, so a run can be stopped and resumed.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
import math
import os
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

from puzzles.polyomino import Cell, Placed, Region, Shape, Tiling, piece_set
from solvers.exact_cover import DancingLinks, ExactCoverProblem, SearchLimits

SHAPE_NAMES = ("I", "O", "T", "L", "S")
ENGINES = ("canonical", "split", "bitset", "xcc")
RECORD_WIDTH = {"canonical": 4, "split": 5, "bitset": 2, "xcc": 2}  # whole numbers in a part's checkpoint record
COLOR_NAMES = ("blue", "yellow", "red", "green")
EDGE = ((-1, 0), (1, 0), (0, -1), (0, 1))
DIAG = ((-1, -1), (-1, 1), (1, -1), (1, 1))


@dataclass(frozen=True)
class ColoredPiece:
    """A piece placed: its color (0..), shape name and cells (row, col)."""

    color: int
    shape: str
    cells: tuple[Cell, ...]


@dataclass
class ColorCounts:
    raw: int
    symmetry: int | None
    symmetry_colors: int | None
    complete: bool
    parts_done: int
    parts_total: int
    seconds: float
    nodes: int = 0
    fixed_points: dict[str, int] = field(default_factory=dict)
    stopped_by: str = ""  # why an incomplete count stopped: "interrupt" (Ctrl-C), "time_limit" or "lost" (Dask)
    shape_tilings: int | None = None  # the split method: shape tilings (colours ignored) in the parts counted

    @property
    def status(self) -> str:
        """``proved`` for a finished count, else ``incomplete (interrupted | time limit | lost)``."""
        reason = {"interrupt": "interrupted", "time_limit": "time limit"}.get(self.stopped_by, self.stopped_by)
        return "proved" if self.complete else f"incomplete ({reason})"

    def to_json(self) -> dict:
        """The key set every count command shares (``kibitz tile --count`` has all but the colour count)."""
        return {
            "count_raw": self.raw, "count_symmetry": self.symmetry, "count_symmetry_colors": self.symmetry_colors,
            "status": self.status, "complete": self.complete, "lower_bound": not self.complete,
            "interrupted": self.stopped_by == "interrupt", "parts_done": self.parts_done,
            "parts_total": self.parts_total, "nodes": self.nodes, "seconds": round(self.seconds, 3),
            **({} if self.shape_tilings is None else {"shape_tilings": self.shape_tilings}),
        }


def _complete_count(compiled: DancingLinks) -> int:
    """The whole count of an exact cover; KeyboardInterrupt if Ctrl-C cut it short (count() answers Ctrl-C with
    its partial count, which must never stand for a whole one, e.g. as a Burnside term)."""
    result = compiled.count(SearchLimits())
    if not result.complete:
        raise KeyboardInterrupt
    return result.count


class ColoredTilingProblem:
    """Tile ``region`` with ``shapes`` in each of ``colors`` colors, under the color rules chosen."""

    def __init__(
        self,
        region: Region,
        colors: int = 4,
        shapes: Sequence[Shape] | None = None,
        edge_rule: bool = True,
        corner_contact: bool = False,
    ) -> None:
        if not 1 <= colors <= 4:
            raise ValueError(f"colors must be 1..4, got {colors}")
        self.region = region
        self.colors = colors
        self.shapes = tuple(shapes) if shapes is not None else piece_set("tetrominoes")
        self.edge_rule = edge_rule
        self.corner_contact = corner_contact
        self.cells: tuple[Cell, ...] = region.ordered_cells
        self.cell_index = {cell: i for i, cell in enumerate(self.cells)}
        # pieces: (color, shape index)
        self.pieces = [(k, s) for k in range(colors) for s in range(len(self.shapes))]
        self.options: list[tuple[int, tuple[Cell, ...]]] = []  # (piece index, sorted cells)
        shape_places = [region.placements(shape) for shape in self.shapes]
        for j, (_k, s) in enumerate(self.pieces):
            for cells in shape_places[s]:
                self.options.append((j, cells))
        self.option_of = {(j, cells): o for o, (j, cells) in enumerate(self.options)}
        self.area_ok = sum(self.shapes[s].area for _, s in self.pieces) == region.area
        self._tokens: list[list[str]] | None = None  # option_tokens of every placement, once asked for

    # -- geometry helpers ------------------------------------------------------
    def edge_neighbours(self, cells: Sequence[Cell]) -> list[Cell]:
        own = set(cells)
        out = {(r + dr, c + dc) for r, c in cells for dr, dc in EDGE} - own
        return sorted(x for x in out if x in self.cell_index)

    def corner_cells(self, cells: Sequence[Cell]) -> list[Cell]:
        """Cells touching ``cells`` only at a corner (diagonal, not edge-adjacent, not inside)."""
        own = set(cells)
        edge = {(r + dr, c + dc) for r, c in cells for dr, dc in EDGE}
        out = {(r + dr, c + dc) for r, c in cells for dr, dc in DIAG} - own - edge
        return sorted(x for x in out if x in self.cell_index)

    def option_tokens(self, o: int) -> list[str]:
        """The XCC items of placement ``o``: its cells, its piece, and with the edge rule its colour's marks
        (``1`` on its cells, ``0`` on their edge neighbours outside it)."""
        return list(self._all_tokens()[o])

    def _all_tokens(self) -> list[list[str]]:
        """:meth:`option_tokens` of every placement, built once (each cell set's edge neighbours once for all
        colours)."""
        if self._tokens is None:
            index = self.cell_index
            around: dict[tuple[Cell, ...], list[int]] = {}
            self._tokens = []
            for j, cells in self.options:
                k = self.pieces[j][0]
                own = [index[c] for c in cells]
                tokens = [f"c{i}" for i in own]
                tokens.append(f"p{j}")
                if self.edge_rule:
                    near = around.get(cells)
                    if near is None:
                        near = around[cells] = [index[c] for c in self.edge_neighbours(cells)]
                    tokens += [f"e{i}k{k}:1" for i in own]
                    tokens += [f"e{i}k{k}:0" for i in near]
                self._tokens.append(tokens)
        return self._tokens

    def primary_items(self) -> list[str]:
        return [f"c{i}" for i in range(len(self.cells))] + [f"p{j}" for j in range(len(self.pieces))]

    def secondary_items(self) -> list[str]:
        if not self.edge_rule:
            return []
        return [f"e{i}k{k}" for i in range(len(self.cells)) for k in range(self.colors)]

    def xcc(self) -> ExactCoverProblem:
        """The whole problem as one XCC instance (option i = placement i)."""
        return ExactCoverProblem(self.primary_items(), self._all_tokens(), self.secondary_items())

    # -- tilings ------------------------------------------------------------------
    def to_pieces(self, options: Sequence[int]) -> list[ColoredPiece]:
        out = []
        for o in options:
            j, cells = self.options[o]
            k, s = self.pieces[j]
            out.append(ColoredPiece(k, self.shapes[s].name, cells))
        return sorted(out, key=lambda p: (p.color, SHAPE_NAMES.index(p.shape) if p.shape in SHAPE_NAMES else 9, p.shape))

    def satisfies_corner_contact(self, options: Sequence[int]) -> bool:
        owner: dict[Cell, int] = {}
        for o in options:
            j, cells = self.options[o]
            for c in cells:
                owner[c] = self.pieces[j][0]
        for o in options:
            j, cells = self.options[o]
            k = self.pieces[j][0]
            if not any(owner.get(x) == k for x in self.corner_cells(cells)):
                return False
        return True

    def verify(self, pieces: Sequence[ColoredPiece]) -> None:
        verify_colored_tiling(self.region, pieces, self.colors, self.shapes, self.edge_rule, self.corner_contact)

    def find(self, backend: str = "sat", time_limit: float | None = None, workers: int = 1, seed: int = 0) -> list[ColoredPiece] | None:
        """One verified tiling (None: there is none; TimeoutError if the limit stopped an undecided search)."""
        if not self.area_ok:
            return None
        if backend == "dlx":
            return self._find_dlx(time_limit)
        if backend == "bitset":
            chosen = self._find_bitset(time_limit, seed)
        elif backend == "sat":
            chosen = self._find_sat(time_limit, seed)
        elif backend == "cpsat":
            chosen = self._find_cpsat(time_limit, workers, seed)
        else:
            raise ValueError(f"unknown backend {backend!r}; use sat, cpsat or dlx")
        if chosen is None:
            return None
        pieces = self.to_pieces(chosen)
        self.verify(pieces)
        return pieces

    def _find_dlx(self, time_limit: float | None) -> list[ColoredPiece] | None:
        """The first cover of :meth:`xcc` in DLX order that keeps the corner rule (when asked), verified.

        Without the corner rule every cover is a tiling, so the kernel is asked for one cover at a time: a
        batch of 64 would search on for 63 more before the first came back (on 10x8: 27,831 nodes instead
        of 4,757).  With it, covers are filtered here, and batches save kernel calls."""
        limits = SearchLimits(time_limit=time_limit)
        compiled = self.xcc().compile()
        for solution in compiled.solutions(limits, batch=64 if self.corner_contact else 1):
            if limits.expired():
                raise TimeoutError("DLX stopped before deciding (time limit)")
            if not self.corner_contact or self.satisfies_corner_contact(solution):
                pieces = self.to_pieces(solution)
                self.verify(pieces)
                return pieces
        if compiled.stopped_by:
            raise TimeoutError("DLX stopped before deciding (time limit)")
        return None

    # -- SAT / CP-SAT ---------------------------------------------------------------
    def clauses(self) -> tuple[list[list[int]], int]:
        """CNF over placement variables 1..n plus cell-color variables; returns (clauses, top variable)."""
        from pysat.card import CardEnc, EncType
        from pysat.formula import IDPool

        n = len(self.options)
        ncell = len(self.cells)
        color_var = lambda i, k: n + 1 + i * self.colors + k  # noqa: E731
        pool = IDPool(start_from=n + ncell * self.colors + 1)
        clauses: list[list[int]] = []
        by_cell: list[list[int]] = [[] for _ in range(ncell)]
        by_cell_color: list[list[list[int]]] = [[[] for _ in range(self.colors)] for _ in range(ncell)]
        by_piece: list[list[int]] = [[] for _ in self.pieces]
        for o, (j, cells) in enumerate(self.options):
            by_piece[j].append(o + 1)
            for c in cells:
                by_cell[self.cell_index[c]].append(o + 1)
                by_cell_color[self.cell_index[c]][self.pieces[j][0]].append(o + 1)
        for lits in by_cell + by_piece:
            if not lits:
                return [[]], pool.top
            clauses += CardEnc.equals(lits=lits, bound=1, vpool=pool, encoding=EncType.seqcounter).clauses
        for i in range(ncell):
            for k in range(self.colors):
                y = color_var(i, k)
                lits = by_cell_color[i][k]
                clauses.append([-y] + lits)
                clauses += [[y, -x] for x in lits]
        for o, (j, cells) in enumerate(self.options):
            k = self.pieces[j][0]
            if self.edge_rule:
                for c in self.edge_neighbours(cells):
                    clauses.append([-(o + 1), -color_var(self.cell_index[c], k)])
            if self.corner_contact:
                clauses.append([-(o + 1)] + [color_var(self.cell_index[c], k) for c in self.corner_cells(cells)])
        return clauses, pool.top

    def _find_bitset(self, time_limit: float | None, seed: int) -> list[int] | None:
        """The canonical first-empty-cell search (:mod:`solvers.blokus.tetromino_search`): exhaustive, so None
        is a proof; the time limit stops it (TimeoutError when it stops the search undecided)."""
        search = self.canonical_search()
        pairs, exhaustive = search.first(time_limit=time_limit)
        if pairs is not None:
            return search.to_options(pairs)
        if not exhaustive:
            raise TimeoutError("bitset search stopped before deciding (time limit)")
        return None

    def split_search(self):
        """The compiled split-method search of this problem (:mod:`solvers.blokus.tetromino_split`, built once)."""
        from solvers.blokus.tetromino_split import SplitSearch

        if getattr(self, "_split", None) is None:  # symmetry reduction and the shape-tiling guide (the first
            # committed seed-rule parts, bench/results/tetromino_split_count_v1.jsonl, were made without either)
            self._split = SplitSearch(self, reduce=True)
        return self._split

    def canonical_search(self):
        """The compiled canonical search of this problem (built once)."""
        from solvers.blokus.tetromino_search import TetrominoSearch

        if getattr(self, "_canonical", None) is None:
            self._canonical = TetrominoSearch(self)
        return self._canonical

    def sat_formula(self) -> tuple[list[list[int]], int]:
        """:meth:`clauses` plus what the fixed-order search needs to propagate as CP-SAT does: exactly one
        colour per cell (implied, but not by unit propagation) and canonical colours (colour precedence: cell
        0 is colour 0 and a colour may first appear only after every lower colour has; every colour has the
        same pieces, so each tiling keeps one labelling).  Returns (clauses, top variable)."""
        clauses, top = self.clauses()
        n, colors = len(self.options), self.colors
        color_var = lambda i, k: n + 1 + i * colors + k  # noqa: E731  (as in clauses())
        clauses.append([color_var(0, 0)])
        for i in range(len(self.cells)):
            ys = [color_var(i, k) for k in range(colors)]
            clauses.append(ys)
            clauses += [[-a, -b] for a, b in itertools.combinations(ys, 2)]
        # seen[i][k]: colour k covers one of the cells 0..i
        seen = [[top + 1 + i * colors + k for k in range(colors)] for i in range(len(self.cells))]
        top += len(self.cells) * colors
        for i, row in enumerate(seen):
            for k, u in enumerate(row):
                clauses.append([-color_var(i, k), u])
                if i == 0:
                    clauses.append([-u, color_var(i, k)])
                    if k:
                        clauses.append([-color_var(i, k)])
                    continue
                clauses += [[-seen[i - 1][k], u], [-u, seen[i - 1][k], color_var(i, k)]]
                if k:
                    clauses.append([-color_var(i, k), seen[i - 1][k - 1]])
        return clauses, top

    def sat_shape_orders(self, limit: int = 200) -> list[tuple[int, ...]]:
        """Shape orders for the SAT search's runs, most promising first: shapes with fewer placements go first
        (they are the most constrained), so orders are sorted by the cost Σ log(places(a) / places(b)) over
        the pairs where a shape a with more places comes before a shape b with fewer; the candidates are the
        first ``limit`` orders reached from the cheapest by adjacent swaps (all of them for 5 shapes)."""
        places = [0] * len(self.shapes)
        for j, _ in self.options:
            places[self.pieces[j][1]] += 1
        start = tuple(sorted(range(len(self.shapes)), key=lambda s: (places[s], s)))
        seen, frontier = [start], [start]
        known = {start}
        while frontier and len(seen) < limit:
            nxt = []
            for order in frontier:
                for i in range(len(order) - 1):
                    swapped = order[:i] + (order[i + 1], order[i]) + order[i + 2:]
                    if swapped not in known and len(seen) < limit:
                        known.add(swapped)
                        seen.append(swapped)
                        nxt.append(swapped)
            frontier = nxt

        def cost(order: tuple[int, ...]) -> float:
            return sum(math.log(places[a] / places[b]) for i, a in enumerate(order) for b in order[i + 1:]
                       if places[a] > places[b] > 0)

        return sorted(seen, key=cost)

    def sat_order(self, run: int = 0) -> list[int]:
        """The fixed decision order of the SAT search's run ``run``: placements by first cell (region order),
        then shape (the ``run``-th of :meth:`sat_shape_orders`, cyclically), then place, then colour; once
        every shape order has had a run, the places of a shape on a cell are shuffled too."""
        import random

        shape_orders = self.sat_shape_orders()
        rank = {s: i for i, s in enumerate(shape_orders[run % len(shape_orders)])}
        shuffle = run // len(shape_orders)
        rng = random.Random(shuffle)
        noise = [rng.random() if shuffle else 0.0 for _ in self.options]
        first = [min(self.cell_index[c] for c in cells) for _, cells in self.options]
        return sorted(range(len(self.options)),
                      key=lambda o: (first[o], rank[self.pieces[self.options[o][0]][1]], noise[o], self.options[o][1],
                                     self.pieces[self.options[o][0]][0]))

    def _find_sat(self, time_limit: float | None = None, seed: int = 0) -> list[int] | None:
        """A tiling by CaDiCaL (TimeoutError if ``time_limit`` stops it undecided; None is a proof).

        Without the corner rule: plain CaDiCaL on :meth:`clauses` with the first cell's colour fixed.  With it,
        CaDiCaL's own heuristics wander (no 10x8 tiling in 10 minutes), so it runs as a fixed-order CDCL
        search, the SAT twin of the CP-SAT strategy: :meth:`sat_formula`, variable bumping, stable mode,
        rephasing and walks off, placements decided true in :meth:`sat_order` (first-empty-cell order) with
        clause learning.  Its run time swings 30x with the order of the shapes on a cell, so runs restart
        with the next order (:meth:`sat_order` of seed, seed + 1, ...) under conflict budgets growing by half
        each run: deterministic for a seed, and complete (every run solves the whole formula; the budgets
        grow without bound).

        Encoding and solving run in a forked child process that is killed at the time limit or on Ctrl-C:
        the solver does not answer an interrupt from another thread (it keeps the GIL), and python-sat's
        encoders swallow a SIGINT that reaches them in the main thread (:func:`solvers.interrupt.call_in_child`)."""
        from solvers.interrupt import call_in_child

        try:
            model = cast(list[int] | None, call_in_child(_sat_child, (self, seed), time_limit))
        except TimeoutError:
            raise TimeoutError("SAT stopped before deciding (time limit)") from None
        if model is None:
            return None
        return [o for o in range(len(self.options)) if model[o] > 0]

    def sat_model(self, seed: int = 0) -> list[int] | None:
        """The model :meth:`_find_sat` looks for, solved in this process (None: unsatisfiable)."""
        if self.corner_contact:
            clauses, _ = self.sat_formula()
            return _sat_model(clauses, lambda run: self.sat_order(seed + run))
        clauses, _ = self.clauses()
        clauses.append([len(self.options) + 1])  # cell 0 has colour 0 (canonical colour labelling)
        return _sat_model(clauses)

    def sat_enumerate(self, limit: int | None = None, one_colouring: bool = False) -> Iterator[list[int]]:
        """Every tiling by SAT with blocking clauses (independent cross-check of the DLX counts; small boards only);
        with ``one_colouring``, of :meth:`sat_formula` (one colour labelling of each tiling)."""
        from pysat.solvers import Solver

        clauses, _ = self.sat_formula() if one_colouring else self.clauses()
        n = len(self.options)
        found = 0
        with Solver(name="cadical153", bootstrap_with=clauses) as solver:
            while solver.solve():
                model = solver.get_model()
                chosen = [o for o in range(n) if model[o] > 0]
                yield chosen
                found += 1
                if limit is not None and found >= limit:
                    return
                solver.add_clause([-(o + 1) for o in chosen])

    def _find_cpsat(self, time_limit: float | None, workers: int, seed: int) -> list[int] | None:
        from ortools.sat.python import cp_model

        model = cp_model.CpModel()
        x = [model.new_bool_var(f"x{o}") for o in range(len(self.options))]
        ncell = len(self.cells)
        by_cell: list[list[int]] = [[] for _ in range(ncell)]
        by_cell_color: list[list[list[int]]] = [[[] for _ in range(self.colors)] for _ in range(ncell)]
        by_piece: list[list[int]] = [[] for _ in self.pieces]
        for o, (j, cells) in enumerate(self.options):
            by_piece[j].append(o)
            for c in cells:
                by_cell[self.cell_index[c]].append(o)
                by_cell_color[self.cell_index[c]][self.pieces[j][0]].append(o)
        for group in by_cell + by_piece:
            model.add_exactly_one(x[o] for o in group)
        # cell-colour literals: color[i][k] is true exactly when a piece of colour k covers cell i
        color = [[model.new_bool_var(f"y{i}_{k}") for k in range(self.colors)] for i in range(ncell)]
        for i in range(ncell):
            for k in range(self.colors):
                model.add(sum(x[o] for o in by_cell_color[i][k]) == color[i][k])
            model.add_exactly_one(color[i])
        model.add(color[0][0] == 1)  # canonical colour labelling: the first cell's piece is colour 0
        for o, (j, cells) in enumerate(self.options):
            k = self.pieces[j][0]
            if self.edge_rule:
                for c in self.edge_neighbours(cells):
                    model.add_implication(x[o], color[self.cell_index[c]][k].Not())
            if self.corner_contact:
                model.add_bool_or([color[self.cell_index[c]][k] for c in self.corner_cells(cells)]).only_enforce_if(x[o])
        if not self.corner_contact:
            from solvers.tiling import solve_cpsat  # imported here: the other backends do without it

            return solve_cpsat(model, x, time_limit, workers, seed)
        # corner contact: CP-SAT's own portfolio needs minutes (9 min measured); a fixed first-empty-cell
        # search (decide the placements in the order of their first cell, true first) with CP-SAT's
        # propagation and clause learning finds one 10x8 tiling in a few CPU-seconds and stays complete
        model.add_decision_strategy([x[o] for o in self.first_cell_order()], cp_model.CHOOSE_FIRST,
                                    cp_model.SELECT_MAX_VALUE)
        return _solve_cpsat_fixed(model, x, time_limit, workers, seed)

    def first_cell_order(self) -> list[int]:
        """Placement numbers sorted by their first cell (region order), then by number (colour, shape, place)."""
        return sorted(range(len(self.options)),
                      key=lambda o: (min(self.cell_index[c] for c in self.options[o][1]), o))

    # -- splitting into subproblems ----------------------------------------------------
    def split(self, depth: int) -> list[tuple[int, ...]]:
        """Prefixes (placement tuples) covering the first uncovered cell, ``depth`` levels deep, rule-consistent."""
        tokens = [self.option_tokens(o) for o in range(len(self.options))]
        by_first: dict[int, list[int]] = {}
        for o, (_, cells) in enumerate(self.options):
            for c in cells:
                by_first.setdefault(self.cell_index[c], []).append(o)
        out: list[tuple[int, ...]] = []

        def compatible(state: dict[str, str], o: int) -> dict[str, str] | None:
            new = dict(state)
            for t in tokens[o]:
                name, _, col = t.partition(":")
                if name in new and (not col or new[name] != col):
                    return None
                new[name] = col
            return new

        def rec(prefix: tuple[int, ...], state: dict[str, str]) -> None:
            if len(prefix) == depth:
                out.append(prefix)
                return
            first = next((i for i in range(len(self.cells)) if f"c{i}" not in state), None)
            if first is None:
                out.append(prefix)
                return
            for o in by_first.get(first, []):
                new = compatible(state, o)
                if new is not None:
                    rec(prefix + (o,), new)

        rec((), {})
        return out

    def random_prefix(self, depth: int, seed: int = 0) -> tuple[int, ...]:
        """A random rule-consistent prefix of ``depth`` placements (first-empty-cell order), for sampling."""
        import random

        rng = random.Random(seed)
        while True:
            prefix: list[int] = []
            state: dict[str, str] = {}
            while len(prefix) < depth:
                first = next((i for i in range(len(self.cells)) if f"c{i}" not in state), None)
                if first is None:
                    break
                fits = []
                for o, (_, cells) in enumerate(self.options):
                    if min(self.cell_index[c] for c in cells) != first:
                        continue
                    new = dict(state)
                    ok = True
                    for t in self.option_tokens(o):
                        name, _, col = t.partition(":")
                        if name in new and (not col or new[name] != col):
                            ok = False
                            break
                        new[name] = col
                    if ok:
                        fits.append((o, new))
                if not fits:
                    break
                o, state = rng.choice(fits)
                prefix.append(o)
            if len(prefix) == depth:
                return tuple(prefix)

    def reduced(self, prefix: Sequence[int]) -> tuple[ExactCoverProblem, list[int]]:
        """The XCC left after committing ``prefix``: (problem, map from its options to placement numbers)."""
        fixed: dict[str, str] = {}
        for o in prefix:
            for t in self.option_tokens(o):
                name, _, col = t.partition(":")
                fixed[name] = col
        options, mapping = [], []
        for o in range(len(self.options)):
            keep, ok = [], True
            for t in self.option_tokens(o):
                name, _, col = t.partition(":")
                if name in fixed:
                    if not col or fixed[name] != col:
                        ok = False
                        break
                    continue  # same color: already settled
                keep.append(t)
            if ok:
                options.append(keep)
                mapping.append(o)
        primary = [p for p in self.primary_items() if p not in fixed]
        secondary = [s for s in self.secondary_items() if s not in fixed]
        if not primary:  # prefix is already a complete tiling
            return ExactCoverProblem(["done"], [["done"]]), [-1]
        primary_set = set(primary)
        options_ok = [(opt, m) for opt, m in zip(options, mapping, strict=True) if any(split_name(t) in primary_set for t in opt)]
        return ExactCoverProblem(primary, [opt for opt, _ in options_ok], secondary), [m for _, m in options_ok]

    def count_prefix(self, prefix: Sequence[int], engine: str = "bitset", max_nodes: int = -1,
                     time_limit: float | None = None) -> tuple[int, int] | None:
        """(tilings extending ``prefix``, search nodes): exhaustive, with the bitboard kernel or generic XCC.

        ``max_nodes`` (bitset only) or ``time_limit`` (seconds): give up then and return None (the part stays
        to do).  Both kernels poll an interrupt flag (:mod:`solvers.interrupt`): Ctrl-C stops them within a
        few thousand nodes and raises KeyboardInterrupt here.
        """
        if engine == "bitset":
            return self._count_prefix_bitset(prefix, max_nodes, time_limit)
        if engine != "xcc":
            raise ValueError(f"unknown engine {engine!r}; use bitset or xcc")
        problem, mapping = self.reduced(prefix)
        if mapping == [-1]:
            return (1 if not self.corner_contact or self.satisfies_corner_contact(prefix) else 0), 0
        compiled = problem.compile()
        if not self.corner_contact:
            result = compiled.count(SearchLimits(time_limit=time_limit))
            if result.stopped_by == "time_limit":
                return None
            if not result.complete:
                raise KeyboardInterrupt
            return result.count, result.nodes
        count = 0
        for solution in compiled.solutions(SearchLimits(time_limit=time_limit)):
            if self.satisfies_corner_contact(list(prefix) + [mapping[i] for i in solution]):
                count += 1
        if compiled.stopped_by == "time_limit":
            return None
        if compiled.stopped_by:
            raise KeyboardInterrupt
        return count, int(compiled.state[2])

    def _count_prefix_bitset(self, prefix: Sequence[int], max_nodes: int,
                             time_limit: float | None) -> tuple[int, int] | None:
        """:meth:`count_prefix` with the bitboard kernel, run through :func:`solvers.interrupt.run_polling`."""
        from solvers.interrupt import INTERRUPTED, run_polling

        if getattr(self, "_bits", None) is None:
            self._bits = BitColorCounter(self)
        if max_nodes > 0 and self.corner_contact and prefix:
            max_nodes = -1  # the prefixed corner kernel has no node limit
        (count, nodes, stopped), why = run_polling(
            lambda flag: self._bits.count_stoppable(prefix, max_nodes, flag), time_limit)
        if why == INTERRUPTED:
            raise KeyboardInterrupt
        return None if stopped else (count, nodes)

    # -- symmetry (Burnside) -------------------------------------------------------------
    def group(self) -> list[tuple[int, dict[Cell, Cell]]]:
        return [(k, self.region.cell_permutation(k)) for k in self.region.symmetries()]

    def fixed_count(self, perm: dict[Cell, Cell], sigma: Sequence[int]) -> int:
        """Tilings fixed by the cell map ``perm`` combined with the color permutation ``sigma``."""
        shape_of = {j: s for j, (_, s) in enumerate(self.pieces)}
        piece_of = {(k, s): j for j, (k, s) in enumerate(self.pieces)}
        orbit_options: dict[frozenset, list[int]] = {}
        for o, (j, cells) in enumerate(self.options):
            members = [o]
            cur_j, cur = j, cells
            ok = True
            while True:
                k, s = self.pieces[cur_j]
                cur_j = piece_of[(sigma[k], shape_of[cur_j])]
                cur = tuple(sorted(perm[c] for c in cur))
                nxt = self.option_of.get((cur_j, cur))
                if nxt is None:
                    ok = False
                    break
                if nxt == o:
                    break
                if nxt in members or self.options[nxt][0] in {self.options[m][0] for m in members}:
                    ok = False  # a piece would be placed twice
                    break
                members.append(nxt)
            if ok:
                orbit_options.setdefault(frozenset(members), sorted(members))
        options = []
        kept = []
        for members in orbit_options.values():
            merged: dict[str, str] = {}
            ok = True
            for o in members:
                for t in self.option_tokens(o):
                    name, _, col = t.partition(":")
                    if name in merged and (not col or merged[name] != col):
                        ok = False
                        break
                    merged[name] = col
                if not ok:
                    break
            if ok:
                options.append([f"{n}:{c}" if c else n for n, c in merged.items()])
                kept.append(members)
        if not options:
            return 0
        problem = ExactCoverProblem(self.primary_items(), options, self.secondary_items())
        compiled = problem.compile()
        if not self.corner_contact:
            return _complete_count(compiled)
        return sum(1 for sol in compiled.solutions(SearchLimits())
                   if self.satisfies_corner_contact([o for i in sol for o in kept[i]]))

    def nonidentity_fixed_sums(self) -> tuple[int, int]:
        """(Σ Fix(g, id) over symmetries g ≠ identity, Σ Fix(g, σ) over all (g, σ) ≠ identity): exact, by XCC."""
        identity_colors = tuple(range(self.colors))
        sym = every = 0
        for g, perm in self.group():
            for sigma in itertools.permutations(range(self.colors)):
                if g == 0 and sigma == identity_colors:
                    continue
                value = self.fixed_count(perm, sigma)
                every += value
                if sigma == identity_colors:
                    sym += value
        return sym, every

    def symmetry_counts(self, raw: int) -> tuple[int, int, dict[str, int]]:
        """(orbits under region symmetries, orbits under symmetries × color permutations, fixed-point table)."""
        group = self.group()
        identity_colors = tuple(range(self.colors))
        fixed: dict[str, int] = {}
        total_sym = total_all = 0
        for g, perm in group:
            for sigma in itertools.permutations(range(self.colors)):
                value = raw if g == 0 and sigma == identity_colors else self.fixed_count(perm, sigma)
                fixed[f"g{g}:{''.join(map(str, sigma))}"] = value
                total_all += value
                if sigma == identity_colors:
                    total_sym += value
        n_sigma = len(list(itertools.permutations(range(self.colors))))
        q1, r1 = divmod(total_sym, len(group))
        q2, r2 = divmod(total_all, len(group) * n_sigma)
        if r1 or r2:
            raise AssertionError("Burnside sums are not divisible: symmetry handling is broken")
        return q1, q2, fixed

    # -- the full count --------------------------------------------------------------------
    def key(self) -> tuple:
        """A small picklable description that :func:`problem_from_key` turns back into this problem."""
        return (tuple(sorted(self.region.cells)), self.region.height, self.region.width, self.colors,
                tuple((s.name, tuple(sorted(s.cells))) for s in self.shapes), self.edge_rule, self.corner_contact)

    def signature(self) -> str:
        return json.dumps({"region": sorted(self.region.cells), "colors": self.colors,
                           "shapes": [sorted(s.cells) for s in self.shapes], "edge": self.edge_rule,
                           "corner": self.corner_contact})

    def count(
        self,
        depth: int = 2,
        workers: int = 1,
        checkpoint: str | Path | None = None,
        on_part: Callable[[int, int, int], None] | None = None,
        symmetry: bool = True,
        engine: str = "canonical",
        time_limit: float | None = None,
        scheduler: str | None = None,
        on_start: Callable[[int, int], None] | None = None,
        repair: bool = False,
        verify: int = 0,
    ) -> ColorCounts:
        """Count every tiling (exhaustive), split at ``depth``; resumable.

        Engines: ``canonical`` (default; :mod:`solvers.blokus.tetromino_search`: one tiling per colour
        permutation, the corner rule pruned in the search, symmetry counts from its leaf sums), ``split``
        (:mod:`solvers.blokus.tetromino_split`: shape tilings, then each one's colour classes; same units),
        ``bitset`` (every colouring, Burnside by XCC fixed-point counts) and ``xcc`` (generic reference).
        Parts run in this process, or through :mod:`solvers.parallel` on ``workers`` local
        processes or a Dask ``scheduler``; the total is the same either way.  A part is either
        finished or not counted: under ``time_limit`` the counts are lower bounds (``complete`` false).
        ``on_start(parts done already, parts)`` is called once the search is split and the checkpoint read,
        before the first part (which may take minutes); ``on_part`` after each part.  Checkpoint lines are
        checked (:class:`_PartLog`, :meth:`check_part_record`); ``repair`` drops bad ones (those parts are
        counted again), ``verify`` recounts that many random finished parts first."""
        start = time.perf_counter()
        if engine not in ENGINES:
            raise ValueError(f"unknown engine {engine!r}; use {', '.join(ENGINES)}")
        if not self.area_ok:
            return ColorCounts(0, 0, 0, True, 0, 0, 0.0)
        canonical = engine in ("canonical", "split")  # both count one tiling per colour permutation
        prefixes: Sequence[tuple] = (self.split_search().split(depth) if engine == "split" else
                                     self.canonical_search().split(depth) if canonical else self.split(depth))
        identity = self.signature() + {"canonical": "|canonical", "split": "|split"}.get(engine, "")
        if engine == "split":
            split = self.split_search()
            identity += f" pockets {split.hole_limit}"  # the cuts shape the parts
            identity += f" colour cut {split.colour_cut}" if split.colour_cut else ""
            identity += " reduced" if len(split.anchors) else ""
            identity += " guided" if split.guide else ""
        log = _PartLog(Path(checkpoint) if checkpoint else None, identity, depth, len(prefixes),
                       math.factorial(self.colors) if canonical else 1, on_part)
        log.load(RECORD_WIDTH[engine], lambda record: self.check_part_record(record, canonical, engine == "split"),
                 repair, verify, lambda part: self.count_part(prefixes[part], engine) or ())
        log.open()
        todo = [i for i in range(len(prefixes)) if str(i) not in log.done]
        if on_start is not None:
            on_start(len(log.done), len(prefixes))
        complete = True
        try:
            if workers <= 1 and not scheduler:
                stopped_by = self._count_here(prefixes, todo, engine, start, time_limit, log)
            else:
                complete, stopped_by = self._count_parallel(prefixes, todo, engine, start, time_limit, workers,
                                                            scheduler, log)
        except KeyboardInterrupt:
            complete, stopped_by = False, "interrupt"
        finally:
            log.close()
        complete = complete and len(log.done) == len(prefixes)
        raw, sym, sym_col, fixed = self._totals(log, complete, symmetry, canonical)
        # (with a colour cut the split search reaches only some shape tilings: their number is no count)
        all_shapes = engine == "split" and not self.split_search().colour_cut
        shape_tilings = sum(v[3] for v in log.done.values()) if all_shapes else None
        return ColorCounts(raw, sym, sym_col, complete, len(log.done), len(prefixes), time.perf_counter() - start,
                           log.nodes(), fixed, "" if complete else stopped_by or "time_limit", shape_tilings)

    def _count_here(self, prefixes: Sequence[tuple], todo: list[int], engine: str, start: float,
                    time_limit: float | None, log: _PartLog) -> str:
        """Count the parts ``todo`` in this process, in order; returns why it stopped early ("" if it did not).
        With a time limit, a part that cannot finish in time is abandoned (it stays to do).  Every engine's
        kernel is stopped by Ctrl-C (KeyboardInterrupt here) or the deadline through its interrupt flag."""
        for i in todo:
            left = None if time_limit is None else time_limit - (time.perf_counter() - start)
            if left is not None and left <= 0:
                return "time_limit"
            if engine in ("canonical", "split"):
                result = self._count_canonical_part(prefixes[i], left, engine)
            else:
                result = self.count_part(prefixes[i], engine, time_limit=left)
            if result is None:
                return "time_limit"
            log.record(i, result)
        return ""

    def _count_parallel(self, prefixes: Sequence[tuple], todo: list[int], engine: str, start: float,
                        time_limit: float | None, workers: int, scheduler: str | None,
                        log: _PartLog) -> tuple[bool, str]:
        """Count the parts ``todo`` through :mod:`solvers.parallel`; returns (not interrupted, why it stopped)."""
        from solvers.parallel import make_executor, run_tasks

        def record(index: int, result: tuple[int, ...]) -> None:
            log.record(todo[index], result)

        expired = (lambda: time.perf_counter() - start > time_limit) if time_limit is not None else None
        executor, close = make_executor(workers, scheduler)
        try:
            payloads = [(self.key(), engine, tuple(prefixes[i])) for i in todo]
            report = run_tasks(_count_part, payloads, lambda total, part: total, None, executor,
                               on_result=record, stop=expired)
        finally:
            close()
        return not report.interrupted, {"stop": "time_limit"}.get(report.stopped_by, report.stopped_by)

    def _totals(self, log: _PartLog, complete: bool, symmetry: bool,
                canonical: bool) -> tuple[int, int | None, int | None, dict[str, int]]:
        """(raw, up to symmetry, up to symmetry and colours, fixed-point table) from the parts counted; the
        orbit counts only for a complete count with ``symmetry``."""
        done = log.done
        if not canonical:
            raw = sum(v[0] for v in done.values())
            if complete and symmetry:
                sym, sym_col, fixed = self.symmetry_counts(raw)
                return raw, sym, sym_col, fixed
            return raw, None, None, {}
        from solvers.blokus.tetromino_search import SearchCounts

        sums = [sum(v[i] for v in done.values()) for i in range(3)]
        totals = SearchCounts(sums[0], sums[1], sums[2], log.nodes(), not complete)
        if complete and symmetry:
            raw, sym, sym_col = self.canonical_search().orbit_counts(totals)
            return raw, sym, sym_col, {"canonical": totals.canonical, "leaf_fix_any": totals.fix_any,
                                       "leaf_fix_id": totals.fix_id}
        return log.scale * totals.canonical, None, None, {}

    def _count_canonical_part(self, prefix: Sequence, time_limit: float | None,
                              engine: str = "canonical") -> tuple[int, ...] | None:
        """One canonical or split part in this process, stoppable: None at the time limit, KeyboardInterrupt on
        Ctrl-C."""
        from solvers.interrupt import INTERRUPTED, run_polling

        if engine == "split":
            split = self.split_search()
            s, why = run_polling(lambda flag: split.count(prefix, flag=flag), time_limit)
            if why == INTERRUPTED:
                raise KeyboardInterrupt
            return None if s.stopped else s.record()
        search = self.canonical_search()
        c, why = run_polling(lambda flag: search.count(prefix, flag=flag), time_limit)
        if why == INTERRUPTED:
            raise KeyboardInterrupt
        if c.stopped:
            return None
        return c.canonical, c.fix_any, c.fix_id, c.nodes

    def check_part_record(self, record: list[int], canonical: bool, split: bool = False) -> None:
        """Refuse (ValueError) a stored part record no search can give: more tilings than search nodes (one
        at most when the prefix fills the region: no node), or Burnside leaf sums out of range (each
        canonical tiling adds 1 to |G| to ``leaf_fix_any``, at most that to ``leaf_fix_id``).  A split record
        (colourings, fix_any, fix_id, shape tilings, nodes) bounds shape tilings by nodes and colourings by
        (colors!)^(shapes - 1) per shape tiling instead."""
        tilings, nodes = record[0], record[-1]
        leaves, what = (record[3], "shape tilings") if split else (tilings, "tilings")
        weight = len(self.group()) if split and len(self.split_search().anchors) else 1  # reduced: a kept tiling
        if leaves > weight * max(nodes, 1):  # weighs up to |G|
            raise ValueError(f"{leaves:,} {what} from {nodes:,} search nodes is impossible")
        if split and tilings > leaves * math.factorial(self.colors) ** (len(self.shapes) - 1):
            raise ValueError(f"{tilings:,} colourings from {leaves:,} shape tilings is impossible")
        if canonical:
            fix_any, fix_id, group = record[1], record[2], len(self.group())
            if not fix_id <= fix_any <= group * tilings:
                raise ValueError(f"leaf sums {fix_any:,}/{fix_id:,} outside 0 <= fix_id <= fix_any <= |G| x tilings "
                                 f"= {group * tilings:,}")

    def count_part(self, prefix: Sequence, engine: str, max_nodes: int = -1,
                   time_limit: float | None = None) -> tuple[int, ...] | None:
        """One part: (count, nodes) for bitset/xcc, (canonical, leaf_fix_any, leaf_fix_id, nodes) for canonical;
        None when ``max_nodes`` or (bitset/xcc) ``time_limit`` stopped it."""
        if engine == "split":
            s = self.split_search().count(prefix, max_nodes)
            return None if s.stopped else s.record()
        if engine != "canonical":
            return self.count_prefix(prefix, engine, max_nodes, time_limit)
        c = self.canonical_search().count(prefix, max_nodes)
        if c.stopped:
            return None
        return c.canonical, c.fix_any, c.fix_id, c.nodes


class _PartLog:
    """The parts of a split count done so far (part number -> its record), kept in a JSON-lines checkpoint.

    Each finished part is appended as one line of :mod:`solvers.parallel`'s checkpoint format: the job's
    fingerprint (problem, engine, split depth, parts), the part, its record and a checksum, so an
    edited, foreign or impossible line is refused on reading (or dropped and counted again with
    ``repair``).  ``scale`` turns a part's first figure into raw tilings (the colour permutations for
    canonical counts); ``on_part(parts done, parts, raw so far)`` is called after each part."""

    def __init__(self, path: Path | None, identity: str, depth: int, parts: int, scale: int,
                 on_part: Callable[[int, int, int], None] | None) -> None:
        self.path, self.identity, self.depth, self.parts, self.scale = path, identity, depth, parts, scale
        self.on_part = on_part
        self.done: dict[str, list[int]] = {}
        digest = hashlib.sha256(f"{identity}|depth {depth}|parts {parts}".encode()).hexdigest()[:16]
        self.job = f"solitaire-count-{digest}"
        self.log: Any = None

    def load(self, width: int, check: Callable[[list[int]], None] | None = None, repair: bool = False,
             verify: int = 0, recompute: Callable[[int], Sequence[int]] | None = None) -> None:
        """Read the checkpoint file if there is one, every line checked (records of ``width`` whole numbers
        ``check`` accepts); ``verify`` random parts are recounted with ``recompute(part)`` and compared."""
        from solvers.parallel import scan_checkpoint, verify_records

        if self.path is None or not self.path.exists():
            return

        def trusted(_part: int, data: Any) -> None:
            if not isinstance(data, list) or len(data) != width or not all(type(x) is int for x in data):
                raise ValueError(f"malformed part record {json.dumps(data)[:60]} (not {width} whole numbers)")
            if min(data) < 0:
                raise ValueError(f"negative count in {data}")
            if check is not None:
                check(data)

        scan = scan_checkpoint(self.path, self.job, self.parts, trusted, repair, verify)
        if verify and recompute is not None:
            verify_records(self.path, scan.sample, lambda part: list(recompute(part)))
        for part, record in scan.records():
            self.done[str(part)] = record

    def open(self) -> None:
        """Open the checkpoint for appending: a line torn by a kill cut off, a header on a new file."""
        from solvers.parallel import open_checkpoint

        if self.path is not None and self.log is None:
            self.log = open_checkpoint(self.path, self.job)

    def close(self) -> None:
        if self.log is not None:
            with contextlib.suppress(OSError):  # a full disk was reported when the line was written
                self.log.close()
            self.log = None

    def record(self, part: int, result: Sequence[int]) -> None:
        """Part ``part`` is counted: keep its record, append its line, report progress."""
        from solvers.parallel import checkpoint_line

        self.done[str(part)] = list(result)
        if self.path is not None:
            self.open()
            try:
                self.log.write(checkpoint_line(self.job, part, list(result)))
                self.log.flush()
            except OSError as error:
                raise ValueError(f"cannot write checkpoint {self.path}: {error.strerror or error}") from None
        if self.on_part:
            self.on_part(len(self.done), self.parts, self.scale * sum(v[0] for v in self.done.values()))

    def nodes(self) -> int:
        return sum(v[-1] for v in self.done.values())


def split_name(token: str) -> str:
    return token.partition(":")[0]


@lru_cache(maxsize=4)
def problem_from_key(key: tuple) -> ColoredTilingProblem:
    """Rebuild a problem from :meth:`ColoredTilingProblem.key` (cached per worker process)."""
    cells, height, width, colors, shapes, edge_rule, corner_contact = key
    region = Region(frozenset(cells), height, width)
    return ColoredTilingProblem(region, colors, [Shape(frozenset(c), n) for n, c in shapes], edge_rule, corner_contact)


def _count_part(payload: tuple[tuple, str, tuple]) -> tuple[int, ...]:
    key, engine, prefix = payload
    counted = problem_from_key(key).count_part(prefix, engine)
    assert counted is not None  # no node limit: the count is exhaustive
    return counted


def _solve_cpsat_fixed(model, variables, time_limit: float | None, workers: int,  # type: ignore[no-untyped-def]
                       seed: int) -> list[int] | None:
    """CP-SAT with ``search_branching = FIXED_SEARCH`` (the model's decision strategy); as
    :func:`solvers.tiling.solve_cpsat`: None if infeasible, TimeoutError at the limit, KeyboardInterrupt on Ctrl-C."""
    from ortools.sat.python import cp_model

    from solvers.tiling import _run_interruptible

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = seed
    solver.parameters.search_branching = cp_model.FIXED_SEARCH
    solver.parameters.catch_sigint_signal = False
    if time_limit:
        solver.parameters.max_time_in_seconds = time_limit
    answer, stopped = _run_interruptible(lambda: solver.solve(model), solver.stop_search, None)
    if answer in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return [i for i, v in enumerate(variables) if solver.value(v)]
    if answer == cp_model.INFEASIBLE:
        return None
    if answer == cp_model.MODEL_INVALID:
        raise ValueError("CP-SAT says the model is invalid")
    if stopped == "incomplete":
        raise KeyboardInterrupt
    raise TimeoutError("CP-SAT stopped before deciding (time limit)")


# CaDiCaL 1.9.5 options that make it a fixed-order search: decisions follow the variable numbering (no
# bumping, focused mode only, lowest index first), the preferred phase (true) always, no lucky/walk phases
SAT_FIXED_ORDER = {"bump": 0, "stabilize": 0, "reverse": 1, "forcephase": 1, "lucky": 0, "walk": 0, "rephase": 0}
SAT_FIRST_BUDGET = 10_000  # conflicts of the first fixed-order run (about 1.5 CPU-s on 10x8); then x1.5 per run


def _sat_model(clauses: list[list[int]], orders: Callable[[int], list[int]] | None = None) -> list[int] | None:
    """A model of ``clauses`` (None: unsatisfiable).  With ``orders`` (run -> placement order, placement o
    being variable o + 1): fixed-order runs (:data:`SAT_FIXED_ORDER`) in ``orders(0), orders(1), ...``, the
    placements renumbered 1..n in that order, under conflict budgets growing from :data:`SAT_FIRST_BUDGET`;
    the model comes back in the original numbering."""
    from pysat.solvers import Solver

    if orders is None:
        with Solver(name="cadical153", bootstrap_with=clauses) as solver:
            return solver.get_model() if solver.solve() else None
    top = max(abs(lit) for c in clauses for lit in c)
    budget = SAT_FIRST_BUDGET
    for run in itertools.count():
        new = list(range(top + 1))  # variable -> its number in this run (auxiliaries keep theirs)
        for rank, o in enumerate(orders(run)):
            new[o + 1] = rank + 1
        with Solver(name="cadical195") as solver:
            solver.configure(SAT_FIXED_ORDER)
            solver.append_formula([[new[lit] if lit > 0 else -new[-lit] for lit in c] for c in clauses])
            solver.conf_budget(budget)
            answer = solver.solve_limited()
            if answer is False:
                return None
            if answer:
                value = solver.get_model()
                old = [0] * (top + 1)
                for v in range(1, top + 1):
                    old[new[v]] = v
                return sorted((old[x] if x > 0 else -old[-x] for x in value), key=abs)
        budget += budget // 2
    raise AssertionError("unreachable")


def _sat_child(problem: ColoredTilingProblem, seed: int, send) -> None:  # type: ignore[no-untyped-def]
    """:meth:`ColoredTilingProblem.sat_model` for :meth:`~ColoredTilingProblem._find_sat`'s child process.

    A terminal's Ctrl-C reaches the child too: it is ignored outside the solver, and python-sat turns one
    during a solve into an exception; either way the child leaves quietly (the parent kills it or reports
    the interrupt), with no traceback of its own."""
    import signal

    from solvers.interrupt import EXIT_INTERRUPTED, is_ctrl_c

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        model = problem.sat_model(seed)
    except KeyboardInterrupt:
        os._exit(EXIT_INTERRUPTED)
    except Exception as error:
        if is_ctrl_c(error):
            os._exit(EXIT_INTERRUPTED)
        raise
    send.send(model)


def verify_colored_tiling(
    region: Region,
    pieces: Sequence[ColoredPiece],
    colors: int,
    shapes: Sequence[Shape],
    edge_rule: bool = True,
    corner_contact: bool = False,
) -> None:
    """Independent check (cells, shapes, one of each shape per color, edge and corner rules); ValueError if broken."""
    owner = _cell_owners(region, pieces, colors, shapes)
    if len(owner) != region.area:
        raise ValueError("not every cell is covered")
    if len(pieces) != colors * len(shapes):  # no (color, shape) twice, so this many pieces use every one
        raise ValueError("not every (color, shape) is used")
    if edge_rule:
        for (r, c), n in owner.items():
            for dr, dc in EDGE:
                m = owner.get((r + dr, c + dc))
                if m is not None and m != n and pieces[m].color == pieces[n].color:
                    color = pieces[n].color
                    name = COLOR_NAMES[color] if color < 4 else color
                    raise ValueError(f"two {name} pieces share an edge at {(r, c)}")
    if corner_contact:
        for n, p in enumerate(pieces):
            if not any(owner.get((r + dr, c + dc), n) != n and pieces[owner[(r + dr, c + dc)]].color == p.color
                       for r, c in p.cells for dr, dc in DIAG):
                raise ValueError(f"piece {n} ({p.shape}, color {p.color}) touches no piece of its color at a corner")


def _cell_owners(region: Region, pieces: Sequence[ColoredPiece], colors: int,
                 shapes: Sequence[Shape]) -> dict[Cell, int]:
    """Cell -> the number of the piece covering it; ValueError for a piece of a wrong colour, a shape used twice
    by a colour or unknown, a piece not of its shape, a cell outside the region or covered twice."""
    owner: dict[Cell, int] = {}
    by_name = {s.name: s for s in shapes}
    seen: set[tuple[int, str]] = set()
    for n, p in enumerate(pieces):
        if not 0 <= p.color < colors:
            raise ValueError(f"piece {n} has color {p.color}, outside 0..{colors - 1}")
        if (p.color, p.shape) in seen:
            raise ValueError(f"color {p.color} uses shape {p.shape} twice")
        seen.add((p.color, p.shape))
        shape = by_name.get(p.shape)
        if shape is None:
            raise ValueError(f"unknown shape {p.shape}")
        if Shape(frozenset(p.cells)).cells not in {o.cells for o in shape.orientations()}:
            raise ValueError(f"piece {n} ({p.shape}) does not have its shape")
        for cell in p.cells:
            if cell not in region.cells:
                raise ValueError(f"piece {n} covers {cell}, outside the region")
            if cell in owner:
                raise ValueError(f"cell {cell} covered twice")
            owner[cell] = n
    return owner


def to_tiling(region: Region, pieces: Sequence[ColoredPiece]) -> Tiling:
    """As a :class:`Tiling` for text/SVG (piece colors = Blokus colors)."""
    return Tiling(region, tuple(Placed(p.shape, p.cells, p.color) for p in pieces))


def pieces_json(pieces: Sequence[ColoredPiece]) -> dict:
    return {"pieces": [{"color": p.color, "shape": p.shape, "cells": [list(c) for c in p.cells]} for p in pieces]}


# --------------------------------------------------------------------------
# bitboard counting kernel (first empty cell, per-color forbidden masks)
# --------------------------------------------------------------------------
#
# The XCC form above is the reference model; for long counts this kernel does
# the same search ~100x cheaper per node: the board, each color's cells and
# each color's forbidden cells (edge neighbours of its pieces) are bitmasks;
# a placement of color k fits when it misses the board and k's forbidden cells.

import numpy as np  # noqa: E402
from numba import njit  # noqa: E402


@njit(cache=True, nogil=True)
def _color_count(mask, nbr, corner, color, piece, bucket, n_cells, board, occ, forb, used, pre,  # noqa: C901
                 corner_rule, stack_cell, stack_pos, stack_opt, stack_forb, max_nodes, flag):
    """Count the covers completing the given state; returns (count, nodes, stopped).

    ``pre`` are options already placed (in ``board``); with ``corner_rule`` their corner contact is
    checked at the leaves too.  With ``max_nodes`` > 0 stop after that many nodes; a non-zero
    ``flag[0]`` (:mod:`solvers.interrupt`, polled every 4,096 nodes) stops it too (``stopped`` 1:
    the count is partial).
    """
    W = board.shape[0]
    count = 0
    nodes = 0
    # first empty cell
    c = 0
    while c < n_cells and (board[c >> 6] >> np.uint64(c & 63)) & np.uint64(1):
        c += 1
    if c == n_cells:
        if corner_rule:
            for u in pre:
                hit = False
                for w in range(W):
                    if corner[u, w] & occ[color[u], w]:
                        hit = True
                if not hit:
                    return 0, 0, 0
        return 1, 0, 0
    level = 0
    stack_cell[0] = c
    stack_pos[0] = bucket[c]
    while level >= 0:
        c = stack_cell[level]
        t = stack_pos[level]
        end = bucket[c + 1]
        found = -1
        while t < end:
            if used[piece[t]] == 0:
                k = color[t]
                ok = True
                for w in range(W):
                    if mask[t, w] & (board[w] | forb[k, w]):
                        ok = False
                        break
                if ok:
                    found = t
                    break
            t += 1
        if found < 0:
            level -= 1
            if level >= 0:  # undo the option chosen at that level
                u = stack_opt[level]
                k = color[u]
                for w in range(W):
                    board[w] ^= mask[u, w]
                    occ[k, w] ^= mask[u, w]
                    forb[k, w] = stack_forb[level, w]
                used[piece[u]] = 0
            continue
        stack_pos[level] = found + 1
        k = color[found]
        nodes += 1
        if (nodes & 4095) == 0 and flag[0] != 0:
            return count, nodes, 1
        for w in range(W):
            stack_forb[level, w] = forb[k, w]
            board[w] |= mask[found, w]
            occ[k, w] |= mask[found, w]
            forb[k, w] |= nbr[found, w]
        used[piece[found]] = 1
        stack_opt[level] = found
        nc = c + 1
        while nc < n_cells and (board[nc >> 6] >> np.uint64(nc & 63)) & np.uint64(1):
            nc += 1
        if nc == n_cells:
            good = True
            if corner_rule:
                for lv in range(level + 1 + pre.shape[0]):
                    u = stack_opt[lv] if lv <= level else pre[lv - level - 1]
                    hit = False
                    for w in range(W):
                        if corner[u, w] & occ[color[u], w]:
                            hit = True
                            break
                    if not hit:
                        good = False
                        break
            if good:
                count += 1
            # undo and try the next option at this level
            for w in range(W):
                board[w] ^= mask[found, w]
                occ[k, w] ^= mask[found, w]
                forb[k, w] = stack_forb[level, w]
            used[piece[found]] = 0
            continue
        if max_nodes > 0 and nodes >= max_nodes:
            return count, nodes, 1
        level += 1
        stack_cell[level] = nc
        stack_pos[level] = bucket[nc]
    return count, nodes, 0


class BitColorCounter:
    """Compiled tables of a :class:`ColoredTilingProblem` for :func:`_color_count`."""

    def __init__(self, problem: ColoredTilingProblem) -> None:
        self.problem = problem
        n = len(problem.cells)
        W = max(1, (n + 63) // 64)
        order = sorted(range(len(problem.options)),
                       key=lambda o: min(problem.cell_index[c] for c in problem.options[o][1]))
        self.order = order
        self.rank = {o: t for t, o in enumerate(order)}
        T = len(order)
        self.mask = np.zeros((T, W), np.uint64)
        self.nbr = np.zeros((T, W), np.uint64)
        self.corner = np.zeros((T, W), np.uint64)
        self.color = np.zeros(T, np.int64)
        self.piece = np.zeros(T, np.int64)
        bucket = np.zeros(n + 2, np.int64)

        def bits(row: np.ndarray, cells) -> None:
            for cell in cells:
                i = problem.cell_index[cell]
                row[i >> 6] |= np.uint64(1) << np.uint64(i & 63)

        for t, o in enumerate(order):
            j, cells = problem.options[o]
            bits(self.mask[t], cells)
            if problem.edge_rule:
                bits(self.nbr[t], problem.edge_neighbours(cells))
            bits(self.corner[t], problem.corner_cells(cells))
            self.color[t] = problem.pieces[j][0]
            self.piece[t] = j
            bucket[min(problem.cell_index[c] for c in cells) + 1] += 1
        self.bucket = np.cumsum(bucket).astype(np.int64)
        self.n, self.W = n, W

    def count(self, prefix: Sequence[int] = (), max_nodes: int = -1) -> tuple[int, int]:
        """(tilings extending the placements ``prefix``, nodes); the prefix must be rule-consistent.

        With ``max_nodes`` > 0 the search may stop early: then nodes >= max_nodes and the count is partial.
        """
        count, nodes, _ = self.count_stoppable(prefix, max_nodes)
        return count, nodes

    def count_stoppable(self, prefix: Sequence[int] = (), max_nodes: int = -1,
                        flag: np.ndarray | None = None) -> tuple[int, int, bool]:
        """As :meth:`count`, plus whether ``max_nodes`` or the interrupt ``flag`` stopped it (count partial)."""
        p = self.problem
        board = np.zeros(self.W, np.uint64)
        occ = np.zeros((p.colors, self.W), np.uint64)
        forb = np.zeros((p.colors, self.W), np.uint64)
        used = np.zeros(len(p.pieces), np.int64)
        for o in prefix:
            t = self.rank[o]
            k = self.color[t]
            if (self.mask[t] & (board | forb[k])).any() or used[self.piece[t]]:
                return 0, 0, False
            board |= self.mask[t]
            occ[k] |= self.mask[t]
            forb[k] |= self.nbr[t]
            used[self.piece[t]] = 1
        depth = self.n + 1
        pre = np.array([self.rank[o] for o in prefix], np.int64)
        count, nodes, stopped = _color_count(
            self.mask, self.nbr, self.corner, self.color, self.piece, self.bucket, self.n, board, occ, forb, used, pre,
            p.corner_contact, np.zeros(depth, np.int64), np.zeros(depth, np.int64), np.zeros(depth, np.int64),
            np.zeros((depth, self.W), np.uint64), max_nodes, np.zeros(1, np.int64) if flag is None else flag)
        return int(count), int(nodes), bool(stopped)
