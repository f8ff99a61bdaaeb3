"""Rule engine of Rainbow Blackjack ("Colorful 21"), the tower game.

Implements :class:`puzzles.game.GameState` over the compiled rule kernel
:mod:`puzzles.towers.kernel` (the only implementation of the rules: legal
actions, apply, end of round and of the game, scores); this module adds the
typed actions, their text, JSON, observations and reasons for illegal actions.
The rules as implemented and every rule decision are written up in
``docs/rules/rainbow-blackjack.md``.  Seat 0 is
player 1 (primary colours), seat 1 is player 2 (secondary colours).

Actions are frozen dataclasses: :class:`Draw` (a chance draw of the deal),
:class:`PickLine`, :class:`Announce`, :class:`Place` (``replace=True`` swaps
the joker on top of the tower) and :class:`Pass`.

Flow of a game
--------------
* **Setup (chance).**  For seat 0 then seat 1: the 9 cells of the first 3×3
  grid are drawn one at a time from the player's 21 stones, then the 3 removed
  stones are drawn from the remaining 12; the last 9 form the player's *pool*
  for the second grid.  Each draw is one chance node whose outcomes are the
  distinct stone codes left, weighted by multiplicity, so a game is a pure
  function of the chance draws (seeded with ``sample_chance(rng)``).
* **Second grid (chance).**  At the start of round 4 the 9 pool stones of seat
  0, then seat 1, are laid cell by cell into a fresh grid (as in the original
  program: the player sees their second grid only from round 4).
* **Rounds.**  Starters by round: P1, P2, P1, P1, P2, P1.  The starter picks a
  line (``row1..row3``/``col1..col3``), then announces ``colors`` or
  ``numbers``; then the other player does the same.  Then 6 placements,
  starter first, alternating.
* **Placement.**  ``R6>O`` puts R6 on the orange tower; ``R6xO`` *replaces* the
  joker on top of the orange tower by R6 (the joker leaves the game);
  ``J>O`` puts a joker; ``pass`` when nothing in hand can be placed.
* **End.**  Instant win is checked after every placement (for the player who
  placed: 3 owned towers at exactly 21); otherwise after round 6 more owned
  towers wins, equal counts draw.

Rule decisions
--------------
* No legal placement: the player passes that placement (the only legal action
  is ``pass``); stones left in a hand at the end of a round are discarded and
  revealed.  Only an all-joker hand can be stuck (a coloured stone always fits
  its own tower).
* A joker's value is the effective value of the stone directly below it
  (always a coloured stone, since a joker may not lie on a joker).
* Replacement is a separate action from placing on top; both can be legal for
  the same stone and tower.  The replacer becomes the tower's owner.  The
  removed joker is public (listed under ``out``).
* An announcement is the *sorted multiset* of the three colours (joker =
  ``grey``) or numbers (joker = 0) of the picked line — the order within the
  line is not announced.
* The owner of stones knows which 3 of their stones were removed; the opponent
  does not.  Which line was picked is public.
* ``scores()`` are the numbers of towers owned; ``returns()`` give 1 to an
  instant winner regardless of tower counts.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from puzzles.game import CHANCE, GameState, IllegalActionError, shared_win_returns
from puzzles.towers import kernel as K
from puzzles.towers.infoset import resample_hidden
from puzzles.towers.schema import check_state_schema
from puzzles.towers.stones import (
    COLORS,
    JOKER,
    LETTERS,
    allowed_towers,
    announce_attr,
    parse_stone,
    parse_tower,
    player_set,
    stone_str,
    value_of,
)

STARTERS = (0, 1, 0, 0, 1, 0)
NUM_ROUNDS = 6
LINE_NAMES = ("row1", "row2", "row3", "col1", "col2", "col3")
LINE_CELLS = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8))
ANNOUNCE_MODES = ("colors", "numbers")

# Deal schedules, the kernel's draw order (K.SETUP_DEAL, K.GRID2_DEAL) by name: (player, target)
# with target 'g0'/'g1' (grid cells in order) or 'rm' (removed).
_DEAL_TARGETS = {0: "g0", 1: "g1", -1: "rm"}
SETUP_SCHEDULE = tuple((int(p), _DEAL_TARGETS[int(g)]) for p, g in K.SETUP_DEAL)
GRID2_SCHEDULE = tuple((int(p), _DEAL_TARGETS[int(g)]) for p, g in K.GRID2_DEAL)


# ---------------------------------------------------------------------------
# actions
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, order=True)
class Draw:
    """Chance: the next stone of the deal (a stone code, see :mod:`puzzles.towers.stones`)."""

    stone: int


@dataclass(frozen=True, slots=True, order=True)
class PickLine:
    """Pick a line of the current grid: 0-2 are ``row1..row3``, 3-5 are ``col1..col3``."""

    line: int


@dataclass(frozen=True, slots=True, order=True)
class Announce:
    """Announce the ``colors`` or the ``numbers`` of the picked line."""

    mode: str


@dataclass(frozen=True, slots=True, order=True)
class Place:
    """Put ``stone`` from the hand on ``tower`` (0-5, wheel order); ``replace``: swap the joker on top instead."""

    stone: int
    tower: int
    replace: bool = False


@dataclass(frozen=True, slots=True, order=True)
class Pass:
    """Pass a placement: allowed only when no stone in hand can be placed."""


PASS = Pass()
TowersAction = Draw | PickLine | Announce | Place | Pass


def sort_attrs(attrs: list[Any]) -> list[Any]:
    """Announcement order: colours in wheel order then grey; numbers ascending."""
    order = {c: i for i, c in enumerate(LETTERS + "X")}
    return sorted(attrs, key=lambda a: a if isinstance(a, int) else order.get(a, 6))


def line_direction(line: int) -> int:
    """0 for rows, 1 for columns."""
    return line // 3


def replace_ok(total: int, top_value: int, top_is_joker: bool, value: int) -> bool:
    """Joker replacement: (a) replacing is strictly closer to 21 and (b) stacking on top would exceed 21."""
    return top_is_joker and bool(K.replace_ok(total, top_value, value))


def new_game(players: int = 2, seed: int = 0) -> TowersState:
    """The registry factory: a two-player game whose opening deal is drawn from ``seed``.

    The second grids are dealt by chance at the start of round 4 (the caller's
    random stream resolves those chance nodes).
    """
    if players != 2:
        raise ValueError(f"Rainbow Blackjack is played by 2 players, not {players}")
    return TowersState.new_game(seed)


PHASE_NAMES = {K.PHASE_PICK: "pick", K.PHASE_PLACE: "place", K.PHASE_DONE: "end", K.PHASE_DEAL: "deal"}
PHASE_CODES = {name: code for code, name in PHASE_NAMES.items()}


def _action_table() -> list[TowersAction]:
    """Every action by its kernel id (see :mod:`puzzles.towers.kernel`); ids of no action hold PASS."""
    table: list[TowersAction] = [PASS] * K.NUM_ACTIONS
    for code in range(JOKER + 1):
        for t in range(6):
            table[code * 16 + t * 2] = Place(code, t)
            table[code * 16 + t * 2 + 1] = Place(code, t, True)
    for ln in range(6):
        table[K.A_PICK + ln] = PickLine(ln)
    for i, mode in enumerate(ANNOUNCE_MODES):
        table[K.A_ANNOUNCE + i] = Announce(mode)
    for code in range(JOKER + 1):
        table[K.A_DRAW + code] = Draw(code)
    return table


ACTIONS = _action_table()
_IDS: dict[object, int] = {action: i for i, action in enumerate(ACTIONS) if not (isinstance(action, Pass) and i != K.A_PASS)}


def _small(x: object, hi: int) -> int | None:
    """``x`` as an int in 0..hi-1, or None."""
    if isinstance(x, bool) or not isinstance(x, int | np.integer):
        return None
    v = int(x)
    return v if 0 <= v < hi else None


def action_id(action: object) -> int | None:
    """Kernel id of ``action``, or None when it names no action of the game."""
    try:
        return _IDS[action]
    except (KeyError, TypeError):
        return _action_id(action)


def _action_id(action: object) -> int | None:
    if isinstance(action, Place):
        code, t = _small(action.stone, JOKER + 1), _small(action.tower, 6)
        if code is None or t is None:
            return None
        return code * 16 + t * 2 + (1 if action.replace else 0)
    if isinstance(action, PickLine):
        ln = _small(action.line, 6)
        return None if ln is None else K.A_PICK + ln
    if isinstance(action, Pass):
        return K.A_PASS
    if isinstance(action, Announce):
        return K.A_ANNOUNCE + ANNOUNCE_MODES.index(action.mode) if action.mode in ANNOUNCE_MODES else None
    if isinstance(action, Draw):
        code = _small(action.stone, JOKER + 1)
        return None if code is None else K.A_DRAW + code
    return None


class TowersState(GameState[TowersAction]):
    """A full position of Rainbow Blackjack (both players' hidden stones included).

    The position lives in the compiled rule kernel's buffer (:mod:`puzzles.towers.kernel`);
    this class adds what only a record needs (the log, the announcements as said,
    a second deal fixed by hand) and the Python forms of everything.
    """

    game_name: ClassVar[str] = "towers"
    num_players = 2

    def __init__(self) -> None:
        self.buf = K.new_buffer()
        self.core = self.buf[: K.NS]
        self._views: K.Towers | None = None
        self.announcements: list[dict[str, Any]] = []
        self.log: list[str] = []
        self._preset_grid2: tuple[list[int], list[int]] | None = None  # second grids fixed by from_setup
        #: A puzzle shown with every stone face up (an endgame challenge): the exact solver may answer a
        #: human's hint.  No rule, bot or observation reads it; JSON key ``face_up`` (written only when set).
        self.face_up = False

    @property
    def arrays(self) -> K.Towers:
        """The named arrays of the position (views of its buffer)."""
        if self._views is None:
            self._views = K.arrays(self.buf)
        return self._views

    # ------------------------------------------------------------------
    # construction helpers
    # ------------------------------------------------------------------
    @classmethod
    def new_game(cls, seed: int | None = None) -> TowersState:
        """A fresh game at its first chance node; with ``seed``, the deal is resolved at once."""
        state = cls()
        if seed is not None:
            rng = random.Random(seed)
            while state.current_player() == CHANCE:
                state.apply(state.sample_chance(rng))
        return state

    @classmethod
    def from_setup(
        cls,
        grids1: tuple[list[int], list[int]],
        removed: tuple[list[int], list[int]],
        grids2: tuple[list[int], list[int]] | None = None,
    ) -> TowersState:
        """A game dealt by hand: first grids (9 codes each, row by row) and removed stones per seat.

        ``grids2`` (optional) is applied when round 4 starts; the stones must be
        exactly each player's remaining 9.
        """
        state = cls()
        for p in (0, 1):
            for code in list(grids1[p]) + list(removed[p]):
                state.apply(Draw(code))
        state._preset_grid2 = grids2
        return state

    @classmethod
    def placement_position(
        cls, towers: dict[int, list[tuple[str, int]]], hands: tuple[list[str], list[str]], step: int = 0
    ) -> TowersState:
        """A round-1 placement position set up by hand, for demos and tests.

        ``towers`` maps a tower index to its stones bottom first as ``(stone, placer seat)``
        (a joker copies the value below); ``hands`` are the two hands; ``step`` the placement
        number (0 = the starter, P1, to place).  Grids are those of ``new_game(0)``.
        """
        s = cls.new_game(0)
        for a in (PickLine(0), Announce("colors"), PickLine(0), Announce("colors")):
            s.apply(a)
        data = s.to_json()
        pub = data["public"]
        for t in range(6):
            codes = [parse_stone(text) for text, _ in towers.get(t, [])]
            values: list[int] = []
            for code in codes:
                values.append(values[-1] if code == JOKER else value_of(code))
            pub["towers"][t] = [stone_str(c) for c in codes]
            pub["values"][t] = values
            pub["placers"][t] = [placer for _, placer in towers.get(t, [])]
        for p in (0, 1):
            data["private"][p]["hand"] = [stone_str(parse_stone(x)) for x in hands[p]]
        pub["hand_size"] = [len(hands[0]), len(hands[1])]
        pub["step"] = step
        return cls.from_json_unchecked(data)

    # ------------------------------------------------------------------
    # the position, by name
    # ------------------------------------------------------------------
    @property
    def round(self) -> int:
        return int(self.core[K.ROUND])

    @property
    def phase(self) -> str:
        """``deal``, ``pick`` (line picks and announcements), ``place`` or ``end``."""
        return PHASE_NAMES[int(self.core[K.PHASE])]

    @property
    def step(self) -> int:
        """deal: index in the deal; pick: 0..3 (pick, announce, pick, announce); place: placement 0..5."""
        return int(self.core[K.STEP])

    @property
    def winner(self) -> int:
        """Winning seat once the game is over (-1: a draw, or not over)."""
        return int(self.buf[K.O_RESULT])

    @property
    def instant(self) -> bool:
        """True when the game ended by an instant win."""
        return bool(self.buf[K.O_RESULT + 1])

    @property
    def direction(self) -> list[list[int]]:
        """Per player per grid: -1 free, 0 rows, 1 columns."""
        return self.arrays.direction.tolist()

    @property
    def used_lines(self) -> list[list[list[int]]]:
        a = self.arrays
        return [[a.used[p, g, : a.nused[p, g]].tolist() for g in (0, 1)] for p in (0, 1)]

    @property
    def line(self) -> list[int]:
        """This round's line per player (-1 before the pick)."""
        return self.core[K.LINE : K.LINE + 2].tolist()

    @property
    def towers(self) -> list[list[int]]:
        """Stone codes per tower, bottom first."""
        a = self.arrays
        return [a.stones[t, : a.height[t]].tolist() for t in range(6)]

    @property
    def values(self) -> list[list[int]]:
        """Effective values per tower, bottom first."""
        a = self.arrays
        return [a.values[t, : a.height[t]].tolist() for t in range(6)]

    @property
    def placers(self) -> list[list[int]]:
        a = self.arrays
        return [a.placers[t, : a.height[t]].tolist() for t in range(6)]

    @property
    def out(self) -> list[list[int]]:
        """Replaced jokers: [code, placer, remover, tower]."""
        a = self.arrays
        return a.out[: a.nout[0]].tolist()

    @property
    def revealed(self) -> list[list[list[int]]]:
        """Stones each player showed, by round (placed, then discarded)."""
        a = self.arrays
        return [[a.revealed[p, r, : a.nrevealed[p, r]].tolist() for r in range(NUM_ROUNDS)] for p in (0, 1)]

    @property
    def hands(self) -> list[list[int]]:
        h = self.core[K.HAND : K.HAND + 6].tolist()
        return [[c for c in h[:3] if c >= 0], [c for c in h[3:] if c >= 0]]

    @property
    def hand_size(self) -> list[int]:
        return [len(h) for h in self.hands]

    @property
    def grids(self) -> list[list[list[int] | None]]:
        """Per player, both grids (None before a grid is dealt)."""
        g = self.arrays.grids.tolist()
        return [[None if cells[0] < 0 else cells for cells in p] for p in g]

    @property
    def removed(self) -> list[list[int]]:
        a = self.arrays
        return [a.removed[p, : a.nremoved[p]].tolist() for p in (0, 1)]

    @property
    def pools(self) -> list[list[int]]:
        """Stones not dealt yet, in order."""
        a = self.arrays
        return [a.pools[p, : a.npool[p]].tolist() for p in (0, 1)]

    @property
    def _partial(self) -> list[list[int]]:
        """Grid cells drawn so far during a deal."""
        a = self.arrays
        return [a.partial[p, : a.npartial[p]].tolist() for p in (0, 1)]

    # ------------------------------------------------------------------
    # whose turn
    # ------------------------------------------------------------------
    @property
    def starter(self) -> int:
        return STARTERS[min(self.round, NUM_ROUNDS - 1)]

    def current_player(self) -> int:
        return int(self.core[K.TOMOVE])  # kept by the kernel: a seat, CHANCE or TERMINAL

    def grid_index(self) -> int:
        """0 for rounds 1-3, 1 for rounds 4-6."""
        return 0 if self.round < 3 else 1

    def _deal_pool(self) -> list[int]:
        """The undealt stones of the seat whose stone is drawn next (a deal is due)."""
        step = int(self.core[K.STEP])
        p = step // 12 if self.core[K.ROUND] == 0 else step // 9
        o = K.O_POOLS + p * K.SET
        return self.buf[o : o + self.buf[K.O_NPOOL + p]].tolist()

    def _deal_player(self) -> int:
        return self.step // 12 if self.round == 0 else self.step // 9

    # ------------------------------------------------------------------
    # legal actions
    # ------------------------------------------------------------------
    def _legal_ids(self) -> list[int]:
        out = np.empty(K.MAXM + JOKER + 1, dtype=np.int64)
        n = K.legal_actions_buf(self.buf, out)
        return out[:n].tolist()

    def legal_actions(self) -> list[TowersAction]:
        return [ACTIONS[i] for i in self._legal_ids()]

    def legal_lines(self, player: int) -> list[int]:
        """Lines the player may pick now in their current grid (direction lock applied)."""
        g = self.grid_index()
        used = self.used_lines[player][g]
        d = self.direction[player][g]
        cands = range(6) if d < 0 else range(3 * d, 3 * d + 3)
        return [ln for ln in cands if ln not in used]

    def chance_outcomes(self) -> list[tuple[TowersAction, float]]:
        if self.phase != "deal":
            return []
        pool = self._deal_pool()
        counts = Counter(pool)
        n = len(pool)
        return [(Draw(c), counts[c] / n) for c in sorted(counts)]

    def sample_chance(self, rng: random.Random) -> TowersAction:
        if self.phase != "deal":
            raise ValueError("not a chance node")
        return Draw(rng.choice(self._deal_pool()))

    # ------------------------------------------------------------------
    # legality (the kernel decides; these say why not)
    # ------------------------------------------------------------------
    def illegal_reason(self, action: TowersAction) -> str | None:
        """Why ``action`` is illegal here (one line), or None if it is legal."""
        aid = action_id(action)
        if aid is not None and aid in self._legal_ids():
            return None
        return self._why_not(action) or f"{action!r} is not legal here"

    def _why_not(self, action: TowersAction) -> str | None:
        if self.phase == "end":
            return "the game is over"
        if self.phase == "deal":
            if not isinstance(action, Draw):
                return f"a chance draw is due, not {action!r}"
            player = self._deal_player()
            return f"{_stone_name(action.stone)} is not in P{player + 1}'s pool"
        player = self.current_player()
        if self.phase == "pick":
            if self.step % 2 == 0:
                return self._line_reason(player, action)
            return f"P{player + 1} must announce 'colors' or 'numbers'"
        if isinstance(action, Pass):
            return "you may pass only when no stone in hand can be placed"
        if not isinstance(action, Place):
            return f"P{player + 1} must place a stone, e.g. R6>R (or pass when stuck)"
        return self._place_reason(player, action)

    def _line_reason(self, player: int, action: TowersAction) -> str | None:
        if not isinstance(action, PickLine):
            return f"P{player + 1} must pick a line (row1..row3, col1..col3)"
        ln = action.line
        g = self.grid_index()
        d = self.direction[player][g]
        name = LINE_NAMES[ln] if isinstance(ln, int) and 0 <= ln < 6 else repr(ln)
        if not (isinstance(ln, int) and 0 <= ln < 6):
            why = "no such line"
        elif ln in self.used_lines[player][g]:
            why = "that line was already used in this grid"
        elif d >= 0 and line_direction(ln) != d:
            why = f"this grid is locked to {'rows' if d == 0 else 'columns'}"
        else:
            why = "not allowed"
        return f"{name}: {why}"

    def _place_reason(self, player: int, action: Place) -> str | None:
        code, t = action.stone, action.tower
        if not isinstance(t, int) or not 0 <= t < 6:
            return f"no such tower: {t!r}"
        if code not in self.hands[player]:
            return f"{_stone_name(code)} is not in your hand"
        top = self.arrays.height[t]
        top_joker = top > 0 and self.arrays.stones[t, top - 1] == JOKER
        if code == JOKER:
            if action.replace:
                return "a joker cannot replace a joker"
            if not top:
                return "a joker may not be the first stone of a tower"
            return "a joker may not lie directly on another joker"
        if t not in allowed_towers(code):
            return f"{stone_str(code)} may go only to the {', '.join(COLORS[x] for x in allowed_towers(code))} towers"
        if not top_joker:
            return "replacement needs a joker on top of the tower"
        total, value, top_value = self.tower_total(t), value_of(code), int(self.core[K.TOP + t])
        return (
            f"replacing needs {total - top_value + value} strictly closer to 21 than {total}"
            f" and {total} + {value} > 21"
        )

    # ------------------------------------------------------------------
    # applying actions
    # ------------------------------------------------------------------
    def apply(self, action: TowersAction) -> None:
        aid = action_id(action)
        player = int(self.core[K.TOMOVE])
        res = 0 if aid is None else K.apply_action_buf(self.buf, aid)
        if not res:
            raise IllegalActionError(self.illegal_reason(action) or f"{action!r} is not legal here")
        if player == CHANCE:
            if self.core[K.PHASE] == K.PHASE_PICK:
                self.log.append(f"round {self.round + 1}")
        elif isinstance(action, PickLine):
            self.log.append(f"P{player + 1} {LINE_NAMES[action.line]}")
        elif isinstance(action, Announce):
            self._record_announcement(player, action.mode)
        else:
            self.log.append(f"P{player + 1} {'pass' if isinstance(action, Pass) else action_to_string(action)}")
            if self.buf[K.O_RESULT + 1]:
                self.log.append(f"P{player + 1} wins instantly with three towers at 21")
            elif res & 2:
                self._after_round(res >> 2)

    def _record_announcement(self, player: int, mode: str) -> None:
        attrs = sort_attrs([announce_attr(c, mode) for c in self.hands[player]])
        self.announcements.append(
            {"round": self.round, "player": player, "line": self.line[player], "mode": mode, "values": attrs}
        )
        self.log.append(f"P{player + 1} {mode}: {' '.join(str(a) for a in attrs)}")

    def _after_round(self, discards: int) -> None:
        """Log the discards (``discards``: P1's count + 4 * P2's) and start the preset second deal or the next round."""
        a, r = self.arrays, self.round - 1
        for p, k in ((0, discards & 3), (1, discards >> 2)):
            if k:
                shown = a.revealed[p, r, a.nrevealed[p, r] - k : a.nrevealed[p, r]].tolist()
                self.log.append(f"P{p + 1} discards {' '.join(stone_str(c) for c in shown)}")
        if self.phase == "deal":
            if self._preset_grid2 is not None:
                for p in (0, 1):
                    for code in self._preset_grid2[p]:
                        self.apply(Draw(code))
        elif self.phase == "pick":
            self.log.append(f"round {self.round + 1}")

    def tower_total(self, t: int) -> int:
        return int(self.core[K.TOT + t])

    def owner(self, t: int) -> int:
        """Seat that placed the top stone of tower ``t``, -1 when empty."""
        return int(self.core[K.OWN + t])

    # ------------------------------------------------------------------
    # outcome
    # ------------------------------------------------------------------
    def towers_owned(self) -> list[int]:
        own = self.core[K.OWN : K.OWN + 6].tolist()
        return [own.count(0), own.count(1)]

    def scores(self) -> list[float]:
        return [float(x) for x in self.towers_owned()]

    def returns(self) -> list[float]:
        if self.instant:
            return [1.0 if p == self.winner else 0.0 for p in (0, 1)]
        return shared_win_returns(self.scores())

    def result_text(self) -> str:
        """``P1 wins``, ``P2 wins (instant: three towers at 21)``, ``draw`` (or ``in progress``)."""
        if not self.is_terminal():
            return "in progress"
        if self.winner < 0:
            return "draw"
        return f"P{self.winner + 1} wins" + (" (instant: three towers at 21)" if self.instant else "")

    # ------------------------------------------------------------------
    # cloning, information and (de)serialisation
    # ------------------------------------------------------------------
    def clone(self) -> TowersState:
        new = TowersState.__new__(TowersState)
        new.buf = self.buf.copy()
        new.core = new.buf[: K.NS]
        new._views = None
        new.announcements = self.announcements[:]  # entries are never mutated
        new.log = self.log[:]
        new._preset_grid2 = self._preset_grid2
        new.face_up = self.face_up
        return new

    def set_private(self, player: int, grids: list[list[int] | None], hand: list[int], removed: list[int],
                    pool: list[int], partial: list[int]) -> None:
        """Replace ``player``'s hidden stones (for :func:`puzzles.towers.infoset.resample_hidden`)."""
        _write_private(self, player, grids, hand, removed, pool, partial)
        self._preset_grid2 = None  # a hand-set second deal is hidden information too

    def resample(self, player: int, rng: random.Random) -> TowersState:
        """A full state ``player`` cannot tell from this one: the opponent's hidden stones redrawn with ``rng``.

        Drawn uniformly from the deals consistent with everything ``player`` has
        seen (announcements included); see :func:`puzzles.towers.infoset.resample_hidden`.
        """
        return resample_hidden(self, player, rng)

    def public_json(self) -> dict[str, Any]:
        """Everything both players see."""
        return {
            "round": self.round,
            "phase": self.phase,
            "step": self.step,
            "direction": self.direction,
            "used_lines": self.used_lines,
            "line": self.line,
            "announcements": [{**a, "values": list(a["values"])} for a in self.announcements],  # deepcopy, cheaper
            "towers": [[stone_str(c) for c in t] for t in self.towers],
            "values": self.values,
            "placers": self.placers,
            "out": self.out,
            "revealed": [[[stone_str(c) for c in r] for r in p] for p in self.revealed],
            "hand_size": self.hand_size,
            "winner": self.winner,
            "instant": self.instant,
            "log": self.log[:],
        }

    def private_json(self, player: int) -> dict[str, Any]:
        """What only ``player`` knows: grids, removed stones, hand, undealt pool."""
        return {
            "grids": [None if g is None else [stone_str(c) for c in g] for g in self.grids[player]],
            "removed": [stone_str(c) for c in self.removed[player]],
            "hand": [stone_str(c) for c in self.hands[player]],
            "pool": [stone_str(c) for c in self.pools[player]],
            "partial": [stone_str(c) for c in self._partial[player]],
        }

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"game": "towers", "public": self.public_json(), "private": [self.private_json(0), self.private_json(1)]}
        if self._preset_grid2 is not None:
            data["preset_grid2"] = [[stone_str(c) for c in g] for g in self._preset_grid2]
        if self.face_up:
            data["face_up"] = True
        return data

    @classmethod
    def _from_json(cls, data: dict[str, Any], check: bool) -> TowersState:
        f = _Fields.parse(data)
        if check:
            _validate(f)
        s = cls()
        _write(s, f)
        face_up = data.get("face_up", False)
        if not isinstance(face_up, bool):
            raise ValueError(f"face_up must be true or false, not {face_up!r}")
        s.face_up = face_up
        return s

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TowersState:
        """The state of :meth:`to_json`, validated (:meth:`validate`); a damaged one is a one-line ValueError."""
        return cls._load(data, True)

    @classmethod
    def from_json_unchecked(cls, data: dict[str, Any]) -> TowersState:
        """:meth:`from_json` without :meth:`validate`, for a partial state (an observation being completed)."""
        return cls._load(data, False)

    @classmethod
    def _load(cls, data: dict[str, Any], check: bool) -> TowersState:
        if not isinstance(data, dict) or data.get("game", "towers") != "towers" or "public" not in data:
            raise ValueError("not a towers state (expected keys 'game', 'public', 'private')")
        if check:
            check_state_schema(data)
        try:
            return cls._from_json(data, check)
        except ValueError as error:
            text = str(error).splitlines()[0] if str(error).strip() else "bad value"
            raise ValueError(text if text.startswith("invalid towers state") else f"invalid towers state: {text}") from None
        except (KeyError, TypeError, IndexError, AttributeError, OverflowError) as error:
            raise ValueError(f"invalid towers state: {type(error).__name__} {error}") from None

    def validate(self) -> None:
        """Raise ValueError (one line) unless every field is in range and the rules' invariants hold.

        Run on every state read from a file, before any compiled kernel sees it.
        """
        _validate(self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TowersState) and self.to_json() == other.to_json()

    __hash__: ClassVar[None] = None  # type: ignore[assignment]

    def observation(self, player: int) -> dict[str, Any]:
        """Public information plus ``player``'s own private information (opponent's hidden stones left out)."""
        return {
            "game": "towers",
            "player": player,
            "to_move": self.current_player(),
            "public": self.public_json(),
            "private": self.private_json(player),
        }

    # ------------------------------------------------------------------
    # text forms of actions
    # ------------------------------------------------------------------
    def action_to_string(self, action: TowersAction) -> str:
        return action_to_string(action)

    def string_to_action(self, text: str) -> TowersAction:
        """Parse an action (it may still be illegal here; ``illegal_reason`` says).

        Accepts ``row2``, ``r2``, ``col1``, ``c1``, ``colors``/``numbers`` (``c``/``n``), ``R6>O``,
        ``R6xO`` (replace the top joker), ``R6 O``/``R6O``, ``J>O``, ``pass``, ``draw R6``.
        """
        return string_to_action(text)

    # ------------------------------------------------------------------
    # rendering
    # ------------------------------------------------------------------
    def render_text(self) -> str:
        """The full position as text, with the result line once the game is over."""
        from puzzles.towers.render import render_state_text

        text = render_state_text(self)
        if self.is_terminal():
            owned = self.towers_owned()
            text += f"\nresult: {self.result_text()}  (towers P1 {owned[0]} – P2 {owned[1]})"
        return text

    def __str__(self) -> str:
        from puzzles.towers.render import render_state_text

        return render_state_text(self)

    def picture(self, seat: int | None = None, reveal: bool = False) -> str:
        """What ``seat`` sees (None: the towers and announcements only); both grids and hands with ``reveal``
        or in a face-up challenge."""
        from puzzles.towers.render import render_svg

        if reveal or self.face_up:
            return render_svg(self.observation(0), full=self)
        if seat is None:
            return render_svg({**self.observation(0), "player": None, "private": None})
        return render_svg(self.observation(seat))

    def _repr_svg_(self) -> str:
        return self.picture(reveal=self.is_terminal())


