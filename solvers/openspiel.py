"""Every game of :data:`puzzles.GAMES` as an OpenSpiel Python game (``pip install 'kibitz[openspiel]'``).

``import solvers.openspiel`` registers ``kibitz_blokus``, ``kibitz_projectl``,
``kibitz_shelfie`` and ``kibitz_towers`` with ``pyspiel.register_game``; then
``pyspiel.load_game("kibitz_blokus", {"players": 2, "variant": "duo"})`` works
like any OpenSpiel game (``load_game`` from this module does the import for you).

The state underneath is the kibitz engine's own :class:`puzzles.game.GameState`
(no second copy of the rules); integer actions, chance outcomes and observation
tensors come from the game's codec (``GameInfo.codec``, one
``puzzles/<game>/codec.py`` per game, where each layout is documented).

* Parameters: ``players``, ``seed`` (deals what the engine deals from its seed:
  Project L's deck order, My Shelfie's goals and personal cards), every
  :class:`puzzles.game.GameOption` of the game (an option whose default is None is a
  string, ``""`` meaning the default), and ``position``: a state to start from,
  written by :func:`position_parameter` (for endgames; ``""`` = a new game), and
  ``subgame`` (with ``position``): the position's public part is the start and the
  hidden part is dealt by chance, see below.
* Subgames: ``load_game("towers", position=position_parameter(state), subgame=True)``
  starts at one explicit chance node per seat that deals its hidden part as everything
  public allows, with the prior weights of the game's ``public_deal`` hook (the tower
  game in round 6: each seat's hand, :func:`puzzles.towers.subgame.possible_hands`; the
  position's own hidden stones are not used); outcome ``i`` is the seat's ``i``-th
  possible part (the engine state under the deal's chance nodes is the position as
  given).  Then the engine plays on from the dealt position.  This is the
  round-6 subgame of ``docs/towers-equilibrium.md`` for OpenSpiel's exact tools.
* Chance: the tower game's deal is explicit chance (the engine's outcomes and
  probabilities; OpenSpiel starts at the deal, not at the seeded one).  A My
  Shelfie refill is split into one explicit chance node per usable cell (outcome =
  tile type or empty, with the exact probabilities of the engine's refill, see
  :mod:`puzzles.shelfie.codec`), so it is ``EXPLICIT_STOCHASTIC`` too and exact
  tools can enumerate it.  Blokus and Project L are deterministic (Project L's deck
  order comes from ``seed``: deterministic per seed, imperfect information).
* Utilities are the engine's ``returns()`` (1 to the winner, a tie for first
  shares 1; Blokus teams: 1 to each member of the winning team), so the games are
  constant-sum (solo Project L: general-sum).  Rewards are terminal.
* Observation tensors and strings are functions of ``observation(player)``; the
  information-state string (perfect recall) adds what the player has seen in order.
  Where the game layer has information states (``GameInfo.has_information_state``:
  Rainbow Blackjack, Project L) the string and tensor are the engine's
  ``information_state_string`` / ``information_state_tensor`` and the game type says
  ``provides_information_state_tensor``; tensors keep the codec's shape (Blokus:
  ``[planes, size, size]``).
* ``state.resample_from_infostate(player, sampler)`` (OpenSpiel's
  ``ResampleFromInfostate``, used by its ISMCTS bot) draws a state that ``player``
  cannot tell from this one with the engine's ``resample``, seeded from one value of
  ``sampler``.  Where the game can replay a deal toward it (the tower game from its
  start), the new state's history is a real one that reaches it (hidden draws
  included); otherwise it keeps this state's history.  In a subgame the other seats'
  deals are redrawn instead (by their prior, among those under which the history is
  legal and the seat's information state the same): a real history again.
"""

from __future__ import annotations

import base64
import importlib
import itertools
import json
import math
import random
import zlib
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from puzzles.game import CHANCE, GAMES, TERMINAL, GameInfo, GameState, Information
from puzzles.safe_json import MAX_JSON_BYTES, load_json_text

