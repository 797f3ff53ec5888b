"""Choi & Cardie (2007): pairwise CRF, structured local training (SLT), biased potentials.

The local model is one binary variable per mention pair with a log-linear potential over
the pair's features, trained by maximum likelihood with a Gaussian prior of variance
σ² = 1.0. That is L2-regularised logistic regression with C = σ² (scikit-learn minimises
½‖w‖² + C·Σ loss): `coreflab.learn.pairwise.pair_logistic` minimises scikit-learn's lbfgs
objective, reading the pairs' features from the arc store (no design matrix, so every job stays
within 8 GB at CoNLL-2012 size), with a truncated Newton solver (`newton`) run until
‖∇f‖ ≤ tol·‖∇f(0)‖ (L-BFGS stops at its cap, where the order of floating-point sums
moves the tables by up to 3 points); `max_iter` caps its Newton iterations. Each EM
iteration's convergence record is kept (`convergence_`, saved with the model). The pairs of each
store the model meets are built once and cached on the model (not saved, cleared by fit).
Clustering is single link (connected components of the predicted-coreferent pairs).

Learners (registry names in `coreflab.learn.pairwise.crf_slt.VARIANTS`):
  cc_base             M-step on gold pair labels only (one iteration).
  cc_slt_closest      EM with the Fig. 1 E-step (closest to the local prediction).
  cc_slt_preserving   EM with the Fig. 2 E-step (closer to gold: keeps y*'s closest-antecedent chain).
Each takes `bias` in {none, p1, pa} and `bias_weight` λ: the likelihood terms of the closest
gold-coreferent pair of every anaphor (p1) or of all gold-coreferent pairs (pa) are weighted
by λ (per-pair `sample_weight`); never used at test time. The predicate reads the gold
labels y* whatever the E-step's hidden h is: the paper's predicate depends "only on the true
value of y_i in the training data", never on h.
EM runs `em_iterations` (paper: up to 5): iteration 1 is the M-step on gold labels, later
ones re-label with the E-step and refit warm-started. Every iteration's model is kept so
tables can report each iteration and the best of 2..T as the paper does.
"""

import numpy as np

from coreflab.decode.single_link import single_link
from coreflab.errors import UserError
from coreflab.learn.base import Learner
from coreflab.learn.labels import labels_to_antecedents
from coreflab.learn.pairwise.pair_data import build_pairs
from coreflab.learn.pairwise.pair_logistic import TOL, StorePairs, column_map_of, fit_logistic, probabilities
from coreflab.learn.pairwise.slt_estep import closest_positive_pairs, estep_closest, estep_preserving
from coreflab.learn.registry import register

VARIANTS = {"cc_base": "none", "cc_slt_closest": "closest", "cc_slt_preserving": "preserving"}
ESTEPS = {"closest": estep_closest, "preserving": estep_preserving}


class _PairCache(dict):
    """{id(store): (store, corpus, PairData, StorePairs)}, and the column map last used: a model with the
    same feature ids reads the pairs through that very array, so the layouts built for it are reused."""

    columns = None  # (n_bits, feature ids, column map)

    def same_columns(self, n_bits, ids, build):
        """The held column map if it is of n_bits and these ids; else `build()`, held from now on."""
        held = self.columns
        if held is not None and held[0] == n_bits and held[1] == ids:
            return held[2]
        self.columns = (n_bits, ids, build())
        return self.columns[2]


