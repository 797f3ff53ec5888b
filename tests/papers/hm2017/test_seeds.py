"""H&M 2017's spread over seeds (issue 17): Figs. 2 and 3 repeat their random part (the regressor's
training subsets; the LSP learners' epoch shuffles) for every seed of the config's `seeds` inside
the same job. The main seed's rows stay what they were, the tables read only them, and the
figures draw them as lines with the min–max over seeds as bands."""

import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import PolyCollection

from coreflab.corpus.compile import compile_documents
from coreflab.corpus.readers.conll import write_conll
from coreflab.corpus.synthetic.generator import generate_corpus
from coreflab.features.extract import extract_arc_store
from coreflab.papers.hm2017 import report as R
from coreflab.papers.hm2017.commands import run as hm2017_run
from tests.command_runner import run_command

FEATURES = ["bias", "ana_type", "ana_type+ante_type", "sent_dist", "exact_match", "head_match"]


@pytest.fixture(scope="module")
def splits(tmp_path_factory):
    """The tiny synthetic corpus as the three splits `hm2017 run` reads (compiled, arcs, key)."""
    d = tmp_path_factory.mktemp("hmseeds")
    data = generate_corpus("tiny", seed=0)
    args = []
    for split in ("train", "dev", "test"):
        docs = data[split][:6]
        corpus = compile_documents(docs, "synth", split)
        corpus.save(d / f"{split}_c.npz")
        extract_arc_store(corpus, FEATURES, n_bits=12).save(d / f"{split}_a.npz")
        args += [f"--{split}-compiled", str(d / f"{split}_c.npz"), f"--{split}-arcs", str(d / f"{split}_a.npz")]
        if split != "train":
            write_conll(docs, d / f"{split}.conll")
            args += [f"--{split}-conll", str(d / f"{split}.conll")]
    return d, args


def _lsp(d, args, out, *extra):
    argv = ["--learner", "lsp_f", "--params", '{"n_iter": 3}', "--seed", "1", *args, "--out", str(d / out)]
    assert run_command(hm2017_run, argv + list(extra)) == 0
    return pd.read_csv(d / out)


def test_extra_seeds_leave_the_main_runs_rows_unchanged(splits):
    d, args = splits
    alone = _lsp(d, args, "alone.csv")
    both = _lsp(d, args, "seeds.csv", "--seeds", "1", "2", "3")
    assert set(alone["seed"]) == {1}
    assert both["seed"].value_counts().to_dict() == {1: 6, 2: 6, 3: 6}  # 3 epochs × dev, test
    scores = ["learner", "n_fraction", "epoch", "split", "muc", "bcub", "ceafe", "mela"]
    main = both[both["seed"] == 1].reset_index(drop=True)
    assert main[scores].equals(alone[scores])
    # the other seeds shuffled the training documents otherwise: some score moved
    other = both[both["seed"] == 2].reset_index(drop=True)
    assert not other[scores].equals(alone[scores])


def _fabricated_runs():
    rng = np.random.default_rng(0)
    rows = []
    for seed in (1, 2, 3):
        for learner in ("lsp_f", "lsp_rho"):
            for n in (100, 0):
                for epoch in (1, 2, 3, 4):
                    for split in ("dev", "test"):
                        rows.append(
                            {
                                "learner": learner,
                                "n_features": n,
                                "n_fraction": 1.0 if n == 0 else 0.1,
                                "epoch": epoch,
                                "split": split,
                                "muc": 60.0,
                                "bcub": 61.0,
                                "ceafe": 62.0,
                                "mela": 60 + 3 * epoch - epoch**2 + 5 * rng.random(),
                                "seed": seed,
                            }
                        )
    return pd.DataFrame(rows)


def _bands(ax):
    return [c for c in ax.collections if isinstance(c, PolyCollection)]


def _band_range(collection):
    """(x values, low, high) of a fill_between band."""
    (path,) = collection.get_paths()
    v = path.vertices
    xs = np.unique(v[:, 0])
    low = np.array([v[v[:, 0] == x, 1].min() for x in xs])
    high = np.array([v[v[:, 0] == x, 1].max() for x in xs])
    return xs, low, high


def test_fig3_bands_are_the_range_over_seeds_and_lines_the_main_seed():
    runs = _fabricated_runs()
    fig = R.fig3(runs, 5000, corpus="synth", seed=2)
    assert "bands: range over 3 seeds" in fig._suptitle.get_text()
    ax = fig.axes[0]  # N = 100
    dev = runs[(runs.split == "dev") & (runs.n_features == 100) & (runs.learner == "lsp_f")]
    line = next(ln for ln in ax.get_lines() if ln.get_label() == "LSP_F")
    assert np.allclose(line.get_ydata(), dev[dev.seed == 2].sort_values("epoch")["mela"])
    band = _bands(ax)[0]
    xs, low, high = _band_range(band)
    spread = dev.groupby("epoch")["mela"].agg(["min", "max"])
    assert np.allclose(xs, spread.index) and np.allclose(low, spread["min"]) and np.allclose(high, spread["max"])
    # one seed: no band, and the title says nothing of seeds
    single = R.fig3(runs[runs.seed == 2], 5000, corpus="synth", seed=2)
    assert not any(_bands(a) for a in single.axes) and "seeds" not in single._suptitle.get_text()


def test_tables_read_the_main_seed_only():
    runs = _fabricated_runs()
    best = R.best_epochs(R.main_rows(runs, 2))
    assert best.equals(R.best_epochs(runs[runs.seed == 2].drop(columns="seed")))
    # a frame written before runs carried a seed is all main
    old = runs[runs.seed == 2].drop(columns="seed")
    assert R.main_rows(old, 2).equals(old)


def test_fig2_points_of_the_main_seed_are_unchanged_and_bands_span_the_seeds():
    rng = np.random.default_rng(1)
    from coreflab.mela.features import FEATURE_NAMES

    n = 60
    data = pd.DataFrame(rng.random((n, len(FEATURE_NAMES))), columns=list(FEATURE_NAMES))
    data["mela"] = 100 * data[list(FEATURE_NAMES)].mean(axis=1) + rng.normal(0, 2, n)
    data["sample"] = np.repeat([1, 2], n // 2)
    points = R.fig2_points_seeds(data, seed=5, seeds=[4, 5, 6])
    assert list(dict.fromkeys(points["seed"])) == [5, 4, 6]
    main = points[points.seed == 5].drop(columns="seed").reset_index(drop=True)
    assert main.equals(R.fig2_points(data, seed=5))
    fig = R.fig2(points, "synth", seed=5)
    assert "bands: range over 3 seeds" in fig._suptitle.get_text()
    ax = fig.axes[0]  # MSE
    sub = points[(points.train == "S1")]
    xs, low, high = _band_range(_bands(ax)[0])
    spread = sub.groupby("n_examples")["MSE"].agg(["min", "max"])
    assert np.allclose(xs, spread.index) and np.allclose(low, spread["min"]) and np.allclose(high, spread["max"])
