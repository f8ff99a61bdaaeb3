"""My Shelfie numba kernel against the engine, best move now, bots and their strength."""

from __future__ import annotations

import random

import numpy as np
import pytest

from puzzles.shelfie import Bookshelf, Refill, ShelfieState, new_game
from puzzles.shelfie.components import COMMON_GOAL_KEYS, EMPTY, personal_goal_grid
from puzzles.shelfie.kernel import (
    GOAL_IDS,
    MAX_MOVES,
    adjacency,
    gen_moves,
    goal_met,
    personal_points,
    seat_score,
    winner,
)
from solvers.bots import RandomBot, make_bot
from solvers.playout import PlayoutStats, make_job, play_game, playout_range, run_playouts, seating, wilson_interval
from solvers.shelfie.bots import (
    ALL_CARD_GRIDS,
    GreedyBot,
    LookaheadBot,
    best_move_now,
    determinize_cards,
    fast_playouts,
    move_from_row,
    move_points,
    play_logged_game,
)
from tests import shelfie_reference as reference
from tests.shelfie_reference import adjacency_points, common_goal_met, personal_goal_points


def random_positions(count: int, players: int = 3, seed: int = 0) -> list[ShelfieState]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = new_game(players, seed=rng.randrange(10**6))
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                continue
            if rng.random() < 0.15:
                out.append(state.clone())
            state.apply(RandomBot().choose(state, rng))
    return out[:count]


def test_kernel_moves_equal_reference_moves() -> None:
    for state in random_positions(40):
        moves = np.empty((MAX_MOVES, 5), dtype=np.int64)
        n = gen_moves(state.arrays.board, state.arrays.shelves[state.to_move], moves)
        kernel = [move_from_row(moves[i]) for i in range(n)]
        assert len(kernel) == len(set(kernel))
        assert set(kernel) == set(reference.legal_actions(state))
        assert state.legal_actions() == kernel == reference.legal_actions(state)  # the same order too


def test_kernel_scoring_equals_reference_scoring() -> None:
    rng = np.random.default_rng(0)
    for k in range(400):
        grid = rng.integers(-1, 6, size=(6, 5)).astype(np.int8)
        if k % 2:  # low-variety shelves meet more goals
            grid = np.where(grid >= 0, grid % 2 + (k % 3), grid).astype(np.int8)
        shelf = Bookshelf(grid)
        assert adjacency(grid) == adjacency_points(shelf)
        card = k % 12 + 1
        assert personal_points(personal_goal_grid(card), grid) == personal_goal_points(card, shelf)
        for key in COMMON_GOAL_KEYS:
            for inside in (False, True):
                for same in (False, True):
                    assert goal_met(GOAL_IDS[key], grid, inside, same) == common_goal_met(
                        key, shelf, squares_inside_groups=inside, squares_same_type=same), (key, shelf)


@pytest.mark.parametrize("players,rule", [(2, "isolated"), (4, "isolated"), (3, "four_or_fewer")])
def test_kernel_games_replay_through_the_engine(players: int, rule: str) -> None:
    for seed in range(3):
        state = new_game(players, seed=seed, refill_rule=rule)
        policies = ["random", "greedy", "lookahead", "random"][:players]
        events, moves, refills, arrays = play_logged_game(state, policies, seed)
        mi = ri = 0
        for ev in events:
            if ev == 0:
                board = refills[ri]
                ri += 1
                tiles = tuple(int(board[r * 9 + c]) if board[r * 9 + c] >= 0 else EMPTY
                              for r in range(9) for c in range(9) if state.mask[r, c])
                state.apply(Refill(tiles))
            else:
                state.apply(move_from_row(moves[mi]))
                mi += 1
            assert state.tile_counts() == [22] * 6
        assert state.is_terminal()
        assert np.array_equal(state.shelves, arrays.shelves)
        assert state.scores() == [float(seat_score(arrays, s)) for s in range(players)]
        assert state.winner() == winner(arrays)


def test_best_move_now_is_the_best_points_this_turn() -> None:
    for state in random_positions(12, players=2, seed=5):
        move, points = best_move_now(state, random.Random(0))
        seat = state.to_move
        brute = []
        for action in state.legal_actions():
            after = state.clone()
            before = after.scores()[seat]
            after.apply(action)
            brute.append(after.scores()[seat] - before)
        assert points == max(brute)
        assert move in state.legal_actions()
        assert move_points(state)[0][1] == points


def test_bots_play_through_the_protocol() -> None:
    rng = random.Random(4)
    final = play_game(new_game(3, seed=4), [GreedyBot(), LookaheadBot(), RandomBot()], rng)
    assert final.is_terminal() and final.tile_counts() == [22] * 6
    assert sum(final.returns()) == 1.0


