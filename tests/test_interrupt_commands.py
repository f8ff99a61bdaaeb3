"""Ctrl-C (SIGINT) sent to the real CLI process, one test per long command kind not covered elsewhere.

Each checks: exit status 130 within 2 s, the partial result printed (JSON, parseable, saying it was
interrupted), no traceback, and where there is a checkpoint, that the resumed run reaches the exact
uninterrupted total.  (Counts by ``tile``: tests/test_faults.py; playouts: test_interrupt_playout.py;
``shelfie best-shelf``: test_shelfie_cli.py; ``towers solve``: test_towers_validation.py.)
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NINE_MINUS_CENTRE = "/".join("####.####" if r == 4 else "#" * 9 for r in range(9))


def _start(args: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "cli", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _interrupt(process: subprocess.Popen[str], after: float | None = None,
               ready: Path | None = None) -> tuple[dict, str]:
    """SIGINT once ``ready`` exists (or after ``after`` seconds); the parsed JSON output and stderr."""
    started = time.monotonic()
    while process.poll() is None and time.monotonic() - started < 120:
        if (ready is not None and ready.exists() and ready.stat().st_size > 0) or (
                after is not None and time.monotonic() - started >= after):
            break
        time.sleep(0.05)
    assert process.poll() is None, "the job ended before it could be interrupted"
    process.send_signal(signal.SIGINT)
    sent = time.monotonic()
    out, err = process.communicate(timeout=30)
    assert time.monotonic() - sent <= 2.0, f"stopped {time.monotonic() - sent:.2f} s after Ctrl-C"
    assert process.returncode == 130, err
    assert "Traceback" not in err and "Aborted" not in err, err
    return json.loads(out), err


def test_solitaire_count_with_workers_stops_and_resumes_to_the_exact_count(tmp_path: Path) -> None:
    """The corner-contact 9x9-minus-centre count (all three units), interrupted and resumed."""
    checkpoint = tmp_path / "parts.json"
    args = ["blokus", "solitaire", "tetrominoes", "--region", NINE_MINUS_CENTRE, "--corner-contact", "--count",
            "--workers", "2", "--checkpoint", str(checkpoint), "--json"]
    partial, _ = _interrupt(_start(args), ready=checkpoint)
    assert partial["complete"] is False and partial["parts_done"] < partial["parts_total"]
    assert partial["count_raw"] <= 576
    out, err = _start(args).communicate(timeout=600)
    whole = json.loads(out)
    assert whole["complete"], err
    assert (whole["count_raw"], whole["count_symmetry"], whole["count_symmetry_colors"]) == (576, 72, 3)


def test_estimate_keeps_the_paths_done() -> None:
    partial, _ = _interrupt(_start(["blokus", "solitaire", "tetrominoes", "--estimate", "100000000", "--json"]),
                            after=6.0)
    assert partial["interrupted"] and "interrupted" in partial["status"]
    assert 2 <= partial["probes"] < 100_000_000


def test_sat_tiling_search_is_interrupted_not_a_traceback() -> None:
    for after in (1.5, 6.0):  # while encoding, while solving
        partial, _ = _interrupt(_start(["tile", "30x30", "--pieces", "15*pentominoes", "--backend", "sat", "--json"]),
                                after=after)
        assert partial["interrupted"] is True and partial["status"] in ("incomplete", "interrupted")


def test_generate_keeps_every_challenge_found(tmp_path: Path) -> None:
    """Challenges are written as they are found: Ctrl-C keeps them (files named by seed, JSON listing them)."""
    process = _start(["generate", "tiling", "--count", "5000", "--out", str(tmp_path), "--json"])
    partial, err = _interrupt(process, after=8.0)
    assert partial["interrupted"] and partial["status"] == "interrupted"
    seeds = [c["seed"] for c in partial["challenges"]]
    assert seeds and all((tmp_path / f"challenge_{s}.json").exists() for s in seeds)
    assert "challenges found and kept" in err
