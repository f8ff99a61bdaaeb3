"""Text and SVG pictures of a Blokus position; the last move is highlighted in both."""

from __future__ import annotations

import re
import shutil
import sys
import textwrap
from typing import TYPE_CHECKING

from puzzles import svg
from puzzles.blokus.tables import COLUMN_LETTERS, NUM_PIECES, PIECE_NAMES, PIECES

if TYPE_CHECKING:
    from puzzles.blokus.engine import BlokusState

FILL = {"blue": "#2a6fdb", "yellow": "#f2c318", "red": "#db3a34", "green": "#2fa84f", "purple": "#8e44ad", "orange": "#f39c12"}
ANSI = {"blue": 44, "yellow": 43, "red": 41, "green": 42, "purple": 45, "orange": 103}


def board_text(state: BlokusState, color: bool | None = None, pieces: bool = True) -> str:
    """The board with row numbers (Pentobi: counted from the bottom) and column letters.

    Each cell shows the first letter of its color (lower case; the last move in
    upper case), ``+`` for an empty starting cell, ``.`` for empty; ANSI
    background colours when ``color`` (default: stdout is a terminal).  With
    ``pieces``, one line per color lists the pieces still in hand (Pentobi's
    names, see ``docs/rules/blokus.md``) and their squares.
    """
    use_color = sys.stdout.isatty() if color is None else color
    t = state.tables
    n, w = t.rows, t.cols
    last = state.last_move()
    last_cells = set(last[1].cells) if last else set()
    starts = {t.unflat(int(q)) for c in range(state.num_colors) for q in state.arrays.starts[c, : state.arrays.nstarts[c]]}
    names = state.color_names
    lines = ["    " + " ".join(COLUMN_LETTERS[:w])]
    for r in range(n):
        row = []
        for c in range(w):
            who = int(state.owner[t.flat(r, c)])
            if who < 0:
                row.append("+" if (r, c) in starts else ".")
                continue
            letter = names[who][0]
            letter = letter.upper() if (r, c) in last_cells else letter
            row.append(f"\x1b[{ANSI[names[who]]};30m{letter}\x1b[0m" if use_color else letter)
        lines.append(f"{n - r:>3} " + " ".join(row))
    if pieces:
        lines.extend(pieces_text(state))
    return "\n".join(lines)


def pieces_text(state: BlokusState) -> list[str]:
    """One line per color: the pieces it still holds, e.g. ``blue (89 squares): 1 2 I3 V3 ..``."""
    sizes = state.tables.piece_sizes
    out = []
    for c, name in enumerate(state.color_names):
        left = state.pieces_left(c)
        squares = int(sum(int(sizes[p]) for p in range(len(sizes)) if state.arrays.left[c, p]))
        out.append(f"{name} ({squares} squares): {' '.join(left) if left else 'all placed'}")
    return out


def legal_moves_text(state: BlokusState, filter_text: str = "") -> str:
    """A human's ``?``: the legal moves grouped by piece, one line per piece (name, count, an example);
    ``filter_text`` (piece names, e.g. ``F L5``) lists those pieces' moves in full."""
    if state.is_terminal():
        return "  the game is over: no moves"
    color = state.color_names[state.to_move]
    by_piece: dict[str, list[str]] = {}
    for move in state.legal_actions():
        by_piece.setdefault(move.piece or "pass", []).append(move.text)
    if filter_text.strip():
        return "\n".join(_piece_moves_text(state, name, by_piece) for name in re.split(r"[\s,]+", filter_text.strip()))
    if list(by_piece) == ["pass"]:
        return f"  {color} has no placement: type pass"
    total = sum(len(moves) for moves in by_piece.values())
    lines = [f"  {total} legal move{'' if total == 1 else 's'} for {color}, by piece"
             f" ('? NAME' lists one piece's moves, e.g. '? {max(by_piece, key=lambda k: len(by_piece[k]))}'):"]
    for name in PIECE_NAMES:
        if name in by_piece:
            moves = by_piece[name]
            lines.append(f"    {name:<3} {len(moves):>4} move{' ' if len(moves) == 1 else 's'}  e.g. {moves[0]}")
    stuck = [name for name in state.pieces_left(state.to_move) if name not in by_piece]
    if stuck:
        lines.append(f"    no move now for: {' '.join(stuck)}")
    return "\n".join(lines)


def _piece_moves_text(state: BlokusState, name: str, by_piece: dict[str, list[str]]) -> str:
    """The moves of piece ``name`` (any case), wrapped to the terminal; or why it has none."""
    known = {piece.upper(): piece for piece in PIECE_NAMES}
    piece = known.get(name.upper())
    if piece is None:
        return f"  no piece named {name!r}; the pieces: {' '.join(PIECE_NAMES)}"
    if piece not in by_piece:
        held = piece in state.pieces_left(state.to_move)
        return f"  {piece}: {'no legal move now' if held else 'already placed'}"
    moves = by_piece[piece]
    width = shutil.get_terminal_size((100, 24)).columns
    body = textwrap.fill(" ".join(moves), width=max(width, 40), initial_indent="    ", subsequent_indent="    ",
                         break_long_words=False, break_on_hyphens=False)
    return f"  {piece}: {len(moves)} move{'' if len(moves) == 1 else 's'}\n{body}"


#: Cell size (px) of the board and of the pieces drawn in the side panel.
CELL, PIECE_CELL = 18, 6
#: Pieces per line in a colour's panel, and the room each one takes (px).
PIECES_PER_LINE, SLOT = 11, 34


