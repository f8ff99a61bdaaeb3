"""mcts-rave's knobs ``rave_dist`` (Pentobi's RAVE distance weights), ``prior_all`` (Pentobi's prior scale),
``prune`` (Pentobi's pruning of a full tree) and ``fitted_priors`` (Duo and Classic priors refitted to recorded strong moves)."""

from __future__ import annotations

import numpy as np
import pytest

from puzzles.blokus.engine import BlokusState
from solvers.blokus.mcts import FastMCTSBot
from solvers.blokus.mcts.tree import Tree, rave_step
from tests.test_blokus_lgr import random_position


def searched_tree(knobs: dict[str, float], state: BlokusState, iterations: int, seed: int = 5) -> Tree:
    bot = FastMCTSBot(iterations=iterations, reuse=False, knobs=knobs)
    bot.search(state, seed=seed)
    return bot._setup(state)[1][0].tree


def same_tree(a: Tree, b: Tree) -> bool:
    size = int(a.size[0])
    return size == int(b.size[0]) and all(np.array_equal(getattr(a, f)[:size], getattr(b, f)[:size])
                                          for f in ("move", "first", "nchild", "visits", "value", "value_count"))


@pytest.mark.parametrize(("first_ply", "node_ply", "moves"), [(1, 0, 10), (5, 2, 10), (9, 2, 10), (30, 12, 41)])
def test_rave_dist_weights_a_later_move_as_pentobis_update_rave(first_ply: int, node_ply: int, moves: int) -> None:
    """Pentobi: weight = rave_weight * (1 - (first - i) / (nu_moves - i)); kibitz's first weighting padded the
    denominator by one ply (a little more weight for later moves)."""
    step = rave_step.py_func(0.7, node_ply, moves, 0.0)
    assert 0.7 - (first_ply - node_ply) * step == pytest.approx(0.7 * (1 - (first_ply - node_ply) / (moves - node_ply)))
    padded = rave_step.py_func(0.7, node_ply, moves, 1.0)
    assert 0.7 - (first_ply - node_ply) * padded > 0.7 - (first_ply - node_ply) * step


def test_rave_dist_changes_the_search_and_keeps_it_deterministic() -> None:
    state = random_position("duo", 8, 6)
    default = searched_tree({}, state, 400)
    off = searched_tree({"rave_dist": 0.0}, state, 400)
    assert same_tree(default, off)
    on = searched_tree({"rave_dist": 1.0}, state, 400)
    assert not same_tree(default, on)
    assert same_tree(on, searched_tree({"rave_dist": 1.0}, state, 400))


def root_priors_and_values(tree: Tree) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The root's children that no simulation reached yet: (moves, priors, first values)."""
    first, n = int(tree.first[0]), int(tree.nchild[0])
    sl = slice(first, first + n)
    fresh = tree.visits[sl] == 0
    prior = (tree.prior[sl] * tree.value_count[sl])[fresh]
    return tree.move[sl][fresh], prior, tree.value[sl][fresh]


def test_prior_all_scales_the_kept_moves_by_the_gammas_of_all_moves_as_pentobi() -> None:
    """Two-player's first move prunes the moves far from the centre.  Pentobi still sums and maximises the gammas
    over all moves: the kept children's priors then sum to less than 1, by one factor for every child, and their first
    values fall by one factor too (``root_val * sqrt(gamma / max gamma)``); without the knob the priors sum to 1."""
    state = BlokusState("two-player")
    default = searched_tree({}, state, 1)
    pentobi = searched_tree({"prior_all": 1.0}, state, 1)
    moves_d, prior_d, value_d = root_priors_and_values(default)
    moves_p, prior_p, value_p = root_priors_and_values(pentobi)
    assert np.array_equal(moves_d, moves_p) and len(moves_d) >= 2
    n = int(default.nchild[0])
    first = int(default.first[0])
    assert float(np.sum(default.prior[first:first + n] * default.value_count[first:first + n])) == pytest.approx(1.0)
    share = prior_p / prior_d
    assert np.allclose(share, share[0]) and 0.0 < share[0] < 0.99
    scale = value_p / value_d
    assert np.allclose(scale, scale[0]) and 0.0 < scale[0] <= 1.0


def test_prior_all_changes_nothing_in_duo_where_nothing_is_pruned() -> None:
    state = random_position("duo", 4, 2)
    assert same_tree(searched_tree({}, state, 300), searched_tree({"prior_all": 1.0}, state, 300))


def test_a_pruned_copy_keeps_the_children_of_the_nodes_with_enough_visits_only() -> None:
    """Pentobi's pruning: below the root, a node keeps its children (with their values) only with at least
    ``min_visits`` real visits; the others become unexpanded, and every kept node is the source's."""
    from solvers.blokus.mcts.tree import copy_subtree, new_tree

    state = random_position("duo", 6, 3)
    src = searched_tree({}, state, 3000)
    dst = new_tree(int(src.size[0]))
    kept = int(copy_subtree(src, 0, dst, 8))
    assert 1 + int(src.nchild[0]) < kept < int(src.size[0])
    stack = [(0, 0)]  # (source node, copied node)
    seen = 0
    while stack:
        s, d = stack.pop()
        seen += 1
        for field in ("move", "visits", "value", "value_count", "prior"):
            assert getattr(dst, field)[d] == getattr(src, field)[s]
        expanded = src.nchild[s] > 0 and (s == 0 or src.visits[s] >= 8)
        assert (dst.nchild[d] == src.nchild[s]) if expanded else (dst.nchild[d] == -1 and dst.first[d] == -1)
        if expanded:
            stack += [(int(src.first[s]) + j, int(dst.first[d]) + j) for j in range(int(src.nchild[s]))]
    assert seen == kept


