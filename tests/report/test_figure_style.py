"""Every figure of the project passes the same style check (issue 17, "one figure style").

Each figure function is called on small fabricated inputs, saved with `save_figure`, and
checked: colours from the style module's palette, markers (and marker/line-style pairs, and
colour/line-style pairs) differ between the series of a panel, a figure title naming paper and
figure, axis labels on every panel, legends with the papers' names, no empty panels, and the
file written with the mode of a new file (0644 under the usual umask 022), not mkstemp's 0600.
"""

import os
import stat
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.colors import to_hex

from coreflab.corpus.compile import compile_documents
from coreflab.corpus.synthetic.generator import generate_corpus
from coreflab.papers.bk2014 import report as bk2014
from coreflab.papers.hm2017 import report as hm2017
from coreflab.papers.singh2011 import report as singh
from coreflab.report import style
from coreflab.report.io import save_figure
from coreflab.report.overview import overview_figure
from coreflab.report.performance import scaling_figure
from coreflab.report.training_size import figure as training_size_figure

ROOT = Path(__file__).resolve().parents[2]
PALETTE = {c.lower() for c in style.PALETTE}


@pytest.fixture(autouse=True)
def _close_figures():
    """Each test's figures are closed after it (pyplot keeps them alive otherwise)."""
    yield
    plt.close("all")


# ---------------------------------------------------------------------------- fabricated inputs


def _bk_curves():
    rows = []
    runs = ["bk_baseline-local-b1"] + [
        f"{s}-{f}-b{b}"
        for s in ("bk_early", "bk_maxviolation", "bk_laso", "bk_delayed_laso")
        for f in ("local", "nonlocal")
        for b in (2, 4)
    ]
    for k, run in enumerate(runs):
        learner, features, beam = bk2014.parse_run(run)
        for epoch in (1, 2, 3):
            rows.append(
                {
                    "run": run,
                    "learner": learner,
                    "features": features,
                    "beam": beam,
                    "epoch": epoch,
                    "metric": "mela",
                    "f1": 50 + k + epoch,
                }
            )
    return pd.DataFrame(rows)


def _hm_runs(ns=(10, 100, 1000, 0)):
    rows = []
    for i, learner in enumerate(("lsp_f", "lsp_yj", "lsp_rho")):
        for j, n in enumerate(ns):
            for epoch in (1, 2, 3):
                for split in ("dev", "test"):
                    v = 55 + i + j - (6 if n == 10 else 0) + epoch / 3 + (0.5 if split == "test" else 0)
                    rows.append(
                        {
                            "learner": learner,
                            "n_features": n,
                            "split": split,
                            "epoch": epoch,
                            "mela": v,
                            "muc": v + 5,
                            "bcub": v - 2,
                            "ceafe": v - 3,
                        }
                    )
    return pd.DataFrame(rows)


def _hm_points():
    return pd.DataFrame(
        [
            {"train": f"S{a}", "test": f"S{3 - a}", "n_examples": n, "MSE": 10 / n + a, "SCC": 50 + n / 10}
            for a in (1, 2)
            for n in (10, 30, 100)
        ]
    )


def _trace(run, model, workers, corpus="personx", setting=None, context=None, seed=None):
    rows = []
    for r in range(4):
        rows.append(
            {
                "run": run,
                "model": model,
                "workers": workers,
                "corpus": corpus,
                "round": r,
                "seconds": 2.0 * r + (0.3 * r if seed and seed > 1 else 0.0),
                "b3_f1": 0.5 + 0.05 * r + 0.01 * workers - (0.02 * r * (seed - 1) if seed else 0.0),
                "b3_p": 0.6,
                "b3_r": 0.5,
                "proposals": 1000 * r * workers,
                "sum_shard_seconds": 0.5 * r * workers + 0.1,
                "entities": 40 - r,
                **({"setting": setting} if setting else {}),
                **({"context": context} if context else {}),
                **({"seed": seed} if seed else {}),
            }
        )
    return pd.DataFrame(rows)


