"""Mentions of a document: the key's (`gold_mentions`) or extracted from its parse
(`predicted_mentions`), plus mention-detection recall/precision against the key.

Predicted mentions follow the usual rule-based extraction of the CoNLL-2011/2012 systems
(Lee et al. 2013, Stanford sieve, Sec. 3.1; cort's `mention_extractor`): every NP node, every
pronoun (POS PRP, PRP$), every named entity of the NE column (in a document without one, each maximal
run of proper nouns under one parse node, `proper_noun_runs`: "the [U.S.] media"), then filters:
  * numeric / quantity named entities (CARDINAL, PERCENT, MONEY, QUANTITY, DATE, TIME,
    ORDINAL) and non-pronoun candidates whose head lies inside one are dropped;
  * pleonastic `it`: "it BE <one to three words> that/to/whether/if" ("it is likely that",
    "it was said that"; no sentence punctuation in between) and "it seems/appears/happens"
    are dropped;
  * same-head duplicates: of candidates sharing a head token only the largest span is kept
    (coordinated NPs -- an NP with a CC child -- are exempt, their head being only one conjunct).
Two more candidate kinds are exempt from that rule (`_split_parts`): the two NPs of an apposition
(an NP whose children are NP , NP [,]: "Thyrza , a series of elegies" gives "Thyrza" too) and the
conjuncts of a flat coordinated NP (tokens only, no NP child: "defaults and delinquencies" gives
"defaults" and "delinquencies"). Every span is trimmed of leading and trailing punctuation and of a
trailing bracketed group ("limited exposure [ 22 ]" -> "limited exposure"), which parses often attach
to an NP. On GUM's dev split the trimming and the two kinds raise the rules' recall of the key's
mentions by about 4 points at the same precision (80%); with proper-noun runs they find 85.5% at 79.6%.
Without a parse the fallback is: NE spans + pronouns (by word form) + maximal runs of
capitalised tokens that are not pronouns, leading function words ("The", "A") stripped,
and a sentence-initial first word dropped when it also occurs lower-cased. Spans are inclusive token indices, returned sorted by (start, end).

`analyse_document` computes, once per document, what mention extraction, head finding and
attributes share (tree, node heads, POS label ids, NE spans, per-token flags).
"""

from dataclasses import dataclass

import numpy as np
from numba import njit

from coreflab.corpus.heads import node_heads, span_nodes_and_heads
from coreflab.corpus.lexicon import FUNCTION_WORDS, HEAD_STOP_WORDS, NUMERIC_NE_TYPES, PRONOUNS
from coreflab.corpus.parse_tree import LABEL_IDS, label_id, label_ids, ne_spans, parse_document

_NOUN_POS = ("NN", "NNS", "NNP", "NNPS", "PRP", "CD", "NML")
_STOP_POS = ("IN", "TO", "WDT", "WP", "WP$", ",", "-LRB-", ":", "HYPH")
_PRONOUN_POS = ("PRP", "PRP$")
_BE = frozenset("is was 's be been being are were will would may might could can".split())
_SEEM = frozenset("seems seemed seem appears appeared appear happens happened happen".split())
_COMPLEMENTISER = frozenset("that to whether if".split())
_IT_FORMS = frozenset(("it", "It", "IT"))
_EMPTY_I32 = np.zeros(0, np.int32)
_OPENING = frozenset(("(", "[", "{", "-LRB-", "-LSB-", "-LCB-"))
_CLOSING = frozenset((")", "]", "}", "-RRB-", "-RSB-", "-RCB-"))
_PUNCTUATION = frozenset(". , : ; ! ? ` ' `` '' \" -- - — – ... …".split())
_COORDINATORS = frozenset(("and", "or", "nor", "&"))
OTHER, PUNCT, OPEN, CLOSE, COMMA, COORD = range(6)  # token kinds of `_token_kinds`


def _label_table(labels):
    ids = [label_id(x) for x in labels]
    table = np.zeros(len(LABEL_IDS) + 1, np.bool_)
    table[ids] = True
    return table


