"""Property test: raw and up-to-symmetry tiling counts equal brute-force orbit counting.

Random small regions (rectangles with holes, one-cell regions), random piece sets (one-piece sets,
copies, optional pieces) and random split depths; the brute force enumerates every tiling as a set
of (kind, cells) placements and counts distinct canonical images under the region's symmetries,
computed here independently of :mod:`puzzles.polyomino`'s symmetry code.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest

from puzzles.polyomino import Region, Shape, piece_set
from solvers.exact_cover import SearchLimits
from solvers.tiling import PieceSpec, TilingProblem

SHAPES = [Shape(s.cells, f"{family[:3]}-{s.name}") for family in ("monomino", "domino", "trominoes", "tetrominoes")
          for s in piece_set(family)]
MOVES = (lambda r, c: (r, c), lambda r, c: (c, -r), lambda r, c: (-r, -c), lambda r, c: (-c, r),
         lambda r, c: (r, -c), lambda r, c: (-r, c), lambda r, c: (c, r), lambda r, c: (-c, -r))


def _normal(cells):
    top, left = min(r for r, _ in cells), min(c for _, c in cells)
    return frozenset((r - top, c - left) for r, c in cells)


def brute_force(region: Region, specs: list[PieceSpec], free: bool) -> tuple[int, int]:
    """(raw tilings, orbits under the region's symmetries) by plain enumeration."""
    cells = sorted(region.cells)
    placements = []  # (kind, frozenset of cells)
    for kind, spec in enumerate(specs):
        orients = {_normal([m(r, c) for r, c in spec.shape.cells]) for m in (MOVES if free else MOVES[:1])}
        for orient in orients:
            for dr in range(-4, region.height + 1):
                for dc in range(-4, region.width + 1):
                    placed = frozenset((r + dr, c + dc) for r, c in orient)
                    if placed <= region.cells:
                        placements.append((kind, placed))
    placements = sorted(set(placements), key=lambda p: (p[0], sorted(p[1])))
    tilings = []

    def search(covered: frozenset, used: list[int], chosen: list) -> None:
        first = next((cell for cell in cells if cell not in covered), None)
        if first is None:
            if all(used[k] >= s.min_count for k, s in enumerate(specs)):
                tilings.append(frozenset(chosen))
            return
        for kind, placed in placements:
            if first in placed and used[kind] < specs[kind].max_count and not placed & covered:
                used[kind] += 1
                search(covered | placed, used, chosen + [(kind, placed)])
                used[kind] -= 1

    search(frozenset(), [0] * len(specs), [])
    own = _normal(region.cells)
    group = [m for m in (MOVES if free else MOVES[:1]) if _normal([m(r, c) for r, c in region.cells]) == own]

    def image(tiling, move):
        moved = [(kind, [move(r, c) for r, c in placed]) for kind, placed in tiling]
        top = min(r for _, ps in moved for r, _ in ps)
        left = min(c for _, ps in moved for _, c in ps)
        shift = (min(r for r, _ in region.cells) - top, min(c for _, c in region.cells) - left)
        return tuple(sorted((kind, tuple(sorted((r + shift[0], c + shift[1]) for r, c in ps))) for kind, ps in moved))

    orbits = {min(image(t, m) for m in group) for t in tilings}
    return len(tilings), len(orbits)


def random_instance(rng: random.Random) -> tuple[Region, list[PieceSpec], bool, int, bool]:
    """A small region (a few one-cell ones and strips) and a piece set that tiles it about half the time."""
    if rng.random() < 0.05:
        region = Region.rectangle(1, 1)
    else:
        width, height = rng.randint(1, 4) if rng.random() < 0.1 else rng.randint(2, 4), rng.randint(2, 4)
        region = Region.rectangle(width, height)
        cells = sorted(region.cells)
        holes = rng.sample(cells, rng.randint(0, min(2, len(cells) - 1)))
        region = region.without(holes)
    filler = rng.choice([0, 0, 1, 2, 3]) if rng.random() < 0.9 else -1  # a small piece in any number
    others = [k for k in rng.sample(range(len(SHAPES)), rng.randint(1, 3)) if k != filler]
    specs = []
    for index in sorted(set(others) | ({filler} - {-1})):
        if index == filler:
            specs.append(PieceSpec(SHAPES[index], rng.choice([0, 0, 0, 1]), region.area))
        else:  # optional pieces, copies, and now and then one that must be used
            low = rng.choice([0, 0, 0, 0, 0, 0, 1, 2])
            specs.append(PieceSpec(SHAPES[index], low, low + rng.choice([0, 1, 1, 2])))
    free = rng.random() < 0.85
    return region, specs, free, rng.randint(0, 5), rng.random() < 0.8


def check(seed: int) -> None:
    rng = random.Random(seed)
    region, specs, free, depth, reduce = random_instance(rng)
    problem = TilingProblem(region, specs, free)
    raw, orbits = brute_force(region, specs, free)
    counts = problem.counts(split_depth=depth, reduce_symmetry=reduce)
    where = f"seed {seed}: {region.to_ascii()!r} {[(s.name, s.min_count, s.max_count) for s in specs]} free={free} depth={depth}"
    assert counts.complete, where
    assert (counts.raw, counts.unique) == (raw, orbits), where
    if free and seed % 5 == 0:  # the enumerating search's canonical filter agrees too
        assert sum(1 for _ in problem.tilings(SearchLimits(), unique=True)) == orbits, where


@pytest.mark.parametrize("seed", range(100))
def test_counts_match_brute_force(seed: int) -> None:
    check(seed)


def test_instances_are_not_trivial() -> None:
    """Of the default 100 instances about half have tilings and a fifth have fewer orbits than tilings."""
    counts = [brute_force(*random_instance(random.Random(seed))[:3]) for seed in range(100)]
    assert sum(raw > 0 for raw, _ in counts) >= 40 and sum(orbits < raw for raw, orbits in counts) >= 20


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(500))  # -m slow alone: 500 random instances (the default 100 among them)
def test_counts_match_brute_force_slow(seed: int) -> None:
    check(seed)


@pytest.mark.parametrize("region, pieces, raw, unique", [
    ("2x2", "tetrominoes:O", 1, 1),  # the pinned piece covers the whole region
    ("1x1", "monomino", 1, 1),  # one-cell region
    ("1x4", "tetrominoes:I", 1, 1),  # one-piece set
    # ~2-3 s at four split depths; by default 3x20 runs on the command line in tests/test_faults.py
    # (test_symmetry_corner_cases_on_the_command_line, split depth 11)
    pytest.param("3x20", "pentominoes", 8, 2, marks=pytest.mark.slow),
])
def test_corner_cases(region: str, pieces: str, raw: int, unique: int) -> None:
    """The same count at split depths 0 (no split), 1, 4 and 12 (past the pieces of the small cases)."""
    check_corner_case(region, pieces, raw, unique, (0, 1, 4, 12))


@pytest.mark.slow
def test_corner_case_at_every_split_depth() -> None:
    check_corner_case("3x20", "pentominoes", 8, 2, range(13))


def check_corner_case(region: str, pieces: str, raw: int, unique: int, depths: Iterable[int]) -> None:
    problem = TilingProblem.from_spec(Region.from_spec(region), pieces)
    for depth in depths:
        counts = problem.counts(split_depth=depth)
        assert (counts.raw, counts.unique, counts.complete) == (raw, unique, True), depth
