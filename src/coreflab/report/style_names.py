"""The papers' names of the systems, for every legend and table (no matplotlib import).

Why: internal learner keys (`binleftlink`, `LSP_rho`) are what the workflow and CSV files
use; readers compare our tables with the papers', so Markdown/LaTeX/HTML tables and figure
legends print the names the papers print. Kept apart from `style` so writing a table does
not import matplotlib.
"""

# internal learner / system names -> the names the papers print
SYSTEM_NAMES = {
    "string_match": "string match",
    "binleftlink": "Bin-Left-Link",
    "sumlink": "Sum-Link",
    "l3m": "L3M",
    "l3m_gamma0": "L3M (γ = 0)",
    "spanning_forest": "Spanning Forest",
    "corr_clustering": "Corr-Clustering",
    "bk_baseline": "B&K baseline",  # beside other papers' systems; B&K's own figures say "baseline"
    "bk_early": "early update",
    "bk_maxviolation": "max-violation",
    "bk_laso": "LaSO",
    "bk_delayed_laso": "delayed LaSO",
    "cc_base": "BASE",
    "cc_slt_closest": "SLT (closest)",
    "cc_slt_preserving": "SLT (preserving)",
    "lsp_f": "LSP_F",
    "lsp_yj": "LSP_YJ",
    "lsp_rho": "LSP_ρ",
    "LSP_rho": "LSP_ρ",
    "label_propagation": "label propagation",
    "flat": "pairwise",
    "sub": "sub-entities",
    "super": "super-entities",
    "hier": "combined",
    "cccp": "CCCP",
    "sgd": "SGD",
}

PAPERS = {
    "bk2014": "Björkelund & Kuhn 2014",
    "cc2007": "Choi & Cardie 2007",
    "l3m2014": "Samdani, Chang & Roth 2014",
    "hm2017": "Haponchyk & Moschitti 2017",
    "singh2011": "Singh et al. 2011",
}


def system_name(name):
    """The paper's name of a system (unknown names unchanged, so nothing is ever dropped)."""
    name = str(name)
    if name in SYSTEM_NAMES:
        return SYSTEM_NAMES[name]
    if name.startswith("lsp_rho_from_"):
        return f"LSP_ρ (regressor of {name[len('lsp_rho_from_') :]})"
    return name


def paper_names(df, columns=("system", "technique", "Model", "method")):
    """A copy of a table with the system column(s) renamed to the papers' names."""
    df = df.copy()
    for col in columns:
        if col in df.columns:
            df[col] = df[col].map(lambda v: system_name(v) if isinstance(v, str) else v)
    return df
