"""Round-6 equilibrium of Rainbow Blackjack: the subgame's deal, CFR+ against an LP and OpenSpiel, the bot, the CLI."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import numpy as np
import pytest

from puzzles.game import CHANCE
from puzzles.towers import TowersAction, TowersState
from puzzles.towers.subgame import placement_start, possible_hands, round6_placements, with_hands
from solvers.bots import make_bot
from solvers.playout import wilson_interval
from solvers.towers import equilibrium as E
from solvers.towers.bots import EquilibriumBot, GreedyBot
from solvers.towers.equilibrium import (
    SUB,
    SubgameTooLarge,
    announcement_strategy,
    bot_exploitability,
    build_tree,
    solve_round6,
    solve_tree,
    strategy_rows,
)


def round6_positions(seed: int, greedy: bool = True) -> list[TowersState]:
    """Every decision of round 6 in a seeded game (greedy or uniformly random play), in order."""
    state, rng, bot = TowersState.new_game(seed), random.Random(seed), GreedyBot()
    out = []
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        if state.round == 5:
            out.append(state.clone())
        state.apply(bot.choose(state, rng) if greedy else rng.choice(state.legal_actions()))
    return out


#: Small round-6 positions (random play; decision 6: after each seat's first placement, 7: after P1's second) whose
#: value is not 0, 1/2 or 1, for OpenSpiel's exact tools through the adapter: (seed, decision) -> P1's exact value
#: (OpenSpiel's sequence-form LP's).  (119, 7): P1 has 2 possible hands, P2 4; 432 histories.
TINY = {(119, 7): 0.0625, (3, 7): 0.25, (29, 6): 0.25, (48, 6): 0.375, (84, 6): 0.125}
TINY_CASES = [pytest.param(key, marks=[] if key == (119, 7) else [pytest.mark.slow], id=f"seed{key[0]}-{key[1]}")
              for key in TINY]


def test_the_deal_is_every_hand_the_public_state_allows() -> None:
    for seed in range(4):
        positions = round6_positions(seed)
        start = next(s for s in positions if s.phase == "place")
        for state in positions:
            for seat in (0, 1):
                hands, weights = possible_hands(state, seat)
                held = tuple(sorted(state.hands[seat]))
                assert state.line[seat] < 0 or held in hands
                assert all(w >= 1 for w in weights) and len(hands) == len(set(hands))
                if state.round == 5 and state.phase == "pick" and state.step == 0:
                    assert sum(weights) == 20  # 3 of the 6 unseen stones
            other = with_hands(state, (possible_hands(state, 0)[0][-1], possible_hands(state, 1)[0][0]))
            other.validate()
            assert other.observation(0)["public"] == state.observation(0)["public"]
            if state.phase == "place":
                assert placement_start(state).observation(0)["public"] == start.observation(0)["public"]
        assert [seat for seat, _ in round6_placements(positions[-1])] == [0, 1, 0, 1, 0]


@pytest.mark.slow  # ~4 s; by default OpenSpiel checks our subgame through the adapter in the exploitability test below
@pytest.mark.parametrize("key", TINY_CASES)
def test_openspiel_sequence_form_lp_value_equals_ours(key: tuple[int, int]) -> None:
    """OpenSpiel's sequence-form LP (cvxpy, solver GLOP) on the subgame through the adapter: our value to 1e-6."""
    pytest.importorskip("pyspiel")
    pytest.importorskip("cvxpy", reason="OpenSpiel's sequence_form_lp needs cvxpy (the dev extra)")
    from open_spiel.python.algorithms import sequence_form_lp

    from solvers.towers.equilibrium_spiel import spiel_game, zero_sum

    state = round6_positions(key[0], greedy=False)[key[1]]
    eq = solve_tree(build_tree(state), target=1e-7)
    v0, v1, _, _ = sequence_form_lp.solve_zero_sum_game(zero_sum(spiel_game(state)), solver="GLOP")
    assert v0 + 0.5 == pytest.approx(TINY[key], abs=1e-9) and v1 == pytest.approx(-v0, abs=1e-9)
    assert eq.status == "found" and abs(eq.value - (v0 + 0.5)) <= 1e-6