def test_prune_lets_a_full_tree_expand_again_and_the_search_stays_deterministic() -> None:
    """With a small cap the tree fills: with ``prune=0`` the search goes on without expanding; by default the tree is
    pruned (as Pentobi's) and expands again; both run every iteration, and pruning gives the same search twice."""
    state = random_position("duo", 4, 2)

    def search(knobs: dict[str, float]) -> tuple[np.ndarray, FastMCTSBot]:
        bot = FastMCTSBot(iterations=3000, reuse=False, capacity=6000, knobs=knobs)
        visits = bot.search(state, seed=5)[1]
        assert bot.last_iterations == 3000 and visits.sum() == 3000
        return visits, bot

    _, plain = search({"prune": 0.0})
    plain_work = plain._setup(state)[1][0]
    assert plain_work.spare is None and int(plain_work.tree.size[0]) > 5000  # full, never pruned
    first, bot = search({})
    work = bot._setup(state)[1][0]
    assert work.spare is not None and int(work.tree.size[0]) <= 6000  # pruned at least once
    again, _ = search({"prune": 1.0})
    assert np.array_equal(first, again)


def test_tree_log2_caps_the_tree_which_is_then_pruned_and_rejects_other_sizes() -> None:
    """``tree_log2=12``: the tree never holds more than 2^12 nodes, it is pruned when full and the search runs its
    whole budget; sizes outside 12..23 or not whole are refused with a one-line error."""
    state = random_position("duo", 4, 2)
    bot = FastMCTSBot(iterations=3000, reuse=False, knobs={"tree_log2": 12.0})
    assert bot.capacity == 1 << 12
    visits = bot.search(state, seed=5)[1]
    work = bot._setup(state)[1][0]
    assert bot.last_iterations == 3000 and visits.sum() == 3000
    assert work.capacity == 1 << 12 and work.spare is not None and int(work.tree.size[0]) <= 1 << 12
    for bad in (11.0, 24.0, 12.5):
        with pytest.raises(ValueError, match="tree_log2 must be a whole number from 12 to 23"):
            FastMCTSBot(iterations=10, knobs={"tree_log2": bad})


@pytest.mark.parametrize("variant", ["duo", "classic"])
def test_fitted_priors_multiply_each_moves_gamma_by_its_piece_at_the_stage(variant: str) -> None:
    """``compute_gammas``' piece factor: with the fitted table each kept move's gamma is the base gamma (ones) times
    the factor of its piece in the row of the pieces on the board, and the table's rows follow the fit's ``STAGES``."""
    from solvers.blokus.mcts.driver import FITTED_PRIORS, Params, fitted_gammas, pieces_on_board, recent_placements
    from solvers.blokus.mcts.priors import compute_gammas, filter_considered

    fitted = FITTED_PRIORS[variant]
    gammas, pieces = fitted_gammas(variant)
    assert pieces.shape == (fitted.STAGES[-1] + 1, 21)
    assert np.allclose(np.log(pieces[fitted.STAGES[0] - 1]), fitted.LOG_PIECE_GAMMAS[0])
    assert np.allclose(np.log(pieces[fitted.STAGES[0]]), fitted.LOG_PIECE_GAMMAS[1])
    assert np.allclose(np.log(pieces[-1]), fitted.LOG_PIECE_GAMMAS[2])
    for plies in (2, 12, 50):
        state = random_position(variant, plies, 3)
        params, t, c = Params(state), state.tables, state.to_move
        nonboard = pieces_on_board(state)
        moves = state.legal_placements(c).astype(np.int32)
        n = filter_considered(moves, len(moves), t.pl_piece, params.consider, nonboard)
        out = []
        for table in (np.ones((1, 21)), pieces):
            gam, keep = np.zeros(n), np.zeros(n, dtype=np.int32)
            compute_gammas(c, moves, n, state.ktables, state.arrays, state.owner, recent_placements(state), nonboard,
                           gammas, params.second, params.dist, params.check_dist_pieces, params.connect_pieces,
                           params.width, gam, keep, np.zeros((5, max(n, t.area))), table)
            out.append(gam)
        row = pieces[min(nonboard, len(pieces) - 1)]
        assert np.allclose(out[1], out[0] * row[t.pl_piece[moves[:n]]], rtol=1e-12)


def test_fitted_priors_change_duo_and_classic_searches_are_duos_default_and_keep_them_deterministic() -> None:
    duo = random_position("duo", 6, 4)
    pentobis = searched_tree({"fitted_priors": 0.0}, duo, 400)
    fitted_tree = searched_tree({"fitted_priors": 1.0}, duo, 400)
    assert not same_tree(pentobis, fitted_tree)
    assert same_tree(fitted_tree, searched_tree({"fitted_priors": 1.0}, duo, 400))
    assert same_tree(fitted_tree, searched_tree({}, duo, 400))  # on by default in Duo
    classic = random_position("classic", 8, 4)  # a fit of its own, not the default
    assert not same_tree(searched_tree({"fitted_priors": 1.0}, classic, 300), searched_tree({}, classic, 300))
    assert same_tree(searched_tree({}, classic, 300), searched_tree({"fitted_priors": 0.0}, classic, 300))
    two = random_position("two-player", 8, 4)  # no fit: Pentobi's priors whatever the knob says
    assert same_tree(searched_tree({}, two, 300), searched_tree({"fitted_priors": 1.0}, two, 300))
