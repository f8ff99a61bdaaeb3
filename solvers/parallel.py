"""Run a bag of independent, seeded tasks on one core, many cores or a Dask cluster — same answers.

Every long job of kibitz (playouts, exhaustive counts, generators) is cut into
tasks ``0 .. n-1``.  Task ``i`` is a pure function of its payload (which
carries its own seed), results are reduced **in task order**, so totals and
statistics do not depend on the backend or the number of workers.

Backends, all behind :class:`concurrent.futures.Executor`:

* ``serial`` — in this process (default for tiny jobs; no pickling);
* local processes — ``workers=N`` (:class:`WorkerPool`, a process pool whose
  workers ignore Ctrl-C and die with their parent, even when it is SIGKILLed);
* Dask distributed — ``scheduler="tcp://HOST:PORT"`` via ``Client.get_executor()``.

Long jobs can checkpoint: each finished task is appended to a JSON-lines file
(``{"job": ..., "task": i, "result": ...}``); resuming from that file skips those tasks.

One shutdown path (:func:`run_tasks`) for every backend: the first Ctrl-C cancels
what is pending, kills the local workers (their tasks are lost, finished ones are
kept), and returns the partial, in-order reduction with ``interrupted`` set; a
second Ctrl-C during that exits at once (status 130).  A lost backend (Dask
scheduler gone, worker pool broken) stops the run the same way, with
``failure`` saying what happened; the caller reports it as a one-line error.
While other threads or processes run the tasks, Ctrl-C is only noted and acted on
between waits (:func:`defer_interrupts`), never inside concurrent.futures' own code.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import (
    ALL_COMPLETED,
    FIRST_COMPLETED,
    CancelledError,
    Executor,
    Future,
    ProcessPoolExecutor,
    wait,
)
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEDULER_TIMEOUT_S = 5.0
PARENT_POLL_S = 0.5
EXIT_INTERRUPTED = 130
STOP_GRACE_S = 3.0  # at a time limit, how long running tasks get to hand in their partial counts
INTERRUPT_POLL_S = 0.1  # while Ctrl-C is deferred, how often a wait looks at the flag


class SerialExecutor(Executor):
    """Runs each task at submit time in this process; the reference backend."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as error:  # noqa: BLE001 - handed to the caller through the future
            if isinstance(error, KeyboardInterrupt):
                raise
            future.set_exception(error)
        return future


def default_workers() -> int:
    """All cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def _worker_init(parent: int) -> None:
    """In each worker process: ignore Ctrl-C (the parent handles it) and die with the parent.

    Linux kills the worker when its parent dies (``PR_SET_PDEATHSIG``); everywhere, a
    daemon thread polls ``getppid`` and exits when the parent is gone (re-parented).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_S)
        os._exit(1)

    threading.Thread(target=watch, name="kibitz-parent-watch", daemon=True).start()


class WorkerPool(ProcessPoolExecutor):
    """Local worker processes that ignore Ctrl-C and never outlive this process; :meth:`abort` stops them now."""

    def __init__(self, workers: int) -> None:
        super().__init__(max_workers=workers, initializer=_worker_init, initargs=(os.getpid(),))
        self.aborted = False

    def abort(self) -> None:
        """Cancel pending work and kill the workers (their running tasks are lost; finished ones are kept)."""
        if self.aborted:
            return
        self.aborted = True
        processes = list((getattr(self, "_processes", None) or {}).values())
        manager = getattr(self, "_executor_manager_thread", None)
        self.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            with contextlib.suppress(Exception):
                process.kill()
        for process in processes:
            with contextlib.suppress(Exception):
                process.join(1.0)
        if manager is not None:  # it notices the dead workers and ends; then nothing is left for exit time
            manager.join(2.0)
            if not manager.is_alive():
                from concurrent.futures import process as futures_process

                with contextlib.suppress(Exception):
                    futures_process._threads_wakeups.pop(manager, None)

    def close(self) -> None:
        """Wait for running tasks and stop the workers (at once if aborted)."""
        if self.aborted:
            return
        self.shutdown(wait=True, cancel_futures=True)


def make_executor(workers: int | None = None, scheduler: str | None = None) -> tuple[Executor, Callable[[], None]]:
    """An executor and its shutdown function: Dask if ``scheduler``, processes if ``workers`` > 1, else serial."""
    if scheduler:
        return _dask_executor(scheduler)
    if workers is None:
        workers = default_workers()
    if workers < 1:
        raise ValueError(f"--workers must be at least 1, got {workers}")
    if workers == 1:
        serial = SerialExecutor()
        return serial, lambda: None
    pool = WorkerPool(workers)
    return pool, pool.close


