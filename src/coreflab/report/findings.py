"""The findings scorecard: each claim of the registered papers, decided on each corpus that was run.

A `Claim` says what a paper claims, the paper's own number, which result tables decide it
(paths under results/<corpus>/, without .csv or .md) and a function that turns those tables
into a `Verdict`: held, partly or not held, with our number and the evidence (p-value, seed
spread, or the margin where a table has neither). Each paper's claims live in its folder
(`coreflab.papers.<paper>.findings`, `Paper.claims`); a `Scorecard` holds the core's and theirs.

`render(snapshot_dir, card, paper)` is the `{{ findings PAPER }}` directive of the docs templates: a
Markdown table with one row per claim and one column per corpus in the snapshot (docs/numbers/),
so `snakemake docs` re-decides every claim from fresh results. A corpus without a claim's tables
shows "not run". Tables are read from their CSV, or from their Markdown copy where a page
cites only that (both are written by `write_table`; the Markdown prints 2 decimals).
"""

import csv
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from coreflab.report.io import format_p
from coreflab.report.style_names import system_name

HELD, PARTLY, NOT_HELD, NOT_RUN = "held", "partly", "not held", "not run"
VERDICTS = (HELD, PARTLY, NOT_HELD, NOT_RUN)
NAME_COLUMNS = ("system", "technique", "Model", "method")

# corpus folder -> column header (and its results page); other folders follow, by name
CORPUS_LABELS = {
    "synth": "[synth](results-synth.md)",
    "litbank": "[LitBank](results-litbank.md)",
    "gum": "[GUM](results-gum.md)",
    "conll2012": "[CoNLL-2012](results-conll2012.md)",
    "gum_predicted": "[GUM, predicted mentions](results-gum_predicted.md)",
    "conll2012_predicted": "[CoNLL-2012, predicted mentions](results-conll2012_predicted.md)",
}
NOT_CORPORA = {"bench"}  # snapshot folders that hold no corpus (besides the claims' own data, `OwnData`)
CORPORA = "corpus"  # a claim's `on`: decided on every within-document coreference corpus
NOT_APPLICABLE = "—"  # a claim the column's data cannot decide (not counted in the tally)


class Missing(Exception):
    """A table, row or column a claim needs is not there: the claim was not run on that corpus."""


class SameRun(Missing):
    """The two sides of a comparison come from one run (same inputs, same model): nothing was compared,
    so the claim is not run there, never held (the message says why)."""


@dataclass(frozen=True)
class Verdict:
    verdict: str
    ours: str = ""
    evidence: str = ""

    def cell(self):
        if self.verdict == NOT_RUN:
            return f"*{NOT_RUN}*: {self.evidence}" if self.evidence else f"*{NOT_RUN}*"
        text = f"**{self.verdict}** {self.ours}".strip()
        return f"{text}; {self.evidence}" if self.evidence else text


@dataclass(frozen=True)
class OwnData:
    """Data a paper's experiment runs on that is no coreference corpus of the run (a claim's `on`): its
    snapshot folder and column header; with `split_by`, one column per value of that field of the claim's
    first table (e.g. its corpora), headed by `labels` ((value, header) pairs) or the value."""

    folder: str
    label: str
    split_by: str = ""
    labels: tuple = ()

    def header(self, value):
        return dict(self.labels).get(value, value)


@dataclass(frozen=True)
class Claim:
    """One claim of a paper and how a corpus's result tables decide it (`decide` None: not scored, see `note`)."""

    paper: str
    statement: str
    paper_number: str
    tables: tuple = ()
    decide: Optional[Callable] = None
    note: str = ""
    key: str = ""  # short name, for `{{ verdict PAPER KEY CORPUS }}` on a results page
    on: tuple = (CORPORA,)  # the data it is decided on: CORPORA (coreference corpora) and/or OwnData

    def applies(self, data):
        """Whether the claim can be decided on a column's data (an OwnData, or None: a corpus)."""
        return (CORPORA if data is None else data) in self.on

    def own_data(self):
        return tuple(d for d in self.on if isinstance(d, OwnData))

    def evaluate(self, snapshot_dir, corpus, column=None, split_by="corpus"):
        """The verdict on one folder of the snapshot (`column`: a value of its tables' `split_by` field,
        whose rows alone decide it). Not run, with the reason, when a table is missing or its two sides
        are one run."""
        try:
            tables = {name: read_table(Path(snapshot_dir) / corpus / name) for name in self.tables}
            if column is not None:
                tables = {n: [r for r in rows if r.get(split_by) == column] for n, rows in tables.items()}
            tables[CORPUS] = corpus
            tables[CAPTIONS] = {name: caption(Path(snapshot_dir) / corpus / name) for name in self.tables}
            return self.decide(tables)
        except SameRun as why:
            return Verdict(NOT_RUN, evidence=str(why))
        except Missing as why:
            return Verdict(NOT_RUN, evidence=not_run_reason(snapshot_dir, corpus, self, str(why)))


