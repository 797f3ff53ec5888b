"""The sieve's view of a CompiledCorpus: one int64 row per mention, one flag word per token.

Why: the numba passes compare integers only. Every string test (word lists, acronyms, demonyms,
truncated strings, speaker names) is answered here once, per vocabulary id or per mention, with
numpy or short Python loops over unique strings. Token positions in the table are global (the
document's token offset added), so the passes index `tok_*` arrays directly.
Stand-ins for what Lee et al. had: gender and number are the compiled corpus's (census first names,
honorifics, gendered nouns, POS or an -s rule; no Bergsma & Lin counts); animacy comes from the
pronoun table, the head's NE type, gender, data/animate.txt and data/inanimate.txt with a suffix
rule (`words.noun_animacy`), numbers and listed places being inanimate; NE types are known at the
mention's head only (the compiled corpus keeps no per-token NE).
"""

import re
from dataclasses import dataclass

import numpy as np
from numba import njit

from coreflab.corpus.compiled import TYPE_COMMON, TYPE_NAME, TYPE_PRONOUN
from coreflab.corpus.lexicon import FUNCTION_WORDS, PRONOUNS
from coreflab.learn.rules import words as W
from coreflab.learn.rules.columns import (
    ANIMATE,
    C_ACR,
    C_ANIMACY,
    C_CAPS,
    C_CAPS_SELF,
    C_CUT,
    C_DEMONYM,
    C_DOC,
    C_END,
    C_EXPL,
    C_FUNC,
    C_GENDER,
    C_HEAD,
    C_HEADW,
    C_INDEF,
    C_NE,
    C_NOS,
    C_NUMBER,
    C_OUTER_END,
    C_OUTER_START,
    C_PATH,
    C_PERSON,
    C_PERSON_NE,
    C_PLACE,
    C_REL,
    C_RELAXED,
    C_SENT,
    C_SG1,
    C_SPK,
    C_START,
    C_TYPE,
    C_YOU,
    F_COMMA,
    F_NUM,
    F_WH,
    INANIMATE,
    INDEF_ARTICLE,
    INDEF_PRONOUN,
    N_COLS,
)
from coreflab.learn.rules.quotes import mark_quotes
from coreflab.learn.rules.tokens import token_flags


@dataclass
class SieveTable:
    """What the passes read: `mi` (mentions x N_COLS), per-token `tok_lower`/`tok_flags`/`tok_mstart`/
    `tok_mend` (the longest mention starting / ending at the token, -1 none), the
    lower-cased name parts of each column speaker (CSR: `spk_off`, `spk_words`), vocabulary size."""

    mi: np.ndarray
    tok_lower: np.ndarray
    tok_flags: np.ndarray
    doc_mention_offsets: np.ndarray
    doc_token_offsets: np.ndarray
    tok_mstart: np.ndarray
    tok_mend: np.ndarray
    spk_off: np.ndarray
    spk_words: np.ndarray
    n_vocab: int
    has_ne: bool


def _ne_codes(corpus):
    """m_ne -> small codes (0 none, 1.. the labels in sorted order, at most 62) and the person flag."""
    m_ne = corpus.m_ne
    labels = sorted({corpus.vocab[i] for i in np.unique(m_ne[m_ne > 0]).tolist()})
    code_of = {lab: min(k + 1, 62) for k, lab in enumerate(labels)}
    table = np.zeros(len(corpus.vocab) + 1, np.int64)
    person = np.zeros(len(corpus.vocab) + 1, np.int64)
    inanimate = np.zeros(len(corpus.vocab) + 1, np.bool_)
    for i in np.unique(m_ne[m_ne > 0]).tolist():
        lab = corpus.vocab[i]
        table[i] = code_of[lab]
        person[i] = lab in W.PERSON_NE
        inanimate[i] = lab in W.INANIMATE_NE
    return table[m_ne], person[m_ne], inanimate[m_ne]


