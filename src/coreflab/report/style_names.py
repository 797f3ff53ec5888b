"""The papers' names of the systems, for every legend and table (no matplotlib import).

Why: internal learner keys (`binleftlink`, `LSP_rho`) are what the workflow and CSV files
use; readers compare our tables with the papers', so Markdown/LaTeX/HTML tables and figure
legends print the names the papers print. Kept apart from `style` so writing a table does
not import matplotlib.

The names come from the papers, a layer above: the paper registry hands its list over with
`use_papers` when it is imported, and it is read at the first lookup, never at import, so a paper
may import the report while the registry is still finding papers.
"""

from collections.abc import Mapping

CORE_NAMES = {"string_match": "string match"}  # systems of the core, not of one paper

_sources = []  # callables, each returning papers: objects with name, title, system_names, system_name


def use_papers(source):
    """Take names and titles from `source()`, an iterable of papers (coreflab.papers.registry.Paper),
    called at each lookup."""
    if source not in _sources:
        _sources.append(source)


def _papers():
    return [paper for source in _sources for paper in source()]


_built = {}  # the tables of the papers last seen: lookups run once per table cell


def _tables():
    papers = _papers()
    key = tuple(map(id, papers))
    if _built.get("key") != key:
        _built.update(
            key=key,
            systems=CORE_NAMES | {k: v for p in papers for k, v in p.system_names.items()},
            titles={p.name: p.title for p in papers},
            patterns=[p.system_name for p in papers if p.system_name],
        )
    return _built


class _Names(Mapping):
    """A read-only mapping built anew from the papers at each use."""

    def __init__(self, build):
        self._build = build

    def __getitem__(self, key):
        return self._build()[key]

    def __iter__(self):
        return iter(self._build())

    def __len__(self):
        return len(self._build())


# internal names -> the names the papers print: the core's, then every registered paper's
SYSTEM_NAMES = _Names(lambda: _tables()["systems"])

# paper -> the citation its figures and tables are headed with
PAPERS = _Names(lambda: _tables()["titles"])


def system_name(name):
    """The paper's name of a system (unknown names unchanged, so nothing is ever dropped)."""
    name = str(name)
    tables = _tables()
    if name in tables["systems"]:
        return tables["systems"][name]
    for pattern in tables["patterns"]:  # names made from a pattern (`lsp_rho_from_<corpus>`)
        made = pattern(name)
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
