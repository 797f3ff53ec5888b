"""`coreflab score KEY RESPONSE`: the CoNLL metrics, printed like the official scorer v8.01.

It also takes the reference scorer's own arguments, `coreflab score METRIC KEY RESPONSE [NAME]`
(`scorer.pl <metric> <keys_file> <response_file> [name]`), so that a script written for
scorer.pl runs unchanged: NAME `none` prints the totals only, a document's name (the rest of
its `#begin document ` line, as scorer.pl matches it, or `id; part 001` as `--per-doc` prints it)
scores that document alone; its bare id, which scorer.pl matches to nothing, scores all its parts
together (said on stderr); and no NAME adds the per-document breakdown, as scorer.pl prints every document then.
The text is scorer.pl's (`coreflab.metrics.text.scorer_pl_text`): its `version:` line, a
`METRIC name:` header only for `all`, which is its five metrics (no LEA), no MELA line, and per
metric each document's block (the key's and the response's entities with their token spans, as
v8.01 lists them at its verbosity 2; the name, mention counts and figure line) before one TOTALS
block. Documents come in the key's order (scorer.pl's follow perl's hash order, which varies from
run to run), and repeated mentions are a warning on stderr, not lines in the text.

KEY and RESPONSE are CoNLL files or directories with any number of columns, read as the
official scorer reads them: the last column is the coreference column, documents come from
`#begin document (id); part NNN` (no part: 000); a leading UTF-8 byte-order mark is ignored.
Only what scoring needs is checked (`coreflab.metrics.coref_file`); malformed input, and a key
holding no documents, is a one-line error naming file and line, exit status 2. A directory is
read as one corpus (its files named `*conll` or `*.txt`, see `read_coref_path` and the help's
epilog). How key and response pair up is reported on stderr and changes no number
(`pairing_warnings`): key documents the response lacks, response documents the key lacks,
'#begin document' lines v8.01 would not match, and documents whose token counts differ.
Documents are matched on (doc_id, part); `--format json` prints one object with every
metric's recall, precision, F1 (percent, unrounded) and raw numerators/denominators, plus
`mentions` and `mela`.

Imports are kept to numpy and this package's scorer (no scipy.optimize, no corpus
reader): the command is a short process and start-up is most of its time.
"""

import sys

from coreflab.metrics.scorer import METRIC_CHOICES
from coreflab.metrics.text import SCORER_PL_ALL

SCORER_PL_METRICS = (*SCORER_PL_ALL, "all")  # CorScorer.pm v8.01's, in its order


def add_arguments(parser):
    parser.usage = (
        "coreflab score [-h] [--metric METRIC] [--format {text,json}] [--per-doc] KEY RESPONSE\n"
        "       coreflab score METRIC KEY RESPONSE [NAME]   (the reference scorer.pl's arguments)"
    )
    parser.add_argument(
        "operands",
        nargs="+",
        metavar="KEY RESPONSE",
        help="gold and system CoNLL-2012 files or directories; or, as scorer.pl takes them, METRIC KEY RESPONSE "
        "[NAME]: NAME 'none' prints the totals only, a document's name scores it alone (its bare id: all its parts), no NAME adds every document",
    )
    parser.add_argument("--metric", default="all", choices=METRIC_CHOICES, help="metric to report (default: all)")
    parser.add_argument("--format", default="text", choices=("text", "json"), help="output format (default: text)")
    parser.add_argument("--per-doc", action="store_true", help="add a per-document breakdown")
    parser.epilog = (
        "A directory is read as one corpus: its files (searched recursively, hidden files and folders left out) "
        "whose names end in 'conll' (.conll, _gold_conll, .v4_auto_conll, ...) or '.txt'; a .txt file without a "
        "'#begin document' line (notes.txt) is skipped with a warning, and a document found twice is an "
        "error naming both files (a CoNLL-2012 release folder holds both _gold_conll and _auto_conll files: "
        "point at a folder of one kind). Documents are matched on (id, part); key documents the response lacks "
        "are scored as empty, response documents the key lacks are ignored, as scorer.pl does; both, and "
        "documents whose token counts differ, are warnings on stderr."
    )


