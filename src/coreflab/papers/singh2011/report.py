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
Its caption names the held-out tuning split (`tuning_note`): how many entities and mentions b
and w were tuned on, which every row leaves out; and the form of the hierarchy its model rows use
(`context_note`), with where the other form is shown.
When the files carry entity-level log-probabilities (runs with a tuned prior), Table 2 adds
"log p − log p(gold)" per row: negative means the model's score prefers the truth to that
state; the string-match row positive means string match is the model's better optimum.
Seeds: a run job with `--seeds` also traces the same chain with other seeds (column `seed`, the
job's own seed first). Figs. 5–7 draw the main seed's curve as the line and, where several seeds
ran, the range of B3 F1 per round over all of them as a band (at the main run's seconds);
Table 2 and Fig. 5's throughput read the main seed's rows only (traces without `seed`: all).
"""

import pandas as pd

from coreflab.report import style
from coreflab.seeds import main_seed_rows, n_seeds

PROJECTED_K = (4, 8, 16, 32, 64)
WHOLE = "whole corpus"
MODEL_NAMES = {"flat": "pairwise", "sub": "sub-entities", "super": "super-entities", "hier": "combined"}
F1_LABEL = "B3 F1 (%)"
TIME_LABEL = "wall-clock time (s)"


def _corpus_name(traces, default):
    names = list(dict.fromkeys(str(c) for c in traces.get("corpus", pd.Series(dtype=str)).dropna()))
    return ", ".join(names) if names else default


def main_seed(traces):
    """The rows of every run's main seed: the seed of the run's first row (the job traces its own
    `--seed` first; a run is a corpus and run label). Traces without a `seed` column, or rows
    without a seed, are all main."""
    return main_seed_rows(traces, by=("corpus", "run"))


def seed_band(t):
    """One run's spread over seeds: per round of the main seed, its seconds (x) and the min and
    max B3 F1 over all seeds of that round (columns round, seconds, low, high)."""
    seconds = main_seed(t).set_index("round")["seconds"]
    spread = t.groupby("round")["b3_f1"].agg(low="min", high="max")
    return spread.join(seconds, how="inner").reset_index()[["round", "seconds", "low", "high"]]


def _curve(ax, t, label, i):
    """The main seed's B3 F1 over seconds of one run and, where several seeds ran, their range per
    round as a band in the series' colour. Returns the number of seeds."""
    main = main_seed(t)
    ax.plot(main["seconds"], 100 * main["b3_f1"], label=label, **style.series_style(i))
    n = n_seeds(t)
    if n > 1:
        band = seed_band(t)
        style.band(ax, band["seconds"], 100 * band["low"], 100 * band["high"], i)
    return n


def fig5_workers(traces):
    """B3 F1 vs seconds per K, and proposals/s (measured K and projected larger K)."""
    fig, (ax, ax2) = style.new_figure(1, 2, panel_size=(5.2, 4))
    rates = []
    seeds = 1
    for i, (_run, t) in enumerate(traces.groupby("run", sort=False)):
        k = int(t["workers"].iloc[0])
        seeds = max(seeds, _curve(ax, t, f"K = {k} worker{'s' if k > 1 else ''}", i))
        t = main_seed(t)
        body = t[t["round"] > 0]
        per_worker = body["proposals"].sum() / body["sum_shard_seconds"].sum()
        rates.append((k, per_worker, body["proposals"].sum() / body["seconds"].diff().fillna(body["seconds"]).sum()))
    ax.set(xlabel=TIME_LABEL, ylabel=F1_LABEL, title="accuracy over time, pairwise model")
    ax.legend(fontsize=8)
    rates.sort()
    ks = [r[0] for r in rates]
    ax2.plot(ks, [r[2] for r in rates], label="measured total proposals/s (wall)", **style.series_style(0))
    ax2.plot(ks, [r[0] * r[1] for r in rates], label="K × measured per-worker rate", **style.series_style(1))
    if rates:
        base = rates[0][1]  # per-worker rate at the smallest measured K
        ax2.plot(
            PROJECTED_K,
            [k * base for k in PROJECTED_K],
            label=f"projection: K × {base:,.0f}/s (not measured)",
            **style.series_style(6),
        )
    ax2.set_xscale("log", base=2)
    ax2.set_yscale("log")
    ax2.set(xlabel="workers K (log scale)", ylabel="proposals per second (log scale)", title="throughput")
    ax2.legend(fontsize=8)
    return style.finish_figure(
        fig,
        style.title(
            "singh2011",
            "Fig. 5",
            _corpus_name(traces, "Person-X"),
            "all mentions",
            "distributed inference with K workers",
        )
        + style.seeds_note(seeds),
    )


def fig6_hierarchy(traces):
    fig, (ax,) = style.new_figure(1, 1, panel_size=(6, 4.2))
    seeds, others = 1, 0
    for run, t in traces.groupby("run", sort=False):
        model, context = t["model"].iloc[0], _context(t.iloc[0])
        if model in MODEL_NAMES and not context:
            i = list(MODEL_NAMES).index(model)
        else:  # union runs (and unknown models) each get their own style after the named models'
            i = len(MODEL_NAMES) + others
            others += 1
        seeds = max(seeds, _curve(ax, t, MODEL_NAMES.get(model, run) + context, i))
    ax.set(xlabel=TIME_LABEL, ylabel=F1_LABEL, title="pairwise vs hierarchical models")
    ax.legend(fontsize=8)
    return style.finish_figure(
        fig,
        style.title("singh2011", "Fig. 6", _corpus_name(traces, "Person-X"), "all mentions", "hierarchical models")
        + style.seeds_note(seeds),
    )


def fig7_large(traces, baselines):
    """One panel per corpus actually traced (the title names them; nothing else is promised)."""
    corpora = list(dict.fromkeys(traces["corpus"]))
    fig, axes = style.new_figure(1, max(1, len(corpora)), panel_size=(5.5, 4), sharey=True)
    seeds = 1
    for ax, corpus in zip(axes, corpora):
        i = 0
        for _run, t in traces[traces["corpus"] == corpus].groupby("run", sort=False):
            within = ", within topic" if _setting(t.iloc[0]) != WHOLE else ""
            model = MODEL_NAMES.get(t["model"].iloc[0], t["model"].iloc[0])
            seeds = max(seeds, _curve(ax, t, f"{model} model, K = {t['workers'].iloc[0]}{within}", i))
            i += 1
        for row in baselines[baselines["corpus"] == corpus].itertuples():
            within = " (within topic)" if _setting(row) != WHOLE else ""
            st = style.series_style(i)
            ax.axhline(
                100 * row.b3_f1,
                color=st["color"],
                linestyle=st["linestyle"],
                linewidth=1.4,
                label=style.system_name(row.system) + within,
            )
            i += 1
        ax.set(title=f"{corpus}: string-match initialisation", xlabel=TIME_LABEL, ylabel=F1_LABEL)
        ax.legend(fontsize=8)
    return style.finish_figure(
        fig,
        style.title(
            "singh2011",
            "Fig. 7",
            ", ".join(map(str, corpora)) or None,
            "all mentions",
            "large corpora from string-match clusters",
        )
        + style.seeds_note(seeds),
    )


def _context(row):
    """ " (union contexts)" for node-level runs; "" for mention-pair runs and older traces."""
    value = row.get("context") if isinstance(row, pd.Series) else None
    return " (union contexts)" if value == "union" else ""


def _setting(row):
    """A trace row's or baseline row's setting (rows from before the column: whole corpus)."""
    value = row.get("setting") if isinstance(row, pd.Series) else getattr(row, "setting", None)
    return WHOLE if value is None or (isinstance(value, float) and pd.isna(value)) else str(value)


def tuning_note(traces):
    """The held-out tuning of each traced corpus, for Table 2's caption: "b, w tuned on N held-out
    entities (M mentions) of <corpus>", from the traces' `heldout_entities` / `heldout_mentions`
    (runs with a tuned prior); "" when no trace carries them or nothing was held out."""
    if not {"heldout_entities", "heldout_mentions"} <= set(traces.columns):
        return ""
    parts = []
    for corpus, t in main_seed(traces).groupby("corpus", sort=False):
        pairs = t[["heldout_entities", "heldout_mentions"]].dropna().drop_duplicates()
        for ents, ments in pairs.itertuples(index=False):
            if ents > 0:
                parts.append(f"{int(ents)} held-out entities ({int(ments)} mentions) of {corpus}")
    return "b, w tuned on " + "; ".join(parts) if parts else ""


def _contexts(traces):
    """The hierarchy forms ("pairwise", "union") of the traces' runs (traces without `context`: pairwise)."""
    if "context" not in traces.columns:
        return {"pairwise"}
    return {c if isinstance(c, str) else "pairwise" for c in traces["context"]}


def context_note(table_traces, fig6_traces):
    """Which form of the hierarchy Table 2's model rows use, for its caption: both forms get rows of
    their own; with one form only, the note names it and where the other form is (Fig. 6)."""
    forms = _contexts(table_traces)
    if len(forms) > 1:
        return ""
    other = {"pairwise": "union", "union": "pairwise"}.get(next(iter(forms)), "")
    where = f"; the {other}-context form is in Fig. 6 only" if other in _contexts(fig6_traces) else ""
    if "union" in forms:
        return "hierarchy levels over union-of-bags node contexts" + where
    return "hierarchy levels over mention pairs (pairwise form)" + where


LOGP = "log p − log p(gold)"


def _logp_gap(row):
    """log p − log p(gold) of a baseline or last trace row (NaN for files without log p)."""
    get = row.get if isinstance(row, pd.Series) else (lambda k, d=None: getattr(row, k, d))
    lp, gold = get("log_p", None), get("log_p_gold", None)
    return float(lp) - float(gold) if lp is not None and gold is not None else float("nan")


P_BOOT = "p (bootstrap)"
PER_MENTION = "proposals per mention"


def table2(traces, baselines, significance=None):
    """Table 2: one row per baseline and per model run (its last round; `PER_MENTION`: the run's proposals
    over all rounds and workers per mention, its schedule). `significance` (rows of `singh2011
    significance`): each baseline row's P_BOOT, the model against it."""
    rows = [
        {
            "corpus": b.corpus,
            "setting": _setting(b),
            "system": style.system_name(b.system),
            "B3 P": 100 * b.b3_p,
            "B3 R": 100 * b.b3_r,
            "B3 F1": 100 * b.b3_f1,
            "entities": b.entities,
            LOGP: _logp_gap(b),
        }
        for b in baselines.itertuples()
    ]
    for (corpus, _run), t in main_seed(traces).groupby(["corpus", "run"], sort=False):
        last = t.iloc[-1]
        name = MODEL_NAMES.get(last["model"], last["model"]) + _context(last)
        rows.append(
            {
                "corpus": corpus,
                "setting": _setting(last),
                "system": f"{name} model, K = {last['workers']} (round {last['round']})",
                "B3 P": 100 * last["b3_p"],
                "B3 R": 100 * last["b3_r"],
                "B3 F1": 100 * last["b3_f1"],
                "entities": int(last["entities"]),
                LOGP: _logp_gap(last),
                PER_MENTION: float(t["proposals"].sum()) / float(last["mentions"])
                if "proposals" in t and "mentions" in t
                else float("nan"),
            }
        )
    table = pd.DataFrame(rows)
    if significance is not None and len(significance):
        names = [style.system_name(x) for x in significance["system"]]
        p = dict(zip(zip(significance["corpus"], significance["setting"], names), significance[P_BOOT]))
        keys = zip(table["corpus"], table["setting"], table["system"])
        table[P_BOOT] = [p.get(k, float("nan")) for k in keys]
    if table[LOGP].isna().all():
        table = table.drop(columns=LOGP)
    order = {WHOLE: 0}
    table["_s"] = [order.get(x, 1) for x in table["setting"]]
    return table.sort_values(["corpus", "_s"], kind="stable").drop(columns="_s").reset_index(drop=True)
