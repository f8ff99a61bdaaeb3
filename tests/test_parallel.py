"""Scale-out: serial, local processes and a Dask cluster give identical answers; resume works."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from puzzles.polyomino import Region
from solvers.parallel import (
    RunReport,
    SerialExecutor,
    checkpoint_line,
    chunk_ranges,
    load_checkpoint,
    make_executor,
    run_tasks,
)
from solvers.playout import PlayoutJob, make_job
from solvers.tiling import TilingProblem


def count_with(problem: TilingProblem, executor, **kwargs):
    counts = problem.counts(split_depth=1, executor=executor, **kwargs)
    return counts.raw, counts.unique, counts.nodes, counts.complete


@pytest.fixture(scope="module")
def dask_address():
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0")
    yield cluster.scheduler_address
    cluster.close()


def test_count_is_identical_on_every_backend(dask_address: str) -> None:
    problem = TilingProblem.from_spec(Region.from_spec("4x15"), "pentominoes")
    assert len(problem.split(1)) >= 50
    serial = count_with(problem, SerialExecutor())
    assert serial == (1472, 368, serial[2], True)
    executor, close = make_executor(2)
    try:
        assert count_with(problem, executor) == serial
    finally:
        close()
    executor, close = make_executor(scheduler=dask_address)
    try:
        assert count_with(problem, executor) == serial
    finally:
        close()
    assert problem.counts() .raw == 1472  # the in-process path agrees too


def test_split_depth_does_not_change_the_count() -> None:
    problem = TilingProblem.from_spec(Region.from_spec("3x20"), "pentominoes")
    for depth in range(4):
        counts = problem.counts(split_depth=depth)
        assert (counts.raw, counts.unique) == (8, 2)
    plain = problem.counts(reduce_symmetry=False, split_depth=2)
    assert (plain.raw, plain.unique) == (8, 2)


def test_resume_after_a_kill_gives_the_same_total(tmp_path: Path) -> None:
    problem = TilingProblem.from_spec(Region.from_spec("4x15"), "pentominoes")
    whole = problem.counts(split_depth=1)
    checkpoint = tmp_path / "count.jsonl"
    finished = []

    def kill_midway(done: int, total: int) -> None:
        finished.append(done)
        if done >= total // 2:
            raise KeyboardInterrupt  # what Ctrl-C or a kill between tasks looks like

    partial = problem.counts(split_depth=1, executor=SerialExecutor(), checkpoint=checkpoint, on_part=kill_midway)
    assert not partial.complete and partial.raw < whole.raw
    with checkpoint.open("a") as log:
        log.write('{"task": 99999, "resu')  # a torn last line, as a kill during a write leaves
    resumed = problem.counts(split_depth=1, executor=SerialExecutor(), checkpoint=checkpoint)
    assert (resumed.raw, resumed.unique, resumed.complete) == (whole.raw, whole.unique, True)
    records = load_checkpoint(checkpoint, problem.job_id(1, True))
    assert len(records) == len(problem.split(1))


def test_checkpoint_of_another_job_is_refused(tmp_path: Path) -> None:
    checkpoint = tmp_path / "count.jsonl"
    TilingProblem.from_spec(Region.from_spec("3x20"), "pentominoes").counts(split_depth=1, executor=SerialExecutor(), checkpoint=checkpoint)
    with pytest.raises(ValueError, match="another job"):
        TilingProblem.from_spec(Region.from_spec("4x15"), "pentominoes").counts(split_depth=1, executor=SerialExecutor(), checkpoint=checkpoint)


def test_run_tasks_reduces_in_task_order() -> None:
    executor, close = make_executor(2)
    try:
        report = run_tasks(_square, list(range(20)), lambda acc, r: acc + [r], [], executor)
    finally:
        close()
    assert isinstance(report, RunReport) and report.complete
    assert report.value == [i * i for i in range(20)]
    assert chunk_ranges(10, 3) == [(0, 4), (4, 7), (7, 10)]


def _square(x: int) -> int:
    return x * x


def test_bad_scheduler_address_fails_fast(run_cli, monkeypatch: pytest.MonkeyPatch) -> None:
    """A refused connection is retried until the connect timeout (5 s; 1 s here), then one line."""
    import solvers.parallel

    monkeypatch.setattr(solvers.parallel, "SCHEDULER_TIMEOUT_S", 1.0)
    started = time.monotonic()
    result = run_cli("tile", "6x10", "--count", "--scheduler", "tcp://127.0.0.1:1")
    assert time.monotonic() - started < 10
    assert result.exit_code != 0 and "cannot reach Dask scheduler" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_cli_count_with_workers_and_resume(run_cli, tmp_path: Path) -> None:
    checkpoint = tmp_path / "ck.jsonl"
    args = ["tile", "4x15", "--count", "--split-depth", "1", "--json"]
    first = json.loads(run_cli(*args, "--workers", "2", "--checkpoint", str(checkpoint)).output)
    again = json.loads(run_cli(*args, "--resume", str(checkpoint)).output)  # old spelling; all done already
    assert (first["count_raw"], first["count_symmetry"]) == (again["count_raw"], again["count_symmetry"]) == (1472, 368)


def _merge(total, part):
    if total is None:
        return part
    total.merge(part)
    return total


@pytest.mark.parametrize(
    ("job", "games"),
    [
        (make_job("blokus", ["random", "greedy"], players=2, seed=5, options={"variant": "two-player"}), 6),
        (make_job("towers", ["greedy", "random"], seed=5), 12),
        (make_job("towers", ["random"], seed=5), 500),  # compiled playouts
    ],
    ids=["blokus", "towers", "towers-kernel"],
)
def test_playouts_are_identical_on_every_backend(dask_address: str, job: PlayoutJob, games: int) -> None:
    from solvers.parallel import run_ranges

    def run(executor, chunk):
        report = run_ranges("solvers.playout:playout_range", job, games, _merge, None, executor, chunk=chunk)
        return report.value.summary()

    serial = run(SerialExecutor(), games)
    assert run(SerialExecutor(), 1) == serial  # any chunking
    executor, close = make_executor(2)
    try:
        assert run(executor, 2) == serial
    finally:
        close()
    executor, close = make_executor(scheduler=dask_address)
    try:
        assert run(executor, 3) == serial
    finally:
        close()


def test_cli_playout_workers_do_not_change_results(run_cli) -> None:
    args = ["projectl", "playout", "--games", "6", "--bots", "greedy,random", "--seed", "4", "--json"]
    one = json.loads(run_cli(*args, "--workers", "1").output)
    two = json.loads(run_cli(*args, "--workers", "2").output)
    assert one == two and one["games"] == 6


def test_generators_and_colored_counts_give_the_same_answer_on_every_backend(run_cli, dask_address: str) -> None:
    generate = ["generate", "tiling", "--count", "3", "--seed", "5", "--json"]
    serial = json.loads(run_cli(*generate).output)
    assert json.loads(run_cli(*generate, "--workers", "2").output) == serial
    assert json.loads(run_cli(*generate, "--scheduler", dask_address).output) == serial
    count = ["blokus", "solitaire", "tetrominoes", "--region", "10x4", "--colors", "2", "--no-edge-rule", "--count",
             "--json"]
    one = json.loads(run_cli(*count).output)
    assert one["count_raw"] == 57472
    for extra in (["--workers", "2"], ["--scheduler", dask_address]):
        other = json.loads(run_cli(*count, *extra).output)
        assert {k: other[k] for k in ("count_raw", "count_symmetry", "count_symmetry_colors")} == \
               {k: one[k] for k in ("count_raw", "count_symmetry", "count_symmetry_colors")}


def test_threads_sharing_a_cached_problem_count_correctly() -> None:
    """Two threads (as in a multi-threaded Dask worker) run tasks of the same cached problem at once."""
    from concurrent.futures import ThreadPoolExecutor

    from solvers.tiling import TaskCount, add_task_counts, count_task

    problem = TilingProblem.from_spec(Region.from_spec("4x15"), "pentominoes")
    tasks = [(problem.key(), task) for task in problem.split(1)]
    for _ in range(2):
        with ThreadPoolExecutor(2) as pool:
            parts = list(pool.map(count_task, tasks))
        total = TaskCount(0, 0, 0)
        for part in parts:
            total = add_task_counts(total, part)
        assert total.raw == 1472


def _range_sum(arguments, start: int, stop: int) -> int:
    return arguments * (stop - start)


def test_huge_range_jobs_are_lazy_and_stoppable() -> None:
    """10**12 items: no list of ranges is built; a stop() ends the run with the finished parts folded."""
    from solvers.parallel import RangePayloads, run_ranges

    payloads = RangePayloads("tests.test_parallel:_range_sum", 1, 10**12, 200)
    assert len(payloads) == 5 * 10**9 and payloads[len(payloads) - 1][2:] == (10**12 - 200, 10**12)
    calls = []
    report = run_ranges("tests.test_parallel:_range_sum", 1, 10**12, lambda a, b: a + b, 0, SerialExecutor(),
                        chunk=200, stop=lambda: bool(calls.append(1)) or True)
    assert report.stopped_by == "stop" and not report.complete
    assert report.value == 200 * report.done and 0 < report.done < 100


def test_parts_cut_short_are_folded_but_not_checkpointed(tmp_path: Path) -> None:
    checkpoint = tmp_path / "ck.jsonl"
    report = run_tasks(_square, list(range(6)), lambda acc, r: acc + [r], [], SerialExecutor(), checkpoint=checkpoint,
                       job="squares", final=lambda result: result != 9)
    assert report.stopped_by == "stop" and 9 in report.value
    assert 3 not in load_checkpoint(checkpoint, "squares")  # the part cut short reruns on resume
    resumed = run_tasks(_square, list(range(6)), lambda acc, r: acc + [r], [], SerialExecutor(), checkpoint=checkpoint,
                        job="squares")
    assert resumed.complete and resumed.value == [i * i for i in range(6)]
    with pytest.raises(ValueError, match="another job"):
        load_checkpoint(checkpoint, "cubes")


def test_results_held_behind_a_slow_task_are_bounded() -> None:
    """max_ahead: while task 0 is still out, no task beyond 0 + max_ahead is started (nor held for folding)."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    release = threading.Event()
    started: list[int] = []

    def task(index: int) -> int:
        started.append(index)
        if index == 0:
            release.wait(10)
        return index

    pool = ThreadPoolExecutor(2)
    seen: list[int] = []
    started_while_blocked: list[int] = []

    def look_then_release() -> None:
        started_while_blocked.extend(started)
        release.set()

    def on_result(index: int, _result: int) -> None:
        seen.append(index)
        if len(seen) == 15:  # tasks 1..15 are done; give the run half a second to start more, then free task 0
            threading.Timer(0.5, look_then_release).start()

    try:
        report = run_tasks(task, range(100), lambda acc, r: acc + [r], [], pool, on_result=on_result,
                           max_ahead=MAX_AHEAD)
    finally:
        release.set()
        pool.shutdown()
    assert report.complete and report.value == list(range(100))
    assert sorted(started_while_blocked) == list(range(16))  # 16..99 waited for task 0


