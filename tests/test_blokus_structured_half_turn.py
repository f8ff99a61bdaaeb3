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
    q, _ = bench.family("klein", 1, 1)
    shapes = [shape for shape in bench.piece_set("blokus") if len(shape.cells) == 5 or shape.name == "I3"]
    rng = random.Random(3)
    tiling = next(t for t in (bench.random_tiling(q, shapes, rng) for _ in range(20)) if t is not None)
    assert sorted(u for p in tiling for u in p) == sorted(q)
    assert sorted(len(p) for p in tiling) == [3] + [5] * 12
    assert sorted(bench.Shape(frozenset(p)).canonical().key() for p in tiling) == sorted(
        shape.canonical().key() for shape in shapes)


@pytest.mark.slow  # the model takes seconds to build; its geometry is checked by the default tests above
@pytest.mark.parametrize("name", ["klein", "th"])
def test_a_candidate_of_the_model_is_a_tiling_under_the_edge_rule(name):
    """Without the contact clauses and the cuts, SAT's answer for a random tiling of Q is still a tiling of the
    board but its centre, with every shape once per colour, the edge rule and the start corners (checked here
    directly, not through the model)."""
    from pysat.solvers import Solver

    model = bench.Model(name, 1, 1, "h", contacts=False)
    band = {"klein": ["1", "2", "V3", "I4", "O4", "T4", "L4", "Z4"], "th": ["I4", "I5"]}[name]
    shapes = [shape for shape in model.shapes if shape.name not in band]
    rng = random.Random(5)
    with Solver(name="cadical195", bootstrap_with=model.clauses) as solver:
        for attempt in range(50):
            tiling = bench.random_tiling(model.q, shapes, rng)
            if tiling is None:
                continue
            chosen = model.pool.id(("try", attempt))
            for p in tiling:
                solver.add_clause([-chosen] + [model.core_variable(p, k) for k in range(4)])
            solver.conf_budget(200_000)
            if solver.solve_limited(assumptions=[chosen]):
                break
        true = {x for x in solver.get_model() if x > 0}
    pieces = [(p, k) for x in true if x in model.pieces_of for p, k in model.pieces_of[x]]
    cells = [u for p, _ in pieces for u in p]
    assert len(cells) == len(set(cells)) == 356 and bench.CENTRE not in cells
    want = sorted(shape.canonical().key() for shape in model.shapes)
    for k in range(4):
        assert sorted(bench.Shape(frozenset(p)).canonical().key() for p, kk in pieces if kk == k) == want
        assert any(bench.CORNERS[k] in p for p, kk in pieces if kk == k)
    colour = {u: k for p, k in pieces for u in p}
    piece_of = {u: i for i, (p, _) in enumerate(pieces) for u in p}
    assert all(piece_of[u] == piece_of.get(w, piece_of[u]) or colour.get(w) != colour[u]
               for u in cells for w in [(u[0] + dr, u[1] + dc) for dr, dc in bench.STEPS])


def test_the_pinwheel_rectangles_and_their_images_fill_the_board_but_its_centre():
    images = [frozenset(bench.half_turn(tuple(sorted(rect)))) for rect in (bench.TOP_LEFT, bench.TOP_RIGHT)]
    parts = [bench.TOP_LEFT, bench.TOP_RIGHT, *images]
    assert [len(part) for part in parts] == [88, 90, 88, 90]
    assert set().union(*parts) == bench.ALL_CELLS - {bench.CENTRE} and sum(map(len, parts)) == len(bench.ALL_CELLS) - 1
    # each rectangle touches the centre at a side and the board at two sides, turning around the centre
    assert all(any(abs(r - 8) + abs(c - 10) == 1 for r, c in part) for part in parts)


@pytest.mark.parametrize(("side", "pieces"), [("left", 20), ("right", 22)])
def test_a_pinwheel_rectangle_is_tiled_by_its_shapes_with_area_to_spare_for_none(side, pieces):
    shapes = bench.piece_set("blokus")
    region, chosen = bench.pinwheel_target(side, shapes)
    assert len(chosen) == pieces and sum(len(shapes[s].cells) for s in chosen) == len(region)
    rng = random.Random(5)
    tiling = next(t for t in (bench.random_tiling(region, [shapes[s] for s in chosen], rng) for _ in range(20)) if t)
    assert sorted(u for p in tiling for u in p) == sorted(region) and len(tiling) == pieces


def test_a_group_sealed_inside_a_pinwheel_rectangle_is_refused_but_one_that_reaches_out_is_not():
    search = bench.RectangleSearch("left")
    blue_corner, yellow_inside, yellow_at_the_edge = ((0, 0),), ((3, 4),), ((3, 10),)
    assert not search.sealed([(blue_corner, 0)])  # a group holding its colour's corner
    assert search.sealed([(yellow_inside, 1)])  # yellow's corner is in another rectangle, out of its reach
    assert not search.sealed([(yellow_at_the_edge, 1)])  # a corner cell in the top right rectangle
    # still open: an empty corner cell may yet take yellow, unless yellow borders it
    assert not search.sealed([(yellow_inside, 1)], lambda w, k: True)
    assert search.sealed([(yellow_inside, 1)], lambda w, k: False)


@pytest.fixture
def board_18x20():
    bench.set_board(20, 18)
    yield
    bench.set_board(17, 21)


def stored_layout(name: str) -> list[tuple[tuple[tuple[int, int], ...], int]]:
    """A stored layout's pieces as (cells sorted, colour index: blue, yellow, red, green), row 0 at the top."""
    import json
    from pathlib import Path

    data = json.loads((Path(__file__).parent / "data" / f"blokus_all_pieces_{name}_4c.json").read_text())
    rows = int(data["board"].split("x")[1])
    names = ["blue", "yellow", "red", "green"]
    return [(tuple(sorted((rows - int(cell[1:]), ord(cell[0]) - ord("a")) for cell in move["move"].split(","))),
             names.index(move["color"])) for move in data["moves"]]


@pytest.mark.slow  # two models of 18×20, seconds each to build
def test_the_half_turn_models_accept_the_stored_18x20_layout(board_18x20):
    """The stored 18×20 layout is invariant under the half turn: forced into the ``half`` family, the CNF (with its
    connectivity check) and the CP-SAT model both accept it, so neither over-constrains a real layout."""
    from ortools.sat.python import cp_model
    from pysat.solvers import Solver

    model = bench.Model("half")
    pieces = stored_layout("18x20")
    assert len(pieces) == 84 and all((bench.half_turn(p), bench.HALF_TURN[k]) in pieces for p, k in pieces)
    forced = sorted({model.pair_variable[piece] for piece in pieces})
    assert len(forced) == 42
    with Solver(name="cadical195", bootstrap_with=model.clauses) as solver:
        status, chosen, cuts = bench.solve(model, solver, forced, 10**6, 10**9)
    assert status == "found" and cuts == 0 and set(forced) <= chosen
    cp, use, _ = bench.cp_sat_model(model)
    for x in forced:
        cp.Add(use[x] == 1)
    answer = cp_model.CpSolver()
    answer.parameters.num_workers = 1
    answer.parameters.max_time_in_seconds = 120
    assert answer.Solve(cp) in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    assert {x for x in use if answer.Value(use[x])} == set(forced)
