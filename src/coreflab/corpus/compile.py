"""Compile documents into a `CompiledCorpus`: the flat arrays every kernel reads.

One pass over the documents does the per-document work that needs the tree (mention
extraction, heads, syntax strings, embedding); everything per token or per mention that a
table lookup can answer (string ids, type, gender, number, NE) is done afterwards on the
concatenated arrays with numpy, so the only Python work per token is in the reader and a
few list comprehensions (the benchmark in `bench/corpus.py` keeps this honest).

Vocabulary: one list of strings, id 0 the empty string (so m_ne 0 means "none"); words,
lower-cased words, POS tags, speakers, NE labels, genres, full mention strings and syntax
paths all live in it.
"""

import gc

import numpy as np
from numba import njit

from coreflab.corpus.attributes import (
    LexiconTables,
    SyntaxInterner,
    covering_nodes,
    embedding,
    types_genders_numbers,
)
from coreflab.corpus.compiled import ARRAY_FIELDS, CompiledCorpus
from coreflab.corpus.lexicon import NEUTER_NE_TYPES, NUMERIC_NE_TYPES
from coreflab.corpus.mentions import analyse_document, candidate_mentions, gold_mentions, predicted_mentions
from coreflab.corpus.parse_tree import LABELS, label_id
from coreflab.errors import UserError

MENTION_MODES = ("gold", "predicted")
# what compile_documents extracts: the modes, and `candidates`, the mention classifier's superset of
# the predicted mentions (`mentions.candidate_mentions`)
EXTRACTORS = {"gold": None, "predicted": predicted_mentions, "candidates": candidate_mentions}


class Vocab:
    """Strings <-> ids (id 0 is the empty string)."""

    def __init__(self):
        self.strings = [""]
        self.ids = {"": 0}

    def add(self, s):
        i = self.ids.get(s)
        if i is None:
            i = self.ids[s] = len(self.strings)
            self.strings.append(s)
        return i

    def add_many(self, strings):
        ids = self.ids
        for s in dict.fromkeys(strings):
            if s not in ids:
                ids[s] = len(self.strings)
                self.strings.append(s)
        return np.fromiter(map(ids.__getitem__, strings), np.int32, len(strings))

    def optional(self, s):
        return -1 if s is None else self.add(s)


def genre_of(doc_id):
    """OntoNotes genre (the first path component: bc, bn, mz, nw, pt, tc, wb), None if none."""
    return doc_id.split("/", 1)[0] if "/" in doc_id else None


def _cluster_ids(doc, starts, ends):
    """Gold cluster index per mention (the first cluster holding the span, in file order) and
    the in-key flag; twinless spans get fresh ids after the key's clusters."""
    where = {}
    for c, cluster in enumerate(doc.clusters):
        for span in cluster:
            where.setdefault(span, c)
    fresh = len(doc.clusters)
    ids = np.empty(len(starts), np.int32)
    in_key = np.zeros(len(starts), np.int8)
    for i, span in enumerate(zip(starts.tolist(), ends.tolist())):
        c = where.get(span)
        if c is None:
            ids[i] = fresh
            fresh += 1
        else:
            ids[i] = c
            in_key[i] = 1
    return ids, in_key


