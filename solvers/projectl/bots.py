"""Project L bots: random, greedy (completion-checker driven) and a small MCTS.

* ``RandomBot`` (generic, :mod:`solvers.bots`): uniform over the legal actions.
* :class:`GreedyBot`: every action, asks the completion checker's turn planner
  which puzzles it can finish with the actions left this turn (upgrades and
  Master included) and carries out the most valuable plan; otherwise it places
  a piece that belongs to a filling of one of its puzzles from its own stock,
  takes the most promising puzzle, or upgrades toward the shapes its easiest
  puzzle is missing.  In solo it also values denying the automated opponent the
  high-point cards of the unlocked columns (``solo_denial``).
* :class:`MCTSBot`: UCB1 over a handful of candidate actions (the greedy
  choice and its alternatives: other puzzles to take, other pieces/puzzles to
  place, other upgrades), each iteration playing the rest of the game with
  greedy players for a short horizon and scoring the position with a heuristic
  (points, stock, progress on unfinished puzzles) relative to the best
  opponent.  The tree is one level deep with greedy rollouts: the search is
  a policy-improvement step on top of the greedy policy.  (A generic MCTS over
  every legal action is hopeless here: a single position has hundreds of
  placements.)
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from puzzles.game import GameState
from puzzles.projectl.cards import LEVEL, NSHAPES, SHAPES_BY_LEVEL
from puzzles.projectl.engine import ProjectLState, upgrade_targets
from solvers.bots import RandomBot
from solvers.projectl.checker import Checker, PuzzleInHand, finishable_this_turn, quick_way

__all__ = ["RandomBot", "GreedyBot", "MCTSBot", "make_bot", "BOT_NAMES"]


def _hand(st: ProjectLState, p: int) -> list[PuzzleInHand]:
    out = []
    for c, empty, pieces in st.puzzles[p]:
        placed = [0] * NSHAPES
        for s, _ in pieces:
            placed[s] += 1
        card = st.cards[c]
        out.append(PuzzleInHand(empty, placed, card.reward_index, card.points, str(len(out))))
    return out


def _card_value(card, stock_area: int, late: bool) -> float:
    """How attractive a face-up puzzle is: points and reward per cell, penalised when out of reach."""
    reach = max(0, card.area - stock_area)
    reward = 0.0 if late else 0.9 * card.reward_level
    return (card.points * 1.6 + reward + 0.5) / (card.area + 1.5 * reach + 1)


class GreedyBot:
    """Finishes what the checker says it can finish this turn; otherwise builds toward it."""

    name = "greedy"

    def __init__(self, max_open: int = 4, solo_denial: float = 1.0) -> None:
        self.max_open = max_open
        self.solo_denial = solo_denial
        self._plan: list[tuple] = []
        self._plan_key: tuple | None = None

    # -- plan bookkeeping ---------------------------------------------------
    def _key(self, st: ProjectLState) -> tuple:
        return (id(st), len(st.history), st.player)

    def choose(self, st: GameState, rng: random.Random) -> tuple:
        assert isinstance(st, ProjectLState)
        if self._plan and self._plan_key == self._key(st):
            action = self._plan.pop(0)
            self._plan_key = (id(st), len(st.history) + 1, st.player)
            try:
                st.check(action)
                if not self._plan:
                    self._plan_key = None
                return action
            except Exception:
                self._plan, self._plan_key = [], None
        self._plan, self._plan_key = [], None
        return self.decide(st, rng)

    def _set_plan(self, st: ProjectLState, actions: list[tuple]) -> tuple:
        first, rest = actions[0], actions[1:]
        self._plan = rest
        self._plan_key = (id(st), len(st.history) + 1, st.player) if rest else None
        return first

    # -- decisions ----------------------------------------------------------
    def decide(self, st: ProjectLState, rng: random.Random) -> tuple:
        p = st.player
        if st.phase == "touch":
            return self._touch(st)
        if st.in_master:
            return ("mend",)
        stock = st.stock[p]
        hand = _hand(st, p)
        if hand:
            plans = finishable_this_turn(
                hand, stock, st.supply, st.actions_left, not st.master_used, st.revised
            )
            if plans:
                best = max(plans, key=lambda pl: (pl.points + 0.3 * sum(LEVEL[hand[i].reward] for i in pl.puzzles) + 0.1 * len(pl.puzzles), -len(pl.actions)))
                action = self._plan_step(st, hand, best)
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
            lambda a: a[0] == "piece",
            lambda a: a[0] == "upgrade" and LEVEL[a[1]] == LEVEL[a[2]],
            lambda a: a[0] == "upgrade" and LEVEL[a[1]] > LEVEL[a[2]],
            lambda a: a[0] in ("upgrade", "pass"),
        ):
            for a in legal:
                if test(a):
                    return a
        return next((a for a in legal if a[0] != "master"), legal[0])

    def _plan_step(self, st: ProjectLState, hand: list[PuzzleInHand], plan) -> tuple | None:
        """Turn the planner's first abstract step into concrete engine actions."""
        p = st.player
        step = plan.actions[0]
        words = step.replace(",", "").split()
        if words[0] == "take":
            return ("piece",)
        if words[0] == "upgrade":
            from puzzles.projectl.cards import SHAPE_INDEX

            return ("upgrade", SHAPE_INDEX[words[1]], SHAPE_INDEX[words[3]])
        # which multiset finishes each targeted puzzle: recompute from the planner's steps
        from puzzles.projectl.cards import SHAPE_INDEX

        need: dict[int, list[int]] = {i: [0] * NSHAPES for i in plan.puzzles}
        for s in plan.actions:
            w = s.replace(",", "").split()
            if w[0] == "place":
                need[int(w[3])][SHAPE_INDEX[w[1]]] += 1
            elif w[0] == "master":
                for k in range(1, len(w), 3):
                    need[int(w[k + 2])][SHAPE_INDEX[w[k]]] += 1
        if words[0] == "place":
            i, s = int(words[3]), SHAPE_INDEX[words[1]]
            return self._place_from(st, i, s, need[i], "place")
        if words[0] == "master":
            actions: list[tuple] = [("master",)]
            for k in range(1, len(words), 3):
                s, i = SHAPE_INDEX[words[k]], int(words[k + 2])
                a = self._place_from(st, i, s, need[i], "mplace")
                if a is None:
                    return None
                actions.append(a)
            actions.append(("mend",))
            return self._set_plan(st, actions)
        return None

    @staticmethod
    def _place_from(st: ProjectLState, slot: int, s: int, multiset: list[int], kind: str) -> tuple | None:
        empty = st.puzzles[st.player][slot][1]
        way = Checker(empty, multiset).one_way()
        if way is None:
            return None
        for shape, mask in way:
            if shape == s:
                return (kind, slot, s, mask)
        return None

    def _best_take(self, st: ProjectLState) -> tuple | None:
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
                    best, best_value = ("take", row, i), value
        return best

    def _progress_placement(self, st: ProjectLState) -> tuple | None:
        """A piece from a filling of one puzzle by the current stock (the most advanced puzzle first)."""
        p = st.player
        stock = st.stock[p]
        options = []
        for slot, (c, empty, _) in enumerate(st.puzzles[p]):
            way = quick_way(empty, stock)
            if way:
                options.append((empty.bit_count(), slot, way))
        if not options:
            return None
        options.sort()
        if len(options) >= 2 and not st.master_used:
            actions: list[tuple] = [("master",)]
            used = [0] * NSHAPES
            for _, slot, way in options:
                s, mask = max(way, key=lambda sm: LEVEL[sm[0]])
                if used[s] < stock[s]:
                    used[s] += 1
                    actions.append(("mplace", slot, s, mask))
            if len(actions) >= 3:
                actions.append(("mend",))
                return self._set_plan(st, actions)
        _, slot, way = options[0]
        s, mask = max(way, key=lambda sm: LEVEL[sm[0]])
        return ("place", slot, s, mask)

    def _acquire(self, st: ProjectLState) -> tuple | None:
        """Upgrade toward the shapes the easiest puzzle is missing, else take a level-1 piece."""
        p = st.player
        stock = st.stock[p]
        if st.puzzles[p]:
            c, empty, _ = min(st.puzzles[p], key=lambda t: t[1].bit_count())
            generous = [n + 4 for n in stock]
            way = quick_way(empty, generous) or []
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
                        return ("upgrade", s, t)
            # or climb one level toward a missing bigger shape
            missing = [t for t in range(NSHAPES) if deficit[t]]
            if missing:
                target_level = max(LEVEL[t] for t in missing)
                for s in range(NSHAPES):
                    if spare[s] and LEVEL[s] < target_level:
                        ups = [t for t in SHAPES_BY_LEVEL.get(LEVEL[s] + 1, ()) if st.supply[t] > 0]
                        if ups:
                            return ("upgrade", s, ups[0])
        if st.supply[0] > 0:
            return ("piece",)
        if st.puzzles[p]:
            return None  # climbing blindly can leave only big pieces for small holes (no way down in classic)
        # nothing open yet: grow the smallest piece one level
        for s in sorted(range(NSHAPES), key=lambda s: LEVEL[s]):
            if stock[s]:
                for t in SHAPES_BY_LEVEL.get(LEVEL[s] + 1, ()):
                    if st.supply[t] > 0:
                        return ("upgrade", s, t)
        return None

    def _touch(self, st: ProjectLState) -> tuple:
        """Finishing touches: complete a puzzle only if it gains more than the pieces cost."""
        p = st.player
        stock = st.stock[p]
        for slot, (c, empty, _) in enumerate(st.puzzles[p]):
            way = quick_way(empty, stock)
            # completing avoids -points and gains +points, at -1 per piece
            if way and 2 * st.cards[c].points > len(way):
                s, mask = way[0]
                return ("touch", slot, s, mask)
        return ("done",)


