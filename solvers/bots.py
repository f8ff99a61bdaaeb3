"""One bot interface for every game, and one way to name a bot: ``make_bot(game, "name[:budget]")``.

A bot is any object with a ``name`` and ``choose(state, rng) -> action`` for
the seat to move.  It may read only what that seat observes: a bot of an
imperfect-information game searches states drawn with ``state.resample``.

Names: every game has ``random``, ``mcts`` and ``human`` (a person at the
terminal); each game adds its own in ``solvers.<game>.bots.BOTS`` (a game's
entry replaces a generic one of the same name).  The budget after the colon
is a count (``mcts:2000``: iterations, or whatever unit that bot documents)
or seconds with an ``s`` (``mcts:1.5s``).
"""

from __future__ import annotations

import importlib
import json
import random
import re
import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, TextIO

import click

from puzzles.game import A, GameState, game_info


class Bot(Protocol[A]):
    """Anything that picks a legal action for the seat to move."""

    name: str

    def choose(self, state: GameState[A], rng: random.Random) -> A: ...


@dataclass(frozen=True)
class Budget:
    """How much a bot may think per move: a count (iterations, samples...) and/or seconds."""

    count: int | None = None
    seconds: float | None = None

    def __str__(self) -> str:
        return f"{self.seconds:g}s" if self.seconds is not None else str(self.count)


BotFactory = Callable[[Budget | None], Bot[Any]]

_BUDGET = re.compile(r"^(?:(?P<count>\d+)|(?P<seconds>\d+(?:\.\d*)?|\.\d+)s)$")


def parse_budget(text: str) -> Budget:
    """``"2000"`` -> 2000 iterations, ``"1.5s"`` -> 1.5 seconds; ValueError otherwise."""
    match = _BUDGET.match(text.strip())
    if not match or (match["count"] is not None and int(match["count"]) == 0):
        raise ValueError(f"bad bot budget {text!r}: give a positive count (2000) or seconds (1.5s)")
    if match["count"] is not None:
        return Budget(count=int(match["count"]))
    seconds = float(match["seconds"])
    if seconds <= 0:
        raise ValueError(f"bad bot budget {text!r}: seconds must be positive")
    return Budget(seconds=seconds)


class RandomBot:
    """Uniformly random legal action: the baseline every other bot must beat."""

    name = "random"

    def choose(self, state: GameState[A], rng: random.Random) -> A:
        return rng.choice(state.legal_actions())


class QuitGame(Exception):
    """A human typed ``quit``: the game stops there, normally (exit status 0)."""


class UndoRequest(Exception):
    """A human typed ``undo``: the driver takes the game back to that seat's previous decision."""


HUMAN_HELP = """\
  MOVE        a move in this game's notation ({notation})
  ? | moves   list the legal moves
  ? WORD...   only the moves matching these words (e.g. '? place', a piece's name)
  hint        a suggestion ({hinter})
  undo        take back your last move (and the moves played since)
  save FILE   save the game as JSON; continue it later with: play --load FILE
  help        this list
  quit        stop the game here (Ctrl-C too)"""


