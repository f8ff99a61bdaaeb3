"""The bot a human's ``hint`` asks in ``kibitz towers play``: proved answers where everything is face up.

In a face-up position (an endgame challenge from ``kibitz generate towers``:
:attr:`TowersState.face_up`) nothing is hidden, so the exact solver may read the
whole state: the hint is a proven best move to the end of the game and says so
(``R5>R (proved: win)``).  Anywhere else the opponent's stones are hidden and the
hint is the usual one (``greedy``, which reads only the towers), so a hint never
reveals what the seat cannot see.
"""

from __future__ import annotations

import random
from typing import Any

from puzzles.game import GameState
from puzzles.towers.engine import TowersAction, TowersState
from solvers.bots import Bot, make_bot
from solvers.towers.solver import Solver

#: A hint's exact search stops after this many seconds (then the usual hint bot answers).
HINT_SECONDS = 10.0


def outcome_word(value: int, seat: int) -> str:
    """'win', 'draw' or 'loss' for ``seat`` of a P1-side value."""
    v = value if seat == 0 else -value
    return "win" if v > 0 else "loss" if v < 0 else "draw"


class ExactHintBot:
    """The exact solver's best move in a face-up position (to the end of the game), else ``fallback``'s move.

    After :meth:`choose`, :attr:`hint_note` says how the move was found
    (``proved: win``), or is None when ``fallback`` answered.
    """

    name = "the exact solver where everything is face up, else greedy"

    def __init__(self, fallback: Bot[Any], seconds: float = HINT_SECONDS) -> None:
        self.fallback = fallback
        self.seconds = seconds
        self.hint_note: str | None = None
        self._solver: Solver | None = None

    def choose(self, state: GameState[Any], rng: random.Random) -> TowersAction:
        self.hint_note = None
        if isinstance(state, TowersState) and state.face_up and state.current_player() in (0, 1):
            proved = self._proved(state)
            if proved is not None:
                return proved
        return self.fallback.choose(state, rng)

    def _proved(self, state: TowersState) -> TowersAction | None:
        """The best move proved to the end of the game, with its note; None if no proof in time (or grid 1)."""
        if self._solver is None:
            self._solver = Solver(20, time_limit=self.seconds)
        result = self._solver.solve(state, horizon="game", pv=False)
        if result.status != "proved" or not result.exact_game or result.best_action is None:
            self.hint_note = f"not proved ({result.status if result.status != 'proved' else 'grid 1'}): greedy's move"
            return None
        self.hint_note = f"proved: {outcome_word(result.value, state.current_player())}"
        return result.best_action


def hinter(state: Any) -> Bot[Any]:
    """:attr:`commands.play.PlayHooks.hinter` for towers: the exact hint in a face-up game, else plain greedy."""
    greedy = make_bot("towers", "greedy")
    if isinstance(state, TowersState) and state.face_up:
        return ExactHintBot(greedy)
    return greedy
