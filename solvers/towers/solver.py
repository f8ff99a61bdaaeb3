"""Exact play of Rainbow Blackjack with full information (both grids and hands known).

Alpha-beta minimax with a transposition table (compiled in
:mod:`solvers.towers.search`, over the rule kernel :mod:`puzzles.towers.kernel`) over the true game from a full state.  The
search covers the rest of the current round (``horizon="round"``) or the
game up to the next chance node (``horizon="game"``: to the end of round 6 from
grid 2, to the end of round 3 from grid 1, since the second grid is dealt by
chance).  Announcements carry no information when everything is known, so the
search skips them (a pending announcement is answered with ``colors``).

Values are from player 1's side: ``±1000`` an instant win, otherwise
``64 × (towers P1 − towers P2)`` at the leaf — the sign is win/draw/loss and the
margin is the tie-break.  At a horizon that is not the end of the game the
leaf is scored as if the game ended there (``exact_game`` is then False).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from puzzles.game import IllegalActionError
from puzzles.towers import kernel as K
from puzzles.towers.engine import PASS, Announce, PickLine, Place, TowersAction, TowersState
from solvers.towers import search as X


@dataclass
class SolveResult:
    """Outcome of one exact search."""

    value: int  # P1 side, see module docstring
    best_action: TowersAction | None
    best_action_str: str | None
    move_values: dict[str, int] = field(default_factory=dict)
    nodes: int = 0
    seconds: float = 0.0
    exact_game: bool = False  # the horizon is the end of the game
    horizon_round: int = 0  # the last round the search covers, 0-based (5 = round 6 of 6)
    pv: list[str] = field(default_factory=list)
    status: str = "proved"  # or "unknown at time limit" / "interrupted" (then value is not known)
    bounds: tuple[int, int] | None = None  # partial result: interval of the move being searched

    @property
    def instant(self) -> bool:
        return abs(self.value) >= X.WIN_VALUE

    @property
    def margin(self) -> int:
        """Tower margin P1 − P2 at the horizon (±6 stands for an instant win)."""
        if self.instant:
            return 6 if self.value > 0 else -6
        return int(round(self.value / X.SCALE))

    @property
    def outcome(self) -> str:
        """'P1 wins', 'P2 wins' or 'draw' under best play (to the horizon)."""
        return "P1 wins" if self.value > 0 else "P2 wins" if self.value < 0 else "draw"

    def to_json(self) -> dict[str, Any]:
        """The shared answer keys (status, interrupted, nodes, seconds) and the result; the horizon's round is
        0-based (``horizon_round_index``: 5 is round 6, the last), like a state's ``round``."""
        if self.status != "proved":
            return {
                "status": self.status,
                "interrupted": self.status == "interrupted",
                "move_values": self.move_values,
                "searching_bounds": list(self.bounds) if self.bounds else None,
                "exact_game": self.exact_game,
                "horizon_round_index": self.horizon_round,
                "nodes": self.nodes,
                "seconds": round(self.seconds, 4),
            }
        return {
            "status": self.status,
            "interrupted": False,
            "value": self.value,
            "outcome": self.outcome,
            "instant_win": self.instant,
            "margin": self.margin,
            "best_move": self.best_action_str,
            "move_values": self.move_values,
            "principal_variation": self.pv,
            "exact_game": self.exact_game,
            "horizon_round_index": self.horizon_round,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
        }


def pack(state: TowersState, horizon: str | int = "round", mode: int = 0) -> np.ndarray:
    """The kernel state array of ``state`` (a player decision other than an announcement must be due)."""
    if state.phase not in ("pick", "place"):
        raise ValueError(f"nothing to solve in phase {state.phase!r}")
    if state.phase == "pick" and state.step % 2 == 1:
        raise ValueError("an announcement is pending; apply it first")
    if state.core[K.GRID] < 0 or state.core[K.GRID + 9] < 0:
        raise ValueError("the current grid is not dealt")
    S = state.core.copy()
    S[K.QUIET] = 1
    if horizon == "round":
        last = state.round
    elif horizon == "game":
        last = 5
    else:
        last = min(5, state.round + int(horizon))
    S[K.LAST] = last
    S[K.MODE] = mode
    return S


