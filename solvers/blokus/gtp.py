"""A GTP engine for Blokus in Pentobi's dialect, and a GTP client for other engines.

The engine (:class:`GtpEngine`, run by ``kibitz blokus gtp``) answers the
commands Pentobi's ``pentobi-gtp`` answers, spelled as Pentobi spells them, so
that Pentobi's match tool ``twogtp`` or any GTP controller can drive a kibitz
bot (Pentobi sources: ``libboardgame_gtp/GtpEngine.cpp``, ``libpentobi_gtp/GtpEngine.cpp``):

* a response is ``= text`` or ``? error`` (``=ID``/``?ID`` when the command
  had a numeric id), ended by an empty line;
* colours: in Duo ``b``/``black``/``blue`` (first colour, purple) and
  ``w``/``white``/``green`` (orange); in the 4-colour variants ``1``..``4`` or
  ``blue``/``yellow``/``red``/``green``;
* a move is its cells, e.g. ``e10,f10,e9``, in any order; ``genmove`` answers
  them sorted as Pentobi writes them (``pass`` when the colour has no move);
  ``play`` of a pass is refused, as Pentobi does ("play pass not supported");
* colours that cannot move are skipped: ``play``/``genmove`` for a colour
  later in the turn order are accepted only when every colour in between has
  no legal move (kibitz's engine records those passes; Pentobi's lets a
  colour play out of turn, which a match never needs);
* ``final_score``: two-player variants ``B+n``/``W+n``/``0`` (first colours'
  sum minus the others'), else each colour's points separated by spaces;
* the variant comes from ``--variant`` (kibitz names or Pentobi's ``--game``
  ids ``classic``, ``classic_2``, ``classic_3``, ``duo``) or from
  ``set_game`` with the SGF game name (``Blokus Duo``);
* ``set_random_seed N``: the bot's random numbers for a move are drawn from
  ``Random(move_seed(N, placements so far))``, so a game is a function of the
  seed and the moves (the same numbers :mod:`solvers.blokus.match` gives
  its in-process bots).
"""

from __future__ import annotations

import os
import random
import shlex
import subprocess
import time
from collections.abc import Callable
from typing import IO

from puzzles.blokus.engine import BlokusState, get_variant
from puzzles.blokus.records import GAME_NAMES, load
from puzzles.blokus.tables import PASS, Move
from puzzles.game import IllegalActionError

NAME = "kibitz"
VERSION = "0.1.0"

#: Pentobi's ``--game`` ids (and short forms) -> kibitz variant names.
PENTOBI_GAMES = {"classic": "classic", "c": "classic", "classic_2": "two-player", "c2": "two-player",
                 "classic_3": "three-player", "c3": "three-player", "duo": "duo", "d": "duo"}
#: kibitz variant -> Pentobi's ``--game`` id.
PENTOBI_GAME_OF = {"classic": "classic", "two-player": "classic_2", "three-player": "classic_3", "duo": "duo"}


class GtpError(Exception):
    """A command that fails: answered ``? message``."""


def variant_name(text: str) -> str:
    """A kibitz variant from a kibitz name, a Pentobi ``--game`` id or an SGF game name."""
    t = text.strip().lower()
    if t in PENTOBI_GAMES:
        return PENTOBI_GAMES[t]
    for game, name in GAME_NAMES.items():
        if game.lower() == t:
            return name
    return get_variant(t).name


def move_seed(seed: int, placements: int) -> int:
    """The seed of the random numbers a bot uses for the move after ``placements`` placements."""
    return (seed * 1_000_003 + placements * 7_919 + 12_345) & 0xFFFFFFFFFFFF


def placements(state: BlokusState) -> int:
    """Pieces placed so far (passes not counted)."""
    return sum(1 for _, m, _ in state.history if not m.is_pass)


def gtp_colors(state: BlokusState) -> list[str]:
    """The colour names a controller sends, as twogtp does: ``b``/``w`` in Duo, ``1``..``4`` otherwise."""
    return ["b", "w"] if state.num_colors == 2 else ["1", "2", "3", "4"]


def parse_color(state: BlokusState, text: str) -> int:
    """Colour index of a GTP colour argument (Pentobi's spellings)."""
    s = text.strip().lower()
    if state.num_colors == 2:
        table = {"blue": 0, "black": 0, "b": 0, "purple": 0, "green": 1, "white": 1, "w": 1, "orange": 1}
    else:
        table = {"1": 0, "blue": 0, "2": 1, "yellow": 1, "3": 2, "red": 2, "4": 3, "green": 3}
    if s not in table:
        raise GtpError(f"invalid color argument '{s}'")
    return table[s]


