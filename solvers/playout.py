"""The one play driver and playout runner for every game, with its statistics.

* :func:`play_game` plays a state to the end with one bot per seat.
* :func:`run_playouts` plays a series of seeded games between bots named by
  ``make_bot`` specs; with ``rotate`` the bots take turns in every seat, so a
  first-player advantage is spread evenly.  :class:`PlayoutStats` keeps totals
  per bot (win rate with a 95% Wilson interval, mean score) and per seat.
* :func:`run_playouts_parallel` is the same run cut into ranges of games for
  :mod:`solvers.parallel` (processes, Dask, checkpoints); the totals are equal
  because game ``i`` always uses seed :func:`game_seed` ``(seed, i)``.

A game whose ``solvers.<game>.bots`` module defines ``fast_playouts(job, start,
stop)`` gets compiled playouts for the bot line-ups it accepts (it returns
None for the others); they must give the same statistics type.
"""

from __future__ import annotations

import importlib
import importlib.util
import math
import random
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from puzzles.game import CHANCE, GameState, game_info
from solvers.bots import Bot, UndoRequest, make_bot, split_spec

MoveHook = Callable[[GameState[Any], int, Any], None]


def game_seed(base_seed: int, index: int) -> int:
    """The seed of game ``index`` in a run started with ``base_seed``."""
    return base_seed * 1_000_003 + index


def play_game(state: GameState[Any], bots: Sequence[Bot[Any]], rng: random.Random,
              on_move: MoveHook | None = None, on_undo: Callable[[int | None], None] | None = None) -> GameState[Any]:
    """Play ``state`` to the end in place: chance from ``rng``, seat ``p`` moved by ``bots[p]``.

    ``on_move(state_before, player, action)`` sees every action (chance included)
    before it is applied, e.g. to print or record the game.  An interactive bot (a human) may
    raise :class:`~solvers.bots.UndoRequest`: the game goes back to that seat's previous decision
    (the state is restored in place) and ``on_undo(actions_kept)`` is told how many actions
    remain, or None when there was nothing to undo.
    """
    marks: list[tuple[int, int, GameState[Any]]] = []  # (seat, actions so far, state) before each human decision
    played = 0
    while not state.is_terminal():
        if _STOP.is_set() and threading.current_thread() is not threading.main_thread():
            raise PlayoutStopped
        player = state.current_player()
        if player == CHANCE:
            action = state.sample_chance(rng)
        else:
            bot = bots[player]
            if getattr(bot, "interactive", False):
                marks.append((player, played, state.clone()))
            try:
                action = bot.choose(state, rng)
            except UndoRequest:
                marks.pop()  # this decision
                earlier = [i for i, (seat, _, _) in enumerate(marks) if seat == player]
                if not earlier:
                    if on_undo is not None:
                        on_undo(None)
                    continue
                _, played, snapshot = marks[earlier[-1]]
                del marks[earlier[-1]:]
                _restore(state, snapshot)
                if on_undo is not None:
                    on_undo(played)
                continue
        if on_move is not None:
            on_move(state, player, action)
        state.apply(action)
        played += 1
    return state


def _restore(state: GameState[Any], snapshot: GameState[Any]) -> None:
    """Make ``state`` equal to ``snapshot`` in place (a fresh copy of it, so the snapshot stays intact)."""
    fresh = snapshot.clone()
    vars(state).clear()
    vars(state).update(vars(fresh))


