"""Bench: the smallest rectangle that takes all 21 pieces of one color, settled board by board.

Every w x h with 3 <= w <= h and area in [89, 167] (12x14, area 168, is the smallest found so far), in
increasing area: refused by the perimeter, run or border bound, or the SAT model of ``solvers/blokus/solitaire_sat.py``
(CaDiCaL 1.9.5, lazy connectivity cuts) proves it UNSAT, finds a layout (replayed through the rule engine
and stored in ``tests/data/``), or stops at the CPU limit (unknown).  Results are checkpointed after every
board in ``bench/results/blokus_rectangles.json`` (re-running skips settled boards and boards already tried
with at least this limit) and tabled in ``bench/results/blokus_rectangles.md``.

``--four-colors 21x17``: the 84-piece question instead, with the half turn (blue and yellow searched, red
and green their images; the centre cell is then the empty one), recorded in the same files.

``--external PATH``: the same SAT model (without the lazy cuts: a relaxation, so its UNSAT is a proof) written as
DIMACS and handed to a standalone solver such as Kissat or CaDiCaL 2 (built apart, never vendored) under the CPU
limit; its CPU time is the child's.  A satisfying answer is a layout only when it is connected.

``--shrink 4x39 [--along rows|cols]``: a large-neighbourhood search from a stored layout instead
(:func:`~solvers.blokus.solitaire_sat.shrink_layout`: bands of rows re-solved with the other pieces fixed), one
row or column shorter at a time while it finds layouts; each found is stored and recorded as above, and a band
search that finds none proves nothing.

Usage: python bench/blokus_rectangles.py [--time-limit 60] [--boards 12x13,11x14] [--max-area 167]
       [--four-colors 21x17] [--shrink 4x39 [--along cols]] [--external /path/to/kissat]
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import subprocess
import tempfile
import time
from pathlib import Path

from solvers.blokus.solitaire_sat import (
    CELLS_PER_COLOR,
    LayoutModel,
    LayoutResult,
    check_layout,
    layout_cells,
    replay_layout,
    shrink_layout,
    solve_layout,
)
from solvers.blokus.strip_dp import find_layout

ROOT = Path(__file__).resolve().parent.parent
#: the proofs without a solver (solitaire_sat.perimeter_bound, run_bound, border_bound)
BOUNDS = ("perimeter bound", "run bound", "border bound")
STRIP_DP = "strip DP"  # the exhaustive frontier DP of solvers/blokus/strip_dp.py (short side up to 6)
MOST_KIB = 12 * 2**20  # the strip DP stops past 12 GiB (its layers of states are kept for the search)
RESULTS = ROOT / "bench" / "results" / "blokus_rectangles.json"
LAYOUTS = ROOT / "tests" / "data"


def rectangles(min_area: int, max_area: int, min_width: int = 3) -> list[tuple[int, int]]:
    """Every (w, h) with min_width <= w <= h and area in range, by area then width."""
    found = [(w, h) for w in range(min_width, max_area + 1) for h in range(w, max_area + 1)
             if min_area <= w * h <= max_area]
    return sorted(found, key=lambda wh: (wh[0] * wh[1], wh[0]))


def record_of(result: LayoutResult, commit: str) -> dict:
    """The JSON record of one board (no layout: that goes to tests/data)."""
    return {"board": result.board, "cols": result.cols, "rows": result.rows, "colors": result.colors,
            "area": result.cols * result.rows, "status": result.status, "proof": result.proof,
            "cpu_seconds": round(result.cpu_seconds, 2), "limit": result.limit, "conflicts": result.conflicts,
            "cuts": result.cuts, "variables": result.variables, "clauses": result.clauses, "commit": commit}


def layouts_folder(results: Path) -> Path:
    """Where found layouts go: ``tests/data`` for the committed results file, else beside ``--results`` (so a trial
    run never overwrites a committed layout)."""
    return LAYOUTS if results.resolve() == RESULTS.resolve() else results.resolve().parent


def save_layout(result: LayoutResult, command: str, folder: Path = LAYOUTS) -> Path | None:
    """Replay the layout through the engine and store it as ``blokus_sat_layout_WxH_Kc.json`` in ``folder``;
    a board the engine does not play (``check_board_sides``) is checked by ``check_layout`` and stored as
    cell lists ((row, col), row 0 at the top) instead."""
    from puzzles.blokus.tables import check_board_sides

    path = folder / f"blokus_sat_layout_{result.board}_{result.colors}c.json"
    try:
        check_board_sides(result.cols, result.rows)
        engine = True
    except ValueError:
        engine = False
    if not engine:
        check_layout(result.cols, result.rows, [cells for _, cells in result.layout])
        cells = ",\n".join(f"  {json.dumps([list(q) for q in piece])}" for _, piece in result.layout)
        path.write_text(f'{{\n "format": "cells", "board": "{result.board}", "colors": {result.colors}, '
                        f'"command": "{command}",\n "cpu_seconds": {round(result.cpu_seconds, 1)},\n'
                        f' "pieces": [\n{cells}\n ]\n}}\n')
        return path
    state = replay_layout(result)
    record = {**state.to_json(), "board": result.board, "colors": result.colors,
              "empty_cells": result.cols * result.rows - CELLS_PER_COLOR * result.colors,
              "scores": state.color_scores(), "command": command, "cpu_seconds": round(result.cpu_seconds, 1)}
    head = [f" {json.dumps(k)}: {json.dumps(v)}," for k, v in record.items() if k != "moves"]
    moves = [f"  {json.dumps(m)}" for m in record["moves"]]
    path.write_text("{\n" + "\n".join(head) + '\n "moves": [\n' + ",\n".join(moves) + "\n ]\n}\n")
    return path


STATUS_TEXT = {"unsat": "proved impossible", "found": "found", "time_limit": "unknown at the limit",
               "interrupted": "unknown (interrupted)", "bands_tried": "unknown (every band tried)",
               "candidate": "unknown (a disconnected answer of the model without cuts)"}


def table(records: dict[str, dict]) -> str:
    """The markdown table, by colors, area and width."""
    lines = ["| board | cells | empty | status | proof | CPU s | limit (CPU s) | conflicts | cuts |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in sorted(records.values(), key=lambda r: (r["colors"], r["area"], r["cols"])):
        empty = r["area"] - CELLS_PER_COLOR * r["colors"]
        colors = "" if r["colors"] == 1 else f", {r['colors']} colors"
        lines.append(f"| {r['cols']}×{r['rows']}{colors} | "
                     f"{r['area']} | {empty} | {STATUS_TEXT[r['status']]} | {r['proof']} | {r['cpu_seconds']} | "
                     f"{'—' if r['proof'] in BOUNDS else r['limit']} | {r['conflicts']:,} | {r['cuts']} |")
    return "\n".join(lines)


def summary(records: dict[str, dict]) -> str:
    """Where the one-color question stands: the smallest area found, and the smaller boards' statuses."""
    one = [r for r in records.values() if r["colors"] == 1]
    found = [r["area"] for r in one if r["status"] == "found"]
    best = min(found, default=168)  # 12x14, found by the heuristic search before this bench
    below = [r for r in one if r["area"] < best]
    counts = {s: sum(r["status"] == s for r in below) for s in STATUS_TEXT}
    by_bound = {bound: sum(r["proof"] == bound for r in below) for bound in (*BOUNDS, STRIP_DP)}
    by_sat = counts["unsat"] - sum(by_bound.values())
    return (f"Smallest area found: {best} cells. Boards below it in this file: {len(below)}; proved impossible "
            f"{counts['unsat']} ({', '.join(f'{n} by the {bound}' for bound, n in by_bound.items())}, {by_sat} by "
            f"SAT), unknown at their limit {counts['time_limit'] + counts['interrupted']}.")


