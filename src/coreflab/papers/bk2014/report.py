"""Björkelund & Kuhn (2014) Figs. 3–4 and Table 1 from the per-iteration dev curves.

Runs are named `<learner>-<local|nonlocal>-b<beam>`, with `-s<seed>` when trained with another
of the config's `seeds`; each curve CSV holds dev R/P/F of MUC, B3, CEAFm, CEAFe and MELA after
every iteration (`coreflab train --curve`). The figures draw the run without a seed suffix as the
line and, where other seeds ran, the range over all of them as a band. Table 1's rows are the runs
without a suffix (the config's seed), so adding seeds never changes them; where its two runs were
trained with more seeds, its seed columns give the spread over them.
"""

import pandas as pd
from matplotlib.ticker import MaxNLocator

from coreflab.errors import UserError
from coreflab.papers.bk2014.runs import parse_run, seed_of
from coreflab.report import style

NAMES = {k: style.system_name(k) for k in ("bk_early", "bk_maxviolation", "bk_laso", "bk_delayed_laso")}
NAMES["bk_baseline"] = "baseline"  # in B&K's own figures; beside other papers it is "B&K baseline"


def load_curves(paths_by_run):
    """One frame of every run's curve; `main` marks the runs with the config's seed."""
    frames = []
    for run, path in paths_by_run.items():
        df = pd.read_csv(path)
        learner, features, beam = parse_run(run)
        df["run"], df["learner"], df["features"], df["beam"] = run, learner, features, beam
        df["main"] = seed_of(run) is None
        frames.append(df)
    return pd.concat(frames, ignore_index=True)


def _is_main(curves):
    """Which rows are runs with the config's seed: `main`, or no `-s<seed>` suffix in a frame without it."""
    return curves.main.astype(bool) if "main" in curves else curves.run.map(lambda r: seed_of(r) is None)


def _main_only(curves):
    return curves[_is_main(curves)]


def _mela(curves):
    mela = curves[curves.metric == "mela"].assign(MELA=lambda d: d.f1.astype(float))
    return mela.assign(main=_is_main(mela))


def _curve(ax, runs, label, i):
    """The main-seed line of one series and, where several seeds ran, their range as a band."""
    style.line_with_band(ax, runs, "epoch", "MELA", runs.main, i, label)


def _label(learner, features, beam):
    name = NAMES.get(learner, learner)
    return name if learner == "bk_baseline" else f"{name}, beam {beam}"


def _two_panels(curves, title, draw, suptitle):
    """Dev MELA vs iteration, local features left and non-local right (shared y-scale);
    draw(ax, mela, features) plots the series of one panel."""
    mela = _mela(curves)
    fig, axes = style.new_figure(1, 2, panel_size=(5.5, 4), sharey=True)
    for ax, features in zip(axes, ("local", "nonlocal")):
        draw(ax, mela, features)
        ax.set(title=title(features), xlabel="iteration (passes over the training set)")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.legend(fontsize=8)
    axes[0].set_ylabel("dev MELA (CoNLL F1, %)")
    axes[1].set_ylabel("dev MELA (CoNLL F1, %)")
    n_seeds = mela.groupby(["learner", "features", "beam"]).run.nunique().max()
    return style.finish_figure(fig, suptitle + style.seeds_note(n_seeds))


def _features_title(features):
    return "Local features" if features == "local" else "Non-local features"


def figure3(curves, beams, corpus=None):
    """Dev MELA vs iteration: early update at two beams against the baseline (local | non-local)."""

    def draw(ax, mela, features):
        _curve(ax, mela[mela.learner == "bk_baseline"], "baseline (local, exact search)", 6)
        for k, beam in enumerate(beams):
            sub = mela[(mela.learner == "bk_early") & (mela.features == features) & (mela.beam == beam)]
            _curve(ax, sub, f"early update, beam {beam}", k)

    return _two_panels(
        curves, _features_title, draw, style.title("bk2014", "Fig. 3", corpus, "dev", "early update vs exact search")
    )