CORPUS, CAPTIONS = "corpus", "captions"  # the folder a claim is decided on, and its tables' captions


def not_run_reason(snapshot_dir, corpus, claim, missing):
    """Why a corpus has no table for a claim, from what the snapshot holds: the paper ran with the other
    mentions on this corpus (`paper_mentions`), it is not among the run's papers, or a table or row is missing."""
    root = Path(snapshot_dir)
    if not (root / corpus).is_dir():
        return "no results for this corpus"
    paper_tables = [t for t in claim.tables if t.startswith("paper/")]
    if paper_tables and not (root / corpus / "paper" / claim.paper).is_dir():
        gold = corpus[: -len("_predicted")] if corpus.endswith("_predicted") else None
        other = gold or f"{corpus}_predicted"
        mode = "gold" if gold else "predicted"
        if (root / other / "paper" / claim.paper).is_dir():
            return f"the snapshot has this paper on this corpus with {mode} mentions only (no run of it here)"
        return "the paper is not in this corpus's run (run.papers)"
    return missing


# ---- reading tables ---------------------------------------------------------------------------


def read_table(stem):
    """Rows (dicts of text) of `stem`.csv, else of the Markdown table in `stem`.md; system names as the papers print them."""
    stem = Path(stem)
    if stem.with_suffix(".csv").is_file():
        with open(stem.with_suffix(".csv"), newline="", encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
    elif stem.with_suffix(".md").is_file():
        rows = parse_markdown_table(stem.with_suffix(".md").read_text(encoding="utf-8"))
    else:
        raise Missing(f"no {stem.parent.name}/{stem.name} table")
    for r in rows:
        for col in NAME_COLUMNS:
            if r.get(col):
                r[col] = system_name(r[col].strip())
    return rows


def caption(stem):
    """The caption of `stem`.md (its text before the table; '' without a Markdown copy)."""
    md = Path(stem).with_suffix(".md")
    if not md.is_file():
        return ""
    text = md.read_text(encoding="utf-8")
    if text.lstrip().startswith("|"):
        return ""
    return " ".join(text.split("\n|", 1)[0].split())


def parse_markdown_table(text):
    """Rows of the pipe table in a Markdown text (the caption line before it is skipped)."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip().startswith("|")]
    if len(lines) < 2:
        return []

    def cells(line):
        return [c.strip() for c in line.strip("|").split("|")]

    header = cells(lines[0])
    return [dict(zip(header, cells(ln))) for ln in lines[2:]]


def number(text):
    """A cell as a float ('*' and '†' marks dropped, '< 0.001' read as 0.001); None when blank."""
    text = str(text or "").replace("*", "").replace("†", "").replace(",", "").strip()
    if not text or text.lower() == "nan":
        return None
    try:
        return float(text.lstrip("<").strip())
    except ValueError:
        return None


def row(rows, **where):
    """The first row whose columns equal `where`; Missing when none does."""
    for r in rows:
        if all(str(r.get(k, "")).strip() == v for k, v in where.items()):
            return r
    raise Missing(f"no row {where}")


def value(r, *columns):
    """The number in the first of `columns` the row has; Missing when none has one."""
    for c in columns:
        v = number(r.get(c))
        if v is not None:
            return v
    raise Missing(f"no value in {columns}")


def optional(r, column):
    return number(r.get(column))


def p_text(r, column="p (bootstrap)"):
    """'p = 0.015' / 'p < 0.001' from a p column (number or formatted text); '' when blank."""
    raw = str(r.get(column) or "").strip()
    if not raw:
        return ""
    if raw.startswith("<"):
        return f"p {raw}"
    return f"p = {format_p(float(raw))}" if number(raw) is not None and number(raw) >= 0.001 else "p < 0.001"


def count_verdict(hits, total):
    """held when every case holds, not held when none does, partly in between."""
    if total == 0:
        raise Missing("no cases")
    return HELD if hits == total else NOT_HELD if hits == 0 else PARTLY


# ---- every paper: the leaderboard -------------------------------------------------------------


RULE_SYSTEMS = ("string match", "sieve")  # leaderboard systems that learn nothing


def learned_beats_rules(t):
    """The best learned system above the best rule system on the leaderboard (the multi-pass sieve or string
    match, whichever scores higher): held when the leaderboard's bootstrap says so (p < 0.05), partly when ahead
    without it, not held when not ahead. The evidence names string match's margin as a second line."""
    rows = [r for r in t["leaderboard"] if number(r.get("MELA")) is not None]
    rules = [r for r in rows if r.get("system") in RULE_SYSTEMS]
    learned = [r for r in rows if r.get("system") not in RULE_SYSTEMS]
    if not rules:
        raise Missing("no rule system on the leaderboard")
    if not learned:
        raise Missing("no learned system")
    best = max(learned, key=lambda r: value(r, "MELA"))
    rule = max(rules, key=lambda r: value(r, "MELA"))
    margin = value(best, "MELA") - value(rule, "MELA")
    p = optional(rule, "p (bootstrap)")
    verdict = NOT_HELD if margin <= 0 else HELD if p is not None and p < 0.05 else PARTLY
    ours = f"{value(best, 'MELA'):.2f} ({best['system']}) vs {value(rule, 'MELA'):.2f} ({rule['system']})"
    evidence = [p_text(rule)] if margin > 0 else []
    other = [r for r in rules if r is not rule]
    if other:
        evidence.append(f"{other[0]['system']} {value(other[0], 'MELA'):.2f}")
    return Verdict(verdict, ours, "; ".join(e for e in evidence if e))


# ---- the claims of the core ------------------------------------------------------------------

LEADERBOARD = "leaderboard"
CORE_TITLES = {LEADERBOARD: "Every paper: a learned model beats the rules"}
CORE_CLAIMS = {
    LEADERBOARD: [
        Claim(
            LEADERBOARD,
            "The best learned system beats the best rule system (leaderboard, test MELA)",
            "the premise of all five (Singh: +16 B3 F1 over string match)",
            ("leaderboard",),
            learned_beats_rules,
            key="learned_beats_rules",
        ),
    ],
}


@dataclass(frozen=True)
class Scorecard:
    """The claims the page decides, {group: [Claim]} in page order, and each group's heading: the core's
    and the registered papers' (`Paper.claims`, `Paper.findings_note`), put together by the `docs` verb."""

    claims: dict
    titles: dict
    intros: dict = field(default_factory=dict)  # group -> a paragraph before its table
    notes: dict = field(default_factory=dict)  # group -> a paragraph after its table
    papers: tuple = ()  # the groups `{{ findings papers }}` renders, in order: the registered papers

    def of(self, paper):
        """A group's claims: none for a group without any (a paper with no claims yet)."""
        return self.claims.get(paper, [])

    def title(self, paper):
        return self.titles.get(paper, paper)

    def all_claims(self):
        return [c for claims in self.claims.values() for c in claims]


# ---- the page ---------------------------------------------------------------------------------


def corpora(snapshot_dir, claims=()):
    """Within-document corpus folders of the snapshot (not a folder of the claims' own data): the known
    ones in page order, then the others by name."""
    root = Path(snapshot_dir)
    own = {d.folder for c in claims for d in c.own_data()}
    found = [
        p.name
        for p in root.iterdir()
        if p.is_dir()
        and p.name not in NOT_CORPORA | own
        and ((p / "leaderboard.csv").is_file() or (p / "paper").is_dir())
    ]
    order = {c: i for i, c in enumerate(CORPUS_LABELS)}
    return sorted(found, key=lambda c: (order.get(c, len(order)), c))


def split_values(snapshot_dir, data, claims):
    """The values of `data.split_by` in the first table of the claims on `data`, in table order."""
    tables = [t for c in claims if data in c.on for t in c.tables]
    try:
        rows = read_table(Path(snapshot_dir) / data.folder / tables[0]) if tables else []
    except Missing:
        return []
    return list(dict.fromkeys(r[data.split_by] for r in rows if r.get(data.split_by)))


def columns(snapshot_dir, claims, every=()):
    """(header, snapshot folder, split value or None, OwnData or None) of each column of a group's table:
    the corpora when a claim is decided on them, then each own data a claim is decided on (a column per
    split value, or one when its folder is in the snapshot). every: all registered claims (whose own
    data folders are no corpus)."""
    cols = []
    if any(CORPORA in c.on for c in claims):
        cols += [(CORPUS_LABELS.get(c, c), c, None, None) for c in corpora(snapshot_dir, [*claims, *every])]
    for data in dict.fromkeys(d for c in claims for d in c.own_data()):
        if data.split_by:
            found = split_values(snapshot_dir, data, claims)
            cols += [(data.header(v), data.folder, v, data) for v in found] or [(data.label, data.folder, None, data)]
        elif (Path(snapshot_dir) / data.folder).is_dir():
            cols.append((data.label, data.folder, None, data))
    return cols


def _cell_text(text):
    return str(text).replace("|", "/").replace("\n", " ")


def verdicts(snapshot_dir, claims, every=(), cols=None):
    """{claim statement: [Verdict per column]} of a group's scored claims (`cols`: its `columns`, when
    the caller has them already)."""
    cols = columns(snapshot_dir, claims, every) if cols is None else cols
    out = {}
    for claim in claims:
        if claim.decide is None:
            continue
        out[claim.statement] = [_decide(claim, snapshot_dir, folder, value, data) for _, folder, value, data in cols]
    return out


def _decide(claim, snapshot_dir, folder, value, data):
    """A claim's Verdict on one column; None where the column's data cannot decide it (not counted)."""
    if not claim.applies(data):
        return None
    if data is not None and data.split_by and not value:
        return Verdict(NOT_RUN, evidence=f"no {data.label} data in the snapshot")
    return claim.evaluate(snapshot_dir, folder, value, data.split_by if data is not None else None)


def claim_by_key(card, paper, key):
    """The claim `key` of `paper` (KeyError naming the known keys)."""
    for claim in card.of(paper):
        if claim.key == key:
            return claim
    known = ", ".join(c.key for c in card.of(paper) if c.key)
    raise KeyError(f"no claim {key!r} of {paper!r}; claims: {known}")


def verdict_word(snapshot_dir, card, paper, key, corpus, column=None):
    """The bold verdict word of one claim on one corpus, for a results page's prose (`{{ verdict … }}`)."""
    claim = claim_by_key(card, paper, key)
    data = next((d for d in claim.own_data() if d.folder == corpus), None)
    v = _decide(claim, snapshot_dir, corpus, column, data)
    if v is None:
        raise KeyError(f"claim {paper} {key} is not decided on {corpus}")
    return f"*{NOT_RUN}*" if v.verdict == NOT_RUN else f"**{v.verdict}**"


PAPERS = "papers"  # `{{ findings papers }}`: every registered paper's section


def sections(snapshot_dir, card, groups):
    """Markdown of groups' scorecards, each under its title, between its intro and its note where it has them."""
    out = []
    for p in groups:
        parts = [f"## {card.title(p)}", card.intros.get(p), render(snapshot_dir, card, p), card.notes.get(p)]
        out.append("\n\n".join(part for part in parts if part))
    return "\n\n".join(out)


def render(snapshot_dir, card, paper=None):
    """Markdown of one group's scorecard (or every group's, under headings; `papers`: the registered papers',
    under headings; `summary`: the verdict counts). A group without claims is one line saying so."""
    if paper == "summary":
        return summary(snapshot_dir, card)
    if paper is None:
        return sections(snapshot_dir, card, card.claims)
    if paper == PAPERS:
        return sections(snapshot_dir, card, card.papers)
    claims = card.of(paper)
    if not claims:
        return f"No claims of {card.title(paper)} are scored."
    every = card.all_claims()
    cols = columns(snapshot_dir, claims, every)
    decided = verdicts(snapshot_dir, claims, cols=cols)
    lines = [
        "| claim | paper | " + " | ".join(h for h, *_ in cols) + " |",
        "|" + "---|" * (2 + len(cols)),
    ]
    for claim in claims:
        if claim.decide is None:
            continue
        cells = [claim.statement, claim.paper_number]
        cells += [NOT_APPLICABLE if v is None else v.cell() for v in decided[claim.statement]]
        lines.append("| " + " | ".join(_cell_text(c) for c in cells) + " |")
    unscored = [c for c in claims if c.decide is None]
    text = "\n".join(lines)
    if unscored:
        text += "\n\n" + "\n".join(f"Not scored: {c.statement} (paper: {c.paper_number}); {c.note}." for c in unscored)
    return text


def summary(snapshot_dir, card):
    """One line: how many cells of every table hold, partly hold, do not hold, were not run."""
    counts = dict.fromkeys(VERDICTS, 0)
    every = card.all_claims()
    for claims in card.claims.values():
        for cells in verdicts(snapshot_dir, claims, every).values():
            for v in cells:
                if v is not None:
                    counts[v.verdict] += 1
    return ", ".join(f"{n} {v}" for v, n in counts.items())


__all__ = [
    "Claim",
    "Verdict",
    "Scorecard",
    "CORE_CLAIMS",
    "CORE_TITLES",
    "VERDICTS",
    "SameRun",
    "read_table",
    "render",
    "summary",
    "verdicts",
    "verdict_word",
    "corpora",
]
