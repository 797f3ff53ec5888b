"""L3M, the latent left-linking model (Samdani, Chang & Roth 2014), trained by SGD.

P(j ← i) = exp(w·φ(i,j)/γ) / Σ_{0≤k<i} exp(w·φ(i,k)/γ) with w·φ(i,0) = 0; inference is
online: item i joins the cluster with the largest summed link probability, or starts a
new one when the dummy wins. γ = 0 is the max-left-link limit. Learning is per-item SGD
on the loss-augmented latent objective (docs/methods.md, "Samdani, Chang & Roth 2014"); the kernels are in
`leftlink_kernels`. Works on any `ArcStore`-shaped data: mentions of a document
(coreference) or posts of an item set (document clustering, real-valued features).
"""

import numpy as np

from coreflab.decode.left_link import Links, l3m_cluster
from coreflab.features.shared_rows import expand
from coreflab.learn.base import Learner, as_training_data
from coreflab.learn.labels import ClusteringLearnerMixin
from coreflab.learn.leftlink.kernels import l3m_objective, l3m_sgd_epoch
from coreflab.learn.registry import register


def arc_values(store):
    """Per feature entry value: the store's `arc_vals` if it has them, else 1 (binary features)."""
    vals = getattr(store, "arc_vals", None)
    if vals is None:
        return np.ones(np.asarray(store.arc_feats).shape[0], dtype=np.float64)
    return np.asarray(vals, dtype=np.float64)


def _int_array(a):
    """`a` as it is when already int32/int64 (the kernels take either), else as int64."""
    a = np.asarray(a)
    return a if a.dtype in (np.int32, np.int64) else a.astype(np.int64)


def kernel_arrays(data, lean=False):
    """The `Links` bundle the left-link kernels take, from TrainingData.

    lean: no per-feature-entry copies. A binary store gets an empty `arc_vals` (the
    `leftlink_kernels` L3M kernels read it as "every value is 1") and `arc_feats` keeps
    its integer type. On the conll2012-size store (2e8 entries) the default path
    allocates and fills 3.2 GB (an int64 copy of the int32 ids plus the ones), which
    cost more than a whole L3M pass; kernels that index `arc_vals` directly
    need the default.
    """
    s = data.store
    if not lean:  # the valued kernels index arc_vals per entry: flat ids
        s = expand(s)
    if lean:
        vals = getattr(s, "arc_vals", None)
        feats = _int_array(s.arc_feats)
        vals = np.empty(0) if vals is None else np.asarray(vals, dtype=np.float64)
    else:
        feats = np.asarray(s.arc_feats, dtype=np.int64)
        vals = arc_values(s)
    return Links(
        np.asarray(s.doc_mention_offsets, dtype=np.int64),
        np.asarray(s.m_arc_offsets, dtype=np.int64),
        np.asarray(s.arc_ante, dtype=np.int32),
        np.asarray(s.arc_feat_offsets, dtype=np.int64),
        feats,
        vals,
    )


def item_weights(doc_item_offsets, weighting="document"):
    """Per-item weight u_i of the SGD objective Σ_i u_i f_i + N·λ/2‖w‖².

    "document": u_i = m̄ / m_d for item i of document d (m_d its items, m̄ = N/|D|). The
    paper's LL(w) = λ/2‖w‖² + 1/|D| Σ_d 1/m_d Σ_i f_i weighs every document alike, so a
    long document's items count less; the m̄ factor (Σ_i u_i = N) keeps λ per item and the
    step size on the scale of unweighted SGD, and the objective is N·LL(w). "item": every
    u_i = 1 (an empty array, which the kernels read as "all ones"): long documents dominate.
    """
    if weighting == "item":
        return np.empty(0)
    if weighting != "document":
        raise ValueError(f"weighting must be 'document' or 'item', not {weighting!r}")
    offsets = np.asarray(doc_item_offsets, dtype=np.int64)
    sizes = np.diff(offsets)
    n, docs = int(offsets[-1] - offsets[0]), int(np.count_nonzero(sizes))
    if n == 0:
        return np.empty(0)
    per_doc = np.where(sizes > 0, (n / docs) / np.maximum(sizes, 1), 0.0)
    return np.repeat(per_doc, sizes).astype(np.float64)


