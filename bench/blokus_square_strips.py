"""All 84 Blokus pieces on 21×17: the quarter turn on a 17×17 square, strips beside it (an experiment; none found).

The restarted play-order search finds 19×19 in seconds because the quarter turn carries blue's moves to every
colour (a 21-piece search over cell orbits).  21×17 has no quarter turn, but its middle 17×17 square (0-based columns
2..18) does, and that turn R (r, c) -> (c - 2, 18 - r) squared is the board's half turn.  Blue's square pieces are
searched by the project's symmetric search (``solvers.blokus.solitaire._Search``, its compiled kernels unchanged,
units the 72 orbits of R on the square less its centre), their images under R, R² and R³ are yellow's, red's and
green's, and CP-SAT places every colour's last pieces in any arrangement.  Two ways to fill the strips (columns 0-1
and 19-20, 68 cells):

* **fixed strips** (default): the left strip is tiled first by blue pieces of a shape set ``S`` (17 cells) and green
  pieces of the same shapes (``all_strips``: every such tiling, 10,486 of them, about 50 CPU-s), the right strip by
  their half-turn images.  A square cell is closed to blue when it is edge-adjacent to a blue strip cell or to R of a
  green one; blue's square pieces form one tree that must cover a cell of every *anchor group* (the square cells
  diagonal to a corner-connected group of blue's strip pieces, or R of those of green's), a group blue can no
  longer reach cutting the branch.  CP-SAT (``solitaire._complete``) places the last ``--pieces-left``.
* ``--square-first``: blue's 12 pentominoes and 5 tetrominoes fill the square (largest first) as one tree starting
  near its top-left corner; when ``--pieces-left`` of them are left, CP-SAT (:func:`complete_with_tree`) places
  every colour's remaining pieces (those and the 1-, 2- and 3-cell pieces) anywhere, linking each colour's corner to
  its tree through the strips.  ``--far-sides`` / ``--half-walls`` keep blue off parts of its own sides (so that the
  strips' neighbours in the square are not all one colour), ``--offset`` puts the square on the left with one strip
  4 cells wide on the right, ``--ring 1`` leaves the square's outer ring to CP-SAT too, and ``--ring-colours FILE``
  prescribes which of the ring's cells are blue's.
* ``--strip-relaxation``: can the strips be filled beside a full square at all?  Of the square only its outer ring is
  modelled (:func:`strip_relaxation`, a necessary condition); ``--ring-colours FILE`` keeps the ring it finds.

Every layout found is replayed through the rule engine and verified; ``--save DIR`` stores it.  Results:
``bench/results/solitaire_all_pieces.md`` (2026-12-07, "a quarter-turn square and two strips").

    python bench/blokus_square_strips.py --time-limit 600 --strip-seconds 10 --slack 2 --pieces-left 5
    python bench/blokus_square_strips.py --square-first --far-sides --reach 3 --pieces-left 3 --trace
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from ortools.sat.python import cp_model

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solvers.blokus import solitaire as sol  # noqa: E402

COLS, ROWS, SIDE, LEFT = 21, 17, 17, 2  # the square: columns LEFT .. LEFT + SIDE - 1
CENTRE = (SIDE // 2, LEFT + SIDE // 2)  # the middle square's centre, the board's
BLUE, YELLOW, RED, GREEN = range(4)
Cell = tuple[int, int]


def turn(r: int, c: int, k: int = 1, left: int = LEFT) -> Cell:
    """R^k on the whole plane: the quarter turn of the square whose left column is ``left`` (the middle square by
    default), carrying blue's corner side to yellow's."""
    for _ in range(k % 4):
        r, c = c - left, SIDE - 1 + left - r
    return r, c


def half(r: int, c: int) -> Cell:
    """The board's half turn."""
    return ROWS - 1 - r, COLS - 1 - c


def strip_placements(t) -> list[int]:
    """Placements of the 21×17 tables lying in the left strip (columns 0 and 1)."""
    return [m for m in range(t.num_placements) if all(c < LEFT for _, c in t.moves[m].cells)]


STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIAGONALS = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def all_strips(t) -> list[list[tuple[int, int]]]:
    """Every exact tiling of the left strip by blue and green pieces (no monomino: it stays each colour's last
    piece), each shape at most once per colour and the same shapes for both colours, blue on (0, 0), green on
    (16, 0), no two pieces of one colour sharing an edge.  About 50 CPU-s; 10,486 tilings."""
    by_first: dict[Cell, list[int]] = {}
    for m in strip_placements(t):
        if t.pl_size[m] > 1:
            by_first.setdefault(min(t.moves[m].cells), []).append(m)
    order = [(r, c) for r in range(ROWS) for c in range(LEFT)]
    owner: dict[Cell, int] = {}
    used: dict[int, set[int]] = {BLUE: set(), GREEN: set()}
    chosen: list[tuple[int, int]] = []
    found: list[list[tuple[int, int]]] = []

    def fits(m: int, colour: int) -> bool:
        cells = t.moves[m].cells
        if int(t.pl_piece[m]) in used[colour] or any(x in owner for x in cells):
            return False
        if (0, 0) in cells and colour != BLUE or (ROWS - 1, 0) in cells and colour != GREEN:
            return False
        return not any(owner.get((r + dr, c + dc)) == colour for r, c in cells for dr, dc in STEPS)

    def extend(i: int) -> None:
        while i < len(order) and order[i] in owner:
            i += 1
        if i == len(order):
            if used[BLUE] == used[GREEN]:
                found.append(list(chosen))
            return
        for m in by_first.get(order[i], []):
            for colour in (BLUE, GREEN):
                if not fits(m, colour):
                    continue
                for x in t.moves[m].cells:
                    owner[x] = colour
                used[colour].add(int(t.pl_piece[m]))
                chosen.append((colour, m))
                extend(i + 1)
                chosen.pop()
                used[colour].discard(int(t.pl_piece[m]))
                for x in t.moves[m].cells:
                    del owner[x]

    extend(0)
    return found


def corner_groups(t, pieces: list[tuple[int, int]], colour: int) -> list[list[int]]:
    """A colour's pieces among ``pieces`` ((colour, placement) pairs: a strip's, say) grouped by corner contact
    (indices into ``pieces``)."""
    mine = [i for i, (c, _) in enumerate(pieces) if c == colour]
    cells = {i: set(t.moves[pieces[i][1]].cells) for i in mine}
    groups: list[list[int]] = []
    seen: set[int] = set()
    for i in mine:
        if i in seen:
            continue
        group, todo = [i], [i]
        seen.add(i)
        while todo:
            a = todo.pop()
            for j in mine:
                if j not in seen and any((r + dr, c + dc) in cells[j] for r, c in cells[a] for dr, dc in DIAGONALS):
                    seen.add(j)
                    group.append(j)
                    todo.append(j)
        groups.append(group)
    return groups


