"""`kibitz generate`: puzzle generators and printable sheets (puzzles/sheets.py).

tiling (solvers/challenges.py), towers (solvers/towers/challenges.py), shelfie (solvers/shelfie/challenges.py),
blokus-fit (solvers/blokus/challenges.py), projectl-deck (solvers/projectl/deckgen.py, deck_sheets.py).
Each challenge is written as a puzzle sheet and a separate solution sheet (``--out DIR``, ``--format``), or
``--booklet N`` puzzles with their solutions at the back (``--out FILE``)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from commands.common import (
    SECONDS,
    ProgressReporter,
    ctrl_c_held,
    emit_json,
    exit_interrupted,
    friendly_errors,
    parallel_options,
)
from puzzles.sheets import FORMATS, booklet_pages, format_of, sheet_bytes


@click.group("generate")
def generate_group() -> None:
    """Generate puzzles."""


def challenge_options(seed_help: str | None = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The options every challenge kind shares: --count, --difficulty, --seed, --solution, --out, --json, --format
    and --booklet (``seed_help``: what the seed draws in this kind)."""
    options = [
        click.option("--count", type=click.IntRange(min=1), default=1, show_default=True),
        click.option("--difficulty", type=click.Choice(["easy", "medium", "hard"]), default="medium",
                     show_default=True),
        click.option("--seed", type=int, default=0, show_default=True, help=seed_help),
        click.option("--solution", "show_solution", is_flag=True, help="Also print the solutions (text, or in the JSON)."),
        click.option("--out", "out_dir", type=click.Path(), default=None,
                     help="Write each puzzle sheet challenge_SEED.* there, its solution apart: solution_SEED.*"
                          " (with --booklet: the booklet's file)."),
        click.option("--json", "as_json", is_flag=True),
        click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
                     help="Sheet format: svg, pdf (the 'pictures' extra), txt or json. With --out DIR and no"
                          " --format: txt, json and svg."),
        click.option("--booklet", type=click.IntRange(min=1), default=None,
                     help="N puzzles (instead of --count) on pages, their solutions at the back, in one file"
                          " (--out FILE; stdout without it)."),
    ]

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        for option in reversed(options):
            command = option(command)
        return command

    return decorate


@generate_group.command("tiling")
@click.option("--pieces", "set_name", default="pentominoes", show_default=True,
              help="Named set to draw from: pentominoes, tetrominoes, trominoes, blokus (one color's 21 pieces), ...")
@click.option("--time-limit", type=SECONDS, default=None)
@challenge_options()
@parallel_options
@friendly_errors
def generate_tiling(set_name, count, difficulty, seed, show_solution, out_dir, time_limit, as_json, fmt, booklet,
                    workers, scheduler):
    """Tiling challenges whose solution is unique (proved by an exhaustive count)."""
    from solvers.challenges import generate
    from solvers.parallel import make_executor
    from solvers.warmup import ensure_compiled

    plan = SheetPlan.make(out_dir, fmt, booklet, count)
    ensure_compiled("tilings")
    executor, close = make_executor(workers or 1, scheduler)
    try:
        found, status = _collect(generate(plan.count, difficulty, set_name, seed, time_limit,
                                          executor=None if (workers or 1) == 1 and not scheduler else executor),
                                 plan.count, as_json, plan.writer())
    finally:
        close()

    def text(ch: Any) -> str:
        return ch.to_text() + (f"\nsolution:\n{ch.solution.to_text(color=False)}" if show_solution else "")

    plan.finish(found, status, as_json, text, lambda ch: ch.to_json(with_solution=show_solution))


