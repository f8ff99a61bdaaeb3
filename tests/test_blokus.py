"""Blokus engine: perft, rules checked against an independent brute force, invariants, records."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from puzzles.blokus import BlokusState, board_tables, perft, random_game
from puzzles.blokus.records import from_sgf, load, parse_sgf, save, to_sgf
from puzzles.blokus.tables import PASS, PIECE_NAMES, PIECE_SIZES
from puzzles.game import IllegalActionError
from puzzles.polyomino import piece_set

DATA = Path(__file__).parent / "data"
SIZES = dict(zip(PIECE_NAMES, PIECE_SIZES))


def play(state: BlokusState, *texts: str) -> None:
    """Parse each move text, then apply it (``apply`` takes Move objects only)."""
    for text in texts:
        state.apply(state.string_to_action(text))


# -- tables ------------------------------------------------------------------------------------


def test_tables_count_placements_and_orientations() -> None:
    assert sum(len(s.orientations()) for s in piece_set("blokus")) == 91
    t = board_tables(20)
    assert t.num_placements == 30_433
    # every placement is numbered once and its text names exactly its cells
    assert len({m.text for m in t.moves}) == t.num_placements
    assert t.moves[t.placement_of(t.parse_cells("c18,a20,b19,b20,c19"))].text == "c18,b19,c19,a20,b20"


def test_cell_notation_uses_letter_i_and_rows_from_the_bottom() -> None:
    t = board_tables(20)
    assert t.parse_cells("a20") == [(0, 0)]
    assert t.parse_cells("t1") == [(19, 19)]
    assert t.parse_cells("i5") == [(15, 8)]
    with pytest.raises(ValueError):
        t.parse_cells("u1")
    with pytest.raises(ValueError):
        t.parse_cells("a21")


# -- perft ---------------------------------------------------------------------------------------


def test_perft_classic() -> None:
    state = BlokusState()
    assert [perft(state, d) for d in (1, 2, 3)] == [58, 3_364, 195_112]
    assert state.history == []  # perft restores the position


def test_perft_other_variants() -> None:
    # Duo: the starting points e10 / j5 are far enough from the edges and from each other that every
    # orientation of every piece can cover them in each of its cells
    first = sum(o.area for shape in piece_set("blokus") for o in shape.orientations())
    assert first == 414
    assert perft(BlokusState("duo"), 1) == first
    assert perft(BlokusState("duo"), 2) == first * first
    # free corners: each of the 4 corners offers the 58 corner placements
    assert perft(BlokusState(free_corners=True), 1) == 4 * 58
    assert perft(BlokusState(free_corners=True), 2) == 4 * 58 * 3 * 58
    assert perft(BlokusState("two-player"), 2) == 3_364


# -- independent brute force -------------------------------------------------------------------


def brute_force_legal(state: BlokusState) -> set[str]:
    """Legal placements from the rules alone: every placement of a remaining piece, checked cell by cell."""
    t = state.tables
    color = state.to_move
    own, occupied, first = set(), set(), True
    for c, move in state.moves_played:
        occupied.update(move.cells)
        if c == color and not move.is_pass:
            own.update(move.cells)
            first = False
    left = set(state.pieces_left(color))
    starts = {t.unflat(int(q)) for q in state.arrays.starts[color, : state.arrays.nstarts[color]]}
    legal = set()
    for move in t.moves:
        if move.piece not in left:
            continue
        cells = move.cells
        if any(cell in occupied for cell in cells):
            continue
        if any((r + dr, c + dc) in own for r, c in cells for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))):
            continue
        if first:
            if not starts & set(cells):
                continue
        elif not any((r + dr, c + dc) in own for r, c in cells for dr, dc in ((1, 1), (1, -1), (-1, 1), (-1, -1))):
            continue
        legal.add(move.text)
    return legal


@pytest.mark.parametrize("variant,free,seed", [("classic", False, 3), ("duo", False, 4), ("classic", True, 5)])
def test_move_generation_matches_brute_force(variant: str, free: bool, seed: int) -> None:
    rng = random.Random(seed)
    state = BlokusState(variant, free)
    checked = 0
    while not state.is_terminal():
        moves = state.legal_actions()
        if len(state.history) % 9 == 0 or moves == [PASS]:
            expected = brute_force_legal(state)
            got = {m.text for m in moves if not m.is_pass}
            assert got == expected
            checked += 1
        state.apply(rng.choice(moves))
    assert checked >= 5


# -- invariants of whole games -------------------------------------------------------------------


def check_invariants(state: BlokusState) -> None:
    """No overlap, no same-color edge contact, every piece corner-linked to its color's start, scores = formula."""
    t = state.tables
    owner: dict[tuple[int, int], int] = {}
    pieces: dict[int, list] = {c: [] for c in range(state.num_colors)}
    for color, move in state.moves_played:
        if move.is_pass:
            continue
        for cell in move.cells:
            assert cell not in owner, f"overlap at {cell}"
        own_before = {cell for cell, c in owner.items() if c == color}
        for r, c in move.cells:
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                assert (r + dr, c + dc) not in own_before, "same-color edge contact"
        if not pieces[color]:
            starts = {t.unflat(int(q)) for q in state.arrays.starts[color, : state.arrays.nstarts[color]]}
            assert starts & set(move.cells), "first piece misses the start"
        else:
            assert any((r + dr, c + dc) in own_before for r, c in move.cells for dr, dc in ((1, 1), (1, -1), (-1, 1), (-1, -1)))
        for cell in move.cells:
            owner[cell] = color
        pieces[color].append(move.piece)
    assert len(owner) == sum(1 for v in state.grid() for x in v if x >= 0)
    for color, placed in pieces.items():
        assert len(set(placed)) == len(placed), "a piece placed twice"
        missing = sum(SIZES[p] for p in PIECE_NAMES if p not in placed)
        expected = -missing if missing else (20 if placed[-1] == "1" else 15)
        assert state.color_scores()[color] == expected


