"""Project L bots: greedy (completion-checker driven) and MCTS on top of it.

* ``random`` (generic, :mod:`solvers.bots`): uniform over the legal actions.
* :class:`GreedyBot` (``greedy``): every action, asks the completion checker's
  turn planner which puzzles it can finish with the actions left this turn
  (upgrades and Master included) and carries out the most valuable plan;
  otherwise it places a piece that belongs to a filling of one of its puzzles
  from its own stock, takes the most promising puzzle, or upgrades toward the
  shapes its easiest puzzle is missing.  In solo it also values denying the
  automated opponent the high-point cards of the unlocked columns.
* ``mcts`` (:func:`mcts_bot`): the generic :class:`solvers.mcts.MCTSBot` with
  three Project L hooks: the candidate actions are the greedy choice and a
  handful of alternatives (other puzzles to take, other pieces or puzzles to
  place, other upgrades) — a generic search over every legal action is hopeless
  here, a position has hundreds of placements; the rollout lets greedy players
  play a short horizon and scores the position with a heuristic (points,
  stock, progress on unfinished puzzles) relative to the best opponent; and
  every iteration searches a redraw of the face-down decks
  (``state.resample``), so the bot never reads their true order.

Every bot decides from public information only: the deck order is the game's
only hidden information and no bot reads it (the MCTS rollouts run on
resampled decks).
"""

from __future__ import annotations

import math
import random
from typing import Any

from puzzles.game import GameState, IllegalActionError
from puzzles.projectl.cards import LEVEL, NSHAPES, SHAPE_INDEX, SHAPES_BY_LEVEL, Card
from puzzles.projectl.engine import (
    DONE,
    MASTER,
    MASTER_END,
    PIECE,
    Action,
    Master,
    MasterEnd,
    MasterPlace,
    Pass,
    Place,
    ProjectLState,
    Take,
    TakePiece,
    Touch,
    Upgrade,
    upgrade_targets,
)
from solvers.bots import Bot, BotFactory, Budget
from solvers.mcts import MCTSBot
from solvers.projectl.checker import Checker, PuzzleInHand, TurnPlan, finishable_this_turn, quick_way

__all__ = ["BOTS", "GreedyBot", "HorizonRollout", "MCTS_ITERATIONS", "candidate_actions", "evaluate", "mcts_bot"]


def _hand(st: ProjectLState, p: int) -> list[PuzzleInHand]:
    out: list[PuzzleInHand] = []
    for c, empty, pieces in st.puzzles[p]:
        placed = [0] * NSHAPES
        for s, _ in pieces:
            placed[s] += 1
        card = st.cards[c]
        out.append(PuzzleInHand(empty, placed, card.reward_index, card.points, str(len(out))))
    return out


def _card_value(card: Card, stock_area: int, late: bool) -> float:
    """How attractive a face-up puzzle is: points and reward per cell, penalised when out of reach."""
    reach = max(0, card.area - stock_area)
    reward = 0.0 if late else 0.9 * card.reward_level
    return (card.points * 1.6 + reward + 0.5) / (card.area + 1.5 * reach + 1)


def _fingerprint(st: ProjectLState) -> tuple[Any, ...]:
    """The public facts a greedy plan step depends on (a plan step is replayed only where they match)."""
    p = st.player
    return (len(st.history), p, st.actions_left, st.in_master, st.master_slots, st.master_used,
            tuple(st.stock[p]), tuple(st.supply), tuple((c, e) for c, e, _ in st.puzzles[p]),
            tuple(st.white_row), tuple(st.black_row))


