"""Samdani, Chang & Roth (2014) tables from the experiment CSVs.

table1: MUC, B3, CEAFe and AVG on test for every technique after 1 pass and after the
number of passes tuned on dev (λ, η0 and, for L3M, γ tuned on dev); `tuned_settings` is
that choice, which the robustness, CCCP and order-control studies reuse ("the same set-up
as before", §5.4); robustness: mean ± std of AVG over random initialisations on the
training split and on test; cccp_vs_sgd: training-data clustering quality (VI or MELA),
objective, iterations and time of CCCP and SGD; order_control: AVG in natural and shuffled
order and the drop (and the VI increase for author and thread clustering when the
document-clustering experiment ran); table2_vi: VI ×100 per technique.
"""

import json

import numpy as np
import pandas as pd

LABELS = {
    "singletons": "every post alone (reference)",
    "corr_clustering": "Corr-Clustering",
    "spanning_forest": "Spanning Forest",
    "sumlink": "Sum-Link",
    "binleftlink": "Bin-Left-Link",
    "l3m_gamma0": "L3M (γ = 0)",
    "l3m": "L3M (tuned γ)",
}
METRICS = ["MUC", "B3", "CEAFe", "AVG"]
BATCH = ("corr_clustering", "spanning_forest")
ONLINE = ("sumlink", "binleftlink", "l3m_gamma0", "l3m")  # Table 1's online techniques (§5.4's order control)


def read_curves(paths):
    """The curves CSVs of `coreflab l3m2014 curves`, with γ read from each row's learner parameters."""
    curves = pd.concat([pd.read_csv(p) for p in paths], ignore_index=True)
    curves["gamma"] = curves["params"].map(lambda s: float(json.loads(s).get("gamma", float("nan"))))
    return curves


def _technique(row):
    if row["learner"] != "l3m":
        return row["learner"]
    return "l3m_gamma0" if row["gamma"] == 0 else "l3m"


def power_of_ten(x):
    """λ as text, "10^-4" or "3×10^-4": the tables print floats with 2 decimals (0.00), and
    Markdown would read "1e-04" back as a number."""
    if pd.isna(x):
        return ""
    mantissa, exponent = f"{float(x):.0e}".split("e")
    return f"10^{int(exponent)}" if mantissa == "1" else f"{mantissa}×10^{int(exponent)}"


def _same(a, b):
    """Equal, or both missing (NaN: a parameter the learner does not have)."""
    return (a == b) | (pd.isna(a) & pd.isna(b))


def _dev_choices(curves):
    """(learner, technique, setting, best dev row, that technique's test rows) for every technique of
    Table 1 and both settings: the (γ, λ, η0, passes) with the best dev AVG (ties: fewer passes,
    then the smaller λ, η0, γ)."""
    curves = curves.copy()
    for col in ("lam", "eta0"):
        if col not in curves.columns:
            curves[col] = np.nan
    for learner, g in curves.groupby("learner", sort=False):
        gammas = sorted(g["gamma"].dropna().unique()) if learner == "l3m" else [np.nan]
        variants = [("l3m_gamma0", [0.0]), ("l3m", gammas)] if learner == "l3m" else [(learner, gammas)]
        for technique, allowed in variants:
            sub = g[g["gamma"].isin(allowed)] if learner == "l3m" else g
            dev, test = sub[sub.split == "dev"], sub[sub.split == "test"]
            if dev.empty:
                continue
            for setting, dev_pick in (("1 pass", dev[dev.epoch == 1]), ("tuned", dev)):
                if dev_pick.empty:
                    continue
                best = dev_pick.sort_values(
                    ["AVG", "epoch", "lam", "eta0", "gamma"], ascending=[False, True, True, True, True], kind="stable"
                ).iloc[0]
                yield learner, technique, setting, best, test


