"""mcts-rave's Python driver: the bot, its budget, and the preallocated tree and work arrays.

The driver copies the position into the kernel's arrays, runs the iterations in chunks (so a CPU
time budget can be checked between chunks) and reads the root's children.  The tree starts small
and doubles when full (an iteration that finds no room is redone after the growth, so the search
does not depend on it), up to ``capacity`` nodes; a tree full at that size is pruned as Pentobi prunes
it (knob ``prune``, on by default) and the search expands again.  Tree reuse: the
subtree of the position reached by the moves since the last search is kept (its statistics
re-rooted) when the bot is asked again.
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from puzzles.blokus import kernel as K
from puzzles.blokus.engine import BlokusState
from puzzles.blokus.tables import NUM_PIECES, PASS, PIECE_NAMES, PIECE_SIZES, Move
from puzzles.game import GameState
from solvers.blokus.endgame import EndgameResult, EndgameUnsolved, solve_endgame
from solvers.blokus.mcts import fitted, fitted_classic
from solvers.blokus.mcts.lists import reset_cache
from solvers.blokus.mcts.playout import LOCAL_GAMMAS
from solvers.blokus.mcts.priors import considered_pieces, gamma_table
from solvers.blokus.mcts.tree import (
    RAVE_CHILD_MAX,
    RAVE_WEIGHT,
    SEARCH_KNOBS,
    Tree,
    copy_subtree,
    mover,
    new_tree,
    run_iterations,
)
from solvers.bots import Budget
from solvers.interrupt import INTERRUPTED, RUNNING, new_flag, run_polling

TREE_CAPACITY = 1 << 23  # the most nodes a tree may hold
#: nodes a new tree has room for; it doubles when full.  Room for all of them at once made a new bot's first big search
#: about 12% cheaper (no copies), but the pages it touched first cost kernel time in bursts the CPU budget's last chunk
#: cannot foresee: two threads at 0.4 s overshot to 0.399-0.403 s of process CPU, against 0.394-0.395 s from this size
INITIAL_CAPACITY = 1 << 18
CACHE_POOL = 1 << 25  # moves in the list cache (64 MB of uint16, touched only as used)
CACHE_SLOTS = 1 << 19  # nodes with cached lists
LGR_SLOTS = 1 << 20  # per colour, the replies to two moves (Pentobi: 2^21 per player)
MAX_THREADS = 16  # the most search threads (knob ``threads``)
MIN_TREE_LOG2 = 12  # the smallest tree the knob ``tree_log2`` may ask for: 2^12 nodes, ...
MAX_TREE_LOG2 = TREE_CAPACITY.bit_length() - 1  # ... and the largest, the default's
SEED_STEP = 0x9E3779B9  # search thread k seeds its random numbers with seed + k * SEED_STEP
LGR_HASH_SEED = 20101  # the hash keys of the last-good-reply table (fixed: searches are deterministic)


def pieces_on_board(state: BlokusState) -> int:
    """The placements made so far (passes not counted): the stage of the game the priors and piece filters read."""
    return sum(not m.is_pass for _, m, _ in state.history)


def recent_placements(state: BlokusState) -> np.ndarray:
    """The last three placements (colour, placement), oldest first, rows of -1 before the third: the moves whose
    attach points are local points (Pentobi's ``PlayoutFeatures::set_local``, ``PriorKnowledge``)."""
    recent = np.full((3, 2), -1, dtype=np.int64)
    placed = [(c, m.index) for c, m, _ in state.history if not m.is_pass][-3:]
    for i, (c, m) in enumerate(placed):
        recent[3 - len(placed) + i] = (c, m)
    return recent


class Params:
    """Everything the kernel needs about a variant (built once per variant and board)."""

    def __init__(self, state: BlokusState) -> None:
        v = state.variant.name
        t = state.tables
        self.duo = v == "duo"
        nc = state.num_colors
        self.gammas = gamma_table(self.duo)
        self.piece_gamma = np.ones((1, NUM_PIECES), dtype=np.float64)  # a factor by stage and piece: none
        self.consider = considered_pieces(v, nc)
        # a piece's playout weight (Pentobi's State::init_gamma): 5^size in Classic, 3^size * 1.8^(attach points - 1)
        # in Duo, with the piece's most attach points in any placement (its count away from the board's edges)
        piece_attach = np.zeros(NUM_PIECES, dtype=np.float64)
        np.maximum.at(piece_attach, t.pl_piece, t.pl_ncorners.astype(np.float64))
        size = np.array(PIECE_SIZES, dtype=np.float64)
        by_piece = 3.0 ** size * 1.8 ** (piece_attach - 1.0) if self.duo else 5.0 ** size
        self.pl_weight = by_piece[t.pl_piece]
        # the same weights by move class (piece * 16 + corner points, kernel.move_records), one row per
        # number of pieces on board with the pieces Pentobi does not consider yet at 0
        rec = state.ktables.rec
        piece = np.arange(NUM_PIECES * 16) // 16
        by_class = by_piece[piece]
        if not np.array_equal(by_class[rec[:, 6]], self.pl_weight):
            raise AssertionError("move classes do not reproduce the playout weights")
        self.wtab = np.ascontiguousarray(np.where(self.consider[:, piece] != 0, by_class[None, :], 0.0))
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
        # each colour's second colour (Pentobi's get_second_color): the partner colour in two-player, else itself;
        # -1 for the three-player green, whose second colour is that of the seat moving it now (priors.second_colour)
        self.second = np.array([(c + 2) % 4 if v == "two-player" else -1 if v == "three-player" and c == 3 else c
                                for c in range(nc)], dtype=np.int32)
        # the seat of each colour; -1: the three-player green, whose score counts for nobody and whose moves the
        # seat whose turn it is chooses (tree.mover)
        self.player_of = np.array([-1 if v == "three-player" and c == 3 else state.player_of_color(c)
                                   for c in range(nc)], dtype=np.int32)
        self.num_players = state.num_players
        self.exploration = 0.5 if self.duo else 0.4
        self.rave_weight = RAVE_WEIGHT  # a RAVE result's weight at the next ply (falling linearly to the end)
        self.rave_child_max = RAVE_CHILD_MAX  # no RAVE updates of children with this many value counts
        # 3+ seats: 1 = Pentobi's quality bonus; 0 = 0.1 of the squashed margin, as in two-player games.  On in
        # four-player Classic, where paired matches against level-5 Pentobi showed it (rank score 0.313 against
        # 0.217 on 80 seeds); off in three-player, where they did not (0.309 both): bench/results/blokus_vs_pentobi.md
        self.quality_bonus = 1.0 if v == "classic" else 0.0
        self.lgr = 0.0  # 1: the last good reply in playouts (Pentobi's use_lgr)
        self.rave_dist = 0.0  # 1: Pentobi's RAVE distance weights (playout passes are no plies; see tree.run_iterations)
        self.prior_all = 0.0  # 1: priors and first values scaled by the gammas of all moves, pruned ones too (Pentobi)
        self.rave_parent_max = 25000 if self.duo else 50000  # no RAVE updates of the children of busier nodes
        self.width = w


class SearchPosition:
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


class Workspace:
    """Preallocated tree and scratch arrays for one board (reused by every search of a bot)."""

    def __init__(self, state: BlokusState, capacity: int) -> None:
        t = state.tables
        nc = state.num_colors
        n_pl = t.num_placements
        self.capacity = capacity
        self.tree = new_tree(capacity)
        self.scratch = (np.zeros(n_pl, dtype=np.int32), np.zeros(n_pl, dtype=np.int32), np.zeros(n_pl, dtype=np.float64),
                        np.zeros(n_pl, dtype=np.int32), np.zeros((5, max(n_pl, t.area)), dtype=np.float64),
                        np.zeros(1, dtype=np.int64), np.zeros((n_pl + 63) // 64, dtype=np.uint64),
                        np.zeros(n_pl, dtype=np.int32))
        self.root = SearchPosition(state)
        self.work = SearchPosition(state)
        self.play = (np.zeros((nc, n_pl), dtype=np.int32), np.zeros(nc, dtype=np.int32),
                     (np.zeros(nc * NUM_PIECES, dtype=np.int32), np.zeros(nc * NUM_PIECES, dtype=np.int32),
                      np.zeros(nc * NUM_PIECES, dtype=np.int32), np.zeros(1, dtype=np.int64),  # the RAVE log
                      np.full((nc, n_pl), -1, dtype=np.int32)),  # and by colour and move, the ply (-1: not played)
                     np.zeros(200, dtype=np.int32), np.zeros(nc, dtype=np.float64),
                     (np.zeros((nc, n_pl), dtype=np.int32), np.zeros(nc, dtype=np.int32), np.zeros(nc, dtype=np.int32),
                      np.zeros(nc, dtype=np.int32)),
                     (np.zeros(K.feature_size(t.area), dtype=np.uint8), np.zeros((nc, n_pl), dtype=np.uint8),
                      np.zeros(nc, dtype=np.int32), np.zeros(nc, dtype=np.int32), np.zeros(1, dtype=np.int64)),
                     np.zeros(1, dtype=np.int64), np.zeros((2, state.num_players), dtype=np.float64),
                     self.root.blob, self.work.blob, self.work.owner, self.work.recent,
                     np.zeros(200, dtype=np.int32),  # the seat that chose each move of the path
                     np.zeros((state.num_players + 1, 3), dtype=np.float64))  # running result statistics
        if n_pl >= np.iinfo(np.uint16).max or nc * n_pl > CACHE_POOL:
            raise ValueError("the list cache keeps placements as uint16, and the root's lists must fit its pool")
        # the legal-move lists kept at tree nodes (run_iterations' cache): node -> slot + 1 (0: none), the pool of moves,
        # per slot and colour (offset, count, attach points processed, kind), (pool used, slots used, full),
        # slot -> node, and the list sizes of the slot being made
        self.cache = (np.zeros(capacity, dtype=np.int32), np.zeros(CACHE_POOL, dtype=np.uint16),
                      np.zeros((CACHE_SLOTS, 4, nc), dtype=np.int32), np.zeros(3, dtype=np.int64),
                      np.zeros(CACHE_SLOTS, dtype=np.int32), np.zeros(nc, dtype=np.int32))
        # the last good replies (playout.lgr_update): to one move, to two moves (hash slots), the moves' hash keys;
        # replies as uint16 (placement + 1, checked above), so that the big table is half the memory a lookup misses in
        keys = np.random.default_rng(LGR_HASH_SEED).integers(0, 2**63, size=(2, n_pl + 1), dtype=np.uint64)
        self.lgr = (np.zeros((nc, n_pl + 1), dtype=np.uint16), np.zeros((nc, LGR_SLOTS), dtype=np.uint16), keys[0],
                    keys[1])
        self.spare: Tree | None = None  # second tree for re-rooting (allocated on first reuse)
        self.history: list[tuple[int, int]] | None = None  # the root position of the tree (moves, passes as -1)
        self.root_stats: np.ndarray | None = None  # the last search's (sum, count) of results per seat
        self.capacity = capacity

    def grow(self, limit: int) -> None:
        """Double the room of the tree (at most ``limit`` nodes), keeping its nodes; the spare tree goes."""
        size = int(self.tree.size[0])
        self.capacity = min(limit, 2 * self.capacity)
        bigger = new_tree(self.capacity)
        for name in Tree._fields:
            if name != "size":
                getattr(bigger, name)[:size] = getattr(self.tree, name)[:size]
        bigger.size[0] = size
        self.tree = bigger
        t_cache = np.zeros(self.capacity, dtype=np.int32)
        t_cache[:size] = self.cache[0][:size]
        self.cache = (t_cache,) + self.cache[1:]
        self.spare = None

    def _copy_to_spare(self, node: int, min_visits: int) -> int:
        """Make the subtree under ``node`` the tree (:func:`copy_subtree` into the spare tree, then swap them);
        returns its nodes."""
        if self.spare is None:
            self.spare = new_tree(self.capacity)
        kept = int(copy_subtree(self.tree, node, self.spare, min_visits))
        self.tree, self.spare = self.spare, self.tree
        return kept

    def prune(self, min_visits: int) -> int:
        """Keep the children of the nodes with at least ``min_visits`` real visits (and the root's), as Pentobi prunes
        a full tree; the rest become unexpanded.  The list cache is forgotten (node numbers change).  Returns the
        nodes kept."""
        kept = self._copy_to_spare(0, min_visits)
        reset_cache(self.cache)
        return kept

    def reuse(self, history: list[tuple[int, int]]) -> bool:
        """Re-root the tree at the position reached by ``history`` when it continues the tree's root; True if kept."""
        old = self.history
        tree = self.tree
        if old is None or tree.size[0] == 0 or len(history) < len(old) or history[: len(old)] != old:
            return False
        node = 0
        for color, move in history[len(old):]:
            first, n = int(tree.first[node]), int(tree.nchild[node])
            if n <= 0:
                return False
            hits = np.flatnonzero((tree.move[first:first + n] == move) & (tree.color[first:first + n] == color))
            if len(hits) == 0:
                return False
            node = first + int(hits[0])
        if node != 0:
            self._copy_to_spare(node, 0)
        return True


class _SearchSetup(NamedTuple):
    """What every tree's search of one move shares: the position, the variant's parameters and kernel tuple,
    pieces on the board, whether playouts end early, the seat choosing now."""

    state: BlokusState
    params: Params
    kernel: tuple[Any, ...]
    nonboard: int
    early: bool
    seat: int


def _start_tree(work: Workspace, history: list[tuple[int, int]], reused: bool, params: Params, state: BlokusState,
                recent: np.ndarray) -> None:
    """Make ``work`` ready to search ``state``: a fresh root unless its tree was ``reused``, the quality bonus's
    statistics and (with a new tree) the last good replies afresh, as Pentobi's, an empty list cache, the root position."""
    tree = work.tree
    if not reused:
        tree.size[0] = 1  # the root alone
        tree.move[0] = -1
        tree.color[0] = -1
        tree.first[0] = -1
        tree.nchild[0] = -1
        tree.value[0] = 0.5
        tree.value_count[0] = 0.0
        tree.prior[0] = 1.0
        tree.visits[0] = 0
        if params.lgr >= 0.5:
            work.lgr[0].fill(0)
            work.lgr[1].fill(0)
    work.history = history
    work.play[-1][...] = 0.0
    reset_cache(work.cache)
    work.root.load(state, recent)


def _root_children(trees: list[Tree]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(moves, real visits, wins = value x value count) of the root's children, summed over ``trees`` by move (their
    roots have the same children, sorted by move, unless one could not expand its root)."""
    first, n = int(trees[0].first[0]), int(trees[0].nchild[0])
    sl = slice(first, first + n)
    moves = trees[0].move[sl].copy()
    visits = trees[0].visits[sl].astype(np.int64)
    wins = trees[0].value[sl] * trees[0].value_count[sl]
    for tree in trees[1:]:
        f, k = int(tree.first[0]), int(tree.nchild[0])
        if k <= 0:
            continue
        other = tree.move[f:f + k]
        at = np.searchsorted(moves, other)
        hit = (at < len(moves)) & (moves[np.minimum(at, len(moves) - 1)] == other)
        np.add.at(visits, at[hit], tree.visits[f:f + k][hit])
        np.add.at(wins, at[hit], (tree.value[f:f + k] * tree.value_count[f:f + k])[hit])
    return moves, visits, wins


BUDGET_RESERVE = 0.02  # the share of a CPU-seconds budget the search leaves for the rest of the move
CHUNK_SECONDS = 0.005  # chunks of iterations double until one takes this long (fewer calls from Python)
#: knobs of the driver, not the kernel: endgame=1 (>= 0.5) tries the exact endgame search; early_stop=1 ends a
#: search once its move cannot change (:func:`move_cannot_change`); pentobi_counts=1 spreads an iteration budget
#: over the game as Pentobi's levels do (:func:`pentobi_count_weight`); pentobi_stop=1 is the early stop with the lead
#: measured as Pentobi's check measures it (``as_pentobi`` of :func:`move_cannot_change`)
#: prune=1 (the default) prunes a full tree at its largest size as Pentobi does (:meth:`Workspace.prune`); prune=0
#: searches on without expanding
#: tree_log2=N caps the tree at 2^N nodes (12 to 23; a smaller tree is pruned sooner, as Pentobi's memory is scaled by
#: its level)
#: fitted_priors=1 weighs new children with the priors refitted to recorded strong moves (:data:`FITTED_PRIORS`: Duo and
#: Classic; the default where :data:`FITTED_BY_DEFAULT` says so), fitted_priors=0 with Pentobi's
DRIVER_KNOBS = ("endgame", "early_stop", "pentobi_counts", "threads", "pentobi_stop", "prune", "tree_log2",
                "fitted_priors")
PRUNE_START = 16  # Pentobi's prune_count_start: the first pruning of a search keeps nodes with this many visits, ...
PRUNE_KEEP = 0.5  # ... and the next one twice as many while a pruning keeps more than this share of the nodes
EARLY_STOP_AFTER = 0.1  # CPU seconds of search before the early stop is checked (Pentobi: rates are unsure before)
EARLY_STOP_EVERY = 256  # with an iteration budget, the early stop is checked after each this many iterations,
EARLY_STOP_CHECKS = 32  # or this many times in the move's budget when that is more (each check costs a call)
ENDGAME_PLACEMENTS = 100  # try the endgame search when both seats' legal placements number at most this
ENDGAME_SHARE = 0.5  # of a CPU-seconds budget, the most the endgame search may take before MCTS gets the rest
ENDGAME_NODES_PER_ITERATION = 10  # with an iteration budget: its node limit (deterministic, like the budget)


FITTED_PRIORS = {"duo": fitted, "classic": fitted_classic}  # the variants with priors refitted to recorded moves
FITTED_BY_DEFAULT = ("duo",)  # where they are the default (an 800-game A/B showed it: bench/results/blokus_vs_pentobi.md)


def fitted_gammas(variant: str = "duo") -> tuple[np.ndarray, np.ndarray]:
    """The fitted priors of ``variant`` (:data:`FITTED_PRIORS`): the gamma table, and the piece factors by pieces on
    the board."""
    module = FITTED_PRIORS[variant]
    rows = np.exp(np.array(module.LOG_PIECE_GAMMAS, dtype=np.float64))
    stage = np.searchsorted(np.array(module.STAGES), np.arange(module.STAGES[-1] + 1), side="right")
    return np.exp(np.array(module.LOG_GAMMAS, dtype=np.float64)), np.ascontiguousarray(rows[stage])


def pentobi_count_weight(variant: str, own_pieces: int) -> float:
    """The share of a level's simulation count Pentobi spends on a colour's move after it placed ``own_pieces``
    (``Player::m_weight_max_count_*``: ``0.7 exp(0.1 i)``, less for the first moves, where pruning narrows the
    choice: x0.6 for Duo's first; x0.2, x0.2, x0.3 for Classic's first three)."""
    weight = 0.7 * math.exp(0.1 * own_pieces)
    if variant == "duo":
        return weight * (0.6 if own_pieces == 0 else 1.0)
    return weight * {0: 0.2, 1: 0.2, 2: 0.3}.get(own_pieces, 1.0)


def whole_knob(name: str, value: float, low: int, high: int) -> int:
    """A knob that must be a whole number from ``low`` to ``high``, as an int; ValueError (one line) otherwise."""
    if value != int(value) or not low <= value <= high:
        raise ValueError(f"{name} must be a whole number from {low} to {high}, not {value:g}")
    return int(value)


class FastMCTSBot:
    """Pentobi-style MCTS in numba (priors, pruning, weighted playouts, RAVE, tree reuse).

    Budget: ``iterations`` per move, or ``seconds`` of CPU time per move, counted from the start of
    ``choose`` (checked between chunks of 16 iterations, doubled while a chunk takes under
    :data:`CHUNK_SECONDS`; the last chunk is cut to the iterations the time left allows at the rate measured so far,
    and the search stops :data:`BUDGET_RESERVE` of the budget early so the whole move fits it).

    ``knobs`` replaces search constants (:data:`~solvers.blokus.mcts.tree.SEARCH_KNOBS`: the exploration
    constant, the RAVE weight and the RAVE count limit, Pentobi's quality bonus, the last good reply, Pentobi's RAVE
    distance weights ``rave_dist`` and its prior scale ``prior_all``), for
    ``kibitz blokus tune``; the driver's own knob
    ``endgame=1`` (two seats) first tries the exact endgame search (:mod:`solvers.blokus.endgame`) when both seats
    have at most :data:`ENDGAME_PLACEMENTS` placements left, in :data:`ENDGAME_SHARE` of a CPU budget (or
    :data:`ENDGAME_NODES_PER_ITERATION` nodes per iteration of an iteration budget), and plays its move when it
    proves a win or a tie; ``early_stop=1`` ends a search as soon as its move cannot change
    (:func:`move_cannot_change`), saving the rest of the budget, as Pentobi does; ``pentobi_counts=1`` spreads an
    iteration budget over the game as Pentobi's levels spread their simulation counts (:meth:`_move_iterations`);
    ``threads=N`` searches N trees at once (root parallelisation), each with 1/N of the budget, and sums their
    roots' children: the same CPU per move in about 1/N of the wall time on N free cores; ``prune=1`` (the default)
    prunes a tree that is full at ``capacity`` nodes as Pentobi does (:meth:`Workspace.prune`); ``prune=0`` searches on
    without expanding; ``fitted_priors=1`` (Duo and Classic; the default in Duo) weighs new children with priors
    refitted to recorded strong moves (:func:`fitted_gammas`), ``fitted_priors=0`` with Pentobi's.
    """

    def __init__(self, iterations: int | None = 2000, seconds: float | None = None, reuse: bool = True,
                 name: str = "mcts-rave", capacity: int = TREE_CAPACITY, local: bool = True,
                 early_end: bool = True, knobs: dict[str, float] | None = None) -> None:
        if iterations is None and seconds is None:
            raise ValueError("give an iteration budget or CPU seconds")
        self.iterations = iterations
        self.seconds = seconds
        self.reuse_tree = reuse
        self.local = local
        self.early_end = early_end
        self.knobs = dict(knobs or {})  # search constants that replace the variant's (SEARCH_KNOBS), for tuning
        unknown = set(self.knobs) - set(SEARCH_KNOBS) - set(DRIVER_KNOBS)
        if unknown:
            raise ValueError(f"unknown search constants {sorted(unknown)}; "
                             f"choose from {', '.join(SEARCH_KNOBS + DRIVER_KNOBS)}")
        self.endgame = self.knobs.pop("endgame", 0.0) >= 0.5  # a switch: 1 on, 0 off
        self.pentobi_stop = self.knobs.pop("pentobi_stop", 0.0) >= 0.5
        self.early_stop = self.knobs.pop("early_stop", 0.0) >= 0.5 or self.pentobi_stop
        self.pentobi_counts = self.knobs.pop("pentobi_counts", 0.0) >= 0.5
        self.prune = self.knobs.pop("prune", 1.0) >= 0.5  # on by default: without it a full tree stops expanding
        # None: the variant's default (FITTED_BY_DEFAULT)
        self.fitted_priors = None if "fitted_priors" not in self.knobs else self.knobs.pop("fitted_priors") >= 0.5
        self.threads = whole_knob("threads", self.knobs.pop("threads", 1.0), 1, MAX_THREADS)
        tree_log2 = self.knobs.pop("tree_log2", 0.0)  # 0: the capacity given
        if tree_log2:
            capacity = 1 << whole_knob("tree_log2", tree_log2, MIN_TREE_LOG2, MAX_TREE_LOG2)
        self.last_endgame: EndgameResult | None = None  # the last move's proof, when the endgame search made it
        self.reused = False
        self.name = name
        self.capacity = capacity
        self._params: dict[tuple[str, int], Params] = {}
        self._work: dict[tuple[str, int], list[Workspace]] = {}  # one per thread
        self.last_iterations = 0
        self.last_seconds = 0.0
        self._last_seed = 0

    def settings(self, variant: str) -> dict[str, Any]:
        """The budget and every knob this bot searches ``variant`` with, the defaults included (a match records these,
        not only the knobs named on its command line); the knobs read back through ``--knobs``."""
        params = self._variant_params(BlokusState(variant))  # no trees: reading the knobs searches nothing
        knobs = {knob: float(getattr(params, knob)) for knob in SEARCH_KNOBS}
        switches = {"endgame": self.endgame, "early_stop": self.early_stop, "pentobi_counts": self.pentobi_counts,
                    "pentobi_stop": self.pentobi_stop, "prune": self.prune, "fitted_priors": self._fitted(variant)}
        knobs.update({name: float(on) for name, on in switches.items()})
        knobs["threads"] = float(self.threads)
        if self.capacity & (self.capacity - 1) == 0 and MIN_TREE_LOG2 < self.capacity.bit_length() <= MAX_TREE_LOG2 + 1:
            knobs["tree_log2"] = float(self.capacity.bit_length() - 1)
        return {"iterations": self.iterations, "seconds": self.seconds, "tree_capacity": self.capacity, "knobs": knobs}

    def _fitted(self, variant: str) -> bool:
        """Whether this bot weighs new children with the fitted priors in ``variant`` (knob ``fitted_priors``)."""
        wanted = variant in FITTED_BY_DEFAULT if self.fitted_priors is None else self.fitted_priors
        return wanted and variant in FITTED_PRIORS

    def reset(self) -> None:
        """Forget the previous search (a new game)."""
        for works in self._work.values():
            for work in works:
                work.tree.size[0] = 0
                work.history = None

    @staticmethod
    def _variant_key(state: BlokusState) -> tuple[str, int]:
        """What the cached parameters and trees are kept under: the variant and its board."""
        return state.variant.name, state.tables.size

    def _variant_params(self, state: BlokusState) -> Params:
        """The variant's parameters with this bot's knobs and priors, the kernel's tuple of them as ``kernel`` (built
        once)."""
        key = self._variant_key(state)
        if key not in self._params:
            params = self._params[key] = Params(state)
            for knob, value in self.knobs.items():
                setattr(params, knob, float(value))
            if self._fitted(state.variant.name):
                params.gammas, params.piece_gamma = fitted_gammas(state.variant.name)
            gam = np.concatenate([params.gammas, [getattr(params, knob) for knob in SEARCH_KNOBS]])
            # playout weight factor by the local value a move covers (1 or 2 per cell; 0 for illegal moves)
            gloc = K.local_weights(LOCAL_GAMMAS if self.local else None)
            params.kernel = (gam, params.consider, params.second, params.dist, params.check_dist_pieces,  # type: ignore[attr-defined]
                             params.connect_pieces, params.width, gloc, params.rave_parent_max, self.local,
                             params.piece_gamma)
        return self._params[key]

    def _setup(self, state: BlokusState) -> tuple[Params, list[Workspace], tuple[Any, ...]]:
        """The variant's parameters, this bot's trees for it (one per thread) and the kernel's parameter tuple."""
        params = self._variant_params(state)
        key = self._variant_key(state)
        if key not in self._work:
            self._work[key] = [Workspace(state, min(self.capacity, INITIAL_CAPACITY)) for _ in range(self.threads)]
        return params, self._work[key], params.kernel  # type: ignore[attr-defined]

    def search(self, state: BlokusState, seed: int,
               started: float | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Run the search; (child moves, child real visits, child wins = value x value count) of the root.

        A CPU-seconds budget counts from ``started`` (a ``time.process_time()``; default: now).  With
        ``threads`` > 1 each thread searches a tree of its own with its share of the budget (root
        parallelisation: the same total CPU in about 1/threads of the wall time), and the roots' children
        are summed.
        """
        start = time.process_time() if started is None else started
        params, works, P = self._setup(state)
        history = [(c, m.index) for c, m, _ in state.history]
        recent = recent_placements(state)
        nonboard = pieces_on_board(state)
        # Pentobi's early termination of playouts, in two-player games before 10 moves per colour
        early = self.early_end and params.num_players == 2 and nonboard < 10 * state.num_colors
        reused = [self.reuse_tree and work.reuse(history) for work in works]
        self.reused = reused[0]
        for work, kept in zip(works, reused):
            _start_tree(work, history, kept, params, state, recent)
        setup = _SearchSetup(state, params, P, nonboard, early,
                             int(mover.py_func(state.to_move, params.player_of, state.arrays.placed)))
        # 2% of the budget is kept for what follows the search (the answer, tree growth, a last chunk)
        left = None if self.seconds is None else start + self.seconds * (1 - BUDGET_RESERVE) - time.process_time()
        if len(works) == 1:
            self.last_iterations, self.last_seconds = self._search_tree(setup, works[0], seed, left, reused[0],
                                                                        time.process_time, new_flag())
        else:
            self.last_iterations, self.last_seconds = self._search_threads(setup, works, seed, left, reused)
        return _root_children([work.tree for work in works])

    def _search_threads(self, setup: _SearchSetup, works: list[Workspace], seed: int, left: float | None,
                        reused: list[bool]) -> tuple[int, float]:
        """One search per workspace, each in a thread of its own (the kernel releases the GIL) with 1/threads of the
        budget in its own CPU time; thread k seeds its random numbers with ``seed + k * SEED_STEP`` (its own numba
        state, so a count budget gives the same trees whatever the scheduling).  The threads run under
        :func:`~solvers.interrupt.run_polling`: Ctrl-C sets its flag, which every thread reads between chunks."""
        share = None if left is None else left / len(works)
        out: list[tuple[int, float] | BaseException | None] = [None] * len(works)

        def run(k: int, flag: np.ndarray) -> None:
            try:
                out[k] = self._search_tree(setup, works[k], (seed + k * SEED_STEP) & 0xFFFFFFFF, share, reused[k],
                                           time.thread_time, flag, k, len(works))
            except BaseException as error:  # noqa: BLE001 - re-raised in the caller's thread
                out[k] = error

        def run_all(flag: np.ndarray) -> None:
            others = [threading.Thread(target=run, args=(k, flag), name=f"mcts-rave-{k}", daemon=True)
                      for k in range(1, len(works))]
            for thread in others:
                thread.start()
            run(0, flag)
            for thread in others:
                thread.join()

        _, status = run_polling(run_all)
        if status == INTERRUPTED:
            raise KeyboardInterrupt
        for result in out:
            if isinstance(result, BaseException):
                raise result
        done = [r for r in out if isinstance(r, tuple)]
        return sum(n for n, _ in done), sum(s for _, s in done)

    def _search_tree(self, setup: _SearchSetup, work: Workspace, seed: int, left: float | None, reused: bool,
                     clock: Callable[[], float], flag: np.ndarray, share: int = 0, shares: int = 1) -> tuple[int, float]:
        """Iterations into ``work``'s tree until the budget is spent: ``left`` CPU seconds on ``clock`` (None: an
        iteration budget, of which this tree runs its ``share`` of ``shares``), or until the interrupt ``flag`` is set
        (read between chunks); (iterations, CPU seconds)."""
        state, params, P = setup.state, setup.params, setup.kernel
        tree = work.tree
        owner, recent = work.root.owner, work.root.recent
        # plain tuples for the kernel (run_iterations)
        tables, root_arrays, work_arrays = tuple(state.ktables), tuple(work.root.arrays), tuple(work.work.arrays)
        root_stats = np.zeros((2, state.num_players), dtype=np.float64)
        K.seed_rng(seed & 0xFFFFFFFF)
        searching = clock()
        deadline = None if left is None else searching + left
        done = 0
        chunk = 16
        target = self._move_iterations(state, int(tree.visits[0]) if reused else 0, share, shares)
        every = max(EARLY_STOP_EVERY, (target or 0) // EARLY_STOP_CHECKS)
        order: np.ndarray | None = None  # the root's children in Pentobi's order (pentobi_stop), once it has them
        prune_visits = PRUNE_START
        while flag[0] == RUNNING:
            want = chunk if target is None else min(chunk, target - done)
            if target is not None and self.early_stop:
                want = min(want, every - done % every)  # checks at fixed counts: deterministic
            before = clock()
            if deadline is not None and done:
                per_iteration = (before - searching) / done
                want = min(want, max(1, int((deadline - before) / per_iteration)))  # fit the time left
            if want <= 0:
                break
            grow = work.capacity < self.capacity or self.prune
            done += run_iterations(want, tables, root_arrays, work_arrays, tuple(tree), owner, recent, setup.nonboard,
                                   state.to_move, P, (params.wtab, params.pl_weight), params.player_of,
                                   params.num_players, state.tables.piece_sizes, _MONOMINO, work.scratch, work.play,
                                   root_stats, setup.early, work.cache, grow, work.lgr)
            if tree.size[1]:  # out of room
                tree.size[1] = 0
                if not grow:
                    break  # not even for the root's children
                if work.capacity < self.capacity:
                    work.grow(self.capacity)
                else:
                    kept = work.prune(prune_visits)
                    if kept >= work.capacity:
                        break  # the root's children alone fill the tree
                    if kept > PRUNE_KEEP * work.capacity:
                        prune_visits *= 2
                tree = work.tree
            now = clock()
            if deadline is not None and now >= deadline:
                break
            if self.pentobi_stop and order is None and tree.nchild[0] >= 2:
                first = int(tree.first[0])
                order = pentobi_root_order(state, tree.move[first:first + int(tree.nchild[0])])
            if self.early_stop and move_cannot_change(tree, root_stats[:, setup.seat],
                                                      remaining_simulations(target, done, every, deadline,
                                                                            now - searching, clock),
                                                      self.pentobi_stop, order):
                break
            if now - before < CHUNK_SECONDS and chunk < 65536:
                chunk *= 2  # short iterations: fewer calls from Python
        work.root_stats = root_stats  # each seat's (sum, count) of results: its mean is Pentobi's "Val"
        return done, clock() - searching  # the search loop alone

    def choose(self, game: GameState[Any], rng: random.Random) -> Move:
        started = time.process_time()
        state = game
        if not isinstance(state, BlokusState):
            raise TypeError(f"a Blokus bot got a {type(state).__name__}")
        found = state.legal_placements()
        if len(found) == 0:
            return PASS
        seed = rng.getrandbits(32)
        self.last_endgame = self._endgame(state, found, started) if self.endgame else None
        if self.last_endgame is not None:
            return state.tables.moves[self.last_endgame.placement]
        moves, visits, wins = self.search(state, seed, started)
        if len(moves) == 0:
            return state.tables.moves[int(found[0])]
        best = int(np.lexsort((-np.arange(len(moves)), visits, wins))[-1])
        return state.tables.moves[int(moves[best])]


    def _move_iterations(self, state: BlokusState, reused_visits: int, share: int = 0, shares: int = 1) -> int | None:
        """This move's iteration budget for the ``share``-th of ``shares`` trees (threads): its part of the budget, or
        with ``pentobi_counts`` of Pentobi's count for the move (the budget times :func:`pentobi_count_weight`), less
        the visits the reused tree brings (at least 1); None for a CPU-seconds budget.  The parts sum to the whole."""
        if self.iterations is None:
            return None
        if not self.pentobi_counts:
            return max(1, (self.iterations + shares - 1 - share) // shares)
        own = int(state.arrays.placed[state.to_move])
        count = math.ceil(self.iterations * pentobi_count_weight(state.variant.name, own))
        return max(1, (count + shares - 1 - share) // shares - reused_visits)

    def _endgame(self, state: BlokusState, found: np.ndarray, started: float) -> EndgameResult | None:
        """The exact endgame search's move when few placements are left and it proves a win or a tie in its share
        of the budget; else None (MCTS decides: in a lost position it looks for the opponent's mistakes)."""
        if state.num_players != 2 or len(found) > ENDGAME_PLACEMENTS:
            return None
        others = sum(len(state.legal_placements(c, ordered=False)) for c in range(state.num_colors)
                     if c != state.to_move)
        if len(found) + others > ENDGAME_PLACEMENTS:
            return None
        if self.seconds is not None:
            limits: dict[str, Any] = {"max_nodes": 10**9, "deadline": started + self.seconds * ENDGAME_SHARE}
        else:
            limits = {"max_nodes": ENDGAME_NODES_PER_ITERATION * int(self.iterations or 0)}
        try:
            result = solve_endgame(state, **limits)
        except EndgameUnsolved:
            return None
        return result if result.margin >= 0 else None


_MONOMINO = PIECE_NAMES.index("1")


def remaining_simulations(target: int | None, done: int, every: int, deadline: float | None, searched: float,
                          clock: Callable[[], float] = time.process_time) -> float:
    """How many more simulations this search may run, for the early stop (infinite where it is not checked): the
    iterations left after each ``every`` iterations of an iteration budget, else after :data:`EARLY_STOP_AFTER`
    CPU seconds the time left at the rate so far (``searched``: CPU seconds of this search on ``clock``)."""
    if target is not None:
        return float(target - done) if done % every == 0 else math.inf
    if deadline is None or searched < EARLY_STOP_AFTER or done == 0:
        return math.inf
    return (deadline - clock()) * done / searched


#: Pentobi's piece order (``BoardConst::create_pieces_classic``), the order of its lists of pieces left
PENTOBI_PIECE_ORDER = ("V5", "L5", "Z5", "N", "W", "X", "F", "I5", "T5", "Y", "P", "U", "L4", "I4", "T4", "Z4", "O4",
                       "V3", "I3", "2", "1")


def pentobi_root_order(state: BlokusState, moves: np.ndarray) -> np.ndarray:
    """The positions of the root's children ``moves`` (placements of the colour to move) in the order Pentobi's move
    generator lists them (``State::init_moves_without_gamma``), which its early stop's loop follows: by the first of
    the colour's attach points the move covers, in the order they were made (skipping forbidden ones), then by the
    piece's place in the colour's list of pieces left (Pentobi's piece order, each placed piece swapped with the
    last: ``remove_fast``), then by placement number."""
    color, tables, arrays = state.to_move, state.tables, state.arrays
    left = list(PENTOBI_PIECE_ORDER)
    for c, move, _ in state.history:
        if c == color and move.index >= 0:
            k = left.index(move.piece)
            left[k] = left[-1]
            left.pop()
    piece_rank = np.full(len(PIECE_NAMES), len(left), dtype=np.int64)
    for k, name in enumerate(left):
        piece_rank[PIECE_NAMES.index(name)] = k
    area = arrays.forbidden.shape[1]
    cell_rank = np.full(area + 1, area, dtype=np.int64)  # area: not an attach point (a first move: one group)
    rank = 0
    for q in arrays.attach[color, :arrays.attach_len[color]]:
        if not arrays.forbidden[color, q]:
            cell_rank[q] = rank
            rank += 1
    cells = tables.pl_cells[moves]  # padded with a move's first cell, which changes no minimum
    group = cell_rank[cells].min(axis=1)
    return np.lexsort((moves, piece_rank[tables.pl_piece[moves]], group))


def move_cannot_change(tree: Tree, root_result: np.ndarray, remaining: float, as_pentobi: bool = False,
                       order: np.ndarray | None = None) -> bool:
    """Whether the move chosen (most wins: value x value count) stays the same whatever the ``remaining``
    simulations give (Pentobi's ``check_cannot_change``): the lead over the second move is at least the
    remaining simulations times the mover's mean result so far (``root_result`` = (sum, count); at least 0.1,
    and 1 before 100 results).

    The lead is over the true second move, or ``as_pentobi`` as Pentobi's loop measures it: over the running
    maximum just before the loop over the children reached the best, and at least 0.  Pentobi's loop never raises
    its second-best without a new best, so a second move listed after the best is missed and its searches stop
    sooner: at level 7 in Duo it stops most moves well before their count.  The loop goes over the children in
    ``order`` (positions among them, :func:`pentobi_root_order`), or in the tree's order (placement number).
    """
    first, n = int(tree.first[0]), int(tree.nchild[0])
    if n < 2:
        return n == 1
    if remaining == math.inf:  # not a checking point (no sort of the root's children)
        return False
    wins = tree.value[first:first + n] * tree.value_count[first:first + n]
    if order is not None:
        wins = wins[order]
    if as_pentobi:
        best = int(np.argmax(wins))  # the first of the best, as Pentobi's strict comparison keeps it
        lead = max(float(wins[best]), 0.0) - max(float(wins[:best].max(initial=0.0)), 0.0)
    else:
        top = np.sort(wins)
        lead = float(top[-1] - top[-2])
    total, count = float(root_result[0]), float(root_result[1])
    rate = max(total / count, 0.1) if count > 100 else 1.0
    return bool(lead >= rate * remaining)


def fast_mcts_bot(budget: Budget | None = None) -> FastMCTSBot:
    """``mcts-rave[:budget]``: a count is iterations per move, ``Ns`` CPU seconds per move (default 2000 iterations)."""
    if budget is None:
        return FastMCTSBot()
    return FastMCTSBot(iterations=budget.count, seconds=budget.seconds, name=f"mcts-rave:{budget}")
