"""My Shelfie bots (random, greedy, lookahead, mcts), "best move now" and compiled playouts.

The policies are numba functions over the kernel state (:class:`puzzles.shelfie.kernel.ShelfieArrays`); the bot
classes wrap them for the :class:`~puzzles.shelfie.engine.ShelfieState` protocol, and
:func:`fast_playouts` plays whole games inside numba for :mod:`solvers.playout`.

* ``random``: a uniformly random legal move.
* ``greedy`` (= :func:`best_move_now`): the move scoring the most points this turn — adjacency,
  personal goal, common goal tokens and end token, counted as the change of the running score.
  Ties are broken by a heuristic: most same-type adjacent pairs in the shelf afterwards, then more
  tiles taken, then at random.  It reads only its own personal card.
* ``lookahead[:N]``: ranks moves by points now plus a shelf-potential heuristic (open groups that
  can still grow, personal goal cells still free; weighted by the room left), keeps the best few
  (``params[0]``) and, for each, averages over ``N`` (``params[1]``, default 4) sampled futures.
  Each future is a determinization: the opponents' personal cards are redrawn from the eleven
  cards the mover has not seen (its own card stays), the refills that the move and the
  opponents' greedy replies trigger are drawn from the bag, then its own best next move
  (points + potential) is added.  The opponents' gains count against it (weight ``params[3]``); a
  future where the game ends scores the win or loss (+/-50) under the drawn cards.  So the bot
  never reads a card its seat cannot see.
* ``mcts[:N]``: :class:`solvers.mcts.MCTSBot` (determinized by ``resample``, N iterations, default
  200) over the 12 moves scoring the most points now, with compiled greedy games as rollouts.
* ``human``: a person at the terminal who sees the game as their seat does; ``hint`` shows the
  best move now, ``moves`` (or ``?``) the legal ones, ``quit`` abandons the game.
"""


from __future__ import annotations

import random
import sys
from typing import Any

import numpy as np
from numba import njit

from puzzles.game import GameState
from puzzles.shelfie.components import personal_goal_grid
from puzzles.shelfie.engine import Move, ShelfieState, deal
from puzzles.shelfie.kernel import (
    GOAL_IDS,
    M_END,
    M_G0,
    M_N,
    M_NTOK,
    M_OVER,
    M_REFILL,
    M_SP0,
    M_SQIN,
    M_SQSAME,
    M_TO_MOVE,
    MAX_MOVES,
    PERSONAL_PTS,
    ShelfieArrays,
    adjacency,
    apply_move,
    column_free,
    copy_state,
    gen_moves,
    goal_met,
    label_groups,
    personal_matches,
    refill,
    row_cells,
    seat_score,
    seed_numba,
    winner,
    with_cards,
)
from solvers.bots import Bot, BotFactory, Budget, HumanBot
from solvers.mcts import MCTSBot
from solvers.playout import PlayoutJob, PlayoutStats, game_seed, seating

POLICIES = {"random": 0, "greedy": 1, "lookahead": 2}

#: Lookahead parameters: candidates kept, sampled futures per candidate, weight of the potential,
#: weight of the opponents' gains.
DEFAULT_PARAMS = np.array([6.0, 4.0, 1.0, 0.5], dtype=np.float64)

# potential credit of an open group of size 1..5 (can still grow)
OPEN_GROUP_BONUS = np.array([0.0, 0.2, 1.0, 1.2, 1.5, 2.0, 0.0], dtype=np.float64)

#: The twelve personal goal grids (card c at index c-1), for determinizing opponents' cards.
ALL_CARD_GRIDS = np.stack([personal_goal_grid(c) for c in range(1, 13)]).astype(np.int8)


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
def _gain(meta, board, shelf, card, tokens, stacks, seat, mv, base, tmp):
    """:func:`move_gain` over the state's arrays (read once by the loops over moves)."""
    for r in range(6):  # element by element: an array assignment compiles numba's shape-error message (~1 s)
        for c in range(5):
            tmp[r, c] = shelf[r, c]
    place_types(tmp, board, mv)
    gain = adjacency(tmp) + PERSONAL_PTS[personal_matches(card, tmp)] - base
    for g in range(2):
        open_goal = tokens[seat, g] == 0 and meta[M_SP0 + g] < meta[M_NTOK]
        if open_goal and goal_met(meta[M_G0 + g], tmp, meta[M_SQIN] != 0, meta[M_SQSAME] != 0):
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
def move_gain(st, seat, mv, base, tmp):
    """Points ``seat`` scores this turn with ``mv`` (``base`` = adjacency + personal now); fills ``tmp``."""
    return _gain(st.meta, st.board, st.shelves[seat], st.cards[seat], st.tokens, st.stacks, seat, mv, base, tmp)