# --------------------------------------------------------------------------
# MCTS
# --------------------------------------------------------------------------


def evaluate(st: ProjectLState, p: int) -> float:
    """Heuristic value of a position for seat ``p``: its value minus the best opponent's, in (0, 1)."""

    def value(q: int) -> float:
        v = float(st.scores()[q]) if st.num_players > 1 or not st.solo else float(st.scores()[0])
        if st.phase != "over":
            v += 0.12 * sum(n * LEVEL[s] for s, n in enumerate(st.stock[q]))
            for c, empty, _ in st.puzzles[q]:
                card = st.cards[c]
                frac = 1 - empty.bit_count() / card.area
                v += (card.points + 0.4 * card.reward_level) * frac * frac * 0.8
                if st.revised:
                    v -= 0.3 * card.points * (1 - frac)
        return v

    mine = value(p)
    if st.solo:
        other = float(st.opponent_score()) + (0.0 if st.phase == "over" else 1.5)
    else:
        other = max(value(q) for q in range(st.num_players) if q != p) if st.num_players > 1 else 0.0
    if st.phase == "over":
        return st.returns()[p]
    return 1.0 / (1.0 + math.exp(-(mine - other) / 3.0))


class MCTSBot:
    """UCB1 over candidate actions with short greedy rollouts and a heuristic leaf value."""

    name = "mcts"

    def __init__(self, iterations: int = 24, horizon_turns: int = 2, max_candidates: int = 6, exploration: float = 0.4) -> None:
        self.iterations = iterations
        self.horizon_turns = horizon_turns
        self.max_candidates = max_candidates
        self.exploration = exploration
        self.greedy = GreedyBot()
        self._rollout_bot = GreedyBot()

    def candidates(self, st: ProjectLState, rng: random.Random) -> list[tuple]:
        """The greedy action plus distinct plausible alternatives."""
        first = self.greedy.choose(st, rng)
        out = [first]
        legal = st.legal_actions()
        takes = [a for a in legal if a[0] == "take"]
        takes.sort(key=lambda a: -_card_value(st.cards[(st.black_row if a[1] == "B" else st.white_row)[a[2]]], 0, st.trigger_round >= 0))
        others = takes[:3]
        others += [a for a in legal if a[0] == "piece"]
        p = st.player
        for slot, (c, empty, _) in enumerate(st.puzzles[p]):
            way = quick_way(empty, st.stock[p])
            if way:
                s, mask = max(way, key=lambda sm: LEVEL[sm[0]])
                others.append(("place", slot, s, mask))
        ups = [a for a in legal if a[0] == "upgrade" and LEVEL[a[2]] > LEVEL[a[1]]]
        rng.shuffle(ups)
        others += ups[:2]
        for a in others:
            if a not in out and a[0] not in ("master", "mplace", "mend"):
                out.append(a)
            if len(out) >= self.max_candidates:
                break
        return out

    def choose(self, st: GameState, rng: random.Random) -> tuple:
        assert isinstance(st, ProjectLState)
        if st.in_master or st.phase != "play":
            return self.greedy.choose(st, rng)
        # keep executing a multi-step greedy plan (Master) without searching in the middle of it
        if self.greedy._plan and self.greedy._plan_key == self.greedy._key(st):
            return self.greedy.choose(st, rng)
        # obvious: something can be finished right now
        hand = _hand(st, st.player)
        if hand and finishable_this_turn(hand, st.stock[st.player], st.supply, st.actions_left, not st.master_used, st.revised):
            return self.greedy.choose(st, rng)
        cands = self.candidates(st, rng)
        plan_after_first = (list(self.greedy._plan), self.greedy._plan_key)
        if len(cands) == 1:
            return cands[0]
        p = st.player
        n = [0] * len(cands)
        w = [0.0] * len(cands)
        for it in range(max(self.iterations, len(cands))):  # every candidate at least once
            if it < len(cands):
                k = it
            else:
                total = sum(n)
                k = max(range(len(cands)), key=lambda j: w[j] / n[j] + self.exploration * math.sqrt(math.log(total) / n[j]))
            sim = st.clone()
            sim.apply(cands[k])
            w[k] += self._rollout(sim, p, rng)
            n[k] += 1
        best = max(range(len(cands)), key=lambda j: (w[j] / n[j], n[j]))
        if best == 0:
            self.greedy._plan, self.greedy._plan_key = plan_after_first
        else:
            self.greedy._plan, self.greedy._plan_key = [], None
        return cands[best]

    def _rollout(self, sim: ProjectLState, p: int, rng: random.Random) -> float:
        bot = GreedyBot()
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
        return evaluate(sim, p)


