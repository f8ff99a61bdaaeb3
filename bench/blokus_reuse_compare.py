"""How much of each search tree comes from the last one: kibitz's mcts-rave against Pentobi, and against itself.

A tree is reused when the opponent answers with a move the last search looked at: the visits under that reply carry
over, and a count budget (Pentobi's levels, kibitz's ``pentobi_counts``) needs fewer new simulations.  So the share of
a search's root visits that came from the last search says how well each side's search foresaw the other's replies.
This plays match games (seats alternating, as ``blokus match``) with Pentobi's log on (its ``Vst`` and ``Sim`` per
search: root visits and new simulations) and kibitz's root visits read after each search; ``--self`` plays kibitz
against a second kibitz bot instead.

    python bench/blokus_reuse_compare.py --games 4                 # kibitz (five knobs) against level 7, Duo
    python bench/blokus_reuse_compare.py --games 4 --self          # kibitz against itself
"""

from __future__ import annotations

import argparse
import random
import re
import tempfile
from pathlib import Path
from typing import Any

from blokus_search_compare import FIVE_KNOBS, TWO_SEATS

from puzzles.blokus.engine import BlokusState
from solvers.blokus.gtp import PENTOBI_GAME_OF
from solvers.blokus.match import GtpSide, LocalSide, play_match_game
from solvers.blokus.tune import knob_bot


class Recorder:
    """Wraps a kibitz bot: after each search, its new simulations and its root's visits."""

    def __init__(self, bot: Any) -> None:
        self.bot, self.searches = bot, []
        self.choose = self._choose

    def _choose(self, state: BlokusState, rng: random.Random) -> Any:
        move = self.bot.choose(state, rng)
        works = list(self.bot._work.values())
        if works and self.bot.last_iterations > 16:  # one legal move: no search
            root = int(works[0][0].tree.visits[0])
            self.searches.append((self.bot.last_iterations, root))
        return move

    def reset(self) -> None:
        self.bot.reset()


def pentobi_searches(text: str) -> list[tuple[int, int]]:
    """(new simulations, root visits) of each search in Pentobi's log."""
    return [(int(sim), int(vst)) for vst, sim in re.findall(r"Vst (\d+), Sim (\d+)", text)]


def share(searches: list[tuple[int, int]], cpu: float) -> str:
    sims = sum(s for s, _ in searches)
    root = sum(r for _, r in searches)
    return (f"{len(searches)} searches, {sims:,} new simulations, {root - sims:,} reused visits ({(root - sims) / root:.1%}"
            f" of root visits); {cpu:.1f} CPU s for its moves, {sims / cpu:,.0f} simulations a CPU second")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=TWO_SEATS, default="duo")
    parser.add_argument("--pentobi", default="/tmp/pentobi/build/pentobi_gtp/pentobi-gtp")
    parser.add_argument("--level", type=int, default=7)
    parser.add_argument("--count", type=int, default=221867, help="kibitz's budget (default: level 7's Duo count)")
    parser.add_argument("--knobs", default=FIVE_KNOBS)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=51)
    parser.add_argument("--self", dest="self_play", action="store_true", help="kibitz against a second kibitz bot")
    args = parser.parse_args()
    spec = f"mcts-rave:{args.count}"
    mine = Recorder(knob_bot(spec, args.knobs))
    a = LocalSide(spec, bot=mine)
    a.warm_up(args.variant)
    log = Path(tempfile.mkdtemp()) / "pentobi.log"
    with log.open("w") as err:
        if args.self_play:
            other = Recorder(knob_bot(spec, args.knobs))
            b: Any = LocalSide(spec, bot=other)
            b.warm_up(args.variant)
        else:
            b = GtpSide(f"{args.pentobi} --game {PENTOBI_GAME_OF[args.variant]} --level {args.level} --nobook --noresign",
                        stderr=err)
        mine.searches.clear()
        if args.self_play:
            other.searches.clear()
        cpu = [0.0, 0.0]
        for game in range(args.games):
            result = play_match_game(a, b, args.variant, game, args.seed)
            cpu[0] += sum(result.cpu_a)
            cpu[1] += sum(result.cpu_b)
            print(f"game {game}: kibitz in seat {result.seat_a + 1}, result {result.result}", flush=True)
        b.close()
    print(f"kibitz ({spec}, {args.knobs}): {share(mine.searches, cpu[0])}")
    if args.self_play:
        print(f"its opponent, the same bot: {share(other.searches, cpu[1])}")
    else:
        print(f"Pentobi level {args.level}: {share(pentobi_searches(log.read_text()), cpu[1])}")


if __name__ == "__main__":
    main()
