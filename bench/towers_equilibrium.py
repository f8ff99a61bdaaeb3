"""Round-6 equilibrium of Rainbow Blackjack: solve time, bots' exploitability, head-to-head, what the equilibrium says.

    nice -n 10 python bench/towers_equilibrium.py [--solve 30] [--expl 30] [--h2h 20] [--minutes 20] \
        [--out bench/results/towers_equilibrium.md]

Positions come from seeded games of two ``greedy`` bots (seeds 0, 1, ...).  Each part stops at its count or
when the time budget is spent (the figures say how many were done):

1. solve time per public state at the start of round 6's placements (tree build + CFR+ to 1e-3);
2. exploitability of ``pimc``, ``ismcts`` and the solved strategy on round-6 states after P1's first
   placement: an exact best response to each bot's policy in both seats (the solved strategy: CFR+ at that state), the bot treated as the
   deterministic policy it plays with a fixed seed (``random.Random(7)`` at every decision);
3. ``equilibrium`` against ``pimc`` and ``ismcts`` from round-6 placement starts, seats alternating, with a
   95% Wilson interval; decision time per move of the bots in round 6;
4. what the solved placement starts say: value of the first placer, how often a hand's strategy is mixed.

``--p2-announce N`` / ``--round6-start N`` solve only subgames from P2's announcement / from the start of round 6
(P1 to announce) of greedy games; ``--announcements N`` measures what each announcement mode hides.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from puzzles.game import CHANCE
from puzzles.towers import TowersState
from solvers.bots import make_bot
from solvers.playout import wilson_interval
from solvers.towers.bots import EquilibriumBot, GreedyBot
from solvers.towers.equilibrium import (
    SubgameTooLarge,
    bot_exploitability,
    build_tree,
    solve_round6,
    solve_tree,
    strategy_rows,
)


def round6_positions(seed: int) -> list[TowersState]:
    state, rng, bot = TowersState.new_game(seed), random.Random(seed), GreedyBot()
    out = []
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        if state.round == 5:
            out.append(state.clone())
        state.apply(bot.choose(state, rng))
    return out


def placement_starts(count: int, first_seed: int = 0) -> list[tuple[int, TowersState]]:
    out = []
    seed = first_seed
    while len(out) < count:
        pos = [s for s in round6_positions(seed) if s.phase == "place"]
        if pos:
            out.append((seed, pos[0]))
        seed += 1
    return out


def part_announcements(n: int, lines: list[str]) -> None:
    """How much each announcement mode hides: hands of the announcer still possible after it (round-6 starts)."""
    from collections import Counter

    from puzzles.towers.subgame import possible_hands
    from solvers.towers.equilibrium import announcement_label

    left = {"colors": [], "numbers": []}
    hides_more = Counter()
    for seed in range(n):
        pos = round6_positions(seed)
        if not pos:
            continue
        start = pos[0]
        for seat in (0, 1):
            hands, weights = possible_hands(start, seat)
            by_label = Counter()
            for hand, w in zip(hands, weights, strict=True):
                for mode in ("colors", "numbers"):
                    by_label[announcement_label(mode, hand)] += w
            for hand, w in zip(hands, weights, strict=True):
                c, m = (by_label[announcement_label(mode, hand)] for mode in ("colors", "numbers"))
                left["colors"].append(c)
                left["numbers"].append(m)
                hides_more["colors" if c > m else "numbers" if m > c else "tie"] += w
    total = sum(hides_more.values())
    lines += [
        f"- {len(left['colors'])} (start, seat, hand) cases from {n} games: after a colours announcement "
        f"{statistics.mean(left['colors']):.2f} of the 20 equally likely deals remain possible on average, after a "
        f"numbers announcement {statistics.mean(left['numbers']):.2f}",
        f"- colours hides more in {100 * hides_more['colors'] / total:.0f}% of the deals, numbers in "
        f"{100 * hides_more['numbers'] / total:.0f}%, equal in {100 * hides_more['tie'] / total:.0f}%",
    ]


def part_p2_announcement(n: int, lines: list[str]) -> None:
    """Equilibria from P2's announcement (P1 has announced): how often P2 announces colours, P1's value."""
    done = 0
    for seed in range(200):
        if done == n:
            break
        pos = [s for s in round6_positions(seed) if s.phase == "pick" and s.step == 2]
        if not pos:
            continue
        t0 = time.process_time()
        try:
            eq = solve_round6(pos[0])
        except SubgameTooLarge:
            continue
        tree = eq.tree
        colours = sum(float(tree.prior[1][h]) * sum(p for a, p in eq.probabilities(0, h) if a.startswith("colors"))
                      for h in range(len(tree.hands[1])))
        pure = sum(float(tree.prior[1][h]) for h in range(len(tree.hands[1]))
                   if max(p for _, p in eq.probabilities(0, h)) >= 0.99)
        done += 1
        lines.append(f"- seed {seed}: {tree.size:,} nodes, {time.process_time() - t0:.0f} s CPU, exploitability "
                     f"{eq.exploitability:.1e}; P1's value {eq.value:.3f}; P2 announces colours with probability "
                     f"{colours:.2f}; a pure announcement (>= 0.99) for {100 * pure:.0f}% of P2's deals")
        print(lines[-1], flush=True)


def part_round6_start(n: int, lines: list[str]) -> None:
    """Equilibria from the start of round 6 (P1 to pick and announce, P2 to follow): size, time, memory, what they say."""
    import tracemalloc

    from solvers.towers.equilibrium import announcement_strategy

    done = 0
    for seed in range(200):
        if done == n:
            break
        pos = round6_positions(seed)
        if not pos or pos[0].phase != "pick" or pos[0].step != 0:
            continue
        tracemalloc.start()
        t0 = time.process_time()
        eq = solve_round6(pos[0], on_progress=lambda it, e, s=seed: print(
            f"  seed {s}: iteration {it}, exploitability {e:.1e}", flush=True))
        cpu = time.process_time() - t0
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        p1, p2 = announcement_strategy(eq)
        colours = [sum(x["prior"] * x["colors"] for x in hands) for hands in (p1, p2)]
        pure = [100 * sum(x["prior"] for x in hands if max(x["colors"], 1 - x["colors"]) >= 0.99) for hands in (p1, p2)]
        done += 1
        lines.append(f"- seed {seed}: {eq.tree.size:,} nodes ({len(eq.tree.sub_hands)} placement subtrees), build "
                     f"{eq.build_seconds:.0f} s wall + CFR+ {eq.iterations} iterations, {cpu:.0f} s CPU in all, peak memory "
                     f"{peak / 2**30:.2f} GiB (numpy arrays and Python objects, traced); exploitability {eq.exploitability:.1e} "
                     f"({eq.status}); P1's value {eq.value:.3f}; P1 announces colours with probability "
                     f"{colours[0]:.2f}, P2 {colours[1]:.2f} (over their deals; P2's over P1's announcements too); a pure "
                     f"announcement (>= 0.99) for {pure[0]:.0f}% of P1's deals, {pure[1]:.0f}% of P2's")
        print(lines[-1], flush=True)
        for seat, hands in enumerate((p1, p2)):
            print(f"  P{seat + 1} colours per hand: " + ", ".join(
                f"{x['hand_text']} {x['colors']:.2f}" for x in hands), flush=True)


def part_solve(n: int, deadline: float, lines: list[str], stats: dict[str, list[float]]) -> None:
    times, expls, nodes, values, mixed = [], [], [], [], []
    for seed, state in placement_starts(n):
        if time.perf_counter() > deadline:
            break
        t0 = time.process_time()
        try:
            eq = solve_round6(state, node_limit=1_500_000)
        except SubgameTooLarge:
            lines.append(f"- seed {seed}: tree over 1.5M nodes, skipped")
            continue
        times.append(time.process_time() - t0)
        expls.append(eq.exploitability)
        nodes.append(eq.tree.size)
        values.append(eq.value)
        rows = [r for r in strategy_rows(eq, 0) if r["player"] == 0]
        mixed.extend(1.0 if max(p for _, p in r["actions"]) < 0.95 else 0.0 for r in rows)
        print(f"solve seed {seed}: {eq.tree.size} nodes {times[-1]:.2f} s expl {eq.exploitability:.1e} value {eq.value:.3f}",
              flush=True)
    stats["values"] = values
    lines += [
        f"- public states solved: {len(times)} (placement starts of greedy-vs-greedy games)",
        f"- solve time per state (CPU; build + CFR+): median {statistics.median(times):.2f} s, max {max(times):.2f} s",
        f"- public tree: median {int(statistics.median(nodes)):,} nodes, max {max(nodes):,}",
        f"- exploitability reached: max {max(expls):.1e} (target 1e-3); all <= 1e-3: {all(e <= 1e-3 for e in expls)}",
        f"- P1 (places first) expects {statistics.mean(values):.3f} on average (win 1, draw 0.5);"
        f" P1 wins outright (value 1) in {sum(v > 0.999 for v in values)}, loses in {sum(v < 0.001 for v in values)},"
        f" value strictly between 0 and 1 in {sum(0.001 <= v <= 0.999 for v in values)}",
        f"- P1's first placement is mixed (no action >= 0.95) for {100 * statistics.mean(mixed or [0]):.0f}% of its hands",
    ]


def equilibrium_policy(position: TowersState, seat: int, resolve: bool = False, target: float = 1e-3) -> object:
    """What the `equilibrium` bot plays at ``position``: its solved mixed strategy (``resolve``: the subgame re-solved
    at ``position``'s public state), or its ``ismcts`` fallback (as a fixed-seed policy, like the other bots) where
    the placement subgame is over the bot's node limit."""
    bot = EquilibriumBot(resolve=resolve, resolve_target=target)
    assert position.current_player() == seat
    probs = bot.probabilities(position)
    return probs if probs is not None else bot.fallback.choose(position, random.Random(7))


def _equilibrium_chooser(seat: int, resolve: bool, target: float) -> Callable[[TowersState], object]:
    """The `equilibrium` bot's policy in ``seat`` for :func:`bot_exploitability`."""
    return lambda position: equilibrium_policy(position, seat, resolve, target)


def summarise_exploitability(logs: list[str]) -> list[str]:
    """Per bot: mean, max and how many states at most 1e-3, over the ``expl seed N: bot value ...`` lines of ``logs``."""
    res: dict[str, dict[int, float]] = {}
    for log in logs:
        for line in Path(log).read_text().splitlines():
            if not line.startswith("expl seed "):
                continue
            head, _, rest = line.partition(": ")
            seed = int(head.split()[-1])
            words = rest.split()
            for name, value in zip(words[::2], words[1::2], strict=True):
                res.setdefault(name, {})[seed] = float(value)
    out = [f"- states: {len(next(iter(res.values()), {}))} (after P1's first placement in round 6; logs: {', '.join(logs)})"]
    for name, by_seed in res.items():
        v = list(by_seed.values())
        out.append(f"- {name}: mean exploitability {statistics.mean(v):.4f}, max {max(v):.4f}, "
                   f"zero (<= 1e-3) on {sum(x <= 1e-3 for x in v)} of {len(v)}")
    return out


#: Bots whose exploitability ``--exploitability-only`` measures by default; ``equilibrium-resolve[:TARGET]`` is the
#: bot with ``resolve=True`` (its policy at each node it acts at is the subgame re-solved there, to TARGET).
EXPL_BOTS = ("pimc", "ismcts", "greedy", "equilibrium")


def part_exploitability(n: int, deadline: float, lines: list[str], first_seed: int = 0,
                        specs: tuple[str, ...] = EXPL_BOTS, seeds: list[int] | None = None) -> None:
    """Exploitability of each bot of ``specs`` (and of CFR+ re-solved at the state) on ``n`` round-6 states after
    P1's first placement, from greedy games ``first_seed``, ``first_seed + 1``, ... (those that reach one), or from
    exactly the games ``seeds``."""
    res: dict[str, list[float]] = {s: [] for s in (*specs, "solved")}
    asked: dict[str, int] = {s: 0 for s in specs}
    seconds: dict[str, float] = {s: 0.0 for s in specs}
    todo = iter(seeds) if seeds is not None else None
    seed = first_seed
    done = 0
    while done < n and time.perf_counter() < deadline:
        if todo is not None:
            seed = next(todo, -1)
            if seed < 0:
                break
        pos = round6_positions(seed)
        seed += 1
        if len(pos) < 6 or pos[5].phase != "place":
            continue
        state = pos[5]
        tree = build_tree(state)
        eq = solve_tree(tree)
        res["solved"].append(eq.exploitability)
        for spec in specs:
            chooser: Callable[[int], Callable[[TowersState], object]]
            if spec.startswith("equilibrium"):  # the bot's own mixed strategy; equilibrium-resolve[:target]
                name, _, target = spec.partition(":")
                chooser = partial(_equilibrium_chooser, resolve=name == "equilibrium-resolve",
                                  target=float(target or 1e-3))
            else:
                bot = make_bot("towers", spec)
                chooser = (lambda seat, b=bot: (lambda position: b.choose(position, random.Random(7))))
            t0 = time.process_time()
            e, k = bot_exploitability(tree, state, chooser)  # type: ignore[arg-type]
            seconds[spec] += time.process_time() - t0
            asked[spec] += k
            res[spec].append(e)
        done += 1
        print(f"expl seed {seed - 1}: " + " ".join(f"{s} {res[s][-1]:.6f}" for s in res), flush=True)
    lines.append(f"- states: {done} (after P1's first placement in round 6)")
    for s, v in res.items():
        if v:
            lines.append(f"- {s}: mean exploitability {statistics.mean(v):.4f}, max {max(v):.4f}, "
                         f"zero (<= 1e-3) on {sum(x <= 1e-3 for x in v)} of {len(v)}")
    for s in specs:
        if asked[s]:
            lines.append(f"- {s}: {asked[s]} decisions asked, {1000 * seconds[s] / asked[s]:.1f} ms CPU per decision")


def part_h2h(n: int, deadline: float, lines: list[str]) -> None:
    """Each placement start is played 4 times: equilibrium against pimc and ismcts, in each seat."""
    opps = ("pimc", "ismcts")
    score = {o: 0.0 for o in opps}
    games = {o: 0 for o in opps}
    times: dict[str, list[float]] = {"equilibrium": [], "pimc": [], "ismcts": []}
    first_times: list[float] = []
    states = 0
    for seed, start in placement_starts(n, 1000):
        if time.perf_counter() > deadline:
            break
        states += 1
        for opp in opps:
            for swap in (0, 1):
                state, rng = start.clone(), random.Random(seed * 2 + swap)
                bots = [make_bot("towers", "equilibrium"), make_bot("towers", opp)]
                names = ["equilibrium", opp]
                if swap:
                    bots.reverse()
                    names.reverse()
                while not state.is_terminal():
                    mover = state.current_player()
                    t0 = time.process_time()
                    action = bots[mover].choose(state, rng)
                    dt = time.process_time() - t0
                    if names[mover] == "equilibrium" and opp == "pimc" and swap == 0 and state.step == 0:
                        first_times.append(dt)  # the decision that solves the subgame
                    else:
                        times[names[mover]].append(dt)
                    state.apply(action)
                score[opp] += state.returns()[swap]
                games[opp] += 1
        if states % 10 == 0:
            print(f"h2h {states} states: " + ", ".join(f"{o} {score[o] / games[o]:.3f}" for o in opps), flush=True)
    for opp in opps:
        lo, hi = wilson_interval(score[opp], games[opp])
        lines.append(f"- equilibrium vs {opp}: {games[opp]} games from {states} round-6 placement starts, seats "
                     f"alternating: equilibrium scores {score[opp] / max(games[opp], 1):.3f} (95% Wilson CI {lo:.3f}-{hi:.3f})")
    lines.append(f"- decision time per move in round 6 (CPU): equilibrium's first placement, which builds and solves "
                 f"the subgame: median {statistics.median(first_times):.2f} s, max {max(first_times):.2f} s; "
                 f"its later moves (cached solution): median {1000 * statistics.median(times['equilibrium']):.1f} ms; "
                 f"pimc median {1000 * statistics.median(times['pimc']):.1f} ms; "
                 f"ismcts median {1000 * statistics.median(times['ismcts']):.1f} ms")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--solve", type=int, default=30)
    ap.add_argument("--expl", type=int, default=30)
    ap.add_argument("--h2h", type=int, default=20)
    ap.add_argument("--minutes", type=float, default=20.0)
    ap.add_argument("--out", default="bench/results/towers_equilibrium.md")
    ap.add_argument("--p2-announce", type=int, default=0,
                    help="Only this part: solve this many subgames from P2's announcement.")
    ap.add_argument("--round6-start", type=int, default=0,
                    help="Only this part: solve this many subgames from the start of round 6 (both announcements to come).")
    ap.add_argument("--announcements", type=int, default=0,
                    help="Only this part: what each announcement mode hides, over this many games.")
    ap.add_argument("--first-seed", type=int, default=0, help="--exploitability-only: the first game seed to try.")
    ap.add_argument("--summarise", nargs="+", default=None, metavar="LOG",
                    help="Only this: the exploitability summary of the per-state lines in these logs of "
                         "--exploitability-only runs (over disjoint seeds).")
    ap.add_argument("--exploitability-only", type=int, default=0,
                    help="Only this part: the bots' exploitability on this many round-6 states (no time limit).")
    ap.add_argument("--bots", default=",".join(EXPL_BOTS),
                    help="--exploitability-only: the bots measured, comma-separated (also equilibrium-resolve, or "
                         "equilibrium-resolve:TARGET for re-solves to that exploitability).")
    ap.add_argument("--seeds-from", default=None, metavar="LOG",
                    help="--exploitability-only: the game seeds of the per-state lines of this log, in order "
                         "(the same sample), instead of --first-seed's.")
    args = ap.parse_args()
    start = time.perf_counter()
    if args.summarise:
        print("\n".join(summarise_exploitability(args.summarise)))
        return
    if args.exploitability_only:
        lines = ["## Exploitability per bot (exact best response; bots as fixed-seed deterministic policies, "
                 "`equilibrium` as its mixed strategy)", "",
                 f"`nice -n 10 python bench/towers_equilibrium.py --exploitability-only {args.exploitability_only}`", ""]
        seeds = None
        if args.seeds_from:
            seeds = [int(line.split(":")[0].split()[-1]) for line in Path(args.seeds_from).read_text().splitlines()
                     if line.startswith("expl seed ")]
        part_exploitability(args.exploitability_only, float("inf"), lines, args.first_seed,
                            tuple(args.bots.split(",")), seeds)
        lines.append(f"- {time.perf_counter() - start:.0f} s wall")
        print("\n".join(lines))
        return
    single_parts = (  # (count asked, title, part): a flag that runs only that part
        (args.round6_start, "Equilibria from the start of round 6 (both announcements to come)", part_round6_start),
        (args.p2_announce, "Equilibria from P2's announcement (P1 has announced)", part_p2_announcement),
        (args.announcements, "What an announcement hides (round-6 starts)", part_announcements),
    )
    for count, title, part in single_parts:
        if count:
            lines = [f"## {title}", ""]
            part(count, lines)
            print("\n".join(lines))
            return
    shares = (0.15, 0.45, 0.40)
    lines = ["# Round-6 equilibrium of Rainbow Blackjack", "",
             f"`nice -n 10 python bench/towers_equilibrium.py --solve {args.solve} --expl {args.expl} "
             f"--h2h {args.h2h} --minutes {args.minutes:g}` (2 shared cores; CPU-time budget as given)", "",
             "## Solve time per public state", ""]
    stats: dict[str, list[float]] = {}
    part_solve(args.solve, start + shares[0] * args.minutes * 60, lines, stats)
    lines += ["", "## Exploitability per bot (exact best response; bots as fixed-seed deterministic policies)", ""]
    part_exploitability(args.expl, start + sum(shares[:2]) * args.minutes * 60, lines)
    lines += ["", "## Head-to-head from round-6 placement starts", ""]
    part_h2h(args.h2h, start + args.minutes * 60, lines)
    lines += ["", f"Total {time.perf_counter() - start:.0f} s."]
    text = "\n".join(lines) + "\n"
    print(text)
    with open(args.out, "w") as fh:
        fh.write(text)


if __name__ == "__main__":
    main()
