"""Figures 5–7 and Table 2 of Singh et al. (2011) from per-round traces and baseline scores.

Fig. 5: B3 F1 against wall-clock for K workers (flat model, Person-X), and — because these
machines have two cores — the measured proposals/s per worker with a *projection* of the total
throughput for larger K (K × measured per-worker rate; clearly labelled as such).
Fig. 6: flat vs sub-entity vs super-entity vs combined hierarchical model.
Fig. 7: the large corpus with string-match initialisation: B3 F1 against wall-clock per K, with
the string-match and graph-clustering baselines as horizontal lines.
Table 2: B3 P/R/F1 of string match, label propagation and the hierarchical model (last round),
with a `setting` column: whole corpus, or within topic (ECB+: no entity crosses a topic).
Traces and baseline files written before the setting existed count as whole corpus.
When the files carry entity-level log-probabilities (runs with a tuned prior), Table 2 adds
"log p − log p(gold)" per row: negative means the model's score prefers the truth to that
state; the string-match row positive means string match is the model's better optimum.
"""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

PROJECTED_K = (4, 8, 16, 32, 64)
WHOLE = "whole corpus"


def fig5_workers(traces):
    """B3 F1 vs seconds per K, and proposals/s (measured K and projected larger K)."""
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    rates = []
    for run, t in traces.groupby("run", sort=False):
        k = int(t["workers"].iloc[0])
        ax.plot(t["seconds"], t["b3_f1"], marker="o", ms=3, label=f"K={k}")
        body = t[t["round"] > 0]
        per_worker = body["proposals"].sum() / body["sum_shard_seconds"].sum()
        rates.append((k, per_worker, body["proposals"].sum() / body["seconds"].diff().fillna(body["seconds"]).sum()))
    ax.set_xlabel("wall-clock seconds")
    ax.set_ylabel("B3 F1")
    ax.set_title("Person-X, pairwise model")
    ax.legend()
    rates.sort()
    ks = [r[0] for r in rates]
    ax2.plot(ks, [r[2] for r in rates], "o-", label="measured total proposals/s (wall)")
    ax2.plot(ks, [r[0] * r[1] for r in rates], "s-", label="K × measured per-worker rate")
    if rates:
        base = rates[0][1]  # per-worker rate at the smallest measured K
        ax2.plot(PROJECTED_K, [k * base for k in PROJECTED_K], "k--",
                 label=f"projection: K × {base:,.0f}/s (not measured)")
    ax2.set_xscale("log", base=2)
    ax2.set_yscale("log")
    ax2.set_xlabel("workers K")
    ax2.set_ylabel("proposals per second")
    ax2.legend(fontsize=8)
    fig.tight_layout()
    return fig


def fig6_hierarchy(traces):
    fig, ax = plt.subplots(figsize=(5.5, 4))
    names = {"flat": "pairwise", "sub": "sub-entities", "super": "super-entities", "hier": "combined"}
    for run, t in traces.groupby("run", sort=False):
        ax.plot(t["seconds"], t["b3_f1"], marker="o", ms=3, label=names.get(t["model"].iloc[0], run) + _context(t.iloc[0]))
    ax.set_xlabel("wall-clock seconds")
    ax.set_ylabel("B3 F1")
    ax.set_title("Person-X: hierarchical models")
    ax.legend()
    fig.tight_layout()
    return fig


def fig7_large(traces, baselines):
    corpora = list(dict.fromkeys(traces["corpus"]))
    fig, axes = plt.subplots(1, len(corpora), figsize=(5.5 * len(corpora), 4), squeeze=False)
    for ax, corpus in zip(axes[0], corpora):
        for run, t in traces[traces["corpus"] == corpus].groupby("run", sort=False):
            within = " within topic" if _setting(t.iloc[0]) != WHOLE else ""
            ax.plot(t["seconds"], t["b3_f1"], marker="o", ms=3,
                    label=f"{t['model'].iloc[0]} K={t['workers'].iloc[0]}{within}")
        for i, row in enumerate(baselines[baselines["corpus"] == corpus].itertuples()):
            within = " (within topic)" if _setting(row) != WHOLE else ""
            ax.axhline(row.b3_f1, ls="--", color=f"C{5 + i}", label=row.system.replace("_", " ") + within)
        ax.set_title(f"{corpus}: string-match initialisation")
        ax.set_xlabel("wall-clock seconds")
        ax.set_ylabel("B3 F1")
        ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def _context(row):
    """" (union contexts)" for node-level runs; "" for mention-pair runs and older traces."""
    value = row.get("context") if isinstance(row, pd.Series) else None
    return " (union contexts)" if value == "union" else ""


def _setting(row):
    """A trace row's or baseline row's setting (rows from before the column: whole corpus)."""
    value = row.get("setting") if isinstance(row, pd.Series) else getattr(row, "setting", None)
    return WHOLE if value is None or (isinstance(value, float) and pd.isna(value)) else str(value)


LOGP = "log p − log p(gold)"


def _logp_gap(row):
    """log p − log p(gold) of a baseline or last trace row (NaN for files without log p)."""
    get = row.get if isinstance(row, pd.Series) else (lambda k, d=None: getattr(row, k, d))
    lp, gold = get("log_p", None), get("log_p_gold", None)
    return float(lp) - float(gold) if lp is not None and gold is not None else float("nan")


def table2(traces, baselines):
    rows = [{"corpus": b.corpus, "setting": _setting(b), "system": b.system.replace("_", " "), "B3 P": 100 * b.b3_p,
             "B3 R": 100 * b.b3_r, "B3 F1": 100 * b.b3_f1, "entities": b.entities, LOGP: _logp_gap(b)}
            for b in baselines.itertuples()]
    for (corpus, run), t in traces.groupby(["corpus", "run"], sort=False):
        last = t.iloc[-1]
        rows.append({"corpus": corpus, "setting": _setting(last),
                     "system": f"{last['model']}{_context(last)} model K={last['workers']} (round {last['round']})",
                     "B3 P": 100 * last["b3_p"], "B3 R": 100 * last["b3_r"], "B3 F1": 100 * last["b3_f1"],
                     "entities": int(last["entities"]), LOGP: _logp_gap(last)})
    table = pd.DataFrame(rows)
    if table[LOGP].isna().all():
        table = table.drop(columns=LOGP)
    order = {WHOLE: 0}
    table["_s"] = [order.get(x, 1) for x in table["setting"]]
    return table.sort_values(["corpus", "_s"], kind="stable").drop(columns="_s").reset_index(drop=True)
