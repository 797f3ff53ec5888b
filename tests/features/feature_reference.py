"""A slow, pure-Python reference of the local templates and the arc store.

Written from the template docstrings, independently of the numba kernels and of the
mention table (it reads the CompiledCorpus arrays and vocabulary strings directly,
compares acronyms as strings), so the equivalence test checks semantics, not shared code.
"""

import hashlib

from coreflab.features.hashing import MASK64, ROOT_MARK, py_hash_values, py_mix64, template_key
from coreflab.features.templates import K_ANA, K_CONST, REGISTRY, split_entry


def bucket(d):
    for limit, value in ((5, None), (8, 5), (12, 6), (20, 7)):
        if d < limit:
            return d if value is None else value
    return 8


_GOLDEN, _M1 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9
# attributes whose values are strings: the reference hashes the string itself
STRING_ATTRS = {
    "ne",
    "head",
    "head_pos",
    "first",
    "last",
    "full",
    "prev",
    "next",
    "pronoun",
    "category",
    "subcategory",
    "path_root",
    "path_s",
    "genre",
    "speaker",
    "verb",
    "short_full",
}


def skey(s):
    """Split-independent key of a string: top 31 bits of its BLAKE2b digest, "" -> 0."""
    if not s:
        return 0
    return int.from_bytes(hashlib.blake2b(s.encode("utf-8"), digest_size=8).digest(), "little") >> 33


def chain(h, values):
    """The hashing chain's step (xor, multiply) over values, from state h (no final mix)."""
    for v in values:
        h = ((h ^ (((int(v) & MASK64) + _GOLDEN) & MASK64)) * _M1) & MASK64
    return h


