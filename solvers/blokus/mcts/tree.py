"""mcts-rave's tree and search loop (Pentobi's ``Search``): selection, expansion with priors, RAVE backup.

The tree is a :class:`Tree` of flat arrays (a node's children lie together, in increasing move
order); a node is expanded once its real visits exceed 1 + 0.5 per level below the root (the root
at once).  A child starts with 3 virtual visits at value ``root_value * sqrt(gamma / max gamma)``
and its prior ``gamma / sum`` scales the exploration term ``c * sqrt(N) * log(N + 1) * prior / n``.
RAVE: a child whose move the same colour played later in the simulation gets the result with
weight 0.7 (falling with distance) while it has fewer than 2,000 value counts and its parent at
most 25,000 (Duo) or 50,000 visits.  When the tree has no room, :func:`run_iterations` stops and
the driver doubles it (:class:`~solvers.blokus.mcts.driver.Workspace`), or at its largest prunes it (knob ``prune``);
:func:`copy_subtree` re-roots it for tree reuse and prunes it.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from puzzles.blokus import kernel as K
from solvers.blokus.mcts.lists import cache_lists, cache_root
from solvers.blokus.mcts.playout import (
    clear_played,
    lgr_update,
    mark_played,
    playout,
    prefetch,
    push_recent,
    results,
)
from solvers.blokus.mcts.priors import N_GAMMAS, compute_gammas, filter_considered

EXPAND_THRESHOLD = 1.0  # a node is expanded once its real visits exceed this (the root: at once) ...
EXPAND_THRESHOLD_INC = 0.5  # ... plus this per level below the root (Pentobi's SearchParamConst)
CHILD_MIN_COUNT = 3.0
RAVE_WEIGHT = 0.7  # the defaults; the search reads them from the gamma array (see SEARCH_KNOBS) so tuning needs no
RAVE_CHILD_MAX = 2000.0  # recompilation
#: The search constants kept after the gammas in the gamma array, in this order (index N_GAMMAS + i).
SEARCH_KNOBS = ("exploration", "rave_weight", "rave_child_max", "quality_bonus", "lgr", "rave_dist", "prior_all")


class Tree(NamedTuple):
    """The search tree: one entry per node in each array; ``size`` = (nodes used, out of room)."""

    move: np.ndarray  #: int32: the placement leading here (-1: pass)
    color: np.ndarray  #: int32: the colour that played it
    first: np.ndarray  #: int32: the first child (-1: not expanded)
    nchild: np.ndarray  #: int32: the number of children (-1: not expanded)
    value: np.ndarray  #: float64: the mean result for ``color``
    value_count: np.ndarray  #: float64: the weight of the value (virtual, real and RAVE results)
    prior: np.ndarray  #: float64: the prior divided by the value count
    visits: np.ndarray  #: int32: real visits
    size: np.ndarray  #: int64[2]


def new_tree(capacity: int) -> Tree:
    """An empty tree with room for ``capacity`` nodes."""
    c = capacity
    return Tree(np.zeros(c, dtype=np.int32), np.zeros(c, dtype=np.int32), np.zeros(c, dtype=np.int32),
                np.zeros(c, dtype=np.int32), np.zeros(c, dtype=np.float64), np.zeros(c, dtype=np.float64),
                np.zeros(c, dtype=np.float64), np.zeros(c, dtype=np.int32), np.zeros(2, dtype=np.int64))


@intrinsic
def _trailing_zeros(typingctx, word):  # type: ignore[no-untyped-def]
    """The number of trailing zero bits of a nonzero ``uint64`` (LLVM's ``cttz``)."""
    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.IntType(64), [ir.IntType(64),
                                                                                             ir.IntType(1)]),
                                            "llvm.cttz.i64")
        return builder.call(fn, [args[0], ir.Constant(ir.IntType(1), 1)])
    return types.uint64(types.uint64), codegen


@K.hot_inline
def place_move(c, m, tables, arrays, owner, recent, nonboard):
    """Play placement ``m`` for colour ``c``: kernel arrays, owner grid, the last three moves, pieces on board."""
    K.place(c, m, tables, arrays)
    geo = tables.geo
    for j in range(geo[m, K.GEO_SIZE]):
        owner[geo[m, K.GEO_CELLS + j]] = c
    push_recent(recent, c, m)
    nonboard[0] += 1


