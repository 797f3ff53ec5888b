"""The papers' names of the systems, for every legend and table (no matplotlib import).

Why: internal learner keys (`binleftlink`, `LSP_rho`) are what the workflow and CSV files
use; readers compare our tables with the papers', so Markdown/LaTeX/HTML tables and figure
legends print the names the papers print. Kept apart from `style` so writing a table does
not import matplotlib. Each paper gives its own names (`Paper.system_names`, coreflab.papers.registry).
"""

from coreflab.papers import registry

# internal names -> the names the papers print: the core's, then every registered paper's
SYSTEM_NAMES = {"string_match": "string match"} | {
    key: name for paper in registry.papers() for key, name in paper.system_names.items()
}

# paper -> the citation its figures and tables are headed with
PAPERS = {p.name: p.title for p in registry.papers()}


def system_name(name):
    """The paper's name of a system (unknown names unchanged, so nothing is ever dropped)."""
    name = str(name)
    if name in SYSTEM_NAMES:
        return SYSTEM_NAMES[name]
    for paper in registry.papers():  # names made from a pattern (`lsp_rho_from_<corpus>`)
        made = paper.system_name(name) if paper.system_name else None
        if made is not None:
            return made
    return name


def paper_names(df, columns=("system", "technique", "Model", "method")):
    """A copy of a table with the system column(s) renamed to the papers' names."""
    df = df.copy()
    for col in columns:
        if col in df.columns:
            df[col] = df[col].map(lambda v: system_name(v) if isinstance(v, str) else v)
    return df