def tuned_settings(curves):
    """Table 1's systems: per technique and setting ("1 pass", "tuned"), the learner, its base
    parameters (JSON, when the curves carry them), γ, λ, η0 and passes chosen on dev, and the dev AVG."""
    rows = []
    for learner, technique, setting, best, _ in _dev_choices(curves):
        rows.append(
            {
                "technique": technique,
                "setting": setting,
                "learner": learner,
                "params": best["params"] if "params" in best.index else "{}",
                "gamma": float(best.gamma) if learner == "l3m" else np.nan,
                "lam": float(best.lam),
                "eta0": float(best.eta0),
                "passes": int(best.epoch),
                "dev AVG": float(best.AVG),
            }
        )
    return pd.DataFrame(
        rows, columns=["technique", "setting", "learner", "params", "gamma", "lam", "eta0", "passes", "dev AVG"]
    )


def table1(curves):
    """curves: rows (learner, gamma, [lam, eta0,] epoch, split, MUC, B3, CEAFe, AVG[, exact, fallback]).

    Per technique and setting, the (γ, λ, η0, passes) with the best dev AVG (ties: fewer
    passes, then the earlier grid point) and its test scores. "exact %" is the share of
    Corr-Clustering's test documents whose inference the exact solver proved optimal
    (the rest used the greedy fallback).
    """
    rows = []
    for learner, technique, setting, best, test in _dev_choices(curves):
        match = test[
            (test.epoch == best.epoch)
            & _same(test.gamma, best.gamma)
            & _same(test.lam, best.lam)
            & _same(test.eta0, best.eta0)
        ].iloc[0]
        row = {"technique": LABELS.get(technique, technique), "setting": setting, "passes": int(best.epoch)}
        if learner == "l3m":
            row["gamma"] = float(best.gamma)
        row["λ"], row["η0"] = power_of_ten(best.lam), float(best.eta0)
        row.update({m: float(match[m]) for m in METRICS})
        if "exact" in match.index and pd.notna(match["exact"]):
            solved = float(match["exact"]) + float(match["fallback"])
            row["exact %"] = 100.0 * float(match["exact"]) / solved if solved else np.nan
        rows.append(row)
    out = pd.DataFrame(rows)
    order = {v: i for i, v in enumerate(LABELS.values())}
    return out.sort_values(
        ["technique", "setting"], key=lambda s: s.map(order) if s.name == "technique" else s, kind="stable"
    ).reset_index(drop=True)


def robustness(df):
    """Mean ± std over the random initialisations, training split (the paper's measure) and test.

    One row per split; CSVs from before the training-split change (test columns only,
    unprefixed) read as a test row. λ and η0 are those the runs used (tuned on dev).
    With `init sd` and `learned RMS` columns (runs at two scales), the columns are those of the
    starts at the configured sd (the first run's), and `AVG std (learned scale)` is the spread of
    the starts drawn at the zero start's learned RMS (NaN when none ran); older CSVs ran at sd 1.
    """
    runs = df[df["run"].astype(str) != "zero-init"]
    zero = df[df["run"].astype(str) == "zero-init"]
    scaled = "init sd" in df.columns and "learned RMS" in df.columns and len(runs)
    learned = runs.iloc[0:0]
    if scaled:
        sd, rms = float(runs["init sd"].iloc[0]), float(df["learned RMS"].iloc[0])
        learned = runs[np.isclose(runs["init sd"].astype(float), rms)] if rms > 0 else learned
        runs = runs[np.isclose(runs["init sd"].astype(float), sd)]
    splits = [("train", ""), ("test", "test ")] if "test AVG" in df.columns else [("test", "")]
    rows = []
    for split, prefix in splits:
        row = {"split": split, "runs": len(runs)}
        if "lam" in df.columns:
            row["λ"], row["η0"] = power_of_ten(df["lam"].iloc[0]), float(df["eta0"].iloc[0])
        for m in METRICS:
            row[f"{m} mean"] = float(runs[prefix + m].mean())
            row[f"{m} std"] = float(runs[prefix + m].std(ddof=1)) if len(runs) > 1 else 0.0
        if len(zero):
            row["AVG (zero init)"] = float(zero[prefix + "AVG"].iloc[0])
        if scaled:
            row["init sd"], row["learned RMS"] = sd, rms
            row["AVG std (learned scale)"] = (
                float(learned[prefix + "AVG"].std(ddof=1)) if len(learned) > 1 else float("nan")
            )
        rows.append(row)
    return pd.DataFrame(rows)


