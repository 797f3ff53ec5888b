"""Where learning overtakes rules: the training-size curves' table, crossover and figure.

`coreflab.learn.training_size` makes the curve (test MELA per learner, size and draw); this module
reads it against the rule systems' flat lines (the sieve and string match, scored on the same test
split) and states where learning overtakes the sieve:

    the crossover of a curve is the smallest size whose mean over draws is above the reference and
    stays above it at every larger size; none when the curve is not above it at the largest size.

"Learning" is the best learner at each size (the highest mean over draws); each learner has its own
crossover too. The statement is one line: "learning overtakes the sieve from N training documents",
or "... not within the sizes run".
"""

import json

import numpy as np
import pandas as pd

from coreflab.report.io import atomic_write_text, save_figure, write_table
from coreflab.report.style_names import system_name

RULES = ("sieve", "string_match")
REFERENCE = "sieve"


def crossover(sizes, means, reference):
    """The smallest size from which every mean is above `reference` (sizes ascending with their
    means); None when the mean at the largest size is not above it (or there are no sizes)."""
    pairs = sorted(zip(sizes, means))
    first = None
    for size, mean in reversed(pairs):
        if not mean > reference:
            break
        first = size
    return None if first is None else int(first)


def summary(curve):
    """One row per learner and size: training documents, its label, draws, mean, min and max test MELA."""
    grouped = curve.groupby(["learner", "train_docs"], sort=False)
    out = grouped.agg(size=("size", "first"), draws=("mela", "size"), mean=("mela", "mean"))
    out["min"], out["max"] = grouped["mela"].min(), grouped["mela"].max()
    return out.reset_index().sort_values(["learner", "train_docs"], kind="stable").reset_index(drop=True)


def best_learner(means):
    """Per size, the learner with the highest mean (learning's line): rows train_docs, learner, mean."""
    idx = means.sort_values(["train_docs", "learner"]).groupby("train_docs")["mean"].idxmax()
    return means.loc[idx, ["train_docs", "learner", "mean"]].reset_index(drop=True)


def crossovers(curve, rules, reference=REFERENCE):
    """{"learning": N or None, "by_learner": {learner: N or None}} against `rules[reference]`."""
    means = summary(curve)
    ref = rules[reference]
    best = best_learner(means)
    out = {"learning": crossover(best["train_docs"], best["mean"], ref), "by_learner": {}}
    for learner in dict.fromkeys(curve["learner"]):
        m = means[means["learner"] == learner]
        out["by_learner"][learner] = crossover(m["train_docs"], m["mean"], ref)
    return out


def statement(n, largest, reference=REFERENCE):
    """The one-line finding: where learning overtakes the reference rule system."""
    name = "the sieve" if reference == "sieve" else system_name(reference)
    if n is None:
        return f"Learning does not overtake {name} within the sizes run (up to {largest} training documents)."
    return f"Learning overtakes {name} from {n} training documents."


def size_label(size, n):
    return f"all ({n})" if str(size) == "all" else str(n)


def table(curve, rules):
    """Markdown-ready table: one row per size, per learner 'mean (min–max)' over its draws, the rules' lines."""
    means = summary(curve)
    learners = list(dict.fromkeys(curve["learner"]))
    rows = []
    for n, group in means.groupby("train_docs"):
        by = group.set_index("learner")
        row = {"training documents": size_label(group["size"].iloc[0], n)}
        for learner in learners:
            if learner in by.index:
                r = by.loc[learner]
                row[system_name(learner)] = f"{r['mean']:.2f} ({r['min']:.2f}–{r['max']:.2f})"
        for rule in RULES:
            if rule in rules:
                row[system_name(rule)] = f"{rules[rule]:.2f}"
        rows.append(row)
    return pd.DataFrame(rows)


def _rule_label(rule, rules):
    return f"{system_name(rule)} ({rules[rule]:.2f})"


