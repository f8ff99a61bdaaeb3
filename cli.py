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

import errno
import functools
import json
import os
import sys
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
    """Turn input errors (:data:`INPUT_ERRORS`) into a one-line ``Error: ...`` and exit status 1, and a Ctrl-C
    the command did not handle into one line and exit status 130."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except KeyboardInterrupt:
            _interrupted_before_a_result()
        except Exception as error:
            if _is_interrupt(error):
                _interrupted_before_a_result()
            if not isinstance(error, INPUT_ERRORS):
                raise
            text = str(error)
            raise click.ClickException(text.splitlines()[0] if text.strip() else type(error).__name__) from None

    return wrapper


def _is_interrupt(error: BaseException) -> bool:
    """A C extension's error raised for a Ctrl-C (python-sat's encoders say "Caught keyboard interrupt")."""
    return "keyboard interrupt" in str(error).lower()


def _interrupted_before_a_result() -> None:
    """Ctrl-C that reached no command's own handler: one line, exit status 130, no traceback."""
    context = click.get_current_context(silent=True)
    if context is not None and context.params.get("as_json"):
        emit_json({"status": "interrupted", "interrupted": True, "result": None})
    click.echo("interrupted (Ctrl-C) before a result: nothing to report", err=True)
    raise SystemExit(INTERRUPTED_EXIT) from None


def emit_json(data: Any) -> None:
    """Print ``data`` as indented JSON."""
    click.echo(json.dumps(data, indent=2, sort_keys=False))


def stderr_is_stream() -> bool:
    """True when stderr is a real stream (terminal, pipe or file), not a test runner's buffer."""
    try:
        sys.stderr.fileno()
    except (AttributeError, OSError, ValueError):
        return _in_notebook()
    return True


def _in_notebook() -> bool:
    shell = sys.modules.get("IPython")
    get = getattr(shell, "get_ipython", None) if shell is not None else None
    return bool(get is not None and get() is not None and type(get()).__name__ == "ZMQInteractiveShell")


class ProgressReporter:
    """Progress on stderr (tqdm: bar, count, rate, ETA) for jobs that last more than ``delay`` seconds.

    Shown whenever stderr is a real stream (terminal, pipe or log file), so piping stdout or asking for
    ``--json`` does not hide it; ``enabled=False`` (``--quiet``) silences it.  ``total`` may be unknown
    (None) or set later with :meth:`set_total`; ``note`` adds a short status.
    """

    def __init__(self, total: int | None, label: str, enabled: bool = True, unit: str = "it",
                 delay: float = 2.0) -> None:
        self.enabled = enabled and stderr_is_stream()
        self.total = total
        self.label = label
        self.done = 0
        self.note = ""
        self._bar: Any = None
        if self.enabled:
            from tqdm import tqdm

            interactive = sys.stderr.isatty() or _in_notebook()
            self._bar = tqdm(total=total, desc=label, unit=unit, delay=delay, file=sys.stderr, dynamic_ncols=True,
                             leave=True, mininterval=0.2 if interactive else 5.0)

    def set_total(self, total: int) -> None:
        self.total = total
        if self._bar is not None:
            self._bar.total = total
            self._bar.refresh()

    def advance(self, steps: int = 1, note: str = "") -> None:
        self.done += steps
        self.note = note or self.note
        if self._bar is not None:
            if self.total is not None and self._bar.total != self.total:
                self._bar.total = self.total
            if note:
                self._bar.set_postfix_str(note, refresh=False)
            self._bar.update(steps)

    def draw(self, force: bool = False) -> None:
        if self._bar is not None:
            self._bar.refresh()

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        self.enabled = False


def quiet_option(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--quiet``: no progress display on stderr."""
    return click.option("--quiet", "-q", is_flag=True, help="No progress display on stderr.")(func)


#: Exit status after Ctrl-C (128 + SIGINT), as shells report it.
INTERRUPTED_EXIT = 130


def exit_interrupted() -> None:
    """End a command that printed its partial result after Ctrl-C: exit status 130."""
    raise SystemExit(INTERRUPTED_EXIT)


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


class KibitzGroup(click.Group):
    """The top-level group: an output that cannot be written (a full disk) is a one-line error, exit 1;
    a Ctrl-C that no command handled is one line and exit 130."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            result = super().invoke(ctx)
            sys.stdout.flush()  # a full disk shows here, not in the interpreter's last flush
            return result
        except KeyboardInterrupt:  # before any command's own handler (while starting): not click's "Aborted!"
            _interrupted_before_a_result()
        except OSError as error:
            if error.errno not in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO):
                raise
            devnull = os.open(os.devnull, os.O_WRONLY)  # what is still buffered goes nowhere, quietly
            os.dup2(devnull, sys.stdout.fileno())
            raise click.ClickException(f"cannot write the output: {error.strerror}") from None


@click.group(cls=KibitzGroup, context_settings={"help_option_names": ["-h", "--help"]})
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