@dataclass
class SheetPlan:
    """Where and how the sheets go: per challenge into a folder, a booklet into a file, or nothing (stdout only)."""

    out: str | None
    fmt: str | None
    booklet: bool
    count: int

    @classmethod
    def make(cls, out: str | None, fmt: str | None, booklet: int | None, count: int) -> SheetPlan:
        """Check the options before any work: a folder for per-challenge sheets, a file for a booklet."""
        if booklet is not None:
            fmt = format_of(out, fmt) if out else (fmt or "txt")
            if fmt == "pdf" and not out:
                raise ValueError("a PDF booklet needs --out FILE")
            if out:
                _check_out_dir(str(Path(out).parent) if Path(out).parent != Path("") else ".")
                if Path(out).is_dir():
                    raise ValueError(f"--out {out} is a folder; a booklet is one file")
            if fmt == "pdf":
                _require_pdf()
            return cls(out, fmt, True, booklet)
        if fmt in ("svg", "pdf") and not out:
            raise ValueError(f"--format {fmt} writes files: give --out DIR (or --booklet N --out FILE)")
        if fmt == "pdf":
            _require_pdf()
        if out:
            _check_out_dir(out)
        return cls(out, fmt, False, count)

    def writer(self) -> Callable[[Any], None] | None:
        """What writes each challenge as soon as it is found (per-challenge sheets), or None."""
        if self.booklet or not self.out:
            return None
        out = Path(self.out)
        formats = [self.fmt] if self.fmt else ["txt", "json", "svg"]

        def write(ch: Any) -> None:
            for fmt in formats:  # the solution's sheet after the puzzle's
                (out / f"challenge_{ch.seed}.{fmt}").write_bytes(sheet_bytes([[ch.puzzle_panel()]], fmt))
                (out / f"solution_{ch.seed}.{fmt}").write_bytes(sheet_bytes([[ch.solution_panel()]], fmt))
        return write

    def finish(self, found: list[Any], status: str, as_json: bool, text: Callable[[Any], str],
               to_json: Callable[[Any], dict[str, Any]]) -> None:
        """The booklet (when asked: into its file, or on stdout), then the report of what was found."""
        if not self.booklet:
            _report(found, status, self.count, as_json, text, to_json)
            return
        assert self.fmt is not None
        pages = booklet_pages([c.puzzle_panel() for c in found], [c.solution_panel() for c in found])
        data = sheet_bytes(pages, self.fmt) if found else b""
        if self.out and as_json:
            Path(self.out).write_bytes(data)
            _report(found, status, self.count, as_json, text, to_json)
            return
        if self.out:
            Path(self.out).write_bytes(data)
            click.echo(f"wrote a booklet of {len(found)} puzzles ({len(pages)} pages) to {self.out}")
        else:
            click.echo(data.decode(), nl=False)
        if status != "complete":
            click.echo(f"{status}: {len(found)} of {self.count} challenges found and kept", err=True)
        if status == "interrupted":
            exit_interrupted()


def _require_pdf() -> None:
    """A one-line error naming the extra when cairosvg is missing (before any work)."""
    try:
        import cairosvg  # type: ignore[import-untyped]  # noqa: F401
    except ImportError:
        raise ValueError("--format pdf needs cairosvg: pip install 'kibitz[pictures]'") from None


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
            with ctrl_c_held():  # written and listed together: a Ctrl-C lands before or after both
                if write is not None:
                    write(ch)
                found.append(ch)
            progress.advance()
    except TimeoutError:
        status = "time limit"
    except KeyboardInterrupt:
        status = "interrupted"
    finally:
        progress.close()
    return found, status


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
@challenge_options("First candidate seed (a challenge's seed is printed).")
@friendly_errors
def generate_towers(count, difficulty, seed, show_solution, out_dir, as_json, fmt, booklet):
    """Rainbow Blackjack endgames where exactly one move wins or saves the draw (proved by the exact solver)."""
    from solvers.towers.challenges import generate
    from solvers.warmup import ensure_compiled

    plan = SheetPlan.make(out_dir, fmt, booklet, count)
    ensure_compiled("towers")

    def text(ch: Any) -> str:
        return ch.to_text() + ("\n" + ch.solution_text() if show_solution else "")

    def as_dict(ch: Any) -> dict[str, Any]:
        return {**ch.to_json(), "solution": ch.solution_json()} if show_solution else ch.to_json()

    found, status = _collect(generate(plan.count, difficulty, seed), plan.count, as_json, plan.writer())
    plan.finish(found, status, as_json, text, as_dict)