def figure(curve, rules, cross=None, run=None, reference=REFERENCE):
    """Test MELA by training documents (log x): per learner the mean over draws as the line and the
    min–max over draws as a band; the rule systems as horizontal lines; a vertical line at the crossover."""
    from matplotlib.ticker import FuncFormatter

    from coreflab.report import style

    fig, (ax,) = style.new_figure(panel_size=(7.6, 4.4))
    learners = list(dict.fromkeys(curve["learner"]))
    means = summary(curve)
    for i, learner in enumerate(learners):
        draws = curve[curve["learner"] == learner][["train_docs", "mela"]]
        line = means[means["learner"] == learner].rename(columns={"mean": "mela"})[["train_docs", "mela"]]
        frame = pd.concat([line, draws], ignore_index=True)
        main = pd.Series(np.arange(len(frame)) < len(line), index=frame.index)
        style.line_with_band(ax, frame, "train_docs", "mela", main, i, system_name(learner))
    style.plain_log_axis(ax, "x")
    largest = int(curve["train_docs"].max()) if len(curve) else 0
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"all ({v:,.0f})" if v == largest else f"{v:,.0f}"))
    for j, rule in enumerate(r for r in RULES if r in rules):  # black, dotted then dashed: no learner's stroke
        ax.axhline(
            rules[rule], **{**style.REFERENCE_STYLE, "linestyle": (":", "--")[j % 2]}, label=_rule_label(rule, rules)
        )
    if cross is not None:
        ax.axvline(
            cross,
            color=style.PALETTE[5],
            linestyle="-",
            linewidth=1.0,
            alpha=0.8,
            label=f"learning overtakes {'the sieve' if reference == 'sieve' else system_name(reference)}: {cross} documents",
        )
    ax.set_xlabel("training documents (log scale)")
    ax.set_ylabel("test MELA (%)")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    n_draws = int(curve.groupby(["learner", "train_docs"]).size().max()) if len(curve) else 0
    where = f" ({run})" if run else ""
    return style.finish_figure(
        fig,
        f"Where learning overtakes rules: test MELA by training documents{where}\n"
        f"lines: mean over {n_draws} seeded draws of documents per size, bands: their range",
    )


def write_outputs(curve, rules, out_dir, run=None, notes=()):
    """curve.csv (every draw, and the rules' lines), curve.md, crossover.json, figure.png and figure.pdf
    under out_dir; returns the crossover record."""
    from pathlib import Path

    curve = curve.astype({"train_docs": int})
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    cross = crossovers(curve, rules)
    largest = int(curve["train_docs"].max())
    line = statement(cross["learning"], largest)
    lines = [{"learner": rule, "size": "rule", "train_docs": np.nan, "mela": value} for rule, value in rules.items()]
    tidy = pd.concat([curve, pd.DataFrame(lines)], ignore_index=True)
    atomic_write_text(out / "curve.csv", tidy.to_csv(index=False, lineterminator="\n", float_format="%.6f"))
    draws = int(curve.groupby(["learner", "train_docs"]).size().max())
    caption = (
        f"Where learning overtakes rules{f' ({run})' if run else ''}: test MELA (%) by training documents, "
        f"mean (min–max) over {draws} seeded draws of the training documents per size; the rule systems "
        "learn nothing, so theirs is one number. Feature templates and the values tuned on dev were chosen "
        "on the whole training split."
    )
    by = [
        f"{system_name(k)}: {v if v is not None else 'not within the sizes run'}"
        for k, v in cross["by_learner"].items()
    ]
    footer = [f"**{line}**", "", f"From how many training documents each learner overtakes the sieve: {'; '.join(by)}."]
    footer += [f"{note}" for note in notes]
    write_table(table(curve, rules), out / "curve", formats=("md",), caption=caption)
    text = (out / "curve.md").read_text(encoding="utf-8")
    atomic_write_text(out / "curve.md", text + "\n" + "\n\n".join(x for x in footer if x != "") + "\n")
    record = {
        "run": run,
        "reference": REFERENCE,
        "rules": rules,
        "crossover": cross["learning"],
        "by_learner": cross["by_learner"],
        "largest": largest,
        "statement": line,
        "notes": list(notes),
    }
    atomic_write_text(out / "crossover.json", json.dumps(record, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    fig = figure(curve, rules, cross["learning"], run)
    for ext in ("png", "pdf"):
        save_figure(fig, out / f"figure.{ext}")
    import matplotlib.pyplot as plt

    plt.close(fig)
    return record


__all__ = ["RULES", "REFERENCE", "crossover", "summary", "best_learner", "crossovers", "statement"]
__all__ += ["table", "figure", "write_outputs"]
