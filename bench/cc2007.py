"""Benchmark: one full structured-local-training run (5 EM iterations) on the default synthetic
corpus, and the memory of LitBank's mention pairs (Choi & Cardie 2007; issue "speed").

Usage: python bench/cc2007.py [--litbank DIR]   → bench/results/cc2007.json
"""

import argparse
import json
import resource
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def peak_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--litbank", default=str(ROOT / ".." / "shared" / "data" / "litbank"))
    args = ap.parse_args()
    from coreflab.corpus.compile import compile_documents
    from coreflab.corpus.synthetic.generator import generate_corpus
    from coreflab.features.extract import extract_arc_store
    from coreflab.learn.pairwise.pair_data import FeatureIndex, arc_feature_rows, build_pairs
    from coreflab.learn.registry import make_learner

    out = {}
    docs = generate_corpus("default", seed=1)["train"]
    corpus = compile_documents(docs, "synth", "train")
    store = extract_arc_store(corpus, "local", n_bits=22)
    make_learner("cc_slt_closest", {"em_iterations": 1}).fit((corpus, store))  # warm numba caches
    t0, c0 = time.perf_counter(), time.process_time()
    model = make_learner("cc_slt_closest", {"em_iterations": 5}).fit((corpus, store))
    out["synth_default_slt_5_iterations"] = {
        "wall_s": round(time.perf_counter() - t0, 2),
        "cpu_s": round(time.process_time() - c0, 2),
        "pairs": int(len(build_pairs(corpus, store))),
        "relabelled_per_iteration": model.relabelled_,
        "target": "< 180 s on one core",
    }
    lit = Path(args.litbank)
    if lit.is_dir():
        from coreflab.corpus.sources import load_split

        before = peak_mb()
        lit_docs = load_split("litbank", "train", {"local_dir": str(lit), "fold": 0})
        lit_corpus = compile_documents(lit_docs, "litbank", "train")
        for window in (None, 100):
            s = extract_arc_store(lit_corpus, "local", n_bits=22, window=window)
            pairs = build_pairs(lit_corpus, s)
            indptr, indices = arc_feature_rows(s, pairs.arcs)
            X = FeatureIndex(indices).matrix(indptr, indices)
            out[f"litbank_train_pairs_window_{window}"] = {
                "pairs": int(len(pairs)),
                "store_mb": round(s.nbytes / 2**20, 1),
                "design_matrix_mb": round((X.data.nbytes + X.indices.nbytes + X.indptr.nbytes) / 2**20, 1),
                "process_peak_mb": round(peak_mb(), 1),
                "peak_before_litbank_mb": round(before, 1),
            }
    path = ROOT / "bench" / "results" / "cc2007.json"
    path.write_text(json.dumps(out, indent=2) + "\n")
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