class _Fields:
    """A state read from JSON as Python values, checked by :func:`_validate` before it is written to a buffer."""

    round: int
    phase: str
    step: int
    direction: list[list[int]]
    used_lines: list[list[list[int]]]
    line: list[int]
    announcements: list[dict[str, Any]]
    towers: list[list[int]]
    values: list[list[int]]
    placers: list[list[int]]
    out: list[list[int]]
    revealed: list[list[list[int]]]
    hand_size: list[int]
    winner: int
    instant: bool
    log: list[str]
    grids: list[list[list[int] | None]]
    removed: list[list[int]]
    hands: list[list[int]]
    pools: list[list[int]]
    _partial: list[list[int]]
    _preset_grid2: tuple[list[int], list[int]] | None

    @property
    def starter(self) -> int:
        return STARTERS[min(self.round, NUM_ROUNDS - 1)]

    def grid_index(self) -> int:
        return 0 if self.round < 3 else 1

    @classmethod
    def parse(cls, data: dict[str, Any]) -> _Fields:
        pub, priv = data["public"], data["private"]
        s = cls()
        s.round, s.phase, s.step = int(pub["round"]), pub["phase"], int(pub["step"])
        s.direction = [list(d) for d in pub["direction"]]
        s.used_lines = [[list(u) for u in p] for p in pub["used_lines"]]
        s.line = list(pub["line"])
        s.announcements = copy.deepcopy(pub["announcements"])
        s.towers = [[parse_stone(x) for x in t] for t in pub["towers"]]
        s.values = [list(v) for v in pub["values"]]
        s.placers = [list(v) for v in pub["placers"]]
        s.out = [list(o) for o in pub["out"]]
        s.revealed = [[[parse_stone(x) for x in r] for r in p] for p in pub["revealed"]]
        s.hand_size = list(pub["hand_size"])
        s.winner, s.instant = int(pub["winner"]), bool(pub["instant"])
        s.log = list(pub.get("log", []))
        s.grids, s.removed, s.hands, s.pools, s._partial = [[], []], [[], []], [[], []], [[], []], [[], []]
        for p in (0, 1):
            pr = priv[p]
            s.grids[p] = [None if g is None else [parse_stone(x) for x in g] for g in pr["grids"]]
            s.removed[p] = [parse_stone(x) for x in pr["removed"]]
            s.hands[p] = [parse_stone(x) for x in pr["hand"]]
            s.pools[p] = [parse_stone(x) for x in pr["pool"]]
            s._partial[p] = [parse_stone(x) for x in pr.get("partial", [])]
        s._preset_grid2 = None
        if "preset_grid2" in data:
            g0, g1 = ([parse_stone(x) for x in g] for g in data["preset_grid2"])
            s._preset_grid2 = (g0, g1)
        if s.phase not in PHASE_CODES:
            raise ValueError(f"unknown phase {s.phase!r}")
        return s


