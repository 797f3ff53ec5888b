"""Constituents from CoNLL-2012 parse bits, as flat arrays (one document at a time).

A CoNLL parse bit holds the part of the bracketed tree at one token: `(TOP(S(NP*`, `*)`,
`*))`; the `*` is the token (its POS is the preterminal). The same bracket code also reads
the NE column (`(PERSON*`, `*`, `*)`, `(GPE)`), where there is no `*` and spans are what
matters. The scan runs in numba over the document's bits joined by spaces, so a document
costs one regular-expression pass (labels) and one compiled loop, not Python work per token.

Nodes are numbered in pre-order (the order of their opening brackets). Labels are interned
in one process-wide table (`LABEL_IDS`) shared with POS tags, so head rules compare integers.
Bits that are `-` or `_` carry no brackets: a document whose bits are all such has no tree
(`parse_document` returns None).
"""

import re
from dataclasses import dataclass
from itertools import repeat

import numpy as np
from numba import njit

_LABEL = re.compile(r"\(([^()*\s]*)")

# label string -> id, shared by constituent labels and POS tags (grows as labels appear)
LABELS = []
LABEL_IDS = {}


def label_id(label):
    """The id of a label (function tags like NP-SBJ or NP=2 reduced to NP)."""
    if label and label[0] != "-":
        label = label.split("-", 1)[0].split("=", 1)[0] or label
    i = LABEL_IDS.get(label)
    if i is None:
        i = LABEL_IDS[label] = len(LABELS)
        LABELS.append(label)
    return i


def label_ids(labels):
    """Ids of many labels (unknown ones are interned)."""
    out = np.fromiter(map(LABEL_IDS.get, labels, repeat(-1)), np.int32, len(labels))
    if (out < 0).any():
        out = np.fromiter(map(label_id, labels), np.int32, len(labels))
    return out


@dataclass
class Tree:
    """The constituents of one document (all sentences; roots have parent -1).

    label, start, end (inclusive token indices), parent: one entry per node, in pre-order.
    tok_parent: per token, the innermost node above it (-1 outside any node).
    child_off, child_item: children of node n are child_item[child_off[n]:child_off[n+1]],
      in textual order; an item >= 0 is a node, an item < 0 is the token -(item + 1).
    post_order: nodes in the order their brackets close (children before parents).
    """

    label: np.ndarray
    start: np.ndarray
    end: np.ndarray
    parent: np.ndarray
    tok_parent: np.ndarray
    child_off: np.ndarray
    child_item: np.ndarray
    post_order: np.ndarray

    @property
    def n_nodes(self):
        return int(self.label.shape[0])

    def label_str(self, n):
        return LABELS[self.label[n]]

    def spans(self):
        """[(label, start, end)] of every node, for tests and debugging."""
        return [(LABELS[l], int(s), int(e)) for l, s, e in zip(self.label, self.start, self.end)]


@njit(cache=True)
def _scan(codes, n_tokens, n_nodes):
    start = np.full(n_nodes, -1, np.int32)
    end = np.full(n_nodes, -1, np.int32)
    parent = np.full(n_nodes, -1, np.int32)
    tok_parent = np.full(n_tokens, -1, np.int32)
    post = np.full(n_nodes, -1, np.int32)
    pair_parent = np.empty(n_nodes + n_tokens, np.int32)
    pair_item = np.empty(n_nodes + n_tokens, np.int32)
    stack = np.empty(n_nodes + 1, np.int32)
    depth = 0
    tok = 0
    node = 0
    n_post = 0
    n_pairs = 0
    for c in codes:
        if c == 32:  # ' ' separates tokens
            tok += 1
        elif c == 40:  # '('
            if node >= n_nodes:
                continue
            start[node] = tok
            if depth > 0:
                parent[node] = stack[depth - 1]
                pair_parent[n_pairs] = stack[depth - 1]
                pair_item[n_pairs] = node
                n_pairs += 1
            stack[depth] = node
            depth += 1
            node += 1
        elif c == 42:  # '*': the token itself
            if depth > 0 and tok < n_tokens:
                tok_parent[tok] = stack[depth - 1]
                pair_parent[n_pairs] = stack[depth - 1]
                pair_item[n_pairs] = -(tok + 1)
                n_pairs += 1
        elif c == 41:  # ')'
            if depth > 0:
                depth -= 1
                top = stack[depth]
                end[top] = tok
                post[n_post] = top
                n_post += 1
    return start, end, parent, tok_parent, post[:n_post], pair_parent[:n_pairs], pair_item[:n_pairs]


def scan_brackets(bits):
    """Bracketed spans of per-token bits: (labels list, start, end, parent, tok_parent, post,
    pair_parent, pair_item). Unclosed spans have end -1."""
    joined = " ".join(bits)
    labels = _LABEL.findall(joined)
    codes = np.frombuffer(joined.encode("utf-8"), dtype=np.uint8)
    return (labels,) + _scan(codes, len(bits), len(labels))


def parse_document(parse_bits):
    """The Tree of a document's parse column, or None when it has no brackets."""
    if parse_bits is None:
        return None
    labels, start, end, parent, tok_parent, post, pair_parent, pair_item = scan_brackets(parse_bits)
    if not labels:
        return None
    keep_closed = end >= 0
    if not keep_closed.all():  # unbalanced input (the reader rejects it; be safe anyway)
        end = np.where(keep_closed, end, len(parse_bits) - 1).astype(np.int32)
    order = np.argsort(pair_parent, kind="stable")
    counts = np.bincount(pair_parent, minlength=len(labels))
    child_off = np.zeros(len(labels) + 1, dtype=np.int64)
    np.cumsum(counts, out=child_off[1:])
    return Tree(
        label=label_ids(labels),
        start=start,
        end=end,
        parent=parent,
        tok_parent=tok_parent,
        child_off=child_off,
        child_item=pair_item[order].astype(np.int32),
        post_order=post,
    )


def ne_spans(ne_bits):
    """Named-entity spans of a document's NE column: (labels list, start, end) with unclosed
    brackets dropped; ([], empty, empty) when the column is absent."""
    if ne_bits is None:
        return [], np.zeros(0, np.int32), np.zeros(0, np.int32)
    labels, start, end = scan_brackets(ne_bits)[:3]
    if labels and (end < 0).any():
        ok = end >= 0
        labels = [l for l, k in zip(labels, ok) if k]
        start, end = start[ok], end[ok]
    return labels, start, end