@njit(cache=True)
def potential(shelf, card):
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
def greedy_move(st, moves):
    """Index in ``moves`` of the greedy choice for the seat to move (``moves`` filled here)."""
    meta, board, tokens, stacks = st.meta, st.board, st.tokens, st.stacks
    seat = meta[M_TO_MOVE]
    shelf, card = st.shelves[seat], st.cards[seat]
    n = gen_moves(board, shelf, moves)
    base = _base_points(st, seat)
    tmp = np.empty((6, 5), dtype=np.int8)
    best = -1
    best_key = -1
    ties = 0
    for i in range(n):
        gain = _gain(meta, board, shelf, card, tokens, stacks, seat, moves[i], base, tmp)
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
def _base_points(st, seat):
    """Adjacency and personal goal points of ``seat``'s shelf now."""
    return adjacency(st.shelves[seat]) + PERSONAL_PTS[personal_matches(st.cards[seat], st.shelves[seat])]


@njit(cache=True)
def _eval_moves(st, seat, moves, n, base, pot_w, tmp, out):
    """Points now plus the weighted potential of each of the first ``n`` moves, into ``out``."""
    meta, board, tokens, stacks = st.meta, st.board, st.tokens, st.stacks
    shelf, card = st.shelves[seat], st.cards[seat]
    for i in range(n):
        gain = _gain(meta, board, shelf, card, tokens, stacks, seat, moves[i], base, tmp)
        out[i] = gain + pot_w * potential(tmp, card)


@njit(cache=True)
def card_index(card):
    """Index in ``ALL_CARD_GRIDS`` of the personal goal grid ``card`` (-1 if it is none of them)."""
    for k in range(ALL_CARD_GRIDS.shape[0]):
        same = True
        for r in range(6):
            for c in range(5):
                if ALL_CARD_GRIDS[k, r, c] != card[r, c]:
                    same = False
        if same:
            return k
    return -1


@njit(cache=True, inline="always")
def _copy_grid(dst, src):
    """``dst[:, :] = src`` for 6x5 grids, element by element: an array assignment would compile numba's
    shape-error message (about 1 s of every cold compile)."""
    for r in range(6):
        for c in range(5):
            dst[r, c] = src[r, c]


@njit(cache=True)
def determinize_cards(cards, seat, out):
    """Fill ``out`` with ``seat``'s own card and, for every other seat, a card drawn at random.

    The others' cards are distinct and drawn from the cards ``seat`` has not seen (all but its
    own), so ``out`` depends only on ``cards[seat]`` and the random stream, never on the others'
    real cards; the stream advances by the same amount whatever they are.
    """
    own = card_index(cards[seat])
    pool = np.empty(ALL_CARD_GRIDS.shape[0], dtype=np.int64)
    n = 0
    for k in range(ALL_CARD_GRIDS.shape[0]):
        if k != own:
            pool[n] = k
            n += 1
    _copy_grid(out[seat], cards[seat])
    for s in range(cards.shape[0]):
        if s == seat:
            continue
        j = _randint(n)
        _copy_grid(out[s], ALL_CARD_GRIDS[pool[j]])
        n -= 1
        pool[j] = pool[n]


