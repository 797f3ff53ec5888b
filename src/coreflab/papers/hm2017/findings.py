"""The claims of Haponchyk & Moschitti 2017 on the findings scorecard (docs/findings.md), each with the rule that
decides it from the paper's result tables (coreflab.report.findings reads them and renders the page)."""

import re

from coreflab.report.findings import (
    CAPTIONS,
    CORPUS,
    HELD,
    NOT_HELD,
    PARTLY,
    Claim,
    Missing,
    SameRun,
    Verdict,
    number,
    row,
    value,
)


def hm_regressor(t):
    """Table 1: the MELA regressor's SCC on the held-out sample, held from 99%, partly from 90%."""
    rows = t["paper/hm2017/table1"]
    scc = [value(r, "SCC") for r in rows]
    mse = [value(r, "MSE") for r in rows]
    if not scc:
        raise Missing("no regressor rows")
    verdict = HELD if min(scc) >= 99 else PARTLY if min(scc) >= 90 else NOT_HELD
    return Verdict(verdict, "SCC " + ", ".join(f"{s:.2f}" for s in scc), "MSE " + ", ".join(f"{m:.2f}" for m in mse))


def _n(text):
    n = number(text)
    return None if n is None else int(n)


HM_MIN_SIZES = 4  # feature counts (All included) a gain curve needs before it can say "grows"


def hm_fewer_features(t):
    """The gain of LSP_ρ over LSP_F in test MELA (at each learner's T_best) along the feature-count curve
    (`paper/hm2017/curve`: one column per N, the largest all features), as the paper's Fig. 3: held when the gain is
    above the all-features gain both at its largest (and positive) over the reduced N and at the smallest N;
    partly when one of the two holds; not held when neither. Fewer than HM_MIN_SIZES feature counts: not run
    (one reduced N cannot show a curve)."""
    gain_row = row(t["paper/hm2017/curve"], Model="gain (LSP_ρ − LSP_F)")
    gains = {_n(c): number(v) for c, v in gain_row.items() if c != "Model" and _n(c) is not None}
    gains = {n: g for n, g in gains.items() if g is not None}
    if not gains:
        raise Missing("no gain in the curve")
    full_n = max(gains)
    reduced = sorted(n for n in gains if n != full_n)
    if len(reduced) + 1 < HM_MIN_SIZES:
        raise SameRun(f"gain measured at {len(reduced) + 1} feature counts; the claim is a curve (≥ {HM_MIN_SIZES})")
    full = gains[full_n]
    peak_n = max(reduced, key=lambda n: (gains[n], -n))
    peak, small = gains[peak_n], gains[reduced[0]]
    hits = (peak > max(full, 0.0)) + (small > full)
    verdict = [NOT_HELD, PARTLY, HELD][hits]
    ours = f"{small:+.2f} at N = {reduced[0]:,}, largest {peak:+.2f} at N = {peak_n:,}, {full:+.2f} with all"
    return Verdict(verdict, ours, f"{len(reduced) + 1} feature counts")


TABLE4_ON = re.compile(r"Table 4 on (\S+?)[ ,(]")
REGRESSOR_OF = re.compile(r"\(regressor of (.+)\)")


def _table4_on(t):
    """The corpus Table 4 ran on (its caption), None when the caption does not say."""
    m = TABLE4_ON.search(t.get(CAPTIONS, {}).get("paper/hm2017/table4", "") + " ")
    return m.group(1) if m else None


def _table4_corpus(t):
    """The corpus Table 4 ran on; SameRun when that is the column's own corpus (its rows are Table 3's)."""
    second = _table4_on(t)
    if second is not None and second == t.get(CORPUS):
        raise SameRun("Table 4 ran on this corpus itself (its rows are Table 3's): hm2017.pairs names no second corpus")
    return second


def hm_harder_corpus(t):
    """Table 4, test MELA on the second corpus: LSP_ρ above LSP_F and LSP_YJ (held), one (partly), neither.
    Not run when the second corpus is the first (its rows are Table 3's)."""
    _table4_corpus(t)
    rows = t["paper/hm2017/table4"]
    rho, f, yj = (value(row(rows, Model=m), "test MELA") for m in ("LSP_ρ", "LSP_F", "LSP_YJ"))
    verdict = [NOT_HELD, PARTLY, HELD][(rho > f) + (rho > yj)]
    return Verdict(verdict, f"LSP_ρ {rho:.2f}, LSP_F {f:.2f}, LSP_YJ {yj:.2f}")


def hm_transfer(t):
    """Table 4: LSP_ρ with another corpus's regressor at least as good as with its own (held), else not held.
    Table 4 may run on a second corpus (hm2017.pairs) or on the column's own (hm2017.transfer). Not run when
    the two regressors are one (the 'other' corpus is Table 4's own)."""
    on = _table4_on(t) or t.get(CORPUS)
    rows = t["paper/hm2017/table4"]
    own = value(row(rows, Model="LSP_ρ"), "test MELA")
    moved = [r for r in rows if REGRESSOR_OF.search(str(r.get("Model", "")))]
    if not moved:
        raise Missing(
            "Table 4 has no LSP_ρ with another corpus's regressor (hm2017.transfer: that corpus's run writes it)"
        )
    source = REGRESSOR_OF.search(moved[0]["Model"]).group(1).strip()
    if source == on:
        raise SameRun(
            f"the transferred regressor is {source}'s own: hm2017.pairs and hm2017.transfer name no other corpus"
        )
    other = value(moved[0], "test MELA")
    return Verdict(
        HELD if other >= own else NOT_HELD, f"{other:.2f} vs {own:.2f} ({other - own:+.2f})", f"regressor of {source}"
    )


CLAIMS = [
    Claim(
        "hm2017",
        "The regressor predicts MELA (Table 1, SCC %)",
        "SCC 99.68, 99.70; MSE 2.65, 2.48",
        ("paper/hm2017/table1",),
        hm_regressor,
        key="regressor",
    ),
    Claim(
        "hm2017",
        "LSP_ρ's gain over LSP_F grows as features are removed (Fig. 3, test MELA)",
        "+0.90 with 1M features, +0.32 with all 16.8M; largest near 10K",
        ("paper/hm2017/curve",),
        hm_fewer_features,
        key="fewer_features",
    ),
    Claim(
        "hm2017",
        "LSP_ρ beats LSP_F and LSP_YJ on a harder corpus (Table 4, test MELA)",
        "Arabic: 37.91 vs 33.19 (LSP_F), 28.51 (LSP_YJ)",
        ("paper/hm2017/table4",),
        hm_harder_corpus,
        key="harder_corpus",
    ),
    Claim(
        "hm2017",
        "A regressor learned on another corpus works as well (Table 4, LSP^EN_ρ)",
        "Arabic: 39.56 vs 37.91 with its own",
        ("paper/hm2017/table4",),
        hm_transfer,
        key="transfer",
    ),
]
