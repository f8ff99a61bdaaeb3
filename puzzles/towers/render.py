"""Text and SVG pictures of the six towers and of a player's grid.

Everything works from an observation (public part + one player's private
part), so a human never sees more than the seat they play; the full-state
text form shows both grids.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from puzzles import svg
from puzzles.towers.stones import COLORS, HEX, JOKER_HEX, LETTERS, OWNER_HEX

if TYPE_CHECKING:
    from puzzles.towers.engine import TowersState

LINE_NAMES = ("row1", "row2", "row3", "col1", "col2", "col3")
LINE_CELLS = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8))


def _owner(pub: dict[str, Any], t: int) -> int:
    placers = pub["placers"][t]
    return placers[-1] if placers else -1


def render_towers_text(pub: dict[str, Any]) -> str:
    """One line per tower: stones bottom→top (a joker shows its value), total, owner, a ★ at 21."""
    lines = []
    for t in range(6):
        stones = []
        for s, v in zip(pub["towers"][t], pub["values"][t], strict=False):
            stones.append(f"J({v})" if s == "J" else s)
        total = sum(pub["values"][t])
        owner = _owner(pub, t)
        own = f"P{owner + 1}" if owner >= 0 else "--"
        star = " ★21" if total == 21 else ""
        lines.append(f"  {COLORS[t]:<6} {LETTERS[t]} | {' '.join(stones) or '(empty)':<30} = {total:>2}  {own}{star}")
    owned = [sum(1 for t in range(6) if _owner(pub, t) == p) for p in (0, 1)]
    lines.append(f"  towers owned: P1 {owned[0]}  P2 {owned[1]}")
    return "\n".join(lines)


def render_grid_text(grid: list[str] | None, used: list[int], title: str = "grid") -> str:
    """A 3×3 grid under its title, with row and column headers; cells of lines already picked show as ``··``.

    Each column is as wide as its widest entry (header or stone), so the ``|`` separators line up on
    every line whatever the stones are (jokers, longer names, spent cells).
    """
    if grid is None:
        return f"  {title}: (not laid yet)"
    spent = {c for ln in used for c in LINE_CELLS[ln]}
    table = [["", *LINE_NAMES[3:]]]
    for r in range(3):
        table.append([LINE_NAMES[r], *("··" if 3 * r + c in spent else grid[3 * r + c] for c in range(3))])
    widths = [max(len(row[k]) for row in table) for k in range(4)]
    lines = ["    " + " | ".join(x.ljust(w) for x, w in zip(row, widths, strict=True)).rstrip() for row in table]
    return "\n".join([f"  {title}:", *lines])


def _phase_line(pub: dict[str, Any], to_move: int) -> str:
    rnd = min(pub["round"], 5) + 1
    if pub["phase"] == "end":
        if pub["winner"] < 0:
            return "game over: draw"
        how = " (instant win: three towers at 21)" if pub["instant"] else ""
        return f"game over: P{pub['winner'] + 1} wins{how}"
    if pub["phase"] == "deal":
        return f"round {rnd}/6: dealing"
    who = f"P{to_move + 1}"
    if pub["phase"] == "pick":
        task = "pick a line" if pub["step"] % 2 == 0 else "announce colors or numbers"
    else:
        task = f"place a stone (placement {pub['step'] + 1}/6)"
    return f"round {rnd}/6: {who} to {task}"


def render_announcements_text(pub: dict[str, Any], rnd: int | None = None) -> str:
    rows = []
    for a in pub["announcements"]:
        if rnd is None or a["round"] == rnd:
            rows.append(
                f"  round {a['round'] + 1} P{a['player'] + 1} {LINE_NAMES[a['line']]}: "
                f"{a['mode']} {' '.join(str(v) for v in a['values'])}"
            )
    return "\n".join(rows) if rows else "  (no announcements)"


def render_observation_text(obs: dict[str, Any]) -> str:
    """What one seat sees: towers, own grid and hand, announcements of this round."""
    pub, priv, me = obs["public"], obs["private"], obs["player"]
    g = 0 if pub["round"] < 3 else 1
    parts = [_phase_line(pub, obs["to_move"]), "towers:", render_towers_text(pub)]
    parts.append(render_grid_text(priv["grids"][g], pub["used_lines"][me][g], title=f"your grid {g + 1} (P{me + 1})"))
    parts.append(f"  your hand: {' '.join(priv['hand']) or '(empty)'}    removed from your set: {' '.join(priv['removed'])}")
    parts.append(f"  opponent hand: {pub['hand_size'][1 - me]} stone(s)")
    parts.append("announcements this round:")
    parts.append(render_announcements_text(pub, min(pub["round"], 5)))
    return "\n".join(parts)


def render_state_text(state: TowersState) -> str:
    """The full position: towers plus both players' grids and hands."""
    pub = state.public_json()
    g = state.grid_index()
    cp = state.current_player()
    parts = [_phase_line(pub, cp), "towers:", render_towers_text(pub)]
    for p in (0, 1):
        priv = state.private_json(p)
        parts.append(render_grid_text(priv["grids"][g], pub["used_lines"][p][g], title=f"P{p + 1} grid {g + 1}"))
        parts.append(f"  P{p + 1} hand: {' '.join(priv['hand']) or '(empty)'}   removed: {' '.join(priv['removed'])}")
    return "\n".join(parts)


