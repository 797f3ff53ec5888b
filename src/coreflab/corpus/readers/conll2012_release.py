"""A user's own CoNLL-2012 release (Pradhan et al. 2012, "CoNLL-2012 shared task: modeling
multilingual unrestricted coreference in OntoNotes"), read in its official layout:

    <root>/data/{train,development,test}/data/<language>/annotations/**/*_{gold,auto}_conll

The papers coreflab reproduces trained and tested on this data; it is licensed (LDC), so
users point `corpora.conll2012.local_dir` at their copy. `root` may also be the `data/`
folder itself, or the folder above the shared task's `v4/` (`conll-2012/v4/data/...`). A folder
of one file per split, as many coreference systems prepare the release
(`{train,dev,test}.<language>.v4_<annotation>_conll`), is read too. Files are read in sorted
path order, so document order is stable.
"""

import warnings
from pathlib import Path

from coreflab.corpus.readers.conll import read_conll
from coreflab.errors import UserError

SPLIT_DIRS = {"train": "train", "dev": "development", "test": "test"}
# where <split dir>/data/<language>/annotations may sit below the folder a user names
RELEASE_PREFIXES = (("data",), (), ("v4", "data"), ("conll-2012", "v4", "data"))
LANGUAGES = ("english", "chinese", "arabic")
ANNOTATIONS = ("gold", "auto")
_PLACEHOLDER_MARKS = ("/path/to", "placeholder", "changeme", "<", ">", "...")


def is_placeholder(local_dir):
    """True for an unset path or an obvious template value such as `/path/to/conll-2012`."""
    if local_dir is None:
        return True
    text = str(local_dir).strip()
    return not text or any(mark in text.lower() for mark in _PLACEHOLDER_MARKS)


def require_release_root(root):
    """The release folder as a Path, or the one-line UserError saying what to set."""
    if is_placeholder(root):
        raise UserError(
            "corpora.conll2012.local_dir is not set: point it at your CoNLL-2012 release "
            "(the folder holding data/train, data/development, data/test)"
        )
    path = Path(str(root)).expanduser()
    if not path.is_dir():
        what = "a file, not a directory" if path.exists() else "no such directory"
        raise UserError(f"{root}: {what} (corpora.conll2012.local_dir should be your CoNLL-2012 release)")
    return path


def read_annotation(root, split, language="english", annotation="gold"):
    """The annotation a split is read with: `auto` where the release has its auto files, else `gold`
    (a release shipped with gold files only is still read, and captions say gold parses); a UserError
    saying what is missing when the split has neither."""
    if annotation != "auto":
        release_files(root, split, language, annotation)  # a UserError naming what is missing
        return annotation
    try:
        release_files(root, split, language, "auto")
    except UserError:
        release_files(root, split, language, "gold")  # neither: the error names the gold files
        return "gold"
    return "auto"


def load_conll2012_release(root, split, language="english", annotation="gold"):
    """Every document part of one split of the release, for one language and annotation (`auto` falls
    back to the gold files, with a warning, where the release has no auto files: `read_annotation`)."""
    docs, seen = [], {}
    read = read_annotation(root, split, language, annotation)
    if read != annotation:
        warnings.warn(
            f"{root}: no *_auto_conll files for split {split!r}; reading its *_gold_conll files (gold parses)",
            stacklevel=2,
        )
    for path in release_files(root, split, language, read):
        read = read_conll(path, layout="conll2012")
        if not read:
            warnings.warn(
                f"{path}: no document in the file (an interrupted copy?); the split is read without it", stacklevel=2
            )
        for doc in read:
            if doc.key in seen:
                raise UserError(f"{path}: duplicate document {doc.name!r} (also in {seen[doc.key]})")
            seen[doc.key] = path
            docs.append(doc)
    return docs


def release_files(root, split, language="english", annotation="gold"):
    """The CoNLL files of one split of the release, or the one-line UserError saying what is missing:
    what the workflow checks for every split before any job, and what the import reads."""
    root = require_release_root(root)
    if language not in LANGUAGES:
        raise UserError(f"corpora.conll2012.language {language!r}; expected one of {', '.join(LANGUAGES)}")
    if annotation not in ANNOTATIONS:
        raise UserError(f"corpora.conll2012.annotation {annotation!r}; expected one of {', '.join(ANNOTATIONS)}")
    if split not in SPLIT_DIRS:
        raise UserError(f"split {split!r}; expected one of {', '.join(SPLIT_DIRS)}")
    flat = flat_file(root, split, language, annotation)
    if flat is not None:
        return [flat]
    annotations = annotations_dir(root, split, language, annotation)
    files = sorted(p for p in annotations.rglob(f"*_{annotation}_conll") if p.is_file())
    if not files:
        raise UserError(f"{annotations}: no *_{annotation}_conll files")
    return files


def annotations_dir(root, split, language, annotation="gold"):
    """`<root>/<prefix>/<split dir>/data/<language>/annotations` for the first of RELEASE_PREFIXES
    that exists, or a UserError naming what was looked for."""
    tries = [root.joinpath(*prefix, SPLIT_DIRS[split], "data", language, "annotations") for prefix in RELEASE_PREFIXES]
    for path in tries:
        if path.is_dir():
            return path
    raise UserError(
        f"{root}: no {tries[0].relative_to(root)} (official CoNLL-2012 layout expected; also looked for it under "
        f"{' and '.join('/'.join(prefix) + '/' for prefix in RELEASE_PREFIXES[2:])}, and for one file per split named like "
        f"{split}.{language}.v4_{annotation}_conll)"
    )


def flat_file(root, split, language, annotation):
    """`<root>/<split>.<language>.v4_<annotation>_conll` (dev also as `development.`), or None."""
    names = [split] + ([SPLIT_DIRS[split]] if SPLIT_DIRS[split] != split else [])
    for name in names:
        path = root / f"{name}.{language}.v4_{annotation}_conll"
        if path.is_file():
            return path
    return None