BOT_NAMES = ("random", "greedy", "mcts")


def make_bot(spec: str):
    """``random``, ``greedy``, ``mcts`` or ``mcts:ITERATIONS``."""
    name, _, arg = spec.strip().lower().partition(":")
    if name == "random":
        return RandomBot()
    if name == "greedy":
        return GreedyBot()
    if name == "mcts":
        return MCTSBot(iterations=int(arg)) if arg else MCTSBot()
    raise ValueError(f"unknown bot {spec!r}; choose from {', '.join(BOT_NAMES)} (mcts:N for N iterations)")


def play_match(state: ProjectLState, bots: Sequence, seed: int) -> ProjectLState:
    """Play one seeded game in place (bots indexed by seat)."""
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(bots[state.player].choose(state, rng))
    return state


@dataclass
class SeriesTotals:
    """Per-bot sums of a playout series; ``merge`` adds another range of games (any order)."""

    wins: list[float]
    score_sum: list[float]
    opponent_sum: float = 0.0
    played: int = 0

    @classmethod
    def empty(cls, bots: int) -> SeriesTotals:
        return cls([0.0] * bots, [0.0] * bots)

    def merge(self, other: SeriesTotals) -> SeriesTotals:
        self.wins = [a + b for a, b in zip(self.wins, other.wins)]
        self.score_sum = [a + b for a, b in zip(self.score_sum, other.score_sum)]
        self.opponent_sum += other.opponent_sum
        self.played += other.played
        return self


