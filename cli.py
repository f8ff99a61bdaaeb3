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


if __name__ == "__main__":
    main()
