"""`coreflab score KEY RESPONSE`: the CoNLL metrics, printed like the official scorer v8.01.

KEY and RESPONSE are CoNLL files or directories with any number of columns, read as the
official scorer reads them: the last column is the coreference column, documents come from
`#begin document (id); part NNN` (no part: 000). Only what scoring needs is checked
(`coreflab.metrics.coref_file`); malformed input is a one-line error naming file and line,
exit status 2. Documents are matched on (doc_id, part); `--format json` prints one object
with every metric's recall, precision, F1 (percent, unrounded) and raw
numerators/denominators, plus `mentions` and `mela`.

Imports are kept to numpy and this package's scorer (no scipy.optimize, no corpus
reader): the command is a short process and start-up is most of its time.
"""

import sys
import warnings

from coreflab.metrics.scorer import METRIC_CHOICES


def add_arguments(parser):
    parser.add_argument("key", help="gold CoNLL-2012 file or directory")
    parser.add_argument("response", help="system CoNLL-2012 file or directory")
    parser.add_argument("--metric", default="all", choices=METRIC_CHOICES, help="metric to report (default: all)")
    parser.add_argument("--format", default="text", choices=("text", "json"), help="output format (default: text)")
    parser.add_argument("--per-doc", action="store_true", help="add a per-document breakdown")


def run(args):
    from coreflab.metrics.coref_file import LooseCellWarning, mismatched_headers, read_coref_path
    from coreflab.metrics.scorer import RepeatedMentionWarning, score_files

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RepeatedMentionWarning)
        warnings.simplefilter("always", LooseCellWarning)
        key = read_coref_path(args.key)
        response = read_coref_path(args.response)
        scores = score_files(key, response, metrics=args.metric)
    for w in caught:
        print(f"coreflab score: warning: {w.message}", file=sys.stderr)
    differ = mismatched_headers(key, response)
    if differ:
        print(
            f"coreflab score: warning: {len(differ)} document(s) matched on (id, part) whose '#begin document' lines "
            f"differ (first: key {differ[0][0]!r}, response {differ[0][1]!r}); the official scorer v8.01 matches "
            "these lines as written and would score such a response as empty",
            file=sys.stderr,
        )
    missing = len(set(key.docs) - set(response.docs))
    if missing:
        print(
            f"coreflab score: warning: {missing} key document(s) missing from the response, scored as empty",
            file=sys.stderr,
        )
    if args.format == "json":
        import json

        print(json.dumps(scores.to_dict(per_doc=args.per_doc), indent=2))
    else:
        from coreflab.metrics.text import format_text

        sys.stdout.write(format_text(scores, per_doc=args.per_doc))
    return 0