def win_rate(bots: list[str], games: int, seed: int) -> tuple[float, tuple[float, float]]:
    """First bot's win rate (seats rotated) and its 95% Wilson interval."""
    stats = run_playouts("shelfie", bots, games, seed=seed, players=2)
    return stats.wins[0] / stats.games, wilson_interval(stats.wins[0], stats.games)


def test_bot_strength_smoke() -> None:
    assert win_rate(["greedy", "random"], 30, seed=1)[0] >= 0.9
    assert win_rate(["lookahead", "greedy"], 20, seed=1)[0] >= 0.6


@pytest.mark.slow
def test_bot_strength_over_200_games() -> None:
    greedy_vs_random, _ = win_rate(["greedy", "random"], 200, seed=11)
    lookahead_vs_greedy, (low, high) = win_rate(["lookahead", "greedy"], 200, seed=12)
    print(f"greedy beats random {greedy_vs_random:.3f}; lookahead beats greedy {lookahead_vs_greedy:.3f} "
          f"[{low:.3f}, {high:.3f}]")
    assert greedy_vs_random >= 0.9
    assert lookahead_vs_greedy >= 0.6 and low > 0.5


def test_fast_playouts_smoke() -> None:
    stats = run_playouts("shelfie", ["random"], 300, seed=1, players=4)  # speed is measured in bench/
    assert isinstance(stats, PlayoutStats) and stats.games == 300
    assert sum(stats.wins) == 300 and sum(stats.seat_wins) == 300
    assert all(total >= 0 for total in stats.score_sums)


def test_fast_playouts_do_not_depend_on_ranges() -> None:
    job = make_job("shelfie", ["greedy", "random"], 2, seed=3)
    whole = fast_playouts(job, 0, 30)
    assert whole is not None
    first, rest = fast_playouts(job, 0, 11), fast_playouts(job, 11, 30)
    assert first is not None and rest is not None
    assert first.merge(rest).to_json() == whole.to_json()
    assert whole.wins == [30.0, 0.0] and whole.seat_wins == [15.0, 15.0]  # greedy wins in both seats


def test_fast_playouts_seat_the_bots_like_the_generic_runner() -> None:
    job = make_job("shelfie", ["greedy", "random", "random"], 3, seed=5)
    stats = fast_playouts(job, 0, 12)
    assert stats is not None and stats.wins[0] >= 10  # greedy, whichever seat seating() gives it
    assert [seating(3, i, True)[0] for i in range(3)] == [0, 1, 2]
    # line-ups the kernel cannot play go to the generic runner
    assert fast_playouts(make_job("shelfie", ["mcts:2", "greedy"], 2), 0, 1) is None
    assert fast_playouts(make_job("shelfie", ["lookahead:2", "lookahead:3"], 2), 0, 1) is None
    generic = playout_range(make_job("shelfie", ["mcts:2", "random"], 2, seed=1), 0, 1)
    assert generic.games == 1


def test_bots_by_name() -> None:
    assert make_bot("shelfie", "greedy").name == "greedy"
    assert make_bot("shelfie", "lookahead:8").name == "lookahead:8"
    assert make_bot("shelfie", "lookahead:8").params[1] == 8  # type: ignore[attr-defined]
    for bad in ("greedy:5", "lookahead:2s", "nope"):
        with pytest.raises(ValueError):
            make_bot("shelfie", bad)


def test_determinized_cards_keep_the_own_card_and_ignore_the_others() -> None:
    from puzzles.shelfie.kernel import seed_numba

    cards = ALL_CARD_GRIDS[[2, 7, 9, 11]].copy()
    other = ALL_CARD_GRIDS[[0, 7, 3, 4]].copy()  # same card for seat 1, different hidden ones
    seen = set()
    for seed in range(40):
        out_a = np.empty_like(cards)
        out_b = np.empty_like(cards)
        seed_numba(seed)
        determinize_cards(cards, 1, out_a)
        seed_numba(seed)
        determinize_cards(other, 1, out_b)
        assert np.array_equal(out_a, out_b)
        ids = [next(k for k in range(12) if np.array_equal(ALL_CARD_GRIDS[k], grid)) for grid in out_a]
        assert ids[1] == 7 and len(set(ids)) == 4
        seen.update(ids[s] for s in (0, 2, 3))
    assert 7 not in seen and len(seen) == 11


@pytest.mark.parametrize("spec", ["lookahead", "greedy", "mcts:4"])
def test_bots_ignore_the_cards_they_cannot_see(spec: str) -> None:
    changed = 0
    for index, state in enumerate(random_positions(25, players=3, seed=9)):
        mover = state.current_player()
        other = state.resample(mover, random.Random(index))
        assert other.observation(mover) == state.observation(mover)
        changed += other.personal_cards != state.personal_cards
        real = make_bot("shelfie", spec).choose(state.clone(), random.Random(index))
        redrawn = make_bot("shelfie", spec).choose(other.clone(), random.Random(index))
        assert real == redrawn, (spec, index)
    assert changed >= 20
