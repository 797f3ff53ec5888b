"""Benchmark: the arc store the learners read (rows of features shared between arcs) against the flat one.

Why: with `local_fine` (the selection pool of config/gum.yaml and config/conll2012.yaml) the flat
store lists 77 ids on every GUM arc, 321 bytes per arc against the goal of 160.
`coreflab features` writes the shared-row layout of `coreflab/features/shared_rows.py` instead: each
arc keeps its own ids and refers to up to three rows stored once per document. This script builds
both layouts of one split, checks that every arc reads the same ids (expanding the shared store
back), and times what every learner does with a store: score every arc, one document at a time
(`decode.arcs.score_arcs`, which reads a document's rows once), and one arc at a time (`arc_dot`,
what the left-link kernels do). Writes bench/results/arc_store_shared_rows_<corpus>_<split>_<featureset>.json.

    python bench/arc_store_shared_rows.py --compiled results/gum/compiled/train.npz --featureset local_fine --window 50
"""

import argparse
import json
import os
import time
from pathlib import Path

import numpy as np
from numba import njit

from coreflab.decode.arcs import score_arcs
from coreflab.features.extract import extract_tagged_arc_store
from coreflab.features.featureset import load_featureset
from coreflab.features.shared_rows import CLASS_NAMES, arc_dot, expand, share_rows, template_class

TARGET_BYTES_PER_ARC = 160


@njit
def _per_document(w, doc_off, m_off, offs, feats, out):
    for d in range(doc_off.shape[0] - 1):
        lo, hi = m_off[doc_off[d]], m_off[doc_off[d + 1]]
        score_arcs(w, offs, feats, lo, hi, out[lo:hi])


@njit
def _per_arc(w, offs, feats, n_arcs, out):
    for a in range(n_arcs):
        out[a] = arc_dot(w, offs, feats, a)


@njit
def _mismatches(flat_off, flat_feats, off, feats):
    """Arcs whose ids (as multisets) differ between the flat store and an expanded one."""
    bad = 0
    for a in range(flat_off.shape[0] - 1):
        x = np.sort(flat_feats[flat_off[a] : flat_off[a + 1]])
        y = np.sort(feats[off[a] : off[a + 1]])
        if x.shape[0] != y.shape[0] or np.any(x != y):
            bad += 1
    return bad


def best_of(fn, repeats=3):
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def _reads(store, w):
    """(scores per document, seconds per document pass, seconds per arc-at-a-time pass)."""
    n = store.n_arcs
    doc = np.empty(n)
    one = np.empty(n)
    args = (w, store.doc_mention_offsets, store.m_arc_offsets, store.arc_feat_offsets, store.arc_feats, doc)
    _per_document(*args)
    _per_arc(w, store.arc_feat_offsets, store.arc_feats, n, one)
    return (
        doc,
        best_of(lambda: _per_document(*args)),
        best_of(lambda: _per_arc(w, store.arc_feat_offsets, store.arc_feats, n, one)),
    )


def measure(flat, tags):
    """Bytes per arc of both layouts, the shared rows per class, the check, the read times."""
    t = time.perf_counter()
    shared = share_rows(flat, tags)
    build = time.perf_counter() - t
    back = expand(shared)
    bad = _mismatches(flat.arc_feat_offsets, flat.arc_feats, back.arc_feat_offsets, back.arc_feats)
    n = flat.n_arcs
    cls = np.array([template_class(t) for t in flat.templates] + [0], dtype=np.int8)[tags]
    arc_end = int(shared.arc_feat_offsets[n])
    refs = shared.arc_feats[:arc_end]
    own = int((refs >= 0).sum())
    row_bytes = 8 * shared.n_rows + 4 * (shared.n_entries - arc_end)  # their offsets and ids
    per_class = {}
    for c in range(4):
        per_class[CLASS_NAMES[c]] = {"features_per_arc": float((cls == c).sum()) / n}
    rng = np.random.default_rng(0)
    w = rng.standard_normal(1 << flat.n_bits)
    s_flat, doc_flat, arc_flat = _reads(flat, w)
    s_shared, doc_shared, arc_shared = _reads(shared, w)
    return {
        "arcs": n,
        "features_per_arc": flat.n_entries / n,
        "flat": {"bytes_per_arc": flat.nbytes / n, "read_seconds": doc_flat, "read_seconds_per_arc_calls": arc_flat},
        "shared": {
            "bytes_per_arc": shared.nbytes / n,
            "arc_part_bytes_per_arc": (shared.nbytes - row_bytes) / n,
            "row_part_bytes_per_arc": row_bytes / n,
            "rows": shared.n_rows,
            "own_ids_per_arc": own / n,
            "references_per_arc": (arc_end - own) / n,
            "read_seconds": doc_shared,
            "read_seconds_per_arc_calls": arc_shared,
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
