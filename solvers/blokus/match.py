"""Blokus matches: kibitz bots against GTP engines (Pentobi), or against each other, with the same driver.

A match is ``games`` games between side A (``--bots``: a kibitz bot, or a GTP
engine) and side B (``--opponent``: a GTP engine command, or a kibitz bot).
Game ``g`` gives side A seat ``g % seats``, so side A rotates through the
seats (in four-player ``classic`` side A plays one colour and side B, one
process, ``genmove``-s the three others; in ``three-player`` side A plays one
colour and, when its turn comes, the shared green, as ``classic_3`` rules it).  The driver keeps the position in kibitz's engine: every
move a side sends is checked there (an illegal move stops the match with the
reason), forced passes are played by the driver (GTP engines never see
passes), and at the end each GTP side's ``final_score`` is compared with
kibitz's own count in Pentobi's convention (:func:`~solvers.blokus.gtp.final_score_text`).

Scores: ``result`` is side A's share of first place (1 for a win, a tie for
first shared, 0 otherwise; 1/seats is a fair share), ``rank`` its place
counted from 1 (tied seats share the mean of their places), and the margin
its points minus the best other seat's.

Random numbers: a kibitz bot gets ``Random(move_seed(game seed, placements
so far))`` for each move, in-process or behind GTP (``set_random_seed`` is sent
at the start of every game), so the same seeds give the same games either
way.  CPU per move: ``time.process_time`` around an in-process bot's move, the
``cputime`` difference around a GTP engine's ``genmove``.

Failures: a GTP side that dies, stays silent past its deadline
(``move_timeout``; ``startup_timeout`` for the handshake), answers something
that is not GTP, refuses a legal move or plays an illegal one ends the match
with status ``engine failed`` and its reason in ``error``; Ctrl-C ends it with
status ``interrupted``.  Either way the finished games are kept (the game in
progress is dropped) and the caller closes the sides, which kills the GTP
peers' process groups.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from puzzles.blokus.engine import BlokusState
from puzzles.blokus.tables import PASS, Move
from puzzles.game import shared_win_returns
from solvers.blokus.gtp import (
    DEFAULT_MOVE_TIMEOUT,
    DEFAULT_STARTUP_TIMEOUT,
    PENTOBI_GAME_OF,
    GtpClient,
    GtpError,
    PeerError,
    final_score_text,
    gtp_colors,
    move_seed,
    placements,
)
from solvers.playout import game_seed, wilson_interval

MATCH_VARIANTS = ("duo", "two-player", "classic", "three-player")
RESIGN = "resign"
ENGINE_FAILED = "engine failed"


class MatchError(ValueError):
    """A side broke the protocol or the rules (the message names the side, game and move)."""


class LocalSide:
    """A kibitz bot played in this process."""

    def __init__(self, spec: str, bot: Any = None) -> None:
        """The bot named by ``spec``, or ``bot`` itself (a bot built elsewhere, e.g. with tuned constants)."""
        from solvers.bots import make_bot

        self.spec = spec
        self.bot = make_bot("blokus", spec) if bot is None else bot
        self.label = f"kibitz {spec}"
        self.seed = 0

    def new_game(self, state: BlokusState, seed: int) -> None:
        self.seed = seed
        reset = getattr(self.bot, "reset", None)
        if callable(reset):
            reset()

    def genmove(self, state: BlokusState, color: int) -> tuple[Move | str, float]:
        rng = random.Random(move_seed(self.seed, placements(state)))
        start = time.process_time()
        move = self.bot.choose(state, rng)
        return move, time.process_time() - start

    def play(self, state: BlokusState, color: int, move: Move) -> None:
        """Nothing to tell: the bot reads the shared position."""

    def final_score(self) -> str | None:
        return None

    def warm_up(self, variant: str) -> None:
        """Compile the bot's kernels on a throw-away position (so the first game's CPU figures are fair)."""
        state = BlokusState(variant)
        self.bot.choose(state, random.Random(0))
        reset = getattr(self.bot, "reset", None)
        if callable(reset):
            reset()

    def settings(self, variant: str) -> dict[str, Any]:
        """What this side plays with: the bot's spec, and its budget and knobs in effect where it reports them."""
        report = getattr(self.bot, "settings", None)
        return {"bot": self.spec, **(report(variant) if callable(report) else {})}

    def close(self) -> None:
        pass