def _seeded(*args, **kwargs):
    """A Singh run traced with two seeds (a `singh2011 run --seeds` trace: the main seed first)."""
    return pd.concat([_trace(*args, **kwargs, seed=1), _trace(*args, **kwargs, seed=2)], ignore_index=True)


def _singh_fig6_traces():
    """Fig. 6's runs: the four named models and a node-level (union contexts) run, two seeds each."""
    named = [_seeded(m, m, 2) for m in ("flat", "sub", "super", "hier")]
    return pd.concat(named + [_seeded("hier_union_K2", "hier", 2, context="union")], ignore_index=True)


def _baselines(corpus="large"):
    return pd.DataFrame(
        [
            {"corpus": corpus, "system": s, "b3_f1": f, "b3_p": f, "b3_r": f, "entities": 30}
            for s, f in (("string_match", 0.55), ("label_propagation", 0.6))
        ]
    )


def _bench_results():
    arcs = [
        {
            "documents": d,
            "arcs": a,
            "extract_cpu_s": 0.25e-6 * a,
            "extract_wall_s": 0.3e-6 * a,
            "baseline_epoch_cpu_s": 0.1e-6 * a,
            "baseline_epoch_wall_s": 0.12e-6 * a,
            "peak_mb": 300 + a / 1e4,
            "store_mb": a / 1e4,
            "rss_before_extract_mb": 260.0,
        }
        for d, a in ((10, 10_000), (40, 160_000))
    ]
    beam = [
        {
            "beam": b,
            "arcs": 40_000,
            "epoch_cpu_s": 0.01 * b,
            "epoch_wall_s": 0.02 * b,
            "cpu_us_per_arc": 0.25 * b,
            "peak_mb": 400.0,
            "training_added_mb": 160.0,
            "store_mb": 4.0,
        }
        for b in (1, 5, 20)
    ]
    return {
        "scaling": {"date": "2026-01-01", "plan": "quick", "machine": {"cpu_count": 2}, "arcs": arcs, "beam": beam},
        "crossdoc": {
            "personx": [
                {"workers": 1, "proposals_per_s_per_worker": 2.5e5, "proposals_per_s_total_wall": 2.4e5},
                {"workers": 2, "proposals_per_s_per_worker": 1.5e5, "proposals_per_s_total_wall": 2.8e5},
            ],
            "machine_cpus": 2,
        },
    }


@pytest.fixture(scope="module")
def tiny_corpora():
    docs = generate_corpus("tiny", seed=0)
    return [compile_documents(docs[s], "synth", s) for s in ("train", "dev")]


def _training_size_curve():
    rows = []
    for i, learner in enumerate(("bk_baseline", "bk_delayed_laso", "l3m", "lsp_rho")):
        for j, n in enumerate((5, 10, 20, 40, 80, 200)):
            for d in range(3):
                label = "all" if n == 200 else str(n)
                rows.append({"learner": learner, "size": label, "train_docs": n, "draw": d, "mela": 50 + 3 * j + i + d})
    return pd.DataFrame(rows)


