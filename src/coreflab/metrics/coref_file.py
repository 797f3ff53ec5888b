"""Reading what scoring needs from a CoNLL file: the last column and the document lines.

Why a second reader: the official scorer (v8.01, CorScorer.pm `GetCoreference`) reads only
the `#begin document (id); part NNN` / `#end document` lines and the last column of each
token line, so files with 1, 3, 4, 5 (its own test cases), 12 or 13 columns are all valid
input to it. The project's full reader (`coreflab.corpus.readers.conll`) validates every
CoNLL-2012 column because corpus import uses them; scoring needs none of that. This reader
checks exactly what scoring needs, each failure an `InputFormatError` (`FILE:LINE: what
was expected`, exit status 2 from the CLI):

- UTF-8 text (a leading byte-order mark is stripped, with a `ByteOrderMarkWarning`: v8.01
  keeps it and so misses a `#begin document` on the first line);
- every token line inside `#begin document` ... `#end document`, the two paired, no
  document (doc id, part) twice in a file; a line holding only blanks is an empty line, as
  for v8.01 (`s/^\\s+$//`), not a token;
- the last column is `-`, `_` or coreference items `(N`, `N)`, `(N)` (joined by `|` or
  written back to back), N an integer id; every `N)` closes an open `(N` and every `(N` is
  closed before `#end document`. A last column that is not such a cell (a line without a
  coreference column, as in the reference scorer's own test file TC24.response) is read as
  v8.01 reads any cell, by its `(N)`, `(N`, `N)` patterns (`v801_items`: usually none), with
  one `LooseCellWarning` per file naming the first such line.

Token positions count every line of the document that is not empty, as v8.01 does (so a
`#` comment line inside a document is a token with no coreference cell); a missing `part`
is part 000, as for v8.01 whose document name is then just `(id)`. Items of one cell are
applied as v8.01 does: one-token mentions, then openings, then closings (`0)|(0` closes
the mention opened on this very token).

Speed: the bytes are scanned with numpy (line ends, the last field of each line); cells of
one item (`(12`, `12)`, `(12)`: nearly all of them) are parsed and their brackets paired
vectorised, per (document, id) when openings and closings simply alternate. A document
with anything else (items joined by `|`, nested mentions of one id, a bracket error) goes
through the plain Python reading of its cells, which is also what names the line of an
error.
"""

import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from coreflab.errors import InputFormatError, UserError

_BEGIN = re.compile(r"#\s*begin document\s*(?:\((.*)\)|(.*?))\s*;?\s*(?:part\s+(\d+))?\s*$")
_END = re.compile(r"#\s*end document")
_ITEM = re.compile(r"\([^()|]+\)|\([^()|]+|[^()|]+\)")
_WS = np.zeros(256, dtype=bool)
_WS[[9, 10, 11, 12, 13, 32]] = True
_MAX_DIGITS = 18  # ids that fit int64 are parsed vectorised; longer ones take the Python path


class LooseCellWarning(UserWarning):
    """A token line's last column is not a coreference cell; read by v8.01's pattern scan."""


class ByteOrderMarkWarning(UserWarning):
    """A file starts with a UTF-8 byte-order mark: stripped (v8.01 keeps it)."""


class SkippedFilesWarning(UserWarning):
    """A folder's .txt files skipped: they hold no '#begin document' line (notes, not CoNLL)."""


@dataclass
class CorefFile:
    """The documents of one file (or folder) and their mentions as flat arrays.

    docs[d] = (doc_id, part); mention i lies in document m_doc[i], spans tokens
    m_start[i]..m_end[i] (inclusive, counted from 0 in its document) and belongs to the
    cluster with key m_label[i] within its document.
    """

    source: str
    docs: list
    m_doc: np.ndarray
    m_start: np.ndarray
    m_end: np.ndarray
    m_label: np.ndarray
    # how to read document d's cells again in Python: d -> (reader, local index)
    _cells: object = field(default=None, repr=False)
    _clusters: dict = field(default_factory=dict, repr=False)
    # per document, its name as v8.01 matches documents: the '#begin document ' line's rest, as written
    headers: list = field(default_factory=list, repr=False)
    # per document, its number of tokens (v8.01's token positions: every non-empty line inside it)
    n_tokens: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64), repr=False)
    # per document, the line of its '#begin document' in its file (counted from 1)
    begin_lines: list = field(default_factory=list, repr=False)

    def clusters(self, d):
        """Clusters of document d as lists of (start, end), in v8.01's entity and mention order."""
        if d not in self._clusters:
            self._clusters[d] = self._cells(d)
        return self._clusters[d]

    def cluster_arrays(self):
        """(mention cluster, cluster document): clusters numbered document by document."""
        return group_ids(self.m_doc, self.m_label)