def series_totals(
    bot_specs: Sequence[str],
    start: int,
    stop: int,
    seed: int = 0,
    rules: str = "classic",
    solo: bool = False,
    difficulty: str = "normal",
    cards=None,
    progress=None,
) -> SeriesTotals:
    """Play games ``start .. stop-1`` of a series.  Game ``i`` uses seed ``game_seed(seed, i)`` and
    seats the bots shifted by ``i``, so any split of the range gives the same totals."""
    from puzzles.projectl.engine import new_game
    from solvers.playout import game_seed

    n = 1 if solo else len(bot_specs)
    if solo and len(bot_specs) != 1:
        raise ValueError("the solo variant takes exactly one bot")
    totals = SeriesTotals.empty(n)
    for i in range(start, stop):
        s = game_seed(seed, i)
        order = [(k + i % n) % n for k in range(n)]  # seat -> bot index
        bots = [make_bot(bot_specs[b]) for b in order]
        st = new_game(n, s, rules=rules, solo=solo, difficulty=difficulty, cards=cards)
        play_match(st, bots, s)
        ret, sc = st.returns(), st.scores()
        for seat, b in enumerate(order):
            totals.wins[b] += ret[seat]
            totals.score_sum[b] += sc[seat]
        if solo:
            totals.opponent_sum += st.opponent_score()
        totals.played += 1
        if progress:
            progress(1)
    return totals