def load(path: Path) -> dict[str, dict]:
    return json.loads(path.read_text()) if path.exists() else {}


def save(key: str, record: dict, path: Path) -> dict[str, dict]:
    """Add one board to the results file (read again first: several runs may share it), unless the file
    already answers it better (decided, or unknown at a larger limit); returns them all."""
    records = load(path)
    if not settled(records.get(key), record["limit"]) or record["status"] in ("unsat", "found"):
        records[key] = record
    path.write_text(json.dumps(records, indent=1, sort_keys=True) + "\n")
    path.with_suffix(".md").write_text(
        "# Smallest one-color rectangle (`bench/blokus_rectangles.py`)\n\n"
        "Generated from `blokus_rectangles.json`; CPU seconds of the bench process (`time.process_time`).\n\n"
        + summary(records) + "\n\n" + table(records) + "\n")
    return records


def settled(old: dict | None, limit: float) -> bool:
    """Whether a stored record answers the board at this limit (decided, or unknown at a larger limit)."""
    return old is not None and (old["status"] in ("unsat", "found") or (old["limit"] or 0) >= limit)


def _shown(path: Path | None) -> str | None:
    """A stored layout's path as the results file keeps it: relative to the repository when inside it."""
    if path is None:
        return None
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def run_board(cols: int, rows: int, colors: int, limit: float, commit: str, folder: Path = LAYOUTS,
              verbose: bool = False) -> dict:
    """Solve one board, store any layout in ``folder``, print and return its record (``verbose``: the solver's
    progress too, a line per chunk of conflicts)."""
    said = (lambda line: print(f"  {line}", flush=True)) if verbose else None
    result = solve_layout(cols, rows, colors, limit, half_turn=colors > 1, progress=said)
    command = f"python bench/blokus_rectangles.py --time-limit {limit:g} --boards {cols}x{rows}" + (
        f" --four-colors {cols}x{rows}" if colors > 1 else "")
    record = record_of(result, commit)
    if result.status == "found":
        path = save_layout(result, command, folder)
        record["layout_file"] = _shown(path)
    print(result.describe() + (f", {result.cuts} cuts" if result.cuts else ""), flush=True)
    return record


