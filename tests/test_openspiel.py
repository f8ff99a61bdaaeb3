"""The OpenSpiel adapter (solvers/openspiel.py): OpenSpiel's own checks, its MCTS bot, its exact search."""

from __future__ import annotations

import random
from collections import Counter

import pytest

pyspiel = pytest.importorskip("pyspiel")

import numpy as np  # noqa: E402
from open_spiel.python import policy  # noqa: E402
from open_spiel.python.algorithms import cfr, expected_game_score, exploitability, ismcts, mcts, minimax  # noqa: E402

from puzzles import GAMES  # noqa: E402
from puzzles.towers.engine import TowersState  # noqa: E402
from puzzles.towers.subgame import possible_hands, with_hands  # noqa: E402
from solvers.openspiel import kibitz_state, load_game, position_parameter  # noqa: E402
from solvers.towers.solver import brute_force_value, solve  # noqa: E402

# every game and player count (and the Blokus/Project L variants that change the rules); the small ones by default
FAST = [("towers", {}), ("blokus", {"players": 2, "variant": "duo"}),
        ("projectl", {"players": 1}), ("projectl", {"players": 2}), ("shelfie", {"players": 2})]
SLOW = [("blokus", {"players": 2}), ("blokus", {"players": 3}), ("blokus", {"players": 4}), ("blokus", {"players": 4, "variant": "teams"}),
        ("projectl", {"players": 3}), ("projectl", {"players": 4}), ("projectl", {"players": 2, "rules": "revised"}),
        ("shelfie", {"players": 3}), ("shelfie", {"players": 4})]
CASES = [pytest.param(g, p, id=f"{g}-{'-'.join(map(str, p.values())) or 'default'}") for g, p in FAST] + [
    pytest.param(g, p, id=f"{g}-{'-'.join(map(str, p.values()))}", marks=pytest.mark.slow) for g, p in SLOW]


def test_every_game_and_player_count_is_covered() -> None:
    covered = {(g, p.get("players", GAMES[g].default_players)) for g, p in FAST + SLOW}
    assert covered == {(name, n) for name, info in GAMES.items() for n in info.player_counts}


@pytest.mark.parametrize("game,params", CASES)
def test_random_sim_test_with_serialization(game: str, params: dict) -> None:
    pyspiel.random_sim_test(load_game(game, **params), num_sims=1, serialize=True, verbose=False)


def test_game_types() -> None:
    towers = load_game("towers").get_type()
    assert towers.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert towers.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    shelfie = load_game("shelfie").get_type()
    assert shelfie.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    blokus = load_game("blokus", players=2, variant="duo")
    assert blokus.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert blokus.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert blokus.num_distinct_actions() == 13_729 + 1  # every placement of the 14x14 board + pass
    assert load_game("blokus", players=4).num_distinct_actions() == 30_433 + 1
    projectl = load_game("projectl", players=1)
    assert projectl.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert projectl.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert load_game("blokus", players=4, variant="teams").utility_sum() == 2.0


def test_information_state_hides_the_opponents_stones() -> None:
    game = load_game("towers")
    rng = random.Random(4)
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(outcomes, probs)[0])
    engine = kibitz_state(state)
    other = engine.resample(0, random.Random(1))  # a different deal that seat 0 cannot tell apart
    assert other.private_json(1) != engine.private_json(1)
    twin = load_game("towers", position=position_parameter(other)).new_initial_state()
    loaded = load_game("towers", position=position_parameter(engine)).new_initial_state()
    assert twin.information_state_string(0) == loaded.information_state_string(0)
    assert twin.information_state_string(1) != loaded.information_state_string(1)
    assert np.array_equal(twin.observation_tensor(0), loaded.observation_tensor(0))
    assert not np.array_equal(twin.observation_tensor(1), loaded.observation_tensor(1))


@pytest.mark.parametrize("game,params", [("projectl", {"players": 2}), ("shelfie", {"players": 3}), ("towers", {})])
def test_what_a_seat_sees_does_not_depend_on_what_it_cannot_see(game: str, params: dict) -> None:
    """A resampled state (hidden part redrawn for that seat) gives that seat the same strings and tensor."""
    loaded = load_game(game, **params)
    state = loaded.new_initial_state()
    rng = random.Random(2)
    for _ in range(30):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(outcomes, probs)[0])
    engine = kibitz_state(state)
    here = load_game(game, position=position_parameter(engine), **params).new_initial_state()
    for seat in range(loaded.num_players()):
        other = engine.resample(seat, random.Random(seat))
        assert other.to_json() != engine.to_json()  # something hidden really was redrawn
        there = load_game(game, position=position_parameter(other), **params).new_initial_state()
        assert there.information_state_string(seat) == here.information_state_string(seat)
        assert there.observation_string(seat) == here.observation_string(seat)
        assert np.array_equal(there.observation_tensor(seat), here.observation_tensor(seat))


