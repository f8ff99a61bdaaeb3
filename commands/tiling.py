"""`kibitz tile` and `kibitz cover`: polyomino tilings and exact cover (see solvers/tiling.py, solvers/exact_cover.py)."""

from __future__ import annotations

import json
import sys

import click

from commands.common import (
    SECONDS,
    WORKERS,
    ProgressReporter,
    checkpoint_option,
    ctrl_c_held,
    emit_json,
    friendly_errors,
    repair_option,
    verify_option,
)
from commands.pictures import check_svg_path, svg_option, write_svg


@click.command()
@click.argument("region")
@click.option("--pieces", "pieces_spec", default="pentominoes", show_default=True,
              help="Piece set(s) or names (pentominoes, tetrominoes, blokus, 2*tetrominoes, I,L,X, ...) or a file.")
@click.option("--count", "do_count", is_flag=True, help="Count all tilings (raw and up to symmetry).")
@click.option("--unique", is_flag=True, help="With --all: one tiling per symmetry class (--count gives both counts).")
@click.option("--all", "show_all", is_flag=True, help="Print every tiling.")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="With --all: stop after this many.")
@click.option("--at-most", is_flag=True, help="Each piece at most once (default: each exactly once).")
@click.option("--fixed", is_flag=True, help="Fixed orientations (no rotation or reflection).")
@click.option("--backend", type=click.Choice(["dlx", "sat", "cpsat"]), default="dlx", show_default=True)
@click.option("--time-limit", type=SECONDS, default=None, help="Seconds before giving up.")
@click.option("--split-depth", type=click.IntRange(0, 12), default=0, show_default=True,
              help="With --count: split the search this many levels deeper into independent subproblems (at most 12).")
@click.option("--workers", type=WORKERS, default=None,
              help="With --count: local worker processes (default: all cores for 50+ subproblems, else 1).")
@click.option("--scheduler", default=None, help="With --count: a Dask scheduler address, tcp://HOST:PORT.")
@checkpoint_option("With --count: checkpoint file; finished subproblems in it are skipped, new ones appended.")
@repair_option
@verify_option
@click.option("--plain", is_flag=True, help="Letters only, no colours, even on a terminal.")
@svg_option("the tiling found (each piece coloured and outlined)")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@friendly_errors
def tile(region, pieces_spec, do_count, unique, show_all, limit, at_most, fixed, backend, time_limit,
         split_depth, workers, scheduler, checkpoint, repair, verify, plain, svg_out, as_json):
    """Tile REGION (WxH, ASCII art with '/' between rows, or a file) with polyominoes.

    Every answer states its status: found, proved (exhaustive: a count is exact, "no tiling
    exists" is a proof), unknown (time limit: counts are lower bounds) or incomplete (Ctrl-C).

    A tiling prints each cell as its piece's name.  On a terminal every piece also gets a background
    colour; piped (or with --plain) the letters alone, as the colours only tell pieces apart: two
    touching pieces of the same name differ in case (I and i) instead.
    """
    from puzzles.polyomino import Region
    from solvers.parallel import check_output_path
    from solvers.tiling import TilingProblem, load_pieces
    from solvers.warmup import ensure_compiled

    if (do_count or show_all) and backend != "dlx":
        raise ValueError("counting and listing need the dlx backend (SAT/CP-SAT find one tiling)")
    if svg_out and (do_count or show_all):
        raise ValueError("--svg draws the one tiling found; it does not combine with --count or --all")
    check_svg_path(svg_out)
    ensure_compiled("tilings")
    if checkpoint:
        check_output_path(checkpoint, "checkpoint")
    elif repair or verify:
        raise ValueError("--repair and --verify work on a --checkpoint FILE")
    problem = TilingProblem.from_spec(Region.from_spec(region), load_pieces(pieces_spec), "at_most" if at_most else "exact", not fixed)
    if do_count:
        counts = _count_tilings(problem, time_limit, split_depth, workers, scheduler, checkpoint, not as_json,
                                repair, verify)
        _print_counts(counts, as_json)
        if counts.failure:
            raise click.ClickException(f"{counts.failure}; the counts above are lower bounds"
                                       + (f" (finished parts kept in {checkpoint})" if checkpoint else ""))
        if counts.stopped_by == "interrupt":
            sys.exit(130)
        return
    if show_all:
        _list_tilings(problem, unique, limit, time_limit, as_json, plain)
        return
    result = problem.search(backend, time_limit=time_limit)
    if result.tiling is not None:
        write_svg(svg_out, result.tiling._repr_svg_)
    if as_json:
        emit_json({"found": result.tiling is not None, "status": result.status,
                   "tiling": result.tiling.to_json() if result.tiling else None,
                   "interrupted": result.status == "incomplete", "seconds": round(result.seconds, 3)})
    elif result.tiling is not None:
        click.echo(result.tiling.to_text(color=False if plain else None))
        click.echo("found: one tiling, verified cell by cell (--count counts them all)")
    elif result.status == "proved":
        click.echo("no tiling exists (proved: exhaustive search)")
    elif result.status == "unknown":
        click.echo(f"unknown (time limit): no tiling found in {time_limit:g} s and the search was not finished"
                   " (no answer, not a proof)")
    else:
        click.echo("incomplete (interrupted): no tiling found before Ctrl-C")
    if result.status == "incomplete":
        sys.exit(130)


