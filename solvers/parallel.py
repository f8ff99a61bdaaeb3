"""Run a bag of independent, seeded tasks on one core, many cores or a Dask cluster — same answers.

Every long job of kibitz (playouts, exhaustive counts, generators) is cut into
tasks ``0 .. n-1``.  Task ``i`` is a pure function of its payload (which
carries its own seed), results are reduced **in task order**, so totals and
statistics do not depend on the backend or the number of workers.

Backends, all behind :class:`concurrent.futures.Executor`:

* ``serial`` — in this process (default for tiny jobs; no pickling);
* local processes — ``workers=N`` (:class:`~concurrent.futures.ProcessPoolExecutor`);
* Dask distributed — ``scheduler="tcp://HOST:PORT"`` via ``Client.get_executor()``.

Long jobs can checkpoint: each finished task is appended to a JSON-lines file
(``{"task": i, "result": ...}``); resuming from that file skips those tasks.
Ctrl-C cancels what is pending and returns the partial, in-order reduction.
"""

from __future__ import annotations

import importlib
import json
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEDULER_TIMEOUT_S = 3.0


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


def make_executor(workers: int | None = None, scheduler: str | None = None) -> tuple[Executor, Callable[[], None]]:
    """An executor and its shutdown function: Dask if ``scheduler``, processes if ``workers`` > 1, else serial."""
    if scheduler:
        return _dask_executor(scheduler)
    if workers is None:
        workers = default_workers()
    if workers < 1:
        raise ValueError(f"--workers must be at least 1, got {workers}")
    if workers == 1:
        executor: Executor = SerialExecutor()
    else:
        executor = ProcessPoolExecutor(max_workers=workers)
    return executor, lambda: executor.shutdown(wait=True, cancel_futures=True)


def _dask_executor(address: str) -> tuple[Executor, Callable[[], None]]:
    try:
        from distributed import Client
    except ImportError:
        raise ValueError("a Dask scheduler needs the cluster extra: pip install -e '.[cluster]'") from None
    try:
        client = Client(address, timeout=SCHEDULER_TIMEOUT_S, set_as_default=False)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError, ValueError) as error:
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise ValueError(f"cannot reach Dask scheduler {address}: {reason}") from None
    executor: Executor = client.get_executor()  # type: ignore[no-untyped-call]

    def close() -> None:
        client.close()  # type: ignore[no-untyped-call]

    return executor, close


@dataclass
class RunReport:
    """What a task run did: the reduced value, how many tasks finished, whether it was cut short."""

    value: Any
    done: int
    total: int
    interrupted: bool = False

    @property
    def complete(self) -> bool:
        return self.done == self.total and not self.interrupted


def load_checkpoint(path: Path, job: str = "") -> dict[int, Any]:
    """Finished tasks from a checkpoint file (a line torn by a kill is ignored: that task reruns).

    The first line names the job; a file written for another job is refused,
    since mixing its results in would give a wrong total.
    """
    finished: dict[int, Any] = {}
    if not path.exists() or not path.read_text().strip():
        return finished
    lines = path.read_text().splitlines()
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            if "job" in record:
                if job and record["job"] != job:
                    raise ValueError(f"{path} is a checkpoint of another job ({record['job']}, not {job})")
                continue
            finished[int(record["task"])] = record["result"]
        except json.JSONDecodeError:
            continue  # a write cut off by a kill: that task simply runs again
        except (KeyError, TypeError, ValueError) as error:
            if "another job" in str(error):
                raise
            raise ValueError(f"{path}: line {number} is not a checkpoint record") from None
    return finished


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
) -> RunReport:
    """Run ``function(payload)`` for every payload and fold the results in task order.

    ``checkpoint``: finished tasks already in the file are not run again, new
    ones are appended as they finish (``encode``/``decode`` make results JSON);
    ``job`` names the job in the file so a checkpoint is never resumed by another job.
    ``on_result(index, result)`` sees each result as it arrives; when ``stop()`` turns true
    (e.g. a time limit) the pending tasks are cancelled as for Ctrl-C.
    ``progress(done, total)`` is called after each task.  Ctrl-C cancels the
    rest and returns the in-order reduction of the tasks finished before it.
    """
    executor = executor or SerialExecutor()
    total = len(payloads)
    results: dict[int, Any] = {}
    if checkpoint is not None:
        results.update({i: decode(r) for i, r in load_checkpoint(checkpoint, job).items() if i < total})
    log = None
    if checkpoint is not None:
        torn = checkpoint.exists() and not checkpoint.read_text().endswith("\n")
        log = checkpoint.open("a")
        if log.tell() > 0 and torn:
            log.write("\n")  # end a line torn by a kill, so new records start clean
        if log.tell() == 0:
            log.write(json.dumps({"job": job}) + "\n")
            log.flush()
    interrupted = False
    try:
        pending: dict[Future[Any], int] = {}
        todo = iter(i for i in range(total) if i not in results)
        window = _window(executor)
        _fill(executor, function, payloads, todo, pending, window)
        if progress:
            progress(len(results), total)
        while pending:
            finished, _ = wait(list(pending), return_when=FIRST_COMPLETED)
            for future in finished:
                index = pending.pop(future)
                results[index] = future.result()
                if log is not None:
                    log.write(json.dumps({"task": index, "result": encode(results[index])}) + "\n")
                    log.flush()
                if on_result:
                    on_result(index, results[index])
                if progress:
                    progress(len(results), total)
            if stop is not None and stop():
                raise KeyboardInterrupt
            _fill(executor, function, payloads, todo, pending, window)
    except KeyboardInterrupt:
        interrupted = True
        for future in list(pending):
            future.cancel()
    finally:
        if log is not None:
            log.close()
    value = initial
    for index in sorted(results):  # task order, whatever order they finished in
        value = reduce(value, results[index])
    return RunReport(value, len(results), total, interrupted)


def _window(executor: Executor) -> int:
    """How many tasks to keep in flight: enough to keep every worker busy, few enough to stop fast."""
    workers = getattr(executor, "_max_workers", None) or default_workers()
    return 4 * workers


def _fill(executor: Executor, function: Callable[[Any], Any], payloads: Sequence[Any], todo: Iterator[int],
          pending: dict[Future[Any], int], window: int) -> None:
    while len(pending) < window:
        index = next(todo, None)
        if index is None:
            return
        pending[executor.submit(function, payloads[index])] = index


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


def _range_worker(payload: tuple[str, Any, int, int]) -> Any:
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
) -> RunReport:
    """Run ``function(arguments, start, stop)`` over consecutive ranges of ``range(total)``.

    The typical job is N seeded games: item ``i`` must depend only on ``i``
    (its seed), never on the range it falls in, so the reduction is the same
    for any chunk size, backend or worker count.  ``chunk`` = items per task
    (default: about 4 tasks per worker, at most 200 items).
    """
    if chunk <= 0:
        workers = getattr(executor, "_max_workers", None) or 1
        chunk = max(1, min(200, -(-total // (4 * workers))))
    ranges = [(start, min(start + chunk, total)) for start in range(0, total, chunk)]
    payloads = [(reference, arguments, start, stop) for start, stop in ranges]
    return run_tasks(_range_worker, payloads, reduce, initial, executor, progress, checkpoint, encode, decode, job)
