"""How Pentobi spends a level's simulation count: a self-play game over GTP, move by move, from its search log.

For each move: the count the level allows (``MaxCnt``, which counts the visits a reused subtree brings), the root's
visits at the end, the simulations this search ran (``Sim``), its CPU seconds and why it stopped ("Move will not
change": the early stop; "Maximum count reached").  Then the totals: how many searches the early stop ended and the
simulations and CPU of the whole game.  This is what kibitz's ``pentobi_counts`` and ``early_stop`` /
``pentobi_stop`` knobs copy.

    python bench/pentobi_search_log.py --variant duo --level 7
"""

from __future__ import annotations

import argparse
import re
import subprocess

from puzzles.blokus.engine import BlokusState
from puzzles.blokus.tables import NUM_PIECES
from solvers.blokus.gtp import PENTOBI_GAME_OF, gtp_colors


def search_log(binary: str, variant: str, level: int) -> tuple[list[str], str]:
    """The GTP answers and the log of one self-play game: every colour asked in turn, once per piece it has."""
    colors = gtp_colors(BlokusState(variant))
    asks = NUM_PIECES * len(colors)  # no game has more moves; a colour that cannot move answers pass
    script = "".join(f"cputime\ngenmove {colors[i % len(colors)]}\n" for i in range(asks)) + "cputime\nquit\n"
    run = subprocess.run([binary, "--game", PENTOBI_GAME_OF[variant], "--level", str(level), "--nobook", "--noresign"],
                         input=script, capture_output=True, text=True, check=True)
    answers = [block.strip()[1:].strip() for block in run.stdout.split("\n\n") if block.strip().startswith("=")]
    return answers, run.stderr


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pentobi", default="/tmp/pentobi/build/pentobi_gtp/pentobi-gtp")
    parser.add_argument("--variant", default="duo", choices=sorted(PENTOBI_GAME_OF))
    parser.add_argument("--level", type=int, default=7)
    args = parser.parse_args()
    answers, log = search_log(args.pentobi, args.variant, args.level)
    times = [float(a) for a in answers[0::2]]
    moves = answers[1::2]
    searches = log.split("MaxCnt ")[1:]  # one block per search (a pass asks no search)
    played = [i for i, move in enumerate(moves) if move != "pass"]
    print("| move | max count | root visits | simulations | CPU s | stop |")
    print("|---|---|---|---|---|---|")
    total_sims = stopped = 0
    for k, block in enumerate(searches):
        i = played[k]
        max_count = int(block.split()[0])
        visits, sims = (int(found.group(1)) if (found := re.search(pattern, block)) else 0
                        for pattern in (r"Vst (\d+)", r"\bSim (\d+)"))  # none when the root had one child
        early = "Move will not change" in block
        stop = "early" if early else "count" if "Maximum count" in block else "no search (one move)"
        stopped += early
        total_sims += sims
        print(f"| {k + 1} | {max_count:,} | {visits:,} | {sims:,} | {times[i + 1] - times[i]:.2f} | {stop} |")
    cpu = times[-1] - times[0]
    print(f"\n{len(searches)} searches; the early stop ended {stopped}; {total_sims:,} simulations in {cpu:.1f} CPU s "
          f"({total_sims / cpu:,.0f} a CPU second)")


if __name__ == "__main__":
    main()
