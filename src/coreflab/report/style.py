"""One look for every figure of the project, and the papers' names for the systems.

Why: the figures are compared side by side with the papers', read by colour-blind readers
and printed in grey. So every series gets a colour from the Okabe–Ito palette (safe for
the common colour-vision deficiencies) *and* its own marker and line style, so no
comparison relies on colour alone; every figure names the paper, the figure, the corpus
and the split in its title; and legends and tables use the systems' names as the papers
print them (`Bin-Left-Link`, not `binleftlink`). Figure code draws through `series_style`,
`new_figure` and `finish_figure`; `tests/report/test_figure_style.py` checks every figure.
"""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# Okabe & Ito (2008), "Color Universal Design"; yellow last (weak on white)
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#E69F00", "#56B4E9", "#CC79A7", "#000000", "#F0E442")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "h", "<", ">", "p")
LINESTYLES = ("-", "--", "-.", ":", (0, (5, 1)), (0, (3, 1, 1, 1, 1, 1)), (0, (1, 3)), (0, (8, 2, 2, 2)))
REFERENCE_STYLE = {"color": "#000000", "linestyle": ":", "linewidth": 1.4}  # horizontal baselines etc.

from coreflab.report.style_names import PAPERS, SYSTEM_NAMES, paper_names, system_name  # noqa: E402,F401


def series_style(i, **overrides):
    """Colour, marker and line style of the i-th series: all three differ between series."""
    style = {
        "color": PALETTE[i % len(PALETTE)],
        "marker": MARKERS[i % len(MARKERS)],
        "linestyle": LINESTYLES[i % len(LINESTYLES)],
        "markersize": 4,
        "linewidth": 1.6,
    }
    style.update(overrides)
    return style


def band(ax, x, low, high, i):
    """The spread of the i-th series (e.g. over seeds) as a light band in its colour, behind the lines."""
    ax.fill_between(x, low, high, color=PALETTE[i % len(PALETTE)], alpha=0.18, linewidth=0, zorder=0)


def line_with_band(ax, frame, x, y, main, i, label):
    """One series over several seeds: the main seed's rows (`main`, a boolean mask) as the line and,
    where other seeds ran, the min–max of `y` per `x` over all rows as a band behind it."""
    line = frame[main].sort_values(x)
    ax.plot(line[x], line[y], label=label, **series_style(i))
    if (~main).any():
        spread = frame.groupby(x)[y].agg(["min", "max"])
        band(ax, spread.index, spread["min"], spread["max"], i)


def seeds_note(n_seeds):
    """What a figure's title adds when it draws bands: '' for one seed."""
    return f"; lines: one seed, bands: range over {n_seeds} seeds" if n_seeds > 1 else ""


def title(paper, figure, corpus=None, split=None, what=""):
    """'Björkelund & Kuhn 2014, Fig. 3 — <what> (<corpus>, <split>)'."""
    head = f"{PAPERS.get(paper, paper)}, {figure}" if figure else PAPERS.get(paper, paper)
    where = ", ".join(str(x) for x in (corpus, split) if x)
    text = f"{head}: {what}" if what else head
    return f"{text} ({where})" if where else text


def new_figure(nrows=1, ncols=1, panel_size=(4.8, 3.6), **kwargs):
    """A figure with the project's rc settings; axes always a flat list (squeeze=False)."""
    with plt.rc_context(RC):
        fig, axes = plt.subplots(
            nrows, ncols, figsize=(panel_size[0] * ncols, panel_size[1] * nrows), squeeze=False, **kwargs
        )
    return fig, list(axes.ravel())


RC = {
    "axes.prop_cycle": matplotlib.cycler(color=list(PALETTE)),
    "axes.grid": True,
    "grid.alpha": 0.3,
    "legend.frameon": False,
    "font.size": 9,
    "axes.titlesize": 9,
}


def plain_log_axis(ax, axis="x"):
    """Log scale labelled with plain numbers (no overlapping '1.1×10¹' minor labels); call after
    plotting. With at most 8 distinct data values the ticks are those values (the sizes run)."""
    import numpy as np
    from matplotlib.ticker import FixedLocator, FuncFormatter, LogLocator, NullFormatter

    target = ax.xaxis if axis == "x" else ax.yaxis
    (ax.set_xscale if axis == "x" else ax.set_yscale)("log")
    data = [ln.get_xdata() if axis == "x" else ln.get_ydata() for ln in ax.get_lines()]
    values = np.unique(np.concatenate([np.asarray(d, dtype=float) for d in data])) if data else np.zeros(0)
    values = values[np.isfinite(values) & (values > 0)]
    if 0 < len(values) <= 8:
        target.set_major_locator(FixedLocator(values))
    else:
        target.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    target.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:,.0f}" if v >= 1 else f"{v:g}"))
    target.set_minor_formatter(NullFormatter())


def finish_figure(fig, suptitle):
    """Suptitle, grid, tight layout; panels without data are removed (no empty cells)."""
    for ax in list(fig.axes):
        if ax.axison and not (ax.lines or ax.collections or ax.patches or ax.images or ax.texts):
            fig.delaxes(ax)
    for ax in fig.axes:
        if ax.axison:
            ax.grid(True, alpha=0.3, which="major")
    fig.suptitle(suptitle, fontsize=12)
    fig.tight_layout()
    return fig


__all__ = [
    "PALETTE",
    "MARKERS",
    "LINESTYLES",
    "REFERENCE_STYLE",
    "SYSTEM_NAMES",
    "PAPERS",
    "system_name",
    "paper_names",
    "series_style",
    "band",
    "line_with_band",
    "seeds_note",
    "title",
    "new_figure",
    "finish_figure",
    "plain_log_axis",
]
