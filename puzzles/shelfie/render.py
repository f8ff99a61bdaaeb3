"""Text and SVG pictures of the living room board and the bookshelves."""

from __future__ import annotations

import re
from html import escape
from typing import TYPE_CHECKING

from puzzles import svg
from puzzles.shelfie.components import END_GAME_TOKEN
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
            parts.append(f'<rect x="{x + 1:.1f}" y="{y + 1:.1f}" width="{cell - 2:.1f}" height="{cell - 2:.1f}" '
                         f'fill="#4a2f17" class="shelf-cell" data-row="{r}" data-col="{c}"/>')
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


#: Each common goal in the words of ``docs/rules/my-shelfie.md`` (a group: touching tiles of one type).
GOAL_RULE = {
    "SIX_PAIRS": "At least 6 groups of 2 or more tiles of one type.",
    "FOUR_GROUPS_OF_FOUR": "At least 4 groups of 4 or more tiles of one type.",
    "TWO_SQUARES": "Two groups that are each exactly a 2×2 square; the two may be of different types.",
    "FOUR_CORNERS": "The four corner cells of the shelf are filled with one type.",
    "EIGHT_SAME": "At least 8 tiles of one type anywhere.",
    "DIAGONAL": "5 tiles of one type on one of the four length-5 diagonals (either direction).",
    "X_SHAPE": "5 tiles of one type forming an X (four corners and centre) in some 3×3 window.",
    "FOUR_ROWS_MAX3": "At least 4 full rows, each with at most 3 different types.",
    "THREE_COLUMNS_MAX3": "At least 3 full columns, each with at most 3 different types.",
    "TWO_ROWS_ALL_DIFFERENT": "At least 2 full rows, each with 5 different types.",
    "TWO_COLUMNS_ALL_DIFFERENT": "At least 2 full columns, each with 6 different types.",
    "STAIRCASE": "The column heights, left to right, are k, k+1, …, k+4 or k+4, …, k with k = 1 or 2.",
}
#: Characters per line of a goal's wrapped text, and the width (px) of its box.
GOAL_CHARS, GOAL_W = 48, 300


def state_svg(state: ShelfieState, viewer: int | None = None, cell: int = 26) -> str:
    """The board, every shelf, the common goals (full text) and the personal card(s) the viewer may see.

    ``viewer``: a seat sees its own personal card (drawn apart and outlined on its shelf) and its own total;
    :data:`PUBLIC` sees no personal card and the public points only; None sees everything (a finished
    game, analysis).  Ids and classes: board cells ``class="cell" data-row data-col``, ``<g class="shelf"
    id="shelf-S">``, ``<g class="goal common" id="goal-K" data-goal=KEY>``, ``<g class="goal personal"
    id="personal-S" data-card=N>``; seats counted from 1 in the text.
    """
    cards, points = _visible(state, viewer)
    parts = _board_svg(state, 18, 26, cell)
    left: float = 9 * cell + 40
    shelf_cell = cell * 0.9
    for seat in range(state.num_players):
        parts.append(_seat_shelf(state, seat, cards[seat], points[seat], left, 40, shelf_cell))
        left += COLS * shelf_cell + 24
    y: float = 26 + 9 * cell + 18
    goals_h = 0.0
    for k, (key, stack) in enumerate(zip(state.common_goals, state.stacks, strict=True)):
        block, height = _common_goal(k, key, stack, 10 + k * (GOAL_W + 10), y)
        parts.append(block)
        goals_h = max(goals_h, height)
    own = [seat for seat, card in enumerate(cards) if card is not None and viewer is not None]
    x = 10 + len(state.common_goals) * (GOAL_W + 10)
    for seat in own:
        parts.append(_personal_card(state, seat, x, y))
        x += COLS * 16 + 40
    y += max(goals_h, ROWS * 16 + 40) + 8
    parts.append(_footer(state, points, 10, y))
    width = max(left + 10, x + 10)
    return svg.document(width, y + 30, parts, class_="kibitz shelfie")


def _visible(state: ShelfieState, viewer: int | None) -> tuple[list[int | None], list[int]]:
    """The personal cards and points ``viewer`` may see: from its observation (None: everything)."""
    if viewer is None:
        return list(state.personal_cards), [int(v) for v in state.scores()]
    observation = state.observation(max(viewer, 0))
    public = [int(v) for v in observation["public_points"]]
    if viewer == PUBLIC:
        return [None] * state.num_players, public
    own = int(state.scores()[viewer])
    return list(observation["personal_cards"]), [own if seat == viewer else v for seat, v in enumerate(public)]