def _animacy(corpus, person_ne, inanimate_ne, numeric_head, place):
    """Per mention 1 animate, 2 inanimate, 0 unknown: pronoun table, NE type, gender, noun lists
    (`words.noun_animacy`); a number or a listed place (demonyms.tsv) is inanimate."""
    vocab = corpus.vocab
    m_type, m_gender, head = corpus.m_type, corpus.m_gender, corpus.m_head_str
    by_head = np.zeros(len(vocab), np.int64)
    ids = np.unique(head[m_type == TYPE_COMMON])
    by_head[ids] = [W.noun_animacy(vocab[i]) for i in ids.tolist()]
    out = np.zeros(len(m_type), np.int64)
    common = m_type == TYPE_COMMON
    out[common] = by_head[head[common]]
    gendered = (m_gender == 1) | (m_gender == 2)
    out[(m_type != TYPE_PRONOUN) & gendered] = ANIMATE
    out[(m_type == TYPE_NAME) & (m_gender == 3)] = INANIMATE
    out[(m_type != TYPE_PRONOUN) & ((numeric_head != 0) | (place >= 0))] = INANIMATE
    out[(m_type != TYPE_PRONOUN) & inanimate_ne] = INANIMATE
    out[(m_type != TYPE_PRONOUN) & (person_ne == 1)] = ANIMATE
    pron = np.flatnonzero(m_type == TYPE_PRONOUN)
    for r in pron.tolist():
        info = PRONOUNS.get(vocab[head[r]])
        if info is None:
            continue
        person, gender = info[0], info[1]
        out[r] = ANIMATE if (person in (1, 2) or gender in (1, 2)) else INANIMATE if gender == 3 else 0
    return out


def _pronoun_columns(corpus):
    """(person 1-3 or 0, first-person singular flag, second-person flag) per mention."""
    n = corpus.n_mentions
    person, sg1, you = np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64)
    pron = corpus.m_pronoun
    for r in np.flatnonzero(pron >= 0).tolist():
        info = PRONOUNS.get(corpus.vocab[pron[r]])
        p = info[0] if info else 3
        person[r] = p
        sg1[r] = p == 1 and info[2] == 1
        you[r] = p == 2
    return person, sg1, you


@njit(cache=True)
def _relaxed_cut(g_start, g_end, g_head, tok_flags):
    """Last token kept by relaxed string match: CoreNLP's removePhraseAfterHead, i.e. the mention up
    to a comma after the head, else up to a wh-word after the head, else the whole mention."""
    cut = g_end.copy()
    for r in range(g_start.shape[0]):
        comma, wh = -1, -1
        for t in range(g_head[r] + 1, g_end[r] + 1):
            if comma < 0 and tok_flags[t] & F_COMMA:
                comma = t
            if wh < 0 and tok_flags[t] & F_WH:
                wh = t
        if comma >= 0:
            cut[r] = comma - 1
        elif wh >= 0:
            cut[r] = wh - 1
    return cut


class _Ids:
    """Ids of derived strings (truncated mentions, acronyms, ...), in order of first use."""

    def __init__(self):
        self.ids = {}

    def __call__(self, key):
        return self.ids.setdefault(key, len(self.ids))


