"""bench/blokus_cell_anneal.py: a stored layout is a colouring of cost 0, the cost and the defect list see each kind
of defect, the annealing keeps each colour's cells, and CP-SAT repairs a layout with a few pieces moved."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tests.bench_scripts import bench_module

bench = bench_module("blokus_cell_anneal")
DATA = Path(__file__).parent / "data"
TABLE = bench.shape_table()


def stored_colouring(name: str) -> tuple[object, np.ndarray]:
    """The board (half turn) and the stored layout's colour per cell."""
    cols, rows = map(int, name.split("x"))
    board = bench.CellBoard(cols, rows, "half")
    return board, bench.stored_colouring(board, str(DATA / f"blokus_all_pieces_{name}_4c.json"))


def cost(board, col: np.ndarray, weights=(1, 1, 1, 1, 0, 0), colours=(0, 1, 2, 3)) -> float:
    """The annealing's cost of a colouring over ``colours`` (each class weight 1)."""
    return bench._cost(col, np.array(colours, np.int64), board.cols, board.nbr4, board.nbr8, TABLE,
                       *bench._work(board), np.array(list(weights) + [1.0] * 4), np.zeros(4))


def labels_of(board, col: np.ndarray) -> np.ndarray:
    """The orbit labels of a half-turn-invariant colouring."""
    labels = np.full(len(board.orbit_cells), board.empty_label, np.int64)
    for o, cells in enumerate(board.orbit_cells):
        if col[cells[0]] != bench.EMPTY_COLOUR:
            labels[o] = next(lab for lab in range(board.empty_label) if board.lab_col[lab, 0] == col[cells[0]])
    assert (board.colours(labels) == col).all()
    return labels


def test_the_shape_table_holds_the_91_fixed_orientations_of_the_21_pieces():
    assert (TABLE >= 0).sum() == 91 and set(TABLE[TABLE >= 0].tolist()) == set(range(21))


def test_the_stored_18x20_layout_is_a_half_turn_colouring_of_cost_0():
    board, col = stored_colouring("18x20")
    assert board.spare == 2 and len(board.orbit_cells) == 180
    labels = labels_of(board, col)  # it is invariant under the half turn
    assert cost(board, col) == 0
    assert [bench._contacts(col, c, board.cols) for c in range(4)] == [21, 22, 21, 22]
    assert cost(board, col, (1, 1, 1, 1, 1, 22), (0, 1)) == 1  # blue has 21 corner contacts, one short of 22
    defects = np.zeros(len(labels), np.int64)
    corners = np.array([0, board.cols - 1], np.int64)
    assert bench._defects(col, np.array([0, 1], np.int64), corners, board.cols, board.nbr4, board.nbr8, TABLE,
                          board.orbit_of, np.ones(len(labels), np.bool_), defects) == 0
    state, moves = bench.replay(board, col)
    assert len(moves) == 84 and state.is_terminal() is not None


def test_the_cost_counts_each_defect():
    board, col = stored_colouring("18x20")
    pieces = bench.pieces_by_colour(board, col)
    monomino = next(p for p in pieces[0] if len(p) == 1)
    (r, c), = monomino
    merged = col.copy()
    merged[r * board.cols + c] = 1  # blue's monomino turns yellow: blue misses it, yellow may merge
    assert cost(board, merged, colours=(0,)) == 1  # one shape missing (its corner contacts go with it)
    domino = next(p for p in pieces[0] if len(p) == 2)
    grown = col.copy()
    for q in [rr * board.cols + cc for rr, cc in domino]:
        for y in board.nbr4[q]:
            if y >= 0 and grown[y] not in (0, bench.EMPTY_COLOUR):
                grown[y] = 0  # the domino swallows its neighbours: a component past 5 cells
    assert cost(board, grown, (1, 0, 0, 0, 0, 0), (0,)) > 0