class HumanBot:
    """A person at the terminal: shows the position as its seat sees it and reads an action.

    The same commands in every game (:data:`HUMAN_HELP`): ``?``/``moves``, ``hint``, ``undo``,
    ``save FILE``, ``help``, ``quit``.  Bad text or an illegal action is explained and asked again, so a
    typo never touches the game.  ``quit`` raises :class:`QuitGame`; Ctrl-C or the end of the input at the
    prompt raise KeyboardInterrupt (the game stops as interrupted, exit status 130); ``undo``
    :class:`UndoRequest` (handled by :func:`solvers.playout.play_game`).  Hooks: ``show(state, seat)``
    draws the position, ``hinter`` is the bot asked for a hint, ``save_extra()`` gives the game's record
    (:class:`~puzzles.game.GameRecord` as JSON) that ``save FILE`` writes.
    ``legal_hook(state, filter_text)``, when a game sets it, answers ``?``/``moves`` (grouped, filtered).
    """

    name = "human"
    interactive = True
    #: The move notation, shown in the prompt and in ``help`` (a function of the state where a game's
    #: notation depends on its mode); games override it.
    notation: str | Callable[[GameState[Any]], str] = "as listed by ?"

    def __init__(self, show: Callable[[GameState[Any], int], str] | None = None,
                 stream: TextIO | None = None) -> None:
        self.show = show or state_text
        self.stream = stream
        self.hinter: Bot[Any] | None = None
        self.save_extra: Callable[[], dict[str, Any]] | None = None
        self.legal_hook: Callable[[GameState[Any], str], str] | None = None

    def choose(self, state: GameState[A], rng: random.Random) -> A:
        seat = state.current_player()
        click.echo(self.show(state, seat), file=self.stream)
        notation = self.notation_text(state)
        while True:
            try:
                text = click.prompt(f"seat {seat + 1}, your move ({notation}; 'help' lists commands)",
                                    err=True).strip()
            except click.exceptions.Abort:  # Ctrl-C (or the end of the input) at the prompt
                raise KeyboardInterrupt from None
            word, _, argument = text.partition(" ")
            command = word.lower()
            if command in ("quit", "exit", "q") and not argument:
                raise QuitGame
            if command in ("help", "h") and not argument:
                click.echo(self.help_text(state), file=self.stream)
            elif command in ("?", "moves"):
                click.echo(self.moves_text(state, argument.strip()), file=self.stream)
            elif command == "hint" and not argument:
                click.echo(f"  hint: {self.hint_text(state)}", file=self.stream)
            elif command == "undo" and not argument:
                raise UndoRequest
            elif command == "save":
                click.echo(f"  {self.save(state, argument.strip())}", file=self.stream)
            else:
                action = self.parse(state, text)
                if action is not None:
                    return action

    def parse(self, state: GameState[A], text: str) -> A | None:
        """The action typed, or None after explaining why it is not one (the caller asks again)."""
        try:
            action = state.string_to_action(text)
        except ValueError as error:
            click.echo(f"  illegal: {error}", err=True)
            return None
        reason = state.illegal_reason(action)
        if reason is None:
            return action
        click.echo(f"  illegal: {reason}", err=True)
        return None

    def notation_text(self, state: GameState[Any]) -> str:
        """How moves are typed in ``state`` (the game's notation, or its function of the state)."""
        return self.notation(state) if callable(self.notation) else self.notation

    def help_text(self, state: GameState[Any]) -> str:
        """The commands a human can type (:data:`HUMAN_HELP`), with this game's notation and hint bot."""
        hinter = self.hinter.name if self.hinter is not None else "a short MCTS"
        return HUMAN_HELP.format(notation=self.notation_text(state), hinter=hinter)

    def moves_text(self, state: GameState[Any], filter_text: str = "") -> str:
        """The answer to ``?``/``moves`` (``filter_text``: what followed it): the game's grouping where it
        has one, else the moves (those with every filter word) wrapped to the terminal width."""
        if self.legal_hook is not None:
            return self.legal_hook(state, filter_text)
        return self.legal_text(state) if not filter_text else filtered_moves_text(state, filter_text)

    def legal_text(self, state: GameState[Any]) -> str:
        """The legal moves with their count, wrapped to the terminal width (at most :data:`LIST_LIMIT`)."""
        moves = _move_texts(state)
        return f"  {_count(len(moves))}:\n" + wrap_items(moves[:LIST_LIMIT]) + _more(len(moves))

    def hint_text(self, state: GameState[Any]) -> str:
        """What the hint bot would play here (it sees what this seat sees; the game's dice are not touched)."""
        hinter = self.hinter
        if hinter is None:
            from solvers.mcts import MCTSBot

            hinter = MCTSBot(iterations=200)
        action = hinter.choose(state.clone(), random.Random(0))
        note = getattr(hinter, "hint_note", None)  # how the hint bot found it, e.g. "proved: win"
        return state.action_to_string(action) + (f" ({note})" if note else "")

    def save(self, state: GameState[Any], path: str) -> str:
        """Write the game so far to ``path``: its record (``save_extra()``: seed, options, every action) with
        ``state`` as a cached copy; checked first by replaying it, so a save always loads."""
        from puzzles.game import load_record

        if not path:
            return "give a file: save FILE"
        if self.save_extra is None:
            return "cannot save here: this game keeps no record of its moves"
        data = {**self.save_extra(), "state": state.to_json()}
        try:
            load_record(json.loads(json.dumps(data)), state.game_name)
        except ValueError as error:
            return f"cannot save: the record does not replay to this position ({error})"
        try:
            with open(path, "w", encoding="utf-8") as handle:
                json.dump(data, handle)
        except OSError as error:
            return f"cannot save to {path}: {error.strerror or error}"
        full = " (the full game, hidden stones and cards included)" if state.info.information.value == "imperfect" else ""
        return f"saved to {path}{full}; continue with: play --load {path}"


#: At most this many moves are listed by ``?`` (a filter narrows the list).
LIST_LIMIT = 200
_WORDS = re.compile(r"[\s,]+")


def _move_texts(state: GameState[Any]) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def _count(n: int) -> str:
    return f"{n} legal move{'' if n == 1 else 's'}"


def _more(n: int) -> str:
    return f"\n  ... {n - LIST_LIMIT} more; '? WORD' narrows the list" if n > LIST_LIMIT else ""


