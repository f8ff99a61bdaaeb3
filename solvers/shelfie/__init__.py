"""How to solve shelfie: its bots and searches over puzzles.shelfie."""
