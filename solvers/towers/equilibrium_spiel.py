"""The round-6 subgame through the OpenSpiel adapter, so OpenSpiel's own tools check our equilibrium.

:func:`spiel_game` loads a round-6 public state as ``kibitz_towers`` with ``subgame=True``
(:mod:`solvers.openspiel`): chance deals P1's hand, then P2's (the priors of
:mod:`puzzles.towers.subgame`), then the engine plays on, each seat's information state being
the engine's (its observation with the public log).  Returns are the engine's (win 1, draw
0.5, loss 0; constant-sum 1), so OpenSpiel's ``exploitability`` reads in our units.
:func:`tabular_policy` writes a strategy of our public tree into an OpenSpiel ``TabularPolicy``
of that game; :func:`zero_sum` is the same game with P1's return minus 0.5 (OpenSpiel's
``zerosum`` transform), which OpenSpiel's ``sequence_form_lp`` asks for.  Imports ``pyspiel``:
optional, for tests and checks.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from puzzles.towers.engine import Announce, Pass, Place, TowersState
from solvers.openspiel import kibitz_state, load_game, position_parameter
from solvers.towers.equilibrium import PublicTree, _label_of, _solo_choice


def spiel_game(state: TowersState) -> Any:
    """The round-6 subgame at ``state``'s public state as an OpenSpiel game (the adapter's ``subgame``)."""
    return load_game("towers", position=position_parameter(state), subgame=True)


def zero_sum(game: Any) -> Any:
    """``game`` through OpenSpiel's ``zerosum`` transform: each return minus 0.5 (P1's value minus 0.5)."""
    return pyspiel.load_game(f"zerosum(game={game})")


def tabular_policy(game: Any, tree: PublicTree, strategy: np.ndarray) -> Any:
    """``strategy`` (of ``tree``, built at the same public state as ``game``) as an OpenSpiel ``TabularPolicy``.

    Every decision of the game is visited: a public action of the tree takes the strategy's
    probability at (node, hand dealt); a line pick (forced, not a tree node) and the last
    placements the tree collapses into a terminal (the opponent has no stone left: a
    maximisation over the mover's own known stones) take the action the tree's value assumes.
    """
    from open_spiel.python import policy as policy_lib

    pol = policy_lib.TabularPolicy(game)
    codec = game.codec

    def visit(state: Any, node: int, dealt: tuple[int, ...]) -> None:
        if state.is_terminal():
            return
        if state.is_chance_node():
            for outcome, _ in state.chance_outcomes():
                visit(state.child(outcome), node, (*dealt, outcome))
            return
        p = state.current_player()
        engine = kibitz_state(state)
        assert isinstance(engine, TowersState)
        row = pol.action_probability_array[pol.state_lookup[state.information_state_string(p)]]
        row[:] = 0.0
        legal = state.legal_actions()
        actions = {a: codec.decode(engine, a) for a in legal}
        if not isinstance(actions[legal[0]], Announce | Place | Pass):  # a line pick: forced
            row[legal] = 1.0 / len(legal)
            for a in legal:
                visit(state.child(a), node, dealt)
            return
        if tree.player[node] < 0:  # collapsed: the mover alone has stones
            row[codec.encode(engine, _solo_choice(engine, p))] = 1.0
            for a in legal:
                visit(state.child(a), node, dealt)
            return
        assert int(tree.player[node]) == p
        hand = dealt[p]
        for a in legal:
            child = tree.child_by_label(node, _label_of(actions[a], tree.hands[p][hand]))
            row[a] = strategy[int(tree.off[child]) + hand]
            visit(state.child(a), child, dealt)
        row /= row.sum()

    visit(game.new_initial_state(), 0, ())
    return pol
