"""Arc stores whose arcs share rows of features: the layout learners read, at about half the flat bytes.

Why: with `local_fine` the flat store lists 77 ids on every GUM arc (321 bytes per arc, the goal
is 160). Most of them do not depend on the pair as such. A template of the antecedent and the
anaphor's type gives the same ids on every arc from that antecedent to an anaphor of that type; a
pair relation conjoined with closed-class attributes takes a few thousand distinct values. So
each arc keeps its own ids (lexical conjunctions of both mentions, tree paths between them, the
root's) and refers to up to three rows stored once per document:

    antecedent  no pair relation; the anaphor side is its type or fine type (or absent)
    anaphor     no pair relation; the antecedent side is closed-class
    relation    pair relations with closed-class attributes of either mention

Encoding (no new array, so every kernel keeps its signature): the rows are extra segments of
`arc_feat_offsets` after the n_arcs arc segments, and an arc's segment begins with its references,
each the negative id -1 - (the row's segment index), before its own ids. A row holds ids only.
A flat store is the special case without rows, and every read below gives it the same sums in
the same order as a plain loop over the arc's ids.

An arc's score is defined as 0 + Σ_refs (the row's sum, from 0) + Σ own ids, in segment order:
`arc_dot` reads it entry by entry and `score_arcs` with the row sums cached, with the same
floating-point operations, so every decoder sees one score. Rows are deduplicated by content
within a document (a 64-bit key, then the ids compared): a document's rows are contiguous, which
is what lets `score_arcs` cache one document's row sums in a small array.
"""

import numpy as np
from numba import njit

from coreflab.features.store import ArcStore
from coreflab.features.templates import K_ANA, K_ANTE, K_CONST, K_PAIR, P_SENT_PATHS, REGISTRY, split_entry

OWN, ANTECEDENT, ANAPHOR, RELATION = range(4)
CLASS_NAMES = ("own", "antecedent", "anaphor", "relation")
# mention attributes with a small closed set of values (the rest are words, strings, paths)
CLOSED = {"type", "fine_type", "gender", "number", "ne", "length", "pronoun", "embedded", "quote", "coord"}
# the anaphor classes an antecedent row is kept for: each more attribute multiplies its rows
ANAPHOR_CLASS = {"type", "fine_type"}


def _closed(template, attributes=CLOSED):
    return template.kind == K_CONST or template.name.split("_", 1)[1] in attributes


def template_class(entry):
    """Which part of the layout an entry's features go to (module docstring)."""
    parts = [REGISTRY[p] for p in split_entry(entry)]
    ana = [p for p in parts if p.kind in (K_ANA, K_CONST)]
    ante = [p for p in parts if p.kind == K_ANTE]
    pair = [p for p in parts if p.kind == K_PAIR]
    if not ante and not pair:
        return OWN  # root arcs only: one per mention
    if pair:
        lexical = any(p.arg == P_SENT_PATHS for p in pair) or not all(_closed(p) for p in ana + ante)
        return OWN if lexical else RELATION
    if all(_closed(p, ANAPHOR_CLASS) for p in ana):
        return ANTECEDENT
    if all(_closed(p) for p in ante):
        return ANAPHOR
    return OWN


# ---------------------------------------------------------------- reading (every kernel)


@njit(cache=True, inline="always")
def row_of(f):
    """The row segment a reference f < 0 names (references are stored as -1 - row)."""
    return -1 - f


@njit(cache=True, inline="always")
def row_span(offs, f):
    """(start, stop) of the entries of the row a reference f < 0 names."""
    r = row_of(f)
    return offs[r], offs[r + 1]


@njit(cache=True, inline="always")
def row_dot(w, offs, feats, r):
    """Σ w over row segment r's ids, from 0."""
    t = 0.0
    for e in range(offs[r], offs[r + 1]):
        t += w[feats[e]]
    return t


@njit(cache=True, inline="always")
def arc_dot(w, offs, feats, a):
    """w·Φ(a): its rows' sums, then its own ids (a flat arc: its ids in order)."""
    s = 0.0
    for e in range(offs[a], offs[a + 1]):
        f = feats[e]
        if f < 0:
            s += row_dot(w, offs, feats, row_of(f))
        else:
            s += w[f]
    return s


@njit(cache=True, inline="always")
def arc_add(v, offs, feats, a, c):
    """v[f] += c for every id f of arc a (its rows' ids included)."""
    for e in range(offs[a], offs[a + 1]):
        f = feats[e]
        if f < 0:
            e0, e1 = row_span(offs, f)
            for e2 in range(e0, e1):
                v[feats[e2]] += c
        else:
            v[f] += c