class GtpSide:
    """A GTP engine in a child process (Pentobi's dialect; e.g. ``pentobi-gtp --game duo --level 1 --nobook``)."""

    def __init__(self, command: str, stderr: Any = None, move_timeout: float = DEFAULT_MOVE_TIMEOUT,
                 startup_timeout: float = DEFAULT_STARTUP_TIMEOUT) -> None:
        import subprocess

        self.client = GtpClient(command, stderr=subprocess.DEVNULL if stderr is None else stderr,
                                timeout=move_timeout, startup_timeout=startup_timeout)
        self.command = command
        self.variant = ""
        try:  # the handshake, under the start-up deadline; any failure (Ctrl-C too) kills the peer
            self.label = self.client.name()
            self.has_seed = self.client.known("set_random_seed")
            self.has_cputime = self.client.known("cputime")
            self.has_set_game = self.client.known("set_game")
        except BaseException:
            self.client.close()
            raise
        self.client.ready()

    def new_game(self, state: BlokusState, seed: int) -> None:
        if self.has_set_game and state.variant.name != self.variant:
            self.client.send(f"set_game {state.variant.sgf_game}")
            self.variant = state.variant.name
        self.client.send("clear_board")
        if self.has_seed:
            self.client.send(f"set_random_seed {seed}")

    def _cputime(self) -> float:
        if not self.has_cputime:
            return 0.0
        try:
            return float(self.client.send("cputime").split()[0])
        except PeerError:
            raise
        except (GtpError, ValueError, IndexError):
            return 0.0

    def genmove(self, state: BlokusState, color: int) -> tuple[Move | str, float]:
        name = gtp_colors(state)[color]
        before = self._cputime()
        try:
            text = self.client.send(f"genmove {name}")
        except GtpError as error:
            raise MatchError(f"{self.label}: genmove {name} failed: {error}") from None
        cpu = self._cputime() - before
        low = text.strip().lower()
        if low == RESIGN:
            return RESIGN, cpu
        if low in ("pass", "null"):
            return PASS, cpu
        try:
            return state.string_to_action(text), cpu
        except ValueError as error:
            raise MatchError(f"{self.label} answered genmove {name} with {text!r}: {error}") from None

    def play(self, state: BlokusState, color: int, move: Move) -> None:
        name = gtp_colors(state)[color]
        try:
            self.client.send(f"play {name} {move.text}")
        except GtpError as error:
            raise MatchError(f"{self.label} refused play {name} {move.text}: {error}") from None

    def final_score(self) -> str | None:
        try:
            return self.client.send("final_score")
        except GtpError:
            return None

    def warm_up(self, variant: str) -> None:
        pass

    def settings(self, variant: str) -> dict[str, Any]:
        """What this side plays with: its command line."""
        return {"engine": self.command}

    def close(self) -> None:
        self.client.close()


class SeatSides:
    """Side B as one engine per seat (``--opponent-per-seat``): in each game its engines take the seats side A
    does not hold, in order, so no engine searches for two colours (and reuses its tree across them)."""

    def __init__(self, sides: Sequence[LocalSide | GtpSide]) -> None:
        self.sides = list(sides)
        self.label = f"{sides[0].label} x{len(sides)}"

    def settings(self, variant: str) -> dict[str, Any]:
        """Its engines' settings (the same for every seat), and how many there are."""
        return {**self.sides[0].settings(variant), "per_seat": len(self.sides)}

    def close(self) -> None:
        for side in self.sides:
            side.close()


