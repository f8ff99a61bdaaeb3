"""Rainbow Blackjack bots: legality, no peeking, the registry, and (slow) strength over hundreds of seeded games."""

from __future__ import annotations

import random

import pytest

from puzzles.game import CHANCE
from puzzles.towers import TowersState, new_game
from solvers.bots import RandomBot, make_bot
from solvers.playout import PlayoutStats, game_seed, make_job, play_game, playout_range, run_playouts, seating
from solvers.towers.bots import BOTS, GreedyBot, ISMCTSBot, PIMCBot, fast_playouts


def positions(n_games: int = 2):
    rng = random.Random(0)
    for seed in range(n_games):
        s = TowersState.new_game(seed)
        while not s.is_terminal():
            if s.current_player() != CHANCE:
                yield s
            s.apply(s.sample_chance(rng) if s.current_player() == CHANCE else rng.choice(s.legal_actions()))


#: Each bot made by the test that plays it (a PIMC bot's solver compiles on creation: not while collecting).
BOT_MAKERS = {"greedy": GreedyBot, "pimc": lambda: PIMCBot(samples=3),
              "ismcts": lambda: ISMCTSBot(iterations=40, determinizations=4)}


@pytest.mark.parametrize("name", BOT_MAKERS)
def test_bots_choose_legal_actions_without_peeking(name: str) -> None:
    bot = BOT_MAKERS[name]()
    assert bot.name == name
    for k, s in enumerate(positions(1)):
        if k % 3:
            continue
        action = bot.choose(s, random.Random(k))
        assert action in s.legal_actions()
        # same observation, different hidden opponent stones: same choice with the same random stream
        other = s.resample(s.current_player(), random.Random(1000 + k))
        assert other.observation(s.current_player()) == s.observation(s.current_player())
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
    grid = s.grids[1][0]
    assert grid is not None
    grid[0:3] = [s.hands[1][0], s.hands[1][1], s.hands[1][2]]
    assert PIMCBot(samples=2).choose(s, random.Random(0)) == s.string_to_action("B5>B")
    assert GreedyBot().choose(s, random.Random(0)) == s.string_to_action("B5>B")


def test_registry_names_and_budgets() -> None:
    assert set(BOTS) == {"greedy", "pimc", "ismcts", "equilibrium"}
    pimc = make_bot("towers", "pimc:24")
    assert isinstance(pimc, PIMCBot) and pimc.samples == 24 and pimc.name == "pimc:24"
    ismcts = make_bot("towers", "ismcts:300")
    assert isinstance(ismcts, ISMCTSBot) and ismcts.iterations == 300
    timed = make_bot("towers", "ismcts:0.05s")
    assert isinstance(timed, ISMCTSBot) and timed.seconds == 0.05
    assert make_bot("towers", "greedy").name == "greedy"
    assert make_bot("towers", "random").name == "random"
    with pytest.raises(ValueError, match="unknown towers bot"):
        make_bot("towers", "oracle")


def test_timed_bots_play_legal_moves() -> None:
    for spec in ("pimc:0.05s", "ismcts:0.05s"):
        bot = make_bot("towers", spec)
        for k, s in enumerate(positions(1)):
            if k % 11 == 0:
                assert bot.choose(s, random.Random(k)) in s.legal_actions()


def test_smoke_matches_finish() -> None:
    stats = run_playouts("towers", ["pimc:4", "greedy"], 2, seed=3)
    assert stats.games == 2 and sum(stats.wins) == pytest.approx(2)
    stats = run_playouts("towers", ["random", "ismcts:60"], 1, seed=4)
    assert stats.games == 1


def test_fast_playouts_are_split_invariant_and_only_for_random_seats() -> None:
    job = make_job("towers", ["random"], seed=3)
    whole = fast_playouts(job, 0, 3000)
    assert whole is not None and whole.games == 3000
    assert sum(whole.wins) == pytest.approx(3000)
    assert 0 < whole.seat_wins[0] < 3000
    parts = PlayoutStats(list(job.bots))
    for lo in range(0, 3000, 700):
        part = fast_playouts(job, lo, min(3000, lo + 700), chunk=256)
        assert part is not None
        parts.merge(part)
    assert parts.summary() == whole.summary()
    assert playout_range(job, 0, 3000).summary() == whole.summary()  # the generic runner uses the kernel
    assert fast_playouts(make_job("towers", ["random", "greedy"]), 0, 10) is None
    assert fast_playouts(make_job("towers", ["Random", "random"]), 0, 10) is not None
    assert fast_playouts(make_job("towers", ["random"], rotate=False), 0, 10) is not None


def test_fast_playouts_agree_with_the_engine_in_distribution() -> None:
    """Kernel and Python engine random games: same first-player advantage within sampling error."""
    fast = fast_playouts(make_job("towers", ["random"], rotate=False, seed=1), 0, 20_000)
    assert fast is not None
    slow = PlayoutStats(["random", "random"])
    for i in range(300):
        slow.add(play_game(TowersState.new_game(i), [RandomBot(), RandomBot()], random.Random(i)))
    fast_rate, slow_rate = fast.seat_wins[0] / fast.games, slow.seat_wins[0] / slow.games
    assert abs(fast_rate - slow_rate) < 0.1
    assert abs(fast.score_sums[0] / fast.games - slow.score_sums[0] / slow.games) < 0.4


def _decided_share(bot: str, opponent: str, games: int, seed: int) -> tuple[float, int, int, int]:
    """Bot plays half the games as P1 and half as P2 (seeded deals); its share of the decided games."""
    wins = losses = draws = 0
    bots = [make_bot("towers", bot), make_bot("towers", opponent)]
    for index in range(games):
        seats = seating(2, index, rotate=True)  # seats[s] = 0 where our bot sits
        final = play_game(new_game(2, game_seed(seed, index)), [bots[b] for b in seats], random.Random(index))
        assert isinstance(final, TowersState)
        if final.winner < 0:
            draws += 1
        elif seats[final.winner] == 0:
            wins += 1
        else:
            losses += 1
    return wins / max(1, wins + losses), wins, losses, draws


@pytest.mark.slow
@pytest.mark.parametrize(
    "bot, opponent, threshold",
    [("pimc", "random", 0.9), ("pimc", "greedy", 0.6), ("ismcts", "random", 0.9), ("ismcts", "greedy", 0.6)],
)
def test_bot_strength_over_400_games(bot: str, opponent: str, threshold: float) -> None:
    share, wins, losses, draws = _decided_share(bot, opponent, 400, seed=2024)
    print(f"{bot} vs {opponent}: {wins} wins, {losses} losses, {draws} draws, share of decided {share:.3f}")
    assert share >= threshold
