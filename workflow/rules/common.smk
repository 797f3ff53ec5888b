# Config validation, wildcard constraints, runs and the generic input functions that stage and paper
# rule files share; no paper's or learner's knowledge. A helper of one stage sits at the top of that
# stage's rule file; a paper's own functions are in its rule file and its package.

import json
import os
import sys

from coreflab import optional_data
from coreflab.config import (
    check_config,
    check_corpus_folders,
    key_origin,
    untrained_learners_note,
)
from coreflab.errors import UserError
from coreflab.learn.registry import first_fit_source, get_learner
from coreflab.learn.tuned import ROOT_LOSS, tuned_args, tuning_files
from coreflab.papers import registry as paper_registry

try:
    config = check_config(config, workflow.source_path("../schemas/config.schema.yaml"))
    check_corpus_folders(config)
except UserError as err:
    # the Snakefile's config/config.yaml first, then --configfile's files, each over the one before
    files = ["config/config.yaml", *workflow.overwrite_configfiles]
    where = key_origin(err, files, workflow.config_settings.config)
    sys.exit(f"coreflab: error: {err}{where}")
UNTRAINED_NOTE = untrained_learners_note(config)
if UNTRAINED_NOTE:
    print(UNTRAINED_NOTE, file=sys.stderr)

# the repository root: workflow/Snakefile sits one level below it
REPO_DIR = os.path.dirname(workflow.basedir)
SPLITS = ["train", "dev", "test"]
EVAL_SPLITS = ["dev", "test"]

# A run is a corpus with one mention mode: gold mentions write results/<corpus>/, predicted mentions
# results/<corpus>_predicted/ (`mentions: [gold, predicted]` runs both side by side).
PREDICTED_SUFFIX = "_predicted"
MENTION_MODES = (
    [config["mentions"]] if isinstance(config["mentions"], str) else config["mentions"]
)


def run_name(corpus, mentions):
    return corpus + (PREDICTED_SUFFIX if mentions == "predicted" else "")


RUNS = [run_name(c, m) for c in config["run"]["corpora"] for m in MENTION_MODES]


def run_mentions(run):
    """The mention mode of a run (see RUNS)."""
    base = run[: -len(PREDICTED_SUFFIX)]
    return (
        "predicted"
        if run.endswith(PREDICTED_SUFFIX) and base in config["corpora"]
        else "gold"
    )


def run_source(run):
    """The configured corpus of a run (its entry under `corpora`)."""
    return run[: -len(PREDICTED_SUFFIX)] if run_mentions(run) == "predicted" else run


def mentions_param(wildcards):
    return run_mentions(wildcards.corpus)


wildcard_constraints:
    corpus="[A-Za-z0-9_]+",
    split="train|dev|test",
    system="[A-Za-z0-9_]+",


def mem_mb_from_inputs(factor, floor_mb):
    """mem_mb of a job whose peak grows with its input files: factor times their size, at least floor_mb
    (H&M's feature ranking peaks at about 3.1 times its inputs: 6.2 GB at CoNLL-2012 size with `local_fine`,
    2.0 GB of inputs; a larger corpus would pass a fixed 8000 MB request, which SLURM enforces).
    """
    return lambda wildcards, input: max(floor_mb, int(factor * input.size_mb) + 1)


def mention_model_used(run):
    return run_mentions(run) == "predicted" and config["mention_model"]["enabled"]


def systems():
    return list(config["systems"])


TUNINGS = paper_registry.tunings()  # where each tuned learner parameter comes from


# ---- features and learners -------------------------------------------------------------


def featureset_dir(name):
    """Folder name under results/<corpus>/features/ of a configured feature set (name or path)."""
    return (
        os.path.splitext(os.path.basename(name))[0]
        if name.endswith((".yaml", ".yml"))
        else name
    )


FEATURESET = featureset_dir(config["features"]["featureset"])


LEARNER_SYSTEMS = sorted(config["learners"])
LEARNER_SYSTEM_REGEX = "|".join(LEARNER_SYSTEMS) if LEARNER_SYSTEMS else "(?!)"


def singletons_flag(wildcards):
    """Singletons in responses: `auto` leaves it to `coreflab predict`, which follows the decision the
    compiled split records for its corpus (`coreflab prepare`); keep/drop force it."""
    policy = config["response_singletons"]
    return {"keep": "--keep-singletons", "drop": "--drop-singletons"}.get(policy, "")


def split_inputs(corpus, split, featureset=None):
    featureset = featureset or FEATURESET
    return {
        "compiled": f"results/{corpus}/compiled/{split}.npz",
        "arcs": f"results/{corpus}/features/{featureset}/{split}.npz",
        "conll": f"results/{corpus}/data/{split}.conll",
    }


def training_inputs(corpus, featureset=None):
    train, dev = split_inputs(corpus, "train", featureset), split_inputs(
        corpus, "dev", featureset
    )
    return {
        "compiled": train["compiled"],
        "arcs": train["arcs"],
        "dev_compiled": dev["compiled"],
        "dev_arcs": dev["arcs"],
        "dev_conll": dev["conll"],
    }


def root_loss_file(corpus):
    return ROOT_LOSS.file(corpus, None)


def tuned_option(wildcards, input):
    return f"--tuned {input.tuned}" if "tuned" in input.keys() else ""


def paper_inputs(corpus, *splits):
    """Named compiled/arcs/conll inputs of several splits: train_compiled, test_arcs, ..."""
    out = {}
    for split in splits:
        for kind, path in split_inputs(corpus, split).items():
            out[f"{split}_{kind}"] = path
    return out


def train_test_inputs(wildcards):
    return paper_inputs(wildcards.corpus, "train", "test")


def train_dev_inputs(wildcards):
    return paper_inputs(wildcards.corpus, "train", "dev")


def train_dev_test_inputs(wildcards):
    return paper_inputs(wildcards.corpus, "train", "dev", "test")


def tuned_training_inputs(wildcards):
    """Training inputs and the tuned root loss, for a job that takes it whatever the parameters."""
    return {
        **training_inputs(wildcards.corpus),
        "tuned": root_loss_file(wildcards.corpus),
    }