class Ref:
    def __init__(self, corpus):
        self.c = corpus
        self.a = {k: [int(x) for x in v] for k, v in corpus.arrays.items()}
        self.doc_of = self.a["m_doc"]
        self._quote = None

    def word(self, vid):
        return self.c.vocab[vid] if vid >= 0 else ""

    def in_quote(self, doc, t):
        """Inside quotation marks at document token t (the marks themselves are not)."""
        if self._quote is None:
            self._quote = {}
        if doc not in self._quote:
            lo, hi = self.a["doc_token_offsets"][doc], self.a["doc_token_offsets"][doc + 1]
            flags, state = [], False
            for g in range(lo, hi):
                w = self.word(self.a["tok_lower"][g])
                if w == '"':
                    state = not state
                    flags.append(False)
                elif w in ("``", "\u201c"):
                    state = True
                    flags.append(False)
                elif w in ("''", "\u201d"):
                    state = False
                    flags.append(False)
                else:
                    flags.append(state)
            self._quote[doc] = flags
        return self._quote[doc][t]

    def stripped(self, r):
        drop = {"a", "an", "the", "this", "that", "these", "those", "'s", "'"}
        kept = [
            w
            for w in self.words(r)
            if not (self.word(w) in drop or (self.word(w) and not any(ch.isalnum() for ch in self.word(w))))
        ]
        return chain(py_mix64(0x537472), [skey(self.word(w)) for w in kept]) >> 33 if kept else -1

    def base(self, r):
        return self.a["doc_token_offsets"][self.doc_of[r]]

    def words(self, r, key="tok_lower"):
        b = self.base(r)
        return self.a[key][b + self.a["m_start"][r] : b + self.a["m_end"][r] + 1]

    def attr(self, r, name):
        a, b = self.a, self.base(r)
        s, e, h = a["m_start"][r], a["m_end"][r], a["m_head"][r]
        ts = a["tok_sentence"]
        if name == "prev":
            return a["tok_lower"][b + s - 1] if s > 0 and ts[b + s - 1] == ts[b + s] else -2
        if name == "next":
            n_tok = a["doc_token_offsets"][self.doc_of[r] + 1] - b
            return a["tok_lower"][b + e + 1] if e + 1 < n_tok and ts[b + e + 1] == ts[b + e] else -3
        if name == "length":
            return bucket(e - s + 1)
        if name == "head_pos":
            return a["tok_pos"][b + h]
        if name == "speaker":
            return a["tok_speaker"][b + h]
        if name == "embedded":
            return int(a["m_embedded"][r] >= 0)
        if name == "genre":
            return a["doc_genre"][self.doc_of[r]]
        if name == "quote":
            return int(self.in_quote(self.doc_of[r], h))
        if name == "coord":
            conj = ("and", "or", "nor")
            if any(self.word(w) in conj for w in self.words(r)):
                return 1
            sent = ts[b + s]
            n_tok = a["doc_token_offsets"][self.doc_of[r] + 1] - b
            near = [b + s - 1] if s > 0 and ts[b + s - 1] == sent else []
            near += [b + e + 1] if e + 1 < n_tok and ts[b + e + 1] == sent else []
            return 2 if any(self.word(a["tok_lower"][g]) in conj for g in near) else 0
        if name == "short_full":
            return a["m_full_str"][r] if e - s + 1 <= 4 else -1
        if name == "fine_type":
            return self.fine_type(r)
        if name == "verb":
            if "pos" in self.c.missing:
                return -1
            sent = ts[b + s]
            n_tok = a["doc_token_offsets"][self.doc_of[r] + 1] - b
            cands = [
                t
                for t in range(n_tok)
                if ts[b + t] == sent
                and not s <= t <= e
                and (self.word(a["tok_pos"][b + t]).startswith("VB") or self.word(a["tok_pos"][b + t]) == "VERB")
            ]
            if not cands:
                return -1
            best = min(cands, key=lambda t: (s - t if t < s else t - e, -t))  # nearest, ties right
            return a["tok_lower"][b + best]
        field = {
            "head": "m_head_str",
            "first": "m_first_str",
            "last": "m_last_str",
            "full": "m_full_str",
            "subcategory": "m_subcategory",
        }.get(name, "m_" + name)
        return a[field][r]

    def fine_type(self, r):
        """cort's fine type, as an index of (NAM, DEF, INDEF, DEM, i, you, he, she, it, we, they, PRO)."""
        a, t = self.a, self.a["m_type"][r]
        if t == 2:
            return 0
        if t == 1:
            head = self.c.vocab[a["m_head_str"][r]].lower()
            forms = [
                "i me my mine myself",
                "you your yours yourself yourselves u ya y'all",
                "he him his himself",
                "she her hers herself",
                "it its itself",
                "we us our ours ourselves",
                "they them their theirs themselves themself",
            ]
            return next((4 + k for k, f in enumerate(forms) if head in f.split()), 11)
        if t == 3:
            first = self.c.vocab[a["m_first_str"][r]].lower()
            return (
                1
                if first in "the my your his her its our their".split()
                else 3
                if first in "this that these those".split()
                else 2
            )
        return -1

    def acronym(self, r):
        if self.a["m_type"][r] != 2:
            return None
        words = [self.c.vocab[w] for w in self.words(r, "tok_word")]
        initials = "".join(w[0] for w in words if w and w[0].isupper() and w[0].isalpha())
        return initials if len(initials) >= 2 else None

    def self_acronym(self, r):
        if self.a["m_start"][r] != self.a["m_end"][r]:
            return None
        core = self.c.vocab[self.words(r, "tok_word")[0]].replace(".", "")
        return core if 2 <= len(core) <= 8 and core.isalpha() and core.isupper() else None

    def pair(self, op, j, i):
        a = self.a
        if op == "sent_dist":
            return bucket(abs(a["m_sentence"][j] - a["m_sentence"][i]))
        if op == "ment_dist":
            return bucket(j - i)
        if op == "exact_match":
            return int(a["m_full_str"][j] == a["m_full_str"][i] and a["m_full_str"][j] >= 0)
        if op == "head_match":
            return int(a["m_head_str"][j] == a["m_head_str"][i] and a["m_head_str"][j] >= 0)
        if op == "substring_match":
            x, y = self.words(j), self.words(i)
            short, long_ = (x, y) if len(x) <= len(y) else (y, x)
            return int(any(long_[k : k + len(short)] == short for k in range(len(long_) - len(short) + 1)))
        if op == "head_contained":
            hj = a["tok_lower"][self.base(j) + a["m_head"][j]]
            hi = a["tok_lower"][self.base(i) + a["m_head"][i]]
            return 1 if hj in self.words(i) else 2 if hi in self.words(j) else 0
        if op == "alias":
            aj, ai = self.acronym(j), self.acronym(i)
            if (aj and aj == self.self_acronym(i)) or (ai and ai == self.self_acronym(j)):
                return 1
            if (
                a["m_type"][j] == 2
                and a["m_type"][i] == 2
                and a["m_last_str"][j] >= 0
                and a["m_last_str"][j] == a["m_last_str"][i]
                and a["m_full_str"][j] != a["m_full_str"][i]
            ):
                return 2
            return 0
        if op in ("gender_agree", "number_agree"):
            f = "m_" + op.split("_")[0]
            x, y = a[f][j], a[f][i]
            return 2 if x <= 0 or y <= 0 else int(x == y)
        if op == "nested":
            si, ei, sj, ej = a["m_start"][i], a["m_end"][i], a["m_start"][j], a["m_end"][j]
            if ei < sj or ej < si:
                return 0
            return 1 if si <= sj and ej <= ei else 2 if sj <= si and ei <= ej else 3
        if op == "same_speaker":
            x, y = self.attr(j, "speaker"), self.attr(i, "speaker")
            return None if x < 0 or y < 0 else int(x == y)
        if op == "match_kind":
            if a["m_full_str"][j] >= 0 and a["m_full_str"][j] == a["m_full_str"][i]:
                return 1
            if self.stripped(j) >= 0 and self.stripped(j) == self.stripped(i):
                return 2
            if a["m_head_str"][j] >= 0 and a["m_head_str"][j] == a["m_head_str"][i]:
                return 3
            return 4 if self.pair("head_contained", j, i) > 0 else 0
        if op == "sent_paths":
            if a["m_sentence"][j] != a["m_sentence"][i]:
                return -2
            keys = [self.string_value(a["m_path_root"][r]) for r in (j, i)]
            return chain(0, keys) & ((1 << 62) - 1)
        raise KeyError(op)

    def string_value(self, v):
        return skey(self.word(v)) if v >= 0 else v

    def attr_value(self, r, name):
        v = self.attr(r, name)
        return self.string_value(v) if name in STRING_ATTRS else v

    def value(self, name, j, i):
        """Value of template `name` on arc i -> j (i None = root); None = no value."""
        tp = REGISTRY[name]
        if name == "bias":
            return 0
        if name == "genre":
            v = self.attr_value(j, "genre")
        elif name.startswith("ana_"):
            v = self.attr_value(j, name[4:])
        elif name.startswith("ante_"):
            if i is None:
                return 0 if name == "ante_type" else None
            v = self.attr_value(i, name[5:])
        else:
            assert tp.kind not in (K_ANA, K_CONST)
            return None if i is None else self.pair(name, j, i)
        return None if v == -1 else v

    def features(self, entries, j, i, n_bits):
        out = []
        for entry in entries:
            parts = split_entry(entry)
            anaphor_side = [p for p in parts if REGISTRY[p].kind in (K_ANA, K_CONST)]
            if i is not None and len(anaphor_side) == len(parts):
                continue  # anaphor-only: root arc only
            ordered = anaphor_side + [p for p in parts if p not in anaphor_side]
            values = [self.value(p, j, i) for p in ordered]
            if any(v is None for v in values):
                continue
            if i is None:
                values.append(ROOT_MARK)
            out.append(py_hash_values(template_key(entry), values, n_bits))
        return out