@dataclass
class Analysis:
    """What a document's mention extraction, heads and attributes share (see module doc)."""

    n: int
    words: list
    tok_label: np.ndarray  # POS label id per token (-1 without POS)
    has_pos: bool
    tree: object  # parse_tree.Tree or None
    node_head: np.ndarray
    coordinated: np.ndarray  # per node: has a CC child
    ne_labels: list
    ne_start: np.ndarray
    ne_end: np.ndarray
    is_stop: np.ndarray
    is_noun: np.ndarray
    _lower: list = None

    @property
    def lower(self):
        """Lower-cased words (computed on first use)."""
        if self._lower is None:
            self._lower = [w.lower() for w in self.words]
        return self._lower

    def tree_arrays(self):
        t = self.tree
        if t is None:
            return _EMPTY_I32, _EMPTY_I32, _EMPTY_I32, _EMPTY_I32, _EMPTY_I32
        return t.parent, t.start, t.end, t.tok_parent, self.node_head

    def spans_nodes_heads(self, starts, ends):
        """(nodes, heads) of spans (see `heads.span_nodes_and_heads`)."""
        return span_nodes_and_heads(
            np.asarray(starts, np.int32), np.asarray(ends, np.int32), *self.tree_arrays(), self.is_stop, self.is_noun
        )


_TABLES = {}


def _pos_flag_tables():
    """(noun, stop) lookup tables over POS label ids, rebuilt when new labels appear."""
    size = len(LABEL_IDS)
    got = _TABLES.get("pos")
    if got is None or got[0] != size:
        noun, stop = _label_table(_NOUN_POS), _label_table(_STOP_POS)
        got = _TABLES["pos"] = (len(LABEL_IDS), noun, stop)
    return got[1], got[2]


def _pronoun_pos_table():
    got = _TABLES.get("pron")
    if got is None or got[0] != len(LABEL_IDS):
        got = _TABLES["pron"] = (len(LABEL_IDS), np.append(_label_table(_PRONOUN_POS), False))
    return got[1]  # the spare last entry answers label -1


def analyse_document(doc):
    """The `Analysis` of a document."""
    n = len(doc.words)
    pos = doc.columns.get("pos")
    has_pos = pos is not None and not all(p in ("-", "_") for p in pos[: min(n, 50)])
    tok_label = label_ids(pos) if has_pos else np.full(n, -1, np.int32)
    tree = parse_document(doc.columns.get("parse"))
    a = Analysis(
        n,
        doc.words,
        tok_label,
        has_pos,
        tree,
        _EMPTY_I32,
        np.zeros(0, np.bool_),
        [],
        _EMPTY_I32,
        _EMPTY_I32,
        None,
        None,
    )
    if has_pos:
        noun_tab, stop_tab = _pos_flag_tables()
        a.is_noun = noun_tab[tok_label]
        a.is_stop = stop_tab[tok_label]
    else:
        lower = a.lower
        a.is_noun = np.fromiter((w not in FUNCTION_WORDS and w[:1].isalnum() for w in lower), np.bool_, n)
        a.is_stop = np.fromiter((w in HEAD_STOP_WORDS for w in lower), np.bool_, n)
    if tree is not None:
        a.node_head = node_heads(tree, tok_label)
        a.coordinated = np.zeros(tree.n_nodes, np.bool_)
        cc = np.flatnonzero(tok_label == LABEL_IDS.get("CC", -2))
        if len(cc):
            parents = tree.tok_parent[cc]
            a.coordinated[parents[parents >= 0]] = True
    if doc.columns.get("ne") is not None:
        a.ne_labels, a.ne_start, a.ne_end = ne_spans(doc.columns.get("ne"))
    return a


def gold_mentions(doc):
    """The key's mention spans, sorted by (start, end); exact duplicates kept once."""
    spans = sorted({span for cluster in doc.clusters for span in cluster})
    if not spans:
        return _EMPTY_I32.copy(), _EMPTY_I32.copy()
    arr = np.asarray(spans, np.int32)
    return arr[:, 0].copy(), arr[:, 1].copy()


def _pleonastic_it(words, t):
    """Whether the `it` at token t is pleonastic (see module docstring)."""
    n = len(words)
    if t + 1 >= n:
        return False
    w1 = words[t + 1].lower()
    if w1 in _SEEM:
        return True
    if w1 in _BE:
        for k in range(t + 2, min(n, t + 6)):
            w = words[k].lower()
            if w in _COMPLEMENTISER and k > t + 2:
                return True
            if w in (".", ",", ";", "!", "?"):
                return False
    return False


