"""Round-6 equilibrium of Rainbow Blackjack: the public tree, CFR+, exact best responses, exploitability.

From a public state of round 6 (``docs/rules/rainbow-blackjack.md``; the deal of the hands
by :mod:`puzzles.towers.subgame`) the rest of the game is a two-player zero-sum game in which
each seat's only private information is its hand, and every action is public once made: the
announcement (mode and the colours or numbers said) and each placement (stone, tower).  The
outcome depends only on the public actions.  So the game is solved on its **public tree**: a
node is a public history; the acting seat's information sets there are its possible hands
(an infoset = (node, hand), perfect recall by construction).  Line picks are forced in round 6
and are not nodes.

* **Exact collapse of the last placements.**  Once the opponent has no stone left, the mover
  knows everything that matters: the rest is a one-player maximisation per hand, done while
  building the tree (a terminal whose value depends on the mover's hand).
* **CFR+** (regret matching+, linear averaging, alternating updates) runs over the tree in
  compiled code, every hand of both seats at once (range vectors); the prior of each seat's
  hands is the chance node at the root.
* **Best response** to a fixed strategy is exact: a backward pass with a per-hand maximum at
  the responder's nodes.  Exploitability = (BR value of P1 + BR value of P2 - 1) / 2 in
  returns (win 1, draw 0.5, loss 0), as OpenSpiel's ``exploitability`` computes it.

* **Announcements to come** (:func:`build_announcement_tree`): the announcement levels are grown
  over all hands; each pair of announcement texts opens a placement subtree over the hands those
  texts leave possible (1.4-1.8 per seat on average), numbered locally and stored in 8-32 bit arrays.  Placement
  states reached by different texts stay apart (the texts are public history).

Values are P1's expected return (0..1).  From the start of the placements (announcements made)
the tree has 10^4..10^6 nodes (limit :data:`NODE_LIMIT`); from the start of round 6 (both
announcements to come) 1-2.2 x 10^7, 1-2 GB and 1.5-3 minutes of CPU to solve (limit
:data:`START_NODE_LIMIT`).  A tree over its limit raises :class:`SubgameTooLarge`.
"""

from __future__ import annotations

import math
import random
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np
from numba import njit

from puzzles.towers import kernel as K
from puzzles.towers.engine import Announce, TowersAction, TowersState, action_to_string
from puzzles.towers.stones import JOKER, LETTERS, announce_attr, stone_str
from puzzles.towers.subgame import Hand, check_round6, placement_start, possible_hands, round6_placements
from solvers.towers.announcing import choose_announcement

NODE_LIMIT = 3_000_000
TARGET = 1e-3
MODES = ("colors", "numbers")

# walk modes of the compiled pass
CFR, EVAL, BR0, BR1 = 0, 1, 2, 3
#: ``player[n]`` of a node where a placement subtree with its own (local) hand numbering begins
SUB = -2
#: Default node limit of a tree with announcements to come (stored compactly: about 100 bytes a node)
START_NODE_LIMIT = 40_000_000


class SubgameTooLarge(ValueError):
    """The public tree has more nodes than the limit allows."""


# ---------------------------------------------------------------------------
# the public tree
# ---------------------------------------------------------------------------


@dataclass
class PublicTree:
    """The public tree in flat arrays (preorder; children of a node are contiguous in ``kids``).

    ``player[n]``: seat to act, or -1 at a terminal.  ``first[n]``, ``nkids[n]``: its children are
    ``kids[first[n] : first[n] + nkids[n]]``.  For a child ``c`` (an action of its parent's mover
    ``p``), ``legal[off[c] + h]`` says whether hand ``h`` of ``p`` may take it; ``off[c]`` also
    indexes regrets and strategies.  A terminal ``n`` has P1's return per hand of seat
    ``tseat[n]`` at ``tval[toff[n] + h]``.  ``label[c]``: the text of the action leading to ``c``.
    """

    hands: tuple[list[Hand], list[Hand]]
    prior: tuple[np.ndarray, np.ndarray]
    player: np.ndarray
    first: np.ndarray
    nkids: np.ndarray
    kids: np.ndarray
    off: np.ndarray
    legal: np.ndarray
    tseat: np.ndarray
    toff: np.ndarray
    tval: np.ndarray
    label: Sequence[str]
    depth: int
    max_kids: int
    #: Placement subtrees with their own hand numbering (trees with announcements to come): a node ``n``
    #: with ``player[n] == SUB`` has one child, the subtree's root ``first[n]``, and its subtree number
    #: ``k = toff[n]``; there seat ``s`` has ``sub_hands[k, s]`` hands, local hand ``j`` being
    #: ``hands[s][sub_map[k, s, j]]``.
    sub_hands: np.ndarray = field(default_factory=lambda: np.zeros((1, 2), dtype=np.int64))
    sub_map: np.ndarray = field(default_factory=lambda: np.zeros((1, 2, 1), dtype=np.int64))

    @property
    def size(self) -> int:
        return len(self.player)

    @property
    def nh(self) -> np.ndarray:
        return np.array([len(self.hands[0]), len(self.hands[1])], dtype=np.int64)

    def children(self, n: int) -> Iterator[int]:
        f = int(self.first[n])
        yield from (int(c) for c in self.kids[f : f + int(self.nkids[n])])

    def child_by_label(self, n: int, text: str) -> int:
        for c in self.children(n):
            if self.label[c] == text:
                return c
        raise KeyError(f"no action {text!r} at this public node")


