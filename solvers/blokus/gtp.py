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
  sum minus the others'), else each colour's points separated by spaces,
  counted as Pentobi does (squares placed plus bonuses: 0 before any move);
* the variant comes from ``--variant`` (kibitz names or Pentobi's ``--game``
  ids ``classic``, ``classic_2``, ``classic_3``, ``duo``) or from
  ``set_game`` with the SGF game name (``Blokus Duo``);
* ``set_random_seed N``: the bot's random numbers for a move are drawn from
  ``Random(move_seed(N, placements so far))``, so a game is a function of the
  seed and the moves (the same numbers :mod:`solvers.blokus.match` gives
  its in-process bots).

The engine answers every input line that is not empty after the GTP spec's
preprocessing (control characters other than tab removed, ``#`` comments cut,
tabs made spaces), and never exits on bad input: a line over
:data:`MAX_LINE_BYTES` is answered ``? line too long``, bytes that are not UTF-8
are read as U+FFFD, ``quit`` with arguments is an error (only a plain ``quit``
answers ``=`` and ends the session), ``loadsgf`` reads only regular files of at
most :data:`MAX_RECORD_BYTES`, and a failure inside a command is answered
``? internal error: ...``.

The client (:class:`GtpClient`, used by ``kibitz blokus match``) gives every
command a deadline (a start-up one for the handshake, then one per command),
reads the peer's output with ``select`` and bounded lines, so that a silent,
dead or non-GTP peer becomes a :class:`PeerError` instead of a hang, and runs
the peer in its own process group, killed on close, on error, on Ctrl-C and
at exit.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import random
import re
import select
import shlex
import signal
import stat
import subprocess
import time
from collections.abc import Callable
from typing import IO, Any

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


#: The longest input line the engine reads (longer ones are answered ``? line too long``) and the longest
#: line the client accepts from a peer.
MAX_LINE_BYTES = 64 * 1024
#: The largest record ``loadsgf`` reads.
MAX_RECORD_BYTES = 4 * 1024 * 1024
#: The largest response the client accepts from a peer.
MAX_RESPONSE_BYTES = 4 * 1024 * 1024
#: Client deadlines (seconds): each command, and each command of the start-up handshake.
DEFAULT_MOVE_TIMEOUT = 60.0
DEFAULT_STARTUP_TIMEOUT = 60.0  # a kibitz peer on a cold numba cache compiles first (about 17 s, more on a busy machine)
#: How long a peer may take to exit after ``quit`` before its process group is killed.
QUIT_GRACE = 1.0
#: How often (seconds) the client checks, while waiting for an answer, whether the peer has died.
POLL_S = 0.25

#: Control characters the GTP spec removes from input (all but HT and LF).
_CONTROL = dict.fromkeys([*range(9), *range(10, 32), 127])
_INTEGER = re.compile(r"-?[0-9]{1,30}")
_NUMBER = re.compile(r"[0-9]{1,9}")


class GtpError(Exception):
    """A command that fails: answered ``? message``."""


class PeerError(ValueError):
    """A GTP peer that is dead, silent past its deadline, or does not speak GTP (the message names it)."""


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
    """``final_score`` as Pentobi answers it: with more than two players each colour's points in Pentobi's
    convention (squares placed plus bonuses, :func:`pentobi_points`), else the two-player difference."""
    points = state.color_scores()
    if state.num_players > 2 and state.variant.name != "teams":
        return " ".join(str(p) for p in pentobi_points(state))
    if state.num_colors == 2:
        diff = points[0] - points[1]
    else:
        diff = points[0] + points[2] - points[1] - points[3]
    return f"B+{diff}" if diff > 0 else (f"W+{-diff}" if diff < 0 else "0")