def _fill(row: np.ndarray, items: list[Any], what: str) -> int:
    """Write ``items`` at the start of ``row``; their number (ValueError when they do not fit)."""
    if len(items) > len(row):
        raise ValueError(f"too many {what}")
    row[: len(items)] = items
    return len(items)


def _write(s: TowersState, f: _Fields) -> None:
    """Write the fields read from JSON into the kernel buffer of ``s`` (a fresh state)."""
    if not (_is_int(f.round, 0, NUM_ROUNDS) and _is_int(f.step, 0, 10**6)):
        raise ValueError(f"round {f.round!r} or step {f.step!r} out of range")
    if f.phase != "end" and (f.round == NUM_ROUNDS or f.step > 23):
        raise ValueError(f"round {f.round + 1}, step {f.step} out of range in phase {f.phase}")
    a, core = s.arrays, s.core
    core[K.ROUND], core[K.PHASE], core[K.STEP] = f.round, PHASE_CODES[f.phase], f.step
    a.result[:] = (f.winner, int(f.instant))
    core[K.WIN] = f.winner if f.instant else -1
    for t in range(6):
        stones, values, placers = f.towers[t], f.values[t], f.placers[t]
        if not len(stones) == len(values) == len(placers):
            raise ValueError(f"{COLORS[t]} tower: stones, values and placers differ in length")
        a.height[t] = _fill(a.stones[t], stones, "stones on a tower")
        _fill(a.values[t], values, "values")
        _fill(a.placers[t], placers, "placers")
        core[K.TOT + t] = sum(values)
        core[K.TOP + t] = values[-1] if values else 0
        core[K.JK + t] = 1 if stones and stones[-1] == JOKER else 0
        core[K.OWN + t] = placers[-1] if placers else -1
    a.nout[0] = _fill(a.out, f.out, "replaced jokers") if f.out else 0
    for p in (0, 1):
        for g in (0, 1):
            a.direction[p, g] = f.direction[p][g]
            a.nused[p, g] = _fill(a.used[p, g], f.used_lines[p][g], "used lines")
        for r in range(NUM_ROUNDS):
            a.nrevealed[p, r] = _fill(a.revealed[p, r], f.revealed[p][r], "revealed stones")
    s.announcements, s.log, s._preset_grid2 = f.announcements, f.log, f._preset_grid2
    core[K.LINE : K.LINE + 2] = f.line
    for p in (0, 1):
        _write_private(s, p, f.grids[p], f.hands[p], f.removed[p], f.pools[p], f._partial[p])
    K.refresh_buf(s.buf)


