"""Completion-checker timings on the default deck's 16-cell black cards with a 10-piece stock.

Run: python bench/projectl_checker.py
Targets: one answer ≤ 5 ms median; all ways counted ≤ 100 ms.
"""

from __future__ import annotations

import statistics
import time

from puzzles.projectl.cards import default_deck, format_counts, parse_counts
from solvers.projectl.checker import Checker

STOCKS = ["O1,I2,I3,L3,L3,I4,O4,T4,L4,S4", "O1,O1,I2,I2,L3,L3,T4,T4,L4,S4", "I2,I3,I3,L3,L3,O4,O4,T4,L4,L4"]
REPEAT = 7


def median_ms(func) -> tuple[float, object]:
    times, result = [], None
    for _ in range(REPEAT):
        start = time.perf_counter()
        result = func()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000, result


def main() -> None:
    cards = [c for c in default_deck() if c.area == 16]
    print(f"{len(cards)} black cards of 16 cells; stocks of 10 pieces; median of {REPEAT} runs (fresh checker each run)")
    print(f"{'card':<5} {'stock':<34} {'one answer ms':>13} {'min pieces ms':>13} {'all ways ms':>11} {'ways':>7} {'min':>4}")
    one_all, min_all, count_all = [], [], []
    for card in cards:
        for text in STOCKS:
            stock = parse_counts(text)
            empty = card.empty
            t_one, way = median_ms(lambda: Checker(empty, stock).one_way())  # noqa: B023 (called at once)
            t_min, best = median_ms(lambda: Checker(empty, stock).min_pieces())  # noqa: B023
            t_cnt, ways = median_ms(lambda: Checker(empty, stock).count_ways())  # noqa: B023
            one_all.append(t_one)
            min_all.append(t_min)
            count_all.append(t_cnt)
            print(f"{card.id:<5} {format_counts(stock):<34} {t_one:>13.3f} {t_min:>13.3f} {t_cnt:>11.3f} {ways:>7} {str(best):>4}")
    print(f"one answer: median {statistics.median(one_all):.3f} ms, worst {max(one_all):.3f} ms (target ≤ 5 ms median)")
    print(f"fewest pieces (exact DP): median {statistics.median(min_all):.3f} ms, worst {max(min_all):.3f} ms")
    print(f"all ways:   median {statistics.median(count_all):.3f} ms, worst {max(count_all):.3f} ms (target ≤ 100 ms)")


if __name__ == "__main__":
    main()
