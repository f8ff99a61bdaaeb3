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
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

CHANCE = -1
TERMINAL = -2

Action = Hashable
A = TypeVar("A", bound=Hashable)


class IllegalActionError(ValueError):
    """An action that the rules forbid in this state; the message says why."""


class InformationStateUnavailableError(NotImplementedError):
    """An information-state call on a game whose :class:`GameInfo` declares none (``has_information_state``)."""


class InformationStateHook(Protocol):
    """What ``GameInfo.infostate`` gives: a seat's information state, a function of what that seat observed."""

    shape: tuple[int, ...]

    def string(self, state: Any, player: int) -> str: ...

    def tensor(self, state: Any, player: int) -> Any: ...


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
    #: ``"module:function"`` (imported on first use): ``function(state)`` gives the game's information-state hook
    #: (:class:`InformationStateHook`: a seat's perfect-recall string and tensor); ``""``: the game has none
    infostate: str = ""

    @property
    def has_information_state(self) -> bool:
        """Whether ``information_state_string`` / ``information_state_tensor`` work for this game."""
        return bool(self.infostate)

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

        Empty at a decision node, and for a game whose chance mode is :attr:`ChanceMode.SAMPLED`.
        """
        if not self.is_chance_node():
            return []
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

    def picture(self, seat: int | None = None, reveal: bool = False) -> str:
        """SVG of this position as ``seat`` observes it (None: what every seat may see); ``reveal`` draws the
        hidden information too (analysis, a finished game).  Each engine draws its own."""
        raise NotImplementedError(f"{type(self).__name__} draws no picture")

    def resample(self, player: int, rng: random.Random) -> Self:
        """A full state that ``player`` cannot tell from this one, its hidden part drawn with ``rng``.

        Perfect-information games return a copy; every imperfect-information
        game overrides this, drawing from what ``observation(player)`` shows and
        nothing else.
        """
        if self.info.information is Information.IMPERFECT:
            raise TypeError(f"{type(self).__name__} has hidden information and must override resample()")
        return self.clone()

    def _information_state(self) -> InformationStateHook:
        """The game's information-state hook; :class:`InformationStateUnavailableError` when it has none."""
        info = self.info
        if not info.has_information_state:
            raise InformationStateUnavailableError(
                f"{info.title} has no information-state support (GameInfo.has_information_state is False)")
        module_name, _, function_name = info.infostate.partition(":")
        make: Callable[[GameState[Any]], InformationStateHook] = getattr(importlib.import_module(module_name),
                                                                          function_name)
        return make(self)

    def information_state_string(self, player: int) -> str:
        """Everything ``player`` has observed so far, in order (perfect recall), as text.

        Equal for two states exactly when ``player`` cannot tell them apart; a
        function of what that seat saw only.  Games without support (see
        :attr:`GameInfo.has_information_state`) raise :class:`InformationStateUnavailableError`.
        """
        return self._information_state().string(self, player)

    def information_state_tensor(self, player: int) -> Any:
        """The information state of ``player`` as a flat float32 array of :meth:`information_state_tensor_shape`."""
        return self._information_state().tensor(self, player)

    def information_state_tensor_shape(self) -> tuple[int, ...]:
        """The shape of :meth:`information_state_tensor` (fixed per game and seat count)."""
        return tuple(self._information_state().shape)

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
            infostate="puzzles.projectl.infostate:infostate",
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
            infostate="puzzles.towers.infostate:infostate",
            rules="docs/rules/rainbow-blackjack.md",
            options=(),
        ),
    )
}


# -- records: a game as its seed, options and actions, loaded by replaying them through the rules ------------

#: The ``format`` of a record file and its ``version``.
RECORD_FORMAT = "kibitz-record"
RECORD_VERSION = 1
#: The most actions a record may hold, and the longest text of one (far above any real game).
MAX_RECORD_ACTIONS = 20_000
MAX_ACTION_TEXT = 400
_SEED_LIMIT = 2**63


