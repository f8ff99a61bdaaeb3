"""Matches (`kibitz blokus match`): the driver against a second kibitz speaking GTP, and in-process."""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path

import pytest

from puzzles.blokus.engine import BlokusState
from puzzles.game import shared_win_returns
from solvers.blokus.match import (
    ENGINE_FAILED,
    GtpSide,
    LocalSide,
    SeatSides,
    pentobi_command,
    run_match,
    seat_rank,
    seat_sides,
)
from tests.bench_scripts import bench_module

ROOT = Path(__file__).resolve().parent.parent
#: Pentobi's GTP engine, built outside the repository (bench/blokus_vs_pentobi.sh says how); tests that need it skip
#: when it is absent.
PENTOBI = os.environ.get("KIBITZ_PENTOBI", "/tmp/pentobi/build/pentobi_gtp/pentobi-gtp")

KIBITZ = f"{shlex.quote(sys.executable)} -c 'from cli import main; main()'"


def gtp_command(variant: str, bot: str) -> str:
    return f"{KIBITZ} blokus gtp --variant {variant} --bot {bot}"


def outcome(match) -> list[tuple]:
    return [(g.seat_a, g.result, g.color_scores, g.moves) for g in match.games]


@pytest.mark.parametrize("variant", [pytest.param("duo", marks=pytest.mark.slow), "two-player"])
def test_gtp_process_gives_the_in_process_games(variant: str) -> None:
    local = run_match(LocalSide("greedy"), LocalSide("random"), variant, 4, seed=7)
    remote_side = GtpSide(gtp_command(variant, "random"))
    try:
        remote = run_match(LocalSide("greedy"), remote_side, variant, 4, seed=7)
    finally:
        remote_side.close()
    assert outcome(remote) == outcome(local)
    assert [g.seat_a for g in local.games] == [0, 1, 0, 1]
    assert all(g.scores_agree and g.final_scores for g in remote.games)
    s = remote.summary()
    assert s["games"] == 4 and s["final_score_mismatches"] == 0 and s["status"] == "complete"
    assert s["cpu_per_move_b"] >= 0 and 0 <= s["win_ci95"][0] <= s["score"] <= s["win_ci95"][1] <= 1


def test_classic_one_colour_against_three() -> None:
    match = run_match(LocalSide("greedy"), LocalSide("random"), "classic", 2, seed=1)
    assert [g.seat_a for g in match.games] == [0, 1]
    assert all(len(g.color_scores) == 4 for g in match.games)


def test_seat_rank_shares_tied_places() -> None:
    scores = [-7.0, -20.0, -7.0, -30.0]
    assert [seat_rank(scores, seat) for seat in range(4)] == [1.5, 3.0, 1.5, 4.0]
    assert seat_rank([5.0, 5.0, 5.0], 1) == 2.0


class Recorder(LocalSide):
    """A local side that records, for each move it is asked, (seat it holds, colour, green pieces placed)."""

    asked: list[tuple[int, int, int]]

    def genmove(self, state, color):
        self.asked = getattr(self, "asked", [])
        self.asked.append((state.player_of_color(color), color, int(state.arrays.placed[3])))
        return super().genmove(state, color)


def test_classic_rotates_side_a_through_the_four_seats_and_scores_by_rank() -> None:
    match = run_match(LocalSide("greedy"), LocalSide("random"), "classic", 4, seed=1)
    assert [g.seat_a for g in match.games] == [0, 1, 2, 3]
    for g in match.games:
        assert g.result == shared_win_returns(g.seat_scores)[g.seat_a]
        assert g.rank == seat_rank(g.seat_scores, g.seat_a) and 1 <= g.rank <= 4
        assert g.expected_final.split() == [str(c + 89) for c in g.color_scores]  # Pentobi's points
    s = match.summary()
    assert s["score"] == sum(g.result for g in match.games) / 4
    assert s["mean_rank_a"] == sum(g.rank for g in match.games) / 4
    assert [(r["seat"], r["games"], r["score"]) for r in s["by_seat_a"]] == [(g.seat_a, 1, g.result) for g in match.games]


