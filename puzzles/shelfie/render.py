"""Text and SVG pictures of the living room board and the bookshelves."""

from __future__ import annotations

import re
from html import escape
from typing import TYPE_CHECKING

from puzzles.shelfie.rules import COLS, EMPTY, LETTERS, ROWS, TYPE_NAMES, Bookshelf, personal_goal_card

if TYPE_CHECKING:
    from puzzles.shelfie.engine import ShelfieState

#: Tile colours close to the printed tiles.
COLOURS = {0: "#74b35a", 1: "#f2eee3", 2: "#f0b43c", 3: "#3f7fc4", 4: "#7fd3de", 5: "#e2739e"}


def shelf_text(shelf: Bookshelf) -> list[str]:
    """The shelf as framed text lines with column numbers underneath."""
    lines = ["|" + " ".join(row) + "|" for row in shelf.rows()]
    lines.append("+" + "-" * (2 * COLS - 1) + "+")
    lines.append(" " + " ".join(str(c + 1) for c in range(COLS)) + " ")
    return lines


def board_text(state: ShelfieState) -> list[str]:
    """The living room with coordinates (columns a-i, rows 1-9 from the top); ' ' = unusable."""
    lines = ["   a b c d e f g h i"]
    for r, row in enumerate(state.board_rows()):
        lines.append(f"{r + 1}  " + " ".join(row))
    return lines


#: What each common goal asks, in a line (docs/rules/my-shelfie.md has the full rules).
GOAL_TEXT = {
    "SIX_PAIRS": "at least 6 groups of 2+ same-type tiles",
    "FOUR_GROUPS_OF_FOUR": "at least 4 groups of 4+ same-type tiles",
    "TWO_SQUARES": "two groups that are each exactly a 2x2 square",
    "FOUR_CORNERS": "the four corners of the shelf, one type",
    "EIGHT_SAME": "8 tiles of one type anywhere",
    "DIAGONAL": "5 tiles of one type on a diagonal of length 5",
    "X_SHAPE": "5 tiles of one type in an X (corners and centre of a 3x3)",
    "FOUR_ROWS_MAX3": "4 full rows, each with at most 3 types",
    "THREE_COLUMNS_MAX3": "3 full columns, each with at most 3 types",
    "TWO_ROWS_ALL_DIFFERENT": "2 full rows, each with 5 different types",
    "TWO_COLUMNS_ALL_DIFFERENT": "2 full columns, each with 6 different types",
    "STAIRCASE": "column heights rising or falling by 1 (k..k+4, k = 1 or 2)",
}

#: ANSI colours of the tile letters on a terminal (close to the printed tiles).
ANSI = {0: "32", 1: "97", 2: "33", 3: "34", 4: "36", 5: "35"}


def paint(text: str) -> str:
    """Colour the tiles of ``text`` (a C B G F T P standing alone, as on the board and shelves) for a terminal."""
    return _TILE.sub(lambda m: f"\x1b[1;{ANSI[LETTERS.index(m[1])]}m{m[1]}\x1b[0m", text)


_TILE = re.compile(rf"(?<![A-Za-z0-9_])([{LETTERS}])(?![A-Za-z0-9_])")


def personal_card_text(card: int, shelf: Bookshelf | None = None) -> list[str]:
    """Personal goal card ``card`` drawn as a 6x5 shelf: the type wanted in each of its 6 cells.

    With ``shelf``, a matched cell is shown in upper case and an unmatched one in lower case.
    """
    grid = [["." for _ in range(COLS)] for _ in range(ROWS)]
    for r, c, t in personal_goal_card(card):
        matched = shelf is not None and shelf.grid[r][c] == t
        grid[r][c] = LETTERS[t] if shelf is None or matched else LETTERS[t].lower()
    lines = ["|" + " ".join(row) + "|" for row in grid]
    lines.append("+" + "-" * (2 * COLS - 1) + "+")
    return lines


#: The ``viewer`` of a picture that every seat may see: nobody's personal card.
PUBLIC = -1


def state_text(state: ShelfieState, viewer: int | None = None, color: bool = False) -> str:
    """Board, goals, token stacks and every shelf (personal cards shown to ``viewer``, to all with None,
    to nobody with :data:`PUBLIC`); seats are counted from 1 (P1, P2...).

    For a ``viewer`` (the seat at the terminal) its personal card is drawn beside its shelf, with
    the points it gives now; ``color`` paints the tiles for a terminal.
    """
    from puzzles.shelfie.rules import PERSONAL_POINTS, personal_goal_matches

    out = board_text(state)
    out.append("")
    out.append("common goals (tokens left):")
    for key, stack in zip(state.common_goals, state.stacks):
        out.append(f"  {key} {stack or '[]'}: {GOAL_TEXT.get(key, '')}")
    out.append("bag: " + " ".join(f"{LETTERS[t]}{n}" for t, n in enumerate(state.bag)) + f"  ({sum(state.bag)})")
    blocks = []
    for seat in range(state.num_players):
        card = state.personal_cards[seat] if viewer is None or viewer == seat else "?"
        mark = "*" if not state.game_over and not state.needs_refill and state.to_move == seat else " "
        head = f"{mark}P{seat + 1} card {card}"
        blocks.append([head.ljust(13)] + [line.ljust(13) for line in shelf_text(Bookshelf(state.shelves[seat]))])
    if viewer is not None and viewer != PUBLIC:
        card = state.personal_cards[viewer]
        shelf = Bookshelf(state.shelves[viewer])
        matches = personal_goal_matches(card, shelf)
        head = f" your card {card}"
        lines = personal_card_text(card, shelf)
        blocks.append([head.ljust(13)] + [line.ljust(13) for line in lines]
                      + [f" {matches}/6: {PERSONAL_POINTS[matches]} pts".ljust(13)])
    height = max(len(b) for b in blocks)
    for parts in zip(*(b + [" " * 13] * (height - len(b)) for b in blocks)):
        out.append("  ".join(parts).rstrip())
    if viewer is not None and viewer != PUBLIC:
        out.append(f"  (your card: the type wanted in 6 cells; upper case = matched now; "
                   f"{'/'.join(map(str, PERSONAL_POINTS[1:]))} pts for 1..6)")
    tokens = "  ".join(f"P{s + 1}: {state.tokens[s]}" + (" +end" if state.end_token == s else "")
                       for s in range(state.num_players))
    out.append("tokens " + tokens)
    if state.game_over:
        out.append("final scores: " + ", ".join(f"P{s + 1} {int(v)}" for s, v in enumerate(state.scores()))
                   + f"; winner P{state.winner() + 1}")
    text = "\n".join(out)
    return paint(text) if color else text


