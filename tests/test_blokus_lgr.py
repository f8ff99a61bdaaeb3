"""mcts-rave's last good reply (knob ``lgr``) and Pentobi's two-seat quality bonus (knob ``quality_bonus``)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from puzzles.blokus.engine import BlokusState
from solvers.blokus.mcts import FastMCTSBot
from solvers.blokus.mcts.driver import Workspace
from solvers.blokus.mcts.playout import _quality_bonus, lgr_legal, lgr_reply, lgr_slot, lgr_update, results


def random_position(variant: str, placements: int, seed: int) -> BlokusState:
    rng = random.Random(seed)
    state = BlokusState(variant)
    while len([h for h in state.history if not h[1].is_pass]) < placements and not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(("variant", "placements", "seed"), [("duo", 6, 1), ("duo", 17, 2), ("classic", 14, 3),
                                                             ("two-player", 30, 4)])
def test_the_reply_check_is_the_rules_for_every_placement(variant: str, placements: int, seed: int) -> None:
    """For each colour that has placed a piece, the reply check accepts exactly its legal placements."""
    state = random_position(variant, placements, seed)
    checked = 0
    for c in range(state.num_colors):
        if state.arrays.placed[c] == 0:
            continue
        legal = set(state.legal_placements(c, ordered=False).tolist())
        accepted = {m for m in range(state.tables.num_placements)
                    if lgr_legal.py_func(c, m, state.ktables, state.arrays)}
        assert accepted == legal
        checked += 1
    assert checked >= 2


def tables_for(state: BlokusState) -> tuple[np.ndarray, ...]:
    return Workspace(state, 16).lgr


def test_replies_are_stored_for_winners_forgotten_for_losers_and_read_two_moves_first() -> None:
    state = random_position("duo", 6, 1)
    legal = {c: state.legal_placements(c, ordered=False) for c in (0, 1)}
    a, b, x, y = int(legal[0][0]), int(legal[1][0]), int(legal[0][1]), int(legal[1][1])
    lgr = tables_for(state)
    player_of = np.array([0, 1], dtype=np.int32)
    log = (np.array([a, b, x, y], dtype=np.int32), np.array([0, 1, 0, 1], dtype=np.int32),
           np.zeros(4, dtype=np.int32), np.array([4], dtype=np.int64))
    lgr_update.py_func(lgr, log, np.array([0.9, 0.1]), player_of)  # colour 0 won
    assert lgr[0][0, b + 1] == x + 1 and lgr[1][0, lgr_slot.py_func(lgr, b, a)] == x + 1
    assert np.count_nonzero(lgr[0][1]) == 0 and np.count_nonzero(lgr[1][1]) == 0
    assert lgr_reply.py_func(0, b, a, lgr, state.ktables, state.arrays, player_of) == x  # the reply to (a, b)
    lgr[1][0, lgr_slot.py_func(lgr, b, a)] = 0
    assert lgr_reply.py_func(0, b, a, lgr, state.ktables, state.arrays, player_of) == x  # the reply to b alone
    assert lgr_reply.py_func(0, a, -1, lgr, state.ktables, state.arrays, player_of) == -1  # none stored
    lgr_update.py_func(lgr, log, np.array([0.5, 0.5]), player_of)  # a tie counts as a win for both
    assert lgr[0][1, x + 1] == y + 1 and lgr[0][0, b + 1] == x + 1
    lgr_update.py_func(lgr, log, np.array([0.2, 0.8]), player_of)  # colour 0 lost: its replies are forgotten
    assert lgr[0][0, b + 1] == 0 and lgr[1][0, lgr_slot.py_func(lgr, b, a)] == 0 and lgr[0][1, x + 1] == y + 1
    lgr[0][0, b + 1] = legal[1][2] + 1  # a stored reply that is not legal for colour 0 is not played
    assert lgr_reply.py_func(0, b, a, lgr, state.ktables, state.arrays, player_of) == -1


def test_no_reply_before_the_first_piece_or_for_the_shared_colour() -> None:
    state = random_position("three-player", 3, 5)  # colours 0-2 have placed; green (3) not yet
    lgr = tables_for(state)
    lgr[0][:, :] = int(state.legal_placements(3, ordered=False)[0]) + 1
    player_of = np.array([0, 1, 2, -1], dtype=np.int32)
    assert lgr_reply.py_func(3, -1, -1, lgr, state.ktables, state.arrays, player_of) == -1
    log = (np.array([5, 6], dtype=np.int32), np.array([2, 3], dtype=np.int32), np.zeros(2, dtype=np.int32),
           np.array([2], dtype=np.int64))
    before = lgr[0].copy()
    lgr_update.py_func(lgr, log, np.array([0.0, 0.0, 1.0, 0.5]), player_of)
    assert np.array_equal(lgr[0], before)  # green's move is neither stored nor forgotten


def root_visits(bot: FastMCTSBot, state: BlokusState, seed: int = 5) -> np.ndarray:
    return bot.search(state, seed=seed)[1]


def test_the_knob_changes_the_search_which_stays_deterministic_and_starts_afresh_each_game() -> None:
    state = random_position("duo", 8, 6)
    default = root_visits(FastMCTSBot(iterations=400, reuse=False), state)
    with_lgr = root_visits(FastMCTSBot(iterations=400, reuse=False, knobs={"lgr": 1.0}), state)
    assert not np.array_equal(default, with_lgr)
    bot = FastMCTSBot(iterations=400, knobs={"lgr": 1.0})
    assert np.array_equal(root_visits(bot, state), with_lgr)
    assert np.count_nonzero(bot._setup(state)[1][0].lgr[0]) > 0  # replies were stored
    bot.reset()  # a new game: the replies of the last are forgotten
    assert np.array_equal(root_visits(bot, state), with_lgr)


def test_two_seat_quality_bonus_is_pentobis_and_the_values_still_sum_to_one() -> None:
    """With the knob, a two-seat result is win/tie/loss plus 0.3 sigmoid(z of the margin) and -0.12 (result - 0.5)
    sigmoid(z of the game length), as Pentobi's ``evaluate_twocolor``; without it, 0.9 result + 0.1 squashed margin."""
    stats = np.zeros((3, 3))
    val = np.array([1.0, 0.0])
    _quality_bonus.py_func(np.array([10, 10]), np.array([-5.0, -15.0]), val, 2, stats)
    assert val.tolist() == [1.0, 0.0]  # no variance yet
    _quality_bonus.py_func(np.array([12, 12]), np.array([-25.0, -5.0]), val := np.array([0.0, 1.0]), 2, stats)
    s = np.tanh(1.0)  # z of the margins -1 and +1, of the length +1: 0.06 s - 0.3 s for the loser
    assert val == pytest.approx([-0.24 * s, 1.0 + 0.24 * s]) and sum(val) == pytest.approx(1.0)
    state = random_position("duo", 60, 7)
    assert state.is_terminal()
    out, seat_val = np.zeros(2), np.zeros((2, 2))
    from puzzles.blokus.tables import PIECE_NAMES

    args = (state.arrays, state.tables.piece_sizes, PIECE_NAMES.index("1"), np.array([0, 1], dtype=np.int32), 2, out,
            seat_val)
    margin = state.scores()[0] - state.scores()[1]
    results.py_func(*args, np.zeros((3, 3)), False)
    win = 1.0 if margin > 0 else 0.0 if margin < 0 else 0.5
    assert out[0] == pytest.approx(0.9 * win + 0.1 * (0.5 + 0.5 * np.tanh(margin / 20.0)))
    results.py_func(*args, np.zeros((3, 3)), True)  # the first result of a search: no statistics yet
    assert out.tolist() == [win, 1.0 - win]


