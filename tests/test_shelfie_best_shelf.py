"""The perfect shelf (CP-SAT): legal shelves, re-scored, and proven optimal by pieces."""

from __future__ import annotations

import itertools
import random

import pytest

from puzzles.shelfie import adjacency_points, common_goal_met, personal_goal_points
from puzzles.shelfie.rules import COMMON_GOAL_KEYS
from solvers.shelfie.best_shelf import best_shelf
from solvers.shelfie.model import PLACEMENTS, adjacency_bounds, tasks


def _check(result, card: int, goals: tuple[str, str]) -> None:
    shelf = result.shelf
    shelf.validate()  # gravity and supply
    assert result.breakdown["adjacency"] == adjacency_points(shelf)
    assert result.breakdown["personal_goal"] == personal_goal_points(card, shelf)
    met = [common_goal_met(k, shelf) for k in goals]
    assert result.breakdown["common_goals"] == 8 * sum(met)
    assert result.breakdown["end_token"] == (1 if shelf.is_full() else 0)
    assert result.score == sum(result.breakdown.values())
    assert result.to_json()["shelf"] == shelf.rows()


@pytest.mark.parametrize("card,goals,optimum", [
    pytest.param(1, ("FOUR_CORNERS", "THREE_COLUMNS_MAX3"), 63,  # five hexomino groups, four corners alike
                 marks=pytest.mark.slow),  # ~10 CPU-s of CP-SAT; the case below is the default smoke
    # the staircase is not worth it; ~4 CPU-s: by default an optimum is proved in tests/test_sheets.py
    # (test_shelfie_challenge_optimum_proved_and_the_shelf_reaches_it, 54 on card 1)
    pytest.param(12, ("TWO_COLUMNS_ALL_DIFFERENT", "STAIRCASE"), 57, marks=pytest.mark.slow),
])
def test_best_shelf_proven_optimal(card: int, goals: tuple[str, str], optimum: int) -> None:
    result = best_shelf(card, goals, time_limit=60)
    _check(result, card, goals)
    assert result.optimal and result.status == "OPTIMAL"
    assert result.score == result.bound == optimum


def test_best_shelf_tiny_time_limit_still_returns_a_valid_shelf() -> None:
    result = best_shelf(3, ("STAIRCASE", "EIGHT_SAME"), time_limit=0.5)
    _check(result, 3, ("STAIRCASE", "EIGHT_SAME"))
    assert result.score >= 40  # the hill-climbing incumbent
    assert result.bound >= result.score


def test_best_shelf_no_shelf_above_the_bound() -> None:
    with pytest.raises(RuntimeError, match="no shelf scores 70"):
        best_shelf(2, ("DIAGONAL", "X_SHAPE"), time_limit=3, min_score=70)  # 40 + 12 + 16 + 1 = 69 at most


def test_placements_are_all_polyominoes_up_to_six_cells() -> None:
    sizes = [sum(1 for p in PLACEMENTS if len(p) == k) for k in range(1, 7)]
    assert sizes == [30, 49, 118, 295, 766, 2018]


def test_pieces_cover_every_score_and_prune_by_counting() -> None:
    pieces = tasks(6, (8, 8), True, ("X_SHAPE", "STAIRCASE"))
    assert [p for p, _ in pieces] == sorted((p for p, _ in pieces), reverse=True)
    keys = {key for _, key in pieces}
    # six matched cells of six types need six groups: five hexomino groups cannot hold them
    assert (6, 1, 0, 1, 0, 0, 0, 5) not in keys and (5, 1, 0, 1, 0, 0, 0, 5) in keys
    # a full shelf is no staircase; a staircase holds at most 20 tiles (three 6-groups at most)
    assert all(not (g2 and full) for _, (k, g1, g2, full, *_) in pieces)
    assert all(c6 <= 3 for _, (k, g1, g2, full, c3, c4, c5, c6) in pieces if g2)
    # every potential is the exact score of its shelves
    for potential, (k, g1, g2, full, c3, c4, c5, c6) in pieces[:50]:
        assert potential == [0, 1, 2, 4, 6, 9, 12][k] + 8 * (g1 + g2) + full + 2 * c3 + 3 * c4 + 5 * c5 + 8 * c6


def test_adjacency_bound_table() -> None:
    table = adjacency_bounds()
    assert table[5][30] == 40 and table[6][30] == 37 and table[7][30] == 35 and table[1][3] == 2


def test_best_shelf_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="two different"):
        best_shelf(1, ("DIAGONAL", "DIAGONAL"))
    with pytest.raises(ValueError, match="personal goal card"):
        best_shelf(13, ("DIAGONAL", "X_SHAPE"))


@pytest.mark.slow
def test_best_shelf_sweep_proven_within_30_s() -> None:
    """One sampled goal pair per personal card: every one proven optimal within 30 s."""
    rng = random.Random(1)
    pairs = list(itertools.combinations(COMMON_GOAL_KEYS, 2))
    unproven = []
    for card in range(1, 13):
        goals = rng.choice(pairs)
        result = best_shelf(card, goals, time_limit=30)
        _check(result, card, goals)
        if not result.optimal:
            unproven.append((card, goals, result.score, result.bound))
    assert not unproven


