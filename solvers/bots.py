"""Game-agnostic bots over the :mod:`puzzles.game` protocol.

A bot is any object with ``choose(state, rng) -> action`` for the seat to move;
``name`` is used in reports.  Game-specific bots live beside their game's
solvers and follow the same shape.
"""

from __future__ import annotations

import random
from typing import Protocol

from puzzles.game import Action, GameState


class Bot(Protocol):
    """Anything that picks a legal action for the player to move."""

    name: str

    def choose(self, state: GameState, rng: random.Random) -> Action: ...


class RandomBot:
    """Uniformly random legal action: the baseline every other bot must beat."""

    name = "random"

    def choose(self, state: GameState, rng: random.Random) -> Action:
        return rng.choice(state.legal_actions())
