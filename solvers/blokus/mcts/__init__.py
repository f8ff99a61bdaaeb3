"""mcts-rave: a strong Blokus MCTS whose whole search runs in numba, after Pentobi's ``libpentobi_mcts``.

One module per concern, as Pentobi splits its search (the rules are ``docs/rules/blokus.md``):

* :mod:`.priors` (``PriorKnowledge``): the learnt move features that weigh new children, and
  the pruning of early moves;
* :mod:`.playout` (``State``): the weighted playout policy, the result of a finished game and
  the log of a simulation's moves for RAVE;
* :mod:`.lists`: the legal-move lists kept at expanded nodes, from which expansions and
  playouts start;
* :mod:`.tree` (``Search``): the tree arrays and the search loop (selection, expansion with
  priors, playout, backup with RAVE), and re-rooting for tree reuse;
* :mod:`.driver`: the bot (:class:`FastMCTSBot`), its budget, and the preallocated arrays.

The compiled functions of these modules call and inline each other and the kernels of
:mod:`puzzles.blokus.kernel`; numba's cache is keyed by all their sources
(:mod:`puzzles.numba_cache`), so an edit in any of them recompiles the search.

Deterministic: a search is a function of the position, the seed drawn from the ``rng`` given
to ``choose`` and the iteration budget (a CPU-seconds budget stops between chunks of
iterations, so it is not).
"""

from solvers.blokus.mcts.driver import FastMCTSBot, Params, fast_mcts_bot
from solvers.blokus.mcts.priors import compute_gammas, considered_pieces, gamma_table

__all__ = ["FastMCTSBot", "Params", "compute_gammas", "considered_pieces", "fast_mcts_bot", "gamma_table"]
