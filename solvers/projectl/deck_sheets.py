"""Project L deck sheets: the generated deck's cards drawn to print (recess, points, reward piece), and the
solutions sheet (each card filled with the fewest pieces, found by the completion checker).

Every card is verified completable when the deck is generated (solvers/projectl/deckgen.py); the
solutions sheet re-checks each card with :func:`solvers.projectl.checker.check_card`.
"""

from __future__ import annotations

from puzzles.projectl.cards import NCELLS, SHAPE_COLORS, SHAPE_NAMES, SIZE, Card, mask_cells, shape_index
from puzzles.sheets import BLOCKED_FILL, EMPTY_FILL, Figure, Panel, cells_figure
from solvers.projectl.checker import check_card
from solvers.projectl.deckgen import deck_statistics, deck_text, generate_deck

CARDS_PER_PAGE = 12
CARD_CELL = 18.0
STOCK = [10] * len(SHAPE_NAMES)  # enough of every piece; the deck generator allows one monomino per card
STOCK[0] = 1


def _reward_shape(card: Card) -> list[tuple[int, int]]:
    """The reward piece's cells, the shape as the card shows it (its first placement on a 5x5 card)."""
    from puzzles.projectl.cards import placements

    return mask_cells(placements(card.reward_index)[0])


def card_figure(card: Card, pieces: list[dict] | None = None) -> Figure:
    """A card: its 5x5 face (recess white to fill, surface grey, or the pieces of ``pieces`` in their
    colours), its points, and the reward piece drawn under it in its colour."""
    recess = set(mask_cells(card.recess))
    fills = {(r, c): (EMPTY_FILL if (r, c) in recess else BLOCKED_FILL) for r in range(SIZE) for c in range(SIZE)}
    groups: dict[tuple[int, int], object] = {cell: "recess" for cell in recess}
    for i, placed in enumerate(pieces or []):
        for r, c in placed["cells"]:
            fills[(r, c)] = SHAPE_COLORS[shape_index(placed["shape"])]
            groups[(r, c)] = i
    face = cells_figure(fills, SIZE, SIZE, groups=groups, cell=CARD_CELL)
    small = CARD_CELL / 2
    reward = cells_figure({cell: SHAPE_COLORS[card.reward_index] for cell in _reward_shape(card)}, 2, 4, cell=small)
    top = SIZE * CARD_CELL + 6
    body = (face.body + f'<g class="reward" transform="translate(0,{top:g})">{reward.body}</g>'
            + f'<text x="{SIZE * CARD_CELL:g}" y="{top + 12:g}" font-family="Helvetica, Arial, sans-serif" font-size="10" '
            f'font-weight="bold" text-anchor="end">{card.points} pt</text>')
    return Figure(body, SIZE * CARD_CELL, top + 2 * small + 4, f"{card.id} ({card.color})", "card")


def _chunks(cards: list[Card]) -> list[list[Card]]:
    return [cards[i:i + CARDS_PER_PAGE] for i in range(0, len(cards), CARDS_PER_PAGE)]


def deck_panels(seed: int) -> tuple[list[Panel], list[Panel]]:
    """The deck's puzzle pages and solution pages (one panel a page)."""
    cards = generate_deck(seed)
    stats = deck_statistics(cards)
    lines = [f"Difficulty: white cards {min(c.area for c in cards if c.color == 'white')}-"
             f"{max(c.area for c in cards if c.color == 'white')} cells, black {min(c.area for c in cards if c.color == 'black')}-"
             f"{max(c.area for c in cards if c.color == 'black')} cells (area = reward level + 2 x points on "
             f"{stats['white']['area_is_level_plus_2points'] + stats['black']['area_is_level_plus_2points']} of 52 cards)",
             "Fill each card's white recess with Project L pieces; the reward piece is drawn under the card."]
    puzzles, solutions = [], []
    for chunk in _chunks(cards):
        span = f"{chunk[0].id}-{chunk[-1].id}"
        puzzles.append(Panel("puzzle", f"Project L deck {seed}: cards {span}", lines,
                             [card_figure(c) for c in chunk], _text(chunk), {"seed": seed, "cards": [c.to_json() for c in chunk]}))
        answers = [check_card(c, STOCK, count=False) for c in chunk]
        for card, answer in zip(chunk, answers, strict=True):
            if not answer["completable"] or sum(len(p["cells"]) for p in answer["solution"]) != card.area:
                raise ValueError(f"card {card.id} of deck {seed} is not completable")
        solutions.append(Panel(
            "solution", f"Solutions of Project L deck {seed}: cards {span}",
            ["Each card filled with the fewest pieces (the completion checker's proven minimum)."],
            [card_figure(c, a["solution"]) for c, a in zip(chunk, answers, strict=True)],
            "\n".join(f"{c.id}: " + " ".join(f"{p['shape']}@" + ",".join(f"{r}{k}" for r, k in p["cells"])
                                              for p in a["solution"]) for c, a in zip(chunk, answers, strict=True)),
            {"seed": seed, "solutions": [{"card": c.id, "min_pieces": a["min_pieces"], "pieces": a["solution"]}
                                         for c, a in zip(chunk, answers, strict=True)]}))
    return puzzles, solutions


def _text(cards: list[Card]) -> str:
    return "\n\n".join("\n".join([f"{c.id} {c.points} {c.reward}", *c.grid_lines()]) for c in cards)


__all__ = ["deck_panels", "deck_text", "card_figure", "NCELLS"]
