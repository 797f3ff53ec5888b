"""Haponchyk & Moschitti (2017): Table 1, Fig. 2 (the regressor), Fig. 3, Tables 2–4 (the learners).

- Table 1: regressor trained on sample S1 tested on S2 and back: examples, MSE, SCC (%), the
  paper's squared correlation coefficient: Pearson r² of predicted and true MELA (`mse_scc`).
- Fig. 2: MSE and SCC (Pearson r²) on the other sample vs the number of training examples (log x,
  10 to all; each size a seeded random subset of the training sample).
- Fig. 3: one panel per N: dev MELA vs epoch for LSP_F, LSP_YJ, LSP_ρ; last panel: test
  MELA vs N at each model's best dev epoch (T_best).
- Table 2: dev and test MELA and T_best for N_selected (the reduced N where the learners'
  mean best dev MELA is highest, ties to the smaller N: the paper fixed N in advance, so no
  one learner's score picks it) and All; Table 3: test MUC, B3, CEAFe, MELA at
  T_best; Table 4: the same on the second corpus, including LSP_ρ with the regressor of
  the first corpus (LSP^1st_ρ, the paper's LSP^EN_ρ transfer).
"""

from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.ticker import MaxNLocator

from coreflab.mela.features import FEATURE_NAMES
from coreflab.mela.regressor import fit_regressor, mse_scc
from coreflab.report import style
from coreflab.seeds import main_seed_rows as main_rows
from coreflab.seeds import n_seeds, seed_order

LEARNER_ORDER = ("lsp_f", "lsp_yj", "lsp_rho")

# `mse_scc`'s SCC is the squared Pearson correlation of predicted and true MELA (the paper's
# "squared correlation coefficient"), not a rank (Spearman) correlation.
SCC_LABEL = "SCC (Pearson r², %)"
SCC_CAPTION = "SCC = squared correlation coefficient, Pearson r² of predicted and true MELA (%)"


def display_name(learner):
    """Paper name of a run label; lsp_rho_from_<corpus> = LSP_ρ with that corpus's regressor."""
    return style.system_name(learner)


def _series_index(learner):
    """The same colour/marker for a learner in every panel (transfer runs after the three)."""
    return LEARNER_ORDER.index(learner) if learner in LEARNER_ORDER else len(LEARNER_ORDER)


def _split_xy(df):
    return df[list(FEATURE_NAMES)].to_numpy(), df["mela"].to_numpy()


def table1(data, seed=0):
    rows = []
    for a, b in ((1, 2), (2, 1)):
        Xtr, ytr = _split_xy(data[data["sample"] == a])
        Xte, yte = _split_xy(data[data["sample"] == b])
        model = fit_regressor(Xtr, ytr, seed=seed)
        mse, scc = mse_scc(yte, model.predict(Xte))
        rows.append({"Train": f"S{a}", "Test": f"S{b}", "# examples": len(ytr), "MSE": mse, "SCC": scc})
    return pd.DataFrame(rows)


def fig2_points(data, seed=0, n_sizes=8):
    """Rows (train, size, MSE, SCC): subsets of 10 .. all training examples (log-spaced)."""
    rng = np.random.default_rng(seed)
    rows = []
    for a, b in ((1, 2), (2, 1)):
        Xtr, ytr = _split_xy(data[data["sample"] == a])
        Xte, yte = _split_xy(data[data["sample"] == b])
        n = len(ytr)
        if n < 2:
            continue
        sizes = sorted({int(round(x)) for x in np.geomspace(min(10, n), n, n_sizes)})
        perm = rng.permutation(n)
        for k in sizes:
            idx = perm[:k]
            model = fit_regressor(Xtr[idx], ytr[idx], seed=seed)
            mse, scc = mse_scc(yte, model.predict(Xte))
            rows.append({"train": f"S{a}", "test": f"S{b}", "n_examples": k, "MSE": mse, "SCC": scc})
    return pd.DataFrame(rows)


def fig2_points_seeds(data, seed=0, seeds=(), n_sizes=8):
    """`fig2_points` for `seed` and then every other seed of `seeds`, with a `seed` column: the
    spread of the curve over the random subsets (and regressor seeds) as bands in Fig. 2."""
    return pd.concat(
        [fig2_points(data, seed=k, n_sizes=n_sizes).assign(seed=k) for k in seed_order(seed, seeds)],
        ignore_index=True,
    )


def _main_mask(df, seed):
    return df.index.isin(main_rows(df, seed).index)


