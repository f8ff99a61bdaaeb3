"""Text and SVG pictures of a Blokus position; the last move is highlighted in both."""

from __future__ import annotations

import html
import re
import shutil
import sys
import textwrap
from typing import TYPE_CHECKING

from puzzles.blokus.tables import COLUMN_LETTERS, PIECE_NAMES

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


def board_svg(state: BlokusState, size: int = 18) -> str:
    """SVG of the board (its ``cols`` x ``rows`` cells); the last move's cells carry a white dot, starting
    cells a grey ring."""
    t = state.tables
    n, w = t.rows, t.cols
    pad = 16
    total_w, total_h = w * size + pad + 2, n * size + pad + 2
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_w}" height="{total_h}" viewBox="0 0 {total_w} {total_h}">',
        f'<rect x="{pad}" y="0" width="{w * size}" height="{n * size}" fill="#eeeeee"/>',
    ]
    last = state.last_move()
    last_cells = set(last[1].cells) if last else set()
    starts = {t.unflat(int(q)) for c in range(state.num_colors) for q in state.arrays.starts[c, : state.arrays.nstarts[c]]}
    for r in range(n):
        parts.append(f'<text x="{pad - 2}" y="{r * size + size * 0.7}" font-size="9" text-anchor="end">{n - r}</text>')
    for c in range(w):
        parts.append(f'<text x="{pad + c * size + size / 2}" y="{n * size + 11}" font-size="9" text-anchor="middle">{COLUMN_LETTERS[c]}</text>')
    for r in range(n):
        for c in range(w):
            x, y = pad + c * size, r * size
            who = int(state.owner[t.flat(r, c)])
            fill = "#eeeeee" if who < 0 else FILL[state.color_names[who]]
            parts.append(f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="{html.escape(fill)}" stroke="#bbbbbb" stroke-width="0.5"/>')
            if who < 0 and (r, c) in starts:
                parts.append(f'<circle cx="{x + size / 2}" cy="{y + size / 2}" r="{size / 4}" fill="none" stroke="#888888"/>')
            if (r, c) in last_cells:
                parts.append(f'<circle cx="{x + size / 2}" cy="{y + size / 2}" r="{size / 6}" fill="#ffffff"/>')
    if last:
        # outline the last move
        cells = last_cells
        for r, c in cells:
            x, y = pad + c * size, r * size
            for dr, dc, x1, y1, x2, y2 in ((0, 1, 1, 0, 1, 1), (1, 0, 0, 1, 1, 1), (0, -1, 0, 0, 0, 1), (-1, 0, 0, 0, 1, 0)):
                if (r + dr, c + dc) not in cells:
                    parts.append(
                        f'<line x1="{x + x1 * size}" y1="{y + y1 * size}" x2="{x + x2 * size}" y2="{y + y2 * size}" '
                        'stroke="#000000" stroke-width="2"/>'
                    )
    parts.append("</svg>")
    return "".join(parts)
