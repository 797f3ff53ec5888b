"""`coreflab synth --size SIZE --seed N --out DIR [--knob name=value ...]`.

Writes the embedded synthetic corpus (`coreflab.corpus.synthetic.generator`) as CoNLL-2012:
DIR/train.conll, DIR/dev.conll, DIR/test.conll. The whole corpus is generated before the
first file is written and each file is written atomically (temporary file + rename), so an
error (unknown size, bad knob) leaves nothing behind.
"""

from pathlib import Path

from coreflab.corpus.readers.conll import write_conll
from coreflab.corpus.synthetic.generator import DEFAULT_KNOBS, SIZES, SPLITS, generate_corpus
from coreflab.errors import UserError

OUT_IS_FOLDER = True  # --out is the folder of train/dev/test.conll


def add_arguments(parser):
    parser.add_argument("--size", default="default", choices=tuple(SIZES), help="corpus size (default: default)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    parser.add_argument("--out", required=True, help="output folder for train/dev/test.conll")
    parser.add_argument(
        "--knob",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=f"override a difficulty knob (repeatable); knobs: {', '.join(DEFAULT_KNOBS)}",
    )


def parse_knobs(items):
    """['pronoun_rate=0.5', ...] -> {'pronoun_rate': '0.5'} (values checked by the generator)."""
    knobs = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise UserError(f"--knob {item!r}: expected NAME=VALUE, e.g. pronoun_rate=0.5")
        knobs[name.strip()] = value.strip()
    return knobs


def run(args):
    corpus = generate_corpus(args.size, args.seed, parse_knobs(args.knob))
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UserError(f"{out}: exists and is not a directory; expected an output folder")
    for split in SPLITS:
        write_conll(corpus[split], out / f"{split}.conll")
    n_docs = sum(len(corpus[s]) for s in SPLITS)
    n_tokens = sum(len(d.words) for s in SPLITS for d in corpus[s])
    print(f"coreflab synth: {n_docs} documents, {n_tokens} tokens ({args.size}, seed {args.seed}) -> {out}")
    return 0
