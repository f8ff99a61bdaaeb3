"""Bench: the tetromino rectangle (10x8, 4 colours): find one per backend (seed rule and corner contact), the
exact corner-contact counts (10x8 and 9x9 minus the centre) in CPU seconds, the estimator against exact counts.

Usage: python bench/solitaire_tetrominoes.py [--time-limit 60] [--skip-counts] [--probes 20000]
       python bench/solitaire_tetrominoes.py --find-only [--backends sat,cpsat] [--time-limit 60]
       python bench/solitaire_tetrominoes.py --sat-seeds 0-9 [--time-limit 60]
       python bench/solitaire_tetrominoes.py --cli 10 [--baseline /path/to/other/checkout]

``--find-only`` prints only the one-tiling table (10x8, with and without ``--corner-contact``, per backend:
canonical numba search, bitset, dlx, sat, cpsat). CPU seconds are this process's plus its finished children's
(the SAT backend runs in a child process under a time limit), so they hold under load; wall is noisy.

``--sat-seeds`` prints only the corner-contact 10x8 find by ``--backend sat`` for each seed (the seed picks the
fixed-order runs' place orders), to show the spread of its CPU time.

``--cli N`` prints only the whole default command ``kibitz blokus solitaire tetrominoes`` (the dlx find of the
10x8 rectangle), start-up included: wall and CPU seconds of N fresh processes after one warm-up (numba's cache
warm), min / median / max.  With ``--baseline DIR`` the same command of another checkout runs in turn with it
(A B A B ...), so both see the same load, and the median ratio of the pairs is printed too.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from puzzles.polyomino import Region
from solvers.blokus.tetromino_search import estimate_canonical, timed_count
from solvers.blokus.tetrominoes import ColoredTilingProblem


def _cpu() -> float:
    """CPU seconds of this process and its waited-for children (the SAT backend's child process)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def find_times(corner: bool, time_limit: float, backends: list[str]) -> None:
    for backend in backends:
        problem = ColoredTilingProblem(Region.rectangle(10, 8), corner_contact=corner)
        wall, cpu = time.perf_counter(), _cpu()
        try:
            if backend == "search":  # the canonical numba search itself (solvers/blokus/tetromino_search.py)
                pairs, exhaustive = problem.canonical_search().first()
                pieces = problem.to_pieces(problem.canonical_search().to_options(pairs)) if pairs else None
                if pieces:
                    problem.verify(pieces)
            else:
                pieces = problem.find(backend, workers=1, time_limit=time_limit)
            status = "found, verified" if pieces else "proved: none"
        except TimeoutError:
            status = f"unknown at the {time_limit:.0f} s limit"
        print(f"find 10x8{' --corner-contact' if corner else ''} with {backend}: {status}; "
              f"{time.perf_counter() - wall:.2f} s wall, {_cpu() - cpu:.2f} CPU-s", flush=True)


def sat_seeds(spec: str, time_limit: float) -> None:
    low, _, high = spec.partition("-")
    times = []
    for seed in range(int(low), int(high or low) + 1):
        problem = ColoredTilingProblem(Region.rectangle(10, 8), corner_contact=True)
        cpu = _cpu()
        try:
            status = "found, verified" if problem.find("sat", time_limit=time_limit, seed=seed) else "proved: none"
        except TimeoutError:
            status = f"unknown at the {time_limit:.0f} s limit"
        times.append(_cpu() - cpu)
        print(f"find 10x8 --corner-contact with sat, seed {seed}: {status}; {times[-1]:.2f} CPU-s", flush=True)
    times.sort()
    print(f"sat seeds {spec}: median {times[len(times) // 2]:.2f} CPU-s, max {times[-1]:.2f} CPU-s")


DEFAULT_FIND = ["blokus", "solitaire", "tetrominoes"]


def _run_cli(root: Path) -> tuple[float, float, str]:
    """(wall s, CPU s, last line) of one ``python -m cli blokus solitaire tetrominoes`` from checkout ``root``."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "cli", *DEFAULT_FIND], cwd=root, env=env, capture_output=True,
                          text=True, check=True)
    wall = time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu, done.stdout.strip().splitlines()[-1]


def _spread(values: list[float]) -> str:
    return f"min {min(values):.2f}, median {statistics.median(values):.2f}, max {max(values):.2f}"


def cli_times(runs: int, baseline: str | None) -> None:
    roots = {"this checkout": Path(__file__).resolve().parents[1]}
    if baseline:
        roots["baseline"] = Path(baseline).resolve()
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in roots}
    for name, root in roots.items():  # warm-up: numba's cache, the page cache
        print(f"{name} ({root}): {_run_cli(root)[2]}", flush=True)
    for _ in range(runs):
        for name, root in roots.items():
            wall, cpu, _line = _run_cli(root)
            times[name].append((wall, cpu))
    for name, pairs in times.items():
        print(f"kibitz {' '.join(DEFAULT_FIND)} ({name}, {runs} runs): wall s {_spread([w for w, _ in pairs])}; "
              f"CPU s {_spread([c for _, c in pairs])}")
    if baseline:
        pairs = list(zip(times["this checkout"], times["baseline"], strict=True))
        wall = statistics.median(x[0] / y[0] for x, y in pairs)
        cpu = statistics.median(x[1] / y[1] for x, y in pairs)
        print(f"ratio this/baseline, median of the pairs: wall {wall:.2f}, CPU {cpu:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--time-limit", type=float, default=60.0, help="per find")
    parser.add_argument("--skip-counts", action="store_true")
    parser.add_argument("--probes", type=int, default=20_000)
    parser.add_argument("--find-only", action="store_true", help="only the one-tiling table")
    parser.add_argument("--backends", default="search,bitset,dlx,sat,cpsat", help="comma-separated, for the table")
    parser.add_argument("--sat-seeds", default=None, help="only the corner-contact SAT find for seeds A-B")
    parser.add_argument("--cli", type=int, default=0, metavar="N", help="only the default command's wall, N runs")
    parser.add_argument("--baseline", default=None, metavar="DIR", help="with --cli: another checkout, A B A B")
    args = parser.parse_args()
    if args.cli:
        cli_times(args.cli, args.baseline)
        return
    if args.sat_seeds:
        sat_seeds(args.sat_seeds, args.time_limit)
        return
    ColoredTilingProblem(Region.rectangle(6, 4), 1).canonical_search().count()  # compile first
    backends = args.backends.split(",")
    find_times(False, args.time_limit, backends)
    find_times(True, args.time_limit, backends)
    if args.find_only:
        return
    if not args.skip_counts:
        for name, region in (("10x8", Region.rectangle(10, 8)), ("9x9 minus centre", Region.rectangle(9, 9).without([(4, 4)]))):
            problem = ColoredTilingProblem(region, corner_contact=True)
            (raw, sym, sym_col), totals, cpu = timed_count(problem)
            print(f"corner-contact {name}: {raw} raw, {sym} up to symmetry, {sym_col} up to symmetry and colours "
                  f"({totals.canonical} up to colours); {totals.nodes} nodes, {cpu:.1f} CPU-s")
    # the corner-contact tree is sparse (130 canonical tilings in 3.4e8 nodes): paths that go deeper than one
    # piece almost never meet a tiling, so that case counts each path's subtree from depth 1, with few paths
    cases = [
        ("8x5, 2 colours, no edge rule", ColoredTilingProblem(Region.rectangle(8, 5), 2, edge_rule=False), 3, args.probes),
        ("10x4, 2 colours, no edge rule", ColoredTilingProblem(Region.rectangle(10, 4), 2, edge_rule=False), 3, args.probes),
        ("6x10, 3 colours", ColoredTilingProblem(Region.rectangle(6, 10), 3), 6, args.probes),
        ("10x8 corner contact", ColoredTilingProblem(Region.rectangle(10, 8), corner_contact=True), 1, 40),
    ]
    for name, problem, depth, probes in cases:
        (raw, sym, sym_col), _, cpu = timed_count(problem)
        est = estimate_canonical(problem, probes, seed=0, exact_depth=depth)
        parts = []
        for unit, exact in (("raw", raw), ("symmetry", sym), ("symmetry_colors", sym_col)):
            z = (est[unit] - exact) / est[unit + "_stderr"] if est[unit + "_stderr"] else 0.0
            parts.append(f"{unit} {exact} vs {est[unit]:.4g} ± {est[unit + '_stderr']:.2g} ({z:+.1f} se)")
        print(f"estimator on {name} ({probes} paths, exact below {depth} pieces, {est['cpu_seconds']:.1f} CPU-s; "
              f"exact count {cpu:.1f} CPU-s): " + "; ".join(parts))


if __name__ == "__main__":
    main()