def _write_private(s: TowersState, p: int, grids: list[list[int] | None], hand: list[int], removed: list[int],
                   pool: list[int], partial: list[int]) -> None:
    """Write ``p``'s hidden stones into ``s`` (grids, hand slots, removed, pool, cells dealt so far)."""
    a, core = s.arrays, s.core
    for g in (0, 1):
        cells = grids[g]
        if cells is not None and len(cells) != 9:
            raise ValueError(f"P{p + 1}'s grid {g + 1} must have 9 cells")
        a.grids[p, g] = -1 if cells is None else cells
    a.nremoved[p] = _fill(a.removed[p], removed, "removed stones")
    a.npool[p] = _fill(a.pools[p], pool, "stones in a pool")
    a.npartial[p] = _fill(a.partial[p], partial, "cells dealt")
    core[K.HAND + 3 * p : K.HAND + 3 * p + 3] = -1
    _fill(core[K.HAND + 3 * p : K.HAND + 3 * p + 3], hand, "stones in a hand")
    g = 0 if core[K.ROUND] < 3 else 1
    core[K.GRID + 9 * p : K.GRID + 9 * p + 9] = a.grids[p, g]
    core[K.DIR + p] = a.direction[p, g]
    core[K.USED + p] = sum(1 << int(ln) for ln in a.used[p, g, : a.nused[p, g]])


