"""mcts-rave's playouts (Pentobi's ``State``): finish the game with the weighted policy, then score it.

A move is drawn with weight ``5^size`` (Classic) or ``3^size * 1.8^(the piece's attach points - 1)``
(Duo), times ``1e6`` per local point it covers (Pentobi's ``PlayoutFeatures``: the attach points of the
opponents' last three moves that they may still use and those points' edge neighbours that they may
still use, 2 when also our attach point; ``1e24`` for 4, ``1e25`` beyond), so playouts answer the
opponent locally; the result is win/tie/loss (shared
by rank with more than two players) plus a quality bonus: 0.1 of a squashed margin, or with the search knob ``quality_bonus`` set (on by
default in four-player Classic only: paired matches against Pentobi showed it there)
Pentobi's ``State::get_quality_bonus`` (0.3 of the squashed z-score of the seat's points
minus the others' mean, and -0.12 (result - 0.5) of the squashed z-score of the game length, both
against the running statistics of the current search).  Every move of a simulation is logged for
RAVE (:func:`mark_played`).

With the search knob ``lgr`` (Pentobi's ``use_lgr``), a colour first tries the last good reply
(LGRF-2, Baier and Drake 2010): the move that last won a simulation for it in answer to the
simulation's last two moves, else to its last move (:func:`lgr_reply`), if that move is legal now;
after each simulation the winners' replies are stored and the losers' forgotten (:func:`lgr_update`).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from puzzles.blokus import kernel as K
from solvers.blokus.mcts.priors import second_colour

#: Playout weight factor by the local points a move covers (Pentobi's State::init_gamma, Classic and Duo).
LOCAL_GAMMAS = np.array([1.0, 1e6, 1e12, 1e18, 1e24, 1e25])


@K.hot
def playout(c, tables, arrays, nonboard, wtab, pl_weight, lists, nlist, played, ply, pool, meta, slot, recent,
            second, glocal, use_local, wbuf, pw, early, player_of, piece_sizes, monomino, lgr, use_lgr, pass_plies):
    """Finish the game from colour ``c`` with the weighted policy; record each (colour, move) for RAVE.

    Each colour's legal-move list starts from its list at the deepest tree node on the path that
    keeps them (list cache ``slot``, see :func:`~solvers.blokus.mcts.lists.cache_lists`) and is kept
    by the kernel's :func:`~puzzles.blokus.kernel.turn_moves` (the same upkeep as the random games'),
    which weighs each move ``wtab[pieces on board][class] * glocal[local points covered]`` as it goes.
    With ``early`` (two players), the playout stops when a player can move no more while behind
    (Pentobi's early termination: the loss is decided; the margin is then the current one).
    With ``use_lgr`` a colour plays its last good reply (:func:`lgr_reply`) when it has a legal one.
    Returns the ply after the last move; a colour's pass counts as a ply with ``pass_plies`` (Pentobi's do not).
    """
    feat, mark, inited, processed, mstamp = pw
    stamp = K.next_stamp(mark, mstamp)
    geo = tables.geo
    forbidden, is_attach, left, done = arrays.forbidden, arrays.is_attach, arrays.left, arrays.done
    nc = forbidden.shape[0]
    for k in range(nc):
        inited[k] = 0
    on_board = nonboard
    last_row = wtab.shape[0] - 1
    area = forbidden.shape[1]
    width = np.int64(np.sqrt(area) + 0.5)
    log_move, nlog = played[0], played[3][0]
    last = log_move[nlog - 1] if nlog >= 1 else -1  # the simulation's last two moves, for the last good reply
    second_last = log_move[nlog - 2] if nlog >= 2 else -1
    while c >= 0:
        m = lgr_reply(c, last, second_last, lgr, tables, arrays, player_of) if use_lgr else -1
        if m < 0:  # no good reply: draw from the weighted legal moves
            L = lists[c]
            K.set_features(forbidden[c], left[c], feat)
            if use_local:
                mark_local_points(c, second_colour(c, second, arrays.placed), recent, forbidden, is_attach, geo, width, feat)
            wt = wtab[min(on_board, last_row)]
            start = (pool, meta[slot, 0, c], meta[slot, 1, c], meta[slot, 2, c], meta[slot, 3, c])
            n, total = K.turn_moves(c, tables, arrays, feat, mark, stamp, lists, nlist, inited, processed, start, wt,
                                    glocal, wbuf)
            if n == 0:
                done[c] = 1
                if early and done[second[c]] and player_behind(c, arrays, player_of, piece_sizes, monomino):
                    break
            else:
                if total <= 0.0:
                    for i in range(n):
                        total += pl_weight[L[i]]
                        wbuf[i] = total
                m = K.draw(L, wbuf, n, total)
        if m >= 0:
            if use_lgr:  # the next colour's reply lookup misses the caches: ask for its line now, before placing
                nxt = c + 1 if c + 1 < nc else 0
                prefetch(lgr[1][nxt], lgr_slot(lgr, m, last))
            K.place(c, m, tables, arrays)
            push_recent(recent, c, m)
            on_board += 1
            mark_played(played, c, m, ply)
            second_last = last
            last = m
            ply += 1
        elif pass_plies:
            ply += 1
        c = K.next_color(c, done)
    return ply


@intrinsic
def prefetch(typingctx, array, index):  # type: ignore[no-untyped-def]
    """Ask the CPU to bring ``array[index]`` into its caches (LLVM's ``prefetch``: a read, kept close); no result."""
    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        array_type = signature.args[0]
        data = context.make_array(array_type)(context, builder, args[0])
        pointer = cgutils.get_item_pointer(context, builder, array_type, data, [args[1]], wraparound=False)
        byte_pointer = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [byte_pointer, i32, i32, i32]),
                                            "llvm.prefetch.p0")
        builder.call(fn, [builder.bitcast(pointer, byte_pointer), ir.Constant(i32, 0), ir.Constant(i32, 3),
                          ir.Constant(i32, 1)])
        return context.get_dummy_value()
    return types.none(array, index), codegen


