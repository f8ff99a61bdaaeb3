"""The model of a game played in a notebook cell: a human seat clicks, the engine checks, the bots answer.

:class:`PlayModel` is plain Python (no widget import), so tests drive it as a person would: ``click`` a
board cell or a button, ``choose`` a move from the short list, ``undo``, ``new_game``, ``set_bot``.  It
goes through the game layer (``GameInfo.new_game``, ``legal_actions``, ``string_to_action``,
``illegal_reason``, ``apply``, ``observation``, bots by ``make_bot``), like ``kibitz <game> play``: every
move is checked by the engine, an illegal one leaves the state untouched and says why in one line, and
chance and the bots move between the human's turns.

Clicks: each legal move's text is cut into *tokens* (a Blokus cell ``a20``, a Shelfie tile ``d2`` and a
column ``col 1``, a towers stone ``R6`` and a tower ``>O``, a Project L shape ``I2`` and card cells
``1:03``; any other move is one button).  Clicking tokens narrows the legal moves to those holding every
token chosen; a move is played as soon as the choice is all of the one move left (in My Shelfie, where the
order of the tiles matters, as soon as the column is clicked: the tiles in click order, the first lowest).
A :class:`ClickLayout` per game cuts the texts and places the tokens on the model's own grids, drawn from
the seat's observation (Project L: with its own puzzles' public card shapes), so the click layer does not
depend on the picture's geometry.

Hidden information: the human sees the picture and the grids of its own seat (drawn from
``observation(seat)``, the same views as ``play``'s human seat), its own legal moves, and the other seats'
moves (never a chance draw); bots decide from their observation as always.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from puzzles.game import (
    CHANCE,
    MALFORMED_DOCUMENT_ERRORS,
    GameRecord,
    GameState,
    game_info,
    record_of,
)
from solvers.bots import Bot, bot_factories, make_bot, split_spec

#: At most this many candidate moves are listed for the human to pick from.
CHOICE_LIMIT = 12


@dataclass(frozen=True)
class Target:
    """One thing the human may click: a token on a grid (``row``/``col`` in ``group``) or a button."""

    key: str
    label: str
    group: str
    row: int = -1  # -1: a button, not a grid cell
    col: int = -1
    fill: str = ""

    def to_json(self, selected: bool, live: bool) -> dict[str, Any]:
        """The target as the view draws it: ``selected`` (chosen), ``live`` (some candidate move uses it)."""
        return {"key": self.key, "label": self.label, "group": self.group, "row": self.row, "col": self.col,
                "fill": self.fill, "selected": selected, "live": live}


class ClickLayout:
    """How a game's moves are clicked: every move is one button (games override the parts they grid)."""

    def closes(self, token: str) -> bool:
        """Whether clicking ``token`` ends a move in click order (Shelfie's column): the clicks so far are
        then played as :meth:`spell` writes them, checked by the engine."""
        return False

    def spell(self, tokens: Sequence[str]) -> str:
        """The move text of ``tokens`` in click order."""
        return " ".join(tokens)

    def tokens(self, text: str) -> tuple[str, ...]:
        """The tokens of a move's text (the move is chosen by clicking all of them)."""
        return (text,)

    def grid(self, state: GameState[Any], seat: int) -> list[Target]:
        """The grid cells of the seat's view (clickable even where no move goes, to say why not)."""
        return []

    def button(self, token: str) -> Target:
        """A token that is not on a grid, as a button."""
        return Target(token, token, "moves")


_CELL = re.compile(r"^([a-z])(\d+)$")
BLOKUS_FILLS = {"blue": "#3b6fd8", "yellow": "#f2c12e", "red": "#d8453b", "green": "#3ba55c"}


class BlokusLayout(ClickLayout):
    """Blokus: the cells a piece covers (``a20,b20``), in any order; ``pass`` a button."""

    def tokens(self, text: str) -> tuple[str, ...]:
        return tuple(text.split(","))

    def grid(self, state: GameState[Any], seat: int) -> list[Target]:
        grid = state.observation(seat)["grid"]
        names = getattr(state, "color_names", ())
        rows = len(grid)
        return [Target(f"{chr(ord('a') + col)}{rows - row}", "", "board", row, col,
                       BLOKUS_FILLS.get(names[owner], "#888888") if owner >= 0 else "#eeeeee")
                for row, line in enumerate(grid) for col, owner in enumerate(line)]


SHELFIE_FILLS = {"C": "#5aa65a", "B": "#f4f1e4", "G": "#f0a030", "F": "#4a78c8", "T": "#5cc8c8", "P": "#e070a0",
                 " ": "#ffffff"}