MAX_AHEAD = 16


def test_playout_ranges_are_made_on_demand() -> None:
    """A 10**12-game playout is 5 * 10**9 range payloads made one at a time (the kernel's block size too)."""
    from solvers.parallel import RangePayloads, range_worker
    from solvers.playout import playout_chunk, playout_range

    job = make_job("towers", ["random"], seed=2)
    size = playout_chunk(job, 10**12)
    payloads = RangePayloads("solvers.playout:playout_range", job, 10**12, size)
    assert size == 200 and len(payloads) == 5 * 10**9
    assert range_worker(payloads[len(payloads) - 1]).games == 200
    whole = playout_range(job, 0, 45_000)  # three kernel blocks (FAST_BLOCK) folded into one total
    parts = playout_range(job, 0, 20_000).merge(playout_range(job, 20_000, 45_000))
    assert whole.games == 45_000 and whole.to_json() == parts.to_json()


def test_resume_folds_checkpoint_records_in_task_order(tmp_path: Path) -> None:
    """Records in finishing order (shuffled, one twice, one missing) are folded as read; only missing tasks run."""
    import random

    checkpoint = tmp_path / "ck.jsonl"
    finished = [i for i in range(20) if i != 5]
    random.Random(1).shuffle(finished)
    lines = [checkpoint_line("squares")]
    lines += [checkpoint_line("squares", i, i * i) for i in [*finished, finished[0]]]
    checkpoint.write_text("".join(lines))
    ran: list[int] = []

    def square(x: int) -> int:
        ran.append(x)
        return x * x

    report = run_tasks(square, list(range(30)), lambda acc, r: acc + [r], [], SerialExecutor(), checkpoint=checkpoint,
                       job="squares")
    assert report.complete and report.done == 30 and report.value == [i * i for i in range(30)]
    assert sorted(ran) == [5, *range(20, 30)]
    assert sorted(load_checkpoint(checkpoint, "squares")) == list(range(30))
