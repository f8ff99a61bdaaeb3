"""Blokus solitaires: the tetromino rectangle (find, count three ways, split/resume) and all 84 pieces on the board."""

from __future__ import annotations

import itertools
import json

import pytest

from puzzles.polyomino import Region, piece
from solvers.blokus.tetrominoes import (
    BitColorCounter,
    ColoredPiece,
    ColoredTilingProblem,
    verify_colored_tiling,
)
from solvers.parallel import checkpoint_line

SMALL_SHAPES = (piece("I", "trominoes"), piece("L", "trominoes"), piece("2", "blokus"))


def small(corner: bool = False, region: Region | None = None, colors: int = 3) -> ColoredTilingProblem:
    return ColoredTilingProblem(region or Region.rectangle(8, 3), colors, SMALL_SHAPES, corner_contact=corner)


# -- known counts (colors only tell the two sets apart; no edge rule) -------------------------------


@pytest.mark.parametrize("size,expected", [((8, 5), 99_392), ((10, 4), 57_472)])
def test_known_counts_two_colored_sets(size, expected):
    problem = ColoredTilingProblem(Region.rectangle(*size), colors=2, edge_rule=False)
    assert BitColorCounter(problem).count()[0] == expected


# -- counts computed independently ----------------------------------------------------------------------


def test_bitset_and_xcc_counts_agree():
    problem = small()
    bitset = problem.count(depth=1, symmetry=False).raw
    xcc = problem.count(depth=1, engine="xcc", symmetry=False).raw
    assert bitset == xcc == 6_624


def test_a_ctrl_c_inside_a_fixed_point_count_is_not_a_burnside_term(monkeypatch):
    """The fixed-point counts of the symmetry step run exact covers whose count() answers Ctrl-C with a partial
    count; taken as a Burnside term, that would make a wrong orbit count or a false "symmetry handling is broken".
    A Ctrl-C there raises KeyboardInterrupt instead."""
    from solvers.exact_cover import ResumableSearch
    from solvers.interrupt import INTERRUPTED

    real = ResumableSearch._polled_step
    monkeypatch.setattr(ResumableSearch, "_polled_step",  # Ctrl-C after one node of every search
                        lambda self, allowed, buffer, limits: (real(self, 1, buffer, limits)[0], INTERRUPTED))
    shapes = (piece("L", "trominoes"), piece("2", "blokus"), piece("1", "blokus"))
    problem = ColoredTilingProblem(Region.rectangle(6, 2), 2, shapes)
    with pytest.raises(KeyboardInterrupt):
        problem.symmetry_counts(40)


@pytest.mark.parametrize("size,raw", [((4, 3), 32), ((6, 2), 40)])
def test_bitset_xcc_and_sat_enumeration_agree(size, raw):
    shapes = (piece("L", "trominoes"), piece("2", "blokus"), piece("1", "blokus"))
    problem = ColoredTilingProblem(Region.rectangle(*size), 2, shapes)
    sat = sum(1 for _ in problem.sat_enumerate())
    assert problem.count(depth=1, symmetry=False).raw == problem.count(depth=1, engine="xcc", symmetry=False).raw == sat == raw


def test_corner_contact_counts_agree():
    problem = small(corner=True, region=Region.rectangle(6, 4))
    bitset = problem.count(depth=1, symmetry=False).raw
    xcc = problem.count(depth=2, engine="xcc", symmetry=False).raw
    sat = sum(1 for _ in problem.sat_enumerate())
    assert bitset == xcc == sat == 24


def test_corner_contact_prefix_counts_do_not_depend_on_a_node_cap():
    problem = small(corner=True, region=Region.rectangle(6, 4))
    parts = problem.split(1)
    capped = [problem.count_prefix(prefix, "bitset", 10**9)[0] for prefix in parts]
    assert capped == [problem.count_prefix(prefix, "bitset")[0] for prefix in parts] and sum(capped) == 24


def test_xcc_and_bitset_agree_on_deep_subproblems_of_the_real_rectangle():
    from solvers.exact_cover import SearchLimits

    problem = ColoredTilingProblem(Region.rectangle(10, 8))
    solution = next(problem.xcc().compile().solutions(SearchLimits()))
    solution.sort(key=lambda o: min(problem.cell_index[c] for c in problem.options[o][1]))
    counts = []
    for depth in (12, 9, 8):  # the first placements of a known tiling, in search order
        prefix = tuple(solution[:depth])
        count = problem.count_prefix(prefix, "bitset")[0]
        assert count == problem.count_prefix(prefix, "xcc")[0]
        counts.append(count)
    assert counts[0] >= 1 and counts == sorted(counts)


