"""SVG of the whole Project L table: face-up puzzles, supply, and every seat's puzzles, pieces and score.

Nothing on the table is hidden but the order of the face-down decks (their sizes are drawn), so every
seat sees the same picture (``docs/rules/project-l.md``).  Elements carry ids and classes that tests
and the notebook widget find: ``<g class="puzzle face-up" id="puzzle-ID" data-row="W|B|G" data-slot>``,
``<g class="slot empty">``, ``<g class="supply">`` with one ``<g class="supply-piece" data-shape>`` per
shape, ``<g class="seat" id="seat-P">`` holding ``<text class="score">``, ``<g class="puzzle held"
id="puzzle-ID">`` and ``<g class="stock">`` (seats counted from 1 in the text, 0-based in ids).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from puzzles import svg
from puzzles.projectl.cards import SHAPE_COLORS, SHAPE_NAMES, SHAPES, SIZE, Card, card_svg

if TYPE_CHECKING:
    from puzzles.projectl.engine import ProjectLState

#: Cell size of the cards (px); a card is ``SIZE * CELL + 8`` wide and ``SIZE * CELL + 26`` high.
CELL = 16
CARD_W, CARD_H = SIZE * CELL + 8, SIZE * CELL + 26
CARD_GAP = 8
#: Pieces (supply and stock) are drawn with this cell size in slots this wide and this high (label above).
PIECE_CELL, PIECE_SLOT = 8, 46
PIECE_ROW = 14 + 2 * PIECE_CELL + 8
#: Pieces per line in a seat's stock.
STOCK_PER_LINE = 5
MARGIN = 10


def card_group(card: Card, pieces: Sequence[tuple[int, int]], x: float, y: float, **values: object) -> str:
    """A card (with the pieces on it) at (x, y), wrapped in a ``<g>`` with ``values`` as attributes."""
    return svg.group([card_svg(card, pieces, CELL, x0=x, y0=y, standalone=False)], **values)


def table_svg(state: ProjectLState) -> str:
    """The whole table: status, face-up rows (solo: the 3x3 grid), supply, then one band per seat."""
    parts = [svg.text(MARGIN, 16, state.status_line(), 13, class_="status")]
    y = 26.0
    rows = _solo_rows(state) if state.solo else [("W", "white puzzles", state.white_row, len(state.white_deck)),
                                                 ("B", "black puzzles", state.black_row, len(state.black_deck))]
    for key, title, cards, deck, *slots in rows:
        first = slots[0] if slots else 0
        parts.append(_face_up_row(state, key, title, cards, deck, first, y))
        y += CARD_H + 26
    rows_w = MARGIN + max(len(r[2]) for r in rows) * (CARD_W + CARD_GAP)
    parts.append(_supply(state, rows_w + 12, 26))
    if state.solo:
        parts.append(_solo_opponent(state, rows_w + 12, 26 + 3 * PIECE_ROW + 36))
    for p in range(state.num_players):
        block, height = _player(state, p, y)
        parts.append(block)
        y += height
    width = max(rows_w + 12 + 3 * PIECE_SLOT + MARGIN, _band_width(state) + MARGIN)
    return svg.document(width, y + MARGIN, parts, class_="kibitz projectl")


def _solo_rows(state: ProjectLState) -> list[tuple[str, str, list[int], int, int]]:
    """The solo grid as three rows of three (slots G0-G8), the deck size on the first."""
    grid = state.white_row
    return [("G", f"grid row {r + 1}", grid[3 * r:3 * r + 3], len(state.white_deck) if r == 0 else -1, 3 * r)
            for r in range(3)]


def _face_up_row(state: ProjectLState, key: str, title: str, cards: Sequence[int], deck: int, first: int,
                 y: float) -> str:
    """A row of face-up cards under its title and deck size; an empty slot is a dashed frame."""
    head = title + (f" (deck: {deck} face down)" if deck >= 0 else "")
    parts = [svg.text(MARGIN, y + 12, head, 12, class_="row-title")]
    for k, c in enumerate(cards):
        slot, x = first + k, MARGIN + k * (CARD_W + CARD_GAP)
        if c < 0:
            parts.append(svg.group([svg.tag("rect", x=x, y=y + 18, width=CARD_W, height=CARD_H, rx=4, fill="none",
                                            stroke="#bbbbbb", stroke_dasharray="4 3")],
                                   class_="slot empty", id=f"slot-{key}-{slot}", data_row=key, data_slot=slot))
            continue
        card = state.cards[c]
        parts.append(card_group(card, (), x, y + 18, class_=f"puzzle face-up {card.color}", id=f"puzzle-{card.id}",
                                data_row=key, data_slot=slot, data_card=card.id))
    return svg.group(parts, class_=f"row {'white' if key in 'WG' else 'black'}", id=f"row-{key}-{first}")


def _piece_slot(shape: int, count: int, x: float, y: float, cls: str) -> str:
    """One shape drawn in its colour with ``×count`` under it (faint when none is left)."""
    cells = SHAPES[shape].cells
    fill = SHAPE_COLORS[shape] if count else "#e0e0e0"
    label = svg.text(x, y + 9, f"{SHAPE_NAMES[shape]} ×{count}", 10)
    return svg.group([svg.shape(cells, x, y + 13, PIECE_CELL, fill), label], class_=cls, data_shape=SHAPE_NAMES[shape],
                     data_count=count)


def _supply(state: ProjectLState, x0: float, y0: float) -> str:
    """The shared supply: each shape with the number of pieces left, three per line."""
    parts = [svg.text(x0, y0 + 12, "supply", 12, class_="title")]
    for shape, count in enumerate(state.supply):
        row, col = divmod(shape, 3)
        parts.append(_piece_slot(shape, count, x0 + col * PIECE_SLOT, y0 + 20 + row * PIECE_ROW,
                                 "supply-piece"))
    return svg.group(parts, class_="supply")


def _solo_opponent(state: ProjectLState, x0: float, y0: float) -> str:
    """The automated opponent of the solo variant: its score, puzzles, supply and the column locks."""
    lines = ["automated opponent:", f"{state.opponent_score()} pts, {len(state.opp_cards)} puzzles",
             f"supply {state.opp_supply}", "locks on grid columns 1-3:", " ".join(map(str, state.locks))]
    return svg.group([svg.text(x0, y0 + 14 * k, line, 11, class_="score" if k == 1 else None)
                      for k, line in enumerate(lines)],
                     class_="opponent", id="opponent")


def _player(state: ProjectLState, p: int, y0: float) -> tuple[str, float]:
    """Seat ``p``'s band: score line, unfinished puzzles with their pieces, completed ones, pieces in stock."""
    done = " ".join(state.cards[c].id for c in state.done[p]) or "none"
    turn = " ◀ to act" if state.phase != "over" and state.player == p else ""
    parts = [svg.text(MARGIN, y0 + 14, f"seat {p + 1}: {state.points(p)} pts{turn}", 13, class_="score",
                      data_points=state.points(p)),
             svg.text(MARGIN + 190, y0 + 14, f"completed: {done}", 11, class_="done")]
    held = [(c, ps, "held") for c, _, ps in state.puzzles[p]] + [(c, ps, "touched") for c, ps in state.touched[p]]
    for slot, (c, pieces, kind) in enumerate(held):
        card = state.cards[c]
        pairs = [(int(s), int(m)) for s, m in pieces]
        parts.append(card_group(card, pairs, MARGIN + slot * (CARD_W + CARD_GAP), y0 + 22,
                                class_=f"puzzle {kind} {card.color}", id=f"puzzle-{card.id}", data_seat=p,
                                data_slot=slot, data_card=card.id))
    stock_x = MARGIN + max(4, len(held)) * (CARD_W + CARD_GAP) + 4
    parts.append(_stock(state, p, stock_x, y0 + 22))
    band = max(CARD_H, 16 + 2 * PIECE_ROW) + 30
    parts.insert(0, svg.tag("rect", x=2, y=y0 + 1, width=stock_x + STOCK_PER_LINE * PIECE_SLOT, height=band - 4, rx=6,
                            fill="#f4f1ea" if state.phase != "over" and state.player == p else "#fafafa",
                            stroke="#dddddd"))
    return svg.group(parts, class_="seat", id=f"seat-{p}", data_seat=p), band


