"""A plain-Python design matrix of store arcs: the reference the numba pair model is tested against."""

import numpy as np
import scipy.sparse as sp


def design_matrix(store, arcs, ids=None):
    """Reference binary CSR of the given arcs (columns: the sorted ids they use, or `ids`), by plain Python."""
    rows = [set(store.arc_feats[store.arc_feat_offsets[a] : store.arc_feat_offsets[a + 1]].tolist()) for a in arcs]
    ids = sorted(set().union(*rows)) if ids is None else list(ids)
    column = {f: c for c, f in enumerate(ids)}
    indptr, indices = [0], []
    for r in rows:
        indices += sorted(column[f] for f in r if f in column)
        indptr.append(len(indices))
    X = sp.csr_matrix((np.ones(len(indices)), indices, indptr), shape=(len(rows), len(ids)))
    return X, ids
