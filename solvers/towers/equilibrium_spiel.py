"""The round-6 subgame as an OpenSpiel game, so OpenSpiel's own tools check our equilibrium.

:func:`spiel_game` turns a :class:`solvers.towers.equilibrium.PublicTree` into a
``pyspiel.Game``: chance at the root deals P1's hand, then P2's (the priors of
:mod:`puzzles.towers.subgame`); then the public actions, each seat seeing its own hand and
the public history (information state ``"P1 hand R2 Y5 | node 17"``).  Returns are zero-sum
(P1's return minus 0.5), so OpenSpiel's ``exploitability`` reads in the same units as ours.
:func:`sequence_form_value` solves the sequence-form LP of any such two-player zero-sum
OpenSpiel game with OR-Tools (GLOP): OpenSpiel's ``sequence_form_lp`` needs ``cvxpy``, which
kibitz does not depend on.  Imports ``pyspiel`` and ``ortools``: optional, for tests and checks.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from puzzles.towers.stones import stone_str
from solvers.towers.equilibrium import Equilibrium, PublicTree


def _hand_text(hand: tuple[int, ...]) -> str:
    return " ".join(stone_str(c) for c in hand) or "-"


class SubgameGame(pyspiel.Game):  # type: ignore[misc]
    """The public tree of a round-6 subgame as a pyspiel game (chance deals the hands at the root)."""

    def __init__(self, tree: PublicTree) -> None:
        self.tree = tree
        game_type = pyspiel.GameType(
            short_name="kibitz_towers_round6", long_name="Rainbow Blackjack round-6 subgame",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
            information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
            utility=pyspiel.GameType.Utility.ZERO_SUM, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=2, min_num_players=2, provides_information_state_string=True,
            provides_information_state_tensor=False, provides_observation_string=False,
            provides_observation_tensor=False, provides_factored_observation_string=False)
        info = pyspiel.GameInfo(
            num_distinct_actions=max(tree.max_kids, max(len(h) for h in tree.hands)),
            max_chance_outcomes=max(len(h) for h in tree.hands), num_players=2,
            min_utility=-0.5, max_utility=0.5, utility_sum=0.0, max_game_length=tree.depth + 2)
        super().__init__(game_type, info, {})

    def new_initial_state(self) -> SubgameState:
        return SubgameState(self)


class SubgameState(pyspiel.State):  # type: ignore[misc]
    """A history of the subgame: the dealt hands (None until dealt) and the public node."""

    def __init__(self, game: SubgameGame) -> None:
        super().__init__(game)
        self.tree = game.tree
        self.hands: list[int] = []
        self.node = 0
        self.path: list[int] = []

    def current_player(self) -> int:
        if len(self.hands) < 2:
            return int(pyspiel.PlayerId.CHANCE)
        p = int(self.tree.player[self.node])
        return int(pyspiel.PlayerId.TERMINAL) if p < 0 else p

    def _legal_actions(self, player: int) -> list[int]:
        tree, h = self.tree, self.hands[player]
        return [a for a, c in enumerate(tree.children(self.node)) if tree.legal[tree.off[c] + h]]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        prior = self.tree.prior[len(self.hands)]
        return [(h, float(w)) for h, w in enumerate(prior) if w > 0]

    def _apply_action(self, action: int) -> None:
        if len(self.hands) < 2:
            self.hands.append(action)
            return
        self.node = list(self.tree.children(self.node))[action]
        self.path.append(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player < 0:
            return f"deal {_hand_text(self.tree.hands[len(self.hands)][action])}"
        return self.tree.label[list(self.tree.children(self.node))[action]]

    def is_terminal(self) -> bool:
        return len(self.hands) == 2 and self.tree.player[self.node] < 0

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        tree, n = self.tree, self.node
        u = float(tree.tval[tree.toff[n] + self.hands[int(tree.tseat[n])]]) - 0.5
        return [u, -u]

    def information_state_string(self, player: int | None = None) -> str:
        p = self.current_player() if player is None else player
        return f"P{p + 1} hand {_hand_text(self.tree.hands[p][self.hands[p]])} | node {self.node}"

    def __str__(self) -> str:
        return f"hands {self.hands} node {self.node} path {self.path}"


def spiel_game(tree: PublicTree) -> SubgameGame:
    """The pyspiel game of ``tree``."""
    return SubgameGame(tree)


def tabular_policy(game: SubgameGame, eq: Equilibrium) -> Any:
    """Our equilibrium strategy as an OpenSpiel ``TabularPolicy`` (every information state of the game)."""
    from open_spiel.python import policy as policy_lib

    pol = policy_lib.TabularPolicy(game)
    tree = game.tree
    for key, row in pol.state_lookup.items():
        seat = 0 if key.startswith("P1") else 1
        hand_text, node_text = key.split(" | ")
        node = int(node_text.split()[1])
        hand = next(h for h, hd in enumerate(tree.hands[seat]) if f"P{seat + 1} hand {_hand_text(hd)}" == hand_text)
        probs = np.zeros(pol.action_probability_array.shape[1])
        for a, c in enumerate(tree.children(node)):
            i = int(tree.off[c]) + hand
            if tree.legal[i]:
                probs[a] = eq.strategy[i]
        pol.action_probability_array[row] = probs / probs.sum()
    return pol


def sequence_form_value(game: Any) -> float:
    """The value for player 1 (0-based seat 0) of a two-player zero-sum OpenSpiel game, by its sequence-form LP.

    max f'q  s.t.  E x = e,  F'q <= A'x,  x >= 0  (von Stengel 1996), solved with OR-Tools' GLOP.
    """
    from ortools.linear_solver import pywraplp

    seqs: list[dict[tuple[str, int], int]] = [{}, {}]
    infosets: list[dict[str, tuple[int, list[int]]]] = [{}, {}]
    payoff: dict[tuple[int, int], float] = {}

    def seq_id(p: int, key: tuple[str, int]) -> int:
        return seqs[p].setdefault(key, len(seqs[p]) + 1)  # 0 is the empty sequence

    def walk(state: Any, prob: float, last: list[int]) -> None:
        if state.is_terminal():
            k = (last[0], last[1])
            payoff[k] = payoff.get(k, 0.0) + prob * state.returns()[0]
            return
        if state.is_chance_node():
            for a, pa in state.chance_outcomes():
                walk(state.child(a), prob * pa, last)
            return
        p = state.current_player()
        info = state.information_state_string(p)
        kids = [seq_id(p, (info, a)) for a in state.legal_actions()]
        infosets[p].setdefault(info, (last[p], kids))
        for a, s in zip(state.legal_actions(), kids, strict=True):
            nxt = list(last)
            nxt[p] = s
            walk(state.child(a), prob, nxt)

    walk(game.new_initial_state(), 1.0, [0, 0])
    solver = pywraplp.Solver.CreateSolver("GLOP")
    x = [solver.NumVar(0, solver.infinity(), f"x{i}") for i in range(len(seqs[0]) + 1)]
    q = [solver.NumVar(-solver.infinity(), solver.infinity(), f"q{j}") for j in range(len(infosets[1]) + 1)]
    solver.Add(x[0] == 1)
    for parent, kids in infosets[0].values():
        solver.Add(sum(x[k] for k in kids) == x[parent])
    # F'q <= A'x: one row per P2 sequence; q[0] is the root constraint y_0 = 1
    rows: list[Any] = [q[0]] + [0] * len(seqs[1])
    for j, (parent, kids) in enumerate(infosets[1].values(), start=1):
        for k in kids:
            rows[k] = rows[k] + q[j]
        rows[parent] = rows[parent] - q[j]
    a_col: list[Any] = [0] * (len(seqs[1]) + 1)
    for (i, k), v in payoff.items():
        a_col[k] = a_col[k] + v * x[i]
    for k in range(len(seqs[1]) + 1):
        solver.Add(rows[k] <= a_col[k])
    solver.Maximize(q[0])
    if solver.Solve() != pywraplp.Solver.OPTIMAL:
        raise RuntimeError("the sequence-form LP found no optimum")
    return float(solver.Objective().Value())