def wilson_interval(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a proportion (ties may count as half successes)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def seating(num_seats: int, index: int, rotate: bool) -> list[int]:
    """``seating[seat]`` = the bot playing that seat in game ``index`` (bots shift one seat per game)."""
    return [(seat + index) % num_seats if rotate else seat for seat in range(num_seats)]


@dataclass
class PlayoutStats:
    """Totals of a playout series, per bot and per seat; ``merge`` adds another part of the series.

    ``wins`` count shared-win returns (a tie for first shares the win).
    """

    bots: list[str]
    games: int = 0
    wins: list[float] = field(default_factory=list)
    score_sums: list[float] = field(default_factory=list)
    score_sq_sums: list[float] = field(default_factory=list)
    seat_wins: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        for name in ("wins", "score_sums", "score_sq_sums", "seat_wins"):
            if not getattr(self, name):
                setattr(self, name, [0.0] * len(self.bots))

    @property
    def num_players(self) -> int:
        return len(self.bots)

    def add_result(self, returns: Sequence[float], scores: Sequence[float], seats: Sequence[int]) -> None:
        """Record one game from its returns and scores per seat; ``seats[seat]`` = the bot in it."""
        self.games += 1
        for seat, (ret, score) in enumerate(zip(returns, scores, strict=True)):
            bot = seats[seat]
            self.wins[bot] += ret
            self.score_sums[bot] += score
            self.score_sq_sums[bot] += score * score
            self.seat_wins[seat] += ret

    def add(self, final: GameState[Any], seats: Sequence[int] | None = None) -> None:
        """Record one finished game (bot ``i`` in seat ``i`` unless ``seats`` says otherwise)."""
        self.add_result(final.returns(), final.scores(), seats or range(self.num_players))

    def merge(self, other: PlayoutStats) -> PlayoutStats:
        """Add another part's totals to this one (in place; returns self for reductions)."""
        self.games += other.games
        for name in ("wins", "score_sums", "score_sq_sums", "seat_wins"):
            mine, theirs = getattr(self, name), getattr(other, name)
            for i, value in enumerate(theirs):
                mine[i] += value
        return self

    def to_json(self) -> dict[str, Any]:
        return {"bots": self.bots, "games": self.games, "wins": self.wins, "score_sums": self.score_sums,
                "score_sq_sums": self.score_sq_sums, "seat_wins": self.seat_wins}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PlayoutStats:
        return cls(**data)

    def summary(self) -> dict[str, Any]:
        """Per bot: games, wins (a tie for first shares one), win rate with its 95% interval, mean score and its
        standard deviation; per seat: win rate.  The same row keys as ``blokus match``."""
        n = self.games
        bots = []
        for i, name in enumerate(self.bots):
            low, high = wilson_interval(self.wins[i], n)
            mean = self.score_sums[i] / n if n else 0.0
            variance = max(0.0, self.score_sq_sums[i] / n - mean * mean) if n else 0.0
            bots.append({"bot": name, "games": n, "wins": self.wins[i], "win_rate": self.wins[i] / n if n else 0.0,
                         "win_ci95": [low, high], "mean_score": mean, "score_sd": math.sqrt(variance)})
        seats = [self.seat_wins[s] / n if n else 0.0 for s in range(self.num_players)]
        return {"games": n, "bots": bots, "seat_win_rates": seats}


@dataclass(frozen=True)
class PlayoutJob:
    """Everything a range of games needs, picklable: the game, its options and the bots by spec."""

    game: str
    bots: tuple[str, ...]
    players: int
    seed: int = 0
    rotate: bool = True
    options: tuple[tuple[str, Any], ...] = ()

    def new_state(self, index: int) -> GameState[Any]:
        return game_info(self.game).new_game(self.players, game_seed(self.seed, index), **dict(self.options))


def make_job(game: str, bots: Sequence[str], players: int | None = None, seed: int = 0, rotate: bool = True,
             options: dict[str, Any] | None = None) -> PlayoutJob:
    """A checked :class:`PlayoutJob`: one bot spec per seat, or one for every seat."""
    info = game_info(game)
    players = info.implied_players(options or {}) if players is None else players
    specs = list(bots) * players if len(bots) == 1 else list(bots)
    if len(specs) != players:
        raise ValueError(f"give one bot per seat ({players}) or one for all, got {len(bots)}")
    for spec in specs:
        make_bot(game, spec)
    info.check_options(options or {})
    return PlayoutJob(game, tuple(specs), players, seed, rotate, tuple(sorted((options or {}).items())))


#: Tasks a playout starts past its first unfinished one (finished ones wait to be folded in order: a bound).
MAX_AHEAD = 4096

#: Games per call of a compiled ``fast_playouts`` kernel inside :func:`playout_range`.
FAST_BLOCK = 20_000


def playout_range(job: PlayoutJob, start: int, stop: int) -> PlayoutStats:
    """Play games ``start .. stop-1`` of ``job`` (compiled playouts when the game offers them)."""
    fast = getattr(importlib.import_module(f"solvers.{job.game}.bots"), "fast_playouts", None)
    if fast is not None:  # in blocks: a kernel's per-game arrays stay small however many games are asked
        stats: PlayoutStats | None = fast(job, start, min(stop, start + FAST_BLOCK))
        if stats is not None:
            for low in range(start + FAST_BLOCK, stop, FAST_BLOCK):
                stats.merge(fast(job, low, min(stop, low + FAST_BLOCK)))
            return stats
    stats = PlayoutStats(list(job.bots))
    bots = [make_bot(job.game, spec) for spec in job.bots]
    for index in range(start, stop):
        seats = seating(job.players, index, job.rotate)
        seed = game_seed(job.seed, index)
        final = play_game(job.new_state(index), [bots[b] for b in seats], random.Random(seed))
        stats.add(final, seats)
    return stats


def run_playouts(game: str, bots: Sequence[str], games: int, seed: int = 0, players: int | None = None,
                 rotate: bool = True, options: dict[str, Any] | None = None,
                 progress: bool = False) -> PlayoutStats:
    """Play ``games`` seeded games between ``bots`` (``make_bot`` specs) in this process.

    ``progress=True`` shows a bar per game (a notebook widget in Jupyter, text elsewhere).  Ctrl-C
    (or the notebook's interrupt) stops after the game in progress and returns the games finished.
    """
    job = make_job(game, bots, players, seed, rotate, options)
    if not progress:
        return playout_range(job, 0, games)
    stats = PlayoutStats(list(job.bots))
    chunk = playout_chunk(job, games)
    with _progress_bar(total=games, desc=f"{game} playouts", unit="game") as bar:
        try:
            for start in range(0, games, chunk):
                stats.merge(playout_range(job, start, min(games, start + chunk)))
                bar.update(min(games, start + chunk) - start)
        except KeyboardInterrupt:
            pass
    return stats


def _progress_bar(**settings: Any) -> Any:
    """tqdm's bar: a widget in Jupyter (the ``notebook`` extra installs ipywidgets), text elsewhere."""
    from tqdm import tqdm

    if importlib.util.find_spec("ipywidgets") is not None:  # else tqdm.auto warns and draws text anyway
        from tqdm.auto import tqdm
    return tqdm(**settings)


def playout_chunk(job: PlayoutJob, games: int) -> int:
    """Games per task: 1 unless the game plays this line-up in a compiled kernel of cheap bots.

    A task is the unit that is kept (checkpointed, reported) when a run stops, so slow line-ups
    (Python bots, searches) run one game per task: no finished game is ever discarded.  Fast
    compiled line-ups (``random``/``greedy``) run up to 200 games per task (at least 8 tasks).  The size
    depends only on the job and the number of games, so a checkpoint resumes with any worker count.
    """
    fast = getattr(importlib.import_module(f"solvers.{job.game}.bots"), "fast_playouts", None)
    cheap = all(split_spec(spec)[0] in ("random", "greedy") for spec in job.bots)
    if fast is None or not cheap or fast(job, 0, 0) is None:
        return 1
    return max(1, min(200, -(-games // 8)))


def run_playouts_parallel(job: PlayoutJob, games: int, workers: int | None = None, scheduler: str | None = None,
                          checkpoint: Path | None = None,
                          progress: Callable[[int, int], None] | None = None,
                          time_limit: float | None = None, repair: bool = False,
                          verify: int = 0) -> tuple[PlayoutStats, bool]:
    """``job``'s games ``0 .. games-1`` on processes or Dask; (totals, complete).

    Memory does not grow with ``games`` (10**12 is fine): the ranges are made one at a time as
    workers take them (:class:`~solvers.parallel.RangePayloads`), at most :data:`MAX_AHEAD` finished
    ranges wait to be folded, and the totals are sums (:class:`PlayoutStats`), never per-game lists.
    ``progress(games_done, games)`` counts games.  Ctrl-C, or ``time_limit`` seconds, stop the run:
    every finished task is kept (see :func:`playout_chunk`: one game per task for slow line-ups)
    and their totals returned.  A fault (lost backend, full disk) raises :class:`PlayoutsLost`
    carrying the totals of the games finished.  Checkpoint lines are checked (checksum, job,
    :func:`check_stats_record`); ``repair`` drops bad ones (their games are played again), ``verify``
    replays that many random finished tasks first.
    """
    from solvers.parallel import default_workers, make_executor, run_ranges

    size = playout_chunk(job, games)
    executor: Executor
    if scheduler is None and (workers or default_workers()) == 1:
        executor, close = _one_thread_executor()
    else:
        executor, close = make_executor(workers, scheduler)

    deadline = None if time_limit is None else time.monotonic() + time_limit

    def out_of_time() -> bool:
        return deadline is not None and time.monotonic() > deadline

    def games_progress(done: int, _total: int) -> None:
        if progress is not None:
            progress(min(games, done * size), games)

    try:
        report = run_ranges("solvers.playout:playout_range", job, games, _merge, PlayoutStats(list(job.bots)), executor,
                            chunk=size, progress=games_progress, checkpoint=checkpoint, encode=PlayoutStats.to_json,
                            decode=PlayoutStats.from_json, job=f"playout {job} games {games} chunk {size}",
                            stop=out_of_time, max_ahead=MAX_AHEAD,
                            check=lambda index, data: check_stats_record(job, min(size, games - index * size), data),
                            repair=repair, verify=verify)
    finally:
        close()
    if report.failure:
        raise PlayoutsLost(report.failure, report.value)
    return report.value, report.complete


#: Slack for sums of float scores (rounding), relative to their size.
_FLOAT_SLACK = 1e-9


def check_stats_record(job: PlayoutJob, games: int, data: Any) -> None:
    """Refuse (ValueError) a stored task total of ``games`` games that no series of ``job`` can give.

    Sound bounds: the bots are the job's, the games are the task's, every figure is a finite number,
    a bot or seat wins at most every game, no fewer than none, and a bot's score sum squared is at most
    games x its sum of squares (Cauchy-Schwarz: each bot plays every game, in some seat)."""
    keys = {"bots", "games", "wins", "score_sums", "score_sq_sums", "seat_wins"}
    if not isinstance(data, dict) or set(data) != keys:
        raise ValueError(f"a playout total has the keys {', '.join(sorted(keys))}")
    if data["bots"] != list(job.bots):
        raise ValueError(f"bots {data['bots']!r} are not this job's {list(job.bots)!r}")
    if type(data["games"]) is not int or data["games"] != games:
        raise ValueError(f"games {data['games']!r}: this task plays {games}")
    for name in sorted(keys - {"bots", "games"}):
        values = data[name]
        if not isinstance(values, list) or len(values) != job.players or not all(
                type(x) in (int, float) and math.isfinite(x) for x in values):
            raise ValueError(f"{name} is not {job.players} finite numbers")
    slack = _FLOAT_SLACK * max(1, games)
    for name in ("wins", "seat_wins"):
        if not all(-slack <= x <= games + slack for x in data[name]):
            raise ValueError(f"{name} {data[name]} outside 0..{games}")
    for total, squares in zip(data["score_sums"], data["score_sq_sums"], strict=True):
        if squares < 0 or total * total > games * squares * (1 + _FLOAT_SLACK) + slack:
            raise ValueError(f"score sums {total!r} and squares {squares!r} cannot come from {games} games")


class PlayoutsLost(ValueError):
    """The run stopped on a fault (Dask scheduler or worker pool lost, checkpoint not writable); ``stats``: games kept."""

    def __init__(self, failure: str, stats: PlayoutStats) -> None:
        super().__init__(failure)
        self.stats = stats


class PlayoutStopped(Exception):
    """A playout task left between two moves because the run was stopped (Ctrl-C)."""


#: Set when an in-process run stops: the game being played in the worker thread ends at its next move.
_STOP = threading.Event()


def _one_thread_executor() -> tuple[ThreadPoolExecutor, Callable[[], None]]:
    """Serial playouts in one worker thread, so that the main thread only waits and collects.

    Ctrl-C reaches the main thread while it waits: every game finished so far has been collected
    (none sits in a batch), and the game in progress stops at its next move (:data:`_STOP`).
    """
    _STOP.clear()
    executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="playout")

    def close() -> None:
        _STOP.set()
        executor.shutdown(wait=True, cancel_futures=True)
        _STOP.clear()

    return executor, close


def _merge(total: PlayoutStats, part: PlayoutStats) -> PlayoutStats:
    return total.merge(part)
