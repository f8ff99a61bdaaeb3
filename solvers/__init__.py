"""How to SOLVE the games: exact cover, SAT, CP-SAT models, search, bots, playout runners.

Importing it first points numba's on-disk cache at a directory keyed by the sources of every
compiled module (:mod:`puzzles.numba_cache`), before any kernel is compiled.
"""

from puzzles.numba_cache import use_source_keyed_cache

use_source_keyed_cache()