def compile_documents(docs, name, split, mentions="gold"):
    """Compile `docs` (one split) into a CompiledCorpus (see `coreflab.corpus.compiled`).

    The garbage collector is paused meanwhile: compiling makes millions of small objects
    and no reference cycles, and the collector's scans would cost a third of the time.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _compile_documents(docs, name, split, mentions)
    finally:
        if enabled:
            gc.enable()


def _compile_documents(docs, name, split, mentions):
    if mentions not in EXTRACTORS:
        raise UserError(f"unknown mention mode {mentions!r}; expected one of {', '.join(MENTION_MODES)}")
    vocab = Vocab()
    has = {"pos": False, "parse": False, "speaker": False, "ne": False, "genre": False}
    has_key = any(doc.clusters for doc in docs)
    n_docs = len(docs)
    words, speakers, tok_labels, sent_ends, doc_len, doc_has_pos, doc_has_ne = [], [], [], [], [], [], []
    ne_labels, ne_start, ne_end = [], [], []
    doc_genre = []
    per_m = {k: [] for k in ("start", "end", "head", "cluster", "in_key", "coord", "syntax", "category")}
    syntax = SyntaxInterner()
    offset = 0
    for doc in docs:
        n = len(doc.words)
        a = analyse_document(doc)
        words += doc.words
        doc_len.append(n)
        tok_labels.append(a.tok_label)
        doc_has_pos.append(a.has_pos)
        spk = doc.columns.get("speaker")
        if spk is not None:
            has["speaker"] = True
            speakers += spk
        else:
            speakers += [""] * n
        sent_ends.append(doc.sentence_ends)
        has_ne = doc.columns.get("ne") is not None
        doc_has_ne.append(has_ne)
        if a.ne_labels:
            ne_labels += a.ne_labels
            ne_start.append(a.ne_start + offset)
            ne_end.append(a.ne_end + offset)
        has["ne"] |= has_ne
        has["parse"] |= a.tree is not None
        genre = genre_of(doc.doc_id)
        has["genre"] |= genre is not None
        doc_genre.append(vocab.optional(genre))
        # mentions, heads, syntax
        ms, me = gold_mentions(doc) if mentions == "gold" else EXTRACTORS[mentions](doc, a)
        exact, heads = a.spans_nodes_heads(ms, me)
        k = len(ms)
        per_m["start"].append(ms)
        per_m["end"].append(me)
        per_m["head"].append(heads)
        if has_key:
            cid, ink = _cluster_ids(doc, ms, me)
            per_m["cluster"].append(cid)
            per_m["in_key"].append(ink)
        if a.tree is not None and k:
            nodes = covering_nodes(a.tree, ms, me, exact)
            per_m["coord"].append(a.coordinated[exact] & (exact >= 0))
            per_m["syntax"].append(syntax.ids(a.tree, nodes, a.tok_label))
            per_m["category"].append(np.where(nodes >= 0, a.tree.label[nodes], -1))
        else:
            per_m["coord"].append(np.zeros(k, np.bool_))
            per_m["syntax"].append(np.full((k, 3), -1, np.int64))
            per_m["category"].append(np.full(k, -1, np.int64))
        offset += n
    has["pos"] = any(doc_has_pos)

    arrays = {}
    # documents and sentences
    doc_len = np.asarray(doc_len, np.int64)
    n_sent = np.asarray([len(e) for e in sent_ends], np.int64)
    arrays["doc_parts"] = np.asarray([doc.part for doc in docs], np.int32)
    arrays["doc_genre"] = np.asarray(doc_genre, np.int32)
    arrays["doc_token_offsets"] = tok_off = np.concatenate([[0], np.cumsum(doc_len)])
    arrays["doc_sentence_offsets"] = np.concatenate([[0], np.cumsum(n_sent)])
    m_count = np.asarray([len(x) for x in per_m["start"]], np.int64)
    arrays["doc_mention_offsets"] = m_off = np.concatenate([[0], np.cumsum(m_count)])
    sent_end = np.fromiter((e for ends in sent_ends for e in ends), np.int32, int(n_sent.sum()))
    arrays["sent_end"] = sent_end
    sent_start = sent_end - np.diff(sent_end, prepend=0)
    first = arrays["doc_sentence_offsets"][:-1][n_sent > 0]
    sent_start[first] = 0
    local_sent = np.arange(len(sent_end)) - np.repeat(arrays["doc_sentence_offsets"][:-1], n_sent)
    arrays["tok_sentence"] = np.repeat(local_sent, sent_end - sent_start).astype(np.int32)
    n_tok = len(words)
    if len(arrays["tok_sentence"]) != n_tok:  # sentence ends that do not cover the document
        raise UserError(f"{name}/{split}: sentence boundaries do not cover the tokens of every document")
    sent_initial = np.zeros(n_tok + 1, np.bool_)
    sent_initial[(np.repeat(tok_off[:-1], n_sent) + sent_start)] = True
    sent_initial = sent_initial[:n_tok]

    # tokens
    tok_word = vocab.add_many(words)
    uniq = np.unique(tok_word)
    lower_of = np.zeros(len(vocab.strings), np.int32)
    strings = vocab.strings
    lower_of[uniq] = [vocab.add(strings[i].lower()) for i in uniq.tolist()]
    tok_lower = lower_of[tok_word]
    tok_label = np.concatenate(tok_labels) if tok_labels else np.zeros(0, np.int32)
    label_vocab = np.append(vocab.add_many(list(LABELS)), -1).astype(np.int32)  # label -1 -> -1
    arrays["tok_word"], arrays["tok_lower"] = tok_word, tok_lower
    arrays["tok_pos"] = label_vocab[tok_label] if has["pos"] else np.full(n_tok, -1, np.int32)
    if has["speaker"]:
        spk = vocab.add_many(speakers)
        spk[spk == 0] = -1
        arrays["tok_speaker"] = spk
    else:
        arrays["tok_speaker"] = np.full(n_tok, -1, np.int32)
    tok_ne = np.zeros(n_tok, np.int32)
    tok_ne_name = np.zeros(n_tok, np.bool_)
    if ne_labels:
        ne_ids = vocab.add_many(ne_labels)
        numeric = np.fromiter((lab in NUMERIC_NE_TYPES for lab in ne_labels), np.bool_, len(ne_labels))
        for lab, ok, s, e in zip(
            ne_ids.tolist(), (~numeric).tolist(), np.concatenate(ne_start).tolist(), np.concatenate(ne_end).tolist()
        ):
            tok_ne[s : e + 1] = lab
            tok_ne_name[s : e + 1] = ok

    # mentions
    cat = lambda xs, dt: np.concatenate(xs).astype(dt, copy=False) if xs else np.zeros(0, dt)  # noqa: E731
    m_doc = np.repeat(np.arange(n_docs, dtype=np.int32), m_count)
    m_start, m_end, m_head = (cat(per_m[k], np.int32) for k in ("start", "end", "head"))
    base = tok_off[m_doc]
    g_start, g_end, g_head = base + m_start, base + m_end, base + m_head
    arrays.update(m_doc=m_doc, m_start=m_start, m_end=m_end, m_head=m_head)
    arrays["m_sentence"] = arrays["tok_sentence"][g_start]
    arrays["m_head_str"] = tok_lower[g_head]
    arrays["m_first_str"] = tok_lower[g_start]
    arrays["m_last_str"] = tok_lower[g_end]
    arrays["m_full_str"] = vocab.add_many(
        [" ".join(words[s:e]).lower() for s, e in zip(g_start.tolist(), (g_end + 1).tolist())]
    )
    arrays["m_embedded"] = embedding_rows(m_off, m_start, m_end)
    if has_key:
        arrays["m_cluster"] = cat(per_m["cluster"], np.int32)
        arrays["m_in_key"] = cat(per_m["in_key"], np.int8)
    else:
        arrays["m_cluster"] = np.full(len(m_doc), -1, np.int32)
        arrays["m_in_key"] = np.zeros(len(m_doc), np.int8)
    m_ne = tok_ne[g_head]
    arrays["m_ne"] = m_ne if has["ne"] else np.full(len(m_doc), -1, np.int32)
    entry_vocab = np.append(vocab.add_many(syntax.strings()), -1).astype(np.int32)  # entry -1 -> -1
    sid = np.concatenate(per_m["syntax"]) if per_m["syntax"] else np.zeros((0, 3), np.int64)
    arrays["m_category"] = label_vocab[cat(per_m["category"], np.int64)]
    for j, key in enumerate(("m_subcategory", "m_path_root", "m_path_s")):
        arrays[key] = entry_vocab[sid[:, j]]

    # type / gender / number from per-token lookups
    tables = LexiconTables(vocab.strings, tok_lower)
    is_word = np.zeros(len(vocab.strings), np.bool_)
    is_word[tok_word] = True
    cap = np.zeros(len(vocab.strings), np.bool_)
    cap[uniq] = [strings[i][:1].isupper() for i in uniq.tolist()]
    pos_proper, pos_plural = _pos_tables()
    tok = {
        "lower": tok_lower,
        "cap": cap[tok_word],
        "sent_initial": sent_initial,
        "lower_is_word": is_word[tok_lower],
        "has_pos": np.repeat(np.asarray(doc_has_pos, np.bool_), doc_len),
        "proper": pos_proper[tok_label],
        "plural_pos": pos_plural[tok_label],
        "ne_name": tok_ne_name,
        "ne_any": np.repeat(np.asarray(doc_has_ne, np.bool_), doc_len),
    }
    neuter_ids = [vocab.ids[t] for t in NEUTER_NE_TYPES if t in vocab.ids]
    ne_neuter = np.isin(m_ne, neuter_ids) if neuter_ids else np.zeros(len(m_ne), np.bool_)
    m_type, m_gender, m_number = types_genders_numbers(
        g_start, g_end, g_head, tok, tables, ne_neuter, cat(per_m["coord"], np.bool_)
    )
    arrays.update(m_type=m_type, m_gender=m_gender, m_number=m_number)
    arrays["m_pronoun"] = np.where(m_type == 1, arrays["m_head_str"], -1).astype(np.int32)

    missing = [k for k in ("pos", "parse", "speaker", "ne", "genre") if not has[k]]
    if not has_key:
        missing.append("key")
    arrays = {k: np.asarray(arrays[k], dtype=dt) for k, dt in ARRAY_FIELDS.items()}
    return CompiledCorpus(
        name=name,
        split=split,
        doc_ids=[doc.doc_id for doc in docs],
        vocab=vocab.strings,
        missing=missing,
        arrays=arrays,
    )


@njit(cache=True)
def embedding_rows(doc_off, m_start, m_end):
    """`attributes.embedding` per document, as global rows (-1 none)."""
    out = np.full(m_start.shape[0], -1, np.int32)
    for d in range(doc_off.shape[0] - 1):
        lo, hi = doc_off[d], doc_off[d + 1]
        local = embedding(m_start[lo:hi], m_end[lo:hi])
        for i in range(hi - lo):
            if local[i] >= 0:
                out[lo + i] = local[i] + lo
    return out


def _pos_tables():
    """(proper noun, plural) flags over POS label ids, with a spare last entry for -1."""
    proper = np.zeros(len(LABELS) + 1, np.bool_)
    plural = np.zeros(len(LABELS) + 1, np.bool_)
    for tag, (pr, pl) in (("NNP", (1, 0)), ("NNPS", (1, 1)), ("NNS", (0, 1))):
        i = label_id(tag)
        proper[i], plural[i] = pr, pl
    return proper, plural


__all__ = ["compile_documents", "embedding_rows", "Vocab", "MENTION_MODES", "genre_of"]