def _capitalised_runs(doc, lower, sent_start):
    """Maximal runs of capitalised non-pronoun tokens, leading function words stripped; a
    sentence-initial first token is stripped too when its lower-cased form also occurs in
    the document (a capitalised common word, "Suddenly", not part of a name)."""
    starts, ends = [], []
    run = -1
    words = doc.words
    seen_lower = None
    for t, w in enumerate(words + [""]):
        cap = w[:1].isupper() and lower[t] not in PRONOUNS if w else False
        if cap and run < 0:
            run = t
        elif not cap and run >= 0:
            s = run
            while s < t and lower[s] in FUNCTION_WORDS:
                s += 1
            if s < t and sent_start[s]:
                if seen_lower is None:
                    seen_lower = set(words)
                if lower[s] in seen_lower:
                    s += 1
            if s < t:
                starts.append(s)
                ends.append(t - 1)
            run = -1
    return starts, ends


def _token_kinds(words, tok_label, has_pos):
    """Per token: PUNCT, OPEN / CLOSE bracket, COMMA, COORD (POS CC, or the word without POS), else OTHER."""
    cc = LABEL_IDS.get("CC", -2)

    def kind(t, w):
        if w == ",":
            return COMMA
        if w in _OPENING:
            return OPEN
        if w in _CLOSING:
            return CLOSE
        if w in _PUNCTUATION:
            return PUNCT
        if (tok_label[t] == cc) if has_pos else (w.lower() in _COORDINATORS):
            return COORD
        return OTHER

    return np.fromiter((kind(t, w) for t, w in enumerate(words)), np.int8, len(words))


@njit(cache=True)
def _trim_spans(kind, s, e):
    """Each span without leading or trailing punctuation (commas included) and without a trailing
    bracketed group; a span of punctuation alone is left as it is (then dropped by the caller)."""
    for i in range(s.shape[0]):
        a, b = s[i], e[i]
        while a < b:
            k = kind[b]
            if k == PUNCT or k == COMMA:
                b -= 1
            elif k == CLOSE:
                depth, j = 1, b - 1
                while j > a:
                    if kind[j] == CLOSE:
                        depth += 1
                    elif kind[j] == OPEN:
                        depth -= 1
                        if depth == 0:
                            break
                    j -= 1
                if j > a and depth == 0:
                    b = j - 1
                else:
                    break
            elif kind[a] == PUNCT or kind[a] == COMMA:
                a += 1
            else:
                break
        s[i], e[i] = a, b


@njit(cache=True)
def _split_parts(label, child_off, child_item, np_id, kind, exempt, out_s, out_e):
    """Apposition NPs (exempt[node] = True for both) and flat conjuncts (written to out_s/out_e:
    returns how many); see the module docstring."""
    m = 0
    for n in range(label.shape[0]):
        if label[n] != np_id:
            continue
        lo, hi = child_off[n], child_off[n + 1]
        k = hi - lo
        # NP , NP [,]
        if k == 3 or k == 4:
            c0, c1, c2 = child_item[lo], child_item[lo + 1], child_item[lo + 2]
            tail_ok = k == 3 or (child_item[lo + 3] < 0 and kind[-(child_item[lo + 3] + 1)] == COMMA)
            if (
                c0 >= 0
                and c2 >= 0
                and label[c0] == np_id
                and label[c2] == np_id
                and c1 < 0
                and kind[-(c1 + 1)] == COMMA
                and tail_ok
            ):
                exempt[c0] = True
                exempt[c2] = True
                continue
        # flat coordination: token children only, at least one coordinator
        flat, coordinated = True, False
        for q in range(lo, hi):
            it = child_item[q]
            if it >= 0:
                flat = False
                break
            if kind[-(it + 1)] == COORD:
                coordinated = True
        if not (flat and coordinated):
            continue
        first = -1
        for q in range(lo, hi + 1):
            tok = -(child_item[q] + 1) if q < hi else -1
            sep = q == hi or kind[tok] == COMMA or kind[tok] == COORD
            if sep:
                if first >= 0:
                    out_s[m], out_e[m] = first, -(child_item[q - 1] + 1)
                    m += 1
                first = -1
            elif first < 0:
                first = tok
    return m


