"""bench/blokus_square_strips.py: the quarter turn of a 17×17 square inside 21×17, and its CP-SAT completion."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from puzzles.blokus.engine import BlokusState
from solvers.blokus import solitaire as sol
from tests.bench_scripts import bench_module

bench = bench_module("blokus_square_strips")


@pytest.mark.parametrize("left", [bench.LEFT, 0])
def test_the_turn_has_order_four_and_its_square_is_the_half_turn_of_the_middle_square(left):
    square = [(r, c) for r in range(bench.ROWS) for c in range(left, left + bench.SIDE)]
    assert {bench.turn(r, c, 1, left) for r, c in square} == set(square)
    assert all(bench.turn(r, c, 4, left) == (r, c) for r, c in square)
    assert bench.turn(0, left, 1, left) == (0, left + bench.SIDE - 1)  # blue's corner of the square to yellow's
    if left == bench.LEFT:
        assert all(bench.turn(r, c, 2) == bench.half(r, c) for r in range(bench.ROWS) for c in range(bench.COLS))


@pytest.mark.parametrize("left", [bench.LEFT, 0])
def test_the_square_search_units_are_the_72_orbits_and_its_images_fill_the_square(left):
    geo = sol.geometry(bench.COLS, bench.ROWS, 4, "mirrors")
    search = bench.SquareFirst(0, 3, 4000, geo, 1.0, 0, 1, 0, False, left)
    t = geo.tables
    assert search.real_units == 72 and all(search.unit_n[:72] == 4)
    orbit_cells = {t.unflat(int(q)) for u in range(72) for q in search.unit_cells[u, :4]}
    centre = (bench.SIDE // 2, left + bench.SIDE // 2)
    assert orbit_cells == {(r, c) for r in range(bench.ROWS) for c in range(left, left + bench.SIDE)} - {centre}
    moves = search.layout([(0, t.placement_of([(0, left), (0, left + 1), (1, left)]))])
    assert sorted(k for k, _ in moves) == [0, 1, 2, 3]
    cells = [rc for _, m in moves for rc in t.moves[m].cells]
    assert len(set(cells)) == 12 and (0, left + bench.SIDE - 1) in cells  # the images reach yellow's side


def _layout_18x20() -> tuple[sol.Geometry, list[tuple[int, int]]]:
    data = json.loads((Path(__file__).parent / "data" / "blokus_all_pieces_18x20_4c.json").read_text())
    state = BlokusState.from_json(data)
    geo = sol.geometry(18, 20, 4)
    return geo, [(c, m.index) for c, m in state.moves_played if not m.is_pass]


@pytest.mark.parametrize("drop", ["corner piece", "last piece"])
def test_the_completion_links_a_tree_to_its_corner_again(drop):
    """Blue's stored pieces less one stay a corner-connected tree; CP-SAT places the missing piece again.  Without
    its corner piece the tree is away from the corner and needs a carrier, a new piece of a lower level."""
    geo, placements = _layout_18x20()
    t = geo.tables
    blue = [m for c, m in placements if c == 0]
    index = 0 if drop == "corner piece" else len(blue) - 1
    assert (geo.starts[0] in t.pl_cells[blue[index], : t.pl_size[blue[index]]]) == (drop == "corner piece")
    kept = [(c, m) for c, m in placements if (c, m) != (0, blue[index])]
    assert len(bench.corner_groups(t, kept, 0)) == 1  # the kept blue pieces are one tree
    done = bench.complete_with_tree(kept, geo, 30.0, 0)
    assert done is not None and len(done) == 84
    new = set(done) - set(kept)
    assert len(new) == 1 and {(c, int(t.pl_piece[m])) for c, m in new} == {(0, int(t.pl_piece[blue[index]]))}
    sol.verify_solution(sol.replay(done, False, geo))  # every move re-checked by the engine



@pytest.mark.slow  # about 3 CPU-s
def test_the_strips_can_be_filled_beside_a_full_square_when_links_are_ignored(tmp_path):
    """The necessary condition of ``--strip-relaxation`` holds without the links: CP-SAT tiles both strips and
    colours the ring, each of the ring's 16 orbits taking all four colours once, 16 cells a colour."""
    out = tmp_path / "ring.json"
    assert bench.strip_relaxation(60.0, linked=False, out=out) in ("OPTIMAL", "FEASIBLE")
    ring = json.loads(out.read_text())
    assert len(ring) == 64 and all(sum(1 for *_, k in ring if k == colour) == 16 for colour in range(4))
    colour = {(r, c): k for r, c, k in ring}
    assert all(colour[bench.turn(r, c)] == (k + 1) % 4 for (r, c), k in colour.items())
