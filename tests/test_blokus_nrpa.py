"""NRPA for all 84 pieces (bench/blokus_nrpa.py): its policy update, its tail search, a found layout.

The stored half-turn 18×20 layout (``tests/data/blokus_all_pieces_18x20_4c_half_turn.json``) is the calibration the
method passed: the first layout of all 84 pieces on 18×20 found here with only the half turn asked."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import solvers.blokus.solitaire as sol
from puzzles.blokus.engine import BlokusState
from tests.bench_scripts import bench_module

bench = bench_module("blokus_nrpa")
DATA = Path(__file__).parent / "data"


def _stored(name: str) -> BlokusState:
    return BlokusState.from_json(json.loads((DATA / name).read_text()))


def test_the_policy_moves_towards_the_played_move_by_its_probability():
    """Two plies: two equal moves (0.5 each), then three moves with priors log 1, log 2, log 1 (0.25, 0.5, 0.25)."""
    policy = np.zeros(10)
    codes = np.array([3, 7, 1, 2, 5], np.int64)
    priors = np.array([0.0, 0.0, 0.0, np.log(2.0), 0.0])
    offsets = np.array([0, 2, 5], np.int64)
    choices = np.array([1, 0], np.int64)  # code 7, then code 1
    new = bench._adapt(policy, 1.0, codes, priors, offsets, choices, 2)
    expected = np.zeros(10)
    expected[[3, 7]] = [-0.5, 0.5]
    expected[[1, 2, 5]] = [0.75, -0.5, -0.25]
    assert np.allclose(new, expected)
    assert np.all(policy == 0)  # a new policy; the old one is kept for the level above


def test_the_tail_search_places_the_stored_layouts_small_pieces_in_any_order():
    """From the stored (mirror) 18×20 layout's 34 blue and yellow pentominoes and tetrominoes, the tail search
    finds the last 8; the stored order puts blue's domino before its trominoes, which largest-first would refuse."""
    state = _stored("blokus_all_pieces_18x20_4c.json")
    placed = [(c, m.index) for c, m in state.moves_played if not m.is_pass]
    nrpa = bench.Nrpa(18, 20, w_kill=3, w_contact=3, alpha=1.0, iterations=1, seed=0)
    t = nrpa.geo.tables
    big = [(c, m) for c, m in placed if c in (0, 1) and t.pl_size[m] >= 4]
    blue_small = [int(t.pl_size[m]) for c, m in placed if c == 0 and t.pl_size[m] < 4]
    assert len(big) == 34 and blue_small[:2] == [2, 3]  # the domino first
    path = np.array([c * nrpa.n_pl + m for c, m in big], np.int64)
    seq = bench.Sequence(0, 34, np.zeros(0, np.int64), np.zeros(0), np.zeros(35, np.int64), np.zeros(34, np.int64),
                         path)
    with pytest.raises(bench.Found) as found:
        nrpa.finish(seq)
    assert found.value.path[:34] == big
    sol.verify_solution(sol.replay(found.value.path, True, nrpa.geo))  # every move re-checked by the engine
    nrpa.finish(seq)  # a prefix is searched once: no second search, no second answer


def test_the_stored_half_turn_18x20_layout_is_a_layout_with_only_the_half_turn():
    state = _stored("blokus_all_pieces_18x20_4c_half_turn.json")
    sol.verify_solution(state)
    grid = np.array(state.grid())
    swapped = np.array([2, 3, 0, 1, -1])[grid[::-1, ::-1]]  # the half turn, blue with red, yellow with green
    assert np.array_equal(swapped, grid)
    assert not np.array_equal(grid[:, ::-1] >= 0, grid >= 0)  # no mirror, not even of the occupied cells
    assert not np.array_equal(grid[::-1, :] >= 0, grid >= 0)
    assert int((grid < 0).sum()) == 4


@pytest.mark.slow  # about 30 CPU-s with compilation
def test_a_run_on_20x20_finds_and_saves_a_layout(tmp_path):
    out = tmp_path / "layout.json"
    assert bench.main(["20x20", "--level", "2", "--iterations", "30", "--time-limit", "120", "--w-contact", "3",
                       "--save", str(out)]) == 0
    state = BlokusState.from_json(json.loads(out.read_text()))
    sol.verify_solution(state)
    assert json.loads(out.read_text())["symmetry"] == "half turn"