@pytest.mark.parametrize("strategy", ["solved", pytest.param("uniform", marks=pytest.mark.slow)])
@pytest.mark.parametrize("key", TINY_CASES)
def test_openspiel_exploitability_through_the_adapter_equals_ours(key: tuple[int, int], strategy: str) -> None:
    """OpenSpiel's ``exploitability`` of our strategy as a TabularPolicy of the adapter's subgame: ours to 1e-6.

    "uniform" is uniform at every information set of our tree (the last placements it collapses are
    played as the tree plays them, the best one for the mover's own stones)."""
    pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import exploitability as os_exploitability

    from solvers.towers.equilibrium import exploitability, normalise
    from solvers.towers.equilibrium_spiel import spiel_game, tabular_policy

    state = round6_positions(key[0], greedy=False)[key[1]]
    tree = build_tree(state)
    if strategy == "solved":
        eq = solve_tree(tree)
        strat, ours = eq.strategy, eq.exploitability
        assert eq.status == "found" and ours <= 1e-3
    else:
        strat = normalise(tree, np.zeros(len(tree.legal)))
        ours = exploitability(tree, strat)
        assert ours > 0.05
    game = spiel_game(state)
    theirs = os_exploitability.exploitability(game, tabular_policy(game, tree, strat))
    assert abs(theirs - ours) <= 1e-6 and (theirs <= 1e-3) == (strategy == "solved")


def test_exploitability_at_most_1e_3_on_three_sampled_states() -> None:
    for seed in (1, 2, 5):
        state = round6_positions(seed)[5]  # after P1's first placement
        eq = solve_round6(state)
        assert eq.status == "found" and 0 <= eq.exploitability <= 1e-3, (seed, eq.exploitability)
        assert 0.0 <= eq.value <= 1.0


@pytest.mark.slow
def test_exploitability_at_most_1e_3_on_50_placement_starts() -> None:
    solved = 0
    for seed in range(200):
        positions = [s for s in round6_positions(seed) if s.phase == "place"]
        if not positions:
            continue
        eq = solve_round6(positions[0])
        assert eq.status == "found" and eq.exploitability <= 1e-3, (seed, eq.exploitability)
        solved += 1
        if solved == 50:
            break
    assert solved == 50


def test_the_compiled_builder_grows_the_python_builders_tree() -> None:
    for seed, index in ((2, 4), (48, 5), (29, 6)):  # a placement start, after P1's first placement, after two
        state = round6_positions(seed, greedy=seed == 2)[index]
        a, b = build_tree(state, compiled=False), build_tree(state)
        assert (a.size, len(a.legal), a.depth) == (b.size, len(b.legal), b.depth)
        assert sorted(a.label) == sorted(b.label) and a.tval.sum() == b.tval.sum() + 0.0
        assert solve_tree(a).value == solve_tree(b).value  # the same tree: the same iterates


def narrow_deal(monkeypatch: pytest.MonkeyPatch, state: TowersState, keep: tuple[list[int], list[int]]) -> None:
    """Deal only the hands ``keep[seat]`` (indices into the public state's possible hands) in the tree builders:
    a smaller round-6 subgame of the same public state (priors renormalised)."""
    full = [possible_hands(state, seat) for seat in (0, 1)]
    monkeypatch.setattr(E, "possible_hands", lambda _state, seat: (
        [full[seat][0][i] for i in keep[seat]], [full[seat][1][i] for i in keep[seat]]))


def test_the_compact_start_tree_is_the_python_builders_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    # round 6's start, P1 dealt B1 J J or B4 J J (same colours, different numbers), P2 O4 G3 P5
    start = round6_positions(2)[0]
    narrow_deal(monkeypatch, start, ([10, 12], [12]))
    a, b = build_tree(start, compiled=False), build_tree(start)
    nsub = int((b.player == SUB).sum())
    assert nsub == 6 and b.sub_hands.tolist() == [[2, 1], [2, 1], [1, 1], [1, 1], [1, 1], [1, 1]]
    assert (a.size + nsub, a.depth + 1) == (b.size, b.depth) == (60_496, 9)
    assert sorted([*a.label, *[""] * nsub]) == sorted(b.label)
    ea, eb = (solve_tree(t, target=0.0, max_iterations=40) for t in (a, b))
    assert ea.value == pytest.approx(eb.value, abs=1e-12)
    assert ea.exploitability == pytest.approx(eb.exploitability, abs=1e-12) and eb.exploitability > 0
    # the same information sets and strategies, read through the compact tree's local hand numbers
    rows = [{k: r[k] for k in ("player", "hand", "history", "actions")} for r in strategy_rows(ea, 3)]
    assert rows == [{k: r[k] for k in ("player", "hand", "history", "actions")} for r in strategy_rows(eb, 3)]
    assert len(rows) > 20