def _is_int(x: object, lo: int, hi: int) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and lo <= x <= hi


def _validate(s: TowersState | _Fields) -> None:
    """The checks of :meth:`TowersState.validate`."""

    def need(ok: bool, what: str) -> None:
        if not ok:
            raise ValueError(f"invalid towers state: {what}")

    need(s.phase in ("deal", "pick", "place", "end"), f"unknown phase {s.phase!r}")
    need(_is_int(s.round, 0, NUM_ROUNDS), f"round {s.round!r} out of range")
    need(s.phase == "end" or s.round < NUM_ROUNDS, f"round {s.round + 1} does not exist (6 rounds) in phase {s.phase}")
    limit = {"deal": len(SETUP_SCHEDULE) - 1, "pick": 3, "place": 5, "end": 10**6}[s.phase]
    need(_is_int(s.step, 0, limit), f"step {s.step!r} out of range in phase {s.phase}")
    if s.phase == "deal":
        need(s.round in (0, 3), "a deal happens only before rounds 1 and 4")
        need(s.round == 0 or s.step < len(GRID2_SCHEDULE), f"step {s.step} out of range in the second deal")
    need(_is_int(s.winner, -1, 1) and isinstance(s.instant, bool), "bad winner or instant flag")
    need(len(s.direction) == 2 and all(len(d) == 2 and all(_is_int(x, -1, 1) for x in d) for d in s.direction),
         "direction must be 2x2 values in -1..1")
    need(len(s.used_lines) == 2 and all(len(u) == 2 for u in s.used_lines), "used_lines must be 2x2 lists")
    for p in (0, 1):
        for g in (0, 1):
            used, d = s.used_lines[p][g], s.direction[p][g]
            need(all(_is_int(x, 0, 5) for x in used) and len(set(used)) == len(used) <= 3,
                 f"P{p + 1} used lines {used!r} of grid {g + 1}")
            need((d < 0) == (not used) and all(line_direction(x) == d for x in used),
                 f"P{p + 1}'s used lines {used!r} of grid {g + 1} disagree with its direction {d}")
    need(len(s.line) == 2 and all(_is_int(x, -1, 5) for x in s.line), "line must be two values in -1..5")
    need(len(s.towers) == 6 and len(s.values) == 6 and len(s.placers) == 6, "six towers expected")
    seen: Counter[int] = Counter()
    for t in range(6):
        st, vals, pls = s.towers[t], s.values[t], s.placers[t]
        need(len(st) == len(vals) == len(pls), f"{COLORS[t]} tower: stones, values and placers differ in length")
        for k, (code, v, pl) in enumerate(zip(st, vals, pls, strict=True)):
            need(_is_int(code, 0, JOKER) and _is_int(v, 1, 6) and _is_int(pl, 0, 1), f"{COLORS[t]} tower: bad stone {k + 1}")
            seen[code] += 1
            if code == JOKER:
                need(k > 0 and st[k - 1] != JOKER, f"{COLORS[t]} tower: a joker first or on a joker")
                need(v == vals[k - 1], f"{COLORS[t]} tower: a joker worth {v}, not the {vals[k - 1]} below it")
            else:
                need(t in allowed_towers(code), f"{stone_str(code)} cannot be on the {COLORS[t]} tower")
                need(v == value_of(code), f"{COLORS[t]} tower: {stone_str(code)} worth {v}")
        need(sum(vals) <= 126, f"{COLORS[t]} tower: total {sum(vals)} is impossible")
    need(all(n == 1 for c, n in seen.items() if c != JOKER) and seen[JOKER] <= 6, "a stone is on the towers twice")
    need(len(s.hands) == 2 and len(s.hand_size) == 2, "two hands expected")
    for p in (0, 1):
        hand = s.hands[p]
        need(len(hand) <= 3 and all(_is_int(c, 0, JOKER) for c in hand), f"P{p + 1}'s hand {hand!r}")
        need(s.hand_size[p] == len(hand), f"P{p + 1}'s hand size {s.hand_size[p]!r} is not {len(hand)}")
        mine = set(player_set(p))
        need(len(s.grids[p]) == 2, f"P{p + 1} must have two grid slots")
        for g in (0, 1):
            grid = s.grids[p][g]
            need(grid is None or (len(grid) == 9 and all(c in mine for c in grid)), f"P{p + 1}'s grid {g + 1}")
        need(all(c in mine for c in hand) and all(c in mine for c in s.removed[p]) and len(s.removed[p]) <= 3,
             f"P{p + 1}'s hand or removed stones are not theirs")
        need(all(c in mine for c in s.pools[p]) and all(c in mine for c in s._partial[p]), f"P{p + 1}'s pool")
        need(len(s.revealed[p]) == NUM_ROUNDS and all(all(_is_int(c, 0, JOKER) for c in r) for r in s.revealed[p]),
             f"P{p + 1}'s revealed stones")
    if s.phase in ("pick", "place"):
        g = s.grid_index()
        for p in (0, 1):
            need(s.grids[p][g] is not None, f"P{p + 1}'s grid {g + 1} is not dealt")
        picked = [s.starter] if s.phase == "pick" and s.step in (1, 2) else [0, 1] if s.phase == "place" or s.step == 3 else []
        for p in (0, 1):
            if p in picked:
                ln = s.line[p]
                grid = s.grids[p][g]
                assert grid is not None
                need(ln >= 0 and ln in s.used_lines[p][g], f"P{p + 1} has picked no line this round")
                cells = Counter(grid[c] for c in LINE_CELLS[ln])
                need(not Counter(s.hands[p]) - cells, f"P{p + 1}'s hand is not from their line {LINE_NAMES[ln]}")
            else:
                need(not s.hands[p], f"P{p + 1} holds stones before picking a line")
            need(len(s.used_lines[p][g]) == s.round % 3 + (1 if p in picked else 0),
                 f"P{p + 1} used {len(s.used_lines[p][g])} lines of grid {g + 1} by round {s.round + 1}")
    _check_stone_counts(s, need)
    need(isinstance(s.announcements, list) and all(
        isinstance(a, dict) and {"round", "player", "line", "mode", "values"} <= set(a) and a["mode"] in ANNOUNCE_MODES
        for a in s.announcements), "bad announcements")


