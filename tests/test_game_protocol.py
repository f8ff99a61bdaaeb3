"""The shared protocol helpers: returns, playout statistics, confidence intervals."""

from __future__ import annotations

from puzzles.game import shared_win_returns
from solvers.playout import PlayoutStats, game_seed, wilson_interval


def test_shared_win_returns_splits_ties() -> None:
    assert shared_win_returns([3, 5, 5, 1]) == [0.0, 0.5, 0.5, 0.0]
    assert shared_win_returns([7, 2]) == [1.0, 0.0]


def test_wilson_interval_contains_estimate_and_narrows() -> None:
    low, high = wilson_interval(50, 100)
    assert low < 0.5 < high
    low2, high2 = wilson_interval(500, 1000)
    assert high2 - low2 < high - low
    assert wilson_interval(0, 10)[0] == 0.0


def test_stats_merge_equals_single_run() -> None:
    class Final:
        num_players = 2

        def __init__(self, scores):
            self._scores = scores

        def scores(self):
            return self._scores

        def returns(self):
            return shared_win_returns(self._scores)

    games = [Final([1, 2]), Final([3, 3]), Final([5, 0])]
    whole = PlayoutStats(2)
    for g in games:
        whole.add(g)
    first, second = PlayoutStats(2), PlayoutStats(2)
    first.add(games[0])
    for g in games[1:]:
        second.add(g)
    first.merge(second)
    assert first.summary() == whole.summary()
    assert whole.wins == [1.5, 1.5]
    assert game_seed(3, 4) != game_seed(4, 3)
