"""The goal-lemma command never damages the shipped lemmas: --write goes elsewhere unless --force, and a
stored lemma is never replaced by a weaker one."""

from __future__ import annotations

import json
import subprocess
import sys

from solvers.shelfie.goal_bounds import merge_lemmas, stronger_or_equal
from solvers.shelfie.model import BOUNDS_FILE, stored_bounds


def _stored(goals: list[str]) -> dict:
    return next(e for e in stored_bounds() if e["goals"] == goals)


def test_a_weaker_lemma_never_replaces_a_stronger_one() -> None:
    strong = _stored(["TWO_COLUMNS_ALL_DIFFERENT", "X_SHAPE"])
    weak = {**strong, "infeasible_profiles": strong["infeasible_profiles"][:3]}  # fewer impossible profiles
    assert not stronger_or_equal(weak, strong) and stronger_or_equal(strong, weak)
    entries, kept = merge_lemmas(list(stored_bounds()), [weak])
    assert kept == ["TWO_COLUMNS_ALL_DIFFERENT+X_SHAPE"]
    assert next(e for e in entries if e["goals"] == strong["goals"]) == strong
    higher = {**strong, "max_adjacency": strong["max_adjacency"] + 1}
    assert merge_lemmas(list(stored_bounds()), [higher])[1] == ["TWO_COLUMNS_ALL_DIFFERENT+X_SHAPE"]
    better = {**strong, "infeasible_profiles": strong["infeasible_profiles"] + [[0, 9, 9, 9, 9]]}
    entries, kept = merge_lemmas(list(stored_bounds()), [better])
    assert kept == [] and better in entries and len(entries) == len(stored_bounds())


def test_bad_goal_names_are_refused_before_any_proof(tmp_path) -> None:
    before = BOUNDS_FILE.read_text()
    result = subprocess.run([sys.executable, "-m", "solvers.shelfie.goal_bounds", "X_SHAPE+NOPE", "--write"],
                            capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert result.returncode == 2 and "Traceback" not in result.stderr and "NOPE" in result.stderr
    assert BOUNDS_FILE.read_text() == before and not (tmp_path / "shelfie_goal_bounds.json").exists()
    json.loads(before)