def final_score_text(state: BlokusState) -> str:
    """``final_score`` as Pentobi answers it."""
    points = state.color_scores()
    if state.num_players > 2 and state.variant.name != "teams":
        return " ".join(str(p) for p in points)
    if state.num_colors == 2:
        diff = points[0] - points[1]
    else:
        diff = points[0] + points[2] - points[1] - points[3]
    return f"B+{diff}" if diff > 0 else (f"W+{-diff}" if diff < 0 else "0")


def skip_to(state: BlokusState, color: int) -> None:
    """Play the forced passes up to ``color``'s turn; GtpError if a colour in between could still move."""
    while state.to_move >= 0 and state.to_move != color:
        if state.legal_actions() != [PASS]:
            raise GtpError(f"{state.color_names[state.to_move]} is to play, not {state.color_names[color]}")
        state.apply(PASS)
    if state.to_move < 0:
        raise GtpError("the game is over")


def format_response(text: str) -> str:
    """A response body as Pentobi writes it: a blank line inside becomes a single space; ends with an empty line."""
    out, was_newline = [], False
    for ch in text:
        is_newline = ch == "\n"
        if is_newline and was_newline:
            out.append(" ")
        out.append(ch)
        was_newline = is_newline
    if not was_newline:
        out.append("\n")
    return "".join(out) + "\n"


class GtpEngine:
    """One GTP session: a Blokus position and a bot (``bot_spec`` as for ``make_bot``)."""

    def __init__(self, variant: str = "classic", bot_spec: str = "greedy", seed: int = 0) -> None:
        from solvers.bots import make_bot

        self.state = BlokusState(variant_name(variant))
        self.bot_spec = bot_spec
        self.bot = make_bot("blokus", bot_spec)
        self.seed = seed
        self.quit = False
        self.handlers: dict[str, Callable[[list[str]], str]] = {
            "protocol_version": lambda a: "2",
            "name": lambda a: NAME,
            "version": lambda a: VERSION,
            "known_command": lambda a: "true" if a and a[0] in self.handlers else "false",
            "list_commands": lambda a: "\n".join(sorted(self.handlers)),
            "quit": self._quit,
            "clear_board": self._clear_board,
            "set_game": self._set_game,
            "set_random_seed": self._set_random_seed,
            "play": self._play,
            "genmove": lambda a: self._genmove(a, True),
            "reg_genmove": lambda a: self._genmove(a, False),
            "undo": self._undo,
            "showboard": lambda a: "\n" + self.state.to_text(color=False),
            "final_score": lambda a: final_score_text(self.state),
            "loadsgf": self._loadsgf,
            "cputime": lambda a: f"{time.process_time():.3f}",
            "all_legal": self._all_legal,
        }

    # -- commands -----------------------------------------------------------
    def _quit(self, args: list[str]) -> str:
        self.quit = True
        return ""

    def _clear_board(self, args: list[str]) -> str:
        self.state = BlokusState(self.state.variant, self.state.free_corners)
        self._reset_bot()
        return ""

    def _reset_bot(self) -> None:
        reset = getattr(self.bot, "reset", None)
        if callable(reset):
            reset()

    def _set_game(self, args: list[str]) -> str:
        try:
            self.state = BlokusState(variant_name(" ".join(args)))
        except ValueError:
            raise GtpError("invalid argument") from None
        self._reset_bot()
        return ""

    def _set_random_seed(self, args: list[str]) -> str:
        if len(args) != 1 or not args[0].lstrip("-").isdigit():
            raise GtpError("expected an integer seed")
        self.seed = int(args[0])
        return ""

    def _color_arg(self, args: list[str]) -> int:
        if len(args) != 1:
            raise GtpError("expected one argument (a color)" if not args else "too many arguments")
        return parse_color(self.state, args[0])

    def _play(self, args: list[str]) -> str:
        if len(args) < 2:
            raise GtpError("expected a color and a move")
        color = parse_color(self.state, args[0])
        text = "".join(args[1:])
        if text.lower() in ("pass", "null"):
            raise GtpError("play pass not supported (anymore)")
        try:
            move = self.state.string_to_action(text)
        except ValueError:
            raise GtpError("invalid move") from None
        if self.state.arrays.left[color, self.state.tables.pl_piece[move.index]] == 0:
            raise GtpError("piece already played")
        saved = len(self.state.history)
        skip_to(self.state, color)
        try:
            self.state.apply(move)
        except IllegalActionError as error:
            while len(self.state.history) > saved:
                self.state.undo()
            raise GtpError(f"illegal move: {str(error).split(': ', 1)[-1]}") from None
        return ""

    def _genmove(self, args: list[str], play: bool) -> str:
        color = self._color_arg(args)
        saved = len(self.state.history)
        try:
            skip_to(self.state, color)
        except GtpError:
            if self.state.to_move < 0 or self.state.legal_placements(color).size == 0:
                return "pass"  # the game is over for this colour: Pentobi answers pass
            raise
        if self.state.legal_actions() == [PASS]:
            while len(self.state.history) > saved:
                self.state.undo()
            return "pass"
        move = self.choose()
        if play:
            self.state.apply(move)
        else:
            while len(self.state.history) > saved:
                self.state.undo()
        return move.text

    def choose(self) -> Move:
        """The bot's move for the colour to move, with the seeded random numbers of this ply."""
        rng = random.Random(move_seed(self.seed, placements(self.state)))
        move: Move = self.bot.choose(self.state, rng)
        return move

    def _undo(self, args: list[str]) -> str:
        state = self.state
        if placements(state) == 0:
            raise GtpError("cannot undo")
        while state.history and state.history[-1][1].is_pass:
            state.undo()
        state.undo()
        while state.history and state.history[-1][1].is_pass:
            state.undo()
        return ""

    def _loadsgf(self, args: list[str]) -> str:
        if not 1 <= len(args) <= 2:
            raise GtpError("expected a file and an optional move number")
        number = None
        if len(args) == 2:
            if not args[1].isdigit() or int(args[1]) < 1:
                raise GtpError("the move number must be a positive integer")
            number = int(args[1]) - 1
        try:
            self.state = load(args[0], max_moves=number)
        except (OSError, ValueError) as error:
            raise GtpError(str(error)) from None
        return ""

    def _all_legal(self, args: list[str]) -> str:
        color = self._color_arg(args)
        moves = self.state.tables.moves
        return "\n".join(moves[int(m)].text for m in self.state.legal_placements(color))

    # -- protocol -----------------------------------------------------------
    def handle(self, line: str) -> str | None:
        """The full response (``= ...\\n\\n`` or ``? ...\\n\\n``) to one input line; None for blank/comment lines."""
        line = line.split("#", 1)[0].replace("\t", " ").strip()
        if not line:
            return None
        words = line.split()
        ident = ""
        if words[0].isdigit():
            ident = words.pop(0)
            if not words:
                return f"?{ident} missing command\n\n"
        name, args = words[0], words[1:]
        handler = self.handlers.get(name)
        try:
            if handler is None:
                raise GtpError(f"unknown command ({name})")
            ok, text = True, handler(args)
        except GtpError as error:
            ok, text = False, str(error)
        return f"{'=' if ok else '?'}{ident} " + format_response(text)

    def run(self, stdin: IO[str], stdout: IO[str]) -> None:
        """Answer commands from ``stdin`` until ``quit`` or end of input."""
        for line in stdin:
            response = self.handle(line)
            if response is None:
                continue
            stdout.write(response)
            stdout.flush()
            if self.quit:
                break


