"""Per-mention attribute table: one int32 row per mention, what every template reads.

Why: templates run inside one numba kernel, which wants one small contiguous row per
mention (a few cache lines) rather than twenty separate arrays and token look-ups per
arc. Everything that depends on one mention only (preceding/following token, head POS,
head speaker, acronym keys, bucketed length, document genre) is computed here once per
mention, in numba over the flat `CompiledCorpus` arrays; pair templates then compare
rows. -1 in a cell means "no value" (the template emits no feature for that arc).

Context columns (what B&K's published English set conjoins with pronoun forms and
types): `quote` 1 if the head token lies between quotation marks (``/'' and “/” open and
close, a plain " toggles; the state restarts at each document), `coord` 1 if the mention
contains a coordinating conjunction (and/or/nor: "John and Mary"), 2 if it stands next
to one (a conjunct), 0 else; `verb` the lower-cased nearest verb (POS VB*/VERB) of the
sentence outside the mention, ties to the right (a proxy of the dominating verb that
needs only POS; -1 without a verb); `short_full` the lower-cased full string of mentions
of at most `MAX_SHORT` tokens (-1 for longer ones: whole-span pairs of long spans never
recur); `stripped` a hash of the lower-cased words without determiners, possessive
markers and punctuation (the "clever" string match: "the company" ~ "this company's");
`fine_type` the fine-grained mention type of Martschat & Strube's cort (its `fine_type`
feature, which conjoins every feature with it): names NAM, common nouns DEF / DEM / INDEF
by their first word (the or a possessive / this, that, these, those / anything else),
pronouns their citation form (i, you, he, she, it, we, they; PRO for the rest), indices
into `FINE_TYPES`.

String columns hold `hashing.string_keys` of the strings, not the split's vocabulary ids:
those number strings in order of appearance per compiled split, so an id means another
word in train and test (a lexical weight learned on train would never fire on test).
`head_lower` stays a vocabulary id: it is compared with the split's token ids inside one
document (`head_contained`), never hashed.

Acronyms (the `alias` template, after Soon et al. 2001 / Björkelund & Farkas 2012): a
name mention's acronym is the sequence of the capitalised initials of its words
("Drug Emporium Inc." → DEI); a one-token mention written in capitals ("DEI", "D.E.I.")
has its letters as self-acronym. Both are hashed with the same chain so they compare
as integers.
"""

from collections import namedtuple

import numpy as np
from numba import njit

from coreflab.corpus.compiled import TYPE_COMMON, TYPE_NAME, TYPE_PRONOUN
from coreflab.features.hashing import hash_start, hash_step, string_keys

BOS, EOS = -2, -3  # preceding/following token at a sentence boundary

# column indices
COLUMNS = [
    "type",
    "gender",
    "number",
    "ne",
    "head",
    "head_pos",
    "first",
    "last",
    "full",
    "prev",
    "next",
    "length",
    "pronoun",
    "category",
    "subcategory",
    "path_root",
    "path_s",
    "embedded",
    "genre",
    "speaker",
    "sentence",
    "start",
    "end",
    "head_tok",
    "tok_base",
    "acro",
    "self_acro",
    "head_lower",
    # context columns (B&K 2014's quotation / coordination / verb templates, the "clever"
    # string match and the whole-span template for short spans)
    "quote",
    "coord",
    "verb",
    "short_full",
    "stripped",
    "fine_type",
]
COL = {name: k for k, name in enumerate(COLUMNS)}
(
    C_TYPE,
    C_GENDER,
    C_NUMBER,
    C_NE,
    C_HEAD,
    C_HEAD_POS,
    C_FIRST,
    C_LAST,
    C_FULL,
    C_PREV,
    C_NEXT,
    C_LENGTH,
    C_PRONOUN,
    C_CAT,
    C_SUBCAT,
    C_PATH_ROOT,
    C_PATH_S,
    C_EMBEDDED,
    C_GENRE,
    C_SPEAKER,
    C_SENT,
    C_START,
    C_END,
    C_HEAD_TOK,
    C_TOK_BASE,
    C_ACRO,
    C_SELF_ACRO,
    C_HEAD_LOWER,
    C_QUOTE,
    C_COORD,
    C_VERB,
    C_SHORT_FULL,
    C_STRIPPED,
    C_FINE_TYPE,
) = range(len(COLUMNS))

