"""The targets of the benchmark records (`bench/results/<name>.json`), as the report reads them: an `Anchor`
judges every number of a record whose quantity matches, a `Headline` picks a record's one row of the
performance table. The core's are in coreflab.report.performance; a paper brings those of its own
benchmarks (`Paper.bench_anchors`, `Paper.bench_headlines`). Imports nothing heavy, so a paper's
package may build them at import."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Anchor:
    """A target: rows of `benchmark` whose quantity fully matches `pattern` must be `op value`.

    `json_key`: a (dotted) key of the same JSON whose number, when present, replaces `value`
    (the JSON is the fresher statement of its own target).
    """

    benchmark: str
    pattern: str
    op: str
    value: float
    text: str
    json_key: str = ""


@dataclass(frozen=True)
class Headline:
    """The row of the benchmark records whose name (file stem) fully matches `benchmark`.

    `key`: the dotted key of the measure (list items by index), or a function of the record.
    `target`: a number, or a dotted key of the record holding it; `op` says which side meets it.
    `reference`: what the measure is compared with, a number or a key (`reference_text` names it).
    `{corpus}`-style fields of `measure` are filled from the record's own top-level values.
    """

    benchmark: str
    measure: str
    key: object
    op: str = ""
    target: object = None
    reference: object = None
    reference_text: str = ""