def fig2(points, corpus=None, seed=None):
    """MSE and SCC of the MELA regressor on the other sample vs training examples (log x); the
    main seed's subsets as lines and, where `points` has other seeds, their range as bands."""
    fig, axes = style.new_figure(1, 2, panel_size=(4.4, 3.4))
    for k, ((train, test), sub) in enumerate(points.groupby(["train", "test"])):
        for ax, col in zip(axes, ("MSE", "SCC")):
            main = _main_mask(sub, seed)
            style.line_with_band(ax, sub, "n_examples", col, main, k, f"train {train}, test {test}")
    for ax, ylabel in zip(axes, ("MSE (squared MELA points)", SCC_LABEL)):
        style.plain_log_axis(ax, "x")
        ax.set_xlabel("training examples (log scale)")
        ax.set_ylabel(ylabel)
        ax.legend(fontsize=8)
    axes[0].set_title("mean squared error (lower is better)")
    axes[1].set_title("squared Pearson correlation r² (higher is better)")
    what = "MELA regressor accuracy vs training examples"
    return style.finish_figure(
        fig, style.title("hm2017", "Fig. 2", corpus, "samples S1/S2", what) + style.seeds_note(n_seeds(points))
    )


def best_epochs(runs):
    """Per (learner, n_features): T_best on dev and the dev/test scores at it."""
    out = []
    for (learner, n), sub in runs.groupby(["learner", "n_features"], sort=True):
        dev = sub[sub["split"] == "dev"].sort_values("epoch")
        i = int(dev["mela"].to_numpy().argmax())
        t = int(dev["epoch"].iloc[i])
        test = sub[(sub["split"] == "test") & (sub["epoch"] == t)].iloc[0]
        out.append(
            {
                "learner": learner,
                "n_features": int(n),
                "T_best": t,
                "dev_mela": float(dev["mela"].iloc[i]),
                "test_muc": test["muc"],
                "test_bcub": test["bcub"],
                "test_ceafe": test["ceafe"],
                "test_mela": test["mela"],
            }
        )
    return pd.DataFrame(out)


def n_label(n, n_all):
    return "All" if n == 0 or n >= n_all else f"{n:,}"


def best_epochs_per_seed(runs):
    """`best_epochs` of every seed's runs, with a `seed` column (one seed: the frame as it is)."""
    if "seed" not in runs:
        return best_epochs(runs)
    return pd.concat(
        [best_epochs(sub).assign(seed=k) for k, sub in runs.groupby("seed", sort=False)], ignore_index=True
    )


def fig3(runs, n_all, corpus=None, seed=None):
    """One dev-curve panel per N (all on one shared y-scale) and a last panel of test MELA vs N.

    The grid has exactly as many cells as panels (no empty cells); T_best, the epoch with
    the best dev MELA, is explained in the last panel's title. Runs of several seeds (a `seed`
    column): the main seed's curves as lines, the range over seeds as bands (each seed's test
    MELA at its own T_best in the last panel).
    """
    ns = sorted(runs["n_features"].unique(), key=lambda n: n_all if n == 0 else n)
    k = len(ns) + 1
    cols = k if k <= 5 else int(np.ceil(k / 2))
    rows = int(np.ceil(k / cols))
    fig, axes = style.new_figure(rows, cols, panel_size=(3.4, 2.9))
    dev = runs[runs["split"] == "dev"]
    best = best_epochs_per_seed(runs)
    values = np.concatenate([dev["mela"].to_numpy(dtype=float), best["test_mela"].to_numpy(dtype=float)])
    lo, hi = (float(np.nanmin(values)), float(np.nanmax(values))) if values.size else (0.0, 1.0)
    pad = max(0.5, 0.05 * (hi - lo))
    for ax, n in zip(axes, ns):
        sub = dev[dev["n_features"] == n]
        for learner, s in sorted(sub.groupby("learner"), key=lambda g: (_series_index(g[0]), g[0])):
            main = _main_mask(s, seed)
            style.line_with_band(ax, s, "epoch", "mela", main, _series_index(learner), display_name(learner))
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_title(f"dev curve, N = {n_label(n, n_all)} features", fontsize=9)
        ax.set_xlabel("epoch (passes over the training set)")
        ax.set_ylabel("dev MELA (%)")
    axes[0].legend(fontsize=7)
    ax = axes[len(ns)]
    for learner, s in sorted(best.groupby("learner"), key=lambda g: (_series_index(g[0]), g[0])):
        s = s.assign(N=[n_all if n == 0 else n for n in s["n_features"]])
        main = _main_mask(s, seed)
        style.line_with_band(ax, s, "N", "test_mela", main, _series_index(learner), display_name(learner))
    style.plain_log_axis(ax, "x")
    ax.set_xlabel("N (features kept, log scale)")
    ax.set_ylabel("test MELA (%)")
    ax.set_title("test at T_best (epoch of best dev MELA)", fontsize=9)
    ax.legend(fontsize=7)
    for a in axes[:k]:
        a.set_ylim(lo - pad, hi + pad)  # one y-scale: a 6-point drop looks like 6 points in every panel
    for a in axes[k:]:
        fig.delaxes(a)
    return style.finish_figure(
        fig,
        style.title("hm2017", "Fig. 3", corpus, "dev curves; test at T_best", "LSP learners by feature-space size N")
        + style.seeds_note(n_seeds(runs)),
    )


