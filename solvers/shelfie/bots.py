"""My Shelfie bots (random, greedy, lookahead), "best move now" and fast playouts.

The policies are numba functions over the kernel arrays of :mod:`puzzles.shelfie.kernel`; the bot
classes wrap them for the :class:`~puzzles.shelfie.engine.ShelfieState` protocol, and
:func:`kernel_playouts` plays whole games inside numba (hundreds to thousands of games a second).

* ``random``: a uniformly random legal move (as the generic RandomBot over ``legal_actions``).
* ``greedy`` (= :func:`best_move_now`): the move scoring the most points this turn — adjacency,
  personal goal, common goal tokens and end token, counted as the change of the running score.
  Ties are broken by a heuristic: most same-type adjacent pairs in the shelf afterwards, then more
  tiles taken, then at random.
* ``lookahead``: ranks moves by points now plus a shelf-potential heuristic (open groups that can
  still grow, personal goal cells still free; weighted by the room left), keeps the best few
  (``params[0]``) and, for each, averages over ``params[1]`` sampled futures: the refills that the
  move and the opponents' greedy replies trigger are drawn at random from the bag (expectimax by
  sampling over the refill), then its own best next move (points + potential) is added.  The
  opponents' gains count against it (weight ``params[3]``); a future where the game ends scores the
  win or loss (+/-50).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np
from numba import njit

from puzzles.game import GameState
from puzzles.shelfie.engine import Move, ShelfieState
from puzzles.shelfie.rules import personal_goal_grid
from solvers.playout import game_seed
from puzzles.shelfie.kernel import (
    M_END,
    M_G0,
    M_N,
    M_NTOK,
    M_OVER,
    M_REFILL,
    M_RULE,
    M_SP0,
    M_SQIN,
    M_SQSAME,
    M_TO_MOVE,
    MAX_MOVES,
    PERSONAL_PTS,
    adjacency,
    apply_move,
    column_free,
    gen_moves,
    goal_met,
    kernel_state,
    label_groups,
    move_from_row,
    personal_matches,
    refill,
    seat_score,
    seed_numba,
    winner,
)

POLICIES = {"random": 0, "greedy": 1, "lookahead": 2}

#: Lookahead parameters: candidates kept, sampled futures per candidate, weight of the potential,
#: weight of the opponents' gains.
DEFAULT_PARAMS = np.array([6.0, 4.0, 1.0, 0.5], dtype=np.float64)

# potential credit of an open group of size 1..5 (can still grow)
OPEN_GROUP_BONUS = np.array([0.0, 0.2, 1.0, 1.2, 1.5, 2.0, 0.0], dtype=np.float64)


# ---------------------------------------------------------------------------------------------
# evaluation helpers
# ---------------------------------------------------------------------------------------------


@njit(cache=True)
def place_types(shelf, board, mv):
    """Drop the tiles of ``mv`` into ``shelf`` without touching ``board``."""
    col = mv[4]
    h = 6 - column_free(shelf, col)
    for k in range(mv[0]):
        shelf[5 - h, col] = board[mv[1 + k]]
        h += 1


@njit(cache=True)
def same_pairs(shelf):
    n = 0
    for r in range(6):
        for c in range(5):
            t = shelf[r, c]
            if t < 0:
                continue
            if r < 5 and shelf[r + 1, c] == t:
                n += 1
            if c < 4 and shelf[r, c + 1] == t:
                n += 1
    return n


@njit(cache=True)
def move_gain(meta, board, shelves, tokens, stacks, cards, seat, mv, base, tmp):
    """Points ``seat`` scores this turn with ``mv`` (``base`` = adjacency + personal now); fills ``tmp``."""
    tmp[:, :] = shelves[seat]
    place_types(tmp, board, mv)
    gain = adjacency(tmp) + PERSONAL_PTS[personal_matches(cards[seat], tmp)] - base
    for g in range(2):
        if tokens[seat, g] == 0 and meta[M_SP0 + g] < meta[M_NTOK]:
            if goal_met(meta[M_G0 + g], tmp, meta[M_SQIN] != 0, meta[M_SQSAME] != 0):
                gain += stacks[g, meta[M_SP0 + g]]
    if meta[M_END] < 0:
        full = True
        for c in range(5):
            if tmp[0, c] < 0:
                full = False
        if full:
            gain += 1
    return gain


@njit(cache=True)
def potential(shelf, card, meta, tokens, seat):
    """Heuristic value of what ``shelf`` may still score (not counting points already there)."""
    labels = np.empty(30, dtype=np.int64)
    sizes = np.empty(30, dtype=np.int64)
    boxes = np.empty((30, 4), dtype=np.int64)
    n = label_groups(shelf, labels, sizes, boxes)
    opened = np.zeros(30, dtype=np.bool_)
    empty = 0
    for r in range(6):
        for c in range(5):
            if shelf[r, c] >= 0:
                continue
            empty += 1
            # an empty cell lets the groups around it grow (cell above/left/right, and below is filled)
            if r < 5 and shelf[r + 1, c] >= 0:
                opened[labels[(r + 1) * 5 + c]] = True
            if c > 0 and shelf[r, c - 1] >= 0:
                opened[labels[r * 5 + c - 1]] = True
            if c < 4 and shelf[r, c + 1] >= 0:
                opened[labels[r * 5 + c + 1]] = True
    pot = 0.0
    for g in range(n):
        if opened[g] and sizes[g] < 6:
            pot += OPEN_GROUP_BONUS[sizes[g]]
    # personal goal: cells still open
    m = 0
    o = 0
    for r in range(6):
        for c in range(5):
            if card[r, c] >= 0:
                if shelf[r, c] == card[r, c]:
                    m += 1
                elif shelf[r, c] < 0:
                    o += 1
    pot += 0.35 * (PERSONAL_PTS[min(6, m + o)] - PERSONAL_PTS[m])
    # unfinished common goals: small credit for the pairs/groups goals via filled fraction
    return pot * (0.4 + 0.6 * empty / 30.0)


@njit(cache=True)
def _randint(n):
    return np.random.randint(0, n)


@njit(cache=True)
def random_move(board, shelf, moves):
    n = gen_moves(board, shelf, moves)
    return _randint(n)


@njit(cache=True)
def greedy_move(meta, board, shelves, tokens, stacks, cards, moves):
    """Index in ``moves`` of the greedy choice for the seat to move (``moves`` filled here)."""
    seat = meta[M_TO_MOVE]
    n = gen_moves(board, shelves[seat], moves)
    base = adjacency(shelves[seat]) + PERSONAL_PTS[personal_matches(cards[seat], shelves[seat])]
    tmp = np.empty((6, 5), dtype=np.int8)
    best = -1
    best_key = -1
    ties = 0
    for i in range(n):
        gain = move_gain(meta, board, shelves, tokens, stacks, cards, seat, moves[i], base, tmp)
        key = gain * 10000 + same_pairs(tmp) * 10 + moves[i, 0]
        if key > best_key:
            best_key = key
            best = i
            ties = 1
        elif key == best_key:
            ties += 1
            if _randint(ties) == 0:
                best = i
    return best


@njit(cache=True)
def _eval_move(meta, board, shelves, tokens, stacks, cards, seat, mv, base, pot_w, tmp):
    gain = move_gain(meta, board, shelves, tokens, stacks, cards, seat, mv, base, tmp)
    return gain + pot_w * potential(tmp, cards[seat], meta, tokens, seat)


@njit(cache=True)
def lookahead_move(meta, board, shelves, bag, tokens, stacks, cards, moves, params):
    """Index in ``moves`` of the lookahead choice for the seat to move (``moves`` filled here)."""
    keep = int(params[0])
    samples = int(params[1])
    pot_w = params[2]
    opp_w = params[3]
    seat = meta[M_TO_MOVE]
    n = gen_moves(board, shelves[seat], moves)
    base = adjacency(shelves[seat]) + PERSONAL_PTS[personal_matches(cards[seat], shelves[seat])]
    tmp = np.empty((6, 5), dtype=np.int8)
    first = np.empty(n, dtype=np.float64)
    for i in range(n):
        first[i] = _eval_move(meta, board, shelves, tokens, stacks, cards, seat, moves[i], base, pot_w, tmp)
        first[i] += 1e-6 * _randint(1000)  # random tie-break
    order = np.argsort(-first)
    k = min(keep, n)
    if k == 1:
        return order[0]
    omoves = np.empty((MAX_MOVES, 5), dtype=np.int64)
    best = order[0]
    best_val = -1e18
    for ci in range(k):
        i = order[ci]
        total = 0.0
        for s in range(samples):
            m2 = meta.copy()
            b2 = board.copy()
            sh2 = shelves.copy()
            bag2 = bag.copy()
            tk2 = tokens.copy()
            st2 = stacks.copy()
            score0 = seat_score(m2, sh2, tk2, cards, seat)
            apply_move(m2, b2, sh2, tk2, st2, moves[i])
            my_now = seat_score(m2, sh2, tk2, cards, seat) - score0
            opp_gain = 0.0
            # opponents reply greedily until it is our turn again (or the game ends)
            while m2[M_OVER] == 0 and not (m2[M_TO_MOVE] == seat and m2[M_REFILL] == 0):
                if m2[M_REFILL] == 1:
                    refill(b2, bag2)
                    m2[M_REFILL] = 0
                    continue
                other = m2[M_TO_MOVE]
                before = seat_score(m2, sh2, tk2, cards, other)
                j = greedy_move(m2, b2, sh2, tk2, st2, cards, omoves)
                apply_move(m2, b2, sh2, tk2, st2, omoves[j])
                opp_gain += seat_score(m2, sh2, tk2, cards, other) - before
            value = my_now - opp_w * opp_gain / max(1, m2[M_N] - 1)
            if m2[M_OVER] == 1:
                value += 100.0 * (winner(m2, sh2, tk2, cards) == seat) - 50.0
            else:
                # our best next move, valued with the potential
                n2 = gen_moves(b2, sh2[seat], omoves)
                base2 = adjacency(sh2[seat]) + PERSONAL_PTS[personal_matches(cards[seat], sh2[seat])]
                nxt = -1e18
                for j in range(n2):
                    v = _eval_move(m2, b2, sh2, tk2, st2, cards, seat, omoves[j], base2, pot_w, tmp)
                    if v > nxt:
                        nxt = v
                value += nxt
            total += value
        val = total / samples
        if val > best_val:
            best_val = val
            best = i
    return best


@njit(cache=True)
def choose(policy, meta, board, shelves, bag, tokens, stacks, cards, moves, params):
    if policy == 0:
        return random_move(board, shelves[meta[M_TO_MOVE]], moves)
    if policy == 1:
        return greedy_move(meta, board, shelves, tokens, stacks, cards, moves)
    return lookahead_move(meta, board, shelves, bag, tokens, stacks, cards, moves, params)


@njit(cache=True)
def play_kernel_game(meta, board, shelves, bag, tokens, stacks, cards, policies, params,
                     events, move_log, refill_log):
    """Play to the end in place; log events (0 refill, 1 move) if ``events`` is non-empty."""
    moves = np.empty((MAX_MOVES, 5), dtype=np.int64)
    record = events.shape[0] > 0
    ne = 0
    nm = 0
    nr = 0
    while meta[M_OVER] == 0:
        if meta[M_REFILL] == 1:
            refill(board, bag)
            meta[M_REFILL] = 0
            if record:
                events[ne] = 0
                ne += 1
                refill_log[nr, :] = board
                nr += 1
            continue
        i = choose(policies[meta[M_TO_MOVE]], meta, board, shelves, bag, tokens, stacks, cards, moves, params)
        if record:
            events[ne] = 1
            ne += 1
            move_log[nm, :] = moves[i]
            nm += 1
        apply_move(meta, board, shelves, tokens, stacks, moves[i])
    return ne


@njit(cache=True)
def run_kernel_games(num_players, goal_ids, card_ids_all, card_grids, rule, sq_in, sq_same, ntok, stack_vals,
                     policies_all, params, seeds, scores_out, winners_out):
    """Play ``len(winners_out)`` games; game g uses goals ``goal_ids[g]``, cards ``card_ids_all[g]``
    and the random stream seeded with ``seeds[g]``."""
    empty_ev = np.empty(0, dtype=np.int64)
    empty_mv = np.empty((0, 5), dtype=np.int64)
    empty_rf = np.empty((0, 81), dtype=np.int8)
    for g in range(winners_out.shape[0]):
        seed_numba(seeds[g])
        meta = np.zeros(14, dtype=np.int64)
        meta[M_N] = num_players
        meta[M_END] = -1
        meta[M_REFILL] = 1
        meta[M_RULE] = rule
        meta[M_SQIN] = sq_in
        meta[M_SQSAME] = sq_same
        meta[M_G0] = goal_ids[g, 0]
        meta[M_G0 + 1] = goal_ids[g, 1]
        meta[M_NTOK] = ntok
        board = np.empty(81, dtype=np.int8)
        shelves = np.full((num_players, 6, 5), -1, dtype=np.int8)
        bag = np.full(6, 22, dtype=np.int64)
        tokens = np.zeros((num_players, 2), dtype=np.int64)
        cards = np.empty((num_players, 6, 5), dtype=np.int8)
        for s in range(num_players):
            cards[s] = card_grids[card_ids_all[g, s] - 1]
        board[:] = MASK_BOARDS[num_players - 2]
        play_kernel_game(meta, board, shelves, bag, tokens, stack_vals.copy(), cards, policies_all[g], params,
                         empty_ev, empty_mv, empty_rf)
        for s in range(num_players):
            scores_out[g, s] = seat_score(meta, shelves, tokens, cards, s)
        winners_out[g] = winner(meta, shelves, tokens, cards)


def _mask_boards() -> np.ndarray:
    from puzzles.shelfie.engine import board_mask

    return np.stack([np.where(board_mask(n).ravel(), -1, -2).astype(np.int8) for n in (2, 3, 4)])


MASK_BOARDS = _mask_boards()
ALL_CARD_GRIDS = np.stack([personal_goal_grid(c) for c in range(1, 13)]).astype(np.int8)


# ---------------------------------------------------------------------------------------------
# Python-facing API
# ---------------------------------------------------------------------------------------------


def _seed_from(rng: random.Random) -> None:
    seed_numba(rng.getrandbits(31))


def best_move_now(state: ShelfieState, rng: random.Random | None = None) -> tuple[Move, int]:
    """The pick + column + order scoring the most points this turn (greedy tie-break), and its points."""
    _seed_from(rng or random.Random(0))
    meta, board, shelves, bag, tokens, stacks, cards = kernel_state(state)
    moves = np.empty((MAX_MOVES, 5), dtype=np.int64)
    i = greedy_move(meta, board, shelves, tokens, stacks, cards, moves)
    seat = state.to_move
    base = adjacency(shelves[seat]) + PERSONAL_PTS[personal_matches(cards[seat], shelves[seat])]
    tmp = np.empty((6, 5), dtype=np.int8)
    gain = move_gain(meta, board, shelves, tokens, stacks, cards, seat, moves[i], base, tmp)
    return move_from_row(moves[i]), int(gain)


def move_points(state: ShelfieState) -> list[tuple[Move, int]]:
    """Every legal move with the points it scores this turn (best first)."""
    meta, board, shelves, bag, tokens, stacks, cards = kernel_state(state)
    moves = np.empty((MAX_MOVES, 5), dtype=np.int64)
    seat = state.to_move
    n = gen_moves(board, shelves[seat], moves)
    base = adjacency(shelves[seat]) + PERSONAL_PTS[personal_matches(cards[seat], shelves[seat])]
    tmp = np.empty((6, 5), dtype=np.int8)
    out = [(move_from_row(moves[i]), int(move_gain(meta, board, shelves, tokens, stacks, cards, seat, moves[i], base, tmp)))
           for i in range(n)]
    return sorted(out, key=lambda mp: -mp[1])


@dataclass
class KernelBot:
    """A bot over :class:`ShelfieState` that runs a numba policy (``random``/``greedy``/``lookahead``)."""

    name: str = "greedy"
    params: np.ndarray | None = None

    def __post_init__(self) -> None:
        if self.name not in POLICIES:
            raise ValueError(f"unknown shelfie bot {self.name!r}; choose from {', '.join(POLICIES)}")
        if self.params is None:
            self.params = DEFAULT_PARAMS.copy()

    def choose(self, state: GameState, rng: random.Random) -> Move:
        _seed_from(rng)
        meta, board, shelves, bag, tokens, stacks, cards = kernel_state(state)
        moves = np.empty((MAX_MOVES, 5), dtype=np.int64)
        i = choose(POLICIES[self.name], meta, board, shelves, bag, tokens, stacks, cards, moves, self.params)
        return move_from_row(moves[i])


def RandomShelfieBot() -> KernelBot:
    return KernelBot("random")


def GreedyBot() -> KernelBot:
    return KernelBot("greedy")


def LookaheadBot(params: np.ndarray | None = None) -> KernelBot:
    return KernelBot("lookahead", params)


def make_bot(name: str) -> KernelBot:
    return KernelBot(name.strip().lower())


def play_logged_game(state: ShelfieState, policies: list[str], seed: int,
                     params: np.ndarray | None = None) -> tuple[list[int], list[np.ndarray], list[np.ndarray], tuple]:
    """Play ``state`` to the end in the kernel, returning (events, moves, refill boards, final arrays)."""
    arrays = kernel_state(state)
    seed_numba(seed)
    events = np.zeros(4096, dtype=np.int64)
    move_log = np.zeros((2048, 5), dtype=np.int64)
    refill_log = np.zeros((512, 81), dtype=np.int8)
    pol = np.array([POLICIES[p] for p in policies], dtype=np.int64)
    ne = play_kernel_game(*arrays, pol, DEFAULT_PARAMS if params is None else params, events, move_log, refill_log)
    ev = events[:ne].tolist()
    return ev, list(move_log[: ev.count(1)]), list(refill_log[: ev.count(0)]), arrays


def kernel_playouts(num_players: int, policies: list[str], games: int, seed: int = 0, refill_rule: str = "isolated",
                    squares_inside_groups: bool = False, squares_same_type: bool = False,
                    rotate_seats: bool = False, params: np.ndarray | None = None,
                    chunk: int | None = None, progress=None, start: int = 0) -> dict:
    """Play ``games`` seeded games inside numba; goals and cards are dealt at random per game.

    Games are numbered ``start .. start+games-1``.  Game ``g`` draws its goals, cards,
    refills and random choices from streams seeded with ``solvers.playout.game_seed(seed, g)``,
    so results depend neither on ``chunk`` nor on how a job is split into ranges.

    With ``rotate_seats`` game ``g`` shifts the bots by ``g`` seats so each sits in every seat.
    Returns per-bot-slot scores (games x seats, in slot order), winners (slot index) and seat info.
    """
    if len(policies) != num_players:
        raise ValueError(f"need {num_players} bots, got {len(policies)}")
    numbers = range(start, start + games)
    deals = [np.random.default_rng(game_seed(seed, g)) for g in numbers]
    goal_ids = np.array([rng.choice(12, 2, replace=False) for rng in deals], dtype=np.int64).reshape(games, 2)
    cards = np.array([rng.choice(12, num_players, replace=False) + 1 for rng in deals], dtype=np.int64).reshape(games, num_players)
    slot_of_seat = np.array([[(s - (g if rotate_seats else 0)) % num_players for s in range(num_players)]
                             for g in numbers], dtype=np.int64).reshape(games, num_players)
    pol = np.array([POLICIES[policies[k]] for k in range(num_players)], dtype=np.int64)
    policies_all = pol[slot_of_seat]
    from puzzles.shelfie.rules import SCORING_TOKENS

    ntok = len(SCORING_TOKENS[num_players])
    stack_vals = np.zeros((2, 4), dtype=np.int64)
    stack_vals[:, :ntok] = SCORING_TOKENS[num_players]
    seat_scores = np.zeros((games, num_players), dtype=np.int64)
    seat_winners = np.zeros(games, dtype=np.int64)
    game_seeds = np.array([game_seed(seed, g) % (2**31) for g in numbers], dtype=np.int64)
    chunk = chunk or games
    done = 0
    try:
        while done < games:
            end = min(games, done + chunk)
            sl = slice(done, end)
            sc = np.zeros((end - done, num_players), dtype=np.int64)
            wn = np.zeros(end - done, dtype=np.int64)
            run_kernel_games(num_players, goal_ids[sl], cards[sl], ALL_CARD_GRIDS, 1 if refill_rule == "four_or_fewer" else 0,
                             int(squares_inside_groups), int(squares_same_type), ntok, stack_vals,
                             policies_all[sl], DEFAULT_PARAMS if params is None else params,
                             game_seeds[sl], sc, wn)
            seat_scores[sl] = sc
            seat_winners[sl] = wn
            if progress:
                progress(end - done)
            done = end
    except KeyboardInterrupt:
        pass
    played = done
    scores = np.zeros((played, num_players), dtype=np.int64)
    winners = np.zeros(played, dtype=np.int64)
    for g in range(played):
        for s in range(num_players):
            scores[g, slot_of_seat[g, s]] = seat_scores[g, s]
        winners[g] = slot_of_seat[g, seat_winners[g]]
    return {"games": played, "scores": scores, "winners": winners}


def playout_range(arguments: tuple, start: int, stop: int) -> dict:
    """Picklable entry point for :func:`solvers.parallel.run_ranges`: kernel games ``start .. stop-1``."""
    num_players, policies, seed, refill_rule, rotate_seats = arguments
    return kernel_playouts(num_players, list(policies), stop - start, seed=seed, refill_rule=refill_rule,
                           rotate_seats=rotate_seats, start=start)


def concat_playouts(total: dict | None, part: dict) -> dict:
    """Join two kernel playout results (in game order)."""
    if total is None:
        return part
    return {"games": total["games"] + part["games"], "scores": np.concatenate([total["scores"], part["scores"]]),
            "winners": np.concatenate([total["winners"], part["winners"]])}
