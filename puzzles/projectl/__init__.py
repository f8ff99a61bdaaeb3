"""Project L: puzzle cards and deck format, the rule engine (classic, revised, solo), rendering."""

from puzzles.projectl.cards import Card, default_deck, load_deck, parse_deck
from puzzles.projectl.engine import ProjectLState, new_game

__all__ = ["Card", "ProjectLState", "default_deck", "load_deck", "new_game", "parse_deck"]