def _string_columns(corpus, g_start, g_end, g_head, tok_flags):
    """C_NOS, C_RELAXED, C_ACR, C_CAPS, C_CAPS_SELF, C_PLACE, C_DEMONYM, C_INDEF, C_EXPL, C_REL."""
    vocab, n = corpus.vocab, corpus.n_mentions
    ids = _Ids()
    full = corpus.m_full_str
    places, names = W.demonyms()
    uniq = np.unique(full).tolist()
    nos_of, place_of, demo_of, indef_of = {}, {}, {}, {}
    for i in uniq:
        s = vocab[i]
        nos_of[i] = ids(("s", s[:-3] if s.endswith(" 's") else s))
        bare = s[4:] if s.startswith("the ") else s
        place_of[i] = places.get(bare, -1)
        demo_of[i] = names.get(bare, -1)
        first = s.split(" ", 1)[0]
        indef_of[i] = INDEF_ARTICLE * (first in W.INDEFINITE_ARTICLES) + INDEF_PRONOUN * (
            s in W.INDEFINITE_PHRASES or first in W.INDEFINITE_WORDS
        )
    cols = {k: np.full(n, -1, np.int64) for k in ("nos", "relaxed", "acr", "caps", "place", "demonym")}
    cols["caps_self"] = np.zeros(n, np.int64)
    cols["indef"] = np.zeros(n, np.int64)
    fl = full.tolist()
    cols["nos"][:] = [nos_of[i] for i in fl]
    cols["place"][:] = [place_of[i] for i in fl]
    cols["demonym"][:] = [demo_of[i] for i in fl]
    cols["indef"][:] = [indef_of[i] for i in fl]
    cut = _relaxed_cut(g_start, g_end, g_head, tok_flags)
    lower = corpus.tok_lower
    cols["relaxed"][:] = [ids(("r", lower[s : c + 1].tobytes())) for s, c in zip(g_start.tolist(), cut.tolist())]
    words = corpus.tok_word
    for r in np.flatnonzero(corpus.m_type == TYPE_NAME).tolist():
        toks = [vocab[t] for t in words[g_start[r] : g_end[r] + 1].tolist()]
        caps = "".join(c for w in toks for c in w if "A" <= c <= "Z")
        if len(caps) >= 2:
            cols["caps"][r] = ids(("a", caps))
            cols["caps_self"][r] = any(caps in w for w in toks)
        if len(toks) == 1 and len(toks[0]) >= 2 and all("A" <= c <= "Z" for c in toks[0]):
            cols["acr"][r] = ids(("a", toks[0]))
    one = g_start == g_end
    head = corpus.m_head_str
    expl = np.zeros(len(vocab), np.bool_)
    rel = np.zeros(len(vocab), np.bool_)
    for i in np.unique(head).tolist():
        expl[i] = vocab[i] in ("it", "there")
        rel[i] = vocab[i] in W.RELATIVE_PRONOUNS
    func = np.zeros(len(vocab), np.bool_)
    for i in np.unique(head).tolist():
        w = vocab[i]
        func[i] = w in FUNCTION_WORDS or w in W.INDEFINITE_WORDS or w in W.FUNCTION_HEADS
    cols["func"] = func[head].astype(np.int64)
    cols["cut"] = cut
    has_pos = corpus.tok_pos[g_head] >= 0
    cols["expl"] = (one & expl[head]).astype(np.int64)
    cols["rel"] = (one & rel[head] & (~has_pos | ((tok_flags[g_head] & F_WH) != 0))).astype(np.int64)
    return cols


def _outer_flags(m_doc, m_start, m_end):
    """(no longer mention starts at the same token, no longer mention ends at the same token)."""
    n = len(m_doc)
    outer_start = np.ones(n, np.int64)
    if n > 1:  # rows are sorted by (doc, start, end): the last row of a (doc, start) run is the longest
        same = (m_doc[1:] == m_doc[:-1]) & (m_start[1:] == m_start[:-1])
        outer_start[:-1][same] = 0
    order = np.lexsort((m_start, m_end, m_doc))  # by doc, end, start: the first of a run is the longest
    outer_end = np.zeros(n, np.int64)
    if n:
        d, e = m_doc[order], m_end[order]
        first = np.ones(n, np.bool_)
        first[1:] = (d[1:] != d[:-1]) | (e[1:] != e[:-1])
        outer_end[order[first]] = 1
    return outer_start, outer_end


def _speakers(corpus, g_head):
    """(per mention a compact column-speaker index or -1, CSR offsets, lower-cased name-part ids)."""
    vocab = corpus.vocab
    spk = corpus.tok_speaker[g_head] if len(g_head) else np.zeros(0, np.int32)
    real = sorted(i for i in np.unique(spk[spk >= 0]).tolist() if vocab[i].strip() not in W.NO_SPEAKER)
    compact = {v: k for k, v in enumerate(real)}
    col = np.fromiter((compact.get(v, -1) for v in spk.tolist()), np.int64, len(spk))
    index = {s: i for i, s in enumerate(vocab)} if real else {}
    off, parts = [0], []
    for v in real:
        names = [p for p in re.split(r"[_\s]+", vocab[v].lower()) if p]
        parts += [index[p] for p in names if p in index]
        off.append(len(parts))
    return col, np.asarray(off, np.int64), np.asarray(parts, np.int64)