# (id, builder(tiny_corpora) -> figure, words the title must contain)
FIGURES = [
    (
        "bk2014_fig3",
        lambda _: bk2014.figure3(_bk_curves(), [2, 4], corpus="synth"),
        ["Björkelund & Kuhn 2014", "Fig. 3", "synth", "dev"],
    ),
    (
        "bk2014_fig4",
        lambda _: bk2014.figure4(_bk_curves(), 4, corpus="synth"),
        ["Björkelund & Kuhn 2014", "Fig. 4", "synth", "dev"],
    ),
    (
        "hm2017_fig2",
        lambda _: hm2017.fig2(_hm_points(), corpus="synth"),
        ["Haponchyk & Moschitti 2017", "Fig. 2", "synth"],
    ),
    (
        "hm2017_fig3",
        lambda _: hm2017.fig3(_hm_runs(), 5000, corpus="synth"),
        ["Haponchyk & Moschitti 2017", "Fig. 3", "synth", "dev"],
    ),
    (
        "singh2011_fig5",
        lambda _: singh.fig5_workers(pd.concat([_seeded("k1", "flat", 1), _seeded("k2", "flat", 2)])),
        ["Singh et al. 2011", "Fig. 5", "personx"],
    ),
    (
        "singh2011_fig6",
        lambda _: singh.fig6_hierarchy(_singh_fig6_traces()),
        ["Singh et al. 2011", "Fig. 6", "personx"],
    ),
    (
        "singh2011_fig7",
        lambda _: singh.fig7_large(
            pd.concat([_seeded("h1", "hier", 1, "large"), _seeded("h2", "hier", 2, "large")]), _baselines("large")
        ),
        ["Singh et al. 2011", "Fig. 7", "large"],
    ),
    ("overview", lambda corpora: overview_figure(corpora, "Corpus overview: synth"), ["synth", "train", "dev"]),
    ("bench_scaling", lambda _: scaling_figure(_bench_results()), ["coreflab"]),
    (
        "training_size",
        lambda _: training_size_figure(
            _training_size_curve(), {"sieve": 60.0, "string_match": 55.0}, 20, run="synth, gold mentions"
        ),
        ["Where learning overtakes rules", "synth", "gold mentions"],
    ),
]


def _series(ax):
    """Labelled data series of a panel (legend entries), skipping matplotlib's '_child' lines."""
    return [ln for ln in ax.get_lines() if not ln.get_label().startswith("_")]


@pytest.mark.parametrize("name,build,title_words", FIGURES, ids=[f[0] for f in FIGURES])
def test_every_figure_follows_the_style(tiny_corpora, name, build, title_words):
    fig = build(tiny_corpora)
    title = fig._suptitle.get_text() if fig._suptitle is not None else ""
    for word in title_words:
        assert word in title, (word, title)
    panels = [ax for ax in fig.axes if ax.axison]
    assert panels
    for ax in panels:
        assert ax.get_xlabel() and ax.get_ylabel(), (name, ax.get_title())
        assert ax.lines or ax.patches or ax.collections, f"{name}: empty panel {ax.get_title()!r}"
        series = _series(ax)
        for ln in ax.get_lines():
            assert to_hex(ln.get_color()).lower() in PALETTE, (name, ln.get_label(), ln.get_color())
        marked = [ln.get_marker() for ln in series if ln.get_marker() not in ("None", "", None, " ")]
        assert len(marked) == len(set(marked)), (name, ax.get_title(), marked)
        looks = [(str(ln.get_marker()), str(ln.get_linestyle()), to_hex(ln.get_color())) for ln in series]
        assert len(looks) == len(set(looks)), (name, looks)
        strokes = [(to_hex(ln.get_color()), str(ln.get_linestyle())) for ln in series]  # as seen without markers
        assert len(strokes) == len(set(strokes)), (name, ax.get_title(), strokes)
        for patch in ax.patches:
            if patch.get_edgecolor()[3] > 0 and patch.get_fill() is False:
                assert to_hex(patch.get_edgecolor()).lower() in PALETTE, name
        if name != "bench_scaling":  # benchmark names are not systems of a paper
            legend = ax.get_legend()
            texts = [t.get_text() for t in legend.get_texts()] if legend else []
            raw = [t for t in texts if t in style.SYSTEM_NAMES and style.SYSTEM_NAMES[t] != t]
            assert not raw, (name, raw)


@pytest.mark.slow  # drawing every figure to PNG and PDF takes seconds
@pytest.mark.parametrize("name,build", [f[:2] for f in FIGURES], ids=[f[0] for f in FIGURES])
def test_every_figure_is_written_with_the_mode_of_a_new_file(tmp_path, tiny_corpora, name, build):
    fig = build(tiny_corpora)
    umask = os.umask(0)
    os.umask(umask)
    for ext in ("png", "pdf"):
        path = tmp_path / f"{name}.{ext}"
        save_figure(fig, path)
        assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask  # 0644 under umask 022
        assert path.stat().st_size > 1000