class PairwiseCRF(Learner):
    """Pairwise log-linear coreference model with optional SLT and biased potentials.

    The E-step is fixed by the registered variant (`estep` class attribute). coef_ packs
    every EM iteration's coefficients and intercepts (so one model file keeps them all).
    """

    estep = "none"
    _meta_fields = ("feature_ids_", "n_iterations_", "iteration_", "relabelled_", "convergence_")

    def __init__(
        self,
        bias="none",
        bias_weight=1.5,
        em_iterations=5,
        prior_variance=1.0,
        max_iter=300,
        tol=TOL,
        threshold=0.5,
        seed=0,
    ):
        self.bias = bias
        self.bias_weight = bias_weight
        self.em_iterations = em_iterations
        self.prior_variance = prior_variance
        self.max_iter = max_iter
        self.tol = tol
        self.threshold = threshold
        self.seed = seed

    # -- training ---------------------------------------------------------------------------
    def pair_weights(self, pairs):
        """Per-pair sample weights of the biased potential functions (1 where unbiased), from gold labels."""
        w = np.ones(len(pairs), dtype=np.float64)
        if self.bias == "pa":
            w[pairs.gold] = self.bias_weight
        elif self.bias == "p1":
            w[closest_positive_pairs(pairs, pairs.gold)] = self.bias_weight
        elif self.bias != "none":
            raise UserError(f"unknown bias {self.bias!r}; expected none, p1 or pa")
        return w

    def fit(self, train, dev=None, callback=None, first_fit=None, warm_start=None):
        """train = (CompiledCorpus, ArcStore); callback(iteration, model) after every M-step.

        first_fit: another fitted PairwiseCRF's `first_fit()` on the same split with the same bias,
        λ and solver settings: iteration 1 of every variant is the same fit on y*, so BASE and both
        SLT E-steps can share it instead of fitting it three times (a mismatch is a UserError).
        warm_start: another fitted PairwiseCRF's `first_fit()` of any settings (e.g. the unbiased BASE
        fit, for a biased one): iteration 1 starts from its weights (by hashed id; ids it lacks start at 0)
        instead of 0. The solver stops by the same criterion, relative to ‖∇f(0)‖: the same optimum to the
        same tolerance, by another path, so not the same weights (bench/cc2007_fits.py --warm-pa: not the same
        tables either, on GUM). Ignored where first_fit supplies iteration 1.
        """
        corpus, store = train if isinstance(train, tuple) else (train.corpus, train.store)
        self._pair_cache = self.__dict__.pop("_shared_pairs", None) or _PairCache()
        pairs, arcs = self._store_pairs(corpus, store)
        if not pairs.gold.any() or pairs.gold.all():
            raise UserError(
                f"{corpus.name}/{corpus.split}: training pairs need both coreferent and non-coreferent pairs"
            )
        cols = arcs.column_map()
        ids = np.flatnonzero(cols >= 0)
        self.feature_ids_ = ids.tolist()
        self._columns = (
            int(store.n_bits),
            self._pair_cache.same_columns(int(store.n_bits), self.feature_ids_, lambda: cols),
        )
        labels = pairs.gold.copy()
        weights = self.pair_weights(pairs)  # fixed: the predicate reads y*, not h
        self._iterations = []
        self.relabelled_ = []
        self.convergence_ = []  # per EM iteration: the solver's record (fit_logistic's convergence)
        for t in range(1, self.planned_epochs + 1):
            if t > 1:
                prob = probabilities(arcs.decision(cols, *self._iterations[-1]))
                new = ESTEPS[self.estep](pairs, prob, self.threshold)
                self.relabelled_.append(int(np.count_nonzero(new != labels)))
                labels = new
            if t == 1 and first_fit is not None:
                coef, intercept, record = self._shared_first_fit(first_fit)
            else:  # warm-started from the previous iteration, as LogisticRegression(warm_start=True)
                warm = self._iterations[-1] if self._iterations else None
                if warm is None and warm_start is not None:
                    warm = _aligned_start(warm_start, ids)
                coef, intercept, _, record = fit_logistic(
                    arcs,
                    cols,
                    ids.shape[0],
                    labels,
                    weights,
                    C=self.prior_variance,
                    tol=self.tol,
                    max_iter=self.max_iter,
                    warm=warm,
                )
                record = {**record, "start": "cold" if warm is None else ("warm" if t == 1 else "previous")}
            self._iterations.append((coef, intercept))
            self.convergence_.append(record)
            self.iteration_ = t
            self._pack()
            if callback is not None:
                callback(t, self)
        self.train_labels_ = labels
        return self

    def _settings(self):
        """What iteration 1 depends on besides the data (λ only where a bias uses it), the solver included."""
        weight = float(self.bias_weight) if self.bias != "none" else 1.0
        return (self.bias, weight, float(self.prior_variance), float(self.tol), int(self.max_iter), self.solver_)

    @property
    def solver_(self):
        """The solver of this model's fits: the Newton solver's, unless a model loaded from a file written
        before fits kept their convergence record, whose fits were L-BFGS's (then it stands in for no fit
        of today: `fit_key` differs)."""
        records = self.__dict__.get("convergence_")
        if records is None:
            return "lbfgs" if "coef_" in self.__dict__ else "newton"
        return records[0].get("solver", "newton") if records and records[0] else "newton"

    @property
    def planned_epochs(self):
        """The EM iterations a fit runs: one M-step without an E-step (BASE), else `em_iterations`."""
        return 1 if self.estep == "none" else int(self.em_iterations)

    def fit_key(self):
        """Everything the fitted coefficients depend on besides the training store: two models with
        equal keys fitted on one store are the same fit, so one can stand in for the other."""
        return (self.estep, *self._settings(), self.planned_epochs, float(self.threshold))

    def fitted_on(self, train):
        """True if this fitted (or loaded) model's features are the ones `fit(train)` would use."""
        corpus, store = train if isinstance(train, tuple) else (train.corpus, train.store)
        _, arcs = self._store_pairs(corpus, store)
        return np.flatnonzero(arcs.column_map() >= 0).tolist() == list(self.feature_ids_)

    def first_fit_key(self):
        """What `first_fit()` of this learner depends on besides the store: equal keys, one shared fit."""
        return self._settings()

    def first_fit(self):
        """Iteration 1 of this fitted model, for `fit(first_fit=...)` of a variant on the same split."""
        coef, intercept = self.iterations_[0]
        record = (getattr(self, "convergence_", None) or [None])[0]
        return {
            "settings": self._settings(),
            "feature_ids": self.feature_ids_,
            "coef": coef,
            "intercept": intercept,
            "convergence": record,
        }

    def _shared_first_fit(self, first_fit):
        if first_fit["settings"] != self._settings() or first_fit["feature_ids"] != self.feature_ids_:
            raise UserError(
                f"first_fit comes from other settings or another training store: {first_fit['settings']} vs {self._settings()}"
            )
        return (
            np.array(first_fit["coef"], dtype=np.float64),
            float(first_fit["intercept"]),
            first_fit.get("convergence"),
        )

    _CACHED_STORES = 4  # train, test, and a little more: cc-run scores two splits per iteration

    def share_pairs(self, other):
        """Read the stores through `other`'s pairs from now on (its next fit included): the models one job
        fits (a paper's grid run) build each store's pairs and their layout once, not once per model."""
        cache = other.__dict__.setdefault("_pair_cache", _PairCache())
        self._pair_cache = self._shared_pairs = cache

    def _store_pairs(self, corpus, store):
        """(PairData, StorePairs) of a split, built once per store object (held, so its id stays unique;
        the least recently built entry goes beyond _CACHED_STORES)."""
        cache = self.__dict__.setdefault("_pair_cache", _PairCache())
        hit = cache.get(id(store))
        if hit is None or hit[0] is not store or hit[1] is not corpus:
            cache.pop(id(store), None)
            while len(cache) >= self._CACHED_STORES:
                cache.pop(next(iter(cache)))
            pairs = build_pairs(corpus, store)
            hit = cache[id(store)] = (store, corpus, pairs, StorePairs(store, pairs.arcs))
        return hit[2], hit[3]

    def _column_map(self, n_bits):
        """Hashed id -> column of the fitted (or loaded) model, for stores hashed into 2**n_bits."""
        if self.__dict__.get("_columns", (None,))[0] != int(n_bits):
            cache = self.__dict__.setdefault("_pair_cache", _PairCache())
            cols = cache.same_columns(int(n_bits), self.feature_ids_, lambda: column_map_of(self.feature_ids_, n_bits))
            self._columns = (int(n_bits), cols)
        return self._columns[1]

    def _pack(self):
        """coef_ = every iteration's coefficients, then their intercepts; _iterations become views of it."""
        k, n = len(self._iterations), len(self.feature_ids_)
        coef = np.empty(k * n + k, dtype=np.float64)
        for t, (c, b) in enumerate(self._iterations):
            coef[t * n : (t + 1) * n], coef[k * n + t] = c, b
        self.n_iterations_, self.coef_ = k, coef
        self._iterations = [(coef[t * n : (t + 1) * n], b) for t, (_, b) in enumerate(self._iterations)]

    @property
    def iterations_(self):
        """[(coefficients, intercept)] of every EM iteration (unpacked from coef_ after a load)."""
        if "_iterations" not in self.__dict__:
            k, n = self.n_iterations_, len(self.feature_ids_)
            coefs = np.asarray(self.coef_[: k * n]).reshape(k, n)
            self._iterations = [(coefs[t], float(self.coef_[k * n + t])) for t in range(k)]
        return self._iterations

    # -- prediction -------------------------------------------------------------------------
    def pair_probabilities(self, data, iteration=None):
        """P(coreferent) of every candidate pair of data = (corpus, store), and the pairs."""
        corpus, store = data if isinstance(data, tuple) else (data.corpus, data.store)
        pairs, arcs = self._store_pairs(corpus, store)
        coef, intercept = self.iterations_[(iteration or self.iteration_) - 1]
        return pairs, probabilities(arcs.decision(self._column_map(store.n_bits), np.asarray(coef), intercept))

    def cluster(self, pairs, prob):
        """Cluster id per mention row: single link over the pairs with P ≥ threshold."""
        return single_link(pairs.n_mentions, pairs.ante, pairs.ana, prob >= self.threshold)

    def predict_labels(self, data, iteration=None):
        """Cluster id per mention row (single link over pairs with P ≥ threshold)."""
        return self.cluster(*self.pair_probabilities(data, iteration))

    def predict(self, corpus, store, iteration=None):
        """Antecedent per mention (document-local, -1 = new cluster) of the single-link clustering."""
        return labels_to_antecedents(self.predict_labels((corpus, store), iteration), store.doc_mention_offsets)