class _Builder:
    """Grows the public tree from a round-6 position over the kernel core in Python (see :class:`PublicTree`): the
    reference the compiled builders are tested against."""

    def __init__(self, state: TowersState, node_limit: int) -> None:
        check_round6(state)
        self.hands_prior = [possible_hands(state, p) for p in (0, 1)]
        self.hands: tuple[list[Hand], list[Hand]] = (self.hands_prior[0][0], self.hands_prior[1][0])
        self.limit = node_limit
        self.player: list[int] = []
        self.nkids: list[int] = []
        self.kids_of: list[list[int]] = []
        self.off: list[int] = []
        self.legal: list[int] = []
        self.tseat: list[int] = []
        self.toff: list[int] = []
        self.tval: list[float] = []
        self.label: list[str] = []
        self.depth = 0
        self.S = state.core.copy()
        self.S[K.QUIET], self.S[K.LAST], self.S[K.MODE] = 1, 5, 0
        self.S[K.HAND : K.HAND + 6] = -1  # hidden: the tree deals hands itself
        self.state = state
        self.undo = np.empty(16, dtype=np.int64)

    def new_node(self, label: str, legal_hands: list[int] | None, mover_count: int) -> int:
        n = len(self.player)
        if n >= self.limit:
            raise SubgameTooLarge(f"the round-6 public tree has more than {self.limit:,} nodes")
        self.player.append(-1)
        self.nkids.append(0)
        self.kids_of.append([])
        self.off.append(len(self.legal))
        if legal_hands is not None:
            mask = [0] * mover_count
            for h in legal_hands:
                mask[h] = 1
            self.legal.extend(mask)
        self.tseat.append(0)
        self.toff.append(0)
        self.label.append(label)
        return n

    def build(self) -> PublicTree:
        rem = [{h: hand for h, hand in enumerate(self.hands[p])} for p in (0, 1)]
        root = self.new_node("", None, 0)
        st = self.state
        if st.phase == "pick":
            self.announce_node(root, rem, _announced(st), 0)
        else:
            self.place_node(root, rem, 0)
        order = self._preorder(root)
        return self._flatten(order)

    # -- announcements -------------------------------------------------
    def announce_node(self, n: int, rem: list[dict[int, Hand]], announced: list[bool], depth: int) -> None:
        """Node ``n`` in the pick phase: the next seat to announce, else the placements begin."""
        starter = 0
        order = (starter, 1 - starter)
        todo = [p for p in order if not announced[p]]
        if not todo:
            self.S[K.PHASE], self.S[K.STEP] = K.PHASE_PLACE, 0
            self.place_node(n, rem, depth)
            self.S[K.PHASE] = K.PHASE_PICK
            return
        p = todo[0]
        self.depth = max(self.depth, depth + 1)
        groups: dict[str, list[int]] = {}
        for h, hand in rem[p].items():
            for mode in MODES:
                groups.setdefault(announcement_label(mode, hand), []).append(h)
        self.player[n] = p
        for text, legal in sorted(groups.items()):
            c = self.new_node(text, legal, len(self.hands[p]))
            self.kids_of[n].append(c)
            sub = [dict(r) for r in rem]
            sub[p] = {h: rem[p][h] for h in legal}
            now = list(announced)
            now[p] = True
            self.announce_node(c, sub, now, depth + 1)

    # -- placements ------------------------------------------------------
    def place_node(self, n: int, rem: list[dict[int, Hand]], depth: int) -> None:
        S = self.S
        if S[K.PHASE] == K.PHASE_DONE:
            self.terminal(n, 0, [_return_p1(S)] * len(self.hands[0]))
            return
        p = int(K.mover(S))
        opp_left = max(len(hand) for hand in rem[1 - p].values())
        if opp_left == 0:
            vals = [0.5] * len(self.hands[p])  # hands not held here: never read
            for h, hand in rem[p].items():
                vals[h] = _solo_best(S, p, list(hand), self.undo)
            self.terminal(n, p, vals)
            return
        self.depth = max(self.depth, depth + 1)
        self.player[n] = p
        actions: dict[tuple[int, int, int], list[int]] = {}
        for h, hand in rem[p].items():
            moves = _hand_moves(S, hand)
            for mv in moves or [(-1, -1, 0)]:
                actions.setdefault(mv, []).append(h)
        for (code, t, r), legal in sorted(actions.items()):
            text = "pass" if code < 0 else f"{stone_str(code)}{'x' if r else '>'}{LETTERS[t]}"
            c = self.new_node(text, legal, len(self.hands[p]))
            self.kids_of[n].append(c)
            sub = [dict(x) for x in rem]
            if code >= 0:
                sub[p] = {h: _without(rem[p][h], code) for h in legal}
                S[K.HAND + 3 * p] = code
                m = t * 2 + r
            else:
                sub[p] = {h: rem[p][h] for h in legal}
                m = K.MOVE_PASS
            K.make_move(S, m, self.undo)
            undo = self.undo.copy()
            self.place_node(c, sub, depth + 1)
            self.undo[:] = undo
            K.unmake_move(S, m, self.undo)
            S[K.HAND + 3 * p] = -1

    def terminal(self, n: int, seat: int, vals: list[float]) -> None:
        self.tseat[n] = seat
        self.toff[n] = len(self.tval)
        self.tval.extend(vals)

    def _preorder(self, root: int) -> list[int]:
        order, stack = [], [root]
        while stack:
            n = stack.pop()
            order.append(n)
            stack.extend(reversed(self.kids_of[n]))
        return order

    def _flatten(self, order: list[int]) -> PublicTree:
        """Renumber nodes in preorder; children contiguous."""
        new_id = {old: i for i, old in enumerate(order)}
        size = len(order)
        player = np.full(size, -1, dtype=np.int64)
        first = np.zeros(size, dtype=np.int64)
        nkids = np.zeros(size, dtype=np.int64)
        off = np.zeros(size, dtype=np.int64)
        tseat = np.zeros(size, dtype=np.int64)
        toff = np.zeros(size, dtype=np.int64)
        kids: list[int] = []
        label = [""] * size
        for old in order:
            i = new_id[old]
            player[i], off[i], tseat[i], toff[i] = self.player[old], self.off[old], self.tseat[old], self.toff[old]
            label[i] = self.label[old]
            first[i] = len(kids)
            nkids[i] = len(self.kids_of[old])
            kids.extend(new_id[k] for k in self.kids_of[old])
        priors = tuple(np.array(w, dtype=np.float64) / sum(w) for _, w in self.hands_prior)
        return PublicTree(
            hands=self.hands, prior=(priors[0], priors[1]), player=player, first=first, nkids=nkids,
            kids=np.array(kids, dtype=np.int64), off=off, legal=np.array(self.legal + [0], dtype=np.int64),
            tseat=tseat, toff=toff, tval=np.array(self.tval + [0.0], dtype=np.float64), label=label,
            depth=self.depth + 1, max_kids=max(1, int(nkids.max()) if size else 1))


def _without(hand: Hand, code: int) -> Hand:
    i = hand.index(code)
    return hand[:i] + hand[i + 1 :]


def _hand_moves(S: np.ndarray, hand: Hand) -> list[tuple[int, int, int]]:
    """Legal placements (stone, tower, replace) of the stones in ``hand`` on the towers of core ``S``."""
    out: list[tuple[int, int, int]] = []
    for code in sorted(set(hand)):
        for t in range(6):
            if code == JOKER:
                if S[K.OWN + t] >= 0 and S[K.JK + t] == 0:
                    out.append((code, t, 0))
                continue
            if K.allowed(code, t):
                out.append((code, t, 0))
                if S[K.JK + t] == 1 and K.replace_ok(S[K.TOT + t], S[K.TOP + t], code % 6 + 1):
                    out.append((code, t, 1))
    return out


def _return_p1(S: np.ndarray) -> float:
    """P1's return at the end: 1 an instant win or more towers, 0.5 equal towers, else 0."""
    if S[K.WIN] >= 0:
        return 1.0 if S[K.WIN] == 0 else 0.0
    margin = int(K.towers_owned(S, 0)) - int(K.towers_owned(S, 1))
    return 1.0 if margin > 0 else 0.0 if margin < 0 else 0.5


def _solo_best(S: np.ndarray, p: int, hand: list[int], undo: np.ndarray) -> float:
    """P1's return when ``p`` (the only seat with stones left) places ``hand`` as well as it can."""
    slots = np.full(3, -1, dtype=np.int64)
    slots[: len(hand)] = hand
    v = float(_solo_nb(S, p, slots, undo))
    if v < -1.0:
        raise ValueError("more than one placement left to a seat alone (not a round-6 end)")
    return v


@njit(cache=True)
def _return_nb(S):
    if S[K.WIN] >= 0:
        return 1.0 if S[K.WIN] == 0 else 0.0
    margin = K.towers_owned(S, 0) - K.towers_owned(S, 1)
    return 1.0 if margin > 0 else 0.0 if margin < 0 else 0.5


@njit(cache=True)
def _placement_ok(S, code, t, r):
    """Whether stone ``code`` may go on tower ``t`` (``r`` = 1: replacing its top joker) in position ``S``."""
    if code == K.JOKER:
        return r == 0 and S[K.OWN + t] >= 0 and S[K.JK + t] == 0
    return K.allowed(code, t) and (r == 0 or (S[K.JK + t] == 1 and K.replace_ok(
        S[K.TOT + t], S[K.TOP + t], code % 6 + 1)))


@njit(cache=True)
def _solo_nb(S, p, hand, undo):  # noqa: C901
    """Compiled :func:`_solo_best` for the one placement left (``hand``: codes, -1 empty); -2.0 if more is left."""
    best = -1.0
    for i in range(3):
        code = hand[i]
        if code < 0:
            continue
        for t in range(6):
            for r in range(2):
                if not _placement_ok(S, code, t, r):
                    continue
                S[K.HAND + 3 * p] = code
                m = t * 2 + r
                K.make_move(S, m, undo)
                done = S[K.PHASE] == K.PHASE_DONE
                v = _return_nb(S)
                K.unmake_move(S, m, undo)
                S[K.HAND + 3 * p] = -1
                if not done:
                    return -2.0
                mine = v if p == 0 else 1.0 - v
                if mine > best:
                    best = mine
    if best < 0.0:  # stuck: pass
        K.make_move(S, K.MOVE_PASS, undo)
        done = S[K.PHASE] == K.PHASE_DONE
        v = _return_nb(S)
        K.unmake_move(S, K.MOVE_PASS, undo)
        return v if done else -2.0
    return best if p == 0 else 1.0 - best