PREFIX = "kibitz_"


def codec_of(info: GameInfo, state: GameState[Any]) -> Any:
    """The codec of ``state`` (``GameInfo.codec``, imported on first use)."""
    module_name, _, function_name = info.codec.partition(":")
    make: Callable[[GameState[Any]], Any] = getattr(importlib.import_module(module_name), function_name)
    return make(state)


def position_parameter(state: GameState[Any]) -> str:
    """``state`` as the ``position`` game parameter (compressed JSON, safe inside an OpenSpiel game string)."""
    raw = zlib.compress(json.dumps(state.to_json(), sort_keys=True).encode(), 9)
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _load_position(info: GameInfo, text: str, players: int) -> GameState[Any]:
    """The ``position`` parameter as a state of this game (bounded inflation, safe JSON, the game's own class)."""
    try:
        packed = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        inflater = zlib.decompressobj()
        raw = inflater.decompress(packed, MAX_JSON_BYTES + 1)
    except (ValueError, zlib.error) as error:
        raise ValueError(f"position: not a kibitz position ({error})") from None
    if len(raw) > MAX_JSON_BYTES or inflater.unconsumed_tail:
        raise ValueError(f"position: over {MAX_JSON_BYTES:,} bytes once inflated")
    probe = info.new_game(players)
    return _state_of_class(type(probe), load_json_text(raw, "position"), "position")


def _state_of_class(cls: type[GameState[Any]], data: Any, what: str) -> GameState[Any]:
    """``cls.from_json(data)`` once ``data`` carries the marker (``game`` or ``format``) of ``cls``'s documents, so
    another game's state is refused, not read as an empty board."""
    marker = _markers(cls)
    if not isinstance(data, dict):
        raise ValueError(f"{what}: a {cls.game_name} state must be a JSON object")
    for key in ("game", "format"):
        if key in data and data[key] != marker.get(key):
            raise ValueError(f"{what}: {key} {data[key]!r}: not a {cls.game_name} state")
        if key in marker and key not in data:
            raise ValueError(f"{what}: no {key} {marker[key]!r}: not a {cls.game_name} state")
    return cls.from_json(data)


_MARKERS: dict[str, dict[str, Any]] = {}


def _markers(cls: type[GameState[Any]]) -> dict[str, Any]:
    """The ``game``/``format`` keys of the documents ``cls`` writes (read once from a new game)."""
    name = cls.game_name
    if name not in _MARKERS:
        document = GAMES[name].new_game().to_json()
        _MARKERS[name] = {key: document[key] for key in ("game", "format") if key in document}
    return _MARKERS[name]


def _parameters(info: GameInfo) -> dict[str, Any]:
    """OpenSpiel parameter specification: players, seed, position and the game's options."""
    spec: dict[str, Any] = {"players": info.default_players, "seed": 0, "position": "", "subgame": False}
    for option in info.options:
        spec[option.name] = "" if option.default is None else option.default
    return spec


def _options(info: GameInfo, params: dict[str, Any]) -> dict[str, Any]:
    """The engine's keyword options from OpenSpiel parameters (``""`` -> the option's default None)."""
    out: dict[str, Any] = {}
    for option in info.options:
        value = params.get(option.name, option.default)
        if option.default is None:
            if value in ("", None):
                continue
            if option.value_type is not None:
                value = option.value_type(value)
        out[option.name] = value
    return out


#: :meth:`KibitzState.resample_from_infostate` seeds its draw with ``int(sampler() * _SEED_RANGE)``.
_SEED_RANGE = 2**53


def game_type(info: GameInfo, utility: Any = pyspiel.GameType.Utility.CONSTANT_SUM) -> pyspiel.GameType:
    """The OpenSpiel :class:`pyspiel.GameType` of a kibitz game."""
    chance = (pyspiel.GameType.ChanceMode.DETERMINISTIC if info.chance.value == "none"
              else pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC)
    information = (pyspiel.GameType.Information.PERFECT_INFORMATION if info.information is Information.PERFECT
                   else pyspiel.GameType.Information.IMPERFECT_INFORMATION)
    return pyspiel.GameType(
        short_name=PREFIX + info.name,
        long_name=f"kibitz {info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance,
        information=information,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=info.has_information_state,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(info),
    )


