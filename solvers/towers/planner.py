"""The 21-sum planner (CP-SAT) and the "which towers can I still own at 21" analysis.

:func:`max_21_towers` — given a multiset of stones that one player will place
(and optionally the current towers), the largest number of towers that can end
at exactly 21 *owned by that player* (they place the top stone; an untouched
tower counts only if it already is theirs at 21).  The CP-SAT model stacks
stones into ordered slots per tower and respects:

* the colour wheel (a coloured stone goes to its own or an adjacent tower);
* jokers: never the first stone of a tower, never directly on a joker, worth
  the value of the stone directly below (a joker on top of an existing tower
  copies its top value);
* joker replacement: a tower whose top is a joker may first have that joker
  replaced by an eligible coloured stone (closer to 21, and stacking would
  exceed 21);
* an optional cap on the number of placements (e.g. 3 for one round).

It assumes the opponent leaves those towers alone — it is a plan, an upper
bound for the round, not a guarantee.  The guarantee is
:func:`guaranteed_21_towers`: with both hands known (full information), an
exact minimax per tower (leaf = "this seat owns the tower at 21 at the end of
the round, or has won instantly") tells which towers the seat can secure
whatever the opponent does this round, and the best number it can secure
together.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model

from puzzles.towers import kernel as K
from puzzles.towers.engine import Announce, TowersState, replace_ok
from puzzles.towers.stones import COLORS, JOKER, allowed_towers, stone_str, value_of
from solvers.towers.solver import Solver, pack


@dataclass
class TowerInfo:
    """Summary of one tower for planning."""

    total: int = 0
    top: int = 0  # effective value of the top stone (0 when empty)
    top_joker: bool = False
    owner: int = -1
    empty: bool = True


#: CP-SAT's status names as the shared answer statuses (proved / found / unknown at a limit).
STATUS = {"OPTIMAL": "proved", "FEASIBLE": "found", "UNKNOWN": "unknown at time limit"}


@dataclass
class Plan:
    count: int
    towers: dict[str, list[str]] = field(default_factory=dict)  # tower colour -> stones placed (bottom first)
    replaced: list[str] = field(default_factory=list)  # towers whose top joker is replaced first
    status: str = ""  # CP-SAT's own name: OPTIMAL, FEASIBLE, ...
    seconds: float = 0.0
    already: list[str] = field(default_factory=list)  # towers counted untouched: already the placer's at 21

    @property
    def answer_status(self) -> str:
        """``proved`` (optimal), ``found`` (a plan, not proved best) or ``unknown at time limit``."""
        return STATUS.get(self.status, self.status.lower())

    def to_json(self) -> dict[str, Any]:
        return {"status": self.answer_status, "interrupted": False, "max_towers_at_21": self.count,
                "plan": self.towers, "replace_joker_on": self.replaced, "already_at_21": self.already,
                "seconds": round(self.seconds, 4), "cp_sat_status": self.status}


def towers_of(state: TowersState) -> list[TowerInfo]:
    """Planner summaries of a state's six towers."""
    out = []
    for t in range(6):
        vals = state.values[t]
        out.append(
            TowerInfo(
                total=sum(vals),
                top=vals[-1] if vals else 0,
                top_joker=bool(state.towers[t]) and state.towers[t][-1] == JOKER,
                owner=state.owner(t),
                empty=not state.towers[t],
            )
        )
    return out