class ShelfieLayout(ClickLayout):
    """My Shelfie: the tiles taken (``d2 e2``) in the order they go into the shelf, then the column (``col 1``)."""

    def tokens(self, text: str) -> tuple[str, ...]:
        *cells, column = text.split()
        return (*cells, f"col {column}")

    def closes(self, token: str) -> bool:
        return token.startswith("col ")

    def spell(self, tokens: Sequence[str]) -> str:
        return " ".join(token.removeprefix("col ") for token in tokens)

    def grid(self, state: GameState[Any], seat: int) -> list[Target]:
        board = state.observation(seat)["board"]
        return [Target(f"{chr(ord('a') + col)}{row + 1}", letter.strip(), "living room", row, col,
                       SHELFIE_FILLS.get(letter, "#cccccc"))
                for row, line in enumerate(board) for col, letter in enumerate(line)]

    def button(self, token: str) -> Target:
        return Target(token, token, "shelf column") if token.startswith("col ") else super().button(token)


_TOWERS_PLACE = re.compile(r"^(\S+?)([>x])([A-Z])$")


class TowersLayout(ClickLayout):
    """Rainbow Blackjack: a stone of the hand (``R6``), then a tower (``>O``, or ``xO`` to replace its joker)."""

    def tokens(self, text: str) -> tuple[str, ...]:
        match = _TOWERS_PLACE.match(text)
        return (match[1], match[2] + match[3]) if match else (text,)

    def button(self, token: str) -> Target:
        if token[:1] == ">":
            return Target(token, f"on {token[1:]}", "tower")
        if token[:1] == "x":
            return Target(token, f"replace joker on {token[1:]}", "tower")
        if _TOWERS_PLACE.match(token + ">A"):
            return Target(token, token, "stone")
        return super().button(token)


_PL_CELLS = re.compile(r"^\d\d(,\d\d)*$")


class ProjectLLayout(ClickLayout):
    """Project L: a piece's shape (``I2``) and the card cells it covers (``1:03``: puzzle 1, row 0, column 3)."""

    def tokens(self, text: str) -> tuple[str, ...]:
        words = text.split()
        if len(words) == 4 and words[1].isdigit() and _PL_CELLS.match(words[3]):
            return (words[2], *(f"{words[1]}:{cell}" for cell in words[3].split(",")))
        return (text,)

    def grid(self, state: GameState[Any], seat: int) -> list[Target]:
        from puzzles.projectl.cards import SIZE

        puzzles = state.observation(seat)["puzzles"][seat]
        cards = getattr(state, "cards", [])
        targets = []
        for slot, (card, filled, _pieces) in enumerate(puzzles):
            recess = cards[card].recess
            for cell in range(SIZE * SIZE):
                if recess >> cell & 1:
                    row, col = divmod(cell, SIZE)
                    fill = "#999999" if filled >> cell & 1 else "#ffffff"
                    targets.append(Target(f"{slot}:{row}{col}", "", f"puzzle {slot + 1} ({cards[card].id})", row, col,
                                          fill))
        return targets

    def button(self, token: str) -> Target:
        from puzzles.projectl.cards import SHAPE_INDEX

        return Target(token, token, "piece") if token in SHAPE_INDEX else super().button(token)


LAYOUTS: dict[str, ClickLayout] = {"blokus": BlokusLayout(), "shelfie": ShelfieLayout(),
                                   "towers": TowersLayout(), "projectl": ProjectLLayout()}


# -- the seat's picture: the game layer's ``picture(seat)``, the same one ``play --svg`` writes for a human seat ---

def seat_picture(state: GameState[Any], seat: int) -> str:
    """The SVG picture of ``state`` as ``seat`` sees it (everything once the game is over)."""
    return str(state.picture(seat))


@dataclass(frozen=True)
class Mark:
    """The game just before a human decision: what undo goes back to."""

    actions: int
    log: int
    state: GameState[Any]
    rng: Any


