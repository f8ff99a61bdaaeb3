"""A strong Blokus MCTS whose whole search runs in numba: Pentobi's priors, pruning, playout policy and RAVE.

Design (after Pentobi's ``libpentobi_mcts``: ``PriorKnowledge``, ``SharedConst``,
``State``, ``Search``; the rules are ``docs/rules/blokus.md``):

* **Tree** in flat numpy arrays (move, colour, first child, child count, value,
  value count, prior, real visits; a node's children lie together, in
  increasing move order); a node is expanded once its real visits
  exceed 1 + 0.5 per level below the root (the root at once).  The tree
  starts small and doubles when full (an iteration that finds no room is
  redone after the growth, so the search does not depend on it), up to
  ``capacity`` nodes; beyond that it stops growing.  The Python side is a thin
  driver: it copies the position into the kernel's arrays, runs the
  iterations in chunks (so a CPU time budget can be checked between chunks)
  and reads the root's children.
* **List cache**: each expanded node keeps every colour's legal moves there
  (refreshed from its nearest cached ancestor's lists, as a playout turn
  refreshes a list).  Its expansion takes its moves from them, and each
  colour's first playout turn starts from the lists of the deepest cached
  node on the path instead of the root's, so it drops and adds only what the
  last tree moves changed.
* **Priors** on new children: Pentobi's learnt move features (``gamma``: the
  cells the piece covers, its own attach points kept and the opponents'
  attach points taken, what it touches along its edges, nearness to the
  opponents' last three moves, piece size; the Duo or the two-player
  Classic set of values).  A child starts with 3 virtual visits at value
  ``root_value * sqrt(gamma / max gamma)`` and its prior ``gamma / sum``
  scales the exploration term ``c * sqrt(N) * log(N + 1) * prior / n``.
* **Pruning** (as Pentobi, by the number of pieces on the board): Duo only
  pieces of size >= 5 / 4 / 3 in the first 4 / 6 / 10 placements; Classic
  V5 or Z5 first, then big pieces; Classic early moves must stay within 0.3
  of the smallest distance to the centre (12 placements); two-player Classic
  moves must connect to the partner colour when one can (14 placements).
  The piece filter applies in the playouts too.
* **Playouts**: a move is drawn with weight ``5^size`` (Classic) or
  ``3^size * 1.8^(attach points - 1)`` (Duo), times ``1e6`` per local point it
  covers (Pentobi's ``PlayoutFeatures``: the attach points of the opponents'
  last three moves and their edge neighbours, 2 when also our attach point;
  ``1e24`` for 4, ``1e25`` beyond), so playouts answer the opponent locally;
  the result is win/tie/loss (shared by rank with more than two players)
  plus 0.1 of a squashed margin.
* **RAVE**: a child whose move the same colour played later in the
  simulation gets the result with weight 0.7 (falling with distance) while it
  has fewer than 2,000 value counts and its parent at most 25,000 (Duo) or
  50,000 visits.
* **Tree reuse**: the subtree of the position reached by the moves since the
  last search is kept (its statistics re-rooted) when the bot is asked again.

Deterministic: a search is a function of the position, the seed drawn from
the ``rng`` given to ``choose`` and the iteration budget (a CPU-seconds
budget stops between chunks of iterations, so it is not).
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from puzzles.blokus import kernel as K
from puzzles.blokus.engine import BlokusState
from puzzles.blokus.tables import NUM_PIECES, PASS, PIECE_NAMES, PIECE_SIZES, Move
from puzzles.game import GameState
from solvers.bots import Budget

# ---- parameters (Pentobi's values, libpentobi_mcts/PriorKnowledge.cpp, Search.cpp, SharedConst.cpp) ----

# gamma layout in the ``gammas`` array
(G_POINT_OTHER, G_POINT_OPP, G_POINT_SECOND, G_ADJ_CONNECT, G_ADJ_OCC_OTHER, G_ADJ_FORB_OTHER, G_ADJ_OWN_ATTACH,
 G_ADJ_NONFORB, G_ATT_TO_PLAY, G_ATT_FORB_OTHER, G_ATT_SECOND, G_LOCAL) = range(12)
G_ATT_NONFORB = 12  # .. 16 (by number of non-forbidden edge neighbours 0..4)
G_PIECE = 17  # .. 22 by piece size 0..5
N_GAMMAS = 23

_DUO: dict[str, Any] = dict(point_other=0.394, point_opp=1.399, point_second=0.0, adj_connect=0.0, adj_occ_other=0.359,
            adj_forb_other=0.404, adj_own_attach=-1.164, adj_nonforb=-0.461, att_to_play=-0.082, att_forb_other=-0.305,
            att_second=0.0, local=0.336, att_nonforb=(-0.200, -0.116, 0.331, 0.588, 0.923),
            piece=(0.0, 0.330, -0.402, -0.845, -0.245, 1.149))
_CLASSIC: dict[str, Any] = dict(point_other=0.137, point_opp=0.898, point_second=-0.248, adj_connect=0.616, adj_occ_other=0.568,
                adj_forb_other=0.544, adj_own_attach=-0.849, adj_nonforb=-0.115, att_to_play=0.007, att_forb_other=-0.439,
                att_second=-0.011, local=0.610, att_nonforb=(-0.177, -0.002, 0.232, 0.342, 0.694),
                piece=(0.0, 0.476, -0.316, -0.842, -0.301, 0.969))


def gamma_table(duo: bool) -> np.ndarray:
    """Pentobi's learnt feature weights, ``exp(w / 0.84)``, in the kernel's layout."""
    w = _DUO if duo else _CLASSIC
    t = 0.84
    g = np.ones(N_GAMMAS, dtype=np.float64)
    for index, key in ((G_POINT_OTHER, "point_other"), (G_POINT_OPP, "point_opp"), (G_POINT_SECOND, "point_second"),
                       (G_ADJ_CONNECT, "adj_connect"), (G_ADJ_OCC_OTHER, "adj_occ_other"),
                       (G_ADJ_FORB_OTHER, "adj_forb_other"), (G_ADJ_OWN_ATTACH, "adj_own_attach"),
                       (G_ADJ_NONFORB, "adj_nonforb"), (G_ATT_TO_PLAY, "att_to_play"),
                       (G_ATT_FORB_OTHER, "att_forb_other"), (G_ATT_SECOND, "att_second"), (G_LOCAL, "local")):
        g[index] = math.exp(float(w[key]) / t)
    for i, v in enumerate(w["att_nonforb"]):
        g[G_ATT_NONFORB + i] = math.exp(v / t)
    for i, v in enumerate(w["piece"]):
        g[G_PIECE + i] = math.exp(v / t)
    return g


def considered_pieces(variant: str, num_colors: int) -> np.ndarray:
    """``mask[pieces on board, piece]``: Pentobi's early pruning by piece (last row: all pieces)."""
    rows = 7 * num_colors + 1
    mask = np.ones((rows, NUM_PIECES), dtype=np.uint8)
    size = np.array(PIECE_SIZES)
    named = {name: i for i, name in enumerate(PIECE_NAMES)}
    for n in range(rows - 1):
        row = np.ones(NUM_PIECES, dtype=bool)
        if variant == "duo":
            if n < 2 * num_colors:
                row &= size >= 5
            elif n < 3 * num_colors:
                row &= size >= 4
            elif n < 5 * num_colors:
                row &= size >= 3
        else:
            if n < num_colors:
                row[:] = False
                row[named["V5"]] = row[named["Z5"]] = True
            elif n < 2 * num_colors:
                row &= size >= 5
                for name in ("F", "P", "T5", "U", "X"):
                    row[named[name]] = False
            elif n < 3 * num_colors:
                row &= size >= 5
                for name in ("P", "U"):
                    row[named[name]] = False
            elif n < 5 * num_colors:
                row &= size >= 4
            elif n < 7 * num_colors:
                row &= size >= 3
        mask[n] = row
    return mask


