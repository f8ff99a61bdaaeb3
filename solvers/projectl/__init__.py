"""How to solve projectl: its bots and searches over puzzles.projectl."""
