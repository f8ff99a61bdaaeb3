"""All 84 Blokus pieces on a rectangle by Nested Rollout Policy Adaptation (NRPA), half-turn layouts (an experiment).

Every search tried on 21×17 either restarts without learning (the restarted play-order DFS of
``solvers/blokus/solitaire.py``) or hands the board to SAT/CP-SAT, which cannot even tile it.  NRPA (Rosin, IJCAI
2011; the method behind the Morpion Solitaire records) is a single-player search that *learns*: nested levels of
random rollouts, each level adapting a policy (one weight per move) towards the best sequence found below it.

A rollout here is the play-order search's descent, sampled: blue and yellow move (red and green are their images
under the half turn), the more constrained of the two goes next, a move is legal under the game's rules (corner contact
with its colour, no edge with it) and may not kill more units (cell pairs of the half turn) than the board can spare;
a move whose waste bound then exceeds the spare units is refused and another drawn.  A move is drawn with probability
proportional to ``exp(policy[move] + prior)``; the prior weighs the DFS's ordering (more edges against filled cells,
fewer killed units) and the piece's size.  Unlike the DFS, a colour may play any piece in hand (``--size-slack``):
largest-first shuts out every layout whose pentominoes are not corner-connected among themselves.  A rollout that
reaches ply ``--tail-from`` is finished by the DFS, exhaustively within ``--tail-nodes`` nodes.  The score is the
number of cells covered; 178 pairs of cells (all 84 pieces) is a layout, which is replayed through the rule engine.

    python bench/blokus_nrpa.py 18x20 --seed 0 --time-limit 900 --save layout.json
    python bench/blokus_nrpa.py 21x17 --seed 1 --time-limit 4200

The defaults (level 3, 40 iterations a level, the prior 3 per edge against filled cells or the border, 2 per cell of
the piece, −3 per unit killed, any piece in hand) are the settings that found the stored half-turn 18×20 layout;
``--size-slack 0`` is the DFS's largest-first.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import NamedTuple

import numpy as np
from numba import njit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from solvers.blokus.solitaire import (  # noqa: E402
    NUM_PIECES,
    _candidates,
    _ordered,
    _Search,
    _waste_bound,
    expand_symmetric,
    geometry,
    parse_board,
    replay,
    verify_solution,
)

MAX_TRACE = 1 << 18  # moves recorded over one rollout (all plies)
COMPILE_CACHE = False  # the tests load this script under another module name, which numba's cache cannot re-import


@njit(cache=COMPILE_CACHE)
def _seed(seed: int) -> None:
    np.random.seed(seed)


@njit(cache=COMPILE_CACHE)
def _place(k, m, unit_used, unit_of, forb, left, active, attach, n_attach, pl_piece, pl_size, pl_cells, pl_adj,
           pl_nadj, pl_corners, pl_ncorners) -> None:
    """Colour ``k`` plays placement ``m`` (its image under the half turn comes with the unit)."""
    for i in range(pl_size[m]):
        q = pl_cells[m, i]
        unit_used[unit_of[q]] = 1
        for c in range(forb.shape[0]):
            forb[c, q] = 1
    for e in range(pl_nadj[m]):
        forb[k, pl_adj[m, e]] = 1
    left[k, pl_piece[m]] = 0
    if left[k].sum() == 0:
        active[k] = 0
    n = n_attach[k]
    for e in range(pl_ncorners[m]):
        attach[k, n] = pl_corners[m, e]
        n += 1
    n_attach[k] = n


@njit(cache=COMPILE_CACHE)
def _rollout(policy, w_kill, w_contact, w_size, size_slack, budget, n_units, piece_sizes, starts, init_used, init_forb, pl_piece, pl_size,  # noqa: C901
             pl_cells, pl_adj, pl_nadj, pl_corners, pl_ncorners, cp_start, cp_list, unit_of, unit_cells, unit_n, width,
             marker, stamp_box, out_m, out_kill, out_attach, out_contact, tr_code, tr_prior, tr_off, tr_choice, path):
    """One sampled descent; returns (cells covered, plies).  Ply p's moves (those not refused) are
    ``tr_code[tr_off[p]:tr_off[p + 1]]`` with their priors, the one played at index ``tr_choice[p]``;
    ``path[p]`` = colour * placements + placement."""
    ncol = init_forb.shape[0]
    n_pl = pl_size.shape[0]
    area = init_forb.shape[1]
    unit_used = init_used.copy()
    forb = init_forb.copy()
    left = np.ones((ncol, piece_sizes.shape[0]), np.uint8)
    active = np.ones(ncol, np.uint8)
    attach = np.zeros((ncol, area), np.int64)
    n_attach = np.zeros(ncol, np.int64)
    counts = np.zeros(ncol, np.int64)
    ok = np.zeros(piece_sizes.shape[0], np.uint8)
    weights = np.zeros(n_pl, np.float64)
    plies = 0
    cells = 0
    reason = 0  # 0: every piece placed, 1: a colour has no move, 2: every move refused by the waste bound, 3: trace full
    tr_off[0] = 0
    waste = _waste_bound(unit_cells, unit_n, unit_used, unit_of, forb, active, left, piece_sizes, cp_start, cp_list,
                         pl_cells, pl_size, n_units, attach, n_attach, starts, width)
    while active.sum() > 0:
        slack = budget - waste  # the waste bound of the position reached (computed when its move was accepted)
        if slack < 0:
            break
        best_k = -1
        for k in range(ncol):
            counts[k] = 0
            if not active[k]:
                continue
            top = 0
            for p in range(piece_sizes.shape[0]):
                if left[k, p] and piece_sizes[p] > top:
                    top = piece_sizes[p]
            for p in range(piece_sizes.shape[0]):
                ok[p] = 1 if left[k, p] and piece_sizes[p] >= top - size_slack else 0
            stamp_box[0] += 1
            first = left[k].sum() == piece_sizes.shape[0]
            n = _candidates(k, ok, attach[k], n_attach[k], first, starts[k], pl_piece, pl_size, pl_cells, pl_adj,
                            pl_nadj, pl_corners, pl_ncorners, cp_start, cp_list, unit_of, unit_cells, unit_n,
                            unit_used, forb, active, marker, stamp_box[0], out_m[k], out_kill[k], out_attach[k],
                            width, out_contact[k])
            for i in range(n):
                if out_kill[k, i] <= slack:
                    out_m[k, counts[k]] = out_m[k, i]
                    out_kill[k, counts[k]] = out_kill[k, i]
                    out_contact[k, counts[k]] = out_contact[k, i]
                    counts[k] += 1
            if counts[k] == 0:
                best_k = -2
                reason = 1
                break
            if best_k < 0 or counts[k] < counts[best_k]:
                best_k = k
        if best_k < 0:
            break
        k = best_k
        nm = counts[k]
        base = tr_off[plies]
        if base + nm > tr_code.shape[0]:
            reason = 3
            break
        for i in range(nm):
            tr_code[base + i] = k * n_pl + out_m[k, i]
            tr_prior[base + i] = (-w_kill * out_kill[k, i] + w_contact * out_contact[k, i]
                                  + w_size * pl_size[out_m[k, i]])
        chosen = -1
        while nm > 0:
            mx = -1e300
            for i in range(nm):
                w = policy[tr_code[base + i]] + tr_prior[base + i]
                weights[i] = w
                if w > mx:
                    mx = w
            z = 0.0
            for i in range(nm):
                weights[i] = math.exp(weights[i] - mx)
                z += weights[i]
            r = np.random.random() * z
            idx = nm - 1
            for i in range(nm):
                r -= weights[i]
                if r <= 0.0:
                    idx = i
                    break
            m = tr_code[base + idx] - k * n_pl
            saved_used = unit_used.copy()
            saved_forb = forb.copy()
            saved_left = left.copy()
            saved_active = active.copy()
            saved_n = n_attach[k]
            _place(k, m, unit_used, unit_of, forb, left, active, attach, n_attach, pl_piece, pl_size, pl_cells,
                   pl_adj, pl_nadj, pl_corners, pl_ncorners)
            waste = _waste_bound(unit_cells, unit_n, unit_used, unit_of, forb, active, left, piece_sizes, cp_start,
                                 cp_list, pl_cells, pl_size, n_units, attach, n_attach, starts, width)
            if waste <= budget:
                chosen = idx
                break
            unit_used[:] = saved_used
            forb[:, :] = saved_forb
            left[:, :] = saved_left
            active[:] = saved_active
            n_attach[k] = saved_n
            nm -= 1  # refuse it: the last move takes its place
            tr_code[base + idx] = tr_code[base + nm]
            tr_prior[base + idx] = tr_prior[base + nm]
        if chosen < 0:
            reason = 2
            break
        tr_choice[plies] = chosen
        tr_off[plies + 1] = base + nm
        path[plies] = tr_code[base + chosen]
        cells += pl_size[path[plies] - k * n_pl]
        plies += 1
    return cells, plies, reason


@njit(cache=COMPILE_CACHE)
def _adapt(policy, alpha, codes, priors, offsets, choices, plies):
    """NRPA's update towards one sequence: the played move gains ``alpha``, every move of its ply loses
    ``alpha`` times its probability under the old policy."""
    new = policy.copy()
    for p in range(plies):
        a, b = offsets[p], offsets[p + 1]
        mx = -1e300
        for i in range(a, b):
            w = policy[codes[i]] + priors[i]
            if w > mx:
                mx = w
        z = 0.0
        for i in range(a, b):
            z += math.exp(policy[codes[i]] + priors[i] - mx)
        new[codes[a + choices[p]]] += alpha
        for i in range(a, b):
            new[codes[i]] -= alpha * math.exp(policy[codes[i]] + priors[i] - mx) / z
    return new


class Sequence(NamedTuple):
    """A rollout kept: its score, plies and the trace NRPA adapts to."""

    cells: int
    plies: int
    codes: np.ndarray
    priors: np.ndarray
    offsets: np.ndarray
    choices: np.ndarray
    path: np.ndarray


class _AnyOrder(_Search):
    """The project's DFS with every piece in hand allowed at every ply (not only the largest): a layout's
    last pieces need not be placed largest first (a domino may carry a tromino)."""

    def allowed_pieces(self, color: int) -> np.ndarray:
        return self.left[color].astype(np.uint8)


class Found(Exception):
    """A rollout (or its tail search) placed every piece: the searched colours' moves in play order."""

    def __init__(self, path: list[tuple[int, int]]) -> None:
        super().__init__("found")
        self.path = path


