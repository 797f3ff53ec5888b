"""`coreflab crossdoc-calibrate`: the bias giving the true number of entities (Person-X protocol)."""

from coreflab.commands.crossdoc import add_model_arguments, model_params
from coreflab.crossdoc.data import CrossdocCorpus
from coreflab.crossdoc.model import calibrate_bias, write_bias


def add_arguments(p):
    p.add_argument("--corpus", required=True)
    add_model_arguments(p)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--samples-per-round", type=int, default=150_000)
    p.add_argument("--steps", type=int, default=3, help="bisection steps on log b")
    p.add_argument("--spread", type=float, default=3.0, help="search [b/spread, b*spread] around --bias")
    p.add_argument("--workers", type=int, default=2, help="shards per round, as in the calibrated run")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", required=True, help="JSON with the chosen bias")


def run(args):
    corpus = CrossdocCorpus.load(args.corpus)
    target = len(set(corpus.gold.tolist()))
    bias, got, tries = calibrate_bias(corpus, model_params(args), target, rounds=args.rounds,
                                      samples_per_round=args.samples_per_round, seed=args.seed, steps=args.steps,
                                      spread=args.spread, shards=args.workers)
    write_bias(args.out, bias, got, target, tries)
    print(f"bias {bias:.4g}: {got} entities (truth {target})")
    return 0
