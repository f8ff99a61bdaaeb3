"""Rates and projections of the split method (solvers/blokus/tetromino_split.py) for the tetromino rectangle.

Prints: exact small counts (split vs direct CPU-s); on the 10x8 seed rule, a random sample of the parts of
the committed count (split depth 5): shape tilings/s, nodes/s, colourings/s, CPU per part and the projected
CPU time of the whole count, beside the direct search's old projection (330-480 core-hours); the pocket cut
on the same sample; Knuth estimates of other regions' split trees.  ``--regions`` prints generated irregular
regions (pieces grown under the edge rule, so each has a tiling) with their split and direct counts.

    python bench/tetromino_split.py [--parts 40] [--seed 0] [--regions]

CPU seconds of this process (``time.process_time``); results in bench/results/tetromino_split.md.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

from puzzles.polyomino import Region, piece_set
from solvers.blokus.tetromino_search import timed_count
from solvers.blokus.tetromino_split import SplitSearch, timed_split_count
from solvers.blokus.tetrominoes import ColoredTilingProblem

OLD_PROJECTION = "330-480 core-hours (direct coloured search, 9.2 M nodes/s, bench/results/solitaire_seed_count.md)"
COUNT_DEPTH = 5


def exact_small() -> None:
    """Split vs direct on the instances both finish."""
    print("## exact instances (CPU-s)")
    for spec, colors, edge in (("8x5", 2, False), ("10x4", 2, False), ("8x5", 2, True)):
        problem = ColoredTilingProblem(Region.from_spec(spec), colors, edge_rule=edge)
        split, totals, split_s = timed_split_count(problem)
        direct, _, direct_s = timed_count(problem)
        rule = "edge rule" if edge else "no edge rule"
        print(f"{spec} {colors} colours {rule}: split {split} ({totals.tilings:,} shape tilings, {totals.nodes:,} nodes) "
              f"{split_s:.3f} s; direct {direct} {direct_s:.3f} s")


def sample_parts(parts: int, seed: int) -> None:
    """A random sample of the 10x8 seed-rule parts: rates and the projected whole count."""
    problem = ColoredTilingProblem(Region.rectangle(10, 8))
    search = problem.split_search()
    start = time.process_time()
    prefixes = search.split(COUNT_DEPTH)
    split_s = time.process_time() - start
    sample = random.Random(seed).sample(range(len(prefixes)), parts)
    search.count(prefixes[sample[0]], max_nodes=10)  # compiled before timing
    seconds, tilings, nodes, colourings = [], 0, 0, 0
    for i in sample:
        start = time.process_time()
        c = search.count(prefixes[i])
        seconds.append(time.process_time() - start)
        tilings, nodes, colourings = tilings + c.tilings, nodes + c.nodes, colourings + c.colourings
    total = sum(seconds)
    n = len(prefixes)
    mean, err = total / parts, statistics.stdev(seconds) / math.sqrt(parts)
    print(f"\n## 10x8 seed rule: {parts} random parts of {n:,} (depth {COUNT_DEPTH}, split in {split_s:.2f} s), "
          f"seed {seed}")
    print(f"CPU {total:.1f} s: {tilings / total:,.0f} shape tilings/s, {nodes / total / 1e6:.2f} M nodes/s, "
          f"{colourings / total:,.0f} colourings/s (modulo colours), {1e6 * total / max(tilings, 1):.1f} us per "
          "shape tiling")
    print(f"per part {mean:.3f} +- {err:.3f} CPU-s; projected whole count {mean * n / 3600:.1f} +- {err * n / 3600:.1f}"
          f" CPU-hours, {tilings / parts * n:.3g} shape tilings, {colourings / parts * n:.3g} colourings modulo "
          f"colours ({24 * colourings / parts * n:.3g} raw)")
    print(f"old projection: {OLD_PROJECTION}")
    pocket = SplitSearch(problem, hole_limit=6)
    pocket.count(prefixes[sample[0]], max_nodes=10)
    start = time.process_time()
    pocket_nodes = sum(pocket.count(prefixes[i]).nodes for i in sample)
    print(f"pocket cut (pockets up to 6 cells): {pocket_nodes:,} nodes in {time.process_time() - start:.1f} s "
          f"(without: {nodes:,} nodes in {total:.1f} s)")


def other_regions(probes: int) -> None:
    """Knuth estimates of the split trees of other regions (seed rule)."""
    print(f"\n## Knuth estimates of the split tree, seed rule ({probes:,} paths)")
    for spec in ("10x8", "20x4", "16x5", "9x9-centre"):
        region = Region.rectangle(9, 9).without([(4, 4)]) if spec == "9x9-centre" else Region.from_spec(spec)
        e = SplitSearch(ColoredTilingProblem(region)).estimate(probes, seed=1)
        print(f"{spec}: shape tilings {e['tilings']:.3g} +- {e['tilings_stderr']:.2g}, colourings modulo colours "
              f"{e['colourings']:.3g} +- {e['colourings_stderr']:.2g}, nodes {e['nodes']:.3g} +- {e['nodes_stderr']:.2g}"
              f" ({e['cpu_seconds']:.1f} s)")


def grown_region(seed: int, colors: int, box: int) -> str:
    """ASCII art of a region grown from random pieces (each (colour, shape) once, each touching the ones before,
    no two of a colour edge-adjacent), so the region has at least one tiling under the edge rule."""
    rng = random.Random(seed)
    shapes = piece_set("tetrominoes")
    places = [Region.rectangle(box, box).placements(s) for s in shapes]
    while True:
        owner: dict[tuple[int, int], int] = {}
        todo = [(k, s) for k in range(colors) for s in range(len(shapes))]
        rng.shuffle(todo)
        for k, s in todo:
            fits = [cells for cells in places[s] if _fits(cells, owner, k)]
            if not fits:
                break
            owner.update((c, k) for c in rng.choice(fits))
        else:
            rows = ["".join("#" if (r, c) in owner else "." for c in range(box)) for r in range(box)]
            rows = [r for r in rows if "#" in r]
            cols = [i for i in range(box) if any(r[i] == "#" for r in rows)]
            return "/".join(r[cols[0]:cols[-1] + 1] for r in rows)


def _fits(cells: tuple[tuple[int, int], ...], owner: dict[tuple[int, int], int], k: int) -> bool:
    """Free cells, touching the pieces so far (if any), no edge shared with colour ``k``."""
    if any(c in owner for c in cells):
        return False
    near = {(r + dr, c + dc) for r, c in cells for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))} - set(cells)
    return (not owner or any(x in owner for x in near)) and not any(owner.get(x) == k for x in near)


def regions() -> None:
    """Generated irregular regions: split and direct counts side by side."""
    print("\n## generated irregular regions (edge rule)")
    for colors, box, seeds in ((3, 9, range(5)), (4, 11, range(4))):
        for seed in seeds:
            art = grown_region(seed, colors, box)
            problem = ColoredTilingProblem(Region.from_spec(art), colors)
            split, _, split_s = timed_split_count(problem)
            direct, _, direct_s = timed_count(problem)
            print(f"{colors} colours seed {seed}: {art}: split raw {split[0]:,} {split_s:.3f} s, direct raw "
                  f"{direct[0]:,} {direct_s:.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--probes", type=int, default=20_000)
    parser.add_argument("--regions", action="store_true")
    args = parser.parse_args()
    exact_small()
    sample_parts(args.parts, args.seed)
    other_regions(args.probes)
    if args.regions:
        regions()


if __name__ == "__main__":
    main()