class Params:
    """Everything the kernel needs about a variant (built once per variant and board)."""

    def __init__(self, state: BlokusState) -> None:
        v = state.variant.name
        t = state.tables
        self.duo = v == "duo"
        nc = state.num_colors
        self.gammas = gamma_table(self.duo)
        self.consider = considered_pieces(v, nc)
        sizes = t.pl_size.astype(np.float64)
        if self.duo:
            self.pl_weight = 3.0 ** sizes * 1.8 ** (t.pl_ncorners.astype(np.float64) - 1.0)
        else:
            self.pl_weight = 5.0 ** sizes
        # the same weights by move class (piece * 16 + corner points, kernel.move_records), one row per
        # number of pieces on board with the pieces Pentobi does not consider yet at 0
        rec = state.ktables.rec
        piece, corners = np.divmod(np.arange(NUM_PIECES * 16), 16)
        class_size = np.array(PIECE_SIZES, dtype=np.float64)[piece]
        if self.duo:
            by_class = 3.0 ** class_size * 1.8 ** (corners.astype(np.float64) - 1.0)
        else:
            by_class = 5.0 ** class_size
        if not np.array_equal(by_class[rec[:, 6]], self.pl_weight):
            raise AssertionError("move classes do not reproduce the playout weights")
        self.wtab = np.where(self.consider[:, piece] != 0, by_class[None, :], 0.0)
        n, w = t.size, t.width
        centre = 0.5 * n - 0.5
        dist = np.full(t.area, 1e9, dtype=np.float64)
        for r in range(n):
            for c in range(n):
                d = math.hypot(c - centre, r - centre)
                dist[t.flat(r, c)] = d if self.duo else max(d, 2.0)
        self.dist = dist
        self.check_dist_pieces = -1 if self.duo else (10 if v == "three-player" else 12)
        self.connect_pieces = 14 if v == "two-player" else -1
        self.second = np.array([(c + 2) % 4 if v == "two-player" else c for c in range(nc)], dtype=np.int32)
        self.player_of = np.array([state.player_of_color(c) if v != "three-player" else min(c, 2) for c in range(nc)],
                                  dtype=np.int32)
        self.num_players = state.num_players
        self.exploration = 0.5 if self.duo else 0.4
        self.rave_parent_max = 25000 if self.duo else 50000  # no RAVE updates of the children of busier nodes
        self.width = w


# ---- the kernel -----------------------------------------------------------------------------------------

EXPAND_THRESHOLD = 1.0  # a node is expanded once its real visits exceed this (the root: at once) ...
EXPAND_THRESHOLD_INC = 0.5  # ... plus this per level below the root (Pentobi's SearchParamConst)
CHILD_MIN_COUNT = 3.0
RAVE_WEIGHT = 0.7
RAVE_CHILD_MAX = 2000.0


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
def _place(c, m, tables, arrays, owner, recent, nonboard):
    """Play placement ``m`` for colour ``c``: kernel arrays, owner grid, the last three moves, pieces on board."""
    K.place(c, m, tables, arrays)
    geo = tables.geo
    for j in range(geo[m, K.GEO_SIZE]):
        owner[geo[m, K.GEO_CELLS + j]] = c
    _push_recent(recent, c, m)
    nonboard[0] += 1


@K.hot
def _filter_considered(moves, n, pl_piece, consider, nonboard):
    """Keep the moves of pieces Pentobi considers at this stage (all of them when that leaves none)."""
    row = consider[min(nonboard, consider.shape[0] - 1)]
    k = 0
    for i in range(n):
        if row[pl_piece[moves[i]]]:
            k += 1
    if k == 0 or k == n:
        return n
    k = 0
    for i in range(n):
        m = moves[i]
        if row[pl_piece[m]]:
            moves[k] = m
            k += 1
    return k