class _Cells:
    """The candidate cells of one file, kept as offsets so only documents read in Python decode them."""

    def __init__(self, data, source, cs, ce, tok, lines, bounds, end_lines):
        self.data, self.source = data, source
        self.cs, self.ce, self.tok, self.lines = cs, ce, tok, lines
        self.bounds, self.end_lines = bounds, end_lines
        self.loose = []  # (line, cell) of every cell read by v8.01's pattern scan

    def __call__(self, d):
        lo, hi = self.bounds[d], self.bounds[d + 1]
        data = self.data
        cells = [data[a:b].decode("utf-8") for a, b in zip(self.cs[lo:hi].tolist(), self.ce[lo:hi].tolist())]
        return _read_cells(
            self.source,
            self.tok[lo:hi].tolist(),
            (self.lines[lo:hi] + 1).tolist(),
            cells,
            self.end_lines[d] + 1,
            self.loose,
        )


def group_ids(doc, label):
    """Number the distinct (doc, label) pairs 0..C-1 in (doc, label) order.

    Returns (id of each pair, document of each id): the ids of one document are contiguous.
    """
    if len(doc) == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    order = _sort_order(label, doc)
    d, lab = doc[order], label[order]
    new = np.ones(len(d), dtype=bool)
    new[1:] = (d[1:] != d[:-1]) | (lab[1:] != lab[:-1])
    ids_sorted = np.cumsum(new) - 1
    ids = np.empty(len(d), dtype=np.int64)
    ids[order] = ids_sorted
    return ids, d[new]


_HAS_BEGIN = re.compile(rb"(?m)^(?:\xef\xbb\xbf)?#\s*begin document")
_BOM = b"\xef\xbb\xbf"


def read_coref_path(path):
    """Read a CoNLL file, or the CoNLL files below a directory (sorted), for scoring.

    A directory's files are those whose names end in `conll` (`.conll`, `_gold_conll`,
    `.v4_auto_conll`, ...) or `.txt`, hidden files and folders (`.name`) left out; a `.txt`
    file holding no `#begin document` line (notes.txt) is skipped with one
    `SkippedFilesWarning` per directory. The files are read as one corpus: a (document, part)
    twice is an error naming both `#begin document` lines.
    """
    path = Path(path)
    if not path.is_dir():
        return read_coref_file(path)
    from coreflab.corpus.readers.conll import CONLL_NAMES, read_file_bytes  # the full reader's file names

    candidates = sorted(
        p
        for p in path.rglob("*")
        if p.name.endswith(CONLL_NAMES)
        and not any(part.startswith(".") for part in p.relative_to(path).parts)
        and p.is_file()
    )
    parts, seen, skipped = [], {}, []
    for f in candidates:
        data = read_file_bytes(f)
        if not f.name.endswith("conll") and not _HAS_BEGIN.search(data):
            skipped.append(f.relative_to(path).as_posix())
            continue
        part = parse_coref_bytes(data, str(f))
        for key, line, header in zip(part.docs, part.begin_lines, part.headers):
            if key in seen:
                raise InputFormatError(f, line, _duplicate_message(header, f, seen[key]))
            seen[key] = (f, line)
        parts.append(part)
    if skipped:
        warnings.warn(
            f"{path}: skipped {len(skipped)} .txt file(s) holding no '#begin document' line, not CoNLL: "
            + ", ".join(skipped[:3])
            + (", ..." if len(skipped) > 3 else ""),
            SkippedFilesWarning,
            stacklevel=2,
        )
    if not parts:
        raise UserError(
            f"{path}: directory holds no CoNLL files (files named *conll, or *.txt with a '#begin document' line)"
        )
    return concatenate(parts, str(path))


