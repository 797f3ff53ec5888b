"""Reading what the learning verbs take: a split (compiled corpus + arc store) and learner
parameters (JSON inline or in a file). Shared by `coreflab train`, `predict` and the paper verbs."""

import json
from pathlib import Path

from coreflab.errors import UserError


def parse_params(text):
    """JSON object given inline or as a path to a file."""
    source = "--params"
    if not text.lstrip().startswith("{"):
        path = Path(text)
        if not path.is_file():
            raise UserError(f"--params {text!r}: neither a JSON object nor an existing file")
        source, text = str(path), path.read_text(encoding="utf-8")
    try:
        params = json.loads(text)
    except json.JSONDecodeError as err:
        raise UserError(f"{source}: invalid JSON at line {err.lineno}: {err.msg}") from None
    if not isinstance(params, dict):
        raise UserError(f"{source}: expected a JSON object of learner parameters")
    return params


def load_split(compiled, arcs):
    """(CompiledCorpus, ArcStore) from their files; a missing or wrong file is a one-line UserError."""
    from coreflab.corpus.compiled import CompiledCorpus
    from coreflab.features.store import ArcStore
    from coreflab.learn.base import require_npz

    require_npz(compiled, "compiled corpus", "prepare")
    require_npz(arcs, "arc store", "features")
    try:
        corpus = CompiledCorpus.load(compiled)
    except (OSError, KeyError, ValueError) as err:
        raise UserError(f"{compiled}: not a readable compiled corpus ({err})") from None
    try:
        store = ArcStore.load(arcs)
    except (OSError, KeyError, ValueError) as err:
        raise UserError(f"{arcs}: not a readable arc store ({err})") from None
    return corpus, store