# -- the compiled builder (placements only) ---------------------------------
# out-arrays: player, first, nkids, off, tseat, toff, akey per node; legal and tval flat; cnt = (nodes, legal, tval)
PASS_KEY = 16 * JOKER + 16  # after every placement key (stone*16 + tower*2 + replace)


@njit(cache=True)
def _reserve(cnt, k, cap):
    """Ids of ``k`` new nodes, or -1 when they do not fit."""
    if cnt[0] + k > cap:
        return -1
    first = cnt[0]
    cnt[0] += k
    return first


@njit(cache=True)
def _grow(S, n, hands, nh, alive, player, first, nkids, off, tseat, toff, akey, legal, tval, cnt,  # noqa: C901
          undo, masks, d):
    """Fill node ``n`` (already reserved) and below; False when an array is full."""
    p = K.mover(S) if S[K.PHASE] != K.PHASE_DONE else 0
    if S[K.PHASE] == K.PHASE_DONE:
        player[n] = -1
        tseat[n] = 0
        if cnt[2] + nh[0] > len(tval):
            return False
        toff[n] = cnt[2]
        v = _return_nb(S)
        for h in range(nh[0]):
            tval[cnt[2] + h] = v
        cnt[2] += nh[0]
        return True
    o = 1 - p
    opp_left = 0
    for h in range(nh[o]):
        if alive[o, h]:
            for i in range(3):
                if hands[o, h, i] >= 0:
                    opp_left += 1
            break
    if opp_left == 0:  # the rest is the mover's alone: best play per hand
        player[n] = -1
        tseat[n] = p
        if cnt[2] + nh[p] > len(tval):
            return False
        toff[n] = cnt[2]
        for h in range(nh[p]):
            tval[cnt[2] + h] = _solo_nb(S, p, hands[p, h], undo[d]) if alive[p, h] else 0.5
        cnt[2] += nh[p]
        return True
    player[n] = p
    mk = masks[d]
    mk[:] = 0
    for h in range(nh[p]):
        if not alive[p, h]:
            continue
        any_move = False
        for i in range(3):
            code = hands[p, h, i]
            if code < 0:
                continue
            for t in range(6):
                for r in range(2):
                    if _placement_ok(S, code, t, r):
                        mk[code * 16 + t * 2 + r] |= 1 << h
                        any_move = True
        if not any_move:
            mk[PASS_KEY] |= 1 << h
    k = 0
    for key in range(PASS_KEY + 1):
        if mk[key] != 0:
            k += 1
    f = _reserve(cnt, k, len(player))
    if f < 0 or cnt[1] + k * nh[p] > len(legal):
        return False
    first[n] = f
    nkids[n] = k
    # pass first, then placements by key (the order of the Python builder)
    c = f
    for j in range(PASS_KEY + 1):
        key = PASS_KEY if j == 0 else j - 1
        if mk[key] == 0:
            continue
        akey[c] = key
        off[c] = cnt[1]
        for h in range(nh[p]):
            legal[cnt[1] + h] = 1 if (mk[key] >> h) & 1 else 0
        cnt[1] += nh[p]
        c += 1
    for a in range(k):
        c = f + a
        key = akey[c]
        saved = alive[p].copy()
        for h in range(nh[p]):
            alive[p, h] = legal[off[c] + h] == 1
        if key == PASS_KEY:
            m = K.MOVE_PASS
            K.make_move(S, m, undo[d])
            ok = _grow(S, c, hands, nh, alive, player, first, nkids, off, tseat, toff, akey, legal, tval, cnt,
                       undo, masks, d + 1)
            K.unmake_move(S, m, undo[d])
        else:
            code = key // 16
            m = key % 16
            slot = np.full(nh[p], -1, dtype=np.int64)
            for h in range(nh[p]):
                if alive[p, h]:
                    for i in range(3):
                        if hands[p, h, i] == code:
                            slot[h] = i
                            hands[p, h, i] = -1
                            break
            S[K.HAND + 3 * p] = code
            K.make_move(S, m, undo[d])
            ok = _grow(S, c, hands, nh, alive, player, first, nkids, off, tseat, toff, akey, legal, tval, cnt,
                       undo, masks, d + 1)
            K.unmake_move(S, m, undo[d])
            S[K.HAND + 3 * p] = -1
            for h in range(nh[p]):
                if slot[h] >= 0:
                    hands[p, h, slot[h]] = code
        alive[p] = saved
        if not ok:
            return False
    return True


def _key_label(key: int) -> str:
    if key == PASS_KEY:
        return "pass"
    code, rest = divmod(key, 16)
    return f"{stone_str(code)}{'x' if rest % 2 else '>'}{LETTERS[rest // 2]}"


def _grow_arrays(S: np.ndarray, hands: np.ndarray, nh: np.ndarray, alive: np.ndarray,
                 node_limit: int) -> tuple[np.ndarray, ...]:
    """The compiled tree below placement core ``S``: (player, first, nkids, off, tseat, toff, akey, legal, tval)."""
    width = hands.shape[1]
    cap = max(1, min(node_limit, 1 << 16))
    while True:
        player, first, nkids, off, tseat, toff, akey = (np.zeros(cap, dtype=np.int64) for _ in range(7))
        legal = np.zeros(cap * width + 1, dtype=np.int64)
        tval = np.zeros(cap * width + 1, dtype=np.float64)
        cnt = np.array([1, 0, 0], dtype=np.int64)
        ok = _grow(S.copy(), 0, hands.copy(), nh, alive.copy(), player, first, nkids, off, tseat, toff, akey, legal,
                   tval, cnt, np.zeros((64, 16), dtype=np.int64), np.zeros((32, PASS_KEY + 1), dtype=np.int64), 0)
        if ok:
            break
        if cap >= node_limit:
            raise SubgameTooLarge(f"the round-6 public tree has more than {node_limit:,} nodes")
        cap = min(node_limit, cap * 4)
    size, nleg, ntv = (int(x) for x in cnt)
    if (tval[:ntv] < -1.0).any():
        raise ValueError("more than one placement left to a seat alone (not a round-6 end)")
    return (player[:size], first[:size], nkids[:size], off[:size], tseat[:size], toff[:size], akey[:size],
            legal[:nleg], tval[:ntv])


def build_placement_tree(state: TowersState, node_limit: int = NODE_LIMIT) -> PublicTree:
    """The public tree of ``state``'s round-6 placements, built in compiled code (same tree as the Python builder:
    children in the same order; node numbers differ)."""
    check_round6(state)
    if state.phase != "place":
        raise ValueError("the compiled builder starts at a placement")
    hp = [possible_hands(state, p) for p in (0, 1)]
    nh = np.array([len(hp[0][0]), len(hp[1][0])], dtype=np.int64)
    if nh.max() > 62:
        raise SubgameTooLarge("too many possible hands for the compiled builder")
    width = int(nh.max())
    hands = np.full((2, width, 3), -1, dtype=np.int64)
    for p in (0, 1):
        for h, hand in enumerate(hp[p][0]):
            hands[p, h, : len(hand)] = hand
    alive = np.zeros((2, width), dtype=np.bool_)
    alive[0, : nh[0]] = True
    alive[1, : nh[1]] = True
    S = state.core.copy()
    S[K.QUIET], S[K.LAST], S[K.MODE] = 1, 5, 0
    S[K.HAND : K.HAND + 6] = -1
    player, first, nkids, off, tseat, toff, akey, legal, tval = _grow_arrays(S, hands, nh, alive, node_limit)
    size = len(player)
    labels = [""] + [_key_label(int(k)) for k in akey[1:size]]
    depth = _depth(first[:size], nkids[:size])
    priors = tuple(np.array(w, dtype=np.float64) / sum(w) for _, w in hp)
    return PublicTree(
        hands=(hp[0][0], hp[1][0]), prior=(priors[0], priors[1]), player=player[:size].copy(),
        first=first[:size].copy(), nkids=nkids[:size].copy(), kids=np.arange(size, dtype=np.int64),
        off=off[:size].copy(), legal=np.append(legal, 0), tseat=tseat[:size].copy(),
        toff=toff[:size].copy(), tval=np.append(tval, 0.0), label=labels, depth=depth + 1,
        max_kids=max(1, int(nkids[:size].max())))


