"""`kibitz blokus`: play, bot match-ups, records, move lists, perft, and the `solitaire` puzzles."""

from __future__ import annotations

import time
from typing import Any

import click

from cli import (
    ProgressReporter,
    emit_json,
    friendly_errors,
    merge_into,
    parallel_options,
    run_in_ranges,
)

BLOKUS_VARIANTS = ["classic", "two-player", "teams", "three-player", "duo"]


@click.group()
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


# ---- solitaire (issue 4) ----
# Owner: issue 4 (Blokus solitaires, tiling challenges).  Logic lives in
# solvers/blokus/tetrominoes.py, solvers/blokus/solitaire.py.


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
