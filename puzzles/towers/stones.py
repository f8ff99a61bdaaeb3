"""Stones, colours and the colour wheel of Rainbow Blackjack.

A stone is a small int *code*: a coloured stone is ``color * 6 + (value - 1)``
(0..35) and every grey joker is :data:`JOKER` (36) — jokers are
interchangeable, so a hand or a pool is a multiset of codes.

Colours follow the wheel order red, orange, yellow, green, blue, purple, so
colour ``c`` may go into towers ``c-1, c, c+1`` (mod 6).  Player 1 (seat 0)
owns the primary colours red, yellow, blue; player 2 (seat 1) the secondary
colours orange, green, purple; each also has 3 jokers.
"""

from __future__ import annotations

COLORS = ("red", "orange", "yellow", "green", "blue", "purple")
LETTERS = "ROYGBP"
JOKER = 36
NUM_CODES = 37
PLAYER_COLORS = ((0, 2, 4), (1, 3, 5))
#: SVG / terminal colours of the six towers and of grey jokers.
HEX = ("#d62728", "#ff7f0e", "#e5c700", "#2ca02c", "#1f77b4", "#8e44ad")
JOKER_HEX = "#8c8c8c"
#: Owner marks as in the original game: red dot = player 1, green dot = player 2.
OWNER_HEX = ("#d62728", "#2ca02c")


def color_of(code: int) -> int:
    """Wheel index 0..5 of a coloured stone, -1 for a joker."""
    return -1 if code == JOKER else code // 6


def value_of(code: int) -> int:
    """Face value 1..6 of a coloured stone; a joker announces as 0."""
    return 0 if code == JOKER else code % 6 + 1


def make_stone(color: int, value: int) -> int:
    """The code of the coloured stone ``color`` (0..5) with face ``value`` (1..6)."""
    if not (0 <= color < 6 and 1 <= value <= 6):
        raise ValueError(f"no such stone: color {color}, value {value}")
    return color * 6 + value - 1


def stone_str(code: int) -> str:
    """``R6``, ``B1`` ..., ``J`` for a joker."""
    if code == JOKER:
        return "J"
    return f"{LETTERS[code // 6]}{code % 6 + 1}"


def parse_stone(text: str) -> int:
    """Inverse of :func:`stone_str` (case-insensitive; ``J``/``joker``/``X`` for a joker)."""
    t = text.strip().upper()
    if t in ("J", "JOKER", "X", "GREY", "GRAY"):
        return JOKER
    if len(t) == 2 and t[0] in LETTERS and t[1] in "123456":
        return make_stone(LETTERS.index(t[0]), int(t[1]))
    raise ValueError(f"not a stone: {text!r} (use e.g. R6, O3, Y1, G2, B5, P4 or J)")


def parse_stones(text: str) -> list[int]:
    """A comma or space separated list of stones, e.g. ``"R6,R5,B4,J"``."""
    parts = [p for p in text.replace(",", " ").split() if p]
    return [parse_stone(p) for p in parts]


def parse_tower(text: str) -> int:
    """A tower by letter (``R``), name (``red``) or index (``0``)."""
    t = text.strip().lower()
    for i, name in enumerate(COLORS):
        if t in (name, LETTERS[i].lower(), str(i)):
            return i
    raise ValueError(f"not a tower: {text!r} (use R, O, Y, G, B or P)")


def allowed_towers(code: int) -> tuple[int, ...]:
    """Towers a coloured stone may enter by the wheel rule (all six for a joker; its other rules apply)."""
    if code == JOKER:
        return tuple(range(6))
    c = code // 6
    return ((c - 1) % 6, c, (c + 1) % 6)


def player_set(player: int) -> list[int]:
    """The 21 stones of a player: 18 coloured in their three colours plus 3 jokers (sorted)."""
    codes = [make_stone(c, v) for c in PLAYER_COLORS[player] for v in range(1, 7)]
    return sorted(codes) + [JOKER] * 3


def announce_attr(code: int, mode: str) -> str | int:
    """What announcing ``mode`` ('colors' or 'numbers') says about a stone: letter/'grey' or 0..6."""
    if mode == "colors":
        return "grey" if code == JOKER else LETTERS[code // 6]
    return value_of(code)