class _Labels(Sequence[str]):
    """The action texts of a compact tree, made on demand: the announcement levels' texts, then placement keys
    (``akey``; -1 for a subtree's root)."""

    def __init__(self, top: list[str], akey: np.ndarray) -> None:
        self.top = top
        self.akey = akey

    def __len__(self) -> int:
        return len(self.top) + len(self.akey)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if i < len(self.top):
            return self.top[i]
        key = int(self.akey[i - len(self.top)])
        return "" if key < 0 else _key_label(key)


def _announced(state: TowersState) -> list[bool]:
    """Which seats have announced in round 6 (public)."""
    return [state.line[p] >= 0 and any(a["round"] == 5 and a["player"] == p for a in state.announcements)
            for p in (0, 1)]


@dataclass
class _TopLevels:
    """The announcement levels of a compact tree (global hand numbers), the nodes where placements begin and
    the hands each of those leaves possible."""

    player: list[int]
    first: list[int]
    nkids: list[int]
    off: list[int]
    label: list[str]
    legal: list[int]
    leaves: list[tuple[int, tuple[list[int], list[int]]]]


def _announcement_levels(hands: tuple[list[Hand], list[Hand]], announced: list[bool]) -> _TopLevels:
    """Grow the announcements still to come (P1's, then P2's) breadth first, so that siblings are contiguous."""
    nh = [len(hands[0]), len(hands[1])]
    top = _TopLevels([-1], [0], [0], [0], [""], [], [(0, (list(range(nh[0])), list(range(nh[1]))))])
    for p in (0, 1):
        if announced[p]:
            continue
        below = []
        for n, alive in top.leaves:
            groups: dict[str, list[int]] = {}
            for h in alive[p]:
                for mode in MODES:
                    groups.setdefault(announcement_label(mode, hands[p][h]), []).append(h)
            top.player[n], top.first[n], top.nkids[n] = p, len(top.player), len(groups)
            for text, hs in sorted(groups.items()):
                below.append((len(top.player), (hs, alive[1]) if p == 0 else (alive[0], hs)))
                top.player.append(-1)
                top.first.append(0)
                top.nkids.append(0)
                top.off.append(len(top.legal))
                top.label.append(text)
                top.legal.extend(1 if h in hs else 0 for h in range(nh[p]))
        top.leaves = below
    return top


def build_announcement_tree(state: TowersState, node_limit: int = START_NODE_LIMIT,
                            on_progress: Callable[[int, int], None] | None = None) -> PublicTree:
    """The public tree of a round-6 state with announcements to come, stored compactly.

    The announcement levels (P1's, then P2's, as still to come) are grown over all hands; each pair
    of announcement texts opens a placement subtree grown by the compiled builder over the hands
    those texts leave possible, numbered locally (a :data:`SUB` node maps them to the seats' hands).
    Placement states reached by different announcement texts stay different nodes: the texts are
    public history.  Node arrays are 8-32 bit, ``legal`` 8 bit.  ``on_progress(done, total)`` is
    called per subtree.
    """
    check_round6(state)
    if state.phase != "pick":
        raise ValueError("the announcements of round 6 are over")
    hp = [possible_hands(state, p) for p in (0, 1)]
    hands = (hp[0][0], hp[1][0])
    top = _announcement_levels(hands, _announced(state))
    ntop, nsub = len(top.player), len(top.leaves)
    if ntop > node_limit:
        raise SubgameTooLarge(f"the round-6 public tree has more than {node_limit:,} nodes")
    sub_hands = np.zeros((nsub, 2), dtype=np.int64)
    sub_map = np.zeros((nsub, 2, max(1, len(hands[0]), len(hands[1]))), dtype=np.int64)
    tseat, toff = [0] * ntop, [0] * ntop
    S = state.core.copy()
    S[K.QUIET], S[K.LAST], S[K.MODE] = 1, 5, 0
    S[K.HAND : K.HAND + 6] = -1
    S[K.PHASE], S[K.STEP] = K.PHASE_PLACE, 0
    cols: list[list[np.ndarray]] = [[np.array(x, dtype=t)] for x, t in (
        (top.player, np.int8), (top.first, np.int32), (top.nkids, np.int16), (top.off, np.int32),
        (tseat, np.int8), (toff, np.int32), ([], np.int16), (top.legal, np.int8), ([], np.float64))]
    size, nleg, ntv = ntop, len(top.legal), 0
    for k, (n, alive) in enumerate(top.leaves):
        sub_hands[k] = len(alive[0]), len(alive[1])
        local = np.full((2, int(sub_hands[k].max()), 3), -1, dtype=np.int64)
        for s in (0, 1):
            for j, h in enumerate(alive[s]):
                local[s, j, : len(hands[s][h])] = hands[s][h]
                sub_map[k, s, j] = h
        try:
            part = _grow_arrays(S, local, sub_hands[k], np.ones(local.shape[:2], dtype=np.bool_), node_limit - size)
        except SubgameTooLarge:
            raise SubgameTooLarge(f"the round-6 public tree has more than {node_limit:,} nodes") from None
        sp, sf, sn, so, sts, sto, sk, sl, stv = part
        cols[0][0][n], cols[1][0][n], cols[2][0][n], cols[5][0][n] = SUB, size, 1, k
        sk[0] = -1  # the subtree's root: no action leads to it
        for i, x in enumerate((sp, sf + size, sn, so + nleg, sts, sto + ntv, sk, sl, stv)):
            cols[i].append(x.astype(cols[i][0].dtype))
        size, nleg, ntv = size + len(sp), nleg + len(sl), ntv + len(stv)
        if nleg >= 2**31 or ntv >= 2**31:
            raise SubgameTooLarge("the round-6 public tree is too large for 32-bit offsets")
        if on_progress is not None:
            on_progress(k + 1, nsub)
    cols[7].append(np.zeros(1, dtype=np.int8))
    cols[8].append(np.zeros(1))
    player, first, nkids, off, tseat_a, toff_a, akey, legal, tval = (np.concatenate(c) for c in cols)
    del cols
    priors = tuple(np.array(w, dtype=np.float64) / sum(w) for _, w in hp)
    return PublicTree(
        hands=hands, prior=(priors[0], priors[1]), player=player, first=first, nkids=nkids,
        kids=np.arange(size, dtype=np.int32), off=off, legal=legal, tseat=tseat_a, toff=toff_a, tval=tval,
        label=_Labels(top.label, akey), depth=int(_depth(first, nkids)) + 1, max_kids=max(1, int(nkids.max())),
        sub_hands=sub_hands, sub_map=sub_map)


@njit(cache=True)
def _depth(first, nkids):
    """Depth of the tree (children ids are larger than their parent's)."""
    d = np.zeros(len(first), dtype=np.int64)
    best = 0
    for n in range(len(first)):
        for c in range(first[n], first[n] + nkids[n]):
            d[c] = d[n] + 1
            if d[c] > best:
                best = d[c]
    return best


