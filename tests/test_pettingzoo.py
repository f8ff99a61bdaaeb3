"""The PettingZoo adapter (solvers/pettingzoo.py): PettingZoo's API test and seeded rollouts against the engine."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from puzzles import GAMES  # noqa: E402
from solvers.pettingzoo import kibitz_env  # noqa: E402
from solvers.playout import play_game  # noqa: E402

FAST = [("towers", {}), ("blokus", {"players": 2, "variant": "duo"}), ("projectl", {"players": 1}),
        ("projectl", {"players": 2}), ("shelfie", {"players": 2})]
SLOW = [("blokus", {"players": 2}), ("blokus", {"players": 3}), ("blokus", {"players": 4}),
        ("projectl", {"players": 3}), ("projectl", {"players": 4}), ("shelfie", {"players": 3}),
        ("shelfie", {"players": 4})]
CASES = [pytest.param(g, p, id=f"{g}-{'-'.join(map(str, p.values())) or 'default'}") for g, p in FAST] + [
    pytest.param(g, p, id=f"{g}-{'-'.join(map(str, p.values()))}", marks=pytest.mark.slow) for g, p in SLOW]


@pytest.mark.parametrize("game,params", CASES)
def test_api_test(game: str, params: dict) -> None:
    api_test(kibitz_env(game, **params), num_cycles=200, verbose_progress=False)


def _random_rollout(game: str, params: dict, seed: int) -> tuple[list[int], list[float]]:
    env = kibitz_env(game, **params)
    env.reset(seed=seed)
    rng = random.Random(seed + 1)
    for _agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        mask = observation["action_mask"]
        assert mask.dtype == np.int8 and mask.sum() >= 1
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert env.final_scores is not None
    return env.actions, env.final_scores


class _Replay:
    """A kibitz bot that plays recorded action ids (decoded by the game's codec), checking each is legal."""

    name = "replay"

    def __init__(self, codec: object, ids: list[int]) -> None:
        self.codec, self.ids = codec, iter(ids)

    def choose(self, state, rng):  # noqa: ANN001, ANN201
        action = self.codec.decode(state, next(self.ids))
        assert state.illegal_reason(action) is None
        return action


@pytest.mark.parametrize("game,params", CASES)
def test_seeded_rollout_matches_the_engine(game: str, params: dict) -> None:
    seed = 7
    actions, scores = _random_rollout(game, params, seed)
    assert _random_rollout(game, params, seed) == (actions, scores)  # seeded: the same game again
    info = GAMES[game]
    state = info.new_game(params.get("players"), seed, **{k: v for k, v in params.items() if k != "players"})
    env = kibitz_env(game, **params)
    bot = _Replay(env.codec, actions)
    play_game(state, [bot] * state.num_players, random.Random(seed))  # kibitz's own driver, chance from the seed
    assert state.scores() == scores


def test_masks_are_the_engine_legal_actions() -> None:
    env = kibitz_env("blokus", players=2, variant="duo")
    env.reset(seed=0)
    rng = random.Random(0)
    for _ in range(12):
        mask = env.action_mask()
        legal = env.state.legal_actions()
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(env.codec.encode(env.state, a) for a in legal)
        env.step(int(rng.choice(np.flatnonzero(mask))))


def test_hidden_information_stays_hidden() -> None:
    env = kibitz_env("shelfie", players=2)
    env.reset(seed=3)
    mine, theirs = env.observe("player_0")["observation"], env.observe("player_1")["observation"]
    cards = env.state.personal_cards
    env.state.personal_cards = (cards[0], next(c for c in range(1, 13) if c not in cards))
    assert np.array_equal(env.observe("player_0")["observation"], mine)  # seat 0 cannot see seat 1's card
    assert not np.array_equal(env.observe("player_1")["observation"], theirs)


def test_render_text() -> None:
    env = kibitz_env("towers", render_mode="ansi")
    env.reset(seed=1)
    assert env.render() == str(env.state)


def test_render_rgb() -> None:
    env = kibitz_env("blokus", players=2, variant="duo", render_mode="rgb_array")
    env.reset(seed=0)
    env.step(int(np.flatnonzero(env.action_mask())[0]))
    image = env.render()
    assert image.shape == (14 * 12, 14 * 12, 3) and image.dtype == np.uint8
    assert (image.reshape(-1, 3) == (0x8E, 0x44, 0xAD)).all(axis=1).sum() > 0  # purple's first piece
    shelfie = kibitz_env("shelfie", players=2, render_mode="rgb_array")
    shelfie.reset(seed=0)
    assert shelfie.render().shape == (9 * 12, (9 + 2 * 6) * 12, 3)
    with pytest.raises(ValueError):
        kibitz_env("towers", render_mode="rgb_array")


@pytest.mark.parametrize("game,params,shape", [
    ("blokus", {"players": 2, "variant": "duo"}, (5, 14, 14)), pytest.param("blokus", {"players": 4}, (9, 20, 20), marks=pytest.mark.slow),
    ("towers", {}, (1239,)), ("shelfie", {"players": 2}, (982,)), ("projectl", {"players": 2}, (806,))])
def test_observations_keep_the_spatial_shape(game: str, params: dict, shape: tuple[int, ...]) -> None:
    """The observation space has the codec's shape (Blokus: planes x board), as OpenSpiel's tensor shape does."""
    env = kibitz_env(game, **params)
    assert env.observation_space("player_0")["observation"].shape == shape
    env.reset(seed=2)
    observed = env.observe("player_1")["observation"]
    assert observed.shape == shape and observed.dtype == np.float32
    assert np.array_equal(observed.reshape(-1), env.codec.observation_tensor(env.state, 1))
    if game == "blokus":
        env.step(int(np.flatnonzero(env.action_mask())[0]))
        planes = env.observe("player_0")["observation"].reshape(-1, shape[1] * shape[2]).sum(axis=1)
        colours = (shape[0] - 1) // 2  # planes: cells per colour (the one to move first), board mask, pieces left
        assert planes[0] == 0 and 1 <= planes[colours - 1] <= 5 and planes[colours] == shape[1] * shape[2]
        assert planes[colours + 1 :].tolist() == [21.0] * (colours - 1) + [20.0]
    pytest.importorskip("pyspiel")
    from solvers.openspiel import load_game

    assert tuple(load_game(game, **params).observation_tensor_shape()) == shape
