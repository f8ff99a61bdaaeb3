"""Data of notebooks/towers.ipynb: the value of starting a round, colours vs numbers, how often 21-plans succeed.

    nice -n 10 python bench/study_towers.py [--redo games]

Seeded, one process, saved to ``bench/results/study_towers.json``.

* ``games``: ``pimc`` against itself, except that every announcement is a fair coin (colours or
  numbers): a controlled experiment on what an announcement gives away, the searching opponent
  reading it through its resampled hands.  The bots see only their own seat; the analysis is
  omniscient: once both lines are picked, :func:`solvers.towers.planner.guaranteed_21_towers` (exact,
  both hands known) names the towers each seat can secure at 21 this round whatever the other does, and
  at the end of the round we check which of them that seat owns at 21.  Per round: the starter, each
  seat's announcement, the towers each seat owns before and after, the planned and the achieved towers.
"""

from __future__ import annotations

import random
from typing import Any

from study_common import progress, run_study

from puzzles.game import CHANCE, GameState
from puzzles.towers.engine import Announce, TowersAction, TowersState
from puzzles.towers.stones import COLORS
from solvers.bots import make_bot
from solvers.towers.planner import guaranteed_21_towers

GAMES = 600
BOT = "pimc:8"


class CoinAnnouncer:
    """``BOT`` for every decision but the announcement, which is a fair coin."""

    def __init__(self) -> None:
        self.inner = make_bot("towers", BOT)
        self.name = f"{BOT}+coin"

    def choose(self, state: GameState[Any], rng: random.Random) -> TowersAction:
        actions = state.legal_actions()
        if all(isinstance(a, Announce) for a in actions):
            return rng.choice(actions)
        return self.inner.choose(state, rng)


def owned_at_21(state: TowersState, seat: int) -> list[str]:
    return [COLORS[t] for t in range(6) if state.owner(t) == seat and state.tower_total(t) == 21]


def record_game(seed: int) -> dict[str, Any]:
    """One game with a row per round (see the module docstring)."""
    state = TowersState.new_game(seed)
    bots = [CoinAnnouncer(), CoinAnnouncer()]
    rng = random.Random(seed)
    rounds: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    while not state.is_terminal():
        if state.phase == "pick" and state.step == 0 and current is None:
            current = {"round": state.round, "starter": state.starter, "before": state.towers_owned(),
                       "announce": [None, None]}
        if state.phase == "place" and state.step == 0 and current is not None and "plans" not in current:
            current["plans"] = [guaranteed_21_towers(state, seat)["secure_towers"] for seat in (0, 1)]
        player = state.current_player()
        action = state.sample_chance(rng) if player == CHANCE else bots[player].choose(state, rng)
        if isinstance(action, Announce):
            assert current is not None
            current["announce"][player] = action.mode
        round_before = state.round
        state.apply(action)
        if current is not None and (state.round != round_before or state.is_terminal()) and "plans" in current:
            current.update(after=state.towers_owned(), at21=[owned_at_21(state, seat) for seat in (0, 1)],
                           instant=state.instant and state.is_terminal())
            rounds.append(current)
            current = None
    return {"seed": seed, "returns": state.returns(), "scores": state.scores(), "instant": state.instant,
            "rounds": rounds}


def games() -> dict[str, Any]:
    return {"bot": f"{BOT} with coin-flip announcements",
            "games": [record_game(seed) for seed in progress(range(GAMES), "pimc self-play")]}


if __name__ == "__main__":
    run_study("towers", {"games": games}, __doc__ or "")
