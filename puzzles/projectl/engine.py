"""Project L rule engine (classic and revised rule sets, solo variant), on the game protocol.

Rules as implemented, with every rule decision: ``docs/rules/project-l.md``.

Actions are frozen dataclasses; ``str(action)`` is the text form that
:meth:`ProjectLState.string_to_action` reads back:

* :class:`Take` ``(row, slot)`` — take a face-up puzzle; row ``W``/``B`` (solo:
  ``G``, slot 0–8 of the 3×3 grid) [``take W 2``]
* :class:`TakePiece` — take a level-1 piece from the supply [``piece``]
* :class:`Upgrade` ``(old, new)`` — return shape ``old``, take shape ``new`` [``upgrade O1 I2``]
* :class:`Place` ``(slot, shape, mask)`` — place a piece on your unfinished
  puzzle ``slot`` covering the cells of ``mask`` [``place 0 L3 11,12,21``: cells as row/col digits]
* :class:`Master`, then :class:`MasterPlace` … :class:`MasterEnd` — the Master
  action as sub-steps (``master``, ``mplace SLOT SHAPE CELLS``, ``mend``), so that
  legal-action lists stay small
* :class:`Recycle` ``(row)`` — revised only [``recycle W``]
* :class:`Pass` — only when nothing else is legal [``pass``]
* :class:`Touch` ``(slot, shape, mask)`` / :class:`Done` — revised finishing touches

Information: everything is public except the order of the face-down decks (and,
in solo, which cards were dealt into the solo deck).  The decks are shuffled
once by :func:`new_game` from its seed and refills take the top card, so the
game has no chance nodes; :meth:`ProjectLState.resample` redraws the hidden
order.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from puzzles.game import TERMINAL, GameState, IllegalActionError
from puzzles.projectl.cards import (
    LEVEL,
    NCELLS,
    NSHAPES,
    SHAPE_INDEX,
    SHAPE_NAMES,
    SHAPES_BY_LEVEL,
    SIZE,
    Card,
    card_text,
    default_deck,
    format_deck,
    load_deck,
    mask_cells,
    pad,
    parse_deck,
    placement_shape,
    placements,
    split_colors,
    visible_len,
)

RULE_SETS = ("classic", "revised")
DIFFICULTIES = {"normal": 6, "hard": 3, "unbeatable": 0}
ROW_SIZE = 4
MAX_PUZZLES = 4
SOLO_LOCKS = (1, 2, 1)
SOLO_WHITES = 15
SOLO_BLACKS = 10


def cells_text(mask: int) -> str:
    """``mask`` as row/column digit pairs: ``00,01,11``."""
    return ",".join(f"{r}{c}" for r, c in mask_cells(mask))


def parse_cells(text: str) -> int:
    """The mask of ``00,01,11``; IllegalActionError for a malformed cell."""
    mask = 0
    for item in text.split(","):
        item = item.strip()
        if len(item) != 2 or not item.isdigit() or int(item[0]) >= SIZE or int(item[1]) >= SIZE:
            raise IllegalActionError(f"bad cell {item!r}: write cells as row/column digits 0-4, e.g. 11,12,21")
        mask |= 1 << (int(item[0]) * SIZE + int(item[1]))
    return mask


# --------------------------------------------------------------------------
# actions
# --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Take:
    """Take the face-up puzzle in ``slot`` of ``row`` (``W``, ``B``; solo ``G``)."""

    row: str
    slot: int

    def __str__(self) -> str:
        return f"take {self.row} {self.slot}"


@dataclass(frozen=True, slots=True)
class TakePiece:
    """Take a level-1 piece from the supply."""

    def __str__(self) -> str:
        return "piece"


@dataclass(frozen=True, slots=True)
class Upgrade:
    """Return a piece of shape ``old`` and take one of shape ``new``."""

    old: int
    new: int

    def __str__(self) -> str:
        return f"upgrade {SHAPE_NAMES[self.old]} {SHAPE_NAMES[self.new]}"


@dataclass(frozen=True, slots=True)
class Placement:
    """A piece of ``shape`` on the player's unfinished puzzle ``slot``, covering ``mask``."""

    slot: int
    shape: int
    mask: int
    word: ClassVar[str] = "place"

    def __str__(self) -> str:
        return f"{self.word} {self.slot} {SHAPE_NAMES[self.shape]} {cells_text(self.mask)}"


@dataclass(frozen=True, slots=True)
class Place(Placement):
    """The Place action: one piece; a puzzle filled by it completes at once."""

    word: ClassVar[str] = "place"


@dataclass(frozen=True, slots=True)
class MasterPlace(Placement):
    """One piece of the Master action (at most one per puzzle)."""

    word: ClassVar[str] = "mplace"


@dataclass(frozen=True, slots=True)
class Touch(Placement):
    """A finishing touch (revised): a piece from stock at -1 point."""

    word: ClassVar[str] = "touch"


@dataclass(frozen=True, slots=True)
class Master:
    """Start the Master action (once per turn)."""

    def __str__(self) -> str:
        return "master"


@dataclass(frozen=True, slots=True)
class MasterEnd:
    """End the Master action; puzzles it filled complete now."""

    def __str__(self) -> str:
        return "mend"


@dataclass(frozen=True, slots=True)
class Recycle:
    """Revised: send face-up row ``row`` (``W``/``B``) to the bottom of its deck and reveal 4 new."""

    row: str

    def __str__(self) -> str:
        return f"recycle {self.row}"


@dataclass(frozen=True, slots=True)
class Pass:
    """Do nothing (only when no other action is legal)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Done:
    """End this player's finishing touches (revised)."""

    def __str__(self) -> str:
        return "done"


Action = Take | TakePiece | Upgrade | Placement | Master | MasterEnd | Recycle | Pass | Done  # Placement: Place, MasterPlace, Touch
ACTION_TYPES: tuple[type, ...] = (Take, TakePiece, Upgrade, Place, MasterPlace, Touch, Master, MasterEnd, Recycle,
                                  Pass, Done)
