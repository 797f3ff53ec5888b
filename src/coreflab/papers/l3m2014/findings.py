"""The claims of Samdani, Chang & Roth 2014 on the findings scorecard (docs/findings.md), each with the rule that
decides it from the paper's result tables (coreflab.report.findings reads them and renders the page)."""

import re

from coreflab.report.findings import (
    CAPTIONS,
    CORPORA,
    CORPUS,
    HELD,
    NOT_HELD,
    PARTLY,
    Claim,
    Missing,
    OwnData,
    Verdict,
    count_verdict,
    number,
    optional,
    row,
    value,
)

L3M, L3M_GAMMA0 = "L3M (tuned γ)", "L3M (γ = 0)"
L3M_RIVALS = ("Corr-Clustering", "Spanning Forest", "Sum-Link", "Bin-Left-Link")


def _settings(rows):
    out = []
    for r in rows:
        s = str(r.get("setting", "")).strip()
        if s and s not in out:
            out.append(s)
    return out


def l3m_best(t):
    """Table 1, test AVG: L3M (tuned γ) above Corr-Clustering, Spanning Forest, Sum-Link and Bin-Left-Link
    after one pass and after the tuned passes (held: both settings; partly: one)."""
    rows = t["paper/l3m2014/table1"]
    parts, hits = [], 0
    settings = _settings(rows)
    for s in settings:
        ours = value(row(rows, technique=L3M, setting=s), "AVG")
        rival = max((row(rows, technique=n, setting=s) for n in L3M_RIVALS), key=lambda r: value(r, "AVG"))
        hits += ours > value(rival, "AVG")
        parts.append(f"{s} {ours:.2f} vs {value(rival, 'AVG'):.2f} ({rival['technique']})")
    return Verdict(count_verdict(hits, len(settings)), "; ".join(parts))


def l3m_gamma(t):
    """Table 1, test AVG of L3M with tuned γ minus γ = 0 in each setting: held when ahead in every setting
    (a tie where γ = 0 was chosen counts as ahead), partly in some, not held in none."""
    rows = t["paper/l3m2014/table1"]
    settings, parts, hits = _settings(rows), [], 0
    for s in settings:
        tuned, zero = row(rows, technique=L3M, setting=s), row(rows, technique=L3M_GAMMA0, setting=s)
        gain = value(tuned, "AVG") - value(zero, "AVG")
        gamma = optional(tuned, "gamma")
        hits += gain > 0 or (gain == 0 and gamma == 0)
        parts.append(f"{s} {gain:+.2f}" + (f" (γ = {gamma:g})" if gamma is not None else ""))
    return Verdict(count_verdict(hits, len(settings)), "; ".join(parts))


ROBUST_SD = 0.17  # the paper's standard deviation of AVG over 30 random starts (ACE 2004 training data)


def l3m_robustness(t):
    """Standard deviation of training AVG over random N(0, sd²) starts: held up to twice the paper's 0.17,
    partly up to one AVG point, not held above. The paper leaves the scale open; a start far above the scale
    of what one pass learns measures the start, not SGD, so where the table has starts drawn at the learned
    weights' RMS (`AVG std (learned scale)`) the verdict reads that spread, with the configured one beside
    it; tables without it read `AVG std` (starts of sd 1)."""
    rows = t["paper/l3m2014/robustness"]
    if not rows:
        raise Missing("no robustness rows")
    r = row(rows, split="train") if "split" in rows[0] else rows[0]
    mean, sd = value(r, "AVG mean"), value(r, "AVG std")
    runs, zero = optional(r, "runs"), optional(r, "AVG (zero init)")
    init, learned = optional(r, "init sd"), optional(r, "learned RMS")
    at_learned = optional(r, "AVG std (learned scale)")
    judged = at_learned if at_learned is not None else sd
    verdict = HELD if judged <= 2 * ROBUST_SD else PARTLY if judged <= 1.0 else NOT_HELD
    evidence = f"{int(runs)} random starts" if runs else "random starts"
    if at_learned is not None:
        ours = f"sd {at_learned:.2f} from starts at the learned RMS {learned:.3g}; {sd:.2f} from sd {init:g}"
    else:
        ours = f"{mean:.2f} ± {sd:.2f}"
        evidence += f" of sd {init:g}" if init is not None else " of sd 1"
    if zero is not None:
        evidence += f"; zero start {zero:.2f}"
    return Verdict(verdict, ours, evidence)


CCCP_MARGIN = 0.002  # the paper's "less than 0.2%"
# L3M Table 2 and CCCP vs SGD on 20 Newsgroups posts (results/doccluster/): one column of its own
NEWSGROUPS = OwnData("doccluster", "20 Newsgroups")
ON_NEWSGROUPS = re.compile(r"\bon 20 Newsgroups\b")


