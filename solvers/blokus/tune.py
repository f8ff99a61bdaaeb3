"""Tuning mcts-rave's search constants: interleaved A/B matches and SPSA, over worker processes.

Both run matches between two ``mcts-rave`` bots at one fixed budget per move, which differ only in
their search constants (``knobs``: :data:`~solvers.blokus.mcts.tree.SEARCH_KNOBS`).  Games are
interleaved: game ``g`` gives side A seat ``g % seats`` and the seed ``game_seed(seed, g)``
(:func:`solvers.blokus.match.play_match_game`), so side A plays every opening from every seat.  SPSA
runs Duo or two-player Classic; an A/B match also four-player Classic and three-player (side A in one
seat, side B in the others: a fair share is ``1 / seats``).

* :func:`ab_match`: A against B, the score of A with its Wilson 95% interval: a change is kept only
  when the interval lies above the fair share (0.5 with two seats).
* :func:`spsa`: simultaneous-perturbation stochastic approximation (Spall) on the knobs, each mapped
  to [0, 1] over its range (:data:`KNOB_RANGES`).  Step ``k`` draws a sign per knob (``delta``), plays
  ``games_per_step`` games between ``x + c_k delta`` (side A) and ``x - c_k delta`` and moves
  ``x`` by ``a_k (2 score - 1) / (2 c_k) delta``, with Spall's ``c_k = c / (k+1)^0.101`` and
  ``a_k = a / (k+1+A)^0.602`` (``A`` = a tenth of the steps).

Games run on ``workers`` processes (1: in this process) or on a Dask cluster (``scheduler``).  A checkpoint (JSON lines: a header
with the run's settings, then one line per finished game or step) lets an interrupted run go on where
it stopped; a checkpoint of other settings is refused.  Ctrl-C ends a run with status ``interrupted``
and keeps what finished.
"""

from __future__ import annotations

import functools
import json
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solvers.playout import wilson_interval

TUNE_VARIANTS = ("duo", "two-player")  # SPSA's; an A/B match also takes the multi-player variants
AB_VARIANTS = ("duo", "two-player", "classic", "three-player")
#: Each knob's range (SPSA works on [0, 1] over it) and its default per variant (the search's constants).
KNOB_RANGES: dict[str, tuple[float, float]] = {"exploration": (0.05, 1.5), "rave_weight": (0.0, 1.5),
                                                "rave_child_max": (100.0, 10000.0), "quality_bonus": (0.0, 1.0),
                                                "endgame": (0.0, 1.0), "lgr": (0.0, 1.0),
                                                "early_stop": (0.0, 1.0), "pentobi_counts": (0.0, 1.0),
                                                "threads": (1.0, 16.0), "pentobi_stop": (0.0, 1.0),
                                                "rave_dist": (0.0, 1.0), "prior_all": (0.0, 1.0),
                                                "prune": (0.0, 1.0), "tree_log2": (12.0, 23.0),
                                                "fitted_priors": (0.0, 1.0)}
#: Knobs that take whole numbers only (the driver refuses others): SPSA's steps are continuous, so it leaves them to
#: an A/B match of their values.
WHOLE_KNOBS = ("threads", "tree_log2")
DEFAULT_KNOBS: dict[str, dict[str, float]] = {
    "duo": {"exploration": 0.5, "rave_weight": 0.7, "rave_child_max": 2000.0},
    "two-player": {"exploration": 0.4, "rave_weight": 0.7, "rave_child_max": 2000.0},
    "classic": {"exploration": 0.4, "rave_weight": 0.7, "rave_child_max": 2000.0, "quality_bonus": 1.0},
    "three-player": {"exploration": 0.4, "rave_weight": 0.7, "rave_child_max": 2000.0, "quality_bonus": 0.0},
}
COMPLETE, INTERRUPTED = "complete", "interrupted"

Knobs = dict[str, float]
#: One game to play: (variant, budget text, knobs of A, knobs of B, game index, match seed); the budget text is
#: both sides' budget, or ``A/B`` (an A/B match whose sides have different budgets).
Task = tuple[str, str, Knobs, Knobs, int, int]


#: Named sets of knobs (``--knobs pentobi``, ``--knobs pentobi,lgr=0``): ``pentobi`` is the five knobs that
#: follow Pentobi's search, those of the recent matches against Pentobi (``bench/results/blokus_vs_pentobi.md``).
KNOB_PRESETS: dict[str, Knobs] = {"pentobi": {"pentobi_counts": 1.0, "early_stop": 1.0, "lgr": 1.0,
                                              "quality_bonus": 1.0, "pentobi_stop": 1.0}}