def _aligned_start(fit, ids):
    """(coef, intercept) of a `first_fit()` dict on the columns of the sorted hashed ids `ids` (0 where
    the fit has no weight for an id)."""
    src_ids = np.asarray(fit["feature_ids"], dtype=np.int64)
    src = np.asarray(fit["coef"], dtype=np.float64)
    coef = np.zeros(ids.shape[0], dtype=np.float64)
    if src_ids.shape[0]:
        pos = np.minimum(np.searchsorted(src_ids, ids), src_ids.shape[0] - 1)
        found = src_ids[pos] == ids
        coef[found] = src[pos[found]]
    return coef, float(fit["intercept"])


@register("cc_base")
class CCBase(PairwiseCRF):
    """BASE: the pairwise model trained on gold pair labels."""


@register("cc_slt_closest")
class CCSLTClosest(PairwiseCRF):
    """SLT with the E-step closest to the local prediction (Fig. 1)."""

    estep = "closest"


@register("cc_slt_preserving")
class CCSLTPreserving(PairwiseCRF):
    """SLT with the connectivity-preserving E-step (Fig. 2)."""

    estep = "preserving"


def make_cc_learner(name, **params):
    """The learner of a Choi & Cardie registry name (cc_base, cc_slt_closest, cc_slt_preserving)."""
    if name not in VARIANTS:
        raise UserError(f"unknown learner {name!r}; expected one of {', '.join(VARIANTS)}")
    return {"cc_base": CCBase, "cc_slt_closest": CCSLTClosest, "cc_slt_preserving": CCSLTPreserving}[name](**params)


def pair_decision_scores(gold, pred):
    """Pairwise error rate and P/R/F (percent) of binary pair decisions (Choi & Cardie's Table 1)."""
    gold, pred = np.asarray(gold, bool), np.asarray(pred, bool)
    tp = int(np.count_nonzero(gold & pred))
    n_pred, n_gold = int(np.count_nonzero(pred)), int(np.count_nonzero(gold))
    p = 100.0 * tp / n_pred if n_pred else 0.0
    r = 100.0 * tp / n_gold if n_gold else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    err = 100.0 * np.count_nonzero(gold != pred) / gold.size if gold.size else 0.0
    return {"error_rate": err, "precision": p, "recall": r, "f1": f}
