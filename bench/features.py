"""Benchmark: local feature extraction on a CoNLL-2012-sized random compiled corpus.

2,802 documents, lognormal mention counts (mean 55, long tail to several hundred), the
`local` feature set, 2**22 weights. Reports µs per candidate arc (target ≤ 0.5; cort
needs 147), arcs, entries and bytes per arc, also with a window of 100 mentions.
Writes bench/results/features.json. Run: python bench/features.py [--docs N]

On a real compiled split (`--compiled results/gum/compiled/train.npz --window 50`): the
arc store's bytes per arc as the learners read it, with rows shared between arcs (goal ≤ 160;
`flat_bytes_per_arc`: every arc listing its ids, as extracted) and, per template,
the share of non-root arcs it puts a feature on (what each template costs in memory), and
what the store would hold if the kernels conjoined the fine types on the fly (cort's way:
every `X+ana_fine_type+ante_fine_type` template computed at scoring time from X's id and
the pair's fine types instead of stored); written to bench/results/features_<corpus>_<split>.json.
"""

import argparse
import json
import os
import platform
import resource
import time
from pathlib import Path

import numpy as np
from numba import njit

from coreflab.features import extract_arc_store, load_featureset
from coreflab.features.extract import extract_tagged_arc_store
from coreflab.features.random_corpus import random_compiled_corpus
from coreflab.features.shared_rows import share_rows

TARGET_BYTES_PER_ARC = 160


@njit(cache=True)
def _template_counts(doc_off, m_arc_off, arc_ante, jmask, imask, nonroot, n_t, out):
    """out[t] = non-root arcs on which template t has a value (from the definedness masks)."""
    for d in range(doc_off.shape[0] - 1):
        lo = doc_off[d]
        for j in range(lo, doc_off[d + 1]):
            for a in range(m_arc_off[j] + 1, m_arc_off[j + 1]):
                i = lo + arc_ante[a]
                for t in range(n_t):
                    w = t // 64
                    bit = np.uint64(1) << np.uint64(t % 64)
                    if jmask[j, w] & imask[i, w] & nonroot[w] & bit:
                        out[t] += 1


def template_shares(corpus, store):
    """{template: share of non-root arcs with a feature of it} for the store's templates."""
    from coreflab.features.kernels import definedness_masks
    from coreflab.features.mention_table import mention_table
    from coreflab.features.templates import resolve

    res = resolve(store.templates, corpus.missing)
    T = mention_table(corpus)
    jmask, imask, nonroot = definedness_masks(T, res.n_ana, res.ana_col, res.n_oth, res.oth_slot, T.shape[1])
    counts = np.zeros(len(res.names), dtype=np.int64)
    _template_counts(
        np.asarray(store.doc_mention_offsets, dtype=np.int64),
        store.m_arc_offsets,
        store.arc_ante,
        jmask,
        imask,
        nonroot,
        len(res.names),
        counts,
    )
    n_nonroot = store.n_arcs - store.n_mentions
    return {name: round(float(c) / max(n_nonroot, 1), 4) for name, c in zip(res.names, counts)}


FINE_PAIR = "+ana_fine_type+ante_fine_type"


def fine_pair_on_the_fly(store, tags):
    """Features and bytes per arc left in the store if every `X+ana_fine_type+ante_fine_type`
    template were computed by the kernels from X's id and the arc's fine-type pair (one more
    byte per arc holds the pair)."""
    per_template = np.bincount(tags, minlength=len(store.templates)) / max(store.n_arcs, 1)
    derived = [k for k, name in enumerate(store.templates) if name.endswith(FINE_PAIR)]
    stored = float(per_template.sum() - per_template[derived].sum())
    fixed = (store.nbytes - 4 * store.n_entries) / max(store.n_arcs, 1)
    return {
        "templates_derived": len(derived),
        "features_per_arc_derived": float(per_template[derived].sum()),
        "features_per_arc_stored": stored,
        "bytes_per_arc": fixed + 1 + 4 * stored,
        "bytes_per_arc_22_bit_ids": fixed + 1 + store.n_bits / 8 * stored,
    }