def _dask_executor(address: str) -> tuple[Executor, Callable[[], None]]:
    """A Dask client's executor; connection and handshake are bounded by :data:`SCHEDULER_TIMEOUT_S`."""
    try:
        from distributed import Client
    except ImportError:
        raise ValueError("a Dask scheduler needs the cluster extra: pip install -e '.[cluster]'") from None
    try:
        from distributed.comm.addressing import parse_address, parse_host_port

        protocol, location = parse_address(address)
        if protocol in ("tcp", "tls"):
            parse_host_port(location)
    except (ValueError, TypeError) as error:
        raise ValueError(f"malformed Dask scheduler address {address!r} ({error}); write tcp://HOST:PORT") from None
    holder: dict[str, Any] = {}
    for name in [*logging.root.manager.loggerDict, "distributed", "tornado", "tornado.application"]:
        if name.startswith(("distributed", "tornado")):  # a lost scheduler is reported once, as a one-line error
            logging.getLogger(name).setLevel(logging.CRITICAL + 1)

    def connect() -> None:
        try:
            holder["client"] = Client(address, timeout=SCHEDULER_TIMEOUT_S, set_as_default=False)  # type: ignore[no-untyped-call]
        except BaseException as error:  # noqa: BLE001 - reported below as a one-line error
            holder["error"] = error

    thread = threading.Thread(target=connect, name="kibitz-dask-connect", daemon=True)
    thread.start()
    thread.join(SCHEDULER_TIMEOUT_S + 1)
    if thread.is_alive() or "error" in holder:
        _silence_failed_clients()
        failed = holder.pop("error", None)
        reason = (str(failed).splitlines() or [""])[0] if failed is not None else ""
        reason = reason or (type(failed).__name__ if failed is not None else "no handshake (is it a Dask scheduler?)")
        raise ValueError(f"cannot reach Dask scheduler {address}: {reason}") from None
    client = holder["client"]
    executor: Executor = client.get_executor()
    closed = [False]

    def close() -> None:
        if not closed[0]:
            closed[0] = True
            with contextlib.suppress(Exception):
                client.close(timeout=SCHEDULER_TIMEOUT_S)

    def abort() -> None:
        with contextlib.suppress(Exception):
            client.cancel(list(getattr(executor, "_futures", ())), force=True)
        close()

    executor.abort = abort  # type: ignore[attr-defined]
    return executor, close


def _silence_failed_clients() -> None:
    """A Client whose connection failed still runs ``__del__`` later and prints a traceback; drop only that."""
    previous = sys.unraisablehook
    if getattr(previous, "kibitz_quiet", False):
        return

    def hook(unraisable: Any) -> None:
        if getattr(unraisable.object, "__qualname__", "") == "Client.__del__":
            return
        previous(unraisable)

    hook.kibitz_quiet = True  # type: ignore[attr-defined]
    sys.unraisablehook = hook


@dataclass
class RunReport:
    """What a task run did: the reduced value, how many tasks finished, whether and why it was cut short.

    ``stopped_by``: "" (ran to the end), "interrupt" (Ctrl-C), "stop" (the caller's ``stop()``,
    e.g. a time limit) or "lost" (the backend failed, or the checkpoint could not be written;
    ``failure`` says how).
    """

    value: Any
    done: int
    total: int
    interrupted: bool = False
    stopped_by: str = ""
    failure: str = ""

    @property
    def complete(self) -> bool:
        return self.done == self.total and not self.interrupted and not self.stopped_by


class BackendLost(ValueError):
    """The Dask scheduler or the worker pool went away during a run (a one-line error for the CLI)."""


def load_checkpoint(path: Path, job: str = "") -> dict[int, Any]:
    """Finished tasks from a checkpoint file (a line torn by a kill is ignored: that task reruns).

    Every record names its job; a file (or any line of it) written for another job is
    refused, since mixing its results in would give a wrong total.  Records without a
    job name (files of older versions) are accepted only after a header line of this job.
    """
    return dict(iter_checkpoint(path, job))


