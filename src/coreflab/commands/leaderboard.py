"""`coreflab leaderboard`: every system on one test split, best first (CSV, Markdown, LaTeX)."""

import pandas as pd

from coreflab.arg_types import at_least
from coreflab.named_values import named_values
from coreflab.report.io import write_table
from coreflab.report.leaderboard import add_costs, add_significance, leaderboard_frame


def add_arguments(p):
    p.add_argument("--scores", required=True, help="tidy scores CSV (scores-table output)")
    p.add_argument("--split", default="test")
    p.add_argument(
        "--score-json",
        action="append",
        default=[],
        metavar="SYSTEM=JSON",
        help="per-document score JSON of a system (enables significance against the best)",
    )
    p.add_argument(
        "--benchmark",
        action="append",
        default=[],
        metavar="SYSTEM=TSV",
        help="Snakemake benchmark file of a system's training job (time, peak memory); PATH,PATH for a system "
        "trained over several jobs (the times add up)",
    )
    p.add_argument("--reference", default=None, help="test every system against this one instead of the best")
    p.add_argument("--caption", default=None, help="caption of the table (default: the leaderboard's)")
    p.add_argument(
        "--compiled",
        default=None,
        help="the split's compiled corpus: the default caption says its mentions, parses and singleton policy",
    )
    p.add_argument(
        "--mentions",
        choices=("gold", "predicted"),
        default=None,
        help="the mentions the systems were given (default: as the compiled split records); the caption says "
        "which (gold mentions are not comparable with end-to-end systems)",
    )
    p.add_argument("--samples", type=at_least(1), default=10000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out-prefix", required=True, help="writes PREFIX.csv, PREFIX.md, PREFIX.tex")


def setting_note(compiled, mentions=None):
    """'gold|predicted mentions, gold|auto parses; <singleton policy>' as the compiled split records them
    (`mentions` overrides the recorded mode), or what of it is known.

    Why: scores with gold and predicted mentions, and with and without response singletons, differ by
    many points (B3, CEAFe), and published CoNLL-2012 numbers use predicted mentions without singletons;
    a reader comparing must know which these are."""
    from coreflab.corpus.singletons import DROP, KEEP, policy_text

    corpus = None
    if compiled is not None:
        from coreflab.corpus.compiled import CompiledCorpus

        corpus = CompiledCorpus.load(compiled)
    parts = []
    mode = mentions or (corpus.mention_mode if corpus is not None else None)
    if mode:
        parts.append(f"{mode} mentions")
    if corpus is not None and corpus.parses:
        parts.append("no parses" if corpus.parses == "none" else f"{corpus.parses} parses")
    policy = None
    if corpus is not None:
        policy = corpus.singleton_policy
        if policy is None and corpus.response_singletons is not None:
            policy = KEEP if corpus.response_singletons else DROP
    text = ", ".join(parts)
    if policy:
        text += ("; " if text else "") + policy_text(policy)
    return text


def run(args):
    df = pd.read_csv(args.scores)
    corpus = df["corpus"].iloc[0] if len(df) else "?"
    board = leaderboard_frame(df, args.split)
    board = add_significance(
        board, named_values(args.score_json, "--score-json", "SYSTEM=PATH"), args.samples, args.seed, args.reference
    )
    against = "the best system" if args.reference is None else args.reference
    setting = setting_note(args.compiled, args.mentions)
    caption = args.caption or (
        f"Leaderboard: {corpus}, {args.split} split{f', {setting}' if setting else ''} "
        "(F1 in %, MELA = CoNLL average, Mentions = mention detection, exact spans; "
        f"† = significantly different from {against}, paired bootstrap over documents, p < 0.05)"
    )
    write_table(board, args.out_prefix, caption=caption)
    if args.reference is not None:
        return 0
    # measured costs vary between runs, so they live beside the (bit-reproducible) leaderboard
    costs = add_costs(board[["rank", "system", "MELA"]], named_values(args.benchmark, "--benchmark", "SYSTEM=PATH"))
    write_table(
        costs,
        f"{args.out_prefix}_costs",
        formats=("csv", "md", "html"),
        caption=f"Training cost of each system on {corpus} (Snakemake benchmark files: wall seconds, summed over "
        "the jobs its model comes from, and peak resident memory)",
    )
    from coreflab.report.io import format_p_columns
    from coreflab.report.style_names import paper_names

    print(paper_names(format_p_columns(board)).to_string(index=False, float_format=lambda v: f"{v:.2f}"))
    return 0
