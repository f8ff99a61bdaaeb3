"""Rates and projections of the split method (solvers/blokus/tetromino_split.py) for the tetromino rectangle.

Prints: exact small counts (split vs direct CPU-s); on the 10x8 seed rule, a random sample of the parts of
the committed count (split depth 5): shape tilings/s, nodes/s, colourings/s, CPU per part and the projected
CPU time of the whole count, beside the direct search's old projection (330-480 core-hours), plain and with
the symmetry reduction on the same parts (``--pocket``: also the pocket cut); the colour cuts on random parts
(shape tilings with and without a colouring, nodes, CPU); the corner-contact counts through the split method;
Knuth estimates of other regions' split trees (``--probes 0``: none).  ``--regions`` prints generated
irregular regions (pieces grown under the edge rule, so each has a tiling) with their split and direct counts.

    python bench/tetromino_split.py [--parts 40] [--seed 0] [--cut-parts 20] [--probes 20000] [--regions]
    python bench/tetromino_split.py --count-run 15000:15150   (only that: a run of the count's parts in order)

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
from solvers.blokus.tetromino_split import (
    COLOURED,
    COLOURINGS,
    CUT_ADJACENT,
    CUT_COLOUR,
    CUT_OFF,
    CUT_PARTIAL,
    NODES,
    TILINGS,
    SplitSearch,
    timed_split_count,
)
from solvers.blokus.tetrominoes import ColoredTilingProblem

OLD_PROJECTION = "330-480 core-hours (direct coloured search, 9.2 M nodes/s, bench/results/solitaire_seed_count.md)"
COUNT_DEPTH = 5
SHAPE_TILINGS = 6_818_063_454  # of 10x8, by the frontier DP (bench/results/tetromino_dp.md)


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


def sample_parts(parts: int, seed: int, pocket: bool) -> None:
    """A random sample of the 10x8 seed-rule parts: rates and the projected whole count, plain and with the
    symmetry reduction (the same parts: reduced, a part counts only its kept tilings, weighted, so the sample
    projects the same total)."""
    problem = ColoredTilingProblem(Region.rectangle(10, 8))
    search = SplitSearch(problem, guide=False)
    start = time.process_time()
    prefixes = search.split(COUNT_DEPTH)
    split_s = time.process_time() - start
    sample = random.Random(seed).sample(range(len(prefixes)), parts)
    n = len(prefixes)
    print(f"\n## 10x8 seed rule: {parts} random parts of {n:,} (depth {COUNT_DEPTH}, split in {split_s:.2f} s), "
          f"seed {seed}")
    figures = {}
    variants = (("plain", search), ("symmetry reduction", SplitSearch(problem, reduce=True, guide=False)),
                ("guided", SplitSearch(problem)), ("guided, symmetry reduction", SplitSearch(problem, reduce=True)))
    for name, s in variants:
        s.count(prefixes[sample[0]], max_nodes=10)  # compiled before timing
        seconds, tilings, nodes, colourings = [], 0, 0, 0
        for i in sample:
            start = time.process_time()
            c = s.count(prefixes[i])
            seconds.append(time.process_time() - start)
            tilings, nodes, colourings = tilings + c.tilings, nodes + c.nodes, colourings + c.colourings
        total = sum(seconds)
        mean, err = total / parts, statistics.stdev(seconds) / math.sqrt(parts)
        figures[name] = (total, nodes)
        print(f"{name}: CPU {total:.1f} s, {nodes:,} nodes: {tilings / total:,.0f} shape tilings/s, "
              f"{nodes / total / 1e6:.2f} M nodes/s, {colourings / total:,.0f} colourings/s (modulo colours), "
              f"{1e6 * total / max(tilings, 1):.1f} us per shape tiling")
        print(f"  per part {mean:.3f} +- {err:.3f} CPU-s; projected whole count {mean * n / 3600:.1f} +- "
              f"{err * n / 3600:.1f} CPU-hours, {tilings / parts * n:.3g} shape tilings, {colourings / parts * n:.3g} "
              f"colourings modulo colours ({24 * colourings / parts * n:.3g} raw)")
    plain_s, plain_n = figures["plain"]
    for name, (s, n_) in figures.items():
        if name != "plain":
            print(f"{name}: {plain_s / s:.2f}x less CPU, {plain_n / n_:.2f}x fewer nodes than plain")
    print("(the guided searches build their memo of shape-tiling completions as they go: the first parts pay for "
          "it, later ones reuse it)")
    print(f"old projection: {OLD_PROJECTION}")
    if pocket:
        pocket_search = SplitSearch(problem, hole_limit=6, guide=False)
        pocket_search.count(prefixes[sample[0]], max_nodes=10)
        start = time.process_time()
        pocket_nodes = sum(pocket_search.count(prefixes[i]).nodes for i in sample)
        print(f"pocket cut (pockets up to 6 cells): {pocket_nodes:,} nodes in {time.process_time() - start:.1f} s "
              f"(without: {plain_n:,} nodes in {plain_s:.1f} s)")


def count_parts(parts: int, seed: int) -> None:
    """The search the count uses (symmetry reduction and the anchor-bounded guide) on random parts of its own
    split: CPU per shape tiling and the whole 10x8 count projected from the exact number of shape tilings
    (6,818,063,454, the DP's) as well as from the sample's mean part."""
    problem = ColoredTilingProblem(Region.rectangle(10, 8))
    search = problem.split_search()
    prefixes = search.split(COUNT_DEPTH)
    sample = random.Random(seed).sample(range(len(prefixes)), parts)
    print(f"\n## the count's search (reduced, guided) on {parts} random parts of its {len(prefixes):,} (depth "
          f"{COUNT_DEPTH}), seed {seed}; the memo is built as the parts go")
    start = time.process_time()
    tilings = nodes = colourings = 0
    for i in sample:
        c = search.count(prefixes[i])
        tilings, nodes, colourings = tilings + c.tilings, nodes + c.nodes, colourings + c.colourings
    total = time.process_time() - start
    per_tiling = total / max(tilings, 1)
    print(f"CPU {total:.1f} s, {nodes:,} nodes, {tilings:,} shape tilings (weighted), {colourings:,} colourings "
          f"(weighted): {1e6 * per_tiling:.2f} us per shape tiling, {nodes / max(tilings, 1):.1f} nodes per shape "
          f"tiling")
    print(f"projected whole count: {per_tiling * SHAPE_TILINGS / 3600:.1f} CPU-hours from the exact shape tilings, "
          f"{total / parts * len(prefixes) / 3600:.1f} CPU-hours from the mean part")


COUNT_NODES = 42_712_298_492  # the committed 10x8 count's nodes (bench/results/tetromino_split_count.md)


def count_run(first: int, last: int) -> None:
    """Parts ``first .. last - 1`` of the committed 10x8 count, one after another in one process as a worker of
    the count took them (the guide's memo warms over the run): shape tilings, nodes and colourings per CPU second,
    and the whole count's CPU projected from this node rate (the count's records keep nodes, not seconds)."""
    problem = ColoredTilingProblem(Region.rectangle(10, 8))
    search = problem.split_search()
    prefixes = search.split(COUNT_DEPTH)
    search.count(prefixes[0])  # compiled (or loaded) before the clock starts
    print(f"\n## the count's parts {first}..{last - 1} of {len(prefixes):,}, in order, one process")
    start = time.process_time()
    tilings = nodes = colourings = 0
    for prefix in prefixes[first:last]:
        c = search.count(prefix)
        tilings, nodes, colourings = tilings + c.tilings, nodes + c.nodes, colourings + c.colourings
    total = time.process_time() - start
    print(f"CPU {total:.1f} s, {nodes:,} nodes, {tilings:,} shape tilings (weighted), {colourings:,} colourings "
          f"modulo colours (weighted): {nodes / total / 1e6:.2f} M nodes/s, {tilings / total:,.0f} shape tilings/s, "
          f"{colourings / total:,.0f} colourings/s")
    print(f"whole count at this node rate: {COUNT_NODES / (nodes / total) / 3600:.2f} CPU-hours "
          f"({COUNT_NODES:,} nodes)")


def colour_cuts(parts: int, depth: int = 8) -> None:
    """The colour cuts on random 10x8 parts (``depth`` placements of random shape tilings), both rules: shape
    tilings reached, those with a colouring, nodes and CPU with each cut."""
    print(f"\n## colour cuts: {parts} random 10x8 parts of {depth} placements (from random shape tilings)")
    seed_rule = ColoredTilingProblem(Region.rectangle(10, 8))
    rng = random.Random(7)
    base = SplitSearch(seed_rule)
    prefixes = [p for p in (base.random_prefix(depth, rng, 1_000_000) for _ in range(parts)) if p is not None]
    for rule, problem in (("seed rule", seed_rule), ("corner rule", ColoredTilingProblem(Region.rectangle(10, 8),
                                                                                          corner_contact=True))):
        for name, cut in (("no cut", CUT_OFF), ("adjacent to every copy", CUT_ADJACENT),
                          ("partial colourings", CUT_PARTIAL)):
            s = SplitSearch(problem, colour_cut=cut)
            if s.colour_cut != cut:
                continue
            s.count(prefixes[0], max_nodes=10)
            sums = [0] * 5
            start = time.process_time()
            for p in prefixes:
                st = s.stats(p)
                for j, k in enumerate((TILINGS, COLOURED, COLOURINGS, NODES, CUT_COLOUR)):
                    sums[j] += int(st[k])
            cpu = time.process_time() - start
            print(f"{rule}, {name}: {sums[0]:,} shape tilings reached, {sums[1]:,} with a colouring "
                  f"({sums[1] / max(sums[0], 1):.1%}), {sums[2]:,} colourings, {sums[3]:,} nodes, {sums[4]:,} cut, "
                  f"{cpu:.2f} CPU-s")


def corner_counts() -> None:
    """The corner-contact counts through the split method (partial-colouring cut, symmetry reduction)."""
    print("\n## corner contact through the split method (colour cut + symmetry reduction)")
    for name, region in (("9x9-centre", Region.rectangle(9, 9).without([(4, 4)])), ("10x8", Region.rectangle(10, 8))):
        problem = ColoredTilingProblem(region, corner_contact=True)
        SplitSearch(problem, reduce=True).count(max_nodes=10)  # compiled before timing
        counts, totals, cpu = timed_split_count(problem, reduce=True)
        print(f"{name}: {counts} (raw, symmetry, symmetry+colours), {totals.nodes:,} nodes, {cpu:.1f} CPU-s")


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
    parser.add_argument("--pocket", action="store_true", help="also the pocket cut on the sampled parts")
    parser.add_argument("--cut-parts", type=int, default=20, help="random parts for the colour-cut figures")
    parser.add_argument("--count-parts", type=int, default=40, help="random parts of the count's own split")
    parser.add_argument("--count-run", default=None, help="only this: parts A..B-1 of the count in order, e.g. 15000:15150")
    args = parser.parse_args()
    if args.count_run:
        count_run(*map(int, args.count_run.split(":")))
        return
    exact_small()
    sample_parts(args.parts, args.seed, args.pocket)
    count_parts(args.count_parts, args.seed)
    colour_cuts(args.cut_parts)
    corner_counts()
    if args.probes:
        other_regions(args.probes)
    if args.regions:
        regions()


if __name__ == "__main__":
    main()