@K.hot_inline
def mark_local_points(c, sc, recent, forbidden, is_attach, geo, width, feat):
    """Mark colour ``c``'s local points in its feature grid (Pentobi's ``PlayoutFeatures::set_local``): the attach
    points of the opponents' last moves (not those of ``sc``: the partner colour, or the colour of the seat that
    moves the three-player green) that the opponent may still use, and their edge neighbours that the opponent may
    still use, 2 when also ``c``'s attach points; cells ``c`` may not use are never local (already set)."""
    nl = 0
    for r3 in range(3):
        k = recent[r3, 0]
        mv = recent[r3, 1]
        if k < 0 or mv < 0 or k == c or k == sc:  # noqa: SIM109 (numba: no `in` on mixed tuples)
            continue
        fk = forbidden[k]
        for j in range(geo[mv, K.GEO_NCORNERS]):
            q = np.int64(geo[mv, K.GEO_CORNERS + j])
            if fk[q]:
                continue
            for nb in (q, q - width, q + 1, q + width, q - 1):
                if fk[nb] == 0 and feat[nb] == 0 and nl < 256:
                    feat[nb] = 1 + is_attach[c, nb]
                    nl += 1


@K.hot_inline
def lgr_slot(lgr, last, second_last):
    """The reply table's slot for the moves ``second_last``, ``last`` (-1: none; Pentobi's hash of the pair)."""
    h1, h2 = lgr[2], lgr[3]
    return (h1[last + 1] ^ h2[second_last + 1]) & np.uint64(lgr[1].shape[1] - 1)


@K.hot_inline
def lgr_legal(c, m, tables, arrays):
    """Whether placement ``m`` is legal for colour ``c``, which has placed a piece (Pentobi's ``check_lgr``)."""
    geo = tables.geo
    if arrays.left[c, geo[m, K.GEO_PIECE]] == 0:
        return False
    f = arrays.forbidden[c]
    att = arrays.is_attach[c]
    touches = 0
    for j in range(geo[m, K.GEO_SIZE]):
        q = geo[m, K.GEO_CELLS + j]
        if f[q]:
            return False
        touches |= att[q]
    return touches != 0


@K.hot_inline
def lgr_reply(c, last, second_last, lgr, tables, arrays, player_of):
    """Colour ``c``'s last good reply to the moves ``second_last``, ``last`` if legal, else to ``last`` alone
    if legal, else -1 (none for a colour before its first piece or without a seat of its own)."""
    if arrays.placed[c] == 0 or player_of[c] < 0:
        return -1
    r = lgr[1][c, lgr_slot(lgr, last, second_last)]
    if r > 0 and lgr_legal(c, r - 1, tables, arrays):
        return r - 1
    r = lgr[0][c, last + 1]
    if r > 0 and lgr_legal(c, r - 1, tables, arrays):
        return r - 1
    return -1


@K.hot_inline
def lgr_update(lgr, played, res, player_of):
    """After a simulation (LGRF-2, Pentobi's ``update_lgr``): each move of a colour whose value is the best (a tie
    counts as a win) becomes its reply to the two moves before it; a losing colour's move is forgotten there.

    ``lgr`` = (replies to one move, [colours, placements + 1]; replies to two moves, [colours, hash slots];
    the two moves' hash keys), replies stored as placement + 1 (0: none).
    """
    moves, colors, nlog = played[0], played[1], played[3][0]
    if nlog == 0:
        return
    best = -1e300
    for c in range(res.shape[0]):
        if player_of[c] >= 0 and res[c] > best:
            best = res[c]
    one, two = lgr[0], lgr[1]
    last = moves[0]
    second_last = -1
    for e in range(1, nlog):
        c = colors[e]
        m = moves[e]
        if player_of[c] >= 0:
            slot = lgr_slot(lgr, last, second_last)
            if res[c] >= best:
                two[c, slot] = m + 1
                one[c, last + 1] = m + 1
            else:
                if two[c, slot] == m + 1:
                    two[c, slot] = 0
                if one[c, last + 1] == m + 1:
                    one[c, last + 1] = 0
        second_last = last
        last = m