class GreedyBot:
    """Finishes what the checker says it can finish this turn; otherwise builds toward it.

    A multi-step decision (a Master action: ``master``, ``mplace``..., ``mend``)
    is remembered as a plan keyed by the position each step is meant for, so
    one instance can serve many positions (as the MCTS candidate generator).
    """

    name = "greedy"
    MAX_PLANS = 10_000

    def __init__(self, max_open: int = 4, solo_denial: float = 1.0) -> None:
        self.max_open = max_open
        self.solo_denial = solo_denial
        self._plans: dict[tuple[Any, ...], Action] = {}

    def choose(self, state: GameState[Any], rng: random.Random) -> Action:
        assert isinstance(state, ProjectLState)
        if self._plans:
            planned = self._plans.get(_fingerprint(state))
            if planned is not None and state.illegal_reason(planned) is None:
                return planned
        return self.decide(state, rng)

    def _set_plan(self, st: ProjectLState, actions: list[Action]) -> Action:
        """Play ``actions[0]`` now and remember the rest for the positions they lead to."""
        if len(self._plans) > self.MAX_PLANS:
            self._plans.clear()
        sim = st.clone()
        for action, following in zip(actions, actions[1:], strict=False):
            try:
                sim.apply(action)
            except IllegalActionError:
                break
            self._plans[_fingerprint(sim)] = following
        return actions[0]

    # -- decisions ----------------------------------------------------------
    def decide(self, st: ProjectLState, rng: random.Random) -> Action:
        """The greedy action, ignoring remembered plans."""
        p = st.player
        if st.phase == "touch":
            return self._touch(st)
        if st.in_master:
            return MASTER_END
        stock = st.stock[p]
        hand = _hand(st, p)
        if hand:
            plans = finishable_this_turn(hand, stock, st.supply, st.actions_left, not st.master_used, st.revised)
            if plans:
                best = max(plans, key=lambda pl: (pl.points + 0.3 * sum(LEVEL[hand[i].reward] for i in pl.puzzles)
                                                  + 0.1 * len(pl.puzzles), -len(pl.actions)))
                action = self._plan_step(st, best)
                if action is not None:
                    return action
        legal_take = self._best_take(st)
        open_puzzles = len(st.puzzles[p])
        placement = self._progress_placement(st)
        if legal_take is not None and (open_puzzles < 2 or (open_puzzles < self.max_open and placement is None)):
            return legal_take
        if placement is not None:
            return placement
        acquire = self._acquire(st)
        if acquire is not None:
            return acquire
        if legal_take is not None:
            return legal_take
        legal = st.legal_actions()
        # harmless fallbacks first: a level-1 piece, a same-level exchange, a step down (revised)
        for test in (
            lambda a: isinstance(a, TakePiece),
            lambda a: isinstance(a, Upgrade) and LEVEL[a.old] == LEVEL[a.new],
            lambda a: isinstance(a, Upgrade) and LEVEL[a.old] > LEVEL[a.new],
            lambda a: isinstance(a, Upgrade | Pass),
        ):
            for a in legal:
                if test(a):
                    return a
        return next((a for a in legal if not isinstance(a, Master)), legal[0])

    def _plan_step(self, st: ProjectLState, plan: TurnPlan) -> Action | None:
        """Turn the planner's first abstract step into concrete engine actions."""
        words = plan.actions[0].replace(",", "").split()
        if words[0] == "take":
            return PIECE
        if words[0] == "upgrade":
            return Upgrade(SHAPE_INDEX[words[1]], SHAPE_INDEX[words[3]])
        # which multiset finishes each targeted puzzle: recompute from the planner's steps
        need: dict[int, list[int]] = {i: [0] * NSHAPES for i in plan.puzzles}
        for step in plan.actions:
            w = step.replace(",", "").split()
            if w[0] == "place":
                need[int(w[3])][SHAPE_INDEX[w[1]]] += 1
            elif w[0] == "master":
                for k in range(1, len(w), 3):
                    need[int(w[k + 2])][SHAPE_INDEX[w[k]]] += 1
        if words[0] == "place":
            i, s = int(words[3]), SHAPE_INDEX[words[1]]
            mask = self._place_from(st, i, s, need[i])
            return None if mask is None else Place(i, s, mask)
        if words[0] == "master":
            actions: list[Action] = [MASTER]
            for k in range(1, len(words), 3):
                s, i = SHAPE_INDEX[words[k]], int(words[k + 2])
                mask = self._place_from(st, i, s, need[i])
                if mask is None:
                    return None
                actions.append(MasterPlace(i, s, mask))
            actions.append(MASTER_END)
            return self._set_plan(st, actions)
        return None

    @staticmethod
    def _place_from(st: ProjectLState, slot: int, s: int, multiset: list[int]) -> int | None:
        """The cells of a shape-``s`` piece in a filling of puzzle ``slot`` by ``multiset``."""
        empty = st.puzzles[st.player][slot][1]
        way = Checker(empty, multiset).one_way()
        if way is None:
            return None
        for shape, mask in way:
            if shape == s:
                return mask
        return None

    def _best_take(self, st: ProjectLState) -> Take | None:
        p = st.player
        if len(st.puzzles[p]) >= 4:
            return None
        stock_area = sum(n * LEVEL[s] for s, n in enumerate(st.stock[p]))
        late = st.trigger_round >= 0
        best, best_value = None, -1.0
        rows = [("G", st.white_row)] if st.solo else [("W", st.white_row), ("B", st.black_row)]
        for row, cards in rows:
            for i, c in enumerate(cards):
                if c < 0:
                    continue
                if row == "B" and st.revised and st.trigger_round >= 0 and st.blacks_taken:
                    continue
                value = _card_value(st.cards[c], stock_area, late)
                if st.solo and st.locks[i % 3] == 0:
                    # solo: the opponent takes the best card of the unlocked columns next; deny it
                    value += self.solo_denial * st.cards[c].points / 5
                if value > best_value:
                    best, best_value = Take(row, i), value
        return best

    def _progress_placement(self, st: ProjectLState) -> Action | None:
        """A piece from a filling of one puzzle by the current stock (the most advanced puzzle first)."""
        p = st.player
        stock = st.stock[p]
        options = []
        for slot, (_, empty, _) in enumerate(st.puzzles[p]):
            way = quick_way(empty, stock)
            if way:
                options.append((empty.bit_count(), slot, way))
        if not options:
            return None
        options.sort()
        if len(options) >= 2 and not st.master_used:
            actions: list[Action] = [MASTER]
            used = [0] * NSHAPES
            for _, slot, way in options:
                s, mask = max(way, key=lambda sm: LEVEL[sm[0]])
                if used[s] < stock[s]:
                    used[s] += 1
                    actions.append(MasterPlace(slot, s, mask))
            if len(actions) >= 3:
                actions.append(MASTER_END)
                return self._set_plan(st, actions)
        _, slot, way = options[0]
        s, mask = max(way, key=lambda sm: LEVEL[sm[0]])
        return Place(slot, s, mask)

    def _acquire(self, st: ProjectLState) -> Action | None:
        """Upgrade toward the shapes the easiest puzzle is missing, else take a level-1 piece."""
        p = st.player
        if st.puzzles[p]:
            up = _upgrade_toward_easiest(st, p)
            if up is not None:
                return up
        if st.supply[0] > 0:
            return PIECE
        if st.puzzles[p]:
            return None  # climbing blindly can leave only big pieces for small holes (no way down in classic)
        # nothing open yet: grow the smallest piece one level
        stock = st.stock[p]
        for s in sorted(range(NSHAPES), key=lambda s: LEVEL[s]):
            if stock[s]:
                for t in SHAPES_BY_LEVEL.get(LEVEL[s] + 1, ()):
                    if st.supply[t] > 0:
                        return Upgrade(s, t)
        return None

    def _touch(self, st: ProjectLState) -> Action:
        """Finishing touches: complete a puzzle only if it gains more than the pieces cost."""
        p = st.player
        stock = st.stock[p]
        for slot, (c, empty, _) in enumerate(st.puzzles[p]):
            way = quick_way(empty, stock)
            # completing avoids -points and gains +points, at -1 per piece
            if way and 2 * st.cards[c].points > len(way):
                s, mask = way[0]
                return Touch(slot, s, mask)
        return DONE


