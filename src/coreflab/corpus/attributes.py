"""Mention attributes: type, gender, number, NE type, strings, syntax, embedding.

Codes as in `coreflab.corpus.compiled`. The rules (Bengtson & Roth 2008; Lee et al. 2013,
Sec. 3.2 of the Stanford sieve paper, reduced to what a small lexicon supports):
  type    pronoun: a one-token mention whose word is in the pronoun table;
          name: head POS NNP/NNPS, or head inside a non-numeric NE span, or -- without POS and
          NE -- a capitalised head that is not a sentence-initial word also seen lower-cased
          in the corpus ("The"/"Mother" at a sentence start are not names, "Dracula" is);
          common noun phrase otherwise.
  gender  pronouns from the table; names: neuter for ORG/GPE/LOC/... NEs, else the gender of
          an honorific (Mr., Mrs.) or listed first name among the tokens up to the head;
          common nouns: the gendered-noun table (man, queen, ...), else unknown.
  number  pronouns from the table; names singular (plural if POS NNPS); common nouns from POS
          (NNS/NNPS plural), else the plural heuristic of `lexicon.looks_plural`; a coordinated
          NP (a CC child) is plural.
Syntax (needs a parse): the mention's node is the highest node spanning it exactly, else the
lowest node covering it; category = its label, subcategory = its children's labels, path to
root and path to the nearest clause (S, SINV, SQ, SBARQ) = labels joined by '>'.
"""

import numpy as np
from numba import njit

from coreflab.corpus import lexicon
from coreflab.corpus.compiled import (
    GENDER_NEUTER,
    NUMBER_PLURAL,
    NUMBER_SINGULAR,
    TYPE_COMMON,
    TYPE_NAME,
    TYPE_PRONOUN,
)
from coreflab.corpus.parse_tree import LABEL_IDS, LABELS

_CLAUSE = frozenset(("S", "SINV", "SQ", "SBARQ"))


class LexiconTables:
    """Per-vocabulary-id lookups of the lexicon (filled only for the ids asked for)."""

    def __init__(self, vocab, ids):
        size = len(vocab)
        self.pron = np.zeros(size, np.bool_)
        self.pron_gender = np.zeros(size, np.int8)
        self.pron_number = np.zeros(size, np.int8)
        self.noun_gender = np.zeros(size, np.int8)
        self.first_name = np.zeros(size, np.int8)
        self.honorific = np.full(size, -1, np.int8)
        self.plural = np.zeros(size, np.bool_)
        for i in np.unique(ids).tolist():
            w = vocab[i]
            p = lexicon.PRONOUNS.get(w)
            if p is not None and w != "one":
                self.pron[i] = True
                self.pron_gender[i] = p[1]
                self.pron_number[i] = p[2]
            self.noun_gender[i] = lexicon.GENDERED_NOUNS.get(w, 0)
            self.first_name[i] = lexicon.FIRST_NAMES.get(w, 0)
            h = lexicon.HONORIFICS.get(w)
            if h is not None:
                self.honorific[i] = h
            self.plural[i] = lexicon.looks_plural(w)


@njit(cache=True)
def _name_genders(g_start, g_head, tok_hon, tok_fname):
    out = np.zeros(g_start.shape[0], np.int8)
    for i in range(g_start.shape[0]):
        for t in range(g_start[i], g_head[i] + 1):
            if tok_hon[t] > 0:
                out[i] = tok_hon[t]
                break
            if tok_hon[t] < 0 and tok_fname[t] > 0:
                out[i] = tok_fname[t]
                break
    return out


