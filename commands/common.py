"""Helpers shared by the command modules: one-line errors, JSON output, progress, common options.

Every command of :mod:`commands` imports what it needs from here; ``cli.py`` only builds the root group and
adds the command groups, so nothing imports ``cli`` back.
"""

from __future__ import annotations

import contextlib
import functools
import json
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, NoReturn

import click

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
            interrupted_before_a_result()
        except Exception as error:
            from solvers.interrupt import is_ctrl_c  # here: numpy stays out of the CLI's start

            if is_ctrl_c(error):
                interrupted_before_a_result()
            if not isinstance(error, INPUT_ERRORS):
                raise
            text = str(error)
            raise click.ClickException(text.splitlines()[0] if text.strip() else type(error).__name__) from None

    return wrapper


def interrupted_before_a_result() -> NoReturn:
    """Ctrl-C that reached no command's own handler: one line, exit status 130, no traceback."""
    context = click.get_current_context(silent=True)
    if context is not None and context.params.get("as_json"):
        emit_json({"status": "interrupted", "interrupted": True, "result": None})
    click.echo("interrupted (Ctrl-C) before a result: nothing to report", err=True)
    raise SystemExit(INTERRUPTED_EXIT) from None


def redeliver_lost_ctrl_c() -> None:
    """Make a Ctrl-C that Python had to drop arrive again, a moment later (installed once per process).

    A KeyboardInterrupt raised inside a ctypes callback cannot propagate: Python prints "Exception ignored" and the
    Ctrl-C is lost, so the command would run on to its end.  numba's loader runs such callbacks while it loads a
    cached kernel, the first time a command calls it.  The hook sends SIGINT again from a helper thread 10 ms later,
    when the main thread is back in plain Python (again, if it lands in another callback)."""
    previous = sys.unraisablehook
    if getattr(previous, "redelivers_ctrl_c", False):
        return

    def hook(unraisable: Any) -> None:
        if unraisable.exc_type is not None and issubclass(unraisable.exc_type, KeyboardInterrupt):
            again = threading.Timer(0.01, os.kill, (os.getpid(), signal.SIGINT))
            again.daemon = True
            again.start()
            return
        previous(unraisable)

    hook.redelivers_ctrl_c = True  # type: ignore[attr-defined]
    sys.unraisablehook = hook


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
    (None) or set later with :meth:`set_total`; ``note`` adds a short status.  The rate and the ETA appear
    only once a unit of work has finished, and are measured from then on: the time before the first unit
    (compiling, splitting, starting workers) says nothing about the time the rest will take.
    """

    def __init__(self, total: int | None, label: str, enabled: bool = True, unit: str = "it",
                 delay: float = 2.0) -> None:
        self.enabled = enabled and stderr_is_stream()
        self.total = total
        self.label = label
        self.unit = unit
        self.done = 0
        self.note = ""
        self._first: tuple[float, int] | None = None  # (when, units done) at the first finished unit
        self._bar: Any = None
        if self.enabled:
            from tqdm import tqdm

            interactive = sys.stderr.isatty() or _in_notebook()
            self._bar = tqdm(total=total, desc=label, unit=unit, delay=delay, file=sys.stderr, dynamic_ncols=True,
                             leave=True, mininterval=0.2 if interactive else 5.0, bar_format=self._format(total))

    @staticmethod
    def _format(total: int | None) -> str:
        """tqdm's layout without its own rate and ETA (they count the start-up time): see :meth:`rate_text`."""
        if total is None:
            return "{desc}: {n_fmt} {unit} [{elapsed}{postfix}]"
        return "{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}{postfix}]"

    def set_total(self, total: int) -> None:
        self.total = total
        if self._bar is not None:
            self._bar.total = total
            self._bar.bar_format = self._format(total)
            self.draw()

    def mark_shown(self) -> None:
        """Count the bar as on screen from now on: tqdm counts a bar as shown only after its start-up ``delay``
        and leaves one drawn earlier (a refresh, a ``tqdm.write``) unfinished, the next output landing on its line."""
        if self._bar is not None:
            self._bar.delay = 0

    def rate_text(self, now: float | None = None) -> str:
        """``"2.5 game/s, ETA 00:42"`` from the work done since the first finished unit ("" before a rate exists)."""
        if self._first is None:
            return ""
        started, done_then = self._first
        elapsed = (time.monotonic() if now is None else now) - started
        if self.done <= done_then or elapsed <= 0:
            return ""
        rate = (self.done - done_then) / elapsed
        text = f"{rate:.3g} {self.unit}/s"
        if self.total is not None and self.total >= self.done:
            from tqdm import tqdm

            text += f", ETA {tqdm.format_interval((self.total - self.done) / rate)}"
        return text

    def advance(self, steps: int = 1, note: str = "") -> None:
        self.done += steps
        self.note = note or self.note
        if self._first is None and self.done > 0:
            self._first = (time.monotonic(), self.done)
        if self._bar is not None:
            if self.total is not None and self._bar.total != self.total:
                self._bar.total = self.total
                self._bar.bar_format = self._format(self.total)
            postfix = ", ".join(part for part in (self.note, self.rate_text()) if part)
            self._bar.set_postfix_str(postfix, refresh=False)
            self._bar.update(steps)

    def draw(self, force: bool = False) -> None:
        """Draw the bar now (and count it as shown: :meth:`mark_shown`)."""
        if self._bar is not None:
            self.mark_shown()
            self._bar.refresh()

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        self.enabled = False


