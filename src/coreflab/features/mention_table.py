"""Per-mention attribute table: one int32 row per mention, what every template reads.

Why: templates run inside one numba kernel, which wants one small contiguous row per
mention (a few cache lines) rather than twenty separate arrays and token look-ups per
arc. Everything that depends on one mention only (preceding/following token, head POS,
head speaker, acronym keys, bucketed length, document genre) is computed here once per
mention, in numba over the flat `CompiledCorpus` arrays; pair templates then compare
rows. -1 in a cell means "no value" (the template emits no feature for that arc).

Acronyms (the `alias` template, after Soon et al. 2001 / Björkelund & Farkas 2012): a
name mention's acronym is the sequence of the capitalised initials of its words
("Drug Emporium Inc." → DEI); a one-token mention written in capitals ("DEI", "D.E.I.")
has its letters as self-acronym. Both are hashed with the same chain so they compare
as integers.
"""

import numpy as np
from numba import njit

from coreflab.corpus.compiled import TYPE_NAME
from coreflab.features.hashing import hash_start, hash_step

BOS, EOS = -2, -3  # preceding/following token at a sentence boundary

# column indices
COLUMNS = [
    "type", "gender", "number", "ne", "head", "head_pos", "first", "last", "full",
    "prev", "next", "length", "pronoun", "category", "subcategory", "path_root",
    "path_s", "embedded", "genre", "speaker", "sentence", "start", "end", "head_tok",
    "tok_base", "acro", "self_acro", "head_lower",
]
COL = {name: k for k, name in enumerate(COLUMNS)}
(C_TYPE, C_GENDER, C_NUMBER, C_NE, C_HEAD, C_HEAD_POS, C_FIRST, C_LAST, C_FULL,
 C_PREV, C_NEXT, C_LENGTH, C_PRONOUN, C_CAT, C_SUBCAT, C_PATH_ROOT, C_PATH_S,
 C_EMBEDDED, C_GENRE, C_SPEAKER, C_SENT, C_START, C_END, C_HEAD_TOK, C_TOK_BASE,
 C_ACRO, C_SELF_ACRO, C_HEAD_LOWER) = range(len(COLUMNS))

_ACRO_SEED = 0x416372  # "Acr"


@njit(cache=True)
def bucket(d):
    """Distance / length bucket: 0,1,2,3,4 exact, then <8, <12, <20, rest (B&K 2014 §6.1)."""
    if d < 5:
        return d
    if d < 8:
        return 5
    if d < 12:
        return 6
    if d < 20:
        return 7
    return 8


def vocab_letters(vocab):
    """Per vocabulary entry: capital initial (ord, 0 if none) and, for words written in
    capitals (2-8 letters, periods allowed: "IBM", "U.S."), their letters as CSR arrays."""
    n = len(vocab)
    initial = np.zeros(n, dtype=np.int32)
    offsets = np.zeros(n + 1, dtype=np.int64)
    letters = []
    for k, w in enumerate(vocab):
        if w and w[0].isupper() and w[0].isalpha():
            initial[k] = ord(w[0])
        core = w.replace(".", "")
        if 2 <= len(core) <= 8 and core.isalpha() and core.isupper():
            letters.extend(ord(c) for c in core)
        offsets[k + 1] = len(letters)
    return initial, offsets, np.asarray(letters, dtype=np.int32)


@njit(cache=True)
def _fold(h):
    return np.int32(h >> np.uint64(33))


