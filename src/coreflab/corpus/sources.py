"""Corpus sources: one name per corpus, one call to get a split as Documents.

The workflow runs unchanged on any corpus (`snakemake --configfile config/<corpus>.yaml`)
because every corpus enters through the same door: `SOURCES[name].load_split(split,
options)`, where `options` is the config mapping `corpora.<name>`. Each source states the
option keys it reads (for the config schema and for error messages).

Sources: `synth` (the embedded synthetic generator), `litbank`, `gum`, `ontogum` (open
corpora: `local_dir` or a pinned download, see `download.py`) and `conll2012` (a user's
own licensed release).
"""

import dataclasses
from dataclasses import dataclass

from coreflab.errors import UserError

SPLITS = ("train", "dev", "test")


@dataclass(frozen=True)
class Source:
    """A corpus: `load_split(split, options, resources_dir=None) -> list[Document]`."""

    name: str
    description: str
    options: dict  # option key -> (default, meaning)
    loader: object

    def load_split(self, split, options=None, resources_dir=None):
        if split not in SPLITS:
            raise UserError(f"split {split!r}; expected one of {', '.join(SPLITS)}")
        merged = {key: default for key, (default, _) in self.options.items()}
        merged.update({k: v for k, v in (options or {}).items() if v is not None})
        return self.loader(self.name, split, merged, resources_dir)


def _synth(name, split, options, resources_dir):
    from coreflab.corpus.synthetic.generator import generate_corpus

    kwargs = {k: options[k] for k in ("size", "seed", "knobs") if options.get(k) is not None}
    return list(generate_corpus(**kwargs)[split])


def _litbank(name, split, options, resources_dir):
    from coreflab.corpus.download import corpus_root
    from coreflab.corpus.readers.litbank import load_litbank

    return load_litbank(corpus_root(name, options, resources_dir), split, fold=options["fold"])


def _gum(name, split, options, resources_dir):
    from coreflab.corpus.download import corpus_root
    from coreflab.corpus.readers.gum import load_gum

    root = corpus_root(name, options, resources_dir)
    include = _as_bool(options["include_reddit"], f"corpora.{name}.include_reddit")
    errata = _as_bool(options["apply_errata"], f"corpora.{name}.apply_errata")
    return load_gum(root, [split], scheme=name, include_reddit=include, apply_errata=errata)[split]


def _conll2012(name, split, options, resources_dir):
    from coreflab.corpus.readers.conll2012_release import load_conll2012_release

    return load_conll2012_release(options.get("local_dir"), split, options["language"], options["annotation"])


def _as_bool(value, key):
    if isinstance(value, bool):
        return value
    if str(value).lower() in ("true", "yes", "1"):
        return True
    if str(value).lower() in ("false", "no", "0"):
        return False
    raise UserError(f"{key} = {value!r}; expected true or false")


_LOCAL = (None, "existing copy to read instead of downloading")
_PINS = {
    "commit": (None, "override the pinned commit of the corpus archive"),
    "url": (None, "override the archive URL (e.g. a mirror)"),
}

SOURCES = {
    "synth": Source(
        "synth",
        "embedded synthetic corpus (coreflab.corpus.synthetic.generator)",
        {"size": (None, "corpus size"), "seed": (None, "generator seed"), "knobs": (None, "generator knobs")},
        _synth,
    ),
    "litbank": Source(
        "litbank",
        "LitBank coreference, 10-fold splits of Bamman et al. 2020",
        {
            "local_dir": _LOCAL,
            "fold": (0, "cross-validation fold 0-9"),
            **_PINS,
            "splits_commit": (None, "override the pinned commit of dbamman/lrec2020-coref"),
        },
        _litbank,
    ),
    "gum": Source(
        "gum",
        "GUM coreference, native scheme (singletons included), official split",
        {
            "local_dir": _LOCAL,
            "include_reddit": (False, "include GUM_reddit_* (needs restored text)"),
            "apply_errata": (False, "repair the known errors of the pinned release (gum.ERRATA)"),
            **_PINS,
        },
        _gum,
    ),
    "ontogum": Source(
        "ontogum",
        "OntoGUM coreference, OntoNotes scheme, official split",
        {
            "local_dir": _LOCAL,
            "include_reddit": (False, "include GUM_reddit_* (needs restored text)"),
            "apply_errata": (False, "repair the known errors of the pinned release (gum.ERRATA)"),
            **_PINS,
        },
        _gum,
    ),
    "conll2012": Source(
        "conll2012",
        "a user's own CoNLL-2012 release (official directory layout)",
        {
            "local_dir": (None, "release root holding data/{train,development,test}"),
            "language": ("english", "english, chinese or arabic"),
            "annotation": ("gold", "gold or auto columns"),
        },
        _conll2012,
    ),
}


# A second synthetic corpus with its own knobs (harder by default in config.yaml): the
# "second corpus" of Haponchyk & Moschitti's Table 4 when no real corpus is configured.
SOURCES["synth_hard"] = dataclasses.replace(SOURCES["synth"], name="synth_hard")


def available_sources():
    """The source names, sorted (for error messages and the config schema)."""
    return sorted(SOURCES)


def get_source(name):
    """The source called `name`, or a UserError listing the available ones."""
    try:
        return SOURCES[name]
    except KeyError:
        raise UserError(f"unknown corpus source {name!r}; available: {', '.join(available_sources())}") from None


def load_split(name, split, options=None, resources_dir=None):
    """Shortcut: the documents of one split of corpus `name`."""
    return get_source(name).load_split(split, options, resources_dir)
