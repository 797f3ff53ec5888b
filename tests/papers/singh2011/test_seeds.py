"""Spread over seeds (Figs. 5-7): `singh2011 run --seeds` traces more chains in the same job
without changing the main seed's; the figures' bands are the min-max over seeds per round; Table 2
and Fig. 5's throughput read only the main seed's rows."""

import re

import numpy as np
import pandas as pd
import pytest

from coreflab.cli import main
from coreflab.papers.singh2011 import report
from coreflab.papers.singh2011.synthetic import SynthCrossdocConfig, generate

MEASURED = re.compile(r"seconds|_per_s")  # wall-clock and rates: never equal between two runs


@pytest.fixture(scope="module")
def tiny_corpus(tmp_path_factory):
    path = tmp_path_factory.mktemp("singh_seeds") / "tiny.npz"
    generate(SynthCrossdocConfig(n_mentions=300, n_entities=8, vocab=300, context_len=10, seed=4)).save(path)
    return path


def _run(corpus, out, seed, *extra):
    trace, labels = out / f"trace{seed}{''.join(extra)}.csv", out / f"labels{seed}{''.join(extra)}.npy"
    argv = ["singh2011", "run", "--corpus", str(corpus), "--scheduler", "serial", "--model", "hier"]
    argv += ["--init", "string", "--workers", "2", "--rounds", "3", "--samples-per-round", "2000"]
    argv += ["--seed", str(seed), *extra, "--trace", str(trace), "--labels", str(labels)]
    assert main(argv) == 0
    return pd.read_csv(trace), np.load(labels)


def _unmeasured(t):
    return t[[c for c in t.columns if not MEASURED.search(c)]].reset_index(drop=True)


def test_extra_seeds_leave_the_main_seeds_rows_labels_and_log_p_as_they_were(tmp_path, tiny_corpus):
    alone, alone_labels = _run(tiny_corpus, tmp_path, 5)
    both, both_labels = _run(tiny_corpus, tmp_path, 5, "--seeds", "5", "6", "7", "6")
    assert both.columns.tolist() == alone.columns.tolist()
    assert both["seed"].drop_duplicates().tolist() == [5, 6, 7]  # --seed first, each seed once
    main_rows = both[both["seed"] == 5]
    assert main_rows.index.tolist() == list(range(len(alone)))
    pd.testing.assert_frame_equal(_unmeasured(main_rows), _unmeasured(alone))
    np.testing.assert_array_equal(both_labels, alone_labels)
    extra = both[both["seed"] != 5]
    assert extra[["log_p", "log_p_gold", "log_p_string"]].isna().all().all()  # log p: the main seed's only
    # every extra seed is the chain that seed runs alone, and differs from the main one
    six, _ = _run(tiny_corpus, tmp_path, 6)
    cols = ["round", "b3_f1", "entities", "accepted"]
    pd.testing.assert_frame_equal(_unmeasured(extra[extra["seed"] == 6])[cols], _unmeasured(six)[cols])
    assert not np.array_equal(extra[extra["seed"] == 7]["b3_f1"], main_rows["b3_f1"])


def _seeded_trace(run="flat_K2", workers=2, corpus="personx", seeds=(3, 1, 2)):
    """A fabricated `--seeds` trace: the main seed (the first) first, each seed with its own times."""
    rows = []
    for j, seed in enumerate(seeds):
        for r in range(4):
            rows.append(
                {
                    "run": run,
                    "model": "hier",
                    "corpus": corpus,
                    "seed": seed,
                    "workers": workers,
                    "round": r,
                    "seconds": (1.0 + 0.5 * j) * r,
                    "b3_p": 0.5,
                    "b3_r": 0.5,
                    "b3_f1": 0.4 + 0.1 * r + 0.03 * ((j + r) % 3 - 1),
                    "entities": 20 - r - j,
                    "proposals": 1000 * r * (j + 1),
                    "sum_shard_seconds": 0.1 + r * (j + 1),
                }
            )
    return pd.DataFrame(rows)


def test_band_is_the_range_over_seeds_per_round_at_the_main_runs_seconds():
    t = _seeded_trace()
    band = report.seed_band(t)
    main = t[t["seed"] == 3]
    assert band["round"].tolist() == [0, 1, 2, 3]
    np.testing.assert_array_equal(band["seconds"], main["seconds"])
    for r in range(4):
        f1 = t[t["round"] == r]["b3_f1"]
        assert band["low"].iloc[r] == f1.min() and band["high"].iloc[r] == f1.max()
    # and that is what Fig. 6 draws: the main seed's line, the band behind it
    fig = report.fig6_hierarchy(t)
    ax = fig.axes[0]
    np.testing.assert_allclose(ax.get_lines()[0].get_ydata(), 100 * main["b3_f1"])
    (poly,) = ax.collections
    xy = poly.get_paths()[0].vertices
    assert set(np.round(xy[:, 0], 9)) == set(np.round(main["seconds"], 9))
    assert set(np.round(xy[:, 1], 9)) == set(np.round(100 * pd.concat([band["low"], band["high"]]), 9))
    assert "bands: range over 3 seeds" in fig._suptitle.get_text()


def test_one_seed_and_old_traces_draw_no_band():
    one = _seeded_trace(seeds=(1,))
    old = one.drop(columns="seed")
    for t in (one, old):
        fig = report.fig6_hierarchy(t)
        assert not fig.axes[0].collections and "bands" not in fig._suptitle.get_text()
    assert report.main_seed(old) is old


def test_main_seed_is_per_corpus_and_run_and_keeps_rows_without_a_seed():
    a = _seeded_trace(run="hier_K2", corpus="large", seeds=(1, 2))
    b = _seeded_trace(run="hier_K2", corpus="ecbplus", seeds=(4, 1))
    old = _seeded_trace(run="hier_K1", corpus="large", seeds=(9,)).assign(seed=np.nan)
    main = report.main_seed(pd.concat([a, b, old], ignore_index=True))
    seeds = main.groupby(["corpus", "run"], sort=False)["seed"].first()
    assert seeds.dropna().to_dict() == {("large", "hier_K2"): 1, ("ecbplus", "hier_K2"): 4}  # old: no seed
    assert main.groupby(["corpus", "run"], sort=False).size().tolist() == [4, 4, 4]


def _baselines():
    return pd.DataFrame(
        [{"corpus": "large", "system": "string_match", "b3_p": 0.6, "b3_r": 0.6, "b3_f1": 0.6, "entities": 30}]
    )


def test_table2_and_fig5_throughput_read_only_the_main_seed():
    traces = pd.concat([_seeded_trace("hier_K1", 1, "large"), _seeded_trace("hier_K2", 2, "large")], ignore_index=True)
    main = traces[traces["seed"] == 3]
    pd.testing.assert_frame_equal(report.table2(traces, _baselines()), report.table2(main, _baselines()))
    assert report.table2(traces, _baselines())["entities"].tolist() == [30, 17, 17]  # seed 3's last round

    def throughput(t):
        fig = report.fig5_workers(t)
        return [(ln.get_label(), ln.get_xdata().tolist(), ln.get_ydata().tolist()) for ln in fig.axes[1].get_lines()]

    assert throughput(traces) == throughput(main)