@K.hot
def compute_gammas(c, moves, n, tables, arrays, owner, recent, nonboard, gammas, second, dist, check_dist_pieces,
                   connect_pieces, width, gam_out, keep_out, grids):
    """Pentobi's prior ``gamma`` of each of ``moves[:n]`` for colour ``c``; ``keep_out[i]`` = 0 for pruned moves.

    Returns the number of moves kept.
    """
    pl_corners, pl_ncorners = tables.pl_corners, tables.pl_ncorners
    forbidden, is_attach, attach, attach_len = arrays.forbidden, arrays.is_attach, arrays.attach, arrays.attach_len
    nc = forbidden.shape[0]
    area = forbidden.shape[1]
    sc = second[c]
    f = forbidden[c]
    gpt = grids[0]
    gatt = grids[1]
    gadj = grids[2]
    local = grids[3]
    for q in range(area):
        local[q] = 0.0
        if f[q]:
            s = owner[q]
            gatt[q] = gammas[G_ATT_TO_PLAY] if s == c else gammas[G_ATT_FORB_OTHER]
            if s >= 0 and s == sc and sc != c:
                gadj[q] = gammas[G_ADJ_CONNECT]
            elif s >= 0:
                gadj[q] = gammas[G_ADJ_OCC_OTHER]
            else:
                gadj[q] = gammas[G_ADJ_FORB_OTHER]
            gpt[q] = 1.0
        else:
            gpt[q] = gammas[G_POINT_OTHER]
            gadj[q] = gammas[G_ADJ_OWN_ATTACH] if is_attach[c, q] else gammas[G_ADJ_NONFORB]
            k = 4 - (f[q - width] + f[q + 1] + f[q + width] + f[q - 1])
            gatt[q] = gammas[G_ATT_NONFORB + k]
    for k in range(nc):
        if k == c or k == sc:
            continue
        fk = forbidden[k]
        for i in range(attach_len[k]):
            q = attach[k, i]
            if fk[q]:
                continue
            gpt[q] = gammas[G_POINT_OPP]
            for nb in (q - width, q + 1, q + width, q - 1):
                if fk[nb] == 0:
                    gpt[nb] = gammas[G_POINT_OPP]
    if sc != c:
        fs = forbidden[sc]
        for i in range(attach_len[sc]):
            q = attach[sc, i]
            if fs[q] == 0:
                gpt[q] *= gammas[G_POINT_SECOND]
                if f[q] == 0:
                    gatt[q] *= gammas[G_ATT_SECOND]
    # local points: attach points of the opponents' moves among the last three
    for r in range(3):
        k = recent[r, 0]
        m = recent[r, 1]
        if k < 0 or m < 0 or k == c or k == sc:
            continue
        fk = forbidden[k]
        for j in range(pl_ncorners[m]):
            q = pl_corners[m, j]
            if fk[q] == 0:
                local[q] = 1.0
    check_dist = nonboard <= check_dist_pieces
    check_connect = nonboard < connect_pieces
    min_dist = 1e18
    has_connect = False
    geo = tables.geo  # one cache line per move (kernel.move_geometry)
    for i in range(n):
        m = np.uint32(moves[i])  # unsigned indices: no wraparound checks
        g = 1.0
        loc = False
        d = 1e18
        size = geo[m, K.GEO_SIZE]
        for j in range(size):
            q = geo[m, K.GEO_CELLS + j]
            g *= gpt[q]
            if local[q] > 0.0:
                loc = True
            if dist[q] < d:
                d = dist[q]
        if loc:
            g *= gammas[G_LOCAL]
        for j in range(geo[m, K.GEO_NCORNERS]):
            g *= gatt[geo[m, K.GEO_CORNERS + j]]
        conn = False
        for j in range(geo[m, K.GEO_NADJ]):
            q = geo[m, K.GEO_ADJ + j]
            g *= gadj[q]
            if owner[q] == sc and sc != c:
                conn = True
        g *= gammas[G_PIECE + size]
        gam_out[i] = g
        grids[4, i] = d
        keep_out[i] = 2 if conn else 1
        if d < min_dist:
            min_dist = d
        if conn:
            has_connect = True
    kept = 0
    for i in range(n):
        ok = True
        if check_dist and grids[4, i] > min_dist + 0.3:
            ok = False
        if check_connect and has_connect and keep_out[i] != 2:
            ok = False
        keep_out[i] = 1 if ok else 0
        if ok:
            kept += 1
    return kept


@K.hot
def _expand(node, c, tables, arrays, owner, recent, nonboard, P, tree, scratch, root_val, cache):
    """Create the children of ``node`` for colour ``c`` (a single pass child when it has no move).

    The moves come from the node's cached lists (:func:`_cache_lists`) when it has them.
    """
    gammas, consider, second, dist, check_dist_pieces, connect_pieces, width, gloc, rave_parent_max, local = P
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
    n = _filter_considered(moves, n, tables.pl_piece, consider, nonboard[0])
    if first + n > t_move.shape[0]:
        return False  # the tree is full (checked before the priors are computed: a full tree fails often)
    kept = compute_gammas(c, moves, n, tables, arrays, owner, recent, nonboard[0], gammas, second, dist,
                          check_dist_pieces, connect_pieces, width, gam, keep, grids)
    if first + kept > t_move.shape[0]:
        return False
    max_g = 0.0
    sum_g = 0.0
    for i in range(n):
        if keep[i]:
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
def _mark_played(played, c, m, ply):
    """Note that colour ``c`` played move ``m`` at ``ply`` of this simulation (for RAVE), in a log in play order."""
    moves, colors, plies, nlog = played
    i = nlog[0]
    moves[i] = m
    colors[i] = c
    plies[i] = ply
    nlog[0] = i + 1


