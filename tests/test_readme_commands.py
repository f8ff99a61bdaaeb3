"""Every shell command of the README, read from README.md on each run, as a user would type it.

* The default suite parses every ``kibitz`` command with the real CLI (commands, options, option
  values, bot names): a renamed option or a stale example fails here at once, in milliseconds.
* It also runs every command, in order, in one scratch directory (files written by one command,
  e.g. ``s.json``, are read by the next), in-process, with short budgets (:data:`BUDGETS`), the
  interactive ones answered ``quit``, and checks what the README says they print (:data:`EXPECT`).
* The Dask block (scheduler, worker, a count on it) runs as real processes on loopback.

README notation: ``[--opt X]`` is optional (run with it), ``a|b`` lists alternatives (run the first).
Commands that cannot run here are listed in :data:`SKIP`, each with its reason; the few that take many
seconds even on a short budget run only with ``-m slow`` (:data:`SLOW`; the Dask block as typed too, the
default suite runs it with one split level).  When you add a README
command that needs more than a few seconds, give it a budget in :data:`BUDGETS` (or a reason in SKIP).
"""

from __future__ import annotations

import os
import re
import shlex
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"

#: Commands not run, by a prefix of the command as written, with the reason.
SKIP: dict[str, str] = {
    "python3 -m venv": "set-up (the environment running this test)",
    "python -m pytest": "the test suite itself",
    "pip install": "installs packages (the environment running this test has them)",
    "dask ": "run as real processes by test_readme_dask_block_runs",
    "kibitz tile 6x10 --count --split-depth 2 --scheduler tcp://SCHEDULER": "run by test_readme_dask_block_runs",
}

#: Commands run only with ``-m slow`` (by a prefix, with the reason); the default suite parses them all the same.
SLOW: dict[str, str] = {
    "kibitz blokus solitaire all-pieces": "a perfect all-pieces board: 5-30 s each",
    "kibitz blokus solitaire tetrominoes --backend": "the corner-contact find by CP-SAT: ~5 CPU-s",
    "kibitz generate shelfie": "a best shelf proved optimal by CP-SAT: 5-22 CPU-s",
}

#: Short budgets: (regex on the command, replacement) applied in order to every command that matches.
BUDGETS: list[tuple[str, str]] = [
    (r"--games (\d{2,})", "--games 2"),  # two games show the command works
    (r"\bmcts(?::\d+)?\b(?!-)", "mcts:8"),
    (r"\bmcts-rave:\d+\b", "mcts-rave:8"),
    (r"\bpimc:\d+\b", "pimc:2"),
    (r"--estimate \d+", "--estimate 200"),
    (r"generate tiling --count \d+", "generate tiling --count 2"),
    (r"generate towers --count \d+", "generate towers --count 1"),  # the first hard one (seed 304) is the one played next
    (r"(shelfie best-shelf [^>]*)$", r"\1 --time-limit 1"),
    (r"(solitaire all-pieces [^>]*)$", r"\1 --time-limit 20"),
    # the full seed-rule 10x8 count needs about 1.5 CPU-hours: 2 s show the lower bound and the checkpoint
    (r"(solitaire tetrominoes --count --split-depth 4 [^>]*)$", r"\1 --time-limit 2"),
    (r"(solitaire tetrominoes --backend [^>]*)$", r"\1 --time-limit 60"),  # cpsat: ~5 CPU-s
    # the game the README plays before it is quit at once here: its record has no move to list after
    (r"(blokus moves game\.blksgf) --after \d+", r"\1 --after 0"),
]

#: Seconds a command may run after its budget is applied (default 60).
TIMEOUTS: dict[str, float] = {"kibitz blokus solitaire all-pieces": 120.0, "kibitz blokus solitaire tetrominoes --backend": 120.0}

