"""Rainbow Blackjack bots: legality, no peeking, and (slow) strength over hundreds of seeded games."""

from __future__ import annotations

import random

import pytest

from puzzles.game import CHANCE
from puzzles.towers import TowersState, sample_state
from solvers.towers.bots import GreedyBot, ISMCTSBot, PIMCBot, make_bot, play_match


def positions(n_games: int = 2):
    rng = random.Random(0)
    for seed in range(n_games):
        s = TowersState.new_game(seed)
        while not s.is_terminal():
            if s.current_player() != CHANCE:
                yield s
            s.apply(s.sample_chance(rng) if s.current_player() == CHANCE else rng.choice(s.legal_actions()))


@pytest.mark.parametrize("bot", [GreedyBot(), PIMCBot(samples=3), ISMCTSBot(iterations=40, determinizations=4)], ids=lambda b: b.name)
def test_bots_choose_legal_actions_without_peeking(bot) -> None:
    for k, s in enumerate(positions(1)):
        if k % 3:
            continue
        action = bot.choose(s, random.Random(k))
        assert action in s.legal_actions()
        # same observation, different hidden opponent stones: same choice with the same random stream
        other = sample_state(s.observation(s.current_player()), random.Random(1000 + k))
        assert bot.choose(other, random.Random(k)) == action


def test_pimc_takes_an_instant_win() -> None:
    s = TowersState.placement_position(
        {0: [("R6", 0), ("R6", 0), ("R5", 0), ("R4", 0)], 2: [("Y6", 0), ("Y6", 0), ("Y6", 0), ("Y3", 0)], 4: [("B6", 0), ("B6", 0), ("B4", 0)]},
        (["R1", "B5", "Y1"], ["O1", "G1", "P1"]),
    )
    s.announcements = [
        {"round": 0, "player": 0, "line": 0, "mode": "colors", "values": ["R", "Y", "B"]},
        {"round": 0, "player": 1, "line": 0, "mode": "colors", "values": ["O", "G", "P"]},
    ]
    s.grids[1][0][0:3] = [s.hands[1][0], s.hands[1][1], s.hands[1][2]]
    assert PIMCBot(samples=2).choose(s, random.Random(0)) == s.string_to_action("B5>B")
    assert GreedyBot().choose(s, random.Random(0)) == s.string_to_action("B5>B")


def test_smoke_matches_finish() -> None:
    stats = play_match("pimc", "greedy", 2, seed=3, bot_kwargs={"pimc": {"samples": 4}})
    assert stats.games == 2 == stats.p1_wins + stats.p2_wins + stats.draws
    stats = play_match("random", "ismcts", 1, seed=4, bot_kwargs={"ismcts": {"iterations": 60}})
    assert stats.games == 1
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("oracle")


def _decided_share(bot: str, opponent: str, games: int, seed: int) -> tuple[float, int, int, int]:
    """Bot plays half the games as P1 and half as P2; share of the decided games it wins."""
    a = play_match(bot, opponent, games // 2, seed=seed)
    b = play_match(opponent, bot, games - games // 2, seed=seed + 1)
    wins, losses = a.p1_wins + b.p2_wins, a.p2_wins + b.p1_wins
    return wins / max(1, wins + losses), wins, losses, a.draws + b.draws


@pytest.mark.slow
@pytest.mark.parametrize(
    "bot, opponent, threshold",
    [("pimc", "random", 0.9), ("pimc", "greedy", 0.6), ("ismcts", "random", 0.9), ("ismcts", "greedy", 0.6)],
)
def test_bot_strength_over_400_games(bot: str, opponent: str, threshold: float) -> None:
    share, wins, losses, draws = _decided_share(bot, opponent, 400, seed=2024)
    print(f"{bot} vs {opponent}: {wins} wins, {losses} losses, {draws} draws, share of decided {share:.3f}")
    assert share >= threshold
