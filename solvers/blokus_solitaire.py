"""Blokus solitaire: all 84 pieces (4 colors x 21) on the 20x20 board under the real rules.

Method (see shared/notes/performance.md: plain CP-SAT with exact connectivity
found nothing in 600 s): a **move-by-move cooperative depth-first search**.
Moves are generated exactly as in the game (first piece on the color's corner,
then only at that color's corner contacts, never edge-touching its own color),
so connectivity to the corner holds by construction and the search order *is*
a legal play order.

The pruning bound that makes it work is **waste**: a *unit* that no color can
ever use again (unoccupied, and edge-adjacent to every color that could still
fill it) is dead for good, because forbidden cells only grow.  The pieces need
356 of the 400 cells, so at most 44 cells may die; the search backtracks as
soon as more do, and it orders moves by how few units they kill.

* ``symmetric``: only solutions invariant under the quarter turn
  R(r, c) = (c, 19 - r), which carries blue's corner a20 to yellow's t20, then
  red's t1 and green's a1.  Then only blue is searched; each blue move P
  comes with R(P), R²(P), R³(P) for yellow, red and green, so a round of four
  moves is legal whenever P is.  Units are the 100 rotation orbits of cells
  (blue may use at most one cell per orbit), blue needs 89 of them: at most 11
  orbits may die.
* general: the four colors move in turn (blue, yellow, red, green); units are
  cells; at most 44 may die.

Within a color, pieces go largest first (pentominoes, then 4, 3, 2, 1), so
the monomino is always the last piece: every solution found is *perfect*
(4 x 20 points) and ``--perfect`` costs nothing extra.  Moves with the fewest
killed units come first, ties broken by keeping corner contacts alive and by a
seeded random key; each level tries only its best ``breadth`` moves, and the
search restarts with a new seed after ``restart_nodes`` nodes (a randomized
limited-discrepancy search).

Every solution is replayed through the rule engine
(:class:`puzzles.blokus.engine.BlokusState`), which re-checks each move.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from puzzles.blokus.engine import BlokusState
from puzzles.polyomino import Region, piece_set

SIZE = 20
PIECES = piece_set("blokus")  # the engine numbers pieces in this order too (Pentobi names)
NUM_PIECES = len(PIECES)
PIECE_SIZES = tuple(p.area for p in PIECES)
CELLS_NEEDED = 4 * sum(PIECE_SIZES)  # 356


class _Tables:
    """Placement tables of the 20x20 board on a bordered grid (own copy: the engine's internals may change)."""

    def __init__(self) -> None:
        self.width = W = SIZE + 2
        self.area = W * W
        self.border = np.ones(self.area, np.uint8)
        for r in range(SIZE):
            for c in range(SIZE):
                self.border[self.flat(r, c)] = 0
        region = Region.rectangle(SIZE, SIZE)
        pieces, cells_list = [], []
        for p, shape in enumerate(PIECES):
            for cells in region.placements(shape):
                pieces.append(p)
                cells_list.append(cells)
        n = self.num_placements = len(pieces)
        self.pl_piece = np.array(pieces, np.int64)
        self.pl_size = np.array([len(c) for c in cells_list], np.int64)
        self.pl_cells = np.zeros((n, 5), np.int64)
        adj_lists, corner_lists = [], []
        inside_board = lambda rc: 0 <= rc[0] < SIZE and 0 <= rc[1] < SIZE  # noqa: E731
        for m, cells in enumerate(cells_list):
            flat = [self.flat(r, c) for r, c in cells]
            self.pl_cells[m, : len(flat)] = flat
            own = set(cells)
            adj = {(r + dr, c + dc) for r, c in cells for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))} - own
            diag = {(r + dr, c + dc) for r, c in cells for dr, dc in ((1, 1), (1, -1), (-1, 1), (-1, -1))} - own - adj
            adj_lists.append(sorted(self.flat(*rc) for rc in adj if inside_board(rc)))
            corner_lists.append(sorted(self.flat(*rc) for rc in diag if inside_board(rc)))
        self.pl_adj, self.pl_nadj = _pad(adj_lists)
        self.pl_corners, self.pl_ncorners = _pad(corner_lists)
        self.cells = cells_list
        self.by_cells = {frozenset(cells): m for m, cells in enumerate(cells_list)}

    def flat(self, row: int, col: int) -> int:
        return (row + 1) * self.width + col + 1

    def placement_of(self, cells) -> int:
        return self.by_cells[frozenset(cells)]


