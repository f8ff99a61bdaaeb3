"""`kibitz generate`: puzzle generators (tiling challenges with a unique solution, solvers/challenges.py)."""

from __future__ import annotations

import click

from cli import ProgressReporter, emit_json, friendly_errors, parallel_options


@click.group("generate")
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
    import os
    from pathlib import Path

    from solvers.challenges import generate
    from solvers.parallel import make_executor

    if out_dir:  # checked before the work, not after it
        try:
            Path(out_dir).mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise ValueError(f"cannot create --out folder {out_dir}: {error.strerror or error}") from None
        if not os.access(out_dir, os.W_OK):
            raise ValueError(f"--out folder {out_dir} is not writable")
    executor, close = make_executor(workers or 1, scheduler)
    progress = ProgressReporter(count, "challenges", enabled=not as_json)
    try:
        found = list(generate(count, difficulty, set_name, seed, time_limit, on_found=lambda _: progress.advance(),
                              executor=None if (workers or 1) == 1 and not scheduler else executor))
    except TimeoutError as error:
        raise click.ClickException(str(error)) from None
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


@generate_group.command("towers")
@click.option("--count", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--difficulty", type=click.Choice(["easy", "medium", "hard"]), default="medium", show_default=True)
@click.option("--seed", type=int, default=0, show_default=True, help="First candidate seed (a challenge's seed is printed).")
@click.option("--solution", "show_solution", is_flag=True, help="Also print the solutions (text mode).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Write challenge_SEED.json (playable: kibitz towers play --from FILE) and .txt there.")
@click.option("--json", "as_json", is_flag=True)
@friendly_errors
def generate_towers(count, difficulty, seed, show_solution, out_dir, as_json):
    """Rainbow Blackjack endgames where exactly one move wins or saves the draw (proved by the exact solver)."""
    import json as _json
    from pathlib import Path

    from solvers.towers.challenges import generate

    progress = ProgressReporter(count, "challenges", enabled=not as_json)
    try:
        found = list(generate(count, difficulty, seed, on_found=lambda _: progress.advance()))
    finally:
        progress.close()
    if out_dir:
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        for ch in found:
            (out / f"challenge_{ch.seed}.json").write_text(_json.dumps(ch.to_json(), indent=1) + "\n")
            (out / f"challenge_{ch.seed}.txt").write_text(ch.to_text(with_solution=True) + "\n")
    if as_json:
        emit_json({"challenges": [ch.to_json() for ch in found]})
        return
    for ch in found:
        click.echo(ch.to_text(with_solution=show_solution))
        click.echo("")
