"""The `coreflab` command: one verb per workflow step, so every step runs without Snakemake.

Core pipeline verbs (`coreflab prepare`, `train`, `score`, ...) live in `coreflab.commands.<module>`;
each registered paper (coreflab.papers.registry) has a command group (`coreflab <paper> <verb> ...`)
whose verb table is its `Paper.verbs`. Every verb module provides `add_arguments(parser)` and
`run(args) -> int`. Only the verb that runs is imported: a core verb imports no paper, a paper's verb
that paper alone.
"""

import argparse
import importlib
import os
import sys
import warnings

from coreflab.errors import UserError, one_line_warnings
from coreflab.papers import registry  # its import hands the report the papers' names (style_names.use_papers)

# verb -> (module, one-line help)
VERBS = {
    "score": ("coreflab.commands.score", "score a response against a key with the CoNLL metrics"),
    "compare": ("coreflab.commands.compare", "paired significance test between two systems"),
    "synth": ("coreflab.commands.synth", "generate the embedded synthetic corpus as CoNLL-2012"),
    "import": ("coreflab.commands.import_corpus", "load one split of a corpus source and write it as CoNLL-2012"),
    "prepare": ("coreflab.commands.prepare", "read, validate and compile a corpus split"),
    "mention-model": (
        "coreflab.commands.mention_model",
        "learn which predicted mentions are entity mentions of the key (filter, singletons)",
    ),
    "mentions-table": (
        "coreflab.commands.mentions_table",
        "mention detection per split, stage and mention type (rules, candidates, classifier)",
    ),
    "baseline": ("coreflab.commands.baseline", "string-match baseline predictions"),
    "features": (
        "coreflab.commands.features",
        "compute the arc feature store (local features of every candidate arc) of a compiled split",
    ),
    "train": ("coreflab.commands.train", "fit a registered learner on a compiled split and its arc store"),
    "predict": ("coreflab.commands.predict", "predict a split with a trained model and write CoNLL-2012"),
    "training-size": (
        "coreflab.commands.training_size",
        "one learner's test MELA by the number of training documents (seeded draws per size)",
    ),
    "training-size-report": (
        "coreflab.commands.training_size_report",
        "where learning overtakes rules: the training-size curves against the sieve and string match",
    ),
    "scores-table": ("coreflab.commands.scores_table", "collect score files into tidy CSV"),
    "leaderboard": ("coreflab.commands.leaderboard", "leaderboard table from tidy scores"),
    "overview": ("coreflab.commands.overview", "corpus overview figure"),
    "select": ("coreflab.commands.select", "greedy forward/backward feature-template selection (B&K 2014)"),
    "tune-root-loss": (
        "coreflab.commands.tune_root_loss",
        "choose B&K's root-attachment loss on dev (responses with singletons)",
    ),
    "skipped": (
        "coreflab.commands.skipped",
        "table of the experiments skipped for missing data, with how to enable each",
    ),
    "docs": ("coreflab.commands.docs", "render docs/ pages whose numbers come from result files"),
    "manifest": (
        "coreflab.commands.manifest",
        "record config hash, seed, package versions and git commit of a results directory",
    ),
    "convert-gum": (
        "coreflab.commands.convert_gum",
        "write GUM or OntoGUM as a CoNLL-2012 release in the official layout (all 14 columns)",
    ),
    "cut-parts": (
        "coreflab.commands.cut_parts",
        "copy a CoNLL-2012 release with the documents of some splits cut into parts of N sentences",
    ),
    "bench-report": (
        "coreflab.commands.bench_report",
        "benchmark records against their targets (one row per benchmark) and the scaling figure",
    ),
}


def _entry(entry):
    """(module, help, parser defaults) of a verb-table entry `(module, help[, defaults])`."""
    module, help_text, *defaults = entry
    return module, help_text, (defaults[0] if defaults else {})


def _add_verbs(sub, table, wanted):
    """One sub-parser per verb; only the wanted verb's module is imported (for its arguments)."""
    for name, entry in table.items():
        module, help_text, defaults = _entry(entry)
        p = sub.add_parser(name, help=help_text, description=help_text)
        if name == wanted:
            importlib.import_module(module).add_arguments(p)
        p.set_defaults(_module=module, **defaults)


