"""Every CoNLL metric from one contingency table: fast, vectorised over a whole corpus.

When no span occurs twice on a side, each v8.01 metric is a function of the sizes of the key
clusters |K|, of the response clusters |R| and of the overlaps n = |K ∩ R| (the non-zero
cells of the key x response contingency table), so no mention pair is ever enumerated:

  mentions  exact = Σ n;  denominators = #key mentions, #response mentions
  MUC       (Vilain et al. 1995) correct links = Σ_cells (n - 1); den Σ(|K| - 1), Σ(|R| - 1)
  B3        (Bagga & Baldwin 1998) R num Σ n²/|K|, P num Σ n²/|R|; den #mentions
  CEAFm/e   (Luo 2005) optimal one-to-one alignment of clusters, φ3 = n, φ4 = 2n/(|K|+|R|);
            per connected component of the overlap graph: single edges and stars in
            closed form, `linear_sum_assignment` for the rest
  LEA       (Moosavi & Strube 2016) R num Σ_K |K| · Σ_R C(n,2) / C(|K|,2), a singleton key
            counting 1 when its mention is a response singleton (v8.01's LEA branch)
  BLANC     (Luo et al. 2014, v8.01 BLANC_Internal) coreference links Σ C(|K|,2), correct
            Σ C(n,2); non-coreference links C(N,2) - Σ C(|K|,2), correct among the M common
            mentions C(M,2) - Σ_K C(m_K,2) - Σ_R C(m_R,2) + Σ C(n,2)

Twinless mentions (in one side only) simply have no cell: this reproduces v8.01, whose B3,
CEAF, LEA and BLANC use the original chains and whose MUC adds missed key mentions as
response singletons and drops twinless response singletons (neither changes a MUC count).
Inputs are flat arrays over the union of mentions: the key cluster and the response cluster
of each mention (-1 = absent from that side), and the document of every cluster.
"""

import numpy as np

from coreflab.metrics.assignment import linear_sum_assignment

ALL_METRICS = ("mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea")
WIDTH = {"blanc": 8}


def _pairs(x):
    return x * (x - 1) / 2.0


def document_counts(n_docs, key_cluster_doc, response_cluster_doc, key_of, response_of, metrics=ALL_METRICS):
    """Numerators and denominators per document: {metric: float array (n_docs, 4 or 8)}.

    key_cluster_doc[c] / response_cluster_doc[c]: document of key / response cluster c.
    key_of[i] / response_of[i]: cluster of union mention i on each side, -1 when absent.
    Every cluster must hold at least one mention.
    """
    key_cluster_doc = np.asarray(key_cluster_doc, dtype=np.int64)
    response_cluster_doc = np.asarray(response_cluster_doc, dtype=np.int64)
    key_of = np.asarray(key_of, dtype=np.int64)
    response_of = np.asarray(response_of, dtype=np.int64)
    nk, nr = len(key_cluster_doc), len(response_cluster_doc)
    ks = np.bincount(key_of[key_of >= 0], minlength=nk).astype(np.float64)
    rs = np.bincount(response_of[response_of >= 0], minlength=nr).astype(np.float64)
    both = (key_of >= 0) & (response_of >= 0)
    code = key_of[both] * max(nr, 1) + response_of[both]
    cells, n = np.unique(code, return_counts=True)
    cell_k = cells // max(nr, 1)
    cell_r = cells % max(nr, 1)
    n = n.astype(np.float64)
    cell_doc = key_cluster_doc[cell_k]

    def per_doc(index, weights=None):
        return np.bincount(index, weights=weights, minlength=n_docs).astype(np.float64)[:n_docs]

    n_key = per_doc(key_cluster_doc, ks)
    n_resp = per_doc(response_cluster_doc, rs)
    c_key = per_doc(key_cluster_doc)
    c_resp = per_doc(response_cluster_doc)
    common = per_doc(cell_doc, n)
    out = {}
    if "mentions" in metrics:
        out["mentions"] = np.stack([common, n_key, common, n_resp], axis=1)
    if "muc" in metrics:
        correct = per_doc(cell_doc, n - 1)
        out["muc"] = np.stack([correct, n_key - c_key, correct, n_resp - c_resp], axis=1)
    if "bcub" in metrics:
        out["bcub"] = np.stack(
            [per_doc(cell_doc, n * n / ks[cell_k]), n_key, per_doc(cell_doc, n * n / rs[cell_r]), n_resp], axis=1
        )
    if "lea" in metrics:
        pair_cells = _pairs(n)
        single = per_doc(cell_doc, ((ks[cell_k] == 1) & (rs[cell_r] == 1)).astype(np.float64))
        k_correct = np.bincount(cell_k, weights=pair_cells, minlength=nk)
        r_correct = np.bincount(cell_r, weights=pair_cells, minlength=nr)
        with np.errstate(divide="ignore", invalid="ignore"):
            k_gain = np.where(ks >= 2, ks * k_correct / _pairs(ks), 0.0)
            r_gain = np.where(rs >= 2, rs * r_correct / _pairs(rs), 0.0)
        out["lea"] = np.stack(
            [per_doc(key_cluster_doc, k_gain) + single, n_key, per_doc(response_cluster_doc, r_gain) + single, n_resp],
            axis=1,
        )
    if "blanc" in metrics:
        key_links = per_doc(key_cluster_doc, _pairs(ks))
        resp_links = per_doc(response_cluster_doc, _pairs(rs))
        right = per_doc(cell_doc, _pairs(n))
        m_k = np.bincount(cell_k, weights=n, minlength=nk)
        m_r = np.bincount(cell_r, weights=n, minlength=nr)
        right_non = (
            _pairs(common) - per_doc(key_cluster_doc, _pairs(m_k)) - per_doc(response_cluster_doc, _pairs(m_r)) + right
        )
        key_non = _pairs(n_key) - key_links
        resp_non = _pairs(n_resp) - resp_links
        out["blanc"] = np.stack([right, key_links, right, resp_links, right_non, key_non, right_non, resp_non], axis=1)
    if "ceafm" in metrics or "ceafe" in metrics:
        phi_m, phi_e = _ceaf_numerators(n_docs, cell_doc, cell_k, cell_r, n, ks, rs)
        if "ceafm" in metrics:
            out["ceafm"] = np.stack([phi_m, n_key, phi_m, n_resp], axis=1)
        if "ceafe" in metrics:
            out["ceafe"] = np.stack([phi_e, c_key, phi_e, c_resp], axis=1)
    return out