def parse_knobs(text: str) -> Knobs:
    """``"exploration=0.6,rave_weight=0.5"`` -> a dict; ``""`` or ``"default"`` -> {}; a preset's name
    (:data:`KNOB_PRESETS`) stands for its knobs, and a later ``name=value`` overrides them; ValueError otherwise."""
    if text.strip() in ("", "default"):
        return {}
    knobs: Knobs = {}
    for part in text.split(","):
        if part.strip() in KNOB_PRESETS:
            knobs.update(KNOB_PRESETS[part.strip()])
            continue
        name, sep, value = part.partition("=")
        name = name.strip()
        if not sep or name not in KNOB_RANGES:
            raise ValueError(f"bad knob {part.strip()!r}: give name=value with a name from {', '.join(KNOB_RANGES)}, "
                             f"or a preset ({', '.join(KNOB_PRESETS)})")
        try:
            number = float(value)
        except ValueError:
            raise ValueError(f"bad knob {part.strip()!r}: {value.strip()!r} is not a number") from None
        low, high = KNOB_RANGES[name]
        if not low <= number <= high:
            raise ValueError(f"knob {name} must lie in [{low:g}, {high:g}], not {number:g}")
        knobs[name] = number
    return knobs


def knobs_text(knobs: Knobs) -> str:
    """The inverse of :func:`parse_knobs` (``default`` for none)."""
    return ",".join(f"{k}={v:.4g}" for k, v in sorted(knobs.items())) or "default"


def knob_bot(spec: str, knobs: str) -> Any:
    """The ``mcts-rave`` bot ``spec`` with the search constants ``knobs`` (``name=value,...``); ValueError for
    another bot."""
    from solvers.blokus.mcts import FastMCTSBot
    from solvers.bots import split_spec

    name, budget = split_spec(spec)
    if name != "mcts-rave":
        raise ValueError(f"--knobs sets mcts-rave's search constants; the bot is {name!r}")
    parsed = parse_knobs(knobs)
    return (FastMCTSBot(knobs=parsed) if budget is None
            else FastMCTSBot(iterations=budget.count, seconds=budget.seconds, knobs=parsed, name=spec))


def knob_side(spec: str, knobs: str) -> Any:
    """A match side playing the ``mcts-rave`` bot ``spec`` with the search constants ``knobs`` (:func:`knob_bot`),
    e.g. for an A/B match against a GTP engine (``kibitz blokus match --knobs``)."""
    from solvers.blokus.match import LocalSide

    side = LocalSide(spec, bot=knob_bot(spec, knobs))
    side.label = f"kibitz {spec} ({knobs_text(parse_knobs(knobs))})"
    return side


# -- one game, in a worker ---------------------------------------------------------------------------------------------

MAX_CACHED_BOTS = 8
_BOTS: dict[tuple[str, str], Any] = {}  # per process: (budget, knobs@seat) -> bot (its arrays are reused between games)


def _bot(budget: str, knobs: Knobs, seat: int = 0) -> Any:
    """The bot of these knobs (one per ``seat`` of side B, so that no bot searches for two seats)."""
    from solvers.blokus.mcts import FastMCTSBot
    from solvers.bots import parse_budget

    key = (budget, f"{knobs_text(knobs)}@{seat}")
    if key not in _BOTS and len(_BOTS) >= MAX_CACHED_BOTS:
        _BOTS.clear()  # SPSA makes new knobs every step: keep the memory of a few bots only
    if key not in _BOTS:
        b = parse_budget(budget)
        _BOTS[key] = FastMCTSBot(iterations=b.count, seconds=b.seconds, knobs=knobs, name=f"mcts-rave:{budget}")
    return _BOTS[key]


