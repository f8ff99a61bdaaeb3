"""Print a Markdown table row per `kibitz blokus match --json` or `kibitz blokus tune ab --json` result file.

Usage: python bench/blokus_match_table.py bench/results/blokus_classic_l5.json ...
       python bench/blokus_match_table.py --combine HALF1.json HALF2.json  (one row for a match run in parts)
       python bench/blokus_match_table.py --pool A.json B.json ...  (one row for matches of one variant against one
       opponent whose kibitz budgets differ, e.g. every equal-CPU match; side A is labelled with all its budgets)
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


def combined_row(datas: list[dict[str, Any]], pool: bool = False) -> str:
    """One match row for the games of several match files (the halves of one match run on two cores, or with
    ``pool`` matches whose side A differs), summed up by the match's own summary; each game's CPU per move counts
    as one sample (the files keep only its mean)."""
    from solvers.blokus.match import GameResult, MatchResult

    if not pool and len({(d["variant"], d["side_a"], d["side_b"]) for d in datas}) != 1:
        raise SystemExit("--combine: the files are not halves of one match (variant or sides differ)")
    if pool and len({(d["variant"], d["side_b"]) for d in datas}) != 1:
        raise SystemExit("--pool: the files are not matches of one variant against one opponent")
    games = [GameResult(index=g["game"], seed=g["seed"], seat_a=g["seat_a"], result=g["result"],
                        color_scores=g["color_scores"], seat_scores=g["seat_scores"], plies=g["plies"],
                        resigned=g["resigned"], final_scores=g["engine_final_scores"], expected_final=g["final_score"],
                        cpu_a=[g["cpu_per_move_a"]], cpu_b=[g["cpu_per_move_b"]], moves=g["moves"])
             for d in datas for g in d["game_list"]]
    first = datas[0]
    status = next((d["status"] for d in datas if d["status"] != "complete"), "complete")
    side_a = "pooled: " + "; ".join(dict.fromkeys(d["side_a"] for d in datas)) if pool else first["side_a"]
    match = MatchResult(first["variant"], side_a, first["side_b"],
                        sum(d["games_requested"] for d in datas), first["seed"], games, status)
    return match_row(match.summary())


def main(paths: list[str]) -> None:
    if paths and paths[0] in ("--combine", "--pool"):
        datas = []
        for path in paths[1:]:
            with open(path) as f:
                datas.append(json.load(f))
        print(combined_row(datas, pool=paths[0] == "--pool"))
        return
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        print(ab_row(data) if data.get("kind") == "ab" else match_row(data))


if __name__ == "__main__":
    main(sys.argv[1:])
