"""The perfect-shelf CP-SAT model shared by :mod:`solvers.shelfie.best_shelf` and
:mod:`solvers.shelfie.goal_bounds`: the shelf model, its proof pieces and the stored goal lemmas.

* :func:`build_model`: one-hot type per cell (or empty), gravity per column, ``same`` literals for
  same-type neighbours, groups as a partition of the tiles into polyomino placements (a 6-cell
  "core" plus "extension" tiles for groups of 6 or more), the personal goal and the two common
  goals; it maximises the final score.  :func:`cut_shared_groups` removes its one over-count
  (two cores joined through extension tiles) when a solution shows it.
* :func:`tasks`: the pieces of the proof (personal matches, goals counted, full or not, group
  profile) with their potentials, pruned by counting (:func:`goals_fit`) and by the goal lemmas;
  :func:`restrict` adds one piece's constraints to a copy of the model.
* :func:`goal_lemmas` / :func:`stored_bounds`: the lemmas proven by
  :mod:`solvers.shelfie.goal_bounds`, stored in ``data/goal_bounds.json``.
* :data:`PROBING`, :data:`CLIQUE`: the presolve effort caps every piece's solver uses.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from ortools.sat.python import cp_model

from puzzles.shelfie.rules import (
    COLS,
    END_GAME_TOKEN,
    GROUP_POINTS,
    NUM_TYPES,
    PERSONAL_POINTS,
    ROWS,
    TILES_PER_TYPE,
    Bookshelf,
    group_points,
    groups,
    personal_goal_card,
)

BOUNDS_FILE = Path(__file__).parent / "data" / "goal_bounds.json"

N = ROWS * COLS


def card_cells(personal: int | None) -> list[tuple[int, int, int]]:
    """The personal goal card's (row, column, type) cells; none for ``personal=None``."""
    return [] if personal is None else list(personal_goal_card(personal))


def cell(r: int, c: int) -> int:
    return r * COLS + c


def edges() -> list[tuple[int, int]]:
    out = []
    for r in range(ROWS):
        for c in range(COLS):
            if c + 1 < COLS:
                out.append((cell(r, c), cell(r, c + 1)))
            if r + 1 < ROWS:
                out.append((cell(r, c), cell(r + 1, c)))
    return out


EDGES = edges()

PROBING = 0.05  # CP-SAT presolve probing effort (deterministic time; default 1.0)
CLIQUE = 1e6  # CP-SAT presolve clique merging effort (default 1e8)


