"""How tilings look when piped, what long counts say on stderr, and one key set for count JSON (issue 28)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click

from puzzles.polyomino import Placed, Region, Tiling

ROOT = Path(__file__).resolve().parent.parent
SMALL = ["blokus", "solitaire", "tetrominoes", "--region", "8x5", "--colors", "2", "--no-edge-rule"]


def _grid(text: str, digits: bool) -> list[list[str]]:
    """The labels of a printed tiling, row by row (cells apart by spaces with digits, 2 characters each without)."""
    rows = [line for line in text.splitlines() if line and not line.startswith(("colours:", "status:"))]
    if digits:
        return [row.split() for row in rows]
    return [[row[i:i + 2].strip() for i in range(0, len(row), 2)] for row in rows]


def _owners(data: dict) -> dict[tuple[int, int], int]:
    return {tuple(cell): n for n, piece in enumerate(data["pieces"]) for cell in piece["cells"]}


def _alike_exactly_within_pieces(grid: list[list[str]], owner: dict[tuple[int, int], int]) -> None:
    """Edge-adjacent cells print the same label exactly when one piece covers both."""
    for r, row in enumerate(grid):
        for c, label in enumerate(row):
            for rr, cc in ((r + 1, c), (r, c + 1)):
                if rr < len(grid) and cc < len(row):
                    assert (grid[rr][cc] == label) == (owner[(rr, cc)] == owner[(r, c)]), (r, c, rr, cc)


def test_piped_solitaire_tiling_keeps_the_colours_as_digits(run_cli) -> None:
    result = run_cli(*SMALL)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[:6] == [
        "I1 I1 I1 I1 T1 L2 L2 L2",
        "O1 O1 S1 T1 T1 S2 S2 L2",
        "O1 O1 S1 S1 T1 T2 S2 S2",
        "L1 L1 L1 S1 T2 T2 O2 O2",
        "L1 I2 I2 I2 I2 T2 O2 O2",
        "colours: 1 blue, 2 yellow (letters: shapes)",
    ]
    data = json.loads(run_cli(*SMALL, "--json").output)
    grid = _grid(result.output, digits=True)
    for (r, c), n in _owners(data).items():
        assert grid[r][c] == data["pieces"][n]["shape"] + str(data["pieces"][n]["color"] + 1)
    _alike_exactly_within_pieces(grid, _owners(data))


def test_plain_gives_letters_and_tells_touching_same_shapes_apart(run_cli) -> None:
    result = run_cli(*SMALL, "--plain")
    assert result.exit_code == 0 and "colours:" not in result.output
    grid = _grid(result.output, digits=False)
    assert grid[2][4:6] == ["T", "t"]  # blue T beside yellow T: one of them in lower case
    assert {label.upper() for row in grid for label in row} == set("IOTLS")
    _alike_exactly_within_pieces(grid, _owners(json.loads(run_cli(*SMALL, "--json").output)))


def test_tile_pipes_letters_with_touching_copies_in_other_case(run_cli) -> None:
    result = run_cli("tile", "8x5", "--pieces", "2*tetrominoes")
    assert result.output.splitlines()[:5] == [
        " I I I I O O o o",
        " i i i i O O o o",
        " T T T t t t s L",
        " L T S S t s s L",
        " L L L S S s L L",
    ]
    assert run_cli("tile", "8x5", "--pieces", "2*tetrominoes", "--plain").output == result.output


def test_same_labels_with_different_colours_need_no_case_change() -> None:
    tiling = Tiling(Region.rectangle(2, 1), (Placed("I", ((0, 0),), 0), Placed("I", ((0, 1),), 1)))
    assert tiling.to_text(color=False) == " I i"
    assert tiling.to_text(color=False, color_digits=True) == "I1 I2"
    assert tiling.to_text(color=True) == "\x1b[44m I\x1b[0m\x1b[43m I\x1b[0m"  # blue and yellow tell them apart


def test_count_json_has_one_key_set(run_cli) -> None:
    tile = json.loads(run_cli("tile", "3x20", "--count", "--json").output)
    solitaire = json.loads(run_cli(*SMALL, "--count", "--split-depth", "1", "--json").output)
    shared = ["count_raw", "count_symmetry", "status", "complete", "lower_bound", "interrupted", "parts_done",
              "parts_total", "nodes", "seconds"]
    assert list(tile) == shared
    assert list(solitaire) == shared[:2] + ["count_symmetry_colors"] + shared[2:] + ["shape_tilings"]  # split method
    cover = json.loads(run_cli("cover", str(ROOT / "examples" / "problem.dlx"), "--count", "--json").output)
    assert list(cover) == [key for key in shared if key not in ("count_symmetry", "parts_done", "parts_total")]
    assert (cover["count_raw"], cover["status"]) == (1, "proved")
    assert (tile["count_raw"], tile["count_symmetry"], tile["parts_done"] == tile["parts_total"]) == (8, 2, True)
    assert (solitaire["count_raw"], solitaire["lower_bound"]) == (99_392, False)


def test_no_help_text_shows_a_doubled_percent_sign(run_cli) -> None:
    from cli import main

    def helps(command: click.Command, path: list[str]) -> list[tuple[str, str]]:
        ctx = click.Context(command, info_name=" ".join(path))
        found = [(" ".join(path), command.get_help(ctx))]
        if isinstance(command, click.Group):
            for name, sub in command.commands.items():
                found += helps(sub, [*path, name])
        return found

    texts = helps(main, ["kibitz"])
    assert len(texts) > 30 and [path for path, text in texts if "%%" in text] == []
    assert "(default 60% of the pieces)" in " ".join(run_cli(*SMALL[:3], "--help").output.split())


def _run(*args: str) -> tuple[subprocess.CompletedProcess, list[str]]:
    """``kibitz ARGS`` in a child process (stderr a pipe, as in a log): the result and stderr's non-blank lines."""
    result = subprocess.run([sys.executable, "-m", "cli", *args], cwd=ROOT, capture_output=True, text=True,
                            timeout=120, env={**os.environ, "NUMBA_NUM_THREADS": "1"})
    return result, [line.strip() for line in result.stderr.replace("\r", "\n").splitlines() if line.strip()]


def test_a_split_count_says_what_it_prepares_on_stderr(tmp_path: Path) -> None:
    checkpoint = tmp_path / "c.json"
    result, lines = _run(*SMALL, "--count", "--split-depth", "1", "--checkpoint", str(checkpoint))
    assert result.returncode == 0 and "raw tilings: 99392" in result.stdout
    assert lines[0] == ("split method (shape tilings first, colours ignored, then each one's colour classes): "
                        "splitting the search into parts at depth 1 ...")
    assert (f"13 parts to count in this process; Ctrl-C stops with the parts done (kept in {checkpoint}: "
            "the same command resumes)") in lines
    assert "13/13" in lines[-1]  # the progress line is finished at the end


def test_an_estimate_shows_progress_over_its_paths() -> None:
    result, lines = _run(*SMALL, "--estimate", "4000", "--exact-depth", "6")
    assert result.returncode == 0 and "estimate from 4000 random paths" in result.stdout
    assert lines[0] == ("estimating from 4,000 random paths of the canonical search, each counted exactly below "
                        "6 pieces, in chunks of 2,000 (Ctrl-C stops with the paths done) ...")
    assert "4000/4000" in lines[-1]
