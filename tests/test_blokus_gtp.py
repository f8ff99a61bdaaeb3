"""The GTP engine (`kibitz blokus gtp`, Pentobi's dialect): scripted conversations."""

from __future__ import annotations

import io
from pathlib import Path

from solvers.blokus.gtp import (
    MAX_LINE_BYTES,
    MAX_RECORD_BYTES,
    GtpEngine,
    format_response,
    preprocess,
    shorten,
    variant_name,
)

DATA = Path(__file__).parent / "data"


def talk(engine: GtpEngine, *commands: str) -> list[str]:
    """The responses (without the final empty line) to ``commands``."""
    return [engine.handle(c).rstrip("\n").rstrip(" ") for c in commands]  # type: ignore[union-attr]


def test_scripted_duo_session() -> None:
    engine = GtpEngine("duo", "greedy", seed=1)
    out = talk(engine, "protocol_version", "7 name", "version", "known_command genmove", "known_command foo",
               "play b e10,f10,e9", "genmove w", "play b e10", "play b a1", "undo", "undo", "final_score",
               "play w j5", "cputime", "quit")
    assert out[:5] == ["= 2", "=7 kibitz", "= 0.1.0", "= true", "= false"]
    assert out[5] == "="
    reply = out[6][2:]
    move = engine.state.string_to_action(reply)
    assert move.size == 5 and "j5" in reply.split(",")  # greedy opens with a pentomino on the starting point
    assert out[7].startswith("? illegal move") and "occupied" in out[7]
    assert out[8].startswith("? illegal move") and "corner" in out[8]
    assert out[9:11] == ["=", "="]
    assert engine.state.history == []
    assert out[11] == "= 0"  # both colours still hold all 89 squares
    assert out[12].startswith("? ") and "purple is to play" in out[12]
    assert out[13].startswith("= ") and float(out[13][2:]) >= 0
    assert out[14] == "=" and engine.quit


def test_undo_and_errors() -> None:
    engine = GtpEngine("classic", "random")
    out = talk(engine, "undo", "play 1 a20", "play 1 a20", "play 2 pass", "play 5 t20", "play 2 t20,t19,t18,t17,t16,t15",
               "genmove", "foo bar", "play 2 T20", "final_score", "undo", "final_score")
    assert out[0] == "? cannot undo"
    assert out[1] == "="
    assert out[2] == "? piece already played"
    assert out[3] == "? play pass not supported (anymore)"
    assert out[4] == "? invalid color argument '5'"
    assert out[5] == "? invalid move"
    assert out[6].startswith("? ")
    assert out[7] == "? unknown command (foo)"
    assert out[8] == "="  # case does not matter
    assert out[9] == "= 1 1 0 0"  # Pentobi counts squares placed (plus bonuses)
    assert out[10] == "=" and out[11] == "= 1 0 0 0"


def test_showboard_all_legal_and_reg_genmove() -> None:
    engine = GtpEngine("duo", "greedy")
    board = engine.handle("showboard")
    assert board is not None and board.startswith("= \n") and board.endswith("\n\n") and " 14 " in board
    legal = talk(engine, "all_legal b")[0][2:].split("\n")
    assert len(legal) == 414  # every placement covering e10 (Duo's first move)
    first = talk(engine, "reg_genmove b")[0]
    assert engine.state.history == []  # reg_genmove does not play
    assert talk(engine, "genmove b")[0] == first


def test_set_game_and_variant_names() -> None:
    assert variant_name("classic_2") == "two-player" and variant_name("Blokus Duo") == "duo"
    assert variant_name("blokus") == "classic" and variant_name("duo") == "duo"
    engine = GtpEngine("classic")
    assert talk(engine, "set_game Blokus Duo", "play b e10", "final_score") == ["=", "=", "= B+1"]
    assert talk(engine, "set_game Trigon")[0] == "? invalid argument"


def test_forced_passes_are_skipped_and_a_finished_colour_passes() -> None:
    engine = GtpEngine("duo", "greedy")
    # a full Duo game from a record: the engine replays it, later colours skip a colour without moves
    path = DATA / "pentobi_duo_selfplay.blksgf"
    if not path.exists():
        return
    assert talk(engine, f"loadsgf {path}")[0] == "="
    assert engine.state.is_terminal()
    assert talk(engine, "genmove b")[0] == "= pass"