@pytest.mark.parametrize("keep", [([0], [0]), ([3], [7]), ([12], [12])])
def test_a_start_with_one_hand_each_has_the_minimax_value(monkeypatch: pytest.MonkeyPatch,
                                                           keep: tuple[list[int], list[int]]) -> None:
    from solvers.towers.solver import solve

    start = round6_positions(2)[0]
    hands = [possible_hands(start, seat)[0][keep[seat][0]] for seat in (0, 1)]
    exact = solve(with_hands(start, (hands[0], hands[1])), horizon="game").value  # full information
    narrow_deal(monkeypatch, start, keep)
    eq = solve_round6(start, target=1e-4)
    assert eq.status == "found" and eq.exploitability <= 1e-4
    assert eq.value == pytest.approx(1.0 if exact > 0 else 0.5 if exact == 0 else 0.0, abs=2e-4)
    # one hand each: what is announced says nothing; each seat's colours probability is a probability
    assert [len(x) for x in announcement_strategy(eq)] == [1, 1]


@pytest.mark.slow
def test_the_announcement_subgame_is_the_python_builders_tree() -> None:
    state = round6_positions(2)[3]  # P2 to announce: ~7e5 public nodes
    a, b = build_tree(state, compiled=False), build_tree(state)
    nsub = int((b.player == SUB).sum())
    assert (a.size + nsub, a.depth + 1, sorted([*a.label, *[""] * nsub])) == (b.size, b.depth, sorted(b.label))
    eq = solve_tree(b)
    assert eq.status == "found" and eq.exploitability <= 1e-3 and eq.value == pytest.approx(0.175, abs=2e-3)
    p2 = announcement_strategy(eq)
    assert p2[0] == [] and len(p2[1]) == len(b.hands[1])


@pytest.mark.slow
def test_the_start_of_round_6_is_solved_with_its_announcements() -> None:
    start = round6_positions(0)[0]  # P1 to announce: 15.4 M public nodes, ~2 GB, ~2 min CPU
    eq = solve_round6(start)
    assert eq.tree.size == 15_418_198 and eq.status == "found" and eq.exploitability <= 1e-3
    assert eq.value == pytest.approx(0.3895, abs=2e-3)
    p1, p2 = announcement_strategy(eq)
    assert len(p1) == len(p2) == 20 and all(0.0 <= x["colors"] <= 1.0 for x in p1 + p2)


def test_a_tree_over_the_limit_is_refused() -> None:
    start = round6_positions(0)[0]  # announcements to come
    with pytest.raises(SubgameTooLarge, match="more than 10,000 nodes"):
        build_tree(start, node_limit=10_000)


def test_bots_are_more_exploitable_than_the_equilibrium() -> None:
    state = round6_positions(5)[5]
    tree = build_tree(state)
    eq = solve_tree(tree, target=1e-4)

    def chooser(spec: str) -> Callable[[int], Callable[[TowersState], TowersAction]]:
        bot = make_bot("towers", spec)
        return lambda seat: lambda s: bot.choose(s, random.Random(7))

    expl, asked = bot_exploitability(tree, state, chooser("greedy"))
    assert asked == 243 and expl == pytest.approx(0.4375) and eq.exploitability <= 1e-4


