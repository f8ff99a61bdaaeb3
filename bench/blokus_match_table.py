"""Print a Markdown table row per `kibitz blokus match --json` or `kibitz blokus tune ab --json` result file.

Usage: python bench/blokus_match_table.py bench/results/blokus_classic_l5.json ...
       python bench/blokus_match_table.py --combine HALF1.json HALF2.json  (one row for a match run in parts)
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


def combined_row(datas: list[dict[str, Any]]) -> str:
    """One match row for the games of several match files (the halves of one match run on two cores): the score,
    interval, counts, margin and seats from the games themselves; CPU per move as the mean of the games' own."""
    from solvers.playout import wilson_interval

    games = [g for d in datas for g in d["game_list"]]
    if len({(d["variant"], d["side_a"], d["side_b"]) for d in datas}) != 1:
        raise SystemExit("--combine: the files are not halves of one match (variant or sides differ)")
    n = len(games)
    score = sum(g["result"] for g in games)
    low, high = wilson_interval(score, n)

    def margin(g: dict[str, Any]) -> float:
        mine = g["seat_scores"][g["seat_a"]]
        return mine - max(s for i, s in enumerate(g["seat_scores"]) if i != g["seat_a"])

    def mean(xs: list[float]) -> float:
        return sum(xs) / len(xs) if xs else float("nan")

    seats = sorted({g["seat_a"] for g in games})
    first = datas[0]
    summary = {
        "variant": first["variant"], "side_a": first["side_a"], "side_b": first["side_b"], "games": n,
        "games_requested": sum(d["games_requested"] for d in datas),
        "status": "complete" if all(d["status"] == "complete" for d in datas) else "partial",
        "score": score / n, "win_ci95": [low, high],
        "wins": sum(1 for g in games if g["result"] == 1.0), "ties": sum(1 for g in games if 0 < g["result"] < 1),
        "losses": sum(1 for g in games if g["result"] == 0.0), "seat_win_rates": first["seat_win_rates"],
        "mean_rank_a": mean([g["rank"] for g in games]), "mean_margin_a": mean([margin(g) for g in games]),
        "cpu_per_move_a": mean([g["cpu_per_move_a"] for g in games]),
        "cpu_per_move_b": mean([g["cpu_per_move_b"] for g in games]),
        "final_score_mismatches": sum(1 for g in games if not g["scores_agree"]),
        "by_seat_a": [{"score": mean([g["result"] for g in games if g["seat_a"] == seat])} for seat in seats],
    }
    return match_row(summary)


def main(paths: list[str]) -> None:
    if paths and paths[0] == "--combine":
        datas = []
        for path in paths[1:]:
            with open(path) as f:
                datas.append(json.load(f))
        print(combined_row(datas))
        return
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        print(ab_row(data) if data.get("kind") == "ab" else match_row(data))


if __name__ == "__main__":
    main(sys.argv[1:])