class Seconds(click.ParamType):
    """A positive, finite number of seconds (``--time-limit``): 0, negatives, ``nan`` and ``inf`` are refused."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not math.isfinite(seconds) or seconds <= 0:
            self.fail(f"{value!r} is not a positive, finite number of seconds", param, ctx)
        return seconds


#: The type of every ``--time-limit`` option.
SECONDS = Seconds()


def quiet_option(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--quiet``: no progress display on stderr."""
    return click.option("--quiet", "-q", is_flag=True, help="No progress display on stderr.")(func)


#: Exit status after Ctrl-C (128 + SIGINT), as shells report it.
INTERRUPTED_EXIT = 130


def exit_interrupted() -> NoReturn:
    """End a command that printed its partial result after Ctrl-C: exit status 130."""
    raise SystemExit(INTERRUPTED_EXIT)


#: The most local worker processes or solver threads a command starts (solvers.parallel.MAX_WORKERS): a
#: mistyped --workers 1000 is refused in one line, never 1,000 forked processes.
MAX_WORKERS = 64
WORKERS = click.IntRange(1, MAX_WORKERS)


def parallel_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """--workers and --scheduler, for commands that run many independent seeded tasks."""
    func = click.option("--scheduler", default=None, help="Dask scheduler address (tcp://HOST:PORT) to run on.")(func)
    return click.option("--workers", type=WORKERS, default=None,
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


#: ``--repair``: a checkpoint's bad lines are dropped and their parts computed again (instead of a refusal).
repair_option = click.option(
    "--repair", is_flag=True,
    help="With --checkpoint: drop edited, foreign or impossible lines (or a whole file of an older kibitz) and "
         "compute their parts again, instead of refusing the file.")
#: ``--verify K``: K random finished parts of a checkpoint are recomputed before they are trusted.
verify_option = click.option(
    "--verify", type=click.IntRange(min=0), default=0, metavar="K",
    help="With --checkpoint: first recompute K random finished parts and refuse the file if one differs.")


@contextlib.contextmanager
def ctrl_c_held() -> Iterator[None]:
    """Hold Ctrl-C back for the block: it is recorded and delivered to the handler it replaced once the block ends
    (a no-op off the main thread).  Python runs signal handlers in the main thread whichever thread the signal
    reached, so swapping the handler holds it back where masking the main thread alone would not (a compiled
    search runs in a helper thread, which may be the one the signal reaches)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if caught:
            if callable(previous):
                previous(signal.SIGINT, None)
            elif previous != signal.SIG_IGN:
                raise KeyboardInterrupt