def reference_operands(operands, metric="all"):
    """(metric, key, response, name) of `KEY RESPONSE` or of scorer.pl's `METRIC KEY RESPONSE [NAME]`
    (name None: no NAME given). A first operand that names a metric and no file is the metric."""
    import os

    from coreflab.errors import UserError

    if len(operands) == 2:
        return metric, operands[0], operands[1], None
    first = operands[0]
    if len(operands) in (3, 4) and first.lower() in METRIC_CHOICES and not os.path.exists(first):
        if metric not in ("all", first.lower()):
            raise UserError(f"metric {first!r} given twice, differently (--metric {metric})")
        name = operands[3] if len(operands) == 4 else None
        return first.lower(), operands[1], operands[2], name
    # scorer.pl's form with a metric it does not know: 4 operands, or 3 whose first is no file but the next is
    if not os.path.exists(first) and (len(operands) == 4 or (len(operands) == 3 and os.path.exists(operands[1]))):
        raise UserError(
            f"unknown metric {first!r}; scorer.pl's metrics: {' '.join(SCORER_PL_METRICS)} "
            "(this command also takes lea and mela)"
        )
    raise UserError(
        f"expected KEY RESPONSE, or scorer.pl's METRIC KEY RESPONSE [NAME] (METRIC one of "
        f"{', '.join(METRIC_CHOICES)}); got {len(operands)} operand(s): {' '.join(operands)}"
    )


def one_document(scores, key, name):
    """The scores of the key document scorer.pl would pick for NAME (its '#begin document' rest), of the part
    'id; part N' names, or of every part of the document a bare id names."""
    import re
    from dataclasses import replace

    from coreflab.errors import UserError

    hits = [i for i, h in enumerate(key.headers) if h == name]
    part = re.fullmatch(r"\(?(.+?)\)?;\s*part\s+(\d+)", name.strip())
    if not hits and part:  # the name --per-doc prints: 'id; part 001'
        hits = [i for i, k in enumerate(key.docs) if k == (part[1], int(part[2]))]
    if not hits:
        bare = name.strip().removeprefix("(").removesuffix(";").removesuffix(")")
        hits = [i for i, (doc_id, _) in enumerate(key.docs) if doc_id == bare]
        if len(hits) > 1:
            print(f"coreflab score: {name!r} names {len(hits)} parts; scoring them together", file=sys.stderr)
    if not hits:
        shown = ", ".join(repr(h) for h in key.headers[:3]) + (", ..." if len(key.headers) > 3 else "")
        raise UserError(f"{key.source}: no document named {name!r} (its documents: {shown})")
    return replace(
        scores, per_doc={m: a[hits] for m, a in scores.per_doc.items()}, doc_keys=[scores.doc_keys[i] for i in hits]
    )


def entity_listings(key, response, doc_keys):
    """(doc_id, part) -> (key clusters, response clusters or None), in v8.01's entity and mention order: what
    scorer.pl lists for each document it scores."""
    in_response = {k: d for d, k in enumerate(response.docs)}
    in_key = {k: d for d, k in enumerate(key.docs)}
    return {
        k: (key.clusters(in_key[k]), response.clusters(in_response[k]) if k in in_response else None) for k in doc_keys
    }


def run(args):
    from coreflab.metrics.coref_file import pairing_warnings, read_coref_path
    from coreflab.metrics.scorer import read_key, reading_warnings, score_files

    args.metric, args.key, args.response, name = reference_operands(args.operands, args.metric)
    scorer_pl_form = len(args.operands) != 2
    if scorer_pl_form and name != "none":
        args.per_doc = True  # scorer.pl prints the document named, or every one, then the totals
    # scorer.pl's form prints what scorer.pl prints (`all`: its five metrics); `mela`, which scorer.pl
    # lacks, keeps this command's own text
    scorer_pl_text_form = scorer_pl_form and args.metric != "mela"
    metrics = list(SCORER_PL_ALL) if scorer_pl_form and args.metric == "all" else args.metric

    with reading_warnings() as caught:
        key = read_key(args.key)
        response = read_coref_path(args.response)
        scores = score_files(key, response, metrics=metrics)
    if name is not None and name != "none":
        scores = one_document(scores, key, name)
    for w in caught:
        print(f"coreflab score: warning: {w.message}", file=sys.stderr)
    for message in pairing_warnings(key, response):
        print(f"coreflab score: warning: {message}", file=sys.stderr)
    if args.format == "json":
        import json

        print(json.dumps(scores.to_dict(per_doc=args.per_doc), indent=2))
    else:
        from coreflab.metrics.text import format_text, scorer_pl_text

        if scorer_pl_text_form:
            names = dict(zip(key.docs, key.headers)) if len(key.headers) == len(key.docs) else {}
            listings = entity_listings(key, response, scores.doc_keys) if args.per_doc else None
            text = scorer_pl_text(
                scores,
                args.metric,
                per_doc=args.per_doc,
                names=names,
                listings=listings,
                named=name not in (None, "none"),
            )
            sys.stdout.write(text)
        else:
            sys.stdout.write(format_text(scores, per_doc=args.per_doc))
    return 0
