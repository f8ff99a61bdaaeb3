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
import random
import re
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


class HumanBot:
    """A person at the terminal: shows the position as its seat sees it and reads an action.

    ``?`` lists the legal actions; bad text or an illegal action is explained and
    asked again, so the game state is never touched by a typo; ``quit`` stops the
    game (KeyboardInterrupt, as Ctrl-C).
    """

    name = "human"

    def __init__(self, show: Callable[[GameState[Any], int], str] | None = None,
                 stream: TextIO | None = None) -> None:
        self.show = show or state_text
        self.stream = stream

    def choose(self, state: GameState[A], rng: random.Random) -> A:
        seat = state.current_player()
        click.echo(self.show(state, seat), file=self.stream)
        while True:
            text = click.prompt(f"seat {seat + 1}, your move (? lists the legal ones)", err=True).strip()
            if text.lower() in ("quit", "exit"):
                raise KeyboardInterrupt
            if text == "?":
                click.echo(" ".join(state.action_to_string(a) for a in state.legal_actions()), file=self.stream)
                continue
            try:
                action = state.string_to_action(text)
            except ValueError as error:
                click.echo(f"  {error}", err=True)
                continue
            reason = state.illegal_reason(action)
            if reason is None:
                return action
            click.echo(f"  {reason}", err=True)


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
    "HumanBot",
    "RandomBot",
    "bot_factories",
    "make_bot",
    "parse_bot_list",
    "parse_budget",
    "split_spec",
    "state_text",
]