def total_items(links):
    """N, the number of items of `kernel_arrays` (SGD steps per pass)."""
    return int(links.item_arc_offsets.shape[0] - 1)


@register("l3m")
class L3M(ClusteringLearnerMixin, Learner):
    """Latent left-linking model; `gamma` = 0 gives max-left-link."""

    _meta_fields = ("objective_", "epochs_done_")

    def __init__(
        self,
        gamma=0.0,
        lam=1e-4,
        eta0=0.1,
        epochs=1,
        init="zeros",
        init_scale=1.0,
        seed=0,
        init_seed=None,
        weighting="document",
    ):
        """`seed` draws the document order of every pass; `init_seed` (default: `seed`) the
        N(0, 1) initial weights, so the robustness study can vary the initialisation alone.
        `weighting`: see `item_weights` ("document" is the paper's LL(w))."""
        self.gamma = gamma
        self.init_seed = init_seed
        self.weighting = weighting
        self.lam = lam
        self.eta0 = eta0
        self.epochs = epochs
        self.init = init
        self.init_scale = init_scale
        self.seed = seed

    def _initial_weights(self, dim, rng):
        if self.init == "normal":  # the paper's robustness study: w ~ N(0, 1)
            return rng.normal(0.0, self.init_scale, size=dim)
        return np.zeros(dim)

    def fit(self, train, dev=None, callback=None):
        data = as_training_data(train)
        links = kernel_arrays(data, lean=True)
        rng = np.random.default_rng(self.seed)
        dim = 1 << int(data.store.n_bits)
        if self.init_seed is None:
            v = self._initial_weights(dim, rng)  # one stream, as before init_seed existed
        else:
            v = self._initial_weights(dim, np.random.default_rng(self.init_seed))
        scale, step = 1.0, 0
        cluster = np.asarray(data.corpus.m_cluster, dtype=np.int64)
        weight = item_weights(links.doc_item_offsets, self.weighting)
        n_docs = links.doc_item_offsets.shape[0] - 1
        self.objective_ = []
        for epoch in range(1, self.epochs + 1):
            order = rng.permutation(n_docs).astype(np.int64)
            scale, step, obj = l3m_sgd_epoch(
                v, scale, order, links, cluster, weight, float(self.gamma), float(self.lam), float(self.eta0), step
            )
            self.objective_.append(float(obj))
            self._end_epoch(epoch, v, scale, callback)
        return self

    def objective(self, data, w=None):
        """The objective SGD minimises, at w (default: the learned weights): Σ_i u_i f_i + N·λ/2‖w‖².

        `lam` is per item: every SGD step uses the per-item gradient u_i ∇f_i + λw (the
        paper's Eq. 8), so over the N items the regulariser counts N times; with the default
        document weighting this is N·LL(w), the paper's objective (see `item_weights`).
        """
        data = as_training_data(data)
        links = kernel_arrays(data, lean=True)
        cluster = np.asarray(data.corpus.m_cluster, dtype=np.int64)
        w = np.asarray(self.coef_ if w is None else w, dtype=np.float64)
        weight = item_weights(links.doc_item_offsets, self.weighting)
        return float(l3m_objective(w, links, cluster, weight, float(self.gamma), float(self.lam) * total_items(links)))

    def predict_labels(self, data):
        """Cluster id per item (document-local: the index of the cluster's first item)."""
        data = as_training_data(data)
        return l3m_cluster(np.asarray(self.coef_, dtype=np.float64), *kernel_arrays(data, lean=True), float(self.gamma))
