"""The split method (solvers/blokus/tetromino_split.py): shape tilings, then each one's colour classes.

Checked against the direct coloured search (solvers/blokus/tetromino_search.py) on whole instances where both
finish, and part by part (the same shape placements, every canonical colouring of them) where only parts do."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from cli import main
from puzzles.polyomino import Region, piece
from solvers.blokus.tetromino_search import timed_count
from solvers.blokus.tetromino_split import (
    COLOURED,
    CUT_ADJACENT,
    CUT_COLOUR,
    CUT_OFF,
    CUT_PARTIAL,
    SplitSearch,
    _colour_scratch,
    _colourings,
    _colourings_by_permutations,
    _permutation_scratch,
    timed_split_count,
)
from solvers.blokus.tetrominoes import ColoredTilingProblem

RESULTS = Path(__file__).resolve().parent.parent / "bench" / "results" / "tetromino_split_count_v1.jsonl"
COUNT = RESULTS.with_name("tetromino_split_count.jsonl")  # the count with the reduced, guided search
COUNT_DEPTH = 5  # the split depth of the committed 10x8 seed-rule count

# regions grown piece by piece under the edge rule (bench/tetromino_split.py --regions), so each has a tiling
IRREGULAR = [  # (ASCII art, colours, raw tilings)
    (".###...#./.####.###/#.#####../#########/#########/.###.##.#/#.#.#####/#######.#/#.##....#", 3, 408),
    (".###.###./.###.####/.#######./##.######/##.######/#.#######/######.##/.###.#.../.##..##..", 3, 186),
    (".##.###..#./.#.####.##./.###.######/.#.#.#..###/##..###.###/##.#.####../########.##/###.#######/"
     "#.##...##../###....###./#...####.#.", 4, 46_464),
]
#: The same, the 4-colour region (about 9 CPU-s for the direct search, as much for the DP) in the slow suite only:
#: the default suite checks 4 colours on the 10x8 parts (test_seed_rule_parts_equal_direct).
IRREGULAR_CASES = [*IRREGULAR[:2], pytest.param(*IRREGULAR[2], marks=pytest.mark.slow)]


def direct_over_shape_prefix(problem: ColoredTilingProblem, prefix: tuple[int, ...]) -> tuple[int, int, int]:
    """(colourings modulo colours, fix_any, fix_id) of the tilings extending the shape placements ``prefix``,
    by the direct search: every canonical colouring of the prefix (first colour 0, a new colour the lowest
    unused), each counted as a part of the canonical search."""
    search = problem.canonical_search()
    assert search.geo == problem.split_search().geo  # same placement numbering
    total = [0, 0, 0]

    def colour(i: int, ks: list[int], used: int) -> None:
        if i == len(prefix):
            c = search.count(list(zip(prefix, ks, strict=True)))
            total[0] += c.canonical
            total[1] += c.fix_any
            total[2] += c.fix_id
            return
        for k in range(min(used + 1, problem.colors)):
            colour(i + 1, ks + [k], max(used, k + 1))

    colour(0, [], 0)
    return total[0], total[1], total[2]


@pytest.mark.parametrize("size,expected,shape_tilings", [
    ((8, 5), (99_392, 24_848, 12_528), 3_106),
    ((10, 4), (57_472, 14_368, 7_184), 1_796),
])
def test_two_coloured_sets_no_edge_rule_equal_direct(size, expected, shape_tilings):
    problem = ColoredTilingProblem(Region.rectangle(*size), colors=2, edge_rule=False)
    counts, totals, _ = timed_split_count(problem)
    assert counts == expected and totals.tilings == shape_tilings
    assert timed_count(problem)[0] == expected
    pockets, sums, _ = timed_split_count(problem, hole_limit=6)  # the pocket cut is sound: same counts
    assert pockets == expected and sums.tilings == shape_tilings and sums.nodes < totals.nodes


SMALL = (piece("I", "trominoes"), piece("L", "trominoes"), piece("2", "blokus"))
TINY = (piece("L", "trominoes"), piece("2", "blokus"), piece("1", "blokus"))


@pytest.mark.parametrize("region,colors,shapes,corner", [  # the direct search's brute-force-checked cases
    (Region.rectangle(4, 3), 2, TINY, False),
    (Region.rectangle(4, 3), 2, TINY, True),
    (Region.rectangle(6, 4), 3, SMALL, True),
    (Region.rectangle(6, 4), 3, SMALL, False),
    (Region.rectangle(3, 3).without([(1, 1)]), 2, (piece("L", "trominoes"), piece("1", "blokus")), False),
    (Region.rectangle(4, 4), 2, (piece("L", "trominoes"), piece("2", "blokus"), piece("I", "trominoes")), True),
])
def test_other_piece_sets_three_units_equal_direct(region, colors, shapes, corner):
    """Symmetric regions with the edge (and corner) rule: the Burnside sums of symmetric shape tilings."""
    problem = ColoredTilingProblem(region, colors, shapes, corner_contact=corner)
    counts, totals, _ = timed_split_count(problem)
    direct, canonical, _ = timed_count(problem)
    assert counts == direct and (totals.fix_any, totals.fix_id) == (canonical.fix_any, canonical.fix_id)


@pytest.mark.parametrize("art,colors,raw", IRREGULAR_CASES)
def test_irregular_regions_seed_rule_equal_direct(art, colors, raw):
    problem = ColoredTilingProblem(Region.from_spec(art), colors)
    (split_raw, split_sym, split_col), totals, _ = timed_split_count(problem)
    (direct_raw, direct_sym, direct_col), direct, _ = timed_count(problem)
    assert split_raw == direct_raw == raw
    assert (direct_sym, direct_col) == (split_sym, split_col)  # a region without symmetry: the identity's orbits
    assert totals.colourings == direct.canonical
    assert split_col == totals.colourings  # no symmetry: orbits under colours only


def found_tiling_prefix(problem: ColoredTilingProblem, depth: int) -> tuple[int, ...]:
    """The first ``depth`` shape placements (first-empty-cell order) of the tiling the direct search finds: a
    part with at least one colouring under the problem's rules."""
    split = problem.split_search()
    number = {(problem.shapes[s].name, cells): t for t, (s, cells) in enumerate(split.geo)}
    pieces = problem.find("bitset")
    assert pieces is not None
    placed = sorted(pieces, key=lambda p: min(problem.cell_index[c] for c in p.cells))
    return tuple(number[(p.shape, tuple(sorted(p.cells)))] for p in placed[:depth])