@K.hot_inline
def _clear_played(played):
    """Empty the log of this simulation's moves."""
    played[3][0] = 0


@K.hot_inline
def _add_value(k, r, w, t_value, t_count, t_prior):
    """Add result ``r`` with weight ``w`` to node ``k``'s value (a running mean); its exploration weight
    ``t_prior`` (the prior divided by the value count, so that selection needs no division) follows."""
    old = t_count[k]
    inv = 1.0 / (old + w)
    t_count[k] = old + w
    t_value[k] += w * (r - t_value[k]) * inv
    t_prior[k] *= old * inv


@K.hot_inline
def _select(node, tree, expl):
    t_move, t_color, t_first, t_nchild, t_value, t_count, t_prior, t_visits, t_size = tree
    if t_nchild[node] == 1:
        return t_first[node]  # a forced move or pass: no scores to compute
    parent = t_visits[node]
    factor = expl * np.sqrt(parent) * np.log(parent + 1.0)
    best = -1
    best_value = -1e300
    first = np.uint32(t_first[node])  # unsigned indices: numba checks signed ones for wraparound
    for k in range(first, first + np.uint32(t_nchild[node])):
        v = t_value[k] + t_prior[k] * factor  # t_prior[k]: the prior / the value count
        if v > best_value:
            best_value = v
            best = np.int64(k)
    return best


@K.hot
def _playout(c, tables, arrays, nonboard, wtab, pl_weight, lists, nlist, played, ply, pool, meta, slot, recent,
             second, glocal, use_local, wbuf, pw, early, player_of, piece_sizes, monomino):
    """Finish the game from colour ``c`` with the weighted policy; record each (colour, move) for RAVE.

    Each colour's legal-move list starts from its list at the deepest tree node on the path
    that keeps them (list cache ``slot``, see :func:`_cache_lists`) and is kept by the kernel's
    :func:`~puzzles.blokus.kernel.turn_moves` (the same upkeep as the random games'), which weighs each move ``wtab[pieces on board][class] * glocal[local
    points covered]`` as it goes.
    With ``early`` (two players), the playout stops when a player can move no more while behind
    (Pentobi's early termination: the loss is decided; the margin is then the current one).
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
    while c >= 0:
        L = lists[c]
        f = forbidden[c]
        K.set_features(f, left[c], feat)
        if use_local:
            # local points (Pentobi's PlayoutFeatures): the opponents' last moves' attach points and
            # their edge neighbours, worth 2 when they are our attach points too
            nl = 0
            sc = second[c]
            for r3 in range(3):
                k = recent[r3, 0]
                mv = recent[r3, 1]
                if k < 0 or mv < 0 or k == c or k == sc:
                    continue
                fk = forbidden[k]
                for j in range(geo[mv, K.GEO_NCORNERS]):
                    q = np.int64(geo[mv, K.GEO_CORNERS + j])
                    if fk[q] or f[q]:
                        continue
                    for nb in (q, q - width, q + 1, q + width, q - 1):
                        if feat[nb] == 0 and nl < 256:
                            feat[nb] = 1 + is_attach[c, nb]
                            nl += 1
        wt = wtab[min(on_board, last_row)]
        start = (pool, meta[slot, 0, c], meta[slot, 1, c], meta[slot, 2, c], meta[slot, 3, c])
        n, total = K.turn_moves(c, tables, arrays, feat, mark, stamp, lists, nlist, inited, processed, start, wt,
                                glocal, wbuf)
        if n == 0:
            done[c] = 1
            if early and done[second[c]] and _player_behind(c, arrays, player_of, piece_sizes, monomino):
                break
        else:
            if total <= 0.0:
                for i in range(n):
                    total += pl_weight[L[i]]
                    wbuf[i] = total
            m = K.draw(L, wbuf, n, total)
            K.place(c, m, tables, arrays)
            _push_recent(recent, c, m)
            on_board += 1
            _mark_played(played, c, m, ply)
        ply += 1
        c = K.next_color(c, done)
    return ply


@K.hot_inline
def _player_behind(c, arrays, player_of, piece_sizes, monomino):
    """Whether the player of colour ``c`` has a lower score than the other player now (two players)."""
    diff = 0
    for k in range(arrays.forbidden.shape[0]):
        s = K.color_score(k, arrays.left, arrays.last_piece, piece_sizes, monomino)
        diff += s if player_of[k] == player_of[c] else -s
    return diff < 0


@K.hot_inline
def _push_recent(recent, c, m):
    """Remember placement ``m`` of colour ``c`` as the newest of the last three moves."""
    recent[0, 0] = recent[1, 0]
    recent[0, 1] = recent[1, 1]
    recent[1, 0] = recent[2, 0]
    recent[1, 1] = recent[2, 1]
    recent[2, 0] = c
    recent[2, 1] = m


@K.hot_inline
def _results(arrays, piece_sizes, monomino, player_of, num_players, out, seat_val):
    """Per colour: the search value of its player (win 1 / tie shared / loss 0, by rank with 3+; + 0.1 margin).

    ``seat_val`` is work space (2 x players).
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
        val[p] = 0.9 * win + 0.1 * (0.5 + 0.5 * np.tanh((seat[p] - best_other) / 20.0))
    for c in range(nc):
        p = player_of[c]
        out[c] = val[p] if p >= 0 else 0.5


@K.hot_inline
def _copy_position(root_blob, work_blob, root_arrays, work_arrays):
    """Reset the work position to the root: one flat copy of the blob (all position arrays but the
    attach lists, see :class:`_Position`) and the used part of each attach list."""
    for i in range(root_blob.shape[0]):
        work_blob[i] = root_blob[i]
    src = root_arrays.attach
    dst = work_arrays.attach
    lengths = root_arrays.attach_len
    for c in range(lengths.shape[0]):
        for i in range(lengths[c]):
            dst[c, i] = src[c, i]


