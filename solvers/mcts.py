"""Generic Monte Carlo tree search (UCT with max^n values) over the :mod:`puzzles.game` protocol.

Game-agnostic: it calls only ``clone``, ``resample``, ``current_player``,
``legal_actions``, ``apply``, ``sample_chance`` and ``returns``.  Every node keeps
the summed *vector* of returns (one entry per seat); at a decision node the
seat to move picks the child that maximises its own mean return plus the UCB1
bonus (max^n), so it works for any number of players.  Chance nodes are
sampled with the search's ``rng`` (open loop: children keyed by outcome).

Hooks, so that each game's MCTS is a configuration of this one:

* ``rollout(state, rng) -> returns``: the playout (default: uniform random to
  the end); a game may cut it at a horizon and return an evaluation instead.
* ``candidates(state, rng) -> actions``: the actions searched at a decision
  node (default: all legal actions), e.g. a game's pruned move list.
* ``prior(state, action) -> float`` in [0, 1] with ``prior_weight``: a
  progressive bias ``weight * prior / (1 + visits)`` added to a child's score.
* ``determinize``: search from ``state.resample(me, rng)``, a fresh draw of
  everything the mover cannot see, at every iteration (one tree over all draws,
  as single-observer information-set MCTS; a child is only chosen when its
  action is legal in the current draw).  On by default for a game with hidden
  information, so the bot never reads what its seat cannot see.  The
  ``candidates`` hook is called once per node visit and must depend on the
  state (and rng) alone.

``budget`` is a number of iterations and/or a time limit in seconds.  The search
is a pure function of the ``rng`` it is given when no time limit cuts it short.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic

from puzzles.game import CHANCE, A, GameState, Information

Rollout = Callable[[GameState[Any], random.Random], list[float]]
Candidates = Callable[[GameState[Any], random.Random], list[Any]]
Prior = Callable[[GameState[Any], Any], float]


def random_rollout(state: GameState[Any], rng: random.Random) -> list[float]:
    """Default playout: uniformly random actions (chance sampled) to the end; the final returns."""
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    return state.returns()


@dataclass
class Node(Generic[A]):
    """Search-tree node: visit count, summed returns per seat, children by action."""

    visits: int = 0
    totals: list[float] = field(default_factory=list)
    children: dict[A, Node[A]] = field(default_factory=dict)
    prior: float = 0.0
    untried: list[A] | None = None  # perfect information only: actions not expanded yet

    def mean(self, seat: int) -> float:
        return self.totals[seat] / self.visits if self.visits else 0.0


@dataclass
class SearchResult(Generic[A]):
    """The chosen action and the root statistics (visits and mean returns per action)."""

    action: A
    iterations: int
    seconds: float
    stats: list[tuple[A, int, float]]  # (action, visits, mean return for the seat to move)


class MCTSBot(Generic[A]):
    """UCT / max^n MCTS bot: ``choose(state, rng)`` searches and plays the most visited action."""

    def __init__(
        self,
        iterations: int | None = 1000,
        seconds: float | None = None,
        exploration: float = 0.7,
        rollout: Rollout | None = None,
        candidates: Candidates | None = None,
        prior: Prior | None = None,
        prior_weight: float = 1.0,
        determinize: bool | None = None,
        name: str = "mcts",
    ) -> None:
        if iterations is None and seconds is None:
            raise ValueError("give an iteration budget, a time budget, or both")
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.rollout = rollout or random_rollout
        self.candidates = candidates
        self.prior = prior
        self.prior_weight = prior_weight
        self.determinize = determinize
        self.name = name
        self.last: SearchResult[A] | None = None

    def choose(self, state: GameState[A], rng: random.Random) -> A:
        legal = self._actions(state, rng)
        if len(legal) == 1:
            self.last = SearchResult(legal[0], 0, 0.0, [(legal[0], 0, 0.0)])
            return legal[0]
        return self.search(state, rng).action

    def search(self, root_state: GameState[A], rng: random.Random) -> SearchResult[A]:
        """Run the search from ``root_state`` (not modified) and return its result."""
        start = time.perf_counter()
        deadline = start + self.seconds if self.seconds is not None else math.inf
        me = root_state.current_player()
        determinize = self.determinize
        if determinize is None:
            determinize = root_state.info.information is Information.IMPERFECT
        root: Node[A] = Node()
        done = 0
        while (self.iterations is None or done < self.iterations) and time.perf_counter() < deadline:
            state = root_state.resample(me, rng) if determinize else root_state.clone()
            self._iterate(root, state, rng, determinize)
            done += 1
        best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].mean(me)))
        stats = sorted(((a, n.visits, n.mean(me)) for a, n in root.children.items()), key=lambda x: -x[1])
        self.last = SearchResult(best[0], done, time.perf_counter() - start, stats)
        return self.last

    def _actions(self, state: GameState[A], rng: random.Random) -> list[A]:
        return self.candidates(state, rng) if self.candidates is not None else state.legal_actions()

    def _expand(self, node: Node[A], state: GameState[A], action: A) -> Node[A]:
        prior = self.prior(state, action) if self.prior is not None else 0.0
        child: Node[A] = Node(prior=prior)
        node.children[action] = child
        return child

    def _untried(self, node: Node[A], state: GameState[A], rng: random.Random) -> list[A]:
        """Actions of this node not expanded yet, drawn once per node (every draw has the same ones)."""
        if node.untried is None:
            node.untried = self._actions(state, rng)
            rng.shuffle(node.untried)
        return node.untried

    def _select(self, node: Node[A], player: int, available: list[A] | None) -> A:
        log_n = math.log(max(node.visits, 1))
        c, weight = self.exploration, self.prior_weight
        best: A | None = None
        best_value = -math.inf
        for action in node.children if available is None else available:
            child = node.children[action]
            value = child.totals[player] / child.visits + c * math.sqrt(log_n / child.visits)
            if child.prior:
                value += weight * child.prior / (1 + child.visits)
            if value > best_value:
                best, best_value = action, value
        assert best is not None
        return best

    def _iterate(self, root: Node[A], state: GameState[A], rng: random.Random, determinize: bool) -> None:
        node, path = root, [root]
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                outcome = state.sample_chance(rng)
                state.apply(outcome)
                node = node.children.setdefault(outcome, Node())
                path.append(node)
                continue
            available: list[A] | None = None
            if determinize:  # the actions of this draw: expand a new one, else choose among the known
                actions = self._actions(state, rng)
                untried = [a for a in actions if a not in node.children]
                available = [a for a in actions if a in node.children]
            else:
                untried = self._untried(node, state, rng)
            if untried:
                action = untried.pop(rng.randrange(len(untried))) if determinize else untried.pop()
                child = self._expand(node, state, action)
                state.apply(action)
                path.append(child)
                break
            action = self._select(node, player, available)
            state.apply(action)
            node = node.children[action]
            path.append(node)
        returns = state.returns() if state.is_terminal() else self.rollout(state, rng)
        for n in path:
            n.visits += 1
            if not n.totals:
                n.totals = list(returns)
            else:
                for i, r in enumerate(returns):
                    n.totals[i] += r
