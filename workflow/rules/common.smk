# Helpers, wildcard constraints and target lists: the only place for Python functions.

import json
import sys

from coreflab.config import check_config
from coreflab.errors import UserError

try:
    config = check_config(config, workflow.source_path("../schemas/config.schema.yaml"))
except UserError as err:
    sys.exit(f"coreflab: error: {err}")

SPLITS = ["train", "dev", "test"]
EVAL_SPLITS = ["dev", "test"]


wildcard_constraints:
    corpus="[A-Za-z0-9_]+",
    split="train|dev|test",
    system="[A-Za-z0-9_]+",


def corpus_options(wildcards):
    """The source options of one corpus as JSON (params: a change reruns the import)."""
    return json.dumps(config["corpora"].get(wildcards.corpus, {}), sort_keys=True)


def systems():
    return list(config["systems"])


def score_files(wildcards):
    return {s: f"results/{wildcards.corpus}/scores/{s}/{wildcards.split}.json" for s in systems()}


def score_args(wildcards, input):
    return " ".join(f"--score {s}={input[s]}" for s in systems())


def compiled_splits(wildcards):
    return [f"results/{wildcards.corpus}/compiled/{s}.npz" for s in SPLITS]


def all_targets(wildcards):
    out = []
    for corpus in config["run"]["corpora"]:
        out += [
            f"results/{corpus}/leaderboard.md",
            f"results/{corpus}/overview.png",
            f"results/{corpus}/overview.pdf",
        ]
    return out
