"""`kibitz blokus`: play and bot match-ups (the generic commands), records, move lists, perft, the solitaire puzzles."""

from __future__ import annotations

import time
from typing import Any

import click

from commands.blokus_gtp import blokus_gtp, blokus_match, blokus_tune
from commands.common import (
    SECONDS,
    WORKERS,
    ProgressReporter,
    checkpoint_option,
    emit_json,
    exit_interrupted,
    friendly_errors,
    option_with_hidden_alias,
    repair_option,
    verify_option,
)
from commands.pictures import check_svg_path, svg_option, write_svg
from commands.play import PlayHooks, add_play_commands

BLOKUS_VARIANTS = ["classic", "two-player", "teams", "three-player", "duo"]


@click.group()
def blokus() -> None:
    """Blokus: play, bot match-ups, Pentobi SGF records, move lists, perft."""


def _show(state: Any, seat: int) -> str:
    """The board a human sees: colored, the last move marked, the color to move named."""
    color = state.color_names[state.to_move] if state.to_move >= 0 else "nobody"
    return f"{state.to_text()}\n{color} to move (cells like a20,b20 or pass)"


def _save_record(state: Any, moves: list[str], extra: dict[str, Any], as_json: bool) -> dict[str, Any]:
    """``--sgf PATH``: save the game (.blksgf as Pentobi SGF, .json as JSON); the color scores for --json."""
    from puzzles.blokus.records import save

    path = extra.get("sgf_out")
    if path:
        save(state, path)
        if not as_json:
            click.echo(f"saved {path}")
    return {"variant": state.variant.name, "color_scores": dict(zip(state.color_names, state.color_scores(), strict=True)),
            "finished": state.is_terminal(), **({"record": str(path)} if path else {})}


_SGF_OPTION = click.option("--sgf", "sgf_out", type=click.Path(dir_okay=False), default=None,
                           help="Save the game (.blksgf as Pentobi SGF, .json as JSON).")


def _legal_text(state: Any, filter_text: str) -> str:
    """A human's ``?``/``moves``: the legal moves grouped by piece; ``? F L5`` lists those pieces' moves."""
    from puzzles.blokus.render import legal_moves_text

    return legal_moves_text(state, filter_text)


add_play_commands(blokus, "blokus", "human,greedy", PlayHooks(options=[_SGF_OPTION], finish=_save_record, show=_show,
                                                        legal_text=_legal_text, notation="cells like a20,b20, or pass"))
blokus.add_command(blokus_gtp)
blokus.add_command(blokus_match)
blokus.add_command(blokus_tune)


_GAME_INDEX_OPTION = click.option("--game-index", type=click.IntRange(min=0), default=None,
                                  help="Which game of an SGF file holding several (0 = first; such a file needs it).")


