"""Rule engine of Rainbow Blackjack ("Colorful 21"), the tower game.

Implements :class:`puzzles.game.GameState`; rules follow
``shared/rules/rainbow-blackjack.md``.  Seat 0 is player 1 (primary colours),
seat 1 is player 2 (secondary colours).

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

Decisions (where the digest is silent or says "Decision")
---------------------------------------------------------
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
import json
import random
from collections import Counter
from typing import Any

from puzzles.game import CHANCE, TERMINAL, GameState, IllegalActionError, shared_win_returns
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

# Deal schedules: (player, target) with target 'g0'/'g1' (grid cells in order) or 'rm' (removed).
SETUP_SCHEDULE = tuple([(0, "g0")] * 9 + [(0, "rm")] * 3 + [(1, "g0")] * 9 + [(1, "rm")] * 3)
GRID2_SCHEDULE = tuple([(0, "g1")] * 9 + [(1, "g1")] * 9)


def sort_attrs(attrs: list) -> list:
    """Announcement order: colours in wheel order then grey; numbers ascending."""
    order = {c: i for i, c in enumerate(LETTERS + "X")}
    return sorted(attrs, key=lambda a: a if isinstance(a, int) else order.get(a, 6))


def line_direction(line: int) -> int:
    """0 for rows, 1 for columns."""
    return line // 3


def joker_place_ok(stones: list[int]) -> bool:
    """A joker may go on a tower that is not empty and whose top is not a joker."""
    return bool(stones) and stones[-1] != JOKER


def replace_ok(total: int, top_value: int, top_is_joker: bool, value: int) -> bool:
    """Joker replacement: (a) replacing is strictly closer to 21 and (b) stacking on top would exceed 21."""
    if not top_is_joker:
        return False
    replaced = total - top_value + value
    return abs(replaced - 21) < abs(total - 21) and total + value > 21


class TowersState(GameState):
    """A full position of Rainbow Blackjack (both players' hidden stones included)."""

    num_players = 2

    def __init__(self) -> None:
        # -- public --
        self.round = 0
        self.phase = "deal"  # deal | pick | place | end
        self.step = 0  # deal: index in schedule; pick: 0..3 (pick, announce, pick, announce); place: ply 0..5
        self.direction = [[-1, -1], [-1, -1]]  # per player per grid: -1 free, 0 rows, 1 columns
        self.used_lines: list[list[list[int]]] = [[[], []], [[], []]]
        self.line = [-1, -1]  # current round's line per player
        self.announcements: list[dict[str, Any]] = []
        self.towers: list[list[int]] = [[] for _ in range(6)]  # stone codes, bottom first
        self.values: list[list[int]] = [[] for _ in range(6)]  # effective values
        self.placers: list[list[int]] = [[] for _ in range(6)]
        self.out: list[list[int]] = []  # [code, placer, remover, tower] of replaced jokers
        self.revealed: list[list[list[int]]] = [[[] for _ in range(NUM_ROUNDS)] for _ in range(2)]
        self.hand_size = [0, 0]
        self.winner = -1
        self.instant = False
        self.log: list[str] = []
        # -- private --
        self.grids: list[list[list[int] | None]] = [[None, None], [None, None]]
        self.removed: list[list[int]] = [[], []]
        self.hands: list[list[int]] = [[], []]
        self.pools: list[list[int]] = [player_set(0), player_set(1)]
        self._partial: list[list[int]] = [[], []]  # grid cells drawn so far during a deal

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
                state.apply(("draw", code))
        state._preset_grid2 = grids2  # type: ignore[attr-defined]
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
        for a in (("line", 0), ("announce", "colors"), ("line", 0), ("announce", "colors")):
            s.apply(a)
        for t in range(6):
            s.towers[t], s.values[t], s.placers[t] = [], [], []
            for text, placer in towers.get(t, []):
                code = parse_stone(text)
                s.towers[t].append(code)
                s.values[t].append(s.values[t][-1] if code == JOKER else value_of(code))
                s.placers[t].append(placer)
        s.hands = [[parse_stone(x) for x in hands[0]], [parse_stone(x) for x in hands[1]]]
        s.hand_size = [len(hands[0]), len(hands[1])]
        s.step = step
        return s

    # ------------------------------------------------------------------
    # whose turn
    # ------------------------------------------------------------------
    @property
    def starter(self) -> int:
        return STARTERS[min(self.round, NUM_ROUNDS - 1)]

    def current_player(self) -> int:
        if self.phase == "end":
            return TERMINAL
        if self.phase == "deal":
            return CHANCE
        if self.phase == "pick":
            return self.starter if self.step < 2 else 1 - self.starter
        return self.starter if self.step % 2 == 0 else 1 - self.starter

    def grid_index(self) -> int:
        """0 for rounds 1-3, 1 for rounds 4-6."""
        return 0 if self.round < 3 else 1

    def _schedule(self) -> tuple:
        return SETUP_SCHEDULE if self.round == 0 else GRID2_SCHEDULE

    # ------------------------------------------------------------------
    # legal actions
    # ------------------------------------------------------------------
    def legal_lines(self, player: int) -> list[int]:
        """Lines the player may pick now in their current grid (direction lock applied)."""
        g = self.grid_index()
        used = self.used_lines[player][g]
        d = self.direction[player][g]
        cands = range(6) if d < 0 else range(3 * d, 3 * d + 3)
        return [ln for ln in cands if ln not in used]

    def placement_actions(self, player: int) -> list[tuple]:
        """Placements and replacements available to ``player`` from their hand (``[('pass',)]`` if none)."""
        actions: list[tuple] = []
        for code in sorted(set(self.hands[player])):
            if code == JOKER:
                for t in range(6):
                    if joker_place_ok(self.towers[t]):
                        actions.append(("place", JOKER, t))
                continue
            v = value_of(code)
            for t in allowed_towers(code):
                actions.append(("place", code, t))
                st = self.towers[t]
                if st and st[-1] == JOKER and replace_ok(sum(self.values[t]), self.values[t][-1], True, v):
                    actions.append(("replace", code, t))
        return actions or [("pass",)]

    def legal_actions(self) -> list[tuple]:
        if self.phase == "end":
            return []
        if self.phase == "deal":
            player, _ = self._schedule()[self.step]
            return [("draw", c) for c in sorted(set(self.pools[player]))]
        player = self.current_player()
        if self.phase == "pick":
            if self.step % 2 == 0:
                return [("line", ln) for ln in self.legal_lines(player)]
            return [("announce", m) for m in ANNOUNCE_MODES]
        return self.placement_actions(player)

    def chance_outcomes(self) -> list[tuple[tuple, float]]:
        player, _ = self._schedule()[self.step]
        counts = Counter(self.pools[player])
        n = len(self.pools[player])
        return [(("draw", c), counts[c] / n) for c in sorted(counts)]

    def sample_chance(self, rng: random.Random) -> tuple:
        player, _ = self._schedule()[self.step]
        return ("draw", rng.choice(self.pools[player]))

    # ------------------------------------------------------------------
    # applying actions
    # ------------------------------------------------------------------
    def apply(self, action: Any) -> None:
        if isinstance(action, str):
            action = self.string_to_action(action)
        if self.phase == "end":
            raise IllegalActionError("the game is over")
        kind = action[0] if isinstance(action, tuple) and action else None
        if self.phase == "deal":
            self._apply_draw(action)
        elif self.phase == "pick":
            if self.step % 2 == 0:
                self._apply_line(action)
            else:
                self._apply_announce(action)
        else:
            if kind == "pass":
                if self.placement_actions(self.current_player()) != [("pass",)]:
                    raise IllegalActionError("you may pass only when no stone in hand can be placed")
                self.log.append(f"P{self.current_player() + 1} pass")
                self._after_placement(self.current_player())
            else:
                self._apply_place(action)

    def _apply_draw(self, action: Any) -> None:
        if not (isinstance(action, tuple) and len(action) == 2 and action[0] == "draw"):
            raise IllegalActionError(f"a chance draw ('draw', code) is due, not {action!r}")
        player, target = self._schedule()[self.step]
        code = action[1]
        if code not in self.pools[player]:
            raise IllegalActionError(f"{stone_str(code) if isinstance(code, int) else code} is not in P{player + 1}'s pool")
        self.pools[player].remove(code)
        if target == "rm":
            self.removed[player].append(code)
        else:
            self._partial[player].append(code)
            if len(self._partial[player]) == 9:
                self.grids[player][int(target[1])] = self._partial[player]
                self._partial[player] = []
        self.step += 1
        if target == "rm" and len(self.removed[player]) == 3:
            self.removed[player].sort()
        if self.step == len(self._schedule()):
            self.phase, self.step = "pick", 0
            self.log.append(f"round {self.round + 1}")

    def _apply_line(self, action: Any) -> None:
        player = self.current_player()
        if not (isinstance(action, tuple) and len(action) == 2 and action[0] == "line"):
            raise IllegalActionError(f"P{player + 1} must pick a line (row1..row3, col1..col3)")
        ln = action[1]
        legal = self.legal_lines(player)
        if ln not in legal:
            g = self.grid_index()
            d = self.direction[player][g]
            if not isinstance(ln, int) or not 0 <= ln < 6:
                why = "no such line"
            elif ln in self.used_lines[player][g]:
                why = "that line was already used in this grid"
            elif d >= 0 and line_direction(ln) != d:
                why = f"this grid is locked to {'rows' if d == 0 else 'columns'}"
            else:
                why = "not allowed"
            raise IllegalActionError(f"{LINE_NAMES[ln] if isinstance(ln, int) and 0 <= ln < 6 else ln}: {why}")
        g = self.grid_index()
        if self.direction[player][g] < 0:
            self.direction[player][g] = line_direction(ln)
        self.used_lines[player][g].append(ln)
        self.line[player] = ln
        grid = self.grids[player][g]
        assert grid is not None
        self.hands[player] = [grid[c] for c in LINE_CELLS[ln]]
        self.hand_size[player] = 3
        self.log.append(f"P{player + 1} {LINE_NAMES[ln]}")
        self.step += 1

    def _apply_announce(self, action: Any) -> None:
        player = self.current_player()
        if not (isinstance(action, tuple) and len(action) == 2 and action[0] == "announce" and action[1] in ANNOUNCE_MODES):
            raise IllegalActionError(f"P{player + 1} must announce 'colors' or 'numbers'")
        mode = action[1]
        attrs = sort_attrs([announce_attr(c, mode) for c in self.hands[player]])
        self.announcements.append(
            {"round": self.round, "player": player, "line": self.line[player], "mode": mode, "values": attrs}
        )
        self.log.append(f"P{player + 1} {mode}: {' '.join(str(a) for a in attrs)}")
        self.step += 1
        if self.step == 4:
            self.phase, self.step = "place", 0

    def tower_total(self, t: int) -> int:
        return sum(self.values[t])

    def owner(self, t: int) -> int:
        """Seat that placed the top stone of tower ``t``, -1 when empty."""
        return self.placers[t][-1] if self.placers[t] else -1

    def _apply_place(self, action: Any) -> None:
        player = self.current_player()
        if not (isinstance(action, tuple) and len(action) == 3 and action[0] in ("place", "replace")):
            raise IllegalActionError(f"P{player + 1} must place a stone, e.g. R6>R (or pass when stuck)")
        kind, code, t = action
        if not isinstance(t, int) or not 0 <= t < 6:
            raise IllegalActionError(f"no such tower: {t!r}")
        if code not in self.hands[player]:
            raise IllegalActionError(f"{stone_str(code) if isinstance(code, int) and 0 <= code <= 36 else code} is not in your hand")
        st = self.towers[t]
        if code == JOKER:
            if kind == "replace":
                raise IllegalActionError("a joker cannot replace a joker")
            if not st:
                raise IllegalActionError("a joker may not be the first stone of a tower")
            if st[-1] == JOKER:
                raise IllegalActionError("a joker may not lie directly on another joker")
            value = self.values[t][-1]
        else:
            if t not in allowed_towers(code):
                raise IllegalActionError(
                    f"{stone_str(code)} may go only to the {', '.join(COLORS[x] for x in allowed_towers(code))} towers"
                )
            value = value_of(code)
        if kind == "replace":
            total = self.tower_total(t)
            if not st or st[-1] != JOKER:
                raise IllegalActionError("replacement needs a joker on top of the tower")
            if not replace_ok(total, self.values[t][-1], True, value):
                raise IllegalActionError(
                    f"replacing needs {total - self.values[t][-1] + value} strictly closer to 21 than {total}"
                    f" and {total} + {value} > 21"
                )
            st.pop()
            self.values[t].pop()
            old_placer = self.placers[t].pop()
            self.out.append([JOKER, old_placer, player, t])
        st.append(code)
        self.values[t].append(value)
        self.placers[t].append(player)
        self.hands[player].remove(code)
        self.hand_size[player] -= 1
        self.revealed[player][self.round].append(code)
        self.log.append(f"P{player + 1} {self.action_to_string(action)}")
        if sum(1 for x in range(6) if self.owner(x) == player and self.tower_total(x) == 21) >= 3:
            self.winner, self.instant, self.phase = player, True, "end"
            self.log.append(f"P{player + 1} wins instantly with three towers at 21")
            return
        self._after_placement(player)

    def _after_placement(self, player: int) -> None:
        self.step += 1
        if self.step < 6:
            return
        for p in (0, 1):  # discard what is left in hand: revealed
            if self.hands[p]:
                self.revealed[p][self.round].extend(self.hands[p])
                self.log.append(f"P{p + 1} discards {' '.join(stone_str(c) for c in self.hands[p])}")
            self.hands[p] = []
            self.hand_size[p] = 0
        self.line = [-1, -1]
        self.round += 1
        if self.round == NUM_ROUNDS:
            self.phase = "end"
            s = self.scores()
            self.winner = 0 if s[0] > s[1] else 1 if s[1] > s[0] else -1
            return
        if self.round == 3:
            self.phase, self.step = "deal", 0
            preset = getattr(self, "_preset_grid2", None)
            if preset is not None:
                for p in (0, 1):
                    for code in preset[p]:
                        self.apply(("draw", code))
            return
        self.phase, self.step = "pick", 0
        self.log.append(f"round {self.round + 1}")

    # ------------------------------------------------------------------
    # outcome
    # ------------------------------------------------------------------
    def towers_owned(self) -> list[int]:
        owned = [0, 0]
        for t in range(6):
            o = self.owner(t)
            if o >= 0:
                owned[o] += 1
        return owned

    def scores(self) -> list[float]:
        return [float(x) for x in self.towers_owned()]

    def returns(self) -> list[float]:
        if self.instant:
            return [1.0 if p == self.winner else 0.0 for p in (0, 1)]
        return shared_win_returns(self.scores())

    # ------------------------------------------------------------------
    # cloning and (de)serialisation
    # ------------------------------------------------------------------
    def clone(self) -> TowersState:
        new = TowersState.__new__(TowersState)
        new.round, new.phase, new.step = self.round, self.phase, self.step
        new.direction = [d[:] for d in self.direction]
        new.used_lines = [[u[:] for u in p] for p in self.used_lines]
        new.line = self.line[:]
        new.announcements = self.announcements[:]  # entries are never mutated
        new.towers = [t[:] for t in self.towers]
        new.values = [t[:] for t in self.values]
        new.placers = [t[:] for t in self.placers]
        new.out = self.out[:]
        new.revealed = [[r[:] for r in p] for p in self.revealed]
        new.hand_size = self.hand_size[:]
        new.winner, new.instant = self.winner, self.instant
        new.log = self.log[:]
        new.grids = [[None if g is None else g[:] for g in p] for p in self.grids]
        new.removed = [r[:] for r in self.removed]
        new.hands = [h[:] for h in self.hands]
        new.pools = [p[:] for p in self.pools]
        new._partial = [p[:] for p in self._partial]
        if hasattr(self, "_preset_grid2"):
            new._preset_grid2 = self._preset_grid2  # type: ignore[attr-defined]
        return new

    def public_json(self) -> dict[str, Any]:
        """Everything both players see."""
        return {
            "round": self.round,
            "phase": self.phase,
            "step": self.step,
            "direction": copy.deepcopy(self.direction),
            "used_lines": copy.deepcopy(self.used_lines),
            "line": self.line[:],
            "announcements": copy.deepcopy(self.announcements),
            "towers": [[stone_str(c) for c in t] for t in self.towers],
            "values": copy.deepcopy(self.values),
            "placers": copy.deepcopy(self.placers),
            "out": copy.deepcopy(self.out),
            "revealed": [[[stone_str(c) for c in r] for r in p] for p in self.revealed],
            "hand_size": self.hand_size[:],
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
        data = {"game": "towers", "public": self.public_json(), "private": [self.private_json(0), self.private_json(1)]}
        preset = getattr(self, "_preset_grid2", None)
        if preset is not None:
            data["preset_grid2"] = [[stone_str(c) for c in g] for g in preset]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TowersState:
        if data.get("game", "towers") != "towers" or "public" not in data:
            raise ValueError("not a towers state (expected keys 'game', 'public', 'private')")
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
        for p in (0, 1):
            pr = priv[p]
            s.grids[p] = [None if g is None else [parse_stone(x) for x in g] for g in pr["grids"]]
            s.removed[p] = [parse_stone(x) for x in pr["removed"]]
            s.hands[p] = [parse_stone(x) for x in pr["hand"]]
            s.pools[p] = [parse_stone(x) for x in pr["pool"]]
            s._partial[p] = [parse_stone(x) for x in pr.get("partial", [])]
        if "preset_grid2" in data:
            s._preset_grid2 = tuple([parse_stone(x) for x in g] for g in data["preset_grid2"])  # type: ignore[attr-defined]
        if s.phase not in ("deal", "pick", "place", "end"):
            raise ValueError(f"unknown phase {s.phase!r}")
        return s

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TowersState) and self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash(json.dumps(self.to_json(), sort_keys=True))

    def observation(self, player: int) -> dict[str, Any]:
        """Public information plus ``player``'s own private information (opponent's hidden stones left out)."""
        cp = self.current_player()
        return {
            "game": "towers",
            "player": player,
            "to_move": cp,
            "public": self.public_json(),
            "private": self.private_json(player),
        }

    # ------------------------------------------------------------------
    # text forms of actions
    # ------------------------------------------------------------------
    def action_to_string(self, action: Any) -> str:
        kind = action[0]
        if kind == "draw":
            return f"draw {stone_str(action[1])}"
        if kind == "line":
            return LINE_NAMES[action[1]]
        if kind == "announce":
            return action[1]
        if kind == "pass":
            return "pass"
        sep = ">" if kind == "place" else "x"
        return f"{stone_str(action[1])}{sep}{LETTERS[action[2]]}"

    def string_to_action(self, text: str) -> tuple:
        """Parse an action; accepts ``row2``, ``c1``, ``colors``/``numbers``, ``R6>O``, ``R6xO``, ``R6 O``, ``pass``."""
        t = text.strip().lower().replace(" ", "")
        action: tuple | None = None
        if t.startswith("draw"):
            action = ("draw", parse_stone(t[4:]))
        elif t in ("pass", "p") and self.phase == "place":
            action = ("pass",)
        elif t in ("colors", "colours", "color", "c") and self.phase == "pick" and self.step % 2 == 1:
            action = ("announce", "colors")
        elif t in ("numbers", "number", "n") and self.phase == "pick" and self.step % 2 == 1:
            action = ("announce", "numbers")
        elif t[:3] in ("row", "col") and t[3:].isdigit():
            action = ("line", (0 if t[:3] == "row" else 3) + int(t[3:]) - 1)
        elif len(t) == 2 and t[0] in "rc" and t[1] in "123":
            action = ("line", (0 if t[0] == "r" else 3) + int(t[1]) - 1)
        else:
            for sep, kind in ((">", "place"), ("x", "replace"), ("*", "replace")):
                if sep in t[1:]:
                    a, b = t.split(sep, 1) if sep != "x" else (t[: t.index("x", 1)], t[t.index("x", 1) + 1 :])
                    action = (kind, parse_stone(a), parse_tower(b))
                    break
            if action is None and len(t) in (3, 4):
                # "r6o" / "jo": stone then tower
                stone_part, tower_part = t[:-1], t[-1]
                try:
                    action = ("place", parse_stone(stone_part), parse_tower(tower_part))
                except ValueError:
                    action = None
        if action is None:
            raise IllegalActionError(f"cannot read {text!r} as an action")
        legal = self.legal_actions()
        if action not in legal:
            probe = self.clone()
            try:
                probe.apply(action)
            except IllegalActionError as err:
                raise IllegalActionError(f"{text.strip()}: {err}") from None
            raise IllegalActionError(f"{text.strip()}: not legal now")
        return action

    # ------------------------------------------------------------------
    # rendering
    # ------------------------------------------------------------------
    def __str__(self) -> str:
        from puzzles.towers.render import render_state_text

        return render_state_text(self)

    def _repr_svg_(self) -> str:
        from puzzles.towers.render import render_svg

        return render_svg(self.observation(self.current_player() if self.current_player() in (0, 1) else 0), full=self)
