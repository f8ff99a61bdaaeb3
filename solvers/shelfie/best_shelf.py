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
A plain maximisation leaves a gap of 2-6 points after 30 s, so the search is split by where the
points come from: a piece fixes the tier (exact number of personal matches, which goals are
counted, full or not) and the scoring-group profile (numbers of groups of 3, 4, 5 and 6+ tiles);
its potential is the exact score of its shelves.  Pieces that cannot fit (tiles, 20 for a
staircase, or one group per distinct matched type, or the groups a goal needs) are dropped by
counting.  The rest are solved as feasibility problems ("score >= best + 1") from the highest
potential down (trying a whole tier for a second first did not pay).  A shelf found is optimal as
soon as every piece of higher potential was proven INFEASIBLE.  ``workers`` pieces run side by
side, each as one single-threaded CP-SAT run without LP (faster on most pieces; racing an LP run
against it on the same piece, ``_RACE = [2, 0]``, cost more than it saved), with presolve effort
capped (``_PROBING``, ``_CLIQUE``): with CP-SAT's defaults, probing and clique merging took half of
each piece's time (1.9 of 3.2 s on a typical one), and the cap took the hardest pairs, card 1
FOUR_CORNERS + TWO_COLUMNS_ALL_DIFFERENT and card 6 TWO_COLUMNS_ALL_DIFFERENT + EIGHT_SAME, from 25 and
32 s to 18 and 25 s.

Goal lemmas (:mod:`solvers.shelfie.goal_bounds`): for a few goal pairs, facts about every shelf that
meets both goals, proven once by CP-SAT with no personal card and stored with the package ("meeting
TWO_COLUMNS_ALL_DIFFERENT and X_SHAPE, a shelf scores at most 32 adjacency points and never has these
group profiles").  They drop the pieces they rule out before any is solved.  Two all-different columns
fight big groups (a group meets each of them once at most), and refuting that piece by piece for each
card took 30-77 s; with the lemmas the slowest of those pairs takes 15 s.

A short hill climb gives an incumbent first, so a tiny time limit still returns a shelf.
When time runs out, ``optimal`` is False and ``bound`` is the highest unresolved potential.
"""

from __future__ import annotations

import random
import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model

from puzzles.shelfie.rules import (
    COLS,
    END_GAME_TOKEN,
    EMPTY,
    GROUP_POINTS,
    NUM_TYPES,
    PERSONAL_POINTS,
    ROWS,
    TILES_PER_TYPE,
    Bookshelf,
    adjacency_points,
    check_goal_key,
    common_goal_met,
    groups,
    personal_goal_card,
    personal_goal_points,
)
from solvers.shelfie.goal_bounds import goal_lemmas

N = ROWS * COLS


def _card(personal: int | None) -> list[tuple[int, int, int]]:
    """The personal goal card's (row, column, type) cells; none for ``personal=None``."""
    return [] if personal is None else personal_goal_card(personal)


def _cell(r: int, c: int) -> int:
    return r * COLS + c


def _edges() -> list[tuple[int, int]]:
    out = []
    for r in range(ROWS):
        for c in range(COLS):
            if c + 1 < COLS:
                out.append((_cell(r, c), _cell(r, c + 1)))
            if r + 1 < ROWS:
                out.append((_cell(r, c), _cell(r + 1, c)))
    return out


EDGES = _edges()


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
            "pieces": self.pieces,
        }


