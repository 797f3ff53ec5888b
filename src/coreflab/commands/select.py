"""`coreflab select`: greedy forward/backward template selection on the training split."""

from pathlib import Path

import pandas as pd
import yaml

from coreflab.arg_types import at_least, probability
from coreflab.corpus.readers.conll import read_conll_path
from coreflab.corpus.singletons import CHOICES
from coreflab.features.featureset import load_featureset
from coreflab.features.nonlocal_templates import NONLOCAL_TEMPLATES, resolve_nonlocal
from coreflab.features.templates import resolve
from coreflab.learn.selection import Evaluator, greedy_selection
from coreflab.report.io import atomic_write_text, html_table


def add_arguments(p):
    p.add_argument("--conll", required=True, help="training split (CoNLL-2012), split 75/25 by document")
    p.add_argument("--corpus", required=True)
    p.add_argument("--mentions", default="gold", choices=["gold", "predicted"])
    p.add_argument(
        "--mention-model",
        help="predicted mentions: the mention classifier (`coreflab mention-model`) that filters both parts "
        "(each scored fold by fold) and marks which held-out mentions may stand alone",
    )
    p.add_argument(
        "--mention-filter", type=probability, default=0.1, help="entity probability below which candidates are dropped"
    )
    p.add_argument(
        "--policy-from",
        help="compiled training split (`coreflab prepare`) whose singleton policy the held-out responses follow "
        "(default: --singletons)",
    )
    p.add_argument("--start", default="small", help="feature set to start from (name or path)")
    p.add_argument("--candidates", default="local", help="feature set whose local entries are the candidates")
    p.add_argument(
        "--nonlocal",
        dest="nonlocal_candidates",
        default=",".join(NONLOCAL_TEMPLATES),
        help="comma-separated non-local candidates ('' = none)",
    )
    p.add_argument("--iterations", type=at_least(1), default=3, help="training iterations per evaluation")
    p.add_argument(
        "--nonlocal-iterations",
        type=at_least(1),
        default=None,
        help="training iterations of the non-local (delayed LaSO) evaluations (default: --iterations)",
    )
    p.add_argument("--beam", type=at_least(1), default=5, help="beam of the non-local evaluations")
    p.add_argument(
        "--nonlocal-seeds",
        type=at_least(1),
        default=1,
        help="training seeds each non-local evaluation averages its held-out MELA over",
    )
    p.add_argument("--bits", type=at_least(1), default=22, help="hash bits of the arc stores (as in training)")
    p.add_argument("--window", type=at_least(0), default=None, help="candidate window (as in training; default: all)")
    p.add_argument(
        "--no-reach",
        dest="reach",
        action="store_false",
        help="no string-matched candidates beyond the window (as in training)",
    )
    p.add_argument("--tuned", help="JSON with the root loss tuned on dev (`coreflab tune-root-loss`); default 1.5")
    p.add_argument("--max-steps", type=at_least(0), default=6)
    p.add_argument(
        "--nonlocal-max-steps",
        type=at_least(0),
        default=None,
        help="forward steps of the non-local phase (default: what the local phase left of 2 x --max-steps)",
    )
    p.add_argument("--min-gain", type=float, default=0.05)
    p.add_argument("--jobs", type=at_least(1), default=1, help="candidate evaluations in parallel")
    p.add_argument(
        "--no-sample",
        dest="sample",
        action="store_false",
        help="judge templates on every document even where neither the template pool nor each evaluation's "
        "flat stores fit their memory budgets (each evaluation then builds shared-row stores); by default a "
        "seeded sample of whole documents whose pool fits",
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--singletons",
        default="auto",
        choices=CHOICES,
        help="do held-out responses keep one-mention clusters: keep, drop, or auto (default): as --conll's key",
    )
    p.add_argument("--log-out", required=True, help="CSV: every evaluated step")
    p.add_argument("--out", required=True, help="selected feature set (YAML list)")


def sample_note(sampled):
    """'' or 'judged on N of M training and K of L held-out documents (...)': what `Evaluator.sampled` says."""
    if not sampled:
        return ""
    (n, of), (k, held_of) = sampled["train"], sampled["held"]
    return (
        f"judged on {n} of {of} training and {k} of {held_of} held-out documents (seeded: the template pool "
        f"of all would take {sampled['pool_gb_of_all']:.1f} GB, over the memory budgets)"
    )


def computable(local, nonlocal_, corpus):
    """(the local entries and the non-local names `corpus` can compute, {template: why not} for the others):
    a template needing an attribute the corpus lacks adds no feature, so adding or removing it would be an
    evaluation that changes nothing."""
    res = resolve(local, corpus.missing)
    _, unusable = resolve_nonlocal(nonlocal_, corpus)
    return res.names, [t for t in nonlocal_ if t not in unusable], {**res.unavailable, **unusable}


def run(args):
    import time

    t0 = time.perf_counter()
    root_loss = 1.5
    if args.tuned:
        from coreflab.learn.trees.root_loss import read_tuned_root_loss

        root_loss = read_tuned_root_loss(args.tuned)
    docs = read_conll_path(args.conll)
    start = load_featureset(args.start).local
    candidates = load_featureset(args.candidates).local
    evaluate = Evaluator(
        docs,
        args.corpus,
        args.mentions,
        args.seed,
        args.iterations,
        args.beam,
        n_bits=args.bits,
        window=args.window,
        reach=args.reach,
        root_loss=root_loss,
        nonlocal_iterations=args.nonlocal_iterations,
        nonlocal_seeds=args.nonlocal_seeds,
        pool=list(dict.fromkeys(start + candidates)),
        keep_singletons=args.singletons,
        mention_model=args.mention_model,
        mention_filter=args.mention_filter,
        policy_from=args.policy_from,
        jobs=args.jobs,
        sample=args.sample,
    )
    nonlocal_ = [t for t in args.nonlocal_candidates.split(",") if t]
    start, nonlocal_, left_out = computable(start, nonlocal_, evaluate.train)
    candidates, _, more = computable(candidates, (), evaluate.train)
    left_out.update(more)
    if left_out:
        print(
            f"left out {len(left_out)} templates the corpus cannot compute: "
            + "; ".join(f"{e} ({why})" for e, why in left_out.items()),
            flush=True,
        )
    judged = sample_note(evaluate.sampled)
    if judged:
        print(f"templates {judged}", flush=True)
    local, chosen_nonlocal, rows = greedy_selection(
        evaluate,
        start,
        candidates,
        nonlocal_,
        args.min_gain,
        args.max_steps,
        args.jobs,
        nonlocal_max_steps=args.nonlocal_max_steps,
    )
    log = pd.DataFrame(rows, columns=["step", "phase", "action", "template", "mela", "kept"])
    atomic_write_text(args.log_out, log.to_csv(index=False, lineterminator="\n", float_format="%.4f"))
    atomic_write_text(
        Path(args.log_out).with_suffix(".html"),  # what the Snakemake report shows
        html_table(log, "%.4f", f"Greedy template selection on {args.corpus}: every evaluated step"),
    )
    text = (
        f"# selected by coreflab select on {args.corpus} (seed {args.seed}){'; ' + judged if judged else ''}\n"
        + yaml.safe_dump(local + chosen_nonlocal, sort_keys=False)
    )
    atomic_write_text(args.out, text)
    print(
        f"selected {len(local)} local and {len(chosen_nonlocal)} non-local templates "
        f"in {time.perf_counter() - t0:.1f} s"
    )
    return 0
