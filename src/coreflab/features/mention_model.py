"""The learned mention classifier: is a rule-extracted candidate an entity mention of the key?

Rule-based extraction (`coreflab.corpus.mentions`) finds most key mentions but several times as
many candidates that the key does not mark (generic NPs, parts of names, non-referential NPs, and in
an OntoNotes-scheme key every entity mentioned once). A logistic regression over sparse features of
the candidate -- its parse label and children, head word and POS, determiner, named-entity type,
pronoun form, length, nesting, the words around it, and how often its head and its full string recur
in the document -- gives each candidate the probability that it is a key mention (anaphoricity /
singleton detection, Recasens et al. 2013; Björkelund & Farkas 2012 filter with the same cues).

The candidates are the rules' mentions, or (`extended`) those and the nested spans the rules leave out:
nouns modifying a head and NPs sharing a head with a larger one, which some schemes mark (GUM). Two uses
(`coreflab prepare --mention-model`): candidates below the filter probability are dropped
before the learners see them, and the `entities` singleton policy keeps an unlinked mention as a
one-mention entity where the probability is at least one half (`coreflab.learn.output`).

The training split's own probabilities are cross-fitted (each fold of documents scored by a model fit
on the others), so that the learners train on candidates filtered as the test split's will be.
Features are hashed integers over the compiled arrays: no Python loop per mention.
"""

import dataclasses
import json
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from coreflab.corpus.compile import embedding_rows
from coreflab.corpus.compiled import OPTIONAL_ARRAY_FIELDS
from coreflab.errors import UserError
from coreflab.features.hashing import string_keys

N_COLUMNS = 1 << 20
# the spans a model classifies -> the `compile_documents` mode that extracts them: the rules' mentions, or
# those and the nested spans the rules leave out (`coreflab.corpus.mentions.candidate_mentions`)
CANDIDATE_SETS = {"rules": "predicted", "extended": "candidates"}
FORMAT = "coreflab-mention-model/1"
TEMPLATES = (
    "type",
    "category",
    "subcategory",
    "head",
    "first",
    "last",
    "ne",
    "pronoun",
    "length",
    "type+length",
    "previous",
    "next",
    "head_pos",
    "first_pos",
    "number+gender",
    "type+embedded",
    "type+embeds",
    "type+head_count",
    "type+string_count",
    "type+first_of_head",
    "head+category",
    "category+head_pos",
    "path_s",
    "type+sentence",
    "type+ne",
)


_STRING_FIELDS = (
    "m_category",
    "m_subcategory",
    "m_head_str",
    "m_first_str",
    "m_last_str",
    "m_full_str",
    "m_ne",
    "m_pronoun",
    "m_path_s",
    "tok_lower",
    "tok_pos",
)


def _bucket(x, edges):
    """Index of the bucket of each value (edges: ascending upper bounds, inclusive)."""
    return np.searchsorted(np.asarray(edges), x, side="left").astype(np.int64)


def _doc_counts(doc, key):
    """Per mention: how many mentions of its document share `key` (itself included)."""
    pair = doc.astype(np.int64) * (int(key.max(initial=0)) + 2) + (key.astype(np.int64) + 1)
    _, inverse, counts = np.unique(pair, return_inverse=True, return_counts=True)
    return counts[inverse]


def _first_of(doc, key):
    """Per mention: is it the first mention of its document with this `key` (rows are in text order)?"""
    pair = doc.astype(np.int64) * (int(key.max(initial=0)) + 2) + (key.astype(np.int64) + 1)
    _, first = np.unique(pair, return_index=True)
    out = np.zeros(len(pair), np.bool_)
    out[first] = True
    return out


