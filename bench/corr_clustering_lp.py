"""Benchmark: Corr-Clustering's exact decoder on real text, without and with
the cutting-plane LP, on the GUM and LitBank test documents and the loss-augmented
inferences of training.

    python bench/corr_clustering_lp.py [--gum DIR] [--litbank DIR] [--work DIR] [--quick]
        → bench/results/corr_clustering_lp.json

Per corpus, the train and test splits as the workflow builds them for its runs (gold
mentions, feature set `local`, window 50: the nearest 50 earlier mentions plus string
matches beyond; `coreflab import/prepare/features` into --work, reused when there). One
Corr-Clustering epoch with the workflow's parameters (config/<corpus>.yaml: max_items 15,
node_limit 50) is trained with the new decoder, recording every inference it makes (the
loss-augmented problems of training) and then the test documents' problems under the
trained weights. Each recorded problem is decoded again by
- `before`: the decoder of commit BEFORE (`git show`), on the dense matrix as it was called;
- `after`: `coreflab.decode.correlation.solve_edges` with the learner's budgets, and variants.
Pairs without a candidate arc weigh 0 in both (absent). Reported per problem set: documents,
the exact share (documents whose every positive component was proved optimal), ms per
document (mean, median, 90th percentile, max; process CPU time, the machines are shared) and
components by how they were solved. The load average is recorded with the numbers.
"""

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
BEFORE = "12928c31564a516740b5b8f5da24da2604b29b7e"  # the decoder without the cutting-plane LP
PARAMS = {"epochs": 1, "max_items": 15, "node_limit": 50}  # config/gum.yaml, config/litbank.yaml


def build(corpus, source, work):
    """compiled split + arc store of train and test (window 50, feature set local) under work/corpus."""
    out = Path(work) / corpus
    out.mkdir(parents=True, exist_ok=True)
    options = {"local_dir": str(source)}
    options.update({"include_reddit": False} if corpus == "gum" else {"fold": 0})
    for split in ("train", "test"):
        conll, npz, arcs = out / f"{split}.conll", out / f"{split}.npz", out / f"{split}_arcs.npz"
        steps = [
            (conll, ["import", "--corpus", corpus, "--split", split, "--options-json", json.dumps(options)]),
            (npz, ["prepare", "--conll", str(conll), "--corpus", corpus, "--split", split]),
            (arcs, ["features", "--compiled", str(npz), "--featureset", "local", "--window", "50"]),
        ]
        for target, args in steps:
            if not target.exists():
                subprocess.run(["coreflab", *args, "--out", str(target)], check=True, stdout=subprocess.DEVNULL)
    return out