def _ceaf_numerators(n_docs, cell_doc, cell_k, cell_r, n, ks, rs):
    """Optimal φ3 and φ4 alignment totals per document (Luo 2005, Sec. 2).

    The optimal one-to-one alignment decomposes over the connected components of the graph
    whose edges are the overlapping (key, response) cluster pairs. A component that is a
    single edge is aligned by itself; a star (one cluster meeting several clusters that
    meet nothing else) by its heaviest edge: both vectorised over the corpus. Only the
    other components need a search: the Hungarian algorithm (`linear_sum_assignment`)
    runs per document on the dense table of the clusters in such components.
    """
    phi_m = np.zeros(n_docs)
    phi_e = np.zeros(n_docs)
    if len(n) == 0:
        return phi_m, phi_e
    e = 2.0 * n / (ks[cell_k] + rs[cell_r])
    dk = np.bincount(cell_k, minlength=len(ks))[cell_k]  # cells of the key cluster of each cell
    dr = np.bincount(cell_r, minlength=len(rs))[cell_r]
    k_leaves = np.bincount(cell_k, weights=dr > 1, minlength=len(ks)) == 0  # meets only leaves
    r_leaves = np.bincount(cell_r, weights=dk > 1, minlength=len(rs)) == 0
    single = (dk == 1) & (dr == 1)
    k_star = (dk > 1) & k_leaves[cell_k]
    r_star = (dr > 1) & r_leaves[cell_r]
    for phi, w in ((phi_m, n), (phi_e, e)):
        phi += np.bincount(cell_doc[single], weights=w[single], minlength=n_docs)[:n_docs]
        for star, centre, size in ((k_star, cell_k, len(ks)), (r_star, cell_r, len(rs))):
            best = np.zeros(size)
            np.maximum.at(best, centre[star], w[star])
            doc = np.zeros(size, dtype=np.int64)
            doc[centre[star]] = cell_doc[star]
            hit = best > 0  # every weight is positive
            phi += np.bincount(doc[hit], weights=best[hit], minlength=n_docs)[:n_docs]
    rest = np.flatnonzero(~(single | k_star | r_star))
    if len(rest) == 0:
        return phi_m, phi_e
    rest = rest[np.argsort(cell_doc[rest], kind="stable")]
    cell_doc, cell_k, cell_r, n, e = cell_doc[rest], cell_k[rest], cell_r[rest], n[rest], e[rest]
    bounds = np.searchsorted(cell_doc, np.arange(n_docs + 1))
    # local row/column of every cell: rank of its cluster among the searched clusters of
    # its document (cluster ids are numbered document by document, so ranks are contiguous)
    rows_used = np.unique(cell_k)
    cols_used = np.unique(cell_r)
    row = np.searchsorted(rows_used, cell_k)
    col = np.searchsorted(cols_used, cell_r)
    row_start = np.searchsorted(key_doc_of(rows_used, cell_k, cell_doc), np.arange(n_docs + 1))
    col_start = np.searchsorted(key_doc_of(cols_used, cell_r, cell_doc), np.arange(n_docs + 1))
    for d in np.unique(cell_doc).tolist():
        lo, hi = bounds[d], bounds[d + 1]
        r0, c0 = row_start[d], col_start[d]
        ri, ci = row[lo:hi] - r0, col[lo:hi] - c0
        shape = (row_start[d + 1] - r0, col_start[d + 1] - c0)
        for phi, w in ((phi_m, n[lo:hi]), (phi_e, e[lo:hi])):
            table = np.zeros(shape)
            table[ri, ci] = w
            a, b = linear_sum_assignment(table, maximize=True)
            phi[d] += table[a, b].sum()
    return phi_m, phi_e


def key_doc_of(used, cell_cluster, cell_doc):
    """Document of each used cluster (sorted ids), read off the cells that mention it."""
    doc = np.empty(len(used), dtype=np.int64)
    doc[np.searchsorted(used, cell_cluster)] = cell_doc
    return doc
