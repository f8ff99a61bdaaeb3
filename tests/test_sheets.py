"""Puzzle sheets (puzzles/sheets.py, kibitz generate ...): one solution each, never on the puzzle sheet,
solution sheets that verify when read back, SVG/PDF/booklet structure."""

from __future__ import annotations

import json
import statistics
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from puzzles.polyomino import normalize
from puzzles.sheets import CELL, booklet_pages, sheet_bytes
from tests.test_challenges import _coordinate_pairs

SVG = "{http://www.w3.org/2000/svg}"


def _groups(svg: bytes | str, role: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [g for g in root.iter(f"{SVG}g") if role in (g.get("class") or "").split()]


def _cells(group: ET.Element, cell: float = CELL) -> dict[tuple[int, int], str]:
    """The cells a figure draws, read back from its rects: (row, column) -> fill."""
    return {(round(float(r.get("y", 0)) / cell), round(float(r.get("x", 0)) / cell)): r.get("fill", "")
            for r in group.iter(f"{SVG}rect") if r.get("class") == "cell"}


@pytest.fixture(scope="module")
def tilings():
    from solvers.challenges import generate

    return list(generate(2, "easy", "pentominoes", seed=1))


def test_tiling_sheet_draws_region_and_pieces_and_hides_the_answer(tilings):
    for ch in tilings:
        puzzle = sheet_bytes([[ch.puzzle_panel()]], "svg")
        root = ET.fromstring(puzzle)
        titles = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "title"]
        assert titles == [f"Tiling challenge {ch.seed}"]
        assert any(f"{ch.nodes:,} search nodes" in (t.text or "") for t in root.iter(f"{SVG}text"))
        (region,) = _groups(puzzle, "region")
        assert set(_cells(region)) == set(ch.region.cells) and set(_cells(region).values()) == {"#ffffff"}
        pieces = _groups(puzzle, "piece")
        assert len(pieces) == len(ch.pieces)  # drawn as shapes: each piece's cells in one colour
        for drawn, shape in zip(pieces, ch.pieces, strict=True):
            cells = _cells(drawn)
            assert normalize(cells) == normalize(shape.cells) and len(set(cells.values())) == 1
        assert not _groups(puzzle, "solution")
        assert not _coordinate_pairs(json.loads(sheet_bytes([[ch.puzzle_panel()]], "json")))
        assert sheet_bytes([[ch.puzzle_panel()]], "txt").decode() == ch.to_text() + "\n"


def test_tiling_solution_sheet_read_back_covers_the_region_with_the_pieces(tilings):
    """The solution SVG alone, parsed: each colour's cells are the puzzle piece of that colour, once, and
    together exactly the region; the unique count is redone by an independent search."""
    from solvers.tiling import PieceSpec, TilingProblem

    for ch in tilings:
        puzzle = sheet_bytes([[ch.puzzle_panel()]], "svg")
        solution = sheet_bytes([[ch.solution_panel()]], "svg")
        region = set(_cells(_groups(puzzle, "region")[0]))
        shape_of = {next(iter(_cells(g).values())): normalize(_cells(g)) for g in _groups(puzzle, "piece")}
        by_colour: dict[str, set[tuple[int, int]]] = {}
        for cell, fill in _cells(_groups(solution, "solution")[0]).items():
            by_colour.setdefault(fill, set()).add(cell)
        assert set(by_colour) == set(shape_of) and set().union(*by_colour.values()) == region
        for fill, cells in by_colour.items():
            shape = next(s for s in ch.pieces if normalize(s.cells) == shape_of[fill])
            assert normalize(cells) in {o.cells for o in shape.orientations()}
        assert TilingProblem(ch.region, [PieceSpec(s) for s in ch.pieces]).exact_cover_problem().count().count == 1


def test_tiling_difficulty_is_monotone_in_an_independent_solver_effort():
    """Levels by the generator's nodes; the generic dancing-links search's nodes rise with them too."""
    from solvers.challenges import generate
    from solvers.tiling import PieceSpec, TilingProblem

    medians = []
    for level in ("easy", "medium"):
        effort = [TilingProblem(ch.region, [PieceSpec(s) for s in ch.pieces]).exact_cover_problem().count().nodes
                  for ch in generate(4, level, "pentominoes", seed=0)]
        medians.append(statistics.median(effort))
    assert medians[0] < medians[1]


