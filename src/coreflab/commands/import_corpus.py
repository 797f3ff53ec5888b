"""`coreflab import`: one split of any corpus source, written as normalised CoNLL-2012.

This is the entry point of every real corpus into the workflow: whatever the source format
(LitBank's 13 columns, GUM's three layers, a CoNLL-2012 release), the output is one
validated CoNLL-2012 file per split that the later steps read like the synthetic corpus.
Options come from `--configfile` (its `corpora.<name>` mapping) and `--option key=value`
(which wins); values are read as YAML scalars (`fold=3` is an integer).
"""

import difflib
import json
from pathlib import Path

import yaml

from coreflab.corpus.readers.conll import write_conll
from coreflab.corpus.sources import SPLITS, available_sources, get_source
from coreflab.errors import UserError


def add_arguments(parser):
    parser.add_argument("--corpus", required=True, help=f"source name: {', '.join(available_sources())}")
    parser.add_argument("--split", required=True, choices=SPLITS)
    parser.add_argument("--out", required=True, type=Path, help="output CoNLL-2012 file (written atomically)")
    parser.add_argument("--configfile", type=Path, help="YAML config whose corpora.<corpus> mapping gives the options")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="source option (repeatable), e.g. local_dir=../shared/data/gum",
    )
    parser.add_argument(
        "--options-json",
        default=None,
        metavar="JSON",
        help="the corpora.<corpus> mapping as JSON (what the workflow passes); --option wins over it",
    )
    parser.add_argument(
        "--resources", type=Path, default=None, help="folder for downloaded corpora (default: resources)"
    )


def parse_options(pairs, base=None):
    """`key=value` strings on top of a base mapping; values parsed as YAML scalars."""
    options = dict(base or {})
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UserError(f"--option {pair!r}; expected KEY=VALUE")
        try:
            options[key.strip()] = yaml.safe_load(value) if value.strip() else None
        except yaml.YAMLError:
            options[key.strip()] = value
    return options


def config_options(path, corpus):
    """The `corpora.<corpus>` mapping of a YAML config file ({} when absent)."""
    try:
        config = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    except FileNotFoundError:
        raise UserError(f"{path}: no such config file") from None
    except yaml.YAMLError as err:
        raise UserError(f"{path}: not valid YAML ({str(err).splitlines()[0]})") from None
    section = (config.get("corpora") or {}).get(corpus) or {}
    if not isinstance(section, dict):
        raise UserError(f"{path}: corpora.{corpus} must be a mapping")
    return section


def summary(docs):
    """(documents, tokens, mentions, clusters) of a list of Documents."""
    return (
        len(docs),
        sum(len(d.words) for d in docs),
        sum(len(c) for d in docs for c in d.clusters),
        sum(len(d.clusters) for d in docs),
    )


def run(args):
    source = get_source(args.corpus)
    base = config_options(args.configfile, args.corpus) if args.configfile else {}
    if args.options_json:
        try:
            extra = json.loads(args.options_json)
        except json.JSONDecodeError as err:
            raise UserError(f"--options-json: not JSON ({err.msg})") from None
        if not isinstance(extra, dict):
            raise UserError("--options-json: expected a JSON object")
        base.update(extra)
    typed = parse_options(args.option)
    options = {**base, **typed}  # --option wins
    unknown = sorted(set(typed) - set(source.options))
    if unknown:
        close = difflib.get_close_matches(unknown[0], source.options, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise UserError(
            f"--option {unknown[0]}: {args.corpus} has no option {unknown[0]!r}{hint}; its options: "
            + ", ".join(sorted(source.options))
        )
    docs = source.load_split(args.split, options, args.resources)
    write_conll(docs, args.out)
    n_docs, n_tokens, n_mentions, n_clusters = summary(docs)
    print(
        f"{args.corpus} {args.split}: {n_docs} documents, {n_tokens} tokens, "
        f"{n_mentions} mentions, {n_clusters} clusters -> {args.out}"
    )
    return 0
