"""CCCP training of L3M (Samdani et al. 2014, Sec. 4: CCCP vs SGD).

The L3M objective is a difference of convex functions: Σ_i γ log Σ_j e^{(w·φ_ij + δ_ij)/γ}
(convex) minus Σ_i γ log Σ_{j∈C_i} e^{w·φ_ij/γ} (convex, subtracted). The concave-convex
procedure linearises the subtracted part at the current w — its gradient is Σ_j q_ij φ_ij
with q the distribution over correct links — and minimises the resulting convex problem
with L-BFGS (scipy), then repeats. Used only for the small-subset comparison with SGD:
each outer step needs full passes over the data.
"""

import time

import numpy as np
from numba import njit

from coreflab.learn.base import as_training_data
from coreflab.learn.leftlink.kernels import add_links, item_buffers, item_terms, l3m_objective
from coreflab.learn.leftlink.l3m import item_weights, kernel_arrays, total_items


@njit(cache=True)
def l3m_value_and_grad(w, links, item_cluster, item_weight, gamma, lam, q_fixed, use_fixed):
    """Objective and gradient over all items; with use_fixed the subtracted part is linearised at q_fixed.

    Also returns q (the current distribution over correct links, per arc) for the next CCCP step.
    The per-item scores, distributions and log-partitions are `item_terms`, shared with SGD;
    item i's term counts `item_weight[i]` times (empty: once), as in SGD.
    """
    grad = lam * w.copy()
    total = 0.5 * lam * np.dot(w, w)
    q_out = np.zeros(links.arc_ante.shape[0])
    work = item_buffers(links.item_arc_offsets)
    raw, p, q = work.raw, work.p, work.q
    for d in range(links.doc_item_offsets.shape[0] - 1):
        lo = links.doc_item_offsets[d]
        for i in range(lo, links.doc_item_offsets[d + 1]):
            a0, n, u, z_aug, z_correct = item_terms(w, 1.0, links, item_cluster, item_weight, gamma, lo, i, work)
            for k in range(n):
                q_out[a0 + k] = q[k]
            if use_fixed:
                lin = 0.0
                for k in range(n):
                    lin += q_fixed[a0 + k] * raw[k]
                total += u * (z_aug - lin)
                for k in range(n):
                    p[k] -= q_fixed[a0 + k]
            else:
                total += u * (z_aug - z_correct)
                for k in range(n):
                    p[k] -= q[k]
            add_links(grad, u, 1.0, p, a0, n, links)
    return total, grad, q_out


def train_cccp(
    train,
    gamma=1.0,
    lam=1e-4,
    outer=10,
    tol=1e-6,
    inner_maxiter=100,
    weighting="document",
    inner_iterations=None,
    progress=None,
):
    """CCCP from w = 0; returns (w, history of (seconds, objective)) after every outer step.

    `lam` is L3M's per-item λ and `weighting` its item weights, so CCCP minimises (and
    reports) the objective L3M's SGD minimises, `L3M.objective`: Σ_i u_i f_i + N·λ/2‖w‖².
    Stops after `outer` outer steps, or earlier when an outer step lowers the objective by
    less than `tol`·max(1, |objective|) (relative). `inner_iterations`: a list that receives
    the L-BFGS iterations of every outer step (the convex program's own iterations).
    `progress(step, outer, objective)` after every outer step (a long run's log line).
    """
    data = as_training_data(train)
    links = kernel_arrays(data, lean=True)
    weight = item_weights(links.doc_item_offsets, weighting)
    lam = float(lam) * total_items(links)
    # weights of features that never fire stay 0 under L2, so optimise over the used ids only
    used, feats = np.unique(links.arc_feats, return_inverse=True)
    links = links._replace(arc_feats=feats)
    cluster = np.asarray(data.corpus.m_cluster, dtype=np.int64)
    dim = int(used.shape[0])
    # here, not at the top: every command imports this module, scipy.optimize takes 0.2 s
    from scipy.optimize import minimize

    w = np.zeros(dim)
    start = time.perf_counter()
    history = [(0.0, float(l3m_objective(w, links, cluster, weight, gamma, lam)))]
    for _ in range(outer):
        _, _, q = l3m_value_and_grad(w, links, cluster, weight, gamma, lam, np.zeros(links.arc_ante.shape[0]), False)

        def convex(x, q=q):
            value, grad, _ = l3m_value_and_grad(x, links, cluster, weight, gamma, lam, q, True)
            return value, grad

        result = minimize(convex, w, jac=True, method="L-BFGS-B", options={"maxiter": inner_maxiter})
        w = result.x
        if inner_iterations is not None:
            inner_iterations.append(int(result.nit))
        obj = float(l3m_objective(w, links, cluster, weight, gamma, lam))
        history.append((time.perf_counter() - start, obj))
        if progress is not None:
            progress(len(history) - 1, outer, obj)
        if history[-2][1] - obj < tol * max(1.0, abs(obj)):
            break
    full = np.zeros(1 << int(data.store.n_bits))
    full[used] = w
    return full, history
