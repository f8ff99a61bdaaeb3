"""Bench: the plan for the first exact count of the seed's tetromino rectangle (10x8, 4 colours, edge rule only).

Prints: the Knuth estimate in all three units (with standard errors) and of the canonical search's nodes; the
split sizes; the kernel's rate (nodes/s, parts/hour, CPU time) on random parts; the projected core-hours;
then counts parts in order for ``--run`` CPU-seconds into a checkpoint (resumable) and prints the partial totals.

Usage: python bench/solitaire_seed_count.py [--probes 100000] [--exact-depth 9] [--split-depth 5]
       [--sample 30] [--run 120] [--checkpoint bench/results/solitaire_seed_count.checkpoint.json]
"""

from __future__ import annotations

import argparse
import math
import random
import time

from puzzles.polyomino import Region
from solvers.blokus.tetromino_search import estimate_canonical
from solvers.blokus.tetrominoes import ColoredTilingProblem


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--probes", type=int, default=100_000)
    parser.add_argument("--exact-depth", type=int, default=9)
    parser.add_argument("--split-depth", type=int, default=5)
    parser.add_argument("--sample", type=int, default=30, help="random parts counted to measure the rate")
    parser.add_argument("--run", type=float, default=120.0, help="seconds of counting parts in order")
    parser.add_argument("--checkpoint", default="bench/results/solitaire_seed_count.checkpoint.json")
    args = parser.parse_args()
    problem = ColoredTilingProblem(Region.rectangle(10, 8))
    search = problem.canonical_search()
    search.count([(0, 0)], max_nodes=10)  # compile first

    est = estimate_canonical(problem, args.probes, seed=0, exact_depth=args.exact_depth)
    print(f"Knuth estimate, {args.probes} paths, exact below {args.exact_depth} pieces, {est['cpu_seconds']:.1f} CPU-s:")
    for unit, text in (("raw", "raw tilings (coloured drawings)"), ("canonical", "up to colour permutations"),
                       ("symmetry", "up to the rectangle's symmetries"),
                       ("symmetry_colors", "up to symmetries and colour permutations")):
        print(f"  {text:45s} {est[unit]:.4g} ± {est[unit + '_stderr']:.2g}")
    print(f"  canonical search nodes                        {est['nodes_estimate']:.3g}")

    for depth in range(2, args.split_depth + 1):
        start = time.process_time()
        parts = search.split(depth)
        print(f"split depth {depth}: {len(parts)} parts ({time.process_time() - start:.2f} CPU-s to list)")

    rng = random.Random(0)
    sample = rng.sample(range(len(parts)), min(args.sample, len(parts)))
    nodes = 0
    cpu = []
    start = time.process_time()
    for i in sample:
        t0 = time.process_time()
        nodes += search.count(parts[i]).nodes
        cpu.append(time.process_time() - t0)
    seconds = time.process_time() - start
    rate = nodes / max(seconds, 1e-9)
    cpu.sort()
    mean_part = seconds / len(sample)
    print(f"rate on {len(sample)} random depth-{args.split_depth} parts: {nodes} nodes in {seconds:.1f} CPU-s = "
          f"{rate / 1e6:.2f} M nodes/s; part CPU-s median {cpu[len(cpu) // 2]:.3f}, max {cpu[-1]:.2f}, "
          f"mean {mean_part:.3f} = {3600 / mean_part:.0f} parts/hour/core")
    hours_nodes = est["nodes_estimate"] / rate / 3600
    hours_parts = mean_part * len(parts) / 3600
    print(f"projected total: {hours_nodes:.0f} core-hours (estimated nodes / rate); "
          f"{hours_parts:.0f} core-hours (mean sampled part x {len(parts)} parts)")

    if args.run > 0:
        # parts in a seeded random order (the split is unbalanced: the first parts in order are among the largest),
        # each counted to the end; stored in the checkpoint format of `--count --split-depth D --checkpoint F`,
        # so the cluster run resumes from it
        from pathlib import Path

        from solvers.blokus.tetrominoes import _PartLog

        path = Path(args.checkpoint)
        log = _PartLog(path, problem.signature() + "|canonical", args.split_depth, len(parts),
                       math.factorial(problem.colors), None)
        log.load(4)  # checked line by line, as the command reads it
        done = log.done
        order = list(range(len(parts)))
        random.Random(1).shuffle(order)
        start = time.process_time()
        for i in order:
            if time.process_time() - start > args.run:
                break
            if str(i) in done:
                continue
            c = search.count(parts[i])
            log.record(i, [c.canonical, c.fix_any, c.fix_id, c.nodes])
        log.close()
        canonical = sum(v[0] for v in done.values())
        nodes = sum(v[3] for v in done.values())
        share = len(done) / len(parts)
        print(f"partial count ({path}): {len(done)}/{len(parts)} parts ({100 * share:.3f}%), {canonical} tilings up to "
              f"colours = {canonical * math.factorial(problem.colors)} raw, {nodes} nodes; status incomplete (lower bound); "
              f"scaled by the share of parts: {canonical / share:.3g} up to colours (a rough check of the estimate)")


if __name__ == "__main__":
    main()
