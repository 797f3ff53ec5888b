"""hm2017 mela-data / hm2017 mela-fit / hm2017 table1 / hm2017 select commands on a small random problem."""

import json

import numpy as np
import pandas as pd
import pytest

from coreflab.decode.random_problem import random_problem
from coreflab.errors import UserError
from coreflab.papers.hm2017.commands import mela_data, mela_fit
from coreflab.papers.hm2017.commands import select as hm2017_select
from coreflab.papers.hm2017.commands import table1 as hm2017_table1
from coreflab.papers.hm2017.regressor_data import COLUMNS
from tests.command_runner import run_command


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("hm")
    corpus, store = random_problem([6, 9, 4, 12, 7, 3, 10, 8, 9, 11], n_bits=10, seed=4, informative=False)
    corpus.save(d / "c.npz")
    store.save(d / "a.npz")
    return d


def test_data_fit_table1_select(files):
    d = files
    base = ["--compiled", str(d / "c.npz"), "--arcs", str(d / "a.npz")]
    assert (
        run_command(mela_data, base + ["--per-sample", "5", "--n-iter", "8", "--seed", "2", "--out", str(d / "x.csv")])
        == 0
    )
    assert (
        run_command(mela_data, base + ["--per-sample", "5", "--n-iter", "8", "--seed", "2", "--out", str(d / "y.csv")])
        == 0
    )
    assert (d / "x.csv").read_bytes() == (d / "y.csv").read_bytes()  # deterministic per seed
    df = pd.read_csv(d / "x.csv")
    assert list(df.columns) == list(COLUMNS) and len(df) > 10
    assert run_command(mela_fit, ["--data", str(d / "x.csv"), "--out", str(d / "reg.json")]) == 0
    reg = json.loads((d / "reg.json").read_text())
    assert len(reg["coef"]) == 9 and reg["n_examples"] == len(df)
    assert run_command(hm2017_table1, ["--data", str(d / "x.csv"), "--out-dir", str(d / "hm")]) == 0
    t1 = pd.read_csv(d / "hm" / "table1.csv")
    assert list(t1["Train"]) == ["S1", "S2"]
    assert t1["# examples"].sum() == len(df)
    assert (d / "hm" / "fig2.png").stat().st_size > 0
    assert run_command(hm2017_select, base + ["--out", str(d / "rank.npz")]) == 0
    with np.load(d / "rank.npz") as z:
        assert len(np.intersect1d(z["ranked"], z["root_only"])) == 0
        assert np.all(np.diff(z["weight"]) <= 0)


def test_mela_fit_rejects_a_foreign_csv(files):
    (files / "bad.csv").write_text("a,b\n1,2\n")
    with pytest.raises(UserError):
        run_command(mela_fit, ["--data", str(files / "bad.csv"), "--out", str(files / "r.json")])


def test_the_mode_goes_from_mela_data_into_the_regressor(files):
    d = files
    base = ["--compiled", str(d / "c.npz"), "--arcs", str(d / "a.npz"), "--per-sample", "4", "--n-iter", "5"]
    for mode, name in (("keep", "kept"), ("drop", "dropped")):
        assert run_command(mela_data, base + ["--keep-singletons", mode, "--out", str(d / f"{mode}.csv")]) == 0
        df = pd.read_csv(d / f"{mode}.csv")
        assert set(df["keep_singletons"]) == {int(mode == "keep")}
        assert run_command(mela_fit, ["--data", str(d / f"{mode}.csv"), "--out", str(d / f"{mode}.json")]) == 0
        assert json.loads((d / f"{mode}.json").read_text())["response_singletons"] == name
    kept, dropped = pd.read_csv(d / "keep.csv"), pd.read_csv(d / "drop.csv")
    # same runs, other labels: B3 with singletons kept is not B3 with them dropped
    assert np.allclose(kept["muc"], dropped["muc"]) and not np.allclose(kept["bcub"], dropped["bcub"])
    pd.concat([kept, dropped]).to_csv(d / "mixed.csv", index=False)
    with pytest.raises(UserError):
        run_command(mela_fit, ["--data", str(d / "mixed.csv"), "--out", str(d / "mixed.json")])


