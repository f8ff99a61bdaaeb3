"""Legal moves generated per second on mid-game classic Blokus positions.

Positions: plies 16..48 of seeded uniform-random games (~mid-game).  Two figures:
the raw numba generator (puzzles.blokus.kernel.gen_moves, all legal placements of
the color to move) and the Python API (BlokusState.legal_actions, with Move objects).

    python bench/blokus_movegen.py [--positions N] [--repeat R]
"""

from __future__ import annotations

import argparse
import random
import time

from puzzles.blokus import BlokusState
from puzzles.blokus import kernel as K


def positions(count: int, seed: int) -> list[BlokusState]:
    rng = random.Random(seed)
    out: list[BlokusState] = []
    while len(out) < count:
        state = BlokusState()
        while not state.is_terminal() and len(state.history) < 48:
            if len(state.history) >= 16 and len(state.history) % 8 == 0 and state.legal_actions()[0].index >= 0:
                out.append(state.clone())
            state._apply_unchecked(rng.choice(state.legal_actions()))
    return out[:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    states = positions(args.positions, args.seed)
    scratch = states[0].tables.scratch()
    total_moves = 0
    t0 = time.perf_counter()
    for _ in range(args.repeat):
        for s in states:
            scratch.stamp += 1
            total_moves += K.gen_moves_entry(s.to_move, *s.kernel_args, scratch.marker, scratch.stamp, scratch.out)
    dt = time.perf_counter() - t0
    calls = args.repeat * len(states)
    print(f"numba gen_moves: {calls} positions, {total_moves / calls:.1f} legal moves each; "
          f"{dt / calls * 1e6:.1f} us/position = {total_moves / dt / 1e6:.2f} M moves/s (incl. Python call overhead)")
    t0 = time.perf_counter()
    n = 0
    for _ in range(max(1, args.repeat // 4)):
        for s in states:
            s._legal = None
            n += len(s.legal_actions())
    dt = time.perf_counter() - t0
    calls = max(1, args.repeat // 4) * len(states)
    print(f"BlokusState.legal_actions: {dt / calls * 1e6:.1f} us/position = {n / dt / 1e6:.2f} M moves/s")


if __name__ == "__main__":
    main()
