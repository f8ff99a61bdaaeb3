"""Long jobs that speak: a line on stderr saying what is being prepared (splitting a search into parts,
starting workers), and a progress line whose clock keeps moving while no part has finished yet.

Both follow the command's :class:`~commands.common.ProgressReporter`: shown when it is (stderr a real
stream, no ``--json``/``--quiet``), silent otherwise, so a test runner's captured output stays clean.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from commands.common import ProgressReporter


def notice(progress: ProgressReporter, text: str) -> None:
    """One line on stderr about the step under way, printed above the progress line when there is one."""
    if not progress.enabled:
        return
    from tqdm import tqdm

    tqdm.write(text, file=sys.stderr)  # clears the progress line, writes, draws it again
    progress.mark_shown()


@contextmanager
def heartbeat(progress: ProgressReporter, every: float | None = None) -> Iterator[None]:
    """Redraw the progress line every ``every`` seconds (default: 1 on a terminal, 30 in a log) while the
    block runs, so its elapsed time moves during parts that last minutes.  (A compiled search that holds the
    interpreter, as an in-process count does, pauses the redraws until it returns.)"""
    if not progress.enabled:
        yield
        return
    interval = every if every is not None else (1.0 if sys.stderr.isatty() else 30.0)
    stop = threading.Event()

    def beat() -> None:
        while not stop.wait(interval):
            progress.draw()

    thread = threading.Thread(target=beat, name="progress-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
