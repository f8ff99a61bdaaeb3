"""A numba kernel of the My Shelfie rules, for playouts and search (same rules as the engine).

State layout (all numpy, so it can be copied cheaply and passed to ``@njit`` code):

* ``meta``   int64[META_SIZE]: seats, seat to move, end-token holder (-1: none), game over,
  refill due, refill rule, the two TWO_SQUARES options, turn, the two goal ids, the two stack
  positions and tokens per stack (see the ``M_*`` indices);
* ``board``  int8[81]: -2 unusable, -1 empty, 0..5 a tile (row-major, row 0 = top);
* ``shelves`` int8[n, 6, 5], -1 empty; ``bag`` int64[6]; ``tokens`` int64[n, 2] (token taken per goal);
* ``stacks`` int64[2, 4] token values (top first); ``cards`` int8[n, 6, 5] personal goal grids.

A move is an int64 row ``(L, c0, c1, c2, column)``: L board cells (flat indices) in placement
order (first lands lowest) and the shelf column.  Move generation lists the same moves as
:meth:`puzzles.shelfie.engine.ShelfieState.legal_actions` (orders with equal type sequences
merged); tests check both agree and replay kernel games through the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from puzzles.shelfie.rules import COMMON_GOAL_KEYS, EMPTY, SCORING_TOKENS, personal_goal_grid

if TYPE_CHECKING:
    from puzzles.shelfie.engine import Move

UNUSABLE = -2
N_CELLS = 81
MAX_MOVES = 4096

M_N, M_TO_MOVE, M_END, M_OVER, M_REFILL, M_RULE, M_SQIN, M_SQSAME, M_TURN = range(9)
M_G0, M_G1, M_SP0, M_SP1, M_NTOK = range(9, 14)
META_SIZE = 14

RULE_ISOLATED, RULE_FOUR = 0, 1

GOAL_IDS = {key: i for i, key in enumerate(COMMON_GOAL_KEYS)}
assert COMMON_GOAL_KEYS == (
    "SIX_PAIRS", "DIAGONAL", "FOUR_GROUPS_OF_FOUR", "FOUR_ROWS_MAX3", "FOUR_CORNERS",
    "TWO_COLUMNS_ALL_DIFFERENT", "TWO_SQUARES", "TWO_ROWS_ALL_DIFFERENT", "THREE_COLUMNS_MAX3",
    "X_SHAPE", "EIGHT_SAME", "STAIRCASE",
)

PERSONAL_PTS = np.array([0, 1, 2, 4, 6, 9, 12], dtype=np.int64)
GROUP_PTS = np.array([0, 0, 0, 2, 3, 5, 8], dtype=np.int64)
PERM2 = np.array([[0, 1], [1, 0]], dtype=np.int64)
PERM3 = np.array([[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]], dtype=np.int64)


def _neighbour_table() -> np.ndarray:
    nb = np.full((N_CELLS, 4), -1, dtype=np.int64)
    for r in range(9):
        for c in range(9):
            for k, (dr, dc) in enumerate(((-1, 0), (1, 0), (0, -1), (0, 1))):
                y, x = r + dr, c + dc
                if 0 <= y < 9 and 0 <= x < 9:
                    nb[r * 9 + c, k] = y * 9 + x
    return nb


NB = _neighbour_table()


# ---------------------------------------------------------------------------------------------
# shelf scoring
# ---------------------------------------------------------------------------------------------


@njit(cache=True)
def label_groups(shelf, labels, sizes, boxes):
    """Label the same-type groups of ``shelf``; returns their number.

    ``labels`` int64[30] gets the group of each cell (-1 empty), ``sizes`` int64[30] the sizes and
    ``boxes`` int64[30, 4] the bounding boxes (rmin, rmax, cmin, cmax).
    """
    for i in range(30):
        labels[i] = -1
    stack = np.empty(30, dtype=np.int64)
    n = 0
    for start in range(30):
        r0, c0 = start // 5, start % 5
        t = shelf[r0, c0]
        if t < 0 or labels[start] >= 0:
            continue
        labels[start] = n
        top = 0
        stack[0] = start
        top = 1
        size = 0
        rmin, rmax, cmin, cmax = r0, r0, c0, c0
        while top > 0:
            top -= 1
            i = stack[top]
            r, c = i // 5, i % 5
            size += 1
            rmin = min(rmin, r)
            rmax = max(rmax, r)
            cmin = min(cmin, c)
            cmax = max(cmax, c)
            if r > 0 and labels[i - 5] < 0 and shelf[r - 1, c] == t:
                labels[i - 5] = n
                stack[top] = i - 5
                top += 1
            if r < 5 and labels[i + 5] < 0 and shelf[r + 1, c] == t:
                labels[i + 5] = n
                stack[top] = i + 5
                top += 1
            if c > 0 and labels[i - 1] < 0 and shelf[r, c - 1] == t:
                labels[i - 1] = n
                stack[top] = i - 1
                top += 1
            if c < 4 and labels[i + 1] < 0 and shelf[r, c + 1] == t:
                labels[i + 1] = n
                stack[top] = i + 1
                top += 1
        sizes[n] = size
        boxes[n, 0] = rmin
        boxes[n, 1] = rmax
        boxes[n, 2] = cmin
        boxes[n, 3] = cmax
        n += 1
    return n


@njit(cache=True)
def adjacency(shelf):
    """Adjacency points of a shelf (groups of 3: 2, 4: 3, 5: 5, 6+: 8)."""
    labels = np.empty(30, dtype=np.int64)
    sizes = np.empty(30, dtype=np.int64)
    boxes = np.empty((30, 4), dtype=np.int64)
    n = label_groups(shelf, labels, sizes, boxes)
    pts = 0
    for g in range(n):
        pts += GROUP_PTS[min(sizes[g], 6)]
    return pts


@njit(cache=True)
def personal_matches(card, shelf):
    m = 0
    for r in range(6):
        for c in range(5):
            if card[r, c] >= 0 and shelf[r, c] == card[r, c]:
                m += 1
    return m


@njit(cache=True)
def personal_points(card, shelf):
    return PERSONAL_PTS[personal_matches(card, shelf)]


@njit(cache=True)
def _same5(shelf, rs, cs):
    t = shelf[rs[0], cs[0]]
    if t < 0:
        return False
    for k in range(1, len(rs)):
        if shelf[rs[k], cs[k]] != t:
            return False
    return True


@njit(cache=True)
def _distinct(line):
    seen = np.zeros(6, dtype=np.int64)
    d = 0
    for v in line:
        if seen[v] == 0:
            seen[v] = 1
            d += 1
    return d


@njit(cache=True)
def goal_met(gid, shelf, sq_inside, sq_same):
    """Common goal ``gid`` (index in COMMON_GOAL_KEYS) on ``shelf``; options as in the rules."""
    if gid == 0 or gid == 2 or (gid == 6 and not sq_inside):
        labels = np.empty(30, dtype=np.int64)
        sizes = np.empty(30, dtype=np.int64)
        boxes = np.empty((30, 4), dtype=np.int64)
        n = label_groups(shelf, labels, sizes, boxes)
        if gid == 0:
            k = 0
            for g in range(n):
                if sizes[g] >= 2:
                    k += 1
            return k >= 6
        if gid == 2:
            k = 0
            for g in range(n):
                if sizes[g] >= 4:
                    k += 1
            return k >= 4
        # exact squares: groups of 4 with a 2x2 bounding box
        first = -1
        for g in range(n):
            if sizes[g] == 4 and boxes[g, 1] - boxes[g, 0] == 1 and boxes[g, 3] - boxes[g, 2] == 1:
                t = shelf[boxes[g, 0], boxes[g, 2]]
                if not sq_same:
                    if first >= 0:
                        return True
                    first = g
                else:
                    for h in range(g):
                        if (sizes[h] == 4 and boxes[h, 1] - boxes[h, 0] == 1 and boxes[h, 3] - boxes[h, 2] == 1
                                and shelf[boxes[h, 0], boxes[h, 2]] == t):
                            return True
        return False
    if gid == 6:  # squares anywhere, non-overlapping
        sr = np.empty(20, dtype=np.int64)
        sc = np.empty(20, dtype=np.int64)
        st = np.empty(20, dtype=np.int64)
        k = 0
        for r in range(5):
            for c in range(4):
                t = shelf[r, c]
                if t >= 0 and shelf[r, c + 1] == t and shelf[r + 1, c] == t and shelf[r + 1, c + 1] == t:
                    for j in range(k):
                        if (abs(sr[j] - r) >= 2 or abs(sc[j] - c) >= 2) and (not sq_same or st[j] == t):
                            return True
                    sr[k] = r
                    sc[k] = c
                    st[k] = t
                    k += 1
        return False
    if gid == 1:  # DIAGONAL
        for d in range(4):
            off = d % 2
            t = shelf[off, 0] if d < 2 else shelf[off, 4]
            if t < 0:
                continue
            ok = True
            for i in range(5):
                c = i if d < 2 else 4 - i
                if shelf[i + off, c] != t:
                    ok = False
                    break
            if ok:
                return True
        return False
    if gid == 4:  # FOUR_CORNERS
        t = shelf[0, 0]
        return t >= 0 and shelf[0, 4] == t and shelf[5, 0] == t and shelf[5, 4] == t
    if gid == 10:  # EIGHT_SAME
        counts = np.zeros(6, dtype=np.int64)
        for r in range(6):
            for c in range(5):
                if shelf[r, c] >= 0:
                    counts[shelf[r, c]] += 1
        return counts.max() >= 8
    if gid == 9:  # X_SHAPE
        for r in range(4):
            for c in range(3):
                t = shelf[r, c]
                if (t >= 0 and shelf[r, c + 2] == t and shelf[r + 1, c + 1] == t and shelf[r + 2, c] == t
                        and shelf[r + 2, c + 2] == t):
                    return True
        return False
    if gid == 3 or gid == 7:  # rows
        k = 0
        for r in range(6):
            full = True
            for c in range(5):
                if shelf[r, c] < 0:
                    full = False
            if full:
                d = _distinct(shelf[r, :])
                if (gid == 3 and d <= 3) or (gid == 7 and d == 5):
                    k += 1
        return k >= (4 if gid == 3 else 2)
    if gid == 8 or gid == 5:  # columns
        k = 0
        for c in range(5):
            full = True
            for r in range(6):
                if shelf[r, c] < 0:
                    full = False
            if full:
                d = _distinct(shelf[:, c])
                if (gid == 8 and d <= 3) or (gid == 5 and d == 6):
                    k += 1
        return k >= (3 if gid == 8 else 2)
    if gid == 11:  # STAIRCASE
        h = np.empty(5, dtype=np.int64)
        for c in range(5):
            cnt = 0
            for r in range(6):
                if shelf[r, c] >= 0:
                    cnt += 1
            for r in range(6):
                if (shelf[r, c] >= 0) != (r >= 6 - cnt):
                    return False
            h[c] = cnt
        for k0 in range(1, 3):
            up = True
            down = True
            for c in range(5):
                if h[c] != k0 + c:
                    up = False
                if h[c] != k0 + 4 - c:
                    down = False
            if up or down:
                return True
        return False
    return False


# ---------------------------------------------------------------------------------------------
# board and moves
# ---------------------------------------------------------------------------------------------


@njit(cache=True)
def is_free(board, i):
    for k in range(4):
        j = NB[i, k]
        if j < 0 or board[j] < 0:
            return True
    return False


@njit(cache=True)
def column_free(shelf, c):
    f = 0
    for r in range(6):
        if shelf[r, c] < 0:
            f += 1
    return f


@njit(cache=True)
def _emit(board, cells, L, free, out, n):
    types = np.empty(6, dtype=np.int64)  # encoded type sequences of kept orders
    kept = 0
    nperm = 1 if L == 1 else (2 if L == 2 else 6)
    for p in range(nperm):
        if L == 1:
            a, b, c = cells[0], -1, -1
        elif L == 2:
            a, b, c = cells[PERM2[p, 0]], cells[PERM2[p, 1]], -1
        else:
            a, b, c = cells[PERM3[p, 0]], cells[PERM3[p, 1]], cells[PERM3[p, 2]]
        code = board[a] * 49
        if b >= 0:
            code += board[b] * 7
        if c >= 0:
            code += board[c]
        dup = False
        for q in range(kept):
            if types[q] == code:
                dup = True
                break
        if dup:
            continue
        types[kept] = code
        kept += 1
        for col in range(5):
            if free[col] >= L:
                out[n, 0] = L
                out[n, 1] = a
                out[n, 2] = b
                out[n, 3] = c
                out[n, 4] = col
                n += 1
    return n


@njit(cache=True)
def gen_moves(board, shelf, out):
    """Fill ``out`` (int64[MAX_MOVES, 5]) with the legal moves for ``shelf``; returns how many."""
    free = np.empty(5, dtype=np.int64)
    maxfree = 0
    for c in range(5):
        free[c] = column_free(shelf, c)
        maxfree = max(maxfree, free[c])
    maxlen = min(3, maxfree)
    ok = np.zeros(N_CELLS, dtype=np.bool_)
    for i in range(N_CELLS):
        ok[i] = board[i] >= 0 and is_free(board, i)
    cells = np.empty(3, dtype=np.int64)
    n = 0
    if maxlen == 0:
        return 0
    for i in range(N_CELLS):
        if not ok[i]:
            continue
        cells[0] = i
        n = _emit(board, cells, 1, free, out, n)
        r, c = i // 9, i % 9
        # right, then down (as the engine's pick_lines)
        for d in range(2):
            step = 1 if d == 0 else 9
            for L in range(2, maxlen + 1):
                rr = r + (L - 1) * (0 if d == 0 else 1)
                cc = c + (L - 1) * (1 if d == 0 else 0)
                if rr > 8 or cc > 8:
                    break
                j = i + (L - 1) * step
                if not ok[j]:
                    break
                cells[L - 1] = j
                n = _emit(board, cells, L, free, out, n)
    return n


@njit(cache=True)
def place(shelf, board, mv):
    """Move the tiles of ``mv`` from ``board`` into ``shelf`` (no checks)."""
    col = mv[4]
    h = 6 - column_free(shelf, col)
    for k in range(mv[0]):
        cell = mv[1 + k]
        shelf[5 - h, col] = board[cell]
        board[cell] = -1
        h += 1


@njit(cache=True)
def board_needs_refill(board, rule):
    if rule == RULE_FOUR:
        n = 0
        for i in range(N_CELLS):
            if board[i] >= 0:
                n += 1
        return n <= 4
    for i in range(N_CELLS):
        if board[i] >= 0:
            for k in range(4):
                j = NB[i, k]
                if j >= 0 and board[j] >= 0:
                    return False
    return True


@njit(cache=True)
def refill(board, bag):
    """Return the board's tiles to ``bag`` and refill every usable cell at random (np.random)."""
    nu = 0
    for i in range(N_CELLS):
        if board[i] >= 0:
            bag[board[i]] += 1
            board[i] = -1
        if board[i] == -1:
            nu += 1
    total = bag.sum()
    cells = np.empty(nu, dtype=np.int64)
    k = 0
    for i in range(N_CELLS):
        if board[i] == -1:
            cells[k] = i
            k += 1
    if total < nu:  # choose which cells get a tile
        for a in range(nu - 1, 0, -1):
            b = np.random.randint(0, a + 1)
            cells[a], cells[b] = cells[b], cells[a]
        nu = total
        cells[:nu] = np.sort(cells[:nu])
    for k in range(nu):
        x = np.random.randint(0, total)
        t = 0
        while x >= bag[t]:
            x -= bag[t]
            t += 1
        bag[t] -= 1
        total -= 1
        board[cells[k]] = t