# --------------------------------------------------------------------------
# MCTS: hooks for the generic solvers.mcts.MCTSBot
# --------------------------------------------------------------------------

#: Default iterations per decision of ``mcts`` (``mcts:N`` for another budget).
MCTS_ITERATIONS = 24


def _upgrade_toward_easiest(st: ProjectLState, p: int) -> Upgrade | None:
    """An upgrade toward the shapes missing from one filling of player ``p``'s easiest puzzle (fewest
    empty cells): a spare piece straight into a missing shape, else one level up toward the biggest."""
    stock = st.stock[p]
    _, empty, _ = min(st.puzzles[p], key=lambda t: t[1].bit_count())
    generous = [n + 4 for n in stock]
    way = quick_way(empty, generous) or ()
    want = [0] * NSHAPES
    for s, _ in way:
        want[s] += 1
    deficit = [max(0, want[s] - stock[s]) for s in range(NSHAPES)]
    spare = [max(0, stock[s] - want[s]) for s in range(NSHAPES)]
    # upgrade a spare piece straight into a missing shape
    for s in sorted(range(NSHAPES), key=lambda s: -LEVEL[s]):
        if not spare[s]:
            continue
        for t in upgrade_targets(s, st.revised):
            if deficit[t] and st.supply[t] > 0 and LEVEL[t] >= LEVEL[s]:
                return Upgrade(s, t)
    # or climb one level toward a missing bigger shape
    missing = [t for t in range(NSHAPES) if deficit[t]]
    if missing:
        target_level = max(LEVEL[t] for t in missing)
        for s in range(NSHAPES):
            if spare[s] and LEVEL[s] < target_level:
                ups = [t for t in SHAPES_BY_LEVEL.get(LEVEL[s] + 1, ()) if st.supply[t] > 0]
                if ups:
                    return Upgrade(s, ups[0])
    return None