def figure4(curves, beam, corpus=None):
    """Dev MELA vs iteration for early update, (max-violation,) LaSO and delayed LaSO."""

    def draw(ax, mela, features):
        for k, learner in enumerate(("bk_early", "bk_maxviolation", "bk_laso", "bk_delayed_laso")):
            sub = mela[(mela.learner == learner) & (mela.features == features) & (mela.beam == beam)]
            if len(sub):
                _curve(ax, sub, NAMES[learner], k)
        base = mela[mela.learner == "bk_baseline"]
        if features == "local" and len(base):
            _curve(ax, base, "baseline", 6)

    return _two_panels(
        curves,
        lambda features: f"{_features_title(features)} (beam {beam})",
        draw,
        style.title("bk2014", "Fig. 4", corpus, "dev", "update strategies"),
    )


def same_runs(curves, beam):
    """Are Table 1's local and non-local runs (config seed) the same model at every iteration? They are
    when the non-local run has no non-local template (selection kept none), and a reader of two equal
    rows should be told so rather than left to guess."""
    curves = _main_only(curves)
    sub = curves[(curves.learner == "bk_delayed_laso") & (curves.beam == beam)]
    cols = ["epoch", "metric", "recall", "precision", "f1"]
    local, nonlocal_ = (
        sub[sub.features == f][cols].sort_values(["epoch", "metric"]).reset_index(drop=True)
        for f in ("local", "nonlocal")
    )
    return len(local) > 0 and local.equals(nonlocal_)


def table1(curves, beam, dev_scores=None, samples=10000, seed=0, iteration=None):
    """Local vs non-local delayed LaSO on dev at `iteration` (None: the last), with the difference row.

    The rows are the config seed's runs; other seeds' runs in `curves` add the seed columns
    (`_with_seed_spread`).

    `dev_scores` ({"local": scores, "nonlocal": scores}, per-document counts of the two models
    of that iteration on dev) adds the paired bootstrap over dev documents of the MELA
    difference: its 95% interval and p, so that a reader sees whether the difference is more
    than the documents' spread. The scores must be the curves' MELA at that iteration (checked
    to 0.01)."""
    rows = []
    curves_all, curves = curves, _main_only(curves)
    for features in ("local", "nonlocal"):
        sub = curves[(curves.learner == "bk_delayed_laso") & (curves.features == features) & (curves.beam == beam)]
        if sub.empty:
            continue
        at = int(sub.epoch.max()) if iteration is None else int(iteration)
        if at not in set(sub.epoch):
            raise UserError(f"Table 1: the {features} curve (beam {beam}) has no iteration {at}")
        last = sub[sub.epoch == at].set_index("metric")
        row = {"features": features, "iteration": at}
        for metric, label in (("muc", "MUC"), ("bcub", "B3"), ("ceafm", "CEAFm"), ("ceafe", "CEAFe")):
            for col, short in (("recall", "R"), ("precision", "P"), ("f1", "F")):
                row[f"{label} {short}"] = float(last.loc[metric, col])
        row["MELA"] = float(last.loc["mela", "f1"])
        rows.append(row)
    table = pd.DataFrame(rows)
    if len(table) == 2:
        table["iteration"] = table["iteration"].astype(object)  # stays 50, not 50.00, beside the blank
        diff = {"features": "difference", "iteration": None}
        for col in table.columns[2:]:
            diff[col] = table[col].iloc[1] - table[col].iloc[0]
        table = pd.concat([table, pd.DataFrame([diff])], ignore_index=True)
        if dev_scores is not None:
            table = _with_significance(table, dev_scores, samples, seed)
        table = _with_seed_spread(table, seed_mela(curves_all, beam, int(table["iteration"].iloc[0])))
    return table


def seed_mela(curves, beam, iteration):
    """Dev MELA of Table 1's two runs at `iteration`, one row per training seed (index: the seed,
    `main` for the config's), columns local and nonlocal (NaN where a seed ran one of them only)."""
    mela = _mela(curves)
    sub = mela[(mela.learner == "bk_delayed_laso") & (mela.beam == beam) & (mela.epoch == iteration)]
    seeds = sub.run.map(lambda r: "main" if seed_of(r) is None else str(seed_of(r)))
    return sub.assign(seed=seeds).pivot_table(index="seed", columns="features", values="MELA", aggfunc="first")