def write_dimacs(clauses: list[list[int]], variables: int, path: Path, comment: str) -> None:
    """The clauses in DIMACS CNF, with a comment line on top."""
    with path.open("w") as out:
        out.write(f"c {comment}\np cnf {variables} {len(clauses)}\n")
        out.writelines(" ".join(map(str, clause)) + " 0\n" for clause in clauses)


def run_external(cols: int, rows: int, colors: int, limit: float, commit: str, binary: Path,
                 folder: Path = LAYOUTS) -> dict:
    """The board's SAT model without cuts, solved by a standalone DIMACS solver within ``limit`` CPU seconds
    (RLIMIT_CPU on the child); its record, with any connected layout stored."""
    model = LayoutModel(cols, rows, colors, half_turn=colors > 1)
    clauses = model.build()
    version = subprocess.run([str(binary), "--version"], capture_output=True, text=True).stdout.strip()
    result = LayoutResult(cols, rows, colors, proof=f"SAT, {binary.name} {version} (standalone, no cuts)",
                          limit=limit, variables=model.top, clauses=len(clauses))

    def cpu_limit() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (int(limit), int(limit) + 5))

    with tempfile.TemporaryDirectory() as scratch:
        cnf = Path(scratch) / f"{cols}x{rows}.cnf"
        write_dimacs(clauses, model.top, cnf, f"kibitz {commit}: all 21 pieces of {colors} color(s) on {cols}x{rows}")
        del clauses
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        answer = subprocess.run([str(binary), str(cnf)], capture_output=True, text=True, preexec_fn=cpu_limit)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    result.cpu_seconds = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    conflicts = re.search(r"^c conflicts:\s+(\d+)", answer.stdout, re.M)
    result.conflicts = int(conflicts.group(1)) if conflicts else 0
    said = re.search(r"^s (\w+)", answer.stdout, re.M)
    if said and said.group(1) == "UNSATISFIABLE":
        result.status = "unsat"
    elif said and said.group(1) == "SATISFIABLE":
        values = [int(v) for line in answer.stdout.splitlines() if line.startswith("v ") for v in line[2:].split()]
        layout, cuts = model.layout([v for v in values if v != 0])
        result.status, result.layout, result.cuts = ("candidate", [], len(cuts)) if cuts else ("found", layout, 0)
    record = record_of(result, commit)
    if result.status == "found":
        command = f"python bench/blokus_rectangles.py --external {binary} --time-limit {limit:g} --boards {cols}x{rows}"
        record["layout_file"] = _shown(save_layout(result, command, folder))
    print(result.describe() if result.status != "candidate" else f"{result.board}: {STATUS_TEXT['candidate']}",
          flush=True)
    return record


def run_strip_dp(cols: int, rows: int, limit: float, commit: str, folder: Path = LAYOUTS) -> dict | None:
    """Settle one board by the strip DP's search (``solvers.blokus.strip_dp.find_layout``) within ``limit`` CPU
    seconds: its record (proved impossible, or found with the layout stored), or None when stopped first."""
    import resource

    start = time.process_time()

    def should_stop() -> bool:  # the CPU limit, or 12 GiB of memory at the peak
        return time.process_time() - start > limit or resource.getrusage(resource.RUSAGE_SELF).ru_maxrss > MOST_KIB

    search = find_layout(cols, rows, progress=lambda line: print(f"  {cols}x{rows}: {line}", flush=True),
                         should_stop=should_stop)
    status = "unknown at the limit" if search.status == "unknown" else search.status
    print(f"{cols}x{rows}: strip DP {status} in {search.seconds:.1f} CPU s", flush=True)
    if search.status == "unknown":
        return None
    result = LayoutResult(cols, rows, status="unsat" if search.status == "impossible" else "found", proof=STRIP_DP,
                          cpu_seconds=search.seconds, limit=limit, layout=[(0, cells) for cells in search.layout or []])
    record = record_of(result, commit)
    if result.status == "found":
        command = f"python bench/blokus_rectangles.py --strip-dp --time-limit {limit:g} --boards {cols}x{rows}"
        record["layout_file"] = _shown(save_layout(result, command, folder))
    return record