def evaluate(st: ProjectLState, p: int) -> float:
    """Heuristic value of a position for seat ``p``: its value minus the best opponent's, in (0, 1).

    At the end of the game it is the true return.  In solo the opponent is the
    automated player's score.
    """
    if st.phase == "over":
        return st.returns()[p]
    scores = st.scores()

    def value(q: int) -> float:
        v = scores[q] + 0.12 * sum(n * LEVEL[s] for s, n in enumerate(st.stock[q]))
        for c, empty, _ in st.puzzles[q]:
            card = st.cards[c]
            frac = 1 - empty.bit_count() / card.area
            v += (card.points + 0.4 * card.reward_level) * frac * frac * 0.8
            if st.revised:
                v -= 0.3 * card.points * (1 - frac)
        return v

    mine = value(p)
    if st.solo:
        other = float(st.opponent_score()) + 1.5
    else:
        other = max(value(q) for q in range(st.num_players) if q != p) if st.num_players > 1 else 0.0
    return 1.0 / (1.0 + math.exp(-(mine - other) / 3.0))


def candidate_actions(st: ProjectLState, rng: random.Random, greedy: GreedyBot,
                      max_candidates: int = 6) -> list[Action]:
    """The greedy action plus distinct plausible alternatives; the greedy action alone where search is moot.

    A pure function of the position (the search asks again at every visit).

    Only the greedy action is returned in the middle of a Master action, during
    finishing touches, while a greedy plan is under way, and when a puzzle can
    be finished this turn.
    """
    first = greedy.choose(st, rng)
    if st.in_master or st.phase != "play" or isinstance(first, MasterPlace | MasterEnd):
        return [first]
    hand = _hand(st, st.player)
    if hand and finishable_this_turn(hand, st.stock[st.player], st.supply, st.actions_left, not st.master_used,
                                     st.revised):
        return [first]
    out: list[Action] = [first]
    legal = st.legal_actions()
    late = st.trigger_round >= 0
    takes = [a for a in legal if isinstance(a, Take)]
    takes.sort(key=lambda a: -_card_value(st.cards[(st.black_row if a.row == "B" else st.white_row)[a.slot]], 0, late))
    others: list[Action] = list(takes[:3])
    others += [a for a in legal if isinstance(a, TakePiece)]
    p = st.player
    for slot, (_, empty, _) in enumerate(st.puzzles[p]):
        way = quick_way(empty, st.stock[p])
        if way:
            s, mask = max(way, key=lambda sm: LEVEL[sm[0]])
            others.append(Place(slot, s, mask))
    ups = [a for a in legal if isinstance(a, Upgrade) and LEVEL[a.new] > LEVEL[a.old]]
    random.Random(len(st.history) * 8 + p).shuffle(ups)  # a pure function of the position
    others += ups[:2]
    for a in others:
        if a not in out and not isinstance(a, Master | MasterPlace | MasterEnd):
            out.append(a)
        if len(out) >= max_candidates:
            break
    return out


class GreedyCandidates:
    """``candidates`` hook: :func:`candidate_actions` with one greedy planner for the whole search."""

    def __init__(self, max_candidates: int = 6) -> None:
        self.greedy = GreedyBot()
        self.max_candidates = max_candidates

    def __call__(self, state: GameState[Any], rng: random.Random) -> list[Action]:
        assert isinstance(state, ProjectLState)
        return candidate_actions(state, rng, self.greedy, self.max_candidates)


class HorizonRollout:
    """``rollout`` hook: greedy players for ``horizon_turns`` turns each, then :func:`evaluate` for every seat."""

    def __init__(self, horizon_turns: int = 2) -> None:
        self.horizon_turns = horizon_turns

    def __call__(self, state: GameState[Any], rng: random.Random) -> list[float]:
        assert isinstance(state, ProjectLState)
        sim, bot = state, GreedyBot()
        turns = 0
        last = (sim.round, sim.player)
        while not sim.is_terminal():
            sim.apply(bot.choose(sim, rng))
            now = (sim.round, sim.player)
            if now != last:
                turns += 1
                last = now
                if turns > self.horizon_turns * sim.num_players:
                    break
        return [evaluate(sim, p) for p in range(sim.num_players)]


def mcts_bot(iterations: int | None = MCTS_ITERATIONS, seconds: float | None = None, horizon_turns: int = 2,
             max_candidates: int = 6, exploration: float = 0.4, name: str = "mcts") -> MCTSBot[Action]:
    """The generic MCTS with Project L's candidates and horizon rollout, searching redrawn decks."""
    return MCTSBot(iterations=iterations, seconds=seconds, exploration=exploration,
                   rollout=HorizonRollout(horizon_turns), candidates=GreedyCandidates(max_candidates),
                   determinize=True, name=name)


def _mcts(budget: Budget | None) -> Bot[Any]:
    if budget is None:
        return mcts_bot()
    return mcts_bot(iterations=budget.count, seconds=budget.seconds, name=f"mcts:{budget}")


BOTS: dict[str, BotFactory] = {
    "greedy": lambda budget: GreedyBot(),
    "mcts": _mcts,
}
