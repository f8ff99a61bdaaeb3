"""The canonical tetromino search (solvers/blokus/tetromino_search.py): counts in three units against
independent methods (all-colourings bitboard kernel with XCC Burnside, SAT enumeration with brute-force
orbits), the corner rule, finding, the estimator's units."""

from __future__ import annotations

import itertools
import json

import pytest

from puzzles.polyomino import Region, piece, piece_set
from solvers.blokus.tetromino_search import PROBE_CHUNK, estimate_canonical, timed_count
from solvers.blokus.tetrominoes import ColoredTilingProblem, verify_colored_tiling
from solvers.parallel import record_sum

SMALL = (piece("I", "trominoes"), piece("L", "trominoes"), piece("2", "blokus"))
TINY = (piece("L", "trominoes"), piece("2", "blokus"), piece("1", "blokus"))


def brute_force(problem: ColoredTilingProblem) -> tuple[int, int, int]:
    """(raw, orbits under the region's symmetries, orbits under symmetries x colours) by SAT enumeration."""
    solutions = [problem.to_pieces(s) for s in problem.sat_enumerate()]

    def canonical(pieces, colours: bool) -> tuple:
        forms = []
        for _, perm in problem.group():
            for sigma in itertools.permutations(range(problem.colors)) if colours else [tuple(range(problem.colors))]:
                forms.append(tuple(sorted((sigma[p.color], p.shape, tuple(sorted(perm[c] for c in p.cells)))
                                          for p in pieces)))
        return min(forms)

    return (len(solutions), len({canonical(s, False) for s in solutions}), len({canonical(s, True) for s in solutions}))


@pytest.mark.parametrize("region,colors,shapes,corner", [
    (Region.rectangle(4, 3), 2, TINY, False),
    (Region.rectangle(4, 3), 2, TINY, True),
    (Region.rectangle(6, 4), 3, SMALL, True),
    (Region.rectangle(3, 3).without([(1, 1)]), 2, (piece("L", "trominoes"), piece("1", "blokus")), False),
    (Region.rectangle(4, 4), 2, (piece("L", "trominoes"), piece("2", "blokus"), piece("I", "trominoes")), True),
])
def test_canonical_counts_equal_brute_force_orbits(region, colors, shapes, corner):
    problem = ColoredTilingProblem(region, colors, shapes, corner_contact=corner)
    (raw, sym, sym_col), _, _ = timed_count(problem)
    assert (raw, sym, sym_col) == brute_force(problem)
    old = problem.count(depth=1, engine="bitset")  # every colouring, Burnside by XCC fixed points
    assert (old.raw, old.symmetry, old.symmetry_colors) == (raw, sym, sym_col)


@pytest.mark.parametrize("size,expected", [((8, 5), (99_392, 24_848, 12_528)), ((10, 4), (57_472, 14_368, 7_184))])
def test_two_coloured_sets_three_units(size, expected):
    problem = ColoredTilingProblem(Region.rectangle(*size), colors=2, edge_rule=False)
    counts, totals, _ = timed_count(problem)
    assert counts == expected and totals.canonical * 2 == expected[0]


def test_split_parts_add_up_and_resume(tmp_path):
    problem = ColoredTilingProblem(Region.rectangle(6, 4), 3, SMALL, corner_contact=True)
    whole = timed_count(problem)[0]
    checkpoint = tmp_path / "c.json"
    for depth in (1, 2, 3):
        result = problem.count(depth=depth, checkpoint=checkpoint if depth == 3 else None)
        assert (result.raw, result.symmetry, result.symmetry_colors) == whole and result.complete
    lines = checkpoint.read_text().splitlines()
    assert len(lines) - 1 == result.parts_total  # the job's line, then one line per part
    again = problem.count(depth=3, checkpoint=checkpoint)  # everything already done: nothing recounted
    assert (again.raw, again.symmetry) == whole[:2] and again.nodes == result.nodes
    record = json.loads(lines[1])
    record["result"] = [1, 2]
    record["sum"] = record_sum(record)  # forged: the checksum fits, the record does not
    checkpoint.write_text("\n".join([lines[0], json.dumps(record), *lines[2:]]) + "\n")
    with pytest.raises(ValueError, match="malformed"):
        problem.count(depth=3, checkpoint=checkpoint)


def test_corner_contact_10x8_find_is_verified():
    problem = ColoredTilingProblem(Region.rectangle(10, 8), corner_contact=True)
    pieces = problem.find("bitset", time_limit=30)
    assert pieces is not None and len(pieces) == 20
    verify_colored_tiling(problem.region, pieces, 4, piece_set("tetrominoes"), edge_rule=True, corner_contact=True)


def test_bitset_find_proves_no_tiling():
    problem = ColoredTilingProblem(Region.rectangle(4, 5), 1)
    assert problem.find("bitset") is None  # exhaustive: no tiling of 4x5 by I O T L S


