"""kibitz command line: a thin click layer over :mod:`puzzles` and :mod:`solvers`.

Every command prints a clear one-line error and exits non-zero on bad input;
``--json`` gives machine-readable output.  Each game has its own group; the
sections below are kept apart so a game's commands can be read on their own.

ENGINEERS: read CONTRIBUTING.md first (edit only your own game's section here;
deadline and final-report format are there too).
"""

from __future__ import annotations

import functools
import json
import sys
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
    """A click progress bar driven by ``update(done)`` calls; silent when not on a terminal."""

    def __init__(self, total: int | None, label: str, enabled: bool = True) -> None:
        self.enabled = enabled and sys.stderr.isatty()
        self.bar = click.progressbar(length=total, label=label, file=sys.stderr, show_eta=True) if self.enabled else None
        self.done = 0
        if self.bar is not None:
            self.bar.__enter__()

    def advance(self, steps: int = 1) -> None:
        self.done += steps
        if self.bar is not None:
            self.bar.update(steps)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="kibitz")
def main() -> None:
    """kibitz: solvers and rule engines for Blokus, Project L, My Shelfie and Rainbow Blackjack."""


# --------------------------------------------------------------------------
# tiling and exact cover (foundation)
# --------------------------------------------------------------------------
# (commands added by the foundation)

# --------------------------------------------------------------------------
# blokus
# --------------------------------------------------------------------------

# --------------------------------------------------------------------------
# towers (Rainbow Blackjack)
# --------------------------------------------------------------------------

# --------------------------------------------------------------------------
# shelfie (My Shelfie)
# --------------------------------------------------------------------------

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
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@friendly_errors
def projectl_check(card_file: str, stock: str, card_id: str | None, no_count: bool, as_json: bool) -> None:
    """Can CARD_FILE's puzzle (cells marked x already filled) be completed from STOCK?"""
    from puzzles.projectl.cards import card_text, load_deck, parse_counts
    from solvers.projectl_checker import check_card

    cards = load_deck(card_file)
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


def _pl_shape(name: str) -> int:
    from puzzles.projectl.cards import shape_index

    return shape_index(name)


def _pl_mask(cells: list) -> int:
    from puzzles.projectl.cards import cells_mask

    return cells_mask(tuple(c) for c in cells)



if __name__ == "__main__":
    main()
