"""The compiled corpus: one split as flat numpy arrays, the only thing numba kernels see.

One row per mention, sorted by document then (start, end); `doc_mention_offsets` index
the rows of each document and `doc_token_offsets` the tokens. Strings are integer ids
into one vocabulary (`vocab`), so templates hash integers, never Python strings.
Attributes a corpus lacks are -1 everywhere and named in `missing` (templates that
need them are reported unavailable, never crash).

Codes (shared by every module):
  m_type    1 pronoun (P), 2 name (N), 3 common noun phrase (C); 0 is the root m0 (R)
  m_gender  0 unknown, 1 male, 2 female, 3 neuter
  m_number  0 unknown, 1 singular, 2 plural
  m_ne      0 none, else an id into `vocab` of the NE label
"""

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

TYPE_ROOT, TYPE_PRONOUN, TYPE_NAME, TYPE_COMMON = 0, 1, 2, 3
TYPE_LETTERS = "RPNC"
GENDER_UNKNOWN, GENDER_MALE, GENDER_FEMALE, GENDER_NEUTER = 0, 1, 2, 3
NUMBER_UNKNOWN, NUMBER_SINGULAR, NUMBER_PLURAL = 0, 1, 2

# Array fields, each with its dtype; the save/load round trip is driven by this table.
ARRAY_FIELDS = {
    # documents
    "doc_parts": np.int32,
    "doc_genre": np.int32,  # vocab id of the genre (OntoNotes bc/bn/nw/...), -1 unknown
    "doc_mention_offsets": np.int64,
    "doc_token_offsets": np.int64,
    "doc_sentence_offsets": np.int64,
    # sentences (global index): exclusive token end within the document
    "sent_end": np.int32,
    # tokens (global index)
    "tok_word": np.int32,
    "tok_lower": np.int32,
    "tok_pos": np.int32,
    "tok_speaker": np.int32,
    "tok_sentence": np.int32,  # sentence index within the document
    # mentions (global row); positions are token indices within the document
    "m_doc": np.int32,
    "m_start": np.int32,
    "m_end": np.int32,  # inclusive
    "m_head": np.int32,
    "m_sentence": np.int32,
    "m_type": np.int8,
    "m_gender": np.int8,
    "m_number": np.int8,
    "m_ne": np.int32,
    "m_head_str": np.int32,  # lower-cased head word
    "m_first_str": np.int32,
    "m_last_str": np.int32,
    "m_full_str": np.int32,  # lower-cased full mention string
    "m_pronoun": np.int32,  # lower-cased pronoun form, -1 if not a pronoun
    "m_category": np.int32,  # CFG label of the mention's constituent (-1 no parse)
    "m_subcategory": np.int32,  # labels of its children joined (-1 no parse)
    "m_path_root": np.int32,  # labels from the constituent to the root (-1 no parse)
    "m_path_s": np.int32,  # labels up to the nearest S (-1 no parse)
    "m_embedded": np.int32,  # row of the smallest enclosing mention of the document, -1 none
    "m_cluster": np.int32,  # gold cluster id within the document (twinless predicted mentions get
    #                         a fresh singleton id), -1 when the split has no key
    "m_in_key": np.int8,  # 1 if the span is a mention of the gold key, else 0
}
# Arrays only some splits have: the mention classifier's probability that a predicted mention is an
# entity of the key (`coreflab.corpus.mention_model`), which the `entities` singleton policy reads.
OPTIONAL_ARRAY_FIELDS = {"m_entity": np.float32}


_DTYPES = {**ARRAY_FIELDS, **OPTIONAL_ARRAY_FIELDS}
_TEXT_FIELDS = ("singleton_policy", "mention_mode", "parses")


@dataclass
class CompiledCorpus:
    """A split of a corpus as flat arrays (see module docstring for codes)."""

    name: str
    split: str
    doc_ids: list
    vocab: list
    missing: list = field(default_factory=list)
    arrays: dict = field(default_factory=dict)
    # Do responses on this corpus keep one-mention clusters? Decided once per corpus by `coreflab prepare`
    # (the config's keep/drop, or auto: whether the training key annotates singletons), so that every split
    # and every step scores by one convention. None: not recorded (older files, hand-built splits): each
    # step decides from the key it scores against.
    response_singletons: bool | None = None
    # The singleton policy behind it (`coreflab.corpus.singletons`: keep, drop or entities) and the
    # mentions and parses the split was compiled with (gold / predicted; gold / auto / none), which
    # captions name. None: not recorded.
    singleton_policy: str | None = None
    mention_mode: str | None = None
    parses: str | None = None

    def __getattr__(self, key):
        arrays = self.__dict__.get("arrays", {})
        if key in arrays:
            return arrays[key]
        raise AttributeError(key)

    @property
    def n_docs(self):
        return len(self.doc_ids)

    @property
    def n_mentions(self):
        return int(self.arrays["m_doc"].shape[0])

    def doc_rows(self, d):
        """Row range [lo, hi) of document d's mentions."""
        off = self.arrays["doc_mention_offsets"]
        return int(off[d]), int(off[d + 1])

    def string(self, idx):
        return self.vocab[idx] if idx >= 0 else None

    def save(self, path):
        """Save as one .npz (atomic: written to a temporary name, then renamed)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.tmp.npz")
        np.savez_compressed(
            tmp,
            _name=np.array(self.name),
            _split=np.array(self.split),
            _doc_ids=np.array(self.doc_ids, dtype=str),
            _vocab=np.array(self.vocab, dtype=str),
            _missing=np.array(self.missing, dtype=str),
            _response_singletons=np.array(
                -1 if self.response_singletons is None else int(self.response_singletons), dtype=np.int8
            ),
            _singleton_policy=np.array(self.singleton_policy or ""),
            _mention_mode=np.array(self.mention_mode or ""),
            _parses=np.array(self.parses or ""),
            **{k: np.asarray(v, dtype=_DTYPES[k]) for k, v in self.arrays.items()},
        )
        tmp.replace(path)

    @classmethod
    def load(cls, path):
        with np.load(path, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files if not k.startswith("_")}
            recorded = int(z["_response_singletons"]) if "_response_singletons" in z.files else -1
            text = {k: (str(z[f"_{k}"]) or None) if f"_{k}" in z.files else None for k in _TEXT_FIELDS}
            return cls(
                name=str(z["_name"]),
                split=str(z["_split"]),
                doc_ids=[str(x) for x in z["_doc_ids"]],
                vocab=[str(x) for x in z["_vocab"]],
                missing=[str(x) for x in z["_missing"]],
                arrays=arrays,
                response_singletons=None if recorded < 0 else bool(recorded),
                **text,
            )


__all__ = [
    "CompiledCorpus",
    "ARRAY_FIELDS",
    "OPTIONAL_ARRAY_FIELDS",
    "TYPE_ROOT",
    "TYPE_PRONOUN",
    "TYPE_NAME",
    "TYPE_COMMON",
    "TYPE_LETTERS",
]