# ---------------------------------------------------------------------------------------------
# whole turns
# ---------------------------------------------------------------------------------------------


@njit(cache=True)
def score_goals(meta, shelves, tokens, stacks, seat):
    """Give ``seat`` the top token of each common goal it meets now and has not scored."""
    for g in range(2):
        if tokens[seat, g] == 0 and meta[M_SP0 + g] < meta[M_NTOK]:
            if goal_met(meta[M_G0 + g], shelves[seat], meta[M_SQIN] != 0, meta[M_SQSAME] != 0):
                tokens[seat, g] = stacks[g, meta[M_SP0 + g]]
                meta[M_SP0 + g] += 1


@njit(cache=True)
def shelf_full(shelf):
    for c in range(5):
        if shelf[0, c] < 0:
            return False
    return True


@njit(cache=True)
def apply_move(meta, board, shelves, tokens, stacks, mv):
    """Play ``mv`` for the seat to move: place, goals, end token, next seat, refill check."""
    seat = meta[M_TO_MOVE]
    place(shelves[seat], board, mv)
    meta[M_TURN] += 1
    score_goals(meta, shelves, tokens, stacks, seat)
    if meta[M_END] < 0 and shelf_full(shelves[seat]):
        meta[M_END] = seat
    if meta[M_END] >= 0 and seat == meta[M_N] - 1:
        meta[M_OVER] = 1
        return
    meta[M_TO_MOVE] = (seat + 1) % meta[M_N]
    if board_needs_refill(board, meta[M_RULE]):
        meta[M_REFILL] = 1