def pentobi_points(state: BlokusState) -> list[int]:
    """Each colour's points as Pentobi counts them: squares placed plus bonuses (kibitz's score, which is minus
    the squares left plus the same bonuses, plus the squares of a full set: 89 in every variant here)."""
    full_set = int(sum(state.tables.piece_sizes))
    return [score + full_set for score in state.color_scores()]


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
    """One GTP session: a Blokus position and a bot (``bot_spec`` as for ``make_bot``, or ``bot`` built already, e.g.
    mcts-rave with search constants by :func:`solvers.blokus.tune.knob_bot`)."""

    def __init__(self, variant: str = "classic", bot_spec: str = "greedy", seed: int = 0, bot: Any = None) -> None:
        from solvers.bots import make_bot

        self.state = BlokusState(variant_name(variant))
        self.bot_spec = bot_spec
        self.bot = make_bot("blokus", bot_spec) if bot is None else bot
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
        if args:
            raise GtpError("quit takes no arguments")
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
        if len(args) != 1 or not _INTEGER.fullmatch(args[0]):
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
            if not _NUMBER.fullmatch(args[1]) or int(args[1]) < 1:
                raise GtpError("the move number must be a positive integer")
            number = int(args[1]) - 1
        check_record_file(args[0])
        try:
            self.state = load(args[0], max_moves=number)
        except Exception as error:  # any failure to read the file is the file's: answered, never fatal
            raise GtpError(f"cannot load {shorten(args[0])}: {one_line(error)}") from None
        self._reset_bot()
        return ""

    def _all_legal(self, args: list[str]) -> str:
        color = self._color_arg(args)
        moves = self.state.tables.moves
        return "\n".join(moves[int(m)].text for m in self.state.legal_placements(color))

    # -- protocol -----------------------------------------------------------
    def handle(self, line: str, too_long: bool = False) -> str | None:
        """The full response (``= ...\\n\\n`` or ``? ...\\n\\n``) to one input line; None for lines that are
        empty after preprocessing.  ``too_long``: the line was cut at :data:`MAX_LINE_BYTES` (answered
        ``? line too long``)."""
        words = preprocess(line)
        ident = words.pop(0) if words and words[0].isascii() and words[0].isdigit() else ""
        if too_long:
            return f"?{ident} line too long (over {MAX_LINE_BYTES} bytes)\n\n"
        if not words:
            return f"?{ident} missing command\n\n" if ident else None
        name, args = words[0], words[1:]
        handler = self.handlers.get(name)
        try:
            if handler is None:
                raise GtpError(f"unknown command ({shorten(name)})")
            ok, text = True, handler(args)
        except GtpError as error:
            ok, text = False, str(error)
        except Exception as error:  # a bug or an unforeseen input: answered, the session goes on
            ok, text = False, f"internal error: {type(error).__name__}: {one_line(error)}"
        return f"{'=' if ok else '?'}{ident} " + format_response(text)

    def run(self, stdin: IO[str] | IO[bytes], stdout: IO[str]) -> None:
        """Answer commands from ``stdin`` until ``quit`` or end of input (reads bytes from ``stdin.buffer``
        when there is one, so any byte sequence is a line; writes UTF-8 to ``stdout.buffer`` likewise)."""
        source: Any = getattr(stdin, "buffer", stdin)
        sink: Any = getattr(stdout, "buffer", None)
        first = True
        while (read := read_line(source)) is not None:
            line, too_long = read
            if first:
                line, first = line.removeprefix("\ufeff"), False
            response = self.handle(line, too_long)
            if response is None:
                continue
            if sink is not None:
                sink.write(response.encode("utf-8", "replace"))
                sink.flush()
            else:
                stdout.write(response)
                stdout.flush()
            if self.quit:
                break


def preprocess(line: str) -> list[str]:
    """The words of a GTP input line after the spec's preprocessing: control characters other than tab
    removed, everything from ``#`` on cut, tabs made spaces; words are separated by spaces only."""
    text = line.translate(_CONTROL).split("#", 1)[0].replace("\t", " ")
    return [word for word in text.split(" ") if word]


def read_line(stream: Any) -> tuple[str, bool] | None:
    """The next line of a byte (or text) stream, without its newline, and whether it was longer than
    :data:`MAX_LINE_BYTES` (then only its start is kept and the rest is skipped); None at end of input."""
    raw = stream.readline(MAX_LINE_BYTES + 1)
    if not raw:
        return None
    newline = b"\n" if isinstance(raw, bytes) else "\n"
    too_long = len(raw) > MAX_LINE_BYTES and not raw.endswith(newline)
    if too_long:
        while True:
            rest = stream.readline(MAX_LINE_BYTES)
            if not rest or rest.endswith(newline):
                break
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    return text.removesuffix("\n"), too_long


