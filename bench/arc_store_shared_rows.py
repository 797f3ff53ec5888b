"""Benchmark: the arc store with rows of features shared between arcs, built and checked.

Why: with `local_fine` (config/gum.yaml's selection pool) the flat store takes 321 bytes per arc
on GUM train, twice the goal of 160 (issue 14), because every arc stores 77 feature ids. Most of
them do not depend on the pair as such. A template reading the antecedent and only closed-class
attributes of the anaphor (`ante_head+ana_fine_type+ante_fine_type`) gives the same ids on every
arc from that antecedent to an anaphor of that class; one reading a pair relation and closed-class
attributes (`sent_dist+ana_fine_type+ante_fine_type`) takes a few thousand distinct rows over a
whole corpus. So each arc keeps its own ids (lexical conjunctions of both mentions, tree paths
between them, the root's) and points at three shared rows:

    antecedent  no pair relation; the anaphor side is its type or fine type (or absent)
    anaphor     no pair relation; the antecedent side is closed-class
    relation    pair relations with closed-class attributes of either mention

Bytes per arc: antecedent int32 + own offset int64 + three row ids int32 + 4 per own id; the rows
(int64 offset + 4 per id) are stored once and counted over the arcs. This script builds that
layout from a flat store (rows are deduplicated by content), expands it back and checks every
arc's ids against the flat store's, and times a gather-sum over every arc in both layouts (the
read every learner does). The kernels read the flat layout; this measures what the other would
give. Writes bench/results/arc_store_shared_rows_<corpus>_<split>_<featureset>.json.

    python bench/arc_store_shared_rows.py --compiled results/gum/compiled/train.npz --featureset local_fine --window 50
"""

import argparse
import json
import os
import time
from pathlib import Path

import numpy as np
from numba import njit

from coreflab.features.extract import extract_tagged_arc_store
from coreflab.features.featureset import load_featureset
from coreflab.features.templates import K_ANA, K_ANTE, K_CONST, K_PAIR, P_SENT_PATHS, REGISTRY, split_entry

OWN, ANTECEDENT, ANAPHOR, RELATION = range(4)
CLASS_NAMES = ("own", "antecedent", "anaphor", "relation")
# mention attributes with a small closed set of values (the rest are words, strings, paths)
CLOSED = {"type", "fine_type", "gender", "number", "ne", "length", "pronoun", "embedded", "quote", "coord"}
# the anaphor classes an antecedent row is kept for: each more attribute multiplies its rows
ANAPHOR_CLASS = {"type", "fine_type"}
TARGET_BYTES_PER_ARC = 160


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


@njit(cache=True)
def _row_keys(fo, feats, cls, c, keys, lens):
    """keys[a] = FNV-1a hash of arc a's ids of class c, in order; lens[a] = how many."""
    for a in range(fo.shape[0] - 1):
        h = np.uint64(14695981039346656037)
        n = 0
        for e in range(fo[a], fo[a + 1]):
            if cls[e] == c:
                h = (h ^ np.uint64(feats[e] + 1)) * np.uint64(1099511628211)
                n += 1
        keys[a] = np.int64(h)
        lens[a] = n


@njit(cache=True)
def _copy_rows(fo, feats, cls, c, first_arc, row_off, row_feats):
    """Write the ids of class c of arc first_arc[r] into row r's slice of row_feats (the shared rows:
    each row's first arc; the arcs' own ids: every arc)."""
    for r in range(first_arc.shape[0]):
        q = row_off[r]
        a = first_arc[r]
        for e in range(fo[a], fo[a + 1]):
            if cls[e] == c:
                row_feats[q] = feats[e]
                q += 1


@njit(cache=True)
def _mismatches(fo, feats, cls, own_off, own_feats, arc_rows, row_off, row_feats):
    """Arcs whose ids, grouped by class in the flat order, differ from the shared layout's."""
    bad = 0
    for a in range(fo.shape[0] - 1):
        ok = True
        for c in range(4):
            if c == OWN:
                q, end = own_off[a], own_off[a + 1]
                src = own_feats
            else:
                r = arc_rows[a, c - 1]
                q, end = row_off[r], row_off[r + 1]
                src = row_feats
            for e in range(fo[a], fo[a + 1]):
                if cls[e] == c:
                    if q >= end or src[q] != feats[e]:
                        ok = False
                    q += 1
            if q != end:
                ok = False
        if not ok:
            bad += 1
    return bad


@njit(cache=True)
def score_shared(own_off, own_feats, arc_rows, row_off, row_feats, w, out):
    """out[a] = the weights of arc a's ids summed: its own, then its rows'. A flat store is read by the
    same loop with no rows (`no_rows`), so the two layouts' times differ by the rows alone."""
    for a in range(own_off.shape[0] - 1):
        s = 0.0
        for e in range(own_off[a], own_off[a + 1]):
            s += w[own_feats[e]]
        for k in range(arc_rows.shape[1]):
            r = arc_rows[a, k]
            for e in range(row_off[r], row_off[r + 1]):
                s += w[row_feats[e]]
        out[a] = s


def no_rows(n_arcs):
    """(arc_rows, row_off, row_feats) of a layout whose arcs point at no rows: the flat store."""
    return np.empty((n_arcs, 0), np.int32), np.zeros(1, np.int64), np.empty(0, np.int32)