Side = LocalSide | GtpSide
AnySide = Side | SeatSides


def seat_sides(a: Side, b: AnySide, seat_a: int, seats: int) -> list[Side]:
    """The side that plays each seat: A in ``seat_a``; B's engine, or B's engines in order, in the others."""
    others = b.sides if isinstance(b, SeatSides) else [b]
    out: list[Side] = []
    for seat in range(seats):
        out.append(a if seat == seat_a else others[(seat - (seat > seat_a)) % len(others)])
    return out


def engines(a: Side, b: AnySide) -> list[tuple[str, Side]]:
    """Every engine of a match with its tag (``a``, ``b``, or ``b1``.. for one engine per seat)."""
    if isinstance(b, SeatSides):
        return [("a", a)] + [(f"b{i + 1}", side) for i, side in enumerate(b.sides)]
    return [("a", a), ("b", b)]


def make_side(spec: str, gtp: bool, move_timeout: float = DEFAULT_MOVE_TIMEOUT,
              startup_timeout: float = DEFAULT_STARTUP_TIMEOUT) -> Side:
    """A GTP engine command (``gtp``, with its deadlines) or a kibitz bot spec."""
    if gtp:
        return GtpSide(spec, move_timeout=move_timeout, startup_timeout=startup_timeout)
    return LocalSide(spec)


@dataclass
class GameResult:
    """One finished game, seen from side A."""

    index: int
    seed: int
    seat_a: int
    result: float  # side A's share of first place: 1 win, 0 loss, shared on a tie for first
    color_scores: list[int]
    seat_scores: list[float]
    plies: int
    resigned: str | None
    final_scores: dict[str, str | None]  # side label -> its final_score answer
    expected_final: str
    cpu_a: list[float] = field(default_factory=list)
    cpu_b: list[float] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)

    @property
    def rank(self) -> float:
        """Side A's place counted from 1 (a resignation: last); tied seats share the mean of their places."""
        if self.resigned is not None:
            return 1.0 if self.resigned == "b" else float(len(self.seat_scores))
        return seat_rank(self.seat_scores, self.seat_a)

    @property
    def scores_agree(self) -> bool:
        return all(v is None or v.split() == self.expected_final.split() for v in self.final_scores.values())

    def to_json(self) -> dict[str, Any]:
        return {"game": self.index, "seed": self.seed, "seat_a": self.seat_a, "result": self.result,
                "rank": self.rank, "color_scores": self.color_scores, "seat_scores": self.seat_scores, "plies": self.plies,
                "resigned": self.resigned, "final_score": self.expected_final, "engine_final_scores": self.final_scores,
                "scores_agree": self.scores_agree,
                "cpu_per_move_a": _mean(self.cpu_a), "cpu_per_move_b": _mean(self.cpu_b), "moves": self.moves}