class _Deal:
    """A subgame's deal (the ``subgame`` parameter): each seat's possible hidden parts and their probabilities."""

    def __init__(self, start: GameState[Any]) -> None:
        hook = start._information_state() if start.info.has_information_state else None
        public_deal = getattr(hook, "public_deal", None)
        if public_deal is None:
            raise ValueError(f"subgame: {start.info.title} has no deal from a public state")
        self.hook: Any = hook
        try:
            deal = public_deal(start)
        except ValueError as error:
            raise ValueError(f"subgame: {error}") from None
        self.parts: list[list[Any]] = []
        self.probs: list[list[float]] = []
        for parts, weights in deal:
            total = float(sum(weights))
            self.parts.append(list(parts))
            self.probs.append([float(w) / total for w in weights])

    def outcomes(self, seat: int) -> list[tuple[int, float]]:
        return list(enumerate(self.probs[seat]))

    def text(self, seat: int, outcome: int) -> str:
        return str(self.hook.deal_text(seat, self.parts[seat][outcome]))

    def deal(self, start: GameState[Any], outcomes: list[int]) -> GameState[Any]:
        """``start`` with the parts of ``outcomes`` (one per seat) dealt."""
        dealt: GameState[Any] = self.hook.with_deal(start, [self.parts[s][o] for s, o in enumerate(outcomes)])
        return dealt


class _Box:
    """The kibitz state, a refill in progress, a subgame's deal in progress and the action texts; copied with the
    engine's ``clone``.

    pyspiel clones a Python state by deep-copying its attributes, so this box
    keeps the engine's tables shared and copies only what ``clone`` copies.
    ``dealt`` is None, or in a subgame the deal's outcomes so far until every seat is dealt.
    """

    __slots__ = ("state", "codec", "pending", "texts", "unchecked", "dealt", "deal")

    def __init__(self, state: GameState[Any], codec: Any, pending: list[int], texts: list[str],
                 unchecked: bool = False, dealt: list[int] | None = None, deal: _Deal | None = None) -> None:
        self.state = state
        self.codec = codec  # shared, never copied
        self.pending = pending
        self.texts = texts
        self.unchecked = unchecked  # read from a serialized string: checked against the game when attached
        self.dealt = dealt
        self.deal = deal  # shared, never copied; set from the game when a serialized box is attached

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        return _Box(self.state.clone(), self.codec, self.pending[:], self.texts[:],
                    dealt=None if self.dealt is None else self.dealt[:], deal=self.deal)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (pyspiel serialises Python states so) as the engine's JSON; the codec is rebuilt."""
        cls = type(self.state)
        return (_unbox, (cls.__module__, cls.__qualname__, self.state.dumps(), self.pending, self.texts, self.dealt))


def _unbox(module: str, qualname: str, text: str, pending: list[int], texts: list[str],
           dealt: list[int] | None = None) -> _Box:
    """The box of a serialized state: a kibitz engine state read through its validating ``from_json``."""
    cls = getattr(importlib.import_module(str(module)), str(qualname), None)
    if not (isinstance(cls, type) and issubclass(cls, GameState) and getattr(cls, "game_name", None) in GAMES):
        raise ValueError(f"serialized state: {module}.{qualname} is not a kibitz game state")
    if not (isinstance(pending, list) and all(type(x) is int for x in pending)
            and isinstance(texts, list) and all(isinstance(x, str) for x in texts)):
        raise ValueError("serialized state: malformed refill or action texts")
    if not (dealt is None or (isinstance(dealt, list) and all(type(x) is int for x in dealt))):
        raise ValueError("serialized state: malformed deal")
    state = _state_of_class(cls, load_json_text(text, "serialized state"), "serialized state")
    return _Box(state, codec_of(state.info, state), list(pending), list(texts), unchecked=True,
                dealt=None if dealt is None else list(dealt))