@K.hot_inline
def player_behind(c, arrays, player_of, piece_sizes, monomino):
    """Whether the player of colour ``c`` has a lower score than the other player now (two players)."""
    diff = 0
    for k in range(arrays.forbidden.shape[0]):
        s = K.color_score(k, arrays.left, arrays.last_piece, piece_sizes, monomino)
        diff += s if player_of[k] == player_of[c] else -s
    return diff < 0


@K.hot_inline
def push_recent(recent, c, m):
    """Remember placement ``m`` of colour ``c`` as the newest of the last three moves."""
    recent[0, 0] = recent[1, 0]
    recent[0, 1] = recent[1, 1]
    recent[1, 0] = recent[2, 0]
    recent[1, 1] = recent[2, 1]
    recent[2, 0] = c
    recent[2, 1] = m


@K.hot_inline
def _running_z(stats, row, x):
    """Add ``x`` to the running mean and variance in ``stats[row]`` (count, mean, sum of squared deviations;
    Welford) and return its z-score against them (0 while the variance is 0)."""
    n = stats[row, 0] + 1.0
    d = x - stats[row, 1]
    stats[row, 0] = n
    stats[row, 1] += d / n
    stats[row, 2] += d * (x - stats[row, 1])
    var = stats[row, 2] / n
    return (x - stats[row, 1]) / np.sqrt(var) if var > 0.0 else 0.0


@K.hot_inline
def _sigmoid2(x):
    """Pentobi's ``sigmoid(2, x)``: from -1 to 1."""
    return -1.0 + 2.0 / (1.0 + np.exp(-2.0 * x))


@K.hot_inline
def _quality_bonus(placed, seat, val, num_players, stats):
    """Pentobi's quality bonus with more than two players (``State::evaluate_multiplayer``, ``get_quality_bonus``),
    added to each seat's rank result in ``val``."""
    total = 0.0
    length = 0.0
    for p in range(num_players):
        total += seat[p]
    for c in range(placed.shape[0]):
        length += placed[c]
    z_len = _running_z(stats, num_players, length)
    for p in range(num_players):
        relative = seat[p] - (total - seat[p]) / (num_players - 1)
        z = _running_z(stats, p, relative)
        val[p] += -0.12 * (val[p] - 0.5) * _sigmoid2(z_len) + 0.3 * _sigmoid2(z)


@K.hot_inline
def results(arrays, piece_sizes, monomino, player_of, num_players, out, seat_val, stats, pentobi_bonus):
    """Per colour: the search value of its player (win 1 / tie shared / loss 0, by rank with 3+; plus the
    quality bonus of the module docstring).

    ``seat_val`` is work space (2 x players); ``stats`` (players + 1 rows) the search's running statistics
    of each seat's relative points and of the game length (used with ``pentobi_bonus``, the knob
    ``quality_bonus``; without it every seat count gets 0.1 of the squashed margin).  With two seats
    Pentobi's bonus is its ``evaluate_twocolor``: the margin's z-score, and the two values still sum to 1.
    """
    nc = arrays.forbidden.shape[0]
    seat = seat_val[0]
    val = seat_val[1]
    for p in range(num_players):
        seat[p] = 0.0
    for c in range(nc):
        p = player_of[c]
        if p >= 0:
            seat[p] += K.color_score(c, arrays.left, arrays.last_piece, piece_sizes, monomino)
    for p in range(num_players):
        below = 0.0
        best_other = -1e9
        for q in range(num_players):
            if q == p:
                continue
            if seat[q] < seat[p]:
                below += 1.0
            elif seat[q] == seat[p]:
                below += 0.5
            if seat[q] > best_other:
                best_other = seat[q]
        win = below / (num_players - 1)
        if pentobi_bonus:
            val[p] = win
        else:
            val[p] = 0.9 * win + 0.1 * (0.5 + 0.5 * np.tanh((seat[p] - best_other) / 20.0))
    if pentobi_bonus:
        _quality_bonus(arrays.placed, seat, val, num_players, stats)
    for c in range(nc):
        p = player_of[c]
        out[c] = val[p] if p >= 0 else 0.5


@K.hot_inline
def mark_played(played, c, m, ply):
    """Note that colour ``c`` played move ``m`` at ``ply`` of this simulation (for RAVE), in a log in play order."""
    moves, colors, plies, nlog = played[0], played[1], played[2], played[3]
    i = nlog[0]
    moves[i] = m
    colors[i] = c
    plies[i] = ply
    nlog[0] = i + 1


@K.hot_inline
def clear_played(played):
    """Empty the log of this simulation's moves."""
    played[3][0] = 0