def _stone_fill(stone: str) -> str:
    return JOKER_HEX if stone == "J" else HEX[LETTERS.index(stone[0])]


def _ink(stone: str) -> str:
    """Text colour readable on the stone's fill (dark on yellow and orange)."""
    return "#222" if stone[:1] in ("Y", "O") else "white"


#: The wheel: towers at the corners of a hexagon of this radius around (WHEEL_X, WHEEL_Y); stone size.
WHEEL_R, WHEEL_X, WHEEL_Y = 175, 235, 250
STONE_W, TOWER_H = 58, 104
#: Where the seats' panels (grid, hand) start, right of the wheel.
PANEL_X = 480


def render_svg(obs: dict[str, Any], full: TowersState | None = None) -> str:
    """SVG of the table as one seat sees it: the six towers on the wheel (stones bottom to top, totals,
    owners), that seat's grid and hand, the opponent's hand size, and this round's announcements.

    ``obs`` is an observation (``private`` None or absent: the public view, no grid or hand); ``full`` draws
    both seats' grids and hands (a face-up position, analysis).  Ids and classes: ``<g class="tower"
    id="tower-T">`` with ``<g class="stone">`` each, ``<g class="grid" id="grid-P">`` with ``<rect class="cell"
    data-row data-col>``, ``<g class="hand" id="hand-P">``, ``<g class="announcements">`` (``docs/rules/
    rainbow-blackjack.md``).
    """
    pub = obs["public"]
    per_stone = min(18.0, TOWER_H / max([len(t) for t in pub["towers"]] + [5]))
    out = [svg.text(12, 20, _phase_line(pub, obs["to_move"]), 14, class_="status"),
           f'<circle cx="{WHEEL_X}" cy="{WHEEL_Y}" r="{WHEEL_R - 40}" fill="none" stroke="#dddddd" stroke-width="10"/>']
    out += [_tower_svg(pub, t, per_stone) for t in range(6)]
    owned = [sum(1 for t in range(6) if _owner(pub, t) == p) for p in (0, 1)]
    out.append(svg.text(WHEEL_X, WHEEL_Y + 4, f"towers: P1 {owned[0]} · P2 {owned[1]}", 12, text_anchor="middle",
                        class_="owned"))
    y = 40.0
    for p, priv in _seats_shown(obs, full):
        block, height = _seat_panel(pub, p, priv, PANEL_X, y)
        out.append(block)
        y += height
    block, height = _announcements_svg(pub, PANEL_X, y + 8)
    out.append(block)
    return svg.document(PANEL_X + 330, max(2 * WHEEL_Y + 10, y + height + 20), out, class_="kibitz towers")


def _tower_svg(pub: dict[str, Any], t: int, per_stone: float) -> str:
    """Tower ``t`` at its corner of the wheel: stones (a joker shows its value, a ring the placer's colour),
    the total (bold at 21) and the owner's dot."""
    angle = math.radians(60 * t - 90)
    cx, base = WHEEL_X + WHEEL_R * math.cos(angle), WHEEL_Y + WHEEL_R * math.sin(angle) + TOWER_H / 2 - 10
    x = cx - STONE_W / 2
    parts = [svg.tag("rect", x=x, y=base, width=STONE_W, height=4, fill=HEX[t])]
    for i, (stone, value) in enumerate(zip(pub["towers"][t], pub["values"][t], strict=False)):
        y = base - (i + 1) * per_stone
        label = f"J={value}" if stone == "J" else stone
        placer = pub["placers"][t][i]
        parts.append(svg.group([
            svg.tag("rect", x=x + 3, y=f"{y + 1:.1f}", width=STONE_W - 6, height=f"{per_stone - 2:.1f}", rx=4,
                    fill=_stone_fill(stone), stroke=OWNER_HEX[placer], stroke_width="1.5"),
            svg.text(cx, y + per_stone / 2 + 4, label, min(12, per_stone * 0.7), text_anchor="middle", fill=_ink(stone)),
        ], class_="stone", data_stone=stone, data_value=value, data_placer=placer))
    total = sum(pub["values"][t])
    parts.append(svg.text(cx, base + 18, f"{COLORS[t]} {total}", 12, text_anchor="middle", class_="total",
                          font_weight="bold" if total == 21 else None))
    owner = _owner(pub, t)
    if owner >= 0:
        parts.append(f'<circle cx="{cx:.1f}" cy="{base + 32:.1f}" r="8" fill="{OWNER_HEX[owner]}" class="owner"/>')
        parts.append(svg.text(cx, base + 35, f"P{owner + 1}", 9, text_anchor="middle", fill="white"))
    return svg.group(parts, class_="tower", id=f"tower-{t}", data_color=COLORS[t], data_total=total,
                     data_owner=owner)


