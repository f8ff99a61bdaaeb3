"""How long a click in the play widget takes: the human's move, the bots' answer and the redraw.

For each game, the widget's view (``kibitz.play_widget``, no front end: its click handler is called as the
browser's message would) plays the first MOVES human moves of a seeded game against ``play``'s default bot;
the human clicks the tokens of a seeded random legal move.  Prints per game: the median and the slowest
wall seconds of the click that completes a move (engine check, bots' answers, redraw) and the median redraw
alone (seat picture, click targets, candidate list).
Run: python bench/widget_latency.py  (about a minute; wall-clock, depends on the load).
"""

from __future__ import annotations

import random
import statistics
import time

from solvers.widget_view import play_widget

MOVES = 12
GAMES = [  # game, bots (the play command's default), options
    ("blokus", "greedy", {"variant": "duo"}),
    ("projectl", "greedy", {}),
    ("shelfie", "greedy", {}),
    ("towers", "pimc", {}),
]


def measure(game: str, bots: str, options: dict[str, object]) -> tuple[list[float], list[float]]:
    """Seconds of each move-completing click, and of each redraw alone."""
    view = play_widget(game, bots=bots, seat=1, seed=1, **options)
    model, rng = view.model, random.Random(1)
    moves: list[float] = []
    redraws: list[float] = []
    view.refresh()  # the first redraw is not timed (imports)
    while model.my_turn and len(moves) < MOVES:
        played = len(model.actions)
        for token in model.layout.tokens(rng.choice(model.legal_texts())):
            started = time.perf_counter()
            view.click(token)
            if len(model.actions) > played:
                moves.append(time.perf_counter() - started)
                break
        else:
            started = time.perf_counter()
            view._run(view._play_exact)
            moves.append(time.perf_counter() - started)
        started = time.perf_counter()
        view.refresh()
        redraws.append(time.perf_counter() - started)
    return moves, redraws


def main() -> None:
    print(f"{'game':<10}{'bots':<8}{'moves':>6}{'median s':>10}{'max s':>8}{'redraw ms':>11}")
    for game, bots, options in GAMES:
        moves, redraws = measure(game, bots, options)
        print(f"{game:<10}{bots:<8}{len(moves):>6}{statistics.median(moves):>10.3f}{max(moves):>8.3f}"
              f"{1000 * statistics.median(redraws):>11.1f}")


if __name__ == "__main__":
    main()
