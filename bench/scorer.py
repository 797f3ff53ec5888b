"""Benchmark of the scorer: 300 synthetic documents, ~45,000 key mentions, all metrics.

The key and a perturbed response (missing and spurious mentions, cluster splits and
merges) are generated here from a seed and written as CoNLL-2012 files (13 columns). In
one run on one machine it times:

- the command a user runs, `coreflab score KEY RESPONSE --metric all --format json`, as a
  process (wall and CPU time, best of --process-repeat), and what bounds it: the
  interpreter's start-up (with site), importing numpy, then reading and scoring in process;
- beside it, the official perl scorer `scorer.pl all KEY RESPONSE none` (v8.01) on the same
  files when one is given (--perl-scorer DIR holding scorer.pl and lib/, or the
  COREFLAB_REFERENCE_SCORER environment variable; it is not part of this repository and
  needs the perl modules Algorithm::Munkres and Math::Combinatorics, e.g. Debian's
  libalgorithm-munkres-perl and libmath-combinatorics-perl), with
  the agreement of every recall/precision numerator and denominator, and the agreement on
  the reference scorer's own test cases (tests/metrics/official_cases);
- the in-memory calls (`score_clusterings`, each metric alone, `score_labels`).

Writes bench/results/scorer.json (with the load average: the machine is shared).

    python bench/scorer.py [--seed 0] [--repeat 5] [--process-repeat 3] [--perl-scorer DIR]
"""

import argparse
import hashlib
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

from coreflab.corpus.document import Document
from coreflab.corpus.readers.conll import atomic_write_text, format_conll, read_conll
from coreflab.metrics.coref_file import read_coref_path
from coreflab.metrics.scorer import score_clusterings, score_documents, score_files, score_labels

PERL_METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc")
CASES_DIR = Path(__file__).resolve().parent.parent / "tests" / "metrics" / "official_cases"


def synthetic_pair(seed=0, n_docs=300, mentions_per_doc=153, tokens_per_doc=700):
    """Key and perturbed response clusterings (lists per document of clusters of spans)."""
    rng = np.random.default_rng(seed)
    keys, responses = [], []
    for _ in range(n_docs):
        starts = rng.integers(0, tokens_per_doc - 6, size=mentions_per_doc * 2)
        ends = starts + rng.choice([0, 0, 0, 1, 1, 2, 3, 5], size=len(starts))
        spans = list(dict.fromkeys(zip(starts.tolist(), ends.tolist())))[:mentions_per_doc]
        # cluster sizes: many small clusters, a few long chains
        labels = []
        c = 0
        while len(labels) < len(spans):
            size = int(min(rng.geometric(0.3), 40))
            labels += [c] * size
            c += 1
        labels = rng.permutation(np.asarray(labels[: len(spans)]))
        clusters = [[] for _ in range(c)]
        for span, lab in zip(spans, labels):
            clusters[lab].append(span)
        key = [cl for cl in clusters if cl]
        keys.append(writable(key))
        responses.append(writable(perturb(rng, keys[-1], tokens_per_doc)))
    return keys, responses


def perturb(rng, key, tokens):
    resp = [[s for s in cl if rng.random() > 0.1] for cl in key]  # 10% missing
    out = []
    for cl in resp:  # split 15% of the clusters
        if len(cl) > 2 and rng.random() < 0.15:
            cut = int(rng.integers(1, len(cl)))
            out += [cl[:cut], cl[cut:]]
        elif cl:
            out.append(cl)
    rng.shuffle(out)
    merged = []
    i = 0
    while i < len(out):  # merge 10% of adjacent pairs
        if i + 1 < len(out) and rng.random() < 0.1:
            merged.append(out[i] + out[i + 1])
            i += 2
        else:
            merged.append(out[i])
            i += 1
    taken = {s for cl in key for s in cl}
    n_spurious = int(0.1 * len(taken))
    for _ in range(n_spurious):  # spurious mentions, half as singletons
        s = int(rng.integers(0, tokens - 6))
        span = (s, s + int(rng.integers(0, 3)))
        if span in taken:
            continue
        taken.add(span)
        if rng.random() < 0.5 or not merged:
            merged.append([span])
        else:
            merged[int(rng.integers(0, len(merged)))].append(span)
    return merged


def label_arrays(keys, responses):
    """The same pair as per-mention cluster ids over the union of mentions (score_labels)."""
    k_lab, r_lab, docs = [], [], []
    for d, (k, r) in enumerate(zip(keys, responses)):
        where = {}
        for c, cl in enumerate(k):
            for s in cl:
                where[s] = [c, -1]
        for c, cl in enumerate(r):
            for s in cl:
                where.setdefault(s, [-1, -1])[1] = c
        for kc, rc in where.values():
            k_lab.append(kc)
            r_lab.append(rc)
            docs.append(d)
    return np.array(k_lab), np.array(r_lab), np.array(docs)


