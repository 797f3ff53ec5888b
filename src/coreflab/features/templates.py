"""The registry of local feature templates (Björkelund & Kuhn 2014 §6.1; Björkelund &
Farkas 2012 for the template inventory).

A template maps an arc (anaphor j, antecedent i or the root m0) to an integer value, or
to "no value" (-1: no feature on that arc). Every template is one of four kinds, which
is what the extraction kernel dispatches on:

- `ana`   an attribute of the anaphor (a column of the mention table),
- `ante`  an attribute of the antecedent (the root has type R = 0 and nothing else),
- `pair`  a relation between both (distance, match, agreement; no value on root arcs),
- `const` the bias (always 0).

Anaphor-only templates (`ana`, `const`, and conjunctions of those) emit their feature on
the root arc only, with a root marker: on the non-root arcs of one anaphor they would
add the same weight to every candidate and never change a decision, so the root arc
(the "new cluster" vs "anaphoric" contrast) is the only place they carry information.
Their conjunctions with `ante`/`pair` templates fire on every arc where both have a value.

A conjunction is written `a+b` or `a+b+c` (two or three registered templates: B&K's
English set conjoins e.g. both pronoun forms with same-speaker, or both mention types with
a string-match kind); its value is the tuple, hashed value by value into one id with the
anaphor-side values first (so `ante_type+ana_type` = `ana_type+ante_type` values under a
different template key). Lexical conjunctions (head × head, span × span) hash their
integer string ids: no Python object per string or per arc, and an unseen pair of
strings is just another hashed id.
A template needing an attribute listed in `CompiledCorpus.missing` ("pos", "parse",
"speaker", "ne", "genre") is unavailable for that corpus: `resolve` reports it with
the reason and leaves it out; it never crashes.
"""

from dataclasses import dataclass

import numpy as np

from coreflab.errors import UserError
from coreflab.features.hashing import template_key
from coreflab.features.mention_table import COL, COLUMNS

K_ANA, K_ANTE, K_PAIR, K_CONST = 0, 1, 2, 3

# pair operations (arg of K_PAIR templates), implemented in kernels.pair_values
(
    P_SENT_DIST,
    P_MENT_DIST,
    P_EXACT,
    P_HEAD_MATCH,
    P_SUBSTRING,
    P_HEAD_CONTAINED,
    P_ALIAS,
    P_GENDER_AGREE,
    P_NUMBER_AGREE,
    P_NESTED,
    P_SAME_SPEAKER,
    P_MATCH_KIND,
    P_SENT_PATHS,
) = range(13)
MAX_PARTS = 3  # templates per conjunction


@dataclass(frozen=True)
class Template:
    name: str
    kind: int
    arg: int
    requires: tuple
    doc: str


REGISTRY = {}


def _register(name, kind, arg, requires=(), doc=""):
    REGISTRY[name] = Template(name, kind, arg, tuple(requires), doc)


_register("bias", K_CONST, 0, doc="constant (on root arcs: the root bias)")

# mention attributes, for the anaphor (ana_) and the antecedent (ante_)
_MENTION_ATTRS = [
    ("type", "type", (), "mention type R/P/N/C (0/1/2/3)"),
    ("gender", "gender", (), "gender code (0 unknown, 1 male, 2 female, 3 neuter)"),
    ("number", "number", (), "number code (0 unknown, 1 singular, 2 plural)"),
    ("ne", "ne", ("ne",), "named-entity type"),
    ("head", "head", (), "lower-cased head word"),
    ("head_pos", "head_pos", ("pos",), "POS of the head word"),
    ("first", "first", (), "first word"),
    ("last", "last", (), "last word"),
    ("full", "full", (), "lower-cased full string"),
    ("prev", "prev", (), "preceding token in the sentence (or sentence start)"),
    ("next", "next", (), "following token in the sentence (or sentence end)"),
    ("length", "length", (), "length in tokens, bucketed 0-4, <8, <12, <20, rest"),
    ("pronoun", "pronoun", (), "pronoun form (no value for non-pronouns)"),
    ("category", "category", ("parse",), "CFG category of the constituent"),
    ("subcategory", "subcategory", ("parse",), "CFG labels of the constituent's children"),
    ("path_root", "path_root", ("parse",), "CFG path from the constituent to the root"),
    ("path_s", "path_s", ("parse",), "CFG path up to the nearest S"),
    ("embedded", "embedded", (), "1 if inside another mention, else 0"),
    ("speaker", "speaker", ("speaker",), "speaker of the head token"),
    ("quote", "quote", (), "1 if the head is inside quotation marks, else 0"),
    ("coord", "coord", (), "1 contains and/or/nor, 2 next to one (a conjunct), 0 neither"),
    ("verb", "verb", ("pos",), "nearest verb of the sentence outside the mention (lower-cased)"),
    ("short_full", "short_full", (), "lower-cased full string of mentions of at most 4 tokens"),
    ("fine_type", "fine_type", (), "fine type (cort): NAM, DEF/DEM/INDEF, pronoun citation form, PRO"),
]
for _attr, _col, _req, _doc in _MENTION_ATTRS:
    _register(f"ana_{_attr}", K_ANA, COL[_col], _req, f"anaphor: {_doc}")
    _register(f"ante_{_attr}", K_ANTE, COL[_col], _req, f"antecedent: {_doc}")
_register("genre", K_ANA, COL["genre"], ("genre",), "document genre")

