"""The perfect shelf: the highest final score one bookshelf can reach (CP-SAT, proven optimal).

Given a personal goal card and the pair of common goals, find a bookshelf (tiles obey gravity,
at most 22 of a type) maximising

    adjacency points + personal goal points + common goal tokens + end-game token.

Assumptions (the best case for the shelf's owner): each common goal met is worth its top token
(8 by default, ``token_values`` to change), and a full shelf takes the end-game token (+1).  A shelf
need not be full (STAIRCASE cannot be met by a full shelf).

Model
-----
One-hot type per cell (or empty), gravity per column.  Groups: every filled cell carries the label
of its group's root cell (one-hot ``lab[i][r]``, r <= i, so the root is the group's first cell);
orthogonal same-type neighbours share a label; each label class is connected through a flow along
same-type edges from its root (so a class is exactly one group).  The root's class size gives the
group's points through "size >= k" indicators.  Each common goal is a boolean whose truth forces a
witness pattern (rows, columns, squares, diagonals, ...).  Redundant cuts help the bound: at most
8/6 points per tile, ``9 A <= 14 F - 12 G`` (A adjacency, F tiles, G groups), the exact table
``A <= UB[G][F]``, and G >= number of types present.  The result is re-scored with the plain scoring
functions of :mod:`puzzles.shelfie.rules` and must reach the model's objective.

Status: CP-SAT finds shelves of 53-66 points within seconds and proves optimality when the shelf
reaches the group-count bound (e.g. card 7, FOUR_ROWS_MAX3 + THREE_COLUMNS_MAX3: 66 in 2.7 s); for
most pairs a gap of 2-6 points to the proven bound remains after 30 s (even with the personal goal,
both goals and a full shelf fixed, 60 s do not close it).  ``BestShelf.optimal`` tells which.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model

from puzzles.shelfie.rules import (
    COLS,
    END_GAME_TOKEN,
    EMPTY,
    NUM_TYPES,
    PERSONAL_POINTS,
    ROWS,
    TILES_PER_TYPE,
    Bookshelf,
    adjacency_points,
    check_goal_key,
    common_goal_met,
    personal_goal_card,
    personal_goal_points,
)

N = ROWS * COLS


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

    personal: int
    goals: tuple[str, str]
    shelf: Bookshelf
    score: int
    breakdown: dict[str, int]
    optimal: bool
    bound: float
    seconds: float
    status: str
    goals_met: dict[str, bool] = field(default_factory=dict)

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
        }


def best_shelf(
    personal: int,
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
) -> BestShelf:
    """Solve the perfect-shelf problem for personal card ``personal`` and two common goal keys."""
    personal_goal_card(personal)  # validates
    goals = tuple(check_goal_key(g) for g in goals)
    if len(goals) != 2 or goals[0] == goals[1]:
        raise ValueError(f"give two different common goals, got {goals!r}")
    start = time.perf_counter()
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

    adjacency, pairs, fours = _label_groups(m, x, filled, same)

    # personal goal
    matches = [x[_cell(r, c)][t] for r, c, t in personal_goal_card(personal)]
    pm = [m.NewBoolVar(f"pm{k}") for k in range(1, 7)]
    for k, b in enumerate(pm, start=1):
        m.Add(sum(matches) >= k * b)  # linear, so the LP sees it
        if k > 1:
            m.AddImplication(b, pm[k - 2])
    steps = [PERSONAL_POINTS[k] - PERSONAL_POINTS[k - 1] for k in range(1, 7)]
    personal_pts = sum(s * b for s, b in zip(steps, pm))

    full = m.NewBoolVar("full")
    for i in range(N):
        m.AddImplication(full, filled[i])
    goal_vars = [_goal(m, key, x, filled, same, pairs, fours, squares_inside_groups, squares_same_type)
                 for key in goals]
    objective = adjacency + personal_pts + sum(v * g for v, g in zip(token_values, goal_vars))
    if end_token:
        objective += END_GAME_TOKEN * full
    if min_score is not None:
        m.Add(objective >= min_score)

    m.Maximize(objective)

    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = seed
    solver.parameters.linearization_level = 2
    status = solver.Solve(m)
    seconds = time.perf_counter() - start
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise RuntimeError(f"no shelf found in {time_limit:g} s (status {solver.StatusName(status)})")
    grid = [[EMPTY] * COLS for _ in range(ROWS)]
    for i in range(N):
        for t in range(NUM_TYPES):
            if solver.BooleanValue(x[i][t]):
                grid[i // COLS][i % COLS] = t
    shelf = Bookshelf(grid)
    shelf.validate()
    options = {"squares_inside_groups": squares_inside_groups, "squares_same_type": squares_same_type}
    met = {key: common_goal_met(key, shelf, **options) for key in goals}
    breakdown = {
        "adjacency": adjacency_points(shelf),
        "personal_goal": personal_goal_points(personal, shelf),
        "common_goals": sum(v for v, key in zip(token_values, goals) if met[key]),
        "end_token": END_GAME_TOKEN if end_token and shelf.is_full() else 0,
    }
    score = sum(breakdown.values())
    if score < round(solver.ObjectiveValue()):
        raise AssertionError(f"model claims {solver.ObjectiveValue()} but the shelf scores {score}")
    return BestShelf(personal, goals, shelf, score, breakdown, status == cp_model.OPTIMAL,
                     solver.BestObjectiveBound(), seconds, solver.StatusName(status), met)


def _label_groups(m: cp_model.CpModel, x, filled, same):
    """Exact group model: root labels plus flow connectivity.  Returns (adjacency, >=2 and >=4 witnesses)."""
    # group labels: lab[i][r] (r <= i) = cell i belongs to the group rooted at r
    lab = [[m.NewBoolVar(f"l{i}_{r}") for r in range(i + 1)] for i in range(N)]
    root = [lab[i][i] for i in range(N)]
    for i in range(N):
        m.Add(sum(lab[i]) == filled[i])
        for r in range(i):
            m.AddImplication(lab[i][r], root[r])
            for t in range(NUM_TYPES):
                m.AddBoolOr([lab[i][r].Not(), x[r][t].Not(), x[i][t]])
    for i, j in EDGES:
        lo, hi = min(i, j), max(i, j)
        for r in range(lo + 1):
            m.Add(lab[lo][r] == lab[hi][r]).OnlyEnforceIf(same[(i, j)])
        for r in range(lo + 1, hi + 1):
            m.AddImplication(same[(i, j)], lab[hi][r].Not())
    size = [m.NewIntVar(0, N, f"size{r}") for r in range(N)]
    for r in range(N):
        m.Add(size[r] == sum(lab[i][r] for i in range(r, N)))
    # connectivity: flow from each root along same-type edges, one unit consumed per non-root cell
    flow = {}
    for i, j in EDGES:
        for a, b in ((i, j), (j, i)):
            f = m.NewIntVar(0, N - 1, f"fl{a}_{b}")
            m.Add(f == 0).OnlyEnforceIf(same[(a, b)].Not())
            flow[(a, b)] = f
    for i in range(N):
        inflow = sum(flow[(a, b)] for (a, b) in flow if b == i)
        outflow = sum(flow[(a, b)] for (a, b) in flow if a == i)
        m.Add(inflow - outflow == filled[i] - size[i])

    ge: dict[int, list[cp_model.IntVar]] = {}
    for k in range(2, 7):
        ge[k] = []
        for r in range(N):
            b = m.NewBoolVar(f"ge{k}_{r}")
            m.Add(size[r] >= k * b)  # linear form: gives the LP bound 8/6 points per tile
            if k > 2:
                m.AddImplication(b, ge[k - 1][r])
            ge[k].append(b)
    group_pts = []
    for r in range(N):
        p = m.NewIntVar(0, 8, f"pts{r}")
        m.Add(p == 2 * ge[3][r] + ge[4][r] + 2 * ge[5][r] + 3 * ge[6][r])
        m.Add(3 * p <= 4 * size[r])  # at most 8/6 points per tile of the group
        group_pts.append(p)
    adjacency = m.NewIntVar(0, 40, "adjacency")
    m.Add(adjacency == sum(group_pts))
    m.Add(3 * adjacency <= 4 * sum(filled))
    # redundant cut: with G groups over F tiles adjacency is at most UB[G][F]; every type present
    # needs a group of its own, so G >= number of types present
    n_groups = m.NewIntVar(0, N, "groups")
    m.Add(n_groups == sum(root))
    n_filled = m.NewIntVar(0, N, "tiles")
    m.Add(n_filled == sum(filled))
    present = [m.NewBoolVar(f"present{t}") for t in range(NUM_TYPES)]
    for t in range(NUM_TYPES):
        for i in range(N):
            m.AddImplication(x[i][t], present[t])
    m.Add(n_groups >= sum(present))
    table = _adjacency_bounds()
    ub = m.NewIntVar(0, 40, "adj_ub")
    index = m.NewIntVar(0, (N + 1) * (N + 1) - 1, "gf")
    m.Add(index == n_groups * (N + 1) + n_filled)
    m.AddElement(index, [table[g][f] for g in range(N + 1) for f in range(N + 1)], ub)
    m.Add(adjacency <= ub)
    # the same idea as a linear cut for the LP: every group not of exactly 6 tiles loses at least
    # 4/3 against 8/6 points per tile, and at most F/6 groups have 6 tiles: 9A <= 14F - 12G
    m.Add(9 * adjacency <= 14 * n_filled - 12 * n_groups)
    for r in range(N):
        m.Add(group_pts[r] <= 8 * root[r])

    return adjacency, ge[2], ge[4]


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