@njit(cache=True, inline="always")  # inlined in its one caller, lookahead_move: one compile of the whole closure fewer
def _future_value(st, seat, mv, cards, pot_w, opp_w, omoves, tmp):
    """One sampled future of ``mv`` under the determinized ``cards``: points now, the opponents'
    greedy replies (refills drawn) against it, then the win/loss or the best next move."""
    f = with_cards(st, cards)
    score0 = seat_score(f, seat)
    apply_move(f, mv)
    my_now = seat_score(f, seat) - score0
    opp_gain = 0.0
    # opponents reply greedily until it is our turn again (or the game ends)
    meta = f.meta
    while meta[M_OVER] == 0 and not (meta[M_TO_MOVE] == seat and meta[M_REFILL] == 0):
        if meta[M_REFILL] == 1:
            refill(f)
            continue
        other = meta[M_TO_MOVE]
        before = seat_score(f, other)
        j = greedy_move(f, omoves)
        apply_move(f, omoves[j])
        opp_gain += seat_score(f, other) - before
    value = my_now - opp_w * opp_gain / max(1, meta[M_N] - 1)
    if meta[M_OVER] == 1:
        return value + 100.0 * (winner(f) == seat) - 50.0
    # our best next move, valued with the potential
    n2 = gen_moves(f.board, f.shelves[seat], omoves)
    base2 = _base_points(f, seat)
    values = np.empty(n2, dtype=np.float64)
    _eval_moves(f, seat, omoves, n2, base2, pot_w, tmp, values)
    nxt = -1e18
    for j in range(n2):
        if values[j] > nxt:
            nxt = values[j]
    return value + nxt


@njit(cache=True)
def lookahead_move(st, moves, params):
    """Index in ``moves`` of the lookahead choice for the seat to move (``moves`` filled here)."""
    keep = int(params[0])
    samples = int(params[1])
    pot_w = params[2]
    opp_w = params[3]
    seat = st.meta[M_TO_MOVE]
    n = gen_moves(st.board, st.shelves[seat], moves)
    base = _base_points(st, seat)
    tmp = np.empty((6, 5), dtype=np.int8)
    first = np.empty(n, dtype=np.float64)
    _eval_moves(st, seat, moves, n, base, pot_w, tmp, first)
    for i in range(n):
        first[i] += 1e-6 * _randint(1000)  # random tie-break
    order = np.argsort(-first)
    k = min(keep, n)
    if k == 1:
        return order[0]
    omoves = np.empty((MAX_MOVES, 5), dtype=np.int64)
    # one determinization of the opponents' cards per sampled future, shared by all candidates
    drawn = np.empty((samples, st.cards.shape[0], 6, 5), dtype=np.int8)
    for s in range(samples):
        determinize_cards(st.cards, seat, drawn[s])
    best = order[0]
    best_val = -1e18
    for ci in range(k):
        i = order[ci]
        total = 0.0
        for s in range(samples):
            total += _future_value(st, seat, moves[i], drawn[s], pot_w, opp_w, omoves, tmp)
        val = total / samples
        if val > best_val:
            best_val = val
            best = i
    return best


@njit(cache=True)
def choose(policy, st, moves, params):
    if policy == 0:
        return random_move(st.board, st.shelves[st.meta[M_TO_MOVE]], moves)
    if policy == 1:
        return greedy_move(st, moves)
    return lookahead_move(st, moves, params)


@njit(cache=True)
def play_kernel_game(st, policies, params, events, move_log, refill_log):
    """Play to the end in place; log events (0 refill, 1 move) if ``events`` is non-empty."""
    moves = np.empty((MAX_MOVES, 5), dtype=np.int64)
    record = events.shape[0] > 0
    ne = 0
    nm = 0
    nr = 0
    meta = st.meta
    while meta[M_OVER] == 0:
        if meta[M_REFILL] == 1:
            refill(st)
            if record:
                events[ne] = 0
                ne += 1
                for j in range(refill_log.shape[1]):  # element by element, as in _copy_grid
                    refill_log[nr, j] = st.board[j]
                nr += 1
            continue
        i = choose(policies[meta[M_TO_MOVE]], st, moves, params)
        if record:
            events[ne] = 1
            ne += 1
            for k in range(5):
                move_log[nm, k] = moves[i, k]
            nm += 1
        apply_move(st, moves[i])
    return ne


