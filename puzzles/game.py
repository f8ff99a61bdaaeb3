"""The small state protocol every kibitz rule engine implements.

Modelled on OpenSpiel's Python games and python-chess's ``Board``: a mutable
state with ``legal_actions``/``apply`` (plus ``clone`` for search, and optional
``undo``), explicit chance nodes, a terminal test, per-player returns and
per-player observations that hide what that player may not see.

Generic code in ``solvers`` (random bots, MCTS, playout runners, parallel
executors) uses only this protocol, so every game gets it for free.

Conventions
-----------
* Players are numbered ``0 .. num_players-1``.  :data:`CHANCE` and
  :data:`TERMINAL` are the two special values of :meth:`GameState.current_player`.
* Actions are small immutable, hashable values (ints, tuples, frozen
  dataclasses).  ``action_to_string``/``string_to_action`` give a stable text
  form that round-trips.
* ``apply`` raises :class:`IllegalActionError` (with a one-line reason) for an
  illegal action and leaves the state unchanged.
* ``returns()`` are the utilities used by search: win = 1, loss = 0 and a tie
  for first place shares 1 among the tied players; ``scores()`` are the game's
  own points.
* Randomness is explicit: at a chance node the caller draws an outcome with
  ``sample_chance(rng)`` from a seeded :class:`random.Random`, so a game is a
  pure function of its seed and the players' choices.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from typing import Any, Self

CHANCE = -1
TERMINAL = -2

Action = Hashable


class IllegalActionError(ValueError):
    """An action that the rules forbid in this state; the message says why."""


class GameState(ABC):
    """One position of a game, with the operations that search and play need."""

    #: Number of seats (players) in this game.
    num_players: int

    # -- whose turn --------------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """The seat to act, :data:`CHANCE` at a chance node, :data:`TERMINAL` at the end."""

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        """True when the next action is drawn by chance."""
        return self.current_player() == CHANCE

    # -- moves -------------------------------------------------------------
    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """The legal actions of the player to move (chance outcomes at a chance node)."""

    @abstractmethod
    def apply(self, action: Action) -> None:
        """Play ``action`` in place; raise :class:`IllegalActionError` if it is illegal."""

    def undo(self) -> None:
        """Take back the last action (engines that support cheap undo override this)."""
        raise NotImplementedError(f"{type(self).__name__} has no undo; use clone()")

    @abstractmethod
    def clone(self) -> Self:
        """An independent copy, for search."""

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """(outcome, probability) pairs at a chance node; uniform over legal_actions by default."""
        outcomes = self.legal_actions()
        return [(outcome, 1.0 / len(outcomes)) for outcome in outcomes]

    def sample_chance(self, rng: random.Random) -> Action:
        """Draw one chance outcome with ``rng`` (engines with huge outcome spaces override)."""
        outcomes, weights = zip(*self.chance_outcomes())
        return rng.choices(outcomes, weights=weights, k=1)[0]

    # -- outcome -----------------------------------------------------------
    @abstractmethod
    def scores(self) -> list[float]:
        """The game's own points per seat (meaningful at the end, may be partial before)."""

    def returns(self) -> list[float]:
        """Search utilities per seat: 1 to the winner, a tie for first shares 1, 0 otherwise."""
        return shared_win_returns(self.scores())

    # -- views and serialisation -----------------------------------------------
    @abstractmethod
    def observation(self, player: int) -> dict[str, Any]:
        """What ``player`` may see, as JSON-ready data (hidden information left out)."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The full state as JSON-ready data; ``from_json`` rebuilds an equal state."""

    @classmethod
    @abstractmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        """Rebuild a state written by :meth:`to_json`."""

    def action_to_string(self, action: Action) -> str:
        """Stable text form of an action (round-trips through :meth:`string_to_action`)."""
        return str(action)

    def string_to_action(self, text: str) -> Action:
        """Parse the text form of a legal action; raise :class:`IllegalActionError` otherwise."""
        for action in self.legal_actions():
            if self.action_to_string(action) == text.strip():
                return action
        raise IllegalActionError(f"not a legal action here: {text!r}")

    def dumps(self) -> str:
        """The state as a JSON string."""
        return json.dumps(self.to_json(), sort_keys=True)


def shared_win_returns(scores: Sequence[float]) -> list[float]:
    """1 to the single best score; a tie for first shares 1 equally; 0 to everyone else."""
    best = max(scores)
    winners = [i for i, s in enumerate(scores) if s == best]
    return [1.0 / len(winners) if i in winners else 0.0 for i in range(len(scores))]


def advance_chance(state: GameState, rng: random.Random) -> None:
    """Resolve chance nodes with ``rng`` until a player (or the end) is to act."""
    while state.current_player() == CHANCE:
        state.apply(state.sample_chance(rng))