def predicted_mentions(doc, analysis=None, dedupe_heads=True):
    """Rule-based mentions of a document (see module docstring): (starts, ends) int32 arrays.

    dedupe_heads=False keeps every candidate that shares its head with a larger one (the mention
    classifier's candidates, `candidate_mentions`)."""
    a = analysis or analyse_document(doc)
    parts = []  # (starts, ends, exempt) arrays
    kind = _token_kinds(a.words, a.tok_label, a.has_pos)
    if a.tree is not None:
        t = a.tree
        split_exempt = np.zeros(t.n_nodes, np.bool_)
        conj_s, conj_e = np.empty(a.n, np.int32), np.empty(a.n, np.int32)
        k = _split_parts(t.label, t.child_off, t.child_item, LABEL_IDS["NP"], kind, split_exempt, conj_s, conj_e)
        np_nodes = np.flatnonzero(t.label == LABEL_IDS["NP"])
        parts.append((t.start[np_nodes], t.end[np_nodes], a.coordinated[np_nodes] | split_exempt[np_nodes]))
        parts.append((conj_s[:k], conj_e[:k], np.ones(k, np.bool_)))
    if a.has_pos:
        pron = np.flatnonzero(_pronoun_pos_table()[a.tok_label]).astype(np.int32)
    else:
        pron = np.asarray([t for t, w in enumerate(a.lower) if w in PRONOUNS and w != "one"], np.int32)
    parts.append((pron, pron, np.zeros(len(pron), np.bool_)))
    numeric = [k for k, l in enumerate(a.ne_labels) if l in NUMERIC_NE_TYPES]
    if a.ne_labels:
        named = np.asarray([l not in NUMERIC_NE_TYPES for l in a.ne_labels], np.bool_)
        parts.append((a.ne_start[named], a.ne_end[named], np.zeros(int(named.sum()), np.bool_)))
    else:
        r_s, r_e = proper_noun_runs(a)
        parts.append((r_s, r_e, np.zeros(len(r_s), np.bool_)))
    if a.tree is None:
        sent_start = np.zeros(a.n + 1, np.bool_)
        sent_start[[0] + list(doc.sentence_ends[:-1])] = True
        s2, e2 = _capitalised_runs(doc, a.lower, sent_start)
        parts.append((np.asarray(s2, np.int32), np.asarray(e2, np.int32), np.zeros(len(s2), np.bool_)))
    s = np.concatenate([p[0] for p in parts]).astype(np.int32)
    if not len(s):
        return _EMPTY_I32.copy(), _EMPTY_I32.copy()
    e = np.concatenate([p[1] for p in parts]).astype(np.int32)
    ex = np.concatenate([p[2] for p in parts]).astype(np.bool_)
    _trim_spans(kind, s, e)
    real = (s < e) | (kind[s] == OTHER) | (kind[s] == COORD)
    s, e, ex = s[real], e[real], ex[real]
    # exact duplicates (an NE that is also an NP): keep one, exempt if any copy is
    key = s.astype(np.int64) * (a.n + 1) + e
    order = np.lexsort((~ex, key))
    key, s, e, ex = key[order], s[order], e[order], ex[order]
    first = np.ones(len(key), np.bool_)
    first[1:] = key[1:] != key[:-1]
    s, e, ex = s[first], e[first], ex[first]
    _, heads = a.spans_nodes_heads(s, e)
    keep = np.ones(len(s), np.bool_)
    if numeric:
        in_numeric = np.zeros(a.n, np.bool_)
        for k in numeric:
            in_numeric[a.ne_start[k] : a.ne_end[k] + 1] = True
        pron_tok = np.zeros(a.n, np.bool_)
        pron_tok[pron] = True
        keep &= ~in_numeric[heads] | ((s == e) & pron_tok[s])
    words = a.words
    pleonastic = [t for t in pron.tolist() if words[t] in _IT_FORMS and _pleonastic_it(words, t)]
    if pleonastic:
        keep &= ~((s == e) & np.isin(s, pleonastic))
    # same head: keep the largest span (ties: the earliest); coordinated NPs are exempt
    cand = np.flatnonzero(keep & ~ex) if dedupe_heads else _EMPTY_I32
    if len(cand):
        length = (e[cand] - s[cand]).astype(np.int64)
        order = np.lexsort((s[cand], -length, heads[cand]))
        h_sorted = heads[cand][order]
        dup = np.zeros(len(order), np.bool_)
        dup[1:] = h_sorted[1:] == h_sorted[:-1]
        keep[cand[order[dup]]] = False
    return s[keep], e[keep]