def count_json(counts) -> dict:
    """A tiling count in the key set every count command shares (``blokus solitaire tetrominoes --count``
    adds ``count_symmetry_colors``)."""
    return {"count_raw": counts.raw, "count_symmetry": counts.unique, "status": counts.status,
            "complete": counts.complete, "lower_bound": not counts.complete,
            "interrupted": counts.stopped_by == "interrupt", "parts_done": counts.parts_done,
            "parts_total": counts.parts_total, "nodes": counts.nodes, "seconds": round(counts.seconds, 3)}


def _print_counts(counts, as_json):
    """A count with its status: exact (proved) or a lower bound (unknown at a limit, incomplete on Ctrl-C)."""
    from solvers.tiling import STATUS_TEXT

    if as_json:
        emit_json(count_json(counts))
        return
    if counts.complete:
        click.echo(f"{counts.raw} tilings, {counts.unique} up to symmetry (proved: exhaustive count)")
    else:
        click.echo(f"at least {counts.raw} tilings, at least {counts.unique} up to symmetry "
                   f"({STATUS_TEXT[counts.status]}: lower bounds)")


def _list_tilings(problem, unique, limit, time_limit, as_json, plain):
    """Print tilings as they are found (text, or one JSON document streamed), then the status."""
    from solvers.exact_cover import SearchLimits
    from solvers.tiling import STATUS_TEXT, answer_status

    number, stopped_by = 0, ""
    limits = SearchLimits(time_limit=time_limit)
    if as_json:
        click.echo('{"tilings": [', nl=False)
    try:
        for tiling in problem.tilings(limits, unique=unique):
            text = json.dumps(tiling.to_json()) if as_json else tiling.to_text(color=False if plain else None)
            with ctrl_c_held():  # printed and counted together: a Ctrl-C lands before or after both
                if as_json:
                    click.echo(("," if number else "") + "\n  " + text, nl=False)
                else:
                    click.echo(f"tiling {number + 1}:\n{text}\n")
                number += 1
            if limit and number >= limit:
                stopped_by = "limit"
                break
    except KeyboardInterrupt:
        stopped_by = "interrupt"
    if not stopped_by and limits.expired():
        stopped_by = "time_limit"
    status = "found" if stopped_by == "limit" else answer_status(not stopped_by, stopped_by)
    if as_json:
        click.echo(f'\n], "count": {number}, "status": "{status}", "complete": {json.dumps(not stopped_by)}, '
                   f'"interrupted": {json.dumps(stopped_by == "interrupt")}}}')
    elif stopped_by == "limit":
        click.echo(f"{number} tilings (found: stopped at --limit)")
    elif not stopped_by:
        click.echo(f"{number} tilings (proved: all listed)" if number else "no tiling exists")
    else:
        click.echo(f"{number} tilings listed ({STATUS_TEXT[status]}: there may be more)")
    if stopped_by == "interrupt":
        sys.exit(130)


def _count_tilings(problem, time_limit, split_depth, workers, scheduler, checkpoint, show_progress, repair=False,
                   verify=0):
    """Count in this process, or on local processes / a Dask cluster when asked (same totals); a split or
    parallel count says on stderr what it prepares."""
    from pathlib import Path

    from commands.long_job import heartbeat, notice
    from solvers.exact_cover import SearchLimits
    from solvers.parallel import default_workers, make_executor

    progress = ProgressReporter(None, "subproblems done", enabled=show_progress, unit="subproblems")
    report = lambda done, total: (setattr(progress, "total", total), progress.advance(done - progress.done))
    limits = SearchLimits(time_limit=time_limit)
    if split_depth:
        notice(progress, f"splitting the search into subproblems at depth {split_depth} ...")
    tasks = problem.split(split_depth)
    parallel = scheduler or checkpoint or (workers or 1) > 1 or (workers is None and len(tasks) >= 50)
    if split_depth or parallel:
        processes = (workers or default_workers()) if parallel else 1
        where = "on the Dask cluster" if scheduler else f"on {processes} processes" if processes > 1 else "in this process"
        kept = (f"finished ones are kept in {checkpoint}: the same command resumes" if checkpoint
                else "--checkpoint FILE makes it resumable")
        notice(progress, f"{len(tasks):,} subproblems to count {where}; Ctrl-C stops with those done ({kept})")
    try:
        with heartbeat(progress):
            if not parallel:
                return problem.counts(limits, on_part=report, split_depth=split_depth)
            executor, close = make_executor(workers, scheduler)
            try:
                return problem.counts(limits, on_part=report, split_depth=split_depth, executor=executor,
                                      checkpoint=Path(checkpoint) if checkpoint else None, repair=repair, verify=verify)
            finally:
                close()
    finally:
        progress.close()