@njit(cache=True)
def _fill_table(T, doc_off, doc_tok_off, doc_genre, tok_word, tok_lower, tok_pos,
                tok_speaker, tok_sentence, m_start, m_end, m_head, v_initial,
                v_off, v_letters):
    n_docs = doc_off.shape[0] - 1
    for d in range(n_docs):
        base = doc_tok_off[d]
        n_tok = doc_tok_off[d + 1] - base
        for r in range(doc_off[d], doc_off[d + 1]):
            s = m_start[r]
            e = m_end[r]
            h = m_head[r]
            T[r, C_TOK_BASE] = base
            T[r, C_GENRE] = doc_genre[d]
            T[r, C_LENGTH] = bucket(e - s + 1)
            T[r, C_HEAD_POS] = tok_pos[base + h]
            T[r, C_SPEAKER] = tok_speaker[base + h]
            T[r, C_HEAD_LOWER] = tok_lower[base + h]
            if s > 0 and tok_sentence[base + s - 1] == tok_sentence[base + s]:
                T[r, C_PREV] = tok_lower[base + s - 1]
            else:
                T[r, C_PREV] = BOS
            if e + 1 < n_tok and tok_sentence[base + e + 1] == tok_sentence[base + e]:
                T[r, C_NEXT] = tok_lower[base + e + 1]
            else:
                T[r, C_NEXT] = EOS
            # acronym of a name: capitalised initials of its words (>= 2)
            T[r, C_ACRO] = -1
            if T[r, C_TYPE] == TYPE_NAME:
                acc = hash_start(np.uint64(_ACRO_SEED))
                k = 0
                for t in range(s, e + 1):
                    w = tok_word[base + t]
                    if w >= 0 and v_initial[w] > 0:
                        acc = hash_step(acc, v_initial[w])
                        k += 1
                if k >= 2:
                    T[r, C_ACRO] = _fold(acc)
            # self-acronym: a one-token mention written in capitals
            T[r, C_SELF_ACRO] = -1
            w = tok_word[base + s]
            if s == e and w >= 0 and v_off[w + 1] > v_off[w]:
                acc = hash_start(np.uint64(_ACRO_SEED))
                for q in range(v_off[w], v_off[w + 1]):
                    acc = hash_step(acc, v_letters[q])
                T[r, C_SELF_ACRO] = _fold(acc)


def mention_table(corpus):
    """The (n_mentions, len(COLUMNS)) int32 table of `corpus` (see module docstring)."""
    a = corpus.arrays
    n = corpus.n_mentions
    T = np.full((n, len(COLUMNS)), -1, dtype=np.int32)
    direct = {
        C_TYPE: "m_type", C_GENDER: "m_gender", C_NUMBER: "m_number", C_NE: "m_ne",
        C_HEAD: "m_head_str", C_FIRST: "m_first_str", C_LAST: "m_last_str",
        C_FULL: "m_full_str", C_PRONOUN: "m_pronoun", C_CAT: "m_category",
        C_SUBCAT: "m_subcategory", C_PATH_ROOT: "m_path_root", C_PATH_S: "m_path_s",
        C_SENT: "m_sentence", C_START: "m_start", C_END: "m_end", C_HEAD_TOK: "m_head",
    }
    for col, key in direct.items():
        if key in a:
            T[:, col] = a[key]
    if "m_embedded" in a:
        T[:, C_EMBEDDED] = (np.asarray(a["m_embedded"]) >= 0).astype(np.int32)
    n_tok = int(a["doc_token_offsets"][-1])

    def tok(key):
        return np.ascontiguousarray(a[key], dtype=np.int32) if key in a else np.full(n_tok, -1, np.int32)

    n_docs = len(a["doc_mention_offsets"]) - 1
    genre = np.ascontiguousarray(a["doc_genre"], dtype=np.int32) if "doc_genre" in a else np.full(n_docs, -1, np.int32)
    v_initial, v_off, v_letters = vocab_letters(corpus.vocab)
    _fill_table(T, np.ascontiguousarray(a["doc_mention_offsets"], dtype=np.int64),
                np.ascontiguousarray(a["doc_token_offsets"], dtype=np.int64), genre,
                tok("tok_word"), tok("tok_lower"), tok("tok_pos"), tok("tok_speaker"),
                tok("tok_sentence"), T[:, C_START].copy(), T[:, C_END].copy(),
                T[:, C_HEAD_TOK].copy(), v_initial, v_off, v_letters)
    return T


__all__ = ["mention_table", "COLUMNS", "COL", "bucket", "BOS", "EOS"]