def test_three_player_over_gtp_gives_the_in_process_games_and_side_a_plays_its_green_turns() -> None:
    recorder = Recorder("greedy")
    local = run_match(recorder, LocalSide("random"), "three-player", 3, seed=2)
    assert [g.seat_a for g in local.games] == [0, 1, 2]
    greens = [(seat, placed) for seat, color, placed in recorder.asked if color == 3]
    assert greens and all(placed % 3 == seat for seat, placed in greens)
    assert {seat for seat, _ in greens} == {0, 1, 2}
    remote_side = GtpSide(gtp_command("three-player", "random"))
    try:
        remote = run_match(LocalSide("greedy"), remote_side, "three-player", 3, seed=2)
    finally:
        remote_side.close()
    assert outcome(remote) == outcome(local)
    assert all(g.scores_agree and g.final_scores for g in remote.games)
    assert all(len(g.expected_final.split()) == 4 for g in remote.games)  # green's points too, as Pentobi answers
    assert remote.summary()["final_score_mismatches"] == 0


#: A GTP peer (kibitz's engine) that answers ``final_score`` in kibitz's own convention (minus the squares left)
#: instead of Pentobi's points: the match must count every game as a disagreement.
OLD_CONVENTION_PEER = """
import sys
sys.path.insert(0, {root!r})
from solvers.blokus.gtp import GtpEngine

engine = GtpEngine("classic", "random")
for line in sys.stdin:
    if line.split()[:1] == ["final_score"]:
        print("= " + " ".join(str(s) for s in engine.state.color_scores()) + "\\n", flush=True)
        continue
    response = engine.handle(line)
    if response is not None:
        sys.stdout.write(response)
        sys.stdout.flush()
    if engine.quit:
        break
"""


def test_a_final_score_in_another_convention_is_a_mismatch(tmp_path: Path) -> None:
    script = tmp_path / "peer.py"
    script.write_text(OLD_CONVENTION_PEER.format(root=str(ROOT)))
    side = GtpSide(shlex.join([sys.executable, str(script)]))
    try:
        match = run_match(LocalSide("greedy"), side, "classic", 1, seed=3)
    finally:
        side.close()
    assert match.status == "complete" and match.summary()["final_score_mismatches"] == 1
    assert not any(g.scores_agree for g in match.games)


class Cheater(LocalSide):
    """Plays the first game fairly, then answers a fixed illegal move."""

    def new_game(self, state, seed):
        super().new_game(state, seed)
        self.games = getattr(self, "games", 0) + 1

    def genmove(self, state, color):
        if self.games == 1:
            return super().genmove(state, color)
        return state.string_to_action("a1"), 0.0


def test_illegal_opponent_move_stops_the_match_and_keeps_the_finished_games() -> None:
    match = run_match(LocalSide("greedy"), Cheater("random"), "duo", 3)
    assert match.status == ENGINE_FAILED and len(match.games) == 1
    assert match.error == ("game 2: kibitz random played an illegal move (ply 1, purple): a1: "
                           "the first purple piece must cover a starting cell (e10)")
    s = match.summary()
    assert s["status"] == "engine failed" and s["interrupted"] is False and s["games"] == 1 and s["error"] == match.error


def test_match_command_json(run_cli) -> None:
    result = run_cli("blokus", "match", "--variant", "duo", "--bots", "greedy", "--opponent", gtp_command("duo", "random"),
                     "--games", "2", "--seed", "3", "--json", "--quiet")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 2 and data["status"] == "complete" and data["final_score_mismatches"] == 0
    again = json.loads(run_cli("blokus", "match", "--variant", "duo", "--bots", "greedy", "--opponent-bot", "random",
                               "--games", "2", "--seed", "3", "--json", "--quiet").stdout)
    assert [g["moves"] for g in again["game_list"]] == [g["moves"] for g in data["game_list"]]
    bad = run_cli("blokus", "match", "--bots", "greedy", "--games", "1")
    assert bad.exit_code == 2 and "side B" in bad.output
    missing = run_cli("blokus", "match", "--bots", "greedy", "--opponent", "/nonexistent/engine", "--games", "1")
    assert missing.exit_code == 1 and "cannot start" in missing.output


@pytest.mark.slow
def test_gtp_mcts_rave_gives_the_in_process_games() -> None:
    local = run_match(LocalSide("greedy"), LocalSide("mcts-rave:40"), "duo", 2, seed=4)
    remote_side = GtpSide(gtp_command("duo", "mcts-rave:40"))
    try:
        remote = run_match(LocalSide("greedy"), remote_side, "duo", 2, seed=4)
    finally:
        remote_side.close()
    assert outcome(remote) == outcome(local)