@K.hot
def expand_node(node, c, tables, arrays, owner, recent, nonboard, P, tree, scratch, root_val, cache):
    """Create the children of ``node`` for colour ``c`` (a single pass child when it has no move).

    The moves come from the node's cached lists (:func:`cache_lists`) when it has them.
    """
    gammas, consider, second, dist, check_dist_pieces, connect_pieces, width, gloc, rave_parent_max, local, piece_gamma = P
    t_move, t_color, t_first, t_nchild, t_value, t_count, t_prior, t_visits, t_size = tree
    marker, moves, gam, keep, grids, stamp, bitmap, pos = scratch
    t_cache, pool, meta = cache[0], cache[1], cache[2]
    slot = t_cache[node] - 1
    if slot >= 0:
        off = meta[slot, 0, c]
        n = meta[slot, 1, c]
        for i in range(n):
            moves[i] = pool[off + i]
    else:
        stamp[0] += 1
        n = K.gen_moves(c, tables, arrays, marker, stamp[0], moves)
    first = t_size[0]
    if n == 0:
        if first + 1 > t_move.shape[0]:
            return False
        t_move[first] = -1
        t_color[first] = c
        t_first[first] = -1
        t_nchild[first] = -1
        t_value[first] = root_val
        t_count[first] = CHILD_MIN_COUNT
        t_prior[first] = 1.0 / CHILD_MIN_COUNT
        t_visits[first] = 0
        t_first[node] = first
        t_nchild[node] = 1
        t_size[0] = first + 1
        return True
    n = filter_considered(moves, n, tables.pl_piece, consider, nonboard[0])
    if first + n > t_move.shape[0]:
        return False  # the tree is full (checked before the priors are computed: a full tree fails often)
    kept = compute_gammas(c, moves, n, tables, arrays, owner, recent, nonboard[0], gammas, second, dist,
                          check_dist_pieces, connect_pieces, width, gam, keep, grids, piece_gamma)
    if first + kept > t_move.shape[0]:
        return False
    max_g = 0.0
    sum_g = 0.0
    every = gammas[N_GAMMAS + 6] >= 0.5  # Pentobi's: the sum and maximum over all moves, the pruned ones too
    for i in range(n):
        if keep[i] or every:
            sum_g += gam[i]
            if gam[i] > max_g:
                max_g = gam[i]
    # the children in increasing move order (RAVE finds a child by counting the smaller moves): a bit per
    # move kept, read back word by word
    for i in range(n):
        if keep[i]:
            m = np.uint32(moves[i])
            pos[m] = i
            bitmap[m >> 6] |= np.uint64(1) << np.uint64(m & 63)
    k = first
    for word in range(bitmap.shape[0]):
        bits = bitmap[word]
        if bits == 0:
            continue
        bitmap[word] = 0
        while bits:
            m = np.uint32(word * 64 + _trailing_zeros(bits))
            bits &= bits - np.uint64(1)
            i = pos[m]
            t_move[k] = m
            t_color[k] = c
            t_first[k] = -1
            t_nchild[k] = -1
            t_value[k] = root_val * np.sqrt(gam[i] / max_g)
            t_count[k] = CHILD_MIN_COUNT
            t_prior[k] = gam[i] / sum_g / CHILD_MIN_COUNT
            t_visits[k] = 0
            k += 1
    t_first[node] = first
    t_nchild[node] = kept
    t_size[0] = k
    return True


@K.hot_inline
def add_value(k, r, w, t_value, t_count, t_prior):
    """Add result ``r`` with weight ``w`` to node ``k``'s value (a running mean); its exploration weight
    ``t_prior`` (the prior divided by the value count, so that selection needs no division) follows."""
    old = t_count[k]
    inv = 1.0 / (old + w)
    t_count[k] = old + w
    t_value[k] += w * (r - t_value[k]) * inv
    t_prior[k] *= old * inv