def test_blokus_fit_unique_hidden_and_the_solution_replays():
    from solvers.blokus.challenges import LEVELS, count_completions, generate, verify_solution

    found = [*generate(2, "easy", 0), *generate(1, "medium", 0)]
    for ch in found:
        lo, hi = LEVELS[ch.level][1]
        recount = count_completions([cells for _, cells in ch.kept], ch.fit)
        assert recount.count == 1 and recount.nodes == ch.nodes and lo <= ch.nodes < hi
        puzzle_json = json.loads(sheet_bytes([[ch.puzzle_panel()]], "json"))
        solution_json = json.loads(sheet_bytes([[ch.solution_panel()]], "json"))
        assert "pieces" not in puzzle_json and not _coordinate_pairs(puzzle_json)
        verify_solution(puzzle_json, solution_json)  # through the rule engine, from the JSON alone
        puzzle_svg = sheet_bytes([[ch.puzzle_panel()]], "svg")
        board = _cells(_groups(puzzle_svg, "board")[0], 24)
        fitted = {tuple(c) for p in solution_json["pieces"] for c in p["cells"]}
        assert {board[c] for c in fitted} == {"#ffffff"}  # the answer's cells are blank on the puzzle
        assert len(_groups(puzzle_svg, "piece")) == len(ch.fit)
        moved = {**solution_json, "pieces": [{**solution_json["pieces"][0], "cells": [[0, 0]]}, *solution_json["pieces"][1:]]}
        with pytest.raises(ValueError):
            verify_solution(puzzle_json, moved)


def test_shelfie_challenge_optimum_proved_and_the_shelf_reaches_it():
    from solvers.shelfie.challenges import attempt, verify_solution

    ch = attempt(0)  # card 1, TWO_SQUARES + STAIRCASE: 1 solver piece
    assert ch is not None and (ch.personal, ch.goals, ch.level) == (1, ("TWO_SQUARES", "STAIRCASE"), "easy")
    assert ch.score == 54  # the optimum of the committed sweep (bench/results/shelfie_best_shelf_all.tsv)
    solution = json.loads(sheet_bytes([[ch.solution_panel()]], "json"))
    verify_solution(solution)
    with pytest.raises(ValueError):
        verify_solution({**solution, "score": solution["score"] + 1})
    puzzle_svg = sheet_bytes([[ch.puzzle_panel()]], "svg").decode()
    puzzle_all = puzzle_svg + sheet_bytes([[ch.puzzle_panel()]], "txt").decode()
    assert "shelf" not in json.loads(sheet_bytes([[ch.puzzle_panel()]], "json"))
    assert not any(" ".join(row) in puzzle_all for row in ch.shelf if row.strip("."))
    assert set(_cells(_groups(puzzle_svg, "grid")[0], 30).values()) == {"#ffffff"}  # the empty shelf
    assert len(_groups(puzzle_svg, "goals")) == 1
    assert "score 54 points" in " ".join(words for words, *_ in _texts_on_page(puzzle_svg))  # lines may wrap


def test_towers_sheet_hides_the_move_and_the_solution_replays():
    from puzzles.towers.engine import TowersState
    from solvers.towers.challenges import generate, replay_result

    ch = next(generate(1, "easy", 0))
    puzzle = sheet_bytes([[ch.puzzle_panel()]], "svg").decode() + sheet_bytes([[ch.puzzle_panel()]], "txt").decode()
    assert ch.solution not in puzzle and "line" not in json.loads(sheet_bytes([[ch.puzzle_panel()]], "json"))
    assert len([t for t in _groups(puzzle.split("\n", 1)[0], "position")]) == 1
    solution = json.loads(sheet_bytes([[ch.solution_panel()]], "json"))
    state = TowersState.from_json(json.loads(sheet_bytes([[ch.puzzle_panel()]], "json"))["state"])
    assert solution["line"][0] == solution["solution"] and replay_result(state, solution["line"]) == solution["result"]


def test_booklet_pages_pdf_and_svg(run_cli, tmp_path):
    pdf = tmp_path / "book.pdf"
    result = run_cli("generate", "blokus-fit", "--booklet", "3", "--difficulty", "easy", "--out", str(pdf))
    assert result.exit_code == 0, result.output
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF") and data.count(b"/Type /Page\n") + data.count(b"/Type /Page ") + \
        data.count(b"/Type /Page/") == 5  # 3 puzzle pages, 2 pages of solutions
    svg = tmp_path / "book.svg"
    assert run_cli("generate", "blokus-fit", "--booklet", "3", "--difficulty", "easy", "--out", str(svg)).exit_code == 0
    pages = _groups(svg.read_bytes(), "page")
    assert len(pages) == 5
    kinds = [[p.get("class") for p in page.iter(f"{SVG}g") if "panel" in (p.get("class") or "")] for page in pages]
    assert kinds == [["panel puzzle"]] * 3 + [["panel solution"] * 2, ["panel solution"]]
    txt = run_cli("generate", "blokus-fit", "--booklet", "2", "--difficulty", "easy", "--format", "txt")
    assert txt.output.count("\f") == 2 and txt.output.index("solution of") > txt.output.rindex("pieces to fit")