def _board_svg(state: ShelfieState, x0: float, y0: float, cell: float) -> list[str]:
    """The living room: coordinates, usable cells (``class="cell"``) and their tiles."""
    parts = [svg.text(x0 - 14, y0 + r * cell + cell / 2 + 4, str(r + 1), 11) for r in range(9)]
    parts += [svg.text(x0 + c * cell + cell / 2, y0 - 4, "abcdefghi"[c], 11, text_anchor="middle") for c in range(9)]
    cells = []
    for r in range(9):
        for c in range(9):
            if not state.mask[r, c]:
                continue
            x, y = x0 + c * cell, y0 + r * cell
            t = int(state.board[r, c])
            cells.append(svg.tag("rect", x=x + 1, y=y + 1, width=cell - 2, height=cell - 2, fill="#d9c9a3",
                                 class_="cell", data_row=r, data_col=c, data_tile="" if t == EMPTY else LETTERS[t]))
            if t != EMPTY:
                cells.append(_tile_svg(x, y, cell, t))
    parts.append(svg.group(cells, class_="board"))
    return parts


def _seat_shelf(state: ShelfieState, seat: int, card: int | None, points: int, x0: float, y0: float,
                cell: float) -> str:
    """One seat's shelf under its title (points, tokens, the end token, whose turn), its card's cells
    outlined when ``card`` is given."""
    title = f"P{seat + 1}" + (f" · card {card}" if card else "") + f" · {points} pts"
    if not state.game_over and not state.needs_refill and state.to_move == seat:
        title += " ◀"
    body = shelf_svg_body(Bookshelf(state.shelves[seat]), x0, y0, cell, card, title)
    won = [f"goal {k + 1}: {value}" for k, value in enumerate(state.tokens[seat]) if value]
    won += [f"end: {END_GAME_TOKEN}"] if state.end_token == seat else []
    body.append(svg.text(x0, y0 + ROWS * cell + 18, "tokens: " + (", ".join(won) or "none"), 11, class_="tokens"))
    return svg.group(body, class_="shelf", id=f"shelf-{seat}", data_seat=seat)


def _common_goal(k: int, key: str, stack: list[int], x0: float, y0: float) -> tuple[str, float]:
    """A common goal's box: its name, its full rule text wrapped, the scoring tokens left."""
    body, lines = svg.wrapped(x0 + 8, y0 + 34, GOAL_RULE.get(key, GOAL_TEXT.get(key, key)), GOAL_CHARS, 11,
                              class_="goal-text")
    height = 44 + lines * 14 + 16
    tokens = " ".join(map(str, stack)) or "none"
    parts = [svg.tag("rect", x=x0, y=y0, width=GOAL_W, height=height, rx=6, fill="#f6f1e4", stroke="#c8b98f"),
             svg.text(x0 + 8, y0 + 16, f"goal {k + 1}: {key}", 11, class_="goal-name", font_weight="bold"), body,
             svg.text(x0 + 8, y0 + height - 8, f"tokens left: {tokens}", 11, class_="goal-tokens")]
    return svg.group(parts, class_="goal common", id=f"goal-{k}", data_goal=key), height


def _personal_card(state: ShelfieState, seat: int, x0: float, y0: float) -> str:
    """Seat ``seat``'s personal goal card as a small shelf of wanted types, with its matches and points."""
    from puzzles.shelfie.rules import PERSONAL_POINTS, personal_goal_matches

    card = state.personal_cards[seat]
    size = 16
    parts = [svg.text(x0, y0 + 12, f"P{seat + 1} personal card {card}", 12)]
    for r in range(ROWS):
        for c in range(COLS):
            parts.append(svg.tag("rect", x=x0 + c * size, y=y0 + 18 + r * size, width=size - 1, height=size - 1,
                                 fill="#eeeeee"))
    for r, c, t in personal_goal_card(card):
        parts.append(svg.tag("rect", x=x0 + c * size, y=y0 + 18 + r * size, width=size - 1, height=size - 1,
                             fill=COLOURS[t], stroke="#333333", class_="wanted", data_row=r, data_col=c,
                             data_tile=LETTERS[t]))
    matches = personal_goal_matches(card, Bookshelf(state.shelves[seat]))
    parts.append(svg.text(x0, y0 + 18 + ROWS * size + 14, f"{matches}/6 matched: {PERSONAL_POINTS[matches]} pts", 11))
    return svg.group(parts, class_="goal personal", id=f"personal-{seat}", data_card=card, data_seat=seat)


def _footer(state: ShelfieState, points: list[int], x0: float, y0: float) -> str:
    """The bag and, once the game is over, the final scores and the winner."""
    line = "bag: " + " ".join(f"{LETTERS[t]}{n}" for t, n in enumerate(state.bag)) + f" ({sum(state.bag)} tiles)"
    if state.game_over:
        line += "  ·  final scores: " + ", ".join(f"P{s + 1} {v}" for s, v in enumerate(points))
        line += f"; winner P{state.winner() + 1}"
    return svg.text(x0, y0 + 12, line, 12, class_="footer")