_register("sent_dist", K_PAIR, P_SENT_DIST, (), "sentence distance, bucketed")
_register("ment_dist", K_PAIR, P_MENT_DIST, (), "mention distance, bucketed")
_register("exact_match", K_PAIR, P_EXACT, (), "same lower-cased full string (1/0)")
_register("head_match", K_PAIR, P_HEAD_MATCH, (), "same lower-cased head word (1/0)")
_register("substring_match", K_PAIR, P_SUBSTRING, (), "one mention's token sequence is contained in the other's (1/0)")
_register(
    "head_contained", K_PAIR, P_HEAD_CONTAINED, (), "1 anaphor head among antecedent words, 2 the converse, 0 neither"
)
_register(
    "alias", K_PAIR, P_ALIAS, (), "1 acronym of the other (DEI ~ Drug Emporium Inc.), 2 names sharing last word, 0 no"
)
_register("gender_agree", K_PAIR, P_GENDER_AGREE, (), "1 agree, 0 disagree, 2 either unknown")
_register("number_agree", K_PAIR, P_NUMBER_AGREE, (), "1 agree, 0 disagree, 2 either unknown")
_register(
    "nested",
    K_PAIR,
    P_NESTED,
    (),
    "0 disjoint, 1 antecedent contains anaphor, 2 anaphor contains antecedent, 3 overlap",
)
_register("same_speaker", K_PAIR, P_SAME_SPEAKER, ("speaker",), "same speaker of the heads (1/0)")
_register(
    "match_kind",
    K_PAIR,
    P_MATCH_KIND,
    (),
    '"clever" string match: 1 same string, 2 same without determiners/possessives/'
    "punctuation, 3 same head, 4 one head among the other's words, 0 none",
)
_register(
    "sent_paths",
    K_PAIR,
    P_SENT_PATHS,
    ("parse",),
    "same sentence: both constituents' CFG paths to the root (the tree path between "
    "them up to repeated labels); other sentences: one value",
)


def split_entry(entry):
    """Parts of a feature-set entry: "a+b" → ["a", "b"]; "a" → ["a"]."""
    return [p.strip() for p in str(entry).split("+")]


N_PAIR_OPS = 13
CONST_COL = -2  # an anaphor-side component with the constant value 0 (bias)


@dataclass
class ResolvedTemplates:
    """Numeric form of a list of templates, what the kernels take.

    Components are split into the anaphor side (ana_* columns, bias) and the rest
    (ante_* columns as `slot` = column, pair operations as `slot` = n_cols + op). The
    hash folds the anaphor-side values first, then the others in the order written, so
    the anaphor prefix is computed once per mention, not once per arc."""

    names: list  # usable entries, in order
    unavailable: dict  # entry -> reason
    key: np.ndarray  # uint64[T]: template_key(entry)
    n_ana: np.ndarray  # int32[T]
    ana_col: np.ndarray  # int32[T, MAX_PARTS]: mention-table column, or CONST_COL
    n_oth: np.ndarray  # int32[T]
    oth_slot: np.ndarray  # int32[T, MAX_PARTS]
    used_ops: np.ndarray  # int32[k]: pair operations some entry uses

    @property
    def root_only(self):
        return self.n_oth == 0


def resolve(entries, missing=(), n_cols=None):
    """Resolve entries (names, `a+b` or `a+b+c`) against a corpus's missing attributes.

    Unknown names raise `UserError`; unavailable ones are returned with the reason."""
    n_cols = len(COLUMNS) if n_cols is None else n_cols
    missing = set(missing)
    names, unavailable, rows = [], {}, []
    for entry in entries:
        parts = split_entry(entry)
        if not 1 <= len(parts) <= MAX_PARTS:
            raise UserError(f"feature template {entry!r}: a conjunction joins at most three templates (a+b+c)")
        for p in parts:
            if p not in REGISTRY:
                raise UserError(f"unknown feature template {p!r} in {entry!r}")
        reasons = [
            f"{p} needs '{r}', which the corpus lacks" for p in parts for r in REGISTRY[p].requires if r in missing
        ]
        if reasons:
            unavailable[entry] = "; ".join(reasons)
            continue
        names.append(entry)
        rows.append([REGISTRY[p] for p in parts])
    T = len(rows)
    key = np.zeros(T, dtype=np.uint64)
    n_ana = np.zeros(T, dtype=np.int32)
    ana_col = np.full((T, MAX_PARTS), CONST_COL, dtype=np.int32)
    n_oth = np.zeros(T, dtype=np.int32)
    oth_slot = np.zeros((T, MAX_PARTS), dtype=np.int32)
    ops = set()
    for t, (entry, tpls) in enumerate(zip(names, rows)):
        key[t] = template_key(entry)
        for tp in tpls:
            if tp.kind in (K_ANA, K_CONST):
                ana_col[t, n_ana[t]] = tp.arg if tp.kind == K_ANA else CONST_COL
                n_ana[t] += 1
            else:
                oth_slot[t, n_oth[t]] = tp.arg if tp.kind == K_ANTE else n_cols + tp.arg
                n_oth[t] += 1
                if tp.kind == K_PAIR:
                    ops.add(tp.arg)
    used = np.array(sorted(ops), dtype=np.int32)
    return ResolvedTemplates(names, unavailable, key, n_ana, ana_col, n_oth, oth_slot, used)


__all__ = ["REGISTRY", "Template", "resolve", "ResolvedTemplates", "split_entry", "MAX_PARTS"]