@K.hot_inline
def rave_step(rave_weight, d, end, pad):
    """How much a RAVE result's weight falls per ply below ply ``d``: ``rave_weight / (end - d + pad)``.

    ``end`` is the simulation's last ply + 1.  With ``pad`` 0 (the knob ``rave_dist``; the playouts then count no
    plies for passes) this is Pentobi's ``update_rave``: a move ``k`` plies below weighs ``rave_weight * (1 - k /
    (moves from ply d to the end))``; with ``pad`` 1, kibitz's first weighting, a little more.
    """
    return rave_weight / (end - d + pad)


@K.hot_inline
def select_child(node, tree, expl):
    t_move, t_color, t_first, t_nchild, t_value, t_count, t_prior, t_visits, t_size = tree
    if t_nchild[node] == 1:
        return t_first[node]  # a forced move or pass: no scores to compute
    parent = t_visits[node]
    factor = expl * np.sqrt(parent) * np.log(parent + 1.0)
    # the first child of the highest score, found in four interleaved lanes (children k, k + 1, k + 2, k + 3), so
    # that the running maximum is four short dependency chains instead of one long one; each lane keeps its first
    # best child, and the lanes are merged by score, then by child number: the same child as one plain scan
    first = np.uint32(t_first[node])  # unsigned indices: numba checks signed ones for wraparound
    stop = first + np.uint32(t_nchild[node])
    b0 = b1 = b2 = b3 = -1e300
    i0 = i1 = i2 = i3 = np.int64(-1)
    k = first
    while k + np.uint32(4) <= stop:
        v0 = t_value[k] + t_prior[k] * factor  # t_prior[k]: the prior / the value count
        v1 = t_value[k + 1] + t_prior[k + 1] * factor
        v2 = t_value[k + 2] + t_prior[k + 2] * factor
        v3 = t_value[k + 3] + t_prior[k + 3] * factor
        if v0 > b0:
            b0, i0 = v0, np.int64(k)
        if v1 > b1:
            b1, i1 = v1, np.int64(k + 1)
        if v2 > b2:
            b2, i2 = v2, np.int64(k + 2)
        if v3 > b3:
            b3, i3 = v3, np.int64(k + 3)
        k += np.uint32(4)
    while k < stop:
        v0 = t_value[k] + t_prior[k] * factor
        if v0 > b0:
            b0, i0 = v0, np.int64(k)
        k += np.uint32(1)
    best, best_value = i0, b0
    if i1 >= 0 and (b1 > best_value or (b1 == best_value and i1 < best)):
        best, best_value = i1, b1
    if i2 >= 0 and (b2 > best_value or (b2 == best_value and i2 < best)):
        best, best_value = i2, b2
    if i3 >= 0 and (b3 > best_value or (b3 == best_value and i3 < best)):
        best, best_value = i3, b3
    return best


@K.hot_inline
def _copy_position(root_blob, work_blob, root_arrays, work_arrays):
    """Reset the work position to the root: one flat copy of the blob (all position arrays but the
    attach lists, see :class:`~solvers.blokus.mcts.driver.SearchPosition`) and the used part of each attach list."""
    for i in range(root_blob.shape[0]):
        work_blob[i] = root_blob[i]
    src = root_arrays.attach
    dst = work_arrays.attach
    lengths = root_arrays.attach_len
    for c in range(lengths.shape[0]):
        for i in range(lengths[c]):
            dst[c, i] = src[c, i]


@K.hot_inline
def mover(c, player_of, placed):
    """The seat that moves colour ``c`` now: ``player_of[c]``, or for the three-player green (-1) seat
    ``pieces green placed % 3``, as the rules (docs/rules/blokus.md) and Pentobi's ``get_alt_player`` say."""
    p = player_of[c]
    return p if p >= 0 else placed[c] % 3


