"""One sub-package per re-run paper: its registration (`PAPER`, coreflab.papers.registry), run grid
(`runs`), experiments, tables and figures, and its `coreflab <paper> ...` command group (`cli`)."""
