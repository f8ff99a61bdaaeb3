"""SAT and CP-SAT backends of the tetromino rectangle under the corner-contact rule
(solvers/blokus/tetrominoes.py) against the canonical numba search (solvers/blokus/tetromino_search.py).

Small instances keep four colours (with fewer colours the edge rule leaves no tiling of a rectangle at all) and
use a subset of the tetrominoes per colour: L T on 8x4 (48 raw) and O L T on 8x6 (96) have corner-contact tilings;
S T on 8x4 (48); I L T on 12x4 has 10,101,936 edge-rule tilings but no corner-contact one, which each backend
must prove."""

from __future__ import annotations

import pytest

from puzzles.polyomino import Region, piece_set
from solvers.blokus.tetromino_search import timed_count
from solvers.blokus.tetrominoes import ColoredTilingProblem

TETROMINOES = {shape.name: shape for shape in piece_set("tetrominoes")}


def problem(width: int, height: int, names: str, corner: bool = True) -> ColoredTilingProblem:
    return ColoredTilingProblem(Region.rectangle(width, height), 4, shapes=[TETROMINOES[n] for n in names],
                                corner_contact=corner)


@pytest.mark.parametrize("width,height,names,raw", [
    (8, 4, "LT", 48),
    (8, 6, "OLT", 96),
    (8, 4, "ST", 48),
    (12, 4, "ILT", 0),
])
@pytest.mark.parametrize("backend", ["sat", "cpsat"])
def test_find_agrees_with_the_canonical_search(width: int, height: int, names: str, raw: int, backend: str) -> None:
    p = problem(width, height, names)
    (counted, _, _), _, _ = timed_count(p)
    assert counted == raw
    pieces = p.find(backend, time_limit=60)  # TimeoutError (test failure) if the backend did not decide
    if raw:
        assert pieces is not None  # find() verified it cell by cell, corner rule included
        assert len(pieces) == 4 * len(names)
    else:
        assert pieces is None  # exhaustive: proved none


def test_sat_enumeration_counts_the_corner_contact_tilings() -> None:
    """Every SAT model is a corner-contact tiling and every tiling is a model: 48 raw, as the numba search."""
    p = problem(8, 4, "LT")
    solutions = list(p.sat_enumerate())
    assert len(solutions) == 48
    assert all(p.satisfies_corner_contact(s) for s in solutions)
    assert len({frozenset(s) for s in solutions}) == 48


def test_the_corner_rule_is_what_removes_the_tilings() -> None:
    """Without the corner rule the same 12x4 I L T region has tilings: the backends find one."""
    p = problem(12, 4, "ILT", corner=False)
    assert p.find("cpsat", time_limit=60) is not None
    assert p.find("sat", time_limit=60) is not None


@pytest.mark.slow
@pytest.mark.parametrize("backend", [
    "cpsat",
    # CaDiCaL on the same clauses has not decided 10x8 in 60 CPU-s nor in 10 minutes (bench/results/
    # solitaire_tetrominoes.md); kept as a bounded expected failure so that a fix shows up as XPASS
    pytest.param("sat", marks=pytest.mark.xfail(raises=TimeoutError, strict=False,
                                                reason="SAT backend undecided on 10x8 corner contact")),
])
def test_find_one_corner_contact_10x8(backend: str) -> None:
    p = ColoredTilingProblem(Region.rectangle(10, 8), corner_contact=True)
    pieces = p.find(backend, time_limit=300)
    assert pieces is not None and len(pieces) == 20
