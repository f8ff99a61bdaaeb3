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
@pytest.mark.parametrize("backend", ["cpsat", "sat"])
def test_find_one_corner_contact_10x8(backend: str) -> None:
    p = ColoredTilingProblem(Region.rectangle(10, 8), corner_contact=True)
    pieces = p.find(backend, time_limit=300)
    assert pieces is not None and len(pieces) == 20


@pytest.mark.slow  # by default the SAT find runs on the small instances of test_find_agrees_with_the_canonical_search
def test_sat_finds_a_corner_contact_10x8_tiling() -> None:
    """The fixed-order CaDiCaL search (seed 0: one run, about 8,400 conflicts, 2 CPU-s) finds a 10x8 tiling;
    find() verified it cell by cell, corner rule included."""
    p = ColoredTilingProblem(Region.rectangle(10, 8), corner_contact=True)
    pieces = p.find("sat", seed=0)
    assert pieces is not None and len(pieces) == 20
    assert {(q.color, q.shape) for q in pieces} == {(k, s) for k in range(4) for s in "IOTLS"}


def test_sat_formula_keeps_one_colour_labelling() -> None:
    """sat_formula() (exactly one colour per cell, colour precedence) keeps exactly one of the 4! colourings of
    each tiling: 48 raw L T tilings on 8x4 give 2 models, the placements being variables 1..n."""
    p = problem(8, 4, "LT")
    models = list(p.sat_enumerate(one_colouring=True))
    assert all(p.satisfies_corner_contact(chosen) for chosen in models)
    assert len(models) == 48 // 24


def test_ctrl_c_stops_the_sat_find_without_a_traceback() -> None:
    """Ctrl-C (SIGINT to the process group, as a terminal sends it) while the SAT child process encodes or solves
    10x8 (seed 7: about 3.5 CPU-s): exit status 130 within 2 s, one line, no traceback, no process left."""
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    process = subprocess.Popen(
        [sys.executable, "-m", "cli", "blokus", "solitaire", "tetrominoes", "--corner-contact", "--backend", "sat",
         "--seed", "7"], cwd=Path(__file__).resolve().parent.parent, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, start_new_session=True)
    started = time.monotonic()
    children: list[str] = []
    while not children and process.poll() is None and time.monotonic() - started < 60:
        children = subprocess.run(["pgrep", "-P", str(process.pid)], capture_output=True, text=True).stdout.split()
        time.sleep(0.05)
    time.sleep(0.3)
    assert process.poll() is None, "the find ended before it could be interrupted"
    os.killpg(process.pid, signal.SIGINT)
    sent = time.monotonic()
    _, err = process.communicate(timeout=30)
    assert time.monotonic() - sent <= 2.0
    assert process.returncode == 130, err
    assert "Traceback" not in err and "interrupted" in err
    for child in children:
        assert not Path(f"/proc/{child}").exists() or "zombie" in Path(f"/proc/{child}/status").read_text().lower()