def seat_rank(scores: list[float], seat: int) -> float:
    """The place of ``seat`` counted from 1 (highest score first); tied seats share the mean of their places."""
    better = sum(1 for s in scores if s > scores[seat])
    tied = sum(1 for s in scores if s == scores[seat])
    return better + (tied + 1) / 2


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def play_match_game(a: Side, b: AnySide, variant: str, index: int, seed: int) -> GameResult:
    """Game ``index`` of a match: side A in seat ``index % seats``, side B in the others."""
    state = BlokusState(variant)
    gseed = game_seed(seed, index) & 0xFFFFFFFF
    seat_a = index % state.num_players
    by_seat = seat_sides(a, b, seat_a, state.num_players)
    everyone = [side for _, side in engines(a, b)]
    for side in everyone:
        side.new_game(state, gseed)
    cpu_a: list[float] = []
    cpu_b: list[float] = []
    resigned: str | None = None
    while not state.is_terminal():
        color = state.to_move
        if state.legal_actions() == [PASS]:
            state.apply(PASS)
            continue
        is_a = state.player_of_color(color) == seat_a
        side = by_seat[state.player_of_color(color)]
        move, cpu = side.genmove(state, color)
        (cpu_a if is_a else cpu_b).append(cpu)
        if isinstance(move, str):
            if state.num_players != 2:
                raise MatchError(f"{side.label} resigned in a {state.num_players}-player game")
            resigned = "a" if is_a else "b"
            break
        reason = state.illegal_reason(move)
        if reason is not None:
            raise MatchError(f"{side.label} played an illegal move (ply {len(state.history) + 1}, "
                             f"{state.color_names[color]}): {move.text}: {reason}")
        state.apply(move)
        for other in everyone:
            if other is not side:
                other.play(state, color, move)
    final_scores: dict[str, str | None] = {}
    if resigned is None:
        for tag, side in engines(a, b):
            answer = side.final_score()
            if answer is not None:
                final_scores[f"{tag}: {side.label}"] = answer
    if resigned is None:
        result = state.returns()[seat_a]
    else:
        result = 0.0 if resigned == "a" else 1.0
    return GameResult(index, gseed, seat_a, result, state.color_scores(), state.scores(),
                      placements(state), resigned, final_scores, final_score_text(state), cpu_a, cpu_b,
                      [m.text for _, m, _ in state.history if not m.is_pass])


@dataclass
class MatchResult:
    """All finished games of a match and their summary."""

    variant: str
    side_a: str
    side_b: str
    games_requested: int
    seed: int
    games: list[GameResult] = field(default_factory=list)
    status: str = "complete"  # or "interrupted" (Ctrl-C), or ENGINE_FAILED
    error: str | None = None  # why a side failed (status ENGINE_FAILED)
    settings_a: dict[str, Any] | None = None  # what each side played with (LocalSide.settings: knobs in effect)
    settings_b: dict[str, Any] | None = None

    def summary(self) -> dict[str, Any]:
        """The keys of every ``playout`` (game, status, interrupted, seed, games, games_requested, bots,
        seat_win_rates, time_limit), then the match's own: side A's wins/losses/ties, score and CI, CPU, margins,
        and ``error`` (why a side failed, or None)."""
        n = len(self.games)
        score = sum(g.result for g in self.games)
        low, high = wilson_interval(score, n)
        cpu_a = [c for g in self.games for c in g.cpu_a]
        cpu_b = [c for g in self.games for c in g.cpu_b]
        return {
            "game": "blokus", "status": self.status, "interrupted": self.status == "interrupted", "seed": self.seed,
            "games": n, "games_requested": self.games_requested,
            "bots": [_side_row(self.side_a, self.games, True), _side_row(self.side_b, self.games, False)],
            "seat_win_rates": _seat_win_rates(self.games), "time_limit": None,
            "variant": self.variant, "side_a": self.side_a, "side_b": self.side_b,
            "wins": sum(1 for g in self.games if g.result == 1.0),
            "losses": sum(1 for g in self.games if g.result == 0.0),
            "ties": sum(1 for g in self.games if 0.0 < g.result < 1.0),
            "score": score / n if n else None, "win_ci95": [round(low, 4), round(high, 4)],
            "cpu_per_move_a": _mean(cpu_a), "cpu_per_move_b": _mean(cpu_b),
            "mean_margin_a": _mean([_margin(g) for g in self.games]),
            "mean_rank_a": _mean([g.rank for g in self.games]),
            "by_seat_a": _by_seat(self.games),
            "final_score_mismatches": sum(1 for g in self.games if not g.scores_agree),
            "error": self.error, "settings_a": self.settings_a, "settings_b": self.settings_b,
        }

    def to_json(self, with_games: bool = True) -> dict[str, Any]:
        data = self.summary()
        if with_games:
            data["game_list"] = [g.to_json() for g in self.games]
        return data