def types_genders_numbers(g_start, g_end, g_head, tok, tables, ne_neuter, coordinated):
    """m_type, m_gender, m_number of mentions given global token positions.

    tok: dict of global per-token arrays: lower (vocab ids), cap (capitalised word),
    sent_initial, lower_is_word, has_pos, proper (POS NNP/NNPS), plural_pos (NNS/NNPS),
    noun_pos (any NN*), ne_name (inside a non-numeric NE), ne_any (NE column present).
    ne_neuter: per mention, head inside an ORG/GPE/... NE. coordinated: per mention flag.
    """
    lower_h = tok["lower"][g_head]
    pron = (g_start == g_end) & tables.pron[lower_h]
    has_pos = tok["has_pos"][g_head]
    guess = (
        ~has_pos
        & ~tok["ne_any"][g_head]
        & tok["cap"][g_head]
        & ~(tok["sent_initial"][g_head] & tok["lower_is_word"][g_head])
    )
    name = ~pron & ((has_pos & tok["proper"][g_head]) | tok["ne_name"][g_head] | guess)
    m_type = np.full(len(g_start), TYPE_COMMON, np.int8)
    m_type[name] = TYPE_NAME
    m_type[pron] = TYPE_PRONOUN

    gender = tables.noun_gender[lower_h].copy()
    gender[pron] = tables.pron_gender[lower_h[pron]]
    lower = tok["lower"]
    name_g = _name_genders(g_start[name], g_head[name], tables.honorific[lower], tables.first_name[lower])
    name_g[ne_neuter[name]] = GENDER_NEUTER
    gender[name] = name_g

    number = np.full(len(g_start), NUMBER_SINGULAR, np.int8)
    common = m_type == TYPE_COMMON
    plural = np.where(has_pos, tok["plural_pos"][g_head], tables.plural[lower_h])
    number[(common | name) & plural] = NUMBER_PLURAL
    number[~pron & coordinated] = NUMBER_PLURAL
    number[pron] = tables.pron_number[lower_h[pron]]
    return m_type, gender, number


# Syntax strings are interned through a trie shared by the whole compile call: an entry is
# (kind, label, parent entry) -> entry id, so a path string is built once per distinct path,
# not once per mention. Kinds: 0 a '>'-path (node label, then the path above), 1 a child list.
_KIND_SHIFT, _LABEL_SHIFT = 60, 36


@njit(cache=True)
def _intern(table, entries, n_entries, kind, label, parent):
    """Entry id of (kind, label, parent) in an open-addressing hash table (keys, values as
    `table[:, 0]`, `table[:, 1]`; size a power of two; -1 marks a free slot). Returns -2 when
    `entries` is full (the caller grows both and retries)."""
    key = (np.int64(kind) << _KIND_SHIFT) | (np.int64(label) << _LABEL_SHIFT) | np.int64(parent + 1)
    mask = table.shape[0] - 1
    h = (key * np.int64(-7046029254386353131)) >> 20
    slot = h & mask
    while table[slot, 0] != -1:
        if table[slot, 0] == key:
            return table[slot, 1], n_entries
        slot = (slot + 1) & mask
    if n_entries >= entries.shape[0]:
        return -2, n_entries
    table[slot, 0] = key
    table[slot, 1] = n_entries
    entries[n_entries, 0] = kind
    entries[n_entries, 1] = label
    entries[n_entries, 2] = parent
    return n_entries, n_entries + 1


@njit(cache=True)
def _rehash(entries, n_entries, size):
    table = np.full((size, 2), -1, np.int64)
    for i in range(n_entries):
        _intern(table, entries, i, entries[i, 0], entries[i, 1], entries[i, 2])
    return table


@njit(cache=True)
def _syntax_ids(nodes, label, parent, child_off, child_item, tok_label, is_clause, table, entries, n_entries):
    """Trie ids of (category label, subcategory, path to root, path to clause) per mention node."""
    n_nodes = label.shape[0]
    need = np.zeros(n_nodes, np.bool_)
    for k in nodes:
        while k >= 0 and not need[k]:
            need[k] = True
            k = parent[k]
    root = np.full(n_nodes, -1, np.int64)
    up = np.full(n_nodes, -1, np.int64)
    for k in range(n_nodes):  # pre-order: parents first
        if not need[k]:
            continue
        p = parent[k]
        root[k], n_entries = _intern(table, entries, n_entries, 0, label[k], root[p] if p >= 0 else -1)
        up_parent = -1 if (is_clause[label[k]] or p < 0) else up[p]
        up[k], n_entries = _intern(table, entries, n_entries, 0, label[k], up_parent)
    out = np.full((nodes.shape[0], 3), -1, np.int64)
    for i in range(nodes.shape[0]):
        k = nodes[i]
        if k < 0:
            continue
        p = parent[k]
        out[i, 1] = root[k]
        out[i, 2], n_entries = _intern(table, entries, n_entries, 0, label[k], up[p] if p >= 0 else -1)
        sub = -1
        for c in range(child_off[k], child_off[k + 1]):
            it = child_item[c]
            lab = label[it] if it >= 0 else tok_label[-(it + 1)]
            sub, n_entries = _intern(table, entries, n_entries, 1, lab if lab >= 0 else 0xFFFFF, sub)
        out[i, 0] = sub
    return out, n_entries