@K.hot
def reset_cache(cache):
    """Forget every cached list (a new search: node numbers and the root change)."""
    t_cache, pool, meta, state, slot_node, sizes = cache
    for s in range(state[1]):
        t_cache[slot_node[s]] = 0
    state[0] = 0
    state[1] = 0
    state[2] = 0


@K.hot_inline
def _new_slot(node, cache, sizes, nc):
    """A cache slot for ``node`` with room for lists of ``sizes[:nc]`` moves, or -1 (the pool is full)."""
    t_cache, pool, meta, state, slot_node, _ = cache
    total = 0
    for k in range(nc):
        total += sizes[k]
    if state[2] or state[1] >= slot_node.shape[0] or state[0] + total > pool.shape[0]:
        state[2] = 1
        return -1
    slot = state[1]
    base = state[0]
    for k in range(nc):
        meta[slot, 0, k] = base
        meta[slot, 1, k] = sizes[k]
        base += sizes[k]
    state[0] = base
    state[1] = slot + 1
    slot_node[slot] = node
    t_cache[node] = slot + 1
    return slot


@K.hot
def _cache_root(roots, cache):
    """Keep the root's lists (``roots``, :func:`~puzzles.blokus.kernel.root_moves`) as node 0's cache slot."""
    pool, meta = cache[1], cache[2]
    lists, counts, processed, kinds = roots
    nc = counts.shape[0]
    slot = _new_slot(0, cache, counts, nc)
    for k in range(nc):
        off = meta[slot, 0, k]
        for i in range(counts[k]):
            pool[off + i] = lists[k, i]
        meta[slot, 2, k] = processed[k]
        meta[slot, 3, k] = kinds[k]
    return slot


@K.hot
def _cache_lists(node, src, tables, arrays, pw, lists, wbuf, wt, glocal, cache):
    """Keep every colour's legal moves at ``node`` (the work position) in a new cache slot; return it, or -1.

    Each list is its colour's list at the cached ancestor ``src`` refreshed as a playout turn does
    (:func:`~puzzles.blokus.kernel.refresh_moves`), so that playouts below the node, and its
    expansion, start from lists only a move or two old instead of the root's.
    """
    pool, meta, state, sizes = cache[1], cache[2], cache[3], cache[5]
    if state[2]:
        return -1  # the pool is full
    feat, mark = pw[0], pw[1]
    stamp = K.next_stamp(mark, pw[4])
    forbidden, attach, attach_len, left, placed = (arrays.forbidden, arrays.attach, arrays.attach_len, arrays.left,
                                                   arrays.placed)
    rec, cp_start, cp_list = tables.rec, tables.cp_start, tables.cp_list
    nc = forbidden.shape[0]
    for k in range(nc):
        f, mk, L = forbidden[k], mark[k], lists[k]
        K.set_features(f, left[k], feat)
        off, cnt, proc, kind = meta[src, 0, k], meta[src, 1, k], meta[src, 2, k], meta[src, 3, k]
        if kind == 1 and placed[k] > 0:  # a list of starting moves, but the colour has placed: anew
            cnt = 0
            proc = 0
        n, _ = K.refresh_moves(rec, cp_start, cp_list, f, mk, stamp, feat, pool, off, cnt, True, attach[k], proc,
                               attach_len[k], L, wt, glocal, wbuf)
        sizes[k] = n
    slot = _new_slot(node, cache, sizes, nc)
    if slot < 0:
        return slot
    for k in range(nc):
        off = meta[slot, 0, k]
        L = lists[k]
        for i in range(sizes[k]):
            pool[off + i] = L[i]
        meta[slot, 2, k] = attach_len[k]
        meta[slot, 3, k] = 2 if placed[k] > 0 else meta[src, 3, k]
    return slot