def seed_differences(by_seed):
    """Per-seed MELA difference, non-local minus local, over the seeds that ran both (a `seed_mela` frame)."""
    return (by_seed["nonlocal"] - by_seed["local"]).dropna()


def _spread(values):
    """(n, mean, sd (n − 1; NaN for one value), standard error sd / sqrt(n)) of a series of seeds' values."""
    n = len(values)
    sd = float(values.std(ddof=1)) if n > 1 else float("nan")
    return n, float(values.mean()), sd, sd / n**0.5


def seed_study(curves, beam):
    """Table 1's non-local gain after every iteration, over the seeds its two runs were trained with.

    One row per iteration of the curves: the seeds with both runs, their mean dev MELA local and
    non-local, the per-seed difference's mean, sd (n - 1), standard error and how many seeds the
    non-local model is ahead in. It shows what one seed's bootstrap cannot: whether the gain is
    larger than retraining moves it, and whether it grows with training (B&K's Fig. 3) or fades."""
    mela = _mela(curves)
    epochs = sorted(mela.loc[(mela.learner == "bk_delayed_laso") & (mela.beam == beam), "epoch"].unique())
    rows = []
    for epoch in epochs:
        by_seed = seed_mela(curves, beam, epoch)
        if not {"local", "nonlocal"} <= set(by_seed.columns):
            continue
        diff = seed_differences(by_seed)
        if diff.empty:
            continue
        both = by_seed.loc[diff.index]
        n, mean, sd, se = _spread(diff)
        rows.append(
            {
                "iteration": int(epoch),
                "seeds": n,
                "local": float(both["local"].mean()),
                "nonlocal": float(both["nonlocal"].mean()),
                "difference": mean,
                "sd": sd,
                "se": se,
                "ahead": int((diff > 0).sum()),
            }
        )
    return pd.DataFrame(rows, columns=["iteration", "seeds", "local", "nonlocal", "difference", "sd", "se", "ahead"])


def _with_seed_spread(table, by_seed):
    """Seed columns where Table 1's runs were trained with two or more seeds: per row the number of
    seeds, the mean, the sd and the standard error (sd / sqrt(n)) of MELA; in the difference row those
    of the per-seed difference (seeds with both runs) and how many seeds the non-local model is ahead in. A bootstrap over
    documents holds the models fixed; this is the spread from retraining them."""
    if len(by_seed) < 2 or not {"local", "nonlocal"} <= set(by_seed.columns):
        return table
    diff = seed_differences(by_seed)
    spreads = [_spread(c) for c in (by_seed["local"].dropna(), by_seed["nonlocal"].dropna(), diff)]
    table = table.copy()
    for i, column in enumerate(("seeds", "MELA seed mean", "MELA seed sd", "MELA seed se")):
        table[column] = [spread[i] for spread in spreads]
    table["non-local ahead"] = ["", "", f"{int((diff > 0).sum())} of {len(diff)}"]
    return table


def _with_significance(table, dev_scores, samples, seed):
    from coreflab.metrics.significance import paired_test

    r = paired_test(dev_scores["nonlocal"], dev_scores["local"], metric="mela", samples=samples, seed=seed)
    for score, row in ((r.score_a, 1), (r.score_b, 0)):
        if abs(score - table["MELA"].iloc[row]) > 0.01:
            raise UserError(
                f"Table 1: the {table['features'].iloc[row]} model's dev scores give MELA {score:.2f}, "
                f"its curve at iteration {table['iteration'].iloc[row]} {table['MELA'].iloc[row]:.2f}: not the same model"
            )
    table = table.copy()
    table["MELA 95% interval"] = ["", "", f"[{r.low:+.2f}, {r.high:+.2f}]"]
    table["p (bootstrap)"] = [float("nan"), float("nan"), r.p_value]
    return table