def summarize_series(totals: SeriesTotals, bot_specs: Sequence[str], rules: str, solo: bool, difficulty: str,
                     interrupted: bool = False) -> dict:
    """Per-bot win rates (95% Wilson) and mean scores of a series, JSON-ready."""
    from solvers.playout import wilson_interval

    played = totals.played
    bots_out = []
    for b, spec in enumerate(bot_specs[: len(totals.wins)]):
        low, high = wilson_interval(totals.wins[b], played)
        bots_out.append({
            "seat_bot": spec.strip().lower(),
            "win_rate": totals.wins[b] / played if played else 0.0,
            "win_ci95": [round(low, 4), round(high, 4)],
            "mean_score": totals.score_sum[b] / played if played else 0.0,
        })
    out = {"games": played, "rules": rules, "solo": solo, "bots": bots_out, "interrupted": interrupted}
    if solo:
        out["difficulty"] = difficulty
        out["opponent_mean_score"] = totals.opponent_sum / played if played else 0.0
    return out


def series_range(arguments: tuple, start: int, stop: int) -> SeriesTotals:
    """Picklable entry point for :func:`solvers.parallel.run_ranges`."""
    bot_specs, seed, rules, solo, difficulty, cards = arguments
    return series_totals(bot_specs, start, stop, seed, rules, solo, difficulty, cards)


def playout_series(
    bot_specs: Sequence[str],
    games: int,
    seed: int = 0,
    rules: str = "classic",
    solo: bool = False,
    difficulty: str = "normal",
    cards=None,
    progress=None,
) -> dict:
    """Seeded games with seats rotated each game; per-bot win rates (95% Wilson) and mean scores.

    Game ``i`` uses seed ``game_seed(seed, i)`` and seats the bots shifted by ``i``, so every
    bot plays every seat equally often.  A KeyboardInterrupt stops early: the games finished
    so far are reported (``"interrupted": true``).
    """
    n = 1 if solo else len(bot_specs)
    totals = SeriesTotals.empty(n)
    interrupted = False
    try:
        for i in range(games):
            totals.merge(series_totals(bot_specs, i, i + 1, seed, rules, solo, difficulty, cards))
            if progress:
                progress(1)
    except KeyboardInterrupt:
        interrupted = True
    return summarize_series(totals, bot_specs, rules, solo, difficulty, interrupted)