def _canonical(problem: ColoredTilingProblem, pieces: list[ColoredPiece], colors_too: bool) -> tuple:
    forms = []
    for _, perm in problem.group():
        for sigma in itertools.permutations(range(problem.colors)) if colors_too else [tuple(range(problem.colors))]:
            forms.append(tuple(sorted((sigma[p.color], p.shape, tuple(sorted(perm[c] for c in p.cells))) for p in pieces)))
    return min(forms)


@pytest.mark.parametrize("size,raw", [((4, 3), 32), ((6, 2), 40)])
def test_symmetry_counts_match_brute_force_orbits(size, raw):
    shapes = (piece("L", "trominoes"), piece("2", "blokus"), piece("1", "blokus"))
    problem = ColoredTilingProblem(Region.rectangle(*size), 2, shapes)
    result = problem.count(depth=1)
    solutions = [problem.to_pieces(s) for s in problem.sat_enumerate()]
    assert result.raw == len(solutions) == raw
    assert result.symmetry == len({_canonical(problem, s, False) for s in solutions})
    assert result.symmetry_colors == len({_canonical(problem, s, True) for s in solutions})
    assert result.symmetry_colors < result.symmetry < result.raw


def test_parallel_split_and_resume_give_identical_totals(tmp_path):
    problem = small(region=Region.rectangle(6, 4))
    one = problem.count(depth=2, workers=1, symmetry=False)
    two = problem.count(depth=2, workers=2, symmetry=False)
    assert one.raw == two.raw == 7_584 and one.parts_total == two.parts_total
    checkpoint = tmp_path / "count.json"
    partial = problem.count(depth=2, checkpoint=checkpoint, time_limit=0.0, symmetry=False)
    assert not partial.complete and partial.parts_done < partial.parts_total
    header = checkpoint.read_text().splitlines()[0]  # the job's line; then five parts, as a run writes them
    job = json.loads(header)["job"]
    parts = list(one_part_counts(problem).items())[:5]
    checkpoint.write_text(header + "\n" + "".join(checkpoint_line(job, int(i), v) for i, v in parts))
    resumed = problem.count(depth=2, checkpoint=checkpoint, symmetry=False)
    assert resumed.complete and resumed.raw == 7_584


def one_part_counts(problem: ColoredTilingProblem) -> dict[str, list[int]]:
    return {str(i): list(problem.count_part(p, "canonical")) for i, p in enumerate(problem.canonical_search().split(2))}


def test_checkpoint_of_another_problem_is_refused(tmp_path):
    checkpoint = tmp_path / "c.json"
    small(region=Region.rectangle(6, 4)).count(depth=1, checkpoint=checkpoint, symmetry=False)
    with pytest.raises(ValueError):
        small().count(depth=1, checkpoint=checkpoint)


# -- finding one ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("backend", ["sat", "dlx"])
def test_find_the_tetromino_rectangle(backend):
    problem = ColoredTilingProblem(Region.rectangle(10, 8))
    pieces = problem.find(backend)
    assert len(pieces) == 20
    verify_colored_tiling(problem.region, pieces, 4, problem.shapes)  # raises if broken


def _grids(problem: ColoredTilingProblem, pieces: list[ColoredPiece]) -> tuple[list[str], list[str]]:
    """(shape letter, colour digit) of every cell, row by row."""
    shapes = [[" "] * problem.region.width for _ in range(problem.region.height)]
    colors = [[" "] * problem.region.width for _ in range(problem.region.height)]
    for p in pieces:
        for r, c in p.cells:
            shapes[r][c], colors[r][c] = p.shape, str(p.color)
    return ["".join(row) for row in shapes], ["".join(row) for row in colors]


