"""The SAT model of the all-pieces solitaire (``solvers/blokus/solitaire_sat.py``): the perimeter bound, proofs
that a rectangle is too small for one color, the connectivity cuts, and the layouts it found, replayed
through the rule engine (``tests/data/blokus_sat_layout_*.json``, written by ``bench/blokus_rectangles.py``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from puzzles.blokus.engine import BlokusState
from puzzles.polyomino import Shape
from solvers.blokus.solitaire_sat import (
    PIECES,
    TOTAL_PERIMETER,
    LayoutModel,
    border_bound,
    border_points_need,
    check_layout,
    empty_edge_budget,
    exposed_corner_count,
    layout_cells,
    min_rows_by_perimeter,
    perimeter_bound,
    piece_runs,
    point_classes,
    replay_layout,
    run_bound,
    shrink_layout,
    solve_layout,
    straight_points,
    tiling_junction_bound,
    tiling_point_weight,
    tiling_sums,
    tiling_weight_bound,
)
from tests.bench_scripts import bench_module

DATA = Path(__file__).parent / "data"
LAYOUTS = sorted(DATA.glob("blokus_sat_layout_*.json"))
ENGINE_LAYOUTS = [p for p in LAYOUTS if json.loads(p.read_text())["format"] == "kibitz-blokus"]
RESULTS = Path(__file__).parent.parent / "bench" / "results" / "blokus_rectangles.json"


def test_ctrl_c_inside_the_sat_solver_is_interrupted_not_a_traceback() -> None:
    """SIGINT while CaDiCaL runs: the answer is "interrupted", with its CPU time, and the process ends normally.
    (python-sat's own handler, a longjmp out of the solver, aborted the process about 1 run in 6 with "free():
    invalid pointer", or hung it; the chunk now runs with Python's handler, which acts when the chunk returns.)"""
    import signal
    import subprocess
    import sys
    import time

    script = ("import sys\nfrom pysat.solvers import Solver\nsolve = Solver.solve_limited\n"
              "def said(self, *args, **kwargs):\n    print('solving', file=sys.stderr, flush=True)\n"
              "    return solve(self, *args, **kwargs)\n"
              "Solver.solve_limited = said\nfrom solvers.blokus import solitaire_sat\n"
              "solitaire_sat.CHUNK_CONFLICTS = 1000\n"  # a chunk of about 0.3 s (20,000: 6 s)
              "print(solitaire_sat.solve_layout(6, 24, time_limit=120).describe(), flush=True)\n")
    child = subprocess.Popen([sys.executable, "-c", script], cwd=RESULTS.parent.parent.parent, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        assert child.stderr is not None and child.stderr.readline().strip() == "solving"
        time.sleep(0.3)  # inside the solver's first chunk of conflicts
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=30)
    finally:
        child.kill()
    assert child.returncode == 0 and "Traceback" not in err, err
    assert out.startswith("6x24 (144 cells): unknown: interrupted, "), out


def test_perimeter_bound() -> None:
    assert TOTAL_PERIMETER == 216  # 4 + 6 + 2*8 + 8 + 4*10 + 10 + 11*12
    assert [min_rows_by_perimeter(w) for w in range(3, 13)] == [41, 32, 26, 22, 19, 17, 15, 14, 12, 11]
    assert perimeter_bound(11, 11) and not perimeter_bound(11, 12) and not perimeter_bound(12, 14)
    result = solve_layout(10, 13, time_limit=1)
    assert (result.status, result.proof) == ("unsat", "perimeter bound")


def test_run_bound() -> None:
    """The run bound refuses every board the perimeter bound does, and more (3x42: 126 cells, 37 empty, where
    600 CPU s of SAT found nothing), but no board of a layout found: the bench's found records and 3x44."""
    assert sum(min(piece_runs(tuple(o.cells))[0] for o in p.orientations() if o.height <= 3) for p in PIECES) == 44
    for cols in range(3, 20):
        for rows in range(cols, 60):
            if perimeter_bound(cols, rows):
                assert run_bound(cols, rows) and run_bound(rows, cols), (cols, rows)
    assert run_bound(3, 42) and run_bound(42, 3) and not run_bound(3, 44)
    assert (solve_layout(3, 42).status, solve_layout(42, 3).proof) == ("unsat", "run bound")
    found = [r for r in json.loads(RESULTS.read_text()).values() if r["status"] == "found" and r["colors"] == 1]
    assert found and not any(run_bound(r["cols"], r["rows"]) for r in found)


def test_sat_stopped_at_its_limit_is_unknown() -> None:
    """The SAT path of the default run (6x24 passes every bound, and CaDiCaL 1.9.5 has no answer at 600 CPU-s):
    encoded, searched, stopped, unknown."""
    result = solve_layout(6, 24, time_limit=0.3)
    assert (result.status, result.layout) == ("time_limit", []) and result.proof.startswith("SAT")
    assert "unknown at the limit of 0.3 CPU s" in result.describe()


@pytest.mark.parametrize("board", [(8, 17), pytest.param((11, 13), marks=pytest.mark.slow)])
def test_sat_proves_a_rectangle_impossible(board: tuple[int, int]) -> None:
    """With the bounds skipped, the model refutes by search boards that pass the perimeter and run bounds: 8x17 in
    ~1 CPU-s (172 before the empty-edge budget and the corner-contact count, 8 before the exposed-corner count) and
    11x13 in ~2 (no answer in 17,000 CPU-s of three solvers before the exposed-corner count): a second proof, by
    SAT, of what the border bound shows."""
    result = solve_layout(*board, time_limit=120, bounds=False)
    assert result.status == "unsat" and result.proof.startswith("SAT") and not result.layout
    assert "proved impossible" in result.describe()


def test_a_model_without_the_bounds_refuses_a_board_past_the_run_bound() -> None:
    """3x41 skipping the bounds (the rows' share of its empty-edge budget is negative, the run bound's refusal):
    unsatisfiable at once, not an encoding error."""
    result = solve_layout(3, 41, time_limit=60, bounds=False)
    assert result.status == "unsat" and result.proof.startswith("SAT")


def test_connectivity_cut_excludes_only_the_closed_component() -> None:
    model = LayoutModel(6, 6, counting=False)  # too small for 89 cells: the counts would be unsatisfiable
    model.build()
    index = {cells: i for i, cells in enumerate(model.cells)}
    a, b = index[((0, 0),)], index[((1, 1),)]  # two monominoes would be one piece twice: cells suffice here
    far = index[((4, 4),)]
    assert model.components([a, b, far]) == [[a, b], [far]] or model.components([a, b, far]) == [[far], [a, b]]
    cut = model.cut(0, [far])
    assert cut[0] == -model.x(0, far)
    corner_cells = {q for q, v in model.cell_var.items() if v in cut[1:]}
    assert corner_cells == {(0, (3, 3)), (0, (3, 5)), (0, (5, 3)), (0, (5, 5))}


def test_the_empty_edge_budget_proves_7x19_impossible_in_seconds() -> None:
    """7x19 (the border bound, skipped here, refuses it): 433 CPU-s of SAT with the counts alone, about a second
    with its budget of 6 empty edges, and now none: its exposed-corner count is below zero."""
    assert empty_edge_budget(7, 19) == 6 and empty_edge_budget(4, 30) == -12 and perimeter_bound(4, 30)
    result = solve_layout(7, 19, time_limit=60, bounds=False)
    assert result.status == "unsat" and result.proof.startswith("SAT") and not result.layout


def _border_points(cols: int, rows: int, covered: set[tuple[int, int]]) -> int:
    """``one + 2 * none`` over the board's border lattice points, counted on a layout's covered cells."""
    total = 0
    for r, c in {(r, c) for r in (0, rows) for c in range(cols + 1)} | {(r, c) for r in range(rows + 1) for c in (0, cols)}:
        covered_around = sum(q in covered for q in ((r - 1, c - 1), (r - 1, c), (r, c - 1), (r, c)))
        total += {0: 2, 1: 1}.get(covered_around, 0)
    return total


def test_the_border_bound_settles_the_boards_sat_left_unknown() -> None:
    """11x13 (17,000 CPU-s of three SAT solvers without an answer) and the 144-cell 12x12, 9x16 and 8x18: the pieces
    leave 13, 15, 17 and 19 for ``one + 2 * none`` over the lattice points, and the border alone needs 20.  Not on
    the boards with a layout (3x48 needs 38 of its 69), nor on 6x24 (24 of 27) or 3x45, which SAT refuted."""
    assert [exposed_corner_count(w, h) for w, h in ((11, 13), (12, 12), (9, 16), (8, 18), (3, 48))] == [13, 15, 17, 19, 69]
    assert all(border_bound(w, h) and border_bound(h, w) for w, h in ((11, 13), (12, 12), (9, 16), (8, 18)))
    stored = [tuple(map(int, json.loads(p.read_text())["board"].split("x"))) for p in ONE_COLOR_LAYOUTS]
    assert not any(border_bound(w, h) for w, h in [*stored, (12, 14), (6, 24), (3, 45)])
    result = solve_layout(11, 13, time_limit=60)
    assert (result.status, result.proof, result.layout) == ("unsat", "border bound", [])
    assert straight_points() == 74 == TOTAL_PERIMETER - 2 * 29 - 4 * 21  # perimeter minus convex and concave corners
    ring = frozenset({(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)})  # 3x3 less its centre
    assert straight_points([Shape(ring)]) == 8 and straight_points([Shape(frozenset({(0, 0)}))]) == 0


def test_every_small_layout_has_the_exposed_corner_count_and_the_border_bound_spares_it() -> None:
    """Brute force on small piece sets (the strip DP's test instances): each layout found has exactly
    :func:`exposed_corner_count` (so its proof holds beyond the 21 pieces), :func:`border_bound` refuses none of
    those boards, and it refuses most of the boards the brute force finds empty."""
    from tests.test_strip_dp import a_layout, random_boards

    with_layout = refused = 0
    for seed in (5, 7):
        for pieces, short, long in random_boards(seed, 60, 5):
            covered = a_layout(short, long, pieces)
            if covered is None:
                refused += border_bound(long, short, pieces)
                continue
            counts = point_classes(long, short, covered)
            assert counts["one"] + 2 * counts["none"] == exposed_corner_count(long, short, pieces), (short, long)
            assert border_points_need(long, short, pieces) <= _border_points(long, short, covered), (short, long)
            assert not border_bound(long, short, pieces) and not border_bound(short, long, pieces), (short, long)
            with_layout += 1
    assert with_layout >= 20 and refused >= 40


@pytest.mark.parametrize("board", [pytest.param(b, marks=pytest.mark.slow) if b not in ("3x48", "6x27")
                                   else b for b in ("3x48", "3x53", "4x39", "4x40", "4x41", "5x32", "6x27", "11x15")])
def test_a_stored_layout_satisfies_the_whole_model(board: str) -> None:
    """Every clause of the one-color model, the counts and the empty-edge budget among them, holds on a real layout:
    its placements assumed, the solver finds the rest (cells, counters) consistent."""
    from pysat.solvers import Solver

    cols, rows = map(int, board.split("x"))
    layout = layout_cells(json.loads((DATA / f"blokus_sat_layout_{board}_1c.json").read_text()))
    model = LayoutModel(cols, rows)
    index = {cells: i for i, cells in enumerate(model.cells)}
    with Solver(name="cadical195", bootstrap_with=model.build()) as solver:
        assert solver.solve(assumptions=[model.x(0, index[tuple(sorted(cells))]) for cells in layout])


@pytest.mark.slow  # 7 CPU-s: the 21x17 model's build and load
def test_21x17_model_covers_every_cell_but_the_centre() -> None:
    """All 84 pieces on 21x17 leave one cell empty, and the half turn forces it to be the centre: the model
    says every other cell is covered, so leaving one empty (it and its image) fails by propagation alone."""
    from pysat.solvers import Solver

    model = LayoutModel(21, 17, colors=4, half_turn=True)
    with Solver(name="cadical195", bootstrap_with=model.build()) as solver:
        def left_empty(cell: tuple[int, int]) -> list[int]:
            image = (16 - cell[0], 20 - cell[1])
            return [-model.cell_var[(s, q)] for s in range(2) for q in {cell, image}]

        assert solver.propagate(assumptions=left_empty((0, 5)))[0] is False
        assert solver.propagate(assumptions=left_empty((8, 10)))[0] is True  # the centre: empty in every layout


@pytest.mark.parametrize("path", ENGINE_LAYOUTS, ids=[p.stem for p in ENGINE_LAYOUTS])
def test_stored_sat_layout_replays(path: Path) -> None:
    from solvers.blokus.solitaire import verify_solution

    data = json.loads(path.read_text())
    state = BlokusState.from_json(data)  # every move parsed and re-checked by the engine
    cols, rows = map(int, data["board"].split("x"))
    assert (state.tables.cols, state.tables.rows, state.num_colors) == (cols, rows, data["colors"])
    verify_solution(state)
    assert state.color_scores() == data["scores"] and min(data["scores"]) >= 15  # all 21 pieces of every color
    assert sum(row.count(-1) for row in state.grid()) == data["empty_cells"] == cols * rows - 89 * data["colors"]


ONE_COLOR_LAYOUTS = [p for p in LAYOUTS if json.loads(p.read_text())["colors"] == 1]


def test_every_stored_layout_is_a_game_record() -> None:
    """The engine plays every board a layout was found on (3..26 columns, 3..62 rows): all are replayable records."""
    assert LAYOUTS and ENGINE_LAYOUTS == LAYOUTS
    assert {"3x53", "4x39"} <= {json.loads(p.read_text())["board"] for p in LAYOUTS}


@pytest.mark.parametrize("path", ONE_COLOR_LAYOUTS, ids=[p.stem for p in ONE_COLOR_LAYOUTS])
def test_stored_layout_keeps_the_rules_by_the_second_checker(path: Path) -> None:
    """``check_layout``, written apart from the engine, agrees with it on every one-color layout."""
    data = json.loads(path.read_text())
    cols, rows = map(int, data["board"].split("x"))
    pieces = layout_cells(data)
    check_layout(cols, rows, pieces)
    with pytest.raises(ValueError, match="start corner"):
        check_layout(cols, rows, pieces[1:] + pieces[:1])
    moved = [tuple((r + 1, c) for r, c in piece) for piece in pieces]
    with pytest.raises(ValueError):
        check_layout(cols, rows, moved)


ALL_LAYOUTS = sorted(DATA.glob("blokus_sat_layout_*.json")) + sorted(DATA.glob("blokus_all_pieces_*.json"))


def _regions(grid: list[list[int]], member: Callable[[int], bool]) -> list[set[tuple[int, int]]]:
    """The 4-connected regions of the cells whose value ``member`` accepts."""
    rows, cols = len(grid), len(grid[0])
    left = {(r, c) for r in range(rows) for c in range(cols) if member(grid[r][c])}
    regions = []
    while left:
        todo = [left.pop()]
        region = set(todo)
        while todo:
            r, c = todo.pop()
            for q in {(r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)} & left:
                left.discard(q)
                region.add(q)
                todo.append(q)
        regions.append(region)
    return regions


def _holes(grid: list[list[int]], color: int) -> int:
    """Regions of cells not of ``color`` (4-connected) that do not reach the board's edge."""
    rows, cols = len(grid), len(grid[0])
    return sum(not any(r in (0, rows - 1) or c in (0, cols - 1) for r, c in region)
               for region in _regions(grid, lambda v: v != color))


@pytest.mark.parametrize("path", ALL_LAYOUTS, ids=[p.stem for p in ALL_LAYOUTS])
def test_every_color_has_its_boards_exposed_corner_count(path: Path) -> None:
    """:func:`exposed_corner_count` exactly, for each color of every stored layout (one color or four: the other
    colors' cells count as empty): the lattice points with one of its cells around them plus twice those with none;
    its border points alone at least :func:`border_points_need`; and its straight points, concave corners and 2x2
    blocks are the pieces' own (74, 29 and 2)."""
    grid = BlokusState.from_json(json.loads(path.read_text())).grid()
    rows, cols = len(grid), len(grid[0])
    for color in {v for row in grid for v in row} - {-1}:
        covered = {(r, c) for r in range(rows) for c in range(cols) if grid[r][c] == color}
        counts = point_classes(cols, rows, covered)
        assert (counts["side"], counts["three"], counts["four"]) == (straight_points(), 29, 2)
        assert counts["one"] + 2 * counts["none"] == exposed_corner_count(cols, rows), (path.stem, color)
        assert border_points_need(cols, rows) <= _border_points(cols, rows, covered), (path.stem, color)


@pytest.mark.parametrize("path", ALL_LAYOUTS, ids=[p.stem for p in ALL_LAYOUTS])
def test_every_color_meets_itself_corner_to_corner_20_times_plus_its_holes(path: Path) -> None:
    """The model's corner-contact bound (``LayoutModel._add_corner_contacts``), exactly: at the lattice points
    where two diagonal cells are of one color and the other two are not, 20 plus the color's holes."""
    grid = BlokusState.from_json(json.loads(path.read_text())).grid()
    for color in {v for row in grid for v in row} - {-1}:
        contacts = sum((grid[r][c] == grid[r + 1][c + 1] == color) != (grid[r][c + 1] == grid[r + 1][c] == color)
                       and (grid[r][c] == color) + (grid[r][c + 1] == color) + (grid[r + 1][c] == color)
                       + (grid[r + 1][c + 1] == color) == 2
                       for r in range(len(grid) - 1) for c in range(len(grid[0]) - 1))
        assert contacts == 20 + _holes(grid, color), (path.stem, color)


def test_a_points_weight_counts_its_boundary_edges_and_corner_contacts() -> None:
    """:func:`tiling_point_weight` by hand: (g, d) for the cells north-west, north-east, south-west, south-east."""
    assert tiling_point_weight([0, 1, 1, 0]) == (2, 2)  # two colors crossing: both diagonals meet
    assert tiling_point_weight([0, 1, 2, 0]) == (2, 1)
    assert tiling_point_weight([0, 1, 2, 3]) == (2, 0)
    assert tiling_point_weight([0, 0, 1, 2]) == (1, 0)  # three pieces meet
    assert tiling_point_weight([0, 0, 0, 1]) == (0, 0)  # a concave corner
    assert tiling_point_weight([0, 0, 1, 1]) == (0, 0)  # straight on
    assert tiling_point_weight([None, None, 0, 1]) == (1, 0)  # two pieces meet at the border
    assert tiling_point_weight([None, None, None, 0]) == (0, 0)  # a board corner
    assert tiling_point_weight([-1, 0, 1, 1]) == (1, 0)  # beside the empty cell
    assert tiling_point_weight([-1, 0, 0, 1]) == (2, 1)  # a contact across the empty cell's corner
    assert tiling_point_weight([-1, 0, 1, -1]) == (2, 0)  # two empty cells never meet as a color


@pytest.mark.parametrize("path", ALL_LAYOUTS, ids=[p.stem for p in ALL_LAYOUTS])
def test_every_layout_has_the_tiling_weight_of_its_regions_and_holes(path: Path) -> None:
    """``sum(g - d)`` (:func:`tiling_sums`) of every stored layout is ``22 * colors - 2 + 2 * (empty regions) - holes``
    (Euler's formula less the corner contacts), so at most :func:`tiling_weight_bound`; 19x19 meets the bound."""
    grid = BlokusState.from_json(json.loads(path.read_text())).grid()
    colors = len({v for row in grid for v in row} - {-1})
    holes = sum(_holes(grid, color) for color in range(colors))
    junctions, contacts = tiling_sums(grid)
    weight = junctions - contacts
    assert weight == 22 * colors - 2 + 2 * len(_regions(grid, lambda v: v == -1)) - holes
    assert weight <= tiling_weight_bound(len(grid[0]), len(grid), colors)
    assert (weight == tiling_weight_bound(19, 19, 4)) == (path.stem == "blokus_all_pieces_19x19_4c")


@pytest.mark.parametrize("path", ALL_LAYOUTS, ids=[p.stem for p in ALL_LAYOUTS])
def test_every_layouts_junctions_meet_eulers_formula(path: Path) -> None:
    """``sum(g)`` over the lattice points is ``2 * (pieces + empty regions - 1)`` in every stored layout (its boundary
    graph is connected), so at most :func:`tiling_junction_bound`; 18x20 and 19x19 (every empty cell alone) meet it."""
    grid = BlokusState.from_json(json.loads(path.read_text())).grid()
    rows, cols = len(grid), len(grid[0])
    colors = len({v for row in grid for v in row} - {-1})
    junctions = tiling_sums(grid)[0]
    assert junctions == 2 * (21 * colors + len(_regions(grid, lambda v: v == -1)) - 1)
    assert junctions <= tiling_junction_bound(cols, rows, colors)
    assert (junctions == tiling_junction_bound(cols, rows, colors)) == (colors == 4)


def test_a_points_junction_booleans_are_its_weight_exactly() -> None:
    """``LayoutModel._junctions`` on four free edge booleans: for each of the 16 assignments the two booleans are
    forced to ``[3 or 4 edges, 4 edges]``; with a constant edge (the border) likewise."""
    from pysat.solvers import Solver

    model = LayoutModel(5, 18, colors=1)
    model.clauses = []
    edges = [model._new() for _ in range(4)]
    booleans = model._junctions(list(edges))
    border = model._junctions([True, False, edges[0], edges[1]])  # a border point: one edge always, one never
    with Solver(name="cadical195", bootstrap_with=model.clauses) as solver:
        for bits in range(16):
            on = [bits >> j & 1 for j in range(4)]
            assumed = [e if b else -e for e, b in zip(edges, on)]
            assert solver.solve(assumptions=assumed)
            values = {abs(v): v > 0 for v in solver.get_model()}
            assert [values[b] for b in booleans] == [sum(on) >= 3, sum(on) == 4]
            assert [values[b] for b in border] == [on[0] + on[1] == 2, False]


@pytest.mark.slow  # 7 to 9 CPU-s each (the 19x19 model's build and load); the one-color model's clauses hold on real
# layouts in the default suite (test_a_stored_layout_satisfies_the_whole_model)
@pytest.mark.parametrize("name, slack, holds", [
    ("tiling_weight_bound", 0, True),
    ("tiling_weight_bound", 2, False),
    ("tiling_junction_bound", 2, False),
])
def test_the_four_color_model_counts_the_tiling_weight_exactly(
    monkeypatch: pytest.MonkeyPatch, name: str, slack: int, holds: bool
) -> None:
    """The half-turn model of 19x19 holds the stored layout (weight 96 and junctions 176, both bounds met), and
    refuses it when either bound is 2 less: the model's booleans count every point, none is left free."""
    from pysat.solvers import Solver

    from solvers.blokus import solitaire_sat

    grid = BlokusState.from_json(json.loads((DATA / "blokus_all_pieces_19x19_4c.json").read_text())).grid()
    bound = getattr(solitaire_sat, name)
    monkeypatch.setattr(solitaire_sat, name, lambda c, r, k: bound(c, r, k) - slack)
    model = LayoutModel(19, 19, colors=4, half_turn=True)
    index = {cells: i for i, cells in enumerate(model.cells)}
    with Solver(name="cadical195", bootstrap_with=model.build()) as solver:
        pieces = [(s, tuple(sorted(piece))) for s in range(2) for piece in _regions(grid, lambda v, s=s: v == s)]
        layout = [model.x(s, index[cells]) for s, cells in pieces]
        assert len(layout) == 42 and solver.solve(assumptions=layout) is holds


def test_results_file_is_consistent() -> None:
    """Every board the bench answered: a found one has its layout stored, and a perimeter refusal is one the
    bound makes (and likewise for the run and border bounds)."""
    records = json.loads(RESULTS.read_text())
    stored = {json.loads(p.read_text())["board"] for p in LAYOUTS}
    for record in records.values():
        assert record["status"] in ("unsat", "found", "time_limit", "bands_tried", "interrupted")
        if record["status"] == "found":
            assert record["board"] in stored
        if record["proof"] == "perimeter bound":
            assert perimeter_bound(record["cols"], record["rows"])
        if record["proof"] == "run bound":
            assert run_bound(record["cols"], record["rows"])
        if record["proof"] == "border bound":
            assert border_bound(record["cols"], record["rows"])


@pytest.mark.slow
@pytest.mark.parametrize("board", [(12, 14), (11, 15)])  # 9 to 21 and 36 to 37 CPU s measured
def test_sat_finds_a_layout_and_it_replays(board: tuple[int, int]) -> None:
    from solvers.blokus.solitaire import verify_solution

    result = solve_layout(*board, time_limit=600)
    assert result.status == "found" and len(result.layout) == 21
    state = replay_layout(result)
    verify_solution(state)
    assert state.is_terminal() and state.color_scores()[0] >= 15


def test_shrink_layout_moves_a_layout_onto_a_board_one_row_shorter() -> None:
    """The band search re-solves a few rows of the stored 4x41 layout and finds one on 4x40; pieces outside the band
    keep their cells (above it) or move up one row (below it)."""
    data = json.loads((DATA / "blokus_sat_layout_4x41_1c.json").read_text())
    pieces = layout_cells(data)
    result = shrink_layout(4, 41, pieces, time_limit=60)
    assert result.status == "found" and (result.cols, result.rows) == (4, 40) and result.proof.endswith("from 4x41")
    shorter = [cells for _, cells in result.layout]
    check_layout(4, 40, shorter)
    old = {frozenset(p) for p in pieces} | {frozenset((r - 1, c) for r, c in p) for p in pieces}
    assert sum(frozenset(p) in old for p in shorter) >= 21 - 8  # a band of at most 3 rows was re-solved


def test_a_band_search_that_runs_out_of_bands_says_so() -> None:
    """From the stored 4x39 layout, bands of 3 rows give nothing on 4x38: the answer says every band was tried (not a
    time limit, and nothing proved)."""
    pieces = layout_cells(json.loads((DATA / "blokus_sat_layout_4x39_1c.json").read_text()))
    result = shrink_layout(4, 39, pieces, time_limit=120, window_limit=5, windows=(3,))
    assert result.status == "bands_tried" and not result.layout
    assert "no band of rows gave a layout (the band search proves nothing)" in result.describe()


def test_a_trial_run_keeps_its_layouts_beside_its_results(tmp_path: Path) -> None:
    """Layouts go to tests/data only for the committed results file; a trial's go beside its --results."""
    bench = bench_module("blokus_rectangles")
    assert bench.layouts_folder(bench.RESULTS) == DATA.resolve()
    assert bench.layouts_folder(tmp_path / "trial.json") == tmp_path.resolve()


#: A standalone DIMACS solver for the bench's ``--external`` (python-sat's CaDiCaL behind a script), answering as
#: Kissat and CaDiCaL do; ``ASSUME`` (JSON literals) fixes some variables first.
STANDALONE_SOLVER = '''
import json, os, sys
from pysat.formula import CNF
from pysat.solvers import Solver
if sys.argv[1] == "--version":
    print("0.1")
    sys.exit(0)
with Solver(name="cadical195", bootstrap_with=CNF(from_file=sys.argv[1]).clauses) as solver:
    if solver.solve(assumptions=json.loads(os.environ.get("ASSUME", "[]"))):
        print("s SATISFIABLE")
        print("v " + " ".join(map(str, solver.get_model())) + " 0")
        sys.exit(10)
    print("s UNSATISFIABLE")
    sys.exit(20)
'''


def _standalone(tmp_path: Path) -> Path:
    import stat
    import sys

    binary = tmp_path / "standalone-sat"
    binary.write_text(f"#!{sys.executable}\n{STANDALONE_SOLVER}")
    binary.chmod(binary.stat().st_mode | stat.S_IXUSR)
    return binary


def test_a_standalone_solver_proves_a_board_impossible_from_the_exported_model(tmp_path: Path) -> None:
    """``--external``: the model written as DIMACS, the solver's "s UNSATISFIABLE" recorded as the proof it is."""
    record = bench_module("blokus_rectangles").run_external(7, 19, 1, 60, "test", _standalone(tmp_path), tmp_path)
    assert record["status"] == "unsat" and record["proof"] == "SAT, standalone-sat 0.1 (standalone, no cuts)"
    assert record["cpu_seconds"] > 0 and record["variables"] > 0


def test_a_standalone_solvers_layout_is_replayed_and_stored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A satisfying answer read back from the solver's "v" lines is a layout: replayed by the engine, stored."""
    layout = layout_cells(json.loads((DATA / "blokus_sat_layout_11x15_1c.json").read_text()))
    model = LayoutModel(11, 15)
    index = {cells: i for i, cells in enumerate(model.cells)}
    monkeypatch.setenv("ASSUME", json.dumps([model.x(0, index[tuple(sorted(cells))]) for cells in layout]))
    record = bench_module("blokus_rectangles").run_external(11, 15, 1, 60, "test", _standalone(tmp_path), tmp_path)
    assert record["status"] == "found" and record["cuts"] == 0
    stored = layout_cells(json.loads(Path(record["layout_file"]).read_text()))
    assert sorted(map(sorted, stored)) == sorted(map(sorted, layout))
    check_layout(11, 15, stored)