def build_model(personal: int | None, goals: tuple[str, str], token_values: tuple[int, int], end_token: bool,
                 squares_inside_groups: bool, squares_same_type: bool):
    """The shelf model: cells, groups, personal goal, the two goals; maximises the final score.

    Returns (model, cell type literals, objective, the parts a piece fixes, 6-cell cores, same-type
    edge literals).
    """
    m = cp_model.CpModel()
    x = [[m.new_bool_var(f"x{i}_{t}") for t in range(NUM_TYPES)] for i in range(N)]
    filled = [m.new_bool_var(f"f{i}") for i in range(N)]
    for i in range(N):
        m.add(sum(x[i]) == filled[i])
    for r in range(ROWS - 1):
        for c in range(COLS):
            m.add_implication(filled[cell(r, c)], filled[cell(r + 1, c)])
    for t in range(NUM_TYPES):
        m.add(sum(x[i][t] for i in range(N)) <= TILES_PER_TYPE)

    # same-type edges
    same: dict[tuple[int, int], cp_model.IntVar] = {}
    for i, j in EDGES:
        ys = []
        for t in range(NUM_TYPES):
            y = m.new_bool_var("")
            m.add_bool_or([x[i][t].negated(), x[j][t].negated(), y])
            m.add_implication(y, x[i][t])
            m.add_implication(y, x[j][t])
            ys.append(y)
        s = m.new_bool_var(f"s{i}_{j}")
        m.add(sum(ys) == s)
        same[(i, j)] = same[(j, i)] = s

    adjacency, pairs, fours, hexes, counts, n_ext, n_filled, present = placement_groups(m, x, filled, same)

    # personal goal
    card = card_cells(personal)
    matches = [x[cell(r, c)][t] for r, c, t in card]
    pm = [m.new_bool_var(f"pm{k}") for k in range(1, 7)]
    for k, b in enumerate(pm, start=1):
        m.add(sum(matches) >= k * b)  # linear, so the LP sees it
        if k > 1:
            m.add_implication(b, pm[k - 2])
    steps = [PERSONAL_POINTS[k] - PERSONAL_POINTS[k - 1] for k in range(1, 7)]
    personal_pts = sum(s * b for s, b in zip(steps, pm))

    # matched cells of one type need that type on the shelf (a linear link for the group counts)
    card_types = sorted({t for _, _, t in card})
    if card:
        m.add(sum(matches) <= sum(sum(1 for *_, u in card if u == t) * present[t] for t in card_types))

    full = m.new_bool_var("full")
    for i in range(N):
        m.add_implication(full, filled[i])
    goal_vars = [goal_literal(m, key, x, filled, same, pairs, fours, squares_inside_groups, squares_same_type)
                 for key in goals]
    objective = adjacency + personal_pts + sum(v * g for v, g in zip(token_values, goal_vars))
    if end_token:
        objective += END_GAME_TOKEN * full
    m.maximize(objective)
    fixed_parts = {"pm": pm, "goals": goal_vars, "full": full, "counts": counts, "n_filled": n_filled,
                   "matches": matches}
    return m, x, objective, fixed_parts, hexes, same