def build_tree(state: TowersState, node_limit: int | None = None, compiled: bool = True) -> PublicTree:
    """The public tree of the round-6 subgame at ``state``'s public state (its hidden stones are not read).

    Placements only: :func:`build_placement_tree` (default limit :data:`NODE_LIMIT`); announcements to come:
    :func:`build_announcement_tree` (compact, default limit :data:`START_NODE_LIMIT`).  ``compiled=False``:
    everything in Python, one numbering of the hands throughout (the reference)."""
    if not compiled:
        return _Builder(state, node_limit or NODE_LIMIT).build()
    if state.phase == "place":
        return build_placement_tree(state, node_limit or NODE_LIMIT)
    return build_announcement_tree(state, node_limit or START_NODE_LIMIT)


# ---------------------------------------------------------------------------
# compiled passes: CFR+, evaluation, best response
# ---------------------------------------------------------------------------


@njit(cache=True)
def _walk(mode, player, first, nkids, kids, off, legal, tseat, toff, tval, nh0,  # noqa: C901
          reg, strat, avg, weight, reach, val, sig, cval, upd, sub_hands, sub_map):
    """One pass over the tree from the root (see :func:`run_pass`), depth first with an explicit stack; fills
    ``val[0]``.  At depth ``d`` the node is ``node[d]``, its seats' hand counts ``nhd[d]`` (local below a
    :data:`SUB` node) and ``child[d]`` the next child to visit."""
    depth = reach.shape[0]
    node = np.zeros(depth, dtype=np.int64)
    child = np.zeros(depth, dtype=np.int64)
    nhd = np.zeros((depth, 2), dtype=np.int64)
    nhd[0, 0] = nh0[0]
    nhd[0, 1] = nh0[1]
    d = 0
    entering = True
    while True:
        n = node[d]
        p = player[n]
        if entering:
            for s in range(2):
                for h in range(nhd[d, s]):
                    val[d, s, h] = 0.0
            if p == SUB:  # a subtree numbering its own hands: map the ranges in (and the values out below)
                k = toff[n]
                for s in range(2):
                    nhd[d + 1, s] = sub_hands[k, s]
                    for j in range(sub_hands[k, s]):
                        reach[d + 1, s, j] = reach[d, s, sub_map[k, s, j]]
                node[d + 1] = first[n]
                d += 1
                continue
            r0 = 0.0
            r1 = 0.0
            for h in range(nhd[d, 0]):
                r0 += reach[d, 0, h]
            for h in range(nhd[d, 1]):
                r1 += reach[d, 1, h]
            if (r0 == 0.0 and r1 == 0.0) or p < 0:
                if p < 0 and not (r0 == 0.0 and r1 == 0.0):  # terminal: P1's return per hand of seat s
                    s = tseat[n]
                    o = 1 - s
                    ro = r1 if s == 0 else r0
                    sign = 1.0 if s == 0 else -1.0
                    acc = 0.0
                    for h in range(nhd[d, s]):
                        z = sign * (tval[toff[n] + h] - 0.5)  # seat s's zero-sum utility
                        val[d, s, h] = z * ro
                        acc += reach[d, s, h] * z
                    for h in range(nhd[d, o]):
                        val[d, o, h] = -acc
                if d == 0:
                    return
                d -= 1
                entering = False
                continue
            # the mover's strategy at this node, per hand
            k = nkids[n]
            f = first[n]
            best_resp = (mode == BR0 and p == 0) or (mode == BR1 and p == 1)
            for h in range(nhd[d, p]):
                tot = 0.0
                cnt = 0
                for a in range(k):
                    i = off[kids[f + a]] + h
                    if legal[i] == 0:
                        sig[d, a, h] = 0.0
                        continue
                    cnt += 1
                    x = reg[i] if mode == CFR else strat[i]
                    if x < 0.0:
                        x = 0.0
                    sig[d, a, h] = x
                    tot += x
                for a in range(k):
                    if legal[off[kids[f + a]] + h] == 0:
                        continue
                    sig[d, a, h] = sig[d, a, h] / tot if tot > 0.0 else 1.0 / cnt
                val[d, p, h] = -1e9 if best_resp else 0.0
            child[d] = 0
        elif p == SUB:  # back from a subtree: map its values out
            k = toff[n]
            for s in range(2):
                for j in range(sub_hands[k, s]):
                    val[d, s, sub_map[k, s, j]] = val[d + 1, s, j]
            if d == 0:
                return
            d -= 1
            continue
        else:  # back from child ``child[d]``: take in its values
            a = child[d]
            c = kids[first[n] + a]
            o = 1 - p
            best_resp = (mode == BR0 and p == 0) or (mode == BR1 and p == 1)
            for h in range(nhd[d, o]):
                val[d, o, h] += val[d + 1, o, h]
            for h in range(nhd[d, p]):
                if legal[off[c] + h] == 0:
                    continue
                v = val[d + 1, p, h]
                cval[d, a, h] = v
                if best_resp:
                    if v > val[d, p, h]:
                        val[d, p, h] = v
                else:
                    val[d, p, h] += sig[d, a, h] * v
            child[d] = a + 1
        # the next child, or this node is done
        a = child[d]
        o = 1 - p
        best_resp = (mode == BR0 and p == 0) or (mode == BR1 and p == 1)
        if a < nkids[n]:
            c = kids[first[n] + a]
            nhd[d + 1, 0] = nhd[d, 0]
            nhd[d + 1, 1] = nhd[d, 1]
            for h in range(nhd[d, o]):
                reach[d + 1, o, h] = reach[d, o, h]
            for h in range(nhd[d, p]):
                if legal[off[c] + h] == 0:
                    reach[d + 1, p, h] = 0.0
                elif best_resp:
                    reach[d + 1, p, h] = reach[d, p, h]
                else:
                    reach[d + 1, p, h] = reach[d, p, h] * sig[d, a, h]
            node[d + 1] = c
            d += 1
            entering = True
            continue
        if best_resp:
            for h in range(nhd[d, p]):
                if val[d, p, h] < -1e8:
                    val[d, p, h] = 0.0
        if mode == CFR and (upd < 0 or p == upd):
            f = first[n]
            for h in range(nhd[d, p]):
                for a in range(nkids[n]):
                    i = off[kids[f + a]] + h
                    if legal[i] == 0:
                        continue
                    r = reg[i] + cval[d, a, h] - val[d, p, h]
                    reg[i] = r if r > 0.0 else 0.0
                    avg[i] += weight * reach[d, p, h] * sig[d, a, h]
        if d == 0:
            return
        d -= 1
        entering = False


def run_pass(tree: PublicTree, mode: int, reg: np.ndarray, strat: np.ndarray, avg: np.ndarray,
             weight: float = 0.0, update: int = -1) -> np.ndarray:
    """One compiled pass: ``mode`` CFR (update ``reg``/``avg``), EVAL (both play ``strat``) or BR0/BR1 (that seat
    best-responds to ``strat``); a CFR pass updates the seat ``update`` only (-1: both).  Returns the root's counterfactual values ``val[seat, hand]`` (zero-sum units)."""
    nh = tree.nh
    width = max(1, int(nh.max()))
    depth = tree.depth + 2
    reach = np.zeros((depth, 2, width))
    reach[0, 0, : nh[0]] = tree.prior[0]
    reach[0, 1, : nh[1]] = tree.prior[1]
    val = np.zeros((depth, 2, width))
    sig = np.zeros((depth, tree.max_kids, width))
    cval = np.zeros((depth, tree.max_kids, width))
    _walk(mode, tree.player, tree.first, tree.nkids, tree.kids, tree.off, tree.legal, tree.tseat, tree.toff,
          tree.tval, nh, reg, strat, avg, weight, reach, val, sig, cval, update, tree.sub_hands, tree.sub_map)
    return val[0].copy()