def record_problems(folder, quick):
    """(training problems, test problems, fit seconds, predict seconds, learner) of one epoch."""
    from coreflab.learn.base import as_training_data
    from coreflab.learn.clustering.corr_clustering import CorrClustering
    from coreflab.learn.io import load_split

    train = as_training_data(load_split(folder / "train.npz", folder / "train_arcs.npz"))
    test = as_training_data(load_split(folder / "test.npz", folder / "test_arcs.npz"))
    problems = {"train": [], "test": []}
    phase = ["train"]

    class Recording(CorrClustering):
        def _solve(self, n, la, lb, weights, training=False):
            problems[phase[0]].append((int(n), np.array(la), np.array(lb), np.array(weights, dtype=np.float64)))
            return super()._solve(n, la, lb, weights, training)

    model = Recording(**PARAMS)
    c0 = time.process_time()
    model.fit(train)
    fit_s = time.process_time() - c0
    phase[0] = "test"
    model.exact_ = model.fallback_ = 0
    c0 = time.process_time()
    model.predict_labels(test)
    predict_s = time.process_time() - c0
    if quick:
        problems = {k: v[:: max(1, len(v) // 10)] for k, v in problems.items()}
    return problems, fit_s, predict_s, model


def load_before(rev):
    text = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{rev}:src/coreflab/decode/correlation.py"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    path = Path(tempfile.mkdtemp()) / "correlation_before.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location("correlation_before", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def decode_all(problems, decode):
    """Exact share, ms per document (CPU) and component counts of `decode` over the problems."""
    ms, exact, counts = [], 0, {}
    for n, la, lb, w in problems:
        c0 = time.process_time()
        ok, how = decode(n, la, lb, w)
        ms.append(1000.0 * (time.process_time() - c0))
        exact += bool(ok)
        for k, v in how.items():
            counts[k] = counts.get(k, 0) + v
    ms = np.array(ms)
    out = {
        "documents": len(problems),
        "exact": exact,
        "exact_share": round(exact / max(len(problems), 1), 3),
        "ms_per_doc_mean": round(float(ms.mean()), 1),
        "ms_per_doc_median": round(float(np.median(ms)), 1),
        "ms_per_doc_p90": round(float(np.percentile(ms, 90)), 1),
        "ms_per_doc_max": round(float(ms.max()), 1),
        "total_s": round(float(ms.sum()) / 1000.0, 2),
    }
    if counts:
        out["components"] = counts
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gum", default=str(ROOT / ".." / "shared" / "data" / "gum"))
    ap.add_argument("--litbank", default=str(ROOT / ".." / "shared" / "data" / "litbank"))
    ap.add_argument("--work", default=str(Path(tempfile.gettempdir()) / "coreflab_bench_corr_clustering"))
    ap.add_argument("--corpora", nargs="+", default=["gum", "litbank"])
    ap.add_argument("--before", default=BEFORE, help="git revision of the decoder before")
    ap.add_argument("--quick", action="store_true", help="every 10th problem only")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "corr_clustering_lp.json"))
    args = ap.parse_args()

    from coreflab.decode.correlation import LP_ITERATIONS, solve_edges
    from coreflab.learn.clustering.corr_clustering import TRAIN_LP_ITERATIONS

    before = load_before(args.before)

    def old(n, la, lb, w):
        W = np.zeros((n, n))
        W[la, lb] = w
        W[lb, la] = w
        return before.correlation_partition(W, PARAMS["max_items"], None, PARAMS["node_limit"])[1], {}

    def new(lp_iterations, max_items=PARAMS["max_items"]):
        def run(n, la, lb, w):
            _, ok, counts = solve_edges(n, la, lb, w, max_items, None, PARAMS["node_limit"], lp_iterations)
            return ok, counts

        return run

    solve_edges(4, np.array([0, 1, 0]), np.array([1, 2, 2]), np.array([1.0, 1.0, -1.0]))  # numba compile
    result = {
        "before": args.before,
        "params": PARAMS,
        "lp_iterations": LP_ITERATIONS,
        "train_lp_iterations": TRAIN_LP_ITERATIONS,
        "quick": args.quick,
        "load_average_1min_start": round(os.getloadavg()[0], 2),
        "corpora": {},
    }
    sources = {"gum": args.gum, "litbank": args.litbank}
    for corpus in args.corpora:
        folder = build(corpus, sources[corpus], args.work)
        problems, fit_s, predict_s, model = record_problems(folder, args.quick)
        sizes = [p[0] for p in problems["test"]]
        entry = {
            "test_mentions_per_doc": [int(min(sizes)), int(np.median(sizes)), int(max(sizes))],
            "fit_one_epoch_cpu_s": round(fit_s, 2),
            "predict_test_cpu_s": round(predict_s, 2),
            "learner_test_exact": [int(model.exact_), int(model.exact_ + model.fallback_)],
        }
        entry["test"] = {
            "before": decode_all(problems["test"], old),
            "after": decode_all(problems["test"], new(LP_ITERATIONS)),
            "after_max_items_unbounded": decode_all(problems["test"], new(LP_ITERATIONS, None)),
            "after_lp_iterations_5000": decode_all(problems["test"], new(5000)),
        }
        entry["train_loss_augmented"] = {
            "before": decode_all(problems["train"], old),
            "after": decode_all(problems["train"], new(TRAIN_LP_ITERATIONS)),
            "after_lp_iterations_300": decode_all(problems["train"], new(300)),
            "after_lp_iterations_1000": decode_all(problems["train"], new(1000)),
            "after_lp_iterations_3000": decode_all(problems["train"], new(3000)),
        }
        result["corpora"][corpus] = entry
        print(corpus, json.dumps(entry, indent=1), flush=True)
    result["load_average_1min_end"] = round(os.getloadavg()[0], 2)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    print("→", args.out)


if __name__ == "__main__":
    sys.exit(main())
