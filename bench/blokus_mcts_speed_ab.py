"""Simulations per CPU second of mcts-rave in two checkouts, interleaved: did a change make the search faster?

Each run is a fresh process per checkout and position (``PYTHONPATH`` set to the checkout, so it imports that
code; its numba cache is its own): the speed bench's :func:`blokus_mcts_speed.kibitz_rate` there (a warm-up
search, then five fresh searches of ``ITERATIONS`` iterations, the median rate).  The checkouts alternate run by run (A B, then B A, ...), and the table gives the median over
``--rounds`` runs with every run's figure: noise on a shared machine is a few percent, so a gain below that is none.
The positions are the speed bench's (:func:`blokus_mcts_speed.position`).

    git worktree add /tmp/before HEAD~1
    python bench/blokus_mcts_speed_ab.py /tmp/before . --rounds 3 --knobs lgr=1,quality_bonus=1
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

POSITIONS = ["duo 0 30000", "duo 4 50000", "duo 12 150000", "classic 0 8000", "classic 24 30000", "classic 48 100000"]

RUN = """
import sys
sys.path.insert(0, {bench!r})
from blokus_mcts_speed import kibitz_rate, position
sims, seconds = kibitz_rate(position({variant!r}, {plies}, 11), {iterations}, 5, {knobs!r})
print(sims / seconds)
"""


def rate(checkout: str, spec: str, knobs: str) -> float:
    """The median rate of five searches at position ``spec`` ("variant plies iterations") with ``checkout``'s code."""
    variant, plies, iterations = spec.split()
    code = RUN.format(bench=str(Path(__file__).parent), variant=variant, plies=int(plies), knobs=knobs,
                      iterations=int(iterations))
    out = subprocess.run([sys.executable, "-c", code], cwd=checkout, env={**os.environ, "PYTHONPATH": checkout},
                         capture_output=True, text=True, check=True).stdout
    return float(out.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", help="checkout A (e.g. before the change)")
    parser.add_argument("b", help="checkout B (e.g. after)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--knobs", default="", help="mcts-rave's search constants, e.g. lgr=1,quality_bonus=1")
    parser.add_argument("--only", default="", help="positions, e.g. 'duo 0 30000,classic 24 30000' (default: six)")
    args = parser.parse_args()
    positions = [p.strip() for p in args.only.split(",") if p.strip()] or POSITIONS
    sides = {"A": os.path.abspath(args.a), "B": os.path.abspath(args.b)}
    rates: dict[tuple[str, str], list[float]] = {}
    for r in range(args.rounds):
        for side in ("A", "B") if r % 2 == 0 else ("B", "A"):
            for spec in positions:
                print(f"round {r + 1}/{args.rounds}: {side} {spec} ...", file=sys.stderr, flush=True)
                rates.setdefault((spec, side), []).append(rate(sides[side], spec, args.knobs))
    print("| position (iterations) | A sims/CPU-s | B sims/CPU-s | B / A | runs A | runs B |")
    print("|---|---|---|---|---|---|")
    for spec in positions:
        a, b = statistics.median(rates[(spec, "A")]), statistics.median(rates[(spec, "B")])
        runs = [", ".join(f"{x:,.0f}" for x in sorted(rates[(spec, s)])) for s in ("A", "B")]
        print(f"| {spec} | {a:,.0f} | {b:,.0f} | {b / a:.3f} | {runs[0]} | {runs[1]} |")


if __name__ == "__main__":
    main()