def _stack_slots(
    m: cp_model.CpModel, x: dict[tuple[int, int, int], Any], stones: list[int], tw: TowerInfo, t: int, kmax: int
) -> tuple[list[Any], list[Any]]:
    """Ordered slots of tower ``t``: stone literals into ``x``, the used flag and value of each slot.

    A slot holds at most one stone and slots fill bottom up; a joker is never a
    tower's first stone nor directly on a joker, and copies the value below it.
    """
    used: list[Any] = []
    val: list[Any] = []
    isj: list[Any] = []
    for k in range(kmax):
        lits_c, lits_j = [], []
        for s, code in enumerate(stones):
            if code == JOKER:
                if k == 0 and (tw.empty or tw.top_joker):
                    continue  # not first stone; not on a joker (replacement needs a coloured stone)
                x[s, t, k] = m.new_bool_var(f"x{s}_{t}_{k}")
                lits_j.append(x[s, t, k])
            elif t in allowed_towers(code):
                x[s, t, k] = m.new_bool_var(f"x{s}_{t}_{k}")
                lits_c.append((x[s, t, k], value_of(code)))
        u = m.new_bool_var(f"u{t}_{k}")
        j = m.new_bool_var(f"j{t}_{k}")
        v = m.new_int_var(0, 6, f"v{t}_{k}")
        m.add(sum(lit for lit, _ in lits_c) + sum(lits_j) == u)
        m.add(sum(lits_j) == j)
        # value: coloured stones give their face; a joker copies the slot below
        colored_val = sum(lit * val_ for lit, val_ in lits_c)
        m.add(v == colored_val).only_enforce_if(j.negated())
        if k == 0:
            m.add(v == tw.top).only_enforce_if(j)
        else:
            m.add(v == val[k - 1]).only_enforce_if(j)
            m.add_implication(u, used[k - 1])
            m.add_bool_or([j.negated(), isj[k - 1].negated()])
        used.append(u)
        val.append(v)
        isj.append(j)
    return used, val


def _replacement_rule(
    m: cp_model.CpModel, x: dict[tuple[int, int, int], Any], stones: list[int], tw: TowerInfo, t: int, kmax: int,
    repl: Any,
) -> None:
    """Replacing tower ``t``'s top joker (``repl``) puts an eligible coloured stone in its first slot."""
    elig = [
        x[s, t, 0]
        for s, code in enumerate(stones)
        if code != JOKER and kmax > 0 and (s, t, 0) in x and replace_ok(tw.total, tw.top, True, value_of(code))
    ]
    if elig:
        m.add(sum(elig) == 1).only_enforce_if(repl)
    else:
        m.add(repl == 0)


def _at_21(m: cp_model.CpModel, tw: TowerInfo, t: int, player: int, used: list[Any], val: list[Any], repl: Any) -> Any:
    """The literal "tower ``t`` ends at 21 owned by ``player``": touched by the plan, or already so."""
    total = tw.total + sum(val) - (repl * tw.top if repl is not None else 0)
    ok = m.new_bool_var(f"ok{t}")
    m.add(total == 21).only_enforce_if(ok)
    touched = used[0] if used else None
    untouched_ok = tw.owner == player and tw.total == 21
    if touched is None:
        if not untouched_ok:
            m.add(ok == 0)
    elif not untouched_ok:
        m.add_implication(ok, touched)
    if repl is not None and touched is not None:
        m.add_implication(repl, touched)
    return ok


def _read_plan(
    solver: cp_model.CpSolver, status: Any, stones: list[int], x: dict[tuple[int, int, int], Any],
    ok: dict[int, Any], repl: dict[int, Any], slots: dict[int, int],
) -> Plan:
    """The plan of a solved model: stones per tower brought to 21 (bottom first) and the replaced jokers."""
    plan = Plan(int(round(solver.objective_value)), status=solver.status_name(status), seconds=solver.wall_time)
    for t in range(6):
        placed = []
        for k in range(slots[t]):
            for s in range(len(stones)):
                if (s, t, k) in x and solver.value(x[s, t, k]):
                    placed.append(stone_str(stones[s]))
        if placed and solver.value(ok[t]):
            plan.towers[COLORS[t]] = placed
        if repl[t] is not None and solver.value(repl[t]):
            plan.replaced.append(COLORS[t])
        if not placed and solver.value(ok[t]):
            plan.already.append(COLORS[t])
    return plan