def _check_stone_counts(s: TowersState | _Fields, need: Callable[[bool, str], None]) -> None:
    """The box's stones, each once: a seat's grids, removed stones, pool and deal in progress are a part of its
    21 stones; its hand and the stones it placed come from its grids; a winner only once the game is over."""
    need(s.winner < 0 and not s.instant or s.phase == "end", f"public.winner: P{s.winner + 1} while the game is not over")
    need(not s.instant or s.winner >= 0, "public.instant: an instant win without a winner")
    for p in (0, 1):
        held: Counter[int] = Counter(s.removed[p]) + Counter(s.pools[p]) + Counter(s._partial[p])
        grids: Counter[int] = Counter(c for grid in s.grids[p] if grid is not None for c in grid)
        extra = held + grids - Counter(player_set(p))
        need(not extra, f"private[{p}]: {_stone_name(min(extra))} more often than P{p + 1}'s box holds it"
             if extra else "")
        placed = Counter(c for t in range(6) for c, pl in zip(s.towers[t], s.placers[t], strict=True) if pl == p)
        loose = placed + Counter(s.hands[p]) - grids
        need(not loose, f"P{p + 1} placed or holds {_stone_name(min(loose))} that none of their grids dealt"
             if loose else "")


def _stone_name(code: object) -> str:
    return stone_str(code) if isinstance(code, int) and 0 <= code <= JOKER else repr(code)