def test_loadsgf_move_number(tmp_path: Path) -> None:
    record = tmp_path / "g.blksgf"
    record.write_text("(;GM[Blokus Duo];B[e10];W[j5];B[f9])")
    engine = GtpEngine("classic", "greedy")
    assert talk(engine, f"loadsgf {record} 3")[0] == "="
    assert engine.state.variant.name == "duo" and len(engine.state.history) == 2
    assert talk(engine, f"loadsgf {tmp_path / 'missing.blksgf'}")[0].startswith("? ")


def test_run_loop_and_response_format() -> None:
    assert format_response("") == "\n\n" and format_response("a\n\nb") == "a\n \nb\n\n"
    out = io.StringIO()
    GtpEngine("duo").run(io.StringIO("# comment\n\n1 protocol_version\nquit\nname\n"), out)
    assert out.getvalue() == "=1 2\n\n= \n\n"


def test_bad_input_is_answered_and_the_engine_goes_on(tmp_path: Path) -> None:
    big = tmp_path / "big.blksgf"
    big.write_bytes(b"(;GM[Blokus Duo]" + b" " * MAX_RECORD_BYTES + b")")
    engine = GtpEngine("duo", "greedy")
    out = talk(engine, "set_random_seed \u00b2", "set_random_seed 12345678901234567890", f"loadsgf {DATA} \u00b2",
               "loadsgf /dev/zero", f"loadsgf {tmp_path}", f"loadsgf {big}", "loadsgf /nonexistent/x.blksgf",
               "quit now please", "\u00b2 name", "12 \u00b2", "7", "7 # only an id", "name \u00e9")
    assert out[0] == "? expected an integer seed" and out[1] == "="
    assert out[2] == "? the move number must be a positive integer"
    assert out[3] == "? not a regular file: /dev/zero" and out[4] == f"? not a regular file: {shorten(str(tmp_path))}"
    assert out[5] == (f"? file too large: {shorten(str(big))} has {MAX_RECORD_BYTES + 17} bytes "
                      f"(the limit is {MAX_RECORD_BYTES})")
    assert out[6] == "? cannot read /nonexistent/x.blksgf: No such file or directory"
    assert out[7] == "? quit takes no arguments" and not engine.quit
    assert out[8] == "? unknown command (\u00b2)" and out[9] == "?12 unknown command (\u00b2)"
    assert out[10:12] == ["?7 missing command", "?7 missing command"] and out[12] == "= kibitz"


def test_run_reads_bytes_with_bounded_lines() -> None:
    long_line = b"name " + b"x" * MAX_LINE_BYTES
    data = (b"\xef\xbb\xbfprotocol_version\n\xff\xfe name\n\x00\x01\r\n  \t \n" + long_line + b"\n"
            b"3 na\x00me\r\n4\tversion # why\nquit\n")
    out = io.BytesIO()
    sink = io.TextIOWrapper(out, encoding="utf-8")
    GtpEngine("duo").run(io.BufferedReader(io.BytesIO(data)), sink)  # type: ignore[arg-type]
    sink.flush()
    assert out.getvalue().decode() == ("= 2\n\n? unknown command (\ufffd\ufffd)\n\n"
                                       f"? line too long (over {MAX_LINE_BYTES} bytes)\n\n=3 kibitz\n\n=4 0.1.0\n\n= \n\n")
    assert preprocess("1\tplay  b\x07 e10 # c") == ["1", "play", "b", "e10"] and preprocess(" # x") == []
    assert shorten("x" * 100) == "x" * 77 + "..." and shorten("abc") == "abc"


def test_engine_takes_mcts_rave_knobs_such_as_two_threads() -> None:
    """``kibitz blokus gtp --knobs threads=2`` (the command builds the bot with knob_bot): the mcts-rave bot searches two
    trees; knobs need mcts-rave."""
    import pytest

    from solvers.blokus.tune import knob_bot

    engine = GtpEngine("duo", "mcts-rave:300", bot=knob_bot("mcts-rave:300", "threads=2"))
    assert engine.bot.threads == 2  # type: ignore[attr-defined]
    out = talk(engine, "play b e10,f10,e9,e11,d10", "genmove w")
    assert out[1].startswith("= ")
    move = engine.state.history[-1][1]
    assert engine.state.history[-1][0] == 1 and move.size >= 4 and engine.bot.last_iterations == 300  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="mcts-rave"):
        knob_bot("greedy", "threads=2")
    with pytest.raises(ValueError, match="whole number"):
        knob_bot("mcts-rave:300", "threads=1.5")
