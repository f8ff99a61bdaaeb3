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
with the plain scoring functions of :mod:`puzzles.shelfie.rules` every time).  Counting cuts: one
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

    def decode(solver: cp_model.CpSolver) -> list[list[int]]:
        grid = [[EMPTY] * COLS for _ in range(ROWS)]
        for i in range(N):
            for t in range(NUM_TYPES):
                if solver.boolean_value(x[i][t]):
                    grid[i // COLS][i % COLS] = t
        return grid

    def left() -> float:
        return math.inf if time_limit is None else time_limit - (time.perf_counter() - start)

    # Split the shelves by where their points come from: tier (personal matches, goals met, full
    # shelf) x scoring-group profile (groups of 3, 4, 5 and 6+ tiles).  A piece's potential is the
    # most its shelves can score.  Going through the pieces from the highest potential down, a
    # shelf found that reaches every remaining potential is optimal: each piece above it was shown
    # empty (INFEASIBLE) by CP-SAT.  Each piece is a small, tightly counted feasibility problem,
    # solved single-threaded; ``workers`` pieces run side by side.
    floor = 0 if min_score is None else min_score
    best = None
    if min_score is None:  # a quick incumbent, so that even a tiny time limit returns a shelf
        best = rescore(_local_search(rescore, personal, goals, 0.25 if time_limit is None else min(0.25, 0.05 * time_limit), seed))
    lemmas = goal_lemmas(squares_inside_groups, squares_same_type) if goal_bounds else {}
    pending = sorted(t for t in tasks(personal, token_values, end_token, goals, squares_inside_groups, lemmas)
                     if t[0] >= floor)  # pop() takes the highest potential
    # Each piece runs single-threaded; with several configurations in _RACE they race on one piece
    # and the first answer stops the others.
    configs = _RACE[:max(1, min(len(_RACE), workers))]
    slots = max(1, workers)
    running: dict[Future, tuple[int, tuple, cp_model.CpSolver, int]] = {}
    races: dict[int, list] = {}  # race id -> [potential, key, runs still going, settled]
    pieces = 0
    timed_out = False
    interrupted = False
    finished = 0

    def report() -> None:
        if progress is not None:
            top = best[1] if best else None
            opens = [p for p in [p for p, _ in pending] + [p for p, *_ in running.values()] if top is None or p > top]
            bound = max(opens + ([top] if top is not None else [0]))
            progress(top, float(bound), finished, len(opens))

    pool = ThreadPoolExecutor(max_workers=slots)
    with defer_interrupts() as deferred:  # Ctrl-C is raised between waits, never inside one
        try:
            while True:
                top = best[1] if best else floor - 1
                for potential, _, solver, _ in running.values():
                    if potential <= top:
                        solver.stop_search()  # nothing better can come from it
                while pending and pending[-1][0] <= top:
                    pending.pop()
                while pending and len(running) + len(configs) <= slots and left() > 0.05:
                    potential, key = pending.pop()
                    piece = m.clone()
                    piece.clear_objective()
                    restrict(piece, fixed_parts, key, objective, top + 1)
                    if _TRACE:
                        piece.export_to_file(f"/tmp/piece_{'_'.join(map(str, key))}.pbtxt")
                    races[pieces] = [potential, key, len(configs), False]
                    for level in configs:
                        solver = cp_model.CpSolver()
                        solver.parameters.catch_sigint_signal = False
                        if time_limit is not None:
                            solver.parameters.max_time_in_seconds = max(left(), 0.01)
                        solver.parameters.num_workers = 1
                        solver.parameters.random_seed = seed
                        solver.parameters.linearization_level = level
                        solver.parameters.probing_deterministic_time_limit = PROBING
                        solver.parameters.merge_at_most_one_work_limit = CLIQUE
                        running[pool.submit(_timed_solve, solver, piece)] = (potential, key, solver, pieces)
                    pieces += 1
                if not running:
                    break
                wait_s = None if time_limit is None else max(left(), 0.0) + 1.0
                done = deferred.wait(list(running), timeout=wait_s, return_when=FIRST_COMPLETED)
                if not done:
                    timed_out = True
                    for _, _, solver, _ in running.values():
                        solver.stop_search()
                    done = deferred.wait(list(running))
                for fut in done:
                    potential, key, solver, race = running.pop(fut)
                    status, seconds = fut.result()
                    finished += 1
                    state = races[race]
                    state[2] -= 1
                    if state[3]:
                        continue  # the other run already answered
                    if _TRACE:
                        print(f"  piece {potential} {key} (LP {solver.parameters.linearization_level}): "
                              f"{solver.status_name(status)} {seconds:.2f} s")
                    if status not in (cp_model.INFEASIBLE, cp_model.OPTIMAL, cp_model.FEASIBLE):
                        if state[2] == 0 and potential > (best[1] if best else floor - 1):
                            timed_out = True
                            pending.append((potential, key))  # unresolved: keeps it in the bound
                        continue
                    state[3] = True
                    for _, _, other, other_race in running.values():
                        if other_race == race:
                            other.stop_search()
                    if status == cp_model.INFEASIBLE:
                        continue
                    found = rescore(decode(solver))
                    if best is None or found[1] > best[1]:
                        best = found
                    claimed = solver.value(objective)
                    if found[1] < claimed:  # over-count: cut it off and try the piece again
                        if not cut_shared_groups(m, found[0], hexes, same, solver):
                            raise AssertionError(f"piece {key} gave a shelf scoring {found[1]} < {claimed}")
                    if found[1] < potential:  # the piece may hold better shelves: try it again
                        pending.append((potential, key))
                        pending.sort()
                report()
                if timed_out:
                    for _, _, solver, _ in running.values():
                        solver.stop_search()
                    deferred.wait(list(running))
                    break
        except KeyboardInterrupt:  # stop cleanly: the best shelf so far, unproven, its bound kept
            interrupted = True
            for _, _, solver, _ in running.values():
                solver.stop_search()
            wait(list(running))
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
    pending.sort()
    top = best[1] if best else floor - 1
    open_potentials = [p for p, _ in pending if p > top] + [p for p, *_ in running.values() if p > top]
    if best is None:
        if interrupted:
            raise KeyboardInterrupt
        if open_potentials or timed_out:
            raise TimeoutError(f"no shelf found in {time_limit:g} s (status UNKNOWN)")
        raise RuntimeError(f"no shelf scores {floor} or more (proven by CP-SAT)")
    if interrupted and (open_potentials or running):
        bound = max(open_potentials + [best[1]])
        return _result(personal, goals, best, False, bound, start, "INTERRUPTED", pieces, seed, time_limit)
    if open_potentials:
        return _result(personal, goals, best, False, max(open_potentials), start, "TIME_LIMIT", pieces, seed,
                       time_limit)
    return _result(personal, goals, best, True, best[1], start, "OPTIMAL", pieces, seed, time_limit)


def _local_search(rescore, personal: int | None, goals: tuple[str, str], seconds: float, seed: int) -> list[list[int]]:
    """Hill climbing with restarts on full shelves (and on a staircase outline when a goal asks for
    one), scored by the plain scoring functions: a quick incumbent, no proof."""
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