def _pad(lists: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    out = np.zeros((len(lists), max(len(x) for x in lists)), np.int64)
    for i, x in enumerate(lists):
        out[i, : len(x)] = x
    return out, np.array([len(x) for x in lists], np.int64)


_TABLES: _Tables | None = None


def board_tables() -> _Tables:
    global _TABLES
    if _TABLES is None:
        _TABLES = _Tables()
    return _TABLES


def move_text(cells) -> str:
    """Pentobi spelling of a placement (a1 = bottom-left), cells sorted as Pentobi writes them."""
    ordered = sorted(cells, key=lambda rc: (SIZE - rc[0], rc[1]))
    return ",".join(f"{'abcdefghijklmnopqrst'[c]}{SIZE - r}" for r, c in ordered)


@dataclass
class SolitaireResult:
    status: str  # "found", "time_limit", "exhausted"
    seconds: float
    placed: int
    best_placed: int
    nodes: int
    state: BlokusState | None = None
    moves: list[tuple[str, str]] = field(default_factory=list)  # (color name, Pentobi cells)
    restarts: int = 0

    def to_json(self) -> dict:
        scores = dict(zip(self.state.color_names, self.state.color_scores())) if self.state is not None else {}
        return {
            "status": self.status, "placed": self.placed, "seconds": round(self.seconds, 3), "nodes": self.nodes,
            "restarts": self.restarts, "best_placed": self.best_placed, "scores": scores,
            "moves": [{"color": c, "cells": cells} for c, cells in self.moves],
        }


def rotate(r: int, c: int, k: int = 1) -> tuple[int, int]:
    """Quarter turn k times: (r, c) -> (c, 19 - r) maps each color's corner to the next color's."""
    for _ in range(k % 4):
        r, c = c, SIZE - 1 - r
    return r, c


@njit(cache=True)
def _candidates(color, pieces_ok, attach, n_attach, first, start_cell, pl_piece, pl_size, pl_cells, pl_adj, pl_nadj,
                pl_corners, pl_ncorners, cp_start, cp_list, unit_of, unit_cells, unit_n, unit_used, forb, active,
                marker, stamp, out_m, out_kill, out_attach, out_fresh):
    """Legal moves of ``color`` with an allowed piece, each with the units it kills and its new corner contacts."""
    n = 0
    ncolors = forb.shape[0]
    na = 1 if first else n_attach
    for a_i in range(na):
        a = start_cell if first else attach[a_i]
        if forb[color, a] or unit_used[unit_of[a]]:
            continue
        for p in range(pieces_ok.shape[0]):
            if not pieces_ok[p]:
                continue
            key = a * 21 + p
            for li in range(cp_start[key], cp_start[key + 1]):
                m = cp_list[li]
                if marker[m] == stamp:
                    continue
                marker[m] = stamp
                size = pl_size[m]
                ok = True
                for i in range(size):
                    q = pl_cells[m, i]
                    if forb[color, q] or unit_used[unit_of[q]]:
                        ok = False
                        break
                    for j in range(i):  # two cells of one unit (symmetric mode, near the centre)
                        if unit_of[pl_cells[m, j]] == unit_of[q]:
                            ok = False
                    if not ok:
                        break
                if not ok:
                    continue
                # units killed: units of the newly forbidden edge neighbours that no longer have a usable cell
                kill = 0
                for e in range(pl_nadj[m]):
                    x = pl_adj[m, e]
                    u = unit_of[x]
                    if unit_used[u]:
                        continue
                    mine = False
                    for i in range(size):
                        if unit_of[pl_cells[m, i]] == u:
                            mine = True
                    if mine:
                        continue
                    # already counted through an earlier neighbour of the same unit?
                    dup = False
                    for e2 in range(e):
                        if unit_of[pl_adj[m, e2]] == u:
                            dup = True
                            break
                    if dup:
                        continue
                    alive = False
                    for t in range(unit_n[u]):
                        y = unit_cells[u, t]
                        for k in range(ncolors):
                            if not active[k] or forb[k, y]:
                                continue
                            if k == color:
                                blocked = False
                                for e3 in range(pl_nadj[m]):
                                    if pl_adj[m, e3] == y:
                                        blocked = True
                                        break
                                if blocked:
                                    continue
                            alive = True
                            break
                        if alive:
                            break
                    if not alive:
                        kill += 1
                # new corner contacts that stay usable
                att = 0
                for e in range(pl_ncorners[m]):
                    y = pl_corners[m, e]
                    if forb[color, y] or unit_used[unit_of[y]]:
                        continue
                    blocked = False
                    for e3 in range(pl_nadj[m]):
                        if pl_adj[m, e3] == y:
                            blocked = True
                            break
                    if not blocked:
                        att += 1
                fresh = 0  # empty cells this move newly forbids for its own color
                for e in range(pl_nadj[m]):
                    y = pl_adj[m, e]
                    if not forb[color, y] and not unit_used[unit_of[y]]:
                        fresh += 1
                out_fresh[n] = fresh
                out_m[n] = m
                out_kill[n] = kill
                out_attach[n] = att
                n += 1
    return n


@njit(cache=True)
def _dead_units(unit_cells, unit_n, unit_used, forb, active, n_units):
    dead = 0
    for u in range(n_units):
        if unit_used[u]:
            continue
        alive = False
        for t in range(unit_n[u]):
            y = unit_cells[u, t]
            for k in range(forb.shape[0]):
                if active[k] and not forb[k, y]:
                    alive = True
                    break
            if alive:
                break
        if not alive:
            dead += 1
    return dead


class _Search:
    """The cooperative DFS (see module docstring)."""

    def __init__(self, symmetric: bool, seed: int, breadth: int, restart_nodes: int) -> None:
        self.t = board_tables()
        t = self.t
        self.symmetric = symmetric
        self.ncolors = 1 if symmetric else 4
        self.area = t.area
        self.border = t.border.astype(np.uint8)
        # units
        unit_of = np.full(t.area, -1, np.int64)
        units: list[list[int]] = []
        for r in range(SIZE):
            for c in range(SIZE):
                q = t.flat(r, c)
                if unit_of[q] >= 0:
                    continue
                members = sorted({t.flat(*rotate(r, c, k)) for k in range(4)}) if symmetric else [q]
                for x in members:
                    unit_of[x] = len(units)
                units.append(members)
        border_unit = len(units)
        unit_of[unit_of < 0] = border_unit  # off-board cells: one permanently used unit
        units.append([])
        self.unit_of = unit_of
        self.n_units = len(units)
        self.unit_cells = np.zeros((self.n_units, 4), np.int64)
        self.unit_n = np.zeros(self.n_units, np.int64)
        for u, members in enumerate(units):
            self.unit_cells[u, : len(members)] = members
            self.unit_n[u] = len(members)
        self.real_units = border_unit
        needed = sum(PIECE_SIZES) * (1 if symmetric else 4)
        self.budget = self.real_units - needed  # units that may die
        self.rng = random.Random(seed)
        self.breadth = breadth
        self.hug = 0.3
        self.pick_color = True
        self.restart_nodes = restart_nodes
        self.marker = np.zeros(t.num_placements, np.int64)
        self.stamp = 0
        cap = t.num_placements
        self.out_m = np.zeros(cap, np.int64)
        self.out_kill = np.zeros(cap, np.int64)
        self.out_attach = np.zeros(cap, np.int64)
        self.out_fresh = np.zeros(cap, np.int64)
        self.starts = [t.flat(*rotate(0, 0, k)) for k in range(4)]
        # own CSR lists (cell * 21 + piece -> placements covering the cell), independent of the engine's layout
        keys = np.concatenate([t.pl_cells[m, : t.pl_size[m]].astype(np.int64) * NUM_PIECES + t.pl_piece[m]
                               for m in range(t.num_placements)])
        owners = np.repeat(np.arange(t.num_placements, dtype=np.int64), t.pl_size)
        order = np.argsort(keys, kind="stable")
        self.cp_list = owners[order]
        self.cp_start = np.zeros(t.area * NUM_PIECES + 1, np.int64)
        np.cumsum(np.bincount(keys, minlength=t.area * NUM_PIECES), out=self.cp_start[1:])
        self.order_sizes = sorted(set(PIECE_SIZES), reverse=True)

    def reset(self) -> None:
        t = self.t
        self.unit_used = np.zeros(self.n_units, np.uint8)
        self.unit_used[self.real_units] = 1
        self.forb = np.repeat(self.border[None, :], self.ncolors, axis=0).astype(np.uint8)
        self.active = np.ones(self.ncolors, np.uint8)
        self.left = np.ones((self.ncolors, NUM_PIECES), np.uint8)
        self.attach = [np.zeros(t.area, np.int64) for _ in range(self.ncolors)]
        self.n_attach = [0] * self.ncolors
        self.path: list[tuple[int, int]] = []  # (color, placement) per ply, in search order

    def moves_for(self, color: int) -> list[tuple[int, int, int]]:
        t = self.t
        left = self.left[color]
        sizes = [PIECE_SIZES[p] for p in range(NUM_PIECES) if left[p]]
        if not sizes:
            return []
        top = max(sizes)
        ok = np.array([1 if left[p] and PIECE_SIZES[p] == top else 0 for p in range(NUM_PIECES)], np.uint8)
        self.stamp += 1
        first = left.sum() == NUM_PIECES
        n = _candidates(color, ok, self.attach[color], self.n_attach[color], first, self.starts[color],
                        t.pl_piece, t.pl_size, t.pl_cells, t.pl_adj, t.pl_nadj, t.pl_corners, t.pl_ncorners,
                        self.cp_start, self.cp_list, self.unit_of, self.unit_cells, self.unit_n, self.unit_used,
                        self.forb, self.active, self.marker, self.stamp, self.out_m, self.out_kill, self.out_attach,
                        self.out_fresh)
        return [(int(self.out_m[i]), int(self.out_kill[i]), int(self.out_attach[i]), int(self.out_fresh[i]))
                for i in range(n)]

    def place(self, color: int, m: int) -> tuple:
        t = self.t
        snap = (self.unit_used.copy(), self.forb.copy(), self.left.copy(), self.active.copy(), self.n_attach[color])
        cells = t.pl_cells[m, : t.pl_size[m]]
        for q in cells:
            self.unit_used[self.unit_of[q]] = 1
        self.forb[color, cells] = 1
        self.forb[color, t.pl_adj[m, : t.pl_nadj[m]]] = 1
        if not self.symmetric:
            self.forb[:, cells] = 1
        self.left[color, t.pl_piece[m]] = 0
        if not self.left[color].any():
            self.active[color] = 0
        att = self.attach[color]
        n = self.n_attach[color]
        for y in t.pl_corners[m, : t.pl_ncorners[m]]:
            att[n] = y
            n += 1
        self.n_attach[color] = n
        self.path.append((color, m))
        return snap

    def undo(self, color: int, snap: tuple) -> None:
        self.unit_used, self.forb, self.left, self.active, self.n_attach[color] = snap
        self.path.pop()

    def dead(self) -> int:
        return _dead_units(self.unit_cells, self.unit_n, self.unit_used, self.forb, self.active, self.real_units)

    def run(self, deadline: float, progress: Callable[[str], None] | None) -> tuple[list[int] | None, int, int, int]:
        """Restarted DFS until a solution or the deadline: (placements in play order, best depth, nodes, restarts)."""
        total_plies = NUM_PIECES * self.ncolors
        best = 0
        nodes = 0
        restarts = 0
        while time.perf_counter() < deadline:
            self.reset()
            budget_nodes = [self.restart_nodes]
            self.best_depth = 0
            found = self._dfs(0, total_plies, deadline, budget_nodes)
            nodes += self.restart_nodes - budget_nodes[0]
            best = max(best, self.best_depth)
            if found:
                return list(self.path), total_plies, nodes, restarts
            restarts += 1
            if progress:
                progress(f"restart {restarts}, best {best}/{total_plies} plies")
        return None, best, nodes, restarts

    best_depth = 0

    def _dfs(self, ply: int, total: int, deadline: float, budget: list[int]) -> bool:
        self.best_depth = max(self.best_depth, ply)
        if ply == total:
            return True
        if budget[0] <= 0 or (budget[0] & 63) == 0 and time.perf_counter() > deadline:
            return False
        if self.symmetric or not self.pick_color:
            color = ply % self.ncolors
            moves = self.moves_for(color)
        else:  # any interleaving of the colors' own orders is a legal game: move the most constrained color
            color, moves = -1, None
            for k in range(self.ncolors):
                if not self.active[k]:
                    continue
                mk = self.moves_for(k)
                if moves is None or len(mk) < len(moves):
                    color, moves = k, mk
                if not mk:
                    break
        if not moves:
            return False
        dead_now = self.dead()
        slack = self.budget - dead_now
        moves = [mv for mv in moves if mv[1] <= slack]
        rnd = self.rng.random
        if self.symmetric:
            moves.sort(key=lambda mv: (mv[1], -mv[2] if mv[2] < 2 else 0, rnd()))
        else:  # general: also hug (few empty cells newly forbidden for the mover)
            moves.sort(key=lambda mv: (mv[1] + self.hug * mv[3], -mv[2] if mv[2] < 2 else 0, rnd()))
        for m, kill, *_ in moves[: self.breadth]:
            budget[0] -= 1
            if budget[0] < 0:
                return False
            snap = self.place(color, m)
            if self.dead() <= self.budget and self._dfs(ply + 1, total, deadline, budget):
                return True
            self.undo(color, snap)
            if time.perf_counter() > deadline:
                return False
        return False


def replay(path: list[tuple[int, int]], symmetric: bool) -> BlokusState:
    """Play the solution through the rule engine (each move re-checked); returns the final state.

    Each color keeps the order in which the search placed its pieces; the colors then take turns
    (blue, yellow, red, green), which is legal because a move's legality depends only on its own
    color's earlier pieces and on the cells being free, and all placements are disjoint.
    """
    t = board_tables()
    per_color: list[list[tuple]] = [[] for _ in range(4)]
    for color, m in path:
        cells = t.cells[m]
        if symmetric:
            for k in range(4):
                per_color[k].append(tuple(rotate(r, c, k) for r, c in cells))
        else:
            per_color[color].append(cells)
    state = BlokusState("classic")
    for i in range(NUM_PIECES):
        for k in range(4):
            state.apply(move_text(per_color[k][i]))  # the engine parses and re-checks every move
    return state


def verify_solution(state: BlokusState) -> None:
    """Independent final check: 84 pieces placed, each color's cells and score as for a complete game."""
    placed = [(c, m) for c, m in state.moves_played if not m.is_pass]
    if len(placed) != 84:
        raise ValueError(f"{len(placed)} pieces placed, not 84")
    for color in range(4):
        pieces = sorted(m.piece for c, m in placed if c == color)
        if len(set(pieces)) != 21:
            raise ValueError(f"color {color} did not place 21 different pieces")
    cells = [cell for _, m in placed for cell in m.cells]
    if len(set(cells)) != CELLS_NEEDED or len(cells) != CELLS_NEEDED:
        raise ValueError("pieces overlap")


def solve_all_pieces(
    symmetric: bool = True,
    perfect: bool = False,
    time_limit: float = 60.0,
    seed: int = 0,
    workers: int = 1,
    breadth: int = 3,
    restart_nodes: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> SolitaireResult:
    """Search for all 84 pieces on the board; the result is replayed through the engine and verified.

    ``perfect`` needs nothing extra: pieces go largest first, so the monomino is always each color's last
    piece.  ``workers`` is accepted for interface symmetry (the search is single-threaded).
    """
    start = time.perf_counter()
    search = _Search(symmetric, seed, breadth, restart_nodes or (4000 if symmetric else 20000))
    deadline = start + time_limit
    path, best, nodes, restarts = search.run(deadline, progress)
    seconds = time.perf_counter() - start
    per_ply = 4 if symmetric else 1
    if path is None:
        return SolitaireResult("time_limit", seconds, 0, best * per_ply, nodes, restarts=restarts)
    state = replay(path, symmetric)
    verify_solution(state)
    if perfect:
        for color in range(4):
            last = [m for c, m in state.moves_played if c == color and not m.is_pass][-1]
            if last.piece != "1":
                raise AssertionError("the monomino is not the last piece")
    moves = [(state.color_names[c], m.text) for c, m in state.moves_played if not m.is_pass]
    return SolitaireResult("found", seconds, 84, 84, nodes, state, moves, restarts)
