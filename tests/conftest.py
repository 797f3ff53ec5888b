"""Fixtures shared by several test modules (instead of tests importing from each other)."""

import os

import pytest
from threadpoolctl import threadpool_limits

import coreflab  # noqa: F401  (sets one BLAS thread per process before test modules load numpy)

# pytest's plugins may have loaded numpy first: cap the already-running BLAS pools as well
threadpool_limits(int(os.environ["OPENBLAS_NUM_THREADS"]))


def _with_singletons(docs):
    """The key as a singleton-annotating scheme has it: one-mention entities on free one-token spans, as many
    per document as it has clusters (at least one), so that half its clusters have one mention."""
    out = []
    for doc in docs:
        used = {s for c in doc.clusters for s in c}
        free = [(t, t) for t in range(len(doc.words)) if (t, t) not in used]
        lone = [[span] for span in free[: max(1, len(doc.clusters))]]
        out.append(doc.with_clusters([list(c) for c in doc.clusters] + lone))
    return out


@pytest.fixture(scope="session")
def with_singletons():
    """Function: documents → the same documents with one-mention clusters added (`_with_singletons`)."""
    return _with_singletons


@pytest.fixture(scope="session")
def default_config():
    """config/config.yaml validated against the workflow schema (defaults filled in)."""
    from pathlib import Path

    import yaml

    from coreflab.config import check_config

    root = Path(__file__).resolve().parents[1]
    config = yaml.safe_load((root / "config" / "config.yaml").read_text())
    return check_config(config, root / "workflow" / "schemas" / "config.schema.yaml")
