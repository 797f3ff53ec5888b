"""`coreflab training-size-report`: where learning overtakes rules, from the training-size curves.

    coreflab training-size-report --curve PART.csv [--curve ...] --rule sieve=TEST.json
        --rule string_match=TEST.json [--run NAME] [--left-out NAME ...] --out DIR

Reads the curves `coreflab training-size` wrote (one per learner) and the rule systems' test scores
(`coreflab score --format json` of the sieve and string match: their flat lines) and writes under DIR:
curve.csv (every draw, then the rules' lines), curve.md (mean and range per size, the crossover
line), crossover.json and figure.png/.pdf (`coreflab.report.training_size`). `--left-out` names a
configured learner the curve leaves out (not on the config's leaderboard), said in curve.md.
"""

from coreflab.errors import UserError

OUT_IS_FOLDER = True  # --out is the folder of the five files


def add_arguments(p):
    p.add_argument("--curve", action="append", required=True, help="a learner's curve CSV (repeatable)")
    p.add_argument(
        "--rule",
        action="append",
        required=True,
        metavar="SYSTEM=JSON",
        help="a rule system's test score JSON (repeatable; the sieve is the one the crossover is judged against)",
    )
    p.add_argument("--run", help="the run (corpus and mention mode) named in the titles")
    p.add_argument("--left-out", action="append", default=[], metavar="LEARNER", help="a learner left out of the curve")
    p.add_argument("--out", required=True, help="folder to write curve.csv, curve.md, crossover.json, figure.*")


def left_out_note(name):
    """Why a learner has no curve: the curve runs the configured learners (`learners`) alone."""
    from coreflab.report.style_names import system_name

    return f"{system_name(name)} is left out: this config does not configure it (config key `learners`)."


def run(args):
    import pandas as pd

    from coreflab.learn.training_size import CURVE_COLUMNS
    from coreflab.report.scores import read_score_json
    from coreflab.report.training_size import REFERENCE, write_outputs

    parts = []
    for path in args.curve:
        try:
            part = pd.read_csv(path)
        except (OSError, ValueError) as err:
            raise UserError(f"{path}: not a training-size curve ({err})") from None
        missing = [c for c in CURVE_COLUMNS if c not in part.columns]
        if missing or part.empty:
            raise UserError(f"{path}: not a `coreflab training-size` curve (no rows, or no {', '.join(missing)})")
        parts.append(part)
    rules = {}
    for arg in args.rule:
        name, sep, path = arg.partition("=")
        if not sep or not name or not path:
            raise UserError(f"--rule {arg!r}: expected SYSTEM=JSON")
        scores = read_score_json(path)
        if not isinstance(scores, dict) or "mela" not in scores:
            raise UserError(f"{path}: no MELA in it; expected `coreflab score --format json` output")
        rules[name] = float(scores["mela"])
    if REFERENCE not in rules:
        raise UserError(f"--rule {REFERENCE}=JSON is required: the crossover is judged against the {REFERENCE}")
    curve = pd.concat(parts, ignore_index=True)
    notes = [left_out_note(name) for name in args.left_out]
    record = write_outputs(curve, rules, args.out, run=args.run, notes=notes)
    print(f"coreflab training-size-report: {args.run or ''}: {record['statement']}")
    return 0