def test_the_bot_plays_the_solved_strategy_in_round_6() -> None:
    state = round6_positions(2)[6]
    eq = solve_round6(placement_start(state))
    bot = EquilibriumBot(iterations=8, resolve=False)
    action = bot.choose(state.clone(), random.Random(0))
    tree = eq.tree
    node = 0
    for _, text in round6_placements(state):
        node = tree.child_by_label(node, text)
    seat = state.current_player()
    held = tuple(sorted(state.hands[seat] + state.revealed[seat][5]))
    support = {a for a, p in eq.probabilities(node, tree.hands[seat].index(held)) if p > 1e-6}
    assert state.action_to_string(action) in support


def test_the_re_solving_bot_plays_the_subgame_solved_at_the_current_public_state() -> None:
    state = round6_positions(2)[6]  # P1's second placement
    seat = state.current_player()
    bot = EquilibriumBot(iterations=8)  # re-solving is the default
    tree = build_tree(state)  # rooted here: every hand the public state allows, by its draw weight
    eq = solve_tree(tree, target=bot.resolve_target)
    direct = eq.probabilities(0, tree.hands[seat].index(tuple(sorted(state.hands[seat]))))
    assert bot.probabilities(state.clone()) == direct
    assert bot.probabilities(state.resample(seat, random.Random(3))) == direct  # the hidden stones are not read
    once = [EquilibriumBot().choose(state.clone(), random.Random(s)) for s in range(6)]
    again = [EquilibriumBot().choose(state.clone(), random.Random(s)) for s in range(6)]
    support = {a for a, p in direct if p > 1e-6}
    assert once == again and {state.action_to_string(a) for a in once} <= support
    # solved once where the placements began, the strategy here differs
    solved_once = EquilibriumBot(resolve=False).probabilities(state.clone())
    assert solved_once is not None and dict(solved_once) != pytest.approx(dict(direct), abs=1e-3)


def test_the_bot_announces_from_the_solved_announcement_subgames(monkeypatch: pytest.MonkeyPatch) -> None:
    from collections import OrderedDict

    from puzzles.towers.engine import Announce

    monkeypatch.setattr(E, "_ANNOUNCED", OrderedDict())  # the narrowed deals below must not be cached for others
    start = round6_positions(6)[1]  # P1 to announce, its line picked
    assert start.phase == "pick" and start.legal_actions() == [Announce("colors"), Announce("numbers")]
    # a smaller deal: P1 its own hand (the 14th) or the 11th, P2 its own (the 3rd to come), the 1st or the 8th, each as
    # far as what is said allows
    kept = [{possible_hands(start, 0)[0][i] for i in (13, 10)}, {possible_hands(start, 1)[0][i] for i in (2, 0, 7)}]
    assert tuple(sorted(start.hands[0])) in kept[0]

    def narrowed(state: TowersState, seat: int) -> tuple[list[tuple[int, ...]], list[float]]:
        pairs = [(h, w) for h, w in zip(*possible_hands(state, seat), strict=True) if h in kept[seat]]
        return [h for h, _ in pairs], [w for _, w in pairs]

    monkeypatch.setattr(E, "possible_hands", narrowed)
    # P1, first: each mode scored by its hand's return in the subgame after saying it (P2's announcement to come)
    returns = {}
    for a in start.legal_actions():
        after = start.clone()
        after.apply(a)
        after.apply(after.legal_actions()[0])  # P2's line, forced
        eq = solve_tree(build_tree(after), target=E.ANNOUNCE_TARGET)
        tree = eq.tree
        hand = tree.hands[0].index(tuple(sorted(start.hands[0])))
        alone = np.zeros(len(tree.hands[0]))
        alone[hand] = 1.0
        tree.prior = (alone, tree.prior[1])  # P1 dealt its own hand: its expected return
        returns[a.mode] = E.value_of(tree, eq.strategy)
    probs = E.announcement_probabilities(start, 0)
    best = max(returns, key=lambda m: returns[m])
    assert abs(returns["colors"] - returns["numbers"]) > 1e-3 and dict(probs) == {
        m: 1.0 if m == best else 0.0 for m in ("colors", "numbers")}
    assert E.announcement_probabilities(start.resample(0, random.Random(1)), 0) == probs  # hidden stones unread
    assert EquilibriumBot(iterations=8).choose(start.clone(), random.Random(0)) == Announce(best)
    # P2, second: the strategy of its hand at the root of the subgame after P1's announcement
    second = start.clone()
    second.apply(Announce(best))
    second.apply(second.legal_actions()[0])
    eq = solve_tree(build_tree(second), target=E.ANNOUNCE_TARGET)
    hand = tuple(sorted(second.hands[1]))
    assert hand in kept[1]
    at_root = dict(eq.probabilities(0, eq.tree.hands[1].index(hand)))
    probs2 = E.announcement_probabilities(second, 1)
    assert [m for m, _ in probs2] == ["colors", "numbers"] and sum(p for _, p in probs2) == pytest.approx(1.0)
    assert probs2 == [(m, pytest.approx(at_root[E.announcement_label(m, hand)], abs=1e-12)) for m, _ in probs2]
    assert E.announcement_probabilities(second.resample(1, random.Random(2)), 1) == probs2
    solves = list(E._ANNOUNCED.values())  # after each P1 announcement (P2 read one of them): both reached the target
    assert len(solves) == 2 and all(0 <= got.exploitability <= E.ANNOUNCE_TARGET for got in solves)


