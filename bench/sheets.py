"""Bench: puzzle-sheet generation time per challenge kind and difficulty, and the difficulty check.

For each kind and level, ``--count`` challenges are generated (the search for a unique or proven
puzzle included) and drawn as puzzle and solution sheets (SVG and PDF).  CPU seconds are measured
(``time.process_time`` of this process: steadier than wall time on a shared machine; CP-SAT's
threads are counted too, it runs single-threaded here).  The difficulty measure (the solver's effort)
is reported with an independent effort where there is one, and the medians are checked to rise from
easy to hard (monotone on the sample):

* tiling: generator nodes (bitboard search) and the generic dancing-links count's nodes;
* blokus-fit: nodes of the exhaustive completion count and the seconds of a recount;
* shelfie: CP-SAT pieces of the proof and the proof's CPU seconds (single-threaded CP-SAT);
* towers: the exact solver's nodes to prove every move's value (the grading) and the median CPU seconds
  of three fresh re-solves.

Run: nice -n 10 python bench/sheets.py [--count 3] [--kinds tiling,blokus-fit,towers,shelfie] > bench/results/sheets.md
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Iterator
from typing import Any

from puzzles.sheets import sheet_bytes

LEVELS = ("easy", "medium", "hard")


def _tiling(level: str, count: int) -> Iterator[Any]:
    from solvers.challenges import generate

    return generate(count, level, "pentominoes", 0)


def _tiling_effort(ch: Any) -> tuple[float, float]:
    from solvers.tiling import PieceSpec, TilingProblem

    dlx = TilingProblem(ch.region, [PieceSpec(s) for s in ch.pieces]).exact_cover_problem().count()
    return ch.nodes, dlx.nodes


def _blokus(level: str, count: int) -> Iterator[Any]:
    from solvers.blokus.challenges import generate

    return generate(count, level, 0)


def _blokus_effort(ch: Any) -> tuple[float, float]:
    from solvers.blokus.challenges import count_completions

    start = time.process_time()
    count_completions([cells for _, cells in ch.kept], ch.fit)
    return ch.nodes, time.process_time() - start


def _shelfie(level: str, count: int) -> Iterator[Any]:
    from solvers.shelfie.challenges import generate

    return generate(count, level, 0)


def _shelfie_effort(ch: Any) -> tuple[float, float]:
    return ch.pieces, ch.seconds


def _towers(level: str, count: int) -> Iterator[Any]:
    from solvers.towers.challenges import generate

    return generate(count, level, 0)


def _towers_effort(ch: Any) -> tuple[float, float]:
    from solvers.towers.solver import Solver

    times = []
    for _ in range(3):
        solver = Solver(20)
        start = time.process_time()
        solver.solve(ch.state, horizon="game", pv=False)
        times.append(time.process_time() - start)
    return ch.nodes, statistics.median(times)


KINDS: dict[str, tuple[Callable[[str, int], Iterator[Any]], Callable[[Any], tuple[float, float]], str, str]] = {
    "tiling": (_tiling, _tiling_effort, "generator nodes", "dancing-links nodes"),
    "blokus-fit": (_blokus, _blokus_effort, "count nodes", "recount CPU s"),
    "shelfie": (_shelfie, _shelfie_effort, "CP-SAT pieces", "proof CPU s"),
    "towers": (_towers, _towers_effort, "solver nodes", "re-solve CPU s"),
}


def measure(kind: str, level: str, count: int) -> dict[str, Any]:
    """Generate ``count`` challenges of a kind and level with their sheets; CPU seconds and efforts."""
    make, effort, _, _ = KINDS[kind]
    seconds, sheet_seconds, measures, independent = [], [], [], []
    challenges = make(level, count)
    while True:
        start = time.process_time()
        ch = next(challenges, None)
        if ch is None:
            break
        found = time.process_time()
        for fmt in ("svg", "pdf"):
            sheet_bytes([[ch.puzzle_panel()]], fmt)
            sheet_bytes([[ch.solution_panel()]], fmt)
        seconds.append(time.process_time() - start)
        sheet_seconds.append(time.process_time() - found)
        m, e = effort(ch)
        measures.append(m)
        independent.append(e)
    return {"kind": kind, "level": level, "n": len(seconds), "seconds": seconds, "sheet": sheet_seconds,
            "measure": measures, "independent": independent}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=3)
    parser.add_argument("--kinds", default=",".join(KINDS))
    args = parser.parse_args()
    print("# Puzzle sheets: generation time per challenge kind and difficulty\n")
    print(f"`nice -n 10 python bench/sheets.py --count {args.count} --kinds {args.kinds}` on the shared 2-core machine, "
          f"{time.strftime('%Y-%m-%d')}.  CPU seconds of this process per challenge (search + proof + puzzle and solution "
          "sheets as SVG and PDF), then the sheets alone; medians of the difficulty measure and of an independent "
          "effort; 'monotone' = both medians rise (or stay) from easy to hard.\n")
    print("| kind | level | n | CPU s / challenge (median, max) | sheets CPU s (median) | measure | median | independent | median |")
    print("|---|---|---|---|---|---|---|---|---|")
    for kind in args.kinds.split(","):
        rows = [measure(kind, level, args.count) for level in LEVELS]
        _, _, name, other = KINDS[kind]
        for row in rows:
            print(f"| {kind} | {row['level']} | {row['n']} | {statistics.median(row['seconds']):.2f}, "
                  f"{max(row['seconds']):.2f} | {statistics.median(row['sheet']):.2f} | {name} | "
                  f"{statistics.median(row['measure']):g} | {other} | {statistics.median(row['independent']):.3g} |",
                  flush=True)
        medians = [statistics.median(r["measure"]) for r in rows]
        others = [statistics.median(r["independent"]) for r in rows]
        rising = all(a <= b for a, b in zip(medians, medians[1:])) and all(a <= b for a, b in zip(others, others[1:]))
        print(f"| {kind} | monotone | | | | | {'yes' if rising else 'NO'} | | |", flush=True)


if __name__ == "__main__":
    main()
