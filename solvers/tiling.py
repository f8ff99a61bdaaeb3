"""Tile a region with a multiset of polyominoes: find one, iterate, count (raw or up to symmetry).

Backends:

* ``dlx`` (default): exact cover.  Counting and enumeration run on the
  bit-parallel first-empty-cell engine (:class:`solvers.exact_cover.BitsetCover`),
  which handles piece multiplicities exactly (copies of a piece are
  interchangeable, so they are not counted twice).
* ``sat``: python-sat (Glucose 4) over one boolean per placement, cardinality
  constraints for cells and piece counts.  For one tiling, or a proof that none exists.
* ``cpsat``: OR-Tools CP-SAT over the same booleans; :meth:`TilingProblem.cpsat_model`
  hands out the model so callers can add side constraints.

Counts "up to symmetry" count orbits under the region's symmetry group: each
solution is counted only if its piece-kind grid is lexicographically smallest
among its images (exact, no hashing).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from puzzles.polyomino import (
    SQUARE_SYMMETRIES,
    Cell,
    Placed,
    Region,
    Shape,
    Tiling,
    existing_file,
    normalize,
    piece,
    piece_set,
    read_text_file,
)
from solvers.exact_cover import (
    BitsetCover,
    ExactCoverProblem,
    SearchLimits,
    SearchResult,
    build_symmetry_perms,
)

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

BACKENDS = ("dlx", "sat", "cpsat")
MAX_PLACEMENTS = 5_000_000
MAX_TABLE_BYTES = 2 * 2**30
MAX_COPIES = 10_000
MAX_TASKS = 1_000_000
DIRECTIONS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # up, right, down, left: bits of a cell label


@dataclass(frozen=True)
class CountTask:
    """One independent part of a count: options placed first (indices), and the raw tilings
    each tiling found stands for (symmetry reduction)."""

    prefix: tuple[int, ...]
    weight: int


@dataclass(frozen=True)
class TaskCount:
    """A task's result: weighted raw count, weighted stabiliser sum (|G| x orbits), nodes searched."""

    raw: int
    stabiliser_sum: int
    nodes: int
    stopped_by: str = ""


def add_task_counts(total: TaskCount, part: TaskCount) -> TaskCount:
    """The reduce step of a split count: two tasks' results added up."""
    return TaskCount(total.raw + part.raw, total.stabiliser_sum + part.stabiliser_sum, total.nodes + part.nodes,
                     total.stopped_by or part.stopped_by)


@lru_cache(maxsize=4)
def problem_from_key(key: tuple) -> TilingProblem:
    """Rebuild a problem from :meth:`TilingProblem.key` (cached per worker process)."""
    cells, height, width, pieces, free = key
    specs = [PieceSpec(Shape(frozenset(shape), name), low, high) for name, shape, low, high in pieces]
    return TilingProblem(Region(frozenset(cells), height, width), specs, free)


def count_task(payload: tuple) -> TaskCount:
    """Run one task of a split count from ``(problem key, task[, deadline])``: picklable, for worker processes.

    ``deadline`` (wall-clock seconds, :func:`time.time`) stops the task's search there; the
    result then says ``stopped_by="time_limit"`` and its counts are lower bounds.
    """
    key, task, *rest = payload
    deadline = rest[0] if rest else None
    limits = None if deadline is None else SearchLimits(time_limit=max(0.0, deadline - time.time()))
    return problem_from_key(key).run_task(task, limits)


STATUS_TEXT = {
    "proved": "proved",
    "found": "found",
    "unknown": "unknown (time limit)",
    "incomplete": "incomplete (interrupted)",
}


def answer_status(complete: bool, stopped_by: str = "", found: bool = False) -> str:
    """The status of a solver answer: ``found`` (a solution in hand), ``proved`` (exhaustive),
    ``unknown`` (a time or node limit cut the search) or ``incomplete`` (Ctrl-C)."""
    if found:
        return "found"
    if complete:
        return "proved"
    return "incomplete" if stopped_by == "interrupt" else "unknown"


@dataclass(frozen=True)
class TilingCounts:
    """Raw tilings and tilings up to the region's symmetries (orbits), from one search.

    When not ``complete`` the counts are lower bounds (``stopped_by`` says why).
    """

    raw: int
    unique: int
    complete: bool
    nodes: int
    seconds: float
    stopped_by: str = ""
    failure: str = ""
    parts_done: int = 0  # independent tasks (see TilingProblem.split) finished, earlier runs' included
    parts_total: int = 0

    @property
    def status(self) -> str:
        return answer_status(self.complete, self.stopped_by)