def board_svg(state: BlokusState, size: int = CELL) -> str:
    """The whole table as SVG: the board, every colour's pieces (those left filled, those placed faint), the
    scores and whose turn it is; the last move is outlined (see ``docs/rules/blokus.md``).

    Each board cell is ``<rect class="cell" data-row data-col>`` (row 0 at the top, as in ``grid()``),
    each colour's panel ``<g class="pieces-left" id="pieces-COLOR">`` holding ``<g class="piece left|placed"
    data-piece=NAME>``, each score ``<text class="score" id="score-COLOR">``, the last move ``<g class="last-move">``.
    """
    t = state.tables
    board_w, board_h = t.cols * size + 20, t.rows * size + 32
    panel_x = board_w + 12
    parts = [svg.text(4, 14, _turn_line(state), 13, class_="status")]
    parts += _board_parts(state, 16, 18, size)
    y = 18.0
    colour_scores = state.color_scores()
    for color in range(state.num_colors):
        block, height = _pieces_panel(state, color, colour_scores[color], panel_x, y)
        parts.append(block)
        y += height
    parts.append(_seat_scores(state, panel_x, y + 12))
    width = panel_x + PIECES_PER_LINE * SLOT + 8
    return svg.document(width, max(board_h + 4, y + 24), parts, class_="kibitz blokus")


def _turn_line(state: BlokusState) -> str:
    """Variant, move count and the colour to move (or the end)."""
    moves = len(state.history)
    if state.to_move < 0:
        return f"Blokus {state.variant.name}: game over after {moves} moves"
    return f"Blokus {state.variant.name}: move {moves + 1}, {state.color_names[state.to_move]} to play"


def _board_parts(state: BlokusState, x0: float, y0: float, size: float) -> list[str]:
    """The cells, coordinates, starting rings and the outlined last move."""
    t = state.tables
    starts = {t.unflat(int(q)) for c in range(state.num_colors) for q in state.arrays.starts[c, : state.arrays.nstarts[c]]}
    parts = []
    for r in range(t.rows):
        parts.append(svg.text(x0 - 3, y0 + r * size + size * 0.7, str(t.rows - r), 9, text_anchor="end"))
    for c in range(t.cols):
        parts.append(svg.text(x0 + c * size + size / 2, y0 + t.rows * size + 11, COLUMN_LETTERS[c], 9,
                              text_anchor="middle"))
    cells = []
    for r in range(t.rows):
        for c in range(t.cols):
            who = int(state.owner[t.flat(r, c)])
            fill = "#eeeeee" if who < 0 else FILL[state.color_names[who]]
            cells.append(svg.tag("rect", x=x0 + c * size, y=y0 + r * size, width=size, height=size, fill=fill,
                                 stroke="#bbbbbb", stroke_width="0.5", class_="cell", data_row=r, data_col=c,
                                 data_owner="" if who < 0 else state.color_names[who]))
            if who < 0 and (r, c) in starts:
                cells.append(f'<circle cx="{x0 + c * size + size / 2}" cy="{y0 + r * size + size / 2}" r="{size / 4}" '
                             'fill="none" stroke="#888888" class="start"/>')
    parts.append(svg.group(cells, class_="board"))
    last = state.last_move()
    if last:
        color, move = last
        marks = [f'<circle cx="{x0 + c * size + size / 2}" cy="{y0 + r * size + size / 2}" r="{size / 6}" fill="#ffffff"/>'
                 for r, c in move.cells]
        parts.append(svg.group(marks + svg.outline(move.cells, x0, y0, size), class_="last-move",
                               data_color=state.color_names[color], data_move=move.text))
    return parts


def _pieces_panel(state: BlokusState, color: int, score: int, x0: float, y0: float) -> tuple[str, float]:
    """One colour's score line and its 21 pieces (left: filled; placed: faint); returns the group and its height."""
    name = state.color_names[color]
    left = state.arrays.left[color]
    squares = sum(int(state.tables.piece_sizes[p]) for p in range(NUM_PIECES) if left[p])
    mark = " ◀" if state.to_move == color else ""
    parts = [svg.text(x0, y0 + 10, f"{name}: {score} points, {squares} squares in hand{mark}", 12,
                      class_="score", id=f"score-{name}", data_color=name, data_score=score)]
    for p, piece in enumerate(PIECES):
        row, col = divmod(p, PIECES_PER_LINE)
        x, y = x0 + col * SLOT, y0 + 16 + row * SLOT
        held = bool(left[p])
        parts.append(svg.shape(piece.cells, x, y, PIECE_CELL, FILL[name] if held else "#e4e4e4",
                               class_=f"piece {'left' if held else 'placed'}", data_piece=piece.name,
                               opacity=None if held else "0.5"))
    lines = -(-NUM_PIECES // PIECES_PER_LINE)
    height = 16 + lines * SLOT + 6
    return svg.group(parts, class_="pieces-left", id=f"pieces-{name}", data_color=name), height


def _seat_scores(state: BlokusState, x0: float, y0: float) -> str:
    """The seats' scores as the variant counts them (seats counted from 1)."""
    scores = state.scores()
    line = "scores: " + " · ".join(f"seat {seat + 1} {score:g}" for seat, score in enumerate(scores))
    return svg.text(x0, y0, line, 12, class_="seat-scores")