def _duplicate_message(header, f, first):
    """Why a folder holds a (document, part) twice, with a hint for a CoNLL-2012 release folder."""
    other, line = first
    message = f"duplicate document {header!r} (also at {other}:{line}); a folder is read as one corpus, each (document, part) once"
    kinds = {name.endswith("_gold_conll") - name.endswith("_auto_conll") for name in (f.name, other.name)}
    if kinds == {1, -1}:
        message += (
            "; a CoNLL-2012 release folder holds both *_gold_conll and *_auto_conll files: point at a file or a "
            "folder holding one kind only (e.g. copy the *_gold_conll files into a folder of their own)"
        )
    return message


def read_coref_file(path):
    """Read one CoNLL file for scoring (a missing file or a folder is a one-line UserError)."""
    from coreflab.corpus.readers.conll import read_file_bytes

    return parse_coref_bytes(read_file_bytes(path), str(path))


def concatenate(files, source):
    """One CorefFile holding the documents of several (document indices shifted)."""
    if len(files) == 1:
        return files[0]
    docs, origin = [], []
    for f in files:
        origin += [(f, d) for d in range(len(f.docs))]
        docs += f.docs
    bases = np.cumsum([0] + [len(f.docs) for f in files[:-1]])
    arrays = [
        np.concatenate([getattr(f, a) + (b if a == "m_doc" else 0) for f, b in zip(files, bases)])
        for a in ("m_doc", "m_start", "m_end", "m_label")
    ]
    return CorefFile(
        source,
        docs,
        *arrays,
        _cells=lambda d: origin[d][0].clusters(origin[d][1]),
        headers=[h for f in files for h in f.headers],
        n_tokens=np.concatenate([f.n_tokens for f in files]),
        begin_lines=[line for f in files for line in f.begin_lines],
    )


def _name(key):
    return f"{key[0]}; part {key[1]:03d}"