class KibitzGame(pyspiel.Game):
    """One kibitz game for OpenSpiel; the subclasses registered below fix which."""

    info: GameInfo

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        info = self.info
        params = {**_parameters(info), **(params or {})}
        players = int(params["players"])
        self.options = _options(info, params)
        self.seed = int(params["seed"])
        if params["position"]:
            start = _load_position(info, str(params["position"]), players)
            players = start.num_players
        else:
            start = info.new_game(players, self.seed, **self.options)
            players = start.num_players
        if params["subgame"] and not params["position"]:
            raise ValueError("subgame: needs a position (its public part is the subgame's start)")
        self.deal = _Deal(start) if params["subgame"] else None
        self.codec = codec_of(info, start)
        self.start = start if params["position"] else self.codec.opening(start)
        self.from_position = bool(params["position"])
        teams = getattr(getattr(start, "variant", None), "name", "") == "teams"
        if players == 1:
            utility, total = pyspiel.GameType.Utility.GENERAL_SUM, None
        else:
            utility, total = pyspiel.GameType.Utility.CONSTANT_SUM, (2.0 if teams else 1.0)
        deal_sizes = [len(p) for p in self.deal.probs] if self.deal else []
        game_info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.num_actions,
            max_chance_outcomes=max([self.codec.num_chance_outcomes, *deal_sizes]),
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=total,
            max_game_length=self.codec.max_game_length + (players if self.deal else 0),
        )
        super().__init__(game_type(info, utility), game_info, params)

    def new_initial_state(self) -> KibitzState:
        return KibitzState(self, self.start.clone())

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> KibitzObserver:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return KibitzObserver(self.codec, perfect_recall, self.start)

    def kibitz_state(self, state: KibitzState) -> GameState[Any]:
        """The engine state under an OpenSpiel state of this game (a live reference: do not mutate it)."""
        return state.kibitz


