"""mcts-rave's fitted Classic priors (knob ``fitted_priors=1``): the log-gammas of :mod:`.priors` refitted, and a weight per
piece and stage of the game, by maximum likelihood on the recorded moves of Classic matches against Pentobi level 7
(both sides; written by ``python bench/blokus_prior_fit.py bench/results/blokus_classic_l7*.json --variant classic --pieces --module
solvers/blokus/mcts/fitted_classic.py``: 8,566 positions fitted, 8,591 held out).
Natural logs: a move's gamma is ``exp`` of the sum of its features' weights."""

#: The 23 log-gammas in :mod:`.priors`' layout (Pentobi's are ``w / 0.84`` of ``priors._CLASSIC``).
LOG_GAMMAS = (0.5736, 1.2711, -0.2952, 0.7333, 0.3271, 0.2661, -1.0117, -0.5080, -0.1246, -0.3587, -0.0131, 0.3560, -0.2707, 0.0094, 0.4550, 0.5890, 0.4822, 0.0000, 0.4288, -0.3618, -0.9809, -0.5053, 1.4026)
#: Pieces on the board before which each later row of :data:`LOG_PIECE_GAMMAS` applies.
STAGES = (16, 40)
#: The log-weight of each piece (``tables.PIECE_NAMES`` order), one row per stage.
LOG_PIECE_GAMMAS = (
    (0.0000, 0.0000, 0.0000, 0.0000, -0.3972, -0.4031, -1.3774, -1.0597, -0.9584, -0.4584, 2.0080, 0.6032, -0.2722, -0.7476, 0.2878, 0.2219, 1.8526, 0.4567, 0.1355, -0.2870, 0.3952),
    (0.5437, 0.1785, -0.1379, -0.2052, 0.6351, 0.1328, -0.2719, -0.2830, 0.2237, -0.8529, 1.6426, 0.2376, -0.1531, -1.4292, 0.2012, -0.5932, 0.2821, -0.3194, 0.5278, -0.5162, 0.1570),
    (-0.6815, -0.1641, 0.3044, 0.0601, 0.9046, 0.8680, 0.6124, 0.2541, 0.9731, -0.6014, 0.3796, -0.3089, -0.2437, -1.2059, -0.0704, -0.4870, -0.1713, -0.2092, 0.5719, -0.8025, 0.0179),
)
