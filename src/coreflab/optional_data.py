"""Experiments that need data the workflow cannot make: the announcement of those skipped.

Each paper says which of its experiments a config skips and why (`Paper.skipped`, gathered by
`coreflab.papers.registry.skipped_experiments`). The workflow leaves them out — and says so at the
end of the run and in the report, with the ways to enable each, instead of silently printing a
shorter table.
"""


def announcement(skipped):
    """The lines printed at the end of a run."""
    if not skipped:
        return []
    lines = [f"coreflab: {len(skipped)} experiment(s) skipped for missing data (see results/skipped_experiments.md):"]
    for name, why, how in skipped:
        lines.append(f"  - {name}: {why}. To run it: {how}.")
    return lines


__all__ = ["announcement"]
