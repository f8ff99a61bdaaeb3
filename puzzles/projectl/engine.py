"""Project L rule engine (classic and revised rule sets, solo variant), on the game protocol.

Rules: ``shared/rules/project-l.md`` (the seed text is the classic rule set).

Actions (tuples; text forms in brackets)
----------------------------------------
* ``("take", row, slot)`` — take a face-up puzzle; row ``W``/``B`` (solo: ``G``,
  slot 0–8 of the 3×3 grid) [``take W 2``]
* ``("piece",)`` — take a level-1 piece from the supply [``piece``]
* ``("upgrade", s, t)`` — return shape ``s``, take shape ``t`` [``upgrade O1 I2``]
* ``("place", slot, s, mask)`` — place shape ``s`` on your unfinished puzzle
  ``slot`` covering the cells of ``mask`` [``place 0 L3 11,12,21``: cells as row/col digits]
* ``("master",)`` then ``("mplace", slot, s, mask)`` … ``("mend",)`` — the Master
  action, played as sub-steps so that legal-action lists stay small: at most one
  piece on each puzzle, completion when the Master action ends (``mend``)
* ``("recycle", row)`` — revised only
* ``("pass",)`` — only when nothing else is legal (see Decisions)
* ``("touch", slot, s, mask)`` / ``("done",)`` — revised finishing touches

Decisions (where the digest is silent or leaves a choice)
---------------------------------------------------------
* Deck shuffling happens at construction from the ``seed``; after that the game
  is deterministic given the players' actions (no chance nodes).  Deck order is
  hidden from :meth:`observation`.
* Supply shortage (digest **Decision**): when several same-level shapes could be
  taken, the first in the order O1, I2, I3, L3, I4, O4, T4, L4, S4 is taken.
* Master is legal only if at least one piece can be placed with it; ending it
  after placing nothing is allowed (“up to one piece”).  A puzzle filled during
  Master completes when Master ends; several may complete at once.
* A player with no legal action passes (one action per pass) — possible e.g.
  with four blocked puzzles and an empty supply.
* Stalemate: when every player passes for a whole round (3 passes each), no state can
  change any more (passing changes nothing), so the game ends there with the scores it
  would have at the round limit.  Not applied in solo, where the opponent still moves.
* Safety limit: the game also ends after ``max_rounds`` rounds (default 100),
  scored as usual; sensible play ends far sooner (the black deck runs out).
* Upgrade (classic): one level up to any shape of that level, or an exchange for a
  different shape of the same level; revised adds any lower level.  In the revised
  rule set "take a level-1 piece" is part of Upgrade: it is the same ``piece``
  action here.
* Recycle (revised): the row's cards go to the bottom of its deck in slot order,
  then 4 cards are revealed from the top; illegal when that deck is empty.
* Revised finishing touches: after the last round each player in seat order
  places any stock pieces (``touch``) at −1 point each; a puzzle filled this way
  scores its points, gives no reward and keeps its pieces; ``done`` ends that
  player's finishing touches.  Then unfinished puzzles subtract their points.
* Solo variant (revised rulebook; the defaults are its box: 15 pieces of each
  shape): 15 white + 10 black cards shuffled into one deck, a 3×3 face-up grid
  (slot = 3·row + column); 4 level-1 lock pieces above the columns (1, 2, 1); the
  automated opponent's own supply holds 6 / 3 / 0 level-1 pieces (normal / hard /
  unbeatable).  When the player takes a puzzle from a column with locks, one lock
  moves into the opponent's supply.  After each player turn the opponent takes the
  highest-point puzzle from an unlocked column (ties: lowest slot) into its score
  pile, then moves all pieces of its supply and one lock from each other column
  (if any) above the column it took from; if every column is locked it instead
  returns one lock from each column to the general supply.  The end is triggered
  when a grid slot cannot be refilled; the round (player + opponent) is finished
  and one more round is played.  The player wins only with a strictly higher score.
* Ties (multi-player): most points, then most completed puzzles, then most pieces
  in stock; still tied = shared win (``returns`` splits 1 between them).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Self

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
    card_svg,
    card_text,
    default_deck,
    format_deck,
    mask_cells,
    parse_deck,
    placement_shape,
    placements,
    split_colors,
)

RULE_SETS = ("classic", "revised")
DIFFICULTIES = {"normal": 6, "hard": 3, "unbeatable": 0}
ROW_SIZE = 4
MAX_PUZZLES = 4
SOLO_LOCKS = (1, 2, 1)

_FITS: dict[tuple[int, int], tuple[int, ...]] = {}
_PLACE_ACTIONS: dict[tuple[str, int, int], list[list[tuple]]] = {}


def fits(empty: int, s: int) -> tuple[int, ...]:
    """Placements of shape ``s`` inside the empty cells (cached per empty mask)."""
    key = (empty, s)
    got = _FITS.get(key)
    if got is None:
        got = tuple(m for m in placements(s) if m & empty == m)
        _FITS[key] = got
    return got


def _place_actions(kind: str, slot: int, empty: int, s: int) -> list[tuple]:
    return _slot_actions(kind, slot, empty)[s]


def _slot_actions(kind: str, slot: int, empty: int) -> list[list[tuple]]:
    """Per shape, the actions placing it on puzzle ``slot`` with these empty cells (cached)."""
    key = (kind, slot, empty)
    got = _PLACE_ACTIONS.get(key)
    if got is None:
        got = [[(kind, slot, s, m) for m in fits(empty, s)] for s in range(NSHAPES)]
        _PLACE_ACTIONS[key] = got
    return got


def upgrade_targets(s: int, revised: bool) -> tuple[int, ...]:
    """Shapes a piece of shape ``s`` may become by one Upgrade action."""
    lvl = LEVEL[s]
    out = [t for t in SHAPES_BY_LEVEL[lvl] if t != s]
    out += SHAPES_BY_LEVEL.get(lvl + 1, ())
    if revised:
        out += [t for t in range(NSHAPES) if LEVEL[t] < lvl]
    return tuple(out)


_UPGRADES = {rev: tuple(upgrade_targets(s, rev) for s in range(NSHAPES)) for rev in (False, True)}
_UPGRADE_ACTIONS = {rev: tuple(tuple(("upgrade", s, t) for t in _UPGRADES[rev][s]) for s in range(NSHAPES)) for rev in (False, True)}


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


def cells_text(mask: int) -> str:
    return ",".join(f"{r}{c}" for r, c in mask_cells(mask))


def parse_cells(text: str) -> int:
    mask = 0
    for item in text.split(","):
        item = item.strip()
        if len(item) != 2 or not item.isdigit() or int(item[0]) >= SIZE or int(item[1]) >= SIZE:
            raise IllegalActionError(f"bad cell {item!r}: write cells as row/column digits 0-4, e.g. 11,12,21")
        mask |= 1 << (int(item[0]) * SIZE + int(item[1]))
    return mask


class ProjectLState(GameState):
    """A Project L game in progress (1–4 players; ``solo=True`` for the solo variant)."""

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
        """Shuffle the decks with ``seed`` and deal the opening position."""
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
        if solo:
            if len(w) < 15 or len(b) < 10:
                raise ValueError("the solo variant needs at least 15 white and 10 black cards")
            deck = w[:15] + b[:10]
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
        st.puzzles = [[] for _ in range(num_players)]  # [card, empty mask, [(shape, mask), ...]]
        st.done = [[] for _ in range(num_players)]
        st.touched = [[] for _ in range(num_players)]  # revised finishing touches: [card, pieces]
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
        st.phase = "play"  # play | touch | over
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

    def legal_actions(self) -> list[tuple]:
        if self.phase == "over":
            return []
        p = self.player
        stock = self.stock[p]
        puzzles = self.puzzles[p]
        if self.phase == "touch":
            out = []
            for slot, (_, empty, _) in enumerate(puzzles):
                for s in range(NSHAPES):
                    if stock[s]:
                        out += _place_actions("touch", slot, empty, s)
            out.append(("done",))
            return out
        if self.in_master:
            out = []
            for slot, (_, empty, _) in enumerate(puzzles):
                if not self.master_slots >> slot & 1:
                    for s in range(NSHAPES):
                        if stock[s]:
                            out += _place_actions("mplace", slot, empty, s)
            out.append(("mend",))
            return out
        out = []
        if len(puzzles) < MAX_PUZZLES:
            if self.solo:
                out += [("take", "G", i) for i, c in enumerate(self.white_row) if c >= 0]
            else:
                out += [("take", "W", i) for i, c in enumerate(self.white_row) if c >= 0]
                if not (self.revised and self.trigger_round >= 0 and self.blacks_taken):
                    out += [("take", "B", i) for i, c in enumerate(self.black_row) if c >= 0]
        supply = self.supply
        if supply[0] > 0:
            out.append(("piece",))
        ups = _UPGRADE_ACTIONS[self.revised]
        for s in range(NSHAPES):
            if stock[s]:
                for action in ups[s]:
                    if supply[action[2]] > 0:
                        out.append(action)
        before = len(out)
        for slot, (_, empty, _) in enumerate(puzzles):
            per_shape = _slot_actions("place", slot, empty)
            for s in range(NSHAPES):
                if stock[s]:
                    out += per_shape[s]
        if len(out) > before and not self.master_used:
            out.append(("master",))
        if self.revised and not self.solo:
            if self.white_deck and any(c >= 0 for c in self.white_row):
                out.append(("recycle", "W"))
            if self.black_deck and any(c >= 0 for c in self.black_row):
                out.append(("recycle", "B"))
        if not out:
            out.append(("pass",))
        return out

    def _refuse(self, reason: str) -> None:
        raise IllegalActionError(reason)

    def check(self, action: Any) -> None:
        """Raise :class:`IllegalActionError` with the reason if ``action`` is illegal now."""
        if self.phase == "over":
            self._refuse("the game is over")
        if not isinstance(action, tuple) or not action:
            self._refuse(f"not an action: {action!r}")
        kind = action[0]
        p = self.player
        stock = self.stock[p]
        puzzles = self.puzzles[p]
        if self.phase == "touch":
            if kind == "done" and len(action) == 1:
                return
            if kind != "touch":
                self._refuse("finishing touches: only 'touch SLOT SHAPE CELLS' or 'done'")
            self._check_place(action, puzzles, stock)
            return
        if self.in_master:
            if kind == "mend" and len(action) == 1:
                return
            if kind != "mplace":
                self._refuse("during the Master action: only 'mplace SLOT SHAPE CELLS' or 'mend'")
            self._check_place(action, puzzles, stock)
            if self.master_slots >> action[1] & 1:
                self._refuse("the Master action places at most one piece on each puzzle")
            return
        if kind == "take" and len(action) == 3:
            _, row, slot = action
            if len(puzzles) >= MAX_PUZZLES:
                self._refuse("you already have 4 unfinished puzzles")
            if self.solo != (row == "G"):
                self._refuse("take from row W or B" if not self.solo else "solo: take from the grid, row G")
            cards = self.white_row if row in ("W", "G") else self.black_row if row == "B" else None
            if cards is None or not isinstance(slot, int) or not 0 <= slot < len(cards):
                self._refuse(f"no such face-up slot: {row} {slot}")
            if cards[slot] < 0:
                self._refuse(f"slot {row} {slot} is empty")
            if row == "B" and self.revised and self.trigger_round >= 0 and self.blacks_taken:
                self._refuse("after the end trigger at most one black puzzle may be taken per turn")
            return
        if kind == "piece" and len(action) == 1:
            if self.supply[0] <= 0:
                self._refuse("no level-1 piece left in the supply")
            return
        if kind == "upgrade" and len(action) == 3:
            _, s, t = action
            if not (isinstance(s, int) and isinstance(t, int) and 0 <= s < NSHAPES and 0 <= t < NSHAPES):
                self._refuse("unknown shape")
            if not stock[s]:
                self._refuse(f"you have no {SHAPE_NAMES[s]}")
            if t not in _UPGRADES[self.revised][s]:
                lower = " or any lower level" if self.revised else ""
                self._refuse(f"{SHAPE_NAMES[s]} may become another shape of its level, one level higher{lower}, not {SHAPE_NAMES[t]}")
            if self.supply[t] <= 0:
                self._refuse(f"no {SHAPE_NAMES[t]} left in the supply")
            return
        if kind == "place":
            self._check_place(action, puzzles, stock)
            return
        if kind == "master" and len(action) == 1:
            if self.master_used:
                self._refuse("the Master action is allowed once per turn")
            if not any(fits(e, s) for _, e, _ in puzzles for s in range(NSHAPES) if stock[s]):
                self._refuse("Master: no piece of yours fits any of your puzzles")
            return
        if kind == "recycle" and len(action) == 2:
            if not self.revised or self.solo:
                self._refuse("Recycle belongs to the revised rule set (not solo)")
            deck = self.white_deck if action[1] == "W" else self.black_deck if action[1] == "B" else None
            row = self.white_row if action[1] == "W" else self.black_row
            if deck is None:
                self._refuse("recycle row W or B")
            if not deck:
                self._refuse("that deck is empty")
            if not any(c >= 0 for c in row):
                self._refuse("that row is empty")
            return
        if kind == "pass" and len(action) == 1:
            if not self._must_pass():
                self._refuse("you may pass only when no other action is legal")
            return
        self._refuse(f"not an action here: {action!r}")

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
            return self.legal_actions() == [("pass",)]
        return True

    def _check_place(self, action: tuple, puzzles: list, stock: list[int]) -> None:
        if len(action) != 4:
            self._refuse(f"malformed action {action!r}")
        _, slot, s, mask = action
        if not isinstance(slot, int) or not 0 <= slot < len(puzzles):
            self._refuse(f"you have no unfinished puzzle in slot {slot}")
        if not isinstance(s, int) or not 0 <= s < NSHAPES:
            self._refuse("unknown shape")
        if not stock[s]:
            self._refuse(f"you have no {SHAPE_NAMES[s]} in stock")
        if placement_shape().get(mask) != s:
            self._refuse(f"those cells are not a {SHAPE_NAMES[s]}")
        empty = puzzles[slot][1]
        card = self.cards[puzzles[slot][0]]
        if mask & ~card.recess:
            self._refuse("the piece would cover cells outside the recess")
        if mask & ~empty:
            self._refuse("the piece would overlap a piece already placed")

    def apply(self, action: Any) -> None:
        self.check(action)
        self.history.append(action)
        kind = action[0]
        p = self.player
        if kind in ("place", "mplace", "touch"):
            _, slot, s, mask = action
            self.stock[p][s] -= 1
            puzzle = self.puzzles[p][slot]
            puzzle[1] &= ~mask
            puzzle[2].append((s, mask))
            if kind == "mplace":
                self.master_slots |= 1 << slot
                return
            if kind == "touch":
                self.penalty[p] += 1
                if puzzle[1] == 0:
                    self.touched[p].append([puzzle[0], puzzle[2]])
                    del self.puzzles[p][slot]
                return
            if puzzle[1] == 0:
                self._complete(p, slot)
        elif kind == "mend":
            self.in_master = False
            for slot in range(len(self.puzzles[p]) - 1, -1, -1):
                if self.puzzles[p][slot][1] == 0:
                    self._complete(p, slot)
        elif kind == "master":
            self.master_used = True
            self.in_master = True
            self.master_slots = 0
            return
        elif kind == "take":
            _, row, slot = action
            if row == "B":
                card = self.black_row[slot]
                self.blacks_taken += 1
                self.black_row[slot] = self.black_deck.pop() if self.black_deck else -1
                if self.black_row[slot] < 0:
                    self._trigger()
            else:
                card = self.white_row[slot]
                self.white_row[slot] = self.white_deck.pop() if self.white_deck else -1
                if row == "G":
                    column = slot % 3
                    if self.locks[column]:
                        self.locks[column] -= 1
                        self.opp_supply += 1
                    if self.white_row[slot] < 0:
                        self._trigger()
            self.puzzles[p].append([card, self.cards[card].recess, []])
        elif kind == "piece":
            self.supply[0] -= 1
            self.stock[p][0] += 1
        elif kind == "upgrade":
            _, s, t = action
            self.stock[p][s] -= 1
            self.supply[s] += 1
            self.supply[t] -= 1
            self.stock[p][t] += 1
        elif kind == "recycle":
            deck, row = (self.white_deck, self.white_row) if action[1] == "W" else (self.black_deck, self.black_row)
            deck[0:0] = [c for c in reversed(row) if c >= 0]
            for i in range(len(row)):
                row[i] = deck.pop() if deck else -1
        elif kind == "done":
            self._next_toucher()
            return
        if kind == "pass":
            self.passes += 1
            if self.passes >= 3 * self.num_players and not self.solo:
                # a whole round of passes: nothing can ever change again, so play stops now
                self.end_reason = self.end_reason or "no player can act"
                self._game_end()
                return
        else:
            self.passes = 0
        self.actions_left -= 1
        if self.actions_left == 0:
            self._end_turn()

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
        grid[best] = self.white_deck.pop() if self.white_deck else -1
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
    def action_to_string(self, action: Any) -> str:
        kind = action[0]
        if kind == "take":
            return f"take {action[1]} {action[2]}"
        if kind == "upgrade":
            return f"upgrade {SHAPE_NAMES[action[1]]} {SHAPE_NAMES[action[2]]}"
        if kind in ("place", "mplace", "touch"):
            return f"{kind} {action[1]} {SHAPE_NAMES[action[2]]} {cells_text(action[3])}"
        if kind == "recycle":
            return f"recycle {action[1]}"
        return kind

    def string_to_action(self, text: str) -> tuple:
        parts = text.split()
        if not parts:
            raise IllegalActionError("empty action")
        kind = parts[0].lower()
        try:
            if kind == "take" and len(parts) == 3:
                action = ("take", parts[1].upper(), int(parts[2]))
            elif kind == "upgrade" and len(parts) == 3:
                action = ("upgrade", SHAPE_INDEX[parts[1].upper()], SHAPE_INDEX[parts[2].upper()])
            elif kind in ("place", "mplace", "touch") and len(parts) == 4:
                action = (kind, int(parts[1]), SHAPE_INDEX[parts[2].upper()], parse_cells(parts[3]))
            elif kind == "recycle" and len(parts) == 2:
                action = ("recycle", parts[1].upper())
            elif kind in ("piece", "master", "mend", "pass", "done") and len(parts) == 1:
                action = (kind,)
            else:
                raise IllegalActionError(f"cannot read action {text!r}")
        except (KeyError, ValueError) as error:
            if isinstance(error, IllegalActionError):
                raise
            raise IllegalActionError(f"cannot read action {text!r} (shapes: {', '.join(SHAPE_NAMES)})") from None
        self.check(action)
        return action

    # ------------------------------------------------------------------
    # views and serialisation
    # ------------------------------------------------------------------
    def _card_json(self, c: int) -> str | None:
        return self.cards[c].id if c >= 0 else None

    def observation(self, player: int) -> dict[str, Any]:
        data = self.to_json()
        data.pop("cards")
        data["white_deck"] = len(self.white_deck)
        data["black_deck"] = len(self.black_deck)
        data["white_row"] = [self._card_json(c) for c in self.white_row]
        data["black_row"] = [self._card_json(c) for c in self.black_row]
        data["observer"] = player
        data["scores"] = self.scores()
        return data

    _FIELDS = (
        "num_players", "rules", "solo", "difficulty", "per_shape", "max_rounds", "supply", "locks", "opp_supply",
        "opp_cards", "white_deck", "black_deck", "white_row", "black_row", "stock", "done", "penalty", "player",
        "actions_left", "master_used", "in_master", "master_slots", "blacks_taken", "round", "trigger_round",
        "phase", "end_reason", "passes",
    )

    def to_json(self) -> dict[str, Any]:
        data = {name: getattr(self, name) for name in self._FIELDS}
        data = {k: (list(v) if isinstance(v, list) else v) for k, v in data.items()}
        data["puzzles"] = [[[c, e, [list(x) for x in ps]] for c, e, ps in pl] for pl in self.puzzles]
        data["touched"] = [[[c, [list(x) for x in ps]] for c, ps in t] for t in self.touched]
        data["history"] = [self.action_to_string(a) for a in self.history]
        data["cards"] = format_deck(self.cards)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ProjectLState:
        import copy

        st = cls()
        for name in cls._FIELDS:
            setattr(st, name, copy.deepcopy(data[name]))
        st.revised = st.rules == "revised"
        st.cards = tuple(parse_deck(data["cards"]))
        st.puzzles = [[[c, e, [tuple(x) for x in ps]] for c, e, ps in pl] for pl in data["puzzles"]]
        st.touched = [[[c, [tuple(x) for x in ps]] for c, ps in t] for t in data["touched"]]
        st.history = []
        for text in data.get("history", []):
            st.history.append(_parse_action_loose(text))
        return st

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ProjectLState) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    # ------------------------------------------------------------------
    # rendering
    # ------------------------------------------------------------------
    def render_text(self, color: bool = False) -> str:
        lines = [self.status_line()]
        if self.solo:
            lines.append(f"opponent: {self.opponent_score()} pts ({len(self.opp_cards)} puzzles), supply {self.opp_supply}, locks {self.locks}")
            for r in range(3):
                lines.append("  grid: " + "  ".join(self._slot_text(self.white_row[3 * r + k], f"G{3 * r + k}") for k in range(3)))
        else:
            lines.append("  white: " + "  ".join(self._slot_text(c, f"W{i}") for i, c in enumerate(self.white_row)) + f"  (deck {len(self.white_deck)})")
            lines.append("  black: " + "  ".join(self._slot_text(c, f"B{i}") for i, c in enumerate(self.black_row)) + f"  (deck {len(self.black_deck)})")
        lines.append("  supply: " + " ".join(f"{n}:{k}" for n, k in zip(SHAPE_NAMES, self.supply)))
        for p in range(self.num_players):
            lines.append(self.tableau_text(p, color))
        return "\n".join(lines)

    def _slot_text(self, c: int, label: str) -> str:
        if c < 0:
            return f"{label}:--"
        card = self.cards[c]
        return f"{label}:{card.id}({card.area}c {card.points}p {card.reward})"

    def status_line(self) -> str:
        if self.phase == "over":
            return f"game over after round {self.round + 1} ({self.end_reason or 'end'}); scores {self.scores()}"
        mode = " [Master: mplace/mend]" if self.in_master else " [finishing touches: touch/done]" if self.phase == "touch" else ""
        trig = f", end triggered in round {self.trigger_round + 1}" if self.trigger_round >= 0 else ""
        return f"round {self.round + 1}, player {self.player} to act, {self.actions_left} actions left{mode}{trig}"

    def tableau_text(self, p: int, color: bool = False) -> str:
        head = (
            f"player {p}: {self.points(p)} pts, {len(self.done[p])} done, stock "
            + (" ".join(f"{n}x{k}" for n, k in zip(SHAPE_NAMES, self.stock[p]) if k) or "-")
        )
        blocks = [card_text(self.cards[c], ps, color).splitlines() for c, _, ps in self.puzzles[p]]
        if not blocks:
            return head
        width = max(len(line) for b in blocks for line in b) if not color else 0
        rows = []
        for k in range(len(blocks[0])):
            rows.append("   ".join(f"[{slot}] " + b[k].ljust(width) if k == 0 else "    " + b[k].ljust(width) for slot, b in enumerate(blocks)))
        return head + "\n" + "\n".join(rows)

    def tableau_svg(self, p: int) -> str:
        """SVG of one player's unfinished puzzles (pieces coloured by shape) and completed ones."""
        size = 18
        cw = SIZE * size + 14
        items = [(self.cards[c], ps) for c, _, ps in self.puzzles[p]] + [(self.cards[c], []) for c in self.done[p]]
        parts = [card_svg(card, ps, size, x0=k * cw, y0=20, standalone=False) for k, (card, ps) in enumerate(items)]
        label = f'<text x="2" y="14" font-size="13" font-family="sans-serif">player {p}: {self.points(p)} pts — stock ' + (
            " ".join(f"{n}×{k}" for n, k in zip(SHAPE_NAMES, self.stock[p]) if k) or "empty") + "</text>"
        width = max(1, len(items)) * cw + 4
        return f'<svg xmlns="http://www.w3.org/2000/svg" width="{max(width, 300)}" height="{SIZE * size + 52}">{label}{"".join(parts)}</svg>'

    def _repr_svg_(self) -> str:
        return self.tableau_svg(self.player if self.phase != "over" else 0)


def _parse_action_loose(text: str) -> tuple:
    parts = text.split()
    kind = parts[0]
    if kind == "take":
        return ("take", parts[1], int(parts[2]))
    if kind == "upgrade":
        return ("upgrade", SHAPE_INDEX[parts[1]], SHAPE_INDEX[parts[2]])
    if kind in ("place", "mplace", "touch"):
        return (kind, int(parts[1]), SHAPE_INDEX[parts[2]], parse_cells(parts[3]))
    if kind == "recycle":
        return ("recycle", parts[1])
    return (kind,)


def new_game(num_players: int = 2, seed: int = 0, **kwargs: Any) -> ProjectLState:
    """Shortcut for :meth:`ProjectLState.new_game`."""
    return ProjectLState.new_game(num_players, seed, **kwargs)


__all__ = ["ProjectLState", "new_game", "reward_shape", "upgrade_targets", "fits", "RULE_SETS", "DIFFICULTIES", "NCELLS"]
