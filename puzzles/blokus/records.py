"""Blokus game records: Pentobi's SGF dialect (``.blksgf``) and a plain JSON form.

SGF, as Pentobi writes it::

    (;FF[4]CA[UTF-8]AP[Pentobi:19.0]GM[Blokus]DT[2024-05-01]
    ;1[a20,b20,b19,c19,c18]
    ;2[s20,t20,t19,t18]
    ...)

* ``GM`` names the variant: ``Blokus`` (classic, 4 players), ``Blokus Two-Player``,
  ``Blokus Three-Player``, ``Blokus Duo``; other Pentobi games (Trigon, Nexos, ..)
  are refused with a clear message;
* ``GM`` is read case-insensitively (``GM[blokus duo]``), as Pentobi does;
* a move is a property named by its color: ``1``..``4`` (blue, yellow, red,
  green), ``B``/``W`` in Duo (where ``1``/``2`` are read too); its value lists the
  piece's cells (column a..t with ``i`` included, row counted from the bottom),
  sorted a1, b1, .., a2, ..; one move per node (a node with two is refused);
* Pentobi's older spellings are read too: one value per cell
  (``B[f8][g8][e9]``, before 0.3) and ``BLUE``/``YELLOW``/``RED``/``GREEN`` (before 0.2);
* a file with several game trees (Pentobi's ``selfplay`` output) is refused
  unless a game index selects one; any nesting depth parses;
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
from puzzles.safe_json import load_json_text, read_limited_text

GAME_NAMES = {v.sgf_game: name for name, v in VARIANTS.items() if name != "teams"}
SETUP_PROPS = {"AB", "AW", "AE", "A1", "A2", "A3", "A4", "AB1"}


def parse_collection(text: str) -> list[list[dict[str, list[str]]]]:
    """Every game tree of an SGF file, each as its main line: one dict (property -> values) per node.

    The main line takes the first variation at every branch.  Iterative, so any
    nesting depth parses (no recursion limit).
    """
    pos, n = 0, len(text)
    games: list[list[dict[str, list[str]]]] = []
    # per open '(' : [on the main line?, number of child trees opened so far]
    stack: list[list[int]] = []
    while True:
        while pos < n and text[pos].isspace():
            pos += 1
        if pos >= n:
            break
        ch = text[pos]
        if ch == "(":
            _open_tree(stack, games)
            pos += 1
        elif ch == ")":
            if not stack:
                raise ValueError("SGF: unbalanced ')'")
            stack.pop()
            pos += 1
        elif ch == ";":
            if not stack:
                raise ValueError("SGF: a node outside a game tree")
            if stack[-1][1]:
                raise ValueError("SGF: a node after the variations of a game tree")
            props, pos = _node(text, pos + 1)
            if stack[-1][0]:
                games[-1].append(props)
        elif not stack and not games:
            raise ValueError("SGF: expected '(' at the start of a game tree")
        elif not stack:
            break  # text after the last game tree is ignored, as SGF readers do
        else:
            raise ValueError(f"SGF: unexpected {ch!r} at offset {pos}")
    _check_complete(stack, games)
    return games


def _open_tree(stack: list[list[int]], games: list[list[dict[str, list[str]]]]) -> None:
    """A '(': a new game at the top level, else a variation, on the main line only as the first child of
    a main-line tree."""
    if stack:
        parent = stack[-1]
        on_main = parent[0] == 1 and parent[1] == 0
        parent[1] += 1
    else:
        games.append([])
        on_main = True
    stack.append([1 if on_main else 0, 0])


def _check_complete(stack: list[list[int]], games: list[list[dict[str, list[str]]]]) -> None:
    """ValueError unless every game tree is closed and has a node, and there is at least one."""
    if stack:
        raise ValueError("SGF: expected ')' at the end of a game tree")
    if not games:
        raise ValueError("SGF: expected '(' at the start of a game tree")
    for game in games:
        if not game:
            raise ValueError("SGF: the game tree has no nodes")


def _node(text: str, pos: int) -> tuple[dict[str, list[str]], int]:
    """The properties of the node starting at ``pos`` (after its ';'), and the offset after it."""
    n = len(text)
    props: dict[str, list[str]] = {}
    while True:
        while pos < n and text[pos].isspace():
            pos += 1
        if not (pos < n and (text[pos].isalpha() or text[pos].isdigit())):
            return props, pos
        start = pos
        while pos < n and (text[pos].isalpha() or text[pos].isdigit()):
            pos += 1
        ident = text[start:pos]
        while pos < n and text[pos].isspace():
            pos += 1
        if pos >= n or text[pos] != "[":
            raise ValueError(f"SGF: property {ident} has no value")
        values = []
        while pos < n and text[pos] == "[":
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
            values.append("".join(out))
            while pos < n and text[pos].isspace():
                pos += 1
        props.setdefault(ident, []).extend(values)


def parse_sgf(text: str, game_index: int | None = None) -> list[dict[str, list[str]]]:
    """The main line of the file's game tree (of tree ``game_index`` when the file holds several).

    A file with several game trees (Pentobi's ``selfplay`` writes them) is refused
    unless ``game_index`` (0-based) selects one, as Pentobi itself refuses it.
    """
    games = parse_collection(text)
    if game_index is None:
        if len(games) > 1:
            raise ValueError(f"SGF: the file holds {len(games)} games; select one with --game-index 0..{len(games) - 1}")
        return games[0]
    if not 0 <= game_index < len(games):
        raise ValueError(f"SGF: game index {game_index} out of range: the file holds {len(games)} game(s)")
    return games[game_index]


def move_properties(num_colors: int) -> dict[str, int]:
    """Move property -> colour, as Pentobi reads them (``B``/``W``/``1``/``2``/``BLUE``/``GREEN`` in Duo)."""
    if num_colors == 2:
        return {"B": 0, "W": 1, "1": 0, "2": 1, "BLUE": 0, "GREEN": 1}
    return {"1": 0, "2": 1, "3": 2, "4": 3, "BLUE": 0, "YELLOW": 1, "RED": 2, "GREEN": 3}


def from_sgf(text: str, max_moves: int | None = None, game_index: int | None = None) -> BlokusState:
    """Replay a Pentobi-style SGF record, checking every move; ValueError on any problem.

    ``max_moves`` stops after that many placements (passes a skipped color needs
    before the next recorded move are still inserted); ``game_index`` selects a
    game of a file holding several.  One move per node, as Pentobi writes them.
    """
    nodes = parse_sgf(text, game_index)
    root = nodes[0]
    game = (root.get("GM") or ["Blokus"])[0].strip()
    names = {k.lower(): v for k, v in GAME_NAMES.items()}
    if game.lower() not in names:
        raise ValueError(f"SGF: unsupported game {game!r}; supported: {', '.join(GAME_NAMES)}")
    variant = names[game.lower()]
    extra = {v.strip().lower() for v in root.get("KV", [])}
    if "teams" in extra and variant == "classic":
        variant = "teams"
    state = BlokusState(variant, free_corners="free-corners" in extra)
    props = move_properties(state.num_colors)
    placed = 0
    for number, props_here in enumerate(nodes):
        bad = SETUP_PROPS & set(props_here)
        if bad:
            raise ValueError(f"SGF node {number}: setup properties ({', '.join(sorted(bad))}) are not supported")
        found = [ident for ident in props_here if ident in props]
        if len(found) > 1:
            raise ValueError(f"SGF node {number}: more than one move in one node ({', '.join(found)})")
        for ident in found:
            color = props[ident]
            values = props_here[ident]
            if len(values) > 1 and all("," not in v for v in values):
                values = [",".join(values)]  # Pentobi < 0.3: one value per cell
            if len(values) > 1:
                raise ValueError(f"SGF node {number}: more than one move in one node ({ident})")
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


def load(path: str | Path, max_moves: int | None = None, game_index: int | None = None) -> BlokusState:
    """Read a record written by :func:`save` or by Pentobi (format chosen by content).

    ``max_moves``: replay only that many placements; ``game_index``: which game of
    an SGF file holding several (such a file is refused without it).
    """
    text = read_limited_text(path)
    if text.lstrip()[:1] in ("{", "["):
        if game_index not in (None, 0):
            raise ValueError(f"game index {game_index} out of range: a JSON record holds one game")
        data = load_json_text(text, str(path))
        if not isinstance(data, dict):
            raise ValueError(f"{path}: a Blokus record must be a JSON object")
        if max_moves is not None:
            kept, count = [], 0
            moves = data.get("moves", [])
            if not isinstance(moves, list):
                raise ValueError(f"{path}: moves must be a list")
            for entry in moves:
                is_pass = str(entry.get("move", "") if isinstance(entry, dict) else entry).strip().lower() == "pass"
                if not is_pass and count >= max_moves:
                    break
                count += 0 if is_pass else 1
                kept.append(entry)
            data = {**data, "moves": kept}
        return from_json(data)
    return from_sgf(text, max_moves, game_index)