def test_sweep_table_shelves_score_what_the_table_says() -> None:
    """bench/results/shelfie_best_shelf_all.tsv (the perfect shelf of all 792 pairs, each proven optimal
    by the sweep): every shelf in it is legal and scores the tabled optimum by the plain scoring rules."""
    from pathlib import Path

    from puzzles.shelfie import Bookshelf

    path = Path(__file__).parent.parent / "bench" / "results" / "shelfie_best_shelf_all.tsv"
    lines = [line.split("\t") for line in path.read_text().splitlines() if line and not line.startswith("#")]
    header, rows = lines[0], lines[1:]
    assert header[:4] == ["card", "goal_1", "goal_2", "score"]
    assert {(int(r[0]), r[1], r[2]) for r in rows} == {
        (card, a, b) for card in range(1, 13) for a, b in itertools.combinations(COMMON_GOAL_KEYS, 2)}
    for card, g1, g2, score, optimal, _, _, shelf_text in rows:
        shelf = Bookshelf.from_rows(shelf_text.split("/"), strict=True)
        points = adjacency_points(shelf) + personal_goal_points(int(card), shelf)
        points += 8 * sum(common_goal_met(g, shelf) for g in (g1, g2)) + (1 if shelf.is_full() else 0)
        assert optimal == "True" and points == int(score), (card, g1, g2)



def test_goal_lemmas_are_tight_and_drop_only_the_pieces_they_rule_out() -> None:
    """Each stored bound keeps a witness: a legal shelf meeting its goals with exactly that adjacency."""
    from puzzles.shelfie import Bookshelf
    from solvers.shelfie.goal_bounds import goal_lemmas, stored_bounds

    assert stored_bounds()
    for entry in stored_bounds():
        shelf = Bookshelf.from_rows(entry["witness"], strict=True)
        assert all(common_goal_met(g, shelf) for g in entry["goals"]), entry["goals"]
        assert adjacency_points(shelf) == entry["max_adjacency"] < 40
        assert all(entry["low"] <= 2 * c3 + 3 * c4 + 5 * c5 + 8 * c6 <= entry["max_adjacency"]
                   for _, c3, c4, c5, c6 in entry.get("infeasible_profiles", []))
    lemmas = goal_lemmas()
    goals = ("TWO_COLUMNS_ALL_DIFFERENT", "X_SHAPE")
    lemma = lemmas[frozenset(goals)]
    impossible = {tuple(p) for p in lemma["infeasible_profiles"]}
    plain, cut = tasks(5, (8, 8), True, goals), tasks(5, (8, 8), True, goals, lemmas=lemmas)
    kept = {key for _, key in cut}
    assert kept < {key for _, key in plain}
    for _, key in plain:
        both, adjacency = key[1] and key[2], 2 * key[4] + 3 * key[5] + 5 * key[6] + 8 * key[7]
        ruled_out = both and (adjacency > lemma["max_adjacency"] or tuple(key[3:]) in impossible)
        assert (key in kept) != ruled_out, key
    # TWO_SQUARES lemmas hold for the default rule only
    assert set(lemmas) - set(goal_lemmas(squares_inside_groups=True)) == {s for s in lemmas if "TWO_SQUARES" in s}
    assert any("TWO_SQUARES" in s for s in lemmas)


def test_goal_lemma_profile_proven_again_by_cp_sat() -> None:
    """A stored impossible profile is shown INFEASIBLE again (every stored profile:
    ``test_every_stored_goal_lemma_is_proven_again``, -m slow)."""
    from solvers.shelfie.goal_bounds import goal_lemmas, profile_feasible

    goals = ("DIAGONAL", "TWO_COLUMNS_ALL_DIFFERENT")
    profile = goal_lemmas()[frozenset(goals)]["infeasible_profiles"][5]  # about 3 CPU-s of CP-SAT (others up to 8)
    assert profile_feasible(goals, profile, time_limit=60) is False


@pytest.mark.slow  # about 6 CPU-s of CP-SAT to find a shelf with the witness's profile
def test_goal_lemma_witness_profile_is_feasible() -> None:
    """The witness's own profile is FEASIBLE for the same model (the model does not rule out everything)."""
    from puzzles.shelfie import Bookshelf
    from puzzles.shelfie.rules import groups
    from solvers.shelfie.goal_bounds import goal_lemmas, profile_feasible

    goals = ("TWO_COLUMNS_ALL_DIFFERENT", "X_SHAPE")
    witness = Bookshelf.from_rows(goal_lemmas()[frozenset(goals)]["witness"])
    sizes = [len(cells) for _, cells in groups(witness)]
    profile = [int(witness.is_full())] + [sizes.count(n) for n in (3, 4, 5)] + [sum(n >= 6 for n in sizes)]
    assert profile_feasible(goals, profile, time_limit=60) is True


@pytest.mark.slow
def test_every_stored_goal_lemma_is_proven_again() -> None:
    from solvers.shelfie.goal_bounds import profile_feasible, prove_adjacency_bound, stored_bounds

    for stored in stored_bounds():
        goals = tuple(stored["goals"])
        assert prove_adjacency_bound(goals, time_limit=900)["max_adjacency"] == stored["max_adjacency"]
        for profile in stored.get("infeasible_profiles", []):
            assert profile_feasible(goals, profile, time_limit=300) is False, (goals, profile)