@pytest.mark.parametrize("variant", ["classic", "two-player", "teams", "three-player", "duo"])
def test_random_games_keep_invariants(variant: str) -> None:
    for seed in range(3):
        state = random_game(variant, seed)
        assert state.is_terminal()
        check_invariants(state)


def test_fast_kernel_agrees_with_engine() -> None:
    """The numba playout kernel and the Python engine see the same legal-move counts, moves and scores."""
    from solvers.blokus.bots import playout

    for variant, seed in (("classic", 11), ("duo", 12), ("three-player", 13)):
        state = BlokusState(variant)
        scores, plies = playout(state, seed, record=True)
        assert state.history == []
        for color, m, count in plies:
            assert state.to_move == color
            legal = state.legal_actions()
            if m < 0:
                assert legal == [PASS]
                state.apply(PASS)
            else:
                assert len(legal) == count
                state.apply(state.tables.moves[m])
        assert state.is_terminal()
        assert state.color_scores() == scores
        check_invariants(state)


# -- variants, seats, scores ------------------------------------------------------------------------


def test_variant_seats_and_scores() -> None:
    two = random_game("two-player", 1)
    cs = two.color_scores()
    assert two.scores() == [cs[0] + cs[2], cs[1] + cs[3]]
    teams = random_game("teams", 1)
    cs = teams.color_scores()
    assert teams.scores() == [cs[0] + cs[2], cs[1] + cs[3]] * 2
    winner = 0 if cs[0] + cs[2] > cs[1] + cs[3] else 1
    assert teams.returns()[winner] == teams.returns()[winner + 2] == 1.0
    three = random_game("three-player", 2)
    assert three.num_players == 3 and len(three.scores()) == 3
    # the shared green color rotates: its k-th move is made by seat k % 3
    state = BlokusState("three-player")
    seats = []
    while not state.is_terminal():
        if state.to_move == 3:
            seats.append(state.current_player())
        state.apply(state.legal_actions()[0])
    assert seats[:4] == [0, 1, 2, 0]


def test_scoring_example_from_a_real_game() -> None:
    """The rules' worked scoring example (+20, -8, -24, -20), replayed from a legal, finished game."""
    state = load(DATA / "scoring_example.blksgf")
    assert state.is_terminal()
    assert state.color_scores() == [20, -8, -24, -20]
    last_blue = [m for c, m in state.moves_played if c == 0 and not m.is_pass][-1]
    assert last_blue.piece == "1" and state.pieces_left(0) == []
    kinds = {name: SIZES[name] for name in PIECE_NAMES}
    assert sorted(kinds[p] for p in state.pieces_left(1)) == [4, 4]
    assert sorted(kinds[p] for p in state.pieces_left(2)) == [3, 4, 4, 4, 4, 5]
    assert sorted(kinds[p] for p in state.pieces_left(3)) == [3, 4, 4, 4, 5]
    check_invariants(state)


# -- moves, refusals, undo -------------------------------------------------------------------------


def test_every_legal_move_text_round_trips() -> None:
    rng = random.Random(7)
    state = BlokusState()
    for _ in range(30):
        for move in state.legal_actions():
            assert state.string_to_action(state.action_to_string(move)) == move
        state.apply(rng.choice(state.legal_actions()))


