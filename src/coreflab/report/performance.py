"""The benchmarks' report: every `bench/results/*.json` against its target, and the scaling figure.

`headline_table` gives one row per benchmark record: its headline measure (`HEADLINES`), the target,
the value now, its ratio to a reference where the record holds one, and the machine's load when it
was measured; `docs/performance.md` includes it. `table` lists every number of every record with
the targets it is judged by (`ANCHORS`, the papers' `Paper.bench_anchors`, and the targets a JSON carries),
for the CSV; the papers' headlines (`Paper.bench_headlines`) join `HEADLINES`. The figure
draws time and peak memory against candidate arcs and beam size (`scaling.json`), and
a paper's own panel (`Paper.bench_panel`). `coreflab bench-report` writes all of them.
"""

import json
import math
import re
from pathlib import Path

import matplotlib.ticker
import numpy as np
import pandas as pd

from coreflab.errors import UserError
from coreflab.report import style
from coreflab.report.bench_targets import Anchor, Headline
from coreflab.report.io import atomic_write_text, save_figure

plt = style.plt  # pyplot, with the backend style sets

C0, C1, REF = style.PALETTE[0], style.PALETTE[1], style.REFERENCE_STYLE["color"]

# per-round and per-iteration traces, descriptions
SKIP_KEYS = {"trace", "machine", "nonlocal_templates", "per_iteration", "per_seed_dev_mela"}
LIST_LABELS = ("workers", "beam", "documents")  # how a list item of dicts is named in a key
TABLE_COLUMNS = ["benchmark", "quantity", "value", "target", "met", "anchor"]


ANCHORS = [
    Anchor(
        "train_bk",
        r"synth_baseline_last_epoch_seconds",
        "<=",
        10,
        "B&K baseline epoch, conll2012 size",
        "targets.baseline_epoch_seconds",
    ),
    Anchor(
        "train_bk",
        r"synth_baseline_last_epoch_us_per_arc",
        "<=",
        0.2,
        "B&K baseline epoch per arc",
        "targets.baseline_us_per_arc",
    ),
    Anchor(
        "train_bk",
        r"synth_delayed_laso_last_epoch_seconds",
        "<=",
        120,
        "beam-20 non-local delayed-LaSO epoch",
        "targets.delayed_laso_epoch_seconds",
    ),
    Anchor("train_bk", r"peak_rss_mb", "<=", 4096, "peak memory of training", "targets.peak_rss_mb"),
    Anchor(
        "features",
        r"(full|window_100)\.(us_per_arc|cpu_us_per_arc)",
        "<=",
        0.5,
        "local feature extraction per arc (cort: 147)",
        "target_us_per_arc",
    ),
    Anchor(
        "corpus",
        r"(gold|predicted)\.read_plus_compile_(cpu|wall)_tok_per_s",
        ">=",
        200_000,
        "read + validate + compile, tokens/s (CoNLL-2012 size)",
    ),
    Anchor(
        "scorer",
        r"all_metrics_seconds\.(best|median|best_cpu)",
        "<=",
        0.5,
        "all metrics, 300 documents (perl scorer: ~49 s)",
    ),
    Anchor("lsp", r"data_generation_100_docs_seconds", "<=", 120, "MELA data generation, 100 documents"),
    Anchor("lsp", r"rho_over_f", "<=", 5, "LSP_rho epoch within 5x LSP_F"),
]
FIT_BENCHMARK = "scaling_fit"  # rows computed here from the sweeps, not read from a JSON
ANCHORS += [
    Anchor(
        "scaling",
        r"arcs\[documents=2802\]\.baseline_cpu_us_per_arc",
        "<=",
        0.2,
        "B&K baseline epoch per arc, conll2012 size",
    ),
    Anchor(
        "scaling",
        r"arcs\[documents=2802\]\.extract_cpu_us_per_arc",
        "<=",
        0.5,
        "feature extraction per arc, conll2012 size",
    ),
    Anchor(
        FIT_BENCHMARK, r"baseline_epoch_cpu_us_per_arc_slope", "<=", 0.2, "B&K baseline epoch per arc (fitted slope)"
    ),
    Anchor(FIT_BENCHMARK, r"extract_cpu_us_per_arc_slope", "<=", 0.5, "feature extraction per arc (fitted slope)"),
]
OPS = {"<=": lambda v, t: v <= t, ">=": lambda v, t: v >= t, "<": lambda v, t: v < t, ">": lambda v, t: v > t}