def candidates(corpus, j, lo, window=None, reach=True):
    """Candidate antecedent rows of mention row j (document rows from lo), ascending:
    the last `window` mentions and, with reach, the earlier name/nominal string matches."""
    a = corpus.arrays
    out = []
    for i in range(lo, j):
        if window is None or j - i <= window:
            out.append(i)
        elif (
            reach
            and int(a["m_type"][j]) in (2, 3)
            and (
                (a["m_head_str"][j] >= 0 and a["m_head_str"][j] == a["m_head_str"][i])
                or (a["m_full_str"][j] >= 0 and a["m_full_str"][j] == a["m_full_str"][i])
            )
        ):
            out.append(i)
    return out


def reference_store(corpus, entries, n_bits=22, window=None, reach=True):
    """(m_arc_offsets, arc_ante, per-arc feature lists) by plain Python loops."""
    ref = Ref(corpus)
    off = [int(x) for x in corpus.doc_mention_offsets]
    m_arc_offsets, arc_ante, feats = [0], [], []
    for d in range(len(off) - 1):
        lo, hi = off[d], off[d + 1]
        for j in range(lo, hi):
            arcs = [None] + candidates(corpus, j, lo, window, reach)
            for i in arcs:
                arc_ante.append(-1 if i is None else i - lo)
                feats.append(ref.features(entries, j, i, n_bits))
            m_arc_offsets.append(m_arc_offsets[-1] + len(arcs))
    return m_arc_offsets, arc_ante, feats
