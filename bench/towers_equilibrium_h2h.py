"""Head-to-head of the `equilibrium` towers bot from round-6 placement, round-6 or round-5 starts, on several processes.

    python bench/towers_equilibrium_h2h.py [--start placement|round6|round5] [--states 500] [--workers 2] [--minutes 25]
        [--resolve] [--resolve-target 1e-4] [--no-announce] [--baseline] [--opponents pimc,ismcts] [--out FILE]

Each placement start (the first ``--states`` of ``bench/towers_equilibrium.py``'s, seeds from 1000) is played
four times: `equilibrium` against `pimc` and against `ismcts`, in each seat, with the same seeds as that
script's head-to-head part, so its 57 starts are the first 57 here.  Starts are dealt to ``--workers``
processes (``--start round6``: the first position of round 6, before the lines are picked and announced;
``round5``: the first of round 5, from the same seeded greedy games); the score (win 1, draw 0.5) and its 95% Wilson interval are printed per opponent, and the
table goes to ``--out`` (default bench/results/towers_equilibrium_h2h.md).  Ctrl-C or ``--minutes`` stops
with the starts finished.  The bot is ``EquilibriumBot(resolve=False)`` (solved once where round 6's placements
began) unless ``--resolve``: it re-solves at every round-6 placement.  Its round-6 announcements are solved
(``EquilibriumBot(announce=True)``) unless ``--no-announce`` (then ismcts's rule, as the bot first announced).  The
default bot is ``--resolve --resolve-target 1e-4``.  ``--baseline`` also plays each game with the unchanged bot
(without the solved announcement; with ``--no-announce``, solved once), same seeds: a paired comparison.  ``--opponents``
narrows the opponents.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import statistics
import sys
import time
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from towers_equilibrium import placement_starts  # noqa: E402

from puzzles.game import CHANCE  # noqa: E402
from puzzles.towers import TowersState  # noqa: E402
from solvers.bots import make_bot  # noqa: E402
from solvers.playout import wilson_interval  # noqa: E402
from solvers.towers.bots import EquilibriumBot, GreedyBot  # noqa: E402

OPPONENTS = ("pimc", "ismcts")


@dataclass
class Setup:
    """What a worker plays: the opponents, whether the bot re-solves (``resolve``), and whether the unchanged bot
    (``resolve=False``) also plays each game of the start with the same seeds (``baseline``: a paired comparison)."""

    opponents: tuple[str, ...] = OPPONENTS
    resolve: bool = False
    baseline: bool = False
    resolve_target: float = 1e-3
    announce: bool = True


def play_game(start: TowersState, bot: EquilibriumBot, opp: str, swap: int, seed: int,
              times: list[float] | None = None, announce_times: list[float] | None = None) -> float:
    """One game from ``start``: ``bot`` in seat ``swap`` against ``opp``; its return.  ``times`` gets the CPU time of
    each of ``bot``'s round-6 placement decisions after the first placement of the round, ``announce_times`` of its
    round-6 announcements."""
    state, rng = start.clone(), random.Random(seed * 2 + swap)
    bots = [bot, make_bot("towers", opp)]
    if swap:
        bots.reverse()
    while not state.is_terminal():
        mover = bots[state.current_player()]
        timed = times is not None and mover is bot and state.phase == "place" and state.step > 0
        t0 = time.process_time()
        announcing = mover is bot and state.round == 5 and state.phase == "pick" and len(state.legal_actions()) > 1
        action = mover.choose(state, rng)
        if timed:
            times.append(time.process_time() - t0)  # type: ignore[union-attr]
        if announcing and announce_times is not None:
            announce_times.append(time.process_time() - t0)
        state.apply(action)
    return state.returns()[swap]


def play_start(item: tuple[int, TowersState], setup: Setup | None = None) -> dict[str, Any]:
    """The bot's total score against each opponent over the start's two seatings (``base ``+opponent: the unchanged
    bot's, with ``setup.baseline``), ``times``: the bot's decision times after the round's first placement, and
    ``announce_times``: its round-6 announcements'."""
    seed, start = item
    setup = setup or Setup()
    score: dict[str, Any] = {}
    times: list[float] = []
    announce_times: list[float] = []
    for opp in setup.opponents:
        bot = EquilibriumBot(resolve=setup.resolve, resolve_target=setup.resolve_target, announce=setup.announce)
        score[opp] = sum(play_game(start, bot, opp, swap, seed, times, announce_times)
                         for swap in (0, 1))
        if setup.baseline:
            score["base " + opp] = sum(play_game(start, unchanged_bot(setup), opp, swap, seed) for swap in (0, 1))
    score["times"] = times
    score["announce_times"] = announce_times
    return score


def unchanged_bot(setup: Setup) -> EquilibriumBot:
    """The baseline of a paired comparison: without the solved announcement where the bot has it, else solved once."""
    if setup.announce:
        return EquilibriumBot(resolve=setup.resolve, resolve_target=setup.resolve_target, announce=False)
    return EquilibriumBot(resolve=False, announce=False)


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
    ap.add_argument("--opponents", default=",".join(OPPONENTS), help="comma-separated (default pimc,ismcts)")
    ap.add_argument("--resolve", action="store_true",
                    help="the bot re-solves at every round-6 placement (EquilibriumBot(resolve=True))")
    ap.add_argument("--resolve-target", type=float, default=1e-3,
                    help="with --resolve: the exploitability the re-solves stop at (after the round's first placement)")
    ap.add_argument("--no-announce", action="store_true",
                    help="round-6 announcements by ismcts's rule (EquilibriumBot(announce=False)), not solved")
    ap.add_argument("--baseline", action="store_true",
                    help="the unchanged bot (without the solved announcement; with --no-announce: solved once) also "
                         "plays every game, same seeds (paired comparison)")
    ap.add_argument("--out", default=None, help="default bench/results/towers_equilibrium_h2h[_START][_resolve].md")
    args = ap.parse_args()
    announce = not args.no_announce
    setup = Setup(tuple(args.opponents.split(",")), args.resolve, args.baseline and (args.resolve or announce),
                  args.resolve_target, announce)
    out = args.out or (f"bench/results/towers_equilibrium_h2h{'' if args.start == 'placement' else '_' + args.start}"
                       f"{'_resolve' if args.resolve else ''}{'_announce' if announce else ''}.md")
    started = time.perf_counter()
    starts = (placement_starts(args.states, 1000) if args.start == "placement"
              else round_starts(5 if args.start == "round6" else 4, args.states, 1000))
    names = [*setup.opponents, *(f"base {o}" for o in setup.opponents if setup.baseline)]
    total = {name: 0.0 for name in names}
    diffs: dict[str, list[float]] = {o: [] for o in setup.opponents}  # per start: bot's score minus the unchanged bot's
    times: list[float] = []
    announce_times: list[float] = []
    done = 0
    with mp.get_context("fork").Pool(args.workers) as pool:
        try:
            for score in pool.imap(partial(play_start, setup=setup), starts):
                done += 1
                for name in names:
                    total[name] += score[name]
                if setup.baseline:
                    for o in setup.opponents:
                        diffs[o].append((score[o] - score["base " + o]) / 2)
                times += score["times"]
                announce_times += score["announce_times"]
                if done % 10 == 0:
                    print(f"{done}/{len(starts)} starts: " + ", ".join(
                        f"vs {name} {total[name] / (2 * done):.3f}" for name in names), file=sys.stderr, flush=True)
                if time.perf_counter() - started > 60 * args.minutes:
                    break
        except KeyboardInterrupt:
            print("interrupted: the starts finished are counted", file=sys.stderr)
        pool.terminate()
    bot = (f"equilibrium (re-solving to {args.resolve_target:g})" if args.resolve else "equilibrium") + (
        ", solved announcement" if announce else "")
    lines = [f"# `{bot}` head-to-head from {TITLES[args.start]}", "",
             f"`python bench/towers_equilibrium_h2h.py {' '.join(sys.argv[1:])}`: {done} starts "
             f"(greedy games from seed 1000), each played in both seats against each opponent; "
             f"{time.perf_counter() - started:.0f} s wall.", "",
             "| bot | opponent | games | bot's score | 95% Wilson interval |", "|---|---|---|---|---|"]
    for name in names:
        games = 2 * done
        lo, hi = wilson_interval(total[name], games)
        who = "equilibrium (unchanged)" if name.startswith("base ") else bot
        lines.append(f"| {who} | {name.removeprefix('base ')} | {games} | {total[name] / max(games, 1):.3f} | "
                     f"{lo:.3f}-{hi:.3f} |")
    for o, d in diffs.items():
        if len(d) > 1:
            half = 1.96 * statistics.stdev(d) / len(d) ** 0.5
            lines.append(f"\nPaired by start against {o}: changed minus unchanged {statistics.mean(d):+.4f} per game "
                         f"(95% normal interval {statistics.mean(d) - half:+.4f} to {statistics.mean(d) + half:+.4f}; "
                         f"the score differs on {sum(x != 0 for x in d)} of {len(d)} starts).")
    if announce_times:
        lines.append(f"\nThe bot's round-6 announcements (cache hits included): {len(announce_times)}, CPU median "
                     f"{statistics.median(announce_times):.2f} s, max {max(announce_times):.1f} s.")
    if times:
        lines.append(f"\nThe bot's round-6 decisions after the round's first placement (cache hits included): "
                     f"{len(times)}, CPU median {1000 * statistics.median(times):.1f} ms, "
                     f"max {1000 * max(times):.0f} ms.")
    text = "\n".join(lines) + "\n"
    print(text)
    Path(out).write_text(text)


if __name__ == "__main__":
    main()
