"""`coreflab singh2011 calibrate`: set the prior (b, w) of a corpus by one of the paper's two protocols.

`--rule heldout-b3` (default; the large corpus and ECB+, Table 2 / Fig. 7, Singh et al. 2011 §5.3):
tune b and w on held-out entities: 5% of them (`--heldout-frac`), or more while they have fewer
than `--heldout-min-mentions` mentions (never more than half the mentions; `tuning.heldout_split`).
Writes a JSON with the chosen bias and string weight, the held-out entity ids (which the runs
and baselines then leave out: they are evaluated on the rest), how many entities and mentions
were held out, and every grid point tried with its development B3 F1 and log p(gold) /
log p(string match) on the development entities.
The development chain gets the same proposals per mention per round as the evaluated run
(`--eval-samples-per-round` × `--eval-workers` over the test mentions), so b is tuned for the
schedule it is used with.

`--rule entity-count` (Person-X, Figs. 5-6, §5.2: "we set the bias b to achieve the same number
of entities"): b such that the predicted number of entities equals (else is closest to) the
true number, on the whole corpus, w fixed at `--string-weight` (`tuning.count_calibrated_bias`:
bracket from the ends of `--bias-grid`, then `--bisections` bisection steps on log b). The
chain is the evaluated run's: `--rounds`, `--eval-workers` shards of `--eval-samples-per-round`
proposals each, `--init`, `--seed`, so at the chosen b the run with that many workers ends with
the counted number of entities. Nothing is held out (`dev_entities` is empty): the runs are
evaluated on every entity, as the paper's Person-X runs were. The JSON logs every b tried with
its predicted and true entity count.
"""

import numpy as np

from coreflab.arg_types import at_least
from coreflab.errors import UserError
from coreflab.papers.singh2011.arguments import add_model_arguments, model_params
from coreflab.papers.singh2011.data import CrossdocCorpus
from coreflab.papers.singh2011.tuning import (
    HELDOUT_MIN_ENTITIES,
    HELDOUT_MIN_MENTIONS,
    count_calibrated_bias,
    heldout_split,
    heldout_topics,
    split_corpus,
    tune_prior,
    write_prior,
)

RULES = ("heldout-b3", "entity-count")


def add_arguments(p):
    p.add_argument("--corpus", required=True)
    add_model_arguments(p)
    p.add_argument(
        "--rule",
        choices=RULES,
        default="heldout-b3",
        help="heldout-b3: b and w by development B3 F1 on held-out entities (large corpus, ECB+); "
        "entity-count: b giving the true number of entities on the whole corpus (Person-X)",
    )
    p.add_argument(
        "--bisections",
        type=at_least(0),
        default=12,
        help="entity-count: bisection steps on log b after bracketing (default 12)",
    )
    p.add_argument(
        "--bias-grid",
        type=float,
        nargs="+",
        required=True,
        help="candidate entity biases b (entity-count: its smallest and largest start the bracket)",
    )
    p.add_argument(
        "--weight-grid",
        type=float,
        nargs="+",
        default=[0.0],
        help="candidate string weights w (Person-X: 0, every string is X); entity-count: only --string-weight",
    )
    p.add_argument("--heldout-frac", type=float, default=0.05, help="share of the gold entities held out")
    p.add_argument(
        "--heldout-by",
        choices=("topic", "entity"),
        default="topic",
        help="hold out whole topics (a corpus with topics: keeps the distractor density) or random entities",
    )
    p.add_argument(
        "--heldout-min-mentions",
        type=at_least(0),
        default=HELDOUT_MIN_MENTIONS,
        help="hold out further entities until their mentions reach this many (at most half the mentions; "
        f"default {HELDOUT_MIN_MENTIONS})",
    )
    p.add_argument(
        "--heldout-min-entities",
        type=at_least(1),
        default=HELDOUT_MIN_ENTITIES,
        help=f"hold out at least this many entities (never all; default {HELDOUT_MIN_ENTITIES})",
    )
    p.add_argument("--sweeps", type=at_least(1), default=1, help="coordinate sweeps (b, then w)")
    p.add_argument("--init", choices=["singletons", "string"], default="singletons")
    p.add_argument("--within-topic", action="store_true", help="tune for the within-topic setting (ECB+)")
    p.add_argument("--rounds", type=at_least(1), default=3)
    p.add_argument(
        "--eval-samples-per-round",
        type=int,
        default=100_000,
        help="proposals per worker per round of the evaluated run",
    )
    p.add_argument("--eval-workers", type=at_least(1), default=2, help="workers of the evaluated run")
    p.add_argument("--t-start", type=float, default=0.05)
    p.add_argument("--t-stop", type=float, default=0.0005)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", required=True, help="JSON with the tuned prior and the held-out split")


