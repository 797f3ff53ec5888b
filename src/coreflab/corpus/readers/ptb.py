"""Penn Treebank bracketed trees -> CoNLL-2012 parse bits.

GUM ships constituency trees (`const/*.ptb`) separately from its coreference layer; the
CoNLL-2012 format (Pradhan et al., CoNLL 2012 shared task, Sec. 2) stores a tree as one
"parse bit" per token: the brackets opened before the token, `*` for the token, and the
brackets closed after it, e.g. `(TOP(S(NP*` `*)`. Part-of-speech and words live in their own
columns, so preterminals become `*`.

Normalisation follows the CoNLL-2012 release: the root is `TOP`, function tags and indices
are dropped (`NP-SBJ` -> `NP`, `NP=2` -> `NP`; `-NONE-`, `-LRB-` stay). Leaves keep their
PTB escapes (`-LRB-`), `unescape_ptb` turns them back into the text's characters (also
inside tokens: `friend-LRB-s-RRB-` -> `friend(s)`), which is how leaves are aligned with
the words of the other layers.
"""

import bisect
import re

from coreflab.errors import InputFormatError

_TOKEN = re.compile(r"\(\s*([^\s()]+)\s+([^\s()]+)\s*\)|(\(|\)|[^\s()]+)")
_ESCAPES = {"-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-LCB-": "{", "-RCB-": "}"}
_ESCAPE_RE = re.compile("|".join(re.escape(k) for k in _ESCAPES))


def unescape_ptb(word):
    """The text form of a PTB leaf: `-LRB-` -> `(`, `-RSB-` -> `]`, also inside a token."""
    return _ESCAPE_RE.sub(lambda m: _ESCAPES[m.group(0)], word)


def normalise_label(label):
    """CoNLL-2012 constituent label: `ROOT` -> `TOP`, no function tags or indices."""
    if label in ("ROOT", ""):
        return "TOP"
    if label.startswith("-"):  # -NONE-, -LRB- as phrase-level labels
        return label
    return re.split(r"[-=]", label, maxsplit=1)[0] or label


class ParsedTree:
    """One sentence tree as the CoNLL columns need it: leaves, their tags and parse bits."""

    __slots__ = ("leaves", "tags", "bits", "line")

    def __init__(self, leaves, tags, bits, line):
        self.leaves, self.tags, self.bits, self.line = leaves, tags, bits, line


def parse_ptb(text, source="<string>"):
    """Every tree of a PTB file as `ParsedTree`s, in order (errors name file and line).

    The scan works on tokens, not lines, so a tag and its word on separate lines (as the
    GUM pretty-printer sometimes writes them) parse the same as on one line.
    """
    newlines = []

    def line_of(pos):  # only for tree starts and errors, so the offsets are built lazily
        if not newlines:
            newlines.extend(m.start() for m in re.finditer("\n", text))
            newlines.append(len(text))
        return bisect.bisect_right(newlines, pos - 1) + 1 if pos else 1

    trees = []
    stack = []  # labels of the open constituents
    leaves, tags, bits = [], [], []
    pending = ""  # brackets opened before the next leaf
    labels = {}  # label -> "(" + normalised label (memo)
    tree_start = 0
    expect_label = False
    for m in _TOKEN.finditer(text):
        tag, word, tok = m.group(1, 2, 3)
        if tag is not None:  # a preterminal (TAG word)
            if not stack:
                raise InputFormatError(
                    source, line_of(m.start()), "a bare (TAG word) outside a tree; expected '(ROOT ...' first"
                )
            if expect_label:  # "( (TAG word)": an unlabelled constituent
                pending += "(TOP"
                expect_label = False
            tags.append(tag)
            leaves.append(word)
            bits.append(pending + "*")
            pending = ""
        elif tok == "(":
            if expect_label:
                pending += "(TOP"  # an unlabelled wrapper "( (S ...) )" is TOP
            if not stack:
                tree_start = m.start()
            stack.append(m.start())
            expect_label = True
        elif tok == ")":
            if expect_label:
                raise InputFormatError(
                    source, line_of(m.start()), "empty brackets '()'; expected a constituent label or a (TAG word) leaf"
                )
            if not stack:
                raise InputFormatError(source, line_of(m.start()), "')' without an open bracket")
            stack.pop()
            if not bits or pending:
                raise InputFormatError(
                    source, line_of(m.start()), "constituent without words; expected at least one (TAG word) leaf"
                )
            bits[-1] += ")"
            if not stack:
                trees.append(ParsedTree(leaves, tags, bits, line_of(tree_start)))
                leaves, tags, bits = [], [], []
        elif expect_label:
            norm = labels.get(tok)
            if norm is None:
                norm = labels[tok] = "(" + normalise_label(tok)
            pending += norm
            expect_label = False
        else:
            raise InputFormatError(source, line_of(m.start()), f"word {tok!r} outside a (TAG word) leaf; expected '('")
    if stack:
        raise InputFormatError(
            source, line_of(tree_start), f"tree never closed ({len(stack)} open brackets at end of file)"
        )
    return trees
