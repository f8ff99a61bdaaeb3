"""The frontier DP (solvers/blokus/tetromino_dp.py): equal to the split method and the direct search.

Whole counts on the small instances both others finish (all units), the generated irregular seed-rule regions,
random small regions with other piece sets, and part by part: the DP started from a split part's coloured
prefixes gives that part's colourings."""

from __future__ import annotations

import json
import math
import random

import pytest
from click.testing import CliRunner

from cli import main
from puzzles.polyomino import Region, piece
from solvers.blokus.tetromino_dp import TetrominoDP, dp_count, prefix_starts
from solvers.blokus.tetromino_split import SplitSearch, timed_split_count
from solvers.blokus.tetrominoes import ColoredTilingProblem
from tests.test_tetromino_split import COUNT_DEPTH, IRREGULAR, IRREGULAR_CASES, RESULTS


@pytest.mark.parametrize("size,expected", [((8, 5), (99_392, 24_848, 12_528)), ((10, 4), (57_472, 14_368, 7_184))])
def test_two_coloured_sets_no_edge_rule_all_units(size, expected):
    problem = ColoredTilingProblem(Region.rectangle(*size), colors=2, edge_rule=False)
    result = dp_count(problem)
    assert (result.raw, result.symmetry, result.symmetry_colors) == expected
    assert result.modulo_colors == expected[0] // 2 and result.complete and result.states > 0


@pytest.mark.parametrize("size,tilings", [((8, 5), 3_106), ((10, 4), 1_796)])
def test_shape_tilings(size, tilings):
    problem = ColoredTilingProblem(Region.rectangle(*size), colors=2, edge_rule=False)
    assert TetrominoDP(problem, shapes_only=True).run().raw == tilings


@pytest.mark.parametrize("art,colors,raw", IRREGULAR_CASES)
def test_irregular_regions_seed_rule(art, colors, raw):
    problem = ColoredTilingProblem(Region.from_spec(art), colors)
    result = dp_count(problem)
    split, totals, _ = timed_split_count(problem)
    assert (result.raw, result.symmetry, result.symmetry_colors) == split
    assert result.raw == raw and result.modulo_colors == raw // math.factorial(colors)
    assert TetrominoDP(problem, shapes_only=True).run().raw == totals.tilings


SMALL = (piece("I", "trominoes"), piece("L", "trominoes"), piece("2", "blokus"))
TINY = (piece("L", "trominoes"), piece("2", "blokus"), piece("1", "blokus"))


@pytest.mark.parametrize("region,colors,shapes,edge", [
    (Region.rectangle(4, 3), 2, TINY, True),
    (Region.rectangle(6, 4), 3, SMALL, True),
    (Region.rectangle(6, 4), 3, SMALL, False),
    (Region.rectangle(3, 3).without([(1, 1)]), 2, (piece("L", "trominoes"), piece("1", "blokus")), True),
    (Region.rectangle(4, 4), 2, (piece("L", "trominoes"), piece("2", "blokus"), piece("I", "trominoes")), True),
])
def test_other_piece_sets_equal_split(region, colors, shapes, edge):
    """Symmetric regions (the Burnside units) and mixed piece areas (the window set by the longest piece)."""
    problem = ColoredTilingProblem(region, colors, shapes, edge_rule=edge)
    result = dp_count(problem)
    assert (result.raw, result.symmetry, result.symmetry_colors) == timed_split_count(problem)[0]


def random_region(rng: random.Random, area: int, box: int) -> Region:
    """A random connected region of ``area`` cells grown inside a ``box``×``box`` square."""
    cells = {(rng.randrange(box), rng.randrange(box))}
    while len(cells) < area:
        r, c = rng.choice(sorted(cells))
        dr, dc = rng.choice(((0, 1), (1, 0), (0, -1), (-1, 0)))
        if 0 <= r + dr < box and 0 <= c + dc < box:
            cells.add((r + dr, c + dc))
    rows = ["".join("#" if (r, c) in cells else "." for c in range(box)) for r in range(box)]
    return Region.from_spec("/".join(rows))


def test_random_small_regions_equal_split():
    """Random regions (tetrominoes in 2 colours; trominoes and dominoes in 3): raw and orbit counts, with a few
    non-zero ones among them."""
    rng = random.Random(7)
    nonzero = 0
    for colors, shapes, area, box in [(2, None, 40, 8)] * 6 + [(3, SMALL, 24, 6)] * 6:
        problem = ColoredTilingProblem(random_region(rng, area, box), colors, shapes)
        result = dp_count(problem)
        assert (result.raw, result.symmetry, result.symmetry_colors) == timed_split_count(problem)[0]
        nonzero += result.raw > 0
    assert nonzero >= 3


