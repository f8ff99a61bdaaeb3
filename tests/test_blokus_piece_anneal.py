"""bench/blokus_piece_anneal.py: the stored layouts cost 0 with their crossings and corner-only pairs counted, the
moves keep every count equal to a fresh count, a recolouring finds a stored layout from scrambled colours, a refill
packs pieces moved onto others again (with their colours kept, the stored layout among its answers), and a layout
found is written as a record that replays."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.bench_scripts import bench_module

bench = bench_module("blokus_piece_anneal")  # it imports blokus_cell_anneal from its own folder
DATA = Path(__file__).parent / "data"


def stored_state(name: str) -> tuple[object, object, np.ndarray, np.ndarray]:
    """(board, placements, the stored layout's colouring, its state)."""
    cols, rows = map(int, name.split("x"))
    board = bench.CellBoard(cols, rows, "half")
    places = bench.Placements(board)
    col = bench.stored_colouring(board, str(DATA / f"blokus_all_pieces_{name}_4c.json"))
    return board, places, col, places.state_of(col)


class Counts:
    """The kernels' board state, counted afresh from a state by ``_full_cost``."""

    def __init__(self, board, places, cur: np.ndarray) -> None:
        n = board.n
        self.cnt, self.own, self.cellp = np.zeros(n, np.int64), np.zeros((3, n), np.int64), np.zeros((n, 9), np.int64)
        self.adj, self.mark, self.stamp = np.zeros((2, 21, 21), np.bool_), np.zeros(n, np.int64), np.zeros(1, np.int64)
        self.touch, self.cop = np.zeros((2, 84, 84), np.int64), np.zeros(86, np.int64)
        self.conn = np.zeros(2)
        self.tables = places.tables
        weights = np.array([1.0, 1, 1, 1, 0, 0, 0, 0, 0])
        self.totals = list(bench._full_cost(cur, self.cnt, self.own, self.adj, self.mark, self.stamp, self.tables,
                                            weights, np.array([0, board.cols - 1]), self.conn,
                                            np.zeros(21, np.int64), np.zeros(21, np.int64), self.touch, self.cop,
                                            self.cellp))

    def relocate(self, cur: np.ndarray, slot: int, placement: int) -> None:
        changes = bench._relocate(slot, placement, cur, self.cnt, self.own, self.adj, self.mark, self.stamp,
                                  np.zeros(80, np.int64), self.touch, self.cop, self.cellp, self.tables)
        self.totals = [a + b for a, b in zip(self.totals, changes)]


@pytest.mark.parametrize("name", ["18x20", "19x19"])
def test_a_stored_layout_has_no_overlap_no_edge_contact_and_is_connected(name):
    board, places, col, cur = stored_state(name)
    counts = Counts(board, places, cur)
    assert counts.totals == [0, 0, 44] and list(counts.conn) == [0, 0]  # 44 points where four pieces meet
    assert list(counts.cop[84:]) == [92, 0]  # 92 corner-only pairs of two shapes, no piece without one
    same = places.colouring(cur) == col
    # the stored 19x19 is not quite half-turn symmetric: its red and green monominoes are elsewhere
    assert same.all() if name == "18x20" else (~same).sum() == 4


def test_every_move_keeps_the_counts_equal_to_a_fresh_count():
    board, places, _, _ = stored_state("18x20")
    rng = np.random.default_rng(7)
    cur = places.random_state(rng)
    counts = Counts(board, places, cur)
    for _ in range(300):
        slot = int(rng.integers(42))
        placement = bench._propose(slot, cur, rng.random(), counts.tables)
        if placement >= 0:
            counts.relocate(cur, slot, placement)
    fresh = Counts(board, places, cur.copy())
    assert counts.totals == fresh.totals and counts.totals[0] > 0
    assert (counts.touch == fresh.touch).all() and (counts.cop == fresh.cop).all()


def test_recolouring_finds_the_stored_layout_from_scrambled_colours():
    board, places, col, cur = stored_state("18x20")
    rng = np.random.default_rng(3)
    scrambled = cur.copy()
    for s in range(21):  # blue's and yellow's copies trade places, pieces trade with their images
        if rng.random() < 0.5:
            scrambled[s], scrambled[s + 21] = scrambled[s + 21], scrambled[s]
    flip = rng.random(42) < 0.5
    scrambled[flip] = places.image_of[scrambled[flip]]
    assert not (places.colouring(scrambled) == col).all()
    status, found = bench.recolour(places, scrambled)
    assert status == "found" and (found == col).all()  # this packing has one colouring
    _, moves = bench.replay(board, found)
    assert len(moves) == 84


def test_refill_packs_pieces_moved_onto_others_again():
    board, places, _, cur = stored_state("18x20")
    moved = cur.copy()
    moved[4] = moved[25]  # blue's piece 5 onto yellow's piece 5 (same shape)
    moved[30] = places.image_of[moved[9]]  # yellow's 10 onto red's 10
    assert Counts(board, places, moved).totals[0] > 0
    status, fills = bench.refill(places, moved, 1, 20.0, most=3)
    assert status == "found" and len(fills) == 3
    for fill in fills:
        assert Counts(board, places, fill).totals[0] == 0  # no overlap
        assert sorted(places.shape[fill]) == sorted(places.shape[cur])
    # keeping the colours: only the pieces on the cells covered twice go, and the stored layout is one refill
    status, fills = bench.refill(places, moved, 0, 20.0, most=100, coloured=True)
    assert status == "found" and any((fill == cur).all() for fill in fills)
    assert sum(bench.state_cost(places, fill) == (0, 0, 0) for fill in fills) == 2  # it and one more layout
    assert all(bench.state_cost(places, fill)[1] == 0 for fill in fills)  # the edge rule holds in every refill


def test_a_layout_found_is_written_as_a_record_that_replays(tmp_path, capsys, monkeypatch):
    out = tmp_path / "layout.json"
    monkeypatch.setattr(sys, "argv", ["blokus_piece_anneal.py", "18x20", "--start",
                                      str(DATA / "blokus_all_pieces_18x20_4c.json"), "--cycle", "2000",
                                      "--time-limit", "1", "--out", str(out)])
    bench.main()
    assert "FOUND, replayed through the rule engine (84 moves)" in capsys.readouterr().out
    record = json.loads(out.read_text())
    assert record["board"] == "18x20" and len(record["moves"]) == 84 and record["symmetry"] == "half-turn"