def test_cli_prints_value_strategies_and_exploitability(run_cli, tmp_path) -> None:
    state = round6_positions(48, greedy=False)[6]
    path = tmp_path / "r6.json"
    path.write_text(json.dumps(state.to_json()))
    result = run_cli("towers", "equilibrium", str(path), "--json", "--quiet")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["status"] == "found" and data["exploitability"] <= 1e-3
    assert data["value_p1"] == pytest.approx(TINY[(48, 6)], abs=2e-3)
    rows = data["strategy"]
    assert rows and all(abs(sum(p for _, p in row["actions"]) - 1) < 1e-9 for row in rows)
    text = run_cli("towers", "equilibrium", str(path), "--quiet").stdout
    assert "status: found" in text and "game value: P1 expects 0.37" in text and "P2 holding" in text


def test_cli_prints_the_announcement_strategy_from_round_6s_start(run_cli, tmp_path, monkeypatch) -> None:
    start = round6_positions(2)[0]
    narrow_deal(monkeypatch, start, ([10, 12], [12]))  # P1: B1 J J or B4 J J; P2: O4 G3 P5
    path = tmp_path / "start.json"
    path.write_text(json.dumps(start.to_json()))
    data = json.loads(run_cli("towers", "equilibrium", str(path), "--json", "--quiet", "--target", "0.01").stdout)
    assert data["status"] == "found" and data["exploitability"] <= 1e-2 and data["nodes"] == 60_496
    p1, p2 = data["announcements"]
    assert [x["hand_text"] for x in p1] == ["B1 J J", "B4 J J"] and [x["hand_text"] for x in p2] == ["O4 G3 P5"]
    assert all(0.0 <= x["colors"] <= 1.0 for x in p1 + p2)
    text = run_cli("towers", "equilibrium", str(path), "--quiet", "--target", "0.01").stdout
    assert "P1 hand 1 (B1 J J, dealt with probability 0.500): colours" in text
    assert "P2 announces colours with probability" in text and "averaged over P1's announcements" in text


def test_cli_refuses_a_position_outside_round_6(run_cli, tmp_path) -> None:
    path = tmp_path / "r1.json"
    path.write_text(json.dumps(TowersState.new_game(1).to_json()))
    result = run_cli("towers", "equilibrium", str(path), "--quiet")
    assert result.exit_code != 0
    assert result.output.strip().splitlines()[-1].startswith("Error: not a round-6 position")


@pytest.mark.slow
def test_the_bot_scores_at_least_half_against_pimc_from_round_6() -> None:
    score, games = 0.0, 0
    for seed in range(60):
        positions = [s for s in round6_positions(seed) if s.phase == "place"]
        if not positions:
            continue
        for swap in (0, 1):
            state, rng = positions[0].clone(), random.Random(seed)
            bots = [make_bot("towers", "equilibrium"), make_bot("towers", "pimc")]
            if swap:
                bots.reverse()
            while not state.is_terminal():
                state.apply(bots[state.current_player()].choose(state, rng))
            score += state.returns()[swap]
            games += 1
    lo, hi = wilson_interval(score, games)
    assert hi >= 0.5, (score, games, lo, hi)