def play_task(task: Task) -> dict[str, Any]:
    """Play one game of a task; side A's result, margin and CPU per move (both sides), as a checkpoint line."""
    from solvers.blokus.match import LocalSide, SeatSides, play_match_game

    variant, budget, knobs_a, knobs_b, index, seed = task
    budget_a, _, budget_b = budget.partition("/")
    budget_b = budget_b or budget_a
    a = LocalSide(f"mcts-rave:{budget_a}", bot=_bot(budget_a, knobs_a))
    b_seats = [LocalSide(f"mcts-rave:{budget_b}", bot=_bot(budget_b, knobs_b, seat))
               for seat in range(SEATS[variant] - 1)]
    b = SeatSides(b_seats) if len(b_seats) > 1 else b_seats[0]
    g = play_match_game(a, b, variant, index, seed)
    margin = g.seat_scores[g.seat_a] - max(s for i, s in enumerate(g.seat_scores) if i != g.seat_a)
    return {"game": index, "seat_a": g.seat_a, "result": g.result, "margin": margin,
            "cpu_a": sum(g.cpu_a) / max(len(g.cpu_a), 1), "cpu_b": sum(g.cpu_b) / max(len(g.cpu_b), 1)}


def play_games(tasks: list[Task], workers: int, scheduler: str | None,
               on_game: Callable[[dict[str, Any]], None]) -> str:
    """Play each task's game on ``workers`` local processes (1: here, in order) or on the Dask cluster at
    ``scheduler``; ``on_game(game)`` as each finishes (any order).  :data:`COMPLETE`, or :data:`INTERRUPTED` by
    Ctrl-C (the games finished before it were passed on); a lost backend raises
    :class:`~solvers.parallel.BackendLost` after the same."""
    from solvers.parallel import BackendLost, make_executor, run_tasks

    if not tasks:
        return COMPLETE
    executor, close = make_executor(min(workers, len(tasks)), scheduler)
    try:
        report = run_tasks(play_task, tasks, lambda value, _game: value, None, executor,
                           on_result=lambda _index, game: on_game(game))
    finally:
        close()
    if report.failure:
        raise BackendLost(report.failure)
    return INTERRUPTED if report.interrupted else COMPLETE


# -- checkpoints -------------------------------------------------------------------------------------------------------

def read_checkpoint(path: str | None, header: dict[str, Any]) -> list[dict[str, Any]]:
    """The lines after ``header`` in checkpoint ``path`` (none for a new file, which gets the header); ValueError when
    the file belongs to a run with other settings or a line is not JSON."""
    if path is None:
        return []
    file = Path(path)
    if not file.exists() or file.stat().st_size == 0:
        file.write_text(json.dumps(header) + "\n")
        return []
    lines = file.read_text().splitlines()
    try:
        rows = [json.loads(line) for line in lines if line.strip()]
    except json.JSONDecodeError as error:
        raise ValueError(f"checkpoint {path}: a line is not JSON ({error})") from None
    if not rows or rows[0] != header:
        raise ValueError(f"checkpoint {path} belongs to a run with other settings (its first line: {lines[0][:200]})")
    return rows[1:]


def append_checkpoint(path: str | None, row: dict[str, Any]) -> None:
    if path is not None:
        with open(path, "a") as f:
            f.write(json.dumps(row) + "\n")


# -- A/B ---------------------------------------------------------------------------------------------------------------

@dataclass
class ABResult:
    """The games of an A/B match (side A's view) and their summary."""

    variant: str
    budget: str
    knobs_a: Knobs
    knobs_b: Knobs
    games_requested: int
    seed: int
    games: list[dict[str, Any]] = field(default_factory=list)
    status: str = COMPLETE

    def summary(self) -> dict[str, Any]:
        n = len(self.games)
        score = sum(g["result"] for g in self.games)
        low, high = wilson_interval(score, n)
        return {"kind": "ab", "status": self.status, "variant": self.variant, "budget": self.budget,
                "a": knobs_text(self.knobs_a), "b": knobs_text(self.knobs_b), "seed": self.seed, "games": n,
                "games_requested": self.games_requested,
                "wins": sum(1 for g in self.games if g["result"] == 1.0),
                "ties": sum(1 for g in self.games if 0.0 < g["result"] < 1.0),
                "losses": sum(1 for g in self.games if g["result"] == 0.0),
                "score": score / n if n else None, "ci95": [round(low, 4), round(high, 4)],
                "fair_share": 1.0 / SEATS[self.variant],
                "mean_margin_a": _mean([g["margin"] for g in self.games]),
                "cpu_per_move_a": _mean([g["cpu_a"] for g in self.games]),
                "cpu_per_move_b": _mean([g["cpu_b"] for g in self.games]),
                "knobs_in_effect_a": knobs_in_effect(self.variant, self.knobs_a),
                "knobs_in_effect_b": knobs_in_effect(self.variant, self.knobs_b)}


