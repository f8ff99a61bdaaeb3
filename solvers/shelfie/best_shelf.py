"""The perfect shelf: the highest final score one bookshelf can reach (CP-SAT, proven optimal).

Given a personal goal card and the pair of common goals, find a bookshelf (tiles obey gravity,
at most 22 of a type) maximising

    adjacency points + personal goal points + common goal tokens + end-game token.

Decisions (the best case for the shelf's owner): each common goal met is worth its top token (8 by
default, ``token_values`` to change), and a full shelf takes the end-game token (+1).  A shelf need
not be full (STAIRCASE cannot be met by a full shelf).

Model (exact up to one lazily cut over-count)
---------------------------------------------
One-hot type per cell (or empty), gravity per column, ``same`` literals for same-type neighbours.
Groups are a partition of the tiles into selected polyomino placements (all 3,276 connected sets of
1..6 cells): a placement of 1..5 cells is exactly one group (inner edges same-type, boundary edges
not); a group of 6 or more tiles (8 points) is a 6-cell "core" plus "extension" tiles whose
same-type neighbours are core or extension tiles.  Every real shelf is representable with its true
adjacency, group counts and goal witnesses, so the model is a relaxation; the only over-count, two
cores joined through extension tiles, is cut off when a solution shows it (the shelf is re-scored
with the scoring functions of :mod:`puzzles.shelfie.rules`, i.e. the kernel, every time).  Counting cuts: one
group per type present, groups per type (through each group's first cell), at most 6 tiles per
group of a type without extensions, the exact table ``A <= UB[groups][tiles]``.

Proof by pieces
---------------
A plain maximisation leaves a gap of a few points, so the search is split by where the points
come from: a piece fixes the tier (exact number of personal matches, which goals are counted,
full or not) and the scoring-group profile (numbers of groups of 3, 4, 5 and 6+ tiles); its
potential is the exact score of its shelves.  Pieces that cannot fit (tiles, 20 for a staircase,
or one group per distinct matched type, or the groups a goal needs) are dropped by counting.  The
rest are solved as feasibility problems ("score >= best + 1") from the highest potential down.  A
shelf found is optimal as soon as every piece of higher potential was proven INFEASIBLE.
``workers`` pieces run side by side, each as one single-threaded CP-SAT run without LP (faster on
most pieces; ``_RACE = [2, 0]`` would race an LP run against it on the same piece), with presolve
effort capped (``PROBING``, ``CLIQUE``): with CP-SAT's defaults, probing and clique merging take
about half of each piece's time.

The model, its proof pieces and the stored lemmas live in :mod:`solvers.shelfie.model`.

Goal lemmas (:mod:`solvers.shelfie.goal_bounds`): for a few goal pairs, facts about every shelf that
meets both goals, proven once by CP-SAT with no personal card and stored with the package ("meeting
TWO_COLUMNS_ALL_DIFFERENT and X_SHAPE, a shelf scores at most 32 adjacency points and never has these
group profiles").  They drop the pieces they rule out before any is solved: two all-different
columns fight big groups (a group meets each of them once at most), which is slow to refute piece
by piece for every card.

A short hill climb gives an incumbent first, so a tiny time limit still returns a shelf.
With no time limit the search runs until the shelf is proven optimal.  When time runs out or Ctrl-C
stops it, ``optimal`` is False, ``bound`` is the highest unresolved potential and ``status`` says why
(``TIME_LIMIT`` or ``INTERRUPTED``); the best shelf found is kept.  CP-SAT's own SIGINT handler is off
(``catch_sigint_signal``): with several solves in threads it aborted the process on Ctrl-C.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model

from puzzles.shelfie.rules import (
    COLS,
    EMPTY,
    END_GAME_TOKEN,
    NUM_TYPES,
    ROWS,
    Bookshelf,
    adjacency_points,
    check_goal_key,
    common_goal_met,
    personal_goal_points,
)
from solvers.parallel import defer_interrupts
from solvers.shelfie.model import (
    CLIQUE,
    PROBING,
    N,
    build_model,
    card_cells,
    cut_shared_groups,
    goal_lemmas,
    restrict,
    tasks,
)


@dataclass
class BestShelf:
    """A perfect-shelf result: the shelf, its score breakdown and the solver's status."""

    personal: int | None
    goals: tuple[str, str]
    shelf: Bookshelf
    score: int
    breakdown: dict[str, int]
    optimal: bool
    bound: float
    seconds: float
    status: str
    goals_met: dict[str, bool] = field(default_factory=dict)
    pieces: int = 0  # CP-SAT pieces solved for the proof
    seed: int = 0
    time_limit: float | None = None

    @property
    def interrupted(self) -> bool:
        return self.status == "INTERRUPTED"

    def verdict(self) -> str:
        """The answer's status in words: ``optimal``, or ``best found, bound B`` (and why it stopped)."""
        if self.optimal:
            return "optimal"
        why = "interrupted" if self.interrupted else f"time limit {self.time_limit:g} s"
        return f"best found, bound {self.bound:g} ({why})"

    def to_json(self) -> dict[str, Any]:
        return {
            "personal": self.personal,
            "goals": list(self.goals),
            "shelf": self.shelf.rows(),
            "score": self.score,
            "breakdown": self.breakdown,
            "goals_met": self.goals_met,
            "optimal": self.optimal,
            "bound": self.bound,
            "seconds": round(self.seconds, 3),
            "status": self.status,
            "verdict": self.verdict(),
            "interrupted": self.interrupted,
            "pieces": self.pieces,
            "seed": self.seed,
            "time_limit": self.time_limit,
        }