def paper_groups(wanted):
    """The papers whose command groups the parser needs: none for a core verb, the named paper alone
    for one of its verbs, every registered paper otherwise (`coreflab --help`, a misspelled verb)."""
    if wanted in VERBS:
        return []
    if wanted and not wanted.startswith("-"):
        try:
            return [registry.get(wanted)]
        except UserError:
            pass
    return registry.papers()


def build_parser(argv=()):
    """The argument parser; only the requested verb's module is imported."""
    argv = list(argv)
    wanted = argv[0] if argv else None
    parser = argparse.ArgumentParser(prog="coreflab", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="verb", metavar="VERB")
    sub.required = True
    _add_verbs(sub, VERBS, wanted)
    for paper in paper_groups(wanted):
        p = sub.add_parser(paper.name, help=paper.help, description=paper.help)
        paper_sub = p.add_subparsers(dest="paper_verb", metavar="VERB")
        paper_sub.required = True
        _add_verbs(paper_sub, paper.verbs, argv[1] if wanted == paper.name and len(argv) > 1 else None)
    return parser


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser(argv).parse_args(argv)
    label = " ".join(v for v in (args.verb, getattr(args, "paper_verb", None)) if v)
    shown = warnings.formatwarning
    warnings.formatwarning = one_line_warnings(label)
    try:
        verb = importlib.import_module(args._module)
        if not getattr(verb, "OUT_IS_FOLDER", False):
            check_out_is_a_file(args)
        return int(verb.run(args) or 0)
    except UserError as err:
        print(f"coreflab {label}: error: {err}", file=sys.stderr)
        return err.exit_code
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:  # Ctrl-C: outputs are written atomically, so nothing half-written remains
        print(f"coreflab {label}: interrupted", file=sys.stderr)
        return 130
    except OSError as err:  # a file that is not there, not readable, not writable: the user's to fix
        where = f"{err.filename}: " if err.filename else ""
        print(f"coreflab {label}: error: {where}{err.strerror or err}", file=sys.stderr)
        return 2
    except Exception as err:
        if os.environ.get("COREFLAB_TRACEBACK"):
            raise
        print(
            f"coreflab {label}: error: {type(err).__name__}: {err} (raised at {raised_at(err)}: an input of the "
            "wrong kind, or a bug there; COREFLAB_TRACEBACK=1 shows the traceback, for a bug report)",
            file=sys.stderr,
        )
        return 1
    finally:
        warnings.formatwarning = shown


def raised_at(err):
    """file:line of the innermost frame of err's traceback in coreflab or in the user's own code (a
    learner added from outside the package), not in numpy, pandas or the standard library: the line a
    user (or a bug report) should look at. Files in coreflab are named from the package."""
    import sysconfig
    import traceback
    from pathlib import Path

    package = Path(__file__).resolve().parent
    libraries = {Path(sysconfig.get_path(k)).resolve() for k in ("stdlib", "platstdlib", "purelib", "platlib")}
    frames = traceback.extract_tb(err.__traceback__)
    for frame in reversed(frames):
        path = Path(frame.filename).resolve()
        if path.is_relative_to(package):
            return f"{Path(package.name, path.relative_to(package))}:{frame.lineno}"
        in_library = any(path.is_relative_to(lib) for lib in libraries) or {"site-packages", "dist-packages"} & set(
            path.parts
        )
        if not in_library and path.is_file():
            return f"{frame.filename}:{frame.lineno}"
    return f"{frames[-1].filename}:{frames[-1].lineno}" if frames else "unknown place"


def check_out_is_a_file(args):
    """`--out` naming an existing folder is a one-line error before any work (and before a temp file is
    written beside it); verbs whose `--out` is a folder say so (`OUT_IS_FOLDER`)."""
    out = getattr(args, "out", None)
    if isinstance(out, str) and os.path.isdir(out):
        raise UserError(f"--out {out}: is a directory; give the file to write")


if __name__ == "__main__":
    sys.exit(main())
