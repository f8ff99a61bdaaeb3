"""Memory: RSS with the precomputed tables and a game state; peak RSS of a 10,000-iteration MCTS search.

    python bench/blokus_memory.py [--iterations N]
"""

from __future__ import annotations

import argparse
import random
import resource
import time


def rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=10_000)
    args = parser.parse_args()
    base = rss_mb()
    from puzzles.blokus import BlokusState, board_tables

    imported = rss_mb()
    state = BlokusState()
    state.legal_actions()
    tables = board_tables(20)
    print(f"RSS: interpreter {base:.0f} MB, after imports {imported:.0f} MB, tables + state {rss_mb():.0f} MB "
          f"(numpy tables {tables.nbytes() / 2**20:.1f} MB)")
    from solvers.bots import make_bot

    bot = make_bot("blokus", f"mcts:{args.iterations}")
    rng = random.Random(0)
    for _ in range(8):  # a few opening moves
        state.apply(rng.choice(state.legal_actions()))
    t0 = time.perf_counter()
    bot.choose(state, rng)
    dt = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"MCTS {args.iterations} iterations in {dt:.1f} s ({args.iterations / dt:,.0f}/s): "
          f"RSS now {rss_mb():.0f} MB, peak {peak:.0f} MB")


if __name__ == "__main__":
    main()