def test_per_challenge_sheets_and_formats(run_cli, tmp_path):
    result = run_cli("generate", "blokus-fit", "--count", "2", "--difficulty", "easy", "--format", "svg", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    puzzles = sorted(tmp_path.glob("challenge_*.svg"))
    assert len(puzzles) == 2 and len(list(tmp_path.glob("solution_*.svg"))) == 2
    for path in puzzles:
        assert ET.parse(path).getroot().get("class") == "sheet" and _groups(path.read_bytes(), "puzzle")
    bad = run_cli("generate", "tiling", "--format", "svg")
    assert bad.exit_code != 0 and "--out" in bad.output and len(bad.output.strip().splitlines()) == 1


def test_pdf_without_cairosvg_names_the_extra(run_cli, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "cairosvg", None)
    result = run_cli("generate", "tiling", "--format", "pdf", "--out", str(tmp_path))
    assert result.exit_code != 0 and "kibitz[pictures]" in result.output
    assert len(result.output.strip().splitlines()) == 1 and not list(tmp_path.iterdir())


def test_projectl_deck_under_generate_and_its_alias(run_cli, tmp_path):
    from commands.generate import generate_projectl_deck
    from commands.projectl import projectl

    assert projectl.commands["generate-deck"] is generate_projectl_deck  # the same code path
    out = tmp_path / "deck.svg"
    result = run_cli("projectl", "generate-deck", "--out", str(out))
    assert result.exit_code == 0, result.output
    root = ET.parse(out).getroot()
    assert len([g for g in root.iter(f"{SVG}g") if g.get("class") == "card"]) == 52
    solved = ET.parse(tmp_path / "deck_solutions.svg").getroot()
    assert len([g for g in solved.iter(f"{SVG}g") if g.get("class") == "card"]) == 52
    text = run_cli("generate", "projectl-deck", "--out", str(tmp_path / "deck.txt"))
    assert text.exit_code == 0
    from puzzles.projectl.cards import load_deck

    assert len(load_deck(tmp_path / "deck.txt")) == 52
    assert Path(tmp_path / "deck.txt").read_text() == run_cli("projectl", "generate-deck").output


def test_booklet_page_layout():
    from solvers.challenges import generate

    found = list(generate(3, "easy", "tetrominoes", seed=5))
    pages = booklet_pages([c.puzzle_panel() for c in found], [c.solution_panel() for c in found])
    assert [[p.kind for p in page] for page in pages] == [["puzzle"]] * 3 + [["solution"] * 2, ["solution"]]
    data = json.loads(sheet_bytes(pages, "json"))
    assert data["pages"] == 5 and len(data["puzzles"]) == 3 and len(data["solutions"]) == 3


def test_projectl_deck_solutions_fill_every_recess_with_real_pieces():
    """The solutions sheet's data, checked alone: each card's pieces are Project L shapes, disjoint, and cover
    exactly its recess, with the fewest pieces the checker proves."""
    from puzzles.projectl.cards import cells_mask, placements, shape_index
    from solvers.projectl.deck_sheets import deck_panels
    from solvers.projectl.deckgen import DEFAULT_SEED, generate_deck

    cards = {c.id: c for c in generate_deck(DEFAULT_SEED)}
    puzzles, solutions = deck_panels(DEFAULT_SEED)
    assert len(puzzles) == len(solutions) == 5
    assert not any("solutions" in p.data for p in puzzles)
    answers = [a for panel in solutions for a in panel.data["solutions"]]
    assert sorted(a["card"] for a in answers) == sorted(cards)
    for answer in answers:
        masks = [cells_mask(tuple(c) for c in p["cells"]) for p in answer["pieces"]]
        assert all(m in placements(shape_index(p["shape"])) for m, p in zip(masks, answer["pieces"], strict=True))
        assert sum(bin(m).count("1") for m in masks) == cards[answer["card"]].area
        union = 0
        for m in masks:
            union |= m
        assert union == cards[answer["card"]].recess and len(masks) == answer["min_pieces"]


# -- every kind's sheets as a reader sees them ----------------------------------------------------------------

def _texts_on_page(svg: bytes | str) -> list[tuple[str, float, float, float]]:
    """Every text of a one-page sheet with its estimated extent on the page: (words, left, right, baseline),
    composing the translate/scale transforms of the groups around it; a glyph is taken as CHAR_EM wide."""
    import re

    from puzzles.sheets import CHAR_EM

    found: list[tuple[str, float, float, float]] = []

    def walk(node: ET.Element, dx: float, dy: float, scale: float) -> None:
        for move in re.findall(r"(translate|scale)\(([^)]*)\)", node.get("transform", "")):
            numbers = [float(v) for v in move[1].replace(",", " ").split()]
            if move[0] == "translate":
                dx, dy = dx + scale * numbers[0], dy + scale * (numbers[1] if len(numbers) > 1 else 0.0)
            else:
                scale *= numbers[0]
        if node.tag == f"{SVG}text":
            words = node.text or ""
            width = len(words) * float(node.get("font-size", 10)) * CHAR_EM * scale
            x = dx + scale * float(node.get("x", 0))
            left = {"start": x, "middle": x - width / 2, "end": x - width}[node.get("text-anchor", "start")]
            found.append((words, left, left + width, dy + scale * float(node.get("y", 0))))
        for child in node:
            walk(child, dx, dy, scale)

    walk(ET.fromstring(svg), 0.0, 0.0, 1.0)
    return found


def _sheet_panels() -> dict[str, tuple[object, object]]:
    """A puzzle and its solution panel of every kind (the Shelfie one built from a known optimum: a layout check)."""
    from solvers.blokus.challenges import generate as blokus_fit
    from solvers.challenges import generate as tiling
    from solvers.projectl.deck_sheets import deck_panels
    from solvers.projectl.deckgen import DEFAULT_SEED
    from solvers.shelfie.challenges import ShelfieChallenge
    from solvers.towers.challenges import generate as towers

    shelfie = ShelfieChallenge(7, "hard", 2, ("STAIRCASE", "X_SHAPE"), ("CPPPB", "CPPBB", "CPGPB", "CGGBB", "CGTTT",
                               "CGGTF"), 64, {"adjacency": 35, "personal_goal": 12, "common_goals": 16, "end_token": 1}, 7, 1.0)
    puzzles, solutions = deck_panels(DEFAULT_SEED)
    found = {"tiling": next(tiling(1, "medium", "pentominoes", seed=0)), "blokus-fit": next(blokus_fit(1, "medium", 0)),
             "towers": next(towers(1, "hard", 300)), "shelfie": shelfie}
    return {**{kind: (ch.puzzle_panel(), ch.solution_panel()) for kind, ch in found.items()},
            "projectl-deck": (puzzles[-1], solutions[-1])}


def test_every_kind_of_sheet_reads_right():
    """Title, the difficulty with its measure, text inside the page margins, pieces or position drawn, player,
    line and goal names counted from 1, and the text sheet titled too (all five kinds)."""
    import re

    from puzzles.sheets import MARGIN, PAGE_H, PAGE_W, TEXT_WIDTH

    measures = {"tiling": "search nodes", "blokus-fit": "nodes to count", "towers": "solver nodes",
                "shelfie": "solver pieces", "projectl-deck": "cells"}
    drawn = {"tiling": "piece", "blokus-fit": "piece", "towers": "position", "shelfie": "card", "projectl-deck": "card"}
    panels = _sheet_panels()
    for kind, (puzzle, solution) in panels.items():
        for panel in (puzzle, solution):
            svg = sheet_bytes([[panel]], "svg")
            texts = _texts_on_page(svg)
            titles = [words for words, *_ in texts if words == panel.title]
            assert titles and texts[0][0] == panel.title, kind  # the title first
            outside = [(words, round(left), round(right)) for words, left, right, y in texts
                       if left < MARGIN - 1 or right > PAGE_W - MARGIN + 1 or not 0 < y < PAGE_H]
            assert not outside, (kind, panel.kind, outside)
            every = " ".join(words for words, *_ in texts)
            assert not re.search(r"\b(P0|row0|col0|page 0|round 0|0\. )", every), (kind, every)
            if kind == "projectl-deck":  # its text sheet is the deck file (generate projectl-deck --format txt)
                continue
            sheet_text = sheet_bytes([[panel]], "txt").decode()
            assert max(map(len, sheet_text.splitlines())) <= TEXT_WIDTH, kind
            assert sheet_text.split("\n", 1)[0].lower().startswith(("tiling", "blokus", "rainbow", "my shelfie",
                                                                    "solution")), (kind, sheet_text[:80])
        assert measures[kind] in puzzle.lines[0] and puzzle.lines[0].startswith("Difficulty: "), kind
        assert _groups(sheet_bytes([[puzzle]], "svg"), drawn[kind]), kind
    towers_page = sheet_bytes([[panels["towers"][0]]], "svg")
    assert len(_groups(towers_page, "grids")) == 1 and "Round 5/6" in towers_page.decode()
    blokus_page = [w for w, *_ in _texts_on_page(sheet_bytes([[panels["blokus-fit"][0]]], "svg"))]
    assert all(letter in blokus_page for letter in "abcdefgh") and all(str(n) in blokus_page for n in range(1, 9))