@generate_group.command("shelfie")
@challenge_options("First seed (draws the personal card and the goals).")
@friendly_errors
def generate_shelfie(count, difficulty, seed, show_solution, out_dir, as_json, fmt, booklet):
    """My Shelfie: the best shelf for a personal goal card and two common goals (optimum proved by CP-SAT)."""
    from solvers.shelfie.challenges import generate
    from solvers.warmup import ensure_compiled

    plan = SheetPlan.make(out_dir, fmt, booklet, count)
    ensure_compiled("shelfie")
    _run_simple(plan, generate(plan.count, difficulty, seed), show_solution, as_json)


@generate_group.command("blokus-fit")
@challenge_options("First seed (the solitaire game played out).")
@friendly_errors
def generate_blokus_fit(count, difficulty, seed, show_solution, out_dir, as_json, fmt, booklet):
    """Blokus solitaire positions with pieces to fit back in exactly one way (proved by an exhaustive count)."""
    from solvers.blokus.challenges import generate
    from solvers.warmup import ensure_compiled

    plan = SheetPlan.make(out_dir, fmt, booklet, count)
    ensure_compiled("blokus")
    _run_simple(plan, generate(plan.count, difficulty, seed), show_solution, as_json)


def _run_simple(plan: SheetPlan, challenges: Iterator[Any], show_solution: bool, as_json: bool) -> None:
    """Collect, write and report challenges with ``to_text``/``to_json``/``solution_text``/``solution_json``."""
    found, status = _collect(challenges, plan.count, as_json, plan.writer())
    plan.finish(found, status, as_json,
                lambda ch: ch.to_text() + ("\n" + ch.solution_text() if show_solution else ""),
                lambda ch: {**ch.to_json(), "solution": ch.solution_json()} if show_solution else ch.to_json())


@generate_group.command("projectl-deck")
@click.option("--seed", type=int, default=None, help="Generator seed (default: the shipped default deck's seed).")
@click.option("--out", type=click.Path(dir_okay=False), default=None,
              help="Write the deck here, in the format of --format or of the file's suffix (.txt deck file, .svg, .pdf,"
                   " .json); svg and pdf also write the solutions sheet beside it (NAME_solutions.svg/.pdf).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=None, help="svg, pdf, txt (the deck file) or json.")
@click.option("--json", "as_json", is_flag=True, help="Statistics and cards as JSON.")
@friendly_errors
def generate_projectl_deck(seed: int | None, out: str | None, fmt: str | None, as_json: bool) -> None:
    """Generate 32 white + 20 black Project L cards with the published statistics (each verified completable)."""
    from solvers.projectl.deckgen import DEFAULT_SEED, deck_statistics, deck_text, generate_deck

    seed = DEFAULT_SEED if seed is None else seed
    fmt = format_of(out, fmt) if out else fmt
    if fmt in ("svg", "pdf") and not out:
        raise ValueError(f"--format {fmt} writes files: give --out FILE")
    if fmt == "pdf":
        _require_pdf()
    cards = generate_deck(seed)
    deck_json = {"seed": seed, "statistics": deck_statistics(cards), "cards": [c.to_json() for c in cards]}
    if out:
        Path(out).write_bytes(_deck_bytes(seed, fmt or "txt", deck_json, out))
    if as_json:
        emit_json(deck_json)
    elif out:
        click.echo(f"wrote 52 cards (seed {seed}) to {out}" + (f" and the solutions to {_solutions_path(out)}"
                                                               if fmt in ("svg", "pdf") else ""))
    else:
        click.echo(deck_text(seed), nl=False)


def _solutions_path(out: str) -> Path:
    path = Path(out)
    return path.with_name(f"{path.stem}_solutions{path.suffix}")


def _deck_bytes(seed: int, fmt: str, deck_json: dict[str, Any], out: str) -> bytes:
    """The deck in ``fmt``: the deck file (txt), its JSON, or the card sheets (svg/pdf, solutions written apart)."""
    from solvers.projectl.deck_sheets import deck_panels
    from solvers.projectl.deckgen import deck_text

    if fmt == "txt":
        return deck_text(seed).encode()
    if fmt == "json":
        return (json.dumps(deck_json, indent=1) + "\n").encode()
    puzzles, solutions = deck_panels(seed)
    _solutions_path(out).write_bytes(sheet_bytes([[p] for p in solutions], fmt))
    return sheet_bytes([[p] for p in puzzles], fmt)
