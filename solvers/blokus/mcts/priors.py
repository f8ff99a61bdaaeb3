"""mcts-rave's prior knowledge (Pentobi's ``PriorKnowledge``): the move features that weigh new children, and pruning.

Priors on new children: Pentobi's learnt move features (``gamma``: the cells the piece covers,
its own attach points kept and the opponents' attach points taken, what it touches along its
edges, nearness to the opponents' last three moves, piece size; the Duo or the two-player
Classic set of values).  Pruning (as Pentobi, by the number of pieces on the board): Duo only
pieces of size >= 5 / 4 / 3 in the first 4 / 6 / 10 placements; Classic V5 or Z5 first, then
big pieces; Classic early moves must stay within 0.3 of the smallest distance to the centre (12
placements); two-player Classic moves must connect to the partner colour when one can (14
placements).  The piece filter applies in the playouts too.  Rules: ``docs/rules/blokus.md``.
With the knob ``fitted_priors`` (on by default in Duo; Classic has a fit too, off by default), the gammas are refitted to
recorded strong moves and a factor per piece and stage of the game multiplies them (:mod:`.fitted`,
:mod:`.fitted_classic`, ``bench/blokus_prior_fit.py``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from puzzles.blokus import kernel as K
from puzzles.blokus.tables import NUM_PIECES, PIECE_NAMES, PIECE_SIZES

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



#: Pentobi's learnt weights w become gammas ``exp(w / GAMMA_TEMPERATURE)``.
GAMMA_TEMPERATURE = 0.84


def gamma_table(duo: bool) -> np.ndarray:
    """Pentobi's learnt feature weights, ``exp(w / 0.84)``, in the kernel's layout."""
    w = _DUO if duo else _CLASSIC
    t = GAMMA_TEMPERATURE
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


@K.hot_inline
def second_colour(c, second, placed):
    """Colour ``c``'s second colour (Pentobi's ``get_second_color``): its partner in two-player, else ``c``
    itself; for the three-player green (``second[c] == -1``) the colour of the seat moving it now
    (Pentobi's ``get_alt_player``: pieces green placed % 3), whose own moves are not an opponent's."""
    s = second[c]
    return s if s >= 0 else placed[c] % 3


@K.hot
def filter_considered(moves, n, pl_piece, consider, nonboard):
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
def compute_gammas(c, moves, n, tables, arrays, owner, recent, nonboard, gammas, second, dist,  # noqa: C901
                   check_dist_pieces, connect_pieces, width, gam_out, keep_out, grids, piece_gamma):
    """Pentobi's prior ``gamma`` of each of ``moves[:n]`` for colour ``c``; ``keep_out[i]`` = 0 for pruned moves.

    ``piece_gamma[pieces on board, piece]`` (its last row for later stages) multiplies each move's gamma: ones but
    with the fitted priors (``driver.fitted_gammas``, knob ``fitted_priors``).

    Returns the number of moves kept.
    """
    pl_corners, pl_ncorners = tables.pl_corners, tables.pl_ncorners
    forbidden, is_attach, attach, attach_len = arrays.forbidden, arrays.is_attach, arrays.attach, arrays.attach_len
    nc = forbidden.shape[0]
    area = forbidden.shape[1]
    sc = second_colour(c, second, arrays.placed)
    cc = second[c]  # the colour to connect to: -1 (none) for the three-player green, as Pentobi
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
            if s >= 0 and s == cc and cc != c:
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
        if k == c or k == sc:  # noqa: SIM109 (numba: no `in` on mixed tuples)
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
        if k < 0 or m < 0 or k == c or k == sc:  # noqa: SIM109 (numba: no `in` on mixed tuples)
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
    piece_row = piece_gamma[min(nonboard, piece_gamma.shape[0] - 1)]
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
        g *= gammas[G_PIECE + size] * piece_row[geo[m, K.GEO_PIECE]]
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