def test_estimator_units_match_exact_counts():
    problem = ColoredTilingProblem(Region.rectangle(6, 4), 3, SMALL, corner_contact=True)
    raw, sym, sym_col = timed_count(problem)[0]
    exact = estimate_canonical(problem, probes=2, exact_depth=0)  # depth 0: every path is the whole tree
    assert (exact["raw"], exact["canonical"], exact["symmetry"], exact["symmetry_colors"]) == (raw, raw / 6, sym, sym_col)
    assert exact["raw_stderr"] == 0
    sampled = estimate_canonical(problem, probes=4000, exact_depth=2, seed=1)
    for unit, value in (("raw", raw), ("symmetry", sym), ("symmetry_colors", sym_col), ("canonical", raw / 6)):
        assert abs(sampled[unit] - value) <= 5 * sampled[unit + "_stderr"] + 1e-9, unit


def test_estimator_units_on_two_coloured_sets():
    problem = ColoredTilingProblem(Region.rectangle(10, 4), colors=2, edge_rule=False)
    sampled = estimate_canonical(problem, probes=20000, exact_depth=3, seed=0)
    for unit, value in (("raw", 57_472), ("canonical", 28_736), ("symmetry", 14_368), ("symmetry_colors", 7_184)):
        assert abs(sampled[unit] - value) <= 5 * sampled[unit + "_stderr"], unit


def test_ctrl_c_between_two_chunks_of_paths_keeps_the_paths_done():
    """A Ctrl-C that lands outside the kernel's wait (here: in the progress call after the first chunk) stops the
    estimate with the paths of the chunks folded so far, as one inside a chunk does; it is not lost."""
    problem = ColoredTilingProblem(Region.rectangle(6, 4), 3, SMALL, corner_contact=True)
    calls: list[int] = []

    def ctrl_c_after_the_first_chunk(done: int, asked: int) -> None:
        calls.append(done)
        raise KeyboardInterrupt

    partial = estimate_canonical(problem, probes=3 * PROBE_CHUNK, exact_depth=2, seed=1,
                                 progress=ctrl_c_after_the_first_chunk)
    assert calls == [PROBE_CHUNK]
    assert partial["probes"] == PROBE_CHUNK and partial["interrupted"] is True
    assert partial["status"] == "estimate (interrupted: fewer paths)"
    whole_first_chunk = estimate_canonical(problem, probes=PROBE_CHUNK, exact_depth=2, seed=1)
    assert partial["canonical"] == whole_first_chunk["canonical"]  # the same paths, folded whole


def test_cli_statuses(run_cli, tmp_path):
    result = run_cli("blokus", "solitaire", "tetrominoes", "--region", "4x5", "--colors", "1", "--backend", "bitset")
    assert result.exit_code == 0 and "no tiling exists (proved" in result.output
    result = run_cli("blokus", "solitaire", "tetrominoes", "--region", "4x5", "--colors", "1", "--backend", "bitset", "--json")
    assert json.loads(result.output)["status"] == "proved: no tiling"
    result = run_cli("blokus", "solitaire", "tetrominoes", "--region", "10x4", "--colors", "2", "--count", "--json")
    data = json.loads(result.output)
    old = ColoredTilingProblem(Region.rectangle(10, 4), 2).count(engine="bitset")
    assert data["complete"] and (data["count_raw"], data["count_symmetry"], data["count_symmetry_colors"]) == (
        old.raw, old.symmetry, old.symmetry_colors)
    result = run_cli("blokus", "solitaire", "tetrominoes", "--svg", str(tmp_path / "no" / "x.svg"))
    assert result.exit_code != 0 and "does not exist" in result.output
    result = run_cli("blokus", "solitaire", "tetrominoes", "--region", "10x4", "--colors", "2", "--no-edge-rule",
                     "--estimate", "200", "--json")
    data = json.loads(result.output)
    assert data["status"] == "estimate" and set(data["units"]) == {"canonical", "raw", "symmetry", "symmetry_colors"}


@pytest.mark.slow
def test_corner_contact_10x8_full_count():
    problem = ColoredTilingProblem(Region.rectangle(10, 8), corner_contact=True)
    assert timed_count(problem)[0] == (3_120, 780, 35)


@pytest.mark.slow
def test_corner_contact_9x9_minus_centre_full_count():
    problem = ColoredTilingProblem(Region.rectangle(9, 9).without([(4, 4)]), corner_contact=True)
    assert timed_count(problem)[0] == (576, 72, 3)


def test_all_pieces_refuses_an_unwritable_sgf_before_searching(run_cli):
    import time

    start = time.perf_counter()
    result = run_cli("blokus", "solitaire", "all-pieces", "--sgf", "/no/dir/x", "--time-limit", "60")
    assert result.exit_code == 2 and "does not exist" in result.output
    assert time.perf_counter() - start < 20  # refused at once, not after a 60 s search


def test_checkpoint_writes_do_not_slow_deep_splits(tmp_path):
    problem = ColoredTilingProblem(Region.rectangle(6, 4), 3, SMALL)
    checkpoint = tmp_path / "c.json"
    with_file = problem.count(depth=4, checkpoint=checkpoint)
    without = problem.count(depth=4)
    assert with_file.parts_total > 500 and (with_file.raw, with_file.symmetry) == (without.raw, without.symmetry)
    assert len(checkpoint.read_text().splitlines()) - 1 == with_file.parts_total
