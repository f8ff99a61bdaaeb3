"""Print a Markdown table row per `kibitz blokus match --json` or `kibitz blokus tune ab --json` result file.

Usage: python bench/blokus_match_table.py bench/results/blokus_classic_l5.json ...
Match rows: variant, sides, games, score (side A's share of first place, ties split) with its Wilson 95% interval,
W-T-L, mean rank (multi-player), mean margin, CPU per move of both sides and their ratio, final_score mismatches,
and side A's score by seat.
"""

from __future__ import annotations

import json
import sys
from typing import Any


def match_row(d: dict[str, Any]) -> str:
    ratio = d["cpu_per_move_a"] / d["cpu_per_move_b"] if d["cpu_per_move_b"] else float("nan")
    seats = " / ".join(f"{r['score']:.2f}" for r in d.get("by_seat_a", []))
    rank = f"{d['mean_rank_a']:.2f}" if len(d["seat_win_rates"]) > 2 else "-"
    return (f"| {d['variant']} | {d['side_b']} | {d['side_a']} | {d['games']}/{d['games_requested']} ({d['status']}) | "
            f"**{d['score']:.3f}** [{d['win_ci95'][0]:.3f}, {d['win_ci95'][1]:.3f}] | "
            f"{d['wins']}-{d['ties']}-{d['losses']} | {rank} | {d['mean_margin_a']:+.1f} | {d['cpu_per_move_a']:.4f} s | "
            f"{d['cpu_per_move_b']:.4f} s | {ratio:.2f}x | {d['final_score_mismatches']} | {seats} |")


def ab_row(d: dict[str, Any]) -> str:
    return (f"| {d['variant']} | {d['budget']} | {d['a']} | {d['b']} | {d['games']}/{d['games_requested']} ({d['status']}) | "
            f"**{d['score']:.3f}** [{d['ci95'][0]:.3f}, {d['ci95'][1]:.3f}] | {d['wins']}-{d['ties']}-{d['losses']} | "
            f"{d['mean_margin_a']:+.1f} | {d['cpu_per_move_a']:.4f} s | {d['cpu_per_move_b']:.4f} s |")


def main(paths: list[str]) -> None:
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        print(ab_row(data) if data.get("kind") == "ab" else match_row(data))


if __name__ == "__main__":
    main(sys.argv[1:])