def _seats_shown(obs: dict[str, Any], full: TowersState | None) -> list[tuple[int, dict[str, Any] | None]]:
    """(seat, private part or None) for both seats: the private part only where the picture may show it."""
    if full is not None:
        return [(p, full.private_json(p)) for p in (0, 1)]
    me, private = obs.get("player"), obs.get("private")
    return [(p, private if p == me else None) for p in (0, 1)]


def _seat_panel(pub: dict[str, Any], p: int, priv: dict[str, Any] | None, x0: float,
                y0: float) -> tuple[str, float]:
    """Seat ``p``: its grid of this half (lines already picked greyed) and hand when ``priv`` is given, else
    how many stones it holds; returns the group and its height."""
    g = 0 if pub["round"] < 3 else 1
    if priv is None:
        line = f"P{p + 1}: {pub['hand_size'][p]} stone(s) in hand (hidden)"
        return svg.group([svg.text(x0, y0 + 14, line, 12, class_="hand-size", id=f"hand-size-{p}")],
                         class_="seat", id=f"seat-{p}", data_seat=p), 28
    parts = [svg.text(x0, y0 + 14, f"P{p + 1} grid {g + 1}", 12)]
    grid = priv["grids"][g]
    spent = {c for ln in pub["used_lines"][p][g] for c in LINE_CELLS[ln]}
    cells = []
    for c in range(9):
        cx, cy = x0 + (c % 3) * 40, y0 + 22 + (c // 3) * 32
        if grid is None:
            cells.append(svg.tag("rect", x=cx, y=cy, width=36, height=28, fill="#dddddd", class_="cell",
                                 data_row=c // 3, data_col=c % 3))
            continue
        stone = grid[c]
        cells.append(svg.tag("rect", x=cx, y=cy, width=36, height=28, rx=4, fill="#eeeeee" if c in spent else
                             _stone_fill(stone), class_="cell spent" if c in spent else "cell", data_row=c // 3,
                             data_col=c % 3, data_stone=stone))
        cells.append(svg.text(cx + 18, cy + 18, stone, 12, text_anchor="middle",
                              fill="#999999" if c in spent else _ink(stone)))
    parts.append(svg.group(cells, class_="grid", id=f"grid-{p}", data_seat=p))
    hand = [svg.text(x0 + 130, y0 + 36, "hand:" if priv["hand"] else "hand: (empty)", 12)]
    for k, stone in enumerate(priv["hand"]):
        hx, hy = x0 + 130 + (k % 4) * 40, y0 + 44 + (k // 4) * 30
        hand.append(svg.group([svg.tag("rect", x=hx, y=hy, width=36, height=26, rx=6, fill=_stone_fill(stone)),
                               svg.text(hx + 18, hy + 17, stone, 12, text_anchor="middle", fill=_ink(stone))],
                              class_="stone in-hand", data_stone=stone))
    parts.append(svg.group(hand, class_="hand", id=f"hand-{p}", data_seat=p))
    removed = " ".join(priv["removed"]) or "none"
    parts.append(svg.text(x0, y0 + 22 + 3 * 32 + 14, f"removed from the set: {removed}", 11, class_="removed"))
    return svg.group(parts, class_="seat", id=f"seat-{p}", data_seat=p), 22 + 3 * 32 + 30


def _announcements_svg(pub: dict[str, Any], x0: float, y0: float) -> tuple[str, float]:
    """Every announcement so far, latest round last (rounds and seats counted from 1)."""
    parts = [svg.text(x0, y0 + 12, "announcements:" if pub["announcements"] else "announcements: none yet", 12)]
    for k, a in enumerate(pub["announcements"]):
        values = " ".join(str(v) for v in a["values"])
        line = f"round {a['round'] + 1} P{a['player'] + 1} {LINE_NAMES[a['line']]}: {a['mode']} {values}"
        parts.append(svg.text(x0 + 8, y0 + 28 + 14 * k, line, 11, class_="announcement", data_round=a["round"],
                              data_player=a["player"]))
    return svg.group(parts, class_="announcements"), 28 + 14 * len(pub["announcements"])