class GtpClient:
    """A GTP engine in a child process (e.g. ``pentobi-gtp --game duo --level 1 --nobook``)."""

    def __init__(self, command: str, stderr: IO[str] | int | None = subprocess.DEVNULL, cwd: str | None = None) -> None:
        self.command = command
        argv = shlex.split(command)
        if not argv:
            raise ValueError("an empty GTP command")
        try:
            self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, text=True,
                                            bufsize=1, cwd=cwd, env={**os.environ, "PYTHONUNBUFFERED": "1"},
                                            start_new_session=True)
        except OSError as error:
            raise ValueError(f"cannot start GTP engine {command!r}: {error}") from None
        self._name: str | None = None

    def send(self, command: str) -> str:
        """The answer text of ``command``; GtpError on a ``?`` answer, ValueError when the engine died."""
        assert self.process.stdin is not None and self.process.stdout is not None
        try:
            self.process.stdin.write(command + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise ValueError(f"GTP engine {self.command!r} is gone (sending {command!r})") from None
        lines: list[str] = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise ValueError(f"GTP engine {self.command!r} closed its output (after {command!r})")
            line = line.rstrip("\r\n")
            if not lines and not line.strip():
                continue
            if line == "" and lines:
                break
            lines.append(line)
        head, body = lines[0], "\n".join(lines[1:])
        text = head[1:].lstrip("0123456789").strip() + ("\n" + body if body else "")
        if head.startswith("?"):
            raise GtpError(text)
        if not head.startswith("="):
            raise ValueError(f"GTP engine {self.command!r} answered {head!r} to {command!r}")
        return text.strip()

    def known(self, command: str) -> bool:
        try:
            return self.send(f"known_command {command}").strip() == "true"
        except GtpError:
            return False

    def name(self) -> str:
        if self._name is None:
            try:
                self._name = f"{self.send('name')} {self.send('version')}".strip()
            except GtpError:
                self._name = self.command
        return self._name

    def close(self) -> None:
        try:
            if self.process.poll() is None:
                self.send("quit")
        except (ValueError, GtpError):
            pass
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


__all__ = ["GtpClient", "GtpEngine", "GtpError", "PENTOBI_GAMES", "PENTOBI_GAME_OF", "final_score_text", "gtp_colors",
           "move_seed", "parse_color", "placements", "skip_to", "variant_name"]
