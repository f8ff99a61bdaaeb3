"""What the per-game action codecs (``puzzles/<game>/codec.py``) share: integer action ids as a 0/1 mask."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def action_mask(num_actions: int, ids: Sequence[int] | np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """A 0/1 ``int8`` mask of length ``num_actions`` with ``ids`` set (``out`` is cleared and reused when given)."""
    mask = np.zeros(num_actions, dtype=np.int8) if out is None else out
    mask[:] = 0
    if len(ids):
        mask[ids] = 1
    return mask
