"""`coreflab compare KEY SYSTEM_A SYSTEM_B`: paired document-level significance test.

Scores both systems against the same key (documents matched on (doc_id, part); files read
as `coreflab score` reads them: any number of columns, coreference last), then
resamples documents (paired bootstrap, Berg-Kirkpatrick et al. 2012; or approximate
randomization, Noreen 1989) and prints the difference A - B, its 95% bootstrap interval and
the p-value. Deterministic for a seed.
"""

import sys

from coreflab.arg_types import at_least
from coreflab.metrics.significance import TESTS

METRICS = ("mela", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "mentions")


def add_arguments(parser):
    parser.add_argument("key", help="gold CoNLL-2012 file or directory")
    parser.add_argument("system_a", help="first system's CoNLL-2012 file or directory")
    parser.add_argument("system_b", help="second system's CoNLL-2012 file or directory")
    parser.add_argument("--metric", default="mela", choices=METRICS, help="metric compared (F1; default: mela)")
    parser.add_argument("--test", default="bootstrap", choices=TESTS, help="resampling test (default: bootstrap)")
    parser.add_argument("--samples", type=at_least(1), default=10000, help="number of replicates (default: 10000)")
    parser.add_argument(
        "--seed", type=int, default=1, help="random seed (default: 1, the workflow's seed: the leaderboard's p-values)"
    )


def run(args):
    from coreflab.metrics.coref_file import pairing_warnings, read_coref_path
    from coreflab.metrics.scorer import read_key, reading_warnings, score_files
    from coreflab.metrics.significance import paired_test

    with reading_warnings() as caught:
        key = read_key(args.key)
        system_a, system_b = read_coref_path(args.system_a), read_coref_path(args.system_b)
        a = score_files(key, system_a)
        b = score_files(key, system_b)
    for w in caught:
        print(f"coreflab compare: warning: {w.message}", file=sys.stderr)
    for label, path, system in (("A", args.system_a, system_a), ("B", args.system_b, system_b)):
        for message in pairing_warnings(key, system):
            print(f"coreflab compare: warning: system {label} ({path}): {message}", file=sys.stderr)
    r = paired_test(a, b, metric=args.metric, test=args.test, samples=args.samples, seed=args.seed)
    name = "paired bootstrap" if r.test == "bootstrap" else "approximate randomization"
    print(f"metric: {r.metric} F1 over {len(key.docs)} documents")
    print(f"system A: {r.score_a:.2f}  ({args.system_a})")
    print(f"system B: {r.score_b:.2f}  ({args.system_b})")
    print(f"difference (A - B): {r.difference:+.2f}")
    print(f"95% interval (paired bootstrap): [{r.low:+.2f}, {r.high:+.2f}]")
    print(f"p-value ({name}, {r.samples} samples, seed {r.seed}): {r.p_value:.4g}")
    return 0
