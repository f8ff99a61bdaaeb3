"""Pentobi's and kibitz's root visit shares at the same Duo positions and the same number of simulations.

For each position (a seeded random game, bigger pieces likelier, as ``bench/blokus_mcts_speed.py``),
Pentobi searches at ``--level`` (``reg_genmove``, then ``move_values``) with several seeds; kibitz's
mcts-rave then runs as many iterations as Pentobi's first search had simulations, with several seeds and
each set of knobs given.  It prints each search's two most visited moves and their shares: how decisive
each search is and whether the two agree more than each agrees with itself.

    python bench/blokus_root_compare.py --pentobi /tmp/pentobi/build/pentobi_gtp/pentobi-gtp \
        --knobs default --knobs quality_bonus=1,lgr=1
"""

from __future__ import annotations

import argparse
import subprocess

from blokus_mcts_speed import position

from puzzles.blokus.engine import BlokusState
from solvers.blokus.gtp import gtp_colors
from solvers.blokus.mcts import FastMCTSBot
from solvers.blokus.tune import parse_knobs


def cells(text: str) -> str:
    """A move's cells, sorted (Pentobi's ``move_values`` writes ``[piece]cells``)."""
    return ",".join(sorted(text.split("]")[-1].split(",")))


def pentobi_search(binary: str, state: BlokusState, level: int, seed: int) -> tuple[int, list[tuple[str, float]]]:
    """(simulations, the two most visited moves with their visit shares) of one Pentobi search."""
    colors = gtp_colors(state)
    commands = [f"play {colors[c]} {m.text}" for c, m, _ in state.history]
    commands += [f"reg_genmove {colors[state.to_move]}", "move_values", "quit"]
    out = subprocess.run([binary, "--game", "duo", "--level", str(level), "--nobook", "--quiet", "--seed", str(seed)],
                         input="\n".join(commands) + "\n", capture_output=True, text=True, check=True).stdout
    answer = [block for block in out.split("\n\n") if block.startswith("= ") and "\n" in block.strip()][-1]
    rows = [line.split() for line in answer[2:].strip().splitlines()]
    total = sum(int(row[0]) for row in rows)
    return total, [(cells(row[3]), int(row[0]) / total) for row in rows[:2]]


def kibitz_search(state: BlokusState, iterations: int, knobs: str, seed: int) -> list[tuple[str, float]]:
    """The two most visited moves of one mcts-rave search, with their visit shares."""
    bot = FastMCTSBot(iterations=iterations, reuse=False, knobs=parse_knobs(knobs))
    moves, visits, _ = bot.search(state, seed)
    order = visits.argsort()[::-1][:2]
    return [(cells(state.tables.moves[int(moves[i])].text), float(visits[i]) / iterations) for i in order]


def shown(top: list[tuple[str, float]]) -> str:
    return "; ".join(f"{move} {share:.3f}" for move, share in top)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pentobi", default="/tmp/pentobi/build/pentobi_gtp/pentobi-gtp")
    parser.add_argument("--level", type=int, default=7)
    parser.add_argument("--positions", default="6:11,10:11,10:13", help="plies:seed of each position")
    parser.add_argument("--seeds", type=int, default=3, help="searches per program and setting")
    parser.add_argument("--knobs", action="append", default=None, help="kibitz settings (repeatable)")
    args = parser.parse_args()
    for spec in args.positions.split(","):
        plies, game_seed = (int(part) for part in spec.split(":"))
        state = position("duo", plies, game_seed)
        sims = 0
        for seed in range(1, args.seeds + 1):
            total, top = pentobi_search(args.pentobi, state, args.level, seed)
            sims = sims or total
            print(f"duo ply {plies} seed {game_seed} | Pentobi L{args.level} seed {seed} ({total} sims) | {shown(top)}",
                  flush=True)
        for knobs in args.knobs or ["default"]:
            for seed in range(1, args.seeds + 1):
                print(f"duo ply {plies} seed {game_seed} | kibitz {knobs} seed {seed} ({sims} iterations) | "
                      f"{shown(kibitz_search(state, sims, knobs, seed))}", flush=True)


if __name__ == "__main__":
    main()