#: What the README says a command prints: a prefix of the command -> substrings of its output.
EXPECT: dict[str, list[str]] = {
    "kibitz tile 6x10 --count": ["9356", "2339"],
    "kibitz tile 4x5 --pieces tetrominoes --backend sat": ["no tiling exists"],
    "kibitz cover examples/problem.dlx --all": ["p r x:A y", "q x:A"],
    "kibitz blokus perft 3": ["195,112"],
    "kibitz tile 8x5 --pieces 2*tetrominoes --count": ["3106 tilings"],
    "kibitz tile 6x10 --count --split-depth 2": ["9356 tilings, 2339 up to symmetry"],
    "kibitz tile '########/": ["tilings"],
    "kibitz blokus solitaire tetrominoes --region 8x5 --colors 2 --no-edge-rule --count": ["raw tilings: 99392"],
    "kibitz shelfie score examples/shelf.txt": ['"adjacency": 21'],
    "kibitz blokus solitaire tetrominoes --count --split-depth 4": ["lower bound", "the same command resumes from c.json"],
    "kibitz blokus solitaire tetrominoes --backend": ['"status": "found"'],
    "kibitz projectl check examples/card.txt": ['"completable": true'],
}


def readme_commands(text: str | None = None) -> list[str]:
    """The shell commands in README.md's bash/sh/plain code blocks, comments and prompts stripped."""
    text = README.read_text() if text is None else text
    commands = []
    for lang, body in re.findall(r"^```(\w*)\n(.*?)^```", text, re.S | re.M):
        if lang not in ("", "bash", "sh", "shell", "console"):
            continue
        for line in body.replace("\\\n", " ").splitlines():
            line = line.strip().removeprefix("$ ")
            if not re.match(r"^(kibitz|python3?|dask|pip) ", line):
                continue
            commands.append(shlex.join(shlex.split(line, comments=True)))
    return commands


def normalise(command: str) -> str:
    """README notation to a runnable command: ``[...]`` optional parts kept, ``a|b`` -> ``a``."""
    words = shlex.split(command)
    out = []
    for word in words:
        word = word.strip("[]") if word.startswith("[") or word.endswith("]") else word
        if "|" in word and not word.startswith(("'", '"')) and "/" not in word:
            word = word.split("|")[0]
        out.append(word)
    return shlex.join(out)


def with_budget(command: str) -> str:
    for pattern, replacement in BUDGETS:
        command = re.sub(pattern, replacement, command)
    return command


def _skip_reason(command: str) -> str | None:
    return next((reason for prefix, reason in SKIP.items() if command.startswith(prefix)), None)


def _kibitz_args(command: str) -> tuple[list[str], str | None]:
    """The arguments after ``kibitz`` and the file of a ``> FILE`` redirection."""
    words = shlex.split(command)
    redirect = None
    if ">" in words:
        at = words.index(">")
        redirect, words = words[at + 1], words[:at]
    return words[1:], redirect


def _parse(args: list[str]) -> None:
    """Resolve the command path and parse its options as the CLI would, without running it."""
    from cli import main

    command: click.Command = main
    ctx = command.make_context("kibitz", list(args), resilient_parsing=False)
    while isinstance(command, click.Group):
        rest = [*getattr(ctx, "_protected_args", []), *ctx.args]
        name, sub, rest = command.resolve_command(ctx, rest)
        assert sub is not None and name is not None
        command = sub
        ctx = command.make_context(name, rest, parent=ctx)


COMMANDS = readme_commands()


def test_the_readme_has_commands() -> None:
    assert len(COMMANDS) > 30
    assert any(c.startswith("kibitz cover examples/") for c in COMMANDS)


