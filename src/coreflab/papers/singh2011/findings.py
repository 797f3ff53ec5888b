"""The claims of Singh et al. 2011 on the findings scorecard (docs/findings.md), each with the rule that
decides it from the paper's result tables (coreflab.report.findings reads them and renders the page)."""

import re

from coreflab.report.findings import (
    HELD,
    NOT_HELD,
    PARTLY,
    Claim,
    Missing,
    OwnData,
    Verdict,
    optional,
    p_text,
    row,
    value,
)

# cross-document corpora (results/crossdoc/): a column per corpus of Table 2
CROSSDOC = OwnData(
    "crossdoc",
    "cross-document",
    split_by="corpus",
    labels=(("ecbplus", "ECB+"), ("large", "large synthetic")),
)


def _singh_rows(t):
    rows = t["paper/singh2011/table2"]
    whole = [r for r in rows if r.get("setting", "whole corpus") == "whole corpus"]
    return whole or rows


def _singh_model(rows):
    models = [r for r in rows if str(r.get("system", "")).startswith("combined model")]
    if not models:
        raise Missing("no model row")

    def k(r):
        m = re.search(r"K = (\d+)", r["system"])
        return int(m.group(1)) if m else 0

    return max(models, key=k)


def _singh_versus(t, rival, tested=False):
    """The model's B3 F1 against `rival`'s. tested: the paper reports a significance test, so ahead is held
    only when the rival's row has a paired bootstrap p < 0.05 (`p (bootstrap)`), partly without one."""
    rows = _singh_rows(t)
    model, other = _singh_model(rows), row(rows, system=rival)
    f, g = value(model, "B3 F1"), value(other, "B3 F1")
    label = model["system"][len("combined model") :].strip(" ,").replace(" (", ", ").rstrip(")")
    ours = f"B3 F1 {f:.1f} vs {g:.1f} ({label})"
    if f <= g:
        return Verdict(NOT_HELD, ours, p_text(other))
    if not tested:
        return Verdict(HELD, ours)
    p = optional(other, "p (bootstrap)")
    if p is None:
        return Verdict(PARTLY, ours, "no significance test in this table")
    return Verdict(HELD if p < 0.05 else PARTLY, ours, p_text(other))


def singh_string_match(t):
    """Table 2: B3 F1 of the hierarchical model (most workers, last round) above its string-match start."""
    return _singh_versus(t, "string match")


def singh_subsquare(t):
    """Table 2: B3 F1 of the hierarchical model above label propagation (the Subsquare stand-in), significantly
    (paired bootstrap, p < 0.05) as the paper's p < 0.0001: held; ahead without a test or significance: partly."""
    return _singh_versus(t, "label propagation", tested=True)


# the paragraph its scorecard section opens with: the columns of its table
INTRO = "Cross-document corpora: ECB+ (whole corpus) and the large synthetic corpus of Table 2."

CLAIMS = [
    Claim(
        "singh2011",
        "The hierarchical model improves on its string-match start (Table 2, B3 F1)",
        "73.7, +16 over string match (1.5M mentions)",
        ("paper/singh2011/table2",),
        singh_string_match,
        key="string_match",
        on=(CROSSDOC,),
    ),
    Claim(
        "singh2011",
        "The model beats Subsquare (Table 2, B3 F1; label propagation stands in)",
        "significantly above Subsquare (p < 0.0001)",
        ("paper/singh2011/table2",),
        singh_subsquare,
        key="subsquare",
        on=(CROSSDOC,),
    ),
    Claim(
        "singh2011",
        "More workers and the hierarchy converge faster (Figs. 5–7)",
        "the hierarchy reaches the pairwise model's accuracy in ≈ 10% of the time",
        note="drawn from the sampler's traces (`crossdoc/traces/`), which no page cites as a table",
        on=(CROSSDOC,),
    ),
]
