"""Seeded playouts and their statistics, over the :mod:`puzzles.game` protocol.

Game ``i`` of a run always uses seed ``base_seed + i`` (see :func:`game_seed`),
so results do not depend on how games are spread over processes.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from puzzles.game import CHANCE, GameState
from solvers.bots import Bot


def game_seed(base_seed: int, index: int) -> int:
    """The seed of game ``index`` in a run started with ``base_seed``."""
    return base_seed * 1_000_003 + index


def play_game(state: GameState, bots: Sequence[Bot], rng: random.Random) -> GameState:
    """Play ``state`` to the end in place: chance from ``rng``, seat ``p`` moved by ``bots[p]``."""
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(bots[player].choose(state, rng))
    return state


def wilson_interval(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a proportion (ties may count as half successes)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class PlayoutStats:
    """Running totals of a playout job; ``merge`` combines jobs in task order."""

    num_players: int
    games: int = 0
    wins: list[float] = field(default_factory=list)  # shared-win returns summed per seat
    score_sums: list[float] = field(default_factory=list)
    score_sq_sums: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        for name in ("wins", "score_sums", "score_sq_sums"):
            if not getattr(self, name):
                setattr(self, name, [0.0] * self.num_players)

    def add(self, final: GameState) -> None:
        """Record one finished game."""
        self.games += 1
        for seat, (ret, score) in enumerate(zip(final.returns(), final.scores())):
            self.wins[seat] += ret
            self.score_sums[seat] += score
            self.score_sq_sums[seat] += score * score

    def merge(self, other: PlayoutStats) -> None:
        """Add another job's totals to this one."""
        self.games += other.games
        for seat in range(self.num_players):
            self.wins[seat] += other.wins[seat]
            self.score_sums[seat] += other.score_sums[seat]
            self.score_sq_sums[seat] += other.score_sq_sums[seat]

    def summary(self, seat_names: Sequence[str] | None = None) -> dict:
        """Win rates with 95% intervals and mean scores per seat, JSON-ready."""
        names = seat_names or [f"seat{i}" for i in range(self.num_players)]
        seats = {}
        for i, name in enumerate(names):
            low, high = wilson_interval(self.wins[i], self.games)
            mean = self.score_sums[i] / self.games if self.games else 0.0
            seats[name] = {
                "win_rate": self.wins[i] / self.games if self.games else 0.0,
                "win_ci95": [low, high],
                "mean_score": mean,
            }
        return {"games": self.games, "seats": seats}


def run_playouts(
    new_state: Callable[[int], GameState],
    bots: Sequence[Bot],
    games: int,
    base_seed: int = 0,
    start: int = 0,
    progress: Callable[[int], None] | None = None,
) -> PlayoutStats:
    """Play games ``start .. start+games-1``; ``new_state(seed)`` builds each starting position."""
    stats: PlayoutStats | None = None
    for index in range(start, start + games):
        seed = game_seed(base_seed, index)
        final = play_game(new_state(seed), bots, random.Random(seed))
        if stats is None:
            stats = PlayoutStats(final.num_players)
        stats.add(final)
        if progress:
            progress(1)
    return stats if stats is not None else PlayoutStats(len(bots))