@dataclass(frozen=True)
class GameRecord:
    """A game as SGF, PGN and OpenSpiel's serialised states keep it: the game, its seats, options and seed, and
    every action in order (chance outcomes included).  Loading replays the actions through the rules
    (:func:`replay`), so a record can hold no impossible position.

    ``setup``: the first ``setup`` actions only set up a puzzle position (a towers challenge), they are not
    moves of the game being played.  ``face_up``: the position is a puzzle shown with everything face up (no
    rule reads it).  ``extra``: the driver's fields (bots, the moves as the human seats saw them, ...), kept as
    read.
    """

    game: str
    players: int
    seed: int
    options: dict[str, Any]
    actions: tuple[str, ...]
    setup: int = 0
    face_up: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self, state: GameState[Any] | None = None) -> dict[str, Any]:
        """The record as JSON-ready data; with ``state`` (the replayed position), a cached copy rides along
        (key ``state``; :func:`load_record` refuses a file whose copy differs from its replay)."""
        data: dict[str, Any] = {"format": RECORD_FORMAT, "version": RECORD_VERSION, "game": self.game,
                                "players": self.players, "seed": self.seed, "options": dict(self.options),
                                "actions": list(self.actions)}
        if self.setup:
            data["setup"] = self.setup
        if self.face_up:
            data["face_up"] = True
        data.update({key: value for key, value in self.extra.items() if key not in _RECORD_KEYS})
        if state is not None:
            data["state"] = state.to_json()
        return data

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """The record in ``data``, its shape checked by a JSON schema (types, ranges, the game's options);
        ValueError, one line naming the field (``actions[3]: ...``), otherwise.  Legality is :func:`replay`'s."""
        if not isinstance(data, dict):
            raise ValueError(f"a game record must be a JSON object, not {_json_type(data)}")
        _check_schema(data, _ENVELOPE_SCHEMA)
        info = game_info(data["game"])
        _check_schema(data, _record_schema(info))
        options = info.check_options(data.get("options", {}))
        if data.get("setup", 0) > len(data["actions"]):
            raise ValueError(f"setup: {data['setup']} is more than the {len(data['actions'])} actions")
        extra = {key: value for key, value in data.items() if key not in _RECORD_KEYS}
        return cls(info.name, data["players"], data["seed"], options, tuple(data["actions"]),
                   data.get("setup", 0), data.get("face_up", False), extra)


def record_of(state: GameState[Any], seed: int, options: Mapping[str, Any], actions: Sequence[str],
              **extra: Any) -> GameRecord:
    """The record of ``state``: a game of its seats dealt from ``seed`` with ``options``, then ``actions``."""
    info = state.info
    return GameRecord(info.name, state.num_players, seed, info.check_options(options), tuple(actions), extra=extra)


def replay(record: GameRecord) -> tuple[GameState[Any], list[str]]:
    """The position ``record`` reaches, every action applied through the rules, and the actions' canonical
    texts; ValueError naming the first bad one (``actions[17]: ...``).

    Each action must parse, be legal where it stands and, at a chance node of a game that lists its outcomes,
    be one of them with a non-zero probability (a game that samples its chance outcomes checks them in
    ``illegal_reason``).
    """
    info = game_info(record.game)
    try:
        state = info.new_game(record.players, record.seed, **record.options)
    except ValueError as error:
        raise ValueError(f"players/options: {_first_line(error)}") from None
    texts = [_replay_action(state, index, text) for index, text in enumerate(record.actions)]
    if record.face_up:
        if not hasattr(state, "face_up"):
            raise ValueError(f"face_up: {info.title} has no face-up puzzles")
        state.face_up = True
    return state, texts


def _replay_action(state: GameState[Any], index: int, text: str) -> str:
    """Apply the action written ``text`` to ``state``; its canonical text, or ValueError naming ``actions[index]``."""
    where = f"actions[{index}]"
    if state.is_terminal():
        raise ValueError(f"{where}: {text!r} comes after the end of the game")
    try:
        action = state.string_to_action(text)
    except (ValueError, *MALFORMED_DOCUMENT_ERRORS) as error:
        raise ValueError(f"{where}: {text[:60]!r} is not an action ({_first_line(error)})") from None
    try:
        reason = state.illegal_reason(action) or _chance_reason(state, action)
        if reason is not None:
            raise IllegalActionError(reason)
        canonical = state.action_to_string(action)
        state.apply(action)
    except (ValueError, *MALFORMED_DOCUMENT_ERRORS) as error:
        raise ValueError(f"{where}: {text[:60]!r} is illegal here: {_first_line(error)}") from None
    return canonical


def _chance_reason(state: GameState[Any], action: Any) -> str | None:
    """At a chance node of a game that lists its outcomes: why ``action`` is none of them (None if it is one)."""
    if not state.is_chance_node() or state.info.chance is not ChanceMode.EXPLICIT:
        return None
    possible = [outcome for outcome, probability in state.chance_outcomes() if probability > 0]
    return None if action in possible else "not one of this chance node's outcomes"


def load_record(data: Any, game: str | None = None) -> tuple[GameRecord, GameState[Any], list[str]]:
    """Read a record file's data: the record, the position it replays to and its actions' canonical texts.

    ``game``: the game the caller plays (a record of another is refused).  A cached ``state`` must equal the
    replayed one, or the record is refused ("the saved state does not match its actions").  Every error is a
    one-line ValueError naming the field.
    """
    record = GameRecord.from_json(data)
    if game is not None and record.game != game:
        raise ValueError(f"game: a record of {game_info(record.game).title}, not of {game_info(game).title}")
    state, texts = replay(record)
    cached = data.get("state")
    where = None if cached is None else _first_difference(json.loads(json.dumps(state.to_json())), cached, "state")
    if where is not None:
        raise ValueError(f"state: the saved state does not match its actions (first at {where}; the file was edited"
                         " or damaged)")
    return record, state, texts


