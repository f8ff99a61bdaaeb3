"""One search each, kibitz's mcts-rave and Pentobi, at the same positions: simulations and CPU at the same count.

The positions come from recorded match games (``blokus match --json`` files): each listed ply of the first
``--games`` games.  Pentobi gets each position afresh (``clear_board``, ``set_random_seed`` as the matches send it,
the moves, ``genmove``), so it searches a new tree, and its log (stderr) gives the simulations; kibitz searches the
same position with a new tree (``reset``; its arrays warmed by one search before the first), with the knobs given
and the count as its budget.  ``--order tree`` makes ``pentobi_stop`` read the root's children in the tree's order
(placement number) instead of Pentobi's (:func:`solvers.blokus.mcts.driver.pentobi_root_order`).

    python bench/blokus_search_compare.py bench/results/blokus_duo_l7_pentobistop190k_s23.json --plies 0,2,4,6,8,12

Run it on an idle machine: both engines' CPU is measured (kibitz: the search loop; Pentobi: its ``cputime``).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import tempfile
from pathlib import Path

import numpy as np

import solvers.blokus.mcts.driver as driver
from puzzles.blokus.engine import BlokusState
from puzzles.blokus.tables import PASS
from solvers.blokus.gtp import PENTOBI_GAME_OF, GtpClient, gtp_colors
from solvers.blokus.tune import knob_bot

#: Pentobi's features as kibitz's knobs (bench/blokus_vs_pentobi.sh KNOBS=...); blokus_reuse_compare.py reads it too
FIVE_KNOBS = "pentobi_counts=1,early_stop=1,lgr=1,quality_bonus=1,pentobi_stop=1"
TWO_SEATS = ("duo", "two-player")  # the variants whose Pentobi log has one search a move for the seat asked


def position(variant: str, moves: list[str], ply: int) -> BlokusState:
    """The position after ``ply`` placements of a recorded game (forced passes made as the match makes them)."""
    state = BlokusState(variant)
    for text in moves[:ply]:
        while state.legal_actions() == [PASS]:
            state.apply(PASS)
        state.apply(state.string_to_action(text))
    while state.legal_actions() == [PASS] and not state.is_terminal():
        state.apply(PASS)
    return state


def pentobi_search(client: GtpClient, log: Path, state: BlokusState, seed: int) -> tuple[int, float]:
    """(simulations, CPU seconds) of Pentobi's search for the colour to move at ``state``, from a new tree."""
    names = gtp_colors(state)
    client.send("clear_board")
    client.send(f"set_random_seed {seed}")
    for color, move, _ in state.history:
        if move.index >= 0:
            client.send(f"play {names[color]} {move.text}")
    start = log.stat().st_size
    before = float(client.send("cputime").split()[0])
    client.send(f"genmove {names[state.to_move]}")
    cpu = float(client.send("cputime").split()[0]) - before
    with log.open() as text:
        text.seek(start)
        found = re.findall(r"Sim (\d+)", text.read())
    return (int(found[-1]) if found else 0), cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="+", help="match JSON files (blokus match --json)")
    parser.add_argument("--pentobi", default="/tmp/pentobi/build/pentobi_gtp/pentobi-gtp")
    parser.add_argument("--level", type=int, default=7)
    parser.add_argument("--count", type=int, default=221867, help="kibitz's budget (default: level 7's Duo count)")
    parser.add_argument("--knobs", default=FIVE_KNOBS)
    parser.add_argument("--plies", default="0,2,4,6,8,12")
    parser.add_argument("--games", type=int, default=3, help="positions per ply: the first N games")
    parser.add_argument("--order", choices=("pentobi", "tree"), default="pentobi")
    args = parser.parse_args()
    if args.order == "tree":
        driver.pentobi_root_order = lambda state, moves: np.arange(len(moves))
    games, variant = [], None
    for name in args.records:
        data = json.loads(Path(name).read_text())
        variant = data["variant"]
        games += data["game_list"]
    assert variant in TWO_SEATS, f"a Duo or two-player record, not {variant}"
    bot = knob_bot(f"mcts-rave:{args.count}", args.knobs)
    bot.choose(BlokusState(variant), random.Random(1))  # grows the tree's arrays before the first measured search
    log = Path(tempfile.mkdtemp()) / "pentobi.log"
    with log.open("w") as err:
        client = GtpClient(f"{args.pentobi} --game {PENTOBI_GAME_OF[variant]} --level {args.level} --nobook --noresign",
                           stderr=err)
        print("| ply | game | kibitz sims | kibitz CPU s | Pentobi sims | Pentobi CPU s |\n|---|---|---|---|---|---|")
        totals = np.zeros(4)
        for ply in (int(p) for p in args.plies.split(",")):
            for game in games[:args.games]:
                state = position(variant, game["moves"], ply)
                if state.is_terminal() or len(state.legal_placements()) < 2:
                    continue
                sims, cpu = pentobi_search(client, log, state, game["seed"])
                bot.reset()
                bot.choose(state, random.Random(game["seed"]))
                row = (bot.last_iterations, bot.last_seconds, sims, cpu)
                totals += row
                print(f"| {ply} | {game['game']} | {row[0]:,} | {row[1]:.3f} | {row[2]:,} | {row[3]:.3f} |", flush=True)
        client.close()
    print(f"\nkibitz ({args.knobs}, order {args.order}): {int(totals[0]):,} simulations in {totals[1]:.1f} CPU s; "
          f"Pentobi level {args.level}: {int(totals[2]):,} in {totals[3]:.1f} CPU s; simulations {totals[0] / totals[2]:.3f}x, "
          f"CPU {totals[1] / totals[3]:.3f}x")


if __name__ == "__main__":
    main()