def filtered_moves_text(state: GameState[Any], filter_text: str) -> str:
    """The legal moves having every word of ``filter_text`` (words split at spaces and commas, any
    case), wrapped to the terminal; or a line saying that none has."""
    words = filter_text.lower().split()
    moves = [m for m in _move_texts(state) if set(words) <= set(_WORDS.split(m.lower()))]
    if not moves:
        return f"  no legal move has {' '.join(words)}; '?' lists them all"
    return f"  {_count(len(moves))} with {' '.join(words)}:\n" + wrap_items(moves[:LIST_LIMIT]) + _more(len(moves))


def wrap_items(items: list[str], width: int | None = None, indent: str = "    ", sep: str = " | ") -> str:
    """``items`` on lines of at most ``width`` characters (default: the terminal's), none split across lines."""
    width = width or shutil.get_terminal_size((100, 24)).columns
    lines: list[str] = []
    line = ""
    for item in items:
        if line and len(indent) + len(line) + len(sep) + len(item) > width:
            lines.append(indent + line)
            line = ""
        line = f"{line}{sep}{item}" if line else item
    if line:
        lines.append(indent + line)
    return "\n".join(lines)


def state_text(state: GameState[Any], seat: int | None = None) -> str:
    """The engine's text picture of ``state`` (``render_text`` or ``to_text``, else ``str``)."""
    text_of = getattr(state, "render_text", None) or getattr(state, "to_text", None)
    return str(text_of()) if callable(text_of) else str(state)


def _generic_bots() -> dict[str, BotFactory]:
    from solvers.mcts import MCTSBot

    def mcts(budget: Budget | None) -> Bot[Any]:
        if budget is None:
            return MCTSBot()
        return MCTSBot(iterations=budget.count, seconds=budget.seconds, name=f"mcts:{budget}")

    return {"random": lambda budget: RandomBot(), "mcts": mcts, "human": lambda budget: HumanBot()}


def bot_factories(game: str) -> dict[str, BotFactory]:
    """Every bot name of ``game`` with its factory: the generic ones, then the game's own."""
    game_info(game)
    factories = _generic_bots()
    module = importlib.import_module(f"solvers.{game}.bots")
    own: Mapping[str, BotFactory] = getattr(module, "BOTS", {})
    factories.update(own)
    return factories


def split_spec(spec: str) -> tuple[str, Budget | None]:
    """``"mcts:2s"`` -> ("mcts", Budget(seconds=2.0)); ``"greedy"`` -> ("greedy", None)."""
    name, _, budget = spec.strip().partition(":")
    return name.strip().lower(), (parse_budget(budget) if budget else None)


def make_bot(game: str, spec: str) -> Bot[Any]:
    """The bot named by ``spec`` (``name[:budget]``) for ``game``; ValueError listing the names otherwise."""
    name, budget = split_spec(spec)
    factories = bot_factories(game)
    if name not in factories:
        raise ValueError(f"unknown {game} bot {name!r}; choose from {', '.join(factories)}")
    return factories[name](budget)


def parse_bot_list(game: str, text: str, seats: int | None = None) -> list[str]:
    """Comma-separated bot specs, checked against ``game``'s bots; one spec fills every seat.

    With ``seats``, the list must have one spec per seat (or a single spec).
    """
    specs = [part.strip() for part in text.split(",") if part.strip()]
    if not specs:
        raise ValueError("give at least one bot")
    for spec in specs:
        make_bot(game, spec)  # validates name and budget
    if seats is not None:
        if len(specs) == 1:
            specs = specs * seats
        elif len(specs) != seats:
            raise ValueError(f"give one bot per seat ({seats}) or one for all, got {len(specs)}")
    return specs


class BotListType(click.ParamType):  # type: ignore[type-arg]
    """Click type for ``--bots a,b,...``: a list of ``name[:budget]`` specs, checked for the game.

    The game is read from the command's ``game`` parameter or from the type's
    own ``game``; the seat count is checked by the command (it may depend on
    other options).
    """

    name = "bots"

    def __init__(self, game: str | None = None) -> None:
        self.game = game

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> list[str]:
        if isinstance(value, list):
            return value
        game = self.game or (ctx.params.get("game") if ctx is not None else None)
        if game is None:
            self.fail("no game to check the bots against", param, ctx)
        try:
            return parse_bot_list(str(game), str(value))
        except ValueError as error:
            self.fail(str(error), param, ctx)


__all__ = [
    "Bot",
    "BotFactory",
    "BotListType",
    "Budget",
    "HUMAN_HELP",
    "HumanBot",
    "QuitGame",
    "RandomBot",
    "UndoRequest",
    "bot_factories",
    "make_bot",
    "parse_bot_list",
    "parse_budget",
    "split_spec",
    "filtered_moves_text",
    "state_text",
    "wrap_items",
]