def check_record_file(path: str) -> None:
    """GtpError unless ``path`` is a regular file of at most :data:`MAX_RECORD_BYTES` (checked before
    reading: a device, a pipe or a huge file is refused without being opened)."""
    try:
        info = os.stat(path)
    except (OSError, ValueError) as error:
        raise GtpError(f"cannot read {shorten(path)}: {getattr(error, 'strerror', None) or one_line(error)}") from None
    if not stat.S_ISREG(info.st_mode):
        raise GtpError(f"not a regular file: {shorten(path)}")
    if info.st_size > MAX_RECORD_BYTES:
        raise GtpError(f"file too large: {shorten(path)} has {info.st_size} bytes (the limit is {MAX_RECORD_BYTES})")


def shorten(text: str, limit: int = 80) -> str:
    """``text`` cut to ``limit`` characters (with ``...``), for echoing input in a message."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def one_line(error: BaseException) -> str:
    """The first line of an error's message (its type when it has none), at most 200 characters."""
    lines = str(error).strip().splitlines()
    return shorten(lines[0], 200) if lines else type(error).__name__


class GtpClient:
    """A GTP engine in a child process (e.g. ``pentobi-gtp --game duo --level 1 --nobook``), in its own process
    group.  Commands have deadlines: ``startup_timeout`` until :meth:`ready` is called (the handshake), then
    ``timeout``; a peer that misses one, dies, or answers something that is not GTP raises :class:`PeerError`,
    after which the client is unusable and :meth:`close` kills the group."""

    def __init__(self, command: str, stderr: IO[str] | int | None = subprocess.DEVNULL, cwd: str | None = None,
                 timeout: float = DEFAULT_MOVE_TIMEOUT, startup_timeout: float = DEFAULT_STARTUP_TIMEOUT) -> None:
        self.command = command
        argv = shlex.split(command)
        if not argv:
            raise ValueError("an empty GTP command")
        try:
            self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
                                            bufsize=0, cwd=cwd, env={**os.environ, "PYTHONUNBUFFERED": "1"},
                                            start_new_session=True)
        except (OSError, ValueError) as error:
            raise ValueError(f"cannot start GTP engine {command!r}: {one_line(error)}") from None
        _LIVE.add(self)
        assert self.process.stdin is not None and self.process.stdout is not None
        self._in, self._out = self.process.stdin.fileno(), self.process.stdout.fileno()
        os.set_blocking(self._in, False)
        self._buffer = bytearray()
        self.timeout = timeout
        self._deadline_s = startup_timeout
        self.failed: str | None = None  # why the client is unusable (the peer failed, or a send was interrupted)
        self._name: str | None = None

    def ready(self) -> None:
        """The handshake is over: later commands get the per-command timeout."""
        self._deadline_s = self.timeout

    def send(self, command: str) -> str:
        """The answer text of ``command``; GtpError on a ``?`` answer, PeerError when the peer is dead, silent
        past the deadline, or not speaking GTP."""
        if self.failed is not None:
            raise PeerError(self.failed)
        deadline = time.monotonic() + self._deadline_s
        try:
            self._write((command + "\n").encode("utf-8"), deadline, command)
            head, body = self._read_response(deadline, command)
        except PeerError as error:
            self.failed = str(error)
            raise
        except BaseException:  # Ctrl-C mid-command: the conversation is out of step, the peer is killed
            self.failed = f"GTP engine {self.command!r}: interrupted during {shorten(command)!r}"
            raise
        text = head[1:].lstrip("0123456789").strip() + ("\n" + body if body else "")
        if head.startswith("?"):
            raise GtpError(text)
        return text.strip()

    def _peer_error(self, what: str, command: str) -> PeerError:
        return PeerError(f"GTP engine {self.command!r} {what} (command {shorten(command)!r})")

    def _write(self, data: bytes, deadline: float, command: str) -> None:
        view = memoryview(data)
        while view:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise self._peer_error(f"did not read its input within {self._deadline_s:g} s", command)
            select.select([], [self._in], [], remaining)
            try:
                view = view[os.write(self._in, view):]
            except BlockingIOError:
                continue
            except OSError:
                raise self._peer_error(self._gone(), command) from None

    def _read_response(self, deadline: float, command: str) -> tuple[str, str]:
        """The first line and the rest of one response (up to its empty line)."""
        lines: list[str] = []
        size = 0
        while True:
            line = self._read_line(deadline, command)
            size += len(line) + 1
            if size > MAX_RESPONSE_BYTES:
                raise self._peer_error(f"sent a response over {MAX_RESPONSE_BYTES} bytes", command)
            if not lines:
                if not line.strip():
                    continue
                if line[0] not in "=?":
                    raise self._peer_error(f"does not speak GTP: it answered {shorten(line, 60)!r}", command)
            elif not line:
                return lines[0], "\n".join(lines[1:])
            lines.append(line)

    def _read_line(self, deadline: float, command: str) -> str:
        while True:
            newline = self._buffer.find(b"\n")
            if newline >= 0 or len(self._buffer) > MAX_LINE_BYTES:
                if newline < 0 or newline > MAX_LINE_BYTES:
                    raise self._peer_error(f"sent a line over {MAX_LINE_BYTES} bytes", command)
                raw = bytes(self._buffer[:newline])
                del self._buffer[: newline + 1]
                return raw.decode("utf-8", "replace").rstrip("\r")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise self._peer_error(f"did not answer within {self._deadline_s:g} s", command)
            if not select.select([self._out], [], [], min(remaining, POLL_S))[0]:
                if _wait_exit(self.process.pid, 0) is not None:  # dead, though a child of it may hold the pipe
                    raise self._peer_error(self._gone(), command)
                continue
            chunk = os.read(self._out, 65536)
            if not chunk:
                raise self._peer_error(self._gone(), command)
            self._buffer += chunk

    def _gone(self) -> str:
        """What became of a peer whose output ended: ``exited (exit status N)`` when it has exited within a
        moment, else ``closed its output`` (the peer is not reaped here, so its process group id stays reserved
        until :meth:`kill`)."""
        status = _wait_exit(self.process.pid, 0.2)
        if status is None:
            return "closed its output"
        return f"exited (exit status {status})" if status >= 0 else f"was killed by signal {-status}"

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
        """Say ``quit`` to a healthy peer and give it :data:`QUIT_GRACE` seconds to exit, then kill its whole
        process group (at once when the peer failed or a command was interrupted)."""
        try:
            if self.failed is None and self.process.poll() is None:
                self._deadline_s = QUIT_GRACE
                self.send("quit")
                _wait_exit(self.process.pid, QUIT_GRACE)
        except (PeerError, GtpError):
            pass
        finally:
            self.kill()

    def kill(self) -> None:
        """Kill the peer's process group (the peer and anything it started) and reap the peer."""
        _kill_group(self.process.pid)
        _LIVE.discard(self)
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                stream.close()
        self.process.wait()


