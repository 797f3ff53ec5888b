"""`coreflab mentions-table`: the mention stage's precision and recall per split, stage and mention type.

    coreflab mentions-table --stats DEV.stats.json --stats TEST.stats.json --corpus NAME --out-prefix PREFIX

Reads the stats `coreflab prepare --mention-model` wrote and writes PREFIX.{csv,md,tex,html}: the rules
alone, the classifier's candidates and the mentions it keeps, each against the key (exact spans).
"""

from coreflab.report.io import write_table
from coreflab.report.mention_detection import detection_frame


def add_arguments(p):
    p.add_argument("--stats", action="append", required=True, help="a split's stats JSON (repeatable)")
    p.add_argument("--corpus", required=True)
    p.add_argument("--filter", type=float, default=None, help="the classifier's filter probability (caption)")
    p.add_argument("--out-prefix", required=True)


def run(args):
    df = detection_frame(args.stats)
    kept = f" (entity probability at least {args.filter:g})" if args.filter is not None else ""
    caption = (
        f"Mention detection on {args.corpus}: the rules alone, the classifier's candidates and the candidates "
        f"the classifier keeps{kept}, against the key's mentions (exact spans; recall per type of the key "
        "mention, precision per type of the predicted one; in %)"
    )
    write_table(df, args.out_prefix, caption=caption)
    print(df.to_string(index=False, float_format=lambda v: f"{v:.2f}"))
    return 0