SELECT_N_RULE = (
    "N_selected = the reduced N (not All) where the mean over the learners of the best dev MELA is highest "
    "(ties: the smaller N); no single learner's score picks it"
)


def select_n(best, n_all):
    """N_selected: the reduced N (not All) with the highest MEAN best dev MELA over the table's learners.

    The paper fixed N in advance (1M of about 16.8M features), so the choice must not favour one
    learner: every learner of `best` counts with the same weight. Only the N where every learner has
    a row compete (else, when no N has them all, every reduced N with the learners it has); ties go
    to the smaller N. 0 when there is no reduced N.
    """
    reduced = best[(best["n_features"] > 0) & (best["n_features"] < n_all)]
    if reduced.empty:
        return 0
    learners = set(best["learner"])
    per_n = reduced.groupby("n_features")
    complete = [n for n, sub in per_n if set(sub["learner"]) >= learners]
    mean = per_n["dev_mela"].mean()
    if complete:
        mean = mean.loc[complete]
    top = mean.max()
    return int(min(n for n, v in mean.items() if v == top))


def table2(best, n_all, n_sel):
    rows = []
    for learner, s in best.groupby("learner", sort=False):
        row = {"Model": display_name(learner)}
        for label, n in ((f"N={n_label(n_sel, n_all)}", n_sel), ("All", None)):
            pick = s[s["n_features"] == n] if n is not None else s[(s["n_features"] == 0) | (s["n_features"] >= n_all)]
            if pick.empty:
                continue
            p = pick.iloc[0]
            row[f"{label} dev"] = p["dev_mela"]
            row[f"{label} test"] = p["test_mela"]
            row[f"{label} T_best"] = int(p["T_best"])
        rows.append(row)
    return pd.DataFrame(rows)


def table3(best, n_all, n_sel):
    rows = []
    for _, p in best.sort_values(["n_features", "learner"]).iterrows():
        if p["n_features"] not in (n_sel, 0) and p["n_features"] < n_all:
            continue
        rows.append(
            {
                "Model": display_name(p["learner"]),
                "N": n_label(p["n_features"], n_all),
                "MUC": p["test_muc"],
                "B3": p["test_bcub"],
                "CEAFe": p["test_ceafe"],
                "MELA": p["test_mela"],
                "T_best": int(p["T_best"]),
            }
        )
    return pd.DataFrame(rows)


GAIN = "gain (LSP_ρ − LSP_F)"


def curve(best, n_all):
    """Fig. 3's last panel as a table: per learner, test MELA at T_best at every feature count N (one column
    each, smallest first; the last is all n_all features), and the row the paper's claim reads: the gain of
    LSP_ρ over LSP_F at each N ("the gain grows as features are removed")."""
    sizes = sorted({n_all if n == 0 else int(n) for n in best["n_features"]})
    at = {
        display_name(learner): {n_all if n == 0 else int(n): float(m) for n, m in zip(s["n_features"], s["test_mela"])}
        for learner, s in sorted(best.groupby("learner"), key=lambda g: (_series_index(g[0]), g[0]))
    }
    rho, f = at.get(display_name("lsp_rho"), {}), at.get(display_name("lsp_f"), {})
    at[GAIN] = {n: rho[n] - f[n] for n in sizes if n in rho and n in f}
    rows = [{"Model": name, **{f"{n:,}": v.get(n, float("nan")) for n in sizes}} for name, v in at.items()]
    return pd.DataFrame(rows, columns=["Model"] + [f"{n:,}" for n in sizes])


def table4(best):
    rows = []
    for _, p in best.iterrows():
        rows.append(
            {
                "Model": display_name(p["learner"]),
                "dev MELA": p["dev_mela"],
                "T_best": int(p["T_best"]),
                "MUC": p["test_muc"],
                "B3": p["test_bcub"],
                "CEAFe": p["test_ceafe"],
                "test MELA": p["test_mela"],
            }
        )
    return pd.DataFrame(rows)


__all__ = [
    "table1",
    "fig2_points",
    "fig2_points_seeds",
    "main_rows",
    "fig2",
    "best_epochs",
    "best_epochs_per_seed",
    "fig3",
    "select_n",
    "SELECT_N_RULE",
    "SCC_LABEL",
    "SCC_CAPTION",
    "table2",
    "table3",
    "table4",
    "curve",
    "GAIN",
]


def corpus_of(path, fallback):
    """<corpus> of results/<corpus>/paper/hm2017[/runs/x.csv] (the workflow's layout), else fallback."""
    parts = Path(path).parts
    for i in range(len(parts) - 2):
        if parts[i + 1] == "paper" and parts[i + 2] == "hm2017":
            return parts[i]
    return fallback
