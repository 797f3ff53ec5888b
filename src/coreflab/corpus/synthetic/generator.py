"""The embedded synthetic corpus: realistic coreference documents from a seed, no download.

Why: the default workflow must run on a fresh machine, and the papers' findings
(local vs non-local features, Björkelund & Kuhn 2014; Ma et al. 2014 L3M; ...) need
a corpus where those differences can show. The generator writes full CoNLL-2012
(POS, parse bits of generated trees, lemma, speaker, NE, one args column, coref).

What a document contains (each rate a knob, `DEFAULT_KNOBS`):
  * entities with kind (person, org, place, object), gender, number, names and a
    nominal descriptor; a salience process (recency-decayed weights) chooses which
    entity each NP slot mentions, and `synthetic_entities.Realiser` words it as a full
    name, surname, first name, title + surname, agreeing pronoun ("they" for some
    organisations), definite nominal (sometimes with another head: "the firm" for
    "the company"), apposition (NP -> NP , NP) or possessive; subjects tend to stay
    the topic (Centering) while a same-gender rival is the nearer candidate;
  * quoted speech with "I"/"you" for speaker/addressee and speaker changes (speaker
    column = the speaker's name inside quotes), and dialogue documents (bc/tc genres)
    where every sentence is a speaker turn;
  * distractors: persons sharing a surname, objects sharing a head noun, "another
    report" NPs, one-off entities mentioned once;
  * non-referential NPs: pleonastic "it" ("It was clear that ..."), generic NPs
    ("the economy", "last year"); they are NP constituents, so predicted mentions
    from the parse bits are noisy, as on OntoNotes;
  * the non-local case: "[Tom Baker] met [the doctor]. [He] ..." where "the doctor"
    (gender-ambiguous, the nearest compatible candidate of "He") belongs to a cluster
    whose gender only an earlier name ("Mary Jones") fixes.

As in CoNLL-2012, entities mentioned once are not annotated (no singletons in the key).
Sizes (`SIZES`): tiny 12/4/4 documents (tests); default 200/50/50 (~76k tokens, ~40
gold mentions per document); conll2012 2,802/343/348 (~1.22M tokens, mean ~54 gold
mentions per document, median ~39, longest ~630). Calibration (seed 0-4, default size,
gold mentions): the string-match baseline scores about 55-59 MELA.
Documents are named `<genre>/synth/<split>/<nnnn>`, part 0. Each document draws from its
own `numpy.random.default_rng([seed, split, index])`, so the corpus is deterministic
for a seed and a document does not change when the corpus size changes.
"""

import math

import numpy as np

from coreflab.corpus.synthetic.discourse import DocumentGenerator, Rand
from coreflab.errors import UserError

SPLITS = ("train", "dev", "test")

# docs per split; sentences per document ~ lognormal(mean, sigma) (long tail, like OntoNotes)
SIZES = {
    "tiny": {"docs": (12, 4, 4), "sentences_mean": 8.0, "sentences_sigma": 0.25},
    "default": {"docs": (200, 50, 50), "sentences_mean": 16.0, "sentences_sigma": 0.6},
    "conll2012": {"docs": (2802, 343, 348), "sentences_mean": 23.0, "sentences_sigma": 0.8},
}