@njit(cache=True)
def seat_score(meta, shelves, tokens, cards, seat):
    s = tokens[seat, 0] + tokens[seat, 1]
    if meta[M_END] == seat:
        s += 1
    return s + personal_points(cards[seat], shelves[seat]) + adjacency(shelves[seat])


@njit(cache=True)
def winner(meta, shelves, tokens, cards):
    """Best score; ties go to the highest seat (furthest from the first player)."""
    best = -1
    win = 0
    for s in range(meta[M_N]):
        v = seat_score(meta, shelves, tokens, cards, s)
        if v >= best:
            best = v
            win = s
    return win


@njit(cache=True)
def seed_numba(seed):
    np.random.seed(seed)


# ---------------------------------------------------------------------------------------------
# conversion from/to the engine
# ---------------------------------------------------------------------------------------------


def new_kernel_state(num_players: int, goals: tuple[str, str], cards: tuple[int, ...], refill_rule: str = "isolated",
                     squares_inside_groups: bool = False, squares_same_type: bool = False) -> tuple:
    """Kernel arrays of a fresh game (board empty, refill due)."""
    from puzzles.shelfie.engine import board_mask

    meta = np.zeros(META_SIZE, dtype=np.int64)
    meta[M_N] = num_players
    meta[M_END] = -1
    meta[M_REFILL] = 1
    meta[M_RULE] = RULE_FOUR if refill_rule == "four_or_fewer" else RULE_ISOLATED
    meta[M_SQIN] = int(squares_inside_groups)
    meta[M_SQSAME] = int(squares_same_type)
    meta[M_G0], meta[M_G1] = GOAL_IDS[goals[0]], GOAL_IDS[goals[1]]
    meta[M_NTOK] = len(SCORING_TOKENS[num_players])
    stacks = np.zeros((2, 4), dtype=np.int64)
    for g in range(2):
        stacks[g, : meta[M_NTOK]] = SCORING_TOKENS[num_players]
    board = np.where(board_mask(num_players).ravel(), -1, UNUSABLE).astype(np.int8)
    shelves = np.full((num_players, 6, 5), EMPTY, dtype=np.int8)
    bag = np.full(6, 22, dtype=np.int64)
    tokens = np.zeros((num_players, 2), dtype=np.int64)
    card_grids = np.stack([personal_goal_grid(c) for c in cards]).astype(np.int8)
    return meta, board, shelves, bag, tokens, stacks, card_grids