@K.hot
def run_iterations(count, tables, root_arrays, root_owner, root_recent, root_nonboard, root_to_move, P, weights,
                   player_of, num_players, piece_sizes, monomino, tree, scratch, play_scratch, root_stats, early,
                   cache, grow):
    """``count`` MCTS iterations from the root position into ``tree``; returns the number done.

    When the tree has no room for a node's children, the search goes on without expanding
    it, except with ``grow``: then it stops before that iteration and sets ``tree[8][1]``
    (the driver makes the tree bigger and calls again); it stops too when the root itself
    cannot be expanded.

    ``cache`` keeps the legal-move lists of the colours at expanded nodes (:func:`_cache_lists`).

    ``weights`` is (playout weight by pieces on board and move class, weight by placement);
    nothing is allocated per iteration (``play_scratch`` holds the work copies of the position).
    """
    t_move, t_color, t_first, t_nchild, t_value, t_count, t_prior, t_visits, t_size = tree
    gammas, consider, second, dist, check_dist_pieces, connect_pieces, width, glocal, rave_parent_max, use_local = P
    wtab, pl_weight = weights
    marker = scratch[0]
    stamp = scratch[5]
    (lists, nlist, played, path, res, roots, pw, nonboard, seat_val, root_blob, work_blob, arrays,
     work_owner, work_recent) = play_scratch
    nc = root_arrays.forbidden.shape[0]
    log_move, log_color, log_ply, nlog = played
    t_cache, pool, meta = cache[0], cache[1], cache[2]
    if t_cache[0] == 0:
        K.root_moves(tables, root_arrays, marker, stamp, roots)
        _cache_root(roots, cache)
    wt0 = wtab[0]
    done_count = 0
    for _ in range(count):
        _copy_position(root_blob, work_blob, root_arrays, arrays)
        nonboard[0] = root_nonboard
        c = root_to_move
        node = 0
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
                got = _cache_lists(node, slot, tables, arrays, pw, lists, scratch[2], wt0, glocal, cache)
                if got >= 0:
                    slot = got
            if expand:
                p = player_of[c]
                rv = root_stats[0, p] / root_stats[1, p] if root_stats[1, p] > 0 else 0.5
                if not _expand(node, c, tables, arrays, work_owner, work_recent, nonboard, P, tree, scratch, rv,
                               cache):
                    full = True
                    break
            child = _select(node, tree, gammas[N_GAMMAS])
            m = t_move[child]
            if m < 0:
                arrays.done[c] = 1
            else:
                _place(c, m, tables, arrays, work_owner, work_recent, nonboard)
                _mark_played(played, c, m, depth)
            depth += 1
            path[depth] = child
            node = child
            c = K.next_color(c, arrays.done)
        if full and (grow or depth == 0):
            t_size[1] = 1
            _clear_played(played)
            return done_count
        if c >= 0:
            end = _playout(c, tables, arrays, nonboard[0], wtab, pl_weight, lists, nlist, played, depth, pool, meta, slot,
                           work_recent, second, glocal, use_local, scratch[2], pw, early, player_of, piece_sizes,
                           monomino)
        else:
            end = depth
        _results(arrays, piece_sizes, monomino, player_of, num_players, res, seat_val)
        for p in range(num_players):
            for c2 in range(nc):
                if player_of[c2] == p:
                    root_stats[0, p] += res[c2]
                    root_stats[1, p] += 1.0
                    break
        e0 = 0
        for d in range(depth + 1):
            nd = path[d]
            t_visits[nd] += 1
            if d > 0:
                r = res[t_color[nd]]
                _add_value(nd, r, 1.0, t_value, t_count, t_prior)
            # RAVE: the children of this node whose move their colour played later in this simulation (the
            # moves of the log after ply d; a node's children are moves of one colour, sorted, see _expand;
            # the path's own child, played at ply d, had its real visit above)
            while e0 < nlog[0] and log_ply[e0] <= d:
                e0 += 1
            if t_nchild[nd] > 0 and t_visits[nd] <= rave_parent_max:
                step = RAVE_WEIGHT / (end - d + 1.0)
                first = np.uint32(t_first[nd])
                stop = first + np.uint32(t_nchild[nd])
                ck = t_color[first]
                rk = res[ck]
                for e in range(np.uint32(e0), np.uint32(nlog[0])):
                    if log_color[e] != ck:
                        continue
                    m = log_move[e]
                    k = first  # its place among the sorted children: a count (vectorised; a binary search mispredicts)
                    for j in range(first, stop):
                        k += np.uint32(t_move[j] < m)
                    if k == stop or t_move[k] != m or t_count[k] >= RAVE_CHILD_MAX:
                        continue
                    w = RAVE_WEIGHT - (log_ply[e] - d) * step
                    if w > 0.0:
                        _add_value(k, rk, w, t_value, t_count, t_prior)
        _clear_played(played)
        done_count += 1
    return done_count


@K.hot
def copy_subtree(src, root, dst):
    """Copy the subtree of ``src`` under node ``root`` into ``dst`` (as its node 0), children kept contiguous."""
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
        if nch > 0 and size + nch <= cap:
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


# ---- the Python driver ----------------------------------------------------------------------------------

TREE_CAPACITY = 1 << 23  # the most nodes a tree may hold (it starts smaller and doubles when full)
INITIAL_CAPACITY = 1 << 18
CACHE_POOL = 1 << 25  # moves in the list cache (64 MB of uint16, touched only as used)
CACHE_SLOTS = 1 << 19  # nodes with cached lists
#: Playout weight factor by the local points a move covers (Pentobi's State::init_gamma, Classic and Duo).
LOCAL_GAMMAS = np.array([1.0, 1e6, 1e12, 1e18, 1e24, 1e25])