def template_values(corpus):
    """(n_mentions, len(TEMPLATES)) int64 values, one column per template (see TEMPLATES)."""
    n = corpus.n_mentions
    keys = string_keys(corpus.vocab).astype(np.int64)
    a = dict(corpus.arrays)
    for name in _STRING_FIELDS:  # vocabulary ids differ between splits; the strings' keys do not
        ids = a[name].astype(np.int64)
        a[name] = np.where(ids >= 0, keys[np.maximum(ids, 0)], ids)
    doc = a["m_doc"].astype(np.int64)
    tok_off = a["doc_token_offsets"]
    base = tok_off[doc]
    g_start, g_end, g_head = base + a["m_start"], base + a["m_end"], base + a["m_head"]
    doc_end = tok_off[doc + 1]
    prev = np.where(g_start > base, a["tok_lower"][np.maximum(g_start - 1, 0)], -2)
    nxt = np.where(g_end + 1 < doc_end, a["tok_lower"][np.minimum(g_end + 1, len(a["tok_lower"]) - 1)], -2)
    tok_pos = a["tok_pos"]
    typ = a["m_type"].astype(np.int64)
    length = _bucket(a["m_end"] - a["m_start"] + 1, [1, 2, 3, 4, 7, 12])
    embedded = (a["m_embedded"] >= 0).astype(np.int64)
    embeds = np.zeros(n, np.int64)
    inner = a["m_embedded"][a["m_embedded"] >= 0]
    np.add.at(embeds, inner, 1)
    embeds = np.minimum(embeds, 3)
    head_count = _bucket(_doc_counts(doc, a["m_head_str"]), [1, 2, 3, 5, 9])
    string_count = _bucket(_doc_counts(doc, a["m_full_str"]), [1, 2, 3, 5])
    first_of_head = _first_of(doc, a["m_head_str"]).astype(np.int64)
    sentence = _bucket(a["m_sentence"], [0, 1, 4, 10])
    head = a["m_head_str"].astype(np.int64)
    category = a["m_category"].astype(np.int64)
    big = np.int64(1 << 21)
    columns = [
        typ,
        category,
        a["m_subcategory"],
        head,
        a["m_first_str"],
        a["m_last_str"],
        a["m_ne"],
        a["m_pronoun"],
        length,
        typ * 16 + length,
        prev,
        nxt,
        tok_pos[g_head],
        tok_pos[g_start],
        a["m_number"].astype(np.int64) * 8 + a["m_gender"],
        typ * 4 + embedded,
        typ * 4 + embeds,
        typ * 16 + head_count,
        typ * 16 + string_count,
        typ * 4 + first_of_head,
        head * big + (category + 2),
        (category + 2) * big + (tok_pos[g_head].astype(np.int64) + 2),
        a["m_path_s"],
        typ * 16 + sentence,
        typ * big + (a["m_ne"].astype(np.int64) + 2),
    ]
    return np.stack([np.asarray(c, np.int64) for c in columns], axis=1)


def design_matrix(corpus):
    """The hashed binary features of every mention: CSR (n_mentions, N_COLUMNS), float32."""
    values = template_values(corpus)
    n, k = values.shape
    mixed = (values + 7) * np.int64(0x9E3779B1) + (np.arange(k, dtype=np.int64) + 1) * np.int64(0x85EBCA77)
    mixed ^= mixed >> np.int64(29)
    cols = (mixed & np.int64(N_COLUMNS - 1)).astype(np.int32).ravel()
    indptr = np.arange(0, n * k + 1, k, dtype=np.int64)
    m = sp.csr_matrix((np.ones(n * k, np.float32), cols, indptr), shape=(n, N_COLUMNS))
    m.sum_duplicates()
    m.data[:] = 1.0
    return m


def _labels(corpus):
    if "key" in corpus.missing:
        raise UserError(
            f"{corpus.name}/{corpus.split}: the mention classifier learns from a key, and this split has none"
        )
    return np.asarray(corpus.arrays["m_in_key"], np.int8)


def _fit(x, y, c):
    from sklearn.linear_model import LogisticRegression

    if y.min() == y.max():
        raise UserError(
            "the mention classifier needs candidates both in and out of the key; the training split has one kind"
        )
    model = LogisticRegression(C=c, solver="liblinear", max_iter=200, random_state=0)
    model.fit(x, y)
    return model.coef_.ravel().astype(np.float32), float(model.intercept_[0])


