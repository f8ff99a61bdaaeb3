"""Bots for Rainbow Blackjack: random, greedy, PIMC (determinize + exact solve) and ISMCTS.

Every bot acts only on ``state.observation(seat)`` (the imperfect-information
bots draw full states from that information set with
:func:`puzzles.towers.infoset.sample_state`), never on the opponent's hidden
stones.

* ``random`` — uniform over legal actions.
* ``greedy`` — one-ply: instant win first, else the placement that best
  improves ``64·(tower margin) + 4·(21-towers margin)``; random line and
  announcement.
* ``pimc`` — perfect-information Monte Carlo: ``samples`` determinizations of
  the opponent's unseen stones consistent with everything observed (including
  announcements), each solved exactly by alpha-beta to the end of the round
  (the last round: to the end of the game), the action with the best mean
  value is played.
* ``ismcts`` — single-observer information-set MCTS: one search tree over the
  observer's information set; each iteration draws a determinization, descends
  with UCB restricted to actions legal in it (availability counts), expands
  one node, rolls out randomly to the end of the round and backs up
  ``0.5 + 0.5·tanh(value/128)``.
* Announcements (pimc, ismcts): the mode that leaves the opponent the most
  candidate hands (product, over the announced attributes, of how many of the
  announcer's not-yet-revealed stones share each attribute).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

import numpy as np

from puzzles.game import CHANCE, GameState
from puzzles.towers.engine import ANNOUNCE_MODES, TowersState
from puzzles.towers.infoset import sample_state
from puzzles.towers.stones import JOKER, announce_attr, player_set
from solvers.towers import kernel as K
from solvers.bots import RandomBot
from solvers.playout import PlayoutStats, game_seed, play_game, wilson_interval
from solvers.towers.solver import Solver, kernel_to_action, pack


def heuristic_value(state: TowersState) -> int:
    """P1-side value used by greedy: instant win ±1000, else 64·margin + 4·(21-tower margin)."""
    if state.instant:
        return K.WIN_VALUE if state.winner == 0 else -K.WIN_VALUE
    v = 0
    for t in range(6):
        o = state.owner(t)
        if o < 0:
            continue
        sign = 1 if o == 0 else -1
        v += sign * K.SCALE + (sign * 4 if state.tower_total(t) == 21 else 0)
    return v


def choose_announcement(state: TowersState, seat: int) -> tuple:
    """Announce the mode that leaves the opponent the most candidate hands (see module docstring)."""
    hidden = Counter(player_set(seat))
    for r in state.revealed[seat]:
        hidden.subtract(r)
    best, best_score = ANNOUNCE_MODES[0], -1.0
    for mode in ANNOUNCE_MODES:
        attrs = Counter(announce_attr(c, mode) for c in state.hands[seat])
        pool = Counter()
        for c, k in hidden.items():
            if k > 0:
                pool[announce_attr(c, mode)] += k
        score = 1.0
        for a, k in attrs.items():
            score *= math.comb(pool[a], k)
        if score > best_score:
            best, best_score = mode, score
    return ("announce", best)


class GreedyBot:
    """One-ply greedy placement, random line and announcement."""

    name = "greedy"

    def choose(self, state: GameState, rng: random.Random) -> Any:
        assert isinstance(state, TowersState)
        actions = state.legal_actions()
        if state.phase != "place" or len(actions) == 1:
            return rng.choice(actions)
        seat = state.current_player()
        sign = 1 if seat == 0 else -1
        best, best_v = [], None
        for a in actions:
            c = state.clone()
            c.apply(a)
            v = sign * heuristic_value(c)
            if a[0] != "pass" and a[1] == JOKER:
                v -= 1  # keep jokers when it makes no difference
            if best_v is None or v > best_v:
                best, best_v = [a], v
            elif v == best_v:
                best.append(a)
        return rng.choice(best)


def _horizon(state: TowersState) -> str:
    return "game" if state.round == 5 else "round"


def _obvious_choice(state: TowersState, seat: int, actions: list) -> Any:
    """The move needing no search: the only legal one, or an announcement (chosen by rule); else None."""
    if len(actions) == 1:
        return actions[0]
    if state.phase == "pick" and state.step % 2 == 1:
        return choose_announcement(state, seat)
    return None


class PIMCBot:
    """Determinize ``samples`` times, solve each exactly, play the best mean (see module docstring)."""

    def __init__(self, samples: int = 12, tt_bits: int = 18) -> None:
        self.samples = samples
        self.solver = Solver(tt_bits)
        self.name = "pimc"

    def choose(self, state: GameState, rng: random.Random) -> Any:
        assert isinstance(state, TowersState)
        seat = state.current_player()
        actions = state.legal_actions()
        obvious = _obvious_choice(state, seat, actions)
        if obvious is not None:
            return obvious
        obs = state.observation(seat)
        sign = 1 if seat == 0 else -1
        totals: dict[tuple, float] = {a: 0.0 for a in actions}
        for _ in range(self.samples):
            det = sample_state(obs, rng)
            S = pack(det, _horizon(det), mode=1)
            moves, vals = self.solver.root_values(S)
            for m, v in zip(moves, vals):
                a = kernel_to_action(S, m)
                if a in totals:
                    totals[a] += sign * v
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

    def __init__(self, iterations: int = 300, determinizations: int = 24, c: float = 0.7) -> None:
        self.iterations = iterations
        self.determinizations = determinizations
        self.c = c
        self.name = "ismcts"

    def choose(self, state: GameState, rng: random.Random) -> Any:
        assert isinstance(state, TowersState)
        seat = state.current_player()
        actions = state.legal_actions()
        obvious = _obvious_choice(state, seat, actions)
        if obvious is not None:
            return obvious
        obs = state.observation(seat)
        dets = [pack(sample_state(obs, rng), _horizon(state), mode=1) for _ in range(self.determinizations)]
        np_rng = np.random.default_rng(rng.randrange(1 << 30))
        root = _Node()
        moves = np.empty(K.MAXM, dtype=np.int64)
        undo = np.empty(16, dtype=np.int64)
        for it in range(self.iterations):
            S = dets[it % len(dets)].copy()
            node, path = root, [(root, -1)]
            expanded = False
            while S[K.PHASE] != K.PHASE_DONE:
                n = K.gen_moves(S, moves)
                p = int(K.mover(S))
                keys = [_move_key(S, int(moves[i])) for i in range(n)]
                untried = [i for i in range(n) if keys[i] not in node.children]
                for k in keys:
                    ch = node.children.get(k)
                    if ch is not None:
                        ch.avail += 1
                if untried and not expanded:
                    i = untried[int(np_rng.integers(len(untried)))]
                    child = _Node()
                    child.avail = 1
                    node.children[keys[i]] = child
                    K.make_move(S, moves[i], undo)
                    node = child
                    path.append((child, p))
                    expanded = True
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
            r1 = 0.5 + 0.5 * math.tanh(K.evaluate(S) / 128.0)
            for nd, p in path:
                nd.visits += 1
                nd.reward += r1 if p == 0 else 1.0 - r1
        S0 = dets[0]
        by_key = {}
        n = K.gen_moves(S0, moves)
        for i in range(n):
            by_key[_move_key(S0, int(moves[i]))] = kernel_to_action(S0, int(moves[i]))
        best_k = max(root.children, key=lambda k: root.children[k].visits)
        return by_key[best_k]


BOT_NAMES = ("random", "greedy", "pimc", "ismcts")


def make_bot(name: str, **kwargs: Any) -> Any:
    """A bot by name: random, greedy, pimc, ismcts."""
    name = name.lower()
    if name == "random":
        return RandomBot()
    if name == "greedy":
        return GreedyBot()
    if name == "pimc":
        return PIMCBot(**kwargs)
    if name == "ismcts":
        return ISMCTSBot(**kwargs)
    raise ValueError(f"unknown bot {name!r} (choose from {', '.join(BOT_NAMES)})")


# ---------------------------------------------------------------------------
# match statistics
# ---------------------------------------------------------------------------


class TowersStats(PlayoutStats):
    """PlayoutStats plus outcome counts: P1/P2 wins, draws, instant wins."""

    def __init__(self) -> None:
        super().__init__(2)
        self.p1_wins = 0
        self.p2_wins = 0
        self.draws = 0
        self.instant_wins = 0

    def add(self, final: Any) -> None:  # type: ignore[override]
        super().add(final)
        self.record(final.winner, final.instant)

    def record(self, winner: int, instant: bool) -> None:
        if winner == 0:
            self.p1_wins += 1
        elif winner == 1:
            self.p2_wins += 1
        else:
            self.draws += 1
        self.instant_wins += int(bool(instant))

    def merge(self, other: PlayoutStats) -> None:
        super().merge(other)
        if isinstance(other, TowersStats):
            self.p1_wins += other.p1_wins
            self.p2_wins += other.p2_wins
            self.draws += other.draws
            self.instant_wins += other.instant_wins

    def report(self, names: tuple[str, str]) -> dict[str, Any]:
        g = max(self.games, 1)
        decided = self.p1_wins + self.p2_wins
        return {
            "games": self.games,
            "p1": names[0],
            "p2": names[1],
            "p1_wins": self.p1_wins,
            "p2_wins": self.p2_wins,
            "draws": self.draws,
            "instant_wins": self.instant_wins,
            "p1_win_rate": self.p1_wins / g,
            "p1_win_ci95": list(wilson_interval(self.p1_wins, self.games)),
            "p2_win_rate": self.p2_wins / g,
            "p2_win_ci95": list(wilson_interval(self.p2_wins, self.games)),
            "draw_rate": self.draws / g,
            "draw_ci95": list(wilson_interval(self.draws, self.games)),
            "instant_win_rate": self.instant_wins / g,
            "p1_share_of_decided": self.p1_wins / decided if decided else None,
            "p1_share_of_decided_ci95": list(wilson_interval(self.p1_wins, decided)) if decided else None,
            "first_player_advantage": (self.p1_wins - self.p2_wins) / g,
        }


def play_match(p1: str, p2: str, games: int, seed: int = 0, progress: Any = None, bot_kwargs: dict | None = None,
               start: int = 0) -> TowersStats:
    """Games ``start .. start+games-1`` (game i uses ``game_seed(seed, i)``); stops early on Ctrl-C with partial stats."""
    if p1 == "random" and p2 == "random":
        return fast_random_match(games, seed, progress, start=start)
    kw = bot_kwargs or {}
    bots = [make_bot(p1, **kw.get(p1, {})), make_bot(p2, **kw.get(p2, {}))]
    stats = TowersStats()
    try:
        for i in range(start, start + games):
            s = game_seed(seed, i)
            final = play_game(TowersState(), bots, random.Random(s))
            stats.add(final)
            if progress:
                progress(1)
    except KeyboardInterrupt:
        pass
    return stats


def match_range(arguments: tuple[str, str, int], start: int, stop: int) -> TowersStats:
    """Picklable entry point for :func:`solvers.parallel.run_ranges`: games ``start .. stop-1``."""
    p1, p2, seed = arguments
    return play_match(p1, p2, stop - start, seed, start=start)


def fast_random_match(games: int, seed: int = 0, progress: Any = None, chunk: int = 20_000, start: int = 0) -> TowersStats:
    """Random vs random with the compiled kernel (same rules, same uniform-over-distinct-actions policy).

    Game i is seeded with ``game_seed(seed, i)``, so any split of the games gives the same totals."""
    stats = TowersStats()
    done = 0
    try:
        while done < games:
            n = min(chunk, games - done)
            res = np.empty((n, 4), dtype=np.int64)
            seeds = np.array([game_seed(seed, start + done + g) % (2**32) for g in range(n)], dtype=np.int64)
            K.random_playouts(seeds, res)
            for w, inst, o0, o1 in res:
                stats.games += 1
                stats.wins[0] += 1.0 if (w == 0) else 0.5 if w < 0 else 0.0
                stats.wins[1] += 1.0 if (w == 1) else 0.5 if w < 0 else 0.0
                stats.score_sums[0] += o0
                stats.score_sums[1] += o1
                stats.score_sq_sums[0] += o0 * o0
                stats.score_sq_sums[1] += o1 * o1
                stats.record(int(w), bool(inst))
            done += n
            if progress:
                progress(n)
    except KeyboardInterrupt:
        pass
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
    from puzzles.towers.engine import LINE_CELLS

    for m in trace[:n]:
        m = int(m)
        if m == 200:
            continue
        p = state.current_player()
        if m >= K.MOVE_PICK:
            ln = m - K.MOVE_PICK
            g = state.grid_index()
            slots[p] = [state.grids[p][g][c] for c in LINE_CELLS[ln]]
            state.apply(("line", ln))
            state.apply(("announce", "colors"))
        elif m == K.MOVE_PASS:
            state.apply(("pass",))
        else:
            slot, t, repl = m // 16, (m % 16) // 2, m % 2
            code = slots[p][slot]
            slots[p][slot] = -1
            state.apply(("replace" if repl else "place", code, t))
        if state.phase == "place" and state.step == 0:
            pass
    assert state.current_player() != CHANCE
    return state