@dataclass(frozen=True)
class FindResult:
    """One tiling or the proof that none exists, or neither (``unknown``: a limit; ``incomplete``: Ctrl-C)."""

    tiling: Tiling | None
    status: str
    seconds: float = 0.0

    @property
    def decided(self) -> bool:
        return self.status in ("found", "proved")


@dataclass(frozen=True)
class PieceSpec:
    """A kind of piece and how many copies must be used: between ``min_count`` and ``max_count``."""

    shape: Shape
    min_count: int = 1
    max_count: int = 1

    @property
    def name(self) -> str:
        return self.shape.name


def parse_pieces(spec: str) -> list[Shape]:
    """Pieces from a set name (``pentominoes``), a comma list (``I,L,X`` or ``pentominoes:X``),
    ``blokus`` names, or several sets joined with ``+``; repeats mean copies."""
    shapes: list[Shape] = []
    for part in spec.replace("+", ",").split(","):
        token = part.strip()
        if not token:
            continue
        count = 1
        if "*" in token:
            count_text, _, token = token.partition("*")
            if not count_text.strip().isdigit():
                raise ValueError(f"bad piece count in {part!r}; write e.g. 2*tetrominoes")
            count = int(count_text)
            if count > MAX_COPIES:
                raise ValueError(f"{count} copies in {part!r}: at most {MAX_COPIES}")
        family, _, name = token.partition(":")
        if name:
            shapes += [piece(name, family)] * count
            continue
        try:
            shapes += list(piece_set(token)) * count
        except ValueError:
            shapes += [_lookup_piece(token)] * count
    if not shapes:
        raise ValueError(f"no pieces in {spec!r}")
    return shapes


def load_pieces(spec: str) -> list[Shape]:
    """Pieces from a spec (see :func:`parse_pieces`) or a file of ASCII-art blocks.

    In a file, blocks are separated by blank lines; a block may start with
    ``name: X``; blocks without a name are called P1, P2, ...; equal names are copies.
    """
    path = existing_file(spec)
    if path is None:
        return parse_pieces(spec)
    shapes = []
    text = read_text_file(path, "piece file")
    if not text.strip():
        raise ValueError(f"piece file {path} is empty")
    for number, block in enumerate(text.strip().split("\n\n"), 1):
        lines = block.strip("\n").split("\n")
        name = f"P{number}"
        if lines and lines[0].lower().startswith("name:"):
            name = lines.pop(0).split(":", 1)[1].strip()
        try:
            shapes.append(Shape.from_ascii("\n".join(lines), name))
        except ValueError as error:
            raise ValueError(f"{path.name}, piece {number}: {error}") from None
    return shapes


def _lookup_piece(name: str) -> Shape:
    for family in ("pentominoes", "tetrominoes", "blokus", "projectl", "trominoes"):
        try:
            return piece(name, family)
        except ValueError:
            continue
    raise ValueError(f"unknown piece or piece set {name!r} (sets: pentominoes, tetrominoes, trominoes, blokus, projectl, ...)")


def specs_from_shapes(shapes: Sequence[Shape], mode: str = "exact") -> list[PieceSpec]:
    """Group shapes by name into kinds; ``mode`` 'exact' (use all) or 'at_most' (use any subset)."""
    if mode not in ("exact", "at_most"):
        raise ValueError(f"unknown mode {mode!r}; use exact or at_most")
    counts: dict[str, list[Shape]] = {}
    for shape in shapes:
        group = counts.setdefault(shape.name, [])
        if group and group[0].canonical() != shape.canonical():
            raise ValueError(f"two different shapes share the name {shape.name!r}")
        group.append(shape)
    return [PieceSpec(group[0], len(group) if mode == "exact" else 0, len(group)) for group in counts.values()]