_NESTED_POS = ("NN", "NNS", "NNP", "NNPS", "CD")
_NAME_POS = ("NNP", "NNPS")


def nested_mentions(analysis):
    """Candidates inside NPs that the rules leave out (Python-free per token): each noun or number that
    modifies its NP's head ("the [L2] learners", "[Tuesday] 's vote") and each run of two or more proper
    nouns before the head ("the [New York] office"). Empty without a parse."""
    a = analysis
    if a.tree is None or not a.has_pos:
        return _EMPTY_I32.copy(), _EMPTY_I32.copy()
    t = a.tree
    parent = t.tok_parent
    n = a.n
    np_id = LABEL_IDS["NP"]
    inside = parent >= 0
    in_np = np.zeros(n, np.bool_)
    in_np[inside] = t.label[parent[inside]] == np_id
    head_of_parent = np.full(n, -1, np.int32)
    head_of_parent[inside] = a.node_head[parent[inside]]
    modifier = in_np & (head_of_parent != np.arange(n))
    single = np.flatnonzero(_tagged(a, _NESTED_POS) & modifier).astype(np.int32)
    starts, ends = _runs_under_one_node(_tagged(a, _NAME_POS) & modifier, parent)
    multi = ends > starts
    return np.concatenate([single, starts[multi]]), np.concatenate([single, ends[multi]])


def _runs_under_one_node(flag, parent):
    """(starts, ends) int32 of the maximal runs of consecutive flagged tokens sharing a parse node."""
    same = np.zeros(len(flag), np.bool_)
    same[1:] = flag[1:] & flag[:-1] & (parent[1:] == parent[:-1])
    starts = np.flatnonzero(flag & ~same).astype(np.int32)
    ends = np.flatnonzero(flag & ~np.append(same[1:], False)).astype(np.int32)
    return starts, ends


def proper_noun_runs(analysis):
    """The names of a document without named entities in its NE column (or without the column): each
    maximal run of proper nouns (NNP, NNPS) under one parse node ("the [U.S.] media", "[New York]"), which
    the rules take as they take the NE column's spans. Empty without a parse or POS."""
    a = analysis
    if a.tree is None or not a.has_pos:
        return _EMPTY_I32.copy(), _EMPTY_I32.copy()
    return _runs_under_one_node(_tagged(a, _NAME_POS), a.tree.tok_parent)


def _tagged(a, tags):
    """Per token of the analysed document: is its POS one of `tags` (the spare last entry answers label -1)."""
    return np.append(_label_table(tags), False)[a.tok_label]


def candidate_mentions(doc, analysis=None):
    """The mention classifier's candidates: the rules' mentions, the NPs the same-head rule drops and
    `nested_mentions`, sorted by (start, end). Several times as many spans as key mentions: the
    classifier (`coreflab.features.mention_model`) decides which are entities."""
    a = analysis or analyse_document(doc)
    s1, e1 = predicted_mentions(doc, a, dedupe_heads=False)
    s2, e2 = nested_mentions(a)
    spans = np.unique(np.stack([np.concatenate([s1, s2]), np.concatenate([e1, e2])], axis=1), axis=0)
    if not len(spans):
        return _EMPTY_I32.copy(), _EMPTY_I32.copy()
    return spans[:, 0].astype(np.int32).copy(), spans[:, 1].astype(np.int32).copy()


def mention_detection_scores(docs, mode="predicted"):
    """Mention recall, precision and F1 (exact span match, micro-averaged) of `mode`
    mentions ('gold' or 'predicted') against the key; also the counts."""
    extract = predicted_mentions if mode == "predicted" else gold_mentions
    n_gold = n_pred = n_match = 0
    for doc in docs:
        gs, ge = gold_mentions(doc)
        ps, pe = extract(doc)
        gold = set(zip(gs.tolist(), ge.tolist()))
        pred = set(zip(ps.tolist(), pe.tolist()))
        n_gold += len(gold)
        n_pred += len(pred)
        n_match += len(gold & pred)
    r = n_match / n_gold if n_gold else 0.0
    p = n_match / n_pred if n_pred else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"recall": r, "precision": p, "f1": f, "gold": n_gold, "predicted": n_pred, "matched": n_match}
