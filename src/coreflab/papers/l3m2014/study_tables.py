"""What the two table verbs (`tables`, `newsgroups-tables`) share: reading the study CSVs and the
CCCP-vs-SGD table with its measured-time companion."""

from pathlib import Path

import pandas as pd

from coreflab.errors import UserError
from coreflab.papers.l3m2014 import report as l3m2014
from coreflab.report.io import write_table


def read_csvs(paths):
    """The CSVs at `paths` as one DataFrame; a missing one is a user error naming it."""
    try:
        return pd.concat([pd.read_csv(p) for p in paths], ignore_index=True)
    except FileNotFoundError as err:
        raise UserError(f"{err.filename}: no such file") from None


def write_cccp_time(cccp_runs, out, fallback):
    """CCCP vs SGD's table (returned) and its measured-time table (written beside it)."""
    cccp, cccp_time = l3m2014.cccp_vs_sgd(cccp_runs)
    subset = cccp_runs["data"].iloc[0] if "data" in cccp_runs.columns else fallback
    write_table(
        cccp_time,
        Path(out) / "cccp_vs_sgd_time",
        formats=("csv", "md"),
        caption=f"Measured time of CCCP and SGD on {subset} (varies between runs)",
    )
    return cccp
