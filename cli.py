"""kibitz command line: a thin click layer over :mod:`puzzles` and :mod:`solvers`.

Every command prints a clear one-line error and exits non-zero on bad input;
``--json`` gives machine-readable output.  This module holds the entry point
(``kibitz = "cli:main"``): the helpers shared by the commands, the root group
``main``, and, at the end, the registration of the command groups.  The
commands themselves live in the :mod:`commands` package, one module per group:
``commands/tiling.py`` (``tile``, ``cover``), ``commands/blokus.py`` (``blokus``,
with its ``solitaire`` subgroup), ``commands/towers.py``, ``commands/shelfie.py``,
``commands/projectl.py`` and ``commands/generate.py``.  They import the helpers
from here and keep their imports of :mod:`puzzles` and :mod:`solvers` inside the
command functions, so ``kibitz --help`` starts fast.
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


# Exceptions that mean "bad input" (a bad option value, an unreadable or malformed file, an
# illegal move; IllegalActionError is a ValueError).  Anything else, KeyError included, is a bug
# and keeps its traceback.
INPUT_ERRORS: tuple[type[Exception], ...] = (ValueError, FileNotFoundError, IsADirectoryError)


def friendly_errors(func: Callable[..., Any]) -> Callable[..., Any]:
    """Turn input errors (:data:`INPUT_ERRORS`) into a one-line ``Error: ...`` and exit status 1."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except INPUT_ERRORS as error:
            text = str(error)
            raise click.ClickException(text.splitlines()[0] if text.strip() else type(error).__name__) from None

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


def option_with_hidden_alias(name: str, alias: str, dest: str, **settings: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Option ``name`` (stored as ``dest``) that also accepts ``alias``, an old spelling left out of --help."""
    key = f"alias:{dest}"

    def remember_alias(ctx: click.Context, _param: click.Parameter, value: Any) -> None:
        if value is not None:
            ctx.meta[key] = value

    def use_alias(ctx: click.Context, _param: click.Parameter, value: Any) -> Any:
        return ctx.meta.get(key, value) if value == settings.get("default") else value

    def decorator(func: Callable[..., Any]) -> Callable[..., Any]:
        alias_settings = {k: v for k, v in settings.items() if k not in ("help", "show_default", "default")}
        func = click.option(alias, f"{dest}_alias", default=None, hidden=True, expose_value=False,
                            callback=remember_alias, **alias_settings)(func)
        return click.option(name, dest, callback=use_alias, **settings)(func)

    return decorator


def checkpoint_option(help_text: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--checkpoint FILE``: a JSON-lines file of finished tasks, resumed when it exists (old name ``--resume``)."""
    return option_with_hidden_alias("--checkpoint", "--resume", "checkpoint", type=click.Path(dir_okay=False),
                                    default=None, help=help_text)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="kibitz")
def main() -> None:
    """kibitz: solvers and rule engines for Blokus, Project L, My Shelfie and Rainbow Blackjack."""


# --------------------------------------------------------------------------
# command groups (commands/)
# --------------------------------------------------------------------------


def _register() -> None:
    """Attach the command groups; imported here because the command modules import the helpers above."""
    from commands import blokus, generate, projectl, shelfie, tiling, towers

    main.add_command(tiling.tile)
    main.add_command(tiling.cover)
    main.add_command(blokus.blokus)
    main.add_command(towers.towers)
    main.add_command(shelfie.shelfie)
    main.add_command(projectl.projectl)
    main.add_command(generate.generate_group)


_register()


if __name__ == "__main__":
    main()
