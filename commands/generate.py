"""`kibitz generate`: puzzle generators (tiling challenges with a unique solution, solvers/challenges.py)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click

from commands.common import SECONDS, ProgressReporter, emit_json, exit_interrupted, friendly_errors, parallel_options


@click.group("generate")
def generate_group() -> None:
    """Generate puzzles."""


@generate_group.command("tiling")
@click.option("--pieces", "set_name", default="pentominoes", show_default=True,
              help="Named set to draw from: pentominoes, tetrominoes, trominoes, blokus (one color's 21 pieces), ...")
@click.option("--count", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--difficulty", type=click.Choice(["easy", "medium", "hard"]), default="medium", show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--solution", "show_solution", is_flag=True, help="Also print the solutions (text, or in the JSON).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Write the puzzles challenge_N.txt/.svg/.json there, their solutions apart: solution_N.txt/.json/.svg.")
@click.option("--time-limit", type=SECONDS, default=None)
@click.option("--json", "as_json", is_flag=True)
@parallel_options
@friendly_errors
def generate_tiling(set_name, count, difficulty, seed, show_solution, out_dir, time_limit, workers, scheduler, as_json):
    """Tiling challenges whose solution is unique (proved by an exhaustive count)."""
    from solvers.challenges import generate
    from solvers.parallel import make_executor
    from solvers.warmup import ensure_compiled

    if out_dir:  # checked before the work, not after it
        _check_out_dir(out_dir)
    ensure_compiled("tilings")
    executor, close = make_executor(workers or 1, scheduler)
    try:
        found, status = _collect(generate(count, difficulty, set_name, seed, time_limit,
                                          executor=None if (workers or 1) == 1 and not scheduler else executor),
                                 count, as_json, (lambda ch: _write_tiling_challenge(Path(out_dir), ch)) if out_dir else None)
    finally:
        close()

    def text(ch: Any) -> str:
        return ch.to_text() + (f"\nsolution:\n{ch.solution.to_text(color=False)}" if show_solution else "")

    _report(found, status, count, as_json, text, lambda ch: ch.to_json(with_solution=show_solution))


def _check_out_dir(out_dir: str) -> None:
    """Create the --out folder, or refuse it in one line, before any work is done."""
    try:
        Path(out_dir).mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"cannot create --out folder {out_dir}: {error.strerror or error}") from None
    if not os.access(out_dir, os.W_OK):
        raise ValueError(f"--out folder {out_dir} is not writable")


def _collect(challenges: Iterator[Any], count: int, as_json: bool,
             write: Callable[[Any], None] | None) -> tuple[list[Any], str]:
    """Draw the challenges, writing each as soon as it is found (Ctrl-C or a time limit loses none).

    Returns them with the status: ``complete``, ``time limit`` or ``interrupted``."""
    progress = ProgressReporter(count, "challenges", enabled=not as_json)
    found: list[Any] = []
    status = "complete"
    try:
        for ch in challenges:
            found.append(ch)
            progress.advance()
            if write is not None:
                write(ch)
    except TimeoutError:
        status = "time limit"
    except KeyboardInterrupt:
        status = "interrupted"
    finally:
        progress.close()
    return found, status


def _write_tiling_challenge(out: Path, ch: Any) -> None:
    """The puzzle challenge_SEED.txt/.json/.svg, its answer apart in solution_SEED.txt/.json/.svg (seed-numbered).

    The SVG of the solution is written last (a complete challenge has it)."""
    (out / f"challenge_{ch.seed}.txt").write_text(ch.to_text() + "\n")
    (out / f"challenge_{ch.seed}.json").write_text(json.dumps(ch.to_json(with_solution=False), indent=1) + "\n")
    (out / f"challenge_{ch.seed}.svg").write_text(ch.region_svg())
    (out / f"solution_{ch.seed}.txt").write_text(ch.solution.to_text(color=False) + "\n")
    (out / f"solution_{ch.seed}.json").write_text(json.dumps(ch.solution_json(), indent=1) + "\n")
    (out / f"solution_{ch.seed}.svg").write_text(ch.solution_svg())


def _report(found: list[Any], status: str, asked: int, as_json: bool, text: Callable[[Any], str],
            to_json: Callable[[Any], dict[str, Any]]) -> None:
    """The challenges found (JSON with the status, or text), then the status on stderr; exit 130 after Ctrl-C."""
    if as_json:
        emit_json({"status": status, "interrupted": status == "interrupted", "challenges": [to_json(ch) for ch in found]})
    else:
        for ch in found:
            click.echo(text(ch) + "\n")
    if status != "complete":
        click.echo(f"{status}: {len(found)} of {asked} challenges found and kept", err=True)
    if status == "interrupted":
        exit_interrupted()


@generate_group.command("towers")
@click.option("--count", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--difficulty", type=click.Choice(["easy", "medium", "hard"]), default="medium", show_default=True)
@click.option("--seed", type=int, default=0, show_default=True, help="First candidate seed (a challenge's seed is printed).")
@click.option("--solution", "show_solution", is_flag=True, help="Also print the solutions (text, or in the JSON).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Write the puzzles challenge_SEED.json (playable: kibitz towers play --from FILE) and .txt there,"
                   " their solutions apart: solution_SEED.json/.txt.")
@click.option("--json", "as_json", is_flag=True)
@friendly_errors
def generate_towers(count, difficulty, seed, show_solution, out_dir, as_json):
    """Rainbow Blackjack endgames where exactly one move wins or saves the draw (proved by the exact solver)."""
    from solvers.towers.challenges import generate
    from solvers.warmup import ensure_compiled

    if out_dir:
        _check_out_dir(out_dir)
    ensure_compiled("towers")

    def write(ch: Any) -> None:
        out = Path(out_dir)
        (out / f"challenge_{ch.seed}.json").write_text(json.dumps(ch.to_json(), indent=1) + "\n")
        (out / f"challenge_{ch.seed}.txt").write_text(ch.to_text() + "\n")
        (out / f"solution_{ch.seed}.txt").write_text(ch.solution_text() + "\n")
        (out / f"solution_{ch.seed}.json").write_text(json.dumps(ch.solution_json(), indent=1) + "\n")

    def text(ch: Any) -> str:
        return ch.to_text() + ("\n" + ch.solution_text() if show_solution else "")

    def as_dict(ch: Any) -> dict[str, Any]:
        return {**ch.to_json(), "solution": ch.solution_json()} if show_solution else ch.to_json()

    found, status = _collect(generate(count, difficulty, seed), count, as_json, write if out_dir else None)
    _report(found, status, count, as_json, text, as_dict)