def _band_width(state: ProjectLState) -> float:
    """The width of the widest seat band (four puzzles, or more with finishing touches, then the stock)."""
    most = max([4] + [len(state.puzzles[p]) + len(state.touched[p]) for p in range(state.num_players)])
    return MARGIN + most * (CARD_W + CARD_GAP) + 8 + STOCK_PER_LINE * PIECE_SLOT


def _stock(state: ProjectLState, p: int, x0: float, y0: float) -> str:
    """The pieces seat ``p`` holds, each shape once with its count ("no pieces" when empty)."""
    held = [(shape, count) for shape, count in enumerate(state.stock[p]) if count]
    parts = [svg.text(x0, y0 + 10, "pieces:" if held else "no pieces", 11)]
    for k, (shape, count) in enumerate(held):
        row, col = divmod(k, STOCK_PER_LINE)
        parts.append(_piece_slot(shape, count, x0 + col * PIECE_SLOT, y0 + 16 + row * PIECE_ROW, "stock-piece"))
    return svg.group(parts, class_="stock", id=f"stock-{p}")


def tableau_svg(state: ProjectLState, p: int) -> str:
    """One seat's band alone (its puzzles, pieces and score) as a stand-alone SVG."""
    block, height = _player(state, p, 0)
    return svg.document(_band_width(state) + MARGIN, height, [block],
                        class_="kibitz projectl tableau")