def shared_layout(store, tags):
    """(own_off, own_feats, arc_rows int32[n_arcs, 3], row_off, row_feats, class per entry) of a
    flat store and its per-entry template tags; rows deduplicated by content."""
    fo, feats = store.arc_feat_offsets, store.arc_feats
    tmpl_class = np.array([template_class(t) for t in store.templates], dtype=np.int8)
    cls = tmpl_class[tags]
    n = store.n_arcs
    keys, lens = np.empty(n, np.int64), np.empty(n, np.int64)
    own_off = np.zeros(n + 1, np.int64)
    _row_keys(fo, feats, cls, OWN, keys, lens)
    np.cumsum(lens, out=own_off[1:])
    own_feats = np.empty(int(own_off[-1]), np.int32)
    _copy_rows(fo, feats, cls, OWN, np.arange(n), own_off, own_feats)
    arc_rows = np.empty((n, 3), np.int32)
    row_lens, row_parts, base = [], [], 0
    for c in (ANTECEDENT, ANAPHOR, RELATION):
        _row_keys(fo, feats, cls, c, keys, lens)
        uniq, first, inverse = np.unique(np.stack([keys, lens], axis=1), axis=0, return_index=True, return_inverse=True)
        arc_rows[:, c - 1] = base + inverse.reshape(-1)
        row_lens.append(lens[first])
        row_parts.append((c, first))
        base += uniq.shape[0]
    row_off = np.zeros(base + 1, np.int64)
    np.cumsum(np.concatenate(row_lens), out=row_off[1:])
    row_feats = np.empty(int(row_off[-1]), np.int32)
    start = 0
    for c, first in row_parts:
        _copy_rows(fo, feats, cls, c, first, row_off[start : start + first.shape[0] + 1], row_feats)
        start += first.shape[0]
    return own_off, own_feats, arc_rows, row_off, row_feats, cls


def best_of(fn, repeats=3):
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def measure(store, tags):
    """Bytes per arc of both layouts, the shared rows per class, the check, the read times."""
    t = time.perf_counter()
    own_off, own_feats, arc_rows, row_off, row_feats, cls = shared_layout(store, tags)
    build = time.perf_counter() - t
    bad = _mismatches(store.arc_feat_offsets, store.arc_feats, cls, own_off, own_feats, arc_rows, row_off, row_feats)
    n = store.n_arcs
    shared_bytes = (
        store.arc_ante.nbytes + own_off.nbytes + own_feats.nbytes + arc_rows.nbytes + row_off.nbytes + row_feats.nbytes
    )
    per_class = {}
    for c in range(4):
        ids = int((cls == c).sum())
        entry = {"features_per_arc": ids / n}
        if c != OWN:
            rows = np.unique(arc_rows[:, c - 1])
            entry["rows"] = int(rows.shape[0])
            entry["ids_stored"] = int((row_off[rows + 1] - row_off[rows]).sum())
        per_class[CLASS_NAMES[c]] = entry
    rng = np.random.default_rng(0)
    w = rng.standard_normal(1 << store.n_bits)
    s_flat, s_shared = np.empty(n), np.empty(n)
    args_flat = (store.arc_feat_offsets, store.arc_feats, *no_rows(n), w, s_flat)
    args_shared = (own_off, own_feats, arc_rows, row_off, row_feats, w, s_shared)
    score_shared(*args_flat)
    score_shared(*args_shared)
    return {
        "arcs": n,
        "features_per_arc": store.n_entries / n,
        "flat": {"bytes_per_arc": store.nbytes / n, "read_seconds": best_of(lambda: score_shared(*args_flat))},
        "shared": {
            "bytes_per_arc": shared_bytes / n,
            "arc_part_bytes_per_arc": (store.arc_ante.nbytes + own_off.nbytes + own_feats.nbytes + arc_rows.nbytes) / n,
            "row_part_bytes_per_arc": (row_off.nbytes + row_feats.nbytes) / n,
            "read_seconds": best_of(lambda: score_shared(*args_shared)),
            "build_seconds": build,
        },
        "classes": per_class,
        "arcs_differing_after_expansion": int(bad),
        "largest_score_difference": float(np.abs(s_flat - s_shared).max()) if n else 0.0,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--compiled", required=True, help="a compiled split (results/<corpus>/compiled/<split>.npz)")
    ap.add_argument("--featureset", default="local_fine")
    ap.add_argument("--window", type=int, default=50)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    from coreflab.corpus.compiled import CompiledCorpus

    corpus = CompiledCorpus.load(args.compiled)
    fs = load_featureset(args.featureset)
    store, tags = extract_tagged_arc_store(corpus, fs, n_bits=22, window=args.window)
    result = {
        "corpus": corpus.name,
        "split": corpus.split,
        "featureset": fs.name,
        "window": args.window,
        "n_bits": store.n_bits,
        "target_bytes_per_arc": TARGET_BYTES_PER_ARC,
        "template_classes": {t: CLASS_NAMES[template_class(t)] for t in store.templates},
        **measure(store, tags),
        "load_average": list(os.getloadavg()),
    }
    name = f"arc_store_shared_rows_{corpus.name}_{corpus.split}_{fs.name}.json"
    out = Path(args.out or Path(__file__).parent / "results" / name)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps({k: v for k, v in result.items() if k != "template_classes"}, indent=2))


if __name__ == "__main__":
    main()