# ----------------------------------------------------------------------------- reading


def load_results(sources):
    """{benchmark name (file stem): parsed JSON}, sorted by name, from a results folder (every
    *.json in it) or a list of JSON files."""
    if isinstance(sources, (str, Path)):
        folder = Path(sources)
        if not folder.is_dir():
            raise UserError(f"{folder}: no such results folder (run the bench/*.py scripts first)")
        sources = folder.glob("*.json")
    out = {}
    for path in sorted(map(Path, sources), key=lambda p: p.stem):
        try:
            out[path.stem] = json.loads(path.read_text())
        except FileNotFoundError:
            raise UserError(f"{path}: no such results file") from None
        except json.JSONDecodeError as err:
            raise UserError(f"{path}:{err.lineno}: not valid JSON ({err.msg})") from None
    return out


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _item_label(i, item):
    if isinstance(item, dict):
        for k in LIST_LABELS:
            if is_number(item.get(k)):
                return f"{k}={item[k]:g}"
    return str(i)


def flatten(obj, prefix=""):
    """[(dotted key, number)] of every finite number in a JSON value, in document order.

    Dict keys join with ".", list items get "[i]" or, for dicts, "[workers=2]" style labels;
    keys in SKIP_KEYS and the target fields themselves are left out.
    """
    rows = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in SKIP_KEYS or k == "targets" or k == "target" or k.startswith("target_"):
                continue
            rows += flatten(v, f"{prefix}.{k}" if prefix else str(k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            rows += flatten(v, f"{prefix}[{_item_label(i, v)}]")
    elif is_number(obj):
        rows.append((prefix, obj))
    return rows


def _lookup(obj, dotted):
    for part in dotted.split("."):
        if not isinstance(obj, dict) or part not in obj:
            return None
        obj = obj[part]
    return obj


def _json_targets(data):
    """Generic targets a JSON carries: {"targets": {name: v}} applies to every quantity whose last
    component is `name`; a number "target_<name>" likewise. Direction: rates (per_s, speedup) >=,
    costs <=."""
    found = {}
    if isinstance(data, dict):
        for name, v in (data.get("targets") or {}).items():
            if is_number(v):
                found[name] = v
        for k, v in data.items():
            if k.startswith("target_") and is_number(v):
                found[k[len("target_") :]] = v
    return [
        Anchor(
            "",
            rf"(.*[.\]])?{re.escape(name)}",
            ">=" if ("per_s" in name or "speedup" in name) else "<=",
            v,
            f"target in the JSON ({name})",
        )
        for name, v in found.items()
    ]


def anchors_for(name, data, anchors=ANCHORS):
    """The anchors of one benchmark: the registry's (values from the JSON where it has them),
    then the JSON's own generic targets."""
    out = []
    for a in anchors:
        if a.benchmark != name:
            continue
        v = _lookup(data, a.json_key) if a.json_key else None
        out.append(Anchor(name, a.pattern, a.op, v if is_number(v) else a.value, a.text))
    return out + [Anchor(name, g.pattern, g.op, g.value, g.text) for g in _json_targets(data)]


def _row(name, key, value, anchors):
    """(benchmark, quantity, value, target, met, anchor) under the first anchor that matches."""
    a = next((a for a in anchors if re.fullmatch(a.pattern, key)), None)
    if a is None:
        return (name, key, value, "", "", "")
    return (name, key, value, f"{a.op} {a.value:g}", "yes" if OPS[a.op](value, a.value) else "no", a.text)


def table(results, anchors=ANCHORS):
    """One row per recorded number, then the slopes fitted on the sweeps (benchmark
    "scaling_fit"): benchmark, quantity, value, target, met ("yes"/"no", empty without a
    target), anchor."""
    rows = []
    for name, data in results.items():
        mine = anchors_for(name, data, anchors)
        rows += [_row(name, key, value, mine) for key, value in flatten(data)]
    mine = [a for a in anchors if a.benchmark == FIT_BENCHMARK]
    rows += [_row(FIT_BENCHMARK, key, value, mine) for key, value in fitted_numbers(results)]
    return pd.DataFrame(rows, columns=TABLE_COLUMNS)


# ----------------------------------------------------------------------------- fitting


def linear_fit(x, y):
    """(t0, c) of y = t0 + c·x by least squares: c is the marginal cost per unit of x (per arc),
    t0 the fixed cost per call (an epoch also averages the 2**22 weights whatever its size)."""
    c, t0 = np.polyfit(np.asarray(x, float), np.asarray(y, float), 1)
    return float(t0), float(c)


def power_fit(x, y):
    """(a, b) of y = a·x^b by least squares in log-log space (b = 1: linear scaling)."""
    b, log_a = np.polyfit(np.log(np.asarray(x, float)), np.log(np.asarray(y, float)), 1)
    return float(np.exp(log_a)), float(b)


def fitted_numbers(results):
    """[(quantity, value)]: the per-arc slopes (µs/arc, CPU) and log-log exponents of the arcs
    sweep, and the exponent of CPU time against beam size."""
    sc = results.get("scaling") or {}
    rows = []
    pts = sc.get("arcs") or []
    arcs = _col(pts, "arcs")
    for key, name in (("baseline_epoch_cpu_s", "baseline_epoch"), ("extract_cpu_s", "extract")):
        t = _col(pts, key)
        ok = np.isfinite(t) & (t > 0) & np.isfinite(arcs)
        if ok.sum() >= 2:
            t0, c = linear_fit(arcs[ok], t[ok])
            rows += [
                (f"{name}_cpu_us_per_arc_slope", 1e6 * c),
                (f"{name}_cpu_fixed_s", t0),
                (f"{name}_cpu_loglog_exponent", power_fit(arcs[ok], t[ok])[1]),
            ]
    pts = sc.get("beam") or []
    beam, t = _col(pts, "beam"), _col(pts, "epoch_cpu_s")
    ok = np.isfinite(beam) & np.isfinite(t) & (t > 0)
    if ok.sum() >= 2:
        rows.append(("delayed_laso_cpu_beam_exponent", power_fit(beam[ok], t[ok])[1]))
    return rows


# ----------------------------------------------------------------------------- figure


def _col(points, key):
    return np.array([p.get(key, np.nan) if is_number(p.get(key)) else np.nan for p in points], float)


def short_tick(v, _pos=None):
    """Tick label: 2M, 500k, 20, 0.5."""
    for scale, unit in ((1e6, "M"), (1e3, "k")):
        if abs(v) >= scale:
            return f"{v / scale:g}{unit}"
    return f"{v:g}"


def _plain_log_ticks(ax):
    """Log axes labelled at 1-2-5 steps in plain numbers (the default 10^k labels leave a small
    panel with one or two labels, and the minor ones crowd it)."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    for axis in (ax.xaxis, ax.yaxis):
        if axis.get_scale() == "log":
            axis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
            axis.set_major_formatter(FuncFormatter(short_tick))
            axis.set_minor_formatter(NullFormatter())


def _panel_time_arcs(ax, sc, results):
    pts = sc.get("arcs") or []
    if not pts:
        ax.text(0.5, 0.5, "no arcs sweep", ha="center", transform=ax.transAxes)
        return
    arcs = _col(pts, "arcs")
    xs = np.geomspace(arcs.min(), arcs.max(), 50)
    for key, wall, label, color, marker in (
        ("baseline_epoch_cpu_s", "baseline_epoch_wall_s", "bk_baseline epoch", C0, "o"),
        ("extract_cpu_s", "extract_wall_s", "feature extraction", C1, "^"),
    ):
        t = _col(pts, key)
        ok = np.isfinite(t) & (t > 0)
        if ok.sum() < 2:
            continue
        t0, c = linear_fit(arcs[ok], t[ok])
        _, b = power_fit(arcs[ok], t[ok])
        ax.plot(
            arcs,
            t,
            marker,
            color=color,
            label=f"{label} (CPU): slope {c * 1e6:.3f} µs/arc, fixed {t0:.2f} s, log-log exponent {b:.2f}",
        )
        fit = t0 + c * xs
        ax.plot(xs[fit > 0], fit[fit > 0], "-", color=color, lw=1)
        ax.annotate(
            f"{1e6 * t[ok][-1] / arcs[ok][-1]:.3f} µs/arc",
            (arcs[ok][-1], t[ok][-1]),
            textcoords="offset points",
            xytext=(6, -4),
            fontsize=6.5,
            color=color,
        )
        ax.plot(arcs, _col(pts, wall), "x", color=color, alpha=0.6, ms=5)
    tb = results.get("train_bk") or {}
    if is_number(tb.get("arcs")) and is_number(tb.get("synth_baseline_fit_cpu_seconds_per_epoch")):
        ax.plot(
            tb["arcs"],
            tb["synth_baseline_fit_cpu_seconds_per_epoch"],
            "s",
            mfc="none",
            color=C0,
            ms=9,
            label=f"train_bk.json: {1e6 * tb['synth_baseline_fit_cpu_seconds_per_epoch'] / tb['arcs']:.3f} µs/arc",
        )
    ft = (results.get("features") or {}).get("full") or {}
    if is_number(ft.get("arcs")) and is_number(ft.get("cpu_us_per_arc")):
        ax.plot(
            ft["arcs"],
            ft["cpu_us_per_arc"] * ft["arcs"] / 1e6,
            "D",
            mfc="none",
            color=C1,
            ms=8,
            label=f"features.json: {ft['cpu_us_per_arc']:.3f} µs/arc",
        )
    for us, ls, label in ((0.2, ":", "target 0.2 µs/arc (epoch)"), (0.5, "-.", "target 0.5 µs/arc (features)")):
        ax.plot(xs, us * 1e-6 * xs, ls, color=REF, lw=1, label=label)
    ax.set(
        xscale="log",
        yscale="log",
        xlabel="candidate arcs",
        ylabel="time (s; filled CPU, x wall)",
        title="(a) time vs arcs",
    )
    lo, hi = ax.get_ylim()
    ax.set_ylim(lo, hi * 12)  # room for the legend above the points
    _plain_log_ticks(ax)
    ax.legend(fontsize=6, loc="upper left")


def _panel_memory_arcs(ax, sc, results):
    pts = sc.get("arcs") or []
    if not pts:
        ax.text(0.5, 0.5, "no arcs sweep", ha="center", transform=ax.transAxes)  # said, not an empty panel
        return
    arcs = _col(pts, "arcs")
    ax.plot(arcs, _col(pts, "peak_mb"), "o-", label="peak RSS (extraction + 2 epochs)")
    ax.plot(arcs, _col(pts, "store_mb"), "s-", label="arc store")
    ax.plot(arcs, _col(pts, "rss_before_extract_mb"), "^--", label="RSS before extraction (imports, corpus)")
    peak = _col(pts, "peak_mb")
    if np.isfinite(peak[-1]):
        ax.annotate(f"{peak[-1]:.0f} MB", (arcs[-1], peak[-1]), textcoords="offset points", xytext=(-30, 6), fontsize=7)
    tb = results.get("train_bk") or {}
    if is_number(tb.get("arcs")) and is_number(tb.get("peak_rss_mb")):
        ax.plot(
            tb["arcs"],
            tb["peak_rss_mb"],
            "D",
            mfc="none",
            color=REF,
            ms=9,
            label="train_bk.json peak (2 stores, beam 20)",
        )
    ax.axhline(4096, color=REF, ls=":", lw=1, label="target 4 GB")
    ax.set(xlabel="candidate arcs", ylabel="memory (MB)", title="(b) peak memory vs arcs")
    ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(short_tick))
    ax.legend(fontsize=6.5, loc="upper left")


def _panel_time_beam(ax, sc, results):
    pts = sc.get("beam") or []
    if not pts:
        ax.text(0.5, 0.5, "no beam sweep", ha="center", transform=ax.transAxes)
        return
    beam, cpu, wall = _col(pts, "beam"), _col(pts, "epoch_cpu_s"), _col(pts, "epoch_wall_s")
    ax.plot(beam, cpu, "o-", label="epoch CPU s")
    ax.plot(beam, wall, "x--", alpha=0.7, label="epoch wall s")
    for b, t, us in zip(beam, cpu, _col(pts, "cpu_us_per_arc")):
        ax.annotate(f"{us:.1f} µs/arc", (b, t), textcoords="offset points", xytext=(6, -3), fontsize=6.5)
    if len(beam) >= 2 and np.all(cpu > 0):
        _, b = power_fit(beam, cpu)
        ax.text(0.03, 0.94, f"CPU ∝ beam^{b:.2f}", transform=ax.transAxes, fontsize=7)
    tb = results.get("train_bk") or {}
    if is_number(tb.get("synth_delayed_laso_fit_cpu_seconds_per_epoch")) and is_number(tb.get("arcs")):
        us = 1e6 * tb["synth_delayed_laso_fit_cpu_seconds_per_epoch"] / tb["arcs"]
        ax.text(
            0.03,
            0.87,
            f"train_bk.json, beam {tb.get('beam', 20)}, {tb['arcs'] / 1e6:.1f}M arcs:\n"
            f"{tb['synth_delayed_laso_fit_cpu_seconds_per_epoch']:.1f} s CPU ({us:.1f} µs/arc; target 120 s)",
            va="top",
            transform=ax.transAxes,
            fontsize=6.5,
        )
    n_arcs = pts[0].get("arcs", 0)
    ax.set(
        xscale="log",
        yscale="log",
        xlabel="beam size",
        ylabel="time per epoch (s)",
        title=f"(c) delayed LaSO epoch vs beam ({n_arcs / 1e6:.2f}M arcs)",
    )
    lo, hi = ax.get_ylim()
    ax.set_ylim(lo, hi * 3)
    ax.set_xlim(None, beam.max() * 3)
    _plain_log_ticks(ax)
    ax.legend(fontsize=6.5, loc="lower right")


def _panel_memory_beam(ax, sc):
    pts = sc.get("beam") or []
    if not pts:
        ax.text(0.5, 0.5, "no beam sweep", ha="center", transform=ax.transAxes)
        return
    beam = _col(pts, "beam")
    ax.plot(beam, _col(pts, "peak_mb"), "o-", label="peak RSS")
    ax.plot(beam, _col(pts, "training_added_mb"), "s-", label="added by training (weights, beam)")
    ax.plot(beam, _col(pts, "store_mb"), "^--", label="arc store")
    ax.set(xscale="log", xlabel="beam size", ylabel="memory (MB)", title="(d) memory vs beam", ylim=(0, None))
    _plain_log_ticks(ax)
    ax.legend(fontsize=6.5)


def _panel_summary(ax, results, df):
    ax.axis("off")
    sc = results.get("scaling") or {}
    m = sc.get("machine") or {}
    judged = df[df["met"] != ""]
    lines = [
        f"scaling.json: {sc.get('date', '?')} ({sc.get('plan', '?')} plan)",
        f"{m.get('cpu_count', '?')} CPUs, load {sc.get('load_average_at_start', '?')} at start",
        f"targets: {int((judged['met'] == 'yes').sum())} of {len(judged)} met",
    ]
    width = max((len(str(n)) for n in judged["benchmark"]), default=10) + 2  # names never run into their counts
    for name, grp in judged.groupby("benchmark", sort=True):
        missed = list(grp.loc[grp["met"] == "no", "quantity"])
        lines.append(f"  {name:<{width}}{int((grp['met'] == 'yes').sum())}/{len(grp)}")
        lines += [f"    not met: {q}" for q in missed[:3]] + (["    ..."] if len(missed) > 3 else [])
    fits = df[df["benchmark"] == FIT_BENCHMARK]
    if len(fits):
        lines += ["", "fitted on the sweeps (CPU):"]
        lines += [f"  {q} = {v:.3g}" for q, v in zip(fits["quantity"], fits["value"])]
    arcs = sc.get("arcs") or []
    if arcs and is_number(arcs[-1].get("peak_mb")):
        lines.append(f"  peak at {arcs[-1].get('arcs', 0) / 1e6:.2f}M arcs = {arcs[-1]['peak_mb']:.0f} MB")
    ax.text(0, 1, "\n".join(lines), va="top", family="monospace", fontsize=6.5, transform=ax.transAxes)
    ax.set_title("(f) targets", loc="left")


def _panel_none(ax, results):
    ax.axis("off")
    ax.text(0.5, 0.5, "no paper's benchmark panel", ha="center", transform=ax.transAxes)


def scaling_figure(results, df=None, panels=()):
    """The six-panel figure (a matplotlib Figure); panel (e) is the first of `panels` (the papers' own,
    `Paper.bench_panel`: draw(ax, results))."""
    sc = results.get("scaling") or {}
    df = table(results) if df is None else df
    fig, flat = style.new_figure(2, 3, panel_size=(5, 4.25))
    axes = np.asarray(flat).reshape(2, 3)
    _panel_time_arcs(axes[0, 0], sc, results)
    _panel_memory_arcs(axes[0, 1], sc, results)
    _panel_summary(axes[0, 2], results, df)
    _panel_time_beam(axes[1, 0], sc, results)
    _panel_memory_beam(axes[1, 1], sc)
    (panels[0] if panels else _panel_none)(axes[1, 2], results)
    for ax in axes.flat:
        ax.grid(alpha=0.3, which="both") if ax.axison else None
    fig.suptitle("coreflab: cost as the work grows")
    fig.tight_layout()
    return fig


# ----------------------------------------------------------------------------- one row per benchmark


def _scaling_slope(data):
    return dict(fitted_numbers({"scaling": data})).get("baseline_epoch_cpu_us_per_arc_slope")


HEADLINES = [
    Headline(
        r"arc_store_shared_rows_.+",
        "arc store, bytes per arc ({corpus} {split}, `{featureset}`, window {window})",
        "shared.bytes_per_arc",
        "<=",
        "target_bytes_per_arc",
        "flat.bytes_per_arc",
        "flat store",
    ),
    Headline(r"conll2012_estimate(_fine)?", "estimated `config/conll2012.yaml` run on 2 cores (h)", "two_cores_h"),
    Headline(
        r"corpus",
        "read + validate + compile, gold mentions (tokens/s, CPU)",
        "gold.read_plus_compile_cpu_tok_per_s",
        ">=",
        200_000,
    ),
    Headline(
        r"corr_clustering_lp",
        "Corr-Clustering decoder, GUM test: share of documents proved optimal",
        "corpora.gum.test.after.exact_share",
        reference="corpora.gum.test.before.exact_share",
        reference_text="decoder without the LP",
    ),
    Headline(
        r"features",
        "local feature extraction, CoNLL-2012 size (µs per arc, CPU)",
        "full.cpu_us_per_arc",
        "<=",
        "target_us_per_arc",
        147,
        "cort",
    ),
    Headline(
        r"features_peak_.+",
        "`coreflab features` peak memory, {compiled} (`{featureset}`, window {window}; MB)",
        "peak_mb",
        "<=",
        6000,  # what the features rule asks a cluster for
    ),
    Headline(
        r"learner_peaks_.+",
        "largest training job's peak memory, {label} ({arcs:,} training arcs; MB)",
        "max_peak_mb",
        "<=",
        "limit_mb",  # what a training job may take (every job within 8 GB)
    ),
    Headline(
        r"features_.+",
        "arc store, bytes per arc ({corpus} {split}, `{featureset}`)",
        "window_reach.bytes_per_arc",
        "<=",
        "target_bytes_per_arc",
        "window_reach.flat_bytes_per_arc",
        "flat store",
    ),
    Headline(
        r"lbfgs",
        "C&C `cc_base` fit on GUM, {max_iter} iterations (wall s)",
        "coreflab_lbfgs.wall_s",
        reference="scipy_lbfgsb.wall_s",
        reference_text="scipy's L-BFGS-B",
    ),
    Headline(
        r"lbfgs_convergence_.+",
        "C&C first fit on {label}, Newton to tol 1e-4 (wall s)",
        lambda d: value_at(d.get("after_tol_0.0001") or {}, "first_fit.wall_s"),
        reference="before.first_fit.wall_s",
        reference_text="L-BFGS, 100 iterations",
    ),
    Headline(r"lsp", "H&M LSP_ρ epoch over an LSP_F epoch", "rho_over_f", "<=", 5),
    Headline(
        r"pair_kernel",
        "pair model loss-and-gradient pass, GUM train (s)",
        "shared_rows.loss_grad_shared_rows_s",
        reference="shared_rows.loss_grad_flat_copy_s",
        reference_text="flat columns",
    ),
    Headline(
        r"scaling", "B&K baseline epoch, fitted slope over the arcs sweep (µs per arc, CPU)", _scaling_slope, "<=", 0.2
    ),
    Headline(r"scorer", "all metrics, 300 documents, in process (s)", "all_metrics_seconds.best", "<=", 0.5),
    Headline(
        r"selection_conll2012_size",
        "template selection at CoNLL-2012 size, peak memory (GB, PSS)",
        "extract.tree_peak_pss_gb",
        "<=",
        8,
        "pool.tree_peak_pss_gb",
        "stores cut from the pool",
    ),
    Headline(
        r"selection_conll2012_size_predicted",
        "template selection at CoNLL-2012 size, predicted mentions, judged on a sample: peak memory (GB, PSS)",
        "tree_peak_pss_gb",
        "<=",
        8,
        "sample_0_9_tree_peak_pss_gb",
        "a sample of 264 documents",
    ),
    Headline(
        r"slurm_check",
        "tiny workflow through SLURM (s)",
        "seconds_slurm",
        reference="seconds_local",
        reference_text="local run",
    ),
    Headline(
        r"threads",
        "two `cc_base` fits side by side, one BLAS thread each (wall s)",
        "one_thread_per_process.fit_wall_s.0",
        reference="2_threads_per_process.fit_wall_s.0",
        reference_text="one thread per core",
    ),
    Headline(
        r"train_bk",
        "B&K beam-20 delayed LaSO epoch, CoNLL-2012 size (s)",
        "synth_delayed_laso_last_epoch_seconds",
        "<=",
        "targets.delayed_laso_epoch_seconds",
    ),
    Headline(r"workflow_(default|gum|litbank)", "whole `{label}` run on 2 cores (min)", "wall_min", "<=", 15),
    Headline(r"workflow_.+", "whole `{label}` run on 2 cores (min)", "wall_min"),
]
# research records, not benchmarks: left out of the table
NOT_BENCHMARKS = re.compile(r"nonlocal_seeds_.+|mention_stage_.+")
LOAD_KEYS = (
    "load_average",
    "load_average_start",
    "load_average_at_start",
    "load_average_1min",
    "load_average_1min_start",
    "load_avg_1min_at_start",
    "load_before",
    "load_at_record",
    "load_average_end",
    "load_average_at_end",
    "load_after",
)
HEADLINE_COLUMNS = ["benchmark", "measure", "target", "now", "met", "vs reference", "load"]


def value_at(data, key):
    """The number at a dotted key (list items by index) or returned by a function; None if absent."""
    if callable(key):
        v = key(data)
    else:
        v = data
        for part in str(key).split("."):
            if isinstance(v, list) and part.isdigit() and int(part) < len(v):
                v = v[int(part)]
            elif isinstance(v, dict) and part in v:
                v = v[part]
            else:
                return None
    return v if is_number(v) else None


def _load_in(obj):
    for k in LOAD_KEYS:
        v = obj.get(k)
        v = v[0] if isinstance(v, list) and v else v
        if is_number(v):
            return v
    return None


def machine_load(data, key=None):
    """The 1-minute load average a record holds for a measure: the nearest to the measure's dotted key
    (its own block, then the blocks above it), else the first one found going down from the top; at the
    start of the run where the record has both. None if the record holds none."""
    blocks = [data]
    if isinstance(key, str):
        for part in key.split(".")[:-1]:
            inner = blocks[-1].get(part) if isinstance(blocks[-1], dict) else None
            if not isinstance(inner, dict):
                break
            blocks.append(inner)
    for obj in reversed(blocks):
        if isinstance(obj, dict) and (v := _load_in(obj)) is not None:
            return v
    queue = [data]
    while queue:
        obj = queue.pop(0)
        if isinstance(obj, dict):
            if (v := _load_in(obj)) is not None:
                return v
            queue += [v for v in obj.values() if isinstance(v, dict)]
    return None


def headline_for(name, headlines=HEADLINES):
    """The first headline whose pattern fully matches the record's name, or None."""
    return next((h for h in headlines if re.fullmatch(h.benchmark, name)), None)


def _number(v):
    """A table number: grouped thousands, else three significant digits."""
    return f"{v:,.0f}" if abs(v) >= 1000 else f"{v:.3g}"


def _measure_text(h, data):
    fields = {k: v for k, v in data.items() if isinstance(v, (str, int, float))} if isinstance(data, dict) else {}
    try:
        return h.measure.format(**fields)
    except (KeyError, IndexError, ValueError):
        return re.sub(r"\{[^}]*\}", "?", h.measure)


def headline_row(name, data, headlines=HEADLINES):
    """[benchmark, measure, target, now, met, vs reference, load] of one record (strings)."""
    h = headline_for(name, headlines)
    load = machine_load(data, h.key if h else None)
    load_text = f"{load:.1f}" if load is not None else "—"
    if h is None:
        return [name, "no headline measure (see scaling.csv)", "—", "—", "—", "—", load_text]
    now = value_at(data, h.key)
    target = h.target if is_number(h.target) else (value_at(data, h.target) if h.target else None)
    reference = h.reference if is_number(h.reference) else (value_at(data, h.reference) if h.reference else None)
    met = "—"
    if h.op and target is not None and now is not None:
        met = "yes" if OPS[h.op](now, target) else "no"
    ratio = "—"
    if now is not None and reference:
        ratio = f"{now / reference:.2g}× {h.reference_text}"
    return [
        name,
        _measure_text(h, data),
        f"{h.op.replace('<=', '≤').replace('>=', '≥')} {_number(target)}" if h.op and target is not None else "—",
        _number(now) if now is not None else "—",
        met,
        ratio,
        load_text,
    ]


def headline_table(results, headlines=HEADLINES):
    """One row per benchmark record (research records left out), sorted by name."""
    rows = [
        headline_row(name, data, headlines)
        for name, data in sorted(results.items())
        if not NOT_BENCHMARKS.fullmatch(name)
    ]
    return pd.DataFrame(rows, columns=HEADLINE_COLUMNS)


def headline_markdown(results, headlines=HEADLINES):
    """The headline table as Markdown, after one line counting the targets met."""
    df = headline_table(results, headlines)
    judged = df[df["met"] != "—"]
    head = (
        f"{int((judged['met'] == 'yes').sum())} of {len(judged)} targets met. One row per benchmark record in `bench/results/`: "
        "its headline measure, the target, the value now, the ratio to a reference where the record has one, and "
        "the machine's 1-minute load when it ran (`bench/results/scaling.csv` lists every number of every record).\n\n"
    )
    lines = ["| " + " | ".join(HEADLINE_COLUMNS) + " |", "|" + "---|" * len(HEADLINE_COLUMNS)]
    for row in df.itertuples(index=False):
        cells = [f"`{row[0]}`", *row[1:]]
        lines.append("| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |")
    return head + "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------- output

OUTPUTS = ("png", "pdf", "csv", "md")


def write_report(sources, outputs, anchors=(), headlines=(), panels=()):
    """Read the records (a folder or JSON files) and write outputs {"png"|"pdf"|"csv"|"md": path} (each
    optional): the figure, every number (CSV) and one row per benchmark (Markdown), judged by the core's
    targets and `anchors` and `headlines` (the papers' benchmarks; `panels`: their figure panels). Returns
    the CSV's table."""
    results = load_results(sources)
    if not results:
        raise UserError(f"{sources}: no *.json results")
    anchors, headlines = [*ANCHORS, *anchors], [*HEADLINES, *headlines]
    df = table(results, anchors)
    paths = {k: Path(v) for k, v in outputs.items() if v}
    if "csv" in paths:
        atomic_write_text(paths["csv"], df.to_csv(index=False, lineterminator="\n"))
    if "md" in paths:
        atomic_write_text(paths["md"], headline_markdown(results, headlines))
    if "png" in paths or "pdf" in paths:
        fig = scaling_figure(results, df, panels)
        try:
            for ext in ("png", "pdf"):
                if ext in paths:
                    save_figure(fig, paths[ext])
        finally:
            plt.close(fig)
    return df
