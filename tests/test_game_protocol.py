"""The shared protocol helpers: returns, playout statistics, confidence intervals."""

from __future__ import annotations

from puzzles.game import shared_win_returns
from solvers.playout import PlayoutStats, game_seed, seating, wilson_interval


def test_shared_win_returns_splits_ties() -> None:
    assert shared_win_returns([3, 5, 5, 1]) == [0.0, 0.5, 0.5, 0.0]
    assert shared_win_returns([7, 2]) == [1.0, 0.0]


def test_wilson_interval_contains_estimate_and_narrows() -> None:
    low, high = wilson_interval(50, 100)
    assert low < 0.5 < high
    low2, high2 = wilson_interval(500, 1000)
    assert high2 - low2 < high - low
    assert wilson_interval(0, 10)[0] == 0.0


def test_stats_merge_equals_single_run_and_rotation_credits_the_bot() -> None:
    results = [([0.0, 1.0], [1, 2]), ([0.5, 0.5], [3, 3]), ([1.0, 0.0], [5, 0])]
    whole = PlayoutStats(["a", "b"])
    parts = [PlayoutStats(["a", "b"]), PlayoutStats(["a", "b"])]
    for index, (returns, scores) in enumerate(results):
        seats = seating(2, index, rotate=True)
        whole.add_result(returns, scores, seats)
        parts[min(index, 1)].add_result(returns, scores, seats)
    merged = parts[0].merge(parts[1])
    assert merged.summary() == whole.summary()
    # the bots swap seats in game 1: a scores 1 + 3 + 5, b scores 2 + 3 + 0
    assert whole.wins == [1.5, 1.5]
    assert whole.seat_wins == [1.5, 1.5]
    assert whole.score_sums == [9, 5]
    assert PlayoutStats.from_json(whole.to_json()) == whole
    assert game_seed(3, 4) != game_seed(4, 3)


def test_seating_rotates_one_seat_per_game() -> None:
    assert [seating(3, g, rotate=True) for g in range(3)] == [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    assert seating(3, 5, rotate=False) == [0, 1, 2]