def real_split(args):
    """Bytes per arc and per-template shares on a compiled split (one extraction)."""
    from coreflab.corpus.compiled import CompiledCorpus

    corpus = CompiledCorpus.load(args.compiled)
    fs = load_featureset(args.featureset)
    result = {
        "corpus": corpus.name,
        "split": corpus.split,
        "featureset": fs.name,
        "n_bits": 22,
        "target_bytes_per_arc": TARGET_BYTES_PER_ARC,
    }
    for reach in (False, True):
        r = measure(corpus, fs, window=args.window, repeats=1, reach=reach)
        store, tags = extract_tagged_arc_store(corpus, fs, n_bits=22, window=args.window, reach=reach)
        # the store as `coreflab features` writes it and the learners read it; the extraction's flat one
        r["flat_bytes_per_arc"] = r.pop("bytes_per_arc")
        r["bytes_per_arc"] = share_rows(store, tags).nbytes / store.n_arcs
        result["window_reach" if reach else "window_only"] = r
    result["unavailable"] = store.unavailable
    result["template_share_of_nonroot_arcs"] = template_shares(corpus, store)
    result["fine_pair_on_the_fly"] = fine_pair_on_the_fly(store, tags)
    out = Path(args.out or Path(__file__).parent / "results" / f"features_{corpus.name}_{corpus.split}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


def measure(corpus, fs, window=None, repeats=3, reach=True):
    extract_arc_store(random_compiled_corpus(3, seed=1), fs, window=window)  # compile / load cache
    best = user = sys_ = float("inf")
    store = None
    for _ in range(repeats):
        store = None  # free the previous store first: peak RSS = one extraction
        r0, t = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
        store = extract_arc_store(corpus, fs, n_bits=22, window=window, reach=reach)
        r1, wall = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter() - t
        if wall < best:
            best, user, sys_ = wall, r1.ru_utime - r0.ru_utime, r1.ru_stime - r0.ru_stime
    return {
        "window": window,
        "reach": bool(reach) and window is not None,
        "arcs": store.n_arcs,
        "entries": store.n_entries,
        "features_per_arc": store.n_entries / store.n_arcs,
        "bytes": store.nbytes,
        "bytes_per_arc": store.nbytes / store.n_arcs,
        "seconds": best,
        "us_per_arc": best / store.n_arcs * 1e6,
        "user_seconds": user,
        "sys_seconds": sys_,
        "user_us_per_arc": user / store.n_arcs * 1e6,
        "cpu_us_per_arc": (user + sys_) / store.n_arcs * 1e6,
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--docs", type=int, default=2802)
    ap.add_argument("--featureset", default="local")
    ap.add_argument("--out", default=None, help="default bench/results/features.json (random corpus)")
    ap.add_argument("--compiled", default=None, help="a compiled split to measure instead of the random corpus")
    ap.add_argument("--window", type=int, default=None, help="with --compiled: the candidate window")
    args = ap.parse_args()
    if args.compiled:
        real_split(args)
        return
    args.out = args.out or str(Path(__file__).parent / "results" / "features.json")
    t = time.perf_counter()
    corpus = random_compiled_corpus(args.docs, mean_mentions=55, seed=0, name="conll2012-size")
    build = time.perf_counter() - t
    fs = load_featureset(args.featureset)
    sizes = corpus.doc_mention_offsets[1:] - corpus.doc_mention_offsets[:-1]
    result = {
        "corpus": {
            "documents": corpus.n_docs,
            "mentions": corpus.n_mentions,
            "mean_mentions": float(sizes.mean()),
            "max_mentions": int(sizes.max()),
            "build_seconds": build,
        },
        "featureset": fs.name,
        "templates": len(fs.local),
        "n_bits": 22,
        "full": measure(corpus, fs),
        "window_100": measure(corpus, fs, window=100),
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "machine": platform.processor() or platform.machine(),
        "load_average": list(os.getloadavg()),
        "note": (
            "best of 3 by wall time, one thread; user = the numba kernels, sys = OS time, mostly "
            "allocating fresh pages for the output arrays; wall is inflated when other jobs share the cores"
        ),
        "target_us_per_arc": 0.5,
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