def _rank_features_reference(corpus, store, seed=0, alpha=1e-5):
    """The numpy version `rank_features` replaced (per-entry int64 index arrays, int64 columns)."""
    from scipy.sparse import csr_matrix
    from sklearn.linear_model import SGDClassifier

    from coreflab.decode.arcs import gold_arc_mask

    pair = np.flatnonzero(np.asarray(store.arc_ante) >= 0)
    offs = np.asarray(store.arc_feat_offsets)
    counts = offs[pair + 1] - offs[pair]
    idx = np.concatenate([np.arange(offs[a], offs[a + 1]) for a in pair])
    feats = np.asarray(store.arc_feats)[idx]
    present = np.zeros(1 << int(store.n_bits), dtype=bool)
    present[feats] = True
    uniq = np.flatnonzero(present)
    col = np.cumsum(present) - 1
    X = csr_matrix(
        (np.ones(feats.size), col[feats], np.concatenate([[0], np.cumsum(counts)])), shape=(pair.size, uniq.size)
    )
    X.sum_duplicates()
    y = gold_arc_mask(corpus, store)[pair].astype(np.int64)
    clf = SGDClassifier(loss="log_loss", alpha=alpha, max_iter=10, tol=None, random_state=seed).fit(X, y)
    mag = np.abs(clf.coef_.ravel())
    order = np.lexsort((uniq, -mag))
    root_only = np.setdiff1d(np.unique(np.asarray(store.arc_feats)), uniq)
    return uniq[order], root_only, mag[order]


@pytest.mark.parametrize("seed", [0, 3])
def test_feature_ranking_is_the_numpy_version_bit_for_bit(seed):
    """The ranking built without per-entry temporaries (14.3 -> 8.3 GB at CoNLL-2012 size) ranks the
    same ids with the same weights as the numpy version it replaced, hash collisions within an arc included."""
    from coreflab.papers.hm2017.experiments import rank_features

    corpus, store = random_problem([6, 9, 4, 12, 7, 15], n_bits=7, seed=seed)
    assert any(len(set(store.arc_features(a))) < len(store.arc_features(a)) for a in range(store.n_arcs))
    got, want = rank_features(corpus, store, seed=seed), _rank_features_reference(corpus, store, seed=seed)
    for g, w in zip(got, want):
        assert np.array_equal(g, w)


def test_the_select_command_ranks_as_rank_features(tmp_path):
    """`coreflab hm2017 select` drops the store between the columns and the matrix (8.3 -> 6 GB at
    CoNLL-2012 size); its ranking is `rank_features`' bit for bit."""
    from coreflab.papers.hm2017.experiments import rank_features

    corpus, store = random_problem([6, 9, 4, 12, 7, 15], n_bits=7, seed=5)
    corpus.save(tmp_path / "c.npz")
    store.save(tmp_path / "a.npz")
    args = ["--compiled", str(tmp_path / "c.npz"), "--arcs", str(tmp_path / "a.npz"), "--seed", "5"]
    assert run_command(hm2017_select, args + ["--out", str(tmp_path / "rank.npz")]) == 0
    ranked, root_only, weight = rank_features(corpus, store, seed=5)
    with np.load(tmp_path / "rank.npz") as z:
        assert np.array_equal(z["ranked"], ranked) and np.array_equal(z["root_only"], root_only)
        assert np.array_equal(z["weight"], weight)


def _shared_and_flat(n_docs=8, seed=0):
    from coreflab.features.extract import extract_tagged_arc_store
    from coreflab.features.random_corpus import random_compiled_corpus
    from coreflab.features.shared_rows import share_rows

    corpus = random_compiled_corpus(n_docs, mean_mentions=12, seed=seed)
    flat, tags = extract_tagged_arc_store(corpus, "local_fine", n_bits=18, window=None)
    return corpus, share_rows(flat, tags), flat


@pytest.mark.parametrize("seed", [0, 1])
def test_a_shared_row_store_gives_the_flat_stores_design_and_ranking(seed):
    """Read through its rows (never expanded whole), a shared-row store gives the flat store's design
    matrix (each row's columns, in the rows' reading order, summed as the flat store's), labels, ids and
    root-only ids, and so the same ranking."""
    from coreflab.papers.hm2017.experiments import design_matrix, pair_columns, rank_features

    corpus, shared, flat = _shared_and_flat(seed=seed)
    assert shared.n_rows > 0
    a, b = pair_columns(corpus, shared), pair_columns(corpus, flat)
    for x, z in zip(a[2:5], b[2:5]):
        np.testing.assert_array_equal(x, z)
    assert a[5] == b[5]
    np.testing.assert_array_equal(a[0], b[0])
    xa, xb = design_matrix(a[0], a[1], a[3].size), design_matrix(b[0], b[1], b[3].size)
    assert (xa != xb).nnz == 0 and np.array_equal(xa.indices, xb.indices)
    for a, b in zip(rank_features(corpus, shared, seed=seed), rank_features(corpus, flat, seed=seed)):
        np.testing.assert_array_equal(a, b)