@dataclass
class MentionModel:
    """A fitted classifier: weights over the hashed columns, intercept, and how it was fit."""

    weights: np.ndarray
    intercept: float
    c: float
    folds: int
    stats: dict
    candidates: str = "rules"  # which spans it classifies: CANDIDATE_SETS
    # the training split's cross-fitted probabilities and the fingerprint of its candidates: `coreflab
    # prepare` reuses them for that split instead of fitting every fold again (at CoNLL-2012 size with
    # predicted mentions, about four of its five minutes)
    train_probabilities: np.ndarray | None = None
    train_fingerprint: str = ""

    @property
    def extractor(self):
        """The `compile_documents` mention mode that extracts this model's candidates."""
        return CANDIDATE_SETS[self.candidates]

    def probabilities(self, corpus):
        """P(key mention) of every mention of a compiled split (float32)."""
        return _probability(design_matrix(corpus), self.weights, self.intercept)

    def save(self, path):
        from coreflab.corpus.readers.conll import atomic_write_bytes

        meta = {
            "format": FORMAT,
            "intercept": self.intercept,
            "c": self.c,
            "folds": self.folds,
            "candidates": self.candidates,
            "stats": self.stats,
        }
        nz = np.flatnonzero(self.weights)
        import io

        buf = io.BytesIO()
        extra = {}
        if self.train_probabilities is not None:
            meta["train_fingerprint"] = self.train_fingerprint
            extra["train_probabilities"] = np.asarray(self.train_probabilities, np.float32)
        np.savez_compressed(
            buf, columns=nz.astype(np.int32), weights=self.weights[nz], meta=np.array(json.dumps(meta)), **extra
        )
        atomic_write_bytes(path, buf.getvalue())

    @classmethod
    def load(cls, path):
        try:
            with np.load(path, allow_pickle=False) as z:
                meta = json.loads(str(z["meta"]))
                weights = np.zeros(N_COLUMNS, np.float32)
                weights[z["columns"]] = z["weights"]
                train_probabilities = z["train_probabilities"] if "train_probabilities" in z.files else None
        except (OSError, KeyError, ValueError) as err:
            raise UserError(f"{path}: not a mention model written by `coreflab mention-model` ({err})") from None
        if meta.get("format") != FORMAT:
            raise UserError(f"{path}: mention model format {meta.get('format')!r}, expected {FORMAT!r}")
        candidates = meta.get("candidates", "rules")
        if candidates not in CANDIDATE_SETS:
            raise UserError(f"{path}: candidate set {candidates!r}, expected one of {', '.join(CANDIDATE_SETS)}")
        return cls(
            weights,
            float(meta["intercept"]),
            float(meta["c"]),
            int(meta["folds"]),
            meta.get("stats", {}),
            candidates,
            train_probabilities,
            meta.get("train_fingerprint", ""),
        )


def _probability(x, weights, intercept):
    """P(key mention) of each row of a design matrix under a fit (float32)."""
    return (1.0 / (1.0 + np.exp(-(x @ weights + intercept)))).astype(np.float32)


def _fits(x, y, c, subsets, jobs):
    """(weights, intercept) of a fit on each row subset (None: every row; a subset with one kind of label
    gives None), `jobs` at a time: liblinear releases the GIL, so threads share `x` instead of copying it
    into processes. BLAS runs on one thread whatever the process's: the count changes the weights
    (liblinear's dot products over the 2**20 weights sum in another order), and Snakemake gives a job as
    many BLAS threads as its threads, so a fit would depend on `--cores`."""
    from threadpoolctl import threadpool_limits

    def fit(rows):
        if rows is None:
            return _fit(x, y, c)
        return _fit(x[rows], y[rows], c) if y[rows].min() < y[rows].max() else None

    with threadpool_limits(limits=1, user_api="blas"):
        if jobs <= 1 or len(subsets) <= 1:
            return [fit(rows) for rows in subsets]
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=jobs) as pool:
            return list(pool.map(fit, subsets))


