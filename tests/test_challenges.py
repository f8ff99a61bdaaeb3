"""Tiling challenges with a unique solution."""

from __future__ import annotations

import json

from solvers.challenges import LEVELS, attempt, generate
from solvers.exact_cover import SearchLimits
from solvers.tiling import PieceSpec, TilingProblem, verify_tiling


def test_medium_challenges_are_unique_by_an_independent_count():
    found = list(generate(3, "medium", "pentominoes", seed=0))
    assert len({ch.key() for ch in found}) == 3
    lo, hi = LEVELS["medium"][1]
    for ch in found:
        assert lo <= ch.nodes < hi
        problem = TilingProblem(ch.region, [PieceSpec(s) for s in ch.pieces])
        # generic dancing links (not the bitboard search the generator used) finds exactly one tiling
        assert problem.exact_cover_problem().count().count == 1
        verify_tiling(problem, ch.solution)
        assert sum(s.area for s in ch.pieces) == ch.region.area


def test_generation_is_deterministic_and_levels_differ():
    a = [ch.to_json() for ch in generate(2, "easy", "tetrominoes", seed=5)]
    b = [ch.to_json() for ch in generate(2, "easy", "tetrominoes", seed=5)]
    assert a == b
    for ch in generate(2, "easy", "pentominoes", seed=1):
        assert ch.nodes < LEVELS["easy"][1][1]


def test_blokus_color_pieces_make_challenges_too():
    ch = next(generate(1, "medium", "blokus", seed=3))
    assert TilingProblem(ch.region, [PieceSpec(s) for s in ch.pieces]).cover().count(SearchLimits()).count == 1


def test_attempt_rejects_ambiguous_regions():
    # a seed whose region has several tilings gives None rather than a challenge
    results = [attempt(s, "medium", "pentominoes") for s in range(12)]
    assert any(r is None for r in results) and any(r is not None for r in results)


def test_cli_generate_tiling(run_cli, tmp_path):
    result = run_cli("generate", "tiling", "--count", "2", "--difficulty", "medium", "--json", "--out", str(tmp_path))
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert len(data["challenges"]) == 2
    assert all(c["difficulty"] == "medium" and c["solution"]["pieces"] for c in data["challenges"])
    first, second = (c["seed"] for c in data["challenges"])  # files are numbered by the challenge's seed
    assert (tmp_path / f"challenge_{first}.svg").read_text().startswith("<svg")
    assert (tmp_path / f"solution_{second}.svg").exists()
    assert "solution" not in json.loads((tmp_path / f"challenge_{first}.json").read_text())
    assert data["status"] == "complete"
    bad = run_cli("generate", "tiling", "--pieces", "nonsense")
    assert bad.exit_code != 0 and "unknown" in bad.output.lower()
