"""Write CoNLL-2012 releases in the official layout, for runs of `config/conll2012.yaml` on open data.

`write_gum_release`: GUM or OntoGUM as a release with all 14 columns,

    <out>/data/{train,development,test}/data/english/annotations/gum/<genre>/<doc>.v4_gold_conll

word, POS, parse bit, lemma and speaker from GUM's gold layers; frameset and sense `-`, named
entity `*`, two predicate-argument columns `*`; speaker `-` where GUM has none. OntoGUM follows
the OntoNotes scheme (no singletons), like the corpora the papers used; GUM's own scheme with
`drop_singletons` keeps its documents and links but leaves one-mention clusters out of the key.

`cut_release`: a copy of a release whose documents, in the chosen splits, are cut into parts of
N sentences, as OntoNotes cuts long documents. The scorer scores each part as a document, so an
entity with mentions in two parts becomes two clusters, and one left with a single mention in a
part becomes a one-mention cluster of that part's key. Files of the other splits are linked.
"""

from pathlib import Path

from coreflab.corpus.readers.conll import atomic_write_text, write_conll
from coreflab.corpus.readers.conll2012_release import SPLIT_DIRS
from coreflab.corpus.readers.gum import load_gum
from coreflab.errors import UserError

FILLERS = {"frameset": "-", "sense": "-", "speaker": "-", "ne": "*"}


def as_release_document(doc):
    """The document with every optional column filled as the official release fills an empty one,
    and its id as the release's `gum/<genre>/<doc>` path."""
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


def write_gum_release(gum_dir, out_dir, scheme="ontogum", drop_singletons=False):
    """{split: number of documents} written under out_dir in the official layout."""
    splits = load_gum(gum_dir, list(SPLIT_DIRS), scheme=scheme, apply_errata=True)
    counts = {}
    for split, docs in splits.items():
        base = Path(out_dir) / "data" / SPLIT_DIRS[split] / "data" / "english" / "annotations"
        for doc in docs:
            doc = as_release_document(doc)
            if drop_singletons:
                doc = without_singletons(doc)
            write_conll([doc], base / f"{doc.doc_id}.v4_gold_conll")
        counts[split] = len(docs)
    return counts


def sentences(lines):
    """Sentences (lists of token lines) of the lines of one document block."""
    out, cur = [], []
    for line in lines:
        if line.strip():
            cur.append(line)
        elif cur:
            out.append(cur)
            cur = []
    if cur:
        out.append(cur)
    return out


def cut_text(text, n_sentences):
    """A CoNLL file's text with each document cut into parts of n_sentences (parts numbered from 000,
    the part column following)."""
    out, block, head = [], None, ""
    for line in text.splitlines():
        if line.startswith("#begin document"):
            head, block = (line.rsplit(";", 1)[0] if ";" in line else line), []
        elif line.startswith("#end document"):
            sents = sentences(block or [])
            for p in range(0, len(sents), n_sentences):
                out.append(f"{head}; part {p // n_sentences:03d}")
                for sent in sents[p : p + n_sentences]:
                    for token in sent:
                        cols = token.split()
                        cols[1] = str(p // n_sentences)
                        out.append("\t".join(cols))
                    out.append("")
                out.append("#end document")
            block = None
        elif block is not None:
            block.append(line)
    return "\n".join(out) + "\n"


def split_of(rel_path):
    """The split folder (train, development, test) a release file sits in, or None."""
    return next((part for part in Path(rel_path).parts[:-1] if part in SPLIT_DIRS.values()), None)


def cut_release(release_dir, out_dir, splits=("test",), n_sentences=4):
    """Copy a release into out_dir, cutting the documents of `splits` into parts of n_sentences and
    linking the other files; returns {split folder: files cut}."""
    src, dst = Path(release_dir), Path(out_dir)
    unknown = sorted(set(splits) - set(SPLIT_DIRS))
    if unknown:
        raise UserError(f"unknown split {unknown[0]!r}; expected some of {', '.join(SPLIT_DIRS)}")
    if n_sentences < 1:
        raise UserError(f"sentences per part must be at least 1, not {n_sentences}")
    if not src.is_dir():
        raise UserError(f"{src}: no such folder (expected a release in the official layout)")
    if dst.exists() and (not dst.is_dir() or any(dst.iterdir())):
        raise UserError(f"{dst}: exists and is not an empty folder; give a new one")
    files = sorted(src.rglob("*_conll"))
    if not files:
        raise UserError(f"{src}: no *_conll files (expected data/<split>/data/<language>/annotations/...)")
    cut = {SPLIT_DIRS[s] for s in splits}
    counts = dict.fromkeys(sorted(cut), 0)
    for f in files:
        rel = f.relative_to(src)
        out = dst / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        split = split_of(rel)
        if split in cut:
            atomic_write_text(out, cut_text(f.read_text(encoding="utf-8"), n_sentences))
            counts[split] += 1
        else:
            out.symlink_to(f.resolve())
    return counts


__all__ = [
    "as_release_document",
    "without_singletons",
    "write_gum_release",
    "cut_text",
    "cut_release",
]