def fit_mention_model(corpus, c=1.0, folds=5, candidates="rules", jobs=1):
    """Fit the classifier on a compiled split of predicted candidates (labels: `m_in_key`; `candidates`
    names how they were extracted, CANDIDATE_SETS); its stats hold the cross-fitted precision and recall
    on that split (`detection_stats`). The whole fit and the folds' fits run `jobs` at a time, BLAS on one
    thread whatever the job's threads."""
    x, y = design_matrix(corpus), _labels(corpus)
    fold = _folds(corpus, folds)
    subsets = [None] + ([] if fold is None else [fold != f for f in range(folds)])
    fitted = _fits(x, y, c, subsets, jobs)
    weights, intercept = fitted[0]
    model = MentionModel(weights, intercept, c, folds, {}, candidates)
    crossed = _cross_fitted(x, y, fold, model, fitted[1:]) if fold is not None else _probability(x, weights, intercept)
    model.stats = {"train_cross_fitted": detection_stats(corpus, crossed)}
    model.train_probabilities, model.train_fingerprint = crossed, candidates_fingerprint(corpus)
    return model


def candidates_fingerprint(corpus):
    """A digest of a compiled split's documents and candidate spans: the same split extracted the same way
    (the mention-model job's and prepare's compilation of one training file) has the same one."""
    import hashlib

    h = hashlib.sha256()
    h.update("\n".join(corpus.doc_ids).encode("utf-8"))
    for name in ("m_doc", "m_start", "m_end"):
        h.update(np.ascontiguousarray(corpus.arrays[name], np.int64).tobytes())
    return h.hexdigest()


def cross_fitted_probabilities(corpus, model, x=None, y=None, jobs=1):
    """P(key mention) of the training split's own candidates, each fold of documents (document index mod
    `model.folds`) scored by a model fit on the other folds with the same C, `jobs` fits at a time. The
    ones the model kept from its fit are returned when `corpus` has its training split's fingerprint (the
    same fits' results)."""
    stored = model.train_probabilities
    if stored is not None and len(stored) == corpus.n_mentions:
        if model.train_fingerprint == candidates_fingerprint(corpus):
            return np.array(stored, np.float32)
    fold = _folds(corpus, model.folds)
    if fold is None:
        return model.probabilities(corpus)
    x = design_matrix(corpus) if x is None else x
    y = _labels(corpus) if y is None else y
    fits = _fits(x, y, model.c, [fold != f for f in range(model.folds)], jobs)
    return _cross_fitted(x, y, fold, model, fits)


def _folds(corpus, folds):
    """Each mention's cross-fitting fold (its document's index mod `folds`), or None when there are too
    few documents or folds to cross-fit."""
    if folds < 2 or corpus.n_docs < folds:
        return None
    return corpus.arrays["m_doc"] % folds


def _cross_fitted(x, y, fold, model, fits):
    """Each fold's rows scored by the fit on the other folds (the whole model's weights where the other
    folds hold one kind of label only, and where a fit is None)."""
    out = np.empty(len(y), np.float32)
    for f, fitted in enumerate(fits):
        test = fold == f
        if not test.any():
            continue
        w, b = fitted if fitted is not None else (model.weights, model.intercept)
        out[test] = _probability(x[test], w, b)
    return out


def detection_stats(corpus, prob, thresholds=(0.0, 0.1, 0.2, 0.3, 0.5)):
    """Precision and recall against the key of the candidates kept at each threshold, overall and per
    mention type (P pronoun, N name, C common noun phrase): how much of the key the rules find, and what
    the classifier keeps of it. Counts are over the compiled candidates; `key` is the key's own mentions
    of the candidates' types where known, else the candidates' matches (the rules' recall is reported by
    `coreflab prepare` against every key mention)."""
    from coreflab.corpus.compiled import TYPE_LETTERS

    y = corpus.arrays["m_in_key"].astype(bool)
    typ = corpus.arrays["m_type"]
    out = {}
    for t in thresholds:
        kept = prob >= t
        row = {}
        for name, sel in [("all", np.ones(len(y), bool))] + [(TYPE_LETTERS[k], typ == k) for k in (1, 2, 3)]:
            tp = int(np.count_nonzero(kept & y & sel))
            n_kept = int(np.count_nonzero(kept & sel))
            n_key = int(np.count_nonzero(y & sel))
            row[name] = {
                "kept": n_kept,
                "matched": tp,
                "recall_of_candidates": tp / n_key if n_key else 0.0,
                "precision": tp / n_kept if n_kept else 0.0,
            }
        out[f"{t:g}"] = row
    return out