def best_shelf(
    personal: int | None,
    goals: tuple[str, str] | list[str],
    *,
    token_values: tuple[int, int] = (8, 8),
    end_token: bool = True,
    squares_inside_groups: bool = False,
    squares_same_type: bool = False,
    time_limit: float | None = 30.0,
    workers: int = 2,
    seed: int = 0,
    min_score: int | None = None,
    goal_bounds: bool = True,
    progress: Callable[[int | None, float, int, int], None] | None = None,
) -> BestShelf:
    """Solve the perfect-shelf problem for personal card ``personal`` and two common goal keys.

    ``personal=None`` leaves the personal goal out (used to prove the goal lemmas).  ``goal_bounds``
    uses the stored, CP-SAT-proven lemmas of :mod:`solvers.shelfie.goal_bounds` (the most adjacency
    a shelf meeting some goals can score, group profiles it cannot have) to drop pieces.
    ``time_limit=None`` runs until proven; ``workers`` = CP-SAT threads (pieces solved side by side).
    ``progress(best_score, bound, pieces_done, pieces_open)`` is called as pieces finish.  Ctrl-C
    stops the solvers and returns the best shelf so far (``status="INTERRUPTED"``).
    """
    card_cells(personal)  # validates
    keys = tuple(check_goal_key(g) for g in goals)
    if len(keys) != 2 or keys[0] == keys[1]:
        raise ValueError(f"give two different common goals, got {keys!r}")
    goals = (keys[0], keys[1])
    start = time.perf_counter()
    options = {"squares_inside_groups": squares_inside_groups, "squares_same_type": squares_same_type}
    m, x, objective, fixed_parts, hexes, same = build_model(
        personal, goals, token_values, end_token, squares_inside_groups, squares_same_type)
    if min_score is not None:
        m.add(objective >= min_score)

    def rescore(grid: list[list[int]]) -> tuple[Bookshelf, int, dict[str, int], dict[str, bool]]:
        return _rescore(grid, personal, goals, token_values, end_token, options)

    # Split the shelves by where their points come from: tier (personal matches, goals met, full
    # shelf) x scoring-group profile (groups of 3, 4, 5 and 6+ tiles).  A piece's potential is the
    # most its shelves can score.  Going through the pieces from the highest potential down, a
    # shelf found that reaches every remaining potential is optimal: each piece above it was shown
    # empty (INFEASIBLE) by CP-SAT.  Each piece is a small, tightly counted feasibility problem,
    # solved single-threaded; ``workers`` pieces run side by side.
    floor = 0 if min_score is None else min_score
    best = None
    if min_score is None:  # a quick incumbent, so that even a tiny time limit returns a shelf
        quick = 0.25 if time_limit is None else min(0.25, 0.05 * time_limit)
        best = rescore(_local_search(rescore, personal, goals, quick, seed))
    lemmas = goal_lemmas(squares_inside_groups, squares_same_type) if goal_bounds else {}
    pending = sorted(t for t in tasks(personal, token_values, end_token, goals, squares_inside_groups, lemmas)
                     if t[0] >= floor)  # pop() takes the highest potential
    search = _PieceSearch(m, x, objective, fixed_parts, hexes, same, rescore, pending, floor, best,
                          workers, time_limit, start, seed, progress)
    search.run()
    return search.result(personal, goals)


