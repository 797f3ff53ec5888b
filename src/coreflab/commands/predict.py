"""`coreflab predict`: apply a saved model to a compiled split and write CoNLL-2012.

The response keeps every token and column of the key documents and carries the
predicted clusters; singleton clusters are written as the compiled split records for its corpus
(`coreflab prepare`: iff the training key annotates singletons), unless `--keep-singletons` or
`--drop-singletons` says otherwise.
"""

import sys

from coreflab.learn.io import load_split


def add_arguments(p):
    p.add_argument("--model", required=True, help="model file written by `coreflab train`")
    p.add_argument("--compiled", required=True, help="compiled split (.npz)")
    p.add_argument("--arcs", required=True, help="arc store of the split (.npz)")
    p.add_argument("--conll", required=True, help="key of the split (CoNLL-2012 file or directory)")
    keep = p.add_mutually_exclusive_group()
    keep.add_argument(
        "--keep-singletons",
        dest="singletons",
        action="store_const",
        const=True,
        help="write singleton clusters (default: as recorded in the compiled split)",
    )
    keep.add_argument(
        "--drop-singletons", dest="singletons", action="store_const", const=False, help="never write singleton clusters"
    )
    p.add_argument("--out", required=True, help="CoNLL-2012 response file to write")


def run(args):
    from coreflab.corpus.readers.conll import read_conll_path, write_conll
    from coreflab.learn.base import Learner, as_training_data
    from coreflab.learn.output import response_documents
    from coreflab.numba_cache import compile_notice, kernel_dir

    model = Learner.load(args.model)
    data = as_training_data(load_split(args.compiled, args.arcs))
    compile_notice(sys.stderr, source_dir=kernel_dir(model))
    model.check_hashing(data.store)
    ante = model.predict(data.corpus, data.store)
    key = read_conll_path(args.conll)
    response = response_documents(key, data.corpus, ante, args.singletons, source=args.conll, who=model.name)
    write_conll(response, args.out)
    return 0