def _tile_svg(x: float, y: float, size: float, t: int) -> str:
    return (f'<rect x="{x + 1:.1f}" y="{y + 1:.1f}" width="{size - 2:.1f}" height="{size - 2:.1f}" rx="3" '
            f'fill="{COLOURS[t]}" stroke="#333" stroke-width="0.8"><title>{TYPE_NAMES[t]}</title></rect>'
            f'<text x="{x + size / 2:.1f}" y="{y + size / 2 + 4:.1f}" font-size="{size * 0.42:.0f}" '
            f'text-anchor="middle" font-family="sans-serif" fill="#222">{LETTERS[t]}</text>')


def shelf_svg_body(shelf: Bookshelf, x0: float, y0: float, cell: float, personal: int | None = None,
                   title: str | None = None) -> list[str]:
    """SVG elements of one shelf with its top-left corner at (x0, y0)."""
    parts = []
    if title:
        parts.append(f'<text x="{x0:.1f}" y="{y0 - 6:.1f}" font-size="13" font-family="sans-serif">{escape(title)}</text>')
    parts.append(f'<rect x="{x0 - 3:.1f}" y="{y0 - 3:.1f}" width="{COLS * cell + 6:.1f}" height="{ROWS * cell + 6:.1f}" '
                 f'fill="#8b5a2b" rx="4"/>')
    for r in range(ROWS):
        for c in range(COLS):
            x, y = x0 + c * cell, y0 + r * cell
            parts.append(f'<rect x="{x + 1:.1f}" y="{y + 1:.1f}" width="{cell - 2:.1f}" height="{cell - 2:.1f}" fill="#4a2f17"/>')
            t = int(shelf.grid[r, c])
            if t != EMPTY:
                parts.append(_tile_svg(x, y, cell, t))
    if personal:
        for r, c, t in personal_goal_card(personal):
            x, y = x0 + c * cell, y0 + r * cell
            parts.append(f'<rect x="{x + 2:.1f}" y="{y + 2:.1f}" width="{cell - 4:.1f}" height="{cell - 4:.1f}" '
                         f'fill="none" stroke="{COLOURS[t]}" stroke-width="3" stroke-dasharray="4 2"/>')
    return parts


def shelf_svg(shelf: Bookshelf, personal: int | None = None, cell: int = 28) -> str:
    """A stand-alone SVG of a shelf; a personal card's target cells are outlined in their colour."""
    width, height = COLS * cell + 12, ROWS * cell + 12
    body = shelf_svg_body(shelf, 6, 6, cell, personal)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}">' + "".join(body) + "</svg>")


def state_svg(state: ShelfieState, viewer: int | None = None, cell: int = 26) -> str:
    """The board and all shelves side by side (personal cards of ``viewer``, of everyone with None, of nobody
    with :data:`PUBLIC`; points only with every card shown); seats counted from 1."""
    board_w = 9 * cell + 30
    parts = []
    for r in range(9):
        parts.append(f'<text x="4" y="{30 + r * cell + cell / 2 + 4:.1f}" font-size="11" font-family="sans-serif">{r + 1}</text>')
    for c in range(9):
        parts.append(f'<text x="{18 + c * cell + cell / 2:.1f}" y="22" font-size="11" text-anchor="middle" '
                     f'font-family="sans-serif">{"abcdefghi"[c]}</text>')
    for r in range(9):
        for c in range(9):
            x, y = 18 + c * cell, 26 + r * cell
            if state.mask[r, c]:
                parts.append(f'<rect x="{x + 1}" y="{y + 1}" width="{cell - 2}" height="{cell - 2}" fill="#d9c9a3"/>')
                t = int(state.board[r, c])
                if t != EMPTY:
                    parts.append(_tile_svg(x, y, cell, t))
    left: float = board_w + 10
    shelf_cell = cell * 0.9
    for seat in range(state.num_players):
        card = state.personal_cards[seat] if viewer is None or viewer == seat else None
        points = int(state.scores()[seat]) if viewer is None else None
        title = f"P{seat + 1}" + (f" card {card}" if card else "") + (f" · {points} pts" if points is not None else "")
        if not state.game_over and not state.needs_refill and state.to_move == seat:
            title += " ◀"
        parts += shelf_svg_body(Bookshelf(state.shelves[seat]), left, 40, shelf_cell, card, title)
        left += COLS * shelf_cell + 24
    goals = " · ".join(f"{k} {s}" for k, s in zip(state.common_goals, state.stacks))
    height = 26 + 9 * cell + 24
    parts.append(f'<text x="{board_w + 10}" y="{height - 8}" font-size="12" font-family="sans-serif">{escape(goals)}</text>')
    width = left + 10
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height}" '
            f'viewBox="0 0 {width:.0f} {height}"><rect width="100%" height="100%" fill="white"/>'
            + "".join(parts) + "</svg>")
