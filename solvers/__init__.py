"""How to SOLVE the games: exact cover, SAT, CP-SAT models, search, bots, playout runners."""