def l3m_cccp(t):
    """CCCP vs SGD: the paper found CCCP better by less than 0.2% (relative) at far more time. Held when
    CCCP's training-data quality (VI lower or MELA higher; in older tables the objective, lower) is at least
    SGD's but within CCCP_MARGIN of it and SGD takes less time; partly when SGD is faster and only one of
    the two quality parts holds (CCCP better by more, or worse); else not held."""
    rows = t["paper/l3m2014/cccp_vs_sgd"]
    on_newsgroups = bool(ON_NEWSGROUPS.search(t.get(CAPTIONS, {}).get("paper/l3m2014/cccp_vs_sgd", ""))) or any(
        "20 Newsgroups" in str(r.get("data", "")) for r in rows
    )
    if on_newsgroups and t.get(CORPUS) != NEWSGROUPS.folder:
        raise Missing("this table ran on 20 Newsgroups, not on this corpus (see the 20 Newsgroups column)")
    cccp, sgd = row(rows, method="CCCP"), row(rows, method="SGD")
    quality = [c for c in cccp if c.startswith("train ") and not c.endswith(" std")]
    if quality:
        col = quality[0]
        lower_better = "VI" in col
        what = col[len("train ") :]
    else:
        col, lower_better, what = "objective", True, "objective"
    q_c, q_s = value(cccp, col), value(sgd, col)
    better = q_c <= q_s if lower_better else q_c >= q_s
    close = abs(q_c - q_s) <= CCCP_MARGIN * abs(q_s)
    s_c, s_s = value(cccp, "seconds"), value(sgd, "seconds")
    ratio = optional(cccp, "× SGD time")  # exact where the seconds are printed rounded (SGD: 0.00 s)
    ratio = ratio if ratio is not None else (s_c / s_s if s_s > 0 else None)
    faster = ratio > 1 if ratio is not None else s_s < s_c
    verdict = HELD if better and close and faster else PARTLY if faster and (better or close) else NOT_HELD
    ours = f"{what} {q_c:.2f} vs {q_s:.2f}; {s_c:.2f} s vs {s_s:.2f} s"
    return Verdict(verdict, ours, f"SGD {ratio:,.0f}× faster" if ratio is not None else "")


ORDER_DROP = 1.0  # AVG points: a third of the paper's ≈ 3


def l3m_order(t):
    """Order control: the AVG drop with items shuffled, per online technique: held when every technique
    drops by at least one AVG point, partly when some do, not held when none does."""
    rows = [r for r in t["paper/l3m2014/order_control"] if number(r.get("drop (AVG)")) is not None]
    hits = sum(value(r, "drop (AVG)") >= ORDER_DROP for r in rows)
    drops = ", ".join(f"{r['technique']} {value(r, 'drop (AVG)'):.2f}" for r in rows)
    return Verdict(count_verdict(hits, len(rows)), f"drop {drops}", f"{hits} of {len(rows)} drop ≥ {ORDER_DROP:g}")


def l3m_newsgroups(t):
    """Table 2 (20 Newsgroups), VI ×100: held when L3M (tuned γ) has the lowest VI in every author and
    thread column (1 pass and more), partly in some, not held in none."""
    rows = [r for r in t["paper/l3m2014/table2_vi"] if not str(r.get("technique", "")).startswith("every post")]
    ours = row(rows, technique=L3M)
    columns = [c for c in ours if c.startswith(("author VI", "thread VI")) and number(ours.get(c)) is not None]
    hits, first = 0, ""
    for c in columns:
        others = [value(r, c) for r in rows if r is not ours and number(r.get(c)) is not None]
        if not others:
            continue
        hits += value(ours, c) < min(others)
        first = first or f"{c} {value(ours, c):.2f} vs ≥ {min(others):.2f}"
    return Verdict(count_verdict(hits, len(columns)), first, f"lowest in {hits} of {len(columns)} columns")


# the paragraph after its scorecard table: a caution on the order-control row
NOTE = (
    "Order control's L3M (γ = 0) row is fragile: its online updates turn on near-ties that float rounding decides, so\n"
    "its shuffled AVG moves by several points with the order in which an arc's features are summed (a flat store or\n"
    "shared rows, the same features). Weigh that row's drop against that spread, not against zero."
)

CLAIMS = [
    Claim(
        "l3m2014",
        "L3M with tuned γ beats the other techniques (Table 1, test AVG)",
        "79.83 vs ≤ 78.71 (ACE 2004), 77.18 vs ≤ 74.12 (OntoNotes)",
        ("paper/l3m2014/table1",),
        l3m_best,
        key="best",
    ),
    Claim(
        "l3m2014",
        "Tuning γ beats γ = 0 (Table 1, test AVG)",
        "+0.6–0.7 AVG (but ACE 1 pass, where γ = 0 was chosen)",
        ("paper/l3m2014/table1",),
        l3m_gamma,
        key="gamma",
    ),
    Claim(
        "l3m2014",
        "SGD is robust to random starts (training AVG, sd)",
        "72.11 ± 0.17 over 30 starts (ACE 2004)",
        ("paper/l3m2014/robustness",),
        l3m_robustness,
        key="robustness",
    ),
    Claim(
        "l3m2014",
        "CCCP slightly better than SGD, SGD far faster",
        "VI < 0.2% lower; SGD ≈ 10,000× faster",
        ("paper/l3m2014/cccp_vs_sgd",),
        l3m_cccp,
        key="cccp",
        on=(CORPORA, NEWSGROUPS),
    ),
    Claim(
        "l3m2014",
        "Shuffling the items costs the online techniques (order control, AVG)",
        "≈ 3 AVG points (ACE 2004)",
        ("paper/l3m2014/order_control",),
        l3m_order,
        key="order",
    ),
    Claim(
        "l3m2014",
        "L3M has the lowest VI on 20 Newsgroups (Table 2)",
        "author 132.12 vs ≥ 133.09; topic 235.59 vs ≥ 240.69",
        ("paper/l3m2014/table2_vi",),
        l3m_newsgroups,
        key="newsgroups",
        on=(NEWSGROUPS,),
    ),
]
