"""`kibitz tile` and `kibitz cover`: polyomino tilings and exact cover (see solvers/tiling.py, solvers/exact_cover.py)."""

from __future__ import annotations

import sys

import click

from cli import ProgressReporter, checkpoint_option, emit_json, friendly_errors


@click.command()
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
@checkpoint_option("With --count: checkpoint file; finished subproblems in it are skipped, new ones appended.")
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
    try:
        tiling = problem.find(backend, time_limit=time_limit)
    except TimeoutError as error:  # CP-SAT ran out of time before deciding: an answer, not a bug
        raise click.ClickException(str(error)) from None
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


@click.command()
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
