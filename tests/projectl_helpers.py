"""Helpers shared by the Project L tests."""

from __future__ import annotations

import random

from puzzles.projectl.engine import ProjectLState


def deck_order_shuffled(st: ProjectLState, seed: int) -> ProjectLState:
    """The same position with only the unknown part of the face-down decks in another order."""
    other = st.clone()
    rng = random.Random(seed)
    for name, known in (("white_deck", st.white_known), ("black_deck", st.black_known)):
        deck = getattr(other, name)
        top = deck[known:]
        rng.shuffle(top)
        setattr(other, name, deck[:known] + top)
    return other