class SquareSearch(sol._Search):
    """Blue's square pieces under the quarter turn, the strips fixed; CP-SAT for every colour's last pieces.

    Connectivity: blue's square pieces form one tree (the first on an anchor, every later one at a corner of an
    earlier one), and the tree must cover a cell of every *anchor group*: the square cells diagonal to one
    corner-connected group of blue's strip pieces, or R of those of a group of green's (then every colour's strip
    pieces and square pieces hang together).  A group none of whose cells blue can still use cuts the branch.
    """

    def __init__(self, seed: int, breadth: int, restart_nodes: int, geo: sol.Geometry, strip: list[tuple[int, int]],
                 pieces_left: int, complete_seconds: float, slack: int = 0) -> None:
        super().__init__(seed, breadth, restart_nodes, geo, symmetric=True, strong=True)
        t = self.t
        self.strip = strip
        self._square_units()
        self.strip_shapes = sorted({int(t.pl_piece[m]) for colour, m in strip if colour == BLUE})
        square_cells = sum(sol.PIECE_SIZES) - sum(sol.PIECE_SIZES[p] for p in self.strip_shapes)
        self.budget = self.real_units - square_cells + slack  # slack: orbits blue loses, for CP-SAT to fill
        self.square_pieces = sol.NUM_PIECES - len(self.strip_shapes)
        self.complete_at = self.square_pieces - pieces_left
        self.complete_seconds = complete_seconds
        self._closed_and_anchors()
        self.tries = {"completed": 0, "disconnected": 0, "refuted or unknown": 0}

    left_col = LEFT  # the square's left column

    def _square_units(self, ring: int = 0) -> None:
        """Units: the orbits of R on the square less its centre and less its outer ``ring`` cells; the rest of the
        board is closed."""
        t = self.t
        units: list[list[int]] = []
        unit_of = np.full(t.area, -1, np.int64)
        for r in range(ring, ROWS - ring):
            for c in range(self.left_col + ring, self.left_col + SIDE - ring):
                q = t.flat(r, c)
                if unit_of[q] >= 0 or (r, c) == (SIDE // 2, self.left_col + SIDE // 2):  # its centre
                    continue
                members = sorted({t.flat(*turn(r, c, k, self.left_col)) for k in range(4)})
                unit_of[members] = len(units)
                units.append(members)
        border = len(units)
        unit_of[unit_of < 0] = border
        units.append([])
        self.unit_of, self.n_units, self.real_units = unit_of, len(units), border
        self.unit_cells = np.zeros((self.n_units, 4), np.int64)
        self.unit_n = np.zeros(self.n_units, np.int64)
        for u, members in enumerate(units):
            self.unit_cells[u, : len(members)] = members
            self.unit_n[u] = len(members)

    def _closed_and_anchors(self) -> None:
        """Square cells closed to blue (edge-adjacent to blue's strip or to R of green's) and the anchor groups."""
        t = self.t
        mapped = {BLUE: lambda rc: rc, GREEN: lambda rc: turn(*rc)}
        pieces = {colour: {rc for c, m in self.strip if c == colour for rc in map(mapped[colour], t.moves[m].cells)}
                  for colour in (BLUE, GREEN)}
        square = [(r, c) for r in range(ROWS) for c in range(LEFT, LEFT + SIDE) if (r, c) != CENTRE]
        closed = {(r, c) for r, c in square
                  if any((r + dr, c + dc) in pieces[BLUE] | pieces[GREEN] for dr, dc in STEPS)}
        self.closed = [t.flat(*rc) for rc in sorted(closed)]
        self.groups: list[set[int]] = []
        for colour in (BLUE, GREEN):
            for group in corner_groups(t, self.strip, colour):
                cells = {rc for i in group for rc in map(mapped[colour], t.moves[self.strip[i][1]].cells)}
                self.groups.append({t.flat(r, c) for r, c in square if (r, c) not in closed
                                    and any((r + dr, c + dc) in cells for dr, dc in DIAGONALS)})
        self.anchors = sorted(set().union(*self.groups))

    def reset(self) -> None:
        super().reset()
        self.forb[0, self.closed] = 1
        self.left[0, self.strip_shapes] = 0
        self.attach[0, : len(self.anchors)] = self.anchors
        self.n_attach[0] = len(self.anchors)
        self.covered: set[int] = set()

    def place(self, color: int, m: int) -> tuple:
        if not self.path:  # the first square piece sits on an anchor; the rest hang on it
            self.n_attach[color] = 0
        t = self.t
        covered = self.covered
        self.covered = covered | {int(q) for q in t.pl_cells[m, : t.pl_size[m]]}
        return (super().place(color, m), covered)

    def undo(self, color: int, snap: tuple) -> None:
        inner, self.covered = snap
        super().undo(color, inner)
        if not self.path:
            self.attach[0, : len(self.anchors)] = self.anchors
            self.n_attach[0] = len(self.anchors)

    def dead(self) -> int:
        """The waste bound, or more than the budget when an anchor group can no longer be reached."""
        for group in self.groups:
            if group & self.covered:
                continue
            if not any(not self.forb[0, q] and not self.unit_used[self.unit_of[q]] for q in group):
                return self.budget + 1
        return super().dead()

    link_first = False  # order moves covering an open anchor group before the tighter-packing ones

    def _dfs(self, ply: int, total: int, deadline: float, budget: list[int]) -> bool:
        """The symmetric search's DFS (``_Search._dfs``), but a level tries its best ``breadth`` moves among
        those that pass the bound (the anchor groups cut many), and CP-SAT ends every branch at ``complete_at``."""
        self.best_depth = max(self.best_depth, ply)
        if budget[0] <= 0 or (budget[0] & 63) == 0 and time.perf_counter() > deadline:
            return False
        if ply == self.complete_at:
            done = self._try_complete(deadline)
            if done is not None:
                self.path = done
                self.completed = True
            return done is not None
        moves = self.moves_for(0)
        rnd = self.rng.random
        open_cells = set().union(*(group for group in self.groups if not group & self.covered))
        t = self.t

        def links(m: int) -> int:
            return sum(1 for q in t.pl_cells[m, : t.pl_size[m]] if int(q) in open_cells)

        moves.sort(key=lambda mv: (mv[1], -links(mv[0]) if self.link_first else 0, -mv[3], -mv[2] if mv[2] < 2 else 0,
                                   rnd()))
        tried = 0
        for m, *_ in moves:
            budget[0] -= 1
            if budget[0] < 0:
                return False
            snap = self.place(0, m)
            if self.dead() <= self.budget:
                tried += 1
                if self._dfs(ply + 1, total, deadline, budget):
                    return True
            self.undo(0, snap)
            if tried >= self.breadth or time.perf_counter() > deadline:
                return False
        return False

    def layout(self, path: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """Every colour's placements: the strips (and their half-turn images) and blue's square pieces turned."""
        t = self.t
        out = []
        for colour, m in self.strip:
            cells = t.moves[m].cells
            out.append((colour, m))
            out.append((RED if colour == BLUE else YELLOW, t.placement_of([half(*rc) for rc in cells])))
        for _, m in path:
            for k in range(4):
                out.append((k, t.placement_of([turn(*rc, k) for rc in t.moves[m].cells])))
        return out

    def _try_complete(self, deadline: float = float("inf")) -> list[tuple[int, int]] | None:
        geo = self.geo
        open_groups = sum(1 for group in self.groups if not group & self.covered)
        if open_groups:
            self.tries[f"{open_groups} groups open"] = self.tries.get(f"{open_groups} groups open", 0) + 1
            return None
        kept = self.layout(self.path)
        ordered = sol._ordered(kept, geo)
        if len(ordered) < len(kept):
            self.tries["disconnected"] += 1
            return None
        seconds = min(self.complete_seconds, deadline - time.perf_counter())
        if seconds <= 0.01:
            return None
        found = sol._complete(ordered, seconds, 1, self.rng.randrange(1 << 30), geo=geo)
        done = None if found is None else sol._ordered(ordered + found, geo)
        if done is None or len(done) != sol.NUM_PIECES * 4:
            self.tries["refuted or unknown"] += 1
            return None
        self.tries["completed"] += 1
        return done


SMALL = [p for p, shape in enumerate(sol.PIECES) if shape.area <= 3]  # 1, 2, I3, V3


def complete_with_tree(kept: list[tuple[int, int]], geo: sol.Geometry, seconds: float,
                       seed: int) -> list[tuple[int, int]] | None:
    """CP-SAT places every colour's pieces not in ``kept``, anywhere.  Unlike a plain ``solitaire._complete``, a
    colour's kept pieces need not reach its corner yet: they are one corner-connected *tree* with a level of its
    own, which some new piece of a lower level must touch at a corner (the chain from the corner reaches the tree
    there), and new pieces may hang on it above its level (``_complete`` with ``trees``).  Returns every colour's
    placements in a legal order, or None (refuted, or unknown at the time limit: ``--trace`` prints which)."""
    new = sol._complete(kept, seconds, 1, seed, geo=geo, trees=True)
    done = None if new is None else sol._ordered(kept + new, geo)
    return done if done is not None and len(done) == sol.NUM_PIECES * geo.ncolors else None


class SquareFirst(SquareSearch):
    """Blue's 12 pentominoes and 5 tetrominoes fill the square's 72 orbits under the quarter turn, largest first, as
    one tree whose first piece lies within ``reach`` of the square's top-left corner; when ``pieces_left`` of them are
    left, CP-SAT places those and every colour's 1-, 2- and 3-cell pieces (:func:`complete_with_tree`), in the strips
    and the square's open orbits, linking each colour's corner to its tree."""

    def __init__(self, seed: int, breadth: int, restart_nodes: int, geo: sol.Geometry, complete_seconds: float,
                 pieces_left: int = 0, reach: int = 5, ring: int = 0, far_sides: bool = False,
                 left_col: int = LEFT, half_walls: bool = False, ring_colours: Path | None = None) -> None:
        sol._Search.__init__(self, seed, breadth, restart_nodes, geo, symmetric=True, strong=True)
        t = self.t
        self.left_col = left_col
        self._square_units(ring)
        self.strip_shapes = SMALL if ring == 0 else SMALL[:1]  # the monomino is always CP-SAT's (and last)
        shapes = sorted((p for p in range(sol.NUM_PIECES) if p not in self.strip_shapes),
                        key=lambda p: -sol.PIECE_SIZES[p])
        self.square_pieces = len(shapes)
        self.complete_at = self.square_pieces - pieces_left
        searched_cells = sum(sol.PIECE_SIZES[p] for p in shapes[: self.complete_at])
        self.budget = self.real_units - searched_cells  # the orbits left open for CP-SAT may all be dead to blue
        self.complete_seconds = complete_seconds
        self.groups = []
        top, left = ring, left_col + ring
        # far_sides: blue keeps off its own two sides but near its corner, so that the strips' neighbours are mostly
        # yellow and red (blue's pieces on the bottom row and the right column, turned)
        self.closed = ([t.flat(r, left) for r in range(top + reach, ROWS - ring)]
                       + [t.flat(top, c) for c in range(left + reach, left_col + SIDE - ring)]) if far_sides else []
        if ring_colours is not None:  # the square's outer ring coloured beforehand: blue only on its own cells there
            self.closed += [t.flat(r, c) for r, c, k in json.loads(ring_colours.read_text()) if k != BLUE]
        if half_walls:  # blue's wall cells only on the halves near its corner
            self.closed += [t.flat(r, left) for r in range(SIDE // 2 + 1, ROWS)]
            self.closed += [t.flat(top, c) for c in range(left + SIDE // 2 + 1, left + SIDE)]
        self.anchors = sorted({t.flat(r, left) for r in range(top, top + reach)}
                              | {t.flat(top, c) for c in range(left, left + reach)})
        self.tries = {"completed": 0, "refuted or unknown": 0}

    def layout(self, path: list[tuple[int, int]]) -> list[tuple[int, int]]:
        t = self.t
        return [(k, t.placement_of([turn(*rc, k, self.left_col) for rc in t.moves[m].cells]))
                for _, m in path for k in range(4)]

    def _try_complete(self, deadline: float = float("inf")) -> list[tuple[int, int]] | None:
        seconds = min(self.complete_seconds, deadline - time.perf_counter())
        if seconds <= 0.01:
            return None
        done = complete_with_tree(self.layout(self.path), self.geo, seconds, self.rng.randrange(1 << 30))
        self.tries["completed" if done else "refuted or unknown"] += 1
        return done


TETROMINOES = [p for p, shape in enumerate(sol.PIECES) if shape.area == 4]


def strip_relaxation(seconds: float = 60.0, linked: bool = True, out: Path | None = None) -> str:
    """Can the two strips 2 cells wide hold every colour's 1-, 2- and 3-cell pieces and two tetrominoes (the same
    two shapes for every colour: the square holds the other three, turned) beside a *full* square?

    A necessary condition, solved by CP-SAT: of the square only its outer ring is modelled, each of its 16 orbits
    under R coloured by which of its four cells is blue's (the turn colours the other three); the strips are tiled
    exactly, each colour's corner under its own piece, and no strip piece touches a cell of its colour (in the strips
    or the ring) along an edge.  With ``linked``, each colour's strip pieces and its ring cells (taken as one node:
    the square may join them any way) form one corner-connected chain from its corner, by levels as in
    :func:`complete_with_tree`.  INFEASIBLE rules out every layout of the family with a full square.  Prints a
    solution (strip pieces in capitals, the ring in small letters) and returns CP-SAT's status name."""
    geo = sol.geometry(COLS, ROWS, 4, "mirrors")
    t = geo.tables
    model = cp_model.CpModel()
    strip = {(r, c) for r in range(ROWS) for c in (0, 1, COLS - 2, COLS - 1)}
    ring = _ring_colours(model)
    x, own = _strip_pieces(model, t, strip)
    for k in range(4):
        model.add_exactly_one(own[(k, t.unflat(geo.starts[k]))])

    def colour_at(k: int, rc: Cell) -> list[cp_model.IntVar]:
        return own.get((k, rc), []) + ([ring[rc][k]] if rc in ring else [])

    for (k, m), v in x.items():
        cells = set(t.moves[m].cells)
        edges = {(r + dr, c + dc) for r, c in cells for dr, dc in STEPS} - cells
        for w in (w for rc in edges for w in colour_at(k, rc) if w is not v):
            model.add_bool_or([v.negated(), w.negated()])
    if linked:
        _link_by_levels(model, t, geo, x, own, ring)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = seconds
    solver.parameters.num_workers = 1
    status = solver.status_name(solver.solve(model))
    if status in ("OPTIMAL", "FEASIBLE"):
        grid = [["." for _ in range(COLS)] for _ in range(ROWS)]
        for (k, m), v in x.items():
            for r, c in t.moves[m].cells if solver.boolean_value(v) else ():
                grid[r][c] = "BYRG"[k]
        for (r, c), vs in ring.items():
            grid[r][c] = "byrg"[[solver.boolean_value(w) for w in vs].index(True)]
        print("\n".join("".join(row) for row in grid))
        if out is not None:  # the ring's colours, for --ring-colours
            out.write_text(json.dumps([[r, c, "byrg".index(grid[r][c])] for r, c in sorted(ring)]))
    return status


def _ring_colours(model: cp_model.CpModel) -> dict[Cell, list[cp_model.IntVar]]:
    """The square's outer ring: one boolean per colour for each cell, the turn carrying colour k to k + 1."""
    ring: dict[Cell, list[cp_model.IntVar]] = {}
    for r in range(SIDE - 1):  # the orbit of (r, LEFT), its colour there chosen once
        choice = [model.new_bool_var("") for _ in range(4)]
        model.add_exactly_one(choice)
        for j in range(4):  # R^j(r, LEFT) has colour (a + j) mod 4
            ring[turn(r, LEFT, j)] = [choice[(k - j) % 4] for k in range(4)]
    return ring


def _strip_pieces(model: cp_model.CpModel, t, strip: set[Cell]) -> tuple[dict, dict]:
    """Every colour's small pieces and two tetrominoes (the same two shapes for all) tiling the strips exactly:
    (colour, placement) -> boolean, and (colour, cell) -> the booleans covering it."""
    uses = [model.new_bool_var("") for _ in TETROMINOES]
    model.add(sum(uses) == 2)
    placements = [m for m in range(t.num_placements) if set(t.moves[m].cells) <= strip]
    x: dict[tuple[int, int], cp_model.IntVar] = {}
    own: dict[tuple[int, Cell], list[cp_model.IntVar]] = {}
    for k in range(4):
        for p in SMALL + TETROMINOES:
            options = []
            for m in (m for m in placements if int(t.pl_piece[m]) == p):
                options.append(x.setdefault((k, m), model.new_bool_var("")))
                for rc in t.moves[m].cells:
                    own.setdefault((k, rc), []).append(x[(k, m)])
            model.add(sum(options) == (uses[TETROMINOES.index(p)] if p in TETROMINOES else 1))
    for rc in strip:
        model.add_exactly_one([v for k in range(4) for v in own.get((k, rc), [])])
    return x, own


def _link_by_levels(model: cp_model.CpModel, t, geo: sol.Geometry, x: dict, own: dict, ring: dict) -> None:
    """Each strip piece off its corner touches, at a corner, a strip piece of its colour of a lower level or the
    colour's ring (one node with a level of its own), and some strip piece of a lower level touches the ring."""
    level = {key: model.new_int_var(0, 30, "") for key in x}
    ring_level = [model.new_int_var(0, 30, "") for _ in range(4)]
    carriers: list[list[cp_model.IntVar]] = [[] for _ in range(4)]
    pieces_at: dict[tuple[int, Cell], list[tuple[int, int]]] = {}  # (colour, cell) -> the placements covering it
    for k, m in x:
        for rc in t.moves[m].cells:
            pieces_at.setdefault((k, rc), []).append((k, m))
    for (k, m), v in x.items():
        cells = set(t.moves[m].cells)
        edges = {(r + dr, c + dc) for r, c in cells for dr, dc in STEPS}
        diagonals = {(r + dr, c + dc) for r, c in cells for dr, dc in DIAGONALS} - cells - edges
        supports = []
        for rc in diagonals:
            for key in pieces_at.get((k, rc), []):
                s_var = model.new_bool_var("")
                model.add_implication(s_var, x[key])
                model.add(level[key] < level[(k, m)]).only_enforce_if(s_var)
                supports.append(s_var)
            if rc in ring:
                up, down = model.new_bool_var(""), model.new_bool_var("")
                for b_var in (up, down):
                    model.add_implication(b_var, ring[rc][k])
                    model.add_implication(b_var, v)
                model.add(ring_level[k] < level[(k, m)]).only_enforce_if(up)
                model.add(level[(k, m)] < ring_level[k]).only_enforce_if(down)
                supports.append(up)
                carriers[k].append(down)
        if t.unflat(geo.starts[k]) not in cells:
            model.add_bool_or([v.negated()] + supports)
    for k in range(4):
        model.add_bool_or(carriers[k])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pieces-left", type=int, default=4, help="blue's square pieces CP-SAT places (per colour)")
    ap.add_argument("--complete-seconds", type=float, default=2.0)
    ap.add_argument("--breadth", type=int, default=3)
    ap.add_argument("--restart-nodes", type=int, default=4000)
    ap.add_argument("--strip-seconds", type=float, default=10.0, help="search time for each strip tiling")
    ap.add_argument("--slack", type=int, default=0, help="orbits blue may lose before CP-SAT (it fills them)")
    ap.add_argument("--link-first", action="store_true", help="moves covering an open anchor group first")
    ap.add_argument("--strip-relaxation", action="store_true",
                    help="can the two strips be filled beside a full square at all? (a necessary condition)")
    ap.add_argument("--ring-colours", metavar="FILE", help="--strip-relaxation: write the ring's colours there; "
                    "--square-first: blue takes exactly the ring cells coloured blue there")
    ap.add_argument("--square-first", action="store_true", help="the square first, CP-SAT for the strips")
    ap.add_argument("--far-sides", action="store_true", help="--square-first: blue off its sides but near its corner")
    ap.add_argument("--offset", action="store_true",
                    help="--square-first: the square on the left (columns 0..16), one strip 4 cells wide on the right")
    ap.add_argument("--half-walls", action="store_true", help="--square-first: blue's wall cells near its corner only")
    ap.add_argument("--ring", type=int, default=0, help="--square-first: the square's outer rings left to CP-SAT")
    ap.add_argument("--reach", type=int, default=5, help="--square-first: the first piece within this of the corner")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--time-limit", type=float, default=300.0)
    ap.add_argument("--trace", action="store_true", help="print every CP-SAT completion")
    ap.add_argument("--save", metavar="DIR")
    args = ap.parse_args()
    if args.strip_relaxation:
        for linked in (False, True):
            start = time.process_time()
            status = strip_relaxation(args.time_limit, linked, Path(args.ring_colours) if args.ring_colours else None)
            print(f"strips beside a full square, {'linked to' if linked else 'not linked to'} the corners: {status} "
                  f"({time.process_time() - start:.1f} CPU-s)", flush=True)
        return
    geo = sol.geometry(COLS, ROWS, 4, "mirrors")
    t = geo.tables
    sol._TRACE = args.trace
    rng = random.Random(args.seed)
    start, cpu = time.perf_counter(), time.process_time()
    if args.square_first:
        square_first(args, geo, start, cpu)
        return
    print("enumerating the strip tilings (about 50 s; cached in the temporary folder)", flush=True)
    cache = Path(tempfile.gettempdir()) / "kibitz_strips_21x17.json"
    if cache.exists():
        strips = [[tuple(x) for x in s] for s in json.loads(cache.read_text())]
    else:
        strips = all_strips(t)
        cache.write_text(json.dumps(strips))
    rng.shuffle(strips)
    print(f"{len(strips)} strip tilings, {time.process_time() - cpu:.1f} CPU-s", flush=True)
    totals = {"strips cut off": 0, "strips": 0, "nodes": 0, "completed": 0, "disconnected": 0, "refuted or unknown": 0}
    best = 0
    for strip in strips:
        if time.perf_counter() - start > args.time_limit:
            break
        search = SquareSearch(rng.randrange(1 << 30), args.breadth, args.restart_nodes, geo, strip, args.pieces_left,
                              args.complete_seconds, args.slack)
        search.link_first = args.link_first
        if not all(search.groups):
            totals["strips cut off"] += 1  # a strip piece with no square cell to link it
            continue
        deadline = min(start + args.time_limit, time.perf_counter() + args.strip_seconds)
        path, depth, nodes, _ = search.run(deadline, None)
        totals["strips"] += 1
        totals["nodes"] += nodes
        for key, n in search.tries.items():
            totals[key] = totals.get(key, 0) + n
        best = max(best, depth)
        shapes = " ".join(sol.PIECES[p].name for p in search.strip_shapes)
        print(f"{time.process_time() - cpu:7.1f} CPU-s  strip {totals['strips']} [{shapes}], {len(search.groups)} "
              f"anchor groups: best {depth}/{search.square_pieces} square plies, {search.tries}", flush=True)
        if path is not None:
            report(path, geo, args, cpu)
            break
    print(f"{time.process_time() - cpu:.1f} CPU-s, {totals}, best {best} square plies", flush=True)


def square_first(args: argparse.Namespace, geo: sol.Geometry, start: float, cpu: float) -> None:
    """The ``--square-first`` run: one restarted search until a layout or the time limit."""
    search = SquareFirst(args.seed, args.breadth, args.restart_nodes, geo, args.complete_seconds, args.pieces_left,
                         args.reach, args.ring, args.far_sides, 0 if args.offset else LEFT, args.half_walls,
                         Path(args.ring_colours) if args.ring_colours else None)
    last = [start]

    def progress(text: str) -> None:
        if time.perf_counter() - last[0] > 30:
            last[0] = time.perf_counter()
            print(f"{time.process_time() - cpu:7.1f} CPU-s  {text}, {search.tries}", flush=True)

    path, depth, nodes, restarts = search.run(start + args.time_limit, progress)
    print(f"{'found' if path else 'not found'}: {time.process_time() - cpu:.1f} CPU-s, {nodes} nodes, {restarts} "
          f"restarts, best {depth}/{search.square_pieces} square plies, {search.tries}", flush=True)
    if path is not None:
        report(path, geo, args, cpu)


def report(path: list[tuple[int, int]], geo: sol.Geometry, args: argparse.Namespace, cpu: float) -> None:
    """Replay a layout through the rule engine, print it and save it (``--save``)."""
    state = sol.replay(path, False, geo)
    sol.verify_solution(state)
    print(state)
    if args.save:
        record = {**state.to_json(), "board": "21x17", "colors": 4, "method": "square and strips",
                  "seed": args.seed, "cpu_seconds": round(time.process_time() - cpu, 1)}
        out = Path(args.save) / "blokus_all_pieces_21x17_4c.json"
        out.write_text(json.dumps(record, indent=1) + "\n")
        print(f"saved {out}")


if __name__ == "__main__":
    main()
