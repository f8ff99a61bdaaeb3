"""Every game of :data:`puzzles.GAMES` as a PettingZoo AEC environment (``pip install 'kibitz[rl]'``).

``env = kibitz_env("blokus", players=2, variant="duo")`` is a
:class:`pettingzoo.AECEnv` over the kibitz engine state (no second copy of the rules):

* agents ``player_0 .. player_{n-1}`` (the engine's seats); ``Discrete(num_actions)``
  actions with the integer layout of the game's codec (``puzzles/<game>/codec.py``);
* observations ``{"observation": Box(float32), "action_mask": Box(int8)}``: the codec's
  tensor of ``observation(agent)`` (hidden information stays hidden) in the codec's shape,
  the same as OpenSpiel's ``observation_tensor_shape`` (Blokus: ``[planes, size, size]``,
  ``[5, 14, 14]`` for Duo; the other games: flat), and the legal actions of the agent to
  move (all zeros for the others);
* ``reset(seed=s)`` deals the game from ``s`` exactly as ``GameInfo.new_game(players, s)``
  does and resolves every chance node with ``random.Random(s)`` and the engine's own
  ``sample_chance``, so a game is a pure function of the seed and the actions:
  replaying the same actions on the engine with the same seed gives the same scores;
* rewards are the engine's ``returns()`` at the end (1 to the winner, a tie for first
  shares 1), 0 before; ``infos[agent]["scores"]`` has the game's own points at the end;
* ``render()``: text (``render_mode="ansi"``); ``"svg"`` gives the engine's SVG
  picture; ``"rgb_array"`` an RGB image (numpy ``uint8``) for Blokus and My Shelfie (drawn
  straight from the board arrays in the SVG colours; the other two games have none).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from puzzles.game import CHANCE, GAMES, GameInfo, GameState, advance_chance, game_info

__all__ = ["KibitzEnv", "kibitz_env", "replay_scores"]


def codec_of(info: GameInfo, state: GameState[Any]) -> Any:
    """The codec of ``state`` (``GameInfo.codec``, imported on first use; the same as solvers.openspiel's)."""
    module_name, _, function_name = info.codec.partition(":")
    make: Callable[[GameState[Any]], Any] = getattr(importlib.import_module(module_name), function_name)
    return make(state)


class KibitzEnv(AECEnv):  # type: ignore[misc]
    """A kibitz game as a PettingZoo AEC environment (see the module docstring)."""

    RENDER_MODES = ("ansi", "svg", "rgb_array")
    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "name": "kibitz_v0", "is_parallelizable": False}

    def __init__(self, game: str, players: int | None = None, render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        self.info = game_info(game)
        self.game_options = options
        probe = self.info.new_game(players, 0, **options)
        self.num_players = probe.num_players
        self.players = players
        self.codec = codec_of(self.info, probe)
        self.metadata = {**self.metadata, "name": f"kibitz_{game}_v0"}
        modes = [m for m in self.RENDER_MODES if m != "rgb_array" or hasattr(self.codec, "rgb_array")]
        self.metadata["render_modes"] = modes
        if render_mode is not None and render_mode not in modes:
            raise ValueError(f"render_mode must be one of {', '.join(modes)} for {game}, got {render_mode!r}")
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(self.num_players)]
        self.observation_shape = tuple(int(n) for n in self.codec.observation_shape)
        obs_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, self.observation_shape, np.float32),
            "action_mask": spaces.Box(0, 1, (self.codec.num_actions,), np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.codec.num_actions) for a in self.possible_agents}
        self.state: GameState[Any] = probe
        self.rng = random.Random(0)
        self._mask = np.zeros(self.codec.num_actions, dtype=np.int8)
        self.actions: list[int] = []

    # -- spaces ---------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the game -----------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game dealt from ``seed`` (a random seed when None); chance drawn with ``random.Random(seed)``."""
        self.seed = random.randrange(2**31) if seed is None else int(seed)
        self.state = self.info.new_game(self.players, self.seed, **self.game_options)
        self.rng = random.Random(self.seed)
        advance_chance(self.state, self.rng)
        self.actions = []
        self.final_scores: list[float] | None = None
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        player = self.state.current_player()
        if player >= 0:
            self.agent_selection = self.possible_agents[player]
        elif not hasattr(self, "agent_selection") or self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = self.possible_agents.index(agent)
        tensor = np.asarray(self.codec.observation_tensor(self.state, player), dtype=np.float32)
        tensor = tensor.reshape(self.observation_shape)
        if player == self.state.current_player():
            mask = self.codec.legal_mask(self.state).astype(np.int8, copy=False)
        else:
            mask = np.zeros(self.codec.num_actions, dtype=np.int8)
        return {"observation": tensor, "action_mask": mask}

    def action_mask(self) -> np.ndarray:
        """The legal-action mask of the agent to move (a reused buffer: copy it to keep it)."""
        return self.codec.legal_mask(self.state, self._mask)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert action is not None
        self._cumulative_rewards[agent] = 0.0
        self.codec.apply_id(self.state, int(action))
        self.actions.append(int(action))
        advance_chance(self.state, self.rng)
        self.rewards = {a: 0.0 for a in self.agents}
        if self.state.is_terminal():
            returns = self.state.returns()
            scores = self.state.scores()
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = float(returns[i])
                self.terminations[a] = True
                self.infos[a] = {"scores": list(scores), "returns": list(returns)}
            self.final_scores = list(scores)
        else:
            self._select()
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self) -> str | np.ndarray | None:
        if self.render_mode == "rgb_array":
            image: np.ndarray = self.codec.rgb_array(self.state)
            return image
        if self.render_mode == "svg":
            svg = getattr(self.state, "_repr_svg_", None)
            return svg() if svg is not None else None
        return str(self.codec.to_string(self.state))

    def close(self) -> None:
        pass


def kibitz_env(game: str, players: int | None = None, render_mode: str | None = None, **options: Any) -> KibitzEnv:
    """The AEC environment of the registered game ``game`` (``options``: its :class:`GameOption` values)."""
    return KibitzEnv(game, players, render_mode, **options)


def replay_scores(game: str, seed: int, actions: list[int], players: int | None = None,
                  **options: Any) -> list[float]:
    """The engine's own final scores for ``actions`` (ids) from the game dealt by ``seed``, chance as in reset."""
    info = GAMES[game]
    state = info.new_game(players, seed, **options)
    codec = codec_of(info, state)
    rng = random.Random(seed)
    advance_chance(state, rng)
    for action_id in actions:
        assert state.current_player() != CHANCE
        state.apply(codec.decode(state, action_id))
        advance_chance(state, rng)
    return state.scores()