@njit(cache=True)
def _normalise(lo, hi, player, first, nkids, kids, off, legal, nh, avg, out):
    """``out`` at nodes ``lo..hi-1`` (hand counts ``nh``): ``avg`` normalised per (node, hand) over the legal actions
    (uniform where nothing was summed)."""
    for n in range(lo, hi):
        p = player[n]
        if p < 0:
            continue
        f = first[n]
        for h in range(nh[p]):
            tot = 0.0
            cnt = 0
            for a in range(nkids[n]):
                i = off[kids[f + a]] + h
                if legal[i] == 1:
                    tot += avg[i]
                    cnt += 1
            for a in range(nkids[n]):
                i = off[kids[f + a]] + h
                if legal[i] == 1:
                    out[i] = avg[i] / tot if tot > 0.0 else 1.0 / cnt
                else:
                    out[i] = 0.0


def normalise(tree: PublicTree, avg: np.ndarray) -> np.ndarray:
    out = np.zeros_like(avg)
    args = (tree.player, tree.first, tree.nkids, tree.kids, tree.off, tree.legal)
    subs = np.nonzero(tree.player == SUB)[0]
    if len(subs) == 0:
        _normalise(0, tree.size, *args, tree.nh, avg, out)
        return out
    # a compact tree: the announcement levels, then subtree k at nodes first[SUB node k] .. the next one's
    roots = tree.first[subs].astype(np.int64)
    _normalise(0, int(roots.min()), *args, tree.nh, avg, out)
    order = np.argsort(roots)
    bounds = np.append(roots[order], tree.size)
    for i, j in enumerate(order):
        _normalise(int(bounds[i]), int(bounds[i + 1]), *args, tree.sub_hands[int(tree.toff[subs[j]])], avg, out)
    return out


def value_of(tree: PublicTree, strat: np.ndarray) -> float:
    """P1's expected return when both seats play ``strat``."""
    v = run_pass(tree, EVAL, strat, strat, strat)
    return float(tree.prior[0] @ v[0, : len(tree.hands[0])]) + 0.5


def best_response_values(tree: PublicTree, strat: np.ndarray) -> tuple[float, float]:
    """Each seat's expected return when it best-responds to the other seat's part of ``strat``."""
    out = []
    for seat, mode in ((0, BR0), (1, BR1)):
        v = run_pass(tree, mode, strat, strat, strat)
        out.append(float(tree.prior[seat] @ v[seat, : len(tree.hands[seat])]) + 0.5)
    return out[0], out[1]


def exploitability(tree: PublicTree, strat: np.ndarray) -> float:
    """(BR value of P1 + BR value of P2 - 1) / 2: 0 exactly at an equilibrium."""
    b0, b1 = best_response_values(tree, strat)
    return (b0 + b1 - 1.0) / 2.0


# ---------------------------------------------------------------------------
# solving
# ---------------------------------------------------------------------------


@dataclass
class Equilibrium:
    """A solved round-6 subgame: the average strategy, its value and exploitability, how it was reached."""

    tree: PublicTree
    strategy: np.ndarray
    value: float
    exploitability: float
    iterations: int
    seconds: float
    status: str  # "found" (exploitability <= target), "unknown at iteration limit", "interrupted"
    target: float
    build_seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    def probabilities(self, node: int, hand: int) -> list[tuple[str, float]]:
        """(action text, probability) of the mover's hand ``hand`` at ``node``, legal actions only."""
        out = []
        for c in self.tree.children(node):
            i = int(self.tree.off[c]) + hand
            if self.tree.legal[i]:
                out.append((self.tree.label[c], float(self.strategy[i])))
        return out