def writable(clusters):
    """Drop the spans CoNLL-2012 cannot encode next to another span of their cluster.

    Brackets of one id are matched last-opened-first-closed, so two spans of a cluster that
    cross ((87, 90) and (89, 92)) are read back as (89, 90) and (87, 92), and a span starting
    on the token where another of its cluster ends is read from the cell "a)|(a" as a
    one-token mention (v8.01 and our readers alike). The benchmark drops such spans so the
    files round trip exactly and hold no repeated span: the perl scorer refuses a response
    with more than 10 repeated mentions, counted over all the metrics of `scorer.pl all`.
    """
    out = []
    for cl in clusters:
        kept = []
        for s, e in cl:
            clash = any(
                (a < s <= b < e)
                or (s < a <= e < b)
                or (s == b and (a, b) != (s, s) and (s, e) != (s, s))
                or (e == a and s != e and a != b)
                for a, b in kept
            )
            if not clash:
                kept.append((s, e))
        if kept:
            out.append(kept)
    return out


def best_time(fn, repeat):
    """Best and median wall time, and best CPU time (less sensitive to a busy machine)."""
    times, cpu = [], []
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return min(times), float(np.median(times)), min(cpu)


def timed_process(cmd, repeat, env=None):
    """Best wall and best CPU (user + system of the child) seconds of running cmd; its last stdout."""
    walls, cpus, out = [], [], ""
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
        walls.append(time.perf_counter() - t0)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if proc.returncode != 0:
            raise RuntimeError(f"{cmd[0]} failed ({proc.returncode}): {proc.stderr[-500:]}")
        out = proc.stdout
    return {"wall_best": min(walls), "wall_median": float(np.median(walls)), "cpu_best": min(cpus)}, out


def coreflab_command():
    """The `coreflab` console script of this interpreter (not a version manager's shell shim)."""
    script = Path(sys.executable).parent / "coreflab"
    if script.exists():
        return [str(script)], "console script beside the interpreter"
    return [sys.executable, "-m", "coreflab.cli"], "python -m coreflab.cli"


def parse_perl(text, metric=None):
    """{metric: (recall num, recall den, precision num, precision den)} from scorer.pl's TOTALS.

    `scorer.pl all` prints one `METRIC name:` block per metric; a one-metric run (`metric`
    given) prints its block alone. BLANC's totals are its `BLANC:` line (R / 1, P / 1).
    """
    out = {}
    parts = re.split(r"\nMETRIC (\w+):\n", "\n" + text)
    blocks = zip(parts[1::2], parts[2::2]) if metric is None else [(metric, text)]
    figures = r" Recall: \(([^ ]+) / ([^ )]+)\)[^\t]*\tPrecision: \(([^ ]+) / ([^ )]+)\)"
    for name, body in blocks:
        label = "BLANC:" if name == "blanc" else "Coreference:"
        out[name] = tuple(float(x) for x in re.search(re.escape(label) + figures, body).groups())
        out["mentions"] = tuple(float(x) for x in re.search("Identification of Mentions:" + figures, body).groups())
    return out


def ours_as_perl(scores_json):
    """coreflab's JSON in the perl figures' terms (BLANC as R / 1, P / 1)."""
    out = {}
    for m in PERL_METRICS + ("mentions",):
        d = scores_json[m]
        if m == "blanc":
            out[m] = (d["recall"] / 100, 1.0, d["precision"] / 100, 1.0)
        else:
            out[m] = (d["recall_num"], d["recall_den"], d["precision_num"], d["precision_den"])
    return out


def max_difference(perl, ours):
    """Largest difference of recall and of precision (fractions) between the two scorers."""
    worst = 0.0
    for m, (a, b, c, d) in perl.items():
        w, x, y, z = ours[m]
        for p, q in ((a / b if b else 0.0, w / x if x else 0.0), (c / d if d else 0.0, y / z if z else 0.0)):
            worst = max(worst, abs(p - q))
    return worst