def iter_checkpoint(path: Path, job: str = "") -> Iterator[tuple[int, Any]]:
    """(task, result) of each record of a checkpoint, read line by line (see :func:`load_checkpoint`)."""
    _check_checkpoint_path(path)
    if not path.exists():
        return
    try:
        with path.open(encoding="utf-8") as lines:  # line by line: a long run's file is never held whole
            yield from _read_records(path, lines, job)
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"cannot read checkpoint {path}: {error}") from None


def _check_checkpoint_path(path: Path) -> None:
    """A checkpoint is a regular file (or not there yet): a folder, device or pipe is refused up front."""
    if path.is_dir():
        raise ValueError(f"checkpoint {path} is a directory")
    if path.exists() and not path.is_file():
        raise ValueError(f"checkpoint {path} is not a regular file")


def _read_records(path: Path, lines: Iterator[str], job: str) -> Iterator[tuple[int, Any]]:
    header_seen = False
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue  # a write cut off by a kill: that task simply runs again
        if not isinstance(record, dict):
            raise ValueError(f"{path}: line {number} is not a checkpoint record")
        if "job" in record:
            if job and record["job"] != job:
                raise ValueError(f"{path} is a checkpoint of another job ({record['job']}, not {job})")
            header_seen = True
            if "task" not in record:
                continue
        elif job and not header_seen:
            raise ValueError(f"{path}: line {number} names no job; refusing a checkpoint that may be of another job")
        try:
            task = record["task"]
            if not isinstance(task, int) or isinstance(task, bool) or task < 0:
                raise TypeError
            result = record["result"]
        except (KeyError, TypeError):
            raise ValueError(f"{path}: line {number} is not a checkpoint record") from None
        yield task, result


