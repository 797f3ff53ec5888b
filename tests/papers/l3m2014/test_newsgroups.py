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
    df = cross_validate(sets, fit_vectorizer(sets), "thread", folds=3, passes=2, gammas=(0.0, 0.5), seed=1)
    assert set(df["technique"]) == set(TECHNIQUES)
    assert sorted(set(df["passes"])) == [1, 2] and sorted(set(df["fold"])) == [0, 1, 2]
    assert (df["vi"] >= 0).all()
    # thread words are separable by construction: L3M gets close to perfect
    assert df[(df.technique == "l3m") & (df.passes == 2)]["vi"].mean() < 60


def test_gamma_is_tuned_per_fold_on_that_folds_training_sets_only(tmp_path, monkeypatch):
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
    df = experiment.cross_validate(
        sets, fit_vectorizer(sets), "author", folds=folds, passes=1, gammas=(0.0, 0.5), seed=1, techniques=("l3m",)
    )
    fold_of = np.random.default_rng(1).permutation(len(sets)) % folds
    train = [frozenset(np.flatnonzero(fold_of != f).tolist()) for f in range(folds)]
    test = [frozenset(np.flatnonzero(fold_of == f).tolist()) for f in range(folds)]
    tuning = [s for s in built if s not in train and s not in test]
    assert len(tuning) % 2 == 0
    pairs = [tuning[k] | tuning[k + 1] for k in range(0, len(tuning), 2)]
    assert all(not (tuning[k] & tuning[k + 1]) for k in range(0, len(tuning), 2))
    assert sorted(pairs, key=sorted) == sorted(train, key=sorted)
    assert set(df["fold"]) == set(range(folds)) and df["gamma"].notna().all()