def test_shelfie_refill_chance_is_exact() -> None:
    state = load_game("shelfie", players=2).new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert [o for o, _ in outcomes] == list(range(6))  # 22 of each type in the bag: uniform over the 6 types
    assert all(p == pytest.approx(1 / 6) for _, p in outcomes)
    cells = int(GAMES["shelfie"].new_game(2).mask.sum())
    for _ in range(cells):
        state.apply_action(state.chance_outcomes()[0][0])
    assert not state.is_chance_node()
    assert str(kibitz_state(state).board_rows()).count("C") == 22  # the first 22 cells get type 0 (C), then the bag runs out of it


def _random_openspiel_state(game: pyspiel.Game, seed: int, moves: int) -> pyspiel.State:
    """``moves`` random actions into ``game`` (chance by its probabilities), then on to a decision or the end."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal() and (len(state.history()) < moves or state.is_chance_node()):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("game,params,shape", [("towers", {}, [4011]), ("projectl", {"players": 2}, [910]),
                                                pytest.param("projectl", {"players": 1}, [754], marks=pytest.mark.slow)])
def test_information_state_tensors_are_on(game: str, params: dict, shape: list[int]) -> None:
    loaded = load_game(game, **params)
    assert loaded.get_type().provides_information_state_tensor
    assert loaded.information_state_tensor_shape() == shape
    state = _random_openspiel_state(loaded, 1, 90)
    for seat in range(loaded.num_players()):
        tensor = np.asarray(state.information_state_tensor(seat))
        assert np.array_equal(tensor, kibitz_state(state).information_state_tensor(seat))
        assert state.information_state_string(seat) == kibitz_state(state).information_state_string(seat)
    pyspiel.random_sim_test(loaded, num_sims=3, serialize=False, verbose=False)


@pytest.mark.parametrize("game,params", [("blokus", {"players": 2, "variant": "duo"}), ("shelfie", {"players": 2})])
def test_games_without_engine_information_states_keep_strings_only(game: str, params: dict) -> None:
    loaded = load_game(game, **params)
    assert not loaded.get_type().provides_information_state_tensor
    state = _random_openspiel_state(loaded, 2, 5)
    assert state.information_state_string(0)  # the codec's string with the action texts


def test_towers_resample_from_infostate_in_a_game_loaded_from_a_position() -> None:
    """From a ``position`` there is no deal to replay: the twin keeps the (public) moves since the position."""
    start = _late_endgame(2, 0)
    assert start is not None
    game = load_game("towers", position=position_parameter(start))
    state = _random_openspiel_state(game, 2, 2)
    seat = state.current_player()
    twin = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(1, 0.0, 1.0))
    assert twin.history() == state.history()
    assert kibitz_state(twin).private_json(1 - seat) != kibitz_state(state).private_json(1 - seat)
    assert twin.information_state_string(seat) == state.information_state_string(seat)
    assert twin.information_state_string(1 - seat) != state.information_state_string(1 - seat)


def test_projectl_resample_from_infostate_redraws_the_decks() -> None:
    game = load_game("projectl", players=2)
    state = _random_openspiel_state(game, 3, 40)
    seat = state.current_player()
    twin = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(3, 0.0, 1.0))
    assert kibitz_state(twin).to_json() != kibitz_state(state).to_json()
    assert twin.history() == state.history()  # no chance in Project L: the history is the public moves
    for player in (0, 1):
        assert twin.information_state_string(player) == state.information_state_string(player)
        assert np.array_equal(twin.information_state_tensor(player), state.information_state_tensor(player))
    assert twin.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("moves", [20, 60, 100])
def test_towers_resample_from_infostate(moves: int) -> None:
    """A state the seat to move cannot tell apart, reached by a real history (its own draws, the opponent's
    redrawn): the seat's information state agrees at every step of it, and the draw is seeded."""
    game = load_game("towers")
    state = _random_openspiel_state(game, moves, moves)
    seat = state.current_player()
    twin = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(7, 0.0, 1.0))
    again = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(7, 0.0, 1.0))
    assert twin.history_str() == again.history_str()
    assert twin.history() != state.history() and len(twin.history()) == len(state.history())
    assert kibitz_state(twin).private_json(1 - seat) != kibitz_state(state).private_json(1 - seat)
    mine, theirs = game.new_initial_state(), game.new_initial_state()
    for a, b in zip(state.history(), twin.history(), strict=True):
        assert mine.information_state_string(seat) == theirs.information_state_string(seat)
        mine.apply_action(a)
        theirs.apply_action(b)
    assert mine.information_state_string(seat) == theirs.information_state_string(seat)
    assert np.array_equal(twin.information_state_tensor(seat), state.information_state_tensor(seat))
    assert twin.information_state_string(1 - seat) != state.information_state_string(1 - seat)
    assert twin.legal_actions() == state.legal_actions()
    assert game.deserialize_state(twin.serialize()).history() == twin.history()


