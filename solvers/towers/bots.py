"""Bots for Rainbow Blackjack: greedy, PIMC (determinize + exact solve) and ISMCTS, plus compiled random playouts.

Every bot decides from what its seat sees: the imperfect-information bots
search full states drawn with ``state.resample(seat, rng)`` (the opponent's
hidden stones redrawn consistently with everything observed), never the real
hidden stones.  Names for :func:`solvers.bots.make_bot` (:data:`BOTS`):

* ``random`` (generic) — uniform over legal actions; a series of random-only
  games runs in the compiled kernel (:func:`fast_playouts`).
* ``greedy`` — one-ply: instant win first, else the placement that best
  improves ``64·(tower margin) + 4·(21-towers margin)``; random line and
  announcement.
* ``pimc[:samples|:seconds]`` — perfect-information Monte Carlo: ``samples``
  (default 12) determinizations, each solved exactly by alpha-beta to the end
  of the round (the last round: to the end of the game); the action with the
  best mean value is played.  With seconds, it samples until the time is up.
* ``ismcts[:iterations|:seconds]`` — single-observer information-set MCTS (its
  own algorithm, not a configuration of :class:`solvers.mcts.MCTSBot`): one
  tree over the observer's information set built in the compiled kernel from
  a fixed set of determinizations; UCB with availability counts, one expansion
  per iteration, a random rollout to the end of the round scored
  ``0.5 + 0.5·tanh(value/128)``.  Default 300 iterations.
* ``equilibrium[:iterations|:seconds]`` — round 6's placements from the round-6 subgame
  re-solved at each placement's public state (:mod:`solvers.towers.equilibrium`;
  ``EquilibriumBot(resolve=False)`` solves once where the placements began); round 6's
  announcement from the solved subgames after it (``announce=False``: ismcts's rule); rounds
  1-5 by ``ismcts`` with the same budget.
* Announcements (pimc, ismcts): the mode that leaves the opponent the most
  candidate hands (product, over the announced attributes, of how many of the
  announcer's not-yet-revealed stones share each attribute).
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

import numpy as np

from puzzles.game import CHANCE, GameState
from puzzles.towers import kernel as K
from puzzles.towers.engine import (
    LINE_CELLS,
    PASS,
    Announce,
    PickLine,
    Place,
    TowersAction,
    TowersState,
)
from puzzles.towers.stones import JOKER
from solvers.bots import Bot, BotFactory, Budget, split_spec
from solvers.playout import PlayoutJob, PlayoutStats, game_seed
from solvers.towers import search as X
from solvers.towers.announcing import choose_announcement
from solvers.towers.solver import Solver, kernel_to_action, pack


def heuristic_value(state: TowersState) -> int:
    """P1-side value used by greedy: instant win ±1000, else 64·margin + 4·(21-tower margin)."""
    if state.instant:
        return X.WIN_VALUE if state.winner == 0 else -X.WIN_VALUE
    v = 0
    for t in range(6):
        o = state.owner(t)
        if o < 0:
            continue
        sign = 1 if o == 0 else -1
        v += sign * X.SCALE + (sign * 4 if state.tower_total(t) == 21 else 0)
    return v


def _towers(state: GameState[Any]) -> TowersState:
    if not isinstance(state, TowersState):
        raise TypeError(f"a towers bot needs a TowersState, not {type(state).__name__}")
    return state


class GreedyBot:
    """One-ply greedy placement, random line and announcement."""

    name = "greedy"

    def choose(self, state: GameState[Any], rng: random.Random) -> TowersAction:
        state = _towers(state)
        actions = state.legal_actions()
        if state.phase != "place" or len(actions) == 1:
            return rng.choice(actions)
        seat = state.current_player()
        sign = 1 if seat == 0 else -1
        best: list[TowersAction] = []
        best_v: int | None = None
        for a in actions:
            c = state.clone()
            c.apply(a)
            v = sign * heuristic_value(c)
            if isinstance(a, Place) and a.stone == JOKER:
                v -= 1  # keep jokers when it makes no difference
            if best_v is None or v > best_v:
                best, best_v = [a], v
            elif v == best_v:
                best.append(a)
        return rng.choice(best)


def _horizon(state: TowersState) -> str:
    return "game" if state.round == 5 else "round"


def _obvious_choice(state: TowersState, seat: int, actions: list[TowersAction]) -> TowersAction | None:
    """The move needing no search: the only legal one, or an announcement (chosen by rule); else None."""
    if len(actions) == 1:
        return actions[0]
    if state.phase == "pick" and state.step % 2 == 1:
        return choose_announcement(state, seat)
    return None


class PIMCBot:
    """Determinize ``samples`` times (or for ``seconds``), solve each exactly, play the best mean."""

    def __init__(self, samples: int = 12, seconds: float | None = None, tt_bits: int = 18,
                 name: str = "pimc") -> None:
        self.samples = samples
        self.seconds = seconds
        self.solver = Solver(tt_bits)
        self.name = name

    def choose(self, state: GameState[Any], rng: random.Random) -> TowersAction:
        state = _towers(state)
        seat = state.current_player()
        actions = state.legal_actions()
        obvious = _obvious_choice(state, seat, actions)
        if obvious is not None:
            return obvious
        sign = 1 if seat == 0 else -1
        totals: dict[TowersAction, float] = {a: 0.0 for a in actions}
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else math.inf
        done = 0
        while (done < self.samples if self.seconds is None else (done == 0 or time.perf_counter() < deadline)):
            det = state.resample(seat, rng)
            S = pack(det, _horizon(det), mode=1)
            moves, vals = self.solver.root_values(S)
            for m, v in zip(moves, vals, strict=True):
                a = kernel_to_action(S, m)
                if a in totals:
                    totals[a] += sign * v
            done += 1
        best = max(totals.values())
        return rng.choice([a for a, v in totals.items() if v == best])


class _Node:
    __slots__ = ("children", "visits", "reward", "avail")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.avail = 0


def _move_key(S: np.ndarray, m: int) -> int:
    """Determinization-independent key of a kernel move (placements by stone code, not hand slot)."""
    if m >= K.MOVE_PICK or m == K.MOVE_PASS:
        return int(m) + 10_000
    p = int(K.mover(S))
    code = int(S[K.HAND + 3 * p + m // 16])
    return code * 16 + int(m % 16)


class ISMCTSBot:
    """Single-observer information-set MCTS over the current round (see module docstring)."""

    def __init__(self, iterations: int = 300, seconds: float | None = None, determinizations: int = 24,
                 c: float = 0.7, name: str = "ismcts") -> None:
        self.iterations = iterations
        self.seconds = seconds
        self.determinizations = determinizations
        self.c = c
        self.name = name

    def choose(self, state: GameState[Any], rng: random.Random) -> TowersAction:
        state = _towers(state)
        seat = state.current_player()
        actions = state.legal_actions()
        obvious = _obvious_choice(state, seat, actions)
        if obvious is not None:
            return obvious
        dets = [pack(state.resample(seat, rng), _horizon(state), mode=1) for _ in range(self.determinizations)]
        np_rng = np.random.default_rng(rng.randrange(1 << 30))
        root = _Node()
        moves = np.empty(K.MAXM, dtype=np.int64)
        undo = np.empty(16, dtype=np.int64)
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else math.inf
        it = 0
        while (it < self.iterations if self.seconds is None else (it == 0 or time.perf_counter() < deadline)):
            self._iterate(root, dets[it % len(dets)].copy(), moves, undo, np_rng)
            it += 1
        S0 = dets[0]
        by_key = {}
        n = K.gen_moves(S0, moves)
        for i in range(n):
            by_key[_move_key(S0, int(moves[i]))] = kernel_to_action(S0, int(moves[i]))
        best_k = max(root.children, key=lambda k: root.children[k].visits)
        return by_key[best_k]

    def _iterate(self, root: _Node, S: np.ndarray, moves: np.ndarray, undo: np.ndarray,
                 np_rng: np.random.Generator) -> None:
        """One iteration on the determinization ``S``: select, expand one node, roll out, back up."""
        node, path = root, [(root, -1)]
        while S[K.PHASE] != K.PHASE_DONE:
            n = K.gen_moves(S, moves)
            p = int(K.mover(S))
            keys = [_move_key(S, int(moves[i])) for i in range(n)]
            untried = [i for i in range(n) if keys[i] not in node.children]
            for k in keys:
                ch = node.children.get(k)
                if ch is not None:
                    ch.avail += 1
            if untried:
                i = untried[int(np_rng.integers(len(untried)))]
                child = _Node()
                child.avail = 1
                node.children[keys[i]] = child
                K.make_move(S, moves[i], undo)
                path.append((child, p))
                break
            best_i, best_u = 0, -1.0
            for i in range(n):
                ch = node.children[keys[i]]
                u = ch.reward / ch.visits + self.c * math.sqrt(math.log(max(ch.avail, 1)) / ch.visits)
                if u > best_u:
                    best_i, best_u = i, u
            K.make_move(S, moves[best_i], undo)
            node = node.children[keys[best_i]]
            path.append((node, p))
        while S[K.PHASE] != K.PHASE_DONE:  # random rollout to the horizon
            n = K.gen_moves(S, moves)
            K.make_move(S, moves[int(np_rng.integers(n))], undo)
        r1 = 0.5 + 0.5 * math.tanh(X.evaluate(S) / 128.0)
        for nd, p in path:
            nd.visits += 1
            nd.reward += r1 if p == 0 else 1.0 - r1


# ---------------------------------------------------------------------------
# registry and compiled playouts
# ---------------------------------------------------------------------------


def _pimc(budget: Budget | None) -> Bot[Any]:
    if budget is None:
        return PIMCBot()
    return PIMCBot(samples=budget.count or 12, seconds=budget.seconds, name=f"pimc:{budget}")


def _ismcts(budget: Budget | None) -> Bot[Any]:
    if budget is None:
        return ISMCTSBot()
    return ISMCTSBot(iterations=budget.count or 300, seconds=budget.seconds, name=f"ismcts:{budget}")


class EquilibriumBot:
    """Round 6's placements: at every placement with a choice, the CFR+ equilibrium of the public subgame rooted at
    the current public state, every hand it allows dealt by its draw weight (:mod:`solvers.towers.equilibrium`,
    cached by public state), played by sampling its root strategy for the bot's hand.  The first placement's subgame
    is solved to exploitability 1e-3, the later (small) ones to ``resolve_target``.  ``resolve=False``: the bot as
    first built, solving once where the placements began and following that strategy (exploitability 0.0122 on the
    bench's 200 states against 0.0018 re-solving; ``docs/towers-equilibrium.md``).  Round 6's announcement
    (``announce``): the second to announce plays its hand's strategy in the subgame solved from there (10^-2); the
    first scores each mode by its hand's return in the subgame after saying it and says the best
    (:func:`~solvers.towers.equilibrium.announcement_probabilities`; a few seconds of CPU, cached by public state).
    Rounds 1-5, and announcements with ``announce=False``: ISMCTS (the subgame from round 6's start is 1-2 x 10^7
    public nodes, 1.5-3 minutes of CPU to solve)."""

    def __init__(self, iterations: int = 300, seconds: float | None = None, name: str = "equilibrium",
                 node_limit: int = 150_000, resolve: bool = True, resolve_target: float = 1e-4,
                 announce: bool = True) -> None:
        self.fallback = ISMCTSBot(iterations=iterations, seconds=seconds)
        self.name = name
        self.node_limit = node_limit
        self.resolve = resolve
        self.resolve_target = resolve_target
        self.announce = announce

    def choose(self, state: GameState[Any], rng: random.Random) -> TowersAction:
        state = _towers(state)
        if state.round == 5 and state.phase in ("place", "pick"):
            actions = state.legal_actions()
            if len(actions) == 1:
                return actions[0]
            probs = self.probabilities(state) if state.phase == "place" else self.announcement(state)
            if probs is None:
                return self.fallback.choose(state, rng)
            from solvers.towers.equilibrium import play_probabilities

            return play_probabilities(probs, state, rng)
        return self.fallback.choose(state, rng)

    def announcement(self, state: TowersState) -> list[tuple[str, float]] | None:
        """The mixed announcement (action text, probability) of the mover's hand at round 6's start, from the solved
        announcement subgames (:func:`solvers.towers.equilibrium.announcement_probabilities`); None without
        ``announce``, where a subgame is over its node limit, or where the choice is not an announcement (then the
        bot plays ``ismcts``'s rule)."""
        from solvers.towers.equilibrium import SubgameTooLarge, announcement_probabilities

        if not self.announce or not all(isinstance(a, Announce) for a in state.legal_actions()):
            return None
        try:
            return announcement_probabilities(state, state.current_player())
        except SubgameTooLarge:
            return None

    def probabilities(self, state: TowersState) -> list[tuple[str, float]] | None:
        """The mixed strategy (action text, probability) of the mover's hand at a round-6 placement, from the
        solved placements or (``resolve``) the re-solve at ``state``; None where the subgame is over the node
        limit (then the bot plays ``ismcts``)."""
        from solvers.towers.equilibrium import (
            SubgameTooLarge,
            resolved_probabilities,
            solved_placements,
            solved_probabilities,
        )

        seat = state.current_player()
        try:
            if self.resolve:
                return resolved_probabilities(state, seat, self.node_limit, self.resolve_target)
            return solved_probabilities(solved_placements(state, self.node_limit), state, seat)
        except SubgameTooLarge:
            return None


def _equilibrium(budget: Budget | None) -> Bot[Any]:
    if budget is None:
        return EquilibriumBot()
    return EquilibriumBot(iterations=budget.count or 300, seconds=budget.seconds, name=f"equilibrium:{budget}")


#: The towers bots for :func:`solvers.bots.make_bot` (the generic ``random``, ``mcts`` and ``human`` come too).
BOTS: dict[str, BotFactory] = {
    "greedy": lambda budget: GreedyBot(),
    "pimc": _pimc,
    "ismcts": _ismcts,
    "equilibrium": _equilibrium,
}


def kernel_random_games(seeds: np.ndarray) -> np.ndarray:
    """Uniformly random games in the compiled kernel, one per seed: rows (winner seat or -1, instant, towers P1, towers P2).

    Same rules and the same uniform-over-distinct-actions policy as the engine's
    ``legal_actions`` (announcements carry no weight for random players).
    """
    results = np.empty((len(seeds), 4), dtype=np.int64)
    K.random_playouts(np.asarray(seeds, dtype=np.int64) % (2**32), results)
    return results


def fast_playouts(job: PlayoutJob, start: int, stop: int, chunk: int = 20_000) -> PlayoutStats | None:
    """Games ``start .. stop-1`` of ``job`` in the compiled kernel when every seat is ``random``; else None.

    Game ``i`` is seeded with ``game_seed(job.seed, i)``, so any split of a
    series gives the same totals.
    """
    if job.game != "towers" or job.players != 2 or job.options:
        return None
    if any(split_spec(spec)[0] != "random" for spec in job.bots):
        return None
    stats = PlayoutStats(list(job.bots))
    for lo in range(start, stop, chunk):
        hi = min(stop, lo + chunk)
        index = np.arange(lo, hi, dtype=np.int64)
        res = kernel_random_games(np.array([game_seed(job.seed, int(i)) % 2**32 for i in index], dtype=np.int64))
        winner, owned = res[:, 0], res[:, 2:4].astype(float)
        seat_returns = np.stack([np.where(winner == p, 1.0, np.where(winner < 0, 0.5, 0.0)) for p in (0, 1)], axis=1)
        # bot in seat s of game i (seating(2, i, rotate)): s, or (s + i) % 2 when rotating
        swap = (index % 2 == 1) if job.rotate else np.zeros(len(index), dtype=bool)
        stats.games += len(index)
        for seat in (0, 1):
            bot_of_seat = np.where(swap, 1 - seat, seat)
            stats.seat_wins[seat] += float(seat_returns[:, seat].sum())
            for bot in (0, 1):
                mine = bot_of_seat == bot
                stats.wins[bot] += float(seat_returns[mine, seat].sum())
                stats.score_sums[bot] += float(owned[mine, seat].sum())
                stats.score_sq_sums[bot] += float((owned[mine, seat] ** 2).sum())
    return stats


def replay_kernel_game(seed: int) -> TowersState:
    """Replay a kernel random game (``random_game_trace``) in the Python engine; for cross-checking rules."""
    g1 = np.empty((2, 9), dtype=np.int64)
    g2 = np.empty((2, 9), dtype=np.int64)
    rm = np.empty((2, 3), dtype=np.int64)
    trace = np.empty(128, dtype=np.int64)
    n = K.random_game_trace(seed, g1, g2, rm, trace)
    state = TowersState.from_setup(
        ([int(x) for x in g1[0]], [int(x) for x in g1[1]]),
        ([int(x) for x in rm[0]], [int(x) for x in rm[1]]),
        ([int(x) for x in g2[0]], [int(x) for x in g2[1]]),
    )
    slots = [[-1] * 3, [-1] * 3]
    for m in trace[:n]:
        m = int(m)
        if m == 200:
            continue
        p = state.current_player()
        if m >= K.MOVE_PICK:
            ln = m - K.MOVE_PICK
            g = state.grid_index()
            grid = state.grids[p][g]
            assert grid is not None
            slots[p] = [grid[c] for c in LINE_CELLS[ln]]
            state.apply(PickLine(ln))
            state.apply(Announce("colors"))
        elif m == K.MOVE_PASS:
            state.apply(PASS)
        else:
            slot, t, repl = m // 16, (m % 16) // 2, m % 2
            code = slots[p][slot]
            slots[p][slot] = -1
            state.apply(Place(code, t, bool(repl)))
    assert state.current_player() != CHANCE
    return state
