"""`coreflab scores-table`: collect score JSON files into the tidy CSV of a corpus."""

from coreflab.errors import UserError
from coreflab.report.io import atomic_write_text
from coreflab.report.scores import tidy_table


def add_arguments(p):
    p.add_argument("--corpus", required=True)
    p.add_argument("--split", required=True)
    p.add_argument(
        "--score", action="append", default=[], metavar="SYSTEM=JSON", help="a system's score file (repeatable)"
    )
    p.add_argument("--out", required=True, help="tidy CSV to write")


def run(args):
    entries = []
    for item in args.score:
        system, sep, path = item.partition("=")
        if not sep or not system:
            raise UserError(f"--score {item!r}: expected SYSTEM=PATH")
        entries.append((args.corpus, args.split, system, path))
    if not entries:
        raise UserError("no --score given")
    df = tidy_table(entries)
    atomic_write_text(args.out, df.to_csv(index=False, lineterminator="\n"))
    return 0