@njit(cache=True)
def run_kernel_games(start, goal_ids, card_ids_all, card_grids, policies_all, params, seeds, scores_out, winners_out):
    """Play ``len(winners_out)`` games from the fresh state ``start`` (its seats and rule options);
    game g uses goals ``goal_ids[g]``, cards ``card_ids_all[g]`` and numba's random stream seeded with
    ``seeds[g]``."""
    empty_ev = np.empty(0, dtype=np.int64)
    empty_mv = np.empty((0, 5), dtype=np.int64)
    empty_rf = np.empty((0, 81), dtype=np.int8)
    num_players = start.meta[M_N]
    for g in range(winners_out.shape[0]):
        seed_numba(seeds[g])
        st = copy_state(start)
        st.meta[M_G0] = goal_ids[g, 0]
        st.meta[M_G0 + 1] = goal_ids[g, 1]
        for s in range(num_players):
            _copy_grid(st.cards[s], card_grids[card_ids_all[g, s] - 1])
        play_kernel_game(st, policies_all[g], params, empty_ev, empty_mv, empty_rf)
        for s in range(num_players):
            scores_out[g, s] = seat_score(st, s)
        winners_out[g] = winner(st)


# ---------------------------------------------------------------------------------------------
# Python-facing API
# ---------------------------------------------------------------------------------------------


def move_from_row(row: np.ndarray) -> Move:
    """The engine :class:`Move` of a kernel move row."""
    values = row.tolist()
    return Move(row_cells(values), values[4])


def _seed_from(rng: random.Random) -> None:
    seed_numba(rng.getrandbits(31))


def best_move_now(state: ShelfieState, rng: random.Random | None = None) -> tuple[Move, int]:
    """The pick + column + order scoring the most points this turn (greedy tie-break), and its points."""
    _seed_from(rng or random.Random(0))
    st = state.arrays
    moves = np.empty((MAX_MOVES, 5), dtype=np.int64)
    i = greedy_move(st, moves)
    seat = state.to_move
    tmp = np.empty((6, 5), dtype=np.int8)
    gain = move_gain(st, seat, moves[i], _base_points(st, seat), tmp)
    return move_from_row(moves[i]), int(gain)


def move_points(state: ShelfieState) -> list[tuple[Move, int]]:
    """Every legal move with the points it scores this turn (best first)."""
    st = state.arrays
    moves = np.empty((MAX_MOVES, 5), dtype=np.int64)
    seat = state.to_move
    n = gen_moves(st.board, st.shelves[seat], moves)
    base = _base_points(st, seat)
    tmp = np.empty((6, 5), dtype=np.int8)
    out = [(move_from_row(moves[i]), int(move_gain(st, seat, moves[i], base, tmp))) for i in range(n)]
    return sorted(out, key=lambda mp: -mp[1])


class KernelBot:
    """A bot over :class:`ShelfieState` that runs a numba policy (``random``, ``greedy`` or ``lookahead``).

    ``params`` are the lookahead parameters (see :data:`DEFAULT_PARAMS`); ``name`` is how the bot
    is shown (its ``make_bot`` spec).
    """

    def __init__(self, policy: str = "greedy", params: np.ndarray | None = None, name: str | None = None) -> None:
        if policy not in POLICIES:
            raise ValueError(f"unknown shelfie policy {policy!r}; choose from {', '.join(POLICIES)}")
        self.policy = policy
        self.params = DEFAULT_PARAMS.copy() if params is None else np.asarray(params, dtype=np.float64)
        self.name = name or policy

    def choose(self, state: GameState[Any], rng: random.Random) -> Move:
        """The policy's move for the seat to move (the lookahead redraws the cards it cannot see)."""
        assert isinstance(state, ShelfieState)
        _seed_from(rng)
        moves = np.empty((MAX_MOVES, 5), dtype=np.int64)
        i = choose(POLICIES[self.policy], state.arrays, moves, self.params)
        return move_from_row(moves[i])


def RandomShelfieBot() -> KernelBot:  # noqa: N802 (a bot constructor)
    """The compiled uniformly random bot."""
    return KernelBot("random")


