"""Generic Monte Carlo tree search (UCT with max^n values) over the :mod:`puzzles.game` protocol.

Game-agnostic: it only calls ``clone``, ``current_player``, ``legal_actions``,
``apply``, ``sample_chance`` and ``returns``.  Every node keeps the summed
*vector* of returns (one entry per seat); at a decision node the seat to move
picks the child that maximises its own mean return plus the UCB1 bonus
(max^n), so it works for any number of players and for team games whose
``returns`` give teammates equal utility.  Chance nodes are sampled with the
search's ``rng`` (open loop: children keyed by outcome).

Hooks: ``rollout(state, rng) -> returns`` replaces the default uniform random
playout (e.g. a compiled, weighted playout); ``budget`` is a number of
iterations and/or a time limit in seconds.  The search is a pure function of
the ``rng`` it is given (when no time limit cuts it short).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from puzzles.game import CHANCE, Action, GameState

Rollout = Callable[[GameState, random.Random], list[float]]


def random_rollout(state: GameState, rng: random.Random) -> list[float]:
    """Default playout: uniformly random actions (chance sampled) to the end; the final returns."""
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    return state.returns()


@dataclass
class Node:
    """Search-tree node: visit count, summed returns per seat, children by action."""

    mover: int  # seat that chose the action leading here (-1 at the root / after chance)
    visits: int = 0
    totals: list[float] = field(default_factory=list)
    children: dict[Action, Node] = field(default_factory=dict)
    untried: list[Action] | None = None

    def mean(self, seat: int) -> float:
        return self.totals[seat] / self.visits if self.visits else 0.0


@dataclass
class SearchResult:
    """The chosen action and the root statistics (visits and mean returns per action)."""

    action: Action
    iterations: int
    seconds: float
    stats: list[tuple[Action, int, float]]  # (action, visits, mean return for the seat to move)


class MCTSBot:
    """UCT / max^n MCTS bot: ``choose(state, rng)`` searches and plays the most visited action."""

    def __init__(
        self,
        iterations: int | None = 1000,
        seconds: float | None = None,
        exploration: float = 0.7,
        rollout: Rollout | None = None,
        name: str = "mcts",
    ) -> None:
        if iterations is None and seconds is None:
            raise ValueError("give an iteration budget, a time budget, or both")
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.rollout = rollout or random_rollout
        self.name = name
        self.last: SearchResult | None = None

    def choose(self, state: GameState, rng: random.Random) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            self.last = SearchResult(legal[0], 0, 0.0, [(legal[0], 0, 0.0)])
            return legal[0]
        return self.search(state, rng).action

    def search(self, root_state: GameState, rng: random.Random) -> SearchResult:
        """Run the search from ``root_state`` (not modified) and return its result."""
        start = time.perf_counter()
        deadline = start + self.seconds if self.seconds is not None else math.inf
        root = Node(mover=-1)
        me = root_state.current_player()
        done = 0
        while (self.iterations is None or done < self.iterations) and time.perf_counter() < deadline:
            self._iterate(root, root_state.clone(), rng)
            done += 1
        best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].mean(me)))
        stats = sorted(((a, n.visits, n.mean(me)) for a, n in root.children.items()), key=lambda x: -x[1])
        self.last = SearchResult(best[0], done, time.perf_counter() - start, stats)
        return self.last

    def _iterate(self, root: Node, state: GameState, rng: random.Random) -> None:
        node, path = root, [root]
        c = self.exploration
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                outcome = state.sample_chance(rng)
                state.apply(outcome)
                node = node.children.setdefault(outcome, Node(mover=-1))
                path.append(node)
                continue
            if node.untried is None:
                node.untried = state.legal_actions()
                rng.shuffle(node.untried)
            if node.untried:
                action = node.untried.pop()
                state.apply(action)
                child = node.children[action] = Node(mover=player)
                path.append(child)
                break
            log_n = math.log(node.visits)
            best, best_value = None, -math.inf
            for action, child in node.children.items():
                value = child.totals[player] / child.visits + c * math.sqrt(log_n / child.visits)
                if value > best_value:
                    best, best_value = action, value
            state.apply(best)
            node = node.children[best]
            path.append(node)
        returns = state.returns() if state.is_terminal() else self.rollout(state, rng)
        for n in path:
            n.visits += 1
            if not n.totals:
                n.totals = list(returns)
            else:
                for i, r in enumerate(returns):
                    n.totals[i] += r
