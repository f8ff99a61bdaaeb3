"""Blokus bots and fast playouts: compiled random bot, greedy bot, MCTS with weighted numba playouts.

The random-game kernel (:func:`puzzles.blokus.kernel.play_to_end`, kept next to
the move generator it inlines so numba's on-disk cache stays coherent) plays a
whole game inside numba on the same arrays and with the same move generator as
:class:`~puzzles.blokus.engine.BlokusState`, keeping one legal-move list per
color incrementally.  This module wraps it: playouts from any state, batches,
the MCTS rollout policy, the bots (:data:`BOTS`, built through
:func:`solvers.bots.make_bot`) and :func:`fast_playouts`, which plays
all-random line-ups of :func:`solvers.playout.run_playouts` in the kernel.

Playout policies: ``weights is None`` draws uniformly among the legal moves
(the benchmark's definition of a random game); otherwise a move of piece ``p``
is drawn with probability proportional to ``weights[p]`` (default
:data:`BIG_PIECE_WEIGHTS`: size**3, i.e. pentominoes ~4.6x tetrominoes).
"""

from __future__ import annotations

import random
import threading
from typing import Any

import numpy as np
from numba import njit

from puzzles.blokus import kernel as K
from puzzles.blokus.engine import BlokusState
from puzzles.blokus.tables import MONOMINO, NUM_PIECES, PASS, PIECE_SIZES, Move
from puzzles.game import GameState
from solvers.bots import BotFactory, Budget, split_spec
from solvers.mcts import MCTSBot
from solvers.playout import PlayoutJob, PlayoutStats, game_seed, seating

BIG_PIECE_WEIGHTS = np.array([float(s) ** 3 for s in PIECE_SIZES], dtype=np.float64)
MAX_PLIES = 4 * NUM_PIECES + 8


def _board(state: GameState[Any]) -> BlokusState:
    """``state`` as a Blokus position (these bots and rollouts play Blokus only)."""
    if not isinstance(state, BlokusState):
        raise TypeError(f"a Blokus bot got a {type(state).__name__}")
    return state


class _Scratch:
    """Per-board scratch arrays for the kernel (:func:`~puzzles.blokus.kernel.game_scratch`), one set per thread
    (Dask runs tasks in threads)."""

    local = threading.local()

    @classmethod
    def get(cls, state: BlokusState) -> tuple[np.ndarray, ...]:
        cache = cls.local.__dict__.setdefault("cache", {})
        key = (id(state.tables), state.num_colors)
        if key not in cache:
            cache[key] = (state.tables, K.game_scratch(state.ktables, state.num_colors, state.tables.area))
        return cache[key][1]


def playout(state: BlokusState, seed: int, weights: np.ndarray | None = None, record: bool = False) -> Any:
    """Finish a copy of ``state`` in the numba kernel; ``state`` is untouched.

    Returns the per-color scores, plus (when ``record``) the plies as
    ``(color, placement or -1 for a pass, number of legal placements)``.
    """
    scratch = _Scratch.get(state)
    arrays = state.arrays.copy()
    size = MAX_PLIES if record else 0
    rec_c = np.zeros(size, dtype=np.int32)
    rec_m = np.zeros(size, dtype=np.int32)
    rec_n = np.zeros(size, dtype=np.int32)
    K.seed_rng(seed & 0xFFFFFFFF)
    uniform = weights is None
    w = BIG_PIECE_WEIGHTS if weights is None else np.asarray(weights, dtype=np.float64)
    if state.to_move < 0:
        plies = 0
    else:
        plies = K.play_to_end(state.ktables, arrays, state.to_move, w, uniform, scratch, rec_c, rec_m, rec_n)
    sizes = state.tables.piece_sizes
    scores = [int(K.color_score(c, arrays.left, arrays.last_piece, sizes, MONOMINO)) for c in range(state.num_colors)]
    if record:
        return scores, list(zip(rec_c[:plies].tolist(), rec_m[:plies].tolist(), rec_n[:plies].tolist()))
    return scores


