"""Tiling challenges with a unique solution."""

from __future__ import annotations

import json

from puzzles.polyomino import normalize, piece_set
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
    assert all(c["difficulty"] == "medium" and "solution" not in c for c in data["challenges"])  # asked with --solution
    first, second = (c["seed"] for c in data["challenges"])  # files are numbered by the challenge's seed
    assert (tmp_path / f"challenge_{first}.svg").read_text().startswith("<svg")
    assert (tmp_path / f"solution_{second}.svg").exists()
    assert "solution" not in json.loads((tmp_path / f"challenge_{first}.json").read_text())
    assert data["status"] == "complete"
    shown = run_cli("generate", "tiling", "--count", "1", "--difficulty", "medium", "--json", "--solution")
    assert json.loads(shown.output)["challenges"][0]["solution"]["pieces"]
    bad = run_cli("generate", "tiling", "--pieces", "nonsense")
    assert bad.exit_code != 0 and "unknown" in bad.output.lower()


def _coordinate_pairs(value: object) -> list[object]:
    """Every [row, col] pair anywhere inside a JSON value (a placement's cells would be such pairs)."""
    if isinstance(value, dict):
        return [p for v in value.values() for p in _coordinate_pairs(v)]
    if isinstance(value, list):
        if len(value) == 2 and all(isinstance(x, int) for x in value):
            return [value]
        return [p for v in value for p in _coordinate_pairs(v)]
    return []


def test_challenge_files_hold_no_solution_and_the_solution_verifies_cell_by_cell(run_cli, tmp_path):
    """challenge_N.txt/.json are the puzzle only; solution_N.json covers the region exactly, piece by piece."""
    result = run_cli("generate", "tiling", "--count", "3", "--difficulty", "easy", "--seed", "1", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    files = sorted(tmp_path.glob("challenge_*.json"))
    assert len(files) == 3
    for path in files:
        seed = path.stem.removeprefix("challenge_")
        puzzle = json.loads(path.read_text())
        text = (tmp_path / f"challenge_{seed}.txt").read_text()
        solution = json.loads((tmp_path / f"solution_{seed}.json").read_text())
        solution_text = (tmp_path / f"solution_{seed}.txt").read_text()
        assert not _coordinate_pairs(puzzle) and "solution" not in puzzle
        region_rows = text.splitlines()[2:]
        assert region_rows == puzzle["region"] and all(set(row) <= {"#", "."} for row in region_rows)
        assert not set(solution_text.splitlines()) & set(text.splitlines())
        # cell by cell: each region cell covered once, nothing outside, each piece of its named shape, each once
        region = {(r, c) for r, row in enumerate(puzzle["region"]) for c, ch in enumerate(row) if ch == "#"}
        assert len(region) == puzzle["cells"]
        covered: list[tuple[int, int]] = [tuple(cell) for p in solution["pieces"] for cell in p["cells"]]
        assert sorted(covered) == sorted(region) and len(set(covered)) == len(covered)
        assert sorted(p["name"] for p in solution["pieces"]) == sorted(puzzle["pieces"])
        shapes = {s.name: s for s in piece_set(puzzle["piece_set"])}
        for placed in solution["pieces"]:
            orientations = {o.cells for o in shapes[placed["name"]].orientations()}
            assert normalize(tuple(cell) for cell in placed["cells"]) in orientations
        assert solution["status"] == "proved" and solution["seed"] == int(seed)


def test_a_ctrl_c_that_stops_a_search_with_two_solutions_found_is_not_lost(monkeypatch) -> None:
    """The exact cover hands over the block of solutions found before it raises KeyboardInterrupt; a try that stops
    reading at its second solution (not unique) must still stop the generation, not go on to the next seed (the
    Ctrl-C was lost there and ``generate tiling`` ran on)."""
    from solvers.exact_cover import ResumableSearch
    from solvers.interrupt import INTERRUPTED

    real = ResumableSearch._polled_step
    calls: list[int] = []

    def ctrl_c_in_every_step(self, allowed, buffer, limits):
        calls.append(1)
        result, _ = real(self, allowed, buffer, limits)
        return result, INTERRUPTED

    monkeypatch.setattr(ResumableSearch, "_polled_step", ctrl_c_in_every_step)
    searched = 0
    for seed in range(30):
        before = len(calls)
        try:
            attempt(seed, "easy", "pentominoes")
            raised = False
        except KeyboardInterrupt:
            raised = True
        if len(calls) > before:  # a search ran, and Ctrl-C stopped it: the try must say so
            searched += 1
            assert raised, f"seed {seed}: the try returned after a Ctrl-C stopped its search"
    assert searched >= 10
