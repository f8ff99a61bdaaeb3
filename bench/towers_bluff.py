"""How often the round-6 equilibrium bluffs a 21: set-ups its own hand cannot finish, from solved placement starts.

    python bench/towers_bluff.py [--starts 40]

Each of the first ``--starts`` round-6 placement starts of ``bench/towers_equilibrium.py`` (greedy games) is
solved to exploitability <= 1e-3 (:func:`solvers.towers.equilibrium.solve_round6`).  Then every possible hand
of each seat's **first placement** (P1 at the root, P2 after each of P1's first placements, weighted by the
probability that P1's strategy reaches it) is classified by the mixed strategy:

* a **set-up** leaves the tower it played on one stone short of 21 (total 15-20);
* it is **honest** when the stones left in the hand include one that would make that tower exactly 21 (a
  coloured stone allowed there with the missing value, or a joker on a top stone of that value), a **bluff**
  when none would: the tower looks like a 21 in the making, the hand cannot finish it;
* a **21** makes a tower exactly 21 at once; anything else is **other**.

Printed per seat: the share of each kind (weighted by the deal's prior and the strategy), the bluff rate (bluffs
over set-ups), and the same for hands that hold no stone making any tower exactly 21 now or after one more
stone.  Results: ``bench/results/towers_bluff.md``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from towers_equilibrium import placement_starts  # noqa: E402

from puzzles.towers import TowersState  # noqa: E402
from puzzles.towers.stones import JOKER, allowed_towers, value_of  # noqa: E402
from solvers.towers.equilibrium import TARGET, _replay, solve_round6  # noqa: E402

KINDS = ("21", "set-up, honest", "set-up, bluff", "other")


def finishes(state: TowersState, hand: list[int], tower: int) -> bool:
    """Whether a stone of ``hand`` put on ``tower`` (on top) would make it exactly 21."""
    need = 21 - state.tower_total(tower)
    top = int(state.values[tower][-1]) if state.values[tower] else 0
    for code in hand:
        if code == JOKER:
            if top and state.towers[tower][-1] != JOKER and top == need:
                return True
        elif tower in allowed_towers(code) and value_of(code) == need:
            return True
    return False


def kind(after: TowersState, seat: int, tower: int) -> str:
    """The kind of ``seat``'s placement on ``tower``, read from the state ``after`` it."""
    total = after.tower_total(tower)
    if total == 21:
        return "21"
    if 15 <= total <= 20:
        return "set-up, honest" if finishes(after, after.hands[seat], tower) else "set-up, bluff"
    return "other"


def tower_of(label: str) -> int:
    """The tower letter at the end of a placement label (``R6>O``, ``R6xO``)."""
    return "ROYGBP".index(label[-1])


def uniform(tree, strategy):  # type: ignore[no-untyped-def]
    """The strategy that plays every legal action of a hand with equal probability (the baseline)."""
    out = strategy.copy()
    for n in range(tree.size):
        kids = list(tree.children(n)) if tree.player[n] >= 0 else []
        if not kids:
            continue
        for h in range(len(tree.hands[int(tree.player[n])])):
            legal = [c for c in kids if tree.legal[int(tree.off[c]) + h]]
            for c in legal:
                out[int(tree.off[c]) + h] = 1.0 / len(legal)
    return out


def first_placements(eq, root: TowersState, strategy=None) -> dict[int, dict[str, float]]:  # type: ignore[no-untyped-def]
    """Per seat: weight of each kind of its first placement (deal prior x strategy reach); ``strategy``
    replaces the equilibrium's (the uniform baseline)."""
    tree = eq.tree
    if strategy is None:
        strategy = eq.strategy
    out: dict[int, dict[str, float]] = {0: defaultdict(float), 1: defaultdict(float)}
    p2_any = tree.hands[1][0]
    for h, hand in enumerate(tree.hands[0]):
        prior = float(tree.prior[0][h])
        for c in tree.children(0):
            i = int(tree.off[c]) + h
            if not tree.legal[i] or strategy[i] <= 0:
                continue
            label = tree.label[c]
            after = _replay(root, (hand, p2_any), [label])
            weight = prior * float(strategy[i])
            out[0][kind(after, 0, tower_of(label))] += weight
            if tree.player[c] != 1:
                continue
            for g, hand2 in enumerate(tree.hands[1]):
                for c2 in tree.children(c):
                    j = int(tree.off[c2]) + g
                    if not tree.legal[j] or strategy[j] <= 0:
                        continue
                    after2 = _replay(root, (hand, hand2), [label, tree.label[c2]])
                    w2 = weight * float(tree.prior[1][g]) * float(strategy[j])
                    out[1][kind(after2, 1, tower_of(tree.label[c2]))] += w2
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--starts", type=int, default=40)
    args = ap.parse_args()
    t0 = time.process_time()
    solved = [(seed, root, solve_round6(root, TARGET)) for seed, root in placement_starts(args.starts)]
    for name in ("equilibrium", "uniform over legal placements (baseline)"):
        print(f"\n## {name}")
        report(solved, name != "equilibrium", args.starts)
    print(f"\n{args.starts} placement starts, {time.process_time() - t0:.0f} CPU-s")


def report(solved, baseline: bool, n: int) -> None:  # type: ignore[no-untyped-def]
    """Print the kinds of first placements per start and pooled, for the equilibrium or the baseline."""
    totals: dict[int, dict[str, float]] = {0: defaultdict(float), 1: defaultdict(float)}
    rates: dict[int, list[float]] = {0: [], 1: []}
    for seed, root, eq in solved:
        per = first_placements(eq, root, uniform(eq.tree, eq.strategy) if baseline else None)
        for seat in (0, 1):
            mass = sum(per[seat].values())
            for k, v in per[seat].items():
                totals[seat][k] += v / mass
            setups = per[seat]["set-up, honest"] + per[seat]["set-up, bluff"]
            if setups > 0:
                rates[seat].append(per[seat]["set-up, bluff"] / setups)
        print(f"start {seed}: " + "; ".join(
            f"P{seat + 1} " + ", ".join(f"{k} {per[seat][k] / sum(per[seat].values()):.3f}" for k in KINDS)
            for seat in (0, 1)), flush=True)
    for seat in (0, 1):
        shares = ", ".join(f"{k} {totals[seat][k] / n:.3f}" for k in KINDS)
        setups = totals[seat]["set-up, honest"] + totals[seat]["set-up, bluff"]
        rate = totals[seat]["set-up, bluff"] / setups if setups else float("nan")
        mean_rate = sum(rates[seat]) / len(rates[seat]) if rates[seat] else float("nan")
        print(f"P{seat + 1} first placement: {shares}; bluffs per set-up {rate:.3f} (pooled), {mean_rate:.3f} "
              f"(mean over the {len(rates[seat])} starts with set-ups)")


if __name__ == "__main__":
    main()