def max_21_towers(
    stones: list[int],
    towers: list[TowerInfo] | None = None,
    player: int = 0,
    max_placements: int | None = None,
    time_limit: float = 10.0,
) -> Plan:
    """Maximum number of towers brought to exactly 21 and owned by ``player`` (see module docstring)."""
    towers = towers or [TowerInfo() for _ in range(6)]
    n = len(stones)
    m = cp_model.CpModel()
    x: dict[tuple[int, int, int], Any] = {}
    ok: dict[int, Any] = {}
    repl: dict[int, Any] = {}  # the replace-the-top-joker literal of a tower, None where impossible
    slots: dict[int, int] = {}
    for t in range(6):
        tw = towers[t]
        base_min = tw.total - tw.top if tw.top_joker else tw.total
        kmax = max(0, min(n, 21 - base_min))
        slots[t] = kmax
        repl[t] = m.new_bool_var(f"repl{t}") if tw.top_joker else None
        used, val = _stack_slots(m, x, stones, tw, t, kmax)
        if repl[t] is not None:
            _replacement_rule(m, x, stones, tw, t, kmax, repl[t])
        ok[t] = _at_21(m, tw, t, player, used, val, repl[t])
    for s in range(n):
        lits = [lit for (s2, _, _), lit in x.items() if s2 == s]
        if lits:
            m.add(sum(lits) <= 1)
    if max_placements is not None:
        m.add(sum(x.values()) <= max_placements)
    m.maximize(sum(ok.values()))
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.num_workers = 1
    status = solver.solve(m)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Plan(0, status=solver.status_name(status), seconds=solver.wall_time)
    return _read_plan(solver, status, stones, x, ok, repl, slots)


def guaranteed_21_towers(state: TowersState, seat: int | None = None, solver: Solver | None = None) -> dict[str, Any]:
    """Towers ``seat`` can own at 21 at the end of this round whatever the opponent does (full information).

    ``state`` must be a full state in this round's pick or placement phase (both
    hands known once both have picked).  An instant win by ``seat`` counts as
    securing every tower; one by the opponent as securing none.
    """
    work = state.clone()
    if work.phase == "pick" and work.step % 2 == 1:
        work.apply(Announce("colors"))
    seat = work.current_player() if seat is None else seat
    if seat not in (0, 1):
        raise ValueError("no player decision in this state")
    solver = solver or Solver(18)
    sign = 1 if seat == 0 else -1
    secure = []
    for t in range(6):
        S = pack(work, "round", mode=2)
        S[K.TGT], S[K.TGT_P] = t, seat
        if sign * solver.value(S) >= 1:
            secure.append(COLORS[t])
    S = pack(work, "round", mode=3)
    S[K.TGT_P] = seat
    best = sign * solver.value(S)
    return {
        "seat": f"P{seat + 1}",
        "secure_towers": secure,
        "max_secure_together": min(best, 6),
        "instant_win_forced": best >= 6,
    }


def guaranteed_for_hands(state: TowersState, seat: int, my_hand: list[int], opp_hand: list[int]) -> dict[str, Any]:
    """:func:`guaranteed_21_towers` on ``state``'s towers with the two hands given explicitly (≤ 3 stones each).

    A state still in its line-pick phase is moved to the first placement of the
    round (the round's starter places first); a placement state keeps its step.
    """
    if len(my_hand) > 3 or len(opp_hand) > 3:
        raise ValueError("a hand holds at most 3 stones")
    if state.phase not in ("pick", "place"):
        raise ValueError(f"the state must be in a round (phase is {state.phase!r})")
    data = state.to_json()
    pub, priv = data["public"], data["private"]
    if state.phase == "pick":
        pub["phase"], pub["step"] = "place", 0
        for p in (0, 1):
            if priv[p]["grids"][state.grid_index()] is None:
                priv[p]["grids"][state.grid_index()] = [stone_str(JOKER)] * 9
    priv[seat]["hand"] = [stone_str(c) for c in my_hand]
    priv[1 - seat]["hand"] = [stone_str(c) for c in opp_hand]
    pub["hand_size"] = [len(priv[0]["hand"]), len(priv[1]["hand"])]
    work = TowersState.from_json_unchecked(data)
    return guaranteed_21_towers(work, seat)
