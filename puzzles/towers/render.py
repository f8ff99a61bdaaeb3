"""Text and SVG pictures of the six towers and of a player's grid.

Everything works from an observation (public part + one player's private
part), so a human never sees more than the seat they play; the full-state
text form shows both grids.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any

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


def render_svg(obs: dict[str, Any], full: TowersState | None = None) -> str:
    """SVG of the six towers (stones, totals, owner dot) and the observer's grid (both grids with ``full``)."""
    pub = obs["public"]
    cell_w, stone_h, gap = 70, 22, 12
    max_h = max([len(t) for t in pub["towers"]] + [6])
    top = 40
    base = top + max_h * stone_h
    grids_y = base + 70
    width = 6 * (cell_w + gap) + gap
    height = grids_y + 3 * 32 + 40
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="#fafafa"/>',
        f'<text x="{gap}" y="20" font-size="14">{escape(_phase_line(pub, obs["to_move"]))}</text>',
    ]
    for t in range(6):
        x = gap + t * (cell_w + gap)
        out.append(f'<rect x="{x}" y="{base}" width="{cell_w}" height="4" fill="{HEX[t]}"/>')
        for i, (s, v) in enumerate(zip(pub["towers"][t], pub["values"][t], strict=False)):
            y = base - (i + 1) * stone_h
            label = f"J={v}" if s == "J" else s
            ring = OWNER_HEX[pub["placers"][t][i]]
            out.append(
                f'<rect x="{x + 4}" y="{y + 1}" width="{cell_w - 8}" height="{stone_h - 2}" rx="4" '
                f'fill="{_stone_fill(s)}" stroke="{ring}" stroke-width="1.5"/>'
            )
            out.append(f'<text x="{x + cell_w / 2}" y="{y + 15}" text-anchor="middle" fill="{_ink(s)}">{label}</text>')
        total = sum(pub["values"][t])
        out.append(
            f'<text x="{x + cell_w / 2}" y="{base + 20}" text-anchor="middle" font-weight="{"bold" if total == 21 else "normal"}">'
            f"{COLORS[t]} {total}</text>"
        )
        owner = _owner(pub, t)
        if owner >= 0:
            out.append(f'<circle cx="{x + cell_w / 2}" cy="{base + 36}" r="7" fill="{OWNER_HEX[owner]}"/>')
            out.append(f'<text x="{x + cell_w / 2}" y="{base + 40}" text-anchor="middle" font-size="9" fill="white">P{owner + 1}</text>')
    g = 0 if pub["round"] < 3 else 1
    seats = [(p, full.private_json(p)) for p in (0, 1)] if full is not None else [(obs["player"], obs["private"])]
    for k, (p, priv) in enumerate(seats):
        gx = gap + k * 3 * (cell_w + gap)
        out.append(f'<text x="{gx}" y="{grids_y - 8}">P{p + 1} grid {g + 1}</text>')
        grid = priv["grids"][g]
        spent = {c for ln in pub["used_lines"][p][g] for c in LINE_CELLS[ln]}
        for c in range(9):
            cx, cy = gx + (c % 3) * 40, grids_y + (c // 3) * 32
            if grid is None:
                out.append(f'<rect x="{cx}" y="{cy}" width="36" height="28" fill="#ddd"/>')
                continue
            s = grid[c]
            fill = "#eee" if c in spent else _stone_fill(s)
            out.append(f'<rect x="{cx}" y="{cy}" width="36" height="28" rx="4" fill="{fill}"/>')
            out.append(f'<text x="{cx + 18}" y="{cy + 18}" text-anchor="middle" fill="{"#999" if c in spent else _ink(s)}">{s}</text>')
        hand = " ".join(priv["hand"]) or "(empty)"
        out.append(f'<text x="{gx}" y="{grids_y + 3 * 32 + 16}">hand: {escape(hand)}</text>')
    out.append("</svg>")
    return "\n".join(out)