def parse_coref_bytes(data, source="<bytes>"):
    """Parse CoNLL bytes (see the module docstring); `source` names the file in errors."""
    if not data.isascii():
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as err:
            line = data.count(b"\n", 0, err.start) + 1
            raise InputFormatError(
                source, line, f"not UTF-8 (byte 0x{data[err.start]:02x}); expected UTF-8 text"
            ) from None
    if data.startswith(_BOM):
        # offsets below count from after the mark; it holds no newline, so line numbers stay right
        data = data[len(_BOM) :]
        warnings.warn(
            f"{source}: starts with a UTF-8 byte-order mark, ignored; the official scorer v8.01 keeps it, so "
            "it would not see a '#begin document' on the first line and would skip that document",
            ByteOrderMarkWarning,
            stacklevel=2,
        )
    n = len(data)
    empty = np.zeros(0, dtype=np.int64)
    if n == 0:
        return CorefFile(source, [], empty, empty, empty, empty)
    buf = np.frombuffer(data, dtype=np.uint8)
    ends = np.flatnonzero(buf == 10)
    if data[-1] != 10:
        ends = np.append(ends, n)
    starts = np.empty_like(ends)
    starts[0] = 0
    starts[1:] = ends[:-1] + 1
    # e: end of each line without trailing blanks (and '\r')
    e = ends.copy()
    idx = np.flatnonzero(e > starts)
    idx = idx[_WS[buf[e[idx] - 1]]]
    while len(idx):
        e[idx] -= 1
        idx = idx[e[idx] > starts[idx]]
        idx = idx[_WS[buf[e[idx] - 1]]]
    filled = e > starts
    hash_first = filled & (buf[np.minimum(starts, n - 1)] == 35)

    plain = np.flatnonzero(filled & ~hash_first)  # lines that can only be token lines
    docs, begin_lines, end_lines = _structure(data, source, np.flatnonzero(hash_first), starts, e, plain)
    headers = [_v801_name(data[starts[b] : ends[b]]) for b in begin_lines]
    n_lines = len(ends)
    doc_at = np.full(n_lines, -1, dtype=np.int64)
    for k, (b, en) in enumerate(zip(begin_lines, end_lines)):
        doc_at[b + 1 : en] = k
    inside = doc_at >= 0
    outside_tokens = np.flatnonzero(filled & ~inside & ~hash_first)
    if len(outside_tokens):
        raise InputFormatError(
            source,
            int(outside_tokens[0]) + 1,
            "token line outside a document; expected '#begin document (id); part N' before it",
        )
    token = inside & filled  # a line of blanks only is an empty line (v8.01: `s/^\s+$//; next if ''`)
    count = np.cumsum(token)
    begin_arr = np.asarray(begin_lines, dtype=np.int64)
    n_tokens = count[np.asarray(end_lines, dtype=np.int64)] - count[begin_arr]
    # a '#' line inside a document counts as a token (v8.01) but has no coreference cell
    cell_line = token & ~hash_first
    last = buf[e - 1]
    lone = (e - starts == 1) | _WS[buf[np.maximum(e - 2, 0)]]
    cell_line &= ~(lone & ((last == 45) | (last == 95)))  # '-' or '_'
    lines = np.flatnonzero(cell_line)
    line_doc = doc_at[lines]
    tok = count[lines] - 1 - count[begin_arr[line_doc]]
    ce = e[lines]
    cs = ce - 1
    active = np.flatnonzero(cs > starts[lines])
    active = active[~_WS[buf[cs[active] - 1]]]
    while len(active):
        cs[active] -= 1
        active = active[cs[active] > starts[lines[active]]]
        active = active[~_WS[buf[cs[active] - 1]]]
    item_cell, labels, kind, simple = _items(data, buf, cs, ce)
    item_doc, item_tok = line_doc[item_cell], tok[item_cell]
    slow = np.zeros(len(docs), dtype=bool)
    slow[item_doc[~simple]] = True
    slow, opening, closing = _pair_brackets(item_doc, labels, kind, item_tok, simple & ~slow[item_doc], slow)
    single = np.flatnonzero((kind == 0) & simple & ~slow[item_doc])
    m_doc = np.concatenate([item_doc[single], item_doc[opening]])
    m_start = np.concatenate([item_tok[single], item_tok[opening]])
    m_end = np.concatenate([item_tok[single], item_tok[closing]])
    m_label = np.concatenate([labels[single], labels[opening]])

    bounds = np.searchsorted(line_doc, np.arange(len(docs) + 1))
    cells = _Cells(data, source, cs, ce, tok, lines, bounds, end_lines)
    result = CorefFile(
        source,
        docs,
        m_doc,
        m_start,
        m_end,
        m_label,
        _cells=cells,
        headers=headers,
        n_tokens=n_tokens,
        begin_lines=[b + 1 for b in begin_lines],
    )
    extra = [[], [], [], []]
    for d in np.flatnonzero(slow).tolist():
        for c, cluster in enumerate(result.clusters(d)):
            for s, t in cluster:
                for out, v in zip(extra, (d, s, t, c)):
                    out.append(v)
    if cells.loose:
        lineno, cell = cells.loose[0]
        warnings.warn(
            f"{source}:{lineno}: last column {cell!r} is not a coreference cell ({len(cells.loose)} such line(s) in "
            "this file); read as the official scorer v8.01 reads it: its '(N)', '(N', 'N)' patterns, if any",
            LooseCellWarning,
            stacklevel=2,
        )
    if extra[0]:
        result.m_doc, result.m_start, result.m_end, result.m_label = (
            np.concatenate([a, np.asarray(x, dtype=np.int64)]) for a, x in zip((m_doc, m_start, m_end, m_label), extra)
        )
    return result


def _v801_name(line):
    """The document name v8.01 matches key and response documents on (CorScorer.pm GetFileNames:
    `^#\\s*begin document (.*?)$` after removing a final '\\r'), trailing blanks and all."""
    text = line.decode("utf-8").removesuffix("\r")
    m = re.match(r"#\s*begin document (.*)$", text)
    return m.group(1) if m else text


def mismatched_headers(key, response):
    """(key name, response name) of the documents matched on (id, part) whose v8.01 names differ:
    v8.01 would find no response for them and score them as empty."""
    names = dict(zip(response.docs, response.headers))
    return [(k, names[d]) for d, k in zip(key.docs, key.headers) if d in names and names[d] != k]


def _shown(names, limit=3):
    return ", ".join(repr(n) for n in names[:limit]) + (", ..." if len(names) > limit else "")


