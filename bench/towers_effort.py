"""Bench: the calibration sample behind the towers challenge levels (solvers/towers/challenges.py LEVELS).

For each seed and each depth (plies left to the end of the game, 2..16) the seeded random play of
the challenge generator is stopped at that depth; the exact solver proves every legal move's value
(a fresh search, 2**20-entry table) and the position is kept when it is a challenge: exactly one move
wins or saves the draw and at least MIN_FAILING moves fail.  Printed: per depth, the candidates, the
challenges and the median solver nodes; then per level (the node bands), how many challenges of the
sample fall in it, the median nodes, plies, legal moves and re-solve CPU seconds (the median of 3
fresh solves: an effort measured apart from the node count).

Run: nice -n 10 python bench/towers_effort.py [--seeds 200] > bench/results/towers_effort.md
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict
from typing import Any

from solvers.towers.challenges import LEVELS, MIN_FAILING, _candidate, bands_text, check_challenge, level_of
from solvers.towers.solver import Solver

DEPTHS = range(2, 17)


def resolve_seconds(state: Any, repeats: int = 3) -> float:
    """Median CPU seconds of ``repeats`` fresh exact solves of ``state`` (every move's value)."""
    times = []
    for _ in range(repeats):
        solver = Solver(20)
        start = time.process_time()
        solver.solve(state, horizon="game", pv=False)
        times.append(time.process_time() - start)
    return statistics.median(times)


def sample(seeds: int) -> tuple[dict[int, int], list[dict[str, Any]]]:
    """Candidates per depth and the challenges found (nodes, plies, legal moves, level, re-solve seconds)."""
    solver = Solver(20)
    candidates: dict[int, int] = defaultdict(int)
    found: list[dict[str, Any]] = []
    for seed in range(seeds):
        for depth in DEPTHS:
            state = _candidate(seed, depth, depth)
            if state is None:
                continue
            candidates[depth] += 1
            ch = check_challenge(state, solver, seed)
            if ch is None or len(ch.failing) < MIN_FAILING:
                continue
            found.append({"seed": seed, "plies": ch.plies, "nodes": ch.nodes, "legal": len(ch.move_values),
                          "level": level_of(ch.nodes), "seconds": resolve_seconds(ch.state)})
    return candidates, found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=200)
    args = parser.parse_args()
    start = time.process_time()
    candidates, found = sample(args.seeds)
    print("# Towers challenges: solver effort by depth, and the levels it is graded into\n")
    print(f"`nice -n 10 python bench/towers_effort.py --seeds {args.seeds}` on the shared 2-core machine, "
          f"{time.strftime('%Y-%m-%d')} ({time.process_time() - start:.0f} s CPU).  Seeds 0..{args.seeds - 1}, every depth "
          f"2..16 plies left; a challenge has exactly one saving move and at least {MIN_FAILING} failing moves.  "
          f"Nodes: the exact solver's nodes to prove every legal move's value (fresh search, 2**20 table).\n")
    print("| plies left | candidates | challenges | median nodes | min nodes | max nodes |")
    print("|---|---|---|---|---|---|")
    for depth in DEPTHS:
        nodes = [c["nodes"] for c in found if c["plies"] == depth]
        spread = f"{statistics.median(nodes):g} | {min(nodes)} | {max(nodes)}" if nodes else "- | - | -"
        print(f"| {depth} | {candidates[depth]} | {len(nodes)} | {spread} |")
    print(f"\nLevels (bands of solver nodes: {bands_text()}):\n")
    print("| level | challenges | median nodes | median plies | median legal moves | median re-solve CPU s |")
    print("|---|---|---|---|---|---|")
    medians = []
    for level in LEVELS:
        rows = [c for c in found if c["level"] == level]
        if not rows:
            print(f"| {level} | 0 | - | - | - | - |")
            continue
        med = {key: statistics.median(r[key] for r in rows) for key in ("nodes", "plies", "legal", "seconds")}
        medians.append(med)
        print(f"| {level} | {len(rows)} | {med['nodes']:g} | {med['plies']:g} | {med['legal']:g} | {med['seconds']:.5f} |")
    strictly = all(a[k] < b[k] for a, b in zip(medians, medians[1:]) for k in ("nodes", "seconds"))
    print(f"\nMedians of nodes and of re-solve seconds strictly increasing easy < medium < hard: "
          f"{'yes' if strictly and len(medians) == len(LEVELS) else 'NO'}")


if __name__ == "__main__":
    main()
