"""The official scorer's text output, line for line, so scripts that parse it keep working.

v8.01 (`scorer.pl all KEY RESPONSE none`) prints per metric a `METRIC name:` header and a
TOTALS block; each figure line is ShowRPF's
  `Recall: (num / den) r%<TAB>Precision: (num / den) p%<TAB>F1: f%`
followed by a dashed rule. Numbers are perl's default stringification (`%.15g`) and the
percentages are truncated, not rounded, to two decimals (`int(x * 10000) / 100`).
BLANC prints the coreference-link line, the non-coreference-link line and `BLANC:` with
its (R / 1), (P / 1) values. We add one line `MELA (CoNLL F1): x` at the end.

`scorer_pl_text` is what scorer.pl itself prints for `<metric> KEY RESPONSE none`: its
`version:` line (CorScorer.pm prints it on loading), the `METRIC name:` headers only for
`all` (scorer.pl prints them in its loop over the five metrics; `Score` of one metric does
not), `all` meaning scorer.pl's five metrics (no LEA), and no MELA line.
"""

import math

from coreflab.metrics.scorer import MELA_METRICS, prf_from_sums

RULE = "-" * 74
ORDER = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea")
SCORER_PL_ALL = ("muc", "bcub", "ceafm", "ceafe", "blanc")  # scorer.pl's `all`, in its order
SCORER_PL_VERSION = "version: 8.01 coreflab"  # scorer.pl: "version: 8.01 <path of its CorScorer.pm>"


def perl_number(x):
    """perl's print of a number: integers plainly, floats with 15 significant digits."""
    x = float(x)
    if x == int(x) and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.15g}"


def _percent(x):
    return perl_number(math.trunc(x * 10000) / 100)


def show_rpf(nr, dr, np_, dp, f1=None):
    """perl ShowRPF: the figure line and its rule (two lines, no trailing newline)."""
    p = np_ / dp if dp else 0.0
    r = nr / dr if dr else 0.0
    if f1 is None:
        f1 = 2 * p * r / (p + r) if (r + p) else 0.0
    line = (
        f"Recall: ({perl_number(nr)} / {perl_number(dr)}) {_percent(r)}%"
        f"\tPrecision: ({perl_number(np_)} / {perl_number(dp)}) {_percent(p)}%"
        f"\tF1: {_percent(f1)}%"
    )
    return line + "\n" + RULE


def metric_block(scores, metric, rows=None, header=True):
    """`METRIC name:` header (unless header is False) and the TOTALS block of one metric, as v8.01 prints them."""
    pick = (lambda m: scores.totals(m)) if rows is None else (lambda m: scores.per_doc[m][rows])
    ment = pick("mentions")
    out = [f"METRIC {metric}:", ""] if header else []
    out += ["====== TOTALS =======", "Identification of Mentions: " + show_rpf(*ment)]
    s = pick(metric)
    if metric == "blanc":
        out += ["", "Coreference:", *figure_lines(metric, s)]
    else:
        out.append("Coreference: " + figure_lines(metric, s)[0])
    return "\n".join(out)


def figure_lines(metric, sums):
    """A metric's figure lines from its sums: one ShowRPF line (and rule), or BLANC's three."""
    if metric != "blanc":
        return [show_rpf(*sums)]
    r, p, f = (float(x) for x in prf_from_sums("blanc", sums))
    return [
        "Coreference links: " + show_rpf(*sums[:4]),
        "Non-coreference links: " + show_rpf(*sums[4:]),
        "BLANC: " + show_rpf(r, 1, p, 1, f),
    ]


def format_text(scores, per_doc=False):
    """The whole text report: per-document blocks (optional), then the totals."""
    metrics = [m for m in ORDER if m in scores.per_doc]
    parts = []
    if per_doc:
        for i, (doc_id, part) in enumerate(scores.doc_keys):
            parts.append(f"{doc_id}; part {part:03d}:")
            parts += ["", *(metric_block(scores, m, rows=i) for m in metrics)]
            if all(m in scores.per_doc for m in MELA_METRICS):
                mela = sum(float(prf_from_sums(m, scores.per_doc[m][i])[2]) for m in MELA_METRICS) / 3
                parts.append(f"MELA (CoNLL F1): {100 * mela:.2f}")
            parts.append("")
    for m in metrics:
        parts += ["", metric_block(scores, m)]
    if all(m in scores.per_doc for m in MELA_METRICS):
        parts.append(f"MELA (CoNLL F1): {scores.mela:.2f}")
    return "\n".join(parts) + "\n"


def entity_listing(name, clusters):
    """What v8.01's GetCoreference prints for one document at the scorer's verbosity (2): `====> name:`,
    `File name:`, then `Entity e:` and the token span of each of its mentions, entities in reading order.
    For a document the file lacks (clusters None) it prints both lines with an empty name."""
    if clusters is None:
        return ["====> :", "File :"]
    entities = [f"Entity {e}:" + "".join(f" ({s},{t})" for s, t in c) for e, c in enumerate(clusters)]
    return [f"====> {name}:", f"File {name}:", *entities]


def document_block(scores, metric, row, name, listing=None, named=False):
    """One document's lines as scorer.pl prints them before its totals: the entity listings of key and
    response (`listing`: (key clusters, response clusters), as `entity_listing` takes them), the document's
    name, its mention counts and, except for BLANC, the metric's figure line (no TOTALS header, so that a
    script reading the first TOTALS block reads the totals). As v8.01 does, a document named on the command
    line (`named`) has its name printed before the listings, and BLANC's loop over every document prints
    an empty name."""
    exact, key_mentions, _, response_mentions = (int(x) for x in scores.per_doc["mentions"][row])
    out = [f"{name}:"] if named else []
    if listing is not None:
        out += entity_listing(name, listing[0]) + entity_listing(name, listing[1])
    if not named:
        out.append(":" if metric == "blanc" else f"{name}:")
    out += [
        f"Total key mentions: {key_mentions}",
        f"Total response mentions: {response_mentions}",
        f"Strictly correct identified mentions: {exact}",
        "Partially correct identified mentions: 0",
        f"No identified: {key_mentions - exact}",
        f"Invented: {response_mentions - exact}",
    ]
    if metric != "blanc":
        out += figure_lines(metric, scores.per_doc[metric][row])
    return "\n".join(out)


def scorer_pl_text(scores, metric, per_doc=False, names=None, listings=None, named=False):
    """scorer.pl's own output for `<metric> KEY RESPONSE [NAME]` (metric: one name or 'all'): per
    metric, with per_doc each document's block (`document_block`; names: (doc_id, part) -> the
    document's `#begin document` rest, by default `(id); part NNN`; listings: (doc_id, part) -> the
    key's and the response's clusters; named: one document named on the command line), then one
    TOTALS block."""
    metrics = list(SCORER_PL_ALL) if metric == "all" else [metric]
    listings = listings or {}
    keys = list(scores.doc_keys)
    names = [(names or {}).get(k, f"({k[0]}); part {k[1]:03d}") for k in keys]
    parts = [SCORER_PL_VERSION]
    for m in metrics:
        if metric == "all":
            parts += ["", f"METRIC {m}:"]
        if per_doc:
            parts += [
                document_block(scores, m, i, name, listings.get(k), named)
                for i, (k, name) in enumerate(zip(keys, names))
            ]
        parts += ["", metric_block(scores, m, header=False)]
    return "\n".join(parts) + "\n"