@pytest.mark.parametrize("region", [Region.rectangle(10, 8), Region.rectangle(9, 9).without([(4, 4)])])
def test_corner_contact_parts_equal_direct(region):
    problem = ColoredTilingProblem(region, corner_contact=True)
    split = SplitSearch(problem)  # no symmetry reduction: a part is exactly the direct search's part
    found = found_tiling_prefix(problem, 9)
    record = split.count(found).record()
    assert record[0] >= 1 and record[:3] == direct_over_shape_prefix(problem, found)
    other = split.random_prefix(9, random.Random(1))  # a random shape tiling's part: almost always no colouring
    assert other is not None and split.count(other).record()[:3] == direct_over_shape_prefix(problem, other)


def test_corner_contact_9x9_centre_shallow_part_through_split_equals_direct():
    """A part of only 4 placements of 9x9 minus the centre under the corner rule (the found tiling's): cheap
    through the split method only with the partial-colouring cut (389,146 nodes; the whole count is a slow
    test)."""
    problem = ColoredTilingProblem(Region.rectangle(9, 9).without([(4, 4)]), corner_contact=True)
    split = SplitSearch(problem)
    assert split.colour_cut == CUT_PARTIAL
    found = (0, 14, 89, 161)  # found_tiling_prefix(problem, 4), fixed (finding the tiling takes seconds)
    record = split.count(found).record()
    assert record[:3] == direct_over_shape_prefix(problem, found) == (1, 1, 1)


