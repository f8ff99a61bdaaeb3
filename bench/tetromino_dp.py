"""The frontier DP (solvers/blokus/tetromino_dp.py) on the tetromino regions: counts, states, CPU, memory.

For each region (seed rule, 4 colours unless told): raw tilings, modulo colours, the DP's states (all, and
the most held at once), transitions, CPU seconds and peak resident memory; with ``--symmetry`` also the
orbit counts (Burnside with the exact-cover fixed points).  ``--lines K`` stops before line K and prints the
states per line (feasibility before a long run).  One JSON line per region on stdout.

    python bench/tetromino_dp.py 20x4 16x5 [--lines K] [--symmetry] [--colors 4] [--no-edge-rule]
    python bench/tetromino_dp.py 20x4 --check-parts 5 --depth 6   # random split parts: split vs DP
    python bench/tetromino_dp.py 10x8 --committed 3                # parts of the committed 10x8 split count
    python bench/tetromino_dp.py 10x8 --shapes                     # shape tilings (colours ignored) by the DP
    python bench/tetromino_dp.py --committed-shapes 310 x          # committed 10x8 parts' shape tilings, by the DP

``--check-parts``/``--committed`` are the independent check: the DP started from every colouring of a split
part's shape placements must give the part's colourings modulo colours × colours!.

CPU seconds of this process (``time.process_time``); results in bench/results/tetromino_dp.md.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import resource
import sys
import time
from pathlib import Path

from puzzles.polyomino import Region
from solvers.blokus.tetromino_dp import TetrominoDP, prefix_starts, symmetry_counts
from solvers.blokus.tetromino_split import SplitSearch
from solvers.blokus.tetrominoes import ColoredTilingProblem

COMMITTED = Path(__file__).resolve().parent / "results" / "tetromino_split_count_v1.jsonl"  # 10x8, depth 5


def run(spec: str, colors: int, edge: bool, lines: int | None, symmetry: bool, memory_gib: float,
        shapes: bool = False) -> dict:
    """One region's DP figures (``shapes``: its shape tilings instead)."""
    problem = ColoredTilingProblem(region(spec), colors, edge_rule=edge)
    dp = TetrominoDP(problem, shapes_only=shapes)
    start = time.process_time()

    def progress(cell: int, held: int, states: int) -> None:
        if cell % dp.W == dp.W - 1:
            print(f"  line {cell // dp.W} done: {states:,} states so far, {held:,} held, "
                  f"{time.process_time() - start:.1f} CPU-s", file=sys.stderr, flush=True)

    result = dp.run(progress=progress, stop_line=lines, memory_budget=int(memory_gib * 2**30))
    row = {"region": spec, "colors": colors, "edge_rule": edge, "shape_tilings_only": shapes, "complete": result.complete,
           "stopped_by": result.stopped_by,
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


def region(spec: str) -> Region:
    """``9x9-centre``: the 9x9 square without its centre; anything else as ``--region`` takes it."""
    return Region.rectangle(9, 9).without([(4, 4)]) if spec == "9x9-centre" else Region.from_spec(spec)


def check_parts(spec: str, depth: int, parts: int, seed: int, committed: bool) -> None:
    """Split parts counted by the split method (or read from the committed 10x8 count) and by the DP."""
    problem = ColoredTilingProblem(region(spec))
    split = SplitSearch(problem, guide=False)  # how the v1 parts were made
    dp = TetrominoDP(problem)
    prefixes = split.split(depth)
    if committed:
        records = [json.loads(line) for line in COMMITTED.read_text().splitlines()[1:]]
        chosen = [(r["task"], r["result"]) for r in random.Random(seed).sample(records, parts)]
    else:
        chosen = [(i, None) for i in random.Random(seed).sample(range(len(prefixes)), parts)]
    for task, record in chosen:
        start = time.process_time()
        if record is None:
            record = list(split.count(prefixes[task]).record())
        split_s = time.process_time() - start
        start = time.process_time()
        result = dp.run(prefix_starts(problem, dp, [split.geo[t] for t in prefixes[task]]))
        row = {"region": spec, "depth": depth, "part": task, "of": len(prefixes),
               "split_colourings": record[0], "split_shape_tilings": record[3],
               "dp_raw": result.raw if result.complete else None, "dp_states": result.states,
               "dp_cpu_s": round(time.process_time() - start, 1), "split_cpu_s": round(split_s, 1),
               "equal": result.complete and result.raw == record[0] * math.factorial(problem.colors)}
        print(json.dumps(row), flush=True)


def committed_shapes(parts: int, seed: int) -> None:
    """The shape tilings of committed 10x8 split parts (depth 5), counted again by the shape-tiling DP from each
    part's placements; then the whole 10x8 shape-tiling count by the DP."""
    problem = ColoredTilingProblem(Region.rectangle(10, 8))
    split = SplitSearch(problem, guide=False)  # how the v1 parts were made
    dp = TetrominoDP(problem, shapes_only=True)
    prefixes = split.split(5)
    records = [json.loads(line) for line in COMMITTED.read_text().splitlines()[1:]]
    chosen = records if parts >= len(records) else random.Random(seed).sample(records, parts)
    start = time.process_time()
    equal = total = 0
    for record in chosen:
        state = dp.start_state([(0, s, cells) for s, cells in (split.geo[t] for t in prefixes[record["task"]])])
        assert state is not None
        tilings = dp.run([(state[0], state[1], 1)]).raw
        equal += tilings == record["result"][3]
        total += tilings
        if tilings != record["result"][3]:
            print(json.dumps({"part": record["task"], "split": record["result"][3], "dp": tilings}), flush=True)
    print(json.dumps({"region": "10x8", "committed_parts_checked": len(chosen), "equal": equal,
                      "shape_tilings_in_them": total, "cpu_s": round(time.process_time() - start, 1)}), flush=True)
    start = time.process_time()
    whole = dp.run()
    print(json.dumps({"region": "10x8", "shape_tilings": whole.raw, "states": whole.states,
                      "peak_held_states": whole.peak_states, "cpu_s": round(time.process_time() - start, 1),
                      "parts": len(prefixes)}), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("regions", nargs="+")
    parser.add_argument("--colors", type=int, default=4)
    parser.add_argument("--no-edge-rule", action="store_true")
    parser.add_argument("--lines", type=int, default=None)
    parser.add_argument("--symmetry", action="store_true")
    parser.add_argument("--memory-gib", type=float, default=6.0, help="hash-table budget (then the DP stops)")
    parser.add_argument("--check-parts", type=int, default=0)
    parser.add_argument("--committed", type=int, default=0)
    parser.add_argument("--depth", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--committed-shapes", type=int, default=0)
    parser.add_argument("--shapes", action="store_true", help="shape tilings (colours ignored) instead")
    args = parser.parse_args()
    if args.committed_shapes:
        committed_shapes(args.committed_shapes, args.seed)
        return
    if args.check_parts or args.committed:
        for spec in args.regions:
            check_parts(spec, args.depth, args.check_parts or args.committed, args.seed, bool(args.committed))
        return
    for spec in args.regions:
        print(json.dumps(run(spec, args.colors, not args.no_edge_rule, args.lines, args.symmetry and not args.shapes,
                             args.memory_gib, args.shapes)), flush=True)


if __name__ == "__main__":
    main()
