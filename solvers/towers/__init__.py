"""How to solve towers: its bots and searches over puzzles.towers."""
