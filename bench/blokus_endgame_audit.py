"""Where were a two-seat match's games decided?  Replays each game of `kibitz blokus match --json` files and runs
the exact endgame search from the first position it can solve; prints the proved result for side A next to the
game's result.

If they always agree, neither side threw away a won endgame, and a stronger endgame cannot change the score:
the games were decided before.  Margins: the proved one (best play from there) and the one side A reached.

Usage: python bench/blokus_endgame_audit.py [--max-placements 130] [--nodes 1500000] MATCH.json ...
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from typing import Any

from puzzles.blokus.engine import BlokusState
from puzzles.blokus.tables import PASS
from solvers.blokus.endgame import EndgameUnsolved, solve_endgame


def outcome(margin: float) -> str:
    return "win" if margin > 0 else "tie" if margin == 0 else "loss"


def first_proof(game: dict[str, Any], variant: str, most: int, nodes: int) -> tuple[int, int, int] | None:
    """(placement number counted from 1, legal placements left, proved margin for side A) at the first
    position with at most ``most`` legal placements (both seats) that the search solves in ``nodes`` nodes."""
    state = BlokusState(variant)
    for number, text in enumerate(game["moves"], start=1):
        while not state.is_terminal() and state.legal_actions() == [PASS]:
            state.apply(PASS)
        left = sum(len(state.legal_placements(c, ordered=False)) for c in range(state.num_colors))
        if left <= most:
            try:
                proof = solve_endgame(state, max_nodes=nodes)
            except EndgameUnsolved:
                pass
            else:
                sign = 1 if state.current_player() == game["seat_a"] else -1
                return number, left, sign * proof.margin
        state.apply(state.string_to_action(text))
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--max-placements", type=int, default=130)
    parser.add_argument("--nodes", type=int, default=1_500_000)
    args = parser.parse_args()
    tally: Counter[str] = Counter()
    for path in args.files:
        with open(path) as f:
            match = json.load(f)
        for game in match["game_list"]:
            reached = game["seat_scores"][game["seat_a"]] - game["seat_scores"][1 - game["seat_a"]]
            proof = first_proof(game, match["variant"], args.max_placements, args.nodes)
            if proof is None:
                print(f"{path} game {game['game'] + 1}: not solved; result {outcome(reached)}", flush=True)
                tally["not solved"] += 1
                continue
            number, left, margin = proof
            same = outcome(margin) == outcome(reached)
            tally["same result" if same else "result changed after the proof"] += 1
            print(f"{path} game {game['game'] + 1}: from placement {number} ({left} placements left) side A's "
                  f"proved margin {margin:+d} ({outcome(margin)}), reached {reached:+.0f} ({outcome(reached)})",
                  flush=True)
    print(dict(tally))


if __name__ == "__main__":
    main()