def run(args):
    if not 0 < args.heldout_frac < 1 or args.sweeps < 1 or args.rounds < 1:
        raise UserError("need 0 < --heldout-frac < 1, --sweeps >= 1 and --rounds >= 1")
    if min(args.bias_grid) <= 0 or min(args.weight_grid) < 0:
        raise UserError("biases must be positive and string weights non-negative")
    corpus = CrossdocCorpus.load(args.corpus)
    if args.rule == "entity-count":
        return _entity_count(args, corpus)
    by_topic = args.heldout_by == "topic" and len(np.unique(corpus.topic)) > 1
    _, dev_entities = (
        heldout_topics(
            corpus.gold,
            corpus.topic,
            args.heldout_frac,
            args.seed,
            min_entities=args.heldout_min_entities,
            min_mentions=args.heldout_min_mentions,
        )
        if by_topic
        else heldout_split(
            corpus.gold,
            args.heldout_frac,
            args.seed,
            min_entities=args.heldout_min_entities,
            min_mentions=args.heldout_min_mentions,
        )
    )
    dev, test = split_corpus(corpus, dev_entities)
    if len(dev) == 0 or len(test) == 0:
        raise UserError(f"{args.corpus}: too few entities for a held-out split")
    per_mention = args.eval_samples_per_round * args.eval_workers / len(test)
    schedule = {
        "rounds": args.rounds,
        "samples": max(100, int(np.ceil(per_mention * len(dev)))),
        "t_start": args.t_start,
        "t_stop": args.t_stop,
        "init": args.init,
        "seed": args.seed,
    }
    params, tries = tune_prior(
        dev,
        model_params(args),
        args.bias_grid,
        args.weight_grid,
        schedule,
        sweeps=args.sweeps,
        within_topic=args.within_topic,
    )
    write_prior(
        args.out,
        params,
        dev_entities,
        len(dev),
        tries,
        {
            "rule": "heldout-b3",
            "heldout_frac": args.heldout_frac,
            "heldout_by": "topic" if by_topic else "entity",
            "heldout_min_mentions": args.heldout_min_mentions,
            "heldout_min_entities": args.heldout_min_entities,
            "heldout_entities": int(len(dev_entities)),
            "heldout_mentions": int(len(dev)),
            "setting": "within topic" if args.within_topic else "whole corpus",
            "dev_samples_per_round": schedule["samples"],
            "rounds": args.rounds,
            "init": args.init,
        },
    )
    chosen = next(t for t in tries if t["bias"] == params.bias and t["string_weight"] == params.string_weight)
    print(
        f"tuned on {len(dev)} held-out mentions ({len(dev_entities)} entities): b = {params.bias:.4g}, "
        f"w = {params.string_weight:.4g}, dev B3 F1 {100 * chosen['dev_b3_f1']:.1f}"
    )
    return 0


def _entity_count(args, corpus):
    """Person-X (§5.2): b giving the true number of entities, on the whole corpus."""
    if set(args.weight_grid) - {args.string_weight}:
        raise UserError(
            "--rule entity-count sets b only: w is --string-weight, so --weight-grid may hold only that value"
        )
    if len(corpus) == 0:
        raise UserError(f"{args.corpus}: no mentions")
    schedule = {
        "rounds": args.rounds,
        "samples": args.eval_samples_per_round,
        "shards": args.eval_workers,
        "t_start": args.t_start,
        "t_stop": args.t_stop,
        "init": args.init,
        "seed": args.seed,
    }
    params, tries, target = count_calibrated_bias(
        corpus,
        model_params(args),
        min(args.bias_grid),
        max(args.bias_grid),
        schedule,
        bisections=args.bisections,
        within_topic=args.within_topic,
    )
    chosen = next(t for t in tries if t["bias"] == params.bias)
    write_prior(
        args.out,
        params,
        [],
        0,
        tries,
        {
            "rule": "entity-count",
            "true_entities": target,
            "predicted_entities": chosen["entities"],
            "heldout_frac": 0.0,
            "heldout_entities": 0,
            "heldout_mentions": 0,
            "setting": "within topic" if args.within_topic else "whole corpus",
            "samples_per_round": args.eval_samples_per_round,
            "workers": args.eval_workers,
            "rounds": args.rounds,
            "init": args.init,
        },
    )
    print(
        f"entity count on all {len(corpus)} mentions: b = {params.bias:.4g} predicts {chosen['entities']} entities "
        f"(true {target}) after {len(tries)} chains"
    )
    return 0
