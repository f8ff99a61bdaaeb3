"""The round-6 subgame of Rainbow Blackjack: what each seat may hold, as everything public allows.

In round 6 (the last; ``docs/rules/rainbow-blackjack.md``) each seat's hand is the last
line of its second grid: 3 of the 6 stones of its set that nobody has seen (the other 3
were removed from the game).  Seen from the public state alone, a chance node deals each
seat one of the hands consistent with what is public: of the right size (3 minus the
stones it already placed this round) and, once it announced, showing the announced
colours or numbers.  The deal is uniform over the stones (a hand's weight is the number of
ways to draw it: jokers are interchangeable), as in :func:`puzzles.towers.infoset.resample_hidden`;
the two seats' hands are independent (their sets are disjoint).

:func:`with_hands` writes chosen hands into a full position, so that any solver or bot can
be asked what it does in one information set.  :func:`placement_start` takes back this
round's placements: the public state where round 6's placements began.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from puzzles.towers.infoset import hand_requirement, unseen_stones
from puzzles.towers.kernel import LINE_CELLS
from puzzles.towers.stones import announce_attr, parse_stone

if TYPE_CHECKING:
    from puzzles.towers.engine import TowersState

LAST_ROUND = 5  # 0-based index of round 6
Hand = tuple[int, ...]


def random_play(seed: int, stop: Callable[[TowersState], bool]) -> TowersState:
    """Seeded uniformly random play from the start (chance and both seats) until ``stop`` holds or the game ends:
    the positions of ``towers state``."""
    import random

    from puzzles.game import CHANCE
    from puzzles.towers.engine import TowersState

    rng = random.Random(seed)
    state = TowersState()
    while not state.is_terminal() and not stop(state):
        state.apply(state.sample_chance(rng) if state.current_player() == CHANCE else rng.choice(state.legal_actions()))
    return state


def random_round6_start(seed: int) -> TowersState | None:
    """Round 6's placement start reached by seeded uniformly random play (as ``towers state --round 6
    --placements 0``); None when that game ends before round 6."""
    state = random_play(seed, lambda s: s.round == LAST_ROUND and s.phase == "place")
    return None if state.is_terminal() else state


def check_round6(state: TowersState) -> None:
    """ValueError unless ``state`` is a decision of round 6 (lines picked by rule, announcements, placements)."""
    if state.round != LAST_ROUND or state.phase not in ("pick", "place"):
        raise ValueError(f"not a round-6 position (round {state.round + 1}, phase {state.phase})")


def placed_this_round(state: TowersState, seat: int) -> list[int]:
    """The stones ``seat`` has put on towers in round 6 so far (public)."""
    return list(state.revealed[seat][LAST_ROUND])


def possible_hands(state: TowersState, seat: int) -> tuple[list[Hand], list[float]]:
    """The hands ``seat`` may hold now as the public state allows (sorted stone codes), with prior weights.

    Before the seat picks its line the hand to come counts (3 stones).  A weight is the number
    of ways to draw the hand's stones from the unseen ones (identical jokers counted apart).
    """
    check_round6(state)
    unseen = Counter(unseen_stones(state, seat))
    size = 3 - len(placed_this_round(state, seat))
    req = hand_requirement(state, seat)
    hands: list[Hand] = []
    weights: list[float] = []
    for combo in sorted(set(itertools.combinations(sorted(unseen.elements()), size))):
        if req is not None and sorted((announce_attr(c, req[0]) for c in combo), key=str) != req[1]:
            continue
        hands.append(tuple(combo))
        weights.append(float(math.prod(math.comb(unseen[c], k) for c, k in Counter(combo).items())))
    if not hands:
        raise ValueError(f"no hand of P{seat + 1} is consistent with the public state")
    return hands, weights


def with_hands(state: TowersState, hands: tuple[Hand, Hand]) -> TowersState:
    """A full position with the public part of ``state`` in which each seat holds ``hands[seat]`` (its stones left).

    The rest of a seat's hidden stones follows: its grids are the stones shown in rounds 1-5
    plus this round's line (the stones placed from it and the hand), and its unseen stones
    outside the hand were removed from the game.
    """
    check_round6(state)
    new = state.clone()
    for seat in (0, 1):
        hand = list(hands[seat])
        line_stones = placed_this_round(state, seat) + hand
        removed = Counter(unseen_stones(state, seat))
        removed.subtract(hand)
        if len(line_stones) != 3 or any(v < 0 for v in removed.values()):
            raise ValueError(f"P{seat + 1} cannot hold {hand}: not 3 of their unseen stones in this round's line")
        grids: list[list[int] | None] = [_grid(state, seat, g, line_stones) for g in (0, 1)]
        picked = state.line[seat] >= 0
        new.set_private(seat, grids, hand if picked else [], sorted(removed.elements()), [], [])
    return new


def _grid(state: TowersState, seat: int, g: int, line_stones: list[int]) -> list[int]:
    """``seat``'s grid ``g`` rebuilt from the stones shown line by line (round 6's line: ``line_stones``)."""
    cells = [-1] * 9
    for i, ln in enumerate(state.used_lines[seat][g]):
        rnd = 3 * g + i
        stones = line_stones if rnd == LAST_ROUND else list(state.revealed[seat][rnd])
        for cell, code in zip(LINE_CELLS[ln].tolist(), stones, strict=True):
            cells[cell] = code
    free = [c for c in range(9) if cells[c] < 0]
    if free:  # round 6's line, not picked yet
        for cell, code in zip(free, line_stones, strict=True):
            cells[cell] = code
    return cells


def placement_start(state: TowersState) -> TowersState:
    """The public state (with hidden stones as in ``state``) where round 6's placements began.

    Round 6's placements are read from the log (``P1 R6>O``, ``P2 R6xO``, ``P1 pass``) and taken
    back last first; a replacement puts the replaced joker back (its placer is in the list of
    replaced jokers).
    """
    check_round6(state)
    if state.phase != "place":
        raise ValueError("round 6's placements have not begun")
    from puzzles.towers.engine import TowersState

    moves = round6_placements(state)
    data = state.to_json()
    pub = data["public"]
    outs = [list(o) for o in pub["out"]]
    for seat, text in reversed(moves):
        if text == "pass":
            continue
        stone_text, tower, replace = _split_place(text)
        t = "ROYGBP".index(tower)
        top = pub["towers"][t].pop()
        pub["values"][t].pop()
        pub["placers"][t].pop()
        if top != stone_text:
            raise ValueError(f"the log does not match the towers ({text})")
        if replace:
            joker = next(i for i in range(len(outs) - 1, -1, -1) if outs[i][3] == t and outs[i][2] == seat)
            _, placer, _, _ = outs.pop(joker)
            pub["towers"][t].append("J")
            pub["values"][t].append(pub["values"][t][-1] if pub["values"][t] else 0)
            pub["placers"][t].append(placer)
        pub["revealed"][seat][LAST_ROUND].remove(stone_text)
        data["private"][seat]["hand"].append(stone_text)
    pub["out"] = outs
    pub["step"] = 0
    pub["hand_size"] = [len(data["private"][p]["hand"]) for p in (0, 1)]
    cut = max(i for i, line in enumerate(pub["log"]) if line == "round 6")
    n_pick = sum(1 for line in pub["log"][cut:] if _is_pick_log(line))
    pub["log"] = pub["log"][: cut + 1 + n_pick]
    return TowersState.from_json_unchecked(data)


def round6_placements(state: TowersState) -> list[tuple[int, str]]:
    """Round 6's placements so far, in order: (seat, ``R6>O`` / ``R6xO`` / ``pass``), from the log."""
    log = state.log
    starts = [i for i, line in enumerate(log) if line == "round 6"]
    if not starts:
        raise ValueError("the log does not show round 6's start")
    out: list[tuple[int, str]] = []
    for line in log[starts[-1] + 1 :]:
        if _is_pick_log(line):
            continue
        seat_text, _, text = line.partition(" ")
        if seat_text in ("P1", "P2"):
            out.append((int(seat_text[1]) - 1, text))
    return out


def _is_pick_log(line: str) -> bool:
    """A log line of a line pick or an announcement."""
    text = line.partition(" ")[2]
    return text[:3] in ("row", "col") or text.startswith(("colors", "numbers"))


def _split_place(text: str) -> tuple[str, str, bool]:
    """``R6>O`` -> ("R6", "O", False); ``R6xO`` -> ("R6", "O", True)."""
    sep = ">" if ">" in text else "x"
    stone, tower = text.split(sep)
    parse_stone(stone)
    return stone, tower, sep == "x"