_ACRO_SEED = 0x416372  # "Acr"
_STRIP_SEED = 0x537472  # "Str"
MAX_SHORT = 4  # longest mention (tokens) with a `short_full` value
_QUOTE_TOGGLE, _QUOTE_OPEN, _QUOTE_CLOSE = 1, 2, 3
_STRIP_WORDS = {"a", "an", "the", "this", "that", "these", "those", "'s", "'"}
_CONJ_WORDS = {"and", "or", "nor"}
FINE_TYPES = ("NAM", "DEF", "INDEF", "DEM", "i", "you", "he", "she", "it", "we", "they", "PRO")
_CITATION = {
    "i": ("i", "me", "my", "mine", "myself"),
    "you": ("you", "your", "yours", "yourself", "yourselves", "u", "ya", "y'all"),
    "he": ("he", "him", "his", "himself"),
    "she": ("she", "her", "hers", "herself"),
    "it": ("it", "its", "itself"),
    "we": ("we", "us", "our", "ours", "ourselves"),
    "they": ("they", "them", "their", "theirs", "themselves", "themself"),
}
_DEFINITE = {"the", "my", "your", "his", "her", "its", "our", "their"}
_DEMONSTRATIVE = {"this", "that", "these", "those"}

Tokens = namedtuple("Tokens", ["word", "lower", "pos", "speaker", "sentence"])
Tokens.__doc__ = """Per-token columns of a corpus (-1 where the corpus has none) the table is filled from."""
Letters = namedtuple("Letters", ["initial", "off", "letters"])
Letters.__doc__ = """Per vocabulary entry its capital initial and its capital letters (`vocab_letters`)."""


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


def vocab_context_flags(vocab):
    """Per vocabulary entry (int8 arrays): quotation-mark kind (1 toggling ", 2 opening,
    3 closing, 0 none), coordinating conjunction, verb POS tag, word dropped by the
    "clever" string match (determiner, possessive marker, punctuation)."""
    n = len(vocab)
    quote = np.zeros(n, dtype=np.int8)
    conj = np.zeros(n, dtype=np.int8)
    verb_tag = np.zeros(n, dtype=np.int8)
    strip = np.zeros(n, dtype=np.int8)
    for k, w in enumerate(vocab):
        lw = w.lower()
        if w == '"':
            quote[k] = _QUOTE_TOGGLE
        elif w in ("``", "“"):
            quote[k] = _QUOTE_OPEN
        elif w in ("''", "”"):
            quote[k] = _QUOTE_CLOSE
        conj[k] = lw in _CONJ_WORDS
        verb_tag[k] = w.startswith("VB") or w == "VERB"
        strip[k] = lw in _STRIP_WORDS or (len(w) > 0 and not any(c.isalnum() for c in w))
    return quote, conj, verb_tag, strip


@njit(cache=True)
def _quote_flags(doc_tok_off, tok_lower, qkind):
    """int8 per token: 1 inside quotation marks (the marks themselves 0)."""
    out = np.zeros(tok_lower.shape[0], dtype=np.int8)
    for d in range(doc_tok_off.shape[0] - 1):
        state = 0
        for t in range(doc_tok_off[d], doc_tok_off[d + 1]):
            w = tok_lower[t]
            k = qkind[w] if w >= 0 else 0
            if k == _QUOTE_TOGGLE:
                state = 1 - state
            elif k == _QUOTE_OPEN:
                state = 1
            elif k == _QUOTE_CLOSE:
                state = 0
            else:
                out[t] = state
    return out


