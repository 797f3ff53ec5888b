"""`coreflab skipped`: the table of experiments skipped for missing data (a report entry).

coreflab skipped --skipped-json '[[experiment, why, how], ...]' --out-md F.md --out-html F.html
"""

import json

from coreflab.errors import UserError


def add_arguments(p):
    p.add_argument("--skipped-json", required=True, help="JSON list of [experiment, why, how to enable]")
    p.add_argument("--out-md", required=True)
    p.add_argument("--out-html", required=True)


def run(args):
    import pandas as pd

    from coreflab.report.io import atomic_write_text, html_table

    try:
        rows = json.loads(args.skipped_json)
    except json.JSONDecodeError as err:
        raise UserError(f"--skipped-json: invalid JSON ({err.msg})") from None
    table = pd.DataFrame(rows, columns=["experiment", "why it was skipped", "how to run it"])
    caption = (
        "Experiments skipped for missing data"
        if len(table)
        else "Experiments skipped for missing data: none, every configured experiment ran"
    )
    md = f"{caption}\n\n" + (table.to_markdown(index=False) + "\n" if len(table) else "")
    atomic_write_text(args.out_md, md)
    atomic_write_text(args.out_html, html_table(table, "%s", caption))
    print(caption)
    return 0
