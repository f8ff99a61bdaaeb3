"""mcts-rave with search threads (knob ``threads``): simulations per wall second and per CPU second, 1 against N.

Each thread searches a tree of its own with 1/N of the iterations (root parallelisation), so the CPU per
simulation should stay the same while the wall time falls by up to N on N free cores.  Positions as
``bench/blokus_mcts_speed.py`` (a seeded random game, bigger pieces likelier); each figure is the median of
``--repeat`` fresh searches of ``--iterations`` (after a warm-up search that compiles the kernels).

    python bench/blokus_mcts_threads.py --threads 2
"""

from __future__ import annotations

import argparse
import statistics
import time

from blokus_mcts_speed import position

from solvers.blokus.mcts import FastMCTSBot

POSITIONS = [("duo", 0, 20000), ("duo", 12, 60000), ("classic", 24, 10000), ("classic", 48, 60000)]


def rates(variant: str, plies: int, iterations: int, threads: int, repeat: int, seed: int) -> tuple[float, float]:
    """(simulations per wall second, per CPU second), medians over ``repeat`` fresh searches."""
    state = position(variant, plies, seed)
    bot = FastMCTSBot(iterations=iterations, knobs={"threads": threads})
    bot.search(state, 1)
    wall, cpu = [], []
    for r in range(repeat):
        bot.reset()
        w0, c0 = time.perf_counter(), time.process_time()
        bot.search(state, 2 + r)
        wall.append(bot.last_iterations / (time.perf_counter() - w0))
        cpu.append(bot.last_iterations / (time.process_time() - c0))
    return statistics.median(wall), statistics.median(cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    print("| position | iterations | 1 thread: sims/wall-s | sims/CPU-s | "
          f"{args.threads} threads: sims/wall-s | sims/CPU-s | wall speed-up |")
    print("|---|---|---|---|---|---|---|")
    for variant, plies, iterations in POSITIONS:
        w1, c1 = rates(variant, plies, iterations, 1, args.repeat, args.seed)
        wn, cn = rates(variant, plies, iterations, args.threads, args.repeat, args.seed)
        print(f"| {variant} ply {plies} | {iterations} | {w1:,.0f} | {c1:,.0f} | {wn:,.0f} | {cn:,.0f} | "
              f"{wn / w1:.2f}x |", flush=True)


if __name__ == "__main__":
    main()