def test_split_parts_from_their_coloured_prefixes():
    """The DP started from every colouring of a split part's shape placements counts that part: raw = the
    part's colourings modulo colours × colours!, for every part of a depth-3 split of a seed-rule region."""
    art, colors, raw = IRREGULAR[0]
    problem = ColoredTilingProblem(Region.from_spec(art), colors)
    split = SplitSearch(problem)  # unreduced: a part is exactly its own tilings
    dp = TetrominoDP(problem)
    total = 0
    for prefix in split.split(3):
        record = split.count(prefix).record()
        part_raw = dp.run(prefix_starts(problem, dp, [split.geo[t] for t in prefix])).raw
        assert part_raw == record[0] * math.factorial(colors)
        total += part_raw
    assert total == raw


def test_cli_dp_method_and_auto_choice():
    runner = CliRunner()
    base = ["blokus", "solitaire", "tetrominoes", "--region", "10x4", "--colors", "2", "--no-edge-rule", "--count"]
    data = json.loads(runner.invoke(main, base + ["--method", "dp", "--json"]).stdout)
    assert (data["count_raw"], data["count_modulo_colors"], data["count_symmetry"], data["count_symmetry_colors"],
            data["status"], data["method"]) == (57_472, 28_736, 14_368, 7_184, "proved", "dp")
    assert data["states"] > 0
    art = IRREGULAR[0][0]
    text = runner.invoke(main, ["blokus", "solitaire", "tetrominoes", "--region", art, "--colors", "3", "--count"]).stdout
    assert "frontier DP" not in text  # a short side of 9: auto keeps the split method
    one = runner.invoke(main, base[:3] + ["--region", "10x2", "--colors", "1", "--count"])  # auto: dp (edge rule)
    assert "status: proved (exhaustive count, frontier DP)" in one.stdout and "raw tilings: 0" in one.stdout
    from commands.blokus import _dp_suits

    assert _dp_suits(ColoredTilingProblem(Region.rectangle(20, 4)))  # 101 CPU-s by the DP
    assert not _dp_suits(ColoredTilingProblem(Region.rectangle(16, 5)))  # out of the DP's memory budget
    assert not _dp_suits(ColoredTilingProblem(Region.rectangle(20, 4), edge_rule=False))  # split: closed formula


@pytest.mark.slow
def test_twenty_by_four_seed_rule_count():
    """The 20x4 seed-rule count recorded in bench/results/tetromino_dp.md (~100 CPU-s, ~1 GiB); the part check
    against the split method is in bench/tetromino_dp.py --check-parts."""
    result = dp_count(ColoredTilingProblem(Region.rectangle(20, 4)))
    assert (result.raw, result.modulo_colors, result.symmetry, result.symmetry_colors) == (
        727_312_929_888, 30_304_705_412, 181_828_232_472, 7_576_273_592)
    assert result.states == 52_824_442


def test_twenty_by_four_parts_equal_split():
    """Cheap smoke version of the 20x4 count: two split parts (depth 8) counted by both methods."""
    problem = ColoredTilingProblem(Region.rectangle(20, 4))
    split = SplitSearch(problem)  # unreduced: a part is exactly its own tilings
    dp = TetrominoDP(problem)
    rng = random.Random(2)
    for _ in range(2):
        prefix = split.random_prefix(8, rng)
        assert prefix is not None
        record = split.count(prefix).record()
        raw = dp.run(prefix_starts(problem, dp, [split.geo[t] for t in prefix])).raw
        assert raw == record[0] * 24 and record[3] >= 1


def test_ten_by_eight_shape_tiling_parts_equal_split():
    """Cheap smoke version of the 10x8 shape-tiling count: random split parts (depth 9), both methods."""
    problem = ColoredTilingProblem(Region.rectangle(10, 8))
    split = SplitSearch(problem)  # unreduced: a part is exactly its own tilings
    dp = TetrominoDP(problem, shapes_only=True)
    rng = random.Random(4)
    for _ in range(2):
        prefix = split.random_prefix(9, rng)
        assert prefix is not None
        state = dp.start_state([(0, s, cells) for s, cells in (split.geo[t] for t in prefix)])
        assert state is not None
        assert dp.run([(state[0], state[1], 1)]).raw == split.count(prefix).tilings >= 1


@pytest.mark.slow
def test_ten_by_eight_shape_tilings_and_committed_parts():
    """The 10x8 shape-tiling count (~50 CPU-s) and a sample of the committed split parts' shape-tiling subtotals
    (bench/results/tetromino_split_count_v1.jsonl), recounted by the DP (all 310 agree: bench/tetromino_dp.py
    --committed-shapes)."""
    problem = ColoredTilingProblem(Region.rectangle(10, 8))
    dp = TetrominoDP(problem, shapes_only=True)
    assert dp.run().raw == 6_818_063_454
    split = SplitSearch(problem)  # unreduced: a part is exactly its own tilings
    parts = split.split(COUNT_DEPTH)
    records = [json.loads(line) for line in RESULTS.read_text().splitlines()[1:]]
    for record in random.Random().sample(records, 4):
        state = dp.start_state([(0, s, cells) for s, cells in (split.geo[t] for t in parts[record["task"]])])
        assert state is not None
        assert dp.run([(state[0], state[1], 1)]).raw == record["result"][3]
