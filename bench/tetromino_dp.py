"""The frontier DP (solvers/blokus/tetromino_dp.py) on the tetromino regions: counts, states, CPU, memory.

For each region (seed rule, 4 colours unless told): raw tilings, modulo colours, the DP's states (all, and
the most held at once), transitions, CPU seconds and peak resident memory; with ``--symmetry`` also the
orbit counts (Burnside with the exact-cover fixed points).  ``--lines K`` stops before line K and prints the
states per line (feasibility before a long run).  One JSON line per region on stdout.

    python bench/tetromino_dp.py 20x4 16x5 [--lines K] [--symmetry] [--colors 4] [--no-edge-rule]

CPU seconds of this process (``time.process_time``); results in bench/results/tetromino_dp.md.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time

from puzzles.polyomino import Region
from solvers.blokus.tetromino_dp import TetrominoDP, symmetry_counts
from solvers.blokus.tetrominoes import ColoredTilingProblem


def run(spec: str, colors: int, edge: bool, lines: int | None, symmetry: bool) -> dict:
    """One region's DP figures."""
    problem = ColoredTilingProblem(Region.from_spec(spec), colors, edge_rule=edge)
    dp = TetrominoDP(problem)
    start = time.process_time()

    def progress(cell: int, held: int, states: int) -> None:
        if cell % dp.W == dp.W - 1:
            print(f"  line {cell // dp.W} done: {states:,} states so far, {held:,} held, "
                  f"{time.process_time() - start:.1f} CPU-s", file=sys.stderr, flush=True)

    result = dp.run(progress=progress, stop_line=lines)
    row = {"region": spec, "colors": colors, "edge_rule": edge, "complete": result.complete,
           "raw": result.raw if result.complete else None,
           "modulo_colors": result.modulo_colors if result.complete else None,
           "states": result.states, "peak_held_states": result.peak_states, "transitions": result.transitions,
           "states_per_line": list(result.states_per_line), "dp_cpu_s": round(time.process_time() - start, 1),
           "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)}
    if symmetry and result.complete:
        t = time.process_time()
        row["symmetry"], row["symmetry_colors"] = symmetry_counts(problem, result.raw)
        row["symmetry_cpu_s"] = round(time.process_time() - t, 1)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("regions", nargs="+")
    parser.add_argument("--colors", type=int, default=4)
    parser.add_argument("--no-edge-rule", action="store_true")
    parser.add_argument("--lines", type=int, default=None)
    parser.add_argument("--symmetry", action="store_true")
    args = parser.parse_args()
    for spec in args.regions:
        print(json.dumps(run(spec, args.colors, not args.no_edge_rule, args.lines, args.symmetry)), flush=True)


if __name__ == "__main__":
    main()