def random_games(games: int, seed: int = 0, variant: str = "classic",
                 weights: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Play ``games`` random games from the start in one numba call: (color scores [games, colors], plies)."""
    state = BlokusState(variant)
    w = BIG_PIECE_WEIGHTS if weights is None else np.asarray(weights, dtype=np.float64)
    return K.play_batch(state.ktables, state.arrays, games, seed, w, weights is None, state.tables.piece_sizes, MONOMINO)


class PlayoutPolicy:
    """MCTS rollout hook: finish the game in the numba kernel, return the seats' utilities.

    ``weights=None`` is uniform; the default ``"big"`` is :data:`BIG_PIECE_WEIGHTS`.
    ``margin`` > 0 blends the win/loss returns with the score margin (squashed to
    0..1 with scale ``margin_scale``): ``(1 - margin) * win + margin * squash``,
    a denser signal than win/loss alone.
    """

    def __init__(self, weights: np.ndarray | None | str = "big", margin: float = 0.0, margin_scale: float = 10.0) -> None:
        self.weights: np.ndarray | None = BIG_PIECE_WEIGHTS if isinstance(weights, str) else weights
        self.margin = margin
        self.margin_scale = margin_scale

    def __call__(self, game: GameState[Any], rng: random.Random) -> list[float]:
        state = _board(game)
        colors = playout(state, rng.getrandbits(32), self.weights)
        wins = state.seat_returns(colors)
        if not self.margin:
            return wins
        seats = state.seat_scores(colors)
        out = []
        for i, w in enumerate(wins):
            teams = state.variant.name == "teams"
            best_other = max(s for j, s in enumerate(seats) if j != i and not (teams and j % 2 == i % 2))
            squash = 0.5 + 0.5 * np.tanh((seats[i] - best_other) / self.margin_scale)
            out.append((1 - self.margin) * w + self.margin * float(squash))
        return out


class FastRandomBot:
    """Uniform random legal move from the compiled move generator.

    Draws exactly as ``solvers.bots.RandomBot`` does (same list order, same
    ``rng`` call), without building a :class:`Move` for every legal placement.
    """

    name = "random"

    def choose(self, game: GameState[Any], rng: random.Random) -> Move:
        state = _board(game)
        found = state.legal_placements()
        if len(found) == 0:
            return PASS
        return state.tables.moves[int(found[rng.randrange(len(found))])]


@njit(cache=True)
def _greedy_keys(color, moves, tables, arrays, out):  # type: ignore[no-untyped-def]
    """Per move: size * 1000 + (new own attach points) - (opponent attach points it covers)."""
    pl_size, pl_cells, pl_corners, pl_ncorners = tables.pl_size, tables.pl_cells, tables.pl_corners, tables.pl_ncorners
    forbidden, is_attach, done = arrays.forbidden, arrays.is_attach, arrays.done
    nc = forbidden.shape[0]
    f = forbidden[color]
    for i in range(moves.shape[0]):
        m = moves[i]
        mine = 0
        for j in range(pl_ncorners[m]):
            q = pl_corners[m, j]
            if f[q] == 0 and is_attach[color, q] == 0:
                # a new corner that stays usable (not covered/edge-blocked by this very piece)
                mine += 1
        theirs = 0
        for k in range(nc):
            if k == color or done[k]:
                continue
            for j in range(pl_size[m]):
                q = pl_cells[m, j]
                if is_attach[k, q] and forbidden[k, q] == 0:
                    theirs += 1
        out[i] = pl_size[m] * 1000 + mine - theirs


class GreedyBot:
    """Largest piece first; then most new corners for us minus the opponents' corners we cover; ties at random."""

    name = "greedy"

    def choose(self, game: GameState[Any], rng: random.Random) -> Move:
        state = _board(game)
        found = state.legal_placements()
        if len(found) == 0:
            return PASS
        keys = np.zeros(len(found), dtype=np.int64)
        _greedy_keys(state.to_move, found, state.ktables, state.arrays, keys)
        best = np.flatnonzero(keys == keys.max())
        return state.tables.moves[int(found[best[rng.randrange(len(best))]])]


def mcts_bot(budget: Budget | None = None) -> MCTSBot[Move]:
    """The generic :class:`~solvers.mcts.MCTSBot` with Blokus rollouts: size-weighted numba
    playouts, returns blended with the score margin (``PlayoutPolicy(margin=0.3)``).

    Default budget: 1000 iterations.
    """
    if budget is None:
        return MCTSBot(rollout=PlayoutPolicy(margin=0.3))
    return MCTSBot(iterations=budget.count, seconds=budget.seconds, rollout=PlayoutPolicy(margin=0.3),
                   name=f"mcts:{budget}")


#: Blokus's bots by name (replacing the generic ``random`` and ``mcts``); build them with
#: ``solvers.bots.make_bot("blokus", "name[:budget]")``.
BOTS: dict[str, BotFactory] = {
    "random": lambda budget: FastRandomBot(),
    "greedy": lambda budget: GreedyBot(),
    "mcts": mcts_bot,
    "mcts-rave": lambda budget: _fast_mcts(budget),
}


def _fast_mcts(budget: Budget | None) -> Any:
    """The Pentobi-style compiled MCTS (:mod:`solvers.blokus.mcts`), imported on first use."""
    from solvers.blokus.mcts import fast_mcts_bot

    return fast_mcts_bot(budget)


def fast_playouts(job: PlayoutJob, start: int, stop: int) -> PlayoutStats | None:
    """Games ``start .. stop-1`` of an all-``random`` ``job`` in the numba kernel; None for other line-ups.

    Game ``i`` is drawn from the kernel's generator seeded with ``game_seed(job.seed, i)``
    (so any split into ranges gives the same totals); the games are uniform random like
    the ``random`` bot's, though not the same games as the Python driver would play.
    """
    if any(split_spec(spec)[0] != "random" for spec in job.bots):
        return None
    state = job.new_state(start)
    assert isinstance(state, BlokusState)
    stats = PlayoutStats(list(job.bots))
    if stop <= start:
        return stats
    seeds = np.array([game_seed(job.seed, i) & 0xFFFFFFFF for i in range(start, stop)], dtype=np.int64)
    colors = K.play_seeded(state.ktables, state.arrays, seeds, BIG_PIECE_WEIGHTS, True, state.tables.piece_sizes,
                           MONOMINO)
    for offset, row in enumerate(colors.tolist()):
        stats.add_result(state.seat_returns(row), state.seat_scores(row), seating(job.players, start + offset, job.rotate))
    return stats


__all__ = ["BIG_PIECE_WEIGHTS", "BOTS", "FastRandomBot", "GreedyBot", "PlayoutPolicy", "fast_playouts",
           "mcts_bot", "playout", "random_games"]
