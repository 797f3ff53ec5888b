"""The claims of Choi & Cardie 2007 on the findings scorecard (docs/findings.md), each with the rule that
decides it from the paper's result tables (coreflab.report.findings reads them and renders the page)."""

from coreflab.report.findings import HELD, NOT_HELD, PARTLY, Claim, Missing, Verdict, count_verdict, row, value


def cc_error(t):
    """Table 1, pairwise error (e%) of BASE and SLT (closest) before and after single-link clustering:
    held when clustering raises BASE's error, lowers SLT's and leaves SLT's below BASE's; not held when
    SLT's error after clustering is not below BASE's; partly otherwise."""
    rows = t["paper/cc2007/table1"]
    base_b = value(row(rows, system="BASE", clustering="before"), "e%")
    base_a = value(row(rows, system="BASE", clustering="after"), "e%")
    slt_b = value(row(rows, system="SLT (closest)", clustering="before"), "e%")
    slt_a = value(row(rows, system="SLT (closest)", clustering="after"), "e%")
    if slt_a >= base_a:
        verdict = NOT_HELD
    else:
        verdict = HELD if base_a > base_b and slt_a < slt_b else PARTLY
    return Verdict(verdict, f"e% BASE {base_b:.2f} → {base_a:.2f}, SLT {slt_b:.2f} → {slt_a:.2f}")


def cc_bias_recall(t):
    """Table 2, pairwise recall before clustering: held when every biased BASE setting has a higher recall
    than BASE, partly when some do, not held when none does."""
    rows = t["paper/cc2007/table2"]
    base = row(rows, system="BASE")
    biased = [r for r in rows if str(r.get("system", "")).startswith("BASE,")]
    recall = value(base, "pair R")
    hits = sum(value(r, "pair R") > recall for r in biased)
    top = max(biased, key=lambda r: value(r, "pair R")) if biased else None
    verdict = count_verdict(hits, len(biased))
    setting = top["system"].split(",", 1)[1].strip()
    ours = f"pair R {recall:.2f} → {value(top, 'pair R'):.2f} ({setting})"
    return Verdict(
        verdict,
        ours,
        f"{hits} of {len(biased)} settings; pair P {value(base, 'pair P'):.2f} → {value(top, 'pair P'):.2f}",
    )


def cc_bias_slt(t):
    """Table 3 (with BASE from Table 1): the best MUC F1 of SLT (closest) with a biased potential, against SLT
    (closest) alone and BASE after clustering: held above both, partly above one, not held above neither."""
    rows = t["paper/cc2007/table3"]
    slt = row(rows, system="SLT (closest)")
    biased = [r for r in rows if str(r.get("system", "")).startswith("SLT (closest),")]
    if not biased:
        raise Missing("no biased SLT row")
    top = max(biased, key=lambda r: value(r, "MUC F"))
    base = value(row(t["paper/cc2007/table1"], system="BASE", clustering="after"), "MUC F")
    muc, muc_slt = value(top, "MUC F"), value(slt, "MUC F")
    verdict = [NOT_HELD, PARTLY, HELD][(muc > muc_slt) + (muc > base)]
    setting = top["system"].split(",", 1)[1].strip()
    ours = f"MUC F {muc_slt:.2f} → {muc:.2f} ({setting}); BASE {base:.2f}"
    return Verdict(verdict, ours, f"pair F {value(slt, 'pair F'):.2f} → {value(top, 'pair F'):.2f}")


CLAIMS = [
    Claim(
        "cc2007",
        "Clustering raises BASE's pairwise error and lowers SLT's (Table 1, e%)",
        "SLT's error 3.5% lower than BASE's (MUC-6), ≈ 1% (MPQA)",
        ("paper/cc2007/table1",),
        cc_error,
        key="error",
    ),
    Claim(
        "cc2007",
        "Biased potentials raise pairwise recall (Table 2, before clustering)",
        "recall up in every setting, precision down",
        ("paper/cc2007/table2",),
        cc_bias_recall,
        key="bias_recall",
    ),
    Claim(
        "cc2007",
        "SLT with biased potentials gives the best MUC F1 (Table 3)",
        "MUC F1 +3.5 on one data set, slightly lower on the other; pair F1 +0.8–5.5",
        ("paper/cc2007/table3", "paper/cc2007/table1"),
        cc_bias_slt,
        key="bias_slt",
    ),
]