@pytest.mark.slow  # ~5 s; by default the seed rule's split and direct counts meet on small regions
@pytest.mark.parametrize("draw", [1, 2])  # (test_irregular_regions_seed_rule_equal_direct)
def test_seed_rule_parts_equal_direct(draw: int):
    """The ``draw``-th random part of the seed-rule 10x8 (each direct count takes ~3 s)."""
    problem = ColoredTilingProblem(Region.rectangle(10, 8))
    split = SplitSearch(problem)  # no symmetry reduction: a part is exactly the direct search's part
    rng = random.Random(3)
    prefixes = [split.random_prefix(11, rng) for _ in range(draw)]  # from random shape tilings: at least one each
    prefix = prefixes[-1]
    assert prefix is not None
    record = split.count(prefix).record()
    assert record[3] >= 1 and record[:3] == direct_over_shape_prefix(problem, prefix)


def _touching(search: SplitSearch, tiling: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(by_shape, adjacency by piece index, adjacency by (shape, copy) index 4s + j) of a complete shape tiling."""
    cells = [set(search.g_cells[t, :search.g_size[t]].tolist()) for t in tiling]
    near = [set(search.nbr_cells[t, :search.nbr_count[t]].tolist()) for t in tiling]
    by_shape = np.zeros((len(search.problem.shapes), search.problem.colors), np.int64)
    index, fill = [], [0] * by_shape.shape[0]
    for p, t in enumerate(tiling):
        s = int(search.g_shape[t])
        by_shape[s, fill[s]] = p
        index.append(s * by_shape.shape[1] + fill[s])
        fill[s] += 1
    adj = np.zeros(len(tiling), np.uint64)
    adj_k = np.zeros(len(tiling), np.uint64)
    for p in range(len(tiling)):
        for q in range(len(tiling)):
            if q != p and near[p] & cells[q]:
                adj[p] |= np.uint64(1 << q)
                adj_k[p] |= np.uint64(1 << index[q])
    return by_shape, adj, adj_k


def test_permutation_count_of_colourings_equals_the_transversals():
    """The seed rule's leaves count their colourings as permutation tuples; on 60 random 10x8 shape tilings that
    count equals the transversals' exact cover (the method the small instances check against the direct search)."""
    search = SplitSearch(ColoredTilingProblem(Region.rectangle(10, 8)), guide=False)
    rng = random.Random(11)
    n_shapes, copies = len(search.problem.shapes), search.problem.colors
    counts: list[int] = []
    for _ in range(300):
        if len(counts) == 60:
            break
        tiling = search.random_prefix(n_shapes * copies, rng, max_nodes=2_000)  # None: none within 2,000 nodes
        if tiling is None:
            continue
        by_shape, adj, adj_k = _touching(search, tiling)
        ws_u, ws_i, trans = _colour_scratch(n_shapes, copies)
        out3 = np.zeros(3, np.int64)
        no_fix = np.zeros((1, len(tiling)), np.int64)
        _colourings(len(tiling), n_shapes, copies, by_shape, adj, np.zeros_like(adj), True, False, no_fix, 0, out3,
                    ws_u, ws_i, trans)
        by_permutations = _colourings_by_permutations(n_shapes, by_shape, adj_k,
                                                      *_permutation_scratch(ws_u, ws_i, n_shapes))
        assert by_permutations == out3[0], tiling
        counts.append(int(out3[0]))
    assert len(counts) == 60 and sum(c > 0 for c in counts) >= 20 and max(counts) >= 10  # not a sample of zeros


CUTS = (CUT_OFF, CUT_ADJACENT, CUT_PARTIAL)


@pytest.mark.parametrize("region,colors,shapes,corner,edge,raw,tilings", [
    (Region.rectangle(6, 4), 3, SMALL, False, True, 7_584, 10_176),  # orbits with 3 of 4 corners tied
    (Region.rectangle(6, 4), 3, SMALL, True, True, 24, 10_176),
    (Region.rectangle(4, 3), 2, TINY, True, True, 28, 378),
    (Region.rectangle(4, 4), 2, (piece("L", "trominoes"), piece("2", "blokus"), piece("I", "trominoes")), True,
     False, 152, 216),  # |G| = 8, anchors off the diagonals; the corner rule without the edge rule
    (Region.rectangle(8, 5), 2, None, False, False, 99_392, 3_106),
])
def test_colour_cuts_and_symmetry_reduction_keep_the_counts(region, colors, shapes, corner, edge, raw, tilings):
    """Every colour cut, with and without the symmetry reduction, gives the same orbit counts and the same
    number of shape tilings with a colouring; without a colour cut the reduced search's weighted shape
    tilings are all of them."""
    problem = ColoredTilingProblem(region, colors, shapes, corner_contact=corner, edge_rule=edge)
    seen = set()
    for cut in CUTS:
        for reduce in (False, True):
            search = SplitSearch(problem, colour_cut=cut, reduce=reduce)
            stats = search.stats()
            counts = search.orbit_counts(search.count())
            seen.add((counts, int(stats[COLOURED])))
            assert counts[0] == raw
            if search.colour_cut == CUT_OFF:
                assert int(stats[3]) == tilings
            assert reduce == (len(search.anchors) == len(problem.group()))
    assert len(seen) == 1


@pytest.mark.parametrize("corner", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_colour_cuts_keep_random_10x8_parts(corner):
    """On random 10x8 parts (from random shape tilings, some with colourings, most without), every colour cut
    gives the plain search's record; the partial-colouring cut cuts."""
    problem = ColoredTilingProblem(Region.rectangle(10, 8), corner_contact=corner)
    plain = SplitSearch(problem, colour_cut=CUT_OFF)
    rng = random.Random(11)
    prefixes = [plain.random_prefix(10, rng)]
    if corner:
        prefixes.append(found_tiling_prefix(problem, 10))  # a part with colourings under the corner rule
    cut = 0
    for prefix in prefixes:
        assert prefix is not None
        expected = plain.stats(prefix)
        for mode in (CUT_ADJACENT, CUT_PARTIAL):
            stats = SplitSearch(problem, colour_cut=mode).stats(prefix)
            assert stats[:3].tolist() == expected[:3].tolist() and stats[COLOURED] == expected[COLOURED]
            cut += int(stats[CUT_COLOUR]) if mode == CUT_PARTIAL else 0
    assert cut > 0


def test_knuth_estimate_of_the_split_tree_meets_the_exact_count():
    problem = ColoredTilingProblem(Region.rectangle(8, 5), 2)  # the edge rule, 2 colours
    search = SplitSearch(problem, guide=False)  # the estimator walks the unguided tree
    exact = search.count()
    estimate = search.estimate(5_000, seed=5)
    for unit, true in (("tilings", exact.tilings), ("colourings", exact.colourings), ("nodes", exact.nodes)):
        assert abs(estimate[unit] - true) <= 4 * estimate[f"{unit}_stderr"], unit
    assert 0 < estimate["tilings_stderr"] < estimate["tilings"]


def test_knuth_estimate_with_the_cuts_meets_the_exact_count():
    """The estimator walks the same tree as the count, colour cut and symmetry reduction included."""
    problem = ColoredTilingProblem(Region.rectangle(6, 4), 3, SMALL)  # seed rule: 7,584 raw
    search = SplitSearch(problem, colour_cut=CUT_PARTIAL, reduce=True, guide=False)
    exact = search.count()
    estimate = search.estimate(4_000, seed=2)
    for unit, true in (("tilings", exact.tilings), ("colourings", exact.colourings), ("nodes", exact.nodes)):
        assert abs(estimate[unit] - true) <= 4 * estimate[f"{unit}_stderr"], unit
    assert exact.colourings * 6 == 7_584 and estimate["nodes"] < SplitSearch(problem, guide=False).count().nodes


def test_checkpoint_resumes_and_refuses_a_bad_record(tmp_path):
    problem = ColoredTilingProblem(Region.rectangle(10, 4), colors=2, edge_rule=False)
    path = tmp_path / "split.jsonl"
    first = problem.count(depth=2, engine="split", checkpoint=path)
    again = problem.count(depth=2, engine="split", checkpoint=path, verify=2)
    assert (first.raw, first.shape_tilings, again.raw, again.shape_tilings) == (57_472, 1_796, 57_472, 1_796)
    assert again.parts_done == again.parts_total == first.parts_total
    lines = path.read_text().splitlines()
    record = json.loads(lines[1])
    record["result"][3] = len(problem.group()) * max(record["result"][4], 1) + 1  # over |G| shape tilings a node
    from solvers.parallel import record_sum

    record["sum"] = record_sum(record)
    path.write_text("\n".join([lines[0], json.dumps(record)] + lines[2:]) + "\n")
    with pytest.raises(ValueError, match="shape tilings from"):
        problem.count(depth=2, engine="split", checkpoint=path)


def test_cli_split_method_and_auto_choice():
    runner = CliRunner()
    base = ["blokus", "solitaire", "tetrominoes", "--region", "10x4", "--colors", "2", "--no-edge-rule", "--count",
            "--json"]
    split = json.loads(runner.invoke(main, base + ["--method", "split"]).stdout)
    assert (split["count_raw"], split["count_symmetry"], split["count_symmetry_colors"], split["shape_tilings"],
            split["status"]) == (57_472, 14_368, 7_184, 1_796, "proved")
    direct = json.loads(runner.invoke(main, base + ["--method", "direct"]).stdout)
    assert direct["count_raw"] == 57_472 and "shape_tilings" not in direct
    text = runner.invoke(main, base[:-1] + ["--split-depth", "1"]).stdout  # auto: split without the corner rule
    assert "status: proved (exhaustive count, split method)" in text and "shape tilings (colours ignored): 1796" in text


@pytest.mark.slow
@pytest.mark.parametrize("region,expected", [
    (Region.rectangle(9, 9).without([(4, 4)]), (576, 72, 3)),
    (Region.rectangle(10, 8), (3_120, 780, 35)),
])
def test_corner_contact_counts_through_split(region, expected):
    """The corner-contact counts of the direct search, through the split method (the partial-colouring cut
    and the symmetry reduction: ~15 and ~50 CPU-s)."""
    problem = ColoredTilingProblem(region, corner_contact=True)
    counts, totals, _ = timed_split_count(problem, reduce=True)
    assert counts == expected and totals.colourings * 24 == expected[0]


@pytest.mark.slow
def test_committed_seed_rule_parts_recount():
    """A random sample of the committed 10x8 seed-rule parts, counted again, gives the stored subtotals."""
    problem = ColoredTilingProblem(Region.rectangle(10, 8))
    v1 = SplitSearch(problem, guide=False)  # how the v1 parts were made and counted (nodes included)
    parts = v1.split(COUNT_DEPTH)
    records = [json.loads(line) for line in RESULTS.read_text().splitlines()[1:]]
    assert records, "no committed parts"
    for record in random.Random().sample(records, min(4, len(records))):
        assert list(v1.count(parts[record["task"]]).record()) == record["result"]


@pytest.mark.parametrize("art,colors,raw", IRREGULAR[:2])
def test_guide_keeps_every_record_and_cuts_dead_ends(art, colors, raw):
    """The shape-tiling guide only skips subtrees without a shape tiling: every part's colourings, Burnside sums
    and shape tilings are the unguided search's, with fewer nodes."""
    problem = ColoredTilingProblem(Region.from_spec(art), colors)
    plain, guided = SplitSearch(problem, guide=False), SplitSearch(problem)
    assert guided.guide and not plain.guide
    total = 0
    for prefix in plain.split(2):
        a, b = plain.count(prefix).record(), guided.count(prefix).record()
        assert a[:4] == b[:4] and b[4] <= a[4]
        total += b[0]
    assert total * 6 == raw
    assert guided.count().nodes < plain.count().nodes


@pytest.mark.parametrize("size,colors,shape_tilings", [("8x5", 2, 3_106), ("10x4", 2, 1_796)])
def test_guide_memo_counts_shape_tilings(size, colors, shape_tilings):
    """The guide's memo counts shape tilings (the shape-tiling DP's figures), also below a prefix."""
    problem = ColoredTilingProblem(Region.from_spec(size), colors, edge_rule=False)
    search = SplitSearch(problem)
    assert search.shape_tilings() == shape_tilings
    for prefix in SplitSearch(problem, guide=False).split(2)[:6]:
        assert search.shape_tilings(prefix) == search.count(prefix).tilings


def test_guided_random_10x8_parts_equal_unguided():
    problem = ColoredTilingProblem(Region.rectangle(10, 8))
    plain, guided = SplitSearch(problem, guide=False), SplitSearch(problem, guide_slots=1 << 12)
    rng = random.Random(5)
    for _ in range(2):
        prefix = plain.random_prefix(10, rng)
        assert prefix is not None
        a, b = plain.count(prefix).record(), guided.count(prefix).record()
        assert a[:4] == b[:4] and a[3] >= 1 and b[4] <= a[4]
        assert guided.shape_tilings(prefix) == a[3]
    assert guided.memo()[1][1] > 0  # the small memo was emptied on the way, and every count held


@pytest.mark.parametrize("region,colors,shapes,corner,edge", [
    (Region.rectangle(8, 5), 2, None, False, False),
    (Region.rectangle(6, 4), 3, SMALL, False, True),  # orbits with 3 of 4 corners tied
    (Region.rectangle(4, 4), 2, (piece("L", "trominoes"), piece("2", "blokus"), piece("I", "trominoes")), True, False),
])
def test_guide_bounded_by_the_anchors_keeps_the_reduced_records(region, colors, shapes, corner, edge):
    """With the symmetry reduction the guide counts only completions whose anchors do not beat anchor 0's
    signature; every part's record but the nodes is the unguided reduced search's."""
    problem = ColoredTilingProblem(region, colors, shapes, corner_contact=corner, edge_rule=edge)
    plain, guided = SplitSearch(problem, reduce=True, guide=False), SplitSearch(problem, reduce=True)
    assert len(guided.anchors) == len(problem.group()) and guided.guide
    assert plain.count().record()[:4] == guided.count().record()[:4]
    for prefix in plain.split(3):
        a, b = plain.count(prefix).record(), guided.count(prefix).record()
        assert a[:4] == b[:4] and b[4] <= a[4]


NINE_CENTRE = "#########/#########/#########/#########/####.####/#########/#########/#########/#########"


@pytest.mark.slow
@pytest.mark.parametrize(("region", "checkpoint"), [
    (Region.rectangle(10, 8), COUNT),
    (Region.from_spec(NINE_CENTRE), COUNT.with_name("tetromino_split_count_9x9_centre.jsonl")),
], ids=["10x8", "9x9-centre"])
def test_committed_guided_count_parts_recount(region: Region, checkpoint: Path):
    """A random sample of the committed parts of a reduced, guided seed-rule count (bench/results/
    tetromino_split_count*.jsonl), counted again by the count's own search, gives the stored records."""
    problem = ColoredTilingProblem(region)
    search = problem.split_search()
    parts = search.split(COUNT_DEPTH)
    records = [json.loads(line) for line in checkpoint.read_text().splitlines()[1:]]
    assert len(records) == len(parts), "the committed count is not complete"
    heavy = [r for r in records if r["result"][3] > 0]  # parts with kept shape tilings, and any others
    for record in random.Random().sample(heavy, min(3, len(heavy))) + random.Random().sample(records, 2):
        assert list(search.count(parts[record["task"]]).record()) == record["result"]
