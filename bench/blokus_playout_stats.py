"""Both engines' simulation statistics at the same positions: the mover's mean result, the mean margin, the length.

Pentobi logs, after each search, ``Val`` (the mean result of the player to move over the search's simulations),
``Sco`` (two seats: the mean final margin of the first colour's player) and ``Len`` (placements per simulation,
tree and playout).  kibitz's search keeps the same sums (``Workspace.root_stats`` and the quality bonus's running
statistics).  With the same priors and tree, a difference here comes from the playouts: this check found two
places where kibitz's Duo playouts were not Pentobi's (the local points and the piece weights; simulations 4
placements longer, the first player's value 0.64 against 0.73 on the empty board).

The positions are plies of recorded match games (``blokus match --json``); each is searched by Pentobi at
``--level`` (seeded, from a new tree) and by kibitz with the knobs given at the simulation count Pentobi ran.

    python bench/blokus_playout_stats.py bench/results/blokus_duo_l6_pentobiorder7280_s31.json --plies 0,2,4,8
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
from pathlib import Path

import numpy as np
from blokus_search_compare import position

from puzzles.blokus.engine import BlokusState
from solvers.blokus.gtp import PENTOBI_GAME_OF, gtp_colors
from solvers.blokus.mcts import FastMCTSBot
from solvers.blokus.tune import parse_knobs


def pentobi_stats(binary: str, level: int, state: BlokusState, seed: int) -> tuple[float, float, float, int]:
    """Pentobi's (Val, Sco, Len, Sim) for the colour to move at ``state`` (Sco: NaN with more than two seats)."""
    names = gtp_colors(state)
    commands = [f"set_random_seed {seed}"]
    commands += [f"play {names[c]} {m.text}" for c, m, _ in state.history if m.index >= 0]
    commands += [f"genmove {names[state.to_move]}", "quit"]
    run = subprocess.run([binary, "--game", PENTOBI_GAME_OF[state.variant.name], "--level", str(level), "--nobook",
                          "--noresign"], input="\n".join(commands) + "\n", capture_output=True, text=True,
                         timeout=600, check=True)
    log = run.stderr

    def last(pattern: str) -> str:
        found = re.findall(pattern, log)
        return found[-1] if found else "nan"

    return float(last(r"Val ([\d.]+)")), float(last(r"Sco ([-\d.]+)")), float(last(r"Len ([\d.]+)")), \
        int(last(r"Sim (\d+)"))


def kibitz_stats(state: BlokusState, seed: int, count: int, knobs: dict[str, float]) -> tuple[float, float, float]:
    """kibitz's (mean result of the seat to move, mean margin of the first seat, placements per simulation)."""
    bot = FastMCTSBot(iterations=count, reuse=False, knobs=knobs)
    bot.search(state, seed=seed)
    work = bot._work[(state.variant.name, state.tables.size)][0]
    sums, running = work.root_stats, work.play[-1]  # running: (count, mean, M2) per seat, then the game length
    assert sums is not None
    seat = int(state.player_of_color(state.to_move))
    margin = float(running[0, 1]) if state.num_players == 2 else float("nan")
    length = float(running[running.shape[0] - 1, 1]) - int(state.arrays.placed.sum())
    return float(sums[0, seat] / sums[1, seat]), margin, length


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("record", help="a match JSON file (blokus match --json)")
    parser.add_argument("--pentobi", default="/tmp/pentobi/build/pentobi_gtp/pentobi-gtp")
    parser.add_argument("--level", type=int, default=6)
    parser.add_argument("--knobs", default="lgr=1,quality_bonus=1")
    parser.add_argument("--plies", default="0,2,4,8")
    parser.add_argument("--games", type=int, default=3, help="positions per ply: the first N games")
    parser.add_argument("--seeds", type=int, default=2, help="searches per position and engine")
    args = parser.parse_args()
    record = json.loads(Path(args.record).read_text())
    knobs = parse_knobs(args.knobs)
    print("| ply | Pentobi Val | kibitz Val | Pentobi margin | kibitz margin | Pentobi Len | kibitz Len | simulations |")
    print("|---|---|---|---|---|---|---|---|")
    for ply in (int(p) for p in args.plies.split(",")):
        theirs, ours = [], []
        for game in record["game_list"][:args.games]:
            state = position(record["variant"], game["moves"], ply)
            if state.is_terminal():
                continue
            for seed in range(1, args.seeds + 1):
                val, sco, length, sims = pentobi_stats(args.pentobi, args.level, state, seed)
                theirs.append((val, sco, length, sims))
                ours.append(kibitz_stats(state, seed, max(sims, 100), knobs))
        t, o = np.mean(theirs, axis=0), np.mean(ours, axis=0)
        print(f"| {ply} | {t[0]:.3f} | {o[0]:.3f} | {t[1]:+.2f} | {o[1]:+.2f} | {t[2]:.2f} | {o[2]:.2f} | {t[3]:.0f} |",
              flush=True)


if __name__ == "__main__":
    main()
