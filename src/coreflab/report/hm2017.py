"""Haponchyk & Moschitti (2017): Table 1, Fig. 2 (the regressor), Fig. 3, Tables 2–4 (the learners).

- Table 1: regressor trained on sample S1 tested on S2 and back: examples, MSE, SCC (%).
- Fig. 2: MSE and SCC on the other sample vs the number of training examples (log x,
  10 to all; each size a seeded random subset of the training sample).
- Fig. 3: one panel per N: dev MELA vs epoch for LSP_F, LSP_YJ, LSP_ρ; last panel: test
  MELA vs N at each model's best dev epoch (T_best).
- Table 2: dev and test MELA and T_best for N_selected (the N where LSP_ρ's best dev MELA
  is highest among the reduced spaces) and All; Table 3: test MUC, B3, CEAFe, MELA at
  T_best; Table 4: the same on the second corpus, including LSP_ρ with the regressor of
  the first corpus (LSP^1st_ρ, the paper's LSP^EN_ρ transfer).
"""

import numpy as np
import pandas as pd

from coreflab.mela.features import FEATURE_NAMES
from coreflab.mela.regressor import fit_regressor, mse_scc

LEARNER_NAMES = {"lsp_f": "LSP_F", "lsp_yj": "LSP_YJ", "lsp_rho": "LSP_rho"}


def display_name(learner):
    """Table name of a run label; lsp_rho_from_<corpus> = LSP_rho with that corpus's regressor."""
    if learner.startswith("lsp_rho_from_"):
        return f"LSP_rho (regressor of {learner[len('lsp_rho_from_'):]})"
    return LEARNER_NAMES.get(learner, learner)


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


def fig2(points):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(8, 3.2))
    for (train, test), sub in points.groupby(["train", "test"]):
        for ax, col in zip(axes, ("MSE", "SCC")):
            ax.plot(sub["n_examples"], sub[col], marker="o", label=f"train {train}, test {test}")
    for ax, col in zip(axes, ("MSE", "SCC (%)")):
        ax.set_xscale("log")
        ax.set_xlabel("training examples")
        ax.set_ylabel(col)
        ax.grid(alpha=0.3)
    axes[1].legend(fontsize=8)
    fig.suptitle("MELA regressor accuracy vs training examples (H&M 2017, Fig. 2)", fontsize=9)
    return fig


def best_epochs(runs):
    """Per (learner, n_features): T_best on dev and the dev/test scores at it."""
    out = []
    for (learner, n), sub in runs.groupby(["learner", "n_features"], sort=True):
        dev = sub[sub["split"] == "dev"].sort_values("epoch")
        i = int(dev["mela"].to_numpy().argmax())
        t = int(dev["epoch"].iloc[i])
        test = sub[(sub["split"] == "test") & (sub["epoch"] == t)].iloc[0]
        out.append({"learner": learner, "n_features": int(n), "T_best": t, "dev_mela": float(dev["mela"].iloc[i]),
                    "test_muc": test["muc"], "test_bcub": test["bcub"], "test_ceafe": test["ceafe"],
                    "test_mela": test["mela"]})
    return pd.DataFrame(out)


def n_label(n, n_all):
    return "All" if n == 0 or n >= n_all else f"{n:,}"


def fig3(runs, n_all):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ns = sorted(runs["n_features"].unique(), key=lambda n: n_all if n == 0 else n)
    k = len(ns) + 1
    cols = min(4, k)
    rows = int(np.ceil(k / cols))
    fig, axes = plt.subplots(rows, cols, figsize=(3.2 * cols, 2.6 * rows), squeeze=False)
    axes = axes.ravel()
    for ax, n in zip(axes, ns):
        sub = runs[(runs["n_features"] == n) & (runs["split"] == "dev")]
        for learner, s in sub.groupby("learner"):
            s = s.sort_values("epoch")
            ax.plot(s["epoch"], s["mela"], label=display_name(learner))
        ax.set_title(f"N = {n_label(n, n_all)}", fontsize=9)
        ax.set_xlabel("epoch")
        ax.set_ylabel("dev MELA")
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=7)
    best = best_epochs(runs)
    ax = axes[len(ns)]
    for learner, s in best.groupby("learner"):
        x = [n_all if n == 0 else n for n in s["n_features"]]
        order = np.argsort(x)
        ax.plot(np.asarray(x)[order], s["test_mela"].to_numpy()[order], marker="o",
                label=display_name(learner))
    ax.set_xscale("log")
    ax.set_xlabel("N (features kept)")
    ax.set_ylabel("test MELA at T_best")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    for ax in axes[k:]:
        ax.axis("off")
    fig.tight_layout()
    return fig


def select_n(best, n_all):
    """N_selected: the reduced N (not All) where LSP_ρ has the best dev MELA (else any learner)."""
    reduced = best[(best["n_features"] > 0) & (best["n_features"] < n_all)]
    if reduced.empty:
        return 0
    rho = reduced[reduced["learner"] == "lsp_rho"]
    pick = rho if not rho.empty else reduced
    return int(pick.sort_values(["dev_mela", "n_features"], ascending=[False, True]).iloc[0]["n_features"])


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
        rows.append({"Model": display_name(p["learner"]), "N": n_label(p["n_features"], n_all),
                     "MUC": p["test_muc"], "B3": p["test_bcub"], "CEAFe": p["test_ceafe"], "MELA": p["test_mela"],
                     "T_best": int(p["T_best"])})
    return pd.DataFrame(rows)


def table4(best):
    rows = []
    for _, p in best.iterrows():
        rows.append({"Model": display_name(p["learner"]), "dev MELA": p["dev_mela"],
                     "T_best": int(p["T_best"]), "MUC": p["test_muc"], "B3": p["test_bcub"],
                     "CEAFe": p["test_ceafe"], "test MELA": p["test_mela"]})
    return pd.DataFrame(rows)


__all__ = ["table1", "fig2_points", "fig2", "best_epochs", "fig3", "select_n", "table2", "table3", "table4"]