PIECE, MASTER, MASTER_END, PASS, DONE = TakePiece(), Master(), MasterEnd(), Pass(), Done()
_ACTION_TYPE_SET = frozenset(ACTION_TYPES)
_TAKES = {row: tuple(Take(row, i) for i in range(9)) for row in "WBG"}
_RECYCLE = {row: Recycle(row) for row in "WB"}
_PLACEMENTS: dict[str, type[Placement]] = {"place": Place, "mplace": MasterPlace, "touch": Touch}
_SINGLE: dict[str, Action] = {"piece": PIECE, "master": MASTER, "mend": MASTER_END, "pass": PASS, "done": DONE}


def parse_action(text: str) -> Action:
    """The action written as ``text`` (see the module docstring); IllegalActionError if it is not one."""
    parts = text.split()
    if not parts:
        raise IllegalActionError("empty action")
    kind = parts[0].lower()
    try:
        if kind == "take" and len(parts) == 3:
            return Take(parts[1].upper(), int(parts[2]))
        if kind == "upgrade" and len(parts) == 3:
            return Upgrade(SHAPE_INDEX[parts[1].upper()], SHAPE_INDEX[parts[2].upper()])
        if kind in _PLACEMENTS and len(parts) == 4:
            return _PLACEMENTS[kind](int(parts[1]), SHAPE_INDEX[parts[2].upper()], parse_cells(parts[3]))
        if kind == "recycle" and len(parts) == 2:
            return Recycle(parts[1].upper())
        if kind in _SINGLE and len(parts) == 1:
            return _SINGLE[kind]
    except IllegalActionError:
        raise
    except (KeyError, ValueError):
        raise IllegalActionError(f"cannot read action {text!r} (shapes: {', '.join(SHAPE_NAMES)})") from None
    raise IllegalActionError(f"cannot read action {text!r}")


# --------------------------------------------------------------------------
# cached move tables
# --------------------------------------------------------------------------

_FITS: dict[tuple[int, int], tuple[int, ...]] = {}
_PLACE_ACTIONS: dict[tuple[type, int, int], list[list[Placement]]] = {}


def fits(empty: int, s: int) -> tuple[int, ...]:
    """Placements of shape ``s`` inside the empty cells (cached per empty mask)."""
    key = (empty, s)
    got = _FITS.get(key)
    if got is None:
        got = tuple(m for m in placements(s) if m & empty == m)
        _FITS[key] = got
    return got


def _slot_actions(kind: type[Placement], slot: int, empty: int) -> list[list[Placement]]:
    """Per shape, the actions placing it on puzzle ``slot`` with these empty cells (cached)."""
    key = (kind, slot, empty)
    got = _PLACE_ACTIONS.get(key)
    if got is None:
        got = [[_placement(kind, slot, s, m) for m in fits(empty, s)] for s in range(NSHAPES)]
        _PLACE_ACTIONS[key] = got
    return got


_PLACEMENT_OBJECTS: dict[tuple[type, int, int], Placement] = {}


def _placement(kind: type[Placement], slot: int, s: int, mask: int) -> Placement:
    """One shared action object per (kind, slot, cells): building frozen dataclasses is slow."""
    key = (kind, slot, mask)
    action = _PLACEMENT_OBJECTS.get(key)
    if action is None:
        action = _PLACEMENT_OBJECTS[key] = kind(slot, s, mask)
    return action


def _add_placements(out: list[Action], kind: type[Placement], puzzles: list[Puzzle], stock: Sequence[int],
                    skip: int) -> None:
    """Append the ``kind`` actions of every piece in stock on every puzzle whose slot bit is not in ``skip``."""
    for slot, (_, empty, _) in enumerate(puzzles):
        if not skip >> slot & 1:
            per_shape = _slot_actions(kind, slot, empty)
            for s in range(NSHAPES):
                if stock[s]:
                    out += per_shape[s]


def upgrade_targets(s: int, revised: bool) -> tuple[int, ...]:
    """Shapes a piece of shape ``s`` may become by one Upgrade action."""
    lvl = LEVEL[s]
    out = [t for t in SHAPES_BY_LEVEL[lvl] if t != s]
    out += SHAPES_BY_LEVEL.get(lvl + 1, ())
    if revised:
        out += [t for t in range(NSHAPES) if LEVEL[t] < lvl]
    return tuple(out)


_UPGRADES = {rev: tuple(upgrade_targets(s, rev) for s in range(NSHAPES)) for rev in (False, True)}
_UPGRADE_ACTIONS = {rev: tuple(tuple(Upgrade(s, t) for t in _UPGRADES[rev][s]) for s in range(NSHAPES))
                    for rev in (False, True)}


def reward_shape(owed: int, supply: Sequence[int]) -> int | None:
    """Supply-shortage rule: the owed shape, else same level, else one level higher, else highest lower."""
    if supply[owed] > 0:
        return owed
    lvl = LEVEL[owed]
    for t in SHAPES_BY_LEVEL[lvl]:
        if supply[t] > 0:
            return t
    for t in SHAPES_BY_LEVEL.get(lvl + 1, ()):
        if supply[t] > 0:
            return t
    for lower in range(lvl - 1, 0, -1):
        for t in SHAPES_BY_LEVEL[lower]:
            if supply[t] > 0:
                return t
    return None


Puzzle = list[Any]  # [card index, empty-cell mask, [(shape, mask), ...]] — a player's unfinished puzzle