def action_to_string(action: TowersAction) -> str:
    """Text form of an action: ``draw R6``, ``row1``, ``colors``, ``R6>O``, ``R6xO``, ``pass``."""
    if isinstance(action, Draw):
        return f"draw {stone_str(action.stone)}"
    if isinstance(action, PickLine):
        return LINE_NAMES[action.line]
    if isinstance(action, Announce):
        return action.mode
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, Place):
        return f"{stone_str(action.stone)}{'x' if action.replace else '>'}{LETTERS[action.tower]}"
    raise TypeError(f"not a towers action: {action!r}")


def string_to_action(text: str) -> TowersAction:
    """Parse the text of an action (see :meth:`TowersState.string_to_action`); ValueError if it is none."""
    t = text.strip().lower().replace(" ", "")
    if t.startswith("draw"):
        return Draw(parse_stone(t[4:]))
    if t in ("pass", "p"):
        return PASS
    if t in ("colors", "colours", "color", "c"):
        return Announce("colors")
    if t in ("numbers", "number", "n"):
        return Announce("numbers")
    if t[:3] in ("row", "col") and t[3:] in ("1", "2", "3"):
        return PickLine((0 if t[:3] == "row" else 3) + int(t[3:]) - 1)
    if len(t) == 2 and t[0] in "rc" and t[1] in "123":
        return PickLine((0 if t[0] == "r" else 3) + int(t[1]) - 1)
    if t[:3] in ("row", "col"):
        raise IllegalActionError(f"no such line: {text.strip()!r} (lines are row1..row3, col1..col3)")
    for sep, replace in ((">", False), ("*", True)):
        if sep in t[1:]:
            a, b = t.split(sep, 1)
            return Place(parse_stone(a), parse_tower(b), replace)
    if "x" in t[1:]:
        i = t.index("x", 1)
        return Place(parse_stone(t[:i]), parse_tower(t[i + 1 :]), True)
    if len(t) in (2, 3):  # "r6o" / "jo": stone then tower
        try:
            return Place(parse_stone(t[:-1]), parse_tower(t[-1]))
        except ValueError:
            pass
    raise IllegalActionError(f"cannot read {text.strip()!r} as an action (e.g. row1, colors, R6>O, R6xO, pass)")


def sample_state(obs: dict[str, Any], rng: random.Random) -> TowersState:
    """A full state drawn from the information set of an observation (``TowersState.observation``)."""
    me = obs["player"]
    # the opponent's hand size is public: placeholders keep it until resample_hidden draws the stones
    hidden_hand = ["J"] * int(obs["public"]["hand_size"][1 - me])
    blank = {"grids": [None, None], "removed": [], "hand": hidden_hand, "pool": [], "partial": []}
    private = [obs["private"], blank] if me == 0 else [blank, obs["private"]]
    state = TowersState.from_json_unchecked({"game": "towers", "public": obs["public"], "private": private})
    return resample_hidden(state, me, rng)