@functools.lru_cache(maxsize=16)
def _knobs_in_effect(variant: str, knobs: tuple[tuple[str, float], ...]) -> str:
    from solvers.blokus.mcts import FastMCTSBot

    return knobs_text(FastMCTSBot(knobs=dict(knobs)).settings(variant)["knobs"])


def knobs_in_effect(variant: str, knobs: Knobs) -> str:
    """Every knob a side with ``knobs`` searches ``variant`` with, the defaults included (``name=value,...``)."""
    return _knobs_in_effect(variant, tuple(sorted(knobs.items())))


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


SEATS = {"duo": 2, "two-player": 2, "classic": 4, "three-player": 3}


def _check(variant: str, games: int, variants: tuple[str, ...] = TUNE_VARIANTS) -> None:
    if variant not in variants:
        raise ValueError(f"variant must be one of {', '.join(variants)}, not {variant!r}")
    if games < 1:
        raise ValueError("give at least one game")


def ab_match(variant: str, budget: str, knobs_a: Knobs, knobs_b: Knobs, games: int, seed: int = 0, workers: int = 1,
             checkpoint: str | None = None,
             on_game: Callable[[dict[str, Any], ABResult], None] | None = None,
             scheduler: str | None = None) -> ABResult:
    """``games`` interleaved games of A (``knobs_a``) against B at ``budget`` per move, on ``workers`` processes or
    the Dask cluster at ``scheduler``; games already in ``checkpoint`` are not played again."""
    _check(variant, games, AB_VARIANTS)
    header = {"kind": "ab", "variant": variant, "budget": budget, "a": knobs_text(knobs_a), "b": knobs_text(knobs_b),
              "seed": seed}
    if SEATS[variant] > 2:
        header["b_per_seat"] = True  # side B: one bot per seat (before, one bot played them all)
    out = ABResult(variant, budget, knobs_a, knobs_b, games, seed)
    out.games = [g for g in read_checkpoint(checkpoint, header) if g["game"] < games]
    done = {g["game"] for g in out.games}
    tasks: list[Task] = [(variant, budget, knobs_a, knobs_b, i, seed) for i in range(games) if i not in done]

    def finished(game: dict[str, Any]) -> None:
        out.games.append(game)
        append_checkpoint(checkpoint, game)
        if on_game is not None:
            on_game(game, out)

    out.status = play_games(tasks, workers, scheduler, finished)
    out.games.sort(key=lambda g: g["game"])
    return out


# -- SPSA --------------------------------------------------------------------------------------------------------------

def to_unit(knobs: Knobs) -> dict[str, float]:
    return {k: (v - KNOB_RANGES[k][0]) / (KNOB_RANGES[k][1] - KNOB_RANGES[k][0]) for k, v in knobs.items()}


def from_unit(x: dict[str, float]) -> Knobs:
    return {k: KNOB_RANGES[k][0] + min(1.0, max(0.0, v)) * (KNOB_RANGES[k][1] - KNOB_RANGES[k][0]) for k, v in x.items()}


def spsa_refusal(knobs: Knobs) -> str | None:
    """Why SPSA cannot tune ``knobs`` (whole-number knobs among them), or None."""
    whole = [name for name in knobs if name in WHOLE_KNOBS]
    if not whole:
        return None
    verb = "take" if len(whole) > 1 else "takes"
    return (f"SPSA tunes continuous knobs; {' and '.join(whole)} {verb} whole numbers: compare their values with "
            "`kibitz blokus tune ab`")


def spsa_gains(step: int, steps: int, a: float, c: float) -> tuple[float, float]:
    """Spall's gains (a_k, c_k) at ``step`` (from 0) of ``steps``."""
    return a / (step + 1 + 0.1 * steps) ** 0.602, c / (step + 1) ** 0.101


def spsa_update(x: dict[str, float], delta: dict[str, int], score: float, a_k: float, c_k: float) -> dict[str, float]:
    """One SPSA move on the unit cube: ``x + a_k (2 score - 1) / (2 c_k) delta``, clipped to [0, 1]."""
    g = (2.0 * score - 1.0) / (2.0 * c_k)
    return {k: min(1.0, max(0.0, v + a_k * g * delta[k])) for k, v in x.items()}


