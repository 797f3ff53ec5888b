"""The mention stage's table: how much of the key each stage finds, per split and mention type.

Rows come from the `detection_by_type` entry that `coreflab prepare --mention-model` writes into a
split's stats JSON: the rules alone, the classifier's candidates (the rules plus the nested spans they
leave out) and the candidates the classifier keeps (`classifier`), each against the key's mentions (exact spans).
"""

import json
from pathlib import Path

import pandas as pd

from coreflab.errors import UserError

TYPE_NAMES = {"all": "all", "P": "pronoun", "N": "name", "C": "common noun phrase"}
STAGE_NAMES = {"rules": "rules", "candidates": "candidates", "classifier": "rules + classifier"}


def detection_frame(stats_files):
    """One row per split x stage x mention type: key mentions, predicted mentions, R/P/F1 in %."""
    rows = []
    for path in stats_files:
        stats = json.loads(Path(path).read_text())
        by_type = stats.get("detection_by_type")
        if by_type is None:
            raise UserError(f"{path}: no detection_by_type (was the split prepared with --mention-model?)")
        for stage, per_type in by_type.items():
            for letter, v in per_type.items():
                rows.append(
                    {
                        "split": stats["split"],
                        "stage": STAGE_NAMES.get(stage, stage),
                        "mention type": TYPE_NAMES.get(letter, letter),
                        "key": v["key"],
                        "predicted": v["predicted"],
                        "R": 100 * v["recall"],
                        "P": 100 * v["precision"],
                        "F1": 100 * v["f1"],
                    }
                )
    return pd.DataFrame(rows)
