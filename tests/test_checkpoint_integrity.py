"""Checkpoints that can't lie (issue 33): every line carries its job and a checksum, results are range-checked.

Real checkpoints are written through the CLI (a split tile count, a solitaire count, a towers playout), then
edited line by line: each edit (a count of (9, 2), 10^30, 109,760, negative, a float, a string, another job,
keys deleted, a second line for a task, a task number swapped, garbage, ...) is refused with one line naming
the file and the line; ``--repair`` drops the bad lines and recomputes the exact totals; ``--verify K``
recomputes finished parts and catches a line whose checksum was made to fit its edit (a forged line).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from solvers.parallel import record_sum

TILE = ["tile", "3x20", "--count", "--split-depth", "1", "--workers", "1", "--json"]
SOLITAIRE = ["blokus", "solitaire", "tetrominoes", "--region", "8x5", "--colors", "2", "--no-edge-rule", "--count",
             "--split-depth", "2", "--json"]
PLAYOUT = ["towers", "playout", "--games", "6", "--workers", "1", "--json", "--quiet"]
COMMANDS = {"tile": TILE, "solitaire": SOLITAIRE, "playout": PLAYOUT}
#: The figures of an honest run, checked against a run without a checkpoint in test_honest_runs_agree.
TRUTH = {"tile": ("count_raw", 8), "solitaire": ("count_raw", 99_392), "playout": ("games", 6)}


def invoke(*args: str) -> Any:
    from cli import main

    return CliRunner().invoke(main, list(args), catch_exceptions=True)


def one_line_error(result: Any) -> str:
    """The single ``Error:`` line of a refused run (no traceback, exit status 1)."""
    leaked = result.exception if not isinstance(result.exception, SystemExit) else None
    assert leaked is None, f"traceback: {type(leaked).__name__}: {leaked}"
    assert result.exit_code == 1, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error")]
    assert len(errors) == 1 and "Traceback" not in result.output, result.output
    return errors[0]


def run(kind: str, checkpoint: Path, *extra: str) -> Any:
    return invoke(*COMMANDS[kind], "--checkpoint", str(checkpoint), *extra)


def figure(kind: str, result: Any) -> Any:
    key, _ = TRUTH[kind]
    assert result.exit_code == 0, result.output
    return parsed(result)[key]


def parsed(result: Any) -> dict[str, Any]:
    """The JSON document of a run's output (notices on stderr may follow it)."""
    document, _ = json.JSONDecoder().raw_decode(result.output[result.output.index("{"):])
    return document