def tasks(personal: int | None, token_values: tuple[int, int], end_token: bool,
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
    card = card_cells(personal)
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
                    for c3, c4, c5, c6, pts, spare in group_profiles(cap):
                        if c3 + c4 + c5 + c6 + spare < min_types or pts > most:
                            continue
                        if (full, c3, c4, c5, c6) in impossible:
                            continue
                        if not goals_fit(counted, c3, c4, c5, c6, spare, squares_inside_groups):
                            continue
                        out.append((fixed + pts, (k, g1, g2, full, c3, c4, c5, c6)))
    out.sort(key=lambda t: (-t[0], t[1]))
    return out


def group_profiles(cap: int) -> list[tuple[int, int, int, int, int, int]]:
    """Every (groups of 3, 4, 5, 6+) that fits in ``cap`` tiles, with its points and the tiles to spare."""
    out = []
    for c6 in range(cap // 6 + 1):
        for c5 in range((cap - 6 * c6) // 5 + 1):
            for c4 in range((cap - 6 * c6 - 5 * c5) // 4 + 1):
                for c3 in range((cap - 6 * c6 - 5 * c5 - 4 * c4) // 3 + 1):
                    pts = 8 * c6 + 5 * c5 + 3 * c4 + 2 * c3
                    used = 6 * c6 + 5 * c5 + 4 * c4 + 3 * c3
                    out.append((c3, c4, c5, c6, pts, cap - used))  # spare: tiles for small groups or extensions
    return out


def goals_fit(counted: set[str], c3: int, c4: int, c5: int, c6: int, spare: int, sq_inside: bool) -> bool:
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


def restrict(piece: cp_model.CpModel, parts: dict, key: tuple, objective, target: int) -> None:
    """Add one task's constraints to a copy of the model."""
    k, g1, g2, full, c3, c4, c5, c6 = key
    piece.add(sum(parts["matches"]) == k)
    for j in range(k):
        piece.add(parts["pm"][j] == 1)
    if g1:
        piece.add(parts["goals"][0] == 1)
    if g2:
        piece.add(parts["goals"][1] == 1)
    piece.add(parts["full"] == full)
    if not full:
        piece.add(parts["n_filled"] <= N - 1)
    for size, v in zip((3, 4, 5, 6), (c3, c4, c5, c6)):
        piece.add(parts["counts"][size] == v)
    piece.add(objective >= target)


def placements() -> list[tuple[int, ...]]:
    """Every connected set of 1..6 cells of the shelf (polyomino placements), as sorted cell tuples."""
    level = {frozenset([i]) for i in range(N)}
    nbrs = {i: [j for a, j in EDGES if a == i] + [a for a, j in EDGES if j == i] for i in range(N)}
    out: list[tuple[int, ...]] = sorted(tuple(s) for s in level)
    for _ in range(2, 7):
        level = {s | {j} for s in level for i in s for j in nbrs[i] if j not in s}
        out.extend(sorted(tuple(sorted(s)) for s in level))
    return out


PLACEMENTS = placements()
NEIGHBOURS = {i: sorted({j for a, j in EDGES if a == i} | {a for a, j in EDGES if j == i}) for i in range(N)}


def _partition(m: cp_model.CpModel, filled, same) -> tuple[list[cp_model.IntVar], list[cp_model.IntVar]]:
    """The placement literals and extension tiles, and the constraints that make them a partition of the
    tiles into groups (see :func:`placement_groups`)."""
    z = []
    cover: list[list[cp_model.IntVar]] = [[] for _ in range(N)]
    for cells in PLACEMENTS:
        v = m.new_bool_var(f"p{'_'.join(map(str, cells))}")
        z.append(v)
        for i in cells:
            cover[i].append(v)
    ext = [m.new_bool_var(f"ext{i}") for i in range(N)]
    core = [m.new_bool_var(f"core{i}") for i in range(N)]  # i lies in a selected 6-cell core
    for i in range(N):
        m.add(sum(cover[i]) + ext[i] == filled[i])
        m.add(sum(v for v, cells in zip(z, PLACEMENTS) if len(cells) == 6 and i in cells) == core[i])
        for j in NEIGHBOURS[i]:
            # an extension tile's same-type neighbours belong to big groups too
            m.add_bool_or([ext[i].negated(), same[(i, j)].negated(), ext[j], core[j]])
        # an extension tile touches a same-type big-group tile
        m.add_bool_or([ext[i].negated()] + [same[(i, j)] for j in NEIGHBOURS[i]])
    for v, cells in zip(z, PLACEMENTS):
        inside = set(cells)
        for i, j in EDGES:
            if i in inside and j in inside:
                m.add_implication(v, same[(i, j)])
            elif i in inside or j in inside:
                a, b = (i, j) if i in inside else (j, i)
                if len(cells) < 6:
                    m.add_implication(v, same[(a, b)].negated())
                else:
                    m.add_bool_or([v.negated(), same[(a, b)].negated(), ext[b]])
    return z, ext


def _groups_per_type(m: cp_model.CpModel, x, z, present) -> list[cp_model.IntVar]:
    """Groups per type, counted through each group's first cell."""
    first = [m.new_bool_var(f"first{i}") for i in range(N)]
    for i in range(N):
        m.add(sum(v for v, cells in zip(z, PLACEMENTS) if cells[0] == i) == first[i])
    per_type = []
    for t in range(NUM_TYPES):
        roots = []
        for i in range(N):
            r = m.new_bool_var(f"root{i}_{t}")
            m.add_implication(r, first[i])
            m.add_implication(r, x[i][t])
            m.add_bool_or([first[i].negated(), x[i][t].negated(), r])
            roots.append(r)
        n_t = m.new_int_var(0, N, f"groups_of{t}")
        m.add(n_t == sum(roots))
        m.add(n_t >= present[t])
        per_type.append(n_t)
    return per_type


def _typed_profile(m: cp_model.CpModel, x, z, ext, per_type, n_ext) -> None:
    """Typed profile: the tiles of a type are the sum of its groups' sizes (plus its extension tiles)."""
    for t in range(NUM_TYPES):
        terms = []
        for size in range(1, 7):
            for i in range(N):
                starts = [v for v, cells in zip(z, PLACEMENTS) if len(cells) == size and cells[0] == i]
                if not starts:
                    continue
                head = m.new_bool_var("")
                m.add(sum(starts) >= 1).only_enforce_if(head)
                m.add_implication(head, x[i][t])
                m.add(sum(starts) + x[i][t] <= 1 + head)  # first cell of a size-`size` group of type t
                terms.append(size * head)
        ext_t = []
        for i in range(N):
            e = m.new_bool_var("")
            m.add_implication(e, ext[i])
            m.add_implication(e, x[i][t])
            m.add_bool_or([ext[i].negated(), x[i][t].negated(), e])
            ext_t.append(e)
        m.add(sum(x[i][t] for i in range(N)) == sum(terms) + sum(ext_t))
        m.add(sum(x[i][t] for i in range(N)) <= 6 * per_type[t] + n_ext)


def placement_groups(m: cp_model.CpModel, x, filled, same):
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
    z, ext = _partition(m, filled, same)
    pts = [GROUP_POINTS[len(cells)] for cells in PLACEMENTS]
    adjacency = m.new_int_var(0, 40, "adjacency")
    m.add(adjacency == sum(p * v for p, v in zip(pts, z) if p))
    n_groups = m.new_int_var(0, N, "groups")
    m.add(n_groups == sum(z))
    n_filled = m.new_int_var(0, N, "tiles")
    m.add(n_filled == sum(filled))
    # counting cuts: every type present needs a group of its own; with G groups over F tiles the
    # adjacency is at most UB[G][F] (exact table) and 9A <= 14F - 12G (its linear form)
    present = [m.new_bool_var(f"present{t}") for t in range(NUM_TYPES)]
    for t in range(NUM_TYPES):
        for i in range(N):
            m.add_implication(x[i][t], present[t])
    m.add(n_groups >= sum(present))
    # groups per type, through each group's first cell: a type with n groups and no extension tiles
    # has at most 6 n tiles (this rules out, e.g., EIGHT_SAME with five groups of five types)
    per_type = _groups_per_type(m, x, z, present)
    m.add(sum(per_type) == n_groups)
    table = adjacency_bounds()
    ub = m.new_int_var(0, 40, "adj_ub")
    index = m.new_int_var(0, (N + 1) * (N + 1) - 1, "gf")
    m.add(index == n_groups * (N + 1) + n_filled)
    m.add_element(index, [table[g][f] for g in range(N + 1) for f in range(N + 1)], ub)
    m.add(adjacency <= ub)
    m.add(9 * adjacency <= 14 * n_filled - 12 * n_groups)
    pairs = [v for v, cells in zip(z, PLACEMENTS) if len(cells) >= 2]
    fours = [v for v, cells in zip(z, PLACEMENTS) if len(cells) >= 4]
    hexes = {cells: v for v, cells in zip(z, PLACEMENTS) if len(cells) == 6}
    counts = {}
    for size in range(1, 7):
        c = m.new_int_var(0, N // size, f"count{size}")
        m.add(c == sum(v for v, cells in zip(z, PLACEMENTS) if len(cells) == size))
        counts[size] = c
    n_ext = m.new_int_var(0, N, "extension_tiles")
    m.add(n_ext == sum(ext))
    m.add(n_filled == sum(size * c for size, c in counts.items()) + n_ext)
    _typed_profile(m, x, z, ext, per_type, n_ext)
    return adjacency, pairs, fours, hexes, counts, n_ext, n_filled, present


def adjacency_bounds() -> list[list[int]]:
    """UB[g][f]: the most adjacency points g groups of f tiles in all can score (-1: impossible)."""
    @cache
    def best(g: int, f: int) -> int:
        if g == 0:
            return 0 if f == 0 else -10**6
        return max((group_points(s) + best(g - 1, f - s) for s in range(1, f - g + 2)), default=-10**6)

    return [[max(best(g, f), 0) if (g <= f and (g > 0 or f == 0)) else 0 for f in range(N + 1)] for g in range(N + 1)]


def cut_shared_groups(m: cp_model.CpModel, shelf: Bookshelf, hexes, same, solver) -> int:
    """Forbid the found way of putting two or more selected 6-cell cores into one real group."""
    cuts = 0
    for _, cells in groups(shelf):
        idx = {cell(r, c) for r, c in cells}
        cores = [v for key, v in hexes.items() if solver.boolean_value(v) and set(key) <= idx]
        if len(cores) >= 2:
            inner = [same[(i, j)] for i, j in EDGES if i in idx and j in idx]
            m.add_bool_or([v.negated() for v in cores] + [s.negated() for s in inner])
            cuts += 1
    return cuts


def _one_type_patterns(m: cp_model.CpModel, g, x, patterns: list[list[int]]) -> None:
    """``g`` forces one of ``patterns`` (cell lists) to hold a single type."""
    options = []
    for cells in patterns:
        for t in range(NUM_TYPES):
            b = m.new_bool_var("")
            for i in cells:
                m.add_implication(b, x[i][t])
            options.append(b)
    m.add(sum(options) >= 1).only_enforce_if(g)


def _eight_same(m: cp_model.CpModel, g, x) -> None:
    options = []
    for t in range(NUM_TYPES):
        b = m.new_bool_var("")
        m.add(sum(x[i][t] for i in range(N)) >= 8).only_enforce_if(b)
        options.append(b)
    m.add(sum(options) >= 1).only_enforce_if(g)


_LINE_NEEDS = {"FOUR_ROWS_MAX3": 4, "THREE_COLUMNS_MAX3": 3, "TWO_ROWS_ALL_DIFFERENT": 2, "TWO_COLUMNS_ALL_DIFFERENT": 2}


def _full_lines(m: cp_model.CpModel, g, key: str, x, filled) -> None:
    """The four goals on full rows or columns (at most 3 types, or all different)."""
    rows = key in ("FOUR_ROWS_MAX3", "TWO_ROWS_ALL_DIFFERENT")
    lines = ([[cell(r, c) for c in range(COLS)] for r in range(ROWS)] if rows
             else [[cell(r, c) for r in range(ROWS)] for c in range(COLS)])
    oks = []
    for cells in lines:
        ok = m.new_bool_var("")
        for i in cells:
            m.add_implication(ok, filled[i])
        if key.endswith("MAX3"):
            present = [m.new_bool_var("") for _ in range(NUM_TYPES)]
            for t in range(NUM_TYPES):
                for i in cells:
                    m.add_implication(x[i][t], present[t])
            m.add(sum(present) <= 3).only_enforce_if(ok)
        else:
            for t in range(NUM_TYPES):
                m.add(sum(x[i][t] for i in cells) <= 1).only_enforce_if(ok)
        oks.append(ok)
    m.add(sum(oks) >= _LINE_NEEDS[key]).only_enforce_if(g)
    if key == "TWO_COLUMNS_ALL_DIFFERENT":  # redundant: every type twice at least
        for t in range(NUM_TYPES):
            m.add(sum(x[i][t] for i in range(N)) >= 2).only_enforce_if(g)


def _staircase(m: cp_model.CpModel, g, filled) -> None:
    options = []
    for k in (1, 2):
        for heights in (list(range(k, k + COLS)), list(range(k + COLS - 1, k - 1, -1))):
            b = m.new_bool_var("")
            for c, h in enumerate(heights):
                for r in range(ROWS):
                    lit = filled[cell(r, c)] if r >= ROWS - h else filled[cell(r, c)].negated()
                    m.add_implication(b, lit)
            options.append(b)
    m.add(sum(options) >= 1).only_enforce_if(g)


def _two_squares(m: cp_model.CpModel, g, x, same, sq_inside: bool, sq_same: bool) -> None:
    """Two 2x2 squares: exact groups by default, anywhere (not overlapping) with ``sq_inside``;
    of one type with ``sq_same``."""
    squares = [(r, c) for r in range(ROWS - 1) for c in range(COLS - 1)]
    by_type: list[list[cp_model.IntVar]] = [[] for _ in range(NUM_TYPES)]
    sq_vars = {}
    for r, c in squares:
        inside = [cell(r, c), cell(r, c + 1), cell(r + 1, c), cell(r + 1, c + 1)]
        for t in range(NUM_TYPES):
            b = m.new_bool_var("")
            for i in inside:
                m.add_implication(b, x[i][t])
            if not sq_inside:  # the group is exactly the square: no same-type edge leaves it
                for i in inside:
                    for j in range(N):
                        if (i, j) in same and j not in inside:
                            m.add_implication(b, same[(i, j)].negated())
            by_type[t].append(b)
            sq_vars[(r, c, t)] = b
    if sq_inside:  # chosen squares may not overlap
        for (r1, c1) in squares:
            for (r2, c2) in squares:
                if (r1, c1) < (r2, c2) and abs(r1 - r2) < 2 and abs(c1 - c2) < 2:
                    m.add(sum(sq_vars[(r1, c1, t)] + sq_vars[(r2, c2, t)] for t in range(NUM_TYPES)) <= 1)
    if sq_same:
        options = []
        for t in range(NUM_TYPES):
            b = m.new_bool_var("")
            m.add(sum(by_type[t]) >= 2).only_enforce_if(b)
            options.append(b)
        m.add(sum(options) >= 1).only_enforce_if(g)
    else:
        m.add(sum(sum(v) for v in by_type) >= 2).only_enforce_if(g)


def goal_literal(m: cp_model.CpModel, key: str, x, filled, same, pairs, fours, sq_inside: bool,
                 sq_same: bool) -> cp_model.IntVar:
    """A boolean that, when true, forces ``key`` to be met."""
    g = m.new_bool_var(key)
    if key == "SIX_PAIRS":
        m.add(sum(pairs) >= 6).only_enforce_if(g)
    elif key == "FOUR_GROUPS_OF_FOUR":
        m.add(sum(fours) >= 4).only_enforce_if(g)
    elif key == "FOUR_CORNERS":
        _one_type_patterns(m, g, x, [[cell(0, 0), cell(0, COLS - 1), cell(ROWS - 1, 0), cell(ROWS - 1, COLS - 1)]])
    elif key == "EIGHT_SAME":
        _eight_same(m, g, x)
    elif key == "DIAGONAL":
        _one_type_patterns(m, g, x, [[cell(i, i) for i in range(5)], [cell(i + 1, i) for i in range(5)],
                                     [cell(i, 4 - i) for i in range(5)], [cell(i + 1, 4 - i) for i in range(5)]])
    elif key == "X_SHAPE":
        _one_type_patterns(m, g, x, [[cell(r, c), cell(r, c + 2), cell(r + 1, c + 1), cell(r + 2, c), cell(r + 2, c + 2)]
                                     for r in range(ROWS - 2) for c in range(COLS - 2)])
    elif key in _LINE_NEEDS:
        _full_lines(m, g, key, x, filled)
    elif key == "STAIRCASE":
        _staircase(m, g, filled)
    elif key == "TWO_SQUARES":
        _two_squares(m, g, x, same, sq_inside, sq_same)
    else:  # pragma: no cover
        raise AssertionError(key)
    return g


@cache
def stored_bounds() -> tuple[dict[str, Any], ...]:
    """The stored lemmas (goal set, bound, witness shelf)."""
    return tuple(json.loads(BOUNDS_FILE.read_text())["bounds"])


def goal_lemmas(squares_inside_groups: bool = False, squares_same_type: bool = False) -> dict[frozenset[str], dict]:
    """{goal set: its stored lemmas}, for the given TWO_SQUARES rule."""
    default_rule = not squares_inside_groups and not squares_same_type
    return {frozenset(e["goals"]): e for e in stored_bounds() if default_rule or "TWO_SQUARES" not in e["goals"]}