def test_default_dlx_find_is_the_known_10x8_tiling():
    """The CLI's default find (dlx, 10x8, edge rule): the same tiling as ever, cell by cell and colour by colour."""
    problem = ColoredTilingProblem(Region.rectangle(10, 8))
    assert _grids(problem, problem.find("dlx")) == (
        ["IIIITTTTTT", "IIIITTSSTT", "OOITTSSSTT", "OOILTSSSST", "OOILSSSSSI", "OOILLSSLLI", "LLLLOOOOLI",
         "LLLLOOOOLI"],
        ["0000111333", "1111012232", "0020022122", "0021033112", "1121330013", "1121100223", "0003223323",
         "0333223323"],
    )


@pytest.mark.parametrize("problem", [
    ColoredTilingProblem(Region.rectangle(10, 8)),
    ColoredTilingProblem(Region.rectangle(8, 5), 2, edge_rule=False),
    ColoredTilingProblem(Region.rectangle(4, 5), 1, edge_rule=False),  # no tiling: the search is exhaustive
    small(),
    small(corner=True),
], ids=["10x8", "8x5-2-colours-no-edge", "4x5-none", "small", "small-corner"])
def test_dlx_find_is_the_first_cover_of_the_xcc_model(problem):
    """find("dlx") returns the first cover of the generic XCC search (default batches) that keeps the corner
    rule, so asking the kernel for one cover at a time changes no answer."""
    first = next((s for s in problem.xcc().solutions()
                  if not problem.corner_contact or problem.satisfies_corner_contact(s)), None)
    pieces = problem.find("dlx")
    assert (pieces is None) == (first is None)
    if first is not None:
        assert pieces == problem.to_pieces(first)


def test_verifier_rejects_same_color_edge_contact():
    problem = ColoredTilingProblem(Region.rectangle(10, 8))
    pieces = problem.find("dlx")
    # swap the colors of two pieces of different colors and equal shape: still a tiling, usually an illegal one
    broken = None
    for a, b in itertools.combinations(range(len(pieces)), 2):
        if pieces[a].shape == pieces[b].shape:
            trial = list(pieces)
            trial[a] = ColoredPiece(pieces[b].color, pieces[a].shape, pieces[a].cells)
            trial[b] = ColoredPiece(pieces[a].color, pieces[b].shape, pieces[b].cells)
            try:
                verify_colored_tiling(problem.region, trial, 4, problem.shapes)
            except ValueError as error:
                broken = str(error)
                break
    assert broken is not None and "edge" in broken


@pytest.mark.slow
def test_three_colors_cannot_tile_4x15():
    problem = ColoredTilingProblem(Region.rectangle(4, 15), colors=3)
    assert BitColorCounter(problem).count()[0] == 0  # exhaustive (about 24 M nodes)


def test_cli_tetrominoes_json_and_count(run_cli):
    result = run_cli("blokus", "solitaire", "tetrominoes", "--backend", "dlx", "--json")
    data = json.loads(result.output)
    assert result.exit_code == 0 and data["found"] and len(data["pieces"]) == 20
    assert {p["shape"] for p in data["pieces"]} == {"I", "O", "T", "L", "S"}
    result = run_cli("blokus", "solitaire", "tetrominoes", "--region", "8x5", "--colors", "2", "--no-edge-rule",
                     "--count", "--depth", "1", "--json")
    data = json.loads(result.output)
    assert data["count_raw"] == 99_392 and data["complete"]
    assert data["count_symmetry"] * 4 == 99_392  # no tiling of 8x5 by these 10 pieces is symmetric
    result = run_cli("blokus", "solitaire", "tetrominoes", "--region", "7x7")
    assert result.exit_code != 0 and "cells" in result.output


# -- all 84 pieces ----------------------------------------------------------------------------------------------


def test_all_pieces_symmetric_replays_and_round_trips(tmp_path):
    from puzzles.blokus.records import from_sgf, to_sgf
    from solvers.blokus.solitaire import solve_all_pieces

    result = solve_all_pieces(symmetric=True, perfect=True, time_limit=60, seed=4)  # ~0.2 s (seed 0: ~6 s)
    assert result.status == "found" and result.placed == 84
    state = result.state
    assert state.color_scores() == [20, 20, 20, 20]  # all 21 pieces each, monomino last
    again = from_sgf(to_sgf(state))
    assert [m.text for _, m in again.moves_played if not m.is_pass] == [cells for _, cells in result.moves]
    assert again.color_scores() == [20, 20, 20, 20]


