"""LitBank coreference (Bamman, Lewke & Mansoor 2020, "An annotated dataset of coreference
in English literature", LREC) with the authors' 10-fold cross-validation splits.

A copy holds `conll/<name>.conll` (13 columns, only words and coreference filled; the
optional columns come out as None) and `splits_tenfold/<fold>/{train,dev,test}.ids`,
80/10/10 documents per fold. The id files name documents with a `.tsv` suffix (the
authors' token files); `<name>.tsv` is `conll/<name>.conll`. The repository layouts
(`coref/conll/` of dbamman/litbank, `data/litbank_tenfold_splits/` of dbamman/lrec2020-coref)
are accepted as well.
"""

from pathlib import Path

from coreflab.corpus.readers.conll import read_conll
from coreflab.errors import InputFormatError, UserError

CONLL_DIRS = ("conll", "coref/conll")
SPLIT_DIRS = ("splits_tenfold", "data/litbank_tenfold_splits")
FOLDS = range(10)


def load_litbank(root, split, fold=0):
    """The documents of one split of one fold, in the order of the id file."""
    root = Path(root)
    if not root.is_dir():
        raise UserError(f"{root}: no such directory (expected a LitBank copy)")
    try:
        fold = int(fold)
    except (TypeError, ValueError):
        raise UserError(f"LitBank fold {fold!r}; expected an integer 0-9") from None
    if fold not in FOLDS:
        raise UserError(f"LitBank fold {fold}; expected an integer 0-9")
    conll_dir = _first_dir(root, CONLL_DIRS, "LitBank CoNLL folder")
    ids_path = _first_dir(root, SPLIT_DIRS, "LitBank split folder") / str(fold) / f"{split}.ids"
    docs = []
    for name, lineno in read_ids(ids_path):
        path = conll_dir / f"{name}.conll"
        if not path.is_file():
            raise InputFormatError(ids_path, lineno, f"document {name!r} has no file {path}")
        docs.extend(read_conll(path, layout="conll2012"))
    return docs


def read_ids(path):
    """[(document name, line)] of an id file; a `.tsv` suffix is dropped."""
    path = Path(path)
    if not path.is_file():
        raise UserError(f"{path}: no such split file")
    out = []
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        name = line.strip()
        if name:
            out.append((name[: -len(".tsv")] if name.endswith(".tsv") else name, lineno))
    return out


def _first_dir(root, candidates, what):
    for rel in candidates:
        if (root / rel).is_dir():
            return root / rel
    raise UserError(f"{root}: no {what} (looked for {', '.join(candidates)})")
