"""Copy a CoNLL-2012 release, cutting the documents of some splits into parts of N sentences.

OntoNotes cuts long documents into parts, and the scorer scores each part as a document of its
own: an entity with mentions in two parts becomes two clusters, and one that keeps a single
mention in a part becomes a one-mention cluster of that part's key. A split cut this way can
cross the 5% of one-mention clusters by which `response_singletons: auto` tells a scheme that
annotates singletons, while the other splits do not. This builds such a release from one you
have (e.g. `bench/gum_as_conll2012.py`'s OntoGUM), to check that every split is scored by one
decision (the training key's): `docs/results-conll2012.md` reports the run.

Files of the other splits are linked, not copied; the output goes where you say, never into
the repository.

Usage: python bench/cut_into_parts.py --release DIR --out DIR [--splits test] [--sentences 4]
"""

import argparse
import shutil
from pathlib import Path

from coreflab.corpus.readers.conll2012_release import SPLIT_DIRS


def sentences(lines):
    """Sentences (lists of token lines) of one '#begin document' ... '#end document' block."""
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
    """The file's documents, each cut into parts of n_sentences (parts numbered from 000)."""
    out, block = [], None
    for line in text.splitlines():
        if line.startswith("#begin document"):
            head, block = line.rsplit(";", 1)[0] if ";" in line else line, []
        elif line.startswith("#end document"):
            sents = sentences(block)
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


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--release", required=True, help="a release in the official layout (data/<split>/...)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--splits", default="test", help="comma-separated splits to cut (train, dev, test)")
    ap.add_argument("--sentences", type=int, default=4, help="sentences per part")
    args = ap.parse_args()
    src, dst = Path(args.release), Path(args.out)
    cut = {SPLIT_DIRS[s] for s in args.splits.split(",")}
    shutil.rmtree(dst, ignore_errors=True)
    for f in sorted(src.rglob("*_conll")):
        rel = f.relative_to(src)
        out = dst / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        if len(rel.parts) > 1 and rel.parts[1] in cut:
            out.write_text(cut_text(f.read_text(encoding="utf-8"), args.sentences), encoding="utf-8")
        else:
            out.symlink_to(f.resolve())
    print(f"{dst}: {', '.join(sorted(cut))} cut into parts of {args.sentences} sentences")


if __name__ == "__main__":
    main()
