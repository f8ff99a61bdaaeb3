"""mcts-rave's list cache: every colour's legal-move list kept at expanded tree nodes.

Each expanded node keeps every colour's legal moves there (refreshed from its nearest cached
ancestor's lists, as a playout turn refreshes a list).  Its expansion takes its moves from them,
and each colour's first playout turn starts from the lists of the deepest cached node on the
path instead of the root's, so it drops and adds only what the last tree moves changed.

``cache`` = (node -> slot + 1 (0: none), the pool of moves, per slot and colour (offset, count,
attach points processed, kind), (pool used, slots used, full), slot -> node, the list sizes of
the slot being made); :class:`~solvers.blokus.mcts.driver.Workspace` allocates it.
"""

from __future__ import annotations

from puzzles.blokus import kernel as K


@K.hot
def reset_cache(cache):
    """Forget every cached list (a new search: node numbers and the root change)."""
    t_cache, pool, meta, state, slot_node, sizes = cache
    for s in range(state[1]):
        t_cache[slot_node[s]] = 0
    state[0] = 0
    state[1] = 0
    state[2] = 0


@K.hot_inline
def _new_slot(node, cache, sizes, nc):
    """A cache slot for ``node`` with room for lists of ``sizes[:nc]`` moves, or -1 (the pool is full)."""
    t_cache, pool, meta, state, slot_node, _ = cache
    total = 0
    for k in range(nc):
        total += sizes[k]
    if state[2] or state[1] >= slot_node.shape[0] or state[0] + total > pool.shape[0]:
        state[2] = 1
        return -1
    slot = state[1]
    base = state[0]
    for k in range(nc):
        meta[slot, 0, k] = base
        meta[slot, 1, k] = sizes[k]
        base += sizes[k]
    state[0] = base
    state[1] = slot + 1
    slot_node[slot] = node
    t_cache[node] = slot + 1
    return slot


@K.hot
def cache_root(roots, cache):
    """Keep the root's lists (``roots``, :func:`~puzzles.blokus.kernel.root_moves`) as node 0's cache slot."""
    pool, meta = cache[1], cache[2]
    lists, counts, processed, kinds = roots
    nc = counts.shape[0]
    slot = _new_slot(0, cache, counts, nc)
    for k in range(nc):
        off = meta[slot, 0, k]
        for i in range(counts[k]):
            pool[off + i] = lists[k, i]
        meta[slot, 2, k] = processed[k]
        meta[slot, 3, k] = kinds[k]
    return slot


@K.hot
def cache_lists(node, src, tables, arrays, pw, lists, wbuf, wt, glocal, cache):
    """Keep every colour's legal moves at ``node`` (the work position) in a new cache slot; return it, or -1.

    Each list is its colour's list at the cached ancestor ``src`` refreshed as a playout turn does
    (:func:`~puzzles.blokus.kernel.refresh_moves`), so that playouts below the node, and its
    expansion, start from lists only a move or two old instead of the root's.
    """
    pool, meta, state, sizes = cache[1], cache[2], cache[3], cache[5]
    if state[2]:
        return -1  # the pool is full
    feat, mark = pw[0], pw[1]
    stamp = K.next_stamp(mark, pw[4])
    forbidden, attach, attach_len, left, placed = (arrays.forbidden, arrays.attach, arrays.attach_len, arrays.left,
                                                   arrays.placed)
    rec, cp_start, cp_list = tables.rec, tables.cp_start, tables.cp_list
    nc = forbidden.shape[0]
    for k in range(nc):
        f, mk, L = forbidden[k], mark[k], lists[k]
        K.set_features(f, left[k], feat)
        off, cnt, proc, kind = meta[src, 0, k], meta[src, 1, k], meta[src, 2, k], meta[src, 3, k]
        if kind == 1 and placed[k] > 0:  # a list of starting moves, but the colour has placed: anew
            cnt = 0
            proc = 0
        n, _ = K.refresh_moves(rec, cp_start, cp_list, f, mk, stamp, feat, pool, off, cnt, True, attach[k], proc,
                               attach_len[k], L, wt, glocal, wbuf)
        sizes[k] = n
    slot = _new_slot(node, cache, sizes, nc)
    if slot < 0:
        return slot
    for k in range(nc):
        off = meta[slot, 0, k]
        L = lists[k]
        for i in range(sizes[k]):
            pool[off + i] = L[i]
        meta[slot, 2, k] = attach_len[k]
        meta[slot, 3, k] = 2 if placed[k] > 0 else meta[src, 3, k]
    return slot