@pytest.mark.parametrize("seed", [0, pytest.param(1, marks=pytest.mark.slow)])
def test_openspiel_ismcts_plays_towers(seed: int) -> None:
    """OpenSpiel's own ISMCTS bot (resample_from_infostate, information-state keys) plays seat 1 to the end."""
    game = load_game("towers")
    rs = np.random.RandomState(seed)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, max_simulations=4, random_state=rs)
    state = game.new_initial_state()
    bot_moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rs.choice(outcomes, p=probs)))
        elif state.current_player() == 1:
            action = int(bot.step(state))
            assert action in state.legal_actions()
            state.apply_action(action)
            bot_moves += 1
        else:
            state.apply_action(int(rs.choice(state.legal_actions())))
    assert bot_moves >= 9 and kibitz_state(state).is_terminal()
    assert sum(state.returns()) == 1.0


def _mcts_game(game: pyspiel.Game, seed: int) -> pyspiel.State:
    rs = np.random.RandomState(seed)
    bot = mcts.MCTSBot(game, 2.0, 2, mcts.RandomRolloutEvaluator(1, rs), random_state=rs)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rs.choice(outcomes, p=probs)))
        else:
            state.apply_action(bot.step(state))
    return state


@pytest.mark.parametrize("game,params", CASES)
def test_openspiel_mcts_completes_a_game(game: str, params: dict) -> None:
    loaded = load_game(game, **params)
    state = _mcts_game(loaded, 0)
    assert state.is_terminal() and kibitz_state(state).is_terminal()
    assert state.returns() == kibitz_state(state).returns()