class KibitzState(pyspiel.State):
    """An OpenSpiel state over a kibitz :class:`GameState`."""

    def __init__(self, game: KibitzGame, state: GameState[Any]) -> None:
        super().__init__(game)
        self._box = _Box(state, game.codec, [], [], dealt=[] if game.deal else None, deal=game.deal)

    def __setattr__(self, name: str, value: Any) -> None:
        """pyspiel's ``deserialize_state`` sets the attributes it unpickled: a box read so is checked first."""
        if name == "_box" and isinstance(value, _Box) and value.unchecked:
            self._check_deserialized(value)
        super().__setattr__(name, value)

    def _check_deserialized(self, box: _Box) -> None:
        """Refuse a deserialized box from another game, with another player count, or that its history does not
        reach: the history is replayed from the game's start and must give the same state."""
        game = self.get_game()
        start = game.start
        if type(box.state) is not type(start):
            raise ValueError(f"serialized state: a {box.state.game_name} state given to {PREFIX}{start.game_name}")
        if box.state.num_players != start.num_players:
            raise ValueError(f"serialized state: {box.state.num_players} players, the game has {start.num_players}")
        replay = game.new_initial_state()
        for step in self.full_history():
            player, action = int(step.player), int(step.action)
            if player not in (int(pyspiel.PlayerId.CHANCE), *range(start.num_players)):
                raise ValueError(f"serialized state: history names player {player}, the game has "
                                 f"{start.num_players}")
            if replay.is_terminal() or player != replay.current_player() or action not in replay.legal_actions():
                raise ValueError(f"serialized state: history action {action} of player {player} is not legal there")
            replay.apply_action(action)
        if replay.kibitz != box.state or replay._box.pending != box.pending or replay._box.dealt != box.dealt:
            raise ValueError("serialized state: the state is not the one its history reaches")
        box.deal = game.deal
        box.unchecked = False

    @property
    def kibitz(self) -> GameState[Any]:
        """The engine state underneath."""
        return self._box.state

    def _dealing(self) -> bool:
        """A subgame's deal is still in progress (the state is one of its chance nodes)."""
        dealt = self._box.dealt
        return dealt is not None and len(dealt) < self._box.state.num_players

    def current_player(self) -> int:
        if self._dealing():
            return int(pyspiel.PlayerId.CHANCE)
        player = self._box.state.current_player()
        if player == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        if player == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return player

    def is_terminal(self) -> bool:
        return self._box.state.is_terminal()

    def _legal_actions(self, player: int) -> list[int]:
        if self._dealing():
            return [a for a, _ in self.chance_outcomes()]
        return self._box.codec.legal_ids(self._box.state)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The outcomes of a chance node; none at a decision node or at the end."""
        box = self._box
        if self._dealing():
            assert box.dealt is not None and box.deal is not None
            return box.deal.outcomes(len(box.dealt))
        if not self._box.state.is_chance_node():
            return []
        return self._box.codec.chance_outcomes(self._box.state, self._box.pending)

    def _apply_action(self, action: int) -> None:
        box = self._box
        state, codec = box.state, box.codec
        if self._dealing():
            assert box.dealt is not None and box.deal is not None
            box.texts.append(box.deal.text(len(box.dealt), action))
            box.dealt.append(action)
            if len(box.dealt) == state.num_players:
                box.state = box.deal.deal(state, box.dealt)
            return
        if state.is_chance_node():  # the text first: it reads the refill before the outcome joins it
            text = codec.chance_text(box.pending, action)
            codec.apply_chance(state, box.pending, action)
        else:
            text = state.action_to_string(codec.decode(state, action))
            codec.apply_id(state, action)
        box.texts.append(text)

    def _action_to_string(self, player: int, action: int) -> str:
        box = self._box
        if self._dealing():
            assert box.dealt is not None and box.deal is not None
            return box.deal.text(len(box.dealt), action)
        if player == pyspiel.PlayerId.CHANCE or (player < 0 and box.state.is_chance_node()):
            return self._box.codec.chance_text(box.pending, action)
        return box.state.action_to_string(self._box.codec.decode(box.state, action))

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> KibitzState:
        """A state ``player_id`` cannot tell from this one (OpenSpiel's ``ResampleFromInfostate``).

        The engine's ``resample`` draws the hidden part, seeded from one call of
        ``probability_sampler`` (a float in [0, 1), e.g. ``pyspiel.UniformProbabilitySampler``).
        In a subgame the other seats' deals are drawn instead (:meth:`_resample_deal`).
        """
        rng = random.Random(int(float(probability_sampler()) * _SEED_RANGE))
        if self._box.dealt is not None:
            return self._resample_deal(int(player_id), rng)
        target = self._box.state.resample(int(player_id), rng)
        game = self.get_game()
        toward = _chance_toward(target) if not game.from_position else None
        if toward is None:
            twin = self.clone()
            twin._box = _Box(target, self._box.codec, self._box.pending[:], self._box.texts[:])
            return twin
        replay = game.new_initial_state()
        for step in self.full_history():
            action = int(step.action)
            replay.apply_action(toward(replay.kibitz, target, int(player_id), action) if replay.is_chance_node()
                                else action)
        return replay

    def _resample_deal(self, player: int, rng: random.Random) -> KibitzState:
        """In a subgame: this history with ``player``'s deal kept and the other seats' deals drawn by their prior
        among those under which the same actions are legal and ``player``'s information state is the same."""
        box = self._box
        assert box.dealt is not None and box.deal is not None
        game = self.get_game()
        history = self.history()
        dealt, rest = history[: len(box.dealt)], history[len(box.dealt) :]
        seen = self.information_state_string(player) if not self._dealing() else None
        twins: list[KibitzState] = []
        weights: list[float] = []
        choices = [[o] if s == player else range(len(box.deal.probs[s])) for s, o in enumerate(dealt)]
        for outcomes in itertools.product(*choices):
            twin = game.new_initial_state()
            for action in (*outcomes, *rest):
                if twin.is_terminal() or action not in twin.legal_actions():
                    break
                twin.apply_action(action)
            else:
                if seen is None or twin.information_state_string(player) == seen:
                    twins.append(twin)
                    weights.append(math.prod(box.deal.probs[s][o] for s, o in enumerate(outcomes)))
        return rng.choices(twins, weights)[0]

    def returns(self) -> list[float]:
        state = self._box.state
        return [float(x) for x in state.returns()] if state.is_terminal() else [0.0] * state.num_players

    def __str__(self) -> str:
        text = self._box.codec.to_string(self._box.state)
        return text + (f"\nrefill so far: {self._box.pending}" if self._box.pending else "")


#: ``chance_toward(state, target, player, drawn)``: the outcome of ``state``'s chance node on the way to ``target``
ChanceToward = Callable[[GameState[Any], GameState[Any], int, int], int]


def _chance_toward(target: GameState[Any]) -> ChanceToward | None:
    """The game's ``chance_toward`` (its information-state hook's), if it has one."""
    if not target.info.has_information_state:
        return None
    found: ChanceToward | None = getattr(target._information_state(), "chance_toward", None)
    return found


class KibitzObserver:
    """OpenSpiel's Python observer: the codec's tensor and strings; the information state when ``perfect_recall``
    (the engine's own where the game has one, else the observation string with the action texts and no tensor)."""

    def __init__(self, codec: Any, perfect_recall: bool, start: GameState[Any] | None = None) -> None:
        self.codec = codec
        self.perfect_recall = perfect_recall
        self.engine_infostate = bool(perfect_recall and start is not None and start.info.has_information_state)
        if not perfect_recall:
            shape = tuple(codec.observation_shape)
        else:
            shape = start.information_state_tensor_shape() if self.engine_infostate and start else (0,)
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation" if not perfect_recall else "info_state": self.tensor.reshape(shape)}

    def set_from(self, state: KibitzState, player: int) -> None:
        if not self.perfect_recall:
            self.tensor[:] = self.codec.observation_tensor(state._box.state, player)
        elif self.engine_infostate:
            self.tensor[:] = np.asarray(state._box.state.information_state_tensor(player)).reshape(-1)

    def string_from(self, state: KibitzState, player: int) -> str:
        box = state._box
        if self.engine_infostate:
            return box.state.information_state_string(player)
        if self.perfect_recall:
            return self.codec.information_state_string(box.state, player, box.texts)
        return self.codec.observation_string(box.state, player)


def _register() -> dict[str, type[KibitzGame]]:
    classes: dict[str, type[KibitzGame]] = {}
    registered = {t.short_name for t in pyspiel.registered_games()}
    for name, info in GAMES.items():
        if not info.codec:
            continue
        cls = type(f"Kibitz{name.title()}Game", (KibitzGame,), {"info": info, "__module__": __name__})
        classes[name] = globals()[cls.__name__] = cls
        if PREFIX + name not in registered:
            pyspiel.register_game(game_type(info), cls)
    return classes


GAME_CLASSES = _register()


def load_game(name: str, **params: Any) -> pyspiel.Game:
    """``pyspiel.load_game`` for a kibitz game by its registry name, e.g. ``load_game("blokus", variant="duo", players=2)``."""
    return pyspiel.load_game(name if name.startswith(PREFIX) else PREFIX + name, params)


def kibitz_state(state: pyspiel.State) -> GameState[Any]:
    """The kibitz engine state under an OpenSpiel state of a kibitz game."""
    box = getattr(state, "_box", None)
    if box is None:
        raise TypeError("not a kibitz OpenSpiel state")
    return box.state


__all__ = ["GAME_CLASSES", "KibitzGame", "KibitzState", "codec_of", "game_type", "kibitz_state", "load_game",
           "position_parameter"]