def test_illegal_moves_are_refused_with_reason_and_leave_board_unchanged() -> None:
    state = BlokusState()
    play(state, "a20,b20,b19,c19,c18")
    with pytest.raises(IllegalActionError, match="starting cell"):
        play(state, "t1")
    play(state, "t20,t19,s19,s18,s17")  # yellow
    play(state, "t1")  # red monomino
    play(state, "a1")  # green monomino
    before = (state.dumps(), state.arrays.copy(), state.owner.copy())
    for text, reason in (
        ("a20", "occupied by blue"),
        ("d18", "edge"),  # touches blue's c18 along an edge
        ("e17,f17", "corner"),  # no contact
        ("x1", "off the 20x20 board"),
        ("a1;b1", "malformed"),
        ("a1,c1", "Blokus piece"),
        ("pass", "may not pass"),
    ):
        with pytest.raises((IllegalActionError, ValueError), match=reason):
            play(state, text)
        assert state.dumps() == before[0]
        assert all((a == b).all() for a, b in zip(state.arrays, before[1]))
        assert (state.owner == before[2]).all()
        assert state.to_move == 0
    play(state, "d17")  # blue monomino at the corner of c18
    assert state.to_move == 1


def test_piece_reuse_is_refused() -> None:
    state = BlokusState()
    play(state, "a20", "t20", "t1", "a1")
    with pytest.raises(IllegalActionError, match="already placed"):
        play(state, "b19")


def test_undo_restores_everything() -> None:
    rng = random.Random(2)
    state = BlokusState()
    snapshots = []
    while not state.is_terminal():
        snapshots.append((state.dumps(), state.arrays.copy(), state.owner.copy(), state.legal_actions()))
        state.apply(rng.choice(state.legal_actions()))
    for dumped, arrays, owner, legal in reversed(snapshots):
        state.undo()
        assert state.dumps() == dumped
        # the attach list is append-only: entries past attach_len are scratch
        assert all((getattr(state.arrays, name) == getattr(arrays, name)).all()
                   for name in arrays._fields if name != "attach")
        for c, n in enumerate(arrays.attach_len):
            assert (state.arrays.attach[c, :n] == arrays.attach[c, :n]).all()
        assert (state.owner == owner).all()
        assert state.legal_actions() == legal


def test_clone_is_independent() -> None:
    state = BlokusState()
    play(state, "a20")
    copy = state.clone()
    play(copy, "t20")
    assert len(state.history) == 1 and len(copy.history) == 2
    assert state.owner.sum() != copy.owner.sum()


# -- records --------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["classic", "two-player", "teams", "three-player", "duo"])
def test_sgf_and_json_round_trip(variant: str, tmp_path: Path) -> None:
    state = random_game(variant, 9)
    for name in ("game.blksgf", "game.json"):
        save(state, tmp_path / name)
        again = load(tmp_path / name)
        assert again.variant.name == variant
        assert again.moves_played == state.moves_played
        assert again.color_scores() == state.color_scores()
        assert again.is_terminal()


def test_sgf_we_write_follows_pentobi_conventions() -> None:
    state = BlokusState()
    play(state, "c18,b19,c19,a20,b20")
    play(state, "t20")
    text = to_sgf(state, date="2026-11-30")
    assert text.startswith("(;FF[4]CA[UTF-8]AP[kibitz:0.1.0]GM[Blokus]DT[2026-11-30]")
    assert ";1[c18,b19,c19,a20,b20]\n;2[t20])" in text
    nodes = parse_sgf(text)
    assert nodes[1] == {"1": ["c18,b19,c19,a20,b20"]}
    duo = BlokusState("duo")
    duo.apply(duo.legal_actions()[0])
    assert "GM[Blokus Duo]" in to_sgf(duo) and ";B[" in to_sgf(duo)
    assert "KV[teams]" in to_sgf(BlokusState("teams"))


def test_pentobi_style_records_load_and_replay() -> None:
    """Files in Pentobi's layout (indented root, main line plus a side variation, Duo B/W)."""
    classic = load(DATA / "pentobi_classic_selfplay.blksgf")
    assert classic.variant.name == "classic" and classic.is_terminal()
    assert sum(1 for _, m in classic.moves_played if not m.is_pass) == 75
    assert classic.color_scores() == [-17, -3, -9, -7]
    check_invariants(classic)
    duo = load(DATA / "pentobi_duo_selfplay.blksgf")
    assert duo.variant.name == "duo" and duo.is_terminal() and duo.color_scores() == [-10, -23]
    # Pentobi 0.1's one-value-per-cell spelling and the pre-0.2 colour names
    old = from_sgf("(;GM[Blokus Duo]CA[UTF-8]AP[Pentobi:0.1.UNKNOWN];B[f8][g8][e9][f9][e10])")
    assert old.moves_played[0][1].text == "f8,g8,e9,f9,e10"
    legacy = from_sgf("(;GM[Blokus];BLUE[a20];YELLOW[t20])")
    assert [m.text for _, m in legacy.moves_played] == ["a20", "t20"]