def test_a_defect_is_listed_and_the_annealing_keeps_the_colour_counts():
    board, col = stored_colouring("18x20")
    labels = labels_of(board, col)
    fixed = board.corner_labels()
    movable = np.array([o for o in range(len(labels)) if o not in fixed], np.int64)
    is_movable = np.zeros(len(labels), np.bool_)
    is_movable[movable] = True
    o = int(movable[40])
    turned = labels.copy()
    turned[o] = labels[o] ^ 1 if labels[o] != board.empty_label else labels[o]  # which cell of the orbit is blue
    if turned[o] == labels[o]:
        pytest.skip("an empty orbit")
    defects = np.zeros(len(labels), np.int64)
    corners = np.array([0, board.cols - 1], np.int64)
    found = bench._defects(board.colours(turned), np.array([0, 1], np.int64), corners, board.cols, board.nbr4,
                           board.nbr8, TABLE, board.orbit_of, is_movable, defects)
    assert found > 0 and cost(board, board.colours(turned), colours=(0, 1)) > 0
    best = turned.copy()
    args = (movable, is_movable, board.orbit_cells, board.orbit_of, board.lab_col, board.m, board.empty_label,
            np.array(board.base, np.int64), board.cols, board.nbr4, board.nbr8, TABLE,
            np.array([1, 1, 1, 1, 0, 0, 1, 1], float), corners, 0.5)
    cand, cand_class, ncand = np.zeros((50, len(labels)), np.int64), np.zeros(50, np.int64), np.zeros(1, np.int64)
    bench._anneal(turned, *args, 0.5, 0.1, 20_000, 20_000, 1, best, cand, cand_class, ncand)
    for k in range(int(ncand[0])):  # a candidate has a whole colour class right
        kept = board.colours(cand[k])
        assert cost(board, kept, colours=(int(cand_class[k]),)) == 0
    for labs in (turned, best):
        assert np.bincount(labs, minlength=board.nlabels).reshape(-1)[-1] == 2  # the empty orbits stay 2
        assert sorted(np.bincount(labs // board.m, minlength=3)[:2].tolist()) == [89, 89]
        assert all(labs[o] == lab for o, lab in fixed.items())


def test_a_random_labelling_has_the_right_counts_and_corners():
    board = bench.CellBoard(21, 17, "half")
    assert board.spare == 0 and board.fixed_empty == [8 * 21 + 10]  # the centre
    col = board.colours(board.random_labels(np.random.default_rng(0)))
    assert [(col == c).sum() for c in range(5)] == [89, 89, 89, 89, 1]
    assert col[0] == 0 and col[20] == 1 and col[-1] == 2 and col[16 * 21] == 3
    quarter = bench.CellBoard(19, 19, "quarter")
    assert quarter.spare == 1 and len(quarter.orbit_cells) == 90
    qcol = quarter.colours(quarter.random_labels(np.random.default_rng(0)))
    assert [(qcol == c).sum() for c in range(4)] == [89] * 4
    assert [qcol[r * 19 + c] for r, c in quarter.corners] == [0, 1, 2, 3]


@pytest.mark.parametrize("keep", [0, pytest.param(1, marks=pytest.mark.slow)])  # about 4 and 15 CPU-s
def test_stage_2_finds_the_other_class_of_the_stored_layout(keep):
    board, col = stored_colouring("18x20")
    other = col.copy()
    other[(col == 1 - keep) | (col == 3 - keep)] = 1 - keep  # the other class is not read
    status, full = bench.stage2_sat(board, other, keep, 120, empty_free=False)  # the 4 empty cells held empty
    assert status == "found"
    bench.replay(board, full)
    moved = col.copy()
    corner = board.corners[1 - keep][0] * board.cols + board.corners[1 - keep][1]
    moved[corner] = keep  # the other class's start corner taken: refuted at once
    assert bench.stage2_sat(board, moved, keep, 120)[0] == "refuted"


@pytest.mark.slow
def test_stage_2_with_the_empty_cells_free_too():  # about 60 CPU-s: two orbits to spare
    board, col = stored_colouring("18x20")
    assert bench.stage2_sat(board, col, 0, 300)[0] == "found"


@pytest.mark.slow
def test_cp_sat_repairs_the_stored_layout_with_a_blue_piece_taken_out():
    board, col = stored_colouring("18x20")
    pieces = bench.pieces_by_colour(board, col)
    piece = next(p for p in pieces[0] if len(p) == 5 and (0, 0) not in p)
    broken = col.copy()
    for r, c in piece:
        broken[r * board.cols + c] = bench.EMPTY_COLOUR
    kept, full = bench.repair(board, broken, 60, 0)
    assert kept < 84 and full is not None
    bench.replay(board, full)


def test_a_layout_found_is_written_as_a_record_that_replays(tmp_path, capsys):
    import argparse

    board, col = stored_colouring("18x20")
    out = tmp_path / "layout.json"
    bench._report_layout(board, col, argparse.Namespace(out=str(out), board="18x20", symmetry="half", seed=0), 1.0)
    assert "FOUND, replayed through the rule engine (84 moves)" in capsys.readouterr().out
    record = json.loads(out.read_text())
    assert (bench.stored_colouring(board, str(out)) == col).all() and record["empty_cells"] == 4


@pytest.mark.slow
def test_a_class_left_unknown_is_tried_again_from_its_record(tmp_path):
    board, col = stored_colouring("18x20")
    path = tmp_path / "unknowns.jsonl"
    path.write_text(json.dumps({"board": "18x20", "class": 0, "cells": np.flatnonzero(col == 0).tolist()}) + "\n")
    assert bench.retry_unknowns(board, str(path), 300) == {"found": 1}