def _cccp_objective_only(df):
    """The table of CSVs from before the clustering-quality study (objective curves of one subset)."""
    rows, times = [], []
    for method, g in df.groupby("method", sort=True):
        g = g.sort_values("step")
        last = g.iloc[-1]
        rows.append(
            {
                "method": method,
                "steps": int(last.step),
                "start objective": float(g.iloc[0].objective),
                "objective": float(last.objective),
                "seconds": float(last.seconds),
            }
        )
        times.append({"method": method, "steps": int(last.step), "seconds": float(last.seconds)})
    return pd.DataFrame(rows), pd.DataFrame(times)


def cccp_vs_sgd(df):
    """(table, times): per method, the training-data clustering quality (mean ± std over the draws;
    VI ×100, lower is better, or MELA), its change against SGD, the objective, the iterations
    (CCCP: outer steps and L-BFGS iterations, and how many draws converged) and the seconds, with
    their ratio to SGD's; and the times alone (kept for readers of the former separate file).

    The comparison is per draw: both methods train on the same subset from w = 0.
    """
    if "quality" not in df.columns:
        return _cccp_objective_only(df)
    metric = str(df["metric"].iloc[0])
    sgd = df[df.method == "SGD"].set_index("draw")
    rows, times = [], []
    for method, g in sorted(df.groupby("method", sort=False), key=lambda mg: mg[0] != "SGD"):
        g = g.set_index("draw")
        base = sgd.loc[g.index]
        row = {
            "method": method,
            "draws": len(g),
            "sets per draw": int(g["sets"].iloc[0]),
            "items per draw": float(g["items"].mean()),
            f"train {metric}": float(g["quality"].mean()),
            f"train {metric} std": float(g["quality"].std(ddof=1)) if len(g) > 1 else 0.0,
            f"{metric} vs SGD (%)": float(100.0 * (g["quality"] - base["quality"]).sum() / base["quality"].sum()),
            "objective": float(g["objective"].mean()),
            "iterations": float(g["iterations"].mean()),
            "inner iterations": float(g["inner iterations"].mean()),
            "converged": f"{int(g['converged'].astype(bool).sum())}/{len(g)}",
            "seconds": float(g["seconds"].mean()),
            "× SGD time": float(g["seconds"].sum() / max(base["seconds"].sum(), 1e-12)),
        }
        rows.append(row)
        times.append({"method": method, "draws": len(g), "seconds": row["seconds"]})
    return pd.DataFrame(rows), pd.DataFrame(times)


def cccp_caption(df, corpus):
    """What the CCCP table measured: the data, the subsets, CCCP's stopping rule, the paper's values."""
    if "quality" not in df.columns:
        return (
            f"L3M training objective reached by CCCP and SGD, and the seconds each took (wall clock, varies "
            f"between runs), on a small training subset of {corpus}"
        )
    first = df.iloc[0]
    metric = str(first["metric"])
    what = (
        "VI ×100 of author clustering (lower is better)"
        if metric == "VI"
        else "training-document MELA (the paper's VI is of document clustering)"
    )
    sets = "item sets" if metric == "VI" else "documents"
    tuning = f" ({first['tuning']})" if "tuning" in df.columns and pd.notna(first["tuning"]) else ""
    kept = int(first["max mentions"]) if "max mentions" in df.columns and pd.notna(first["max mentions"]) else 0
    cut = f" cut to their first {kept} mentions (`l3m2014.study_max_passes`)" if kept else ""
    return (
        f"L3M CCCP vs SGD (Samdani et al. §5.3) on {first['data']}: γ = {float(first['gamma']):g}, "
        f"λ = {power_of_ten(first['lam'])}{tuning}; {df['draw'].nunique()} random subsets of {int(first['sets'])} "
        f"training {sets}{cut}, each trained from w = 0 by CCCP until an outer step gains less than "
        f"{float(first['tol']):g} of the objective (≤ {int(first['max outer'])} outer × {int(first['max inner'])} L-BFGS "
        f"iterations) and by {int(first['sgd passes'])} SGD pass(es) (η0 = {float(first['eta0']):g}); quality: "
        f"{what}; mean over the draws; seconds vary between runs. Paper: 100 item sets, 10 draws, CCCP's VI "
        "lower by < 0.2% at ~10,000× SGD's time"
    )