def official_cases_against_perl(scorer_pl):
    """Run perl (one metric a run) and coreflab on every reference test case: the largest gap.

    One metric a run because v8.01 counts repeated response mentions over all the metrics
    of a run and refuses to go on past 10 (case A9 repeats one 10 times).
    """
    cases = json.loads((CASES_DIR / "expected.json").read_text())
    worst, ran = 0.0, 0
    for case in cases.values():
        key, resp = CASES_DIR / case["key"], CASES_DIR / case["response"]
        perl = {}
        for m in PERL_METRICS:
            run = subprocess.run(
                ["perl", str(scorer_pl), m, str(key), str(resp), "none"], capture_output=True, text=True
            )
            perl.update(parse_perl(run.stdout, m))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ours = score_files(read_coref_path(key), read_coref_path(resp)).to_dict()
        worst = max(worst, max_difference(perl, ours_as_perl(ours)))
        ran += 1
    return {"cases": ran, "metrics": list(PERL_METRICS) + ["mentions"], "max_recall_precision_difference": worst}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--process-repeat", type=int, default=3)
    parser.add_argument(
        "--perl-scorer",
        default=os.environ.get("COREFLAB_REFERENCE_SCORER"),
        help="folder with scorer.pl (v8.01) and lib/",
    )
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent / "results" / "scorer.json"))
    args = parser.parse_args(argv)
    keys, responses = synthetic_pair(args.seed)
    n_key = sum(len(s) for d in keys for s in d)
    n_resp = sum(len(s) for d in responses for s in d)
    score_clusterings(keys, responses)  # warm-up (imports, caches)
    labels = label_arrays(keys, responses)
    result = {
        "documents": len(keys),
        "key_mentions": n_key,
        "response_mentions": n_resp,
        "seed": args.seed,
        "repeat": args.repeat,
        "load_average_start": os.getloadavg(),
        "cpus": os.cpu_count(),
    }
    best, median, cpu = best_time(lambda: score_clusterings(keys, responses, "all"), args.repeat)
    result["all_metrics_seconds"] = {"best": best, "median": median, "best_cpu": cpu}
    result["per_metric_seconds"] = {}
    for m in ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea"):
        result["per_metric_seconds"][m] = best_time(lambda: score_clusterings(keys, responses, m), args.repeat)[0]
    result["score_labels_seconds"] = best_time(lambda: score_labels(*labels), args.repeat)[0]
    words = ["w"] * 700
    kd = [
        Document(f"doc{i}", 0, words, [700], clusters=c, cluster_labels=[str(j) for j in range(len(c))])
        for i, c in enumerate(keys)
    ]
    rd = [d.with_clusters(c) for d, c in zip(kd, responses)]
    with tempfile.TemporaryDirectory() as tmp, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kp, rp = os.path.join(tmp, "key.conll"), os.path.join(tmp, "resp.conll")
        atomic_write_text(kp, format_conll(kd))
        atomic_write_text(rp, format_conll(rd))
        result["file_megabytes"] = (os.path.getsize(kp) + os.path.getsize(rp)) / 1e6
        # the full validating corpus reader, for reference (what `coreflab score` used before)
        t0 = time.perf_counter()
        kdocs, rdocs = read_conll(kp), read_conll(rp)
        result["read_conll_seconds"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        scores = score_documents(kdocs, rdocs)
        result["score_documents_seconds"] = time.perf_counter() - t0
        # in process, the command's own path: read the coreference column, score the arrays
        read = best_time(lambda: (read_coref_path(kp), read_coref_path(rp)), args.repeat)
        kf, rf = read_coref_path(kp), read_coref_path(rp)
        scored = best_time(lambda: score_files(kf, rf, "all"), args.repeat)
        result["in_process"] = {
            "read_both_files_seconds": read[0],
            "read_cpu": read[2],
            "score_files_seconds": scored[0],
            "score_cpu": scored[2],
        }
        result["in_process"]["read_plus_score_seconds"] = read[0] + scored[0]
        # the command as a process, and what bounds it
        cmd, how = coreflab_command()
        command, out = timed_process(
            cmd + ["score", kp, rp, "--metric", "all", "--format", "json"], args.process_repeat
        )
        ours = json.loads(out)
        startup, _ = timed_process([sys.executable, "-c", "pass"], args.process_repeat)
        numpy_import, _ = timed_process([sys.executable, "-c", "import numpy"], args.process_repeat)
        imports, _ = timed_process(
            [sys.executable, "-c", "import coreflab.commands.score, coreflab.metrics.coref_file"], args.process_repeat
        )
        result["command"] = {
            "how": how,
            "argv": "coreflab score KEY RESPONSE --metric all --format json",
            "process": command,
            "bounds": {
                "interpreter_start_with_site": startup,
                "interpreter_plus_numpy_import": numpy_import,
                "interpreter_plus_all_imports_of_score": imports,
                "read_in_process": read[0],
                "score_in_process": scored[0],
            },
        }
        if args.perl_scorer:
            scorer_pl = Path(args.perl_scorer) / "scorer.pl"
            perl, perl_out = timed_process(["perl", str(scorer_pl), "all", kp, rp, "none"], 1)
            result["perl"] = {
                "argv": "perl scorer.pl all KEY RESPONSE none",
                "version": re.search(r"version: (\S+)", perl_out).group(1),
                "sha256": {
                    name: hashlib.sha256((Path(args.perl_scorer) / name).read_bytes()).hexdigest()
                    for name in ("scorer.pl", "lib/CorScorer.pm")
                },
                "process": perl,
                "max_recall_precision_difference": max_difference(parse_perl(perl_out), ours_as_perl(ours)),
                "official_cases": official_cases_against_perl(scorer_pl),
            }
            result["ratio_perl_over_command"] = {
                "wall": perl["wall_best"] / command["wall_best"],
                "cpu": perl["cpu_best"] / command["cpu_best"],
            }
    result["load_average_end"] = os.getloadavg()
    result["load_average"] = result["load_average_end"][0]
    result["scores"] = {m: scores.metric_dict(m)["f1"] for m in ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea")}
    result["scores"]["mela"] = scores.mela
    result["command_scores_match_in_memory"] = all(
        abs(ours[m]["f1"] - result["scores"][m]) < 1e-9 for m in result["scores"] if m != "mela"
    )
    atomic_write_text(args.out, json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