def pairing_warnings(key, response, limit=5):
    """One-line messages on how the documents of `key` and `response` pair up, for stderr.

    The official scorer v8.01 checks none of this and its numbers are kept: a response with
    no documents, key documents it lacks (scored as empty), documents of its own the key
    lacks (ignored), '#begin document' lines v8.01 would not match, and documents whose token
    counts differ (mentions are matched by token position): one message per such document,
    the first `limit` of them, then one counting the rest.
    """
    names = dict(zip(response.docs, response.headers)) | dict(zip(key.docs, key.headers))
    out = []
    in_response = {d: j for j, d in enumerate(response.docs)}
    in_key = set(key.docs)
    missing = [names.get(d, _name(d)) for d in key.docs if d not in in_response]
    if key.docs and not response.docs:
        out.append(
            f"{response.source} holds no documents: all {len(key.docs)} key document(s) are missing from the "
            "response, scored as empty"
        )
    elif missing:
        out.append(
            f"{len(missing)} key document(s) missing from the response, scored as empty (first: {_shown(missing)})"
        )
    extra = [names.get(d, _name(d)) for d in response.docs if d not in in_key]
    if extra:
        out.append(
            f"{len(extra)} response document(s) not in the key, ignored as the official scorer v8.01 ignores them "
            f"(first: {_shown(extra)})"
        )
    differ = mismatched_headers(key, response)
    if differ:
        out.append(
            f"{len(differ)} document(s) matched on (id, part) whose '#begin document' lines differ (first: key "
            f"{differ[0][0]!r}, response {differ[0][1]!r}); the official scorer v8.01 matches these lines as written "
            "and would score such a response as empty"
        )
    if len(key.n_tokens) == len(key.docs) and len(response.n_tokens) == len(response.docs):
        counts = [
            (names.get(d, _name(d)), int(key.n_tokens[i]), int(response.n_tokens[in_response[d]]))
            for i, d in enumerate(key.docs)
            if d in in_response and key.n_tokens[i] != response.n_tokens[in_response[d]]
        ]
        for name, nk, nr in counts[:limit]:
            out.append(
                f"document {name!r} has {nk} tokens in the key and {nr} in the response: mentions are matched by "
                "token position, so scores may be wrong"
            )
        if len(counts) > limit:
            out.append(
                f"... and {len(counts) - limit} more document(s) whose token counts differ between key and response"
            )
    return out


def _structure(data, source, hash_lines, starts, e, plain):
    """Walk the '#' lines: documents (doc_id, part), their '#begin' and '#end' line indices.

    `plain` (sorted indices of the lines that can only be token lines) lets an '#end' with
    no '#begin' be reported at its first token line, the earlier symptom of a missing '#begin'.
    """
    docs, begin_lines, end_lines, seen = [], [], [], {}
    open_doc = None
    last_end = -1
    for li in hash_lines.tolist():
        text = data[starts[li] : e[li]].decode("utf-8")
        m = _BEGIN.match(text)
        if m:
            if open_doc is not None:
                raise InputFormatError(
                    source,
                    li + 1,
                    f"'#begin document' while {_name(open_doc[0])!r} (line {open_doc[1] + 1}) is still open; expected '#end document' first",
                )
            doc_id = (m.group(1) if m.group(1) is not None else m.group(2) or "").strip()
            key = (doc_id or Path(source).name.split(".")[0], int(m.group(3)) if m.group(3) else 0)
            if key in seen:
                raise InputFormatError(
                    source,
                    li + 1,
                    f"duplicate document {_name(key)!r} (first at line {seen[key]}); expected each (document, part) once",
                )
            seen[key] = li + 1
            open_doc = (key, li)
        elif _END.match(text):
            if open_doc is None:
                first = plain[np.searchsorted(plain, last_end + 1) :][:1]
                if len(first) and first[0] < li:
                    raise InputFormatError(
                        source,
                        int(first[0]) + 1,
                        "token line outside a document; expected '#begin document (id); part N' before it",
                    )
                raise InputFormatError(source, li + 1, "'#end document' without a matching '#begin document' before it")
            docs.append(open_doc[0])
            begin_lines.append(open_doc[1])
            end_lines.append(li)
            open_doc = None
            last_end = li
    if open_doc is not None:
        raise InputFormatError(
            source,
            open_doc[1] + 1,
            f"document {_name(open_doc[0])!r} is never closed; expected '#end document' before the end of the file",
        )
    return docs, begin_lines, end_lines


