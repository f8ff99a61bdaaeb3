"""How to solve blokus: its bots and searches over puzzles.blokus."""
