"""Exact solver, compiled kernel and planner of Rainbow Blackjack against brute force and the engine."""

from __future__ import annotations

import random

import numpy as np
import pytest

from puzzles.game import CHANCE
from puzzles.towers import TowersState, parse_stones
from puzzles.towers import kernel as K
from puzzles.towers.engine import Announce
from solvers.playout import make_job
from solvers.towers import search as X
from solvers.towers.bots import fast_playouts, kernel_random_games, replay_kernel_game
from solvers.towers.planner import TowerInfo, guaranteed_21_towers, max_21_towers
from solvers.towers.solver import Solver, brute_force_value, kernel_to_action, pack


def advance(seed: int, stop, rng_seed: int | None = None) -> TowersState:
    rng = random.Random(seed if rng_seed is None else rng_seed)
    s = TowersState.new_game(seed)
    while not s.is_terminal() and not stop(s):
        s.apply(s.sample_chance(rng) if s.current_player() == CHANCE else rng.choice(s.legal_actions()))
    return s


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver(18)


def test_kernel_moves_equal_engine_actions() -> None:
    rng = random.Random(2)
    for seed in range(15):
        s = TowersState.new_game(seed)
        while not s.is_terminal():
            if s.phase in ("pick", "place") and not (s.phase == "pick" and s.step % 2):
                S = pack(s)
                moves = np.empty(K.MAXM, dtype=np.int64)
                n = K.gen_moves(S, moves)
                assert int(K.mover(S)) == s.current_player()
                assert sorted(kernel_to_action(S, int(m)) for m in moves[:n]) == sorted(s.legal_actions())
            s.apply(s.sample_chance(rng) if s.current_player() == CHANCE else rng.choice(s.legal_actions()))


def test_engine_positions_are_the_search_positions() -> None:
    """Packing the engine state after a move gives the core the search reaches by that move.

    Hands keep their slots (a placed stone leaves -1 where it was), so the probes of
    the principal variation find the transposition-table entries of the value search
    under the same keys (the key holds which hand slots are still full).
    """
    rng = random.Random(3)
    undo = np.empty(16, dtype=np.int64)
    moves = np.empty(K.MAXM, dtype=np.int64)
    checked = 0
    for seed in range(12):
        s = TowersState.new_game(seed)
        while not s.is_terminal():
            if s.phase in ("pick", "place") and not (s.phase == "pick" and s.step % 2):
                S = pack(s, "game")
                for m in moves[: K.gen_moves(S, moves)]:
                    child = S.copy()
                    K.make_move(child, m, undo)
                    after = s.clone()
                    after.apply(kernel_to_action(S, int(m)))
                    if after.phase == "pick" and after.step % 2:
                        after.apply(Announce("colors"))
                    if after.phase in ("pick", "place"):
                        packed = pack(after, "game")
                        assert np.array_equal(child[: K.TOMOVE], packed[: K.TOMOVE])
                        assert X.tt_key(child) == X.tt_key(packed)
                        checked += 1
            s.apply(s.sample_chance(rng) if s.current_player() == CHANCE else rng.choice(s.legal_actions()))
    assert checked > 1000


def test_kernel_random_games_replay_legally_in_the_engine() -> None:
    for seed in range(40):
        final = replay_kernel_game(seed)
        assert final.is_terminal()


@pytest.mark.parametrize("seed", range(12))
def test_round_value_equals_brute_force(seed: int, solver: Solver) -> None:
    rng = random.Random(seed)
    rnd, step = rng.randrange(6), rng.randrange(2, 6)
    s = advance(seed, lambda s: (s.round == rnd and s.phase == "place" and s.step >= step) or s.round > rnd)
    if s.is_terminal() or s.phase != "place":
        pytest.skip("game ended before the chosen point")
    res = solver.solve(s, horizon="round", pv=False)
    assert res.value == brute_force_value(s)


def test_full_round_from_the_line_picks_equals_brute_force(solver: Solver) -> None:
    s = advance(3, lambda s: s.round == 5 and s.phase == "pick")
    assert s.phase == "pick" and s.round == 5
    res = solver.solve(s, horizon="game")
    assert res.exact_game
    assert res.value == brute_force_value(s)
    assert len([m for m in res.pv if m not in ("colors", "numbers")]) >= 6


@pytest.mark.parametrize("seed", range(6))
def test_best_move_is_legal_and_holds_the_value_against_every_reply(seed: int, solver: Solver) -> None:
    rng = random.Random(100 + seed)
    rnd = rng.randrange(6)
    s = advance(100 + seed, lambda s: (s.round == rnd and s.phase == "place") or s.round > rnd)
    if s.is_terminal() or s.phase != "place":
        pytest.skip("game ended early")
    res = solver.solve(s, horizon="round", pv=False)
    assert res.best_action in s.legal_actions()
    me = s.current_player()
    after = s.clone()
    after.apply(res.best_action)
    if after.is_terminal() or after.round > s.round:
        return
    assert solver.solve(after, horizon="round", pv=False).value == res.value
    for reply in after.legal_actions():
        nxt = after.clone()
        nxt.apply(reply)
        if nxt.is_terminal() or nxt.round > s.round:
            v = brute_force_value(nxt, s.round)
        else:
            v = solver.solve(nxt, horizon="round", pv=False).value
        assert (v >= res.value) if me == 0 else (v <= res.value)
    # the other moves are never better
    for _text, v in res.move_values.items():
        assert (v <= res.value) if me == 0 else (v >= res.value)


