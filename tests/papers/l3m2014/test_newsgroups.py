"""20 Newsgroups item sets: loading with load_files, normalisation, windows, pair features, CV."""

import numpy as np
import pytest

from coreflab.papers.l3m2014.newsgroups import (
    cluster_ids,
    item_sets,
    load_posts,
    normalise_author,
    normalise_thread,
    split_post,
)
from coreflab.papers.l3m2014.pair_features import build_store, fit_vectorizer, item_set_arcs
from tests.papers.l3m2014.l3m_data import synthetic_author_sets, write_bydate

WORDS = "apple banana cherry delta engine forest guitar harbor island jungle kettle lemon".split()


def write_fake_corpus(root, groups=2, per_group=12, seed=0):
    rng = np.random.default_rng(seed)
    for part in ("20news-bydate-train", "20news-bydate-test"):
        for g in range(groups):
            folder = root / part / f"comp.group{g}"
            folder.mkdir(parents=True)
            for k in range(per_group // 2):
                number = 1000 + 2 * k + (part.endswith("test"))
                author = int(rng.integers(0, 3))
                thread = int(rng.integers(0, 3))
                body = " ".join(rng.choice(WORDS[thread * 4 : (thread + 1) * 4], size=12)) + f" sig{author}"
                (folder / str(number)).write_text(
                    f"From: User {author} <USER{author}@Example.org>\nSubject: {'Re: ' * (k % 2)}Topic {thread}\n"
                    f"Lines: 3\n\n{body}\n",
                    encoding="latin-1",
                )
    return root


def test_normalisation():
    assert normalise_author("John Doe <JDoe@Mail.COM>") == "jdoe@mail.com"
    assert normalise_author("jd@x.org (John Doe)") == "jd@x.org"
    assert normalise_thread("Re: RE:  Gospel   Dating") == "gospel dating"
    headers, body = split_post("From: a@b\nSubject: hi\n\nbody text\n\nmore")
    assert headers == {"from": "a@b", "subject": "hi"} and body == "body text\n\nmore"


def test_load_posts_orders_by_article_number_and_windows_within_groups(tmp_path):
    write_fake_corpus(tmp_path / "ng")
    posts = load_posts(tmp_path / "ng", resources=tmp_path / "res")
    assert len(posts) == 24
    g0 = [p.number for p in posts if p.group == "comp.group0"]
    assert g0 == sorted(g0) and g0[0] == 1000
    sets = item_sets(posts, size=5, min_size=2)
    assert [len(s) for s in sets] == [5, 5, 2, 5, 5, 2]
    assert all(len({p.group for p in s}) == 1 for s in sets)
    ids = cluster_ids(sets[0], "author")
    assert ids[0] == 0 and ids.max() < 3


def test_pair_features_follow_the_arc_store_contract(tmp_path):
    write_fake_corpus(tmp_path / "ng")
    sets = item_sets(load_posts(tmp_path / "ng", resources=tmp_path / "res"), size=6, min_size=2)
    vec = fit_vectorizer(sets)
    n, item_off, ante, foff, feats, vals = item_set_arcs(sets[0], vec)
    assert n == 6 and item_off.tolist() == [0, 1, 3, 6, 10, 15, 21]
    assert ante[item_off[:-1]].tolist() == [-1] * 6  # the dummy arc comes first
    assert ante[1:3].tolist() == [-1, 0] and ante[6:10].tolist() == [-1, 0, 1, 2]
    # position gap of the pair (3, 0) is 3 → log1p(3)/6; permuted order keeps the original gaps
    a = 6 + 1  # arc of post 3 to post 0
    assert vals[foff[a] + 3] == pytest.approx(np.log1p(3) / 6)
    order = np.array([3, 0, 1, 2, 4, 5])
    _, _, _, foff2, _, vals2 = item_set_arcs(sets[0], vec, order)
    assert vals2[foff2[2] + 3] == pytest.approx(np.log1p(3) / 6)  # post 0 (now second) links to post 3
    corpus, store = build_store([item_set_arcs(s, vec) for s in sets[:2]], [cluster_ids(s, "thread") for s in sets[:2]])
    assert store.doc_mention_offsets.tolist() == [0, 6, 12]
    assert store.m_arc_offsets[-1] == store.arc_ante.size == 2 * 21
    assert store.arc_feat_offsets[-1] == store.arc_feats.size == store.arc_vals.size


def test_cross_validation_runs_every_technique(tmp_path):
    from coreflab.papers.l3m2014.doccluster import TECHNIQUES, cross_validate

    write_fake_corpus(tmp_path / "ng", groups=3, per_group=20)
    sets = item_sets(load_posts(tmp_path / "ng", resources=tmp_path / "res"), size=5, min_size=5)
    df = cross_validate(sets, "thread", folds=3, passes=2, batch_passes=3, gammas=(0.0, 0.5), seed=1)
    assert set(df["technique"]) == set(TECHNIQUES) | {"singletons"}
    assert sorted(set(df["fold"])) == [0, 1, 2]
    assert (df["vi"] >= 0).all() and df[df.technique != "singletons"][["lam", "eta0"]].notna().all().all()
    # thread words are separable by construction: L3M gets close to perfect
    assert df[(df.technique == "l3m") & (df.passes == 2)]["vi"].mean() < 60


def test_batch_techniques_get_the_papers_passes_online_ones_1_and_theirs(tmp_path):
    # Table 2: "for batch techniques we make ten passes"; online techniques after 1 pass and after `passes`
    # (the batch techniques were scored after 1 and 5 passes, Corr-Clustering after 1 predicting every post alone)
    from coreflab.papers.l3m2014.doccluster import BATCH, cross_validate

    sets = synthetic_author_sets(n_sets=6, size=20)
    df = cross_validate(sets, "author", folds=3, passes=2, batch_passes=4, gammas=(0.0,), seed=1)
    passes = df.groupby("technique")["passes"].apply(lambda p: sorted(set(p))).to_dict()
    assert all(passes[t] == [4] for t in BATCH)
    assert all(passes[t] == [1, 2] for t in ("sumlink", "binleftlink", "l3m_gamma0", "l3m"))


def test_tfidf_weights_are_fitted_on_each_folds_training_sets_only(monkeypatch):
    # the vectorizer was fitted once on every item set, the test folds' posts included
    from coreflab.papers.l3m2014 import doccluster as experiment

    sets = synthetic_author_sets(n_sets=6, size=15)
    fitted = []
    real = experiment.fit_vectorizer

    def spy(item_sets):
        fitted.append(frozenset(p.number for items in item_sets for p in items))
        return real(item_sets)

    monkeypatch.setattr(experiment, "fit_vectorizer", spy)
    folds = 3
    experiment.cross_validate(sets, "author", folds=folds, passes=1, gammas=(0.0,), seed=1, techniques=("l3m",))
    fold_of = np.random.default_rng(1).permutation(len(sets)) % folds
    training_posts = [frozenset(p.number for k in np.flatnonzero(fold_of != f) for p in sets[k]) for f in range(folds)]
    assert fitted == training_posts


def test_lambda_and_eta0_are_tuned_per_technique_and_fold_on_the_folds_inner_split(monkeypatch):
    # λ and η0 were fixed at 1e-4 / 0.1 for every technique (Spanning Forest's own default η0 is 1.0);
    # now every technique tries the grid on the inner split of each fold's training sets and keeps, per
    # reported pass count, the setting with the lowest inner-dev VI
    from coreflab.papers.l3m2014 import doccluster as experiment

    sets = synthetic_author_sets(n_sets=6, size=20)
    trained = []
    real = experiment.make_model

    def spy(technique, epochs, seed, **setting):
        trained.append((technique, tuple(sorted(setting.items()))))
        return real(technique, epochs, seed, **setting)

    monkeypatch.setattr(experiment, "make_model", spy)
    grid = {"lam": (1e-4, 1e-2), "eta0": (0.1, 1.0), "r": (0.1, 1.0)}
    folds = 3
    df = experiment.cross_validate(sets, "author", folds=folds, passes=2, batch_passes=3, gammas=(0.0, 0.5), grid=grid)
    tuning = df.attrs["tuning"]
    for technique in experiment.TECHNIQUES:
        settings = experiment.candidates(technique, grid, (0.0, 0.5))
        tried = {(tuple(sorted(s.items()))) for s in settings}
        assert len(settings) == 4 * (2 if technique in ("l3m", "spanning_forest") else 1)
        assert {s for t, s in trained if t == technique} == tried  # the grid, and only the grid
        for fold in range(folds):
            t = tuning[fold][technique]
            for passes, vis in t["vi"].items():
                k = int(np.argmin(vis))
                assert t["chosen"][passes] == k
                row = df[(df.technique == technique) & (df.fold == fold) & (df.passes == passes)].iloc[0]
                assert (row["lam"], row["eta0"]) == (settings[k]["lam"], settings[k]["eta0"])
                if technique == "l3m":
                    assert row["gamma"] == settings[k]["gamma"]
                if technique == "spanning_forest":
                    assert row["r"] == settings[k]["r"]


def test_settings_are_tuned_per_fold_on_that_folds_training_sets_only(tmp_path, monkeypatch):
    # every item-set selection the experiment builds is recorded; the tuning selections (not
    # a fold's whole training or test sets) come in consecutive (inner train, inner dev) pairs,
    # and each pair must be exactly one fold's training sets: never its test sets, and one
    # pair per fold (a γ tuned once on fold 0's training sets saw every other fold's test sets)
    from coreflab.papers.l3m2014 import doccluster as experiment

    write_fake_corpus(tmp_path / "ng", groups=3, per_group=20)
    sets = item_sets(load_posts(tmp_path / "ng", resources=tmp_path / "res"), size=5, min_size=5)
    built = []
    real = experiment._data

    def spy(parts, labels, idx):
        built.append(frozenset(int(k) for k in idx))
        return real(parts, labels, idx)

    monkeypatch.setattr(experiment, "_data", spy)
    folds = 3
    df = experiment.cross_validate(sets, "author", folds=folds, passes=1, batch_passes=2, gammas=(0.0, 0.5), seed=1)
    fold_of = np.random.default_rng(1).permutation(len(sets)) % folds
    train = [frozenset(np.flatnonzero(fold_of != f).tolist()) for f in range(folds)]
    test = [frozenset(np.flatnonzero(fold_of == f).tolist()) for f in range(folds)]
    tuning = [s for s in built if s not in train and s not in test]
    assert len(tuning) % 2 == 0
    pairs = [tuning[k] | tuning[k + 1] for k in range(0, len(tuning), 2)]
    assert all(not (tuning[k] & tuning[k + 1]) for k in range(0, len(tuning), 2))
    assert sorted(pairs, key=sorted) == sorted(train, key=sorted)
    assert set(df["fold"]) == set(range(folds)) and df[df.technique == "l3m"]["gamma"].notna().all()


def _singletons_vi(sets, key, folds, seed):
    """Mean over the folds of the mean VI ×100 of every post alone on the fold's test sets."""
    from coreflab.metrics import variation_of_information

    fold_of = np.random.default_rng(seed).permutation(len(sets)) % folds
    per_fold = []
    for f in range(folds):
        vis = [
            100.0 * variation_of_information(cluster_ids(sets[k], key), np.arange(len(sets[k])))
            for k in np.flatnonzero(fold_of == f)
        ]
        per_fold.append(np.mean(vis))
    return float(np.mean(per_fold))


def _doccluster_vis(local_dir, resources, out, key, set_size, max_sets, folds=3, passes=2):
    from coreflab.cli import main

    argv = ["l3m2014", "doccluster", "--local-dir", str(local_dir), "--resources", str(resources), "--key", key]
    argv += ["--set-size", str(set_size), "--max-sets", str(max_sets), "--folds", str(folds)]
    argv += ["--passes", str(passes), "--seed", "1", "--out", str(out)]
    assert main(argv) == 0
    import pandas as pd

    df = pd.read_csv(out)
    return df[df.technique != "singletons"].groupby(["technique", "passes"])["vi"].mean()


def _assert_none_predicts_every_post_alone(vis, alone):
    collapsed = [f"{t} ({p} passes)" for (t, p), vi in vis.items() if abs(vi - alone) < 1e-4]
    assert not collapsed, f"VI of every post alone ({alone:.4f}): {collapsed}"


def test_no_technique_predicts_every_post_alone_on_a_synthetic_author_problem(tmp_path):
    # Spanning Forest (both pass counts) and Corr-Clustering gave exactly the VI of every post alone
    sets = synthetic_author_sets()
    write_bydate(sets, tmp_path / "ng")
    vis = _doccluster_vis(tmp_path / "ng", tmp_path / "res", tmp_path / "author.csv", "author", 40, 0)
    alone = _singletons_vi(sets, "author", 3, 1)
    _assert_none_predicts_every_post_alone(vis, alone)
    assert vis.min() < alone  # and the problem is learnable
    assert len(vis) == 10  # 4 online techniques × (1, 2 passes) + 2 batch techniques


@pytest.fixture(scope="module")
def newsgroups_posts(default_config, tmp_path_factory):
    """(local_dir, resources) of the configured 20 Newsgroups copy; skipped without one."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    local = default_config["doccluster"].get("local_dir")
    if not local or not (root / local).exists():
        pytest.skip(f"no 20 Newsgroups copy at doccluster.local_dir ({local}) of config/config.yaml")
    local = root / local
    extracted = root / "resources"
    if not (extracted / "20newsgroups" / "20news-bydate-train").is_dir():
        extracted = tmp_path_factory.mktemp("resources")
    return local, extracted


@pytest.mark.slow
@pytest.mark.parametrize("key", ["author", "thread"])
def test_no_technique_predicts_every_post_alone_on_a_20_newsgroups_sample(newsgroups_posts, key, tmp_path):
    # 9 item sets of 100 posts spread over the groups, 3 folds: with λ and η0 fixed at 1e-4 / 0.1,
    # Spanning Forest and Corr-Clustering linked no post on author clustering (the runs: 20 sets
    # of 348 posts, the same)
    local, resources = newsgroups_posts
    vis = _doccluster_vis(local, resources, tmp_path / f"{key}.csv", key, 100, 9)
    posts = load_posts(local, resources=resources)
    sets = item_sets(posts, 100)
    sets = sets[:: max(1, len(sets) // 9)][:9]
    _assert_none_predicts_every_post_alone(vis, _singletons_vi(sets, key, 3, 1))