@pytest.mark.slow
@pytest.mark.skipif(not os.access(PENTOBI, os.X_OK), reason="Pentobi's GTP engine is not built")
@pytest.mark.parametrize("variant, games", [("classic", 4), ("three-player", 3)])
def test_against_pentobi_side_a_rotates_and_final_scores_agree(variant: str, games: int) -> None:
    pentobi = GtpSide(pentobi_command(PENTOBI, variant, 1))
    try:
        match = run_match(LocalSide("mcts-rave:200"), pentobi, variant, games, seed=1)
    finally:
        pentobi.close()
    s = match.summary()
    assert s["status"] == "complete" and s["games"] == games and s["final_score_mismatches"] == 0
    assert [g.seat_a for g in match.games] == list(range(games))
    assert all(g.final_scores for g in match.games)


def test_mcts_rave_three_player_green_counts_for_nobody_and_its_mover_chooses() -> None:
    """The shared green's score counts for no seat, and its k-th move is valued for seat k % 3 (Pentobi's alt player)."""
    import numpy as np

    from solvers.blokus.mcts import Params
    from solvers.blokus.mcts.tree import mover

    params = Params(BlokusState("three-player"))
    assert params.player_of.tolist() == [0, 1, 2, -1]
    assert [mover.py_func(3, params.player_of, np.array([0, 0, 0, k])) for k in range(5)] == [0, 1, 2, 0, 1]
    assert mover.py_func(2, params.player_of, np.array([0, 0, 7, 4])) == 2
    assert Params(BlokusState("classic")).player_of.tolist() == [0, 1, 2, 3]


def test_mcts_rave_multiplayer_quality_bonus_is_pentobis() -> None:
    """With 3+ seats a result is the rank result plus 0.3 sigmoid(z of points minus the others' mean) and
    -0.12 (result - 0.5) sigmoid(z of the game length), z against the search's running statistics."""
    import numpy as np

    from solvers.blokus.mcts.playout import _quality_bonus

    bonus = _quality_bonus.py_func
    stats = np.zeros((4, 3))
    val = np.array([1.0, 0.5, 0.0])
    bonus(np.array([5, 5, 5, 5]), np.array([-10.0, -20.0, -30.0]), val, 3, stats)
    assert val.tolist() == [1.0, 0.5, 0.0]  # no variance yet: no bonus
    val = np.array([0.0, 0.5, 1.0])
    bonus(np.array([6, 6, 6, 6]), np.array([-30.0, -20.0, -10.0]), val, 3, stats)
    s = np.tanh(1.0)  # sigmoid(2, 1): both z-scores are +-1 now
    assert val == pytest.approx([-0.24 * s, 0.5, 1.0 + 0.24 * s])
    assert stats[3].tolist() == [2.0, 22.0, 8.0]  # game lengths 20 and 24


def test_one_engine_per_seat_sits_side_a_in_its_seat_and_the_others_in_order() -> None:
    a = LocalSide("greedy")
    assert seat_sides(a, SeatSides([LocalSide("random") for _ in range(3)]), 2, 4)[2] is a
    b = SeatSides([LocalSide("random") for _ in range(3)])
    assert seat_sides(a, b, 1, 4) == [b.sides[0], a, b.sides[1], b.sides[2]]


@pytest.mark.slow  # three GTP processes; by default: the seats above, test_match_command_one_engine_per_seat, and
# test_three_player_over_gtp_gives_the_in_process_games_and_side_a_plays_its_green_turns (GTP games equal in-process)
def test_one_engine_per_seat_gives_the_games_of_one_engine_and_each_engine_hears_every_move() -> None:
    one = run_match(LocalSide("greedy"), LocalSide("random"), "classic", 2, seed=4)
    remote = SeatSides([GtpSide(gtp_command("classic", "random")) for _ in range(3)])
    try:
        per_seat = run_match(LocalSide("greedy"), remote, "classic", 2, seed=4)
    finally:
        remote.close()
    assert outcome(per_seat) == outcome(one)  # the random bot draws from the game seed and the move count
    assert all(sorted(g.final_scores) == ["b1: kibitz 0.1.0", "b2: kibitz 0.1.0", "b3: kibitz 0.1.0"]
               and g.scores_agree for g in per_seat.games)
    assert per_seat.summary()["side_b"] == "kibitz 0.1.0 x3"


