"""The one CoNLL-2012 reader and writer of coreflab.

Reads `#begin document (id); part NNN` ... `#end document` files (also the 3-column
`# begin document id` variant of GUM) into `Document`s, validating as it goes: every
problem is an `InputFormatError` naming file, line and what was expected. Writing is
atomic (temporary file, then rename), so a failed run never leaves half a file.

Mentions of different clusters may cross ("my host" / "host and hostess" in LitBank):
the official scorer accepts that and so do we; brackets are matched per id, LIFO.

Column layouts:
  conll2012  doc part word# word pos parse lemma frameset sense speaker ne [args...] coref
             (>= 12 columns; LitBank's 13 columns of `_` are this layout with empty columns)
  index_word_coref  3 columns: token index, word, coref (GUM / OntoGUM)
"""

import gc
import os
import re
import tempfile
import warnings
from pathlib import Path

from coreflab.corpus.document import OPTIONAL_COLUMNS, Document, crossing_clusters, writable_clusters
from coreflab.errors import InputFormatError, UserError

_BEGIN = re.compile(r"^#\s*begin document\s*(?:\((.*)\)|(.*?))\s*;?\s*(?:part\s+(\d+))?\s*$")
_END = re.compile(r"^#\s*end document")
_COREF_ITEM = re.compile(r"\([^()|]+\)|\([^()|]+|[^()|]+\)")
_EMPTY_CELL = {"-", "_", ""}
_SPECIAL_LINE = re.compile(r"\n(?=[#\s]|\Z)")  # a newline before a line that is not a token line
_UMASK = os.umask(0)
os.umask(_UMASK)


def read_file_bytes(path):
    """The bytes of a CoNLL file; a missing file or a folder is a one-line UserError."""
    path = Path(path)
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise UserError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise UserError(f"{path}: is a directory, expected a CoNLL file") from None


