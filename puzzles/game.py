"""The one game layer: what every kibitz rule engine is, and the registry of games.

Modelled on OpenSpiel's Python games and python-chess's ``Board``.  A game is
described by a :class:`GameInfo` (players, chance, information, options,
undo) and registered in :data:`GAMES`; a position is a :class:`GameState`,
generic in its action type.  Generic code in ``solvers`` (bots, MCTS, the play
and playout drivers, statistics, adapters) uses only this module, so every
game gets it for free.

Conventions
-----------
* Players are numbered ``0 .. num_players-1``.  :data:`CHANCE` and
  :data:`TERMINAL` are the two special values of :meth:`GameState.current_player`.
* Actions are frozen, hashable values (frozen dataclasses or ints) that say
  what they are.  ``action_to_string`` / ``string_to_action`` give a stable
  text form that round-trips; parsing text never plays it: ``apply`` takes an
  action only.
* ``apply`` raises :class:`IllegalActionError` (with a one-line reason) for an
  illegal action and leaves the state unchanged.
* Chance: a game with :attr:`ChanceMode.EXPLICIT` lists its outcomes with
  their probabilities (``chance_outcomes``); a game with
  :attr:`ChanceMode.SAMPLED` has too many to list: there ``chance_outcomes``
  and ``legal_actions`` are empty at a chance node and ``sample_chance`` draws
  one.  Randomness always comes from a seeded :class:`random.Random` given by
  the caller, so a game is a pure function of its seed and the players' choices.
* Imperfect information: ``observation(player)`` is what that seat may see, and
  ``resample(player, rng)`` deals a full state that agrees with it (OpenSpiel's
  ``ResampleFromInfostate``).  It depends only on that observation and ``rng``,
  so a bot that searches resampled states never peeks.
* ``returns()`` are the utilities used by search: win = 1, loss = 0 and a tie
  for first place shares 1 among the tied players; ``scores()`` are the game's
  own points.
* States are mutable, so they compare by value but are not hashable.
"""

from __future__ import annotations

import functools
import importlib
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar, Generic, Self, TypeVar

CHANCE = -1
TERMINAL = -2

Action = Hashable
A = TypeVar("A", bound=Hashable)


class IllegalActionError(ValueError):
    """An action that the rules forbid in this state; the message says why."""


class UndoUnavailableError(RuntimeError):
    """``undo`` on a game whose :class:`GameInfo` declares no undo (use ``clone`` instead)."""


class ChanceMode(Enum):
    """How a game's random events are exposed."""

    NONE = "none"  # deterministic
    EXPLICIT = "explicit"  # chance_outcomes() lists every outcome with its probability
    SAMPLED = "sampled"  # too many outcomes to list: sample_chance() only


class Information(Enum):
    """Whether every seat sees the whole state."""

    PERFECT = "perfect"
    IMPERFECT = "imperfect"


@dataclass(frozen=True)
class GameOption:
    """One keyword option of ``new_game``: its default, allowed values (if a closed set), help and value type.

    ``value_type`` is needed only where the default (e.g. None) does not show it.
    """

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    value_type: type | None = None


@dataclass(frozen=True)
class GameInfo:
    """What a game is, before any position exists: the metadata tools need to drive it.

    ``factory`` is ``"module:function"``; the function is called as
    ``function(players, seed, **options)`` and is imported on first use, so
    reading the registry never loads an engine.
    """

    name: str
    title: str
    min_players: int
    max_players: int
    default_players: int
    chance: ChanceMode
    information: Information
    has_undo: bool
    factory: str
    rules: str  # the rules as implemented, in the repository's docs/rules/
    options: tuple[GameOption, ...] = field(default=())
    #: (option, value, players): the seat count implied by an option value when none is given
    players_by_option: tuple[tuple[str, Any, int], ...] = field(default=())
    #: ``"module:function"`` (imported on first use, like ``factory``): ``function(state)`` gives the game's
    #: integer action encoding and observation tensors, used by the OpenSpiel and PettingZoo adapters
    codec: str = ""

    @property
    def player_counts(self) -> range:
        """Every allowed number of players."""
        return range(self.min_players, self.max_players + 1)

    def option(self, name: str) -> GameOption:
        """The option called ``name``; ValueError naming the known ones otherwise."""
        for option in self.options:
            if option.name == name:
                return option
        known = ", ".join(o.name for o in self.options) or "none"
        raise ValueError(f"{self.name} has no option {name!r} (options: {known})")

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """``options`` with defaults filled in; ValueError for an unknown name or a value outside its choices."""
        checked = {o.name: o.default for o in self.options}
        for name, value in options.items():
            option = self.option(name)
            if option.choices is not None and value != option.default and value not in option.choices:
                allowed = ", ".join(map(str, option.choices))
                raise ValueError(f"{self.name} option {name}={value!r} is not one of: {allowed}")
            checked[name] = value
        return checked

    def implied_players(self, options: Mapping[str, Any]) -> int:
        """The seat count ``options`` imply (:attr:`players_by_option`, e.g. Blokus Duo: 2), else the default."""
        implied = [n for name, value, n in self.players_by_option if options.get(name) == value]
        return implied[0] if implied else self.default_players

    def new_game(self, players: int | None = None, seed: int = 0, **options: Any) -> GameState[Any]:
        """A fresh game for ``players`` seats dealt from ``seed``.

        Without ``players``: the count an option implies (:attr:`players_by_option`), else
        :attr:`default_players`.
        """
        players = self.implied_players(options) if players is None else players
        if players not in self.player_counts:
            raise ValueError(
                f"{self.title} takes {self.min_players} to {self.max_players} players, got {players}"
            )
        module_name, _, function_name = self.factory.partition(":")
        factory: Callable[..., GameState[Any]] = getattr(importlib.import_module(module_name), function_name)
        return factory(players, seed, **self.check_options(options))