@njit(cache=True)
def arc_ids(offs, feats, a, out):
    """Write arc a's ids (rows expanded, in reading order) into out; returns how many."""
    n = 0
    for e in range(offs[a], offs[a + 1]):
        f = feats[e]
        if f < 0:
            e0, e1 = row_span(offs, f)
            for e2 in range(e0, e1):
                out[n] = feats[e2]
                n += 1
        else:
            out[n] = f
            n += 1
    return n


@njit(cache=True)
def arc_length(offs, feats, a):
    """The number of ids of arc a, rows expanded."""
    n = 0
    for e in range(offs[a], offs[a + 1]):
        f = feats[e]
        if f < 0:
            e0, e1 = row_span(offs, f)
            n += e1 - e0
        else:
            n += 1
    return n


# ---------------------------------------------------------------- building


@njit(cache=True)
def _class_keys(fo, feats, cls, keys, lens):
    """keys[c - 1, a], lens[c - 1, a]: FNV-1a hash and count of arc a's ids of class c (1..3)."""
    for a in range(fo.shape[0] - 1):
        h = np.full(3, np.uint64(14695981039346656037))
        for e in range(fo[a], fo[a + 1]):
            c = cls[e]
            if c > 0:
                h[c - 1] = (h[c - 1] ^ np.uint64(feats[e] + 1)) * np.uint64(1099511628211)
                lens[c - 1, a] += 1
        for c in range(3):
            keys[c, a] = np.int64(h[c])


@njit(cache=True)
def _same_ids(fo, feats, cls, c, a, b):
    """True if arcs a and b list the same ids of class c, in the same order."""
    p, q = fo[a], fo[b]
    while True:
        while p < fo[a + 1] and cls[p] != c:
            p += 1
        while q < fo[b + 1] and cls[q] != c:
            q += 1
        if p == fo[a + 1] or q == fo[b + 1]:
            return p == fo[a + 1] and q == fo[b + 1]
        if feats[p] != feats[q]:
            return False
        p += 1
        q += 1


