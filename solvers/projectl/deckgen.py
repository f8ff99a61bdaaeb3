"""Project L deck generator: 32 white and 20 black cards with the published statistics.

The published card data is not in our sources, so the project makes its own
(``docs/rules/project-l.md``, "Card data").  The generator reproduces the
published statistics *exactly*:

* white points 0:11, 1:13, 2:8; areas 2:3, 3:6, 4:6, 5:5, 6:5, 7:2, 8:4, 9:1;
  reward levels L1:1, L2:6, L3:10, L4:15; exactly 27 of 32 whites have
  area = reward level + 2·points;
* black points 3:8, 4:7, 5:5; areas 8:1, 9:2, 10:3, 11:2, 12:3, 13:2, 14:2, 16:5;
  reward levels L1:6, L2:3, L3:6, L4:5.

Steps, all driven by one ``random.Random(seed)``:

1. white (area, level, points) triples: a randomised backtracking search over
   the area multiset that meets the three marginals and the 27-of-32 rule;
   black points go with area (smallest 8 areas → 3 points, next 7 → 4, biggest
   5 → 5), black reward levels are shuffled;
2. the reward shape of a level is drawn among that level's shapes;
3. each recess grows as a compact connected region of the right area inside
   5×5 (cells with more neighbours already in the region are preferred), and
   is kept only if the completion checker tiles it from 10 of each shape with
   at most one monomino (so every card is completable and not a bag of dots);
4. cards are sorted by difficulty — area, then points — and numbered
   ``W01..W32``, ``B01..B20``.

``kibitz projectl generate-deck --seed N`` prints a deck; the shipped default
deck is ``generate_deck(DEFAULT_SEED)`` (a test regenerates and compares).
"""

from __future__ import annotations

import random
from collections import Counter

from puzzles.projectl.cards import (
    NSHAPES,
    SHAPE_NAMES,
    SHAPES_BY_LEVEL,
    SIZE,
    Card,
    format_deck,
)
from solvers.projectl.checker import Checker

DEFAULT_SEED = 2020

WHITE_POINTS = {0: 11, 1: 13, 2: 8}
WHITE_AREAS = {2: 3, 3: 6, 4: 6, 5: 5, 6: 5, 7: 2, 8: 4, 9: 1}
WHITE_LEVELS = {1: 1, 2: 6, 3: 10, 4: 15}
WHITE_RULE_MATCHES = 27
BLACK_POINTS = {3: 8, 4: 7, 5: 5}
BLACK_AREAS = {8: 1, 9: 2, 10: 3, 11: 2, 12: 3, 13: 2, 14: 2, 16: 5}
BLACK_LEVELS = {1: 6, 2: 3, 3: 6, 4: 5}


def _expand(counts: dict[int, int]) -> list[int]:
    return [k for k, n in sorted(counts.items()) for _ in range(n)]


def white_triples(rng: random.Random) -> list[tuple[int, int, int]]:
    """(area, reward level, points) for the 32 whites, meeting every published figure."""
    areas = _expand(WHITE_AREAS)
    rng.shuffle(areas)
    levels = dict(WHITE_LEVELS)
    points = dict(WHITE_POINTS)
    out: list[tuple[int, int, int]] = []
    mismatches_allowed = len(areas) - WHITE_RULE_MATCHES

    def rec(k: int, mism: int) -> bool:
        if k == len(areas):
            return mism == mismatches_allowed
        a = areas[k]
        choices = [(lv, p) for lv in levels for p in points if levels[lv] and points[p]]
        rng.shuffle(choices)
        # prefer rule-matching triples, then the exceptions closest to the rule
        choices.sort(key=lambda lp: abs(lp[0] + 2 * lp[1] - a))
        for lv, p in choices:
            miss = lv + 2 * p != a
            if miss and mism >= mismatches_allowed:
                continue
            if not miss and len(areas) - k - 1 < mismatches_allowed - mism:
                continue
            levels[lv] -= 1
            points[p] -= 1
            out.append((a, lv, p))
            if rec(k + 1, mism + miss):
                return True
            out.pop()
            levels[lv] += 1
            points[p] += 1
        return False

    if not rec(0, 0):
        raise RuntimeError("no white card assignment meets the statistics")
    return out


def black_triples(rng: random.Random) -> list[tuple[int, int, int]]:
    """(area, reward level, points) for the 20 blacks: points grow with area."""
    areas = _expand(BLACK_AREAS)
    points = _expand(BLACK_POINTS)
    levels = _expand(BLACK_LEVELS)
    rng.shuffle(levels)
    return [(a, lv, p) for a, p, lv in zip(areas, points, levels)]


def grow_recess(area: int, rng: random.Random) -> int:
    """A compact connected cell set of ``area`` cells on the 5×5 card, as a mask."""
    start = (rng.randrange(1, SIZE - 1), rng.randrange(1, SIZE - 1)) if area < 9 else (2, 2)
    cells = {start}
    while len(cells) < area:
        frontier = {
            (r + dr, c + dc)
            for r, c in cells
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE and (r + dr, c + dc) not in cells
        }
        ordered = sorted(frontier)
        weights = [
            1 + 3 * sum((r + dr, c + dc) in cells for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))) ** 2 for r, c in ordered
        ]
        cells.add(rng.choices(ordered, weights=weights, k=1)[0])
    mask = 0
    for r, c in cells:
        mask |= 1 << (r * SIZE + c)
    return mask


def good_recess(mask: int) -> bool:
    """Completable from 10 of each shape using at most one monomino (verified by the checker)."""
    stock = [10] * NSHAPES
    stock[0] = 1
    return Checker(mask, stock).completable()


def make_cards(triples: list[tuple[int, int, int]], prefix: str, rng: random.Random) -> list[Card]:
    triples = sorted(triples, key=lambda t: (t[0], t[2], t[1]))
    cards = []
    seen: set[int] = set()
    for k, (area, level, points) in enumerate(triples, start=1):
        while True:
            mask = grow_recess(area, rng)
            if mask not in seen and good_recess(mask):
                break
        seen.add(mask)
        reward = SHAPE_NAMES[rng.choice(SHAPES_BY_LEVEL[level])]
        cards.append(Card(f"{prefix}{k:02d}", points, reward, mask))
    return cards


def generate_deck(seed: int = DEFAULT_SEED) -> list[Card]:
    """32 white then 20 black cards, deterministic for ``seed``."""
    rng = random.Random(seed)
    whites = make_cards(white_triples(rng), "W", rng)
    blacks = make_cards(black_triples(rng), "B", rng)
    return whites + blacks


def deck_text(seed: int = DEFAULT_SEED) -> str:
    """The generated deck in the deck format, with a header saying how it was made."""
    return format_deck(
        generate_deck(seed),
        comments=[
            "Project L deck made by kibitz's generator (solvers/projectl/deckgen.py)",
            f"kibitz projectl generate-deck --seed {seed}",
            "format: 'ID POINTS REWARD' then 5 rows; '#' recess cell, '.' card surface",
        ],
    )


def deck_statistics(cards: list[Card]) -> dict:
    """The published statistics measured on a deck (for tests and the notebook)."""
    out: dict = {}
    for color in ("white", "black"):
        group = [c for c in cards if c.color == color]
        out[color] = {
            "count": len(group),
            "points": dict(sorted(Counter(c.points for c in group).items())),
            "areas": dict(sorted(Counter(c.area for c in group).items())),
            "reward_levels": dict(sorted(Counter(c.reward_level for c in group).items())),
            "area_is_level_plus_2points": sum(c.area == c.reward_level + 2 * c.points for c in group),
        }
    return out
