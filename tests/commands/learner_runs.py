"""Short runs of every leaderboard learner on the tiny synthetic corpus, shared by the command tests:
the learners with their parameters, the split files they run on, and the `coreflab train` argv."""

from coreflab.corpus.compile import compile_documents
from coreflab.corpus.readers.conll import write_conll
from coreflab.features.extract import extract_arc_store

FEATURES = ["bias", "ana_type", "ana_type+ante_type", "sent_dist", "exact_match", "head_match"]

# every leaderboard learner with a short run: (learner, params, epochs the params ask for)
LEARNERS = [
    ("bk_baseline", '{"n_iter": 2}', 2),
    ("bk_delayed_laso", '{"n_iter": 2, "beam": 4}', 2),
    ("cc_base", "{}", 1),  # no E-step: one M-step
    ("cc_slt_closest", '{"em_iterations": 2, "max_iter": 50}', 2),
    ("l3m", '{"epochs": 2}', 2),
    ("sumlink", '{"epochs": 2}', 2),
    ("binleftlink", '{"epochs": 2}', 2),
    ("spanning_forest", '{"epochs": 2}', 2),
    # the configs' exact-search budget (the learner's defaults take 140 s on this corpus)
    ("corr_clustering", '{"epochs": 2, "max_items": 15, "node_limit": 50}', 2),
]


def write_split_files(tmp, docs_by_split):
    """{"tmp": tmp, split: [compiled, arcs, conll] paths} of the train and dev documents given."""
    out = {"tmp": tmp}
    for split in ("train", "dev"):
        docs = docs_by_split[split]
        corpus = compile_documents(docs, "synth", split)
        corpus.save(tmp / f"{split}.npz")
        extract_arc_store(corpus, FEATURES, n_bits=16).save(tmp / f"{split}_arcs.npz")
        write_conll(docs, tmp / f"{split}.conll")
        out[split] = [str(tmp / f"{split}.npz"), str(tmp / f"{split}_arcs.npz"), str(tmp / f"{split}.conll")]
    return out


def train_argv(files, learner, params, out):
    """`coreflab train` of a learner on the train split, scored on dev every epoch."""
    tr, dv = files["train"], files["dev"]
    return [
        "train",
        "--learner",
        learner,
        "--compiled",
        tr[0],
        "--arcs",
        tr[1],
        "--dev-compiled",
        dv[0],
        "--dev-arcs",
        dv[1],
        "--dev-conll",
        dv[2],
        "--params",
        params,
        "--out",
        str(out),
    ]
