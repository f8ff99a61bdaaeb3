"""Blokus game records: Pentobi's SGF dialect (``.blksgf``) and a plain JSON form.

SGF, as Pentobi writes it::

    (;FF[4]CA[UTF-8]AP[Pentobi:19.0]GM[Blokus]DT[2024-05-01]
    ;1[a20,b20,b19,c19,c18]
    ;2[s20,t20,t19,t18]
    ...)

* ``GM`` names the variant: ``Blokus`` (classic, 4 players), ``Blokus Two-Player``,
  ``Blokus Three-Player``, ``Blokus Duo``; other Pentobi games (Trigon, Nexos, ..)
  are refused with a clear message;
* a move is a property named by its color: ``1``..``4`` (blue, yellow, red,
  green), ``B``/``W`` in Duo; its value lists the piece's cells (column a..t with
  ``i`` included, row counted from the bottom), sorted a1, b1, .., a2, ..;
* Pentobi's older spellings are read too: one value per cell
  (``B[f8][g8][e9]``, before 0.3) and ``BLUE``/``YELLOW``/``RED``/``GREEN`` (before 0.2);
* passes are not written (an empty value is read as a pass); on loading, a
  color that is skipped by the record must indeed have no legal move, and the
  forced passes after the last recorded move are played too (a finished game
  loads as terminal);
* only the main line is read (first variation at every branch); setup
  properties (``AB``/``AW``/``A1``..) are refused.

**Decision:** the teams variant and ``free_corners`` have no Pentobi game name;
they are written as ``GM[Blokus]`` plus the private root property
``KV[teams]`` / ``KV[free-corners]`` (SGF readers keep unknown properties).
"""

from __future__ import annotations

import datetime as _dt
import json
from pathlib import Path
from typing import Any

from puzzles.blokus.engine import VARIANTS, BlokusState
from puzzles.blokus.tables import PASS
from puzzles.game import IllegalActionError

GAME_NAMES = {v.sgf_game: name for name, v in VARIANTS.items() if name != "teams"}
LEGACY_PROPS = ("BLUE", "YELLOW", "RED", "GREEN")  # Pentobi < 0.2
SETUP_PROPS = {"AB", "AW", "AE", "A1", "A2", "A3", "A4", "AB1"}


def parse_sgf(text: str) -> list[dict[str, list[str]]]:
    """The main line of an SGF game tree: one dict (property -> values) per node."""
    pos = 0
    n = len(text)

    def skip_ws() -> None:
        nonlocal pos
        while pos < n and text[pos].isspace():
            pos += 1

    def value() -> str:
        nonlocal pos
        assert text[pos] == "["
        pos += 1
        out = []
        while pos < n and text[pos] != "]":
            if text[pos] == "\\" and pos + 1 < n:
                pos += 1
                if text[pos] in "\r\n":  # soft line break
                    pos += 1
                    continue
            out.append(text[pos])
            pos += 1
        if pos >= n:
            raise ValueError("SGF: unterminated property value")
        pos += 1
        return "".join(out)

    def node() -> dict[str, list[str]]:
        nonlocal pos
        props: dict[str, list[str]] = {}
        while True:
            skip_ws()
            if pos < n and (text[pos].isalpha() or text[pos].isdigit()):
                start = pos
                while pos < n and (text[pos].isalpha() or text[pos].isdigit()):
                    pos += 1
                ident = text[start:pos]
                skip_ws()
                if pos >= n or text[pos] != "[":
                    raise ValueError(f"SGF: property {ident} has no value")
                values = []
                while pos < n and text[pos] == "[":
                    values.append(value())
                    skip_ws()
                props.setdefault(ident, []).extend(values)
            else:
                return props

    def tree() -> list[dict[str, list[str]]]:
        nonlocal pos
        skip_ws()
        if pos >= n or text[pos] != "(":
            raise ValueError("SGF: expected '(' at the start of a game tree")
        pos += 1
        nodes = []
        skip_ws()
        while pos < n and text[pos] == ";":
            pos += 1
            nodes.append(node())
            skip_ws()
        first_child: list[dict[str, list[str]]] | None = None
        while pos < n and text[pos] == "(":
            sub = tree()
            if first_child is None:
                first_child = sub
            skip_ws()
        if pos >= n or text[pos] != ")":
            raise ValueError("SGF: expected ')' at the end of a game tree")
        pos += 1
        return nodes + (first_child or [])

    skip_ws()
    nodes = tree()
    if not nodes:
        raise ValueError("SGF: the game tree has no nodes")
    return nodes


