"""Tiling solver: the classic pentomino counts, backends agreeing, every answer verified."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzles.polyomino import Region, Shape, piece_set
from solvers.exact_cover import SearchLimits
from solvers.tiling import PieceSpec, TilingProblem, parse_pieces, verify_tiling

CENTRE_HOLE = Region.rectangle(8, 8).without([(3, 3), (3, 4), (4, 3), (4, 4)])


@pytest.mark.parametrize(
    ("region", "raw", "unique"),
    [(Region.from_spec("6x10"), 9356, 2339), (Region.from_spec("5x12"), 4040, 1010), (Region.from_spec("4x15"), 1472, 368),
     (Region.from_spec("3x20"), 8, 2), (CENTRE_HOLE, 520, 65)],
    ids=["6x10", "5x12", "4x15", "3x20", "8x8-centre"],
)
def test_pentomino_counts_raw_and_up_to_symmetry(region: Region, raw: int, unique: int) -> None:
    counts = TilingProblem.from_spec(region, "pentominoes").counts()
    assert (counts.raw, counts.unique, counts.complete) == (raw, unique, True)


@pytest.mark.parametrize(("region", "raw", "unique"), [("3x20", 8, 2), ("4x15", 1472, 368)])
def test_plain_search_agrees_with_symmetry_reduced_search(region: str, raw: int, unique: int) -> None:
    problem = TilingProblem.from_spec(Region.from_spec(region), "pentominoes")
    plain = problem.counts(reduce_symmetry=False)
    assert (plain.raw, plain.unique) == (raw, unique)
    listed = list(problem.tilings(unique=True))
    assert len(listed) == unique


def test_copies_are_interchangeable() -> None:
    # two sets of the 5 tetrominoes as bare shapes: 8x5 has 3,106 tilings, 10x4 has 1,796
    assert TilingProblem.from_spec(Region.from_spec("8x5"), "2*tetrominoes").counts().raw == 3106
    assert TilingProblem.from_spec(Region.from_spec("10x4"), "2*tetrominoes").counts().raw == 1796


def canonical_form(tiling, region: Region) -> tuple:
    """Brute-force orbit key: the smallest sorted list of (piece name, cells) over the symmetries."""
    images = []
    for k in region.symmetries():
        perm = region.cell_permutation(k)
        images.append(tuple(sorted((p.name, tuple(sorted(perm[c] for c in p.cells))) for p in tiling.pieces)))
    return min(images)


def test_unique_count_matches_brute_force_dedup() -> None:
    problem = TilingProblem.from_spec(Region.from_spec("8x5"), "2*tetrominoes")
    everything = list(problem.tilings())
    assert len(everything) == 3106
    orbits = {canonical_form(t, problem.region) for t in everything}
    assert len(orbits) == problem.counts().unique
    assert len(orbits) == len(list(problem.tilings(unique=True)))


def test_every_tiling_is_verified_cell_by_cell() -> None:
    problem = TilingProblem.from_spec(Region.from_spec("3x20"), "pentominoes")
    for tiling in problem.tilings():
        tiling.verify(list(piece_set("pentominoes")))
        assert len(tiling.pieces) == 12


@pytest.mark.parametrize("backend", ["dlx", "sat", "cpsat"])
def test_each_backend_finds_a_verified_tiling(backend: str) -> None:
    problem = TilingProblem.from_spec(Region.from_spec("5x4"), "2*tetrominoes", mode="at_most")
    tiling = problem.find(backend)
    assert tiling is not None
    verify_tiling(problem, tiling)


def test_the_solver_takes_regions_not_text() -> None:
    """Text is read by Region.from_spec before the solver layer; a spec handed to it is a bug, said at once."""
    with pytest.raises(TypeError, match="takes a Region, not str: read a spec with Region.from_spec first"):
        TilingProblem.from_spec("6x10", "pentominoes")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="takes a Region"):
        TilingProblem("6x10", [PieceSpec(piece_set("pentominoes")[0])])  # type: ignore[arg-type]


def test_impossible_problems_say_none() -> None:
    assert TilingProblem.from_spec(Region.from_spec("5x4"), "tetrominoes").find() is None  # the 5 tetrominoes never tile 4x5
    assert TilingProblem.from_spec(Region.from_spec("5x4"), "tetrominoes").count().count == 0
    assert TilingProblem.from_spec(Region.from_spec("3x3"), "pentominoes").find("sat") is None  # area mismatch


def test_fixed_orientations_and_counts() -> None:
    domino = Shape.from_ascii("##", "D")
    fixed = TilingProblem(Region.rectangle(4, 2), [PieceSpec(domino, 4, 4)], free=False)
    assert fixed.count().count == 1  # horizontal dominoes only
    free = TilingProblem(Region.rectangle(4, 2), [PieceSpec(domino, 4, 4)], free=True)
    assert free.count().count == 5  # the Fibonacci number F(5)
    assert free.counts().unique == 4  # 1111, 112~211, 121, 22 (columns of vertical/horizontal pairs)


def test_time_limit_reports_incomplete() -> None:
    problem = TilingProblem.from_spec(Region.from_spec("6x10"), "pentominoes")
    counts = problem.counts(SearchLimits(node_limit=1000))
    assert not counts.complete and counts.raw < 9356


def test_piece_spec_parsing() -> None:
    assert [s.name for s in parse_pieces("I,L,X")] == ["I", "L", "X"]
    assert len(parse_pieces("2*tetrominoes")) == 10
    assert len(parse_pieces("tetrominoes+pentominoes")) == 17
    assert parse_pieces("blokus:Z4")[0].area == 4
    with pytest.raises(ValueError, match="unknown piece"):
        parse_pieces("Q")


SMALL_SHAPES = [Shape(s.cells, f"{family[:3]}-{s.name}") for family in ("monomino", "domino", "trominoes", "tetrominoes")
                for s in piece_set(family)]


@st.composite
def small_problems(draw) -> TilingProblem:
    width, height = draw(st.integers(2, 5)), draw(st.integers(2, 4))
    cells = [(r, c) for r in range(height) for c in range(width)]
    holes = draw(st.lists(st.sampled_from(cells), max_size=3, unique=True))
    region = Region.rectangle(width, height).without(holes)
    names = draw(st.lists(st.integers(0, len(SMALL_SHAPES) - 1), min_size=1, max_size=5, unique=True))
    specs = []
    for index in names:
        low = draw(st.integers(0, 2))
        specs.append(PieceSpec(SMALL_SHAPES[index], low, low + draw(st.integers(0, 2))))
    return TilingProblem(region, specs, free=draw(st.booleans()))


@settings(max_examples=60, deadline=None)
@given(small_problems())
def test_backends_agree_on_existence(problem: TilingProblem) -> None:
    answers = {}
    for backend in ("dlx", "sat", "cpsat"):
        tiling = problem.find(backend)
        if tiling is not None:
            verify_tiling(problem, tiling)
        answers[backend] = tiling is not None
    assert len(set(answers.values())) == 1, answers
    assert (problem.count().count > 0) == answers["dlx"]