def test_match_command_one_engine_per_seat(run_cli) -> None:
    result = run_cli("blokus", "match", "--variant", "three-player", "--bots", "greedy", "--opponent-bot", "random",
                     "--opponent-per-seat", "--games", "3", "--seed", "2", "--quiet")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "kibitz greedy vs kibitz random x2, three-player: 3 of 3 games (complete)"
    assert lines[2].startswith("mean rank ") and lines[2].endswith("seat 1 1.00 (1 games), seat 2 1.00 (1 games), "
                                                                 "seat 3 1.00 (1 games)")


def test_match_knobs_set_side_a_search_constants(run_cli) -> None:
    """--knobs reaches side A's mcts-rave: the defaults spelt out play the same games, another constant other games;
    the match records every knob in effect, and those read back through --knobs play the same games."""
    from solvers.blokus.tune import knobs_text

    recorded: list[dict] = []

    def moves(*knobs: str) -> list:
        result = run_cli("blokus", "match", "--variant", "duo", "--bots", "mcts-rave:300", *knobs, "--opponent-bot",
                         "random", "--games", "1", "--seed", "4", "--json", "--quiet")
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        recorded.append(data["settings_a"])
        return [g["moves"] for g in data["game_list"]]

    default = moves()
    settings = recorded[0]
    assert settings["bot"] == "mcts-rave:300" and settings["iterations"] == 300 and settings["seconds"] is None
    assert settings["knobs"]["fitted_priors"] == 1.0 and settings["knobs"]["exploration"] == 0.5  # Duo's defaults
    assert moves("--knobs", knobs_text(settings["knobs"])) == default and recorded[-1]["knobs"] == settings["knobs"]
    assert moves("--knobs", "exploration=0.5,rave_weight=0.7") == default
    assert moves("--knobs", "exploration=1.5,rave_weight=0") != default
    wrong = run_cli("blokus", "match", "--bots", "greedy", "--knobs", "rave_weight=0", "--opponent-bot", "random",
                    "--games", "1")
    assert wrong.exit_code == 1 and "mcts-rave" in wrong.output
    bad = run_cli("blokus", "match", "--bots", "mcts-rave:60", "--knobs", "warmth=2", "--opponent-bot", "random",
                  "--games", "1")
    assert bad.exit_code == 1 and "bad knob" in bad.output


def test_match_table_pools_matches_whose_budgets_differ_and_refuses_to_combine_them() -> None:
    """`bench/blokus_match_table.py --pool` sums the committed Duo matches at 150,000 and 165,000: its row's games,
    W-T-L and score are the files' own game results added up; `--combine` refuses them (the sides differ)."""
    table = bench_module("blokus_match_table")
    names = ["blokus_duo_l7_allknobs150k_s9.json", "blokus_duo_l7_allknobs165k_s11.json"]
    datas = [json.loads((ROOT / "bench" / "results" / name).read_text()) for name in names]
    results = [g["result"] for d in datas for g in d["game_list"]]
    wins, ties = results.count(1.0), sum(1 for r in results if 0.0 < r < 1.0)
    row = table.combined_row(datas, pool=True)
    assert f"| {len(results)}/{len(results)} (complete) |" in row
    assert f"| **{sum(results) / len(results):.3f}** [" in row
    assert f"| {wins}-{ties}-{len(results) - wins - ties} |" in row
    assert "pooled: kibitz mcts-rave:150000" in row and "kibitz mcts-rave:165000" in row
    with pytest.raises(SystemExit, match="not halves of one match"):
        table.combined_row(datas)


def test_prior_fit_skips_the_matches_played_with_the_fitted_priors() -> None:
    """`bench/blokus_prior_fit.py` reads a match's recorded knobs in effect (settings_a), or in an older file its label;
    a match played with Pentobi's priors is kept."""
    fit = bench_module("blokus_prior_fit")
    results = ROOT / "bench" / "results"

    def played(name: str) -> bool:
        return fit.played_fitted(json.loads((results / name).read_text()))

    assert played("blokus_duo_l8_default1100k_s114.json")  # the default, its settings recorded
    assert played("blokus_duo_l7_fitted200k_s96.json")  # named on the command line
    assert not played("blokus_duo_l7_allknobs150k_s9.json")
    assert not fit.played_fitted({"side_a": "kibitz mcts-rave:9", "settings_a": {"knobs": {"fitted_priors": 0.0}}})