@click.command()
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--count", "do_count", is_flag=True, help="Count all solutions.")
@click.option("--all", "show_all", is_flag=True, help="Print every solution (streamed as found).")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="With --all: stop after this many.")
@click.option("--time-limit", type=SECONDS, default=None)
@click.option("--json", "as_json", is_flag=True)
@friendly_errors
def cover(path, do_count, show_all, limit, time_limit, as_json):
    """Solve an exact-cover problem in Knuth's DLX/XCC text format."""
    from pathlib import Path

    from puzzles.polyomino import read_text_file
    from solvers.exact_cover import parse_knuth
    from solvers.warmup import ensure_compiled

    problem = parse_knuth(read_text_file(Path(path), "exact-cover file"))
    ensure_compiled("tilings")
    if do_count:
        _count_solutions(problem, time_limit, as_json)
    else:
        _list_solutions(problem, show_all, limit, time_limit, as_json)


def _count_solutions(problem, time_limit, as_json):
    """``cover --count``: the count with its status (exact, or a lower bound at a limit or on Ctrl-C)."""
    from solvers.tiling import STATUS_TEXT, answer_status

    progress = ProgressReporter(None, "nodes (millions)", enabled=not as_json)
    try:
        result = problem.count(
            time_limit=time_limit,
            progress=lambda nodes, count: progress.advance(nodes // 1_000_000 - progress.done, f"{count} solutions"),
        )
    finally:
        progress.close()
    status = answer_status(result.complete, result.stopped_by)
    if as_json:
        emit_json({"count_raw": result.count, "status": status, "complete": result.complete,  # the count key set
                   "lower_bound": not result.complete, "interrupted": result.stopped_by == "interrupt",
                   "nodes": result.nodes, "seconds": round(result.seconds, 3)})
    elif result.complete:
        click.echo(f"{result.count} solutions (proved: exhaustive count)")
    else:
        click.echo(f"at least {result.count} solutions ({STATUS_TEXT[status]}: a lower bound)")
    if result.stopped_by == "interrupt":
        sys.exit(130)


def _list_solutions(problem, show_all, limit, time_limit, as_json):
    """``cover`` and ``cover --all``: solutions printed as they are found (text, or one JSON document
    streamed), then the status."""
    from solvers.exact_cover import SearchLimits
    from solvers.tiling import STATUS_TEXT, answer_status

    limits = SearchLimits(time_limit=time_limit)
    number, stopped_by = 0, ""
    search = problem.compile()
    if as_json:
        click.echo('{"solutions": [', nl=False)
    try:
        for solution in search.solutions(limits):
            options = problem.format_solution(solution)
            with ctrl_c_held():  # printed and counted together: a Ctrl-C lands before or after both
                if as_json:
                    click.echo(("," if number else "") + "\n  " + json.dumps(options), nl=False)
                else:
                    click.echo(f"solution {number + 1}:" + "".join(f"\n  {line}" for line in options))
                number += 1
            if not show_all or (limit and number >= limit):
                stopped_by = "limit"
                break
    except KeyboardInterrupt:
        stopped_by = "interrupt"
    stopped_by = stopped_by or search.stopped_by
    status = "found" if stopped_by == "limit" else answer_status(not stopped_by, stopped_by)
    if as_json:
        click.echo(f'\n], "count": {number}, "status": "{status}", "complete": {json.dumps(not stopped_by)}, '
                   f'"interrupted": {json.dumps(stopped_by == "interrupt")}}}')
    elif number == 0 and not stopped_by:
        click.echo("no solution")
    elif number == 0:
        click.echo(f"{STATUS_TEXT[status]}: no solution found" + (", the search was not finished" if status == "unknown" else ""))
    elif stopped_by in ("time_limit", "node_limit", "interrupt"):
        click.echo(f"{number} solutions listed ({STATUS_TEXT[status]}: there may be more)")
    elif show_all and not stopped_by:
        click.echo(f"{number} solutions (proved: all listed)")
    if stopped_by == "interrupt":
        sys.exit(130)
