"""GTP fuzz: ``kibitz blokus gtp`` answers 2,000 random and malformed lines, each exactly once, and lives on.

Every fuzz line is followed by a probe ``<id> protocol_version`` with a unique id, so the responses between two
probes are the fuzz line's: one for a line that is not empty after the GTP spec's preprocessing (control
characters other than tab removed, ``#`` comments cut, tabs made spaces) or that is too long, none otherwise.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

from solvers.blokus.gtp import MAX_LINE_BYTES

ROOT = Path(__file__).resolve().parent.parent
LINES = 2000
PROBE_BASE = 100_000
PROBE = re.compile(r"=([0-9]+) 2")
#: Lines that ended the engine before (issue 33), at the start of the fuzz.
KNOWN_KILLERS = ["set_random_seed \u00b2", "loadsgf /dev/zero", "loadsgf /dev/null \u00b2", "loadsgf /tmp 1",
                 "quit now please", "5 set_random_seed \u0663", "loadsgf /nonexistent \u00b2", "\ufeffname"]
COMMANDS = ["protocol_version", "name", "version", "known_command", "list_commands", "quit", "clear_board",
            "set_game", "set_random_seed", "play", "genmove", "reg_genmove", "undo", "showboard", "final_score",
            "loadsgf", "cputime", "all_legal", "boardsize", "Play", "GENMOVE", "", "=", "?", "¿"]
ARGUMENTS = ["b", "w", "1", "2", "3", "4", "5", "blue", "green", "pass", "resign", "e10", "e10,f10,e9", "j5", "a1",
             "t20", "z99", "a0", "-1", "0", "²", "٣", "12345678901234567890123456789012345", "Blokus Duo", "Blokus",
             "Blokus Two-Player", "Trigon", "/dev/zero", "/dev/null", "/tmp", "/nonexistent", "a1,a1,a1", "e10,,f10",
             ",", ";", "1e5", "nan", "now", "please", "\x00", "\x7f", "é", "\U0001f600"]


def fuzz_line(rng: random.Random) -> bytes:
    """One random input line (no newline inside): a near-command, random bytes, or a very long line."""
    kind = rng.random()
    if kind < 0.55:
        words = [rng.choice(COMMANDS)] + [rng.choice(ARGUMENTS) for _ in range(rng.randrange(4))]
        if rng.random() < 0.2:
            words.insert(0, str(rng.randrange(1000)))
        separator = rng.choice([" ", "  ", "\t", " \r "])
        tail = rng.choice(["", "", " # a comment", "\r", "#", " \x01"])
        return (separator.join(words) + tail).encode("utf-8")
    if kind < 0.9:
        alphabet = [b for b in range(256) if b != 10]
        return bytes(rng.choice(alphabet) for _ in range(rng.randrange(40)))
    if kind < 0.995:
        return rng.choice([b"", b"   ", b"\t", b"# only a comment", b"\r", b"\x00\x01", b"17", b"3 # id only"])
    return b"x" * (MAX_LINE_BYTES + rng.randrange(1, 3 * MAX_LINE_BYTES))


def words_after_preprocessing(line: bytes) -> list[str]:
    """The GTP spec's preprocessing, written independently of the engine's."""
    text = line.decode("utf-8", "replace")
    text = "".join(ch for ch in text if ch == "\t" or not (ord(ch) < 32 or ord(ch) == 127))
    return [word for word in text.split("#", 1)[0].replace("\t", " ").split(" ") if word]


def is_plain_quit(line: bytes) -> bool:
    words = words_after_preprocessing(line)
    if words and words[0].isascii() and words[0].isdigit():
        words = words[1:]
    return words == ["quit"]


def responses(output: str) -> list[str]:
    """The responses in the engine's output (each ends with an empty line)."""
    found, current = [], []
    for line in output.split("\n"):
        if line == "":
            if current:
                found.append("\n".join(current))
                current = []
            continue
        current.append(line)
    assert not current, f"an unterminated response: {current!r}"
    return found


def test_every_line_is_answered_and_the_engine_lives() -> None:
    rng = random.Random(2024)
    lines = [line.encode("utf-8") for line in KNOWN_KILLERS]
    while len(lines) < LINES:
        line = fuzz_line(rng)
        if not is_plain_quit(line):
            lines.append(line)
    script = b"".join(line + b"\n" + f"{PROBE_BASE + i} protocol_version\n".encode() for i, line in enumerate(lines))
    script += b"name\nquit\n"
    process = subprocess.run([sys.executable, "-c", "from cli import main; main()", "blokus", "gtp", "--variant", "duo",
                              "--bot", "random"], input=script, capture_output=True, cwd=ROOT, timeout=120)
    assert process.returncode == 0, process.stderr.decode()[-2000:]
    answers = responses(process.stdout.decode("utf-8", "replace"))
    assert all(a[0] in "=?" for a in answers)
    assert answers[-2:] == ["= kibitz", "= "]
    probes = [i for i, a in enumerate(answers) if (m := PROBE.fullmatch(a)) and int(m[1]) >= PROBE_BASE]
    assert len(probes) == LINES
    counts = [probe - previous - 1 for previous, probe in zip([-1, *probes], probes, strict=False)]
    expected = [1 if len(line) > MAX_LINE_BYTES or words_after_preprocessing(line) else 0 for line in lines]
    assert counts == expected
    assert [answers[p] for p in probes] == [f"={PROBE_BASE + i} 2" for i in range(LINES)]
    too_long = [answers[p - 1] for p, line in zip(probes, lines, strict=True) if len(line) > MAX_LINE_BYTES]
    assert too_long and all(a == f"? line too long (over {MAX_LINE_BYTES} bytes)" for a in too_long)
    assert sum(expected) > 1500 and not any("internal error" in a for a in answers)