@pytest.mark.slow  # a perfect general board takes 5-30 s; the symmetric one above is the default smoke
def test_all_pieces_general_is_not_symmetric_and_replays(run_cli, tmp_path):
    import json

    from puzzles.blokus.records import from_sgf
    from solvers.blokus.solitaire import board_tables, is_quarter_turn_symmetric

    out = tmp_path / "general.blksgf"
    result = run_cli("blokus", "solitaire", "all-pieces", "--perfect", "--seed", "1", "--time-limit", "120",
                     "--sgf", str(out), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["status"] == "found" and data["placed"] == 84 and len(data["moves"]) == 84
    assert data["quarter_turn_symmetric"] is False and data["rearranged"] >= 8
    assert data["scores"] == {"blue": 20, "yellow": 20, "red": 20, "green": 20}
    state = from_sgf(out.read_text())  # the SGF replays through the engine, every move re-checked
    assert [m.text for _, m in state.moves_played if not m.is_pass] == [m["cells"] for m in data["moves"]]
    assert state.color_scores() == [20, 20, 20, 20]
    t = board_tables()
    final = [(c, t.placement_of(m.cells)) for c, m in state.moves_played if not m.is_pass]
    assert not is_quarter_turn_symmetric(final)


def test_window_completion_places_every_freed_piece_connected():
    import random
    import time

    from solvers.blokus.solitaire import (
        _complete,
        _ordered,
        _Search,
        board_tables,
        expand_symmetric,
        is_quarter_turn_symmetric,
        replay,
        verify_solution,
    )

    search = _Search(seed=1, breadth=3, restart_nodes=4000)
    path, *_ = search.run(time.perf_counter() + 60, None)
    full = expand_symmetric(path)
    assert is_quarter_turn_symmetric(full)
    t = board_tables()
    rng = random.Random(0)
    while True:  # a 5x5 window that frees (with the pieces cut off from their corner) 4 to 16 pieces
        r0, c0 = rng.randrange(2, 18), rng.randrange(2, 18)
        window = {t.flat(r, c) for r in range(r0 - 2, r0 + 3) for c in range(c0 - 2, c0 + 3)}
        kept = _ordered([(k, m) for k, m in full if not window & set(t.pl_cells[m, : t.pl_size[m]].tolist())])
        kept_set = set(kept)
        freed = [km for km in full if km not in kept_set]
        if 4 <= len(freed) <= 16:
            break
    again = _complete(kept, 30, 1, rng.randrange(1000), hint=freed, avoid=freed)
    assert again is not None and sorted(again) != sorted(freed)
    assert {(k, t.pl_piece[m]) for k, m in again} == {(k, t.pl_piece[m]) for k, m in freed}
    placements = _ordered(kept + again)
    assert len(placements) == 84  # nothing lost its connection to the corner
    state = replay(placements, False)
    verify_solution(state)
    assert state.color_scores() == [20, 20, 20, 20]


def test_corner_contact_10x8_has_a_solution():
    """The published variant (every piece also touches its own color at a corner) is solvable on 10x8:
    a tiling found by `kibitz blokus solitaire tetrominoes --corner-contact --backend sat` (26 min),
    checked here by the independent verifier, and refused by it once the corner rule is broken."""
    import json
    from pathlib import Path

    from puzzles.polyomino import Region, piece_set
    from solvers.blokus.tetrominoes import ColoredPiece, verify_colored_tiling

    data = json.loads((Path(__file__).parent / "data" / "tetrominoes_10x8_corner_contact.json").read_text())
    pieces = [ColoredPiece(p["color"], p["shape"], tuple(map(tuple, p["cells"]))) for p in data["pieces"]]
    region = Region.rectangle(10, 8)
    verify_colored_tiling(region, pieces, 4, piece_set("tetrominoes"), edge_rule=True, corner_contact=True)
    # swapping the colors of two same-shape pieces keeps the tiling but breaks a rule
    a, b = next((p, q) for p in pieces for q in pieces if p.shape == q.shape and p.color == 0 and q.color == 1)
    swapped = [ColoredPiece(1, a.shape, a.cells) if p is a else ColoredPiece(0, b.shape, b.cells) if p is b else p
               for p in pieces]
    with pytest.raises(ValueError):
        verify_colored_tiling(region, swapped, 4, piece_set("tetrominoes"), edge_rule=True, corner_contact=True)