@pytest.fixture(scope="module")
def honest(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """The lines of an honest checkpoint of each kind (the run checked against the known total)."""
    folder = tmp_path_factory.mktemp("honest")
    lines = {}
    for kind in COMMANDS:
        path = folder / f"{kind}.jsonl"
        assert figure(kind, run(kind, path)) == TRUTH[kind][1]
        lines[kind] = path.read_text().splitlines(keepends=True)
    return lines


def target(kind: str, lines: list[str]) -> int:
    """The line to edit: a record that counts something (not the header, not an empty part; for a playout, a
    decided game, whose wins reversed are a forgery: parts may be written in any order, and a draw reverses to
    itself)."""
    for number, line in enumerate(lines):
        record = json.loads(line)
        result = record.get("result")
        if result is None:
            continue
        if kind == "playout" and result["wins"] != result["wins"][::-1]:  # a decided game: the forgery changes it
            return number
        if kind != "playout" and result[0] > 0:
            return number
    raise AssertionError("no record with a count")


def forged(record: dict[str, Any]) -> str:
    """The record with its checksum made to fit (what a careful forger writes)."""
    record = {k: v for k, v in record.items() if k != "sum"}
    record["sum"] = record_sum(record)
    return json.dumps(record) + "\n"


def set_count(kind: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """An edit of the record's main figure: a part's count, or a playout task's first bot's wins."""

    def edit(record: dict[str, Any]) -> None:
        if kind == "playout":
            record["result"]["wins"] = list(value) if isinstance(value, tuple) else [value, 0.0]
        elif isinstance(value, tuple):
            record["result"][: len(value)] = list(value)
        else:
            record["result"][0] = value
    return edit


def edits(kind: str) -> dict[str, Callable[[list[str], int], list[str]]]:
    """Named edits of a checkpoint (lines, index of the record to edit) -> new lines."""

    def on_record(change: Callable[[dict[str, Any]], None], fit_checksum: bool) -> Callable[[list[str], int], list[str]]:
        def apply(lines: list[str], at: int) -> list[str]:
            record = json.loads(lines[at])
            change(record)
            text = forged(record) if fit_checksum else json.dumps(record) + "\n"
            return [*lines[:at], text, *lines[at + 1:]]
        return apply

    def drop(key: str) -> Callable[[dict[str, Any]], None]:
        return lambda record: record.pop(key)

    def assign(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
        return lambda record: record.__setitem__(key, value)

    def games(value: Any) -> Callable[[dict[str, Any]], None]:
        return lambda record: record["result"].__setitem__("games", value)

    counts: dict[str, Callable[[dict[str, Any]], None]] = {
        "(9, 2)": set_count(kind, (9, 2)), "10^30": set_count(kind, 10**30), "109760": set_count(kind, 109_760),
        "negative": set_count(kind, -1), "string": set_count(kind, "8"),
        "float": games(1.5) if kind == "playout" else set_count(kind, 8.5),
        "null result": assign("result", None), "extra key": assign("note", "mine"),
        "task true": assign("task", True), "task string": assign("task", "0"),
        "task out of range": assign("task", 10**6), "task negative": assign("task", -1),
    }
    table: dict[str, Callable[[list[str], int], list[str]]] = {}
    for name, change in counts.items():
        table[f"{name} (checksum stale)"] = on_record(change, False)
        table[f"{name} (checksum fitted)"] = on_record(change, True)
    table["another job"] = on_record(assign("job", "tiling-count-0000000000000000"), False)
    table["another job (checksum fitted)"] = on_record(assign("job", "tiling-count-0000000000000000"), True)
    table["no sum"] = on_record(drop("sum"), False)
    table["no result"] = on_record(drop("result"), True)
    table["no task"] = on_record(drop("task"), True)
    table["no job"] = on_record(drop("job"), True)
    table["sum garbled"] = on_record(assign("sum", "0123456789abcdef"), False)
    table["task swapped"] = on_record(lambda record: record.__setitem__("task", record["task"] + 1), False)
    table["task swapped (checksum fitted)"] = on_record(lambda record: record.__setitem__("task", record["task"] + 1),
                                                        True)

    def duplicate(lines: list[str], at: int) -> list[str]:
        record = json.loads(lines[at])
        set_count(kind, 0)(record)
        return [*lines, forged(record)]

    def raw_line(text: str) -> Callable[[list[str], int], list[str]]:
        return lambda lines, at: [*lines[:at], text, *lines[at:]]

    def old_format(lines: list[str], _at: int) -> list[str]:
        return [json.dumps({k: v for k, v in json.loads(line).items() if k != "sum"}) + "\n" for line in lines]

    def foreign_header(lines: list[str], _at: int) -> list[str]:
        return [forged({"job": "tiling-count-0000000000000000"}), *lines[1:]]

    table["duplicate with another value"] = duplicate
    table["garbage"] = raw_line("garbage, not JSON\n")
    table["a JSON array"] = raw_line("[1, 2, 3]\n")
    table["NaN"] = raw_line('{"job": "x", "task": 0, "result": NaN, "sum": "0"}\n')
    table["nested 200 deep"] = raw_line("[" * 200 + "]" * 200 + "\n")
    table["a 2 MB line"] = raw_line('"' + "x" * 2_000_000 + '"\n')
    table["old format (no checksums)"] = old_format
    table["header of another job"] = foreign_header
    return table


CASES = [(kind, name) for kind in COMMANDS for name in edits(kind)]


def test_enough_edits() -> None:
    assert len(CASES) >= 50 * 2  # at least 50 per the issue; here over 100 across the three kinds


@pytest.mark.parametrize(("kind", "name"), CASES, ids=[f"{k}: {n}" for k, n in CASES])
def test_each_edited_line_is_refused_in_one_line(honest: dict[str, list[str]], tmp_path: Path, kind: str,
                                                 name: str) -> None:
    lines = honest[kind]
    checkpoint = tmp_path / "c.jsonl"
    checkpoint.write_text("".join(edits(kind)[name](lines, target(kind, lines))))
    before = checkpoint.read_text()
    error = one_line_error(run(kind, checkpoint))
    assert str(checkpoint) in error
    assert "another job" in error if "header" in name else " line " in error, error
    assert checkpoint.read_text() == before  # a refused file is left as it was


@pytest.mark.parametrize("kind", list(COMMANDS))
def test_repair_drops_bad_lines_and_recomputes_the_true_total(honest: dict[str, list[str]], tmp_path: Path,
                                                              kind: str) -> None:
    lines = honest[kind]
    at = target(kind, lines)
    table = edits(kind)
    damaged = table["109760 (checksum stale)"](lines, at)
    damaged = table["garbage"](damaged, 2)
    damaged = table["negative (checksum fitted)"](damaged, len(damaged) - 1)
    checkpoint = tmp_path / "c.jsonl"
    checkpoint.write_text("".join(damaged))
    one_line_error(run(kind, checkpoint))
    repaired = run(kind, checkpoint, "--repair")
    assert figure(kind, repaired) == TRUTH[kind][1]
    assert "dropped 3 bad line(s)" in repaired.output
    assert figure(kind, run(kind, checkpoint)) == TRUTH[kind][1]  # the file is whole again: no repair needed
    assert len(checkpoint.read_text().splitlines()) == len(lines)


def test_duplicate_with_another_value_is_repaired_by_recounting_both(honest: dict[str, list[str]],
                                                                     tmp_path: Path) -> None:
    lines = honest["tile"]
    checkpoint = tmp_path / "c.jsonl"
    checkpoint.write_text("".join(edits("tile")["duplicate with another value"](lines, target("tile", lines))))
    assert "again, with another result" in one_line_error(run("tile", checkpoint))
    assert figure("tile", run("tile", checkpoint, "--repair")) == 8


@pytest.mark.parametrize("kind", list(COMMANDS))
def test_old_checkpoints_are_refused_then_recounted_with_repair(honest: dict[str, list[str]], tmp_path: Path,
                                                                kind: str) -> None:
    checkpoint = tmp_path / "old.jsonl"
    checkpoint.write_text("".join(edits(kind)["old format (no checksums)"](honest[kind], 0)))
    assert "no checksum" in one_line_error(run(kind, checkpoint))
    assert figure(kind, run(kind, checkpoint, "--repair")) == TRUTH[kind][1]


def test_another_jobs_file_is_refused_even_with_repair(honest: dict[str, list[str]], tmp_path: Path) -> None:
    checkpoint = tmp_path / "c.jsonl"
    checkpoint.write_text("".join(honest["tile"]))
    for kind in ("solitaire", "playout"):
        error = one_line_error(run(kind, checkpoint, "--repair"))
        assert "another job" in error and "tiling-count-" in error
    assert checkpoint.read_text() == "".join(honest["tile"])  # never emptied


def test_a_torn_last_line_is_not_an_edit(honest: dict[str, list[str]], tmp_path: Path) -> None:
    """A kill during a write leaves a last line without its end: that task runs again, no refusal."""
    lines = honest["solitaire"]
    checkpoint = tmp_path / "c.jsonl"
    checkpoint.write_text("".join(lines[:-1]) + lines[-1][: len(lines[-1]) // 2])
    assert figure("solitaire", run("solitaire", checkpoint)) == 99_392
    after = checkpoint.read_text().splitlines(keepends=True)
    assert after[:-1] == lines[:-1] and after[-1] == lines[-1]  # the torn half cut off, the part counted again


@pytest.mark.parametrize("kind", list(COMMANDS))
def test_verify_passes_on_an_honest_file(honest: dict[str, list[str]], tmp_path: Path, kind: str) -> None:
    checkpoint = tmp_path / "c.jsonl"
    checkpoint.write_text("".join(honest[kind]))
    assert figure(kind, run(kind, checkpoint, "--verify", "3")) == TRUTH[kind][1]


@pytest.mark.parametrize("kind", list(COMMANDS))
def test_verify_catches_a_forged_line(honest: dict[str, list[str]], tmp_path: Path, kind: str) -> None:
    """A plausible edit with its checksum fitted passes every check but recomputing: the file alone would
    give a wrong total; ``--verify 3`` recomputes the (only) finished part and refuses the file."""
    lines = honest[kind]
    record = json.loads(lines[target(kind, lines)])
    if kind == "playout":  # the other bot won that game
        record["result"]["wins"].reverse()
        record["result"]["seat_wins"].reverse()
        record["result"]["score_sums"].reverse()
        record["result"]["score_sq_sums"].reverse()
    else:
        record["result"][: len(record["result"]) - 1] = [0] * (len(record["result"]) - 1)  # no tilings there
    checkpoint = tmp_path / "c.jsonl"
    checkpoint.write_text(lines[0] + forged(record))
    trusted = run(kind, checkpoint)  # without --verify the forged part is believed
    if kind != "playout":
        assert figure(kind, trusted) < TRUTH[kind][1]
    checkpoint.write_text(lines[0] + forged(record))
    error = one_line_error(run(kind, checkpoint, "--verify", "3"))
    assert f"line 2: task {record['task']} recomputes to" in error and "forged" in error


def test_forged_orbit_sums_are_a_one_line_error(honest: dict[str, list[str]], tmp_path: Path) -> None:
    """Sums that pass each line's bounds but make no whole number of orbits: one line, not an AssertionError."""
    lines = list(honest["tile"])
    at = target("tile", lines)
    record = json.loads(lines[at])
    record["result"][1] += 2  # raw 8 <= 10 <= 4 x 8, a multiple of the weight 2: only the total is wrong
    lines[at] = forged(record)
    checkpoint = tmp_path / "c.jsonl"
    checkpoint.write_text("".join(lines))
    assert "whole orbits" in one_line_error(run("tile", checkpoint))


def test_repair_and_verify_need_a_checkpoint() -> None:
    assert "--checkpoint" in one_line_error(invoke(*TILE, "--repair"))
    assert "--checkpoint" in one_line_error(invoke(*SOLITAIRE, "--verify", "2"))
    assert "--checkpoint" in one_line_error(invoke(*PLAYOUT, "--verify", "2"))


def test_honest_runs_agree() -> None:
    """The totals the edits are judged against, from runs without any checkpoint."""
    for kind, args in COMMANDS.items():
        key, value = TRUTH[kind]
        result = invoke(*args)
        assert parsed(result)[key] == value
