"""Atomic writers for tables and figures: a crashed run never leaves half a file."""

import os
import re
import tempfile
from pathlib import Path

from coreflab.corpus.readers.conll import atomic_write_text, new_file_mode
from coreflab.report.style_names import paper_names

__all__ = ["atomic_write_text", "write_table", "html_table", "save_figure", "format_p", "format_p_columns"]


def write_table(df, prefix, formats=("csv", "md", "tex", "html"), float_format="%.2f", caption=None):
    """Write a DataFrame as CSV (full precision), Markdown, LaTeX and HTML beside each other.

    The HTML copy is what the Snakemake report shows: its viewer renders images, PDF and
    HTML only, so a Markdown table there would be a download link, not a table.
    """
    prefix = Path(prefix)
    written = []
    # the CSV is data (full precision, internal system keys that other steps look up); the
    # readers' formats print the papers' system names and p-values as "< 0.001"
    shown = paper_names(format_p_columns(df))
    for fmt in formats:
        path = prefix.with_name(prefix.name + f".{fmt}")
        if fmt == "csv":
            text = df.to_csv(index=False, lineterminator="\n")
        elif fmt == "md":
            blanked = shown.astype(object).where(shown.notna(), None)  # a missing cell is empty, not "nan"
            # p-values are text already ("0.314", "< 0.001"): not re-read as numbers and rounded
            p_cols = [i for i, c in enumerate(shown.columns) if P_COLUMN.match(str(c))]
            text = (
                blanked.to_markdown(
                    index=False, floatfmt=float_format.replace("%", ""), missingval="", disable_numparse=p_cols or False
                )
                + "\n"
            )
            if caption:
                text = f"{caption}\n\n{text}"
        elif fmt == "tex":
            text = _latex(shown, float_format, caption)
        elif fmt == "html":
            text = html_table(shown, float_format, caption)
        else:
            raise ValueError(fmt)
        atomic_write_text(path, text)
        written.append(path)
    return written


P_COLUMN = re.compile(r"^p(\s|$|-value|\W)")  # lower-case p only: a column "P" is precision


def format_p(p):
    """A p-value as a reader expects it: '< 0.001' below 0.001, else three decimals; blank if missing."""
    if p is None or (isinstance(p, float) and p != p):
        return None
    p = float(p)
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def format_p_columns(df):
    """A copy with every p-value column ('p', 'p (bootstrap)', 'p-value') as formatted text."""
    cols = [c for c in df.columns if P_COLUMN.match(str(c))]
    if not cols:
        return df
    df = df.copy()
    for c in cols:
        df[c] = [format_p(v) for v in df[c]]
    return df


_GREEK = {
    "ρ": r"$\rho$",
    "γ": r"$\gamma$",
    "λ": r"$\lambda$",
    "Δ": r"$\Delta$",
    "×": r"$\times$",
    "†": r"\dag{}",
    "<": r"$<$",
}  # "<" in OT1 text is an inverted "!"


def _latex(df, float_format, caption):
    """A booktabs tabular without pandas' jinja2 dependency."""

    def cell(v):
        if v is None or (isinstance(v, float) and v != v):
            return ""
        if isinstance(v, float):
            return float_format % v
        text = str(v).replace("_", r"\_").replace("%", r"\%").replace("&", r"\&")
        for greek, macro in _GREEK.items():  # plain pdflatex has no Unicode Greek
            text = text.replace(greek, macro)
        return text

    cols = "l" * len(df.columns)
    lines = [
        r"\begin{tabular}{" + cols + "}",
        r"\toprule",
        " & ".join(cell(c) for c in df.columns) + r" \\",
        r"\midrule",
    ]
    for row in df.itertuples(index=False):
        lines.append(" & ".join(cell(v) for v in row) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    if caption:
        lines = [f"% {caption}"] + lines
    return "\n".join(lines) + "\n"


_HTML_STYLE = (
    "body{font-family:system-ui,sans-serif;margin:1.5em;color:#1f2937}"
    "caption{caption-side:top;text-align:left;font-weight:600;margin-bottom:.6em}"
    "table{border-collapse:collapse;font-size:14px}"
    "th,td{padding:4px 10px;border-bottom:1px solid #e5e7eb;text-align:right}"
    "th:first-child,td:first-child{text-align:left}"
    "thead th{border-bottom:2px solid #374151}"
    "tbody tr:nth-child(even){background:#f9fafb}"
)


def html_table(df, float_format="%.2f", caption=None):
    """A standalone HTML page with one table (no jinja2: pandas' to_html needs none)."""
    import html

    body = df.to_html(index=False, float_format=lambda v: float_format % v, border=0, na_rep="")
    if caption:
        body = body.replace("<thead>", f"<caption>{html.escape(caption)}</caption>\n  <thead>", 1)
    return (
        f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><style>{_HTML_STYLE}</style></head>'
        f"<body>\n{body}\n</body></html>\n"
    )


def save_figure(fig, path):
    """Save a matplotlib figure atomically; the format follows the file extension.

    Metadata that carries dates is cleared so reruns give identical bytes. The file gets
    the mode of any new file (0644 under the usual umask 022), not mkstemp's 0600, so
    collaborators on a shared disk can open it.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fmt = path.suffix.lstrip(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=f".{fmt}", dir=path.parent)
    os.close(fd)
    meta = {"png": {"Software": None}, "pdf": {"CreationDate": None, "ModDate": None, "Producer": None}}.get(fmt, {})
    try:
        fig.savefig(tmp, format=fmt, metadata=meta, dpi=150, bbox_inches="tight")
        os.chmod(tmp, new_file_mode())
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