def test_the_move_cannot_change_once_its_lead_exceeds_what_the_remaining_simulations_can_give() -> None:
    """Pentobi's early stop: the lead in wins over the second move against the remaining simulations times the
    mover's mean result (at least 0.1; 1 before 100 results)."""
    from solvers.blokus.mcts.driver import move_cannot_change
    from solvers.blokus.mcts.tree import new_tree

    tree = new_tree(8)
    tree.first[0], tree.nchild[0] = 1, 3
    tree.value[1:4] = [0.5, 0.6, 0.4]
    tree.value_count[1:4] = [100.0, 200.0, 50.0]  # wins 50, 120, 20: a lead of 70
    few, many = np.array([30.0, 50.0]), np.array([100.0, 200.0])
    assert move_cannot_change(tree, few, 70.0) and not move_cannot_change(tree, few, 70.5)  # rate 1 (50 results)
    assert move_cannot_change(tree, many, 140.0) and not move_cannot_change(tree, many, 141.0)  # rate 0.5
    assert move_cannot_change(tree, np.array([1.0, 200.0]), 700.0)  # rate 0.005 counts as 0.1
    assert not move_cannot_change(tree, np.array([1.0, 200.0]), 701.0)
    # as Pentobi's loop measures it: the best (120, the 2nd child) leads the maximum before it (50) by 70, as above;
    # with the best first, the lead is over nothing before it: 120 (the later 50 is missed)
    assert move_cannot_change(tree, few, 70.0, as_pentobi=True)
    assert not move_cannot_change(tree, few, 70.5, as_pentobi=True)
    tree.value[1:4], tree.value_count[1:4] = [0.6, 0.5, 0.4], [200.0, 100.0, 50.0]
    assert not move_cannot_change(tree, few, 70.5)
    assert move_cannot_change(tree, few, 120.0, as_pentobi=True)
    assert not move_cannot_change(tree, few, 120.5, as_pentobi=True)
    tree.value[3], tree.value_count[3] = 0.6, 200.0  # wins 120, 50, 120: a tie for the best; Pentobi keeps the first, whose lead is 120
    assert move_cannot_change(tree, few, 120.0, as_pentobi=True) and not move_cannot_change(tree, few, 0.5)
    assert FastMCTSBot(knobs={"pentobi_stop": 1.0}).early_stop  # Pentobi's measure implies the early stop
    tree.nchild[0] = 1
    assert move_cannot_change(tree, few, 1e9)  # a single move
    with pytest.raises(ValueError, match="early_stop"):
        FastMCTSBot(knobs={"early_stops": 1.0})