def best_shelf(
    personal: int | None,
    goals: tuple[str, str] | list[str],
    *,
    token_values: tuple[int, int] = (8, 8),
    end_token: bool = True,
    squares_inside_groups: bool = False,
    squares_same_type: bool = False,
    time_limit: float = 30.0,
    workers: int = 2,
    seed: int = 0,
    min_score: int | None = None,
    goal_bounds: bool = True,
) -> BestShelf:
    """Solve the perfect-shelf problem for personal card ``personal`` and two common goal keys.

    ``personal=None`` leaves the personal goal out (used to prove the goal lemmas).  ``goal_bounds``
    uses the stored, CP-SAT-proven lemmas of :mod:`solvers.shelfie.goal_bounds` (the most adjacency
    a shelf meeting some goals can score, group profiles it cannot have) to drop pieces.
    """
    _card(personal)  # validates
    goals = tuple(check_goal_key(g) for g in goals)
    if len(goals) != 2 or goals[0] == goals[1]:
        raise ValueError(f"give two different common goals, got {goals!r}")
    start = time.perf_counter()
    options = {"squares_inside_groups": squares_inside_groups, "squares_same_type": squares_same_type}
    m, x, objective, fixed_parts, hexes, same = _build_model(
        personal, goals, token_values, end_token, squares_inside_groups, squares_same_type)
    if min_score is not None:
        m.Add(objective >= min_score)

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
                if solver.BooleanValue(x[i][t]):
                    grid[i // COLS][i % COLS] = t
        return grid

    def left() -> float:
        return time_limit - (time.perf_counter() - start)

    # Split the shelves by where their points come from: tier (personal matches, goals met, full
    # shelf) x scoring-group profile (groups of 3, 4, 5 and 6+ tiles).  A piece's potential is the
    # most its shelves can score.  Going through the pieces from the highest potential down, a
    # shelf found that reaches every remaining potential is optimal: each piece above it was shown
    # empty (INFEASIBLE) by CP-SAT.  Each piece is a small, tightly counted feasibility problem,
    # solved single-threaded; ``workers`` pieces run side by side.
    floor = 0 if min_score is None else min_score
    best = None
    if min_score is None:  # a quick incumbent, so that even a tiny time limit returns a shelf
        best = rescore(_local_search(rescore, personal, goals, min(0.25, 0.05 * time_limit), seed))
    lemmas = goal_lemmas(squares_inside_groups, squares_same_type) if goal_bounds else {}
    pending = sorted(t for t in _tasks(personal, token_values, end_token, goals, squares_inside_groups, lemmas)
                     if t[0] >= floor)  # pop() takes the highest potential
    # Each piece runs single-threaded; with several configurations in _RACE they race on one piece
    # and the first answer stops the others.
    configs = _RACE[:max(1, min(len(_RACE), workers))]
    slots = max(1, workers)
    running: dict[Future, tuple[int, tuple, cp_model.CpSolver, int]] = {}
    races: dict[int, list] = {}  # race id -> [potential, key, runs still going, settled]
    pieces = 0
    timed_out = False
    with ThreadPoolExecutor(max_workers=slots) as pool:
        while True:
            top = best[1] if best else floor - 1
            for potential, _, solver, _ in running.values():
                if potential <= top:
                    solver.StopSearch()  # nothing better can come from it
            while pending and pending[-1][0] <= top:
                pending.pop()
            while pending and len(running) + len(configs) <= slots and left() > 0.05:
                potential, key = pending.pop()
                piece = m.Clone()
                piece.ClearObjective()
                _restrict(piece, fixed_parts, key, objective, top + 1)
                if _TRACE:
                    piece.ExportToFile(f"/tmp/piece_{'_'.join(map(str, key))}.pbtxt")
                races[pieces] = [potential, key, len(configs), False]
                for level in configs:
                    solver = cp_model.CpSolver()
                    solver.parameters.max_time_in_seconds = max(left(), 0.01)
                    solver.parameters.num_workers = 1
                    solver.parameters.random_seed = seed
                    solver.parameters.linearization_level = level
                    solver.parameters.probing_deterministic_time_limit = _PROBING
                    solver.parameters.merge_at_most_one_work_limit = _CLIQUE
                    running[pool.submit(_timed_solve, solver, piece)] = (potential, key, solver, pieces)
                pieces += 1
            if not running:
                break
            try:
                done, _ = wait(list(running), timeout=max(left(), 0.0) + 1.0, return_when=FIRST_COMPLETED)
            except KeyboardInterrupt:  # stop cleanly: report the best shelf so far, unproven
                pending.extend((p, k) for p, k, _, _ in running.values())
                done = set()
            if not done:
                timed_out = True
                for _, _, solver, _ in running.values():
                    solver.StopSearch()
                done, _ = wait(list(running))
            for fut in done:
                potential, key, solver, race = running.pop(fut)
                status, seconds = fut.result()
                state = races[race]
                state[2] -= 1
                if state[3]:
                    continue  # the other run already answered
                if _TRACE:
                    print(f"  piece {potential} {key} (LP {solver.parameters.linearization_level}): "
                          f"{solver.StatusName(status)} {seconds:.2f} s")
                if status not in (cp_model.INFEASIBLE, cp_model.OPTIMAL, cp_model.FEASIBLE):
                    if state[2] == 0 and potential > (best[1] if best else floor - 1):
                        timed_out = True
                        pending.append((potential, key))  # unresolved: keeps it in the bound
                    continue
                state[3] = True
                for other_potential, _, other, other_race in running.values():
                    if other_race == race:
                        other.StopSearch()
                if status == cp_model.INFEASIBLE:
                    continue
                found = rescore(decode(solver))
                if best is None or found[1] > best[1]:
                    best = found
                claimed = solver.Value(objective)
                if found[1] < claimed:  # over-count: cut it off and try the piece again
                    if not _cut_shared_groups(m, found[0], hexes, same, solver):
                        raise AssertionError(f"piece {key} gave a shelf scoring {found[1]} < {claimed}")
                if found[1] < potential:  # the piece may hold better shelves: try it again
                    pending.append((potential, key))
                    pending.sort()
            if timed_out:
                for _, _, solver, _ in running.values():
                    solver.StopSearch()
                wait(list(running))
                break
    pending.sort()
    top = best[1] if best else floor - 1
    open_potentials = [p for p, _ in pending if p > top] + [p for p, *_ in running.values() if p > top]
    if best is None:
        if open_potentials or timed_out:
            raise RuntimeError(f"no shelf found in {time_limit:g} s (status UNKNOWN)")
        raise RuntimeError(f"no shelf scores {floor} or more (proven by CP-SAT)")
    if open_potentials:
        return _result(personal, goals, best, False, max(open_potentials), start, "FEASIBLE", pieces)
    return _result(personal, goals, best, True, best[1], start, "OPTIMAL", pieces)


def _build_model(personal: int | None, goals: tuple[str, str], token_values: tuple[int, int], end_token: bool,
                 squares_inside_groups: bool, squares_same_type: bool):
    """The shelf model: cells, groups, personal goal, the two goals; maximises the final score.

    Returns (model, cell type literals, objective, the parts a piece fixes, 6-cell cores, same-type
    edge literals).
    """
    m = cp_model.CpModel()
    x = [[m.NewBoolVar(f"x{i}_{t}") for t in range(NUM_TYPES)] for i in range(N)]
    filled = [m.NewBoolVar(f"f{i}") for i in range(N)]
    for i in range(N):
        m.Add(sum(x[i]) == filled[i])
    for r in range(ROWS - 1):
        for c in range(COLS):
            m.AddImplication(filled[_cell(r, c)], filled[_cell(r + 1, c)])
    for t in range(NUM_TYPES):
        m.Add(sum(x[i][t] for i in range(N)) <= TILES_PER_TYPE)

    # same-type edges
    same: dict[tuple[int, int], cp_model.IntVar] = {}
    for i, j in EDGES:
        ys = []
        for t in range(NUM_TYPES):
            y = m.NewBoolVar("")
            m.AddBoolOr([x[i][t].Not(), x[j][t].Not(), y])
            m.AddImplication(y, x[i][t])
            m.AddImplication(y, x[j][t])
            ys.append(y)
        s = m.NewBoolVar(f"s{i}_{j}")
        m.Add(sum(ys) == s)
        same[(i, j)] = same[(j, i)] = s

    adjacency, pairs, fours, hexes, counts, n_ext, n_filled, present = _placement_groups(m, x, filled, same)

    # personal goal
    card = _card(personal)
    matches = [x[_cell(r, c)][t] for r, c, t in card]
    pm = [m.NewBoolVar(f"pm{k}") for k in range(1, 7)]
    for k, b in enumerate(pm, start=1):
        m.Add(sum(matches) >= k * b)  # linear, so the LP sees it
        if k > 1:
            m.AddImplication(b, pm[k - 2])
    steps = [PERSONAL_POINTS[k] - PERSONAL_POINTS[k - 1] for k in range(1, 7)]
    personal_pts = sum(s * b for s, b in zip(steps, pm))

    # matched cells of one type need that type on the shelf (a linear link for the group counts)
    card_types = sorted({t for _, _, t in card})
    if card:
        m.Add(sum(matches) <= sum(sum(1 for *_, u in card if u == t) * present[t] for t in card_types))

    full = m.NewBoolVar("full")
    for i in range(N):
        m.AddImplication(full, filled[i])
    goal_vars = [_goal(m, key, x, filled, same, pairs, fours, squares_inside_groups, squares_same_type)
                 for key in goals]
    objective = adjacency + personal_pts + sum(v * g for v, g in zip(token_values, goal_vars))
    if end_token:
        objective += END_GAME_TOKEN * full
    m.Maximize(objective)
    fixed_parts = {"pm": pm, "goals": goal_vars, "full": full, "counts": counts, "n_filled": n_filled,
                   "matches": matches}
    return m, x, objective, fixed_parts, hexes, same


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
        for r, c, t in _card(personal):
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


def _timed_solve(solver: cp_model.CpSolver, model: cp_model.CpModel) -> tuple[int, float]:
    t0 = time.perf_counter()
    status = solver.Solve(model)
    return status, time.perf_counter() - t0


_TRACE = False  # debugging: print each piece and export it to /tmp as .pbtxt
_RACE = [0]  # linearization levels raced per piece ([2, 0] races LP against no LP)
_PROBING = 0.05  # CP-SAT presolve probing effort (deterministic time; default 1.0)
_CLIQUE = 1e6  # CP-SAT presolve clique merging effort (default 1e8)


def _tasks(personal: int | None, token_values: tuple[int, int], end_token: bool,
           goals: tuple[str, str], squares_inside_groups: bool = False,
           lemmas: dict[frozenset[str], dict] | None = None) -> list[tuple[int, tuple]]:
    """The pieces a shelf scoring ``target`` or more must fall in, most promising first.

    A piece is (k personal matches, goal 1 counted, goal 2 counted, full, groups of 3/4/5/6+).
    Its potential is the most such a shelf can score.  Counting prunes pieces whose groups do not
    fit: at most 30 tiles (29 when not full), and k matches need k distinct types, hence k groups.
    ``lemmas`` (proven per goal set, :mod:`solvers.shelfie.goal_bounds`: the most adjacency points a
    shelf meeting the goals can score, and group profiles it cannot have) drop the pieces their counted
    goals rule out.
    """
    lemmas = lemmas or {}
    card = _card(personal)
    class_sizes = sorted((sum(1 for *_, t in card if t == u) for u in {t for *_, t in card}), reverse=True)
    out = []
    for k in range(len(card) + 1):
        for g1 in (0, 1):
            for g2 in (0, 1):
                counted = {g for g, on in zip(goals, (g1, g2)) if on}
                known = [e for s, e in lemmas.items() if s <= counted]
                most = min([40] + [e["max_adjacency"] for e in known])
                impossible = {tuple(p) for e in known for p in e.get("infeasible_profiles", [])}
                for full in (0, 1):
                    fixed = PERSONAL_POINTS[k] + token_values[0] * g1 + token_values[1] * g2
                    fixed += END_GAME_TOKEN * full if end_token else 0
                    if full and "STAIRCASE" in counted:
                        continue  # a full shelf is no staircase
                    if (g1 and not token_values[0]) or (g2 and not token_values[1]):
                        continue  # a goal worth nothing: its shelves are in the piece that leaves it out
                    cap = N if full else N - 1
                    if "STAIRCASE" in counted:
                        cap = 20  # heights 2..6 at most
                    min_types = next(n for n in range(7) if sum(class_sizes[:n]) >= k)
                    if "TWO_COLUMNS_ALL_DIFFERENT" in counted:
                        min_types = 6
                    elif "TWO_ROWS_ALL_DIFFERENT" in counted:
                        min_types = max(min_types, 5)
                    for c6 in range(cap // 6 + 1):
                        for c5 in range((cap - 6 * c6) // 5 + 1):
                            for c4 in range((cap - 6 * c6 - 5 * c5) // 4 + 1):
                                for c3 in range((cap - 6 * c6 - 5 * c5 - 4 * c4) // 3 + 1):
                                    pts = 8 * c6 + 5 * c5 + 3 * c4 + 2 * c3
                                    used = 6 * c6 + 5 * c5 + 4 * c4 + 3 * c3
                                    spare = cap - used  # tiles for small groups or extensions
                                    if c3 + c4 + c5 + c6 + spare < min_types or pts > most:
                                        continue
                                    if (full, c3, c4, c5, c6) in impossible:
                                        continue
                                    if not _goals_fit(counted, c3, c4, c5, c6, spare, squares_inside_groups):
                                        continue
                                    out.append((fixed + pts, (k, g1, g2, full, c3, c4, c5, c6)))
    out.sort(key=lambda t: (-t[0], t[1]))
    return out


def _goals_fit(counted: set[str], c3: int, c4: int, c5: int, c6: int, spare: int, sq_inside: bool) -> bool:
    """Group-count needs of the counted goals (spare tiles can form extra 2-groups at most)."""
    if "SIX_PAIRS" in counted and c3 + c4 + c5 + c6 + spare // 2 < 6:
        return False
    if "FOUR_GROUPS_OF_FOUR" in counted and c4 + c5 + c6 < 4:
        return False
    if "TWO_SQUARES" in counted:
        if sq_inside and c4 + c5 + c6 == 0:
            return False
        if not sq_inside and c4 < 2:  # two groups that are exactly 2x2 squares
            return False
    return True


def _restrict(piece: cp_model.CpModel, parts: dict, key: tuple, objective, target: int) -> None:
    """Add one task's constraints to a copy of the model."""
    k, g1, g2, full, c3, c4, c5, c6 = key
    piece.Add(sum(parts["matches"]) == k)
    for j in range(k):
        piece.Add(parts["pm"][j] == 1)
    if g1:
        piece.Add(parts["goals"][0] == 1)
    if g2:
        piece.Add(parts["goals"][1] == 1)
    piece.Add(parts["full"] == full)
    if not full:
        piece.Add(parts["n_filled"] <= N - 1)
    for size, v in zip((3, 4, 5, 6), (c3, c4, c5, c6)):
        piece.Add(parts["counts"][size] == v)
    piece.Add(objective >= target)


def _result(personal: int, goals: tuple[str, str], best, optimal: bool, bound: float, start: float,
            status: str, pieces: int) -> BestShelf:
    shelf, score, breakdown, met = best
    return BestShelf(personal, goals, shelf, score, breakdown, optimal, max(float(bound), float(score)),
                     time.perf_counter() - start, status, met, pieces)


def _placements() -> list[tuple[int, ...]]:
    """Every connected set of 1..6 cells of the shelf (polyomino placements), as sorted cell tuples."""
    level = {frozenset([i]) for i in range(N)}
    nbrs = {i: [j for a, j in EDGES if a == i] + [a for a, j in EDGES if j == i] for i in range(N)}
    out: list[tuple[int, ...]] = sorted(tuple(s) for s in level)
    for _ in range(2, 7):
        level = {s | {j} for s in level for i in s for j in nbrs[i] if j not in s}
        out.extend(sorted(tuple(sorted(s)) for s in level))
    return out


PLACEMENTS = _placements()
NEIGHBOURS = {i: sorted({j for a, j in EDGES if a == i} | {a for a, j in EDGES if j == i}) for i in range(N)}


def _placement_groups(m: cp_model.CpModel, x, filled, same):
    """Groups as a partition of the tiles into selected placements.

    Returns (adjacency, >=2 and >=4 witnesses, 6-cell cores, group count, tile count).
    Every tile lies in exactly one selected placement or is an "extension" tile.  A placement of
    1..5 cells is exactly one group: inner edges same-type, boundary edges not.  A group of 6 or more
    tiles (8 points) is one selected 6-cell "core" plus extension tiles: a core's same-type
    neighbours outside it are extension tiles, and an extension tile's same-type neighbours are
    cores or extension tiles.  Every real shelf is representable with its true adjacency and group
    count (so the model is a relaxation and counting cuts on groups are valid); the one over-count
    left, two cores joined through extension tiles, is cut off lazily (see ``best_shelf``).
    """
    z = []
    cover: list[list[cp_model.IntVar]] = [[] for _ in range(N)]
    for cells in PLACEMENTS:
        v = m.NewBoolVar(f"p{'_'.join(map(str, cells))}")
        z.append(v)
        for i in cells:
            cover[i].append(v)
    ext = [m.NewBoolVar(f"ext{i}") for i in range(N)]
    core = [m.NewBoolVar(f"core{i}") for i in range(N)]  # i lies in a selected 6-cell core
    for i in range(N):
        m.Add(sum(cover[i]) + ext[i] == filled[i])
        m.Add(sum(v for v, cells in zip(z, PLACEMENTS) if len(cells) == 6 and i in cells) == core[i])
        for j in NEIGHBOURS[i]:
            # an extension tile's same-type neighbours belong to big groups too
            m.AddBoolOr([ext[i].Not(), same[(i, j)].Not(), ext[j], core[j]])
        # an extension tile touches a same-type big-group tile
        m.AddBoolOr([ext[i].Not()] + [same[(i, j)] for j in NEIGHBOURS[i]])
    for v, cells in zip(z, PLACEMENTS):
        inside = set(cells)
        for i, j in EDGES:
            if i in inside and j in inside:
                m.AddImplication(v, same[(i, j)])
            elif i in inside or j in inside:
                a, b = (i, j) if i in inside else (j, i)
                if len(cells) < 6:
                    m.AddImplication(v, same[(a, b)].Not())
                else:
                    m.AddBoolOr([v.Not(), same[(a, b)].Not(), ext[b]])
    pts = [GROUP_POINTS[len(cells)] for cells in PLACEMENTS]
    adjacency = m.NewIntVar(0, 40, "adjacency")
    m.Add(adjacency == sum(p * v for p, v in zip(pts, z) if p))
    n_groups = m.NewIntVar(0, N, "groups")
    m.Add(n_groups == sum(z))
    n_filled = m.NewIntVar(0, N, "tiles")
    m.Add(n_filled == sum(filled))
    # counting cuts: every type present needs a group of its own; with G groups over F tiles the
    # adjacency is at most UB[G][F] (exact table) and 9A <= 14F - 12G (its linear form)
    present = [m.NewBoolVar(f"present{t}") for t in range(NUM_TYPES)]
    for t in range(NUM_TYPES):
        for i in range(N):
            m.AddImplication(x[i][t], present[t])
    m.Add(n_groups >= sum(present))
    # groups per type, through each group's first cell: a type with n groups and no extension tiles
    # has at most 6 n tiles (this rules out, e.g., EIGHT_SAME with five groups of five types)
    first = [m.NewBoolVar(f"first{i}") for i in range(N)]
    for i in range(N):
        m.Add(sum(v for v, cells in zip(z, PLACEMENTS) if cells[0] == i) == first[i])
    per_type = []
    for t in range(NUM_TYPES):
        roots = []
        for i in range(N):
            r = m.NewBoolVar(f"root{i}_{t}")
            m.AddImplication(r, first[i])
            m.AddImplication(r, x[i][t])
            m.AddBoolOr([first[i].Not(), x[i][t].Not(), r])
            roots.append(r)
        n_t = m.NewIntVar(0, N, f"groups_of{t}")
        m.Add(n_t == sum(roots))
        m.Add(n_t >= present[t])
        per_type.append(n_t)
    m.Add(sum(per_type) == n_groups)
    table = _adjacency_bounds()
    ub = m.NewIntVar(0, 40, "adj_ub")
    index = m.NewIntVar(0, (N + 1) * (N + 1) - 1, "gf")
    m.Add(index == n_groups * (N + 1) + n_filled)
    m.AddElement(index, [table[g][f] for g in range(N + 1) for f in range(N + 1)], ub)
    m.Add(adjacency <= ub)
    m.Add(9 * adjacency <= 14 * n_filled - 12 * n_groups)
    pairs = [v for v, cells in zip(z, PLACEMENTS) if len(cells) >= 2]
    fours = [v for v, cells in zip(z, PLACEMENTS) if len(cells) >= 4]
    hexes = {cells: v for v, cells in zip(z, PLACEMENTS) if len(cells) == 6}
    counts = {}
    for size in range(1, 7):
        c = m.NewIntVar(0, N // size, f"count{size}")
        m.Add(c == sum(v for v, cells in zip(z, PLACEMENTS) if len(cells) == size))
        counts[size] = c
    n_ext = m.NewIntVar(0, N, "extension_tiles")
    m.Add(n_ext == sum(ext))
    m.Add(n_filled == sum(size * c for size, c in counts.items()) + n_ext)
    # typed profile: tiles of a type = sum over its groups of their sizes (+ its extension tiles)
    for t in range(NUM_TYPES):
        terms = []
        for size in range(1, 7):
            for i in range(N):
                starts = [v for v, cells in zip(z, PLACEMENTS) if len(cells) == size and cells[0] == i]
                if not starts:
                    continue
                b = m.NewBoolVar("")
                m.Add(sum(starts) >= 1).OnlyEnforceIf(b)
                m.AddImplication(b, x[i][t])
                m.Add(sum(starts) + x[i][t] <= 1 + b)  # first cell of a size-`size` group of type t
                terms.append(size * b)
        ext_t = []
        for i in range(N):
            e = m.NewBoolVar("")
            m.AddImplication(e, ext[i])
            m.AddImplication(e, x[i][t])
            m.AddBoolOr([ext[i].Not(), x[i][t].Not(), e])
            ext_t.append(e)
        m.Add(sum(x[i][t] for i in range(N)) == sum(terms) + sum(ext_t))
        m.Add(sum(x[i][t] for i in range(N)) <= 6 * per_type[t] + n_ext)
    return adjacency, pairs, fours, hexes, counts, n_ext, n_filled, present


def _adjacency_bounds() -> list[list[int]]:
    """UB[g][f]: the most adjacency points g groups of f tiles in all can score (-1: impossible)."""
    from functools import lru_cache

    from puzzles.shelfie.rules import group_points

    @lru_cache(maxsize=None)
    def best(g: int, f: int) -> int:
        if g == 0:
            return 0 if f == 0 else -10**6
        return max((group_points(s) + best(g - 1, f - s) for s in range(1, f - g + 2)), default=-10**6)

    return [[max(best(g, f), 0) if (g <= f and (g > 0 or f == 0)) else 0 for f in range(N + 1)] for g in range(N + 1)]


def _cut_shared_groups(m: cp_model.CpModel, shelf: Bookshelf, hexes, same, solver) -> int:
    """Forbid the found way of putting two or more selected 6-cell cores into one real group."""
    cuts = 0
    for _, cells in groups(shelf):
        idx = {_cell(r, c) for r, c in cells}
        cores = [v for key, v in hexes.items() if solver.BooleanValue(v) and set(key) <= idx]
        if len(cores) >= 2:
            inner = [same[(i, j)] for i, j in EDGES if i in idx and j in idx]
            m.AddBoolOr([v.Not() for v in cores] + [s.Not() for s in inner])
            cuts += 1
    return cuts


def _goal(m: cp_model.CpModel, key: str, x, filled, same, pairs, fours, sq_inside: bool,
          sq_same: bool) -> cp_model.IntVar:
    """A boolean that, when true, forces ``key`` to be met."""
    g = m.NewBoolVar(key)
    cell = _cell

    def one_type_patterns(patterns: list[list[int]]) -> None:
        options = []
        for cells in patterns:
            for t in range(NUM_TYPES):
                b = m.NewBoolVar("")
                for i in cells:
                    m.AddImplication(b, x[i][t])
                options.append(b)
        m.Add(sum(options) >= 1).OnlyEnforceIf(g)

    if key == "SIX_PAIRS":
        m.Add(sum(pairs) >= 6).OnlyEnforceIf(g)
    elif key == "FOUR_GROUPS_OF_FOUR":
        m.Add(sum(fours) >= 4).OnlyEnforceIf(g)
    elif key == "FOUR_CORNERS":
        one_type_patterns([[cell(0, 0), cell(0, COLS - 1), cell(ROWS - 1, 0), cell(ROWS - 1, COLS - 1)]])
    elif key == "EIGHT_SAME":
        options = []
        for t in range(NUM_TYPES):
            b = m.NewBoolVar("")
            m.Add(sum(x[i][t] for i in range(N)) >= 8).OnlyEnforceIf(b)
            options.append(b)
        m.Add(sum(options) >= 1).OnlyEnforceIf(g)
    elif key == "DIAGONAL":
        one_type_patterns([[cell(i, i) for i in range(5)], [cell(i + 1, i) for i in range(5)],
                           [cell(i, 4 - i) for i in range(5)], [cell(i + 1, 4 - i) for i in range(5)]])
    elif key == "X_SHAPE":
        one_type_patterns([[cell(r, c), cell(r, c + 2), cell(r + 1, c + 1), cell(r + 2, c), cell(r + 2, c + 2)]
                           for r in range(ROWS - 2) for c in range(COLS - 2)])
    elif key in ("FOUR_ROWS_MAX3", "THREE_COLUMNS_MAX3", "TWO_ROWS_ALL_DIFFERENT", "TWO_COLUMNS_ALL_DIFFERENT"):
        rows = key in ("FOUR_ROWS_MAX3", "TWO_ROWS_ALL_DIFFERENT")
        lines = ([[cell(r, c) for c in range(COLS)] for r in range(ROWS)] if rows
                 else [[cell(r, c) for r in range(ROWS)] for c in range(COLS)])
        need = {"FOUR_ROWS_MAX3": 4, "THREE_COLUMNS_MAX3": 3, "TWO_ROWS_ALL_DIFFERENT": 2,
                "TWO_COLUMNS_ALL_DIFFERENT": 2}[key]
        oks = []
        for cells in lines:
            ok = m.NewBoolVar("")
            for i in cells:
                m.AddImplication(ok, filled[i])
            if key.endswith("MAX3"):
                present = [m.NewBoolVar("") for _ in range(NUM_TYPES)]
                for t in range(NUM_TYPES):
                    for i in cells:
                        m.AddImplication(x[i][t], present[t])
                m.Add(sum(present) <= 3).OnlyEnforceIf(ok)
            else:
                for t in range(NUM_TYPES):
                    m.Add(sum(x[i][t] for i in cells) <= 1).OnlyEnforceIf(ok)
            oks.append(ok)
        m.Add(sum(oks) >= need).OnlyEnforceIf(g)
        if key == "TWO_COLUMNS_ALL_DIFFERENT":  # redundant: every type twice at least
            for t in range(NUM_TYPES):
                m.Add(sum(x[i][t] for i in range(N)) >= 2).OnlyEnforceIf(g)
    elif key == "STAIRCASE":
        options = []
        for k in (1, 2):
            for heights in (list(range(k, k + COLS)), list(range(k + COLS - 1, k - 1, -1))):
                b = m.NewBoolVar("")
                for c, h in enumerate(heights):
                    for r in range(ROWS):
                        lit = filled[cell(r, c)] if r >= ROWS - h else filled[cell(r, c)].Not()
                        m.AddImplication(b, lit)
                options.append(b)
        m.Add(sum(options) >= 1).OnlyEnforceIf(g)
    elif key == "TWO_SQUARES":
        squares = [(r, c) for r in range(ROWS - 1) for c in range(COLS - 1)]
        by_type: list[list[cp_model.IntVar]] = [[] for _ in range(NUM_TYPES)]
        sq_vars = {}
        for r, c in squares:
            inside = [cell(r, c), cell(r, c + 1), cell(r + 1, c), cell(r + 1, c + 1)]
            for t in range(NUM_TYPES):
                b = m.NewBoolVar("")
                for i in inside:
                    m.AddImplication(b, x[i][t])
                if not sq_inside:  # the group is exactly the square: no same-type edge leaves it
                    for i in inside:
                        for j in range(N):
                            if (i, j) in same and j not in inside:
                                m.AddImplication(b, same[(i, j)].Not())
                by_type[t].append(b)
                sq_vars[(r, c, t)] = b
        if sq_inside:  # chosen squares may not overlap
            for (r1, c1) in squares:
                for (r2, c2) in squares:
                    if (r1, c1) < (r2, c2) and abs(r1 - r2) < 2 and abs(c1 - c2) < 2:
                        m.Add(sum(sq_vars[(r1, c1, t)] + sq_vars[(r2, c2, t)] for t in range(NUM_TYPES)) <= 1)
        if sq_same:
            options = []
            for t in range(NUM_TYPES):
                b = m.NewBoolVar("")
                m.Add(sum(by_type[t]) >= 2).OnlyEnforceIf(b)
                options.append(b)
            m.Add(sum(options) >= 1).OnlyEnforceIf(g)
        else:
            m.Add(sum(sum(v) for v in by_type) >= 2).OnlyEnforceIf(g)
    else:  # pragma: no cover
        raise AssertionError(key)
    return g