def _longest_at(pos, length, n_tok):
    """Per token the row of the longest mention with `pos` there (ties: the first row), -1 none."""
    out = np.full(n_tok, -1, np.int64)
    order = np.lexsort((-np.arange(len(pos)), length, pos))  # the last write per token wins
    out[pos[order]] = order
    return out


def build_table(corpus):
    """The SieveTable of a CompiledCorpus (see module docstring)."""
    n = corpus.n_mentions
    tok_off = np.asarray(corpus.doc_token_offsets, np.int64)
    m_doc = np.asarray(corpus.m_doc, np.int64)
    base = tok_off[m_doc]
    g_start = base + corpus.m_start
    g_end = base + corpus.m_end
    g_head = base + corpus.m_head
    tok_flags = token_flags(corpus)
    has_ne = "ne" not in corpus.missing
    ne, person_ne, inanimate_ne = _ne_codes(corpus) if has_ne else (np.zeros(n, np.int64),) * 3
    mi = np.zeros((n, N_COLS), np.int64)
    mi[:, C_DOC] = m_doc
    mi[:, C_START], mi[:, C_END], mi[:, C_HEAD] = g_start, g_end, g_head
    mi[:, C_SENT] = corpus.m_sentence
    mi[:, C_TYPE] = corpus.m_type
    mi[:, C_GENDER] = corpus.m_gender
    mi[:, C_NUMBER] = corpus.m_number
    mi[:, C_NE] = ne
    mi[:, C_PERSON_NE] = person_ne
    mi[:, C_PERSON], mi[:, C_SG1], mi[:, C_YOU] = _pronoun_columns(corpus)
    mi[:, C_HEADW] = corpus.m_head_str
    cols = _string_columns(corpus, g_start, g_end, g_head, tok_flags)
    for c, key in (
        (C_NOS, "nos"),
        (C_RELAXED, "relaxed"),
        (C_ACR, "acr"),
        (C_CAPS, "caps"),
        (C_CAPS_SELF, "caps_self"),
        (C_PLACE, "place"),
        (C_DEMONYM, "demonym"),
        (C_INDEF, "indef"),
        (C_EXPL, "expl"),
        (C_REL, "rel"),
        (C_FUNC, "func"),
        (C_CUT, "cut"),
    ):
        mi[:, c] = cols[key]
    numeric_head = tok_flags[g_head] & F_NUM
    mi[:, C_ANIMACY] = _animacy(corpus, person_ne, inanimate_ne.astype(np.bool_), numeric_head, mi[:, C_PLACE])
    mi[:, C_OUTER_START], mi[:, C_OUTER_END] = _outer_flags(m_doc, corpus.m_start, corpus.m_end)
    mi[:, C_PATH] = corpus.m_path_root
    spk, spk_off, spk_words = _speakers(corpus, g_head)
    mi[:, C_SPK] = spk
    doc_m_off = np.asarray(corpus.doc_mention_offsets, np.int64)
    mark_quotes(tok_off, doc_m_off, tok_flags, mi)
    return SieveTable(
        mi=mi,
        tok_lower=np.asarray(corpus.tok_lower, np.int64),
        tok_flags=tok_flags,
        tok_mstart=_longest_at(g_start, g_end - g_start, len(tok_flags)),
        tok_mend=_longest_at(g_end, g_end - g_start, len(tok_flags)),
        doc_mention_offsets=doc_m_off,
        doc_token_offsets=tok_off,
        spk_off=spk_off,
        spk_words=spk_words,
        n_vocab=len(corpus.vocab),
        has_ne=has_ne,
    )