def test_above_its_budget_the_ranking_matrix_holds_whole_documents_and_every_id():
    """Over budget the classifier's rows are whole documents' pairs, each row as without the budget;
    every pair feature keeps its column (the left-out ones ranked last), none becomes root-only."""
    from coreflab.papers.hm2017.experiments import pair_columns, rank_features

    corpus, store, _ = _shared_and_flat(n_docs=10, seed=3)
    full_ptr, full_idx, full_y, ids, root_only, used = pair_columns(corpus, store, max_entries=None)
    assert used == (10, full_y.size)
    budget = int(full_ptr[-1]) // 2
    ptr, idx, y, ids_b, root_b, (docs, pairs) = pair_columns(corpus, store, max_entries=budget, seed=4)
    assert 0 < docs < 10 and pairs == y.size < full_y.size and int(ptr[-1]) <= budget
    np.testing.assert_array_equal(ids_b, ids)
    np.testing.assert_array_equal(root_b, root_only)
    # the kept rows are the full design's rows of the kept pairs, and the kept pairs are whole documents
    pair = np.flatnonzero(np.asarray(store.arc_ante) >= 0)
    rows = {tuple(full_idx[full_ptr[i] : full_ptr[i + 1]]): i for i in range(pair.size)}
    kept = [rows[tuple(idx[ptr[i] : ptr[i + 1]])] for i in range(y.size)]
    np.testing.assert_array_equal(y, full_y[kept])
    mention = np.searchsorted(np.asarray(store.m_arc_offsets), pair, side="right") - 1
    doc = np.searchsorted(np.asarray(store.doc_mention_offsets), mention, side="right") - 1
    taken = np.unique(doc[kept])
    assert taken.size <= docs and np.isin(doc, taken).sum() == y.size  # a taken document may have no pair
    again = pair_columns(corpus, store, max_entries=budget, seed=4)
    np.testing.assert_array_equal(again[1], idx)  # the draw is fixed by the seed
    ranked, _, weight = rank_features(corpus, store, seed=4, max_entries=budget)
    assert set(ranked.tolist()) == set(ids.tolist())
    absent = np.setdiff1d(ids, np.unique(ids[idx]))
    assert absent.size and np.all(weight[np.isin(ranked, absent)] == 0)


def test_a_shared_row_store_is_reduced_and_subsampled_as_its_flat_store(monkeypatch):
    """Above the expansion budget a shared-row store is reduced row by row: every arc reads the ids its
    expanded store's reduction gives it, in the same order; the tuning sample is the expanded store's,
    array for array, without expanding the documents left out."""
    import coreflab.papers.hm2017.experiments as ex
    from coreflab.features.shared_rows import expand

    corpus, shared, _ = _shared_and_flat(n_docs=8, seed=2)
    flat = expand(shared)
    ranked, root_only, _ = ex.rank_features(corpus, flat)
    keep = ex.keep_ids_for((ranked, root_only), max(1, ranked.size // 4))
    want = ex.reduce_store(shared, keep)  # below the budget: expanded, then cut
    assert want.n_rows == 0
    monkeypatch.setattr(ex, "EXPAND_BUDGET_BYTES", 0)
    got = ex.reduce_store(shared, keep)
    assert got.n_rows == shared.n_rows > 0 and got.n_entries < shared.n_entries
    got.validate()
    for a in range(flat.n_arcs):
        np.testing.assert_array_equal(got.arc_features(a), want.arc_features(a))
    sub_shared, sub_flat = ex.subsample_docs(corpus, shared, 3, seed=1), ex.subsample_docs(corpus, flat, 3, seed=1)
    for name in ("doc_mention_offsets", "m_arc_offsets", "arc_ante", "arc_feat_offsets", "arc_feats"):
        np.testing.assert_array_equal(getattr(sub_shared[1], name), getattr(sub_flat[1], name))
    assert sub_shared[1].n_rows == 0 and sub_shared[1].meta == sub_flat[1].meta
    assert sub_shared[0].doc_ids == sub_flat[0].doc_ids
