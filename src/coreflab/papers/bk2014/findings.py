"""The claims of Björkelund & Kuhn 2014 on the findings scorecard (docs/findings.md), each with the rule that
decides it from the paper's result tables (coreflab.report.findings reads them and renders the page)."""

from coreflab.report.findings import (
    HELD,
    NOT_HELD,
    PARTLY,
    Claim,
    Missing,
    SameRun,
    Verdict,
    number,
    optional,
    p_text,
    row,
    value,
)


def bk_nonlocal(t):
    """Table 1, dev MELA of delayed LaSO: held when non-local is ahead and the gain is significant, partly when
    ahead (with the seed mean above 0) but not significantly, else not held. With retrained seeds the test is
    theirs (the seed mean more than two standard errors above 0): the bootstrap holds the two models fixed and
    does not see the spread of retraining; without seeds it is the bootstrap's p < 0.05."""
    rows = t["paper/bk2014/table1"]
    local = value(row(rows, features="local"), "MELA")
    nonlocal_ = value(row(rows, features="nonlocal"), "MELA")
    diff = row(rows, features="difference")
    gain = nonlocal_ - local
    p = optional(diff, "p (bootstrap)")
    seeds, mean = optional(diff, "seeds"), optional(diff, "MELA seed mean")
    sd, se = optional(diff, "MELA seed sd"), optional(diff, "MELA seed se")
    with_seeds = seeds is not None and seeds >= 2 and mean is not None
    evidence = [p_text(diff)]
    if with_seeds:
        ahead = str(diff.get("non-local ahead") or "").strip()
        spread = [f"sd {sd:.2f}" if sd is not None else "", f"se {se:.2f}" if se is not None else ""]
        spread = ", ".join(x for x in spread if x) + (f"; {ahead} ahead" if ahead else "")
        evidence.append(f"{int(seeds)} seeds {mean:+.2f}" + (f" ({spread})" if spread else ""))
    if with_seeds and se is not None:
        significant = mean - 2 * se > 0
    else:
        significant = p is not None and p < 0.05
    if gain > 0 and (not with_seeds or mean > 0):
        verdict = HELD if significant else PARTLY
    else:
        verdict = NOT_HELD
    same = all(optional(diff, c) == 0 for c in ("MUC F", "B3 F", "CEAFe F", "MELA")) and not sd
    if same:  # the non-local run is the local one: selection found no non-local template that helped on dev
        raise SameRun("the two runs are one: template selection kept no non-local template")
    return Verdict(verdict, f"{nonlocal_:.2f} vs {local:.2f} ({gain:+.2f})", "; ".join(e for e in evidence if e))


def bk_best_system(t):
    """Table 2: non-local delayed LaSO first on the leaderboard and significantly above every other system
    (held); first or tied with the first, not significantly (partly); significantly below the first (not held)."""
    rows = [r for r in t["leaderboard"] if number(r.get("MELA")) is not None]
    ours_row = row(rows, system="delayed LaSO")
    # the first: highest MELA, a tie going to the better rank (the row the others' p-values are against)
    best = max(rows, key=lambda r: (value(r, "MELA"), -(number(r.get("rank")) or 0)))
    others = [r for r in rows if r is not ours_row]
    if not others:
        raise Missing("no other system")
    mela = value(ours_row, "MELA")
    if best is ours_row:
        weakest = max(others, key=lambda r: optional(r, "p (bootstrap)") or 0.0)
        p = optional(weakest, "p (bootstrap)")
        if p is not None and p < 0.05:
            return Verdict(HELD, f"{mela:.2f}, first", "every other system " + p_text(weakest).replace("=", "≤"))
        return Verdict(
            PARTLY, f"{mela:.2f}, first", f"{weakest['system']} {value(weakest, 'MELA'):.2f} at {p_text(weakest)}"
        )
    p = optional(ours_row, "p (bootstrap)")
    verdict = NOT_HELD if p is not None and p < 0.05 else PARTLY
    return Verdict(verdict, f"{mela:.2f} vs {value(best, 'MELA'):.2f} ({best['system']}, first)", p_text(ours_row))


CLAIMS = [
    Claim(
        "bk2014",
        "Non-local features beat local ones (Table 1, delayed LaSO, dev MELA)",
        "≈ +1 CoNLL avg on dev (Arabic, English; less for Chinese), every metric up",
        ("paper/bk2014/table1",),
        bk_nonlocal,
        key="nonlocal",
    ),
    Claim(
        "bk2014",
        "Non-local delayed LaSO is the best system (Table 2, test MELA)",
        "best CoNLL avg of the systems compared, all three languages",
        ("leaderboard",),
        bk_best_system,
        key="best_system",
    ),
    Claim(
        "bk2014",
        "Delayed LaSO ≥ LaSO ≥ early update; early update below the baseline (Figs. 3–4)",
        "English dev curves, beams 20 and 100",
        note="drawn from the per-run dev curves (`paper/bk2014/runs/`), which no page cites as a table",
    ),
]