def GreedyBot() -> KernelBot:  # noqa: N802
    """The ``greedy`` bot: most points this turn."""
    return KernelBot("greedy")


def LookaheadBot(params: np.ndarray | None = None) -> KernelBot:  # noqa: N802
    """The ``lookahead`` bot with ``params`` (default :data:`DEFAULT_PARAMS`)."""
    return KernelBot("lookahead", params)


def lookahead_params(budget: Budget | None) -> np.ndarray:
    """Lookahead parameters for a budget: ``lookahead:N`` samples N futures per candidate move."""
    params = DEFAULT_PARAMS.copy()
    if budget is not None:
        if budget.count is None:
            raise ValueError("the shelfie lookahead budget is a number of sampled futures (lookahead:8), not seconds")
        params[1] = float(budget.count)
    return params


def greedy_rollout(state: GameState[Any], rng: random.Random) -> list[float]:
    """MCTS rollout: the (determinized) state played to the end by compiled greedy bots; its returns."""
    assert isinstance(state, ShelfieState)
    _seed_from(rng)
    st = copy_state(state.arrays)
    policies = np.full(state.num_players, POLICIES["greedy"], dtype=np.int64)
    play_kernel_game(st, policies, DEFAULT_PARAMS, _NO_EVENTS, _NO_MOVES, _NO_REFILLS)
    win = int(winner(st))
    return [1.0 if s == win else 0.0 for s in range(state.num_players)]


_NO_EVENTS = np.empty(0, dtype=np.int64)
_NO_MOVES = np.empty((0, 5), dtype=np.int64)
_NO_REFILLS = np.empty((0, 81), dtype=np.int8)


def seat_view(state: GameState[Any], seat: int) -> str:
    """The position as ``seat`` sees it (its own personal card only)."""
    render = getattr(state, "render_text", None)
    return str(render(viewer=seat, color=sys.stdout.isatty())) if callable(render) else str(state)


class ShelfieHumanBot(HumanBot):
    """A person at the terminal: cells in placing order, then a column (``d5 e5 3``).

    The commands of every game's human (``help``, ``?``/``moves``, ``hint``, ``undo``, ``save FILE``,
    ``quit``); ``hint`` shows the move scoring the most points now.
    """

    notation = "cells in placing order, then column 1-5, e.g. d5 e5 3"

    def __init__(self, show: Any = None, stream: Any = None) -> None:
        super().__init__(show or seat_view, stream)

    def hint_text(self, state: GameState[Any]) -> str:
        if not isinstance(state, ShelfieState):
            return super().hint_text(state)
        hint, points = best_move_now(state, random.Random(0))
        return f"best points now: {hint}  (+{points})"

    def legal_text(self, state: GameState[Any]) -> str:
        moves = sorted({state.action_to_string(m) for m in state.legal_actions()})
        return ", ".join(moves[:60]) + (f" ... ({len(moves)} in all)" if len(moves) > 60 else "")


def _no_budget(policy: str) -> BotFactory:
    def factory(budget: Budget | None) -> Bot[Any]:
        if budget is not None:
            raise ValueError(f"the shelfie {policy} bot takes no budget")
        return KernelBot(policy)

    return factory


def _lookahead(budget: Budget | None) -> Bot[Any]:
    return KernelBot("lookahead", lookahead_params(budget), "lookahead" if budget is None else f"lookahead:{budget}")


#: Moves the shelfie MCTS searches at a decision node: the best ones by points this turn.
MCTS_CANDIDATES = 12


def best_candidates(state: GameState[Any], rng: random.Random) -> list[Any]:
    """MCTS candidates: the :data:`MCTS_CANDIDATES` moves scoring the most points now (own card only)."""
    assert isinstance(state, ShelfieState)
    return [move for move, _ in move_points(state)[:MCTS_CANDIDATES]]


def _mcts(budget: Budget | None) -> Bot[Any]:
    iterations = 200 if budget is None else budget.count
    seconds = None if budget is None else budget.seconds
    name = "mcts" if budget is None else f"mcts:{budget}"
    return MCTSBot(iterations=iterations, seconds=seconds, rollout=greedy_rollout, candidates=best_candidates,
                   name=name)