@dataclass
class SpsaResult:
    """The steps of an SPSA run and where it ended."""

    variant: str
    budget: str
    start: Knobs
    steps_requested: int
    games_per_step: int
    seed: int
    steps: list[dict[str, Any]] = field(default_factory=list)
    status: str = COMPLETE

    @property
    def knobs(self) -> Knobs:
        return self.steps[-1]["after"] if self.steps else dict(self.start)

    def summary(self) -> dict[str, Any]:
        return {"kind": "spsa", "status": self.status, "variant": self.variant, "budget": self.budget,
                "start": knobs_text(self.start), "steps": len(self.steps), "steps_requested": self.steps_requested,
                "games_per_step": self.games_per_step, "seed": self.seed, "knobs": knobs_text(self.knobs),
                "knob_values": self.knobs,
                "trace": [{"step": s["step"], "score_plus": s["score"], "after": knobs_text(s["after"])}
                          for s in self.steps]}


def spsa(variant: str, budget: str, start: Knobs, steps: int, games_per_step: int = 2, seed: int = 0,
         workers: int = 1, a: float = 0.05, c: float = 0.1, checkpoint: str | None = None,
         on_step: Callable[[dict[str, Any], SpsaResult], None] | None = None,
         scheduler: str | None = None) -> SpsaResult:
    """``steps`` SPSA steps from ``start`` (all knobs tuned together); each step's games run in parallel (on
    ``workers`` processes or the Dask cluster at ``scheduler``)."""
    _check(variant, games_per_step)
    if not start:
        raise ValueError("give the knobs to tune with their starting values")
    problem = spsa_refusal(start)
    if problem:
        raise ValueError(problem)
    if games_per_step % 2:
        raise ValueError("games per step must be even (both sides take both seats)")
    header = {"kind": "spsa", "variant": variant, "budget": budget, "start": knobs_text(start), "steps": steps,
              "games_per_step": games_per_step, "seed": seed, "a": a, "c": c}
    out = SpsaResult(variant, budget, dict(start), steps, games_per_step, seed)
    out.steps = read_checkpoint(checkpoint, header)[:steps]
    x = to_unit(out.knobs)
    try:
        for k in range(len(out.steps), steps):
            row = _spsa_step(variant, budget, x, k, steps, games_per_step, seed, workers, scheduler, a, c)
            x = to_unit(row["after"])
            out.steps.append(row)
            append_checkpoint(checkpoint, row)
            if on_step is not None:
                on_step(row, out)
    except KeyboardInterrupt:
        out.status = INTERRUPTED
    return out


def _spsa_step(variant: str, budget: str, x: dict[str, float], k: int, steps: int, games: int, seed: int,
               workers: int, scheduler: str | None, a: float, c: float) -> dict[str, Any]:
    """Play step ``k``'s games (x + c_k delta as side A against x - c_k delta) and return its checkpoint line
    (KeyboardInterrupt if Ctrl-C cut the step short: a step counts whole or not at all)."""
    rng = random.Random(seed * 1_000_003 + k)
    delta = {name: rng.choice((-1, 1)) for name in sorted(x)}
    a_k, c_k = spsa_gains(k, steps, a, c)
    plus = from_unit({n: v + c_k * delta[n] for n, v in x.items()})
    minus = from_unit({n: v - c_k * delta[n] for n, v in x.items()})
    tasks: list[Task] = [(variant, budget, plus, minus, k * games + i, seed) for i in range(games)]
    results: list[dict[str, Any]] = []
    if play_games(tasks, workers, scheduler, results.append) == INTERRUPTED:
        raise KeyboardInterrupt
    results.sort(key=lambda g: g["game"])
    score = sum(g["result"] for g in results) / len(results)
    after = from_unit(spsa_update(x, delta, score, a_k, c_k))
    return {"step": k, "before": from_unit(x), "delta": delta, "plus": plus, "minus": minus, "score": score,
            "after": after, "games": results}


def wilson_text(score: float, games: int) -> str:
    """``0.612 [0.47, 0.74]``: a score share with its Wilson 95% interval."""
    low, high = wilson_interval(score * games, games)
    return f"{score:.3f} [{low:.2f}, {high:.2f}]" if games and not math.isnan(score) else "-"


__all__ = ["AB_VARIANTS", "DEFAULT_KNOBS", "KNOB_RANGES", "TUNE_VARIANTS", "WHOLE_KNOBS", "ABResult", "SpsaResult", "ab_match", "from_unit",
           "knobs_text", "KNOB_PRESETS", "parse_knobs", "play_task", "play_games", "spsa", "spsa_gains", "spsa_refusal", "spsa_update", "to_unit",
           "wilson_text"]