class DeferredInterrupt:
    """A Ctrl-C caught by :func:`defer_interrupts`, raised again (as KeyboardInterrupt) only at safe points."""

    def __init__(self) -> None:
        self.caught = threading.Event()

    def check(self) -> None:
        """Raise KeyboardInterrupt here if Ctrl-C came since the last check."""
        if self.caught.is_set():
            self.caught.clear()
            raise KeyboardInterrupt

    def wait(self, futures: Sequence[Future[Any]], timeout: float | None = None,
             return_when: str = ALL_COMPLETED) -> set[Future[Any]]:
        """The finished futures, as :func:`concurrent.futures.wait`, waited for in short slices with a check between."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            self.check()
            left = INTERRUPT_POLL_S if deadline is None else min(INTERRUPT_POLL_S, max(0.0, deadline - time.monotonic()))
            done, not_done = wait(futures, timeout=left, return_when=return_when)
            if not not_done or (done and return_when == FIRST_COMPLETED):
                return done
            if deadline is not None and time.monotonic() >= deadline:
                return done


@contextlib.contextmanager
def defer_interrupts(enabled: bool = True) -> Iterator[DeferredInterrupt]:
    """While waiting on futures that other threads complete: Ctrl-C only sets a flag, read by ``check``/``wait``.

    Why: a KeyboardInterrupt raised inside concurrent.futures' own code can leave a future's lock
    held (``wait`` takes the futures' locks one by one); the thread that completes that future then
    blocks on it forever, and the process hangs in the next wait or at exit.  Only the main thread
    gets signals, and only Python's own handler is replaced (an ignored Ctrl-C stays ignored).  A
    Ctrl-C after the last check is dropped: the work it would have stopped is done.
    """
    deferred = DeferredInterrupt()
    main = threading.current_thread() is threading.main_thread()
    previous = signal.getsignal(signal.SIGINT) if main else None
    if not (enabled and main and previous is signal.default_int_handler):
        yield deferred
        return
    signal.signal(signal.SIGINT, lambda _signum, _frame: deferred.caught.set())
    try:
        yield deferred
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def _second_interrupt_exits() -> Iterator[None]:
    """While cleaning up after a first Ctrl-C: a second one exits the process at once."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def hard_exit(_signum: int, _frame: Any) -> None:
        sys.stderr.write("\ninterrupted twice: exiting now\n")
        os._exit(EXIT_INTERRUPTED)

    previous = signal.signal(signal.SIGINT, hard_exit)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def abort_executor(executor: Executor) -> None:
    """Stop an executor now: cancel what is pending, kill local workers, drop a Dask job."""
    abort = getattr(executor, "abort", None)
    if callable(abort):
        abort()


def _is_backend_failure(error: BaseException) -> bool:
    if isinstance(error, (CancelledError, BrokenProcessPool, OSError, TimeoutError)):
        return True
    return type(error).__module__.startswith(("distributed", "tornado"))


def run_tasks(
    function: Callable[[Any], Any],
    payloads: Sequence[Any],
    reduce: Callable[[Any, Any], Any],
    initial: Any,
    executor: Executor | None = None,
    progress: Callable[[int, int], None] | None = None,
    checkpoint: Path | None = None,
    encode: Callable[[Any], Any] = lambda result: result,
    decode: Callable[[Any], Any] = lambda data: data,
    job: str = "",
    on_result: Callable[[int, Any], None] | None = None,
    stop: Callable[[], bool] | None = None,
    final: Callable[[Any], bool] | None = None,
    max_ahead: int | None = None,
) -> RunReport:
    """Run ``function(payload)`` for every payload and fold the results in task order.

    ``checkpoint``: finished tasks already in the file are not run again, new
    ones are appended as they finish (``encode``/``decode`` make results JSON);
    ``job`` names the job on every line so a checkpoint is never resumed by another job.
    ``final(result)`` false marks a result cut short inside its task (e.g. by a time
    limit): it is folded in (a lower bound) but not checkpointed, and the run stops.
    ``on_result(index, result)`` sees each result as it arrives; when ``stop()`` turns true
    (e.g. a time limit) the pending tasks are cancelled.  ``progress(done, total)`` is
    called after each task.  Ctrl-C cancels the rest and returns the in-order reduction
    of the tasks finished before it (see the module docstring).  Results are folded as
    soon as every earlier task is in; ``max_ahead`` caps how far past the first unfinished task
    new tasks are started, so the results held for folding stay bounded even behind a slow task.
    ``payloads`` is read one index at a time (a lazy sequence such as :class:`RangePayloads` suits).
    """
    executor = executor or SerialExecutor()
    run = _TaskRun(function, payloads, reduce, initial, executor, progress, checkpoint, encode, job, on_result, stop,
                   final)
    if checkpoint is not None:  # folded as it is read: a resumed long run holds only the out-of-order records
        run.resume(checkpoint, decode)
    run.log = _open_log(checkpoint, job)
    with defer_interrupts(enabled=not isinstance(executor, SerialExecutor)) as deferred:  # serial tasks run here: let Ctrl-C in
        try:
            run.loop(deferred, max_ahead)
        except (KeyboardInterrupt, _Stop) as reason:
            run.wind_down(isinstance(reason, KeyboardInterrupt))
        finally:
            if run.log is not None:
                with contextlib.suppress(OSError):  # a full disk was reported above
                    run.log.close()
    return run.report()


class _TaskRun:
    """The state of one :func:`run_tasks` call: tasks out, results waiting to be folded, the fold so far."""

    def __init__(self, function: Callable[[Any], Any], payloads: Sequence[Any], reduce: Callable[[Any, Any], Any],
                 initial: Any, executor: Executor, progress: Callable[[int, int], None] | None,
                 checkpoint: Path | None, encode: Callable[[Any], Any], job: str,
                 on_result: Callable[[int, Any], None] | None, stop: Callable[[], bool] | None,
                 final: Callable[[Any], bool] | None) -> None:
        self.function = function
        self.payloads = payloads
        self.reduce = reduce
        self.executor = executor
        self.progress = progress
        self.checkpoint = checkpoint
        self.encode = encode
        self.job = job
        self.on_result = on_result
        self.stop = stop
        self.final = final
        self.total = len(payloads)
        self.waiting: dict[int, Any] = {}  # results not yet folded (an earlier task is still out)
        self.skip: set[int] = set()  # tasks at or past next_index finished in an earlier run (from the checkpoint)
        self.done = 0
        self.value = initial
        self.next_index = 0  # every task before it is folded into value
        self.log: Any = None
        self.stopped_by = ""
        self.failure = ""
        self.pending: dict[Future[Any], int] = {}
        self.cursor = 0  # the next task to start
        self.window = 0
        self.ahead = 0

    def fold(self) -> None:
        """Fold in every result from ``next_index`` on whose earlier tasks are all in."""
        total, waiting, skip = self.total, self.waiting, self.skip
        while self.next_index < total and (self.next_index in waiting or self.next_index in skip):
            if self.next_index in waiting:
                self.value = self.reduce(self.value, waiting.pop(self.next_index))
            skip.discard(self.next_index)
            self.next_index += 1

    def resume(self, checkpoint: Path, decode: Callable[[Any], Any]) -> None:
        """Take the results of an earlier run of this job from its checkpoint; those tasks are skipped."""
        for index, result in iter_checkpoint(checkpoint, self.job):
            if self.next_index <= index < self.total and index not in self.skip:
                self.waiting[index] = decode(result)
                self.skip.add(index)
                self.done += 1
                self.fold()

    def take(self, future: Future[Any]) -> None:
        """Fold in one finished task (checkpointed unless cut short)."""
        index = self.pending.pop(future)
        try:
            result = future.result()
        except BaseException as error:
            if isinstance(error, KeyboardInterrupt) or not _is_backend_failure(error):
                raise
            self.stopped_by, self.failure = "lost", _failure_text(self.executor, error)
            raise _Stop from None
        complete_part = self.final is None or self.final(result)
        self.waiting[index] = result
        self.done += complete_part
        if self.log is not None and complete_part:
            self._record(index, result)
        self.fold()
        if self.on_result:
            self.on_result(index, result)
        if self.progress:
            self.progress(self.done, self.total)
        if not complete_part:
            self.stopped_by = "stop"

    def _record(self, index: int, result: Any) -> None:
        """Append a finished task to the checkpoint."""
        try:
            self.log.write(json.dumps({"job": self.job, "task": index, "result": self.encode(result)}) + "\n")
            self.log.flush()
        except OSError as error:  # a full disk: stop like a lost backend, this result still counts
            self.stopped_by = "lost"
            self.failure = f"cannot write checkpoint {self.checkpoint}: {error.strerror or error}"
            raise _Stop from None

    def fill(self) -> None:
        """Start tasks up to the window, no further than ``ahead`` past the first unfolded one."""
        self.cursor = max(self.cursor, self.next_index)  # tasks before next_index are all folded
        while len(self.pending) < self.window and self.cursor < min(self.total, self.next_index + self.ahead):
            index = self.cursor
            self.cursor += 1
            if index not in self.skip:
                self.pending[self.executor.submit(self.function, self.payloads[index])] = index

    def loop(self, deferred: DeferredInterrupt, max_ahead: int | None) -> None:
        """Run every task; _Stop or KeyboardInterrupt leaves early."""
        self.window = _window(self.executor)
        self.ahead = self.total if max_ahead is None else max(self.window, max_ahead)
        self.fill()
        if self.progress:
            self.progress(self.done, self.total)
        while self.pending:
            finished = deferred.wait(list(self.pending), timeout=0.25, return_when=FIRST_COMPLETED)
            for future in finished:
                self.take(future)
            if self.stopped_by or (self.stop is not None and self.stop()):
                self.stopped_by = "stop"
                raise _Stop
            self.fill()

    def wind_down(self, interrupted: bool) -> None:
        """After a stop, a lost backend or Ctrl-C: cancel what has not started, keep the parts of running
        tasks that stop at a limit, and abort the executor if anything is left."""
        if interrupted:
            self.stopped_by = "interrupt"
        with _second_interrupt_exits():
            for future in list(self.pending):
                if future.cancel():
                    del self.pending[future]
            if self.stopped_by == "stop":  # a limit: running tasks stop at the same deadline, keep their parts
                with contextlib.suppress(_Stop):
                    for future in wait(list(self.pending), timeout=STOP_GRACE_S).done:
                        self.take(future)
            if self.pending or self.stopped_by in ("interrupt", "lost"):
                abort_executor(self.executor)

    def report(self) -> RunReport:
        """Every result folded in task order, whatever order they finished in."""
        value = self.value
        for index in sorted(self.waiting):
            value = self.reduce(value, self.waiting[index])
        return RunReport(value, self.done, self.total, self.stopped_by == "interrupt", self.stopped_by, self.failure)


class _Stop(Exception):
    """Internal: leave the run loop (time limit, lost backend)."""


def _failure_text(executor: Executor, error: BaseException) -> str:
    where = "the Dask scheduler or a worker" if hasattr(executor, "_client") or "distributed" in type(executor).__module__ \
        else "the worker pool"
    return f"lost {where} ({type(error).__name__}{': ' + str(error).splitlines()[0] if str(error).strip() else ''})"


def _open_log(checkpoint: Path | None, job: str) -> Any:
    """The checkpoint opened for appending, a torn last line ended, a header written on a new file."""
    if checkpoint is None:
        return None
    _check_checkpoint_path(checkpoint)
    try:
        torn = False
        if checkpoint.exists() and checkpoint.stat().st_size > 0:
            with checkpoint.open("rb") as old:
                old.seek(-1, os.SEEK_END)
                torn = old.read(1) != b"\n"
        log = checkpoint.open("a", encoding="utf-8")
        if log.tell() > 0 and torn:
            log.write("\n")  # end a line torn by a kill, so new records start clean
        if log.tell() == 0:
            log.write(json.dumps({"job": job}) + "\n")
        log.flush()
    except OSError as error:
        raise ValueError(f"cannot write checkpoint {checkpoint}: {error.strerror or error}") from None
    return log


def check_output_path(path: str | Path | None, what: str = "output file") -> Path | None:
    """Fail now (a one-line ValueError) if ``path`` cannot be written: before the work, not after it."""
    if path is None:
        return None
    path = Path(path)
    if path.is_dir():
        raise ValueError(f"{what} {path} is a directory")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise ValueError(f"{what} {path}: folder {parent} does not exist")
    if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise ValueError(f"{what} {path} is not writable")
    return path


def _window(executor: Executor) -> int:
    """How many tasks to keep in flight: enough to keep every worker busy, few enough to stop fast."""
    workers = getattr(executor, "_max_workers", None) or default_workers()
    return 4 * workers


def chunk_ranges(total: int, parts: int) -> list[tuple[int, int]]:
    """Split ``range(total)`` into ``parts`` nearly equal (start, stop) ranges, in order."""
    parts = max(1, min(parts, total)) if total else 1
    size, extra = divmod(total, parts)
    ranges, start = [], 0
    for part in range(parts):
        stop = start + size + (1 if part < extra else 0)
        ranges.append((start, stop))
        start = stop
    return ranges


def resolve(reference: str) -> Callable[..., Any]:
    """The function named by ``"package.module:function"`` (picklable stand-in for a callable)."""
    module_name, _, name = reference.partition(":")
    module = importlib.import_module(module_name)
    function: Callable[..., Any] = getattr(module, name)
    return function


def range_worker(payload: tuple[str, Any, int, int]) -> Any:
    """The task of a :class:`RangePayloads` payload: ``function(arguments, start, stop)`` of the function named."""
    reference, arguments, start, stop = payload
    return resolve(reference)(arguments, start, stop)


def run_ranges(
    reference: str,
    arguments: Any,
    total: int,
    reduce: Callable[[Any, Any], Any],
    initial: Any,
    executor: Executor | None = None,
    chunk: int = 0,
    progress: Callable[[int, int], None] | None = None,
    checkpoint: Path | None = None,
    encode: Callable[[Any], Any] = lambda result: result,
    decode: Callable[[Any], Any] = lambda data: data,
    job: str = "",
    on_result: Callable[[int, Any], None] | None = None,
    stop: Callable[[], bool] | None = None,
    max_ahead: int | None = None,
) -> RunReport:
    """Run ``function(arguments, start, stop)`` over consecutive ranges of ``range(total)``.

    The typical job is N seeded games: item ``i`` must depend only on ``i``
    (its seed), never on the range it falls in, so the reduction is the same
    for any chunk size, backend or worker count.  ``chunk`` = items per task
    (default: about 4 tasks per worker, at most 200 items).  The ranges are made on
    demand (:class:`RangePayloads`); ``max_ahead``: see :func:`run_tasks`.
    """
    if chunk <= 0:
        workers = getattr(executor, "_max_workers", None) or 1
        chunk = max(1, min(200, -(-total // (4 * workers))))
    payloads = RangePayloads(reference, arguments, total, chunk)
    return run_tasks(range_worker, payloads, reduce, initial, executor, progress, checkpoint, encode, decode, job,
                     on_result=on_result, stop=stop, max_ahead=max_ahead)


class RangePayloads(Sequence[tuple[str, Any, int, int]]):
    """The payloads of :func:`run_ranges`, made on demand: 10**12 items need no list of ranges."""

    def __init__(self, reference: str, arguments: Any, total: int, chunk: int) -> None:
        self.reference, self.arguments, self.total, self.chunk = reference, arguments, total, chunk

    def __len__(self) -> int:
        return -(-self.total // self.chunk)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if not 0 <= index < len(self):
            raise IndexError(index)
        start = index * self.chunk
        return (self.reference, self.arguments, start, min(start + self.chunk, self.total))