DEFAULT_KNOBS = {
    "pronoun_rate": 0.35,  # P(pronoun) for an entity mentioned within `pronoun_reach` sentences
    "pronoun_reach": 3,  # an entity last mentioned at most this many sentences back may be a pronoun
    "org_they_rate": 0.3,  # P(an organisation's pronoun is "they", as in "Acme said they ...")
    "nominal_rate": 0.7,  # P(definite nominal) for a later non-pronominal mention
    "first_name_rate": 0.2,  # P(a later name mention is the first name only: "Mary")
    "synonym_rate": 0.5,  # P(a later nominal uses another head: "the firm" for "the company")
    "topic_continuity": 0.3,  # P(a clause keeps the previous clause's subject as its subject)
    "same_gender_rate": 0.5,  # P(a new person has the previous one's gender); P(a same-gender object)
    "ambiguous_nominal_rate": 0.7,  # share of persons whose descriptor hides gender ("the doctor")
    "apposition_rate": 0.25,  # P(apposition) at a person's first mention
    "distractor_rate": 0.7,  # P(new entity shares surname / head noun); P("another <head>")
    "quote_rate": 0.2,  # P(a sentence is quoted speech)
    "pleonastic_it_rate": 0.05,  # P(a sentence has non-referential "it")
    "generic_np_rate": 0.35,  # P(a PP or object slot holds a generic, non-referential NP)
    "nonlocal_rate": 0.15,  # P(a sentence sets up the non-local pronoun case, when possible)
    "singleton_rate": 0.1,  # P(an NP slot holds a one-off entity, never mentioned again)
    "entities_per_sentence": 1.1,  # entities planned per sentence of a document
    "plural_rate": 0.12,  # share of plural persons (groups) and objects
    "dialogue_rate": 0.25,  # share of dialogue documents (genres bc, tc)
    "doc_length_scale": 1.0,  # multiplies the document lengths of the size
}
_POSITIVE_KNOBS = {"entities_per_sentence", "doc_length_scale"}
_INTEGER_KNOBS = {"pronoun_reach": (0, 10)}

GENRES_TEXT = ("nw", "bn", "mz", "wb", "pt")
GENRES_DIALOGUE = ("bc", "tc")


def resolve_knobs(knobs=None):
    """DEFAULT_KNOBS overridden by `knobs`; unknown names and bad values are UserErrors."""
    out = dict(DEFAULT_KNOBS)
    for name, value in (knobs or {}).items():
        if name not in DEFAULT_KNOBS:
            raise UserError(
                f"unknown synthetic corpus knob {name!r}; expected one of {', '.join(sorted(DEFAULT_KNOBS))}"
            )
        try:
            value = float(value)
        except (TypeError, ValueError):
            raise UserError(f"synthetic corpus knob {name!r}: expected a number, got {value!r}") from None
        if name in _INTEGER_KNOBS:
            lo, hi = _INTEGER_KNOBS[name]
            if value != int(value) or not lo <= value <= hi:
                raise UserError(f"synthetic corpus knob {name!r}: expected an integer in [{lo}, {hi}], got {value}")
            value = int(value)
        elif name in _POSITIVE_KNOBS:
            if not (value > 0 and math.isfinite(value)):
                raise UserError(f"synthetic corpus knob {name!r}: expected a positive number, got {value}")
        elif not 0.0 <= value <= 1.0:
            raise UserError(f"synthetic corpus knob {name!r}: expected a probability in [0, 1], got {value}")
        out[name] = value
    return out


def generate_corpus(size="default", seed=0, knobs=None):
    """{"train": [...], "dev": [...], "test": [...]} of Documents for a size name and seed."""
    if size not in SIZES:
        raise UserError(f"unknown synthetic corpus size {size!r}; expected one of {', '.join(SIZES)}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise UserError(f"synthetic corpus seed must be a non-negative integer, got {seed!r}")
    k = resolve_knobs(knobs)
    spec = SIZES[size]
    return {
        split: [generate_document(int(seed), si, i, spec, k, split) for i in range(spec["docs"][si])]
        for si, split in enumerate(SPLITS)
    }


def generate_document(seed, split_index, index, spec, knobs, split="train"):
    """Document `index` of a split: its own random stream, so it never depends on the others.
    `spec` is a SIZES entry, `knobs` resolved knobs (see `resolve_knobs`)."""
    rng = np.random.default_rng([seed, split_index, index])
    sigma = spec["sentences_sigma"]
    mu = math.log(spec["sentences_mean"] * knobs["doc_length_scale"]) - sigma * sigma / 2
    n_sent = max(3, int(round(rng.lognormal(mu, sigma))))
    rnd = Rand(rng)
    dialogue = rnd.chance(knobs["dialogue_rate"])
    genre = rnd.pick(GENRES_DIALOGUE if dialogue else GENRES_TEXT)
    sb = DocumentGenerator(rnd, knobs, n_sent, dialogue).run()
    return sb.finish(f"{genre}/synth/{split}/{index:04d}")