def stored_layout(board: str) -> list[tuple[tuple[int, int], ...]]:
    """The one-color layout stored for ``board`` (``tests/data``), each piece's cells ((row, col), row 0 at the top)
    in play order, checked against the rules."""
    cols, rows = map(int, board.split("x"))
    pieces = layout_cells(json.loads((LAYOUTS / f"blokus_sat_layout_{board}_1c.json").read_text()))
    check_layout(cols, rows, pieces)
    return pieces


def _transpose(result: LayoutResult) -> None:
    """Swap the board's sides and every cell's (row, col), in place."""
    result.cols, result.rows = result.rows, result.cols
    result.layout = [(k, tuple(sorted((c, r) for r, c in cells))) for k, cells in result.layout]


def shrink(board: str, along: str, limit: float, commit: str, results: Path) -> None:
    """Shrink a stored layout one row (or column) at a time by :func:`shrink_layout` while it finds one, storing
    and recording each layout found (boards named with the shorter side first, as everywhere here)."""
    cols, rows = map(int, board.split("x"))
    pieces = stored_layout(board)
    while True:
        if along == "cols":  # transposed: the columns become rows
            pieces, cols, rows = [tuple((c, r) for r, c in p) for p in pieces], rows, cols
        result = shrink_layout(cols, rows, pieces, time_limit=limit,
                               progress=lambda line: print(f"  {line}", flush=True))
        if along == "cols":
            _transpose(result)
        if result.cols > result.rows:  # name it shorter side first
            _transpose(result)
        print(result.describe(), flush=True)
        if result.status != "found":
            return
        command = f"python bench/blokus_rectangles.py --shrink {board} --along {along} --time-limit {limit:g}"
        record = record_of(result, commit)
        path = save_layout(result, command, layouts_folder(results))
        record["layout_file"] = _shown(path)
        save(f"{result.cols}x{result.rows}:1", record, results)
        board, cols, rows = result.board, result.cols, result.rows
        pieces = [cells for _, cells in result.layout]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--time-limit", type=float, default=60.0, help="CPU seconds per board")
    parser.add_argument("--min-area", type=int, default=CELLS_PER_COLOR)
    parser.add_argument("--max-area", type=int, default=167)
    parser.add_argument("--min-width", type=int, default=3)
    parser.add_argument("--max-width", type=int, default=99)
    parser.add_argument("--boards", default=None, help="only these, e.g. 12x13,11x14")
    parser.add_argument("--four-colors", default=None, help="a board for all 84 pieces, e.g. 21x17")
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--shrink", default=None, help="a board with a stored layout: shrink it by bands, e.g. 4x39")
    parser.add_argument("--along", choices=("rows", "cols"), default="rows", help="with --shrink: which side shrinks")
    parser.add_argument("--verbose", action="store_true", help="print the SAT solver's progress")
    parser.add_argument("--external", type=Path, default=None,
                        help="a standalone DIMACS SAT solver (kissat, cadical) for the model without cuts")
    parser.add_argument("--strip-dp", action="store_true",
                        help="settle the unsettled boards of width <= 6 by the strip DP's search (solvers/blokus/strip_dp.py)")
    args = parser.parse_args()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=ROOT).stdout.strip()
    if args.shrink:
        shrink(args.shrink, args.along, args.time_limit, commit, args.results)
        print(summary(load(args.results)))
        return
    print(f"commit {commit}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, limit {args.time_limit:g} "
          "CPU s per board", flush=True)
    if args.four_colors:
        jobs = [(*map(int, args.four_colors.split("x")), 4)]
    elif args.boards:
        jobs = [(*map(int, b.split("x")), 1) for b in args.boards.split(",")]  # in the order given
    else:
        jobs = [(w, h, 1) for w, h in rectangles(args.min_area, args.max_area, args.min_width)
                if w <= args.max_width]
    try:
        for cols, rows, colors in jobs:
            key = f"{cols}x{rows}:{colors}"
            if args.strip_dp:
                if cols <= 6 and (load(args.results).get(key) or {}).get("status") not in ("unsat", "found"):
                    record = run_strip_dp(cols, rows, args.time_limit, commit, layouts_folder(args.results))
                    if record is not None:
                        save(key, record, args.results)
                continue
            if settled(load(args.results).get(key), args.time_limit):
                continue
            if args.external:
                record = run_external(cols, rows, colors, args.time_limit, commit, args.external,
                                      layouts_folder(args.results))
            else:
                record = run_board(cols, rows, colors, args.time_limit, commit, layouts_folder(args.results),
                                   args.verbose)
            if record["status"] == "interrupted":  # answers nothing at this limit: not recorded
                raise KeyboardInterrupt
            save(key, record, args.results)
    except KeyboardInterrupt:
        print("interrupted: the boards done so far are saved", flush=True)
    print(table(load(args.results)))
    print(summary(load(args.results)))


if __name__ == "__main__":
    main()
