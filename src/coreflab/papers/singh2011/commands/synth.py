"""`coreflab singh2011 synth`: a synthetic cross-document corpus (.npz) for scale and Person-X."""

from coreflab.papers.singh2011.synthetic import SIZES, config_for, generate


def add_arguments(p):
    p.add_argument(
        "--size",
        choices=sorted(SIZES),
        default="personx_small",
        help="preset: personx (25K mentions, 50 entities), large (1.5M mentions, 43K entities), ...",
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--person-x", action="store_true", help="replace every mention string by X (Person-X protocol)")
    p.add_argument("--out", required=True, help="output .npz")


def run(args):
    corpus = generate(config_for(args.size, seed=args.seed))
    if args.person_x:
        corpus = corpus.person_x()
    corpus.save(args.out)
    print(
        f"{args.out}: {len(corpus)} mentions, {len(set(corpus.gold.tolist()))} entities, "
        f"{corpus.X.nnz / max(1, len(corpus)):.1f} context words per mention"
    )
    return 0