#: What a loader may raise when a document has the wrong shape (a field missing, of the wrong type, out of range).
MALFORMED_DOCUMENT_ERRORS = (TypeError, AttributeError, KeyError, IndexError, OverflowError)


def _checked_loader(load: Callable[..., Any]) -> Callable[..., Any]:
    """``load(cls, data)`` that refuses a non-object document and turns shape errors into one-line ValueErrors."""

    @functools.wraps(load)
    def checked(cls: type[GameState[Any]], data: Any, *args: Any, **kwargs: Any) -> Any:
        name = getattr(cls, "game_name", cls.__name__)
        if not isinstance(data, dict):
            raise ValueError(f"a {name} state must be a JSON object, not {type(data).__name__}")
        try:
            return load(cls, data, *args, **kwargs)
        except MALFORMED_DOCUMENT_ERRORS as error:
            raise ValueError(f"malformed {name} state ({type(error).__name__}: {error})") from error

    return checked


class GameState(ABC, Generic[A]):
    """One position of a game, with the operations that search and play need."""

    #: The registry name of the game (a key of :data:`GAMES`).
    game_name: ClassVar[str]
    #: Number of seats (players) in this game.
    num_players: int

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Guard every engine's ``from_json``: a damaged document is a ValueError, never a stray TypeError."""
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("from_json")
        if isinstance(own, classmethod):
            cls.from_json = classmethod(_checked_loader(own.__func__))  # type: ignore[method-assign,assignment]

    @property
    def info(self) -> GameInfo:
        """This game's :class:`GameInfo`."""
        return GAMES[self.game_name]

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
    def legal_actions(self) -> list[A]:
        """The legal actions of the seat to move; the outcomes at a chance node (empty if sampled-only)."""

    def illegal_reason(self, action: A) -> str | None:
        """Why ``action`` is illegal here, or None if it is legal (engines override with a faster test)."""
        return None if action in self.legal_actions() else f"not a legal action here: {action}"

    @abstractmethod
    def apply(self, action: A) -> None:
        """Play ``action`` in place; raise :class:`IllegalActionError` (state unchanged) if it is illegal."""

    def undo(self) -> None:
        """Take back the last action; only where :attr:`GameInfo.has_undo` says so."""
        raise UndoUnavailableError(f"{type(self).__name__} has no undo; use clone()")

    @abstractmethod
    def clone(self) -> Self:
        """An independent copy, for search."""

    # -- chance ------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[A, float]]:
        """(outcome, probability) pairs at a chance node, uniform over legal_actions by default.

        Empty for a game whose chance mode is :attr:`ChanceMode.SAMPLED`.
        """
        outcomes = self.legal_actions()
        return [(outcome, 1.0 / len(outcomes)) for outcome in outcomes]

    def sample_chance(self, rng: random.Random) -> A:
        """Draw one chance outcome with ``rng`` (sampled-only games override)."""
        outcomes, weights = zip(*self.chance_outcomes(), strict=True)
        drawn: A = rng.choices(outcomes, weights=weights, k=1)[0]
        return drawn

    # -- information ---------------------------------------------------------
    @abstractmethod
    def observation(self, player: int) -> dict[str, Any]:
        """What ``player`` may see, as JSON-ready data (hidden information left out)."""

    def resample(self, player: int, rng: random.Random) -> Self:
        """A full state that ``player`` cannot tell from this one, its hidden part drawn with ``rng``.

        Perfect-information games return a copy; every imperfect-information
        game overrides this, drawing from what ``observation(player)`` shows and
        nothing else.
        """
        if self.info.information is Information.IMPERFECT:
            raise TypeError(f"{type(self).__name__} has hidden information and must override resample()")
        return self.clone()

    # -- outcome -----------------------------------------------------------
    @abstractmethod
    def scores(self) -> list[float]:
        """The game's own points per seat (meaningful at the end, may be partial before)."""

    def returns(self) -> list[float]:
        """Search utilities per seat: 1 to the winner, a tie for first shares 1, 0 otherwise."""
        return shared_win_returns(self.scores())

    # -- text and serialisation ------------------------------------------------
    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The full state as JSON-ready data; ``from_json`` rebuilds an equal state."""

    @classmethod
    @abstractmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        """Rebuild a state written by :meth:`to_json`."""

    def action_to_string(self, action: A) -> str:
        """Stable text form of an action (round-trips through :meth:`string_to_action`)."""
        return str(action)

    def string_to_action(self, text: str) -> A:
        """Parse the text form of an action; ValueError (one line) if it names no action here.

        Engines override this with a real parser; the default looks the text up
        among the legal actions.
        """
        for action in self.legal_actions():
            if self.action_to_string(action) == text.strip():
                return action
        raise IllegalActionError(f"not a legal action here: {text!r}")

    def dumps(self) -> str:
        """The state as a JSON string."""
        return json.dumps(self.to_json(), sort_keys=True)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and type(self) is type(other) and self.to_json() == other.to_json()

    __hash__: ClassVar[None] = None  # type: ignore[assignment]


def shared_win_returns(scores: Sequence[float]) -> list[float]:
    """1 to the single best score; a tie for first shares 1 equally; 0 to everyone else."""
    best = max(scores)
    winners = [i for i, s in enumerate(scores) if s == best]
    return [1.0 / len(winners) if i in winners else 0.0 for i in range(len(scores))]


def advance_chance(state: GameState[Any], rng: random.Random) -> None:
    """Resolve chance nodes with ``rng`` until a player (or the end) is to act."""
    while state.current_player() == CHANCE:
        state.apply(state.sample_chance(rng))


def game_info(name: str) -> GameInfo:
    """The registered game called ``name``; ValueError listing the games otherwise."""
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; choose from {', '.join(GAMES)}") from None


GAMES: dict[str, GameInfo] = {
    info.name: info
    for info in (
        GameInfo(
            name="blokus",
            title="Blokus",
            min_players=2,
            max_players=4,
            default_players=4,
            chance=ChanceMode.NONE,
            information=Information.PERFECT,
            has_undo=True,
            factory="puzzles.blokus.engine:new_game",
            codec="puzzles.blokus.codec:codec",
            rules="docs/rules/blokus.md",
            options=(
                GameOption("variant", None, "classic, teams (4 players), three-player, two-player or duo (2 players); "
                           "default: the one that fits the player count",
                           ("classic", "two-player", "teams", "three-player", "duo")),
                GameOption("free_corners", False, "A first piece may take any corner no other color holds."),
            ),
            players_by_option=(("variant", "two-player", 2), ("variant", "duo", 2), ("variant", "three-player", 3)),
        ),
        GameInfo(
            name="projectl",
            title="Project L",
            min_players=1,
            max_players=4,
            default_players=2,
            chance=ChanceMode.NONE,  # decks shuffled once from the seed; their order is the hidden part
            information=Information.IMPERFECT,
            has_undo=False,
            factory="puzzles.projectl.engine:new_game",
            codec="puzzles.projectl.codec:codec",
            rules="docs/rules/project-l.md",
            options=(
                GameOption("rules", "classic", "Rule set.", ("classic", "revised")),
                GameOption("difficulty", "normal", "Solo variant (1 player): the automated opponent's strength.",
                           ("normal", "hard", "unbeatable")),
                GameOption("supply", None, "Pieces of each shape in the supply (default: 10 classic, 15 revised/solo).",
                           value_type=int),
                GameOption("deck", None, "Deck file of puzzle cards (default: the shipped deck)."),
                GameOption("max_rounds", 100, "Safety limit: the game ends after this many rounds."),
            ),
        ),
        GameInfo(
            name="shelfie",
            title="My Shelfie",
            min_players=2,
            max_players=4,
            default_players=2,
            chance=ChanceMode.SAMPLED,
            information=Information.IMPERFECT,
            has_undo=False,
            factory="puzzles.shelfie.engine:new_game",
            codec="puzzles.shelfie.codec:codec",
            rules="docs/rules/my-shelfie.md",
            options=(
                GameOption("refill_rule", "isolated", "When the living room is refilled: no tile has a "
                           "neighbour (isolated, the printed rule) or 4 or fewer tiles remain.",
                           ("isolated", "four_or_fewer")),
                GameOption("squares_inside_groups", False, "TWO_SQUARES: a 2x2 square may lie inside a "
                           "larger group of its type."),
                GameOption("squares_same_type", False, "TWO_SQUARES: both squares must be of one type."),
                GameOption("common_goals", None, "The two common goals, K1,K2 (dealt from the seed if omitted)."),
                GameOption("personal_cards", None, "Personal goal cards 1..12, one per seat in seat order, "
                           "comma-separated (dealt from the seed if omitted)."),
            ),
        ),
        GameInfo(
            name="towers",
            title="Rainbow Blackjack",
            min_players=2,
            max_players=2,
            default_players=2,
            chance=ChanceMode.EXPLICIT,
            information=Information.IMPERFECT,
            has_undo=False,
            factory="puzzles.towers.engine:new_game",
            codec="puzzles.towers.codec:codec",
            rules="docs/rules/rainbow-blackjack.md",
            options=(),
        ),
    )
}