def test_bad_records_are_refused_with_a_reason() -> None:
    with pytest.raises(ValueError, match="unsupported game"):
        from_sgf("(;GM[Blokus Trigon];1[a1])")
    with pytest.raises(ValueError, match="is to move"):
        from_sgf("(;GM[Blokus];2[t20])")
    with pytest.raises(ValueError, match="setup"):
        from_sgf("(;GM[Blokus]AB[a20])")
    with pytest.raises(ValueError, match="unterminated"):
        from_sgf("(;GM[Blokus];1[a20")
    with pytest.raises(ValueError, match="occupied"):
        from_sgf("(;GM[Blokus];1[a20];2[t20];3[t1];4[a1];1[a20,a19])")


def test_json_state_round_trip() -> None:
    state = random_game("three-player", 4)
    again = BlokusState.from_json(json.loads(state.dumps()))
    assert again.dumps() == state.dumps() and again.scores() == state.scores()


def test_rendering_marks_last_move() -> None:
    state = BlokusState()
    play(state, "a20,b20,b19,c19,c18")
    text = state.to_text(color=False)
    lines = text.splitlines()
    assert lines[1].split()[:3] == ["20", "B", "B"]
    assert "+" in lines[1]  # yellow's empty starting cell t20
    play(state, "t20")
    assert state.to_text(color=False).splitlines()[1].split()[1:3] == ["b", "b"]
    svg = state._repr_svg_()
    assert svg.startswith("<svg") and svg.count('<circle') - svg.count('class="start"') == 1  # one cell of the last move
    assert 'class="last-move" data-color="yellow" data-move="t20"' in svg
    assert "\x1b[" in state.to_text(color=True)


# -- the game layer: registry factory, parsing apart from playing ------------------------------------


def test_new_game_picks_the_variant_for_the_player_count() -> None:
    from puzzles.blokus import new_game
    from puzzles.game import GAMES

    info = GAMES["blokus"]
    assert [info.new_game(n).variant.name for n in (2, 3, 4)] == ["two-player", "three-player", "classic"]
    assert info.new_game().variant.name == "classic"
    duo = info.new_game(2, 0, variant="duo")
    assert duo.variant.name == "duo" and duo.num_players == 2 and duo.game_name == "blokus"
    assert info.new_game(4, 0, variant="teams").variant.name == "teams"
    assert info.new_game(4, 0, free_corners=True).free_corners
    assert perft(info.new_game(4, 0, free_corners=True), 1) == 4 * 58
    with pytest.raises(ValueError, match="duo is played by 2 players, not 4"):
        info.new_game(4, 0, variant="duo")
    with pytest.raises(ValueError, match="not one of"):
        info.new_game(4, 0, variant="hexagonal")
    with pytest.raises(ValueError, match="4-color variants"):
        new_game(2, 0, variant="duo", free_corners=True)
    assert {o.name for o in info.options} == {"variant", "free_corners"}


def test_string_to_action_parses_only_and_apply_takes_moves_only() -> None:
    state = BlokusState()
    move = state.string_to_action("T1")  # well-formed but illegal for blue: parsing does not judge
    assert move.text == "t1" and "starting cell" in (state.illegal_reason(move) or "")
    assert state.string_to_action(" pass ") == PASS
    with pytest.raises(ValueError, match="malformed"):
        state.string_to_action("a1;b1")
    with pytest.raises(IllegalActionError, match="not a Blokus move"):
        state.apply("a20")  # type: ignore[arg-type]
    assert state.history == []
    assert state.illegal_reason(state.string_to_action("a20")) is None


def test_states_compare_by_moves_and_are_not_hashable() -> None:
    a, b = BlokusState(), BlokusState()
    play(a, "a20")
    assert a != b
    play(b, "a20")
    assert a == b and a == BlokusState.from_json(json.loads(a.dumps()))
    assert BlokusState("teams") != BlokusState("classic")
    with pytest.raises(TypeError):
        hash(a)


def test_text_board_lists_pieces_in_hand() -> None:
    state = BlokusState("duo")
    play(state, "e10,f10,e9,e11,d10")
    lines = state.to_text(color=False).splitlines()
    assert lines[-2] == "purple (84 squares): 1 2 I3 V3 I4 O4 T4 L4 Z4 F I5 L5 N P T5 U V5 W Y Z5"
    assert lines[-1].startswith("orange (89 squares): 1 2 I3")
