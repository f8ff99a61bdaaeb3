"""Benchmark: throughput with 2 local worker processes vs 1 (meant for a machine with at least 2 cores).

Jobs (results are checked to be identical for both):
  * Blokus: uniform-random 4-player classic games through the rule engine (the `blokus playout` path);
  * counting the 6x10 pentomino tilings split into >= 50 subproblems (`tile --count --split-depth`),
    both with the symmetry-reduced search and with the plain one.
Worker pools are started and warmed (modules imported, numba caches loaded) before timing, so the
figures are throughput, not start-up.  Target: >= 1.7x with 2 workers.

Run: python bench/parallel.py [--games N]
"""

from __future__ import annotations

import argparse
import time

from puzzles.polyomino import Region
from solvers.parallel import SerialExecutor, make_executor, run_ranges, run_tasks
from solvers.playout import make_job
from solvers.tiling import TaskCount, TilingProblem, add_task_counts, count_task


def merge_into(total, part):
    if total is None:
        return part
    total.merge(part)
    return total


def warm(executor) -> None:
    job = make_job("blokus", ["random"], seed=99)
    for _ in range(8):
        run_ranges("solvers.playout:playout_range", job, 2, merge_into, None, executor, chunk=1)
    problem = TilingProblem.from_spec(Region.from_spec("3x20"), "pentominoes")
    run_tasks(count_task, [(problem.key(), t) for t in problem.split(1)], add_task_counts, TaskCount(0, 0, 0), executor)


def blokus_job(executor, games: int):
    started = time.perf_counter()
    stats = run_ranges("solvers.playout:playout_range", make_job("blokus", ["random"], seed=7), games,
                       merge_into, None, executor, chunk=10).value
    return time.perf_counter() - started, stats.summary()


def count_job(executor, depth: int, reduce_symmetry: bool):
    problem = TilingProblem.from_spec(Region.from_spec("6x10"), "pentominoes")
    tasks = problem.split(depth, reduce_symmetry)
    started = time.perf_counter()
    report = run_tasks(count_task, [(problem.key(), t) for t in tasks], add_task_counts, TaskCount(0, 0, 0), executor)
    return time.perf_counter() - started, (report.value.raw, report.value.stabiliser_sum), len(tasks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600)
    args = parser.parse_args()
    serial = SerialExecutor()
    pool, close = make_executor(2)
    try:
        warm(serial)
        warm(pool)
        t1, s1 = blokus_job(serial, args.games)
        t2, s2 = blokus_job(pool, args.games)
        assert s1 == s2, "results differ between 1 and 2 workers"
        print(f"blokus playouts: 1 worker {args.games / t1:.0f} games/s, 2 workers {args.games / t2:.0f} games/s "
              f"-> {t1 / t2:.2f}x (identical statistics)")
        for depth, reduce_symmetry in ((1, True), (2, False)):
            c1, r1, n = count_job(serial, depth, reduce_symmetry)
            c2, r2, _ = count_job(pool, depth, reduce_symmetry)
            assert r1 == r2 and r1[0] == 9356, (r1, r2)
            kind = "symmetry-reduced" if reduce_symmetry else "plain"
            print(f"6x10 count ({kind}, {n} subproblems): 1 worker {c1:.2f} s, 2 workers {c2:.2f} s -> {c1 / c2:.2f}x "
                  f"(both 9356 raw)")
    finally:
        close()


if __name__ == "__main__":
    main()