@njit(cache=True)
def _assign_rows(order, item_doc, item_key, n_arcs, fo, feats, cls, arc_row, first_arc):
    """Walk the items (class c, arc a) = item c·n_arcs + a in (document, key) order: a new row where
    the document or the key changes or the ids differ from the row's first arc (a key collision).
    arc_row[c, a] = the row; first_arc[r] = its first item. Returns the number of rows."""
    n_rows = 0
    prev = -1
    for i in range(order.shape[0]):
        it = order[i]
        c, a = it // n_arcs, it % n_arcs
        new = prev < 0 or item_doc[it] != item_doc[prev] or item_key[it] != item_key[prev]
        if not new:
            r0 = first_arc[n_rows - 1]
            new = (r0 // n_arcs) != c or not _same_ids(fo, feats, cls, c + 1, r0 % n_arcs, a)
        if new:
            first_arc[n_rows] = it
            n_rows += 1
        arc_row[c, a] = n_rows - 1
        prev = it
    return n_rows


@njit(cache=True)
def _fill(fo, feats, cls, arc_row, first_arc, n_rows, out_off, out_feats):
    """Write the shared layout (module docstring) given the rows; out_off is already the offsets."""
    n_arcs = fo.shape[0] - 1
    for a in range(n_arcs):
        q = out_off[a]
        for c in range(3):
            r = arc_row[c, a]
            if r >= 0:
                out_feats[q] = -1 - (n_arcs + r)
                q += 1
        for e in range(fo[a], fo[a + 1]):
            if cls[e] == OWN:
                out_feats[q] = feats[e]
                q += 1
    for r in range(n_rows):
        it = first_arc[r]
        c, a = it // n_arcs + 1, it % n_arcs
        q = out_off[n_arcs + r]
        for e in range(fo[a], fo[a + 1]):
            if cls[e] == c:
                out_feats[q] = feats[e]
                q += 1


def share_rows(store, tags):
    """The shared-row store of a flat store and its features' template tags (`extract_tagged_arc_store`).

    Every arc reads the same ids as in the flat store, grouped as its rows' then its own (tested by
    expanding it back). meta["shared_rows"] holds the number of rows."""
    if store.n_rows:
        raise ValueError("the store already shares rows")
    fo, feats = store.arc_feat_offsets, store.arc_feats
    n = store.n_arcs
    cls = np.array([template_class(t) for t in store.templates] + [OWN], dtype=np.int8)[tags]
    keys = np.zeros((3, n), np.int64)
    lens = np.zeros((3, n), np.int32)
    _class_keys(fo, feats, cls, keys, lens)
    per_mention = np.diff(store.m_arc_offsets)
    mention_doc = np.repeat(np.arange(store.n_docs, dtype=np.int64), np.diff(store.doc_mention_offsets))
    arc_doc = np.repeat(mention_doc, per_mention)
    items = np.flatnonzero(lens.reshape(-1) > 0)  # (class, arc) pairs with a row to refer to
    item_doc = np.tile(arc_doc, 3)
    item_key = keys.reshape(-1) ^ lens.reshape(-1).astype(
        np.int64
    )  # the count mixed in: equal keys, equal counts (mostly)
    order = items[np.lexsort((item_key[items], item_doc[items]))]
    arc_row = np.full((3, n), -1, np.int32)
    first_arc = np.empty(max(order.shape[0], 1), np.int64)
    n_rows = int(_assign_rows(order, item_doc, item_key, n, fo, feats, cls, arc_row, first_arc))
    first_arc = first_arc[:n_rows]
    own = np.diff(fo) - lens.sum(axis=0, dtype=np.int64)
    seg_len = np.concatenate([own + (arc_row >= 0).sum(axis=0), lens.reshape(-1)[first_arc]])
    out_off = np.zeros(n + n_rows + 1, np.int64)
    np.cumsum(seg_len, out=out_off[1:])
    out_feats = np.empty(int(out_off[-1]), np.int32)
    _fill(fo, feats, cls, arc_row, first_arc, n_rows, out_off, out_feats)
    return _with_features(store, out_off, out_feats, dict(store.meta, shared_rows=n_rows))


def concat_stores(parts):
    """One store of consecutive blocks of documents (`extract_shared_arc_store`), each a store of its
    own: every block's arcs, then every block's rows, the row references renumbered to match. Empties
    `parts` as it copies them, so the blocks and the whole are not held twice."""
    if len(parts) == 1:
        return parts.pop()
    first = parts[0]
    n_bits, templates, unavailable, window, meta = (
        first.n_bits,
        list(first.templates),
        dict(first.unavailable),
        first.window,
        dict(first.meta),
    )
    n_arcs = [p.n_arcs for p in parts]
    n_rows = [p.n_rows for p in parts]
    arc_entries = [int(p.arc_feat_offsets[na]) for p, na in zip(parts, n_arcs)]
    row_entries = [int(p.arc_feat_offsets[-1]) - e for p, e in zip(parts, arc_entries)]
    total_arcs, total_rows = sum(n_arcs), sum(n_rows)
    doc = np.zeros(sum(p.n_docs for p in parts) + 1, np.int64)
    m_arc = np.zeros(sum(p.n_mentions for p in parts) + 1, np.int64)
    ante = np.empty(total_arcs, np.int32)
    lengths = np.empty(total_arcs + total_rows, np.int64)
    feats = np.empty(sum(arc_entries) + sum(row_entries), np.int32)  # pages become resident as filled
    d = m = a = r = e_arc = 0
    e_row = sum(arc_entries)
    for k in range(len(parts)):
        p = parts[k]
        parts[k] = None
        na, nr, fo = n_arcs[k], n_rows[k], p.arc_feat_offsets
        doc[d + 1 : d + 1 + p.n_docs] = p.doc_mention_offsets[1:] + doc[d]
        m_arc[m + 1 : m + 1 + p.n_mentions] = p.m_arc_offsets[1:] + m_arc[m]
        ante[a : a + na] = p.arc_ante
        lengths[a : a + na] = np.diff(fo[: na + 1])
        lengths[total_arcs + r : total_arcs + r + nr] = np.diff(fo[na:])
        own = p.arc_feats[: arc_entries[k]]
        shift = total_arcs + r - na  # row segment na + j becomes total_arcs + (rows before) + j
        out = feats[e_arc : e_arc + arc_entries[k]]
        out[:] = own
        if shift:
            np.subtract(out, shift, out=out, where=own < 0)
        feats[e_row : e_row + row_entries[k]] = p.arc_feats[arc_entries[k] :]
        d, m, a, r = d + p.n_docs, m + p.n_mentions, a + na, r + nr
        e_arc, e_row = e_arc + arc_entries[k], e_row + row_entries[k]
        del p, fo, own, out
    parts.clear()
    offsets = np.zeros(total_arcs + total_rows + 1, np.int64)
    np.cumsum(lengths, out=offsets[1:])
    if total_rows or "shared_rows" in meta:
        meta["shared_rows"] = total_rows
    return ArcStore(n_bits, doc, m_arc, ante, offsets, feats, templates, unavailable, window, meta)


@njit(cache=True)
def _lengths_of(offs, feats, arcs, out):
    for i in range(arcs.shape[0]):
        out[i] = arc_length(offs, feats, arcs[i])


@njit(cache=True)
def _expand_arcs(offs, feats, arcs, out_off, out_feats):
    for i in range(arcs.shape[0]):
        arc_ids(offs, feats, arcs[i], out_feats[out_off[i] : out_off[i + 1]])


@njit(cache=True)
def _mark_ids(offs, feats, arcs, out):
    for i in range(arcs.shape[0]):
        a = arcs[i]
        for e in range(offs[a], offs[a + 1]):
            f = feats[e]
            if f < 0:
                e0, e1 = row_span(offs, f)
                for e2 in range(e0, e1):
                    out[feats[e2]] = True
            else:
                out[f] = True


def arc_lengths_of(offsets, feats, arcs):
    """Per given arc, its number of ids with rows expanded (a flat store: its entries)."""
    arcs = np.asarray(arcs, np.int64)
    out = np.empty(arcs.shape[0], np.int64)
    _lengths_of(offsets, feats, arcs, out)
    return out


def ids_of_arcs(offsets, feats, arcs, lengths=None):
    """(offsets, ids) of the given arcs, one row per arc in that order, rows expanded in reading order:
    `features_of_arcs` of the expanded store, without expanding the arcs not asked for."""
    arcs = np.asarray(arcs, np.int64)
    lengths = arc_lengths_of(offsets, feats, arcs) if lengths is None else lengths
    out_off = np.zeros(arcs.shape[0] + 1, np.int64)
    np.cumsum(lengths, out=out_off[1:])
    out_feats = np.empty(int(out_off[-1]), np.int32)
    _expand_arcs(offsets, feats, arcs, out_off, out_feats)
    return out_off, out_feats


def expanded_ids(offsets, feats, n_arcs):
    """(offsets, ids) of the first n_arcs segments with their row references replaced by the rows' ids."""
    return ids_of_arcs(offsets, feats, np.arange(n_arcs, dtype=np.int64))


def flat_meta(meta):
    """A shared-row store's metadata for a flat store of its ids (no row count)."""
    return {k: v for k, v in meta.items() if k != "shared_rows"}


def mark_ids(offsets, feats, arcs, present):
    """present[id] = True for every id of the given arcs (rows expanded)."""
    _mark_ids(offsets, feats, np.asarray(arcs, np.int64), present)
    return present


def arcs_in_order(offsets, entries, arcs):
    """(offsets, entries) of a store whose arc segments are those of `arcs` (every arc once, in any
    order) followed by the store's rows as they are. A row reference names a segment index past the
    arcs, so with as many arcs as before the references stay valid and nothing is expanded; the
    result is written in place, so the peak is the store and its copy."""
    from coreflab.features.entry_filters import fill_arcs

    arcs = np.asarray(arcs, np.int64)
    offsets = np.asarray(offsets, np.int64)
    entries = np.asarray(entries)
    n = arcs.shape[0]
    if offsets.shape[0] < n + 1 or (n and (arcs.min() < 0 or arcs.max() >= n or np.bincount(arcs).max() != 1)):
        raise ValueError("arcs must list every arc of the store once")
    start = int(offsets[n])
    out_off = np.empty(offsets.shape[0], np.int64)
    out = np.empty(entries.shape[0], entries.dtype)
    fill_arcs(offsets, entries, arcs, out_off[: n + 1], out[:start])
    out_off[n + 1 :] = offsets[n + 1 :]
    out[start:] = entries[start:]
    return out_off, out


def expand(store):
    """The flat store of a shared-row store (each arc's ids in reading order); a flat store as it is.

    For what cuts or copies a store's entries (filters by id, document subsets, pairwise design
    matrices) and reads rows nowhere else."""
    ante = getattr(store, "arc_ante", None)  # design-matrix tests pass bare (offsets, ids) namespaces
    if ante is None or store.arc_feat_offsets.shape[0] == ante.shape[0] + 1:
        return store
    out_off, out_feats = expanded_ids(store.arc_feat_offsets, store.arc_feats, int(ante.shape[0]))
    meta = flat_meta(getattr(store, "meta", {}))
    return _with_features(store, out_off, out_feats, meta)


def _with_features(store, offsets, feats, meta):
    """An ArcStore with the arcs of `store` (an ArcStore or any object with its arrays) and these features."""
    return ArcStore(
        store.n_bits,
        store.doc_mention_offsets,
        store.m_arc_offsets,
        store.arc_ante,
        offsets,
        feats,
        templates=list(getattr(store, "templates", [])),
        unavailable=dict(getattr(store, "unavailable", {})),
        window=getattr(store, "window", None),
        meta=meta,
    )


__all__ = [
    "arc_add",
    "arc_dot",
    "arc_ids",
    "arc_lengths_of",
    "arcs_in_order",
    "concat_stores",
    "expand",
    "expanded_ids",
    "flat_meta",
    "ids_of_arcs",
    "mark_ids",
    "row_dot",
    "share_rows",
    "template_class",
]