def pack_last(state: TowersState, horizon: str | int) -> int:
    """The last round a search with ``horizon`` covers from ``state``."""
    if horizon == "round":
        return state.round
    if horizon == "game":
        return 5
    return min(5, state.round + int(horizon))


def kernel_to_action(S: np.ndarray, m: int) -> TowersAction:
    """Engine action of kernel move ``m`` in packed state ``S`` (the kernel's integer moves stay internal)."""
    if m >= K.MOVE_PICK:
        return PickLine(int(m - K.MOVE_PICK))
    if m == K.MOVE_PASS:
        return PASS
    p = int(K.mover(S))
    slot, t, repl = m // 16, (m % 16) // 2, m % 2
    code = int(S[K.HAND + 3 * p + slot])
    return Place(code, int(t), bool(repl))


class SearchStopped(Exception):
    """A search stopped before it finished: ``reason`` is ``"time limit"`` or ``"interrupted"``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


_WARM = False


def warm_up() -> None:
    """Load (or, the first time on a machine, compile) every kernel the solver calls, outside any timing."""
    global _WARM
    if _WARM:
        return
    S = np.zeros(K.NS, dtype=np.int64)
    S[K.OWN : K.OWN + 6] = -1
    S[K.HAND : K.HAND + 6] = -1
    S[K.LINE : K.LINE + 2] = -1
    S[K.DIR : K.DIR + 2] = -1
    S[K.WIN] = -1
    moves = np.empty(K.MAXM, dtype=np.int64)
    undo = np.empty(16, dtype=np.int64)
    K.gen_moves(S, moves)
    K.mover(S)
    K.make_move(S.copy(), int(moves[0]), undo)
    K.unmake_move(S.copy(), int(moves[0]), undo)
    X.evaluate(S)
    S[K.PHASE] = K.PHASE_DONE
    fr = np.zeros((X.MAXD, X.FW), dtype=np.int64)
    ctl = np.zeros(X.NC, dtype=np.int64)
    tt = np.zeros((2, 3), dtype=np.int64)
    X.ab_start(fr, ctl, -X.INF, X.INF)
    X.ab_run(S, tt, 1, 1, fr, ctl, 10, np.zeros((2, X.NHIST), dtype=np.int64))
    _WARM = True


class Solver:
    """Alpha-beta + transposition table; one instance keeps its table between calls (new generation per call).

    ``time_limit`` (seconds, per :meth:`solve` or :meth:`value` call started
    with ``fresh=True``) and Ctrl-C stop a search between chunks of ``chunk``
    nodes by raising :class:`SearchStopped`; :meth:`solve` turns that into a
    partial result.
    """

    def __init__(self, tt_bits: int = 20, time_limit: float | None = None, chunk: int = 400_000,
                 progress: Any = None) -> None:
        size = 1 << tt_bits
        self.mask = size - 1
        # one row per entry: key word 1, key word 2, (generation | depth | flag | best move | value)
        self.tt = np.zeros((size, 3), dtype=np.int64)
        self.gen = 0
        self.counter = np.zeros(1, dtype=np.int64)
        self.fr = np.zeros((X.MAXD, X.FW), dtype=np.int64)
        self.ctl = np.zeros(X.NC, dtype=np.int64)
        self.hist = np.zeros((2, X.NHIST), dtype=np.int64)  # history heuristic: cutoffs by (seat, stone and tower)
        self.time_limit = time_limit
        self.deadline = float("inf")
        self.chunk = chunk
        self.progress = progress  # called with the node count after each chunk
        warm_up()

    def new_generation(self) -> int:
        self.gen += 1
        self.hist[:] = 0
        if self.gen >= 1 << 24:  # generation field is 25 bits wide in the packed entry: wrap by clearing
            self.tt[:] = 0
            self.gen = 1
        return self.gen

    def start_clock(self) -> None:
        """Start the time limit (if any) now."""
        self.deadline = time.perf_counter() + self.time_limit if self.time_limit is not None else float("inf")

    def _ab(self, S: np.ndarray, alpha: int, beta: int) -> int:
        """One alpha-beta search of a copy of ``S`` on ``(alpha, beta)``, run in chunks (limits checked between)."""
        work = S.copy()
        X.ab_start(self.fr, self.ctl, alpha, beta)
        self.ctl[X.C_NODES] = 0
        try:
            while not X.ab_run(work, self.tt, self.gen, self.mask, self.fr, self.ctl, self.chunk, self.hist):
                self.counter[0] += self.ctl[X.C_NODES]
                self.ctl[X.C_NODES] = 0
                if self.progress is not None:
                    self.progress(int(self.counter[0]))
                if time.perf_counter() >= self.deadline:
                    raise SearchStopped("time limit")
        except KeyboardInterrupt:
            raise SearchStopped("interrupted") from None
        self.counter[0] += self.ctl[X.C_NODES]
        return int(self.ctl[X.C_VAL])

    def mtdf(self, S: np.ndarray, guess: int = 0, bounds: list[int] | None = None) -> int:
        """Exact minimax value by MTD(f): null-window probes around ``guess`` (``bounds`` gets [lo, hi] as they close)."""
        lo, hi = -X.INF, X.INF
        g = guess
        while lo < hi:
            beta = g + 1 if g == lo else g
            g = self._ab(S, beta - 1, beta)
            if g < beta:
                hi = g
            else:
                lo = g
            if bounds is not None:
                bounds[:] = [lo, hi]
        return g

    def value(self, S: np.ndarray, alpha: int = -X.INF, beta: int = X.INF, fresh: bool = True) -> int:
        """Minimax value of the packed state ``S`` (fail-soft outside ``(alpha, beta)``)."""
        if fresh:
            self.new_generation()
            self.start_clock()
        if alpha <= -X.INF and beta >= X.INF:
            return self.mtdf(S)
        return self._ab(S, alpha, beta)

    def root_values(self, S: np.ndarray, fresh: bool = True, done: list[tuple[int, int]] | None = None,
                    bounds: list[int] | None = None) -> tuple[list[int], list[int]]:
        """Exact value of every legal kernel move at the root (``done`` collects (move, value) as they are proved)."""
        if fresh:
            self.new_generation()
            self.start_clock()
        moves = np.empty(K.MAXM, dtype=np.int64)
        undo = np.empty(16, dtype=np.int64)
        n = K.gen_moves(S, moves)
        vals: list[int] = []
        guess = 0
        for m in moves[:n]:
            child = S.copy()
            K.make_move(child, m, undo)
            v = self.mtdf(child, guess, bounds)
            vals.append(v)
            if done is not None:
                done.append((int(m), v))
            guess = v
        return [int(x) for x in moves[:n]], vals

    def solve(self, state: TowersState, horizon: str | int = "game", pv: bool = True, all_moves: bool = True) -> SolveResult:
        """Value, best move and principal variation of ``state`` with full information.

        With a time limit or on Ctrl-C the result is partial: ``status`` says why,
        ``move_values`` holds the moves proved so far and ``bounds`` the interval
        known for the value of the move being searched.
        """
        self.counter[0] = 0
        if state.is_terminal():
            ret = state.returns()
            v = (X.WIN_VALUE if ret[0] > ret[1] else -X.WIN_VALUE) if state.instant else X.SCALE * (
                state.towers_owned()[0] - state.towers_owned()[1]
            )
            return SolveResult(v, None, None, exact_game=True, horizon_round=5)
        start = time.perf_counter()
        work = state.clone()
        announce = None
        if work.phase == "pick" and work.step % 2 == 1:
            announce = Announce("colors")
            work.apply(announce)
        S = pack(work, horizon)
        last = int(S[K.LAST])
        exact_game = (last == 5 and work.round >= 3) or False
        horizon_round = min(last, 2) if work.round < 3 else last
        p = int(K.mover(S))
        done: list[tuple[int, int]] = []
        bounds = [-X.INF, X.INF]
        try:
            if all_moves:
                moves, vals = self.root_values(S, done=done, bounds=bounds)
                i = max(range(len(vals)), key=lambda k: vals[k]) if p == 0 else min(range(len(vals)), key=lambda k: vals[k])
                value, best_m = vals[i], moves[i]
                mv = {state.action_to_string(kernel_to_action(S, m)): v for m, v in zip(moves, vals, strict=True)}
            else:
                value = self.value(S)
                best_m, mv = self._move_achieving(S, value, p), {}
        except (SearchStopped, KeyboardInterrupt) as stop:
            reason = stop.reason if isinstance(stop, SearchStopped) else "interrupted"
            partial = {state.action_to_string(kernel_to_action(S, m)): v for m, v in done}
            return SolveResult(
                value=0, best_action=None, best_action_str=None, move_values=partial, nodes=int(self.counter[0]),
                seconds=time.perf_counter() - start, exact_game=exact_game, horizon_round=horizon_round,
                status="unknown at time limit" if reason == "time limit" else "interrupted",
                bounds=(bounds[0], bounds[1]),
            )
        best = announce if announce is not None else kernel_to_action(S, best_m)
        if announce is not None:
            mv = {"colors": value, "numbers": value}
        res = SolveResult(
            value=value,
            best_action=best,
            best_action_str=state.action_to_string(best),
            move_values=mv,
            exact_game=exact_game,
            horizon_round=horizon_round,
        )
        if pv:
            try:
                res.pv = self.principal_variation(state, horizon, value)
            except (SearchStopped, KeyboardInterrupt):
                res.pv = []  # the value and the move values are proved; only the line is missing
        res.nodes = int(self.counter[0])
        res.seconds = time.perf_counter() - start
        return res

    def _move_achieving(self, S: np.ndarray, value: int, p: int) -> int:
        """A root move whose value is ``value`` (null-window probes sharing the table of the value search)."""
        moves = np.empty(K.MAXM, dtype=np.int64)
        undo = np.empty(16, dtype=np.int64)
        n = K.gen_moves(S, moves)
        for m in moves[:n]:
            child = S.copy()
            K.make_move(child, m, undo)
            if p == 0 and self.value(child, value - 1, value, fresh=False) >= value:
                return int(m)
            if p == 1 and self.value(child, value, value + 1, fresh=False) <= value:
                return int(m)
        raise AssertionError("no root move reaches the root value")

    def principal_variation(self, state: TowersState, horizon: str | int, value: int, max_len: int = 80) -> list[str]:
        """Moves of a line of best play (each step keeps the value, proved by null-window probes), until the horizon."""
        work = state.clone()
        last = pack_last(state, horizon)
        line: list[str] = []
        while len(line) < max_len and work.phase in ("pick", "place") and work.round <= last:
            if work.phase == "pick" and work.step % 2 == 1:
                work.apply(Announce("colors"))
                line.append("colors")
                continue
            S = pack(work, last - work.round)
            action = kernel_to_action(S, self._move_achieving(S, value, int(K.mover(S))))
            line.append(work.action_to_string(action))
            work.apply(action)
        return line


def solve(state: TowersState, horizon: str | int = "game", tt_bits: int = 20, pv: bool = True) -> SolveResult:
    """One-shot :meth:`Solver.solve`."""
    return Solver(tt_bits).solve(state, horizon=horizon, pv=pv)


def brute_force_value(state: TowersState, last_round: int | None = None) -> int:
    """Plain minimax over the Python engine (no pruning, no table), same values as the solver; for tests."""
    last = state.round if last_round is None else last_round

    def leaf(s: TowersState) -> int:
        if s.instant:
            return X.WIN_VALUE if s.winner == 0 else -X.WIN_VALUE
        owned = s.towers_owned()
        return X.SCALE * (owned[0] - owned[1])

    def rec(s: TowersState) -> int:
        if s.phase in ("end", "deal") or s.round > last:
            return leaf(s)
        if s.phase == "pick" and s.step % 2 == 1:
            c = s.clone()
            c.apply(Announce("colors"))
            return rec(c)
        p = s.current_player()
        vals = []
        for a in s.legal_actions():
            c = s.clone()
            c.apply(a)
            vals.append(rec(c))
        return max(vals) if p == 0 else min(vals)

    return rec(state)


def check_legal(state: TowersState, action: TowersAction) -> None:
    """Raise IllegalActionError unless ``action`` is legal in ``state``."""
    reason = state.illegal_reason(action)
    if reason is not None:
        raise IllegalActionError(reason)
