"""`kibitz blokus tune`: knob parsing, the SPSA step, A/B matches and SPSA runs with checkpoints and workers."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from puzzles.blokus.engine import BlokusState
from solvers.blokus.mcts import FastMCTSBot
from solvers.blokus.tune import ab_match, knobs_text, parse_knobs, spsa, spsa_gains, spsa_update

BUDGET = "12"  # iterations per move: deterministic games, fast


def test_parse_knobs_round_trip_and_errors() -> None:
    knobs = parse_knobs("exploration=0.6, rave_weight=0.25")
    assert knobs == {"exploration": 0.6, "rave_weight": 0.25}
    assert parse_knobs(knobs_text(knobs)) == knobs and parse_knobs("default") == {} and knobs_text({}) == "default"
    with pytest.raises(ValueError, match="bad knob 'c=1'"):
        parse_knobs("c=1")
    with pytest.raises(ValueError, match=r"exploration must lie in \[0.05, 1.5\], not 9"):
        parse_knobs("exploration=9")
    with pytest.raises(ValueError, match="'x' is not a number"):
        parse_knobs("rave_weight=x")


def test_spsa_update_moves_toward_the_winner_and_stays_in_range() -> None:
    x = {"exploration": 0.5, "rave_weight": 0.2}
    delta = {"exploration": 1, "rave_weight": -1}
    assert spsa_update(x, delta, 0.5, 0.1, 0.1) == x  # an even score: no move
    moved = spsa_update(x, delta, 0.75, 0.1, 0.1)  # g = 0.5 / 0.2 = 2.5, step 0.25
    assert moved == pytest.approx({"exploration": 0.75, "rave_weight": 0.0})  # clipped at 0
    a0, c0 = spsa_gains(0, 10, 0.05, 0.1)
    assert a0 == pytest.approx(0.05 / 2 ** 0.602) and c0 == pytest.approx(0.1)


def root_visits(bot: FastMCTSBot) -> np.ndarray:
    state = BlokusState("duo")
    for text in ("e10,f10,e9", "j5,i5,j4"):
        state.apply(state.string_to_action(text))
    return bot.search(state, seed=5)[1]


def test_knobs_reach_the_search() -> None:
    default = root_visits(FastMCTSBot(iterations=300, reuse=False))
    same = root_visits(FastMCTSBot(iterations=300, reuse=False,
                                   knobs={"exploration": 0.5, "rave_weight": 0.7, "rave_child_max": 2000.0}))
    assert np.array_equal(default, same)
    assert not np.array_equal(default, root_visits(FastMCTSBot(iterations=300, reuse=False, knobs={"rave_weight": 0.0})))
    assert not np.array_equal(default, root_visits(FastMCTSBot(iterations=300, reuse=False, knobs={"exploration": 1.2})))
    with pytest.raises(ValueError, match="unknown search constants"):
        FastMCTSBot(knobs={"temperature": 1.0})


def test_ab_match_resumes_from_its_checkpoint_and_workers_play_the_same_games(tmp_path: Path) -> None:
    path = tmp_path / "ab.jsonl"
    a = {"exploration": 0.3}
    first = ab_match("duo", BUDGET, a, {}, 2, seed=1, checkpoint=str(path))
    assert first.status == "complete" and [g["seat_a"] for g in first.games] == [0, 1]
    assert len(path.read_text().splitlines()) == 3  # header + 2 games
    more = ab_match("duo", BUDGET, a, {}, 3, seed=1, workers=2, checkpoint=str(path))
    assert more.games[:2] == first.games and len(more.games) == 3
    fresh = ab_match("duo", BUDGET, a, {}, 3, seed=1, workers=2)
    assert [g["result"] for g in fresh.games] == [g["result"] for g in more.games]
    s = more.summary()
    assert s["games"] == 3 and s["wins"] + s["ties"] + s["losses"] == 3 and s["a"] == "exploration=0.3"
    assert 0 <= s["ci95"][0] <= s["score"] <= s["ci95"][1] <= 1
    with pytest.raises(ValueError, match="belongs to a run with other settings"):
        ab_match("duo", BUDGET, {"exploration": 0.4}, {}, 2, seed=1, checkpoint=str(path))


def test_spsa_resumed_run_equals_an_uninterrupted_one(tmp_path: Path) -> None:
    start = {"exploration": 0.5}
    whole = spsa("duo", BUDGET, start, 2, 2, seed=3)
    path = tmp_path / "spsa.jsonl"
    spsa("duo", BUDGET, start, 2, 2, seed=3, checkpoint=str(path))
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:2]) + "\n")  # header + step 0: as if stopped after one step
    resumed = spsa("duo", BUDGET, start, 2, 2, seed=3, checkpoint=str(path))
    assert resumed.knobs == whole.knobs and len(resumed.steps) == 2
    step = whole.steps[0]
    assert step["plus"]["exploration"] != step["minus"]["exploration"]
    assert [g["seat_a"] for g in step["games"]] == [0, 1]
    assert whole.summary()["trace"][1]["after"] == knobs_text(whole.knobs)
    with pytest.raises(ValueError, match="tree_log2 takes whole numbers"):
        spsa("duo", BUDGET, {"tree_log2": 20.0}, 1, 2)  # refused before any game (its steps are continuous)


def test_tune_commands(run_cli) -> None:
    result = run_cli("blokus", "tune", "ab", "--a", "exploration=0.3", "--budget", BUDGET, "--games", "2", "--seed", "1",
                     "--json", "--quiet")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 2 and data["status"] == "complete" and data["a"] == "exploration=0.3"
    text = run_cli("blokus", "tune", "spsa", "--start", "exploration=0.5", "--steps", "1", "--budget", BUDGET, "--quiet")
    assert text.exit_code == 0, text.output
    assert text.stdout.startswith("SPSA, duo at 12: 1 of 1 steps (complete), 2 games each; from exploration=0.5 to ")
    bad = run_cli("blokus", "tune", "ab", "--a", "speed=2", "--games", "1")
    assert bad.exit_code == 2 and "bad knob 'speed=2'" in bad.output
    whole = run_cli("blokus", "tune", "spsa", "--start", "exploration=0.5,threads=2", "--steps", "1")
    assert whole.exit_code == 2 and "threads takes whole numbers" in whole.output and "tune ab" in whole.output
    odd = run_cli("blokus", "tune", "spsa", "--games-per-step", "3", "--steps", "1")
    assert odd.exit_code == 2 and "must be even" in odd.output
    lost = run_cli("blokus", "tune", "ab", "--games", "2", "--budget", BUDGET, "--scheduler", "garbage", "--quiet")
    assert lost.exit_code != 0 and "malformed Dask scheduler address" in lost.output


@pytest.mark.slow
def test_ab_match_and_spsa_on_a_dask_cluster_play_the_same_games() -> None:
    from tests.test_faults import _dask_cluster

    address, scheduler, workers = _dask_cluster(1)
    try:
        remote = ab_match("duo", BUDGET, {"exploration": 0.3}, {}, 2, seed=1, scheduler=address)
        remote_spsa = spsa("duo", BUDGET, {"exploration": 0.5}, 1, 2, seed=3, scheduler=address)
    finally:
        for process in [*workers, scheduler]:
            process.kill()
    local = ab_match("duo", BUDGET, {"exploration": 0.3}, {}, 2, seed=1)
    assert remote.status == "complete" and remote.games == [{**g, "cpu_a": r["cpu_a"], "cpu_b": r["cpu_b"]}
                                                            for g, r in zip(local.games, remote.games, strict=True)]
    assert remote_spsa.knobs == spsa("duo", BUDGET, {"exploration": 0.5}, 1, 2, seed=3).knobs


def test_knob_defaults_match_the_search() -> None:
    from solvers.blokus.mcts import Params
    from solvers.blokus.tune import DEFAULT_KNOBS

    for variant, knobs in DEFAULT_KNOBS.items():
        params = Params(BlokusState(variant))
        assert {k: getattr(params, k) for k in knobs} == knobs


def test_ab_match_with_four_seats_puts_a_in_each_seat_and_spsa_refuses_it(run_cli) -> None:
    match = ab_match("classic", "4", {"quality_bonus": 1.0}, {}, 4, seed=2)
    s = match.summary()
    assert [g["seat_a"] for g in match.games] == [0, 1, 2, 3] and s["fair_share"] == 0.25 and s["games"] == 4
    # the summary spells out every knob in effect: Pentobi's quality bonus is Classic's default, so A and B search
    # alike here; Classic's exploration constant, and no fitted priors outside Duo
    assert s["knobs_in_effect_a"] == s["knobs_in_effect_b"]
    assert all(f"{knob}," in s["knobs_in_effect_a"] for knob in ("quality_bonus=1", "exploration=0.4", "fitted_priors=0"))
    bad = run_cli("blokus", "tune", "spsa", "--variant", "classic", "--steps", "1")
    assert bad.exit_code == 2 and "SPSA tunes in duo or two-player" in bad.output


def test_ab_match_sides_may_have_different_budgets(run_cli) -> None:
    from solvers.blokus import tune

    tune._BOTS.clear()
    result = run_cli("blokus", "tune", "ab", "--budget", "12", "--budget-b", "30", "--a", "pentobi_counts=1",
                     "--games", "2", "--seed", "1", "--json", "--quiet")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["budget"] == "12/30"
    bots = {key: bot for key, bot in tune._BOTS.items()}
    assert bots[("12", "pentobi_counts=1@0")].iterations == 12 and bots[("12", "pentobi_counts=1@0")].pentobi_counts
    assert bots[("30", "default@0")].iterations == 30
    wrong = run_cli("blokus", "tune", "ab", "--budget-b", "soon", "--games", "1", "--quiet")
    assert wrong.exit_code != 0 and "--budget" in wrong.output


def test_knob_preset_expands_and_later_knobs_override() -> None:
    from solvers.blokus.tune import KNOB_PRESETS

    five = {"pentobi_counts": 1.0, "early_stop": 1.0, "lgr": 1.0, "quality_bonus": 1.0, "pentobi_stop": 1.0}
    assert KNOB_PRESETS["pentobi"] == five
    assert parse_knobs("pentobi") == five
    assert parse_knobs("pentobi, fitted_priors=1") == {**five, "fitted_priors": 1.0}
    assert parse_knobs("pentobi,lgr=0") == {**five, "lgr": 0.0}
    assert parse_knobs("exploration=0.3,pentobi") == {"exploration": 0.3, **five}
    with pytest.raises(ValueError, match="preset"):
        parse_knobs("pentobbi")