class ProjectLState(GameState[Action]):
    """A Project L game in progress (1–4 players; ``solo=True`` for the solo variant)."""

    game_name: ClassVar[str] = "projectl"

    num_players: int
    rules: str
    revised: bool
    solo: bool
    difficulty: str
    per_shape: int
    max_rounds: int
    cards: tuple[Card, ...]
    supply: list[int]
    locks: list[int]
    opp_supply: int
    opp_cards: list[int]
    white_deck: list[int]  # card indices, bottom first: a refill pops the last (the top)
    black_deck: list[int]
    white_known: int  # how many cards at the bottom of the deck everyone knows (recycled rows)
    black_known: int
    white_row: list[int]  # face-up cards (-1: empty slot); solo: the 3x3 grid
    black_row: list[int]
    stock: list[list[int]]
    puzzles: list[list[Puzzle]]
    done: list[list[int]]
    touched: list[list[list[Any]]]  # revised finishing touches: [card, pieces]
    penalty: list[int]
    player: int
    actions_left: int
    master_used: bool
    in_master: bool
    master_slots: int
    blacks_taken: int
    round: int
    trigger_round: int
    passes: int
    phase: str  # play | touch | over
    end_reason: str
    history: list[Action]
    #: Puzzles completed so far, oldest first: (turn, seat, card, reward shape or -1), turn counted as
    #: ``round * num_players + seat``.  For the display only: serialised (key ``completions``, when any) so a
    #: loaded game shows the same, but not compared; a tuple, so clones share it safely.
    completions: tuple[tuple[int, int, int, int], ...] = ()

    def __init__(self) -> None:  # use new_game() / from_json()
        self.num_players = 1

    # ------------------------------------------------------------------
    # construction
    # ------------------------------------------------------------------
    @classmethod
    def new_game(
        cls,
        num_players: int = 2,
        seed: int = 0,
        rules: str = "classic",
        solo: bool = False,
        difficulty: str = "normal",
        supply_per_shape: int | None = None,
        cards: Sequence[Card] | None = None,
        max_rounds: int = 100,
    ) -> ProjectLState:
        """Shuffle the decks with ``seed`` and deal the opening position.

        ``solo=True`` is the solo variant (one player against the automated
        opponent); ``num_players=1`` without it is a plain one-player game.
        """
        if rules not in RULE_SETS:
            raise ValueError(f"unknown rule set {rules!r}; choose from {', '.join(RULE_SETS)}")
        if solo:
            num_players = 1
            if difficulty not in DIFFICULTIES:
                raise ValueError(f"unknown difficulty {difficulty!r}; choose from {', '.join(DIFFICULTIES)}")
        elif not 1 <= num_players <= 4:
            raise ValueError(f"Project L takes 1 to 4 players, got {num_players}")
        per_shape = supply_per_shape if supply_per_shape is not None else (15 if solo or rules == "revised" else 10)
        st = cls()
        st.num_players = num_players
        st.rules = rules
        st.revised = rules == "revised"
        st.solo = solo
        st.difficulty = difficulty if solo else ""
        st.per_shape = per_shape
        st.max_rounds = max_rounds
        st.cards = tuple(cards) if cards is not None else default_deck()
        rng = random.Random(seed)
        whites, blacks = split_colors(st.cards)
        index = {c.id: i for i, c in enumerate(st.cards)}
        w = [index[c.id] for c in whites]
        b = [index[c.id] for c in blacks]
        rng.shuffle(w)
        rng.shuffle(b)
        st.supply = [per_shape] * NSHAPES
        st.locks = [0, 0, 0]
        st.opp_supply = 0
        st.opp_cards = []
        st.white_known = st.black_known = 0
        if solo:
            if len(w) < SOLO_WHITES or len(b) < SOLO_BLACKS:
                raise ValueError("the solo variant needs at least 15 white and 10 black cards")
            deck = w[:SOLO_WHITES] + b[:SOLO_BLACKS]
            rng.shuffle(deck)
            st.white_deck, st.black_deck = deck, []
            st.white_row = [st.white_deck.pop() for _ in range(9)]
            st.black_row = []
            need = sum(SOLO_LOCKS) + DIFFICULTIES[difficulty] + 1
            if st.supply[0] < need:
                raise ValueError(f"the solo variant needs {need} level-1 pieces; supply has {st.supply[0]}")
            st.locks = list(SOLO_LOCKS)
            st.opp_supply = DIFFICULTIES[difficulty]
            st.supply[0] -= sum(SOLO_LOCKS) + st.opp_supply
        else:
            if len(b) < ROW_SIZE:
                raise ValueError("the deck needs at least 4 black cards")
            st.white_deck, st.black_deck = w, b
            st.white_row = [st.white_deck.pop() if st.white_deck else -1 for _ in range(ROW_SIZE)]
            st.black_row = [st.black_deck.pop() for _ in range(ROW_SIZE)]
        st.stock = []
        for _ in range(num_players):
            stock = [0] * NSHAPES
            for s in (SHAPE_INDEX["O1"], SHAPE_INDEX["I2"]):
                if st.supply[s] <= 0:
                    raise ValueError("the supply is too small to deal starting pieces")
                st.supply[s] -= 1
                stock[s] += 1
            st.stock.append(stock)
        st.puzzles = [[] for _ in range(num_players)]
        st.done = [[] for _ in range(num_players)]
        st.touched = [[] for _ in range(num_players)]
        st.penalty = [0] * num_players
        st.player = 0
        st.actions_left = 3
        st.master_used = False
        st.in_master = False
        st.master_slots = 0
        st.blacks_taken = 0
        st.round = 0
        st.trigger_round = -1
        st.passes = 0
        st.phase = "play"
        st.end_reason = ""
        st.history = []
        return st

    def clone(self) -> Self:
        st = object.__new__(type(self))
        st.__dict__.update(self.__dict__)
        st.supply = self.supply[:]
        st.locks = self.locks[:]
        st.opp_cards = self.opp_cards[:]
        st.white_deck = self.white_deck[:]
        st.black_deck = self.black_deck[:]
        st.white_row = self.white_row[:]
        st.black_row = self.black_row[:]
        st.stock = [s[:] for s in self.stock]
        st.puzzles = [[[c, e, ps[:]] for c, e, ps in pl] for pl in self.puzzles]
        st.done = [d[:] for d in self.done]
        st.touched = [[[c, ps[:]] for c, ps in t] for t in self.touched]
        st.penalty = self.penalty[:]
        st.history = self.history[:]
        return st

    # ------------------------------------------------------------------
    # protocol
    # ------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.phase == "over" else self.player

    def legal_actions(self) -> list[Action]:
        if self.phase != "play" or self.in_master:
            return self._step_actions()
        p = self.player
        stock = self.stock[p]
        puzzles = self.puzzles[p]
        out: list[Action] = []
        if len(puzzles) < MAX_PUZZLES:
            self._add_takes(out)
        supply = self.supply
        if supply[0] > 0:
            out.append(PIECE)
        ups = _UPGRADE_ACTIONS[self.revised]
        for s in range(NSHAPES):
            if stock[s]:
                for up in ups[s]:
                    if supply[up.new] > 0:
                        out.append(up)
        before = len(out)
        for slot, (_, empty, _) in enumerate(puzzles):
            per_shape = _slot_actions(Place, slot, empty)
            for s in range(NSHAPES):
                if stock[s]:
                    out += per_shape[s]
        if len(out) > before and not self.master_used:
            out.append(MASTER)
        if self.revised and not self.solo:
            self._add_recycles(out)
        if not out:
            out.append(PASS)
        return out

    def _step_actions(self) -> list[Action]:
        """Outside the normal play: none when the game is over, else the finishing touches and Done, or
        inside the Master action a piece on each puzzle it has not placed on yet and MasterEnd."""
        if self.phase == "over":
            return []
        p = self.player
        stock = self.stock[p]
        puzzles = self.puzzles[p]
        out: list[Action] = []
        if self.phase == "touch":
            _add_placements(out, Touch, puzzles, stock, 0)
            out.append(DONE)
            return out
        _add_placements(out, MasterPlace, puzzles, stock, self.master_slots)
        out.append(MASTER_END)
        return out

    def _add_takes(self, out: list[Action]) -> None:
        """The Take actions of the face-up cards (the caller checks the four-puzzle limit)."""
        if self.solo:
            out += [_TAKES["G"][i] for i, c in enumerate(self.white_row) if c >= 0]
        else:
            out += [_TAKES["W"][i] for i, c in enumerate(self.white_row) if c >= 0]
            if not (self.revised and self.trigger_round >= 0 and self.blacks_taken):
                out += [_TAKES["B"][i] for i, c in enumerate(self.black_row) if c >= 0]

    def _add_recycles(self, out: list[Action]) -> None:
        """Recycle of each row whose deck and row both still hold cards (revised rules, not solo)."""
        if self.white_deck and any(c >= 0 for c in self.white_row):
            out.append(_RECYCLE["W"])
        if self.black_deck and any(c >= 0 for c in self.black_row):
            out.append(_RECYCLE["B"])

    def illegal_reason(self, action: Action) -> str | None:
        try:
            self.check(action)
        except IllegalActionError as error:
            return str(error)
        return None

    def check(self, action: Any) -> None:
        """Raise :class:`IllegalActionError` with the reason if ``action`` is illegal now."""
        if self.phase == "over":
            raise IllegalActionError("the game is over")
        kind = type(action)
        if kind not in _ACTION_TYPE_SET:
            raise IllegalActionError(f"not a Project L action: {action!r}")
        p = self.player
        stock = self.stock[p]
        puzzles = self.puzzles[p]
        if self.phase == "touch":
            self._check_touch_step(action, puzzles, stock)
            return
        if self.in_master:
            self._check_master_step(action, puzzles, stock)
            return
        if kind is Take:
            self._check_take(action, puzzles)
            return
        if kind is TakePiece:
            if self.supply[0] <= 0:
                raise IllegalActionError("no level-1 piece left in the supply")
            return
        if kind is Upgrade:
            self._check_upgrade(action, stock)
            return
        if kind is Place:
            self._check_place(action, puzzles, stock)
            return
        if kind is Master:
            self._check_master(puzzles, stock)
            return
        if kind is Recycle:
            self._check_recycle(action)
            return
        if kind is Pass:
            if not self._must_pass():
                raise IllegalActionError("you may pass only when no other action is legal")
            return
        raise IllegalActionError(f"not an action here: {action}")

    def _check_touch_step(self, action: Any, puzzles: list[Puzzle], stock: list[int]) -> None:
        """The finishing-touches phase: a Touch or Done."""
        kind = type(action)
        if kind is Done:
            return
        if kind is not Touch:
            raise IllegalActionError("finishing touches: only 'touch SLOT SHAPE CELLS' or 'done'")
        self._check_place(action, puzzles, stock)

    def _check_master_step(self, action: Any, puzzles: list[Puzzle], stock: list[int]) -> None:
        """Inside the Master action: a MasterPlace on a puzzle it has not placed on yet, or MasterEnd."""
        kind = type(action)
        if kind is MasterEnd:
            return
        if kind is not MasterPlace:
            raise IllegalActionError("during the Master action: only 'mplace SLOT SHAPE CELLS' or 'mend'")
        self._check_place(action, puzzles, stock)
        if self.master_slots >> action.slot & 1:
            raise IllegalActionError("the Master action places at most one piece on each puzzle")

    def _check_take(self, action: Take, puzzles: list[Puzzle]) -> None:
        row, slot = action.row, action.slot
        if len(puzzles) >= MAX_PUZZLES:
            raise IllegalActionError("you already have 4 unfinished puzzles")
        if self.solo != (row == "G"):
            raise IllegalActionError("take from row W or B: take W SLOT or take B SLOT" if not self.solo
                                     else "solo: take from the grid: take G SLOT (0-8)")
        cards = self.white_row if row in ("W", "G") else self.black_row if row == "B" else None
        if cards is None or not isinstance(slot, int) or not 0 <= slot < len(cards):
            raise IllegalActionError(f"no such face-up slot: {row} {slot}")
        if cards[slot] < 0:
            raise IllegalActionError(f"slot {row} {slot} is empty")
        if row == "B" and self.revised and self.trigger_round >= 0 and self.blacks_taken:
            raise IllegalActionError("after the end trigger at most one black puzzle may be taken per turn")

    def _check_upgrade(self, action: Upgrade, stock: list[int]) -> None:
        s, t = action.old, action.new
        if not (isinstance(s, int) and isinstance(t, int) and 0 <= s < NSHAPES and 0 <= t < NSHAPES):
            raise IllegalActionError("unknown shape")
        if not stock[s]:
            raise IllegalActionError(f"you have no {SHAPE_NAMES[s]}")
        if t not in _UPGRADES[self.revised][s]:
            lower = " or any lower level" if self.revised else ""
            raise IllegalActionError(f"{SHAPE_NAMES[s]} may become another shape of its level, one level higher"
                                     f"{lower}, not {SHAPE_NAMES[t]}")
        if self.supply[t] <= 0:
            raise IllegalActionError(f"no {SHAPE_NAMES[t]} left in the supply")

    def _check_master(self, puzzles: list[Puzzle], stock: list[int]) -> None:
        if self.master_used:
            raise IllegalActionError("the Master action is allowed once per turn")
        if not any(fits(e, s) for _, e, _ in puzzles for s in range(NSHAPES) if stock[s]):
            raise IllegalActionError("Master: no piece of yours fits any of your puzzles")

    def _check_recycle(self, action: Recycle) -> None:
        if not self.revised or self.solo:
            raise IllegalActionError("Recycle belongs to the revised rule set (not solo)")
        if action.row not in ("W", "B"):
            raise IllegalActionError("recycle row W or B")
        deck, row_cards = self._deck_and_row(action.row)
        if not deck:
            raise IllegalActionError("that deck is empty")
        if not any(c >= 0 for c in row_cards):
            raise IllegalActionError("that row is empty")

    def _deck_and_row(self, row: str) -> tuple[list[int], list[int]]:
        return (self.white_deck, self.white_row) if row in ("W", "G") else (self.black_deck, self.black_row)

    def _draw(self, row: str) -> int:
        """The top card of row ``row``'s deck (-1 if it is empty); the known bottom shrinks with it."""
        if row in ("W", "G"):
            if not self.white_deck:
                return -1
            card = self.white_deck.pop()
            self.white_known = min(self.white_known, len(self.white_deck))
            return card
        if not self.black_deck:
            return -1
        card = self.black_deck.pop()
        self.black_known = min(self.black_known, len(self.black_deck))
        return card

    def _must_pass(self) -> bool:
        """True when no action but pass is legal (normal phase, outside Master)."""
        p = self.player
        stock = self.stock[p]
        if self.supply[0] > 0:
            return False
        if len(self.puzzles[p]) < MAX_PUZZLES and any(c >= 0 for c in self.white_row + self.black_row):
            return False
        if any(stock[s] and self.supply[t] > 0 for s in range(NSHAPES) for t in _UPGRADES[self.revised][s]):
            return False
        if any(stock[s] and fits(e, s) for _, e, _ in self.puzzles[p] for s in range(NSHAPES)):
            return False
        if self.revised and not self.solo and (self.white_deck or self.black_deck):
            return self.legal_actions() == [PASS]
        return True

    def _check_place(self, action: Placement, puzzles: list[Puzzle], stock: list[int]) -> None:
        slot, s, mask = action.slot, action.shape, action.mask
        if not isinstance(slot, int) or not 0 <= slot < len(puzzles):
            raise IllegalActionError(f"you have no unfinished puzzle in slot {slot}")
        if not isinstance(s, int) or not 0 <= s < NSHAPES:
            raise IllegalActionError("unknown shape")
        if not stock[s]:
            raise IllegalActionError(f"you have no {SHAPE_NAMES[s]} in stock")
        if placement_shape().get(mask) != s:
            raise IllegalActionError(f"those cells are not a {SHAPE_NAMES[s]}")
        empty = puzzles[slot][1]
        card = self.cards[puzzles[slot][0]]
        if mask & ~card.recess:
            raise IllegalActionError("the piece would cover cells outside the recess")
        if mask & ~empty:
            raise IllegalActionError("the piece would overlap a piece already placed")

    def apply(self, action: Action) -> None:
        self.check(action)
        self.history.append(action)
        p = self.player
        if type(action) is Place or type(action) is MasterPlace or type(action) is Touch:
            if self._apply_placement(p, action):
                return
        elif type(action) is MasterEnd:
            self._end_master(p)
        elif type(action) is Master:
            self.master_used = True
            self.in_master = True
            self.master_slots = 0
            return
        elif type(action) is Take:
            self._apply_take(p, action)
        elif type(action) is TakePiece:
            self.supply[0] -= 1
            self.stock[p][0] += 1
        elif type(action) is Upgrade:
            s, t = action.old, action.new
            self.stock[p][s] -= 1
            self.supply[s] += 1
            self.supply[t] -= 1
            self.stock[p][t] += 1
        elif type(action) is Recycle:
            deck, row_cards = self._deck_and_row(action.row)
            recycled = [c for c in reversed(row_cards) if c >= 0]
            deck[0:0] = recycled
            for i in range(len(row_cards)):
                row_cards[i] = deck.pop() if deck else -1
            if action.row == "W":
                self.white_known = min(self.white_known + len(recycled), len(deck))
            else:
                self.black_known = min(self.black_known + len(recycled), len(deck))
        elif type(action) is Done:
            self._next_toucher()
            return
        if type(action) is Pass:
            if self._count_pass():
                return
        else:
            self.passes = 0
        self.actions_left -= 1
        if self.actions_left == 0:
            self._end_turn()

    def _apply_placement(self, p: int, action: Placement) -> bool:
        """Place the piece; True when the placement is not a turn action of its own (a Master
        sub-step or a finishing touch)."""
        slot, s, mask = action.slot, action.shape, action.mask
        self.stock[p][s] -= 1
        puzzle = self.puzzles[p][slot]
        puzzle[1] &= ~mask
        puzzle[2].append((s, mask))
        if type(action) is MasterPlace:
            self.master_slots |= 1 << slot
            return True
        if type(action) is Touch:
            self.penalty[p] += 1
            if puzzle[1] == 0:
                self.touched[p].append([puzzle[0], puzzle[2]])
                del self.puzzles[p][slot]
            return True
        if puzzle[1] == 0:
            self._complete(p, slot)
        return False

    def _end_master(self, p: int) -> None:
        """Close the Master action: the puzzles it filled are completed, last slot first."""
        self.in_master = False
        for slot in range(len(self.puzzles[p]) - 1, -1, -1):
            if self.puzzles[p][slot][1] == 0:
                self._complete(p, slot)

    def _apply_take(self, p: int, action: Take) -> None:
        """Take a face-up card; its slot is refilled from the deck (solo: the column's lock pays out)."""
        row, slot = action.row, action.slot
        if row == "B":
            card = self.black_row[slot]
            self.blacks_taken += 1
            self.black_row[slot] = self._draw("B")
            if self.black_row[slot] < 0:
                self._trigger()
        else:
            card = self.white_row[slot]
            self.white_row[slot] = self._draw(row)
            if row == "G":
                column = slot % 3
                if self.locks[column]:
                    self.locks[column] -= 1
                    self.opp_supply += 1
                if self.white_row[slot] < 0:
                    self._trigger()
        self.puzzles[p].append([card, self.cards[card].recess, []])

    def _count_pass(self) -> bool:
        """Count a pass; True when a whole round of passes ends play (the pass then spends no action)."""
        self.passes += 1
        if self.passes >= 3 * self.num_players and not self.solo:
            # a whole round of passes: nothing can ever change again, so play stops now
            self.end_reason = self.end_reason or "no player can act"
            self._game_end()
            return True
        return False

    # ------------------------------------------------------------------
    # rules helpers
    # ------------------------------------------------------------------
    def _complete(self, p: int, slot: int) -> None:
        card, _, pieces = self.puzzles[p].pop(slot)
        stock = self.stock[p]
        for s, _ in pieces:
            stock[s] += 1
        self.done[p].append(card)
        got = reward_shape(self.cards[card].reward_index, self.supply)
        if got is not None:
            self.supply[got] -= 1
            stock[got] += 1
        self.completions = (*self.completions, (self.round * self.num_players + p, p, card, -1 if got is None else got))

    def _trigger(self) -> None:
        if self.trigger_round < 0:
            self.trigger_round = self.round
            self.end_reason = "deck exhausted"

    def _end_turn(self) -> None:
        if self.solo:
            self._opponent_turn()
        self.actions_left = 3
        self.master_used = False
        self.in_master = False
        self.blacks_taken = 0
        self.player += 1
        if self.player == self.num_players:
            self.player = 0
            if self.trigger_round >= 0 and self.round >= self.trigger_round + 1:
                self._game_end()
                return
            self.round += 1
            if self.round >= self.max_rounds:
                self.end_reason = self.end_reason or f"round limit {self.max_rounds}"
                self._game_end()

    def _game_end(self) -> None:
        self.player = 0
        if self.revised:
            self.phase = "touch"
        else:
            self.phase = "over"

    def _next_toucher(self) -> None:
        self.player += 1
        if self.player == self.num_players:
            self.player = 0
            self.phase = "over"

    def _opponent_turn(self) -> None:
        grid = self.white_row
        candidates = [i for i in range(9) if grid[i] >= 0 and self.locks[i % 3] == 0]
        if not candidates:
            if all(self.locks):
                for c in range(3):
                    self.locks[c] -= 1
                    self.supply[0] += 1
            return
        best = max(candidates, key=lambda i: (self.cards[grid[i]].points, -i))
        self.opp_cards.append(grid[best])
        column = best % 3
        self.locks[column] += self.opp_supply
        self.opp_supply = 0
        for c in range(3):
            if c != column and self.locks[c]:
                self.locks[c] -= 1
                self.locks[column] += 1
        grid[best] = self._draw("G")
        if grid[best] < 0:
            self._trigger()

    # ------------------------------------------------------------------
    # outcome
    # ------------------------------------------------------------------
    def points(self, p: int) -> int:
        return sum(self.cards[c].points for c in self.done[p])

    def scores(self) -> list[float]:
        out = []
        for p in range(self.num_players):
            score = self.points(p)
            if self.revised:
                score += sum(self.cards[c].points for c, _ in self.touched[p]) - self.penalty[p]
                if self.phase == "over":
                    score -= sum(self.cards[c].points for c, _, _ in self.puzzles[p])
            out.append(float(score))
        return out

    def opponent_score(self) -> int:
        return sum(self.cards[c].points for c in self.opp_cards)

    def returns(self) -> list[float]:
        scores = self.scores()
        if self.solo:
            return [1.0 if scores[0] > self.opponent_score() else 0.0]
        keys = [(scores[p], len(self.done[p]) + len(self.touched[p]), sum(self.stock[p])) for p in range(self.num_players)]
        best = max(keys)
        winners = [p for p in range(self.num_players) if keys[p] == best]
        return [1.0 / len(winners) if p in winners else 0.0 for p in range(self.num_players)]

    def winners(self) -> list[int]:
        r = self.returns()
        return [p for p, v in enumerate(r) if v > 0]

    # ------------------------------------------------------------------
    # conservation (for tests and debugging)
    # ------------------------------------------------------------------
    def piece_totals(self) -> list[int]:
        """Pieces per shape everywhere: supply + stocks + on cards (+ solo locks and opponent supply)."""
        total = self.supply[:]
        for p in range(self.num_players):
            for s in range(NSHAPES):
                total[s] += self.stock[p][s]
            for _, _, pieces in self.puzzles[p]:
                for s, _ in pieces:
                    total[s] += 1
            for _, pieces in self.touched[p]:
                for s, _ in pieces:
                    total[s] += 1
        total[0] += sum(self.locks) + self.opp_supply
        return total

    def card_locations(self) -> list[int]:
        """Every card index in play, wherever it is (decks, rows, hands, score piles)."""
        out = self.white_deck + self.black_deck + [c for c in self.white_row + self.black_row if c >= 0]
        for p in range(self.num_players):
            out += [c for c, _, _ in self.puzzles[p]] + self.done[p] + [c for c, _ in self.touched[p]]
        return out + self.opp_cards

    # ------------------------------------------------------------------
    # text forms
    # ------------------------------------------------------------------
    def action_to_string(self, action: Action) -> str:
        return str(action)

    def string_to_action(self, text: str) -> Action:
        """Parse an action's text (it may still be illegal here: see :meth:`illegal_reason`)."""
        return parse_action(text)

    # ------------------------------------------------------------------
    # information
    # ------------------------------------------------------------------
    def _card_json(self, c: int) -> str | None:
        return self.cards[c].id if c >= 0 else None

    def observation(self, player: int) -> dict[str, Any]:
        """Everything but the order of the face-down decks: their sizes and their known bottom cards."""
        data = self.to_json()
        data.pop("cards")
        for name, deck, known in (("white_deck", self.white_deck, self.white_known),
                                  ("black_deck", self.black_deck, self.black_known)):
            data[name] = {"size": len(deck), "bottom": [self.cards[c].id for c in deck[:known]]}
        data["white_row"] = [self._card_json(c) for c in self.white_row]
        data["black_row"] = [self._card_json(c) for c in self.black_row]
        data["observer"] = player
        data["scores"] = self.scores()
        return data

    def _seen_cards(self) -> set[int]:
        """Every card that has left the face-down decks (face-up, taken, scored) — public."""
        seen = {c for c in self.white_row + self.black_row if c >= 0}
        for p in range(self.num_players):
            seen.update(c for c, _, _ in self.puzzles[p])
            seen.update(self.done[p])
            seen.update(c for c, _ in self.touched[p])
        seen.update(self.opp_cards)
        return seen

    def resample(self, player: int, rng: random.Random) -> Self:
        """A copy with the face-down decks redrawn: their unseen cards (in sorted order) shuffled with ``rng``.

        Every seat sees the same things, so ``player`` changes nothing.  The
        known bottom of a deck (recycled rows) stays in place.  In solo the deck
        holds 15 white and 10 black cards chosen from the box, so the unseen
        cards of each colour are sampled down to the number still in the deck.
        """
        st = self.clone()
        seen = self._seen_cards()
        whites, blacks = split_colors(self.cards)
        index = {c.id: i for i, c in enumerate(self.cards)}
        unseen_w = [index[c.id] for c in whites if index[c.id] not in seen]
        unseen_b = [index[c.id] for c in blacks if index[c.id] not in seen]
        if self.solo:
            white_left = SOLO_WHITES - (len(whites) - len(unseen_w))
            black_left = SOLO_BLACKS - (len(blacks) - len(unseen_b))
            rng.shuffle(unseen_w)
            rng.shuffle(unseen_b)
            deck = unseen_w[:white_left] + unseen_b[:black_left]
            rng.shuffle(deck)
            st.white_deck = deck
            return st
        for name, unseen, known in (("white_deck", unseen_w, self.white_known),
                                    ("black_deck", unseen_b, self.black_known)):
            deck = getattr(self, name)
            bottom = deck[:known]
            hidden = [c for c in unseen if c not in bottom]
            rng.shuffle(hidden)
            setattr(st, name, bottom + hidden)
        return st

    # ------------------------------------------------------------------
    # serialisation
    # ------------------------------------------------------------------
    _FIELDS = (
        "num_players", "rules", "solo", "difficulty", "per_shape", "max_rounds", "supply", "locks", "opp_supply",
        "opp_cards", "white_deck", "black_deck", "white_known", "black_known", "white_row", "black_row", "stock",
        "done", "penalty", "player", "actions_left", "master_used", "in_master", "master_slots", "blacks_taken",
        "round", "trigger_round", "phase", "end_reason", "passes",
    )

    def to_json(self) -> dict[str, Any]:
        data = {name: getattr(self, name) for name in self._FIELDS}
        data = {k: (copy.deepcopy(v) if isinstance(v, list) else v) for k, v in data.items()}
        data["puzzles"] = [[[c, e, [list(x) for x in ps]] for c, e, ps in pl] for pl in self.puzzles]
        data["touched"] = [[[c, [list(x) for x in ps]] for c, ps in t] for t in self.touched]
        data["history"] = [str(a) for a in self.history]
        data["cards"] = format_deck(self.cards)
        if self.completions:
            data["completions"] = [list(done) for done in self.completions]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        st = cls()
        for name in cls._FIELDS:
            if name in ("white_known", "black_known"):
                setattr(st, name, data.get(name, 0))
            else:
                setattr(st, name, copy.deepcopy(data[name]))
        st.revised = st.rules == "revised"
        st.cards = tuple(parse_deck(data["cards"]))
        st.puzzles = [[[c, e, [tuple(x) for x in ps]] for c, e, ps in pl] for pl in data["puzzles"]]
        st.touched = [[[c, [tuple(x) for x in ps]] for c, ps in t] for t in data["touched"]]
        st.history = [parse_action(text) for text in data.get("history", [])]
        st.completions = tuple((int(t), int(p), int(c), int(g)) for t, p, c, g in data.get("completions", []))
        return st

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ProjectLState):
            return False
        mine, theirs = self.to_json(), other.to_json()
        mine.pop("completions", None)
        theirs.pop("completions", None)
        return mine == theirs

    __hash__: ClassVar[None] = None  # type: ignore[assignment]

    # ------------------------------------------------------------------
    # rendering
    # ------------------------------------------------------------------
    def render_text(self, color: bool = False) -> str:
        """The table as text: whose turn, the face-up puzzles, the supply, each seat's tableau, and the
        puzzles completed since the seat to act last played (seats and rounds count from 1)."""
        lines = [self.status_line(), *self.completions_text()]
        if self.solo:
            lines.append(f"  automated opponent: {self.opponent_score()} pts ({len(self.opp_cards)} puzzles),"
                         f" supply {self.opp_supply}, locks on grid columns 1-3: {' '.join(map(str, self.locks))}")
            lines.append(f"  face-up grid (deck {len(self.white_deck)}), take with 'take G SLOT' (SLOT 0-8):")
            for r in range(3):
                lines.extend(self._row_grids("grid", [(f"G{3 * r + k}", self.white_row[3 * r + k]) for k in range(3)]))
        else:
            lines.append(f"  white row (deck {len(self.white_deck)}), take with 'take W SLOT':")
            lines.extend(self._row_grids("W", [(f"W{i}", c) for i, c in enumerate(self.white_row)]))
            lines.append(f"  black row (deck {len(self.black_deck)}), take with 'take B SLOT':")
            lines.extend(self._row_grids("B", [(f"B{i}", c) for i, c in enumerate(self.black_row)]))
        lines.append("  supply: " + " ".join(f"{n}:{k}" for n, k in zip(SHAPE_NAMES, self.supply)))
        if any(self.puzzles):
            lines.append("  place SLOT SHAPE CELLS: SLOT is the [n] over a puzzle, a cell its row digit then"
                         " its column digit (13 = row 1, column 3)")
        for p in range(self.num_players):
            lines.append(self.tableau_text(p, color))
        return "\n".join(lines)

    def completions_text(self) -> list[str]:
        """One line per puzzle completed since the seat to act began its previous turn (once play is
        over: in the last round): who, which puzzle, the points and the reward piece."""
        now = self.round * self.num_players + (self.player if self.phase == "play" else self.num_players)
        out = []
        for turn, p, c, got in self.completions:
            if turn >= now - self.num_players:
                card = self.cards[c]
                reward = SHAPE_NAMES[got] if got >= 0 else "none (the supply is out)"
                points = f"+{card.points} point{'' if card.points == 1 else 's'}"
                out.append(f"  round {turn // self.num_players + 1}: seat {p + 1} completed puzzle {card.id}:"
                           f" {points}, reward {reward}; its pieces went back to the stock")
        return out

    def _row_grids(self, _row: str, slots: list[tuple[str, int]]) -> list[str]:
        """Table cards side by side as small grids (recess ``#``), each under 'SLOT:ID points reward'."""
        blocks = []
        for label, c in slots:
            if c < 0:
                blocks.append([f"{label}: --"] + [""] * SIZE)
                continue
            card = self.cards[c]
            blocks.append([f"{label}:{card.id} {card.points}p +{card.reward}"] + card_text(card, coords=False).splitlines()[1:])
        width = max(len(line) for block in blocks for line in block)
        return ["    " + "   ".join(line.ljust(width) for line in row).rstrip() for row in zip(*blocks)]

    def _slot_text(self, c: int, label: str) -> str:
        if c < 0:
            return f"{label}:--"
        card = self.cards[c]
        return f"{label}:{card.id}({card.area}c {card.points}p {card.reward})"

    def status_line(self) -> str:
        """Round, seat to act and actions left (counted from 1); the scores once the game is over."""
        if self.phase == "over":
            scores = ", ".join(f"seat {p + 1} {s:g}" for p, s in enumerate(self.scores()))
            solo = f", automated opponent {self.opponent_score()}" if self.solo else ""
            return f"game over after round {self.round + 1} ({self.end_reason or 'end'}); scores: {scores}{solo}"
        mode = " [Master: mplace/mend]" if self.in_master else " [finishing touches: touch/done]" if self.phase == "touch" else ""
        trig = f", end triggered in round {self.trigger_round + 1}" if self.trigger_round >= 0 else ""
        left = f"{self.actions_left} action{'' if self.actions_left == 1 else 's'} left"
        return f"round {self.round + 1}, seat {self.player + 1} to act, {left}{mode}{trig}"

    def tableau_text(self, p: int, color: bool = False) -> str:
        """Seat ``p + 1``'s points, completed puzzles and stock, then its unfinished puzzles side by side
        (each under ``[SLOT]``, with the row and column digits ``place`` takes)."""
        done = f" ({' '.join(self.cards[c].id for c in self.done[p])})" if self.done[p] else ""
        head = (
            f"seat {p + 1}: {self.points(p)} pts, {len(self.done[p])} done{done}, stock "
            + (" ".join(f"{n}x{k}" for n, k in zip(SHAPE_NAMES, self.stock[p]) if k) or "-")
        )
        blocks = [card_text(self.cards[c], ps, color).splitlines() for c, _, ps in self.puzzles[p]]
        if not blocks:
            return head
        blocks = [[f"[{slot}] {b[0]}", *("    " + line for line in b[1:])] for slot, b in enumerate(blocks)]
        width = max(visible_len(line) for b in blocks for line in b)
        rows = ["  " + "   ".join(pad(b[k], width) for b in blocks).rstrip() for k in range(len(blocks[0]))]
        return head + "\n" + "\n".join(rows)

    def tableau_svg(self, p: int) -> str:
        """SVG of one seat's puzzles (pieces coloured by shape), completed puzzles, pieces and score."""
        from puzzles.projectl.render import tableau_svg

        return tableau_svg(self, p)

    def picture(self, seat: int | None = None, reveal: bool = False) -> str:
        """The whole table; the same for every seat (only the decks' order is hidden, and it is not drawn)."""
        from puzzles.projectl.render import table_svg

        return table_svg(self)

    def _repr_svg_(self) -> str:
        return self.picture()


def new_game(players: int = 2, seed: int = 0, rules: str = "classic", difficulty: str = "normal",
             supply: int | None = None, deck: str | None = None, max_rounds: int = 100) -> ProjectLState:
    """The registry factory: ``players`` seats dealt from ``seed``; one player plays the solo variant.

    ``difficulty`` applies to the solo variant only; ``supply`` is the number of
    pieces of each shape (default: the box of the rule set); ``deck`` a deck
    file (default: the shipped deck).
    """
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {difficulty!r}; choose from {', '.join(DIFFICULTIES)}")
    cards = load_deck(deck) if deck else None
    per_shape = int(supply) if supply is not None else None
    return ProjectLState.new_game(players, seed, rules=rules, solo=players == 1, difficulty=difficulty,
                                  supply_per_shape=per_shape, cards=cards, max_rounds=int(max_rounds))


__all__ = [
    "ACTION_TYPES", "DIFFICULTIES", "NCELLS", "RULE_SETS", "Action", "Done", "Master", "MasterEnd", "MasterPlace",
    "Pass", "Place", "Placement", "ProjectLState", "Recycle", "Take", "TakePiece", "Touch", "Upgrade", "fits",
    "new_game", "parse_action", "reward_shape", "upgrade_targets",
]
