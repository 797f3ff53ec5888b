"""One sub-package per re-run paper: its run grid (`runs`), experiments, tables and figures, and its
`coreflab <paper> ...` command group (`cli`). Papers sit between `learn` and `cli` in the layers."""