def _side_row(label: str, games: list[GameResult], side_a: bool) -> dict[str, Any]:
    """A side as a playout bot row: its wins (a tie shares one), win rate with its 95% interval, and its
    mean score (side B: the mean of its seats' scores in each game)."""
    n = len(games)
    wins = sum(g.result if side_a else 1.0 - g.result for g in games)
    low, high = wilson_interval(wins, n)
    scores = [_side_score(g, side_a) for g in games]
    return {"bot": label, "games": n, "wins": wins, "win_rate": wins / n if n else 0.0,
            "win_ci95": [round(low, 4), round(high, 4)], "mean_score": _mean(scores)}


def _side_score(g: GameResult, side_a: bool) -> float:
    if side_a:
        return g.seat_scores[g.seat_a]
    return _mean([s for i, s in enumerate(g.seat_scores) if i != g.seat_a])


def _by_seat(games: list[GameResult]) -> list[dict[str, Any]]:
    """Side A's games, score, mean rank and mean margin in each seat it took (seats from 0)."""
    rows = []
    for seat in sorted({g.seat_a for g in games}):
        mine = [g for g in games if g.seat_a == seat]
        rows.append({"seat": seat, "games": len(mine), "score": _mean([g.result for g in mine]),
                     "mean_rank": _mean([g.rank for g in mine]), "mean_margin": _mean([_margin(g) for g in mine])})
    return rows


def _seat_win_rates(games: list[GameResult]) -> list[float]:
    """Per seat (from 0): the share of games its player won (a tie for first shares the win; a resignation
    gives the win to the other seat)."""
    if not games:
        return []
    totals = [0.0] * len(games[0].seat_scores)
    for g in games:
        if g.resigned is None:
            returns = shared_win_returns(g.seat_scores)
        else:
            returns = [g.result if i == g.seat_a else 1.0 - g.result for i in range(len(g.seat_scores))]
        for i, value in enumerate(returns):
            totals[i] += value
    return [t / len(games) for t in totals]


def _margin(g: GameResult) -> float:
    mine = g.seat_scores[g.seat_a]
    others = [s for i, s in enumerate(g.seat_scores) if i != g.seat_a]
    return mine - max(others)


def run_match(a: Side, b: AnySide, variant: str, games: int, seed: int = 0,
              on_game: Callable[[GameResult, MatchResult], None] | None = None) -> MatchResult:
    """Play ``games`` games.  Ctrl-C (status ``interrupted``) and a failing side (status ``engine failed``,
    the reason in ``error``) keep the finished games; the caller closes the sides."""
    if variant not in MATCH_VARIANTS:
        raise ValueError(f"match variant must be one of {', '.join(MATCH_VARIANTS)}, not {variant!r}")
    out = MatchResult(variant, a.label, b.label, games, seed)
    try:
        for _, side in engines(a, b):
            side.warm_up(variant)
        out.settings_a, out.settings_b = a.settings(variant), b.settings(variant)
        for index in range(games):
            result = play_match_game(a, b, variant, index, seed)
            out.games.append(result)
            if on_game is not None:
                on_game(result, out)
    except KeyboardInterrupt:
        out.status = "interrupted"
    except (MatchError, PeerError) as error:
        out.status, out.error = ENGINE_FAILED, _failure(error, len(out.games) + 1)
    return out


def _failure(error: Exception, game: int) -> str:
    """The one line that says why a side failed, after the game it happened in (counted from 1)."""
    return f"game {game}: {error}"


def pentobi_command(binary: str, variant: str, level: int) -> str:
    """The command line of Pentobi's GTP engine for a kibitz variant (no opening book, no resign)."""
    return f"{binary} --game {PENTOBI_GAME_OF[variant]} --level {level} --nobook --noresign --quiet"


__all__ = ["ENGINE_FAILED", "GameResult", "GtpSide", "LocalSide", "MATCH_VARIANTS", "MatchError", "MatchResult", "SeatSides", "make_side",
           "pentobi_command", "play_match_game", "run_match", "seat_rank"]