@blokus.command("replay")
@click.argument("path", type=click.Path(dir_okay=False))
@_GAME_INDEX_OPTION
@svg_option("the final position")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@friendly_errors
def blokus_replay(path, game_index, svg_out, as_json):
    """Replay a record (.blksgf or .json), checking every move; print the final scores."""
    from puzzles.blokus.records import load

    check_svg_path(svg_out)
    state = load(path, game_index=game_index)
    write_svg(svg_out, state.picture)
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
@_GAME_INDEX_OPTION
@click.option("--after", type=click.IntRange(min=0), default=None,
              help="After this many moves, 0 up to the record's length (default: all of them).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@friendly_errors
def blokus_moves(path, game_index, after, as_json):
    """List the legal moves (one per line) of the color to move after N moves of a record."""
    from puzzles.blokus.records import load

    state = load(path, max_moves=after, game_index=game_index)
    placed = sum(1 for _, m in state.moves_played if not m.is_pass)
    if after is not None and placed < after:
        raise click.ClickException(f"--after {after} is past the end: the record holds {placed} "
                                   f"move{'' if placed == 1 else 's'} (--after 0..{placed})")
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
    from solvers.warmup import ensure_compiled

    ensure_compiled("blokus")
    start = _time.perf_counter()
    count = perft(BlokusState(variant, free_corners), depth)
    seconds = _time.perf_counter() - start
    if as_json:
        emit_json({"depth": depth, "variant": variant, "free_corners": free_corners, "count": count, "seconds": round(seconds, 3)})
    else:
        click.echo(f"perft({depth}) = {count:,}  ({seconds:.2f} s)")


# ---- solitaire puzzles (logic in solvers/blokus/tetrominoes.py and solvers/blokus/solitaire.py) ----


def check_output_path(path: str) -> None:
    """Refuse an output file that cannot be written, before any work starts (a missing folder, a folder)."""
    import os

    folder = os.path.dirname(os.path.abspath(path)) or "."
    if os.path.isdir(path):
        raise click.UsageError(f"{path} is a directory, not a file")
    if not os.path.isdir(folder):
        raise click.UsageError(f"cannot write {path}: folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise click.UsageError(f"cannot write {path}: folder {folder} is not writable")


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
@click.option("--method", type=click.Choice(["auto", "dp", "split", "direct"]), default="auto", show_default=True,
              help="With --count: dp = a memoized frontier DP over the cells (narrow regions: 20x4 in "
                   "minutes, 16x5 out of its memory); split = shape tilings, then each one's colour classes; direct = the coloured search "
                   "(--engine); auto = dp with the edge rule and a short side up to 4, else split; direct with "
                   "--corner-contact or --engine.")
@click.option("--engine", type=click.Choice(["canonical", "bitset", "xcc"]), default="canonical", show_default=True,
              help="Direct counting engine: canonical = one tiling per colour permutation, corner rule pruned in the search.")
@option_with_hidden_alias("--split-depth", "--depth", "depth", type=click.IntRange(0, 8), default=2, show_default=True,
                          help="With --count: split the search this many levels deep into independent parts.")
@click.option("--workers", type=WORKERS, default=1, show_default=True,
              help="With --count: local worker processes.")
@click.option("--threads", type=WORKERS, default=1, show_default=True,
              help="Solver threads when finding with --backend cpsat.")
@click.option("--scheduler", default=None, help="With --count: a Dask scheduler address, tcp://HOST:PORT.")
@checkpoint_option("With --count: checkpoint file; finished parts in it are skipped, new ones appended.")
@repair_option
@verify_option
@click.option("--estimate", "probes", type=click.IntRange(min=2), default=None,
              help="Knuth estimate of the count with N random paths (raw, up to colours, up to symmetry; with standard errors).")
@click.option("--exact-depth", type=click.IntRange(min=0), default=None,
              help="With --estimate: count each path's subtree exactly below this many pieces (default 60% of the pieces).")
@click.option("--time-limit", type=SECONDS, default=None)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--svg", "svg_out", type=click.Path(dir_okay=False), default=None, help="Write the tiling as SVG.")
@click.option("--plain", is_flag=True, help="Letters only (the shapes), no colours.")
@click.option("--json", "as_json", is_flag=True)
@friendly_errors
def blokus_solitaire_tetrominoes(region_spec, colors, backend, corner_contact, no_edge_rule, do_count, method, engine, depth,
                                 workers, threads, scheduler, checkpoint, repair, verify, probes, exact_depth, time_limit, seed, svg_out,
                                 plain, as_json):
    """Tile a rectangle with 5 tetrominoes per color; same colors never share an edge.

    A tiling prints one cell per letter (the shape: I O T L S).  On a terminal each piece has its colour's
    background; piped, each cell is letter + colour digit (I1 = an I of colour 1; a legend line names the
    colours), so the colours survive; --plain gives the letters only.  Two touching pieces that would
    print alike differ in case.

    Counts and estimates are long jobs on 10x8 (see --estimate): they say on stderr what they prepare,
    then show progress; Ctrl-C stops with the parts done (resumable with --checkpoint).
    """
    from puzzles.polyomino import Region
    from solvers.blokus.tetrominoes import ColoredTilingProblem, pieces_json, to_tiling
    from solvers.warmup import ensure_compiled

    if (repair or verify) and not (checkpoint and do_count):
        raise ValueError("--repair and --verify work on a --count --checkpoint FILE")
    problem = ColoredTilingProblem(Region.from_spec(region_spec), colors, edge_rule=not no_edge_rule, corner_contact=corner_contact)
    if not problem.area_ok:
        raise click.ClickException(f"the region has {problem.region.area} cells, the pieces {4 * len(problem.pieces)}")
    ensure_compiled("tilings", "solitaire")
    if svg_out:
        check_output_path(svg_out)
    if probes:
        data = _estimate_tetromino_tilings(problem, probes, seed, exact_depth, time_limit, as_json)
        _print_tetromino_estimate(data, as_json)
        if data["interrupted"]:
            exit_interrupted()
        return
    if do_count:
        auto = method == "auto" and not corner_contact and _engine_is_default()
        if method == "dp" or (auto and _dp_suits(problem)):
            result = _dp_count_tetromino_tilings(problem, time_limit, as_json)
        else:
            result = _count_tetromino_tilings(problem, "split" if method == "split" or auto else engine, depth, workers,
                                              scheduler, checkpoint, time_limit, as_json, repair, verify)
        if result.stopped_by == "interrupt":
            exit_interrupted()
        return
    start = time.perf_counter()
    status = "found"
    try:
        pieces = problem.find(backend, time_limit=time_limit, workers=threads, seed=seed)
    except TimeoutError:
        pieces, status = None, "unknown (time limit)"
    seconds = time.perf_counter() - start
    if pieces is None and status == "found":
        status = "proved: no tiling" if backend in ("sat", "dlx", "bitset") else "proved: no tiling (CP-SAT infeasible)"
    if pieces is not None and svg_out:
        with open(svg_out, "w") as handle:
            handle.write(to_tiling(problem.region, pieces)._repr_svg_())
    if as_json:
        emit_json({"status": status, "found": pieces is not None, "seconds": round(seconds, 3),
                   **(pieces_json(pieces) if pieces else {"pieces": []})})
    elif pieces is None:
        click.echo("no tiling exists (proved: the search was exhaustive)" if status.startswith("proved")
                   else f"no tiling found: unknown, the time limit ({time_limit} s) stopped the search")
    else:
        click.echo(_colored_tiling_text(to_tiling(problem.region, pieces), colors, plain))
        click.echo(f"status: found with {backend} in {seconds:.2f} s, verified")


def _engine_is_default() -> bool:
    """Whether ``--engine`` was left out (an explicit direct engine keeps ``--method auto`` on the direct search)."""
    from click.core import ParameterSource

    return click.get_current_context().get_parameter_source("engine") == ParameterSource.DEFAULT


def _colored_tiling_text(tiling: Any, colors: int, plain: bool) -> str:
    """A coloured tiling as text: ANSI colours on a terminal; piped, letter + colour digit and a legend line;
    ``plain``: letters only."""
    import sys

    from solvers.blokus.tetrominoes import COLOR_NAMES

    if plain:
        return tiling.to_text(color=False)
    if sys.stdout.isatty():
        return tiling.to_text(color=True)
    legend = ", ".join(f"{k + 1} {COLOR_NAMES[k]}" for k in range(colors))
    return tiling.to_text(color=False, color_digits=True) + f"\ncolours: {legend} (letters: shapes)"


def _estimate_tetromino_tilings(problem: Any, probes: int, seed: int, exact_depth: int | None,
                                time_limit: float | None, as_json: bool) -> dict[str, Any]:
    """``solitaire tetrominoes --estimate``: Knuth's estimate, with a notice and progress over its random paths."""
    from commands.long_job import heartbeat, notice
    from solvers.blokus.tetromino_search import estimate_canonical

    progress = ProgressReporter(probes, "random paths", enabled=not as_json, unit="paths")
    exact = "60% of the pieces" if exact_depth is None else f"{exact_depth} pieces"
    notice(progress, f"estimating from {probes:,} random paths of the canonical search, each counted exactly below "
                     f"{exact}, in chunks of 2,000 (Ctrl-C stops with the paths done) ...")
    try:
        with heartbeat(progress):
            return estimate_canonical(problem, probes, seed, -1 if exact_depth is None else exact_depth, time_limit,
                                      progress=lambda done, _total: progress.advance(done - progress.done))
    finally:
        progress.close()


def _print_tetromino_estimate(data: dict[str, Any], as_json: bool) -> None:
    """``solitaire tetrominoes --estimate``: the Knuth estimates with their standard errors."""
    if as_json:
        emit_json(data)
        return
    click.echo(f"estimate from {data['probes']} random paths of the canonical search (exact below "
               f"{data['exact_depth']} pieces), {data['cpu_seconds']:.1f} CPU-s; status: {data['status']} "
               "(± one standard error)")
    click.echo(f"  raw tilings (coloured drawings):            {data['raw']:.4g} ± {data['raw_stderr']:.2g}")
    click.echo(f"  up to colour permutations:                  {data['canonical']:.4g} ± {data['canonical_stderr']:.2g}")
    click.echo(f"  up to the region's symmetries:              {data['symmetry']:.4g} ± {data['symmetry_stderr']:.2g}")
    click.echo(f"  up to symmetries and colour permutations:   {data['symmetry_colors']:.4g} "
               f"± {data['symmetry_colors_stderr']:.2g}")
    click.echo(f"  search nodes (canonical tree):              {data['nodes_estimate']:.3g}")


DP_MAX_SIDE = 4  # --method auto: the DP for regions whose short side is at most this (20x4 seed rule: 101 CPU-s;
# 16x5 outgrows its memory budget, docs/tetromino-count.md)


def _dp_suits(problem: Any) -> bool:
    """Whether ``--method auto`` counts with the frontier DP: the edge rule and a short side up to
    :data:`DP_MAX_SIDE` cells (without the edge rule the split method's colourings are a closed formula, faster)."""
    if not problem.edge_rule:
        return False
    rows = [r for r, _ in problem.region.cells]
    cols = [c for _, c in problem.region.cells]
    return min(max(rows) - min(rows), max(cols) - min(cols)) + 1 <= DP_MAX_SIDE


def _dp_count_tetromino_tilings(problem: Any, time_limit: float | None, as_json: bool) -> Any:
    """``solitaire tetrominoes --count --method dp``: the frontier DP with progress per cell, then the symmetry
    fixed points; prints the four counts, the states and the CPU time; returns a ColorCounts."""
    import math

    from commands.long_job import heartbeat, notice
    from solvers.blokus.tetromino_dp import TetrominoDP, symmetry_counts
    from solvers.blokus.tetrominoes import ColorCounts

    dp = TetrominoDP(problem)
    progress = ProgressReporter(dp.n, "cells done", enabled=not as_json, unit="cells")
    notice(progress, f"frontier DP over {dp.n} cells ({dp.lines} lines of {dp.W}): loading or compiling the "
           "kernels (a first run compiles for ~30 s) ...; Ctrl-C stops it")
    start = time.process_time()
    stopped = ""

    def on_cell(cell: int, held: int, states: int) -> None:
        progress.advance(cell + 1 - progress.done, f"{states:,} states, {held:,} held")

    try:
        with heartbeat(progress):
            result = dp.run(progress=on_cell, time_limit=time_limit)
    except KeyboardInterrupt:
        result, stopped = None, "interrupt"
    finally:
        progress.close()
    sym = sym_col = None
    if result is not None and result.complete:
        notice(progress, "symmetry: counting the tilings each symmetry fixes (exact cover) ...")
        sym, sym_col = symmetry_counts(problem, result.raw)
    elif result is not None:
        stopped = result.stopped_by
    seconds = time.process_time() - start
    counts = ColorCounts(result.raw if result else 0, sym, sym_col, result is not None and result.complete, 0, 0,
                         seconds, stopped_by=stopped)
    if as_json:
        extra: dict[str, Any] = {"method": "dp"}
        if result is not None:
            extra.update({"count_modulo_colors": result.modulo_colors if result.complete else None,
                          "states": result.states, "peak_states": result.peak_states,
                          "transitions": result.transitions})
        emit_json({**counts.to_json(), **extra})
        return counts
    if counts.complete and result is not None:
        click.echo("status: proved (exhaustive count, frontier DP)")
        click.echo(f"raw tilings: {result.raw}")
        click.echo(f"modulo color permutations: {result.modulo_colors} (raw / {math.factorial(problem.colors)})")
        click.echo(f"up to the region's symmetries: {sym}")
        click.echo(f"up to symmetries and color permutations: {sym_col}")
    else:
        why = {"interrupt": "interrupted", "time_limit": "time limit",
               "memory": "its states outgrew the memory budget: the region is out of the DP's reach, "
                         "--method split counts it by parts"}[stopped]
        click.echo(f"status: incomplete ({why}); the DP keeps no checkpoint")
        if result is not None:
            click.echo(f"raw tilings: at least {result.raw} (lower bound: the tilings finished so far)")
    if result is not None:
        click.echo(f"{result.states:,} DP states (at most {result.peak_states:,} held at once), "
                   f"{result.transitions:,} transitions, {seconds:.2f} CPU-s")
    return counts


def _count_tetromino_tilings(problem: Any, engine: str, depth: int, workers: int, scheduler: str | None,
                             checkpoint: str | None, time_limit: float | None, as_json: bool, repair: bool = False,
                             verify: int = 0) -> Any:
    """``solitaire tetrominoes --count``: count with notices and progress, print the counts, return the result."""
    from commands.long_job import heartbeat, notice

    progress = ProgressReporter(None, "parts done", enabled=not as_json, unit="parts")

    def on_start(done: int, total: int) -> None:
        where = "on the Dask cluster" if scheduler else f"on {workers} processes" if workers > 1 else "in this process"
        kept = f"kept in {checkpoint}: the same command resumes" if checkpoint else "--checkpoint FILE makes it resumable"
        progress.set_total(total)
        progress.advance(done - progress.done)
        notice(progress, f"{total - done:,} parts to count {where}"
               + (f" ({done:,} of {total:,} already counted in {checkpoint})" if done else "")
               + f"; Ctrl-C stops with the parts done ({kept})")

    def on_part(done: int, total: int, raw: int) -> None:
        progress.advance(done - progress.done, f"{raw:,} tilings so far")

    method = ("split method (shape tilings first, colours ignored, then each one's colour classes): "
              if engine == "split" else "")
    notice(progress, f"{method}splitting the search into parts at depth {depth} ...")
    try:
        with heartbeat(progress):
            result = problem.count(depth=depth, workers=workers, checkpoint=checkpoint, on_part=on_part,
                                   scheduler=scheduler, engine=engine, time_limit=time_limit, on_start=on_start,
                                   repair=repair, verify=verify)
    finally:
        progress.close()
    if as_json:
        emit_json(result.to_json())
        return result
    method = "split method" if engine == "split" else f"engine {engine}"
    if result.complete:
        click.echo(f"status: proved (exhaustive count, {method})")
        click.echo(f"raw tilings: {result.raw}")
        click.echo(f"up to the region's symmetries: {result.symmetry}")
        click.echo(f"up to symmetries and color permutations: {result.symmetry_colors}")
    else:
        click.echo(f"status: {result.status}: {result.parts_done:,}/{result.parts_total:,} parts counted; "
                   + (f"the same command resumes from {checkpoint}" if checkpoint
                      else "--checkpoint FILE would keep them for a rerun"))
        click.echo(f"raw tilings: at least {result.raw} (lower bound)")
    if result.shape_tilings is not None:
        click.echo(f"shape tilings (colours ignored){'' if result.complete else ' so far'}: {result.shape_tilings}")
    click.echo(f"{result.nodes} nodes, {result.seconds:.2f} s")
    return result


@blokus_solitaire.command("all-pieces")
@click.option("--board", default="20x20", show_default=True, metavar="WxH",
              help="Columns x rows (5..26 each); each color starts in its own corner of the rectangle.")
@click.option("--colors", type=click.IntRange(1, 4), default=4, show_default=True,
              help="Colors whose 21 pieces must all be placed (2: blue and red, opposite corners; 3: blue, yellow, red).")
@click.option("--symmetric", is_flag=True, help="Only solutions invariant under the board's symmetry that maps blue to "
              "each color (20x20: the 90° turn; without it: a symmetric solution re-arranged by CP-SAT until it is not; "
              "3 colors: no symmetry, the colors are searched directly; on tight boards (at most 6 spare cell orbits) "
              "CP-SAT may place the last 4 pieces of every color in any arrangement).")
@click.option("--symmetry", type=click.Choice(["quarter-turn", "half-turn", "mirrors"]), default=None,
              help="4 colors: the symmetry searched (default: quarter-turn on a square board, mirrors otherwise).")
@click.option("--perfect", is_flag=True, help="Each color's last piece is its monomino (20 points each).")
@click.option("--time-limit", type=SECONDS, default=60.0, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@option_with_hidden_alias("--threads", "--workers", "workers", type=WORKERS, default=1, show_default=True,
                          help="CP-SAT solver threads (repair steps).")
@click.option("--sgf", "sgf_out", type=click.Path(dir_okay=False), default=None,
              help="Write the solution (.blksgf; the standard 20x20 board with 4 colors only).")
@click.option("--svg", "svg_out", type=click.Path(dir_okay=False), default=None, help="Write the board as SVG.")
@click.option("--json", "as_json", is_flag=True)
@friendly_errors
def blokus_solitaire_all_pieces(board, colors, symmetric, symmetry, perfect, time_limit, seed, workers, sgf_out, svg_out,
                                as_json):
    """Place all the pieces of 1..4 colors on a board under the real rules (replayed through the engine)."""
    from puzzles.blokus.records import to_sgf
    from puzzles.blokus.render import board_svg
    from solvers.blokus.solitaire import geometry, parse_board, solve_all_pieces
    from solvers.warmup import ensure_compiled

    geo = geometry(*parse_board(board), colors, symmetry)  # refuses malformed or too small boards at once
    if sgf_out and not geo.is_classic():
        raise ValueError(f"--sgf: Pentobi's SGF has no {geo.name} board (only 20x20 with 4 colors); use --svg or --json")
    if symmetric and geo.maps is None:
        raise ValueError(f"--symmetric: {colors} colors have no board symmetry carrying blue's corner to the others")
    for path in (sgf_out, svg_out):
        if path:
            check_output_path(path)  # refused before the search, not after it
    ensure_compiled("blokus")  # the search's kernels and the rule engine that replays the solution
    progress = ProgressReporter(None, "searching", enabled=not as_json)
    try:
        result = solve_all_pieces(symmetric=symmetric, perfect=perfect, time_limit=time_limit, seed=seed,
                                  workers=workers, progress=lambda note: progress.advance(1, note),
                                  board=(geo.cols, geo.rows), colors=colors, symmetry=symmetry)
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
    elif state is None:
        why = ("interrupted" if result.status == "interrupted"
               else f"unknown: the time limit ({time_limit} s) stopped a search that is not exhaustive")
        click.echo(f"status: no layout found on {geo.name} in {result.seconds:.1f} s ({why}; "
                   f"best {result.best_placed} pieces)")
    if result.status == "interrupted":
        exit_interrupted()  # partial result printed; exit status 130
    if as_json or state is None:
        return
    click.echo(state.to_text())
    if symmetric or colors == 1:
        mode = f"symmetric: {result.symmetry}"
    elif geo.maps is None:
        mode = "general: all colors searched"
    else:
        mode = (f"general: {result.rearranged} CP-SAT re-arrangements of a symmetric solution, "
                f"{'still' if result.quarter_turn_symmetric else 'no longer'} symmetric")
    click.echo(f"status: found; all {result.placed} pieces placed on {geo.name} ({result.empty_cells} empty cells) "
               f"in {result.seconds:.1f} s ({mode}{', perfect' if perfect else ''}); "
               f"replayed move by move through the rule engine; scores {state.color_scores()}")