class TilingProblem:
    """A region, the kinds of pieces with their counts, and whether pieces may turn over."""

    def __init__(self, region: Region, pieces: Sequence[PieceSpec], free: bool = True) -> None:
        if not isinstance(region, Region):
            raise TypeError(f"a tiling problem takes a Region, not {type(region).__name__}: "
                            f"read a spec with Region.from_spec first")
        self.region = region
        self.pieces = list(pieces)
        self.free = free
        names = [spec.name for spec in self.pieces]
        if len(set(names)) != len(names):
            raise ValueError(f"piece kinds need distinct names, got {names}")
        for spec in self.pieces:
            if not 0 <= spec.min_count <= spec.max_count:
                raise ValueError(f"impossible counts for {spec.name}: min {spec.min_count}, max {spec.max_count}")
        self._check_size()
        self.cells: tuple[Cell, ...] = region.ordered_cells
        self.cell_index = {cell: i for i, cell in enumerate(self.cells)}
        self.options: list[tuple[int, tuple[Cell, ...]]] = [
            (kind, cells) for kind, spec in enumerate(self.pieces) for cells in region.placements(spec.shape, free)
        ]

    def _check_size(self) -> None:
        """Refuse, before any work, a problem whose placement table cannot fit in memory."""
        orientations = sum(len(spec.shape.orientations(self.free)) for spec in self.pieces if spec.max_count > 0)
        placements = orientations * self.region.area  # an upper bound
        table = placements * (self.region.area // 64 + 1) * 8
        if placements > MAX_PLACEMENTS or table > MAX_TABLE_BYTES:
            raise ValueError(
                f"problem too large: {self.region.area:,} cells and up to {placements:,} placements "
                f"(a {table / 2**30:,.1f} GiB table; the limit is {MAX_TABLE_BYTES / 2**30:.0f} GiB)")

    @classmethod
    def from_spec(cls, region: Region, pieces: str | Sequence[Shape], mode: str = "exact", free: bool = True) -> TilingProblem:
        """Convenience: ``TilingProblem.from_spec(Region.from_spec("6x10"), "pentominoes")``.  The region is a
        :class:`Region` (text is read by :meth:`Region.from_spec`, the one region parser, before it gets here)."""
        shapes = parse_pieces(pieces) if isinstance(pieces, str) else list(pieces)
        return cls(region, specs_from_shapes(shapes, mode), free)

    # -- quick necessary conditions ------------------------------------------------
    def area_feasible(self) -> bool:
        """Can the piece areas add up to the region's area at all?"""
        low = sum(s.min_count * s.shape.area for s in self.pieces)
        high = sum(s.max_count * s.shape.area for s in self.pieces)
        return low <= self.region.area <= high

    # -- exact cover ----------------------------------------------------------
    def _symmetry_tables(self) -> tuple[np.ndarray, np.ndarray]:
        """Cell maps and label maps of the region's symmetries, for canonical/stabiliser checks."""
        if not self.free:
            raise ValueError("counting up to symmetry needs free pieces (rotations and reflections allowed)")
        group = self.region.symmetries()
        forward = []
        for k in group:
            perm = self.region.cell_permutation(k)
            forward.append([self.cell_index[perm[cell]] for cell in self.cells])
        label_map = np.zeros((len(group), 16 * len(self.pieces)), np.int64)
        for g, k in enumerate(group):
            move = SQUARE_SYMMETRIES[k]
            turned = [DIRECTIONS.index(move(*step)) for step in DIRECTIONS]
            for mask in range(16):
                image = sum(1 << turned[d] for d in range(4) if mask >> d & 1)
                for kind in range(len(self.pieces)):
                    label_map[g, 16 * kind + mask] = 16 * kind + image
        return build_symmetry_perms(forward), label_map

    def _cell_labels(self, kind: int, cells: Sequence[Cell]) -> list[int]:
        """Per cell: the piece kind and which neighbours belong to the same piece (so labels fix the tiling)."""
        own = set(cells)
        return [
            16 * kind + sum(1 << d for d, (dr, dc) in enumerate(DIRECTIONS) if (r + dr, c + dc) in own)
            for r, c in cells
        ]

    def cover(self, unique: bool = False) -> BitsetCover:
        """The compiled exact-cover search for this problem."""
        options = [(kind, [self.cell_index[c] for c in cells]) for kind, cells in self.options]
        return BitsetCover(
            len(self.cells),
            options,
            [s.min_count for s in self.pieces],
            [s.max_count for s in self.pieces],
            symmetry=(*self._symmetry_tables(), [self._cell_labels(k, c) for k, c in self.options]) if unique else None,
            mode=1 if unique else 0,
        )

    def exact_cover_problem(self) -> ExactCoverProblem:
        """The same problem as a generic XCC instance (cells primary, pieces primary or secondary).

        Only for problems where every kind has at most one copy.
        """
        if any(s.max_count > 1 for s in self.pieces):
            raise ValueError("the generic exact-cover form needs at most one copy of each piece")
        cell_names = [f"r{r}c{c}" for r, c in self.cells]
        primary = cell_names + [s.name for s in self.pieces if s.min_count == 1]
        secondary = [s.name for s in self.pieces if s.min_count == 0]
        options = [[self.pieces[k].name] + [f"r{r}c{c}" for r, c in cells] for k, cells in self.options]
        return ExactCoverProblem(primary, options, secondary)

    def count(self, unique: bool = False, limits: SearchLimits | None = None) -> SearchResult:
        """Number of tilings (raw, or one per symmetry class with ``unique``)."""
        counts = self.counts(limits)
        return SearchResult(counts.unique if unique else counts.raw, counts.complete, counts.nodes, counts.seconds, counts.stopped_by)

    def counts(
        self,
        limits: SearchLimits | None = None,
        reduce_symmetry: bool = True,
        on_part: Callable[[int, int], None] | None = None,
        split_depth: int = 0,
        executor: Executor | None = None,
        checkpoint: Path | None = None,
        repair: bool = False,
        verify: int = 0,
    ) -> TilingCounts:
        """Raw count and count up to the region's symmetries, from one search.

        With free pieces, a non-trivial symmetry group and a piece used exactly
        once, that piece is restricted to one placement per symmetry orbit and
        each tiling found stands for |G|/|Stab(placement)| raw tilings (the
        search shrinks about |G|-fold); orbits are counted exactly from the
        tilings' stabilisers (Burnside-style weighting, no hashing).

        The search runs as independent tasks (:meth:`split`); ``on_part(done,
        total)`` reports them.  With an ``executor`` (see :mod:`solvers.parallel`)
        they run there, optionally checkpointed; the time limit of ``limits``
        applies there too (node limits only in this process).  A count cut short
        is a lower bound with ``complete`` false and ``stopped_by`` saying why.
        Checkpoint lines are checked (checksum, job, :meth:`check_task_record`); ``repair`` drops bad
        ones (their tasks run again), ``verify`` recomputes that many random finished tasks first.
        """
        if not self.area_feasible():
            return TilingCounts(0, 0, True, 0, 0.0)
        limits = limits or SearchLimits()
        tasks = self.split(split_depth, reduce_symmetry)
        failure = ""
        if executor is not None:
            from solvers.parallel import run_tasks

            deadline = None if limits.time_limit is None else time.time() + limits.time_limit - limits.elapsed()
            report = run_tasks(
                count_task, _TaskPayloads(self.key(), tasks, deadline), add_task_counts, TaskCount(0, 0, 0),
                executor, progress=on_part, checkpoint=checkpoint,
                encode=lambda part: [part.raw, part.stabiliser_sum, part.nodes], decode=lambda data: TaskCount(*data),
                job=self.job_id(split_depth, reduce_symmetry),
                stop=None if deadline is None else lambda: time.time() >= deadline,
                final=lambda part: not part.stopped_by,
                check=lambda index, data: self.check_task_record(tasks[index], data),
                repair=repair, verify=verify,
            )
            total, complete, failure, finished = report.value, report.complete, report.failure, report.done
            stopped_by = {"": "", "interrupt": "interrupt", "stop": "time_limit", "lost": "lost"}[report.stopped_by]
            if not complete and not stopped_by:
                stopped_by = "time_limit"
        else:
            total, complete, stopped_by, finished = TaskCount(0, 0, 0), True, "", 0
            try:
                for done, task in enumerate(tasks, 1):
                    part = self.run_task(task, limits.remaining(total.nodes))
                    total = add_task_counts(total, part)
                    if part.stopped_by:
                        complete, stopped_by = False, part.stopped_by
                        break
                    finished = done
                    if limits.expired() and done < len(tasks):
                        complete, stopped_by = False, "time_limit"
                        break
                    if on_part is not None:
                        on_part(done, len(tasks))
            except KeyboardInterrupt:  # between two tasks: the finished ones count
                complete, stopped_by = False, "interrupt"
        group_size = len(self._group())
        unique, remainder = divmod(total.stabiliser_sum, group_size)
        if complete and remainder:
            if checkpoint is not None:  # every line passed its checks: a forged one (its checksum made to fit)
                raise ValueError(f"{checkpoint}: the parts' symmetry sums do not make whole orbits (a forged line?); "
                                 "--verify N recomputes N random parts, or delete the file to count again")
            raise AssertionError("orbit count is not an integer: symmetry weighting is broken")
        return TilingCounts(total.raw, unique, complete, total.nodes, limits.elapsed(), stopped_by, failure,
                            finished, len(tasks))

    def _group(self) -> list[int]:
        return self.region.symmetries() if self.free else [0]

    def check_task_record(self, task: CountTask, data: Any) -> None:
        """Refuse (ValueError) a stored task result ``[raw, stabiliser sum, nodes]`` that no search can give.

        Sound bounds, whatever the region: the tilings found are ``raw / weight`` (a whole number), at
        most one per search node (at most one when the prefix fills the region: no node), and each
        tiling's stabiliser (identity included) has between 1 and |G| elements."""
        if not isinstance(data, list) or len(data) != 3 or not all(type(x) is int for x in data):
            raise ValueError(f"result {_short_json(data)} is not three whole numbers [raw, stabiliser sum, nodes]")
        raw, stabiliser, nodes = data
        if min(data) < 0:
            raise ValueError(f"negative count in {data}")
        tilings, rest = divmod(raw, task.weight)
        if rest or stabiliser % task.weight:
            raise ValueError(f"counts {data} are not multiples of the part's weight {task.weight}")
        if tilings > max(nodes, 1):
            raise ValueError(f"{tilings:,} tilings from {nodes:,} search nodes is impossible")
        if not raw <= stabiliser <= len(self._group()) * raw:
            raise ValueError(f"stabiliser sum {stabiliser:,} is outside [raw, |G| x raw] = [{raw:,}, "
                             f"{len(self._group()) * raw:,}]")

    def key(self) -> tuple:
        """A picklable description from which :func:`problem_from_key` rebuilds this exact problem."""
        pieces = tuple((s.name, tuple(sorted(s.shape.cells)), s.min_count, s.max_count) for s in self.pieces)
        return (tuple(sorted(self.region.cells)), self.region.height, self.region.width, pieces, self.free)

    def job_id(self, depth: int, reduce_symmetry: bool) -> str:
        """A short name for a split count of this problem (checkpoint files carry it)."""
        digest = hashlib.sha256(repr((self.key(), depth, reduce_symmetry)).encode()).hexdigest()[:16]
        return f"tiling-count-{digest}"

    def split(self, depth: int = 0, reduce_symmetry: bool = True) -> list[CountTask]:
        """Independent counting tasks: anchor orbit representatives, then every way to fill the
        first empty cell, ``depth`` times.  Dead branches are dropped (they hold no tiling)."""
        if depth < 0:
            raise ValueError(f"split depth must be >= 0, got {depth}")
        group = self._group()
        anchor = self._anchor_kind() if reduce_symmetry and len(group) > 1 else None
        if anchor is None:
            tasks = [CountTask((), 1)]
        else:
            perms = [self.region.cell_permutation(g) for g in group]
            tasks = []
            for index, (kind, cells) in enumerate(self.options):
                if kind != anchor:
                    continue
                images = [tuple(sorted(perm[c] for c in cells)) for perm in perms]
                if min(images) == cells:
                    tasks.append(CountTask((index,), len(group) // sum(image == cells for image in images)))
        for _ in range(min(depth, len(self.cells))):  # deeper than the cell count changes nothing
            tasks = [child for task in tasks for child in self._expand(task)]
            if len(tasks) > MAX_TASKS:
                raise ValueError(f"split depth {depth} gives over {MAX_TASKS:,} subproblems; use a smaller --split-depth")
        return tasks

    def _expand(self, task: CountTask) -> list[CountTask]:
        """Children of a task: each option that can cover its first empty cell (itself if full)."""
        filled = {self.cell_index[c] for i in task.prefix for c in self.options[i][1]}
        first = next((i for i in range(len(self.cells)) if i not in filled), None)
        if first is None:
            return [task]
        used = [0] * len(self.pieces)
        for i in task.prefix:
            used[self.options[i][0]] += 1
        children = []
        for index in self._options_by_first_cell()[first]:
            kind, cells = self.options[index]
            if used[kind] < self.pieces[kind].max_count and filled.isdisjoint(self.cell_index[c] for c in cells):
                children.append(CountTask(task.prefix + (index,), task.weight))
        return children

    def _options_by_first_cell(self) -> list[list[int]]:
        if not hasattr(self, "_by_first"):
            self._by_first: list[list[int]] = [[] for _ in self.cells]
            for index, (_, cells) in enumerate(self.options):
                self._by_first[min(self.cell_index[c] for c in cells)].append(index)
        return self._by_first

    def run_task(self, task: CountTask, limits: SearchLimits | None = None) -> TaskCount:
        """Count one task: its prefix placed, the rest searched; weighted raw and stabiliser sums."""
        limits = limits or SearchLimits()
        cover, symmetric = self._task_cover()
        kind_min = [s.min_count for s in self.pieces]
        kind_max = [s.max_count for s in self.pieces]
        prefilled = []
        for i in task.prefix:
            kind, cells = self.options[i]
            kind_min[kind] = max(0, kind_min[kind] - 1)
            kind_max[kind] -= 1
            for cell, label in zip(cells, self._cell_labels(kind, cells), strict=True):  # one label per cell
                prefilled.append(self.cell_index[cell])
                if symmetric:
                    cover.symmetry.grid[self.cell_index[cell]] = label
        cover.reset(prefilled, kind_min, kind_max)
        result = cover.count(limits)
        stabiliser = cover.stabiliser_sum if symmetric else result.count
        return TaskCount(task.weight * result.count, task.weight * stabiliser, result.nodes,
                         "" if result.complete else result.stopped_by or "stopped")

    def _task_cover(self) -> tuple[BitsetCover, bool]:
        """One compiled search over all options, reset for each task (built once per problem and thread).

        The search state is mutable, so threads (e.g. a Dask worker with several
        threads) never share one: a shared cover would mix two tasks' counts.
        """
        covers: dict[int, tuple[BitsetCover, bool]] = self.__dict__.setdefault("_covers_by_thread", {})
        thread = threading.get_ident()
        if thread not in covers:
            symmetric = len(self._group()) > 1
            symmetry = None
            if symmetric:
                perm_table, label_map = self._symmetry_tables()
                symmetry = (perm_table, label_map, [self._cell_labels(k, cells) for k, cells in self.options])
            options = [(k, [self.cell_index[c] for c in cells]) for k, cells in self.options]
            cover = BitsetCover(len(self.cells), options, [s.min_count for s in self.pieces],
                                [s.max_count for s in self.pieces], symmetry=symmetry, mode=2 if symmetric else 0)
            covers[thread] = (cover, symmetric)
        return covers[thread]

    def _anchor_kind(self) -> int | None:
        """The piece kind to pin to orbit representatives: used exactly once, most symmetric, largest."""
        candidates = [k for k, s in enumerate(self.pieces) if s.min_count == s.max_count == 1]
        if not candidates:
            return None
        return max(candidates, key=lambda k: (-len(self.pieces[k].shape.orientations()), self.pieces[k].shape.area, -k))

    def tilings(self, limits: SearchLimits | None = None, unique: bool = False) -> Iterator[Tiling]:
        """Every tiling in search order (one per symmetry class with ``unique``), each verified."""
        limits = limits or SearchLimits()
        if not self.area_feasible():
            return
        for solution in self.cover(unique).solutions(limits):
            yield self._checked(self.to_tiling(solution))

    def to_tiling(self, option_indices: Sequence[int]) -> Tiling:
        placed = []
        for i in option_indices:
            kind, cells = self.options[i]
            placed.append(Placed(self.pieces[kind].name, cells))
        return Tiling(self.region, tuple(placed))

    def _checked(self, tiling: Tiling) -> Tiling:
        verify_tiling(self, tiling)
        return tiling

    # -- find one, any backend ---------------------------------------------------
    def find(self, backend: str = "dlx", time_limit: float | None = None, workers: int = 2, seed: int = 0) -> Tiling | None:
        """One verified tiling, or None when none exists (proved).

        Raises TimeoutError when the time limit ran out first, KeyboardInterrupt on Ctrl-C:
        an undecided search never reads as "no tiling".  :meth:`search` returns the status instead.
        """
        result = self.search(backend, time_limit, workers, seed)
        if result.status == "unknown":
            raise TimeoutError(f"no answer within the time limit ({time_limit} s): the search was not finished")
        if result.status == "incomplete":
            raise KeyboardInterrupt
        return result.tiling

    def search(self, backend: str = "dlx", time_limit: float | None = None, workers: int = 2,
               seed: int = 0) -> FindResult:
        """Look for one verified tiling; the answer says ``found``, ``proved`` (none exists),
        ``unknown`` (the time limit ran out) or ``incomplete`` (Ctrl-C)."""
        if backend not in BACKENDS:
            raise ValueError(f"unknown backend {backend!r}; use one of {', '.join(BACKENDS)}")
        started = time.perf_counter()
        if not self.area_feasible():
            return FindResult(None, "proved", 0.0)
        if backend == "dlx":
            limits = SearchLimits(time_limit=time_limit)
            if not self.options:
                return FindResult(None, "proved", limits.elapsed())
            cover = self.cover()
            try:
                solution = next(cover.solutions(limits), None)
            except KeyboardInterrupt:
                return FindResult(None, "incomplete", limits.elapsed())
            if solution is not None:
                return FindResult(self._checked(self.to_tiling(solution)), "found", limits.elapsed())
            return FindResult(None, answer_status(cover.stopped_by == "", cover.stopped_by), limits.elapsed())
        if backend == "sat":
            chosen, status = self._find_sat(time_limit)
        else:
            model, variables = self.cpsat_model()
            chosen, status = cpsat_solve(model, variables, time_limit, workers, seed)
        tiling = None if chosen is None else self._checked(self.to_tiling(chosen))
        return FindResult(tiling, status, time.perf_counter() - started)

    def cpsat_model(self) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
        """A CP-SAT model with one boolean per placement; returns (model, placement variables)."""
        from ortools.sat.python import cp_model

        model = cp_model.CpModel()
        variables = [model.new_bool_var(f"p{i}") for i in range(len(self.options))]
        for cell_vars in self._cell_options():
            model.add_exactly_one(variables[i] for i in cell_vars)
        for kind, spec in enumerate(self.pieces):
            total = sum(variables[i] for i, (k, _) in enumerate(self.options) if k == kind)
            model.add(total >= spec.min_count)
            model.add(total <= spec.max_count)
        return model, variables

    def _cell_options(self) -> list[list[int]]:
        by_cell: list[list[int]] = [[] for _ in self.cells]
        for i, (_, cells) in enumerate(self.options):
            for cell in cells:
                by_cell[self.cell_index[cell]].append(i)
        return by_cell

    def _find_sat(self, time_limit: float | None = None) -> tuple[list[int] | None, str]:
        """Glucose 4 on the placement booleans: (chosen options or None, status).

        The time limit covers building the formula too (it can take longer than solving).  Building and
        solving run in a forked child process (:func:`_sat_tiling_child`) that is killed at the time limit
        or on Ctrl-C (status ``unknown`` / ``incomplete``; :func:`solvers.interrupt.call_in_child`): python-sat's cardinality encoders hold the GIL
        for up to a second per constraint and never look at an interrupt, so a solver thread could only be
        abandoned between two of them (2-3 s after Ctrl-C on a loaded machine); a killed child is gone at once.
        """
        from solvers.interrupt import call_in_child

        try:
            kind, value = cast(tuple[str, Any], call_in_child(_sat_tiling_child, (self, time_limit), time_limit))
        except TimeoutError:
            return None, "unknown"
        except KeyboardInterrupt:
            return None, "incomplete"
        if kind == "error":
            raise RuntimeError(value)
        return cast(tuple[list[int] | None, str], value)

    def _sat_search(self, late: Callable[[], bool], running: list[Any]) -> tuple[list[int] | None, str]:
        """Encode (exactly one option per cell, each piece's count bounds) straight into Glucose 4, then solve."""
        from pysat.card import CardEnc, EncType
        from pysat.formula import IDPool
        from pysat.solvers import Solver

        pool = IDPool(start_from=len(self.options) + 1)
        with Solver(name="glucose4") as solver:
            running.append(solver)
            try:
                for cell_vars in self._cell_options():
                    lits = [i + 1 for i in cell_vars]
                    if not lits:
                        return None, "proved"
                    solver.append_formula(CardEnc.equals(lits=lits, bound=1, vpool=pool, encoding=EncType.seqcounter).clauses)
                    if late():
                        return None, "unknown"
                for kind, spec in enumerate(self.pieces):
                    lits = [i + 1 for i, (k, _) in enumerate(self.options) if k == kind]
                    if spec.min_count > len(lits):
                        return None, "proved"
                    if spec.min_count > 0:
                        solver.append_formula(CardEnc.atleast(lits=lits, bound=spec.min_count, vpool=pool,
                                                              encoding=EncType.seqcounter).clauses)
                    if spec.max_count < len(lits):
                        solver.append_formula(CardEnc.atmost(lits=lits, bound=spec.max_count, vpool=pool,
                                                             encoding=EncType.seqcounter).clauses)
                    if late():
                        return None, "unknown"
                answer = None if late() else solver.solve_limited(expect_interrupt=True)
            finally:
                running.clear()
            if answer is None:
                return None, "unknown"
            if not answer:
                return None, "proved"
            model = set(lit for lit in solver.get_model() if lit > 0)
        return [i for i in range(len(self.options)) if i + 1 in model], "found"


def _sat_tiling_child(problem: TilingProblem, time_limit: float | None, send: Any) -> None:
    """:meth:`TilingProblem._sat_search` in :meth:`~TilingProblem._find_sat`'s child; sends ("ok", result) or
    ("error", message).  A terminal's Ctrl-C reaches the child too: it is ignored (the parent kills it)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    try:
        result = problem._sat_search(lambda: deadline is not None and time.monotonic() >= deadline, [])
    except Exception as error:  # noqa: BLE001 - reported by the parent, in one line
        send.send(("error", f"SAT search failed: {type(error).__name__}: {error}"))
        return
    send.send(("ok", result))


def _run_interruptible(work: Callable[[], object], interrupt: Callable[[], object],
                       time_limit: float | None) -> tuple[object, str]:
    """Run a native solver call in a thread so that Ctrl-C and a time limit can stop it.

    Returns (its result, "") or (None, "unknown") at the time limit, (None, "incomplete") on Ctrl-C
    (``interrupt()`` is called then; the solver must return promptly).

    Waits on an event, never ``Thread.join`` with a timeout: a Ctrl-C inside ``join`` can leave Python
    believing the thread has ended, and the process then exits under the native solver's running
    threads (C++ ``terminate called without an active exception``).  After ``interrupt()`` the call
    is waited for to its end (a second Ctrl-C exits at once with status 130).
    """
    box: dict[str, object] = {}
    done = threading.Event()

    def target() -> None:
        try:
            box["result"] = work()
        except BaseException as error:  # noqa: BLE001 - re-raised in the caller's thread
            box["error"] = error
        finally:
            done.set()

    thread = threading.Thread(target=target, name="kibitz-solver", daemon=True)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    status = ""
    thread.start()
    try:
        while not done.wait(0.05):
            if deadline is not None and time.monotonic() >= deadline and not status:
                status = "unknown"
                interrupt()
    except KeyboardInterrupt:
        status = "incomplete"
        interrupt()
        _wait_after_interrupt(done)
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    if status or box.get("result") is None:
        return None, status or "unknown"
    return box["result"], ""


def _wait_after_interrupt(done: threading.Event) -> None:
    """Wait for a stopped native call to return; a second Ctrl-C meanwhile exits now (status 130)."""
    try:
        while not done.wait(0.05):
            pass
    except KeyboardInterrupt:
        sys.stderr.write("\ninterrupted twice: exiting now\n")
        os._exit(130)


def cpsat_solve(model: cp_model.CpModel, variables: Sequence[cp_model.IntVar], time_limit: float | None,
                workers: int, seed: int) -> tuple[list[int] | None, str]:
    """Solve a CP-SAT model: (indices of the true ``variables`` or None, status).

    Status ``found``, ``proved`` (infeasible), ``unknown`` (time limit) or ``incomplete`` (Ctrl-C).
    """
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = seed
    solver.parameters.catch_sigint_signal = False
    if time_limit:
        solver.parameters.max_time_in_seconds = time_limit
    answer, stopped = _run_interruptible(lambda: solver.solve(model), solver.stop_search, None)
    if answer in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return [i for i, v in enumerate(variables) if solver.value(v)], "found"
    if answer == cp_model.INFEASIBLE:
        return None, "proved"
    if answer == cp_model.MODEL_INVALID:
        raise ValueError("CP-SAT says the model is invalid")
    return None, stopped or "unknown"


def solve_cpsat(model: cp_model.CpModel, variables: Sequence[cp_model.IntVar], time_limit: float | None, workers: int,
                seed: int) -> list[int] | None:
    """Solve a CP-SAT model; the indices of the true ``variables``, None if infeasible.

    Raises TimeoutError when the time limit ran out before CP-SAT decided, KeyboardInterrupt on Ctrl-C.
    """
    chosen, status = cpsat_solve(model, variables, time_limit, workers, seed)
    if status == "unknown":
        raise TimeoutError("CP-SAT stopped before deciding (time limit)")
    if status == "incomplete":
        raise KeyboardInterrupt
    return chosen


def _short_json(value: Any) -> str:
    """A stored value for an error line, cut to 60 characters."""
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


class _TaskPayloads(Sequence[tuple]):
    """``(problem key, task, deadline)`` per task, made on demand (no copy of the key per task)."""

    def __init__(self, key: tuple, tasks: Sequence[CountTask], deadline: float | None) -> None:
        self.key, self.tasks, self.deadline = key, tasks, deadline

    def __len__(self) -> int:
        return len(self.tasks)

    def __getitem__(self, index):  # type: ignore[no-untyped-def, override]
        return (self.key, self.tasks[index], self.deadline)


def verify_tiling(problem: TilingProblem, tiling: Tiling) -> None:
    """Independent check: cells covered exactly once, shapes right, counts within bounds."""
    tiling.verify()
    by_name = {spec.name: spec for spec in problem.pieces}
    used: dict[str, int] = {}
    for placed in tiling.pieces:
        spec = by_name.get(placed.name)
        if spec is None:
            raise ValueError(f"tiling uses a piece not asked for: {placed.name}")
        shapes = {o.cells for o in spec.shape.orientations(problem.free)}
        if normalize(frozenset(placed.cells)) not in shapes:  # a disconnected piece matches no orientation
            raise ValueError(f"piece {placed.name} is not placed in one of its allowed orientations")
        used[placed.name] = used.get(placed.name, 0) + 1
    for spec in problem.pieces:
        if not spec.min_count <= used.get(spec.name, 0) <= spec.max_count:
            raise ValueError(f"{spec.name} used {used.get(spec.name, 0)} times, allowed {spec.min_count}..{spec.max_count}")