def order_control(coref, doc=None):
    """Per technique: the Table 1 system it ran (passes, γ, λ, η0 tuned on dev), AVG in text order and
    with the items shuffled, the drop; with the 20 Newsgroups runs, the VI increase (shuffled − natural)
    of author clustering after 1 pass and of thread clustering after the most passes (the paper's settings).
    """
    wide = coref.pivot_table(index="technique", values="AVG", columns="order", sort=False).reset_index()
    wide["drop (AVG)"] = wide["natural"] - wide["shuffled"]
    wide = wide.rename(columns={"natural": "AVG natural", "shuffled": "AVG shuffled"})
    setting = [c for c in ("passes", "gamma", "lam", "eta0") if c in coref.columns]
    if setting:
        first = coref.drop_duplicates("technique").set_index("technique")[setting]
        wide = wide.merge(first, left_on="technique", right_index=True, how="left")
        if "lam" in wide.columns:
            wide["lam"] = wide["lam"].map(power_of_ten)
        wide = wide.rename(columns={"lam": "λ", "eta0": "η0"})
        wide = wide[["technique", *[{"lam": "λ", "eta0": "η0"}.get(c, c) for c in setting]] + METRIC_ORDER]
    if doc is not None and len(doc):
        for key, label in (("author", "author"), ("thread", "thread")):
            sub = doc[(doc.key == key) & doc.technique.isin(ONLINE)]
            if sub.empty:
                continue
            passes = 1 if key == "author" else int(sub["passes"].max())
            sub = sub[sub.passes == passes]
            vi = sub.groupby(["technique", "shuffled"])["vi"].mean().unstack()
            if True in vi.columns and False in vi.columns:
                name = f"{label} VI increase (shuffled, {passes} pass{'es' if passes > 1 else ''})"
                wide = wide.merge(
                    (vi[True] - vi[False]).rename(name), left_on="technique", right_index=True, how="left"
                )
    order = {t: i for i, t in enumerate(LABELS)}
    wide = wide.sort_values("technique", key=lambda s: s.map(lambda t: order.get(t, len(order))), kind="stable")
    wide["technique"] = wide["technique"].map(lambda t: LABELS.get(t, t))
    return wide.reset_index(drop=True)


METRIC_ORDER = ["AVG natural", "AVG shuffled", "drop (AVG)"]


def table2_vi(doc):
    """VI ×100 per technique and key (mean over the folds): online techniques after their most passes
    and after 1 pass, batch techniques after their own passes (the paper's 10), and the VI of every post
    alone as a reference row (a technique at that value predicted no link at all)."""
    natural = doc[~doc.shuffled.astype(bool)]
    rows = []
    for technique, g in natural.groupby("technique", sort=False):
        row = {"technique": technique}
        most = int(g["passes"].max())
        row["passes"] = str(most) if technique in BATCH or technique == "singletons" else f"{most} (and 1)"
        for key, k in g.groupby("key", sort=True):
            row[f"{key} VI"] = float(k[k.passes == k["passes"].max()]["vi"].mean())
            if technique not in BATCH and technique != "singletons":
                one = k[k.passes == 1]["vi"]
                row[f"{key} VI (1 pass)"] = float(one.mean()) if len(one) else np.nan
        rows.append(row)
    wide = pd.DataFrame(rows)
    if "singletons" in set(wide["technique"]):
        wide.loc[wide.technique == "singletons", "passes"] = ""
    order = {t: i for i, t in enumerate(LABELS)}
    wide = wide.sort_values("technique", key=lambda s: s.map(lambda t: order.get(t, len(order))), kind="stable")
    cols = ["technique", "passes"] + sorted(c for c in wide.columns if c not in ("technique", "passes"))
    wide = wide[cols]
    wide["technique"] = wide["technique"].map(lambda t: LABELS.get(t, t))
    return wide.reset_index(drop=True)