def _items(data, buf, cs, ce):
    """Every coreference item of the cells buf[cs:ce]: (cell, id, kind, parsed vectorised?).

    A cell of one item is its own item; the items of a cell joined by '|' are cut at its
    '|'s (found among the cell's bytes only), so the same vectorised parse reads them. Kind
    is 0 for '(N)', 1 for '(N', 2 for 'N)'.
    """
    labels, kind, simple = _parse_simple(buf, cs, ce)
    multi = np.flatnonzero(~simple)
    if len(multi) == 0:
        return np.arange(len(cs)), labels, kind, simple
    m_cs, m_ce = cs[multi], ce[multi]
    length = m_ce - m_cs
    offset = np.cumsum(length) - length
    pos = np.repeat(m_cs - offset, length) + np.arange(int(length.sum()))
    sep = pos[buf[pos] == 124]
    i_start = np.sort(np.concatenate([m_cs, sep + 1]))
    i_end = np.sort(np.concatenate([sep, m_ce]))
    owner = multi[np.searchsorted(m_cs, i_start, side="right") - 1]
    m_labels, m_kind, m_simple = _parse_simple(buf, i_start, i_end)
    keep = np.flatnonzero(simple)  # the one-item cells, then the items of the others
    return (
        np.concatenate([keep, owner]),
        np.concatenate([labels[keep], m_labels]),
        np.concatenate([kind[keep], m_kind]),
        np.concatenate([simple[keep], m_simple]),
    )


def _parse_simple(buf, cs, ce):
    """Vectorised reading of one-item cells: (id, kind 0 '(N)' / 1 '(N' / 2 'N)', simple?)."""
    last = len(buf) - 1
    filled = ce > cs
    opens = filled & (buf[np.minimum(cs, last)] == 40)
    closes = filled & (buf[np.clip(ce - 1, 0, last)] == 41)
    ds = cs + opens
    nd = ce - closes - ds
    simple = (opens | closes) & (nd >= 1) & (nd <= _MAX_DIGITS)
    simple &= ~((nd > 1) & (buf[np.minimum(ds, last)] == 48))  # '01' is not '1' to v8.01: Python path
    value = np.zeros(len(cs), dtype=np.int64)
    idx = np.flatnonzero(simple)
    k = 0
    while len(idx):
        c = buf[ds[idx] + k].astype(np.int64) - 48
        digit = (c >= 0) & (c <= 9)
        simple[idx[~digit]] = False
        idx, c = idx[digit], c[digit]
        value[idx] = value[idx] * 10 + c
        k += 1
        idx = idx[nd[idx] > k]
    kind = np.where(opens & closes, 0, np.where(opens, 1, 2))
    return value, kind, simple


def _sort_order(*keys):
    """np.lexsort(keys) (last key primary) for non-negative integer keys, as one argsort when they fit 62 bits."""
    bits = [max(int(k.max(initial=0)), 1).bit_length() for k in keys]
    if sum(bits) > 62:
        return np.lexsort(keys)
    combined = np.zeros(len(keys[0]), dtype=np.int64)
    for k, b in zip(reversed(keys), reversed(bits)):
        combined = (combined << b) | k
    return np.argsort(combined, kind="stable")


def _pair_brackets(doc, labels, kind, tok, use, slow):
    """Match every '(N' with its 'N)' per (document, id), last opened first closed, vectorised.

    The items of one (document, id) in token order (openings before closings on a token,
    as v8.01 reads a cell) form a bracket sequence; an opening at nesting depth h is closed
    by the next closing that brings the depth back to h - 1, so sorting the items by
    (id, depth level, position) puts each opening right before its closing. Documents where
    a closing comes with no opening or an opening is never closed are added to `slow`
    (their Python reading names the line). Returns (slow, opening items, closing items).
    """
    sel = np.flatnonzero(use & (kind != 0))
    none = np.zeros(0, dtype=np.int64)
    if len(sel) == 0:
        return slow, none, none
    order = sel[_sort_order(kind[sel], tok[sel], labels[sel], doc[sel])]
    d, lab, k = doc[order], labels[order], kind[order]
    new = np.ones(len(order), dtype=bool)
    new[1:] = (d[1:] != d[:-1]) | (lab[1:] != lab[:-1])
    group = np.cumsum(new) - 1
    step = np.where(k == 1, 1, -1)
    depth = np.cumsum(step)
    depth -= (depth - step)[new][group]  # depth after each item, counted within its group
    last = np.ones(len(order), dtype=bool)
    last[:-1] = new[1:]
    bad = (depth < 0) | (last & (depth != 0))
    slow = slow.copy()
    slow[d[bad]] = True
    good = np.flatnonzero(~slow[d])
    level = np.where(k == 1, depth, depth + 1)[good]
    paired = good[_sort_order(level, group[good])]  # stable: position order within a level
    return slow, order[paired[0::2]], order[paired[1::2]]