def test_pentobi_counts_spread_an_iteration_budget_as_pentobis_levels_and_reused_visits_count() -> None:
    from solvers.blokus.mcts.driver import pentobi_count_weight

    assert pentobi_count_weight("duo", 0) == pytest.approx(0.42)
    assert pentobi_count_weight("duo", 10) == pytest.approx(0.7 * np.e)
    assert [round(pentobi_count_weight("classic", i) / (0.7 * np.exp(0.1 * i)), 3) for i in range(4)] == [0.2, 0.2,
                                                                                                       0.3, 1.0]
    state = random_position("duo", 10, 8)  # each colour has placed 5 pieces
    bot = FastMCTSBot(iterations=1000, knobs={"pentobi_counts": 1.0})
    assert bot._move_iterations(state, 0) == int(np.ceil(1000 * 0.7 * np.exp(0.5)))
    assert bot._move_iterations(state, 500) == int(np.ceil(1000 * 0.7 * np.exp(0.5))) - 500
    assert bot._move_iterations(state, 10**6) == 1
    # with two search threads each tree gets its part of the count, less the visits its own reused tree brings
    assert sum(bot._move_iterations(state, 0, k, 2) for k in range(2)) == int(np.ceil(1000 * 0.7 * np.exp(0.5)))
    assert bot._move_iterations(state, 100, 1, 2) == int(np.ceil(1000 * 0.7 * np.exp(0.5))) // 2 - 100
    assert FastMCTSBot(iterations=1000)._move_iterations(state, 500) == 1000
    assert FastMCTSBot(iterations=None, seconds=1.0, knobs={"pentobi_counts": 1.0})._move_iterations(state, 0) is None


def test_an_early_stopped_iteration_search_is_deterministic_and_stops_at_a_check() -> None:
    state = random_position("duo", 22, 9)
    runs = []
    for _ in range(2):
        bot = FastMCTSBot(iterations=20000, reuse=False, knobs={"early_stop": 1.0})
        runs.append(bot.search(state, seed=3)[1])
        assert bot.last_iterations % 625 == 0 and bot.last_iterations < 20000  # 20000 / 32 per check
    assert np.array_equal(runs[0], runs[1])


def test_pentobis_measure_of_the_lead_stops_a_search_no_later_and_as_deterministically() -> None:
    """Its lead is never smaller than the lead over the true second move, so it stops at the same check or sooner."""
    state = random_position("duo", 6, 5)
    counts = []
    for knobs in ({"early_stop": 1.0}, {"pentobi_stop": 1.0}, {"pentobi_stop": 1.0}):
        bot = FastMCTSBot(iterations=20000, reuse=False, knobs=knobs)
        bot.search(state, seed=3)
        counts.append(bot.last_iterations)
    assert counts[1] == counts[2] and counts[1] % 625 == 0
    assert counts[1] < counts[0]  # here it stops sooner (16,875 iterations; the true lead runs all 20,000)


def test_the_early_stop_reads_the_roots_children_in_pentobis_order() -> None:
    """Pentobi's loop over the root's children follows its move generator: by the colour's attach points in the
    order they were made, then by its list of pieces left (Pentobi's piece order, a placed piece swapped with the
    last), then by placement number."""
    from puzzles.blokus.tables import PIECE_NAMES
    from solvers.blokus.mcts.driver import PENTOBI_PIECE_ORDER, pentobi_root_order

    state = BlokusState("duo")
    pl_piece = state.tables.pl_piece
    moves = np.array(state.legal_placements())
    listed = moves[pentobi_root_order(state, moves)]
    keys = [(PENTOBI_PIECE_ORDER.index(PIECE_NAMES[pl_piece[m]]), int(m)) for m in listed]
    assert keys == sorted(keys) and PIECE_NAMES[pl_piece[listed[0]]] == "V5"  # no attach point yet: one group
    v5 = next(m for m in state.legal_actions() if m.piece == "V5")
    state.apply(v5)
    state.apply(state.legal_actions()[0])
    color, arrays = state.to_move, state.arrays
    points = [int(q) for q in arrays.attach[color, :arrays.attach_len[color]] if not arrays.forbidden[color, q]]
    moves = np.array(state.legal_placements())
    listed = moves[pentobi_root_order(state, moves)]
    cells = state.tables.pl_cells
    groups = [min(points.index(int(q)) for q in cells[m] if int(q) in points) for m in listed]
    assert groups == sorted(groups) and len(set(groups)) > 1
    left = list(PENTOBI_PIECE_ORDER)
    left[0] = left.pop()  # V5 placed: the monomino, last in the list, takes its place
    for g in set(groups):
        in_group = [m for m, k in zip(listed, groups) if k == g]
        keys = [(left.index(PIECE_NAMES[pl_piece[m]]), int(m)) for m in in_group]
        assert keys == sorted(keys)
    assert PIECE_NAMES[pl_piece[listed[0]]] == "1"
