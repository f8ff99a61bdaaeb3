"""The exact endgame search (solvers/blokus/endgame.py) against plain minimax, and the bot that uses it."""

from __future__ import annotations

import random

import numpy as np
import pytest

from puzzles.blokus.engine import BlokusState
from puzzles.blokus.tables import NUM_PIECES, PASS
from puzzles.game import TERMINAL
from solvers.blokus.endgame import EndgameUnsolved, solve_endgame
from solvers.blokus.mcts import FastMCTSBot


def minimax(state: BlokusState, seat: int, memo: dict | None = None) -> int:
    """The final margin for ``seat`` with best play: plain minimax over the engine's legal actions, each
    position's exact value remembered (keyed by the set of placements made, the colour to move, and the last
    piece of each colour that placed them all, which its score depends on)."""
    if state.is_terminal():
        scores = state.scores()
        return int(scores[seat] - scores[1 - seat])
    memo = {} if memo is None else memo
    done = tuple(int(state.arrays.last_piece[c]) if state.arrays.placed[c] == NUM_PIECES else -1
                 for c in range(state.num_colors))
    key = (frozenset((c, m.index) for c, m, _ in state.history if not m.is_pass), state.to_move, done)
    if key not in memo:
        values = []
        for action in state.legal_actions():
            state.apply(action)
            values.append(minimax(state, seat, memo))
            state.undo()
        memo[key] = max(values) if state.current_player() == seat else min(values)
    return memo[key]


def late_position(variant: str, seed: int, most: int) -> BlokusState:
    """A position from a seeded random game once both seats have at most ``most`` legal placements in all."""
    state, rng = BlokusState(variant), random.Random(seed)
    while not state.is_terminal():
        if sum(len(state.legal_placements(c)) for c in range(state.num_colors)) <= most:
            return state
        state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("the game ended first")


def snapshot(state: BlokusState) -> tuple:
    """What the rules see of a position (the attach lists only up to their lengths: beyond is scratch)."""
    a = state.arrays
    attach = tuple(a.attach[c, : a.attach_len[c]].tobytes() for c in range(state.num_colors))
    return (state.to_move, [(c, m.index) for c, m, _ in state.history], state.owner.tobytes(), attach,
            tuple(x.tobytes() for name, x in a._asdict().items() if name != "attach"))


@pytest.mark.parametrize("variant,seed", [("duo", s) for s in range(6)] + [("two-player", s) for s in range(3)])
def test_endgame_value_equals_plain_minimax(variant: str, seed: int) -> None:
    state = late_position(variant, seed, 24)
    before = snapshot(state)
    seat = state.current_player()
    result = solve_endgame(state)
    assert snapshot(state) == before  # the search leaves the position as it found it
    assert result.margin == minimax(state, seat)
    # the move it names secures that margin
    state.apply(state.tables.moves[result.placement] if result.placement >= 0 else PASS)
    assert minimax(state, seat) == result.margin


def test_endgame_passes_for_a_colour_that_cannot_move() -> None:
    for seed in range(40):
        state = late_position("duo", seed, 6)
        while not state.is_terminal() and len(state.legal_placements()) > 0:
            state.apply(state.legal_actions()[0])
        if not state.is_terminal():
            break
    else:
        pytest.skip("no position with a colour to move and no placement among these seeds")
    seat = state.current_player()
    result = solve_endgame(state)
    assert result.placement == -1
    assert result.margin == minimax(state, seat)


def test_endgame_gives_up_at_its_node_limit_and_leaves_the_position() -> None:
    state = late_position("duo", 1, 120)
    before = snapshot(state)
    with pytest.raises(EndgameUnsolved):
        solve_endgame(state, max_nodes=300)
    assert snapshot(state) == before


def test_endgame_refuses_more_than_two_seats_and_the_end() -> None:
    with pytest.raises(ValueError, match="two seats"):
        solve_endgame(BlokusState("classic"))
    state = late_position("duo", 0, 9)
    while state.current_player() != TERMINAL:
        state.apply(state.legal_actions()[0])
    with pytest.raises(ValueError, match="over"):
        solve_endgame(state)


def test_bot_with_the_endgame_knob_plays_a_proved_move() -> None:
    state = late_position("duo", 2, 40)
    seat = state.current_player()
    bot = FastMCTSBot(iterations=300, knobs={"endgame": 1.0})
    move = bot.choose(state, random.Random(0))
    proof = bot.last_endgame
    if proof is None:  # a lost position: MCTS chose; the proof says the margin is below 0
        assert solve_endgame(state).margin < 0
        return
    assert move.index == proof.placement
    state.apply(move)
    sign = 1 if state.current_player() == seat else -1  # the proof's margin is the seat's, whoever moves next
    assert sign * solve_endgame(state).margin == proof.margin
    again = FastMCTSBot(iterations=300, knobs={"endgame": 1.0})
    state.undo()
    assert again.choose(state, random.Random(0)) == move  # deterministic with an iteration budget


def test_unknown_knob_names_the_endgame_knob() -> None:
    with pytest.raises(ValueError, match="endgame"):
        FastMCTSBot(knobs={"nonsense": 1.0})
    assert np.isfinite(FastMCTSBot(knobs={"endgame": 0.0}).iterations or 0)


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 9])
def test_windowed_searches_sharing_one_table_keep_the_fail_soft_bounds(seed: int) -> None:
    """Null and narrow windows, one after another on one transposition table (as a search re-visits positions
    with other windows): each answer is a true bound, or the value itself inside the window. Seed 9 is one
    where a table that took every stored bound as exact answers wrongly."""
    from solvers.blokus.endgame import _Search

    state = late_position("duo", seed, 24)
    true = minimax(state, state.current_player())
    search = _Search(state, 10**7, None)
    rng = random.Random(seed)
    fixed = [(true + 3, true + 4), (true - 4, true - 3), (true - 1, true + 1), (true, true + 1),
             (true - 1, true), (-99, 99), (true + 1, true + 2), (true - 2, true - 1)]
    drawn = [(low, low + rng.choice([1, 1, 2, 5])) for low in (true + rng.randint(-8, 8) for _ in range(30))]
    for low, high in fixed + drawn:
        got = search.value(low, high)[0]
        if got <= low:
            assert true <= got, (low, high, got, true)
        elif got >= high:
            assert true >= got, (low, high, got, true)
        else:
            assert got == true, (low, high, got, true)


