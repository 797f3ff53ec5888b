"""Write GUM or OntoGUM as a CoNLL-2012 release in the official layout, all 14 columns.

Users bring OntoNotes (licensed) in the official layout; we cannot ship or test on it. This
builds the nearest open stand-in, so that `config/conll2012.yaml` — the reader of the
official layout, mention extraction from the parse column, every learner — can be run end
to end on a corpus with full columns:

    <out>/data/{train,development,test}/data/english/annotations/gum/<genre>/<doc>.v4_gold_conll

Columns: document id, part, token index, word, POS (GUM's gold PTB tags), parse bit (GUM's
gold constituency trees), lemma, frameset `-`, word sense `-`, speaker (`-` where GUM has
none), named entity `*`, two predicate-argument columns `*` (a sentence with two predicates),
coreference: 14 columns. OntoGUM
(`--scheme ontogum`, the default) follows the OntoNotes scheme (no singletons), like the
corpora the papers used. `--scheme gum --drop-singletons` keeps GUM's own scheme but leaves its
one-mention clusters out of the key: the same documents and links as GUM with and without the
singletons, which is what the GUM page's non-local measurement compares. The output goes where
you say, never into the repository.

Usage: python bench/gum_as_conll2012.py --gum DIR --out DIR [--scheme ontogum|gum] [--drop-singletons]
then:  snakemake --cores 2 --configfile config/conll2012.yaml \
           --config 'corpora={"conll2012": {"local_dir": "DIR", "language": "english", "annotation": "gold"}}'
"""

import argparse
from pathlib import Path

from coreflab.corpus.readers.conll import write_conll
from coreflab.corpus.readers.conll2012_release import SPLIT_DIRS
from coreflab.corpus.readers.gum import load_gum

FILLERS = {"frameset": "-", "sense": "-", "speaker": "-", "ne": "*"}


def as_release_document(doc):
    """The document with every optional column filled as the official release fills an empty one."""
    n = len(doc.words)
    for name, filler in FILLERS.items():
        col = doc.columns.get(name)
        if col is None:
            doc.columns[name] = [filler] * n
        else:
            doc.columns[name] = [v if v not in ("", "_") else filler for v in col]
    doc.args = [("*", "*")] * n
    genre = doc.doc_id.split("_")[1] if doc.doc_id.count("_") >= 2 else "misc"
    doc.doc_id = f"gum/{genre}/{doc.doc_id}"
    return doc


def without_singletons(doc):
    """The document with its one-mention clusters left out of the key (labels kept for the rest)."""
    kept = [(c, label) for c, label in zip(doc.clusters, doc.cluster_labels) if len(c) > 1]
    doc.clusters = [c for c, _ in kept]
    doc.cluster_labels = [label for _, label in kept]
    return doc


def write_release(gum_dir, out_dir, scheme="ontogum", drop_singletons=False):
    """{split: number of documents} written under out_dir in the official layout."""
    splits = load_gum(gum_dir, list(SPLIT_DIRS), scheme=scheme, apply_errata=True)
    counts = {}
    for split, docs in splits.items():
        base = Path(out_dir) / "data" / SPLIT_DIRS[split] / "data" / "english" / "annotations"
        for doc in docs:
            doc = as_release_document(doc)
            if drop_singletons:
                doc = without_singletons(doc)
            path = base / f"{doc.doc_id}.v4_gold_conll"
            path.parent.mkdir(parents=True, exist_ok=True)
            write_conll([doc], path)
        counts[split] = len(docs)
    return counts


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gum", required=True, help="a GUM copy (the shared layout or the repository's)")
    ap.add_argument("--out", required=True, help="folder to write the release into")
    ap.add_argument("--scheme", default="ontogum", choices=["ontogum", "gum"])
    ap.add_argument("--drop-singletons", action="store_true", help="leave one-mention clusters out of the key")
    args = ap.parse_args()
    counts = write_release(args.gum, args.out, args.scheme, args.drop_singletons)
    print(f"{args.out}: " + ", ".join(f"{k} {v} documents" for k, v in counts.items()))


if __name__ == "__main__":
    main()