#: The shelfie bots by ``make_bot`` name (they replace the generic ``random`` and ``mcts``).
BOTS: dict[str, BotFactory] = {
    "random": _no_budget("random"),
    "greedy": _no_budget("greedy"),
    "lookahead": _lookahead,
    "mcts": _mcts,
    "human": lambda budget: ShelfieHumanBot(),
}


def play_logged_game(state: ShelfieState, policies: list[str], seed: int, params: np.ndarray | None = None
                     ) -> tuple[list[int], list[np.ndarray], list[np.ndarray], ShelfieArrays]:
    """Play ``state`` to the end in the kernel, returning (events, moves, refill boards, final arrays)."""
    arrays = copy_state(state.arrays)
    seed_numba(seed)
    events = np.zeros(4096, dtype=np.int64)
    move_log = np.zeros((2048, 5), dtype=np.int64)
    refill_log = np.zeros((512, 81), dtype=np.int8)
    pol = np.array([POLICIES[p] for p in policies], dtype=np.int64)
    ne = play_kernel_game(arrays, pol, DEFAULT_PARAMS if params is None else params, events, move_log, refill_log)
    ev = events[:ne].tolist()
    return ev, list(move_log[: ev.count(1)]), list(refill_log[: ev.count(0)]), arrays


def _kernel_lineup(job: PlayoutJob) -> tuple[list[int], np.ndarray] | None:
    """Policy per bot of ``job`` and the lookahead parameters, or None if the kernel cannot play it."""
    policies = []
    budgets = set()
    for spec in job.bots:
        name, _, budget = spec.partition(":")
        if name not in POLICIES or (budget and name != "lookahead"):
            return None
        if name == "lookahead":
            budgets.add(budget)
        policies.append(POLICIES[name])
    if len(budgets) > 1:
        return None  # one parameter set per kernel game
    from solvers.bots import parse_budget

    budget = next(iter(budgets), "")
    return policies, lookahead_params(parse_budget(budget) if budget else None)


def fast_playouts(job: PlayoutJob, start: int, stop: int) -> PlayoutStats | None:
    """Games ``start .. stop-1`` of ``job`` played inside numba; None for line-ups it cannot play.

    Game ``i`` is dealt by the engine's :func:`~puzzles.shelfie.engine.deal` from ``game_seed(job.seed,
    i)`` (so the goals and cards are those of ``job.new_state(i)``), its refills and random choices come from numba's stream seeded
    with the same number, and the bots sit as :func:`solvers.playout.seating` says.
    """
    if job.game != "shelfie":
        return None
    lineup = _kernel_lineup(job)
    if lineup is None:
        return None
    policies, params = lineup
    games = stop - start
    n = job.players
    stats = PlayoutStats(list(job.bots))
    if games <= 0:
        return stats
    options = dict(job.options)
    first = job.new_state(start)  # checks the options
    assert isinstance(first, ShelfieState)
    goal_ids = np.zeros((games, 2), dtype=np.int64)
    card_ids = np.zeros((games, n), dtype=np.int64)
    seats_of = np.zeros((games, n), dtype=np.int64)
    seeds = np.zeros(games, dtype=np.int64)
    for g, index in enumerate(range(start, stop)):
        goals, cards = deal(n, game_seed(job.seed, index), options.get("common_goals"), options.get("personal_cards"))
        goal_ids[g] = [GOAL_IDS[key] for key in goals]
        card_ids[g] = cards
        seats_of[g] = seating(n, index, job.rotate)
        seeds[g] = game_seed(job.seed, index) % (2**31)
    policies_all = np.array(policies, dtype=np.int64)[seats_of]
    scores = np.zeros((games, n), dtype=np.int64)
    winners = np.zeros(games, dtype=np.int64)
    run_kernel_games(first.arrays, goal_ids, card_ids, ALL_CARD_GRIDS, policies_all, params, seeds, scores, winners)
    for g in range(games):
        returns = [1.0 if s == winners[g] else 0.0 for s in range(n)]
        stats.add_result(returns, [float(x) for x in scores[g]], seats_of[g].tolist())
    return stats