def test_endgame_from_round_five_is_solved(solver: Solver) -> None:
    s = advance(7, lambda s: s.round == 4 and s.phase == "pick")
    big = Solver(20)
    res = big.solve(s, horizon="game", pv=True)
    assert res.exact_game and res.best_action in s.legal_actions()
    # replaying the principal variation reaches the end with the announced value
    end = s.clone()
    for text in res.pv:
        end.apply(end.string_to_action(text))
    assert end.is_terminal()
    owned = end.towers_owned()
    got = (X.WIN_VALUE if end.winner == 0 else -X.WIN_VALUE) if end.instant else X.SCALE * (owned[0] - owned[1])
    assert got == res.value


def test_fast_random_playouts_count_everything() -> None:
    stats = fast_playouts(make_job("towers", ["random"], seed=1, rotate=False), 0, 3000)
    assert stats is not None and stats.games == 3000
    results = kernel_random_games(np.arange(3000, dtype=np.int64))
    p1, p2 = int((results[:, 0] == 0).sum()), int((results[:, 0] == 1).sum())
    draws = int((results[:, 0] < 0).sum())
    assert p1 + p2 + draws == 3000
    assert 0 < p1 < 3000 and draws > 0
    assert 0 <= int(results[:, 1].sum()) < 3000  # instant wins
    assert 0 < stats.seat_wins[0] < 3000 and sum(stats.wins) == pytest.approx(3000)


# -- planner -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "stones, expected",
    [
        ("R6,R5,R4,J", 1),  # R5 R4 R6 J(6)? 6+5+4+6 = 21
        ("R6,R5,J", 0),  # at most 6+5+5 = 16
        ("R6,R5,B4,J,R4,Y6,Y5,B5,B6,B1", 2),  # 48 pips at most: three towers need 63
        ("Y6,Y6,Y6,Y3,B6,B6,B6,B3", 2),  # one tower per colour block
        ("J,J,J", 0),  # jokers cannot start a tower
    ],
)
def test_planner_counts(stones: str, expected: int) -> None:
    assert max_21_towers(parse_stones(stones)).count == expected


def test_planner_respects_existing_towers_and_replacement() -> None:
    towers = [TowerInfo() for _ in range(6)]
    towers[0] = TowerInfo(total=19, top=4, top_joker=True, owner=1, empty=False)
    plan = max_21_towers(parse_stones("R6"), towers)
    assert plan.count == 1 and plan.replaced == ["red"]  # 19 - 4 + 6 = 21
    towers[0] = TowerInfo(total=21, top=6, top_joker=False, owner=0, empty=False)
    assert max_21_towers(parse_stones("R1"), towers, player=0).count == 1  # already mine at 21
    assert max_21_towers(parse_stones("R1"), towers, player=1).count == 0
    assert max_21_towers(parse_stones("R6,R5,R4,J"), max_placements=3).count == 0


def _secure_brute(s: TowersState, seat: int, t: int, rnd: int) -> bool:
    """Plain minimax: can ``seat`` force owning tower ``t`` at 21 (or an instant win) at the end of round ``rnd``?"""
    if s.is_terminal() or s.round > rnd or s.phase == "deal":
        if s.instant:
            return s.winner == seat
        return s.owner(t) == seat and s.tower_total(t) == 21
    results = []
    for a in s.legal_actions():
        c = s.clone()
        c.apply(a)
        results.append(_secure_brute(c, seat, t, rnd))
    return any(results) if s.current_player() == seat else all(results)


@pytest.mark.parametrize("seed", [5, 6, 13, 30])
def test_guaranteed_towers_agree_with_brute_force(seed: int, solver: Solver) -> None:
    s = advance(seed, lambda s: s.round == 2 and s.phase == "place" and s.step == 2)
    assert s.phase == "place"
    seat = s.current_player()
    res = guaranteed_21_towers(s, seat, solver)
    want = [name for t, name in enumerate(("red", "orange", "yellow", "green", "blue", "purple")) if _secure_brute(s, seat, t, 2)]
    assert res["secure_towers"] == want
    assert res["max_secure_together"] >= (1 if want else 0)


def test_secure_towers_with_an_explicit_opponent_hand() -> None:
    from solvers.towers.planner import guaranteed_for_hands

    s = TowersState.placement_position({3: [("G6", 1), ("G5", 1), ("G4", 1)], 0: [("R6", 0), ("R6", 0), ("R5", 0)]}, ([], []))
    res = guaranteed_for_hands(s, 0, parse_stones("Y6,B1,B2"), parse_stones("O1,O2,P3"))
    assert res["secure_towers"] == ["green"]  # P2's orange/purple stones cannot reach green; red is reachable
    res = guaranteed_for_hands(s, 0, parse_stones("Y6,B1,B2"), parse_stones("O1,G2,P3"))
    assert res["secure_towers"] == []  # G2 can go on top of green after Y6