def read_conll(path, layout="auto"):
    """Read every document part of one CoNLL file (validated; errors name file and line)."""
    path = Path(path)
    data = read_file_bytes(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise InputFormatError(path, line, f"not UTF-8 (byte 0x{data[err.start]:02x}); expected UTF-8 text") from None
    # a UTF-8 byte-order mark (editors on Windows write one) would hide the first '#begin document'
    return parse_conll(text.removeprefix("\ufeff"), str(path), layout)


def parse_conll(text, source="<string>", layout="auto"):
    """Parse CoNLL text (see module docstring); `source` names the file in errors.

    Speed (the target: read + compile >= 200k tokens/s): token lines are not visited one by
    one. A regex finds the rare "special" lines (empty, or starting with '#' or
    whitespace); each run of token lines between two of them (a sentence) goes to
    `_DocBuilder.add_run` as one slice of the text. The cyclic garbage collector is
    paused meanwhile: the reader makes millions of small objects but no reference
    cycles, and the collector's repeated passes over them cost as much as the parsing.
    """
    if not gc.isenabled():
        return _parse_conll(text, source, layout)
    gc.disable()
    try:
        return _parse_conll(text, source, layout)
    finally:
        gc.enable()


def _special_line_starts(text):
    """Offsets of the lines that are empty or start with '#' or whitespace."""
    c = text[:1]
    if not c or c == "#" or c.isspace():
        yield 0
    for m in _SPECIAL_LINE.finditer(text):
        yield m.end()


def _parse_conll(text, source, layout):
    if "\r" in text:  # lines lose their trailing '\r's; offsets and line numbers stay
        text = "\n".join([line.rstrip("\r") for line in text.split("\n")])
    split_runs = "\0" not in text  # add_run marks line ends with NUL
    docs = []
    seen = {}
    builder = None
    run, run_line = 0, 1  # offset and line number of the line after the last special line
    for start in _special_line_starts(text):
        if start > run:  # token lines text[run:start - 1]
            if builder is None:
                raise InputFormatError(
                    source, run_line, "token line outside a document; expected '#begin document (id); part N' first"
                )
            chunk = text[run : start - 1]
            builder.add_run(chunk, run_line, split_runs)
            run_line += chunk.count("\n") + 1
        end = text.find("\n", start)
        if end < 0:
            end = len(text)
        line, lineno = text[start:end], run_line
        run, run_line = end + 1, lineno + 1
        if line[:1] == "#":
            m = _BEGIN.match(line)
            if m:
                if builder is not None:
                    raise InputFormatError(
                        source,
                        lineno,
                        f"'#begin document' while {builder.name!r} (line {builder.begin_line}) is still open; expected '#end document' first",
                    )
                doc_id = (m.group(1) if m.group(1) is not None else m.group(2) or "").strip()
                part = int(m.group(3)) if m.group(3) else 0
                if not doc_id:
                    doc_id = Path(source).name.split(".")[0]
                builder = _DocBuilder(doc_id, part, source, lineno, layout)
                continue
            if _END.match(line):
                if builder is None:
                    raise InputFormatError(source, lineno, "'#end document' without a matching '#begin document'")
                doc = builder.finish(lineno)
                if doc.key in seen:
                    raise InputFormatError(
                        source, builder.begin_line, f"duplicate document {doc.name!r} (first at line {seen[doc.key]})"
                    )
                seen[doc.key] = builder.begin_line
                docs.append(doc)
                builder = None
                continue
            if builder is None or not builder.has_tokens_in_sentence():
                if builder is not None:  # kept, to be written back in place (Document.comments)
                    builder.comments.append((len(builder.words), line))
                continue  # comment line; inside a sentence a '#' line is a token (below)
        if not line.strip():
            if builder is not None:
                builder.end_sentence()
            continue
        if builder is None:
            raise InputFormatError(
                source, lineno, "token line outside a document; expected '#begin document (id); part N' first"
            )
        builder.add_run(line, lineno, split_runs)
    if run < len(text):
        if builder is None:
            raise InputFormatError(
                source, run_line, "token line outside a document; expected '#begin document (id); part N' first"
            )
        builder.add_run(text[run:], run_line, split_runs)
    if builder is not None:
        raise InputFormatError(
            source,
            builder.begin_line,
            f"document {builder.name!r} is never closed; expected '#end document' before end of file",
        )
    return docs


class _DocBuilder:
    """Accumulates the token lines of one document part and validates them."""

    def __init__(self, doc_id, part, source, begin_line, layout):
        self.doc_id, self.part, self.source, self.begin_line = doc_id, part, source, begin_line
        self.layout = layout
        self.words = []
        self.cols = [[] for _ in OPTIONAL_COLUMNS]
        self.args = []
        self.one_tuples = {}  # args value -> (value,)
        self.sentence_ends = []
        self.sentence_first_line = None
        self.sentence_width = None  # column counts the sentence's lines may have: its predicate columns are its own
        self.parse_depth = 0
        self.open = {}  # label -> stack of (token, line)
        self.spans = {}  # label -> list of (start, end)
        self.label_order = []
        self.comments = []  # (next token, line) of the '#' lines between sentences
        self.restart_warned = False  # a word number 0 inside a sentence is named once per document

    @property
    def name(self):
        return f"{self.doc_id}; part {self.part:03d}"

    def has_tokens_in_sentence(self):
        return self.sentence_first_line is not None

    def add_run(self, chunk, first_lineno, split_runs=True):
        """Add a run of consecutive token lines (`chunk`, '\\n'-separated; line `first_lineno` first).

        Same result and same errors as `add_token` on each line in turn, done a run at a
        time: one `split` of the run, with a NUL marking each line end, gives the fields in
        a flat list, and stride slices give the columns. If the lines do not all have the
        same valid number of columns (or the text holds a NUL, `split_runs` False),
        `add_token` replays the run line by line, so errors name the same line as always.
        """
        n = chunk.count("\n") + 1
        width = 0
        if split_runs:
            flat = chunk.replace("\n", " \0 ").split() if n > 1 else chunk.split()
            w = flat.index("\0") if n > 1 else len(flat)
            same = len(flat) == n * (w + 1) - 1 and (n == 1 or flat[w :: w + 1].count("\0") == n - 1)
            # a line ending in a tab has an empty last cell split() does not see: add_token weighs it
            tabbed = "\t\n" in chunk or chunk.endswith("\t")
            if same and not tabbed and (self.sentence_width is None or w in self.sentence_width):
                width = w  # every line has exactly w fields, as the sentence's earlier lines
        layout = self.layout
        if layout == "auto":
            layout = "index_word_coref" if width == 3 else "conll2012"
        step = width + 1
        if layout == "conll2012" and width >= 12:
            words, coref = flat[3::step], flat[width - 1 :: step]
            for k in range(7):
                self.cols[k].extend(flat[4 + k :: step])
            if width == 13:  # one args column: tokens share one 1-tuple per distinct value
                args = flat[11::step]
                self.args.extend(map(self.one_tuples.setdefault, args, zip(args)))
            elif width == 12:
                self.args.extend([()] * n)
            else:
                self.args.extend(zip(*[flat[j::step] for j in range(11, width - 1)]))
            bits = "".join(flat[5::step])
            self.parse_depth += bits.count("(") - bits.count(")")
            self._check_word_numbers(flat[2::step], first_lineno)
        elif layout == "index_word_coref" and width == 3:
            words, coref = flat[1::4], flat[2::4]
        else:
            for k, line in enumerate(chunk.split("\n")):
                self.add_token(line, first_lineno + k)
            return
        self.layout = layout
        if self.sentence_first_line is None:
            self.sentence_first_line = first_lineno
        self.sentence_width = {width}
        tok0 = len(self.words)
        self.words.extend(words)
        for k, cell in enumerate(coref):
            if cell not in _EMPTY_CELL:
                self._coref_cell(cell, tok0 + k, first_lineno + k)

    def _check_word_numbers(self, numbers, first_lineno):
        """Warn (once per document) when the word number column restarts at 0 inside a sentence: a
        blank line lost between two sentences, which are then read as one (sentence distances,
        two parse trees in one sentence). The official layout numbers each sentence's words from 0."""
        if self.restart_warned:
            return
        continued = self.sentence_first_line is not None  # the run continues a sentence begun above
        start = 0 if continued else 1
        if "0" not in numbers[start:]:
            return
        k = numbers.index("0", start)
        first = self.sentence_first_line if continued else first_lineno
        self.restart_warned = True
        warnings.warn(
            f"{self.source}:{first_lineno + k}: word number 0 inside the sentence that starts at line {first} "
            f"(document {self.name!r}); a blank line missing between two sentences? They are read as one",
            stacklevel=2,
        )

    def add_token(self, line, lineno):
        """Add one token line (the reference path; `add_lines` falls back to it on errors)."""
        fields = line.split()
        n = len(fields)
        if self.layout == "auto":
            self.layout = "index_word_coref" if n == 3 else "conll2012"
        if self.layout == "conll2012":
            if n < 12:
                raise InputFormatError(
                    self.source,
                    lineno,
                    f"found {n} columns; expected at least 12 (CoNLL-2012: doc part word# word pos parse lemma frameset sense speaker ne [args] coref)",
                )
            # an empty last cell (LitBank: 'ne<TAB>' and no coreference) is a field split() does not see
            widths = {n, n + line.endswith("\t")}
            if self.sentence_width is not None and not widths & self.sentence_width:
                raise InputFormatError(
                    self.source,
                    lineno,
                    f"found {n} columns where the sentence's line {self.sentence_first_line} has "
                    f"{min(self.sentence_width)}: every line of a sentence has the same columns, so one of the two "
                    "lacks a cell or has one too many (it shifts the speaker, NE and coreference cells)",
                )
            # the widths every line so far allows (a line without the trailing tab settles it)
            self.sentence_width = widths if self.sentence_width is None else self.sentence_width & widths
            word, coref = fields[3], fields[-1]
            for k in range(7):
                self.cols[k].append(fields[4 + k])
            self.args.append(tuple(fields[11:-1]))
            self.parse_depth += fields[5].count("(") - fields[5].count(")")
        elif self.layout == "index_word_coref":
            if n != 3:
                raise InputFormatError(self.source, lineno, f"found {n} columns; expected 3 (index, word, coref)")
            word, coref = fields[1], fields[2]
        else:
            raise UserError(f"unknown CoNLL layout {self.layout!r}")
        if self.sentence_first_line is None:
            self.sentence_first_line = lineno
        tok = len(self.words)
        self.words.append(word)
        if coref not in _EMPTY_CELL:
            self._coref_cell(coref, tok, lineno)

    def _coref_cell(self, cell, tok, lineno):
        if "|" not in cell:  # fast path: one item, "(id)", "(id" or "id)"
            opens = cell[0] == "("
            closes = cell[-1] == ")"
            label = cell[opens : len(cell) - closes]
            if label and (opens or closes) and "(" not in label and ")" not in label:
                self._add_item(label, opens, closes, tok, lineno)
                return
        # Items are joined by '|' (CoNLL-2012) or written back to back (GUM: "(a-1(b-2").
        items = _COREF_ITEM.findall(cell)
        if "".join(items) != cell.replace("|", ""):
            raise InputFormatError(
                self.source, lineno, f"bad coreference cell {cell!r}; expected '(id', 'id)' or '(id)' joined by '|'"
            )
        # The official scorer v8.01 (CorScorer.pm, GetCoreference) reads a cell in three
        # passes: one-token mentions "(id)", then every opening "(id", then every closing
        # "id)". So "0)|(0" closes the mention opened on this very token, not the earlier
        # one; we read cells the same way so both see the same mentions.
        if len(items) > 1:
            items.sort(key=lambda it: 0 if it.startswith("(") and it.endswith(")") else 1 if it.startswith("(") else 2)
        for item in items:
            opens = item.startswith("(")
            closes = item.endswith(")")
            self._add_item(item[1 if opens else 0 : len(item) - 1 if closes else len(item)], opens, closes, tok, lineno)

    def _add_item(self, label, opens, closes, tok, lineno):
        spans = self.spans.get(label)
        if spans is None:
            spans = self.spans[label] = []
            self.label_order.append(label)
        if opens and closes:
            spans.append((tok, tok))
        elif opens:
            self.open.setdefault(label, []).append((tok, lineno))
        else:
            stack = self.open.get(label)
            if not stack:
                raise InputFormatError(
                    self.source, lineno, f"closing bracket '{label})' for id {label!r} that was never opened"
                )
            spans.append((stack.pop()[0], tok))

    def end_sentence(self):
        if self.sentence_first_line is None:
            return
        if self.parse_depth != 0:
            raise InputFormatError(
                self.source,
                self.sentence_first_line,
                f"unbalanced parse brackets in the sentence starting here ({self.parse_depth:+d}); expected a complete tree",
            )
        self.sentence_ends.append(len(self.words))
        self.sentence_first_line = None
        self.sentence_width = None

    def finish(self, end_line):
        self.end_sentence()
        for label, stack in self.open.items():
            if stack:
                tok, line = stack[-1]
                raise InputFormatError(
                    self.source,
                    line,
                    f"coreference bracket '({label}' is never closed; expected '{label})' before '#end document' (line {end_line})",
                )
        columns = {}
        if self.layout == "conll2012":
            for name, values in zip(OPTIONAL_COLUMNS, self.cols):
                columns[name] = None if values.count("_") == len(values) else values
            args = self.args if any(self.args) and not all(a == "_" for t in self.args for a in t) else None
        else:
            columns = {name: None for name in OPTIONAL_COLUMNS}
            args = None
        clusters = [self.spans[label] for label in self.label_order]
        return Document(
            doc_id=self.doc_id,
            part=self.part,
            words=self.words,
            sentence_ends=self.sentence_ends or [len(self.words)],
            columns=columns,
            args=args,
            clusters=clusters,
            cluster_labels=list(self.label_order),
            source=self.source,
            comments=self.comments,
        )


def read_conll_path(path, layout="auto", pattern=None):
    """Read a CoNLL file, or every CoNLL file below a directory (sorted, so order is stable)."""
    path = Path(path)
    if path.is_dir():
        files = sorted(p for p in path.rglob(pattern or "*") if p.is_file() and looks_like_conll(p, pattern))
        if not files:
            raise UserError(f"{path}: directory holds no CoNLL files")
        docs, seen = [], {}
        for f in files:
            for d in read_conll(f, layout):
                if d.key in seen:
                    raise UserError(f"{f}: duplicate document {d.name!r} (also in {seen[d.key]})")
                seen[d.key] = f
                docs.append(d)
        return docs
    if not path.exists():
        raise UserError(f"{path}: no such file or directory")
    return read_conll(path, layout)


CONLL_NAMES = ("conll", ".txt")  # a folder's files read: names ending so (.conll, _gold_conll, .v4_auto_conll, ...)


def looks_like_conll(path, pattern):
    """Whether a folder's file is read: any file a --pattern matched, else a name in CONLL_NAMES."""
    return bool(pattern) or path.name.endswith(CONLL_NAMES)


def coref_column(doc):
    """The coreference cell of every token: closes, then singletons, then opens (LIFO-safe)."""
    n = len(doc.words)
    opens = [[] for _ in range(n)]
    closes = [[] for _ in range(n)]
    singles = [[] for _ in range(n)]
    labels = [str(label) for label in doc.cluster_labels]
    clusters = writable_clusters(doc.clusters)
    if len(clusters) != len(doc.clusters):
        warnings.warn(
            f"{doc.name}: {crossing_clusters(doc.clusters)} cluster(s) cut apart where two of their mentions cross, "
            "which CoNLL-2012 brackets cannot write (a reader would pair the brackets into other spans)",
            stacklevel=2,
        )
    if (
        len(clusters) != len(doc.clusters)
        or not all(label.isdigit() for label in labels)
        or len(set(labels)) != len(labels)
    ):
        # CoNLL-2012 ids are integers (the official scorer dies on others): renumber the clusters
        labels = [str(k) for k in range(len(clusters))]
    for label, cluster in zip(labels, clusters):
        for s, e in cluster:
            if s == e:
                singles[s].append(f"({label})")
            else:
                opens[s].append((e, f"({label}"))
                closes[e].append((s, f"{label})"))
    cells = []
    for t in range(n):
        # close inner (later-starting) spans first; open outer (later-ending) spans first
        items = [x for _, x in sorted(closes[t], key=lambda p: -p[0])]
        items += singles[t]
        items += [x for _, x in sorted(opens[t], key=lambda p: -p[0])]
        cells.append("|".join(items) if items else "-")
    return cells


def format_conll(docs):
    """CoNLL-2012 text for documents (one `_` args column when the document has none: 13 fields)."""
    out = []
    for doc in docs:
        out.append(f"#begin document ({doc.doc_id}); part {doc.part:03d}\n")
        coref = coref_column(doc)
        cols = [doc.columns.get(name) for name in OPTIONAL_COLUMNS]
        comments = iter(doc.comments)
        comment = next(comments, None)
        start = 0
        for end in doc.sentence_ends:
            while comment is not None and comment[0] <= start:
                out.append(comment[1] + "\n")
                comment = next(comments, None)
            for t in range(start, end):
                row = [doc.doc_id, str(doc.part), str(t - start), doc.words[t]]
                row += [c[t] if c is not None else "_" for c in cols]
                row += list(doc.args[t]) if doc.args is not None else ["_"]
                row.append(coref[t])
                out.append("\t".join(row) + "\n")
            out.append("\n")
            start = end
        while comment is not None:
            out.append(comment[1] + "\n")
            comment = next(comments, None)
        out.append("#end document\n")
    return "".join(out)


def write_conll(docs, path):
    """Write documents atomically: a temporary file in the same folder, renamed at the end."""
    atomic_write_text(path, format_conll(docs))


def new_file_mode():
    """The mode open() would give a new file (0644 under umask 022); mkstemp gives 0600.

    The umask is read once at import (reading it means setting it, which is not thread-safe).
    """
    return 0o666 & ~_UMASK


def atomic_write_text(path, text):
    """Write text to path via a temporary file + rename, so readers never see half a file."""
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_bytes(path, data):
    """Write bytes to path via a temporary file + rename, so readers never see half a file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, new_file_mode())  # mkstemp creates 0600; give the file the usual mode
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