class SyntaxInterner:
    """Interns the syntax strings of mentions across the documents of one compile call."""

    def __init__(self):
        self.entries = np.zeros((1 << 15, 3), np.int64)
        self.table = np.full((1 << 16, 2), -1, np.int64)  # twice the entries: load <= 1/2
        self.n = 0
        self.clause = np.zeros(1, np.bool_)

    def _clause_table(self):
        if self.clause.shape[0] != len(LABELS) + 1:
            self.clause = np.zeros(len(LABELS) + 1, np.bool_)
            for lab in _CLAUSE:
                if lab in LABEL_IDS:
                    self.clause[LABEL_IDS[lab]] = True
        return self.clause

    def ids(self, tree, nodes, tok_label):
        """Per mention node: trie ids of (subcategory, path to root, path to clause), -1 none."""
        nodes = np.asarray(nodes, np.int64)
        clause = self._clause_table()
        while True:
            out, n = _syntax_ids(
                nodes,
                tree.label,
                tree.parent,
                tree.child_off,
                tree.child_item,
                np.asarray(tok_label, np.int32),
                clause,
                self.table,
                self.entries,
                self.n,
            )
            if (out != -2).all():
                self.n = n
                return out
            self.n = n  # grow and redo (entries already interned stay valid)
            self.entries = np.concatenate([self.entries, np.zeros_like(self.entries)])
            self.table = _rehash(self.entries, self.n, 2 * self.entries.shape[0])

    def strings(self):
        """The string of every trie entry (index = entry id)."""
        out = []
        for kind, lab, parent in self.entries[: self.n].tolist():
            name = LABELS[lab] if lab < len(LABELS) else "?"
            if parent < 0:
                out.append(name)
            elif kind == 0:
                out.append(name + ">" + out[parent])
            else:
                out.append(out[parent] + " " + name)
        return out


def covering_nodes(tree, starts, ends, exact):
    """`exact` (highest exact node or -1) completed by the lowest node covering each span."""
    return _covering(
        tree.parent,
        tree.end,
        tree.tok_parent,
        np.asarray(starts, np.int32),
        np.asarray(ends, np.int32),
        np.asarray(exact, np.int32),
    )


@njit(cache=True)
def _covering(parent, end, tok_parent, starts, ends, exact):
    nodes = exact.copy()
    for i in range(nodes.shape[0]):
        if nodes[i] < 0:
            k = tok_parent[starts[i]]
            while k >= 0 and end[k] < ends[i]:
                k = parent[k]
            nodes[i] = k
    return nodes


@njit(cache=True)
def embedding(m_start, m_end):
    """Per mention (sorted by start, end) the index of the smallest other mention enclosing
    it, -1 none (ties: the earliest)."""
    n = m_start.shape[0]
    out = np.full(n, -1, np.int32)
    for i in range(n):
        best = -1
        best_len = 1 << 30
        for j in range(n):
            if m_start[j] > m_start[i]:
                break
            if j != i and m_end[j] >= m_end[i] and (m_start[j] < m_start[i] or m_end[j] > m_end[i] or j < i):
                ln = m_end[j] - m_start[j]
                if ln < best_len:
                    best_len = ln
                    best = j
        out[i] = best
    return out


__all__ = ["LexiconTables", "types_genders_numbers", "covering_nodes", "embedding", "SyntaxInterner"]