#: A two-player game (greedy self-play) in which green places all 21 pieces, the domino and the monomino last.
ALL_PLACED_GAME = (
    'b18,a19,b19,c19,a20', 'r19,q20,r20,s20,t20', 't1,t2,s3,t3,t4', 'a1,b1,b2,c2,c3', 'c15,b16,c16,d16,c17',
    'p16,p17,o18,p18,q18', 'r4,q5,r5,q6,q7', 'd4,d5,e5,e6', 'f12,d13,e13,f13,d14', 'o13,o14,m15,n15,o15',
    'o8,p8,n9,o9,n10', 'h6,f7,g7,h7,h8', 'h10,g11,h11,i11,j11', 'i16,j16,k16,l16,i17', 'l6,m6,m7,n7',
    'i4,i5,j5,k5,k6', 'k12,l12,k13,l13,m13', 'h18,g19,h19,i19,h20', 'o11,o12,p12,q12,q13', 'j3,k3,l3,m3,n3',
    'd8,e8,e9,f9,f10', 'm9,m10,m11,n11,n12', 'r14,r15,r16,r17,r18', 'c6,c7,c8,c9', 'e17,e18,f18,g18,e19',
    'q8,p9,q9,o10,p10', 's6,t6,s7,s8,t8', 'd10,e10,e11,f11,e12', 'c10,c11,b12,c12,b13', 'p5,o6,p6,o7,p7',
    'n19,o19,p19,q19,n20', 'g12,h12,i12,j12,g13', 'i6,i7,i8,i9', 'l4,m4,n4,o4', 'l17,l18,m18,k19,l19',
    'n1,o1,p1,o2', 'h3,h4,f5,g5,h5', 'h14,i14,j14,k14,l14', 'r9,q10,r10,s10,r11', 'r1,q2,r2,s2,r3',
    'b5,b6,b7,b8,b9', 'j6,j7,k7,l7,l8', 'm16,n16,o16,n17,o17', 'a8,a9,a10,b10,b11', 'l1,i2,j2,k2,l2',
    's16,t16,t17,s18,t18', 'i15,j15,k15,l15', 'a12,a13,a14,b14,c14', 'e1,f1,g1,e2,g2', 'f14,e15,f15,g15,e16',
    'o3,p3,q3,p4', 'a3,a4,b4,a5,a6', 'f16,g16,h16,h17', 'd17,c18,d18,d19', 's13,t13,t14,t15', 'l9,k10,l10,k11,l11',
    'i18,j18,k18,j19', 'j9,k9,i10,j10', 'm1,m2,n2', 'f3,g3,f4,g4', 'k20,l20,m20', 'a15,a16,a17,b17', 'i20,j20',
    'h1,i1,j1,h2', 'f20,g20', 'g9,h9,g10', 'p14', 's4,s5,t5', 'g14', 'q14,q15', 'r6,r7,r8', 'r13',
    's9,t9,t10,s11,t11', 'm8,n8', 'k8',
)


def replay(moves: tuple[str, ...], variant: str = "two-player") -> BlokusState:
    state = BlokusState(variant)
    for text in moves:
        while state.legal_actions() == [PASS]:
            state.apply(PASS)
        state.apply(state.string_to_action(text))
    return state


def test_the_table_tells_apart_a_colour_done_with_the_monomino_last() -> None:
    """The same placements in another order are the same position, except that a colour done with the monomino
    last scores 5 more: the hash must tell the two orders apart (else a stored value is 5 off)."""
    from solvers.blokus.endgame import _Search

    as_played = replay(ALL_PLACED_GAME)
    swapped = replay(ALL_PLACED_GAME[:-2] + (ALL_PLACED_GAME[-1], ALL_PLACED_GAME[-2]))
    assert as_played.color_scores()[3] == swapped.color_scores()[3] + 5 == 20
    assert _Search(as_played, 1, None).hash != _Search(swapped, 1, None).hash
    for last_two in (ALL_PLACED_GAME[-2:], ALL_PLACED_GAME[:-3:-1]):  # the hash kept move by move agrees
        state = replay(ALL_PLACED_GAME[:-2])
        search = _Search(state, 1, None)
        running = search.hash
        for text in last_two:
            while state.legal_actions() == [PASS]:
                state.apply(PASS)
            move, color = state.string_to_action(text), state.to_move
            state.apply(move)
            running ^= search.step_key(color, move.index)
        assert running == _Search(state, 1, None).hash


def test_the_running_hash_is_the_hash_of_the_position() -> None:
    """At every node of a search the hash kept move by move equals the one computed from the position (here a
    search in which green places its last pieces, in every order)."""
    from solvers.blokus.endgame import _Search

    class Checked(_Search):
        def value(self, alpha: int, beta: int) -> tuple[int, int]:
            assert self.hash == _Search(self.state, 1, None).hash
            return super().value(alpha, beta)

    state = replay(ALL_PLACED_GAME[:-8])
    search = Checked(state, 10**7, None)
    search.value(-10**9, 10**9)
    assert search.nodes > 1000
