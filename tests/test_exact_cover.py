"""Exact cover engine: Knuth's examples, brute-force agreement, limits, the text format."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.exact_cover import ExactCoverProblem, parse_knuth, split_color

KNUTH_XCC = """\
| Knuth's small example with colors (TAOCP 7.2.2.1)
p q r | x y
p q x y:A
p r x:A y
p x:B
q x:A
r y:B
"""


def test_knuth_xcc_example_has_exactly_one_solution() -> None:
    problem = parse_knuth(KNUTH_XCC)
    solutions = [sorted(problem.format_solution(s)) for s in problem.solutions()]
    assert solutions == [["p r x:A y", "q x:A"]]
    assert problem.count().count == 1


def queens(n: int) -> ExactCoverProblem:
    primary = [f"r{i}" for i in range(n)] + [f"c{j}" for j in range(n)]
    secondary = [f"a{k}" for k in range(2 * n - 1)] + [f"b{k}" for k in range(2 * n - 1)]
    options = [[f"r{i}", f"c{j}", f"a{i + j}", f"b{i - j + n - 1}"] for i in range(n) for j in range(n)]
    return ExactCoverProblem(primary, options, secondary)


@pytest.mark.parametrize(("n", "count"), [(4, 2), (5, 10), (6, 4), (8, 92)])
def test_n_queens_counts_with_secondary_items(n: int, count: int) -> None:
    problem = queens(n)
    assert problem.count().count == count
    solutions = list(problem.solutions())
    assert len(solutions) == count == len({tuple(s) for s in solutions})


def brute_force_count(problem: ExactCoverProblem) -> int:
    """Try every subset of options against Knuth's XCC rules (independent of the engine)."""
    total = 0
    for size in range(len(problem.options) + 1):
        for subset in itertools.combinations(problem.options, size):
            cover: dict[str, int] = {}
            colors: dict[str, set[str]] = {}
            for option in subset:
                for token in option:
                    name, color = split_color(token)
                    cover[name] = cover.get(name, 0) + 1
                    colors.setdefault(name, set()).add(color)
            if any(cover.get(p, 0) != 1 for p in problem.primary):
                continue
            if all(cover.get(s, 0) <= 1 or ("" not in colors[s] and len(colors[s]) == 1) for s in problem.secondary):
                total += 1
    return total


@st.composite
def xcc_problems(draw) -> ExactCoverProblem:
    n_primary = draw(st.integers(1, 4))
    n_secondary = draw(st.integers(0, 3))
    primary = [f"p{i}" for i in range(n_primary)]
    secondary = [f"s{i}" for i in range(n_secondary)]
    options = []
    for _ in range(draw(st.integers(1, 9))):
        prim = draw(st.lists(st.sampled_from(primary), min_size=1, max_size=n_primary, unique=True))
        sec = draw(st.lists(st.sampled_from(secondary), max_size=n_secondary, unique=True)) if secondary else []
        tokens = prim + [s + draw(st.sampled_from(["", ":A", ":B"])) for s in sec]
        options.append(tokens)
    return ExactCoverProblem(primary, options, secondary)


@settings(max_examples=150, deadline=None)
@given(xcc_problems())
def test_engine_agrees_with_brute_force(problem: ExactCoverProblem) -> None:
    expected = brute_force_count(problem)
    assert problem.count().count == expected
    found = list(problem.solutions())
    assert len(found) == expected == len({tuple(s) for s in found})


def test_node_limit_stops_and_reports_incomplete() -> None:
    result = queens(8).count(node_limit=50)
    assert not result.complete and result.stopped_by == "node_limit" and result.nodes == 50
    assert result.count < 92


def test_suspend_and_resume_give_the_same_count() -> None:
    from solvers.exact_cover import SearchLimits

    links = queens(8).compile()
    assert links.count(SearchLimits(chunk=7)).count == 92  # resumed hundreds of times


def test_progress_callback_is_called() -> None:
    calls = []
    queens(8).count(progress=lambda nodes, count: calls.append((nodes, count)), chunk=100)
    assert len(calls) > 5 and calls[-1][1] == 92


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("a b\na c\n", "line 2: option 1 uses unknown item 'c'"),
        ("a b | x\na x:A:B\n", "line 2"),
        ("a b | x\na:A b\n", "colors primary item"),
        ("| only a comment\n| x y\n", "empty"),
        ("a b | x\nx\n", "no primary item"),
        ("a a\na\n", "listed twice"),
    ],
)
def test_malformed_knuth_files_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_knuth(text)


def test_ctrl_c_between_chunks_returns_partial_count() -> None:
    def interrupt(nodes: int, count: int) -> None:
        if nodes >= 300:
            raise KeyboardInterrupt

    result = queens(8).count(progress=interrupt, chunk=100)
    assert result.stopped_by == "interrupt" and not result.complete
    assert 0 < result.nodes < 1107 and result.count < 92


def test_time_limit_holds_while_solutions_keep_coming() -> None:
    from solvers.exact_cover import SearchLimits

    limits = SearchLimits(time_limit=0.0)  # already expired: stop after the first batch
    links = queens(8).compile()
    found = list(links.solutions(limits, batch=1))
    assert len(found) == 1 and links.stopped_by == "time_limit"