def vocab_fine_types(vocab):
    """Per vocabulary entry (int8): the citation form of a pronoun (an index into FINE_TYPES,
    -1 if none) and the class a first word gives a common noun (DEF or DEM, -1 for INDEF)."""
    code = {form: FINE_TYPES.index(c) for c, forms in _CITATION.items() for form in forms}
    pron = np.full(len(vocab), -1, dtype=np.int8)
    det = np.full(len(vocab), -1, dtype=np.int8)
    for k, w in enumerate(vocab):
        lw = w.lower()
        pron[k] = code.get(lw, -1)
        if lw in _DEFINITE:
            det[k] = FINE_TYPES.index("DEF")
        elif lw in _DEMONSTRATIVE:
            det[k] = FINE_TYPES.index("DEM")
    return pron, det


def fine_types(mtype, head, first, vocab):
    """The `fine_type` column from the type, head and first-word columns (vocabulary ids)."""
    pron, det = vocab_fine_types(vocab)
    spare = np.append(pron, np.int8(-1)), np.append(det, np.int8(-1))  # -1 ids index the last entry
    out = np.full(mtype.shape[0], -1, dtype=np.int32)
    out[mtype == TYPE_NAME] = FINE_TYPES.index("NAM")
    p = spare[0][head].astype(np.int32)
    out[mtype == TYPE_PRONOUN] = np.where(p >= 0, p, FINE_TYPES.index("PRO"))[mtype == TYPE_PRONOUN]
    d = spare[1][first].astype(np.int32)
    out[mtype == TYPE_COMMON] = np.where(d >= 0, d, FINE_TYPES.index("INDEF"))[mtype == TYPE_COMMON]
    return out


# columns holding strings (vocabulary ids until `mention_table` maps them to string keys)
STRING_COLUMNS = (
    C_NE,
    C_HEAD,
    C_HEAD_POS,
    C_FIRST,
    C_LAST,
    C_FULL,
    C_PREV,
    C_NEXT,
    C_PRONOUN,
    C_CAT,
    C_SUBCAT,
    C_PATH_ROOT,
    C_PATH_S,
    C_GENRE,
    C_SPEAKER,
    C_VERB,
    C_SHORT_FULL,
)


@njit(cache=True)
def _fill_context(
    T,
    doc_off,
    doc_tok_off,
    tok_lower,
    tok_key,
    tok_pos,
    tok_sentence,
    in_quote,
    is_conj,
    is_verb_tag,
    is_strip,
    has_pos,
):
    """The context columns (module docstring) of every mention."""
    for d in range(doc_off.shape[0] - 1):
        base = doc_tok_off[d]
        n_tok = doc_tok_off[d + 1] - base
        for r in range(doc_off[d], doc_off[d + 1]):
            s = T[r, C_START]
            e = T[r, C_END]
            sent = tok_sentence[base + s]
            T[r, C_QUOTE] = in_quote[base + T[r, C_HEAD_TOK]]
            coord = 0
            for t in range(s, e + 1):
                w = tok_lower[base + t]
                if w >= 0 and is_conj[w]:
                    coord = 1
            if coord == 0:
                if s > 0 and tok_sentence[base + s - 1] == sent:
                    w = tok_lower[base + s - 1]
                    if w >= 0 and is_conj[w]:
                        coord = 2
                if e + 1 < n_tok and tok_sentence[base + e + 1] == sent:
                    w = tok_lower[base + e + 1]
                    if w >= 0 and is_conj[w]:
                        coord = 2
            T[r, C_COORD] = coord
            T[r, C_SHORT_FULL] = T[r, C_FULL] if e - s + 1 <= MAX_SHORT else -1
            acc = hash_start(np.uint64(_STRIP_SEED))
            kept = 0
            for t in range(s, e + 1):
                w = tok_lower[base + t]
                if w >= 0 and is_strip[w]:
                    continue
                acc = hash_step(acc, tok_key[base + t])
                kept += 1
            T[r, C_STRIPPED] = _fold(acc) if kept > 0 else -1
            T[r, C_VERB] = -1
            if has_pos:
                # equal distances on both sides at every step: the right side is checked
                # first, so the first verb met is the nearest one, ties to the right
                left = s - 1
                right = e + 1
                while True:
                    l_ok = left >= 0 and tok_sentence[base + left] == sent
                    r_ok = right < n_tok and tok_sentence[base + right] == sent
                    if not l_ok and not r_ok:
                        break
                    if r_ok and tok_pos[base + right] >= 0 and is_verb_tag[tok_pos[base + right]]:
                        T[r, C_VERB] = tok_lower[base + right]
                        break
                    if l_ok and tok_pos[base + left] >= 0 and is_verb_tag[tok_pos[base + left]]:
                        T[r, C_VERB] = tok_lower[base + left]
                        break
                    left -= 1
                    right += 1