def _late_endgame(seed: int, step: int) -> TowersState | None:
    """A full-information position of the last round, ``step`` placements in, from a random game."""
    rng = random.Random(seed)
    state = TowersState.new_game(seed)
    while not (state.round == 5 and state.phase == "place" and state.step == step):
        if state.is_terminal():
            return None
        state.apply(state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
    return state


def _outcome(value: int) -> float:
    """kibitz's solver value (P1 side) as P1's OpenSpiel return: win 1, draw 0.5, loss 0."""
    return 1.0 if value > 0 else 0.5 if value == 0 else 0.0


@pytest.mark.parametrize("seed", [0, 3, pytest.param(4, marks=pytest.mark.slow)])
def test_towers_endgame_values_equal_the_solver(seed: int) -> None:
    state = _late_endgame(seed, 1)
    assert state is not None
    loaded = load_game("towers", position=position_parameter(state)).new_initial_state()
    assert kibitz_state(loaded) == state
    value, _ = minimax.expectiminimax(loaded, 100, None, 0)
    result = solve(state, horizon="game")
    assert value == _outcome(result.value) == _outcome(brute_force_value(state))
    per_move = {}
    for action in loaded.legal_actions():
        child = loaded.clone()
        child.apply_action(action)
        per_move[loaded.action_to_string(action)] = minimax.expectiminimax(child, 100, None, 0)[0]
    assert per_move == {move: _outcome(v) for move, v in result.move_values.items()}


@pytest.mark.parametrize("seed", [0, pytest.param(5, marks=pytest.mark.slow)])
def test_openspiel_cfr_and_exploitability_run_on_a_towers_endgame(seed: int) -> None:
    """OpenSpiel's CFR+ and exploitability through the adapter, on a last-round position 3 placements from the
    end: with no chance left every information set is one history, so the equilibrium value is the solver's."""
    state = _late_endgame(seed, 3)
    assert state is not None
    game = load_game("towers", position=position_parameter(state))
    uniform = exploitability.exploitability(game, policy.UniformRandomPolicy(game))
    solver = cfr.CFRPlusSolver(game)
    for _ in range(10):
        solver.evaluate_and_update_policy()
    reached = exploitability.exploitability(game, solver.average_policy())
    assert 0 <= reached < 0.01 < uniform
    value = expected_game_score.policy_value(game.new_initial_state(), [solver.average_policy()] * 2)[0]
    assert value == pytest.approx(_outcome(solve(state, horizon="game").value), abs=2 * reached)


def _round6_start(seed: int, phase: str) -> TowersState:
    """Round 6's start (``pick``: both announcements to come) or its placements' start, from a random game."""
    rng = random.Random(seed)
    state = TowersState.new_game(seed)
    while not (state.round == 5 and state.phase == phase and state.step == 0):
        assert not state.is_terminal()
        state.apply(state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("phase", ["pick", "place"])
def test_towers_round6_subgame_deals_each_hand_the_public_state_allows(phase: str) -> None:
    start = _round6_start(0, phase)
    game = load_game("towers", position=position_parameter(start), subgame=True)
    assert game.get_type().provides_information_state_tensor and game.information_state_tensor_shape() == [4011]
    deals = [possible_hands(start, seat) for seat in (0, 1)]
    if phase == "pick":
        assert [sum(w) for _, w in deals] == [20, 20]  # 3 of the 6 unseen stones, before any announcement
    root = game.new_initial_state()
    for seat, (hands, weights) in enumerate(deals):
        assert root.is_chance_node()
        assert root.chance_outcomes() == [(i, w / sum(weights)) for i, w in enumerate(weights)]
        assert root.action_to_string(pyspiel.PlayerId.CHANCE, 0).startswith(f"deal P{seat + 1} ")
        root.apply_action(len(hands) - 1)
    assert not root.is_chance_node()
    assert kibitz_state(root) == with_hands(start, (deals[0][0][-1], deals[1][0][-1]))
    # a seat's information state is its own hand and the public history: the other deal does not show
    seen = {}
    for i, j in [(0, 0), (0, len(deals[1][0]) - 1), (len(deals[0][0]) - 1, 0)]:
        state = game.new_initial_state()
        state.apply_action(i)
        state.apply_action(j)
        seen[i, j] = state.information_state_string(0), tuple(state.information_state_tensor(0))
    assert seen[0, 0] == seen[0, len(deals[1][0]) - 1] != seen[len(deals[0][0]) - 1, 0]
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_towers_subgame_needs_a_round6_position() -> None:
    with pytest.raises(ValueError, match="subgame: needs a position"):
        load_game("towers", subgame=True)
    with pytest.raises(ValueError, match=r"subgame: not a round-6 position \(round 1"):
        load_game("towers", position=position_parameter(TowersState.new_game(1)), subgame=True)
    with pytest.raises(ValueError, match="subgame: My Shelfie has no deal"):
        load_game("shelfie", players=2, subgame=True, position=position_parameter(GAMES["shelfie"].new_game(2)))


def test_towers_subgame_resample_from_infostate_redraws_the_other_deal() -> None:
    """In a subgame the twin's history is a real one: the seat's own deal kept, the other deal redrawn among the
    hands that hold the stones the other seat has placed since (its announcement is in the deal already)."""
    start = _round6_start(3, "place")
    game = load_game("towers", position=position_parameter(start), subgame=True)
    state = _random_openspiel_state(game, 3, 5)
    seat = state.current_player()
    other = 1 - seat
    placed = Counter(kibitz_state(state).revealed[other][5])
    consistent = {j for j, hand in enumerate(possible_hands(start, other)[0]) if not placed - Counter(hand)}
    drawn = set()
    for i in range(30):
        twin = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(i, 0.0, 1.0))
        assert twin.information_state_string(seat) == state.information_state_string(seat)
        assert twin.history()[seat] == state.history()[seat] and twin.history()[2:] == state.history()[2:]
        assert kibitz_state(game.deserialize_state(twin.serialize())) == kibitz_state(twin)  # its history reaches it
        drawn.add(twin.history()[other])
    assert drawn == consistent and len(consistent) == 2
