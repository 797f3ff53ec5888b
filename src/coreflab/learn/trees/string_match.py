"""The string-match baseline: antecedents from string identity and pronoun agreement.

The usual exact-match baseline of the CoNLL shared tasks (Pradhan et al. 2012, Sec. 5; the
first sieves of Lee et al. 2013), run in numba over the compiled arrays:
  * a name or common noun phrase links to the closest preceding non-pronoun mention with the
    same lower-cased full string, else to the closest one with the same head word;
  * a third-person pronoun links to the closest preceding mention (at most `window`
    sentences back, so the same and previous sentences come first) that agrees in number
    (unknown agrees with anything), is not a first/second-person pronoun and has the same
    known gender; failing that, to the closest such mention of unknown gender (so "he"
    prefers "John" to a nearer "the dog");
  * a first/second-person pronoun links to the closest preceding pronoun of the same person
    (and agreeing number) within the window;
  * a mention never links to a mention that contains it or that it contains.
Antecedent -1 starts a new cluster. `coreflab baseline` writes the clusters through the same
`learn.output.response_documents` as every learner's predictions.
"""

import numpy as np
from numba import njit

from coreflab.corpus.compiled import TYPE_PRONOUN
from coreflab.corpus.lexicon import PRONOUNS
from coreflab.learn.base import Learner
from coreflab.learn.registry import register


@njit(cache=True)
def _nested(si, ei, sj, ej):
    return (si <= sj and ej <= ei) or (sj <= si and ei <= ej)


@njit(cache=True)
def _antecedents(doc_off, m_start, m_end, m_sentence, m_type, m_gender, m_number, m_head, m_full, m_person, window):
    n = m_start.shape[0]
    ante = np.full(n, -1, np.int64)
    for d in range(doc_off.shape[0] - 1):
        lo = doc_off[d]
        hi = doc_off[d + 1]
        for j in range(lo, hi):
            if m_type[j] == TYPE_PRONOUN:
                pj = m_person[j]
                compatible = -1
                for i in range(j - 1, lo - 1, -1):
                    if m_sentence[j] - m_sentence[i] > window:
                        break
                    if _nested(m_start[i], m_end[i], m_start[j], m_end[j]):
                        continue
                    gi, gj = m_gender[i], m_gender[j]
                    ni, nj = m_number[i], m_number[j]
                    if not (ni == 0 or nj == 0 or ni == nj):
                        continue
                    if pj == 1 or pj == 2:
                        if m_type[i] == TYPE_PRONOUN and m_person[i] == pj:
                            ante[j] = i
                            break
                    else:
                        if m_type[i] == TYPE_PRONOUN and (m_person[i] == 1 or m_person[i] == 2):
                            continue
                        if gi == gj and gi != 0:
                            ante[j] = i
                            break
                        if compatible < 0 and (gi == 0 or gj == 0):
                            compatible = i
                if ante[j] < 0:
                    ante[j] = compatible
            else:
                best_head = -1
                for i in range(j - 1, lo - 1, -1):
                    if m_type[i] == TYPE_PRONOUN:
                        continue
                    if _nested(m_start[i], m_end[i], m_start[j], m_end[j]):
                        continue
                    if m_full[i] == m_full[j]:
                        ante[j] = i
                        break
                    if best_head < 0 and m_head[i] == m_head[j]:
                        best_head = i
                if ante[j] < 0:
                    ante[j] = best_head
    return ante


def pronoun_persons(corpus):
    """Per mention the grammatical person of its pronoun (1, 2, 3), 0 for non-pronouns."""
    table = np.zeros(len(corpus.vocab) + 1, np.int8)
    for i in np.unique(corpus.m_pronoun[corpus.m_pronoun >= 0]).tolist():
        info = PRONOUNS.get(corpus.vocab[i])
        table[i] = info[0] if info else 3
    return table[corpus.m_pronoun]  # -1 indexes the spare last entry (0)


def string_match_antecedents(corpus, window=3):
    """Antecedent row (global) of every mention of a CompiledCorpus, -1 for a new cluster."""
    return _antecedents(
        corpus.doc_mention_offsets.astype(np.int64),
        corpus.m_start,
        corpus.m_end,
        corpus.m_sentence,
        corpus.m_type,
        corpus.m_gender,
        corpus.m_number,
        corpus.m_head_str,
        corpus.m_full_str,
        pronoun_persons(corpus),
        int(window),
    )


@register("string_match")
class StringMatch(Learner):
    """The baseline as a registered learner (nothing to learn): `fit` records an empty weight
    vector so the model saves and loads like any other; `predict(corpus, store)` ignores the
    arc store (string match reads the compiled mention attributes)."""

    def __init__(self, window=3):
        self.window = window

    def fit(self, train=None, dev=None, callback=None):
        self.coef_ = np.zeros(0)
        if callback is not None:
            callback(1, self)
        return self

    def predict(self, corpus, store=None):
        """Document-local antecedents, as every learner's predict (`string_match_antecedents` gives rows)."""
        ante = string_match_antecedents(corpus, self.window)
        return np.where(ante >= 0, ante - corpus.doc_mention_offsets[corpus.m_doc], -1)
