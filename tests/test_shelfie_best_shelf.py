"""The perfect shelf (CP-SAT): the reported shelf is legal and really scores what is claimed."""

from __future__ import annotations

import pytest

from puzzles.shelfie import adjacency_points, common_goal_met, personal_goal_points
from solvers.shelfie_best_shelf import _adjacency_bounds, best_shelf


@pytest.mark.parametrize("card,goals", [(3, ("STAIRCASE", "EIGHT_SAME")), (1, ("SIX_PAIRS", "TWO_SQUARES"))])
def test_best_shelf_is_valid_and_rescored(card: int, goals: tuple[str, str]) -> None:
    result = best_shelf(card, goals, time_limit=2)
    shelf = result.shelf
    shelf.validate()  # gravity and supply
    assert result.breakdown["adjacency"] == adjacency_points(shelf)
    assert result.breakdown["personal_goal"] == personal_goal_points(card, shelf)
    met = [common_goal_met(k, shelf) for k in goals]
    assert result.breakdown["common_goals"] == 8 * sum(met)
    assert result.breakdown["end_token"] == (1 if shelf.is_full() else 0)
    assert result.score == sum(result.breakdown.values())
    assert result.bound >= result.score >= 45  # far above any random shelf
    assert result.to_json()["shelf"] == shelf.rows()


def test_best_shelf_no_shelf_above_the_bound() -> None:
    with pytest.raises(RuntimeError, match="no shelf"):
        best_shelf(2, ("DIAGONAL", "X_SHAPE"), time_limit=3, min_score=70)  # 40 + 12 + 16 + 1 = 69 at most


def test_adjacency_bound_table() -> None:
    table = _adjacency_bounds()
    assert table[5][30] == 40 and table[6][30] == 37 and table[7][30] == 35 and table[1][3] == 2


def test_best_shelf_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="two different"):
        best_shelf(1, ("DIAGONAL", "DIAGONAL"))
    with pytest.raises(ValueError, match="personal goal card"):
        best_shelf(13, ("DIAGONAL", "X_SHAPE"))