def test_hm2017_fig3_panels_share_one_y_scale_and_leave_no_empty_cell():
    fig = hm2017.fig3(_hm_runs(), 5000, corpus="synth")
    panels = [ax for ax in fig.axes if ax.axison]
    assert len(panels) == len(fig.axes) == 5  # four N and the test panel, no blank cells
    assert len({tuple(np.round(ax.get_ylim(), 6)) for ax in panels}) == 1
    assert "T_best" in panels[-1].get_title() and "best dev" in panels[-1].get_title()
    legend = [t.get_text() for t in panels[0].get_legend().get_texts()]
    assert "LSP_ρ" in legend and "LSP_rho" not in legend


def test_bk2014_fig4_strategies_differ_by_marker_not_only_colour():
    fig = bk2014.figure4(_bk_curves(), 4, corpus="synth")
    local = fig.axes[0]
    markers = {ln.get_label(): ln.get_marker() for ln in _series(local)}
    assert markers["LaSO"] != markers["delayed LaSO"]
    assert fig.axes[0].get_ylim() == fig.axes[1].get_ylim()  # the two panels are compared


def test_singh_fig7_names_only_the_corpora_it_shows():
    fig = singh.fig7_large(_trace("h", "hier", 2, "large"), _baselines("large"))
    assert "ECB" not in fig._suptitle.get_text()
    assert len([ax for ax in fig.axes if ax.axison]) == 1
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert "string match" in labels and "label propagation" in labels
    caption = (ROOT / "workflow" / "rules" / "papers" / "report" / "singh2011_fig7.rst").read_text(encoding="utf-8")
    assert "only when the ECB+ folder is configured" in caption


@pytest.mark.parametrize("name,runs", [("singh2011_fig5", 2), ("singh2011_fig6", 5), ("singh2011_fig7", 2)])
def test_singh_seed_bands_in_the_series_colour(name, runs):
    """Every Singh run traced with two seeds gets a band in its line's colour, and the title says so."""
    fig = {f[0]: f[1] for f in FIGURES}[name](None)
    assert "lines: one seed, bands: range over 2 seeds" in fig._suptitle.get_text()
    ax = fig.axes[0]
    bands = ax.collections
    assert len(bands) == runs
    lines = _series(ax)[:runs]  # the runs' lines come first (Fig. 7: then the baselines)
    assert [to_hex(b.get_facecolor()[0]) for b in bands] == [to_hex(ln.get_color()) for ln in lines]


def test_series_style_gives_distinct_colour_marker_and_line_style():
    looks = [style.series_style(i) for i in range(len(style.PALETTE))]
    for key in ("color", "marker", "linestyle"):
        values = [str(s[key]) for s in looks]
        assert len(set(values)) == len(values), key


def test_finish_figure_removes_empty_panels():
    fig, axes = style.new_figure(2, 2)
    axes[0].plot([1, 2], [3, 4], label="x", **style.series_style(0))
    axes[0].set(xlabel="x (s)", ylabel="y (%)")
    style.finish_figure(fig, "title")
    assert len(fig.axes) == 1


def test_system_names_are_the_papers():
    for key, want in (
        ("binleftlink", "Bin-Left-Link"),
        ("sumlink", "Sum-Link"),
        ("l3m", "L3M"),
        ("spanning_forest", "Spanning Forest"),
        ("corr_clustering", "Corr-Clustering"),
        ("LSP_rho", "LSP_ρ"),
        ("bk_delayed_laso", "delayed LaSO"),
        ("string_match", "string match"),
        ("cc_slt_closest", "SLT (closest)"),
        ("lsp_rho_from_gum", "LSP_ρ (regressor of gum)"),
        ("something_new", "something_new"),
    ):
        assert style.system_name(key) == want