#: Clients not yet closed: their process groups are killed at exit, whatever ended the program.
_LIVE: set[GtpClient] = set()


def _wait_exit(pid: int, seconds: float) -> int | None:
    """Child ``pid``'s exit status (minus the signal that killed it) once it exits within ``seconds``, else None.
    The child is not reaped, so its process group id stays reserved."""
    end = time.monotonic() + seconds
    while True:
        try:
            info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT | os.WNOHANG)
        except ChildProcessError:
            return 0
        if info is not None:
            return info.si_status if info.si_code == os.CLD_EXITED else -info.si_status
        if time.monotonic() >= end:
            return None
        time.sleep(0.01)


def _kill_group(pgid: int) -> None:
    """SIGKILL to process group ``pgid`` (nothing when it is gone)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


@atexit.register
def _kill_live_peers() -> None:
    for client in list(_LIVE):
        _kill_group(client.process.pid)


__all__ = ["DEFAULT_MOVE_TIMEOUT", "DEFAULT_STARTUP_TIMEOUT", "GtpClient", "GtpEngine", "GtpError", "MAX_LINE_BYTES",
           "MAX_RECORD_BYTES", "PENTOBI_GAMES", "PENTOBI_GAME_OF", "PeerError", "check_record_file", "final_score_text", "pentobi_points",
           "gtp_colors", "move_seed", "one_line", "parse_color", "placements", "preprocess", "read_line", "shorten", "skip_to",
           "variant_name"]
