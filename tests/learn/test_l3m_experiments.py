"""`coreflab l3m-experiment` studies and the L3M tables on the tiny synthetic corpus."""

import argparse

import numpy as np
import pandas as pd
import pytest

from coreflab.commands import l3m_experiments
from coreflab.commands.train import load_split
from coreflab.corpus.compile import compile_documents
from coreflab.corpus.conll import read_conll_path, write_conll
from coreflab.corpus.synthetic import generate_corpus
from coreflab.features.extract import extract_arc_store
from coreflab.learn.base import as_training_data
from coreflab.learn.evaluation import avg_row, score_model
from coreflab.learn.l3m import L3M

FEATURES = ["bias", "ana_type", "ana_type+ante_type", "sent_dist", "exact_match", "head_match"]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("l3m")
    docs = generate_corpus("tiny", seed=0)
    out = {}
    for split in ("train", "dev", "test"):
        corpus = compile_documents(docs[split], "synth", split)
        corpus.save(tmp / f"{split}.npz")
        extract_arc_store(corpus, FEATURES, n_bits=14).save(tmp / f"{split}_arcs.npz")
        write_conll(docs[split], tmp / f"{split}.conll")
        out[split] = [str(tmp / f"{split}.npz"), str(tmp / f"{split}_arcs.npz"), str(tmp / f"{split}.conll")]
    out["tmp"] = tmp
    return out


def _argv(files, *extra):
    argv = list(extra)
    for split in ("train", "dev", "test"):
        argv += [f"--{split}-compiled", files[split][0], f"--{split}-arcs", files[split][1],
                 f"--{split}-conll", files[split][2]]
    return argv


def _run(argv):
    p = argparse.ArgumentParser()
    l3m_experiments.add_arguments(p)
    return l3m_experiments.run(p.parse_args(argv))


def test_robustness_scores_the_training_split_and_reports_test_too(files):
    out = files["tmp"] / "robustness.csv"
    assert _run(_argv(files, "robustness", "--runs", "3", "--seed", "2", "--out", str(out))) == 0
    df = pd.read_csv(out)
    assert len(df) == 4 and {"AVG", "test AVG"} <= set(df.columns)
    train = as_training_data(load_split(files["train"][0], files["train"][1]))
    test = as_training_data(load_split(files["test"][0], files["test"][1]))
    zero = L3M(gamma=1.0, lam=1e-4, eta0=0.1, epochs=1, seed=2).fit(train)
    on_train = avg_row(score_model(zero, train.corpus, train.store, read_conll_path(files["train"][2])))
    on_test = avg_row(score_model(zero, test.corpus, test.store, read_conll_path(files["test"][2])))
    row = df[df["run"].astype(str) == "zero-init"].iloc[0]
    assert row["AVG"] == pytest.approx(on_train["AVG"], abs=1e-5)
    assert row["test AVG"] == pytest.approx(on_test["AVG"], abs=1e-5)
    # the runs differ only in their initialisation: run k is L3M with init_seed = seed + 1000 + k
    first = L3M(gamma=1.0, lam=1e-4, eta0=0.1, epochs=1, seed=2, init="normal", init_seed=1002).fit(train)
    again = avg_row(score_model(first, train.corpus, train.store, read_conll_path(files["train"][2])))
    assert df[df["run"].astype(str) == "0"].iloc[0]["AVG"] == pytest.approx(again["AVG"], abs=1e-5)