def kernel_state(state) -> tuple:
    """Kernel arrays for a :class:`~puzzles.shelfie.engine.ShelfieState` (copies)."""
    meta, board, shelves, bag, tokens, stacks, cards = new_kernel_state(
        state.num_players, state.common_goals, state.personal_cards, state.refill_rule,
        state.squares_inside_groups, state.squares_same_type)
    board[:] = np.where(state.mask.ravel(), state.board.ravel(), UNUSABLE)
    shelves[:] = state.shelves
    bag[:] = state.bag
    tokens[:] = np.array(state.tokens, dtype=np.int64)
    for g in range(2):
        meta[M_SP0 + g] = meta[M_NTOK] - len(state.stacks[g])
    meta[M_END] = -1 if state.end_token is None else state.end_token
    meta[M_TO_MOVE] = state.to_move
    meta[M_OVER] = int(state.game_over)
    meta[M_REFILL] = int(state.needs_refill)
    meta[M_TURN] = state.turn
    return meta, board, shelves, bag, tokens, stacks, cards


def move_from_row(row) -> Move:
    """The engine :class:`Move` of a kernel move row."""
    from puzzles.shelfie.engine import Move

    return Move(tuple((int(row[1 + k]) // 9, int(row[1 + k]) % 9) for k in range(int(row[0]))), int(row[4]))


def move_to_row(move) -> np.ndarray:
    row = np.full(5, -1, dtype=np.int64)
    row[0] = len(move.cells)
    for k, (r, c) in enumerate(move.cells):
        row[1 + k] = r * 9 + c
    row[4] = move.column
    return row