@K.hot_nogil
def run_iterations(count, kernel_tables, root_fields, work_fields, tree, root_owner, root_recent,  # noqa: C901
                   root_nonboard, root_to_move, P, weights, player_of, num_players, piece_sizes, monomino, scratch,
                   play_scratch, root_stats, early, cache, grow, lgr):
    """``count`` MCTS iterations from the root position into ``tree``; returns the number done.

    The kernel tables, the root's and the work position's arrays and the tree come as plain tuples
    of their fields (numba's dispatcher types plain tuples some microseconds faster than named ones,
    which counts when a search is a few short chunks), named here.

    When the tree has no room for a node's children, the search goes on without expanding
    it, except with ``grow``: then it stops before that iteration and sets ``tree.size[1]``
    (the driver makes the tree bigger and calls again); it stops too when the root itself
    cannot be expanded.

    ``cache`` keeps the legal-move lists of the colours at expanded nodes (:func:`cache_lists`).

    ``lgr`` holds the last good replies (:func:`~solvers.blokus.mcts.playout.lgr_update`), used with the knob ``lgr``.

    ``weights`` is (playout weight by pieces on board and move class, weight by placement);
    nothing is allocated per iteration (``play_scratch`` holds the work copies of the position).
    """
    tables = K.KernelTables(*kernel_tables)
    root_arrays = K.BlokusArrays(*root_fields)
    arrays = K.BlokusArrays(*work_fields)
    t_move, t_color, t_first, t_nchild, t_value, t_count, t_prior, t_visits, t_size = tree
    gammas, consider, second, dist, check_dist_pieces, connect_pieces, width, glocal, rave_parent_max, use_local, _ = P
    wtab, pl_weight = weights
    marker = scratch[0]
    stamp = scratch[5]
    (lists, nlist, played, path, res, roots, pw, nonboard, seat_val, root_blob, work_blob, work_owner,
     work_recent, path_seat, result_stats) = play_scratch
    nc = root_arrays.forbidden.shape[0]
    log_move, log_color, log_ply, nlog, first_ply = played
    t_cache, pool, meta = cache[0], cache[1], cache[2]
    if t_cache[0] == 0:
        K.root_moves(tables, root_arrays, marker, stamp, roots)
        cache_root(roots, cache)
    wt0 = wtab[0]
    rave_weight = gammas[N_GAMMAS + 1]
    rave_child_max = gammas[N_GAMMAS + 2]
    pentobi_bonus = gammas[N_GAMMAS + 3] != 0.0  # Pentobi's quality bonus (else 0.1 of the margin)
    use_lgr = gammas[N_GAMMAS + 4] >= 0.5  # the last good reply in playouts
    rave_pad = 0.0 if gammas[N_GAMMAS + 5] >= 0.5 else 1.0  # Pentobi's RAVE distance weights (rave_step)
    done_count = 0
    for _ in range(count):
        _copy_position(root_blob, work_blob, root_arrays, arrays)
        nonboard[0] = root_nonboard
        c = root_to_move
        node = np.int64(0)  # not the literal 0: numba would compile cache_lists and expand_node for it too
        depth = 0
        path[0] = 0
        full = False
        slot = t_cache[0] - 1
        while c >= 0:
            expand = t_nchild[node] < 0
            if expand and node != 0 and t_visits[node] <= EXPAND_THRESHOLD + EXPAND_THRESHOLD_INC * depth:
                break
            if t_cache[node] > 0:
                slot = t_cache[node] - 1
            else:  # an expanded node (or one about to be) keeps its lists while the pool has room
                got = cache_lists(node, slot, tables, arrays, pw, lists, scratch[2], wt0, glocal, cache)
                if got >= 0:
                    slot = got
            if expand:
                p = mover(c, player_of, arrays.placed)
                rv = root_stats[0, p] / root_stats[1, p] if root_stats[1, p] > 0 else 0.5
                if not expand_node(node, c, tables, arrays, work_owner, work_recent, nonboard, P, tree, scratch, rv,
                               cache):
                    full = True
                    break
            child = select_child(node, tree, gammas[N_GAMMAS])
            # the child's entries are read at the next step down: ask for their lines before the move is placed
            prefetch(t_nchild, child)
            prefetch(t_visits, child)
            prefetch(t_cache, child)
            prefetch(t_first, child)
            path_seat[depth + 1] = mover(c, player_of, arrays.placed)
            m = t_move[child]
            if m < 0:
                arrays.done[c] = 1
            else:
                place_move(c, m, tables, arrays, work_owner, work_recent, nonboard)
                mark_played(played, c, m, depth)
            depth += 1
            path[depth] = child
            node = child
            c = K.next_color(c, arrays.done)
        if full and (grow or depth == 0):
            t_size[1] = 1
            clear_played(played)
            return done_count
        if c >= 0:
            end = playout(c, tables, arrays, nonboard[0], wtab, pl_weight, lists, nlist, played, depth, pool, meta, slot,
                           work_recent, second, glocal, use_local, scratch[2], pw, early, player_of, piece_sizes,
                           monomino, lgr, use_lgr, rave_pad == 1.0)
        else:
            end = depth
        results(arrays, piece_sizes, monomino, player_of, num_players, res, seat_val, result_stats, pentobi_bonus)
        if use_lgr:
            lgr_update(lgr, played, res, player_of)
        for p in range(num_players):
            for c2 in range(nc):
                if player_of[c2] == p:
                    root_stats[0, p] += res[c2]
                    root_stats[1, p] += 1.0
                    break
        for e in range(nlog[0]):  # each (colour, move) of the simulation: the ply it was played at, for RAVE
            first_ply[log_color[e], log_move[e]] = log_ply[e]
        for d in range(depth + 1):
            nd = path[d]
            t_visits[nd] += 1
            if d > 0:
                r = seat_val[1, path_seat[d]]  # the value of the seat that chose the move (res[t_color[nd]] but
                add_value(nd, r, 1.0, t_value, t_count, t_prior)  # for the three-player green)
            # RAVE: the children of this node whose move their colour played later in this simulation (after ply
            # d; a node's children are moves of one colour; the path's own child, played at ply d, had its real
            # visit above), found by one pass over the children (Pentobi's ``update_rave``)
            if t_nchild[nd] > 0 and t_visits[nd] <= rave_parent_max:
                step = rave_step(rave_weight, d, end, rave_pad)
                first = np.uint32(t_first[nd])
                stop = first + np.uint32(t_nchild[nd])
                played_at = first_ply[t_color[first]]
                rk = seat_val[1, path_seat[d + 1]]  # the seat that chose among these children
                for k in range(first, stop):
                    m = t_move[k]
                    if m < 0:
                        continue  # a pass
                    p = played_at[np.uint32(m)]
                    if p <= d or t_count[k] >= rave_child_max:
                        continue
                    w = rave_weight - (p - d) * step
                    if w > 0.0:
                        add_value(k, rk, w, t_value, t_count, t_prior)
        for e in range(nlog[0]):
            first_ply[log_color[e], log_move[e]] = -1
        clear_played(played)
        done_count += 1
    return done_count


