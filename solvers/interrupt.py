"""One interrupt path for compiled searches: a shared flag the kernel polls, set by Ctrl-C or a deadline.

A numba kernel holds the CPU (and, unless compiled ``nogil``, the GIL) until it returns, so Python's
Ctrl-C handler cannot run inside it.  :func:`run_polling` runs the kernel call in a helper thread
(kernels compiled with ``nogil=True``) while the main thread waits on an event: Ctrl-C (or the time
limit) sets ``flag[0]``, the kernel sees it within a few thousand nodes and returns what it has.
Waiting on an :class:`threading.Event` (never ``Thread.join`` with a timeout, which a Ctrl-C can leave
marking a running thread as finished) keeps the process from exiting under a running native thread.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import TypeVar

import numpy as np

T = TypeVar("T")

RUNNING, INTERRUPTED, TIME_LIMIT = 0, 1, 2  # values of flag[0]
POLL_S = 0.05  # how often the waiting thread looks at the clock
SLOW_STOP_S = 1.0  # a kernel still running this long after Ctrl-C gets a line on stderr
EXIT_INTERRUPTED = 130


def is_ctrl_c(error: BaseException) -> bool:
    """Whether an error is a Ctrl-C in disguise: a C extension's own error for it (python-sat says "Caught keyboard
    interrupt" when SIGINT lands inside a solve or an encoder)."""
    return isinstance(error, KeyboardInterrupt) or "keyboard interrupt" in str(error).lower()


def new_flag() -> np.ndarray:
    """A fresh interrupt flag for a kernel: one int64, 0 while it may run on."""
    return np.zeros(1, np.int64)


def _may_catch_interrupts() -> bool:
    """Whether Ctrl-C reaches this call as KeyboardInterrupt (main thread, Python's own handler)."""
    return threading.current_thread() is threading.main_thread() \
        and signal.getsignal(signal.SIGINT) is signal.default_int_handler


def run_polling(call: Callable[[np.ndarray], T], time_limit: float | None = None) -> tuple[T, int]:
    """``call(flag)`` with Ctrl-C and ``time_limit`` (seconds) setting ``flag[0]``; (its result, the flag).

    The flag is :data:`RUNNING` if nothing stopped the call, :data:`INTERRUPTED` after Ctrl-C (the
    caller decides what to keep, then raises KeyboardInterrupt) or :data:`TIME_LIMIT`.  Where Ctrl-C
    cannot arrive and there is no time limit (worker processes), the call runs here directly.
    """
    flag = new_flag()
    if time_limit is None and not _may_catch_interrupts():
        return call(flag), RUNNING
    box: dict[str, object] = {}
    done = threading.Event()

    def target() -> None:
        try:
            box["result"] = call(flag)
        except BaseException as error:  # noqa: BLE001 - re-raised in the caller's thread
            box["error"] = error
        finally:
            done.set()

    deadline = None if time_limit is None else time.monotonic() + time_limit
    kernel = threading.Thread(target=target, name="kibitz-kernel", daemon=True)
    try:
        kernel.start()
        _wait(done, flag, deadline)
    except KeyboardInterrupt:  # Ctrl-C after the start, before the wait: the same as inside the wait
        if kernel.ident is None:
            raise  # the kernel never started: nothing runs on
        flag[0] = INTERRUPTED
        _wait(done, flag, deadline, time.monotonic())
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["result"], int(flag[0])  # type: ignore[return-value]


def call_in_child(target: Callable[..., None], args: tuple[object, ...], time_limit: float | None,
                  what: str = "the SAT solver") -> object:
    """The one value ``target(*args, send)`` sends (``send.send(value)``) from a forked child process.

    For native calls that never look at an interrupt (python-sat's encoders hold the GIL): the child is
    killed at ``time_limit`` (TimeoutError) or on Ctrl-C in the parent (KeyboardInterrupt), and in every
    other case once the call is over.  A child that exits with :data:`EXIT_INTERRUPTED` without sending
    (it caught the terminal's Ctrl-C itself) raises KeyboardInterrupt; one that dies otherwise RuntimeError.
    If this process is killed outright, the child dies with it (:func:`_die_with_parent`).
    """
    import multiprocessing

    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_die_with_parent, args=(os.getpid(), target, *args, send), daemon=True)
    child.start()
    send.close()
    try:
        if not receive.poll(time_limit):  # None: no limit (Ctrl-C raises KeyboardInterrupt here)
            raise TimeoutError(f"{what} stopped at the time limit")
        try:
            return receive.recv()
        except EOFError:
            child.join()
            if child.exitcode == EXIT_INTERRUPTED:
                raise KeyboardInterrupt from None
            raise RuntimeError(f"{what} process died (exit code {child.exitcode})") from None
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receive.close()


def _die_with_parent(parent: int, target: Callable[..., None], *args: object) -> None:
    """``target(*args)`` in a child that the kernel kills when ``parent`` dies, however it dies (SIGKILL, a
    crash): an orphaned SAT solver would otherwise run on to its end (Linux ``PR_SET_PDEATHSIG``)."""
    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before the request took hold
        os._exit(1)
    target(*args)


def _wait(done: threading.Event, flag: np.ndarray, deadline: float | None, stopping_since: float | None = None) -> None:
    """Wait for ``done``; Ctrl-C or the deadline set the flag (and the kernel then returns within milliseconds).

    A kernel that has not returned :data:`SLOW_STOP_S` after a Ctrl-C (numba still compiling it, which no flag can
    stop) is not waited for in silence: one line says so and how to leave at once (``stopping_since``: when a Ctrl-C
    that came before this wait set the flag)."""
    while True:
        try:
            while not done.wait(POLL_S):
                if deadline is not None and flag[0] == RUNNING and time.monotonic() >= deadline:
                    flag[0] = TIME_LIMIT
                if stopping_since is not None and time.monotonic() - stopping_since >= SLOW_STOP_S:
                    sys.stderr.write("\nstopping: still finishing a step (numba may be compiling it); "
                                     "Ctrl-C again to quit at once\n")
                    stopping_since = None
            return
        except KeyboardInterrupt:
            if flag[0] == INTERRUPTED:  # a second Ctrl-C while the kernel winds down: leave now
                sys.stderr.write("\ninterrupted twice: exiting now\n")
                os._exit(EXIT_INTERRUPTED)
            flag[0] = INTERRUPTED
            stopping_since = time.monotonic()
