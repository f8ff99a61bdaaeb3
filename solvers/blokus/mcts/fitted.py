"""mcts-rave's fitted Duo priors (knob ``fitted_priors=1``): the log-gammas of :mod:`.priors` refitted, and a weight per
piece and stage of the game, by maximum likelihood on the recorded moves of Duo matches against Pentobi levels 7 to 9
(both sides; written by ``python bench/blokus_prior_fit.py bench/results/blokus_duo_l[789]*.json --pieces --module
solvers/blokus/mcts/fitted.py``: 16,562 positions fitted, 16,073 held out).
Natural logs: a move's gamma is ``exp`` of the sum of its features' weights."""

#: The 23 log-gammas in :mod:`.priors`' layout (Pentobi's are ``w / 0.84`` of ``priors._DUO``).
LOG_GAMMAS = (0.4684, 1.5459, 0.0000, 0.0000, 0.3309, 0.3284, -1.2512, -0.6204, 0.0005, -0.3675, 0.0000, 0.1988, -0.2945, -0.1377, 0.3759, 0.6056, 0.8773, 0.0000, 0.3533, -0.2644, -1.1060, -0.4556, 1.4572)
#: Pieces on the board before which each later row of :data:`LOG_PIECE_GAMMAS` applies.
STAGES = (8, 20)
#: The log-weight of each piece (``tables.PIECE_NAMES`` order), one row per stage.
LOG_PIECE_GAMMAS = (
    (0.0000, 0.0000, -0.4140, -1.1959, -0.2097, -0.5258, -1.1183, -1.2009, -0.7328, 0.5392, 2.0873, 0.9778, 1.1588, -1.2650, 0.6137, -0.1458, 0.6005, -0.1865, 0.3664, 0.0170, 0.6338),
    (0.4323, 0.5287, 0.7470, -0.1440, 0.6009, 0.0337, 0.0021, -0.0965, 0.2640, -0.5523, 0.3712, -0.0340, -0.0984, -1.1837, 0.1689, -0.4823, 0.1678, -0.3234, 0.0017, -0.6465, 0.2428),
    (-0.4718, -0.3145, 0.3994, 0.5075, 0.3945, 0.6069, 0.6019, 0.4862, 0.7298, -0.3029, -0.3971, -0.0800, -0.0729, -0.8522, 0.1119, -0.4298, -0.3239, -0.2936, 0.0533, -0.4099, 0.0573),
)