def _item_rank(item):
    return 0 if item[0] == "(" and item[-1] == ")" else 1 if item[0] == "(" else 2


def _strict_items(cell):
    """(items in v8.01's order, None) of a well-formed cell, or (None, what is wrong with it)."""
    items = _ITEM.findall(cell)
    if not items or "".join(items) != cell.replace("|", ""):
        return None, (
            f"bad coreference cell {cell!r} in the last column; expected '-' or items '(N', 'N)', '(N)' "
            "joined by '|' (N an integer id)"
        )
    for item in items:
        label = item[1 if item[0] == "(" else 0 : len(item) - 1 if item[-1] == ")" else len(item)]
        if not (label.isascii() and label.isdigit()):
            return None, (
                f"coreference id {label!r} in cell {cell!r} is not an integer; expected '(N', 'N)' or '(N)' with N an integer"
            )
    if len(items) > 1:
        items.sort(key=_item_rank)
    return items, None


_V801_SCANS = (  # CorScorer.pm GetCoreference: each pattern removed leftmost first until none is left
    (re.compile(r"\(\d+\+\d\)"), None),  # "double antecedent": discarded
    (re.compile(r"\((\d+)\)"), "({})"),
    (re.compile(r"\((\d+)"), "({}"),
    (re.compile(r"(\d+)\)"), "{})"),
)


def v801_items(cell):
    """The items v8.01 finds in any cell (`(N)`, then `(N`, then `N)` patterns), in its order."""
    items = []
    for pattern, form in _V801_SCANS:
        while m := pattern.search(cell):
            cell = cell[: m.start()] + cell[m.end() :]
            if form is not None:
                items.append(form.format(m.group(1)))
    return items


def _read_cells(source, tokens, lines, cells, end_line, loose=None):
    """The plain reading of one document's cells, as CorScorer.pm GetCoreference does it.

    Returns the clusters in v8.01's entity order (first appearance of the id) with mentions
    in the order v8.01 pushes them. A cell that is not a coreference cell (no column of it,
    a stray word) is read as v8.01 reads it, by its patterns (`v801_items`), and listed in
    `loose` as (line, cell); raises InputFormatError naming the line of a closing without
    opening (for a cell read loosely: why the cell is bad), or an opening never closed.
    """
    stacks, spans, order = {}, {}, []
    for tok, lineno, cell in zip(tokens, lines, cells):
        if cell in ("-", "_"):
            continue
        items, bad = _strict_items(cell)
        if bad is not None:
            items = v801_items(cell)
            if loose is not None:
                loose.append((lineno, cell))
        for item in items:
            opens = item[0] == "("
            closes = item[-1] == ")"
            label = item[1 if opens else 0 : len(item) - 1 if closes else len(item)]
            if label not in spans:
                spans[label] = []
                order.append(label)
            if opens and closes:
                spans[label].append((tok, tok))
            elif opens:
                stacks.setdefault(label, []).append((tok, lineno))
            else:
                stack = stacks.get(label)
                if not stack:
                    raise InputFormatError(
                        source,
                        lineno,
                        bad
                        or f"closing bracket '{label})' for id {label} that is not open; expected '({label}' on this or an earlier token",
                    )
                spans[label].append((stack.pop()[0], tok))
    for label, stack in stacks.items():
        if stack:
            raise InputFormatError(
                source,
                stack[-1][1],
                f"coreference bracket '({label}' is never closed; expected '{label})' before '#end document' (line {end_line})",
            )
    return [spans[label] for label in order]
