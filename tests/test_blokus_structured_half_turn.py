"""The structured half-turn families of bench/blokus_structured_half_turn.py: their geometry and colour maps."""

from __future__ import annotations

import random

import pytest

from tests.bench_scripts import bench_module

bench = bench_module("blokus_structured_half_turn")


@pytest.mark.parametrize(("name", "a", "b", "sigma", "q_cells", "band_cells"), [
    ("klein", 0, 0, "h", 80, 36), ("klein", 1, 1, "h", 63, 104), ("klein", 2, 1, "h", 56, 132),
    ("th", 0, 0, "h", 80, 36), ("th", 0, 0, "c", 80, 36), ("tv", 0, 0, "v", 80, 36), ("tv", 0, 0, "cc", 80, 36),
])
def test_the_copies_of_q_and_the_bands_fill_the_board_but_its_centre(name, a, b, sigma, q_cells, band_cells):
    q, maps = bench.family(name, a, b, sigma)
    copies = [set(f(tuple(sorted(q)))) for f, _ in maps]
    covered = set().union(*copies)
    assert len(q) == q_cells and all(len(c) == q_cells for c in copies) and len(covered) == 4 * q_cells
    assert bench.CENTRE not in covered
    band = bench.ALL_CELLS - covered - {bench.CENTRE}
    assert len(band) == band_cells and bench.half_turn(tuple(sorted(band))) == tuple(sorted(band))
    # each copy of a piece of Q has its own colour, so a shape in Q gives one piece to every colour
    assert all(sorted(perm[k] for _, perm in maps) == [0, 1, 2, 3] for k in range(4))
    # a copy of Q's blue top-left cell that lands on a board corner has that corner's colour
    for f, perm in maps:
        corner = f(((0, 0),))[0]
        if corner in bench.CORNERS:
            assert bench.CORNERS.index(corner) == perm[0]


def test_a_random_tiling_of_q_covers_it_exactly_with_each_shape_once():
    model = bench.Model.__new__(bench.Model)  # the geometry only: building the clauses takes seconds
    model.shapes = bench.piece_set("blokus")
    model.q, model.maps = bench.family("klein", 1, 1)
    names = [shape.name for shape in model.shapes]
    shapes = [i for i, shape in enumerate(model.shapes) if len(shape.cells) == 5] + [names.index("I3")]
    rng = random.Random(3)
    tiling = next(t for t in (bench.random_tiling(model, shapes, rng) for _ in range(20)) if t is not None)
    assert sorted(u for p in tiling for u in p) == sorted(model.q)
    assert sorted(len(p) for p in tiling) == [3] + [5] * 12