class Nrpa:
    """NRPA over the half-turn play-order rollouts of one board.  A rollout that reaches ply ``tail_from``
    has its first ``tail_from`` moves handed to the project's DFS, which searches the rest exhaustively
    within ``tail_nodes`` nodes (once per distinct prefix)."""

    def __init__(self, cols: int, rows: int, *, w_kill: float, w_contact: float, alpha: float, iterations: int,
                 seed: int, tail_from: int = 34, tail_nodes: int = 20_000, w_size: float = 0.0,
                 size_slack: int = 0) -> None:
        self.geo = geometry(cols, rows, 4, "half-turn")
        s = _Search(seed, 1, 1, geo=self.geo)
        s.reset()
        t = s.t
        self.search = s
        self.n_pl = t.num_placements
        self.full_cells = sum(s.piece_sizes) * s.ncolors
        self.common = ((s.budget, s.real_units, s.piece_sizes, s.start_cells, s.unit_used.copy(), s.forb.copy()),
                       (t.pl_piece, t.pl_size, t.pl_cells, t.pl_adj, t.pl_nadj, t.pl_corners,
                                            t.pl_ncorners, s.cp_start, s.cp_list, s.unit_of, s.unit_cells, s.unit_n,
                                            t.width))
        self.marker = np.zeros(self.n_pl, np.int64)
        self.stamp = np.zeros(1, np.int64)
        shape = (s.ncolors, self.n_pl)
        self.outs = tuple(np.zeros(shape, np.int64) for _ in range(4))
        self.trace = (np.zeros(MAX_TRACE, np.int64), np.zeros(MAX_TRACE, np.float64),
                      np.zeros(NUM_PIECES * s.ncolors + 2, np.int64), np.zeros(NUM_PIECES * s.ncolors + 1, np.int64),
                      np.zeros(NUM_PIECES * s.ncolors + 1, np.int64))
        self.w_kill, self.w_contact, self.alpha, self.iterations = w_kill, w_contact, alpha, iterations
        self.w_size, self.size_slack = w_size, size_slack
        self.rollouts = 0
        self.tail_from, self.tail_nodes = tail_from, tail_nodes
        self.tail = _AnyOrder(seed, 10**6, 10**9, geo=self.geo)
        self.tail.complete_when(None, 0.0)
        self.tail_seen: set[tuple[tuple[int, int], ...]] = set()
        self.tails = 0
        self.reasons = [0, 0, 0, 0]
        _seed(seed)

    def rollout(self, policy: np.ndarray) -> Sequence:
        head, tables = self.common
        codes, priors, offsets, choices, path = self.trace
        cells, plies, reason = _rollout(policy, self.w_kill, self.w_contact, self.w_size, self.size_slack, *head,
                                        *tables, self.marker, self.stamp, *self.outs, codes, priors, offsets, choices,
                                        path)
        self.rollouts += 1
        self.reasons[reason] += 1
        end = offsets[plies]
        seq = Sequence(cells, plies, codes[:end].copy(), priors[:end].copy(), offsets[: plies + 1].copy(),
                       choices[:plies].copy(), path[:plies].copy())
        if seq.cells == self.full_cells:
            raise Found(self.layout(seq))
        if seq.plies >= self.tail_from:
            self.finish(seq)
        return seq

    def finish(self, seq: Sequence) -> None:
        """The exhaustive tail search from the sequence's first ``tail_from`` moves; raises Found."""
        prefix = self.layout(seq)[: self.tail_from]
        key = tuple(sorted(prefix))
        if key in self.tail_seen:
            return
        self.tail_seen.add(key)
        self.tails += 1
        s = self.tail
        s.reset()
        for colour, m in prefix:
            s.place(colour, m)
        total = NUM_PIECES * s.ncolors
        if s._dfs(self.tail_from, total, float("inf"), [self.tail_nodes]):
            raise Found(list(s.path))

    def level(self, lvl: int, policy: np.ndarray, deadline: float) -> Sequence:
        if lvl == 0:
            return self.rollout(policy)
        best: Sequence | None = None
        for _ in range(self.iterations):
            seq = self.level(lvl - 1, policy, deadline)
            if best is None or seq.cells >= best.cells:
                best = seq
            if best.cells == self.full_cells or time.perf_counter() > deadline:
                break
            policy = _adapt(policy, self.alpha, best.codes, best.priors, best.offsets, best.choices, best.plies)
        assert best is not None
        return best

    def layout(self, seq: Sequence) -> list[tuple[int, int]]:
        """The searched colours' moves (colour, placement) of a sequence, in play order."""
        return [(int(code) // self.n_pl, int(code) % self.n_pl) for code in seq.path]


def layout_record(path: list[tuple[int, int]], cols: int, rows: int, search: dict, command: str,
                  cpu_seconds: float) -> dict:
    """The half-turn layout of ``path`` (the searched colours' moves) as a stored record (the format of
    ``tests/data/blokus_all_pieces_*.json``: each colour's monomino last where the layout allows), after its replay
    through the rule engine."""
    geo = geometry(cols, rows, 4, "half-turn")
    ordered = _ordered(expand_symmetric(path, geo), geo)  # every colour's monomino last when it supports nothing
    state = replay(ordered, False, geo) if len(ordered) == len(path) * 2 else replay(path, True, geo)
    verify_solution(state)
    record = state.to_json()
    moves = record.pop("moves")
    return {**record, "board": f"{cols}x{rows}", "colors": 4, "empty_cells": cols * rows - geo.cells_needed,
            "symmetry": "half turn", "search": search, "command": command, "cpu_seconds": round(cpu_seconds, 1),
            "moves": moves}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("board", help="COLSxROWS, e.g. 21x17")
    ap.add_argument("--level", type=int, default=3)
    ap.add_argument("--iterations", type=int, default=40, help="NRPA's N: iterations per level")
    ap.add_argument("--alpha", type=float, default=1.0)
    ap.add_argument("--w-kill", type=float, default=3.0, help="prior weight against killed units")
    ap.add_argument("--w-contact", type=float, default=3.0, help="prior weight for edges against filled cells")
    ap.add_argument("--size-slack", type=int, default=4,
                    help="a colour may play pieces up to this many cells smaller than its largest in hand")
    ap.add_argument("--w-size", type=float, default=2.0, help="prior weight per cell of the piece")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--tail-from", type=int, default=34, help="ply from which the DFS finishes a rollout")
    ap.add_argument("--tail-nodes", type=int, default=20_000, help="node budget of each tail search")
    ap.add_argument("--time-limit", type=float, default=600.0, help="CPU seconds")
    ap.add_argument("--save", metavar="FILE", help="write a layout found as a record (JSON)")
    args = ap.parse_args(argv)
    cols, rows = parse_board(args.board)
    print("compiling the kernels ...", flush=True)
    nrpa = Nrpa(cols, rows, w_kill=args.w_kill, w_contact=args.w_contact, alpha=args.alpha,
                iterations=args.iterations, seed=args.seed, tail_from=args.tail_from, tail_nodes=args.tail_nodes, w_size=args.w_size,
                size_slack=args.size_slack)
    start = time.process_time()
    wall_deadline = time.perf_counter() + 3 * args.time_limit
    run = 0
    best_cells = 0
    while time.process_time() - start < args.time_limit - 5 and time.perf_counter() < wall_deadline:
        run += 1
        policy = np.zeros(nrpa.n_pl * nrpa.search.ncolors, np.float64)
        deadline = time.perf_counter() + max(0.0, args.time_limit - (time.process_time() - start))
        try:
            seq = nrpa.level(args.level, policy, deadline)
        except Found as found:
            cpu = time.process_time() - start
            search = {k: v for k, v in vars(args).items() if k not in ("board", "save")}
            record = layout_record(found.path, cols, rows, search, "python bench/blokus_nrpa.py " + " ".join(
                sys.argv[1:] if argv is None else argv), cpu)
            print(f"FOUND after {cpu:.0f} CPU-s, {nrpa.rollouts} rollouts: a layout of all 84 pieces, replayed "
                  "through the rule engine")
            print("moves:", " ".join(f"{c}:{m}" for c, m in found.path))
            if args.save:
                Path(args.save).write_text(json.dumps(record, indent=1) + "\n")
                print(f"saved to {args.save}")
            return 0
        best_cells = max(best_cells, seq.cells)
        cpu = time.process_time() - start
        print(f"run {run}: {seq.cells}/{nrpa.full_cells} cells ({2 * seq.plies}/84 pieces); best {best_cells}; "
              f"{nrpa.rollouts} rollouts, {nrpa.tails} tail searches, {cpu:.0f} CPU-s; ends (full, no move, refused, trace) {nrpa.reasons}", flush=True)
    print(f"unknown: no layout in {time.process_time() - start:.0f} CPU-s; best {best_cells}/{nrpa.full_cells} cells")
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