def solve_tree(tree: PublicTree, target: float = TARGET, max_iterations: int = 20_000,
               check_every: int = 10, on_progress: Callable[[int, float], None] | None = None) -> Equilibrium:
    """CFR+ until the exploitability of the average strategy is at most ``target`` (checked every few iterations)."""
    t0 = time.perf_counter()
    size = len(tree.legal)
    reg = np.zeros(size)
    avg = np.zeros(size)
    strat = normalise(tree, avg)
    expl = math.inf
    status = "unknown at iteration limit"
    it = 0
    try:
        while it < max_iterations:
            it += 1
            for seat in (0, 1):  # alternating updates
                run_pass(tree, CFR, reg, reg, avg, float(it), seat)
            if it % check_every == 0 or it == max_iterations:
                strat = normalise(tree, avg)
                expl = exploitability(tree, strat)
                if on_progress is not None:
                    on_progress(it, expl)
                if expl <= target:
                    status = "found"
                    break
                check_every = min(100, check_every + check_every // 2)
    except KeyboardInterrupt:
        strat = normalise(tree, avg)
        expl = exploitability(tree, strat)
        status = "interrupted"
    return Equilibrium(tree, strat, value_of(tree, strat), expl, it, time.perf_counter() - t0, status, target)


def solve_round6(state: TowersState, target: float = TARGET, node_limit: int | None = None,
                 max_iterations: int = 20_000, on_progress: Callable[[int, float], None] | None = None,
                 on_build: Callable[[int, int], None] | None = None) -> Equilibrium:
    """Build the public tree at ``state``'s public state and solve it (see the module docstring).

    ``on_build(done, total)``: progress of a tree with announcements to come (per placement subtree);
    ``on_progress(iteration, exploitability)``: progress of CFR+."""
    t0 = time.perf_counter()
    if state.phase == "pick":
        tree = build_announcement_tree(state, node_limit or START_NODE_LIMIT, on_build)
    else:
        tree = build_tree(state, node_limit)
    built = time.perf_counter() - t0
    eq = solve_tree(tree, target, max_iterations, on_progress=on_progress)
    eq.build_seconds = built
    return eq


def strategy_rows(eq: Equilibrium, max_depth: int) -> list[dict[str, Any]]:
    """Each information set up to ``max_depth`` public actions that its seat's own play reaches: the mover,
    its hand (index and text), the public history and the mixed strategy (JSON: 0-based seats and hands)."""
    tree = eq.tree
    rows: list[dict[str, Any]] = []
    reach = [np.ones(len(tree.hands[0])), np.ones(len(tree.hands[1]))]
    ident = [list(range(len(tree.hands[0]))), list(range(len(tree.hands[1])))]
    # (node, history, reach per seat's hand, node's hand numbering: local hand j of seat s is hands[s][maps[s][j]])
    stack: list[tuple[int, list[str], list[np.ndarray], list[list[int]]]] = [(0, [], reach, ident)]
    while stack:
        n, hist, r, maps = stack.pop()
        p = int(tree.player[n])
        if p == SUB:
            k = int(tree.toff[n])
            sub = [[int(x) for x in tree.sub_map[k, s, : tree.sub_hands[k, s]]] for s in (0, 1)]
            stack.append((int(tree.first[n]), hist, r, sub))
            continue
        if p < 0 or len(hist) > max_depth:
            continue
        kids = list(tree.children(n))
        for j, h in enumerate(maps[p]):
            probs = eq.probabilities(n, j)
            if r[p][h] > 1e-9 and probs:
                rows.append({"player": p, "hand": h, "hand_text": " ".join(stone_str(c) for c in tree.hands[p][h]),
                             "history": hist, "reach": float(r[p][h]), "actions": probs})
        for c in reversed(kids):
            mine = np.zeros(len(tree.hands[p]))
            for j, h in enumerate(maps[p]):
                if tree.legal[tree.off[c] + j]:
                    mine[h] = eq.strategy[tree.off[c] + j]
            nr = [r[0], r[1]]
            nr[p] = r[p] * mine
            stack.append((c, [*hist, tree.label[c]], nr, maps))
    return rows


def announcement_strategy(eq: Equilibrium) -> list[list[dict[str, Any]]]:
    """Per seat still to announce at the solved tree's root, per possible hand: its prior and the probability
    that it announces colours (0-based seats and hands).  P2's is averaged over P1's announcements, each
    weighted by its probability (P1's hands dealt by the prior, playing the equilibrium)."""
    tree = eq.tree
    out: list[list[dict[str, Any]]] = [[], []]
    colours = [np.zeros(len(tree.hands[0])), np.zeros(len(tree.hands[1]))]
    seen = [False, False]
    stack: list[tuple[int, float]] = [(0, 1.0)]  # (announcement node, probability of its public history)
    while stack:
        n, w = stack.pop()
        p = int(tree.player[n])
        if p < 0 or not any(tree.label[c].startswith(MODES) for c in tree.children(n)):
            continue
        seen[p] = True
        prior = tree.prior[p]
        for c in tree.children(n):
            lo = int(tree.off[c])
            pr = np.where(tree.legal[lo : lo + len(prior)] == 1, eq.strategy[lo : lo + len(prior)], 0.0)
            if tree.label[c].startswith("colors"):
                colours[p] += w * pr
            stack.append((c, w * float(prior @ pr)))
    for p in (0, 1):
        if seen[p]:
            out[p] = [{"hand": h, "hand_text": " ".join(stone_str(c) for c in tree.hands[p][h]),
                       "prior": float(tree.prior[p][h]), "colors": float(colours[p][h])}
                      for h in range(len(tree.hands[p]))]
    return out


# ---------------------------------------------------------------------------
# a fixed policy (a bot) as a strategy, and its exploitability
# ---------------------------------------------------------------------------


def policy_strategy(tree: PublicTree, root: TowersState, seat: int,
                    choose: Callable[[TowersState], TowersAction | list[tuple[str, float]]]) -> tuple[np.ndarray, int]:
    """The strategy of ``seat`` that ``choose`` plays, at every (node, hand) its own play can reach: pure when
    ``choose`` returns an action, mixed when it returns (action text, probability) pairs.

    ``choose`` sees a full position whose hidden stones are a consistent guess (a bot that
    decides from its observation only cannot tell).  The other seat's part is uniform (a best
    response replaces it).  Returns the strategy and the number of decisions asked.
    """

    strat = normalise(tree, np.zeros(len(tree.legal)))
    asked = 0
    opp = 1 - seat
    stack: list[tuple[int, list[int], list[int], list[str]]] = [
        (0, list(range(len(tree.hands[seat]))), list(range(len(tree.hands[opp]))), [])]
    while stack:
        n, mine, theirs, path = stack.pop()
        p = int(tree.player[n])
        if p < 0:
            continue
        kids = list(tree.children(n))
        if p == opp:
            for c in kids:
                ok = [h for h in theirs if tree.legal[tree.off[c] + h]]
                if ok:
                    stack.append((c, mine, ok, [*path, tree.label[c]]))
            continue
        picks: dict[int, list[int]] = {}
        for h in mine:
            hands = (tree.hands[0][h], tree.hands[1][theirs[0]]) if seat == 0 else (tree.hands[0][theirs[0]], tree.hands[1][h])
            position = _replay(root, hands, path)
            choice = choose(position)
            asked += 1
            mix = choice if isinstance(choice, list) else [(_label_of(choice, tree.hands[seat][h]), 1.0)]
            weight = {c: 0.0 for c in kids if tree.legal[tree.off[c] + h]}
            for text, pr in mix:
                chosen = next((c for c in kids if tree.label[c] == text), None)
                if chosen is None or chosen not in weight:
                    raise ValueError(f"the policy chose {text!r}, not an action of this public node")
                weight[chosen] += pr
            for c, pr in weight.items():
                strat[tree.off[c] + h] = pr
                if pr > 0:
                    picks.setdefault(c, []).append(h)
        for c, hs in picks.items():
            stack.append((c, hs, theirs, [*path, tree.label[c]]))
    return strat, asked


def bot_exploitability(tree: PublicTree, root: TowersState,
                       choose_for: Callable[[int], Callable[[TowersState], TowersAction | list[tuple[str, float]]]]
                       ) -> tuple[float, int]:
    """Exploitability of a bot playing both seats (its seat-``s`` policy is ``choose_for(s)``): (BR value of P1
    against the bot as P2 + BR value of P2 against the bot as P1 - 1) / 2, and the decisions asked."""
    parts = [policy_strategy(tree, root, seat, choose_for(seat)) for seat in (0, 1)]
    strat = parts[1][0].copy()
    for n in range(tree.size):
        if tree.player[n] == 0:
            for c in tree.children(n):
                lo = int(tree.off[c])
                strat[lo : lo + len(tree.hands[0])] = parts[0][0][lo : lo + len(tree.hands[0])]
    return exploitability(tree, strat), parts[0][1] + parts[1][1]


def _label_of(action: TowersAction, hand: Hand) -> str:
    """The tree's text of ``action`` (an announcement says its mode and what the hand shows)."""
    if isinstance(action, Announce):
        return announcement_label(action.mode, hand)
    return action_to_string(action)


def announcement_label(mode: str, hand: Hand) -> str:
    """``colors R Y grey`` / ``numbers 0 2 5``: the public text of announcing ``mode`` with ``hand``."""
    said = sorted((announce_attr(c, mode) for c in hand), key=str)
    return f"{mode} {' '.join(str(x) for x in said)}"


def _replay(root: TowersState, hands: tuple[Hand, Hand], path: list[str]) -> TowersState:
    """``root`` dealt ``hands`` (the stones held at the root), then the public actions of ``path``."""
    from puzzles.towers.subgame import with_hands

    state = with_hands(root, hands)
    for text in path:
        _apply_public(state, text)
    return state


def _apply_public(state: TowersState, text: str) -> None:
    """Apply a public action of the tree (``colors R Y Y`` announces; picks in between are forced)."""
    while state.phase == "pick" and state.step % 2 == 0:
        state.apply(state.legal_actions()[0])
    if text.startswith(MODES):
        state.apply(Announce(text.split()[0]))
    else:
        state.apply(state.string_to_action(text))
    while not state.is_terminal() and state.phase == "pick" and state.step % 2 == 0:
        state.apply(state.legal_actions()[0])


# ---------------------------------------------------------------------------
# the equilibrium bot
# ---------------------------------------------------------------------------

#: Solved round-6 placement subgames by public root (shared by all bot instances: a pure function of the key).
_SOLVED: OrderedDict[str, Equilibrium] = OrderedDict()
_SOLVED_MAX = 64
BOT_NODE_LIMIT = 150_000
_Kept = TypeVar("_Kept")


def _cached(cache: OrderedDict[str, _Kept], limit: int, key: str, make: Callable[[], _Kept]) -> _Kept:
    """``cache[key]``, made by ``make()`` on a miss; when the cache is full its least recently used entry goes."""
    got = cache.get(key)
    if got is not None:
        cache.move_to_end(key)
        return got
    got = make()
    if len(cache) >= limit:
        cache.popitem(last=False)
    cache[key] = got
    return got


def _public_key(state: TowersState) -> str:
    import json

    return json.dumps(state.observation(0)["public"], sort_keys=True)


def solved_placements(state: TowersState, node_limit: int = BOT_NODE_LIMIT) -> Equilibrium:
    """The solved subgame rooted where round 6's placements began (cached by that public state)."""
    root = placement_start(state)

    def solve() -> Equilibrium:
        eq = solve_round6(root, TARGET, node_limit)
        eq.extra["root"] = root
        return eq

    return _cached(_SOLVED, _SOLVED_MAX, _public_key(root), solve)


#: Subgames re-solved at the current public state (:func:`resolved_probabilities`), least recently used first.
_RESOLVED: OrderedDict[str, Equilibrium] = OrderedDict()
_RESOLVED_MAX = 512


def resolved_here(state: TowersState, node_limit: int = BOT_NODE_LIMIT, target: float = TARGET) -> Equilibrium:
    """The subgame rooted at ``state``'s own public state (round 6's placements), every hand the public state
    allows dealt with its draw weight, solved to ``target`` (cached by the public state and target).

    Its hidden stones are not read (:func:`build_tree`); this is how the exploitability bench roots a subgame.  At
    the placement start itself this is :func:`solved_placements`'s subgame (and cache; solved to :data:`TARGET`)."""
    if not round6_placements(state):
        return solved_placements(state, node_limit)
    return _cached(_RESOLVED, _RESOLVED_MAX, f"{target!r} {_public_key(state)}",
                   lambda: solve_round6(state, target, node_limit))


def resolved_probabilities(state: TowersState, seat: int, node_limit: int = BOT_NODE_LIMIT,
                           target: float = TARGET) -> list[tuple[str, float]]:
    """(action text, probability) for ``seat``'s hand at ``state`` from the subgame re-solved at ``state``'s public
    state (:func:`resolved_here`); one certain action where the opponent has no stone left."""
    eq = resolved_here(state, node_limit, target)
    tree = eq.tree
    if tree.player[0] < 0:
        return [(action_to_string(_solo_choice(state, seat)), 1.0)]
    return eq.probabilities(0, tree.hands[seat].index(tuple(sorted(state.hands[seat]))))


#: Target and node limit of the announcement subgames the bot solves (:func:`announcement_probabilities`): the
#: subgame after the first announcement is 4 x 10^5..3 x 10^6 public nodes, 1-20 s of CPU to 10^-2 (build included).
ANNOUNCE_TARGET = 1e-2
ANNOUNCE_NODE_LIMIT = 6_000_000


@dataclass
class AnnouncementSolve:
    """What the bot keeps of a solved round-6 subgame with an announcement to come: each seat's possible hands,
    each hand's expected return at the root (equilibrium play), and the root mover's announcement probabilities
    per hand (``{text: probability}``; empty lists where the root is not an announcement)."""

    hands: tuple[list[Hand], list[Hand]]
    returns: tuple[np.ndarray, np.ndarray]
    choices: list[dict[str, float]]
    exploitability: float


_ANNOUNCED: OrderedDict[str, AnnouncementSolve] = OrderedDict()
_ANNOUNCED_MAX = 64


def solve_announcements(state: TowersState, node_limit: int = ANNOUNCE_NODE_LIMIT,
                        target: float = ANNOUNCE_TARGET) -> AnnouncementSolve:
    """The subgame at ``state``'s public state (round 6, an announcement to come), solved to ``target`` and kept
    small (:class:`AnnouncementSolve`; cached by public state and target).  Hidden stones are not read."""
    return _cached(_ANNOUNCED, _ANNOUNCED_MAX, f"{target!r} {_public_key(state)}",
                   lambda: _announcement_solve(state, node_limit, target))


def _announcement_solve(state: TowersState, node_limit: int, target: float) -> AnnouncementSolve:
    """Solve the announcement subgame at ``state`` and keep what the bot reads of it."""
    eq = solve_round6(state, target, node_limit)
    tree = eq.tree
    values = run_pass(tree, EVAL, eq.strategy, eq.strategy, eq.strategy)
    returns = (values[0, : len(tree.hands[0])] + 0.5, values[1, : len(tree.hands[1])] + 0.5)
    choices: list[dict[str, float]] = []
    mover = int(tree.player[0])
    if mover >= 0:
        for h in range(len(tree.hands[mover])):
            choices.append({text: pr for text, pr in eq.probabilities(0, h)})
    return AnnouncementSolve(tree.hands, returns, choices, eq.exploitability)


def announcement_probabilities(state: TowersState, seat: int, node_limit: int = ANNOUNCE_NODE_LIMIT,
                               target: float = ANNOUNCE_TARGET) -> list[tuple[str, float]]:
    """(action text, probability) of ``seat``'s round-6 announcement, from solved subgames (public state + own hand).

    Second to announce: the subgame here (its announcement, then the placements) solved to ``target``; the
    strategy of the seat's hand.  First to announce: each mode is scored by the seat's expected return in the
    subgame after announcing it (the other seat's announcement and the placements played at equilibrium, the
    seat's hands dealt by the prior given the text said), and the best is played; on a tie (within 10^-9) the
    mode that leaves the opponent the most candidate hands.  This is depth-limited and unsafe: the subgame does not
    know that the mode was chosen knowing the hand.  A subgame over ``node_limit`` raises
    :class:`SubgameTooLarge`."""
    hand = tuple(sorted(state.hands[seat]))
    modes = [a for a in state.legal_actions() if isinstance(a, Announce)]
    if _announced(state)[1 - seat]:
        solved = solve_announcements(state, node_limit, target)
        texts = solved.choices[solved.hands[seat].index(hand)]
        return [(action_to_string(a), texts.get(announcement_label(a.mode, hand), 0.0)) for a in modes]
    scores = []
    for a in modes:
        after = state.clone()
        after.apply(a)
        while after.phase == "pick" and len(after.legal_actions()) == 1:  # the other seat's line, forced in round 6
            after.apply(after.legal_actions()[0])
        solved = solve_announcements(after, node_limit, target)
        scores.append(float(solved.returns[seat][solved.hands[seat].index(hand)]))
    best = max(scores)
    tied = [a for a, v in zip(modes, scores, strict=True) if v >= best - 1e-9]
    if len(tied) > 1:
        rule = choose_announcement(state, seat)
        tied = [rule] if rule in tied else tied[:1]
    return [(action_to_string(a), 1.0 if a == tied[0] else 0.0) for a in modes]


def play_probabilities(probs: list[tuple[str, float]], state: TowersState, rng: random.Random) -> TowersAction:
    """Sample one of ``probs`` (action text, probability) at ``state`` with one draw of ``rng``."""
    x = rng.random()
    for text, pr in probs:
        x -= pr
        if x < 0:
            return state.string_to_action(text)
    return state.string_to_action(probs[-1][0])


def solved_probabilities(eq: Equilibrium, state: TowersState, seat: int) -> list[tuple[str, float]]:
    """(action text, probability) that the solved placements ``eq`` give ``seat``'s hand at ``state``'s public
    node; one certain action where the opponent has no stone left (the collapsed last placements)."""
    tree = eq.tree
    node = 0
    for _, text in round6_placements(state):
        node = tree.child_by_label(node, text)
    if tree.player[node] < 0:
        return [(action_to_string(_solo_choice(state, seat)), 1.0)]
    held = tuple(sorted(state.hands[seat] + [c for c in state.revealed[seat][5]]))
    return eq.probabilities(node, tree.hands[seat].index(held))


def play_solved(eq: Equilibrium, state: TowersState, seat: int, rng: random.Random) -> TowersAction:
    """Sample the strategy of ``seat``'s hand at ``state``'s public node of the solved placements ``eq``."""
    return play_probabilities(solved_probabilities(eq, state, seat), state, rng)


def _solo_choice(state: TowersState, seat: int) -> TowersAction:
    """The placement that gives ``seat`` the best return when only it has stones left (its own hand is known)."""
    best, best_v = None, -1.0
    undo = np.empty(16, dtype=np.int64)
    for action in state.legal_actions():
        after = state.clone()
        after.apply(action)
        S = after.core.copy()
        S[K.QUIET], S[K.LAST], S[K.MODE] = 1, 5, 0
        rest = after.hands[seat]
        S[K.HAND : K.HAND + 6] = -1
        v = _solo_best(S, seat, rest, undo)
        v = v if seat == 0 else 1.0 - v
        if v > best_v:
            best, best_v = action, v
    assert best is not None
    return best
