"""Search for a real classic game that ends with the worked scoring example of ``docs/rules/blokus.md``.

Blue places all 21 pieces with the monomino last (+20); yellow ends stuck with two
tetrominoes (-8); red with a tromino, four tetrominoes and a pentomino (-24); green
with a tromino, three tetrominoes and a pentomino (-20).  Depth-first search with
randomised restarts: blue plays greedily (monomino held back), the others place only the
pieces they are allowed to; a line fails when a color could only place a piece it must keep.
The game found is written as SGF (tests/data/scoring_example.blksgf by default).

    python bench/blokus_find_scoring_example.py [--attempts N] [--out FILE]
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from puzzles.blokus.engine import BlokusState
from puzzles.blokus.records import to_sgf
from puzzles.blokus.tables import MONOMINO, PASS, PIECE_NAMES
from solvers.blokus.bots import _greedy_keys

CATEGORY = {name: size for name, size in zip(PIECE_NAMES, (1, 2, 3, 3, 4, 4, 4, 4, 4) + (5,) * 12)}
#: pieces each color may place, per size (the worked example): yellow keeps two tetrominoes, red a
#: tromino, four tetrominoes and a pentomino, green a tromino, three tetrominoes and a pentomino
QUOTA = {
    1: {1: 1, 2: 1, 3: 2, 4: 3, 5: 12},
    2: {1: 1, 2: 1, 3: 1, 4: 1, 5: 11},
    3: {1: 1, 2: 1, 3: 1, 4: 2, 5: 11},
}
TARGET = [20, -8, -24, -20]


class Search:
    """Depth-first search with randomised move ordering and a node budget per restart."""

    def __init__(self, rng: random.Random, budget: int, width: int) -> None:
        self.rng, self.budget, self.width = rng, budget, width
        self.nodes = 0
        self.state = BlokusState("classic")

    def candidates(self) -> list[int] | None:
        """Moves worth trying for the color to move, best first; None = this line is lost."""
        s, t, rng = self.state, self.state.tables, self.rng
        c = s.to_move
        found = s.legal_placements()
        if len(found) == 0:
            if c == 0:
                return None
            placed = [PIECE_NAMES[p] for p in range(21) if not s.arrays.left[c, p]]
            used = {k: sum(1 for p in placed if CATEGORY[p] == k) for k in range(1, 6)}
            return [-1] if used == QUOTA[c] else None
        if c == 0:
            if int(s.arrays.placed[0]) < 20:
                found = found[t.pl_piece[found] != MONOMINO]
            if len(found) == 0:
                return None
            keys = np.zeros(len(found), dtype=np.int64)
            _greedy_keys(0, found, s.ktables, s.arrays, keys)
            keys = keys * 8 + np.array([rng.randrange(8) for _ in found])
            order = np.argsort(-keys)[: self.width]
            return [int(found[i]) for i in order]
        placed = [PIECE_NAMES[p] for p in range(21) if not s.arrays.left[c, p]]
        used = {k: sum(1 for p in placed if CATEGORY[p] == k) for k in range(1, 6)}
        sizes = t.pl_size[found]
        ok = np.array([used[int(k)] < QUOTA[c][int(k)] for k in sizes])
        found = found[ok]
        if len(found) == 0:
            return None  # it could only place a piece it has to keep
        keys = np.zeros(len(found), dtype=np.int64)
        _greedy_keys(c, found, s.ktables, s.arrays, keys)
        # big pieces first, then few new corners (stay compact, get stuck), randomised
        keys = -(keys // 1000) * 1000 + (keys % 1000) + np.array([rng.randrange(6) for _ in found])
        order = np.argsort(keys)[: self.width]
        return [int(found[i]) for i in order]

    def run(self) -> bool:
        s = self.state
        if s.is_terminal():
            return s.color_scores() == TARGET
        self.nodes += 1
        if self.nodes > self.budget:
            return False
        options = self.candidates()
        if options is None:
            return False
        for m in options:
            s._apply_unchecked(PASS if m < 0 else s.tables.moves[m])
            if self.run():
                return True
            s.undo()
            if self.nodes > self.budget:
                return False
        return False


def attempt(rng: random.Random, budget: int = 3000, width: int = 3) -> BlokusState | None:
    search = Search(rng, budget, width)
    return search.state if search.run() else None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--attempts", type=int, default=200000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="tests/data/scoring_example.blksgf")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    start = time.time()
    for i in range(args.attempts):
        s = attempt(rng)
        if s is not None:
            with open(args.out, "w") as f:
                f.write(to_sgf(s, date="2026-11-30"))
            print(f"found after {i + 1} attempts, {time.time() - start:.0f} s: {s.color_scores()} -> {args.out}")
            return
        if (i + 1) % 20 == 0:
            print(f"{i + 1} attempts, {time.time() - start:.0f} s", flush=True)
    print("not found")


if __name__ == "__main__":
    main()