class PlayModel:
    """One game in a notebook cell: the human at ``seat`` (0-based, like the game layer's players; the view
    counts from 1) against bots (``bots``: one spec for every other seat, or one per seat, the human's
    entry ignored), dealt from ``seed`` with the game's ``options``."""

    def __init__(self, game: str, bots: str | Sequence[str] = "random", seat: int = 0, seed: int = 0,
                 players: int | None = None, **options: Any) -> None:
        self.info = game_info(game)
        self.options = self.info.check_options(options)
        self.players = players if players is not None else self.info.implied_players(self.options)
        if not 0 <= seat < self.players:
            raise ValueError(f"seat must be 1 to {self.players} (0-based {seat} given)")
        self.seat = seat
        self.layout = LAYOUTS.get(game, ClickLayout())
        self.specs = self._seat_specs(bots)
        self.bots: list[Bot[Any] | None] = [None if i == seat else make_bot(game, s) for i, s in enumerate(self.specs)]
        self.seed = seed
        self._version = 0
        self.new_game(seed)

    def _seat_specs(self, bots: str | Sequence[str]) -> list[str]:
        """One bot spec per seat, ``human`` at the human's seat; ValueError for an unknown bot."""
        given = [bots] if isinstance(bots, str) else list(bots)
        if len(given) == 1:
            given = given * self.players
        if len(given) != self.players:
            raise ValueError(f"give one bot for every seat ({self.players}) or one for all, got {len(given)}")
        specs = ["human" if i == self.seat else spec for i, spec in enumerate(given)]
        for i, spec in enumerate(specs):
            if i != self.seat and split_spec(spec)[0] == "human":
                raise ValueError(f"seat {i + 1}: only seat {self.seat + 1} is played here by a human")
            make_bot(self.info.name, spec)
        return specs

    # -- the game ------------------------------------------------------------------------------------------
    def new_game(self, seed: int | None = None) -> None:
        """Deal a new game (the next seed when none is given) and let the bots move up to the human's turn."""
        self.seed = self.seed + 1 if seed is None else seed
        self.state: GameState[Any] = self.info.new_game(self.players, self.seed, **self.options)
        self.rng = random.Random(self.seed)
        self._version += 1
        self.actions: list[str] = []
        self.log: list[str] = []
        self.marks: list[Mark] = []
        self.selection: list[str] = []
        self._legal: tuple[int, list[str]] = (-1, [])
        self.message = f"{self.info.title}, seed {self.seed}: you are seat {self.seat + 1}"
        self._advance()

    def _advance(self) -> None:
        """Chance and the bots move until it is the human's turn or the game is over."""
        while not self.state.is_terminal() and self.state.current_player() != self.seat:
            player = self.state.current_player()
            self._play(player, self.state.sample_chance(self.rng) if player == CHANCE else self._bot(player).choose(
                self.state, self.rng))

    def _bot(self, player: int) -> Bot[Any]:
        bot = self.bots[player]
        if bot is None:  # pragma: no cover - every seat but the human's has a bot
            raise RuntimeError(f"seat {player + 1} has no bot")
        return bot

    def _play(self, player: int, action: Any) -> None:
        self._version += 1
        text = self.state.action_to_string(action)
        self.state.apply(action)
        self.actions.append(text)
        if player != CHANCE:
            self.log.append(f"{len(self.log) + 1}. seat {player + 1} ({self.specs[player]}): {text}")

    @property
    def my_turn(self) -> bool:
        """Whether the human is to move."""
        return not self.state.is_terminal() and self.state.current_player() == self.seat

    def choose(self, text: str) -> bool:
        """Play the move written ``text`` for the human (the engine checks it), then the bots answer.

        False, with a one-line :attr:`message` and the state unchanged, when it is not a legal move now."""
        if not self.my_turn:
            return self._refuse("the game is over" if self.state.is_terminal() else "it is not your turn")
        try:
            action = self.state.string_to_action(text)
        except (ValueError, *MALFORMED_DOCUMENT_ERRORS) as error:
            return self._refuse(f"illegal: {_first_line(error)}")
        reason = self.state.illegal_reason(action)
        if reason is not None:
            return self._refuse(f"illegal: {reason}")
        mark = Mark(len(self.actions), len(self.log), self.state.clone(), self.rng.getstate())
        self.marks.append(mark)
        self.selection = []
        self._play(self.seat, action)
        try:
            self._advance()
        except KeyboardInterrupt:  # the notebook's interrupt while a bot thinks: back to before the move
            self.undo()
            return self._refuse("interrupted while the bots thought: your move was taken back")
        answers = [line.split(": ", 1)[1] for line in self.log[mark.log + 1:]]
        self.message = (f"you played {self.actions[mark.actions]}" + (f"; bots: {', '.join(answers)}" if answers else "")
                        + (f"; {self.result_text()}" if self.state.is_terminal() else ""))
        return True

    def _refuse(self, reason: str) -> bool:
        self.message = reason
        return False

    def undo(self) -> bool:
        """Take back the human's last move and the bots' answers (the exact position before it)."""
        if not self.marks:
            return self._refuse("nothing to undo yet")
        mark = self.marks.pop()
        self._version += 1
        self.state = mark.state.clone()
        self.rng.setstate(mark.rng)
        del self.actions[mark.actions:]
        del self.log[mark.log:]
        self.selection = []
        self.message = "took back your last move"
        return True

    def set_bot(self, spec: str) -> bool:
        """Every bot seat plays ``spec`` (``name[:budget]``) from now on; False with a message for a bad one."""
        try:
            if split_spec(spec)[0] == "human":
                raise ValueError("the bots' seats cannot be human here")
            bots = [None if i == self.seat else make_bot(self.info.name, spec) for i in range(self.players)]
        except ValueError as error:
            return self._refuse(_first_line(error))
        self.bots = bots
        self.specs = ["human" if i == self.seat else spec for i in range(self.players)]
        self.message = f"the bots are now {spec}"
        return True

    def bot_names(self) -> list[str]:
        """The bots this game offers (``human`` left out)."""
        return [name for name in bot_factories(self.info.name) if name != "human"]

    # -- clicks ------------------------------------------------------------------------------------------
    def legal_texts(self) -> list[str]:
        """The human's legal moves as text (none when it is not the human's turn); kept for the position."""
        position = self._version
        if self._legal[0] != position:
            texts = [self.state.action_to_string(a) for a in self.state.legal_actions()] if self.my_turn else []
            self._legal = (position, texts)
        return self._legal[1]

    def candidates(self) -> list[str]:
        """The legal moves that hold every token chosen so far."""
        chosen = set(self.selection)
        return [text for text in self.legal_texts() if chosen <= set(self.layout.tokens(text))]

    def click(self, key: str) -> bool:
        """Click a token: choose it (or drop it when chosen); a move is played once the choice names one.

        False, with the choice and the state unchanged, when no legal move uses that token with the ones
        chosen."""
        if not self.my_turn:
            return self._refuse("the game is over" if self.state.is_terminal() else "it is not your turn")
        if key in self.selection:
            self.selection.remove(key)
            self.message = f"dropped {key}"
            return True
        chosen = set(self.selection) | {key}
        fits = [text for text in self.legal_texts() if chosen <= set(self.layout.tokens(text))]
        if not fits:
            with_choice = f" with {', '.join(self.selection)}" if self.selection else ""
            return self._refuse(f"no legal move uses {key}{with_choice}")
        self.selection.append(key)
        if self.layout.closes(key):  # the clicks spell the move in their order (the engine checks it)
            if self.choose(self.layout.spell(self.selection)):
                return True
            self.selection.remove(key)
            return False
        if len(fits) == 1 and set(self.layout.tokens(fits[0])) == chosen:
            return self.choose(fits[0])
        self.message = f"{len(fits)} legal move{'' if len(fits) == 1 else 's'} with {', '.join(self.selection)}"
        return True

    def exact(self) -> str | None:
        """The legal move made of exactly the tokens chosen (the view's 'play' button), if any."""
        chosen = set(self.selection)
        return next((text for text in self.candidates() if set(self.layout.tokens(text)) == chosen), None)

    def clear(self) -> None:
        """Drop every token chosen."""
        self.selection = []
        self.message = "choice cleared"

    # -- what the human sees -------------------------------------------------------------------------
    def picture(self) -> str:
        """The SVG of the game as the human's seat sees it."""
        return seat_picture(self.state, self.seat)

    def targets(self) -> list[dict[str, Any]]:
        """Everything clickable now: the seat's grids, then one button per token of the candidate moves."""
        if not self.my_turn:
            return []
        candidates = self.candidates()
        live = {token for text in candidates for token in self.layout.tokens(text)}
        grid = self.layout.grid(self.state, self.seat)
        on_grid = {target.key for target in grid}
        buttons = [self.layout.button(token) for token in _unique(t for text in candidates
                                                                   for t in self.layout.tokens(text))
                   if token not in on_grid]
        return [target.to_json(target.key in self.selection, target.key in live) for target in grid + buttons]

    def choices(self) -> list[str]:
        """The candidate moves to pick from, when few enough to list."""
        candidates = self.candidates()
        return candidates if len(candidates) <= CHOICE_LIMIT else []

    def status_text(self) -> str:
        """Whose turn it is, or the result."""
        if self.state.is_terminal():
            return self.result_text()
        return f"your move (seat {self.seat + 1})" if self.my_turn else "waiting"

    def result_text(self) -> str:
        """The final scores, seats counted from 1."""
        scores = ", ".join(f"seat {i + 1} ({self.specs[i]}) {s:g}" for i, s in enumerate(self.state.scores()))
        return f"game over: {scores}"

    def record(self) -> GameRecord:
        """The game so far as a record (seed, options, every action): replaying it gives this position.  It is
        the whole game, hidden draws included (like ``play``'s ``save FILE``); the view never shows it."""
        return record_of(self.state, self.seed, self.options, self.actions, bots=self.specs)


def _unique(items: Any) -> list[str]:
    return list(dict.fromkeys(items))


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