def select_mentions(corpus, keep):
    """A copy of the compiled split with only the mentions where `keep` is true (per-mention arrays cut,
    document offsets and nesting recomputed; tokens, vocabulary and key ids unchanged)."""
    keep = np.asarray(keep, np.bool_)
    if keep.shape[0] != corpus.n_mentions:
        raise ValueError("keep must have one entry per mention")
    arrays = dict(corpus.arrays)
    per_doc = np.add.reduceat(keep.astype(np.int64), corpus.arrays["doc_mention_offsets"][:-1]) if corpus.n_docs else []
    # reduceat over an empty last document repeats the previous count: recount those
    offs = corpus.arrays["doc_mention_offsets"]
    per_doc = np.asarray(per_doc, np.int64)
    per_doc[offs[:-1] == offs[1:]] = 0
    for k, v in corpus.arrays.items():
        if k.startswith("m_"):
            arrays[k] = v[keep]
    arrays["doc_mention_offsets"] = np.concatenate([[0], np.cumsum(per_doc)]).astype(np.int64)
    arrays["m_embedded"] = embedding_rows(arrays["doc_mention_offsets"], arrays["m_start"], arrays["m_end"])
    out = dataclasses.replace(corpus, doc_ids=list(corpus.doc_ids), missing=list(corpus.missing), arrays=arrays)
    return out


def apply_mention_model(corpus, model, filter_below, cross_fit=False, jobs=1):
    """The split with every candidate's entity probability (`m_entity`) and those below `filter_below`
    dropped; cross_fit scores the model's own training split fold by fold (`jobs` fits at a time)."""
    prob = cross_fitted_probabilities(corpus, model, jobs=jobs) if cross_fit else model.probabilities(corpus)
    corpus.arrays["m_entity"] = prob.astype(OPTIONAL_ARRAY_FIELDS["m_entity"])
    return select_mentions(corpus, prob >= filter_below), prob


__all__ = [
    "MentionModel",
    "fit_mention_model",
    "cross_fitted_probabilities",
    "candidates_fingerprint",
    "apply_mention_model",
    "select_mentions",
    "design_matrix",
    "detection_stats",
    "detection_by_type",
    "TEMPLATES",
    "CANDIDATE_SETS",
]


def detection_by_type(key_corpus, stages):
    """Mention detection of each stage's mentions against the key mentions of `key_corpus` (the same split
    compiled with gold mentions), overall and per mention type: recall per type of the key mention,
    precision per type of the predicted one. Exact span match.

    stages: {name: (compiled split, mask of its mentions that the stage keeps, or None for all)}."""
    from coreflab.corpus.compiled import TYPE_LETTERS

    def spans(c):
        a = c.arrays
        return (a["m_doc"].astype(np.int64) << 40) | (a["m_start"].astype(np.int64) << 20) | a["m_end"]

    gold = spans(key_corpus)
    gold_type = key_corpus.arrays["m_type"]
    out = {}
    for stage, (corpus, kept) in stages.items():
        mask = np.ones(corpus.n_mentions, bool) if kept is None else np.asarray(kept, bool)
        cand, cand_type = spans(corpus), corpus.arrays["m_type"]
        in_key = corpus.arrays["m_in_key"].astype(bool)
        found = np.isin(gold, cand[mask])
        row = {}
        for name, k in [("all", None)] + [(TYPE_LETTERS[t], t) for t in (1, 2, 3)]:
            g = np.ones(len(gold), bool) if k is None else gold_type == k
            c = mask if k is None else mask & (cand_type == k)
            n_key, n_found = int(g.sum()), int((found & g).sum())
            n_cand, n_right = int(c.sum()), int((c & in_key).sum())
            r = n_found / n_key if n_key else 0.0
            p = n_right / n_cand if n_cand else 0.0
            row[name] = {
                "key": n_key,
                "predicted": n_cand,
                "recall": r,
                "precision": p,
                "f1": 2 * p * r / (p + r) if p + r else 0.0,
            }
        out[stage] = row
    return out