def _rescore(grid: list[list[int]], personal: int | None, goals: tuple[str, str], token_values: tuple[int, int],
             end_token: bool, options: dict[str, bool]) -> tuple[Bookshelf, int, dict[str, int], dict[str, bool]]:
    """A shelf's true score by the scoring API (the kernel): (shelf, score, breakdown, goals met)."""
    shelf = Bookshelf(grid)
    shelf.validate()
    met = {key: common_goal_met(key, shelf, **options) for key in goals}
    breakdown = {
        "adjacency": adjacency_points(shelf),
        "personal_goal": personal_goal_points(personal, shelf) if personal is not None else 0,
        "common_goals": sum(v for v, key in zip(token_values, goals) if met[key]),
        "end_token": END_GAME_TOKEN if end_token and shelf.is_full() else 0,
    }
    return shelf, sum(breakdown.values()), breakdown, met


def _decode(solver: cp_model.CpSolver, x: list[list[Any]]) -> list[list[int]]:
    """The shelf grid of a CP-SAT solution."""
    grid = [[EMPTY] * COLS for _ in range(ROWS)]
    for i in range(N):
        for t in range(NUM_TYPES):
            if solver.boolean_value(x[i][t]):
                grid[i // COLS][i % COLS] = t
    return grid


_DECIDED = (cp_model.INFEASIBLE, cp_model.OPTIMAL, cp_model.FEASIBLE)


class _PieceSearch:
    """The proof by pieces of one :func:`best_shelf` call: the pieces left (``pending``, highest
    potential last), the CP-SAT runs going (``running``), the best shelf so far.

    Each piece runs single-threaded; with several configurations in ``_RACE`` they race on one piece
    and the first answer stops the others (``races``: race id -> [potential, key, runs still going,
    settled]).
    """

    def __init__(self, model: cp_model.CpModel, x: list[list[Any]], objective: Any, fixed_parts: dict[str, Any],
                 hexes: dict[Any, Any], same: dict[Any, Any], rescore: Callable[[list[list[int]]], Any],
                 pending: list[tuple[int, tuple]], floor: int, best: Any, workers: int, time_limit: float | None,
                 start: float, seed: int, progress: Callable[[int | None, float, int, int], None] | None) -> None:
        self.model, self.x, self.objective, self.fixed_parts = model, x, objective, fixed_parts
        self.hexes, self.same, self.rescore = hexes, same, rescore
        self.pending, self.floor, self.best = pending, floor, best
        self.configs = _RACE[:max(1, min(len(_RACE), workers))]
        self.slots = max(1, workers)
        self.time_limit, self.start, self.seed, self.progress = time_limit, start, seed, progress
        self.running: dict[Future, tuple[int, tuple, cp_model.CpSolver, int]] = {}
        self.races: dict[int, list] = {}
        self.pieces = 0
        self.finished = 0
        self.timed_out = False
        self.interrupted = False

    def top(self) -> int:
        return self.best[1] if self.best else self.floor - 1

    def left(self) -> float:
        return math.inf if self.time_limit is None else self.time_limit - (time.perf_counter() - self.start)

    def report(self) -> None:
        if self.progress is not None:
            top = self.best[1] if self.best else None
            opens = [p for p in [p for p, _ in self.pending] + [p for p, *_ in self.running.values()]
                     if top is None or p > top]
            bound = max(opens + ([top] if top is not None else [0]))
            self.progress(top, float(bound), self.finished, len(opens))

    def stop_all(self) -> None:
        for _, _, solver, _ in self.running.values():
            solver.stop_search()

    def run(self) -> None:
        """Solve pieces until the best shelf is proven, time runs out or Ctrl-C stops it."""
        pool = ThreadPoolExecutor(max_workers=self.slots)
        with defer_interrupts() as deferred:  # Ctrl-C is raised between waits, never inside one
            try:
                while self.step(pool, deferred):
                    pass
            except KeyboardInterrupt:  # stop cleanly: the best shelf so far, unproven, its bound kept
                self.interrupted = True
                self.stop_all()
                wait(list(self.running))
            finally:
                pool.shutdown(wait=True, cancel_futures=True)

    def step(self, pool: ThreadPoolExecutor, deferred: Any) -> bool:
        """Drop what cannot beat the best, start pieces, take the answers that come; False when done."""
        top = self.top()
        for potential, _, solver, _ in self.running.values():
            if potential <= top:
                solver.stop_search()  # nothing better can come from it
        while self.pending and self.pending[-1][0] <= top:
            self.pending.pop()
        while self.pending and len(self.running) + len(self.configs) <= self.slots and self.left() > 0.05:
            self.launch(pool, top)
        if not self.running:
            return False
        wait_s = None if self.time_limit is None else max(self.left(), 0.0) + 1.0
        done = deferred.wait(list(self.running), timeout=wait_s, return_when=FIRST_COMPLETED)
        if not done:
            self.timed_out = True
            self.stop_all()
            done = deferred.wait(list(self.running))
        for fut in done:
            self.collect(fut)
        self.report()
        if self.timed_out:
            self.stop_all()
            deferred.wait(list(self.running))
            return False
        return True

    def launch(self, pool: ThreadPoolExecutor, top: int) -> None:
        """Start the most promising piece: a copy of the model asked for a shelf scoring ``top + 1``."""
        potential, key = self.pending.pop()
        piece = self.model.clone()
        piece.clear_objective()
        restrict(piece, self.fixed_parts, key, self.objective, top + 1)
        if _TRACE:
            piece.export_to_file(f"/tmp/piece_{'_'.join(map(str, key))}.pbtxt")
        self.races[self.pieces] = [potential, key, len(self.configs), False]
        for level in self.configs:
            solver = cp_model.CpSolver()
            solver.parameters.catch_sigint_signal = False
            if self.time_limit is not None:
                solver.parameters.max_time_in_seconds = max(self.left(), 0.01)
            solver.parameters.num_workers = 1
            solver.parameters.random_seed = self.seed
            solver.parameters.linearization_level = level
            solver.parameters.probing_deterministic_time_limit = PROBING
            solver.parameters.merge_at_most_one_work_limit = CLIQUE
            self.running[pool.submit(_timed_solve, solver, piece)] = (potential, key, solver, self.pieces)
        self.pieces += 1

    def collect(self, fut: Future) -> None:
        """Take one finished run: an unresolved piece stays open, a shelf found may beat the best."""
        potential, key, solver, race = self.running.pop(fut)
        status, seconds = fut.result()
        self.finished += 1
        state = self.races[race]
        state[2] -= 1
        if state[3]:
            return  # the other run already answered
        if _TRACE:
            print(f"  piece {potential} {key} (LP {solver.parameters.linearization_level}): "
                  f"{solver.status_name(status)} {seconds:.2f} s")
        if status not in _DECIDED:
            if state[2] == 0 and potential > self.top():
                self.timed_out = True
                self.pending.append((potential, key))  # unresolved: keeps it in the bound
            return
        state[3] = True
        for _, _, other, other_race in self.running.values():
            if other_race == race:
                other.stop_search()
        if status == cp_model.INFEASIBLE:
            return
        found = self.rescore(_decode(solver, self.x))
        if self.best is None or found[1] > self.best[1]:
            self.best = found
        claimed = solver.value(self.objective)
        # over-count: cut it off and try the piece again
        if found[1] < claimed and not cut_shared_groups(self.model, found[0], self.hexes, self.same, solver):
            raise AssertionError(f"piece {key} gave a shelf scoring {found[1]} < {claimed}")
        if found[1] < potential:  # the piece may hold better shelves: try it again
            self.pending.append((potential, key))
            self.pending.sort()

    def result(self, personal: int | None, goals: tuple[str, str]) -> BestShelf:
        """The answer: optimal, or the best shelf with the highest open potential as its bound."""
        self.pending.sort()
        top = self.top()
        open_potentials = ([p for p, _ in self.pending if p > top]
                           + [p for p, *_ in self.running.values() if p > top])
        best, start, pieces, seed, time_limit = self.best, self.start, self.pieces, self.seed, self.time_limit
        if best is None:
            if self.interrupted:
                raise KeyboardInterrupt
            if open_potentials or self.timed_out:
                raise TimeoutError(f"no shelf found in {time_limit:g} s (status UNKNOWN)")
            raise RuntimeError(f"no shelf scores {self.floor} or more (proven by CP-SAT)")
        if self.interrupted and (open_potentials or self.running):
            bound = max(open_potentials + [best[1]])
            return _result(personal, goals, best, False, bound, start, "INTERRUPTED", pieces, seed, time_limit)
        if open_potentials:
            return _result(personal, goals, best, False, max(open_potentials), start, "TIME_LIMIT", pieces, seed,
                           time_limit)
        return _result(personal, goals, best, True, best[1], start, "OPTIMAL", pieces, seed, time_limit)


def _local_search(rescore, personal: int | None, goals: tuple[str, str], seconds: float, seed: int) -> list[list[int]]:
    """Hill climbing with restarts on full shelves (and on a staircase outline when a goal asks for
    one), scored by the scoring functions: a quick incumbent, no proof."""
    def score_of(grid: list[list[int]]) -> int:
        try:
            return rescore(grid)[1]
        except ValueError:  # over the supply of a type
            return -1

    rng = random.Random(seed)
    deadline = time.perf_counter() + seconds
    outlines = [[ROWS] * COLS] + ([[2, 3, 4, 5, 6]] if "STAIRCASE" in goals else [])
    best_grid, best_score, restart = None, -1, 0
    while best_grid is None or time.perf_counter() < deadline:
        heights = outlines[restart % len(outlines)]
        restart += 1
        grid = [[rng.randrange(NUM_TYPES) if r >= ROWS - h else EMPTY for h in heights] for r in range(ROWS)]
        for r, c, t in card_cells(personal):
            if grid[r][c] != EMPTY:
                grid[r][c] = t
        score = score_of(grid)
        cells = [(r, c) for r in range(ROWS) for c in range(COLS) if grid[r][c] != EMPTY]
        improved = True
        while improved and time.perf_counter() < deadline:
            improved = False
            rng.shuffle(cells)
            for r, c in cells:
                keep = grid[r][c]
                for t in range(NUM_TYPES):
                    grid[r][c] = t
                    new = score_of(grid)
                    if new > score:
                        score, keep, improved = new, t, True
                grid[r][c] = keep
        if score > best_score:
            best_grid, best_score = [row[:] for row in grid], score
    return best_grid


def _timed_solve(solver: cp_model.CpSolver, model: cp_model.CpModel) -> tuple[cp_model.CpSolverStatus, float]:
    t0 = time.perf_counter()
    status = solver.solve(model)
    return status, time.perf_counter() - t0


_TRACE = False  # debugging: print each piece and export it to /tmp as .pbtxt
_RACE = [0]  # linearization levels raced per piece ([2, 0] races LP against no LP)


def _result(personal: int | None, goals: tuple[str, str], best, optimal: bool, bound: float, start: float,
            status: str, pieces: int, seed: int, time_limit: float | None) -> BestShelf:
    shelf, score, breakdown, met = best
    return BestShelf(personal, goals, shelf, score, breakdown, optimal, max(float(bound), float(score)),
                     time.perf_counter() - start, status, met, pieces, seed, time_limit)