def from_sgf(text: str, max_moves: int | None = None) -> BlokusState:
    """Replay a Pentobi-style SGF record, checking every move; ValueError on any problem.

    ``max_moves`` stops after that many placements (passes a skipped color needs
    before the next recorded move are still inserted).
    """
    nodes = parse_sgf(text)
    root = nodes[0]
    game = (root.get("GM") or ["Blokus"])[0].strip()
    if game not in GAME_NAMES:
        raise ValueError(f"SGF: unsupported game {game!r}; supported: {', '.join(GAME_NAMES)}")
    variant = GAME_NAMES[game]
    extra = {v.strip().lower() for v in root.get("KV", [])}
    if "teams" in extra and variant == "classic":
        variant = "teams"
    state = BlokusState(variant, free_corners="free-corners" in extra)
    props = state.variant.sgf_props
    legacy = LEGACY_PROPS if state.num_colors == 4 else ()
    placed = 0
    for number, props_here in enumerate(nodes):
        bad = SETUP_PROPS & set(props_here)
        if bad:
            raise ValueError(f"SGF node {number}: setup properties ({', '.join(sorted(bad))}) are not supported")
        for ident, values in props_here.items():
            if ident in props:
                color = props.index(ident)
            elif ident in legacy:
                color = legacy.index(ident)
            else:
                continue
            if len(values) > 1 and all("," not in v for v in values):
                values = [",".join(values)]  # Pentobi < 0.3: one value per cell
            for raw in values:
                if max_moves is not None and placed >= max_moves:
                    return finish_passes(state)
                placed += 1
                where = f"SGF move {placed} ({ident}[{raw}])"
                while state.to_move >= 0 and state.to_move != color:
                    if state.legal_actions() != [PASS]:
                        raise ValueError(f"{where}: {state.color_names[color]} moved but {state.color_names[state.to_move]} is to move")
                    state.apply(PASS)
                if state.to_move < 0:
                    raise ValueError(f"{where}: the game is already over")
                try:
                    state.apply(PASS if raw.strip() in ("", "pass") else state.string_to_action(raw))
                except (IllegalActionError, ValueError) as error:
                    raise ValueError(f"{where}: {error}") from None
    return finish_passes(state)


def finish_passes(state: BlokusState) -> BlokusState:
    """Play the forced passes of colors with no legal move, up to the next color that can move."""
    while state.to_move >= 0 and state.legal_actions() == [PASS]:
        state.apply(PASS)
    return state


def to_sgf(state: BlokusState, players: list[str] | None = None, date: str | None = None, app: str = "kibitz:0.1.0") -> str:
    """The game as Pentobi SGF (passes left out); two ``players`` names fill PB/PW."""
    v = state.variant
    root = f"(;FF[4]CA[UTF-8]AP[{app}]GM[{v.sgf_game}]DT[{date or _dt.date.today().isoformat()}]"
    if v.name == "teams":
        root += "KV[teams]"
    if state.free_corners:
        root += "KV[free-corners]"
    if players and len(players) == 2:
        root += "".join(f"{k}[{_escape(p)}]" for k, p in zip(("PB", "PW"), players))
    lines = [root]
    for color, move, _ in state.history:
        if not move.is_pass:
            lines.append(f";{v.sgf_props[color]}[{move.text}]")
    return "\n".join(lines) + ")\n"


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def to_json(state: BlokusState) -> dict[str, Any]:
    """The toolkit's JSON record: variant, options, moves (with colors), final color scores."""
    data = state.to_json()
    data["scores"] = dict(zip(state.color_names, state.color_scores()))
    return data


def from_json(data: dict[str, Any]) -> BlokusState:
    if data.get("format", "kibitz-blokus") != "kibitz-blokus":
        raise ValueError(f"not a kibitz Blokus record (format {data.get('format')!r})")
    return BlokusState.from_json(data)


def save(state: BlokusState, path: str | Path) -> None:
    """Write ``.json`` as JSON, anything else (``.blksgf``, ``.sgf``) as SGF."""
    path = Path(path)
    if path.suffix.lower() == ".json":
        path.write_text(json.dumps(to_json(state), indent=1) + "\n", encoding="utf-8")
    else:
        path.write_text(to_sgf(state), encoding="utf-8")


def load(path: str | Path, max_moves: int | None = None) -> BlokusState:
    """Read a record written by :func:`save` or by Pentobi (format chosen by content).

    ``max_moves``: replay only that many placements.
    """
    text = Path(path).read_text(encoding="utf-8-sig")
    if text.lstrip().startswith("{"):
        data = json.loads(text)
        if max_moves is not None:
            kept, count = [], 0
            for entry in data.get("moves", []):
                is_pass = (entry["move"] if isinstance(entry, dict) else str(entry)).strip().lower() == "pass"
                if not is_pass and count >= max_moves:
                    break
                count += 0 if is_pass else 1
                kept.append(entry)
            data = {**data, "moves": kept}
        return from_json(data)
    return from_sgf(text, max_moves)
