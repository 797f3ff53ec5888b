"""20 Newsgroups (bydate) as item sets of posts with author and thread clusters.

Loaded with scikit-learn: `fetch_20newsgroups` where a network exists, or `load_files` on an
extracted copy (config `doccluster.local_dir`: a folder holding `20news-bydate-train/` and
`20news-bydate-test/`, or the `20news-bydate.tar.xz` archive, which is extracted once into
`resources/20newsgroups/`). The bydate release has no `Date:` headers, so posts are ordered
by article number within their newsgroup (the number grows with arrival time) and item
sets are consecutive windows of that order (default 348 posts, the paper's average).
Clusters: author = the normalised e-mail address of `From:`; thread = `Subject:` lower-cased
without leading `Re:`. Headers are removed from the text the features see.
"""

import re
import tarfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from coreflab.errors import UserError

_EMAIL = re.compile(r"[\w.+-]+@[\w.-]+")
_RE = re.compile(r"^\s*(re\s*:\s*)+", re.IGNORECASE)


@dataclass
class Post:
    group: str
    number: int
    author: str
    thread: str
    body: str


def normalise_author(from_header):
    m = _EMAIL.search(from_header or "")
    return (m.group(0) if m else (from_header or "").strip()).lower()


def normalise_thread(subject):
    return " ".join(_RE.sub("", subject or "").lower().split())


def split_post(raw):
    """(headers dict, body) of a raw Usenet post."""
    head, _, body = raw.partition("\n\n")
    headers = {}
    for line in head.split("\n"):
        key, sep, value = line.partition(":")
        if sep and key and not key.startswith((" ", "\t")):
            headers.setdefault(key.strip().lower(), value.strip())
    return headers, body


def _extracted_root(local_dir, resources="resources"):
    local = Path(local_dir)
    if (local / "20news-bydate-train").is_dir():
        return local
    archive = local / "20news-bydate.tar.xz"
    if not archive.exists():
        raise UserError(
            f"{local}: no 20news-bydate-train/ folder or 20news-bydate.tar.xz; set doccluster.local_dir to a copy "
            "of 20 Newsgroups bydate, or leave it empty to let scikit-learn download it (needs the network)"
        )
    target = Path(resources) / "20newsgroups"
    if not (target / "20news-bydate-train").is_dir():
        tmp = target.with_name(target.name + ".partial")
        tmp.mkdir(parents=True, exist_ok=True)
        with tarfile.open(archive) as tar:
            tar.extractall(tmp, filter="data")
        tmp.rename(target) if not target.exists() else None
    return target


def load_posts(local_dir=None, resources="resources"):
    """Every post (train and test parts) with group, article number, author, thread, body."""
    from sklearn.datasets import fetch_20newsgroups, load_files

    raws = []
    if local_dir:
        root = _extracted_root(local_dir, resources)
        for part in ("20news-bydate-train", "20news-bydate-test"):
            bunch = load_files(root / part, encoding="latin-1", decode_error="replace", shuffle=False)
            for text, fname, target in zip(bunch.data, bunch.filenames, bunch.target):
                raws.append((bunch.target_names[target], int(Path(fname).name), text))
    else:
        try:
            bunch = fetch_20newsgroups(subset="all", shuffle=False, download_if_missing=True)
        except Exception as err:  # network errors differ by platform
            raise UserError(
                f"20 Newsgroups could not be downloaded ({err}); set doccluster.local_dir to a local copy"
            ) from None
        for text, fname, target in zip(bunch.data, bunch.filenames, bunch.target):
            raws.append((bunch.target_names[target], int(Path(fname).name), text))
    posts = []
    for group, number, raw in raws:
        headers, body = split_post(raw)
        posts.append(
            Post(group, number, normalise_author(headers.get("from")), normalise_thread(headers.get("subject")), body)
        )
    posts.sort(key=lambda p: (p.group, p.number))
    return posts


def item_sets(posts, size=348, min_size=None):
    """Consecutive windows of `size` posts within each newsgroup (article-number order)."""
    min_size = size // 2 if min_size is None else min_size
    sets, current = [], []
    for post in posts:
        if current and current[-1].group != post.group:
            if len(current) >= min_size:
                sets.append(current)
            current = []
        current.append(post)
        if len(current) == size:
            sets.append(current)
            current = []
    if len(current) >= min_size:
        sets.append(current)
    return sets


def cluster_ids(items, key):
    """Integer cluster id per post of one item set, by `author` or `thread` (first seen = 0)."""
    seen = {}
    return np.array([seen.setdefault(getattr(p, key), len(seen)) for p in items], dtype=np.int32)
