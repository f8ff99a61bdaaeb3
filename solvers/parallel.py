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
(``{"job": ..., "task": i, "result": ..., "sum": ...}``); resuming from that file skips those tasks.
Every line carries the job's fingerprint and a checksum of its content, and results are range-checked
on reading, so an edited, foreign or impossible line is refused (or, on request, dropped and run again)
instead of becoming the answer; a resume can also recompute a random sample of finished tasks.

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
import hashlib
import importlib
import json
import logging
import os
import random
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
from typing import Any, NoReturn, cast

SCHEDULER_TIMEOUT_S = 5.0
PARENT_POLL_S = 0.5
EXIT_INTERRUPTED = 130
STOP_GRACE_S = 3.0  # at a time limit, how long running tasks get to hand in their partial counts
INTERRUPT_POLL_S = 0.1  # while Ctrl-C is deferred, how often a wait looks at the flag
MAX_WORKERS = 64  # local worker processes at most (commands.common.MAX_WORKERS refuses more on the command line)


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
    """All cores this process may use (at most :data:`MAX_WORKERS`)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return min(cores, MAX_WORKERS)


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
    if not 1 <= workers <= MAX_WORKERS:
        raise ValueError(f"--workers must be between 1 and {MAX_WORKERS}, got {workers}")
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


#: Hex digits of a checkpoint line's checksum (sha256 of the line's canonical JSON without its ``sum``).
CHECKSUM_DIGITS = 16
#: Longest checkpoint line read (a record is a few hundred bytes; a longer line is damage, not data).
MAX_LINE_CHARS = 1 << 20
REPAIR_HINT = "use --repair to drop it and recompute"


class CheckpointError(ValueError):
    """A checkpoint that cannot be trusted: one line naming the file, the line and what is wrong."""


class ForeignCheckpoint(CheckpointError):
    """A checkpoint of another job: refused even with ``repair`` (dropping its lines would empty another job's file)."""


def record_sum(record: dict[str, Any]) -> str:
    """The checksum of a checkpoint record: first hex digits of sha256 over its canonical JSON, ``sum`` left out."""
    body = json.dumps({k: v for k, v in record.items() if k != "sum"}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(body.encode()).hexdigest()[:CHECKSUM_DIGITS]


def checkpoint_line(job: str, task: int | None = None, result: Any = None) -> str:
    """One checkpoint line (newline included): the job's header (``task`` None) or a finished task, with its checksum.

    The checksum is taken over the record as it will be read back (JSON round trip), so it verifies exactly."""
    body: dict[str, Any] = {"job": job} if task is None else {"job": job, "task": task, "result": result}
    record = json.loads(json.dumps(body, allow_nan=False))
    record["sum"] = record_sum(record)
    return json.dumps(record, allow_nan=False) + "\n"


def load_checkpoint(path: Path, job: str = "", total: int | None = None,
                    check: Callable[[int, Any], Any] | None = None, repair: bool = False) -> dict[int, Any]:
    """Finished tasks of a checkpoint file (see :func:`scan_checkpoint`): task -> its stored result."""
    return dict(scan_checkpoint(path, job, total, check, repair).records())


def iter_checkpoint(path: Path, job: str = "", total: int | None = None,
                    check: Callable[[int, Any], Any] | None = None, repair: bool = False) -> Iterator[tuple[int, Any]]:
    """(task, result) of each trusted record of a checkpoint, read line by line (see :func:`scan_checkpoint`)."""
    yield from scan_checkpoint(path, job, total, check, repair).records()


def scan_checkpoint(path: Path, job: str = "", total: int | None = None,
                    check: Callable[[int, Any], Any] | None = None, repair: bool = False,
                    sample: int = 0) -> CheckpointScan:
    """Read and check every line of a checkpoint before any of it is used.

    Each line carries its job and a checksum of its content.  A line that is not JSON, fails its
    checksum, names another job, has a task outside ``0 .. total-1``, repeats a task, or whose result
    ``check(task, result)`` refuses (it raises ValueError saying why) makes the whole file refused in
    one line (:class:`CheckpointError`), or with ``repair`` is dropped (the file is rewritten without
    it, so its task runs again).  Files of older versions (no checksums) are refused the same way.  A
    file whose first line names another job is refused even with ``repair`` (it is another job's file).
    A last line torn by a kill (no newline, not JSON) is ignored: that task simply runs again.
    ``sample`` keeps that many random trusted records for :func:`verify_records`.
    """
    scan = CheckpointScan(path, job, total, check, repair, sample)
    scan.run()
    return scan


class CheckpointScan:
    """The first pass over a checkpoint (see :func:`scan_checkpoint`): the lines to drop and a random sample."""

    def __init__(self, path: Path, job: str, total: int | None, check: Callable[[int, Any], Any] | None,
                 repair: bool, sample: int) -> None:
        self.path, self.job, self.total, self.check, self.repair = path, job, total, check, repair
        self.bad: list[int] = []  # line numbers dropped (with repair)
        self.torn = 0  # line number of a torn last line, 0 if none
        self.trusted = 0  # records kept
        self.sample_size = sample
        self.sample: list[tuple[int, int, Any]] = []  # (line, task, stored result)
        self._random = random.Random(os.urandom(8)) if sample else None
        self._first: dict[int, tuple[int, str]] = {}  # task -> line and checksum of its record
        self.repeated: set[int] = set()  # lines that repeat an earlier record exactly (read once)
        self.rewritten = False
        self._seen_header = False
        self._foreign = False

    def run(self) -> None:
        _check_checkpoint_path(self.path)
        if not self.path.exists():
            return
        for number, line in _checkpoint_lines(self.path):
            try:
                self._line(number, line)
            except CheckpointError:
                if not self.repair or self._foreign:
                    raise
                self.bad.append(number)
        if self.repair and (self.bad or self.torn):
            self._rewrite()

    def _refuse(self, number: int, reason: str) -> NoReturn:
        raise CheckpointError(f"{self.path} line {number}: {reason}; {REPAIR_HINT}")

    def _line(self, number: int, line: str) -> None:
        """Check one line; raise CheckpointError (:class:`ForeignCheckpoint` for another job's file)."""
        record = self._parse(number, line)
        if record is None:
            return
        named = record.get("job")
        if self.job and isinstance(named, str) and named != self.job and not self.trusted and not self.bad \
                and not self._seen_header:  # the first line names another job: the whole file is another job's
            self._foreign = True
            raise ForeignCheckpoint(f"{self.path} is a checkpoint of another job ({named}, not {self.job})")
        if not isinstance(named, str) or not isinstance(record.get("sum"), str):
            self._refuse(number, "no job or no checksum (a checkpoint of an older kibitz?)")
        if record["sum"] != record_sum(record):
            self._refuse(number, "checksum mismatch (edited?)")
        if self.job and named != self.job:
            self._refuse(number, f"a line of another job ({named})")
        if not self.job:
            self.job = named
        if "task" not in record and set(record) == {"job", "sum"}:
            self._seen_header = True
            return  # the header
        self._task(number, record)

    def _parse(self, number: int, line: str) -> dict[str, Any] | None:
        """The line's JSON object; None for a blank line or a torn last line."""
        if not line.strip():
            return None
        if len(line) > MAX_LINE_CHARS:
            self._refuse(number, f"longer than {MAX_LINE_CHARS:,} characters")
        try:
            record = _parse_json(line, f"{self.path} line {number}")
        except ValueError as error:
            if not line.endswith("\n"):  # a write cut off by a kill: that task simply runs again
                self.torn = number
                return None
            reason = str(error).partition(": ")[2] or "not JSON"
            self._refuse(number, reason)
        if not isinstance(record, dict):
            self._refuse(number, "not a checkpoint record")
        return cast(dict[str, Any], record)

    def _task(self, number: int, record: dict[str, Any]) -> None:
        task, result = record.get("task"), record.get("result", _MISSING)
        if set(record) != {"job", "task", "result", "sum"} or result is _MISSING:
            self._refuse(number, "not a checkpoint record (keys job, task, result, sum)")
        if not isinstance(task, int) or isinstance(task, bool) or task < 0:
            self._refuse(number, f"task {task!r} is not a task number")
        if self.total is not None and task >= self.total:
            self._refuse(number, f"task {task} is out of range (the job has {self.total:,}, numbered from 0)")
        if task in self._first:
            first, first_sum = self._first[task]
            if first_sum != record["sum"]:
                if self.repair:  # which of the two is true is unknown: both go, the task runs again
                    self._drop_trusted(task, first)
                self._refuse(number, f"task {task} again, with another result (first at line {first})")
            self.repeated.add(number)  # the same record twice: harmless, read once
            return
        if self.check is not None:
            try:
                self.check(task, result)
            except (ValueError, TypeError, KeyError, IndexError, AttributeError, ArithmeticError) as error:
                self._refuse(number, f"task {task}: {error or type(error).__name__}")
        self._first[task] = (number, record["sum"])
        self.trusted += 1
        self._keep_sample(number, task, result)

    def _drop_trusted(self, task: int, number: int) -> None:
        """With ``repair``: an accepted record turns out bad after all (a conflicting repeat); drop it too."""
        del self._first[task]
        self.trusted -= 1
        self.bad.append(number)
        self.sample = [kept for kept in self.sample if kept[0] != number]

    def _keep_sample(self, number: int, task: int, result: Any) -> None:
        """Reservoir sampling: every trusted record is equally likely to be among the ``sample`` kept."""
        if self._random is None:
            return
        if len(self.sample) < self.sample_size:
            self.sample.append((number, task, result))
            return
        slot = self._random.randrange(self.trusted)
        if slot < self.sample_size:
            self.sample[slot] = (number, task, result)

    def _rewrite(self) -> None:
        """With ``repair``: the file again without its bad lines (a header of this job first)."""
        drop = set(self.bad) | self.repeated | {self.torn}
        tmp = self.path.with_name(self.path.name + ".repair")
        try:
            moved: dict[int, int] = {}  # old line -> new line, for the sample's messages
            with tmp.open("w", encoding="utf-8") as out:
                out.write(checkpoint_line(self.job))
                for number, line in _checkpoint_lines(self.path):
                    if number not in drop and line.strip() and "task" in _parse_json(line, ""):
                        out.write(line if line.endswith("\n") else line + "\n")
                        moved[number] = len(moved) + 2
            os.replace(tmp, self.path)
            self.sample = [(moved[number], task, result) for number, task, result in self.sample]
        except OSError as error:
            raise CheckpointError(f"cannot repair checkpoint {self.path}: {error.strerror or error}") from None
        self.torn, self.repeated, self.rewritten = 0, set(), True  # the file now holds only trusted lines
        if self.bad:
            self.bad.sort()
            shown = ", ".join(map(str, self.bad[:10])) + (", ..." if len(self.bad) > 10 else "")
            sys.stderr.write(f"{self.path}: dropped {len(self.bad):,} bad line(s) ({shown}); "
                             "their parts are computed again\n")

    def records(self) -> Iterator[tuple[int, Any]]:
        """(task, result) of every trusted record, in file order (a second pass; the file was checked)."""
        if not self.path.exists():
            return
        skip = set() if self.rewritten else set(self.bad) | self.repeated | {self.torn}
        for number, line in _checkpoint_lines(self.path):
            if number in skip or not line.strip():
                continue
            record = _parse_json(line, f"{self.path} line {number}")
            if "task" in record:
                yield record["task"], record["result"]


_MISSING = object()


def _parse_json(text: str, what: str) -> Any:
    """One checkpoint line parsed within the safe-JSON limits (a ValueError naming ``what`` otherwise)."""
    try:
        from puzzles.safe_json import load_json_text
    except ImportError:  # pragma: no cover - the module ships with kibitz
        try:
            return json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError(f"{what}: not valid JSON ({error.msg})") from None
    return load_json_text(text, what)


def _checkpoint_lines(path: Path) -> Iterator[tuple[int, str]]:
    """(line number, line) of a checkpoint, read one bounded line at a time (never the whole file at once)."""
    try:
        with path.open(encoding="utf-8") as lines:
            number = 0
            while True:
                line = lines.readline(MAX_LINE_CHARS + 1)
                if not line:
                    return
                number += 1
                if len(line) > MAX_LINE_CHARS:
                    yield number, line  # refused as too long; skip the rest of that line
                    while line and not line.endswith("\n"):
                        line = lines.readline(MAX_LINE_CHARS + 1)
                    continue
                yield number, line
    except (OSError, UnicodeDecodeError) as error:
        raise CheckpointError(f"cannot read checkpoint {path}: {error}") from None


def verify_records(path: Path, sample: Sequence[tuple[int, int, Any]],
                   recompute: Callable[[int], Any | None]) -> int:
    """Recompute sampled records (line, task, stored result); a differing one is refused in one line.

    ``recompute(task)`` gives the task's result as it would be stored (JSON), or None when it was
    cut short (not compared).  Returns how many were compared.  A forged line (its checksum made
    to fit) is caught here, so the file is refused whole: other lines may be forged too."""
    compared = 0
    for number, task, stored in sorted(sample):
        fresh = recompute(task)
        if fresh is None:
            continue
        compared += 1
        fresh = json.loads(json.dumps(fresh))
        if fresh != stored:
            raise CheckpointError(f"{path} line {number}: task {task} recomputes to {_short(fresh)}, the file says "
                                  f"{_short(stored)} (forged?); delete the file to compute it all again")
    return compared


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _check_checkpoint_path(path: Path) -> None:
    """A checkpoint is a regular file (or not there yet): a folder, device or pipe is refused up front."""
    if path.is_dir():
        raise ValueError(f"checkpoint {path} is a directory")
    if path.exists() and not path.is_file():
        raise ValueError(f"checkpoint {path} is not a regular file")


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
    check: Callable[[int, Any], Any] | None = None,
    repair: bool = False,
    verify: int = 0,
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
    Checkpoint lines carry checksums; ``check(task, stored result)`` raises ValueError for a result out
    of its range; a bad line is refused, or dropped and run again with ``repair`` (:func:`scan_checkpoint`).
    ``verify`` finished tasks of the checkpoint, picked at random, are recomputed first and compared.
    """
    executor = executor or SerialExecutor()
    run = _TaskRun(function, payloads, reduce, initial, executor, progress, checkpoint, encode, job, on_result, stop,
                   final)
    if checkpoint is not None:  # folded as it is read: a resumed long run holds only the out-of-order records
        run.resume(checkpoint, decode, check, repair, verify)
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

    def resume(self, checkpoint: Path, decode: Callable[[Any], Any], check: Callable[[int, Any], Any] | None = None,
               repair: bool = False, verify: int = 0) -> None:
        """Take the results of an earlier run of this job from its checkpoint (every line checked first, see
        :func:`scan_checkpoint`); those tasks are skipped.  ``verify`` of them are recomputed and compared."""

        def trusted(index: int, result: Any) -> None:
            if check is not None:
                check(index, result)
            decode(result)  # a result that does not decode is refused with its line, not with a traceback

        scan = scan_checkpoint(checkpoint, self.job, self.total, trusted, repair, verify)
        if verify:
            verify_records(checkpoint, scan.sample, self._recompute)
        for index, result in scan.records():
            self.waiting[index] = decode(result)
            self.skip.add(index)
            self.done += 1
            self.fold()

    def _recompute(self, index: int) -> Any | None:
        """Task ``index`` run again here, as it would be stored; None when it was cut short (a limit)."""
        result = self.function(self.payloads[index])
        if self.final is not None and not self.final(result):
            return None
        return self.encode(result)

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
            self.log.write(checkpoint_line(self.job, index, self.encode(result)))
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


def open_checkpoint(checkpoint: Path, job: str) -> Any:
    """A checkpoint opened for appending :func:`checkpoint_line` lines (read and checked it first)."""
    return _open_log(checkpoint, job)


def _open_log(checkpoint: Path | None, job: str) -> Any:
    """The checkpoint opened for appending, a torn last line cut off, a header written on a new file."""
    if checkpoint is None:
        return None
    _check_checkpoint_path(checkpoint)
    try:
        _cut_torn_tail(checkpoint)
        log = checkpoint.open("a", encoding="utf-8")
        if log.tell() == 0:
            log.write(checkpoint_line(job))
        log.flush()
    except OSError as error:
        raise ValueError(f"cannot write checkpoint {checkpoint}: {error.strerror or error}") from None
    return log


def _cut_torn_tail(path: Path) -> None:
    """Cut a last line that a kill left without its newline: a complete record (it was checked) gets its
    newline, a torn one is removed (its task runs again), so new records start on a line of their own."""
    if not path.exists() or path.stat().st_size == 0:
        return
    with path.open("rb+") as old:
        size = old.seek(0, os.SEEK_END)
        old.seek(max(0, size - MAX_LINE_CHARS - 2))
        tail = old.read()
        if tail.endswith(b"\n"):
            return
        start = tail.rfind(b"\n") + 1
        try:
            json.loads(tail[start:])
            old.write(b"\n")
        except ValueError:
            old.truncate(size - (len(tail) - start))


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
    check: Callable[[int, Any], Any] | None = None,
    repair: bool = False,
    verify: int = 0,
) -> RunReport:
    """Run ``function(arguments, start, stop)`` over consecutive ranges of ``range(total)``.

    The typical job is N seeded games: item ``i`` must depend only on ``i``
    (its seed), never on the range it falls in, so the reduction is the same
    for any chunk size, backend or worker count.  ``chunk`` = items per task
    (default: about 4 tasks per worker, at most 200 items).  The ranges are made on
    demand (:class:`RangePayloads`); ``max_ahead``, ``check``, ``repair``, ``verify``: see :func:`run_tasks`.
    """
    if chunk <= 0:
        workers = getattr(executor, "_max_workers", None) or 1
        chunk = max(1, min(200, -(-total // (4 * workers))))
    payloads = RangePayloads(reference, arguments, total, chunk)
    return run_tasks(range_worker, payloads, reduce, initial, executor, progress, checkpoint, encode, decode, job,
                     on_result=on_result, stop=stop, max_ahead=max_ahead, check=check, repair=repair, verify=verify)


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
