"""Search for a real classic game that ends with the rules digest's worked scoring example.

Blue places all 21 pieces with the monomino last (+20); yellow ends stuck with two
tetrominoes (-8); red with a tromino, four tetrominoes and a pentomino (-24); green
with a tromino, three tetrominoes and a pentomino (-20).  Randomised restarts:
blue plays greedily (monomino held back), the others place only the pieces they
are allowed to and fail the attempt when forced to play a piece they must keep.
The game found is written as SGF (tests/data/scoring_example.blksgf by default).

    /work/venv/bin/python bench/blokus_find_scoring_example.py [--attempts N] [--out FILE]
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from puzzles.blokus.engine import BlokusState
from puzzles.blokus.records import to_sgf
from puzzles.blokus.tables import MONOMINO, PIECE_NAMES
from solvers.blokus_bots import _greedy_keys

TROMINOES, TETROMINOES = ["I3", "V3"], ["I4", "O4", "T4", "L4", "Z4"]
PENTOMINOES = ["F", "I5", "L5", "N", "P", "T5", "U", "V5", "W", "X", "Y", "Z5"]


def attempt(rng: random.Random) -> BlokusState | None:
    keep = {
        1: set(rng.sample(TETROMINOES, 2)),
        2: {rng.choice(TROMINOES), *rng.sample(TETROMINOES, 4), rng.choice(PENTOMINOES)},
        3: {rng.choice(TROMINOES), *rng.sample(TETROMINOES, 3), rng.choice(PENTOMINOES)},
    }
    hug = rng.random()
    s = BlokusState("classic")
    t = s.tables
    while not s.is_terminal():
        c = s.to_move
        found = s.legal_placements()
        if len(found) == 0:
            if c == 0:
                return None
            s.apply(s.legal_actions()[0])
            continue
        pieces = t.pl_piece[found]
        if c == 0:
            if int(s.arrays[7][0]) < 20:
                found = found[pieces != MONOMINO]
                if len(found) == 0:
                    return None
            keys = np.zeros(len(found), dtype=np.int64)
            _greedy_keys(0, found, s.ktables, s.arrays, keys)
            keys = keys + np.array([rng.randrange(3) for _ in found])
            m = int(found[int(np.argmax(keys))])
        else:
            ok = np.array([PIECE_NAMES[p] not in keep[c] for p in pieces])
            found = found[ok]
            if len(found) == 0:
                return None  # would have to place a piece it must keep
            sizes = t.pl_size[found]
            big = found[sizes == sizes.max()]
            if rng.random() < hug:
                # fewest new corners: stay compact so the color gets stuck
                keys = np.zeros(len(big), dtype=np.int64)
                _greedy_keys(c, big, s.ktables, s.arrays, keys)
                low = big[keys == keys.min()]
                m = int(low[rng.randrange(len(low))])
            else:
                m = int(big[rng.randrange(len(big))])
        s.apply(t.moves[m])
    return s if s.color_scores() == [20, -8, -24, -20] else None


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
        if (i + 1) % 500 == 0:
            print(f"{i + 1} attempts, {time.time() - start:.0f} s", flush=True)
    print("not found")


if __name__ == "__main__":
    main()