@pytest.mark.parametrize("command", [c for c in COMMANDS if c.startswith("kibitz") and not _skip_reason(c)])
def test_readme_command_parses(command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every option and value in the README is one the CLI accepts (files are those of examples/)."""
    monkeypatch.chdir(ROOT)
    args, _ = _kibitz_args(normalise(command))
    for word in args:  # inputs written by an earlier README command do not exist yet: stand-ins
        if re.fullmatch(r"[\w.-]+\.(json|blksgf|txt)", word) and not (ROOT / word).exists():
            args = [str(tmp_path / word) if w == word else w for w in args]
            (tmp_path / word).write_text("{}")
    try:
        _parse(args)
    except click.exceptions.Exit:
        pass
    except click.UsageError as error:
        pytest.fail(f"README command {command!r} does not parse: {error.format_message()}")


def test_every_readme_input_file_exists() -> None:
    for command in COMMANDS:
        for word in shlex.split(command):
            if word.startswith("examples/"):
                assert (ROOT / word).is_file(), f"{command}: {word} is missing"


@contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    def expire(_signum: int, _frame: Any) -> None:
        raise TimeoutError(f"over {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One directory for the whole README run: examples/ and tests/ reachable as in a checkout."""
    path = tmp_path_factory.mktemp("readme")
    for name in ("examples", "tests", "notebooks", "bench"):
        os.symlink(ROOT / name, path / name)
    return path


@pytest.mark.parametrize("command", [
    pytest.param(c, marks=pytest.mark.slow) if any(c.startswith(prefix) for prefix in SLOW) else c for c in COMMANDS])
def test_readme_command_runs(command: str, scratch: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    reason = _skip_reason(command)
    if reason:
        pytest.skip(reason)
    from cli import main

    monkeypatch.chdir(scratch)
    runnable = with_budget(normalise(command))
    args, redirect = _kibitz_args(runnable)
    interactive = any(re.search(r"(^|,)human(,|$)", a) for a in args) or args[1:2] == ["play"]
    seconds = next((t for prefix, t in TIMEOUTS.items() if command.startswith(prefix)), 60.0)
    with _time_limit(seconds):
        result = CliRunner().invoke(main, args, input="quit\n" if interactive else None)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{runnable}: {result.exception!r}\n{result.output[-2000:]}")
    assert result.exit_code == 0, f"{runnable} exited {result.exit_code}:\n{result.output[-2000:]}"
    if redirect:
        (scratch / redirect).write_text(result.stdout)
    for prefix, expected in EXPECT.items():
        if command.startswith(prefix):
            for text in expected:
                assert text in result.output, f"{runnable}: {text!r} not in\n{result.output[-2000:]}"


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.parametrize("split_depth", [
    pytest.param(None, id="as-typed", marks=pytest.mark.slow),  # 2,376 Dask tasks: about 20 s
    # the same block with fewer, bigger tasks (~10 s, most of it the cluster's start-up); by default the CLI's
    # --scheduler path is run against a real cluster by tests/test_faults.py
    pytest.param("1", id="split-depth-1", marks=pytest.mark.slow),
])
def test_readme_dask_block_runs(tmp_path: Path, split_depth: str | None) -> None:
    """The README's cluster block as typed: a scheduler, a worker, a count through them (loopback, a free port)."""
    import subprocess
    import sys
    import time

    pytest.importorskip("distributed")
    block = [c for c in COMMANDS if c.startswith("dask ") or "--scheduler tcp://SCHEDULER" in c]
    assert [c.split()[:2] for c in block] == [["dask", "scheduler"], ["dask", "worker"], ["kibitz", "tile"]]
    port = str(_free_port())

    def local(command: str) -> list[str]:
        command = command.replace("SCHEDULER", "127.0.0.1").replace("8786", port)
        if split_depth is not None:
            command = re.sub(r"--split-depth \d+", f"--split-depth {split_depth}", command)
        words = shlex.split(command)
        tool = Path(sys.executable).parent / words[0]
        return [str(tool), *words[1:]]

    started: list[subprocess.Popen[bytes]] = []
    try:
        for command in block[:2]:
            started.append(subprocess.Popen(local(command), cwd=tmp_path, stdout=subprocess.DEVNULL,
                                            stderr=subprocess.DEVNULL))
            time.sleep(1.0)
        result = subprocess.run(local(block[2]), cwd=ROOT, capture_output=True, text=True, timeout=120)
    finally:  # the worker first, then the scheduler: a worker whose scheduler is gone retries for seconds
        for process in reversed(started):
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
    assert result.returncode == 0, result.stderr[-2000:]
    assert "9356 tilings, 2339 up to symmetry" in result.stdout