def _first_difference(replayed: Any, saved: Any, path: str) -> str | None:
    """The path of the first place ``saved`` differs from ``replayed`` (JSON data), or None when they are equal."""
    if type(replayed) is not type(saved):
        return path
    if isinstance(replayed, dict):
        for key in sorted(set(replayed) | set(saved), key=str):
            if key not in replayed or key not in saved:
                return f"{path}.{key}"
            found = _first_difference(replayed[key], saved[key], f"{path}.{key}")
            if found is not None:
                return found
        return None
    if isinstance(replayed, list):
        for index, (mine, theirs) in enumerate(zip(replayed, saved, strict=False)):
            found = _first_difference(mine, theirs, f"{path}[{index}]")
            if found is not None:
                return found
        return None if len(replayed) == len(saved) else f"{path}[{min(len(replayed), len(saved))}]"
    return None if replayed == saved else path


_RECORD_KEYS = frozenset({"format", "version", "game", "players", "seed", "options", "actions", "setup", "face_up",
                          "state"})

_ENVELOPE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["format", "version", "game"],
    "properties": {
        "format": {"const": RECORD_FORMAT},
        "version": {"const": RECORD_VERSION},
        "game": {"enum": sorted(GAMES)},
    },
}


@functools.cache
def _record_schema(info: GameInfo) -> dict[str, Any]:
    """The JSON schema of a record of ``info``'s game: seats in its range, its own options and their types."""
    return {
        "type": "object",
        "required": ["players", "seed", "actions"],
        "properties": {
            "players": {"type": "integer", "minimum": info.min_players, "maximum": info.max_players},
            "seed": {"type": "integer", "minimum": -_SEED_LIMIT, "maximum": _SEED_LIMIT - 1},
            "options": {"type": "object", "additionalProperties": False,
                        "properties": {option.name: _option_schema(option) for option in info.options}},
            "actions": {"type": "array", "maxItems": MAX_RECORD_ACTIONS,
                        "items": {"type": "string", "minLength": 1, "maxLength": MAX_ACTION_TEXT}},
            "setup": {"type": "integer", "minimum": 0},
            "face_up": {"type": "boolean"},
            "state": {"type": "object"},
        },
    }


def _option_schema(option: GameOption) -> dict[str, Any]:
    """The schema of one option's value: its choices, else its type (None allowed where it is the default)."""
    nullable = [None] if option.default is None else []
    if option.choices is not None:
        return {"enum": [*option.choices, *nullable]}
    kind = option.value_type or (type(option.default) if option.default is not None else str)
    names = {bool: "boolean", int: "integer", float: "number", str: "string"}
    return {"type": [names[kind], *(["null"] if nullable else [])]}


def _json_type(value: Any) -> str:
    """The JSON name of ``value``'s type (``object``, ``array``, ``string``, ``integer``, ...)."""
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", int: "an integer",
             float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def _check_schema(data: dict[str, Any], schema: dict[str, Any]) -> None:
    """ValueError, one line naming the field, for the first place ``data`` breaks ``schema``."""
    import jsonschema

    validator = _strict_validator()(schema)
    error = jsonschema.exceptions.best_match(validator.iter_errors(data))
    if error is not None:
        raise ValueError(_schema_error_text(error))


@functools.cache
def _strict_validator() -> Any:
    """A JSON-schema validator whose ``integer`` is a JSON integer only (not 3.0, not true)."""
    import jsonschema

    base = jsonschema.Draft202012Validator
    checker = base.TYPE_CHECKER.redefine(
        "integer", lambda _checker, value: isinstance(value, int) and not isinstance(value, bool))
    return jsonschema.validators.extend(base, type_checker=checker)


def _schema_error_text(error: Any) -> str:
    """A schema error as one line: the field (``actions[3]``, ``options.variant``) and what is wrong with it."""
    path = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in error.absolute_path)
    value, rule, kind = error.instance, error.validator_value, error.validator
    if kind == "required":
        missing = next(name for name in rule if name not in value)
        return f"{(path + '.' + missing).lstrip('.')}: missing"
    if kind == "additionalProperties":
        unknown = sorted(set(value) - set(error.schema.get("properties", {})))
        return f"{(path + '.' + str(unknown[0])).lstrip('.')}: unknown field"
    field_name = path.lstrip(".") or "record"
    shown = _short(value)
    texts: dict[str, Callable[[], str]] = {
        "type": lambda: f"must be {' or '.join(rule) if isinstance(rule, list) else rule}, not {_json_type(value)}",
        "enum": lambda: f"{shown} is not one of: {', '.join(map(_short, rule))}",
        "const": lambda: f"must be {_short(rule)}, not {shown}",
        "minimum": lambda: f"{shown} is below {rule}",
        "maximum": lambda: f"{shown} is above {rule}",
        "maxItems": lambda: f"more than {rule} items",
        "maxLength": lambda: f"longer than {rule} characters",
        "minLength": lambda: "empty",
    }
    text = texts[kind]() if kind in texts else _first_line(error.message)[:100]
    return f"{field_name}: {text}"


def _short(value: Any) -> str:
    """``value`` as JSON text, cut to a readable length."""
    text = json.dumps(value) if isinstance(value, str | int | float | bool | type(None)) else _json_type(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _first_line(error: BaseException | str) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
