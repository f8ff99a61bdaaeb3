"""MCTS simulations per CPU second: kibitz's mcts-rave against Pentobi's search, at the same positions.

Positions: Classic (4 colours) after 0, 24, 48 placements and Duo after 0, 12, 24 placements of a
seeded random game with bigger pieces likelier (the same position is loaded into Pentobi with ``loadsgf``).  kibitz:
``--repeat`` fresh searches (after a warm-up search that compiles the kernels) of as many iterations as
Pentobi ran simulations at that position (the same search size: per-simulation costs grow with the
tree; ``--iterations`` when Pentobi is not there or ran fewer), simulations / ``time.process_time``, the
median of the searches (the machine is shared and noisy).  Pentobi: ``reg_genmove`` at ``--level`` with subtree reuse off;
its simulation count is read from its log ("Sim N"), its CPU time from ``cputime`` before and after
(Pentobi counts CPU time in 10 ms clock ticks: the default level 7 searches long enough for that).

    python bench/blokus_mcts_speed.py --pentobi /tmp/pentobi/build/pentobi_gtp/pentobi-gtp
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import tempfile
from pathlib import Path

from puzzles.blokus.engine import BlokusState
from puzzles.blokus.records import to_sgf
from solvers.blokus.gtp import PENTOBI_GAME_OF, gtp_colors
from solvers.blokus.mcts import FastMCTSBot
from solvers.blokus.tune import parse_knobs

POSITIONS = [("classic", 0), ("classic", 24), ("classic", 48), ("duo", 0), ("duo", 12), ("duo", 24)]


def position(variant: str, plies: int, seed: int) -> BlokusState:
    """The position after ``plies`` placements of a seeded random game, bigger pieces likelier (size**3)."""
    rng = random.Random(seed)
    state = BlokusState(variant)
    placed = 0
    while placed < plies and not state.is_terminal():
        moves = state.legal_actions()
        move = rng.choices(moves, weights=[max(m.size, 1) ** 3 for m in moves])[0]
        state.apply(move)
        placed += 0 if move.is_pass else 1
    while state.to_move >= 0 and state.legal_actions()[0].is_pass:
        state.apply(state.legal_actions()[0])
    return state


def kibitz_rate(state: BlokusState, iterations: int, repeat: int, knobs: str = "") -> tuple[int, float]:
    """(iterations, CPU seconds) of the median-rate search among ``repeat`` fresh searches (search constants
    ``knobs``, ``name=value,...``)."""
    bot = FastMCTSBot(iterations=iterations, knobs=parse_knobs(knobs))
    bot.search(state, 1)  # compile / warm up
    runs = []
    for r in range(repeat):
        bot.reset()
        bot.search(state, 2 + r)
        runs.append((bot.last_iterations / max(bot.last_seconds, 1e-9), bot.last_iterations, bot.last_seconds))
    runs.sort()
    _, sims, seconds = runs[len(runs) // 2]
    return sims, seconds


def pentobi_rate(binary: str, state: BlokusState, level: int) -> tuple[int, float]:
    with tempfile.TemporaryDirectory() as tmp:
        sgf = os.path.join(tmp, "p.blksgf")
        with open(sgf, "w") as handle:
            handle.write(to_sgf(state))
        log = os.path.join(tmp, "log.txt")
        color = gtp_colors(state)[state.to_move]
        script = f"param reuse_subtree 0\nloadsgf {sgf}\ncputime\nreg_genmove {color}\ncputime\nquit\n"
        with open(log, "w") as err:
            out = subprocess.run([binary, "--game", PENTOBI_GAME_OF[state.variant.name], "--level", str(level), "--nobook"],
                                 input=script, capture_output=False, stdout=subprocess.PIPE, stderr=err, text=True,
                                 check=True).stdout
        answers = [block.strip() for block in out.split("\n\n") if block.strip()]
        times = [float(a[1:].strip()) for a in answers if re.fullmatch(r"=\s*[0-9.]+", a)]
        sims = [int(x) for x in re.findall(r"\bSim (\d+)", Path(log).read_text())]
        return (sims[-1] if sims else 0), (times[-1] - times[0] if len(times) >= 2 else float("nan"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pentobi", default="/tmp/pentobi/build/pentobi_gtp/pentobi-gtp")
    parser.add_argument("--iterations", type=int, default=5000, help="kibitz iterations at least (default 5000)")
    parser.add_argument("--repeat", type=int, default=3, help="kibitz searches per position (median reported)")
    parser.add_argument("--level", type=int, default=7)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--runs", type=int, default=1, help="whole tables in a row (then the range of each ratio)")
    parser.add_argument("--knobs", default="", help="kibitz's search constants, e.g. lgr=1,quality_bonus=1")
    parser.add_argument("--only", default="", help="positions to run, e.g. duo:12,classic:0 (default: all six)")
    args = parser.parse_args()
    wanted = [(v, int(p)) for v, p in (spec.split(":") for spec in args.only.split(",") if spec)] or POSITIONS
    ratios: dict[tuple[str, int], list[float]] = {pos: [] for pos in wanted}
    for _ in range(args.runs):
        print("| position | kibitz sims | kibitz CPU s | kibitz sims/CPU-s | Pentobi sims | Pentobi CPU s | Pentobi sims/CPU-s | ratio |")
        print("|---|---|---|---|---|---|---|---|")
        for variant, plies in wanted:
            state = position(variant, plies, args.seed)
            ps, pt = pentobi_rate(args.pentobi, state, args.level) if os.path.exists(args.pentobi) else (0, float("nan"))
            ks, kt = kibitz_rate(state, max(args.iterations, ps), args.repeat, args.knobs)
            kr = ks / kt if kt > 0 else float("nan")
            pr = ps / pt if pt > 0 else float("nan")
            ratios[(variant, plies)].append(kr / pr)
            print(f"| {variant} ply {plies} | {ks} | {kt:.3f} | {kr:,.0f} | {ps} | {pt:.3f} | {pr:,.0f} | {kr / pr:.2f} |",
                  flush=True)
    if args.runs > 1:
        print(f"\nratio over {args.runs} runs (min-median-max):")
        for (variant, plies), values in ratios.items():
            values.sort()
            print(f"  {variant} ply {plies}: {values[0]:.2f}-{values[len(values) // 2]:.2f}-{values[-1]:.2f}")


if __name__ == "__main__":
    main()