@njit(cache=True)
def _fold(h):
    return np.int32(h >> np.uint64(33))


@njit(cache=True)
def _fill_table(T, doc_off, doc_tok_off, doc_genre, toks, letters):
    """The columns read from the tokens and the vocabulary (spans from T's start/end/head columns).

    toks: `Tokens`; letters: `Letters` (`vocab_letters`)."""
    tok_word, tok_lower, tok_pos, tok_speaker, tok_sentence = toks
    v_initial, v_off, v_letters = letters
    n_docs = doc_off.shape[0] - 1
    for d in range(n_docs):
        base = doc_tok_off[d]
        n_tok = doc_tok_off[d + 1] - base
        for r in range(doc_off[d], doc_off[d + 1]):
            s = T[r, C_START]
            e = T[r, C_END]
            h = T[r, C_HEAD_TOK]
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
        C_TYPE: "m_type",
        C_GENDER: "m_gender",
        C_NUMBER: "m_number",
        C_NE: "m_ne",
        C_HEAD: "m_head_str",
        C_FIRST: "m_first_str",
        C_LAST: "m_last_str",
        C_FULL: "m_full_str",
        C_PRONOUN: "m_pronoun",
        C_CAT: "m_category",
        C_SUBCAT: "m_subcategory",
        C_PATH_ROOT: "m_path_root",
        C_PATH_S: "m_path_s",
        C_SENT: "m_sentence",
        C_START: "m_start",
        C_END: "m_end",
        C_HEAD_TOK: "m_head",
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
    _fill_table(
        T,
        np.ascontiguousarray(a["doc_mention_offsets"], dtype=np.int64),
        np.ascontiguousarray(a["doc_token_offsets"], dtype=np.int64),
        genre,
        Tokens(tok("tok_word"), tok("tok_lower"), tok("tok_pos"), tok("tok_speaker"), tok("tok_sentence")),
        Letters(*vocab_letters(corpus.vocab)),
    )
    qkind, conj, verb_tag, strip = vocab_context_flags(corpus.vocab)
    doc_tok_off = np.ascontiguousarray(a["doc_token_offsets"], dtype=np.int64)
    tok_lower = tok("tok_lower")
    has_pos = "pos" not in corpus.missing and "tok_pos" in a
    keys = string_keys(corpus.vocab)
    tok_key = np.where(tok_lower >= 0, keys[np.maximum(tok_lower, 0)], -1).astype(np.int32) if len(keys) else tok_lower
    _fill_context(
        T,
        np.ascontiguousarray(a["doc_mention_offsets"], dtype=np.int64),
        doc_tok_off,
        tok_lower,
        tok_key,
        tok("tok_pos"),
        tok("tok_sentence"),
        _quote_flags(doc_tok_off, tok_lower, qkind),
        conj,
        verb_tag,
        strip,
        has_pos,
    )
    T[:, C_FINE_TYPE] = fine_types(T[:, C_TYPE], T[:, C_HEAD], T[:, C_FIRST], corpus.vocab)
    if len(keys):
        for col in STRING_COLUMNS:
            v = T[:, col]
            T[:, col] = np.where(v >= 0, keys[np.maximum(v, 0)], v)
    return T


__all__ = [
    "mention_table",
    "vocab_context_flags",
    "fine_types",
    "FINE_TYPES",
    "COLUMNS",
    "COL",
    "bucket",
    "BOS",
    "EOS",
    "MAX_SHORT",
]