class _Position:
    """A search position (the kernel arrays, owner grid, last three moves) whose arrays all but the
    attach lists are views into one ``uint64`` blob, so that resetting a work copy is one flat copy."""

    def __init__(self, state: BlokusState) -> None:
        parts: list[tuple[Any, tuple[int, ...]]] = [(a.dtype, a.shape) for a in state.arrays]
        parts += [(state.owner.dtype, state.owner.shape), (np.dtype(np.int64), (3, 2))]
        offsets, total = [], 0
        outside = K.BlokusArrays._fields.index("attach")  # the attach lists (only their used part is copied)
        for k, (dtype, shape) in enumerate(parts):
            offsets.append(total)
            if k != outside:
                total += -(-int(np.prod(shape)) * np.dtype(dtype).itemsize // 8) * 8
        self.blob = np.zeros(max(total // 8, 1), dtype=np.uint64)
        raw = self.blob.view(np.uint8)
        views = []
        for k, ((dtype, shape), off) in enumerate(zip(parts, offsets)):
            if k == outside:
                views.append(np.zeros(shape, dtype=dtype))
            else:
                size = int(np.prod(shape)) * np.dtype(dtype).itemsize
                views.append(raw[off:off + size].view(dtype).reshape(shape))
        fields = len(K.BlokusArrays._fields)
        self.arrays = K.BlokusArrays(*views[:fields])
        self.owner: np.ndarray = views[fields]
        self.recent: np.ndarray = views[fields + 1]

    def load(self, state: BlokusState, recent: np.ndarray) -> None:
        """Copy ``state`` (and its last three moves) in."""
        for mine, theirs in zip(self.arrays, state.arrays):
            mine[...] = theirs
        self.owner[...] = state.owner
        self.recent[...] = recent


class _Workspace:
    """Preallocated tree and scratch arrays for one board (reused by every search of a bot)."""

    def __init__(self, state: BlokusState, capacity: int) -> None:
        t = state.tables
        nc = state.num_colors
        n_pl = t.num_placements
        self.capacity = capacity
        self.tree = self.new_tree()
        self.scratch = (np.zeros(n_pl, dtype=np.int32), np.zeros(n_pl, dtype=np.int32), np.zeros(n_pl, dtype=np.float64),
                        np.zeros(n_pl, dtype=np.int32), np.zeros((5, max(n_pl, t.area)), dtype=np.float64),
                        np.zeros(1, dtype=np.int64), np.zeros((n_pl + 63) // 64, dtype=np.uint64),
                        np.zeros(n_pl, dtype=np.int32))
        self.root = _Position(state)
        self.work = _Position(state)
        self.play = (np.zeros((nc, n_pl), dtype=np.int32), np.zeros(nc, dtype=np.int32),
                     (np.zeros(nc * NUM_PIECES, dtype=np.int32), np.zeros(nc * NUM_PIECES, dtype=np.int32),
                      np.zeros(nc * NUM_PIECES, dtype=np.int32), np.zeros(1, dtype=np.int64)),  # the RAVE log
                     np.zeros(200, dtype=np.int32), np.zeros(nc, dtype=np.float64),
                     (np.zeros((nc, n_pl), dtype=np.int32), np.zeros(nc, dtype=np.int32), np.zeros(nc, dtype=np.int32),
                      np.zeros(nc, dtype=np.int32)),
                     (np.zeros(K.feature_size(t.area), dtype=np.uint8), np.zeros((nc, n_pl), dtype=np.uint8),
                      np.zeros(nc, dtype=np.int32), np.zeros(nc, dtype=np.int32), np.zeros(1, dtype=np.int64)),
                     np.zeros(1, dtype=np.int64), np.zeros((2, state.num_players), dtype=np.float64),
                     self.root.blob, self.work.blob, self.work.arrays, self.work.owner, self.work.recent)
        if n_pl > np.iinfo(np.uint16).max or nc * n_pl > CACHE_POOL:
            raise ValueError("the list cache keeps placements as uint16, and the root's lists must fit its pool")
        # the legal-move lists kept at tree nodes (run_iterations' cache): node -> slot + 1 (0: none), the pool of moves,
        # per slot and colour (offset, count, attach points processed, kind), (pool used, slots used, full),
        # slot -> node, and the list sizes of the slot being made
        self.cache = (np.zeros(capacity, dtype=np.int32), np.zeros(CACHE_POOL, dtype=np.uint16),
                      np.zeros((CACHE_SLOTS, 4, nc), dtype=np.int32), np.zeros(3, dtype=np.int64),
                      np.zeros(CACHE_SLOTS, dtype=np.int32), np.zeros(nc, dtype=np.int32))
        self.spare: tuple[np.ndarray, ...] | None = None  # second tree for re-rooting (allocated on first reuse)
        self.history: list[tuple[int, int]] | None = None  # the root position of the tree (moves, passes as -1)
        self.capacity = capacity

    def new_tree(self) -> tuple[np.ndarray, ...]:
        c = self.capacity
        return (np.zeros(c, dtype=np.int32), np.zeros(c, dtype=np.int32), np.zeros(c, dtype=np.int32),
                np.zeros(c, dtype=np.int32), np.zeros(c, dtype=np.float64), np.zeros(c, dtype=np.float64),
                np.zeros(c, dtype=np.float64), np.zeros(c, dtype=np.int32), np.zeros(2, dtype=np.int64))

    def grow(self, limit: int) -> None:
        """Double the room of the tree (at most ``limit`` nodes), keeping its nodes; the spare tree goes."""
        size = int(self.tree[8][0])
        self.capacity = min(limit, 2 * self.capacity)
        bigger = self.new_tree()
        for old, new in zip(self.tree[:8], bigger[:8]):
            new[:size] = old[:size]
        bigger[8][0] = size
        self.tree = bigger
        t_cache = np.zeros(self.capacity, dtype=np.int32)
        t_cache[:size] = self.cache[0][:size]
        self.cache = (t_cache,) + self.cache[1:]
        self.spare = None

    def reuse(self, history: list[tuple[int, int]]) -> bool:
        """Re-root the tree at the position reached by ``history`` when it continues the tree's root; True if kept."""
        old = self.history
        tree = self.tree
        if old is None or tree[8][0] == 0 or len(history) < len(old) or history[: len(old)] != old:
            return False
        node = 0
        for color, move in history[len(old):]:
            first, n = int(tree[2][node]), int(tree[3][node])
            if n <= 0:
                return False
            hits = np.flatnonzero((tree[0][first:first + n] == move) & (tree[1][first:first + n] == color))
            if len(hits) == 0:
                return False
            node = first + int(hits[0])
        if node != 0:
            if self.spare is None:
                self.spare = self.new_tree()
            copy_subtree(tree, node, self.spare)
            self.tree, self.spare = self.spare, tree
        return True


BUDGET_RESERVE = 0.02  # the share of a CPU-seconds budget the search leaves for the rest of the move


class FastMCTSBot:
    """Pentobi-style MCTS in numba (priors, pruning, weighted playouts, RAVE, tree reuse).

    Budget: ``iterations`` per move, or ``seconds`` of CPU time per move, counted from the start of
    ``choose`` (checked between chunks of 16 iterations, more when iterations take under a millisecond
    together; the last chunk is cut to the iterations the time left allows at the rate measured so far,
    and the search stops :data:`BUDGET_RESERVE` of the budget early so the whole move fits it).
    """

    def __init__(self, iterations: int | None = 2000, seconds: float | None = None, reuse: bool = True,
                 name: str = "mcts-rave", capacity: int = TREE_CAPACITY, local: bool = True,
                 early_end: bool = True) -> None:
        if iterations is None and seconds is None:
            raise ValueError("give an iteration budget or CPU seconds")
        self.iterations = iterations
        self.seconds = seconds
        self.reuse_tree = reuse
        self.local = local
        self.early_end = early_end
        self.reused = False
        self.name = name
        self.capacity = capacity
        self._params: dict[tuple[str, int], Params] = {}
        self._work: dict[tuple[str, int], _Workspace] = {}
        self.last_iterations = 0
        self.last_seconds = 0.0
        self._last_seed = 0

    def reset(self) -> None:
        """Forget the previous search (a new game)."""
        for work in self._work.values():
            work.tree[8][0] = 0
            work.history = None

    def _setup(self, state: BlokusState) -> tuple[Params, _Workspace, tuple[Any, ...]]:
        key = (state.variant.name, state.tables.size)
        if key not in self._params:
            params = self._params[key] = Params(state)
            gam = np.concatenate([params.gammas, [params.exploration]])
            # playout weight factor by the local value a move covers (1 or 2 per cell; 0 for illegal moves)
            gloc = K.local_weights(LOCAL_GAMMAS if self.local else None)
            params.kernel = (gam, params.consider, params.second, params.dist, params.check_dist_pieces,  # type: ignore[attr-defined]
                             params.connect_pieces, params.width, gloc, params.rave_parent_max, self.local)
            self._work[key] = _Workspace(state, min(self.capacity, INITIAL_CAPACITY))
        return self._params[key], self._work[key], self._params[key].kernel  # type: ignore[attr-defined]

    def search(self, state: BlokusState, seed: int,
               started: float | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Run the search; (child moves, child real visits, child values) of the root.

        A CPU-seconds budget counts from ``started`` (a ``time.process_time()``; default: now).
        """
        start = time.process_time() if started is None else started
        params, work, P = self._setup(state)
        history = [(c, m.index) for c, m, _ in state.history]
        self.reused = self.reuse_tree and work.reuse(history)
        tree = work.tree
        if not self.reused:
            tree[8][0] = 1
            tree[0][0] = -1
            tree[1][0] = -1
            tree[2][0] = -1
            tree[3][0] = -1
            tree[4][0] = 0.5
            tree[5][0] = 0.0
            tree[6][0] = 1.0
            tree[7][0] = 0
        work.history = history
        reset_cache(work.cache)
        recent = np.full((3, 2), -1, dtype=np.int64)
        placed = [(c, m.index) for c, m, _ in state.history if not m.is_pass]
        for i, (c, m) in enumerate(placed[-3:]):
            recent[3 - len(placed[-3:]) + i] = (c, m)
        nonboard = len(placed)
        # Pentobi's early termination of playouts, in two-player games before 10 moves per colour
        early = self.early_end and params.num_players == 2 and nonboard < 10 * state.num_colors
        work.root.load(state, recent)
        arrays, owner, recent = work.root.arrays, work.root.owner, work.root.recent
        root_stats = np.zeros((2, state.num_players), dtype=np.float64)
        K.seed_rng(seed & 0xFFFFFFFF)
        # 2% of the budget is kept for what follows the search (the answer, tree growth, a last chunk)
        deadline = None if self.seconds is None else start + self.seconds * (1 - BUDGET_RESERVE)
        searching = time.process_time()
        done = 0
        chunk = 16
        while True:
            want = chunk if self.iterations is None else min(chunk, self.iterations - done)
            before = time.process_time()
            if deadline is not None and done:
                per_iteration = (before - searching) / done
                want = min(want, max(1, int((deadline - before) / per_iteration)))  # fit the time left
            if want <= 0:
                break
            grow = work.capacity < self.capacity
            done += run_iterations(want, state.ktables, arrays, owner, recent, nonboard, state.to_move, P,
                                   (params.wtab, params.pl_weight), params.player_of, params.num_players,
                                   state.tables.piece_sizes,
                                   _MONOMINO, tree, work.scratch, work.play, root_stats, early, work.cache, grow)
            if tree[8][1]:  # out of room
                tree[8][1] = 0
                if not grow:
                    break  # not even for the root's children
                work.grow(self.capacity)
                tree = work.tree
            now = time.process_time()
            if deadline is not None and now >= deadline:
                break
            if now - before < 0.001 and chunk < 4096:
                chunk *= 2  # short iterations (late in the game): fewer calls from Python
        self.last_iterations = done
        self.last_seconds = time.process_time() - searching  # the search loop alone
        first, n = int(tree[2][0]), int(tree[3][0])
        sl = slice(first, first + n)
        return tree[0][sl].copy(), tree[7][sl].copy(), tree[4][sl].copy() * tree[5][sl]

    def choose(self, game: GameState[Any], rng: random.Random) -> Move:
        started = time.process_time()
        state = game
        if not isinstance(state, BlokusState):
            raise TypeError(f"a Blokus bot got a {type(state).__name__}")
        found = state.legal_placements()
        if len(found) == 0:
            return PASS
        seed = rng.getrandbits(32)
        moves, visits, wins = self.search(state, seed, started)
        if len(moves) == 0:
            return state.tables.moves[int(found[0])]
        best = int(np.lexsort((-np.arange(len(moves)), visits, wins))[-1])
        return state.tables.moves[int(moves[best])]


_MONOMINO = PIECE_NAMES.index("1")


def fast_mcts_bot(budget: Budget | None = None) -> FastMCTSBot:
    """``mcts-rave[:budget]``: a count is iterations per move, ``Ns`` CPU seconds per move (default 2000 iterations)."""
    if budget is None:
        return FastMCTSBot()
    return FastMCTSBot(iterations=budget.count, seconds=budget.seconds, name=f"mcts-rave:{budget}")


__all__ = ["FastMCTSBot", "Params", "compute_gammas", "considered_pieces", "fast_mcts_bot", "gamma_table"]