@K.hot
def copy_subtree(src, root, dst, min_visits):
    """Copy the subtree of ``src`` under node ``root`` into ``dst`` (as its node 0), children kept contiguous.

    The children of a node below the root are copied only when it has at least ``min_visits`` real visits (0: all);
    a node whose children are left out is unexpanded in the copy (Pentobi's ``Tree::copy_subtree``, its pruning)."""
    s_move, s_color, s_first, s_nchild, s_value, s_count, s_prior, s_visits, s_size = src
    d_move, d_color, d_first, d_nchild, d_value, d_count, d_prior, d_visits, d_size = dst
    cap = d_move.shape[0]
    d_move[0] = s_move[root]
    d_color[0] = s_color[root]
    d_first[0] = root  # source index, replaced when the node is processed
    d_nchild[0] = s_nchild[root]
    d_value[0] = s_value[root]
    d_count[0] = s_count[root]
    d_prior[0] = s_prior[root]
    d_visits[0] = s_visits[root]
    size = 1
    head = 0
    while head < size:
        sn = d_first[head]
        nch = s_nchild[sn]
        if nch > 0 and size + nch <= cap and (head == 0 or s_visits[sn] >= min_visits):
            base = size
            for j in range(nch):
                sc = s_first[sn] + j
                k = base + j
                d_move[k] = s_move[sc]
                d_color[k] = s_color[sc]
                d_first[k] = sc
                d_nchild[k] = s_nchild[sc]
                d_value[k] = s_value[sc]
                d_count[k] = s_count[sc]
                d_prior[k] = s_prior[sc]
                d_visits[k] = s_visits[sc]
            d_first[head] = base
            size += nch
        else:
            d_first[head] = -1
            d_nchild[head] = -1
        head += 1
    d_size[0] = size
    return size
