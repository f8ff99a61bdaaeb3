"""Bench: all the pieces of 1..4 colors on a board, verified by replay through the rule engine.

Default: all 84 pieces on 20x20 (symmetric mode: invariant under the quarter turn), 19x19 (quarter turn,
5 empty cells) and 18x20 (the two mirrors, 4 empty cells).  ``--general``: on 20x20 the symmetric solution
re-arranged by CP-SAT window moves until it is no longer symmetric.  Times are CPU seconds of this process
(``time.process_time``; the machine is shared, wall time is noisy) and include numba's first-call
compilation only when the cache is cold.  ``--save DIR`` writes every layout found as
``DIR/blokus_all_pieces_WxH_Kc.json`` (the engine's JSON record plus the search parameters that found it).

Usage: python bench/solitaire_all_pieces.py [--boards 20x20:4,19x19:4,18x20:4] [--seeds 0,1,2]
       [--time-limit 300] [--general] [--save tests/data]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import time
from pathlib import Path

from solvers.blokus.solitaire import parse_board, solve_all_pieces


def dump_record(record: dict) -> str:
    """The record as JSON text with one move per line."""
    head = [f" {json.dumps(k)}: {json.dumps(v)}," for k, v in record.items() if k != "moves"]
    moves = [f"  {json.dumps(m)}" for m in record["moves"]]
    return "{\n" + "\n".join(head) + '\n "moves": [\n' + ",\n".join(moves) + "\n ]\n}\n"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--boards", default="20x20:4,19x19:4,18x20:4",
                        help="comma-separated WxH:colors[:symmetry] (symmetry: quarter-turn, half-turn, mirrors)")
    parser.add_argument("--seeds", default="0")
    parser.add_argument("--general", action="store_true")
    parser.add_argument("--time-limit", type=float, default=300.0)
    parser.add_argument("--breadth", type=int, default=3)
    parser.add_argument("--restart-nodes", type=int, default=4000)
    parser.add_argument("--save", default=None, help="directory for the layouts found (JSON)")
    args = parser.parse_args()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    print(f"commit {commit}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, CPU seconds (process_time)")
    seeds = [int(s) for s in args.seeds.split(",")]
    for spec in args.boards.split(","):
        board_text, _, rest = spec.partition(":")
        colors_text, _, symmetry_text = rest.partition(":")
        board, colors, symmetry = parse_board(board_text), int(colors_text or 4), symmetry_text or None
        symmetric = not args.general and colors != 3
        mode = "symmetric" if symmetric else "general"
        times = []
        for seed in seeds:
            cpu = time.process_time()
            wall = time.perf_counter()
            result = solve_all_pieces(symmetric=symmetric, perfect=True, time_limit=args.time_limit, seed=seed,
                                      board=board, colors=colors, symmetry=symmetry, breadth=args.breadth,
                                      restart_nodes=args.restart_nodes)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            total = 21 * colors
            print(f"{board_text} {colors} colors {mode} seed {seed}: {result.status}, "
                  f"{result.placed if result.state is not None else result.best_placed}/{total} placed"
                  f"{'' if result.state is not None else ' at best'}, {cpu:.1f} CPU s ({wall:.1f} s wall), "
                  f"{result.nodes} nodes, {result.restarts} restarts"
                  + (f", {result.empty_cells} empty cells, symmetry {result.symmetry}" if result.state else "")
                  + (f", {result.rearranged} re-arrangements, still symmetric: {result.quarter_turn_symmetric}"
                     if args.general and result.state else ""), flush=True)
            if result.state is None:
                continue
            times.append(cpu)
            if args.save:
                record = {**result.state.to_json(), "board": board_text, "colors": colors,
                          "empty_cells": result.empty_cells, "symmetry": result.symmetry,
                          "search": {"seed": seed, "breadth": args.breadth, "restart_nodes": args.restart_nodes,
                                     "symmetry": symmetry},
                          "command": f"kibitz blokus solitaire all-pieces --board {board_text} --colors {colors} "
                                     f"--seed {seed}{' --symmetric' if symmetric else ''}"
                                     f"{f' --symmetry {symmetry}' if symmetry else ''} --perfect",
                          "cpu_seconds": round(cpu, 1)}
                out = Path(args.save) / f"blokus_all_pieces_{board_text}_{colors}c.json"
                out.write_text(dump_record(record))
                print(f"  saved {out}")
        if times:
            print(f"{board_text} {colors} colors {mode}: {len(times)}/{len(seeds)} found, median "
                  f"{statistics.median(times):.1f} CPU s, max {max(times):.1f} CPU s "
                  "(replayed through the engine, perfect: monomino last)")


if __name__ == "__main__":
    main()
