"""My Shelfie numba kernel against the engine, best move now, bots and their strength."""

from __future__ import annotations

import random

import numpy as np
import pytest

from puzzles.shelfie import Bookshelf, Refill, ShelfieState, common_goal_met, new_game
from puzzles.shelfie.kernel import (
    GOAL_IDS,
    MAX_MOVES,
    adjacency,
    gen_moves,
    goal_met,
    kernel_state,
    move_from_row,
    personal_points,
)
from puzzles.shelfie.rules import COMMON_GOAL_KEYS, EMPTY, adjacency_points, personal_goal_grid, personal_goal_points
from solvers.bots import RandomBot
from solvers.playout import play_game
from solvers.shelfie.bots import (
    GreedyBot,
    LookaheadBot,
    best_move_now,
    kernel_playouts,
    move_points,
    play_logged_game,
)


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


def test_kernel_moves_equal_engine_moves() -> None:
    for state in random_positions(40):
        arrays = kernel_state(state)
        moves = np.empty((MAX_MOVES, 5), dtype=np.int64)
        n = gen_moves(arrays[1], arrays[2][state.to_move], moves)
        kernel = [move_from_row(moves[i]) for i in range(n)]
        assert len(kernel) == len(set(kernel))
        assert set(kernel) == set(state.legal_actions())


def test_kernel_scoring_equals_scoring_api() -> None:
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
        meta, board, shelves, bag, tokens, stacks, cards = arrays
        assert np.array_equal(state.shelves, shelves)
        from puzzles.shelfie.kernel import seat_score, winner

        assert state.scores() == [float(seat_score(meta, shelves, tokens, cards, s)) for s in range(players)]
        assert state.winner() == winner(meta, shelves, tokens, cards)


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


def win_rate(policies: list[str], games: int, seed: int) -> float:
    result = kernel_playouts(2, policies, games, seed=seed, rotate_seats=True)
    return float((result["winners"] == 0).mean())


def test_bot_strength_smoke() -> None:
    assert win_rate(["greedy", "random"], 30, seed=1) >= 0.9
    assert win_rate(["lookahead", "greedy"], 20, seed=1) >= 0.6


@pytest.mark.slow
def test_bot_strength_over_200_games() -> None:
    greedy_vs_random = win_rate(["greedy", "random"], 200, seed=11)
    lookahead_vs_greedy = win_rate(["lookahead", "greedy"], 200, seed=12)
    print(f"greedy beats random {greedy_vs_random:.3f}; lookahead beats greedy {lookahead_vs_greedy:.3f}")
    assert greedy_vs_random >= 0.9
    assert lookahead_vs_greedy >= 0.6


def test_kernel_playouts_smoke() -> None:
    result = kernel_playouts(4, ["random"] * 4, 300, seed=1)  # speed is measured in bench/, not asserted here
    assert result["games"] == 300 and result["scores"].shape == (300, 4)
    assert (result["scores"] >= 0).all() and np.bincount(result["winners"], minlength=4).sum() == 300


def test_kernel_playouts_do_not_depend_on_chunking() -> None:
    whole = kernel_playouts(2, ["greedy", "random"], 30, seed=3, rotate_seats=True)
    pieces = kernel_playouts(2, ["greedy", "random"], 30, seed=3, rotate_seats=True, chunk=7)
    assert np.array_equal(whole["scores"], pieces["scores"]) and np.array_equal(whole["winners"], pieces["winners"])
    first = kernel_playouts(2, ["greedy", "random"], 11, seed=3, rotate_seats=True)
    rest = kernel_playouts(2, ["greedy", "random"], 19, seed=3, rotate_seats=True, start=11)
    assert np.array_equal(whole["scores"], np.concatenate([first["scores"], rest["scores"]]))
    assert sorted(set(whole["winners"].tolist())) == [0]  # greedy wins them all, in both seats
