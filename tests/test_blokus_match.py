"""Matches (`kibitz blokus match`): the driver against a second kibitz speaking GTP, and in-process."""

from __future__ import annotations

import json
import shlex
import sys

import pytest

from solvers.blokus.match import ENGINE_FAILED, GtpSide, LocalSide, run_match

KIBITZ = f"{shlex.quote(sys.executable)} -c 'from cli import main; main()'"


def gtp_command(variant: str, bot: str) -> str:
    return f"{KIBITZ} blokus gtp --variant {variant} --bot {bot}"


def outcome(match) -> list[tuple]:
    return [(g.seat_a, g.result, g.color_scores, g.moves) for g in match.games]


@pytest.mark.parametrize("variant", ["duo", "two-player"])
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
