"""Head-to-head of the `equilibrium` towers bot from round-6 placement, round-6 or round-5 starts, on several processes.

    nice -n 5 python bench/towers_equilibrium_h2h.py [--start placement|round6|round5] [--states 500] [--workers 2] [--minutes 25]

Each placement start (the first ``--states`` of ``bench/towers_equilibrium.py``'s, seeds from 1000) is played
four times: `equilibrium` against `pimc` and against `ismcts`, in each seat, with the same seeds as that
script's head-to-head part, so its 57 starts are the first 57 here.  Starts are dealt to ``--workers``
processes (``--start round6``: the first position of round 6, before the lines are picked and announced;
``round5``: the first of round 5, from the same seeded greedy games); the score (win 1, draw 0.5) and its 95% Wilson interval are printed per opponent, and the
table goes to ``--out`` (default bench/results/towers_equilibrium_h2h.md).  Ctrl-C or ``--minutes`` stops
with the starts finished.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from towers_equilibrium import placement_starts  # noqa: E402

from puzzles.game import CHANCE  # noqa: E402
from puzzles.towers import TowersState  # noqa: E402
from solvers.bots import make_bot  # noqa: E402
from solvers.playout import wilson_interval  # noqa: E402
from solvers.towers.bots import GreedyBot  # noqa: E402

OPPONENTS = ("pimc", "ismcts")


def play_start(item: tuple[int, TowersState]) -> dict[str, float]:
    """The equilibrium bot's total score against each opponent over the start's two seatings."""
    seed, start = item
    score = {opp: 0.0 for opp in OPPONENTS}
    for opp in OPPONENTS:
        for swap in (0, 1):
            state, rng = start.clone(), random.Random(seed * 2 + swap)
            bots = [make_bot("towers", "equilibrium"), make_bot("towers", opp)]
            if swap:
                bots.reverse()
            while not state.is_terminal():
                state.apply(bots[state.current_player()].choose(state, rng))
            score[opp] += state.returns()[swap]
    return score


def round_starts(round_index: int, count: int, first_seed: int) -> list[tuple[int, TowersState]]:
    """The first position of round ``round_index`` (0-based) in seeded greedy-vs-greedy games, from ``first_seed``."""
    out: list[tuple[int, TowersState]] = []
    seed = first_seed
    while len(out) < count:
        state, rng, bot = TowersState.new_game(seed), random.Random(seed), GreedyBot()
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            if state.round == round_index:
                out.append((seed, state.clone()))
                break
            state.apply(bot.choose(state, rng))
        seed += 1
    return out


TITLES = {"placement": "round-6 placement starts", "round6": "round-6 starts (lines not yet picked)",
          "round5": "round-5 starts"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--states", type=int, default=500)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--minutes", type=float, default=25.0)
    ap.add_argument("--start", choices=tuple(TITLES), default="placement")
    ap.add_argument("--out", default=None, help="default bench/results/towers_equilibrium_h2h[_START].md")
    args = ap.parse_args()
    out = args.out or f"bench/results/towers_equilibrium_h2h{'' if args.start == 'placement' else '_' + args.start}.md"
    started = time.perf_counter()
    starts = (placement_starts(args.states, 1000) if args.start == "placement"
              else round_starts(5 if args.start == "round6" else 4, args.states, 1000))
    total = {opp: 0.0 for opp in OPPONENTS}
    done = 0
    with mp.get_context("fork").Pool(args.workers) as pool:
        try:
            for score in pool.imap(play_start, starts):
                done += 1
                for opp in OPPONENTS:
                    total[opp] += score[opp]
                if done % 10 == 0:
                    print(f"{done}/{len(starts)} starts: " + ", ".join(
                        f"vs {opp} {total[opp] / (2 * done):.3f}" for opp in OPPONENTS), file=sys.stderr, flush=True)
                if time.perf_counter() - started > 60 * args.minutes:
                    break
        except KeyboardInterrupt:
            print("interrupted: the starts finished are counted", file=sys.stderr)
        pool.terminate()
    lines = [f"# `equilibrium` head-to-head from {TITLES[args.start]}", "",
             f"`nice -n 5 python bench/towers_equilibrium_h2h.py --start {args.start} --states {args.states} "
             f"--workers {args.workers} --minutes {args.minutes:g}`: {done} starts (greedy games from seed 1000), each "
             f"played in both seats against each opponent; {time.perf_counter() - started:.0f} s wall.", "",
             "| opponent | games | equilibrium's score | 95% Wilson interval |", "|---|---|---|---|"]
    for opp in OPPONENTS:
        games = 2 * done
        lo, hi = wilson_interval(total[opp], games)
        lines.append(f"| {opp} | {games} | {total[opp] / max(games, 1):.3f} | {lo:.3f}-{hi:.3f} |")
    text = "\n".join(lines) + "\n"
    print(text)
    Path(out).write_text(text)


if __name__ == "__main__":
    main()
