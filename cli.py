"""kibitz command line: a thin click layer over :mod:`puzzles` and :mod:`solvers`.

Every command prints a clear one-line error and exits non-zero on bad input;
``--json`` gives machine-readable output.  Each game has its own group; the
sections below are kept apart so a game's commands can be read on their own.

See CONTRIBUTING.md for how the sections are shared between engineers.
"""

from __future__ import annotations

import functools
import json
import sys
import time
from collections.abc import Callable
from typing import Any

import click

# --------------------------------------------------------------------------
# shared helpers
# --------------------------------------------------------------------------


def friendly_errors(func: Callable[..., Any]) -> Callable[..., Any]:
    """Turn expected input errors into a one-line ``Error: ...`` and exit status 1."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except (ValueError, KeyError, FileNotFoundError, IsADirectoryError) as error:
            message = error.args[0] if isinstance(error, KeyError) and error.args else error
            raise click.ClickException(str(message).splitlines()[0] if str(message) else type(error).__name__)

    return wrapper


def emit_json(data: Any) -> None:
    """Print ``data`` as indented JSON."""
    click.echo(json.dumps(data, indent=2, sort_keys=False))


class ProgressReporter:
    """A one-line progress display on stderr (bar, rate, ETA); silent when stderr is not a terminal.

    ``total`` may be unknown (None) or set later with :meth:`set_total`; ``note`` adds a short status.
    """

    def __init__(self, total: int | None, label: str, enabled: bool = True) -> None:
        self.enabled = enabled and sys.stderr.isatty()
        self.total = total
        self.label = label
        self.done = 0
        self.note = ""
        self.start = time.monotonic()
        self.last_draw = 0.0

    def set_total(self, total: int) -> None:
        self.total = total
        self.draw()

    def advance(self, steps: int = 1, note: str = "") -> None:
        self.done += steps
        self.note = note or self.note
        self.draw()

    def draw(self, force: bool = False) -> None:
        now = time.monotonic()
        if not self.enabled or (not force and now - self.last_draw < 0.1):
            return
        self.last_draw = now
        elapsed = max(now - self.start, 1e-9)
        rate = self.done / elapsed
        if self.total:
            filled = int(30 * min(self.done, self.total) / self.total)
            eta = (self.total - self.done) / rate if rate > 0 else 0.0
            text = f"{self.label} [{'#' * filled}{'.' * (30 - filled)}] {self.done}/{self.total} {rate:.1f}/s ETA {eta:.0f}s"
        else:
            text = f"{self.label}: {self.done} done, {rate:.1f}/s, {elapsed:.0f}s"
        sys.stderr.write("\r" + text + (f"  {self.note}" if self.note else "") + "\x1b[K")
        sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            self.draw(force=True)
            sys.stderr.write("\n")
            self.enabled = False


def parallel_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """--workers and --scheduler, for commands that run many independent seeded tasks."""
    func = click.option("--scheduler", default=None, help="Dask scheduler address (tcp://HOST:PORT) to run on.")(func)
    return click.option("--workers", type=click.IntRange(min=1), default=None,
                        help="Local worker processes (default: all cores for big jobs, 1 for small ones).")(func)


def run_in_ranges(reference: str, arguments: Any, total: int, reduce: Callable[[Any, Any], Any], initial: Any,
                  workers: int | None, scheduler: str | None, label: str, show_progress: bool,
                  big_job: int = 2000) -> tuple[Any, bool]:
    """Run ``reference(arguments, start, stop)`` over ``range(total)`` serially, on processes or on Dask.

    Results are reduced in range order, so every backend gives the same answer.  Returns
    (value, interrupted).
    """
    from solvers.parallel import make_executor, run_ranges

    if workers is None and scheduler is None:
        workers = None if total >= big_job else 1
    executor, close = make_executor(workers, scheduler)
    progress = ProgressReporter(None, f"{label} (chunks)", enabled=show_progress)

    def advance(done: int, parts: int) -> None:
        progress.total = parts
        progress.advance(done - progress.done)

    try:
        report = run_ranges(reference, arguments, total, reduce, initial, executor, progress=advance)
    finally:
        close()
        progress.close()
    return report.value, not report.complete


def merge_into(total: Any, part: Any) -> Any:
    """Reduce step for statistics objects with an in-place ``merge``."""
    if total is None:
        return part
    total.merge(part)
    return total


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="kibitz")
def main() -> None:
    """kibitz: solvers and rule engines for Blokus, Project L, My Shelfie and Rainbow Blackjack."""


# --------------------------------------------------------------------------
# tiling and exact cover (foundation)
# --------------------------------------------------------------------------


@main.command()
@click.argument("region")
@click.option("--pieces", "pieces_spec", default="pentominoes", show_default=True,
              help="Piece set(s) or names (pentominoes, tetrominoes, blokus, 2*tetrominoes, I,L,X, ...) or a file.")
@click.option("--count", "do_count", is_flag=True, help="Count all tilings (raw and up to symmetry).")
@click.option("--unique", is_flag=True, help="Up to the region's symmetries (with --count or --all).")
@click.option("--all", "show_all", is_flag=True, help="Print every tiling.")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="With --all: stop after this many.")
@click.option("--at-most", is_flag=True, help="Each piece at most once (default: each exactly once).")
@click.option("--fixed", is_flag=True, help="Fixed orientations (no rotation or reflection).")
@click.option("--backend", type=click.Choice(["dlx", "sat", "cpsat"]), default="dlx", show_default=True)
@click.option("--time-limit", type=click.FloatRange(min=0), default=None, help="Seconds before giving up.")
@click.option("--split-depth", type=click.IntRange(min=0), default=0, show_default=True,
              help="With --count: split the search this many levels deeper into independent subproblems.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="With --count: local worker processes (default: all cores for 50+ subproblems, else 1).")
@click.option("--scheduler", default=None, help="With --count: a Dask scheduler address, tcp://HOST:PORT.")
@click.option("--resume", "checkpoint", type=click.Path(dir_okay=False), default=None,
              help="With --count: checkpoint file; finished subproblems in it are skipped, new ones appended.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@friendly_errors
def tile(region, pieces_spec, do_count, unique, show_all, limit, at_most, fixed, backend, time_limit,
         split_depth, workers, scheduler, checkpoint, as_json):
    """Tile REGION (WxH, ASCII art with '/' between rows, or a file) with polyominoes."""
    from solvers.exact_cover import SearchLimits
    from solvers.tiling import TilingProblem, load_pieces, load_region

    problem = TilingProblem.from_spec(load_region(region), load_pieces(pieces_spec), "at_most" if at_most else "exact", not fixed)
    if (do_count or show_all) and backend != "dlx":
        raise ValueError("counting and listing need the dlx backend (SAT/CP-SAT find one tiling)")
    if do_count:
        counts = _count_tilings(problem, time_limit, split_depth, workers, scheduler, checkpoint, not as_json)
        data = {"count": counts.unique if unique else counts.raw, "count_raw": counts.raw,
                "count_unique": counts.unique, "complete": counts.complete, "nodes": counts.nodes,
                "seconds": round(counts.seconds, 3)}
        if as_json:
            emit_json(data)
        else:
            status = "" if counts.complete else f" (incomplete: {counts.stopped_by or 'stopped'})"
            click.echo(f"{counts.raw} tilings, {counts.unique} up to symmetry{status}")
        if counts.stopped_by == "interrupt":
            sys.exit(130)
        return
    if show_all:
        tilings = []
        for number, tiling in enumerate(problem.tilings(SearchLimits(time_limit=time_limit), unique=unique), 1):
            if as_json:
                tilings.append(tiling.to_json())
            else:
                click.echo(f"tiling {number}:\n{tiling.to_text()}\n")
            if limit and number >= limit:
                break
        if as_json:
            emit_json({"count": len(tilings), "tilings": tilings})
        return
    tiling = problem.find(backend, time_limit=time_limit)
    if as_json:
        emit_json({"found": tiling is not None, "tiling": tiling.to_json() if tiling else None})
    elif tiling is None:
        click.echo("no tiling exists")
    else:
        click.echo(tiling.to_text())


def _count_tilings(problem, time_limit, split_depth, workers, scheduler, checkpoint, show_progress):
    """Count in this process, or on local processes / a Dask cluster when asked (same totals)."""
    from pathlib import Path

    from solvers.exact_cover import SearchLimits
    from solvers.parallel import make_executor

    progress = ProgressReporter(None, "subproblems", enabled=show_progress)
    report = lambda done, total: (setattr(progress, "total", total), progress.advance(done - progress.done))
    parallel = scheduler or checkpoint or (workers or 1) > 1 or (workers is None and len(problem.split(split_depth)) >= 50)
    try:
        if not parallel:
            return problem.counts(SearchLimits(time_limit=time_limit), on_part=report, split_depth=split_depth)
        executor, close = make_executor(workers, scheduler)
        try:
            return problem.counts(on_part=report, split_depth=split_depth, executor=executor,
                                  checkpoint=Path(checkpoint) if checkpoint else None)
        finally:
            close()
    finally:
        progress.close()


@main.command()
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--count", "do_count", is_flag=True, help="Count all solutions.")
@click.option("--all", "show_all", is_flag=True, help="Print every solution.")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="With --all: stop after this many.")
@click.option("--time-limit", type=click.FloatRange(min=0), default=None)
@click.option("--json", "as_json", is_flag=True)
@friendly_errors
def cover(path, do_count, show_all, limit, time_limit, as_json):
    """Solve an exact-cover problem in Knuth's DLX/XCC text format."""
    from pathlib import Path

    from solvers.exact_cover import SearchLimits, parse_knuth

    problem = parse_knuth(Path(path).read_text())
    limits = SearchLimits(time_limit=time_limit)
    if do_count:
        progress = ProgressReporter(None, "nodes (millions)", enabled=not as_json)
        try:
            result = problem.count(
                time_limit=time_limit,
                progress=lambda nodes, count: progress.advance(nodes // 1_000_000 - progress.done, f"{count} solutions"),
            )
        finally:
            progress.close()
        if as_json:
            emit_json({"count": result.count, "complete": result.complete, "nodes": result.nodes,
                       "seconds": round(result.seconds, 3)})
        else:
            click.echo(f"{result.count} solutions" + ("" if result.complete else f" (incomplete: {result.stopped_by})"))
        return
    solutions = []
    for solution in problem.compile().solutions(limits):
        solutions.append(problem.format_solution(solution))
        if not show_all or (limit and len(solutions) >= limit):
            break
    if as_json:
        emit_json({"count": len(solutions), "solutions": solutions})
    elif not solutions:
        click.echo("no solution")
    else:
        for number, options in enumerate(solutions, 1):
            click.echo(f"solution {number}:" + "".join(f"\n  {line}" for line in options))

# --------------------------------------------------------------------------
# blokus
# --------------------------------------------------------------------------
BLOKUS_VARIANTS = ["classic", "two-player", "teams", "three-player", "duo"]


@main.group()
def blokus() -> None:
    """Blokus: play, bot match-ups, Pentobi SGF records, move lists, perft."""


def _blokus_bots(spec: str | None, seats: int, iterations: int, seconds: float | None) -> tuple[list, list[str]]:
    """One bot (or ``None`` for a human) per seat from ``mcts,random,...`` (one name = every seat)."""
    from solvers.blokus.bots import make_bot

    if spec is None:
        spec = ",".join(["mcts", "greedy", "random", "greedy"][:seats])
    names = [n.strip().lower() for n in spec.split(",") if n.strip()]
    if len(names) == 1:
        names = names * seats
    if len(names) != seats:
        raise click.ClickException(f"--bots needs 1 or {seats} names for this variant, got {len(names)}")
    budget = (None, seconds) if seconds is not None else (iterations, None)
    return [None if n == "human" else make_bot(n, *budget) for n in names], names


def _blokus_human_move(state) -> Any:
    """Ask the human to move until a legal move (or quit) is typed."""
    from puzzles.game import IllegalActionError

    color = state.color_names[state.to_move]
    while True:
        text = click.prompt(f"{color} (cells like a20,b20 | moves | pass | quit)", prompt_suffix="> ").strip()
        if text.lower() == "quit":
            raise KeyboardInterrupt
        if text.lower() == "moves":
            click.echo(" ".join(state.action_to_string(m) for m in state.legal_actions()))
            continue
        try:
            return state.string_to_action(text)
        except IllegalActionError as error:
            click.echo(f"refused: {error}")


@blokus.command("play")
@click.option("--variant", type=click.Choice(BLOKUS_VARIANTS), default="classic", show_default=True)
@click.option("--bots", "bots_spec", default=None,
              help="One per seat (or one for all): mcts, random, greedy, human. [default: mcts,greedy,random,...]")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--iterations", type=click.IntRange(min=1), default=1000, show_default=True, help="MCTS iterations per move.")
@click.option("--seconds", type=click.FloatRange(min=0), default=None, help="MCTS time per move (instead of iterations).")
@click.option("--free-corners", is_flag=True, help="First pieces may take any free corner.")
@click.option("--sgf", "sgf_out", type=click.Path(dir_okay=False), default=None, help="Save the game (.blksgf or .json).")
@click.option("--json", "as_json", is_flag=True, help="Print the record and scores as JSON.")
@friendly_errors
def blokus_play(variant, bots_spec, seed, iterations, seconds, free_corners, sgf_out, as_json):
    """Play one game between bots and/or humans; humans see the board after each move."""
    import random as _random

    from puzzles.blokus.engine import BlokusState
    from puzzles.blokus.records import save, to_json

    state = BlokusState(variant, free_corners)
    bots, names = _blokus_bots(bots_spec, state.num_players, iterations, seconds)
    rng = _random.Random(seed)
    humans = any(b is None for b in bots)
    if humans:
        click.echo(state.to_text())
    interrupted = False
    try:
        while not state.is_terminal():
            seat, color = state.current_player(), state.color_names[state.to_move]
            bot = bots[seat]
            if bot is None and state.legal_actions()[0].is_pass:
                move = state.legal_actions()[0]
            else:
                move = _blokus_human_move(state) if bot is None else bot.choose(state, rng)
            state.apply(move)
            if not as_json:
                click.echo(f"{len(state.history):>3}. {color} ({names[seat]}): {state.action_to_string(move)}")
                if humans:
                    click.echo(state.to_text())
    except (KeyboardInterrupt, click.Abort):
        interrupted = True
    if sgf_out:
        save(state, sgf_out)
    if as_json:
        emit_json({**to_json(state), "bots": names, "seat_scores": dict(zip(state.variant.seat_names, state.scores())),
                   "finished": state.is_terminal()})
        return
    if not humans:
        click.echo(state.to_text())
    click.echo(("game stopped" if interrupted else "game over") + ": " +
               ", ".join(f"{c} {s:+d}" for c, s in zip(state.color_names, state.color_scores())))
    if state.variant.name != "classic":
        click.echo("seats: " + ", ".join(f"{n} {s:+g}" for n, s in zip(state.variant.seat_names, state.scores())))
    if sgf_out:
        click.echo(f"saved {sgf_out}")


@blokus.command("playout")
@click.option("--games", type=click.IntRange(min=1), default=100, show_default=True)
@click.option("--bots", "bots_spec", default="random", show_default=True, help="One per seat (or one for all): mcts, random, greedy.")
@click.option("--variant", type=click.Choice(BLOKUS_VARIANTS), default="classic", show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--iterations", type=click.IntRange(min=1), default=1000, show_default=True, help="MCTS iterations per move.")
@click.option("--free-corners", is_flag=True)
@parallel_options
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@friendly_errors
def blokus_playout(games, bots_spec, variant, seed, iterations, free_corners, workers, scheduler, as_json):
    """Play N seeded games; win rates with 95% intervals and mean scores per seat (Ctrl-C: partial)."""
    from puzzles.blokus.engine import BlokusState
    from solvers.playout import PlayoutStats

    probe = BlokusState(variant, free_corners)
    bots, names = _blokus_bots(bots_spec, probe.num_players, iterations, None)
    if any(b is None for b in bots):
        raise click.ClickException("playout runs bots only (no human seats)")
    big_job = 2000 if set(names) <= {"random", "greedy"} else 20
    stats, interrupted = run_in_ranges(
        "solvers.blokus.bots:playout_range", (variant, free_corners, tuple(names), iterations, seed), games,
        merge_into, None, workers, scheduler, "playing", not as_json, big_job=big_job,
    )
    stats = stats or PlayoutStats(probe.num_players)
    summary = stats.summary(list(probe.variant.seat_names))
    for seat, name in zip(summary["seats"].values(), names):
        seat["bot"] = name
    summary.update({"variant": variant, "seed": seed, "interrupted": interrupted})
    if as_json:
        emit_json(summary)
        return
    click.echo(f"{stats.games} games{' (interrupted)' if interrupted else ''}, variant {variant}, seed {seed}")
    click.echo(f"{'seat':<14}{'bot':<8}{'win rate':>9}  {'95% CI':<16}{'mean score':>10}")
    for seat_name, seat in summary["seats"].items():
        low, high = seat["win_ci95"]
        click.echo(f"{seat_name:<14}{seat['bot']:<8}{seat['win_rate']:>9.3f}  [{low:.3f}, {high:.3f}]  {seat['mean_score']:>10.2f}")


@blokus.command("replay")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@friendly_errors
def blokus_replay(path, as_json):
    """Replay a record (.blksgf or .json), checking every move; print the final scores."""
    from puzzles.blokus.records import load

    state = load(path)
    placed = sum(1 for _, m in state.moves_played if not m.is_pass)
    scores = dict(zip(state.color_names, state.color_scores()))
    if as_json:
        emit_json({"moves": placed, "scores": scores, "variant": state.variant.name, "finished": state.is_terminal(),
                   "seat_scores": dict(zip(state.variant.seat_names, state.scores()))})
        return
    click.echo(state.to_text())
    click.echo(f"{placed} moves, variant {state.variant.name}{'' if state.is_terminal() else ' (game not finished)'}")
    click.echo("scores: " + ", ".join(f"{c} {s:+d}" for c, s in scores.items()))


@blokus.command("moves")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--after", type=click.IntRange(min=0), default=None, help="After this many moves (default: all).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@friendly_errors
def blokus_moves(path, after, as_json):
    """List the legal moves (one per line) of the color to move after N moves of a record."""
    from puzzles.blokus.records import load

    state = load(path, max_moves=after)
    moves = [state.action_to_string(m) for m in state.legal_actions()]
    color = state.color_names[state.to_move] if state.to_move >= 0 else None
    if as_json:
        emit_json({"to_move": color, "count": len(moves), "moves": moves})
        return
    if color is None:
        raise click.ClickException("the game is over: no color to move")
    click.echo("\n".join(moves))


@blokus.command("perft")
@click.argument("depth", type=click.IntRange(min=0, max=8))
@click.option("--variant", type=click.Choice(BLOKUS_VARIANTS), default="classic", show_default=True)
@click.option("--free-corners", is_flag=True)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@friendly_errors
def blokus_perft(depth, variant, free_corners, as_json):
    """Count the move sequences of DEPTH placements from the empty board (passes are not plies)."""
    import time as _time

    from puzzles.blokus.engine import BlokusState, perft

    start = _time.perf_counter()
    count = perft(BlokusState(variant, free_corners), depth)
    seconds = _time.perf_counter() - start
    if as_json:
        emit_json({"depth": depth, "variant": variant, "free_corners": free_corners, "count": count, "seconds": round(seconds, 3)})
    else:
        click.echo(f"perft({depth}) = {count:,}  ({seconds:.2f} s)")


# --------------------------------------------------------------------------
# towers (Rainbow Blackjack)
# --------------------------------------------------------------------------


@main.group()
def towers() -> None:
    """Rainbow Blackjack (the tower game): play, exact solver, 21-sum planner, bot match-ups."""


TOWERS_PLAYERS = ["human", "random", "greedy", "pimc", "ismcts"]


def _towers_load_state(path: str):
    from puzzles.towers import TowersState

    with open(path, encoding="utf-8") as handle:
        try:
            data = json.load(handle)
        except json.JSONDecodeError as error:
            raise ValueError(f"{path}: not valid JSON ({error.msg}, line {error.lineno})") from None
    return TowersState.from_json(data)


def _towers_human_move(state) -> Any:
    """Show the seat's observation, ask for an action until a legal one is typed."""
    from puzzles.game import IllegalActionError
    from puzzles.towers.render import render_observation_text

    seat = state.current_player()
    click.echo("")
    click.echo(render_observation_text(state.observation(seat)))
    legal = ", ".join(state.action_to_string(a) for a in state.legal_actions())
    while True:
        try:
            text = click.prompt(f"P{seat + 1} [{legal}]", prompt_suffix="> ")
        except click.Abort:
            raise click.ClickException("input ended; game abandoned") from None
        if text.strip() in ("?", "help"):
            click.echo("lines: row1..row3 / col1..col3; announce: colors | numbers;"
                       " place: R6>O (stone > tower), replace a top joker: R6xO; pass when stuck")
            continue
        try:
            return state.string_to_action(text)
        except (IllegalActionError, ValueError) as error:
            click.echo(f"  illegal: {error}")


@towers.command("play")
@click.option("--p1", type=click.Choice(TOWERS_PLAYERS), default="human", show_default=True)
@click.option("--p2", type=click.Choice(TOWERS_PLAYERS), default="pimc", show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the game log and result as JSON.")
@friendly_errors
def towers_play(p1, p2, seed, as_json):
    """Play a game in the terminal (humans see only their own grid and hand)."""
    import random as _random

    from puzzles.game import CHANCE
    from puzzles.towers import TowersState
    from solvers.towers.bots import make_bot

    rng = _random.Random(seed)
    seats = [p1, p2]
    bots = [None if s == "human" else make_bot(s) for s in seats]
    state = TowersState()
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        if bots[player] is None:
            action = _towers_human_move(state)
        else:
            action = bots[player].choose(state, rng)
        if not as_json and (bots[player] is not None) and "human" in seats:
            click.echo(f"P{player + 1} ({seats[player]}): {state.action_to_string(action)}")
        state.apply(action)
    owned = state.towers_owned()
    result = "draw" if state.winner < 0 else f"P{state.winner + 1} wins" + (" (instant: three towers at 21)" if state.instant else "")
    if as_json:
        emit_json({"p1": p1, "p2": p2, "seed": seed, "result": result, "winner": state.winner,
                   "instant": state.instant, "towers_owned": owned, "log": state.log})
    else:
        click.echo("")
        click.echo(str(state).split("  P1 grid")[0])
        click.echo(f"result: {result}  (towers P1 {owned[0]} – P2 {owned[1]})")


@towers.command("solve")
@click.argument("state_path", type=click.Path(dir_okay=False))
@click.option("--horizon", type=click.Choice(["round", "game"]), default="game", show_default=True,
              help="Search to the end of this round, or of the game (grid 1: to the end of round 3, the next chance node).")
@click.option("--json", "as_json", is_flag=True)
@friendly_errors
def towers_solve(state_path, horizon, as_json):
    """Best move, value and principal variation of a full-information STATE.json."""
    from solvers.towers.solver import Solver

    state = _towers_load_state(state_path)
    result = Solver(22).solve(state, horizon=horizon)
    if as_json:
        emit_json(result.to_json())
        return
    click.echo(str(state))
    click.echo(f"value: {result.outcome}" + (" by instant win" if result.instant else f", tower margin {result.margin:+d}")
               + f" (to the end of round {result.horizon_round + 1}{', end of game' if result.exact_game else ''})")
    click.echo(f"best move: {result.best_action_str}")
    click.echo("move values (P1 side): " + ", ".join(f"{k} {v:+d}" for k, v in result.move_values.items()))
    click.echo(f"principal variation: {' '.join(result.pv)}")
    click.echo(f"{result.nodes} nodes in {result.seconds:.3f} s")


@towers.command("plan")
@click.option("--stones", "stones_spec", required=True, help='Stones to place, e.g. "R6,R5,B4,J".')
@click.option("--towers", "towers_path", type=click.Path(dir_okay=False), default=None,
              help="STATE.json: plan on its towers; with both hands known, also the towers secure this round.")
@click.option("--player", type=click.IntRange(1, 2), default=None, help="Who places the stones (default: player to move, else 1).")
@click.option("--max-placements", type=click.IntRange(min=0), default=None, help="At most this many placements (3 = one round).")
@click.option("--opponent", "opponent_spec", default=None,
              help='With --towers: the opponent\'s known hand (e.g. "O1,G2,P3"); --stones is then your hand this round.')
@click.option("--json", "as_json", is_flag=True)
@friendly_errors
def towers_plan(stones_spec, towers_path, player, max_placements, opponent_spec, as_json):
    """The 21-sum planner: most towers that can end at exactly 21 owned by the placer."""
    from puzzles.towers import parse_stones
    from solvers.towers.planner import guaranteed_21_towers, guaranteed_for_hands, max_21_towers, towers_of

    stones = parse_stones(stones_spec)
    if not stones:
        raise ValueError("--stones is empty")
    state = _towers_load_state(towers_path) if towers_path else None
    seat = player - 1 if player else (state.current_player() if state is not None and state.current_player() in (0, 1) else 0)
    plan = max_21_towers(stones, towers_of(state) if state else None, seat, max_placements)
    out = {"player": f"P{seat + 1}", **plan.to_json()}
    if opponent_spec is not None:
        if state is None:
            raise ValueError("--opponent needs --towers STATE.json")
        out["this_round"] = guaranteed_for_hands(state, seat, stones, parse_stones(opponent_spec))
    elif state is not None and state.phase in ("pick", "place") and all(state.grids[p][state.grid_index()] for p in (0, 1)):
        out["this_round"] = guaranteed_21_towers(state, seat)
    if as_json:
        emit_json(out)
        return
    click.echo(f"{out['player']} can bring at most {plan.count} tower(s) to exactly 21 ({plan.status.lower()})")
    for tower, placed in plan.towers.items():
        rep = " (replace its top joker first)" if tower in plan.replaced else ""
        click.echo(f"  {tower}: {' '.join(placed)}{rep}")
    if "this_round" in out:
        r = out["this_round"]
        click.echo(f"secure at 21 this round whatever the opponent does: {', '.join(r['secure_towers']) or 'none'}"
                   f" (at most {r['max_secure_together']} together)")


@towers.command("playout")
@click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True)
@click.option("--p1", type=click.Choice(TOWERS_PLAYERS[1:]), default="random", show_default=True)
@click.option("--p2", type=click.Choice(TOWERS_PLAYERS[1:]), default="random", show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@parallel_options
@click.option("--json", "as_json", is_flag=True)
@friendly_errors
def towers_playout(games, p1, p2, seed, workers, scheduler, as_json):
    """Bot match-up: win/draw/loss rates with 95% intervals, instant wins, first-player advantage."""
    from solvers.towers.bots import TowersStats

    big_job = 200_000 if p1 == p2 == "random" else 200
    stats, _ = run_in_ranges("solvers.towers.bots:match_range", (p1, p2, seed), games, merge_into, None,
                             workers, scheduler, f"{p1} vs {p2}", not as_json, big_job=big_job)
    stats = stats or TowersStats()
    rep = stats.report((p1, p2))
    if stats.games < games:
        rep["interrupted_after"] = stats.games
    if as_json:
        emit_json(rep)
        return
    g = rep["games"]
    def pct(name):
        lo, hi = rep[name + "_ci95"]
        return f"{100 * rep[name + '_rate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"
    click.echo(f"{g} games, P1 {p1} vs P2 {p2} (seed {seed})")
    click.echo(f"  P1 wins {rep['p1_wins']:>6}  {pct('p1_win')}")
    click.echo(f"  P2 wins {rep['p2_wins']:>6}  {pct('p2_win')}")
    click.echo(f"  draws   {rep['draws']:>6}  {pct('draw')}")
    click.echo(f"  instant wins {rep['instant_wins']} ({100 * rep['instant_win_rate']:.2f}%)")
    click.echo(f"  first-player (P1) advantage (P1 wins - P2 wins)/games: {rep['first_player_advantage']:+.3f}")


@towers.command("state")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--round", "round_no", type=click.IntRange(1, 6), default=1, show_default=True, help="Play randomly up to this round.")
@click.option("--placements", type=click.IntRange(0, 5), default=None, help="...and this many placements into it (default: at its line pick).")
@click.option("--text", "as_text", is_flag=True, help="Print the position as text instead of JSON.")
@friendly_errors
def towers_state(seed, round_no, placements, as_text):
    """Write a full-information STATE.json reached by seeded random play (input for solve / plan)."""
    import random as _random

    from puzzles.game import CHANCE
    from puzzles.towers import TowersState

    rng = _random.Random(seed)
    state = TowersState()
    def reached(s):
        if s.round > round_no - 1:
            return True
        if s.round < round_no - 1 or s.phase == "deal":
            return False
        return s.phase == "pick" and s.step == 0 if placements is None else s.phase == "place" and s.step >= placements
    while not state.is_terminal() and not reached(state):
        state.apply(state.sample_chance(rng) if state.current_player() == CHANCE else rng.choice(state.legal_actions()))
    click.echo(str(state) if as_text else json.dumps(state.to_json(), indent=1))


# --------------------------------------------------------------------------
# shelfie (My Shelfie)
# --------------------------------------------------------------------------


SHELFIE_BOTS = ("random", "greedy", "lookahead")


def _shelfie_goal_pair(text: str | None) -> tuple[str, str] | None:
    from puzzles.shelfie.rules import check_goal_key

    if not text:
        return None
    keys = tuple(check_goal_key(k) for k in text.split(",") if k.strip())
    if len(keys) != 2 or keys[0] == keys[1]:
        raise ValueError(f"--goals needs two different keys separated by a comma, got {text!r}")
    return keys  # type: ignore[return-value]


def _shelfie_seats(bots: str | None, players: int, default: list[str]) -> list[str]:
    names = [b.strip().lower() for b in bots.split(",")] if bots else default
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise ValueError(f"--bots names {len(names)} seats but --players is {players}")
    for name in names:
        if name not in SHELFIE_BOTS + ("human",):
            raise ValueError(f"unknown bot {name!r}; choose from human, {', '.join(SHELFIE_BOTS)}")
    return names


@main.group()
def shelfie() -> None:
    """My Shelfie: play, score a shelf, the perfect shelf, bot playouts."""


@shelfie.command("play")
@click.option("--players", type=click.IntRange(2, 4), default=2, show_default=True)
@click.option("--bots", default=None, help="Per seat, comma-separated: human, random, greedy, lookahead "
              "(one name fills every seat). Default: human then greedy bots.")
@click.option("--seed", type=int, default=None, help="Seed of the deal and the bag (random if omitted).")
@click.option("--goals", default=None, help="Common goals K1,K2 (dealt at random if omitted).")
@click.option("--refill-rule", type=click.Choice(["isolated", "four_or_fewer"]), default="isolated", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON at the end.")
@friendly_errors
def shelfie_play(players: int, bots: str | None, seed: int | None, goals: str | None, refill_rule: str,
                 as_json: bool) -> None:
    """Play a game; a human takes tiles by coordinates then names a column, e.g. `d5 e5 3`."""
    import random as _random

    from puzzles.game import IllegalActionError
    from puzzles.shelfie import new_game
    from solvers.shelfie.bots import best_move_now, make_bot

    seats = _shelfie_seats(bots, players, ["human"] + ["greedy"] * (players - 1))
    if seed is None:
        seed = _random.randrange(1_000_000)
    state = new_game(players, seed=seed, common_goals=_shelfie_goal_pair(goals), refill_rule=refill_rule)
    rng = _random.Random(seed)
    agents = {s: make_bot(name) for s, name in enumerate(seats) if name != "human"}
    humans = [s for s, name in enumerate(seats) if name == "human"]
    log = []
    say = (lambda *a, **k: None) if as_json else click.echo
    say(f"My Shelfie, seed {seed}: " + ", ".join(f"P{s} {name}" for s, name in enumerate(seats)))
    stdin = sys.stdin
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            say("(the board is refilled)")
            continue
        seat = state.current_player()
        if seat in agents:
            move = agents[seat].choose(state, rng)
            say(f"P{seat} ({seats[seat]}): {move}")
        else:
            say("")
            say(state.render_text(viewer=seat if len(humans) == 1 else None))
            while True:
                click.echo(f"P{seat}, your move (cells in placing order, then column 1-5; "
                           "'hint', 'moves' or 'quit'): ", nl=False)
                line = stdin.readline()
                if not line or line.strip().lower() in ("quit", "q", "exit"):
                    raise click.ClickException("game abandoned")
                line = line.strip()
                if line.lower() == "hint":
                    hint, points = best_move_now(state, rng)
                    click.echo(f"best points now: {hint}  (+{points})")
                    continue
                if line.lower() == "moves":
                    click.echo(", ".join(sorted({str(m) for m in state.legal_actions()})[:60]) + " ...")
                    continue
                try:
                    move = state.string_to_move(line)
                    break
                except IllegalActionError as error:
                    click.echo(f"illegal: {error}")
        state.apply(move)
        log.append(str(move))
    result = {
        "seed": seed,
        "bots": seats,
        "common_goals": list(state.common_goals),
        "personal_cards": list(state.personal_cards),
        "scores": [int(s) for s in state.scores()],
        "breakdown": [state.score_breakdown(s) for s in range(players)],
        "winner": state.winner(),
        "moves": log,
        "shelves": [state.shelf(s).rows() for s in range(players)],
    }
    if as_json:
        emit_json(result)
    else:
        click.echo("")
        click.echo(state.render_text())


@shelfie.command("score")
@click.argument("shelf_file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--personal", type=click.IntRange(1, 12), default=None, help="Personal goal card 1..12.")
@click.option("--goals", default=None, help="Common goals K1,K2 to check (default: all 12).")
@click.option("--loose", is_flag=True, help="Accept shelves that break gravity/supply (analysis).")
@click.option("--squares-inside-groups", is_flag=True, help="TWO_SQUARES: squares may sit inside larger groups.")
@click.option("--squares-same-type", is_flag=True, help="TWO_SQUARES: both squares of one type.")
@click.option("--json", "as_json", is_flag=True)
@friendly_errors
def shelfie_score(shelf_file: str, personal: int | None, goals: str | None, loose: bool,
                  squares_inside_groups: bool, squares_same_type: bool, as_json: bool) -> None:
    """Score a shelf file: 6 rows of 5 letters C B G F T P or '.', row 1 = top."""
    from puzzles.shelfie.rules import COMMON_GOAL_KEYS, Bookshelf, adjacency_points, common_goal_met, groups
    from puzzles.shelfie.rules import LETTERS, personal_goal_points

    text = sys.stdin.read() if shelf_file == "-" else open(shelf_file).read()
    shelf = Bookshelf.from_text(text, strict=not loose)
    keys = _shelfie_goal_pair(goals) or COMMON_GOAL_KEYS
    options = {"squares_inside_groups": squares_inside_groups, "squares_same_type": squares_same_type}
    met = {key: common_goal_met(key, shelf, **options) for key in keys}
    scoring_groups = [{"type": LETTERS[t], "size": len(cells)} for t, cells in groups(shelf) if len(cells) >= 3]
    adjacency = adjacency_points(shelf)
    personal_pts = personal_goal_points(personal, shelf) if personal else None
    best_case = adjacency + (personal_pts or 0) + (8 * sum(met.values()) if goals else 0) + (1 if shelf.is_full() else 0)
    result = {
        "shelf": shelf.rows(),
        "adjacency": adjacency,
        "groups": scoring_groups,
        "personal": personal,
        "personal_points": personal_pts,
        "goals_met": met,
        "full": shelf.is_full(),
        "total_without_tokens": adjacency + (personal_pts or 0),
        "best_case_total": best_case,
    }
    if as_json:
        emit_json(result)
        return
    click.echo("\n".join(shelf.rows()))
    click.echo(f"adjacency: {adjacency} points (" + ", ".join(f"{g['type']}{g['size']}" for g in scoring_groups) + ")")
    if personal:
        click.echo(f"personal goal {personal}: {personal_pts} points")
    click.echo("common goals met: " + (", ".join(k for k, v in met.items() if v) or "none"))
    click.echo(f"total without tokens: {result['total_without_tokens']}"
               + (f"; best case with top tokens and end token: {best_case}" if goals else ""))


@shelfie.command("best-shelf")
@click.option("--personal", type=click.IntRange(1, 12), required=True, help="Personal goal card 1..12.")
@click.option("--goals", required=True, help="The two common goals, K1,K2.")
@click.option("--time-limit", type=float, default=30.0, show_default=True, help="CP-SAT time limit (s).")
@click.option("--workers", type=int, default=2, show_default=True)
@click.option("--squares-inside-groups", is_flag=True)
@click.option("--squares-same-type", is_flag=True)
@click.option("--json", "as_json", is_flag=True)
@friendly_errors
def shelfie_best_shelf(personal: int, goals: str, time_limit: float, workers: int, squares_inside_groups: bool,
                       squares_same_type: bool, as_json: bool) -> None:
    """The highest final score a shelf can reach (CP-SAT): top tokens and end token assumed."""
    from solvers.shelfie.best_shelf import best_shelf

    result = best_shelf(personal, _shelfie_goal_pair(goals), time_limit=time_limit, workers=workers,
                        squares_inside_groups=squares_inside_groups, squares_same_type=squares_same_type)
    if as_json:
        emit_json(result.to_json())
        return
    click.echo("\n".join(result.shelf.rows()))
    parts = ", ".join(f"{k} {v}" for k, v in result.breakdown.items())
    proof = "proven optimal" if result.optimal else f"not proven (bound {result.bound:g})"
    click.echo(f"score {result.score} ({parts}); {proof} in {result.seconds:.1f} s")


@shelfie.command("playout")
@click.option("--games", type=click.IntRange(1), default=1000, show_default=True)
@click.option("--players", type=click.IntRange(2, 4), default=4, show_default=True)
@click.option("--bots", default="random", show_default=True,
              help="Per seat, comma-separated: random, greedy, lookahead (one name fills every seat).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--refill-rule", type=click.Choice(["isolated", "four_or_fewer"]), default="isolated", show_default=True)
@click.option("--rotate/--no-rotate", default=True, show_default=True, help="Rotate the bots through the seats.")
@parallel_options
@click.option("--json", "as_json", is_flag=True)
@friendly_errors
def shelfie_playout(games: int, players: int, bots: str, seed: int, refill_rule: str, rotate: bool,
                    workers: int | None, scheduler: str | None, as_json: bool) -> None:
    """Seeded bot-vs-bot games in the numba kernel; win rates with 95% intervals."""
    import time

    from solvers.playout import wilson_interval
    from solvers.shelfie.bots import concat_playouts

    names = _shelfie_seats(bots, players, ["random"] * players)
    if "human" in names:
        raise ValueError("playouts are between bots only")
    start = time.perf_counter()
    big_job = 50 if "lookahead" in names else 20_000
    result, _ = run_in_ranges("solvers.shelfie.bots:playout_range", (players, tuple(names), seed, refill_rule, rotate),
                              games, concat_playouts, None, workers, scheduler, "playing", not as_json, big_job=big_job)
    elapsed = time.perf_counter() - start
    played = result["games"] if result else 0
    bots_out = []
    for k, name in enumerate(names):
        wins = int((result["winners"] == k).sum())
        low, high = wilson_interval(wins, played)
        bots_out.append({"slot": k, "bot": name, "win_rate": wins / played if played else 0.0, "win_ci95": [low, high],
                         "mean_score": float(result["scores"][:, k].mean()) if played else 0.0})
    summary = {"games": played, "players": players, "seed": seed, "rotate": rotate, "seconds": round(elapsed, 3),
               "games_per_second": round(played / elapsed, 1) if elapsed else None, "bots": bots_out}
    if as_json:
        emit_json(summary)
        return
    click.echo(f"{played} games, {players} players, {summary['games_per_second']} games/s")
    for b in bots_out:
        click.echo(f"  slot {b['slot']} {b['bot']:9s} win {b['win_rate']:.3f} "
                   f"[{b['win_ci95'][0]:.3f}, {b['win_ci95'][1]:.3f}]  mean score {b['mean_score']:.1f}")


# --------------------------------------------------------------------------
# projectl (Project L)
# --------------------------------------------------------------------------
@main.group()
def projectl() -> None:
    """Project L: puzzle cards, completion checker, deck generator, rule engine, bots."""


@projectl.command("check")
@click.argument("card_file", type=click.Path(dir_okay=False))
@click.option("--stock", default="", help='Pieces in hand, e.g. "I2,L3,L3,O4" or "L3x2,O4".')
@click.option("--card", "card_id", default=None, help="Card id when the file holds several cards.")
@click.option("--no-count", is_flag=True, help="Skip counting all ways.")
@click.option("--turn", is_flag=True, help="Treat every card in the file as your puzzles: which can you finish this turn?")
@click.option("--actions", type=click.IntRange(1, 3), default=3, show_default=True, help="With --turn: actions left.")
@click.option("--no-master", is_flag=True, help="With --turn: the Master action is already used.")
@click.option("--revised", is_flag=True, help="With --turn: revised upgrades (any lower level too).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@friendly_errors
def projectl_check(card_file: str, stock: str, card_id: str | None, no_count: bool, turn: bool, actions: int,
                   no_master: bool, revised: bool, as_json: bool) -> None:
    """Can CARD_FILE's puzzle (cells marked x already filled) be completed from STOCK?"""
    from puzzles.projectl.cards import card_text, load_deck, parse_counts
    from solvers.projectl.checker import PuzzleInHand, check_card, finishable_this_turn

    cards = load_deck(card_file)
    if turn:
        if len(cards) > 4:
            raise ValueError(f"a player holds at most 4 unfinished puzzles; {card_file} has {len(cards)}")
        hand = [PuzzleInHand(c.empty, [0] * 9, c.reward_index, c.points, c.id) for c in cards]
        plans = finishable_this_turn(hand, parse_counts(stock), None, actions, not no_master, revised)
        data = [{"puzzles": [cards[i].id for i in p.puzzles], "points": p.points, "actions": p.actions} for p in plans]
        if as_json:
            emit_json({"stock": stock, "plans": data})
            return
        if not data:
            click.echo("nothing can be finished this turn")
        for row in data:
            click.echo(f"{'+'.join(row['puzzles'])}: {row['points']} points via " + "; ".join(row["actions"]))
        return
    if card_id is not None:
        cards = [c for c in cards if c.id == card_id]
        if not cards:
            raise ValueError(f"no card {card_id!r} in {card_file}")
    elif len(cards) > 1:
        raise ValueError(f"{card_file} holds {len(cards)} cards; choose one with --card ID")
    card = cards[0]
    result = check_card(card, parse_counts(stock), count=not no_count)
    if as_json:
        emit_json(result)
        return
    click.echo(card_text(card))
    if not result["completable"]:
        click.echo(f"not completable with {stock or 'no pieces'}")
        return
    click.echo(f"completable: fewest pieces {result['min_pieces']} (= Place actions), ways {result['ways']}")
    pieces = [(_pl_shape(p["shape"]), _pl_mask(p["cells"])) for p in result["solution"]]
    click.echo(card_text(card, pieces))


@projectl.command("generate-deck")
@click.option("--seed", type=int, default=None, help="Generator seed (default: the shipped default deck's seed).")
@click.option("--out", type=click.Path(dir_okay=False, writable=True), default=None, help="Write the deck file here.")
@click.option("--json", "as_json", is_flag=True, help="Statistics and cards as JSON.")
@friendly_errors
def projectl_generate_deck(seed: int | None, out: str | None, as_json: bool) -> None:
    """Generate 32 white + 20 black cards with the published statistics (each verified completable)."""
    from solvers.projectl.deckgen import DEFAULT_SEED, deck_statistics, deck_text, generate_deck

    seed = DEFAULT_SEED if seed is None else seed
    text = deck_text(seed)
    if out:
        with open(out, "w", encoding="utf-8") as handle:
            handle.write(text)
    if as_json:
        cards = generate_deck(seed)
        emit_json({"seed": seed, "statistics": deck_statistics(cards), "cards": [c.to_json() for c in cards]})
    elif out:
        click.echo(f"wrote 52 cards (seed {seed}) to {out}")
    else:
        click.echo(text, nl=False)


def _pl_options(func: Callable[..., Any]) -> Callable[..., Any]:
    for option in reversed([
        click.option("--rules", type=click.Choice(["classic", "revised"]), default="classic", show_default=True),
        click.option("--solo", is_flag=True, help="Solo variant against the automated opponent."),
        click.option("--difficulty", type=click.Choice(["normal", "hard", "unbeatable"]), default="normal", show_default=True),
        click.option("--deck", "deck_file", type=click.Path(dir_okay=False), default=None, help="Deck file (default: shipped deck)."),
        click.option("--seed", type=int, default=0, show_default=True),
    ]):
        func = option(func)
    return func


@projectl.command("playout")
@click.option("--games", type=click.IntRange(min=1), default=100, show_default=True)
@click.option("--bots", default="greedy,random", show_default=True, help="Comma-separated: random, greedy, mcts[:N]; one per seat.")
@_pl_options
@parallel_options
@click.option("--json", "as_json", is_flag=True)
@friendly_errors
def projectl_playout(games: int, bots: str, rules: str, solo: bool, difficulty: str, deck_file: str | None, seed: int,
                     workers: int | None, scheduler: str | None, as_json: bool) -> None:
    """Seeded bot games (seats rotate each game): win rates with 95% intervals, mean scores."""
    from puzzles.projectl.cards import load_deck
    from solvers.projectl.bots import make_bot, summarize_series

    specs = [b for b in bots.split(",") if b.strip()]
    for spec in specs:
        make_bot(spec)
    if not solo and not 1 <= len(specs) <= 4:
        raise ValueError("give 1 to 4 bots, one per seat")
    cards = load_deck(deck_file) if deck_file else None
    big_job = 50 if any(spec.startswith("mcts") for spec in specs) else 2000
    totals, interrupted = run_in_ranges("solvers.projectl.bots:series_range", (tuple(specs), seed, rules, solo, difficulty, cards),
                                        games, merge_into, None, workers, scheduler, "playouts", not as_json, big_job=big_job)
    if totals is None:
        raise click.ClickException("interrupted before any game finished")
    result = summarize_series(totals, specs, rules, solo, difficulty, interrupted)
    if as_json:
        emit_json(result)
        return
    head = f"{result['games']} games, rules {rules}" + (f", solo {difficulty}" if solo else "")
    click.echo(head + (" (interrupted)" if result["interrupted"] else ""))
    for row in result["bots"]:
        low, high = row["win_ci95"]
        click.echo(f"  {row['seat_bot']:<10} win {row['win_rate']:.3f} [{low:.3f}, {high:.3f}]  mean score {row['mean_score']:.2f}")
    if solo:
        click.echo(f"  opponent mean score {result['opponent_mean_score']:.2f}")


@projectl.command("play")
@click.option("--players", type=click.IntRange(1, 4), default=2, show_default=True)
@click.option("--bots", default="human,greedy", show_default=True, help="Per seat: human, random, greedy, mcts[:N].")
@_pl_options
@click.option("--color/--no-color", default=None, help="ANSI colours (default: when on a terminal).")
@click.option("--json", "as_json", is_flag=True, help="Print the final result as JSON.")
@friendly_errors
def projectl_play(players: int, bots: str, rules: str, solo: bool, difficulty: str, deck_file: str | None, seed: int, color: bool | None, as_json: bool) -> None:
    """Play with typed actions ('help' lists them, 'quit' stops); bots move the other seats."""
    import random as _random

    from puzzles.game import IllegalActionError
    from puzzles.projectl.cards import load_deck
    from puzzles.projectl.engine import new_game
    from solvers.projectl.bots import make_bot

    specs = [b.strip().lower() for b in bots.split(",") if b.strip()]
    if solo:
        players = 1
    if len(specs) == 1 and players > 1:
        specs = specs * players
    if len(specs) != players:
        raise ValueError(f"--bots names {len(specs)} seats but there are {players} players")
    seats = [None if s == "human" else make_bot(s) for s in specs]
    cards = load_deck(deck_file) if deck_file else None
    st = new_game(players, seed, rules=rules, solo=solo, difficulty=difficulty, cards=cards)
    rng = _random.Random(seed)
    use_color = sys.stdout.isatty() if color is None else color
    shown = None
    while not st.is_terminal():
        bot = seats[st.player]
        if bot is not None:
            action = bot.choose(st, rng)
            if not as_json:
                click.echo(f"player {st.player} ({bot.name}): {st.action_to_string(action)}")
            st.apply(action)
            continue
        if shown != len(st.history):
            click.echo(st.render_text(color=use_color))
            shown = len(st.history)
        text = click.prompt(f"player {st.player} action", default="", show_default=False).strip()
        if text in ("quit", "exit"):
            click.echo("stopped")
            return
        if text in ("help", "?", ""):
            legal = [st.action_to_string(a) for a in st.legal_actions()]
            kinds = sorted({a.split()[0] for a in legal})
            click.echo("legal kinds: " + ", ".join(kinds) + f" ({len(legal)} actions); e.g. " + "; ".join(legal[:12]))
            click.echo("forms: take W|B|G SLOT, piece, upgrade FROM TO, place SLOT SHAPE CELLS (cells as rc digits: 00,01,11), master, mplace ..., mend, recycle W|B, touch ..., done, pass")
            continue
        try:
            st.apply(st.string_to_action(text))
        except IllegalActionError as error:
            click.echo(f"illegal: {error}")
    result = {"scores": st.scores(), "returns": st.returns(), "winners": st.winners(), "rounds": st.round + 1, "end": st.end_reason}
    if solo:
        result["opponent_score"] = st.opponent_score()
    if as_json:
        emit_json(result)
    else:
        click.echo(st.render_text(color=use_color))
        click.echo(f"final scores {result['scores']}" + (f" vs opponent {result['opponent_score']}" if solo else "") + f"; winners {result['winners']}")


def _pl_shape(name: str) -> int:
    from puzzles.projectl.cards import shape_index

    return shape_index(name)


def _pl_mask(cells: list) -> int:
    from puzzles.projectl.cards import cells_mask

    return cells_mask(tuple(c) for c in cells)



# ---- blokus solitaire + generate (issue 4) ----
# Owner: issue 4 (Blokus solitaires, tiling challenges).  Logic lives in
# solvers/blokus/tetrominoes.py, solvers/blokus/solitaire.py, solvers/challenges.py.


@blokus.group("solitaire")
def blokus_solitaire() -> None:
    """One-player Blokus puzzles: all 84 pieces on the board, the tetromino rectangle."""


@blokus_solitaire.command("tetrominoes")
@click.option("--region", "region_spec", default="10x8", show_default=True, help="WxH, ASCII art (rows joined by /) or a file.")
@click.option("--colors", type=click.IntRange(1, 4), default=4, show_default=True, help="Colors, each with I O T L S.")
@click.option("--backend", type=click.Choice(["sat", "cpsat", "dlx", "bitset"]), default="dlx", show_default=True,
              help="dlx = XCC dancing links; bitset = restarted bitboard search.")
@click.option("--corner-contact", is_flag=True, help="Every piece also touches its own color at a corner.")
@click.option("--no-edge-rule", is_flag=True, help="Drop the same-color edge rule (colors only tell pieces apart).")
@click.option("--count", "do_count", is_flag=True, help="Count all tilings (raw, up to symmetry, up to symmetry and colors).")
@click.option("--engine", type=click.Choice(["bitset", "xcc"]), default="bitset", show_default=True, help="Counting engine.")
@click.option("--depth", "--split-depth", "depth", type=click.IntRange(0, 8), default=2, show_default=True,
              help="Split depth for --count.")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Local worker processes for --count (CP-SAT workers when finding).")
@click.option("--scheduler", default=None, help="With --count: a Dask scheduler address, tcp://HOST:PORT.")
@click.option("--checkpoint", "--resume", "checkpoint", type=click.Path(dir_okay=False), default=None,
              help="Resume file for --count.")
@click.option("--estimate", "probes", type=click.IntRange(min=1), default=None, help="Knuth estimate of the count with N random probes.")
@click.option("--time-limit", type=click.FloatRange(min=0), default=None)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--svg", "svg_out", type=click.Path(dir_okay=False), default=None, help="Write the tiling as SVG.")
@click.option("--json", "as_json", is_flag=True)
@friendly_errors
def blokus_solitaire_tetrominoes(region_spec, colors, backend, corner_contact, no_edge_rule, do_count, engine, depth,
                                 workers, scheduler, checkpoint, probes, time_limit, seed, svg_out, as_json):
    """Tile a rectangle with 5 tetrominoes per color; same colors never share an edge."""
    from solvers.blokus.tetrominoes import ColoredTilingProblem, estimate, pieces_json, to_tiling
    from solvers.tiling import load_region

    problem = ColoredTilingProblem(load_region(region_spec), colors, edge_rule=not no_edge_rule, corner_contact=corner_contact)
    if not problem.area_ok:
        raise click.ClickException(f"the region has {problem.region.area} cells, the pieces {4 * len(problem.pieces)}")
    if probes:
        data = estimate(problem, probes, seed)
        if as_json:
            emit_json(data)
        else:
            click.echo(f"estimated tilings {data['count_estimate']:.4g} ± {data['count_stderr']:.2g}, "
                       f"search nodes {data['nodes_estimate']:.3g} ({probes} probes, {data['seconds']:.1f} s)")
        return
    if do_count:
        progress = ProgressReporter(None, "subproblems", enabled=not as_json)
        first = [True]

        def on_part(done, total, raw):
            if first[0]:
                progress.set_total(total)
                first[0] = False
            progress.advance(done - progress.done, f"{raw} tilings")

        try:
            result = problem.count(depth=depth, workers=workers, checkpoint=checkpoint, on_part=on_part, scheduler=scheduler,
                                   engine=engine, time_limit=time_limit)
        finally:
            progress.close()
        if as_json:
            emit_json(result.to_json())
        else:
            state = "" if result.complete else f" (incomplete: {result.parts_done}/{result.parts_total} subproblems; rerun with --checkpoint to resume)"
            click.echo(f"raw tilings: {result.raw}{state}")
            if result.complete:
                click.echo(f"up to the region's symmetries: {result.symmetry}")
                click.echo(f"up to symmetries and color permutations: {result.symmetry_colors}")
            click.echo(f"{result.nodes} nodes, {result.seconds:.2f} s")
        return
    start = time.perf_counter()
    try:
        pieces = problem.find(backend, time_limit=time_limit, workers=workers, seed=seed)
    except TimeoutError as error:
        raise click.ClickException(str(error))
    seconds = time.perf_counter() - start
    if pieces is not None and svg_out:
        with open(svg_out, "w") as handle:
            handle.write(to_tiling(problem.region, pieces)._repr_svg_())
    if as_json:
        emit_json({"found": pieces is not None, "seconds": round(seconds, 3), **(pieces_json(pieces) if pieces else {"pieces": []})})
    elif pieces is None:
        click.echo("no tiling exists")
    else:
        click.echo(to_tiling(problem.region, pieces).to_text())
        click.echo(f"found with {backend} in {seconds:.2f} s, verified")


@blokus_solitaire.command("all-pieces")
@click.option("--symmetric", is_flag=True, help="Only solutions invariant under the 90° turn that maps each color to the next "
              "(without it: a symmetric solution re-arranged by CP-SAT until it is not).")
@click.option("--perfect", is_flag=True, help="Each color's last piece is its monomino (4 x 20 points).")
@click.option("--time-limit", type=click.FloatRange(min=0), default=60.0, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True, help="CP-SAT workers (repair steps).")
@click.option("--sgf", "sgf_out", type=click.Path(dir_okay=False), default=None, help="Write the solution (.blksgf).")
@click.option("--svg", "svg_out", type=click.Path(dir_okay=False), default=None, help="Write the board as SVG.")
@click.option("--json", "as_json", is_flag=True)
@friendly_errors
def blokus_solitaire_all_pieces(symmetric, perfect, time_limit, seed, workers, sgf_out, svg_out, as_json):
    """Place all 84 pieces on the board under the real rules (replayed through the engine)."""
    from puzzles.blokus.records import to_sgf
    from puzzles.blokus.render import board_svg
    from solvers.blokus.solitaire import solve_all_pieces

    progress = ProgressReporter(None, "searching", enabled=not as_json)
    try:
        result = solve_all_pieces(symmetric=symmetric, perfect=perfect, time_limit=time_limit, seed=seed,
                                  workers=workers, progress=lambda note: progress.advance(1, note))
    finally:
        progress.close()
    state = result.state
    if state is not None and sgf_out:
        with open(sgf_out, "w") as handle:
            handle.write(to_sgf(state))
    if state is not None and svg_out:
        with open(svg_out, "w") as handle:
            handle.write(board_svg(state))
    if as_json:
        emit_json(result.to_json())
        return
    if state is None:
        click.echo(f"no solution found in {result.seconds:.1f} s ({result.status}; best {result.best_placed} pieces)")
        return
    click.echo(state.to_text())
    mode = "symmetric" if symmetric else (f"general: {result.rearranged} CP-SAT re-arrangements of a symmetric solution, "
                                          f"{'still' if result.quarter_turn_symmetric else 'no longer'} symmetric")
    click.echo(f"all {result.placed} pieces placed in {result.seconds:.1f} s ({mode}{', perfect' if perfect else ''}); "
               f"replayed move by move through the rule engine; scores {state.color_scores()}")


@main.group("generate")
def generate_group() -> None:
    """Generate puzzles."""


@generate_group.command("tiling")
@click.option("--pieces", "set_name", default="pentominoes", show_default=True,
              help="Named set to draw from: pentominoes, tetrominoes, trominoes, blokus (one color's 21 pieces), ...")
@click.option("--count", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--difficulty", type=click.Choice(["easy", "medium", "hard"]), default="medium", show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--solution", "show_solution", is_flag=True, help="Also print the solutions (text mode).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Write challenge_N.txt/.svg/.json and solution_N.svg/.txt there.")
@click.option("--time-limit", type=click.FloatRange(min=0), default=None)
@click.option("--json", "as_json", is_flag=True)
@parallel_options
@friendly_errors
def generate_tiling(set_name, count, difficulty, seed, show_solution, out_dir, time_limit, workers, scheduler, as_json):
    """Tiling challenges whose solution is unique (proved by an exhaustive count)."""
    import json as _json
    from pathlib import Path

    from solvers.challenges import generate
    from solvers.parallel import make_executor

    executor, close = make_executor(workers or 1, scheduler)
    progress = ProgressReporter(count, "challenges", enabled=not as_json)
    try:
        found = list(generate(count, difficulty, set_name, seed, time_limit, on_found=lambda _: progress.advance(),
                              executor=None if (workers or 1) == 1 and not scheduler else executor))
    except TimeoutError as error:
        raise click.ClickException(str(error))
    finally:
        progress.close()
        close()
    if out_dir:
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        for n, ch in enumerate(found, 1):
            (out / f"challenge_{n}.txt").write_text(ch.to_text() + "\n")
            (out / f"challenge_{n}.json").write_text(_json.dumps(ch.to_json(with_solution=False), indent=1) + "\n")
            (out / f"challenge_{n}.svg").write_text(ch.region_svg())
            (out / f"solution_{n}.txt").write_text(ch.solution.to_text(color=False) + "\n")
            (out / f"solution_{n}.svg").write_text(ch.solution_svg())
    if as_json:
        emit_json({"challenges": [ch.to_json() for ch in found]})
        return
    for ch in found:
        click.echo(ch.to_text())
        if show_solution:
            click.echo("solution:\n" + ch.solution.to_text(color=False))
        click.echo("")


if __name__ == "__main__":
    main()
