"""`coreflab l3m2014 newsgroups-tables`: the 20 Newsgroups experiments' tables (Table 2's VI and CCCP vs
SGD on author clustering), in a folder of their own: they ran on no coreference corpus, so no corpus's
tables carry them and the scorecard counts them once, in their own column."""

from pathlib import Path

from coreflab.papers.l3m2014 import report as l3m2014
from coreflab.papers.l3m2014.study_tables import read_csvs, write_cccp_time
from coreflab.report.io import write_table

TABLE2_CAPTION = (
    "L3M Table 2 on 20 Newsgroups (test folds): supervised clustering of posts by author and thread, "
    "Variation of Information ×100 (lower is better), mean over the folds; online techniques after their "
    "passes and after 1 pass, batch techniques (Corr-Clustering, Spanning Forest) after theirs (the paper's "
    "10); per technique and fold λ, η0 (L3M: γ; Spanning Forest: its loss r) tuned on an inner split of "
    "the fold's training sets, TF-IDF fitted on them; 'every post alone' is the VI of predicting no link"
)


def add_arguments(p):
    p.add_argument("--cccp", required=True, help="CCCP vs SGD runs on 20 Newsgroups author clustering")
    p.add_argument("--doccluster", nargs="+", required=True, help="doccluster CSVs (author/thread, natural/shuffled)")
    p.add_argument("--out-dir", required=True)


def run(args):
    out = Path(args.out_dir)
    cccp_runs = read_csvs([args.cccp])
    tables = {
        "table2_vi": (l3m2014.table2_vi(read_csvs(args.doccluster)), TABLE2_CAPTION),
        "cccp_vs_sgd": (
            write_cccp_time(cccp_runs, out, "20 Newsgroups"),
            l3m2014.cccp_caption(cccp_runs, "20 Newsgroups"),
        ),
    }
    for name, (table, caption) in tables.items():
        write_table(table, out / name, caption=caption)
        print(caption)
        print(table.to_string(index=False))
    return 0
