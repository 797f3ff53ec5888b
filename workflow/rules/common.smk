# Config validation, wildcard constraints, target lists and the generic input functions; no paper's
# knowledge. Each paper is a registered `Paper` (coreflab.papers.registry: its targets, its rule file);
# its own functions are in its rule file and its package (a run grid bound to the config at the top
# of the rule file).

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
from coreflab.learn.registry import get_learner
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


def source_param(wildcards):
    return run_source(wildcards.corpus)


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


def corpus_options(wildcards):
    """The source options of one corpus as JSON (params: a change reruns the import)."""
    return json.dumps(
        config["corpora"].get(run_source(wildcards.corpus), {}), sort_keys=True
    )


def mention_model_used(run):
    return run_mentions(run) == "predicted" and config["mention_model"]["enabled"]


def prepare_inputs(wildcards):
    """A split's CoNLL, the training key (it decides, once per corpus, the singleton scheme) and, for
    predicted mentions, the mention classifier."""
    c = wildcards.corpus
    out = {
        "conll": f"results/{c}/data/{wildcards.split}.conll",
        "scheme": f"results/{c}/data/train.conll",
    }
    if mention_model_used(c):
        out["model"] = f"results/{c}/mentions/model.npz"
    return out


def mention_model_args(wildcards, input):
    if "model" not in input.keys():
        return ""
    cross = " --cross-fit" if wildcards.split == "train" else ""
    return f"--mention-model {input.model} --mention-filter {config['mention_model']['filter_below']}{cross}"


def selection_inputs(wildcards):
    """Template selection's inputs: the training split (it cuts its own held-out part from it), its
    compiled form (whose singleton policy the held-out responses follow), the tuned root loss, and
    the mention classifier of a predicted-mention run."""
    c = wildcards.corpus
    out = {
        "conll": f"results/{c}/data/train.conll",
        "compiled": f"results/{c}/compiled/train.npz",
        "tuned": root_loss_file(c),
    }
    if mention_model_used(c):
        out["model"] = f"results/{c}/mentions/model.npz"
    return out


def selection_model_args(wildcards, input):
    if "model" not in input.keys():
        return ""
    return f"--mention-model {input.model} --mention-filter {config['mention_model']['filter_below']}"


def parses_param(wildcards):
    """What the parse column holds: `auto` for a CoNLL-2012 release read with its auto files (where it has
    them: `read_annotation`), else gold."""
    source = run_source(wildcards.corpus)
    options = config["corpora"].get(source, {})
    if source != "conll2012" or options.get("annotation") != "auto":
        return "gold"
    from coreflab.corpus.readers.conll2012_release import read_annotation

    return read_annotation(
        options["local_dir"],
        wildcards.split,
        options.get("language", "english"),
        "auto",
    )


def systems():
    return list(config["systems"])


def score_files(wildcards):
    return {
        s: f"results/{wildcards.corpus}/scores/{s}/{wildcards.split}.json"
        for s in systems()
    }


def score_args(wildcards, input):
    return " ".join(f"--score {s}={input[s]}" for s in systems())


def compiled_splits(wildcards):
    return [f"results/{wildcards.corpus}/compiled/{s}.npz" for s in SPLITS]


# the registered papers, each with its rule file (included by the Snakefile) and its targets
PAPER_PLUGINS = {paper.name: paper for paper in paper_registry.papers()}
PAPERS = list(PAPER_PLUGINS)
TUNINGS = paper_registry.tunings()  # where each tuned learner parameter comes from


def paper_rule_file(paper):
    return paper_registry.rule_file(PAPER_PLUGINS[paper], workflow.basedir)


def paper_targets(paper):
    """The outputs of one paper's experiments for the configured runs."""
    return PAPER_PLUGINS[paper].targets(config, paper_runs(paper))


def paper_runs(paper):
    """The runs a paper's experiments use: those with its mentions (`paper_mentions`) when the config
    runs that mode, else every run."""
    wanted = config["paper_mentions"].get(paper)
    if wanted not in MENTION_MODES:
        return RUNS
    return [r for r in RUNS if run_mentions(r) == wanted]


def config_json(wildcards):
    """The validated config (defaults filled in), for the results manifest."""
    return json.dumps(config, sort_keys=True)


def all_targets(wildcards):
    out = []
    for corpus in RUNS:
        out += [
            f"results/{corpus}/manifest.json",
            f"results/{corpus}/leaderboard.md",
            f"results/{corpus}/overview.png",
            f"results/{corpus}/overview.pdf",
        ]
        if mention_model_used(corpus):
            out.append(f"results/{corpus}/mentions/detection.md")
        # models are targets too: deleting one reruns its training and exactly what depends on it
        # (Snakemake does not regenerate a missing intermediate file whose consumers are up to date)
        out += [
            f"results/{corpus}/models/{s}.npz"
            for s in systems()
            if s in LEARNER_SYSTEMS
        ]
    for paper in config["run"]["papers"]:
        out.extend(paper_targets(paper))
    out.append("results/skipped_experiments.md")
    return out


# ---- features and learners -------------------------------------------------------------


def featureset_dir(name):
    """Folder name under results/<corpus>/features/ of a configured feature set (name or path)."""
    return (
        os.path.splitext(os.path.basename(name))[0]
        if name.endswith((".yaml", ".yml"))
        else name
    )


FEATURESET = featureset_dir(config["features"]["featureset"])


def selection_file(corpus):
    return f"results/{corpus}/selection/selected.yaml"


def featureset_inputs(wildcards):
    """A split's compiled corpus, plus the selection output when the feature set is `selected`."""
    out = {"compiled": f"results/{wildcards.corpus}/compiled/{wildcards.split}.npz"}
    if wildcards.featureset == "selected":
        out["selection"] = selection_file(wildcards.corpus)
    return out


def featureset_arg(wildcards):
    """--featureset of the features job: the selection output, the configured path, or a name."""
    if wildcards.featureset == "selected":
        return selection_file(wildcards.corpus)
    configured = config["features"]["featureset"]
    return (
        configured
        if featureset_dir(configured) == wildcards.featureset
        else wildcards.featureset
    )


LEARNER_SYSTEMS = sorted(config["learners"])
LEARNER_SYSTEM_REGEX = "|".join(LEARNER_SYSTEMS) if LEARNER_SYSTEMS else "(?!)"


def window_option(wildcards):
    """--window (and --no-reach) of the arc stores, shared by features, selection and overview."""
    window = config["features"]["window"]
    return (f"--window {window}" if window else "") + (
        "" if config["features"]["reach"] else " --no-reach"
    )


def selection_nonlocal_schedule(wildcards):
    """How non-local templates are judged: the final delayed-LaSO model's passes and beam (the
    `bk_delayed_laso` learner's params) unless `selection.nonlocal_iterations`/`nonlocal_beam` say
    otherwise, averaged over `selection.nonlocal_seeds` training seeds."""
    sel = config["selection"]
    final = config.get("learners", {}).get("bk_delayed_laso", {}).get("params", {})
    iterations = (
        sel.get("nonlocal_iterations") or final.get("n_iter") or sel["iterations"]
    )
    beam = sel.get("nonlocal_beam") or final.get("beam") or 5
    return f"--nonlocal-iterations {iterations} --beam {beam} --nonlocal-seeds {sel['nonlocal_seeds']}"


def selection_option(key):
    """A params function: `--<key>` with the selection config's value, or nothing when it is null."""
    flag = f"--{key.replace('_', '-')}"
    return lambda wildcards: (
        f"{flag} {config['selection'][key]}" if config["selection"].get(key) else ""
    )


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


def system_tuning_files(wildcards):
    """{parameter: file} of the values a leaderboard learner takes from tuning (its `tuned_params`,
    coreflab.learn.tuned) that its config's parameters do not set: the root loss, or a paper's tuning.
    """
    entry = config["learners"][wildcards.system]
    return tuning_files(
        entry["learner"],
        get_learner(entry["learner"]),
        entry.get("params", {}),
        wildcards.corpus,
        TUNINGS,
    )


def system_training_inputs(wildcards):
    """Training inputs, and the files of the values the learner takes from tuning."""
    out = training_inputs(wildcards.corpus)
    for name, path in system_tuning_files(wildcards).items():
        out[f"tuned_{name}"] = path
    return out


def system_tuned_option(wildcards, input):
    return " ".join(
        f"--tuned {arg}"
        for arg in tuned_args(
            system_tuning_files(wildcards),
            TUNINGS,
            config["learners"][wildcards.system]["learner"],
        )
    )


def tuned_option(wildcards, input):
    return f"--tuned {input.tuned}" if "tuned" in input.keys() else ""


def root_loss_grid(wildcards):
    return ",".join(f"{x:g}" for x in config["root_loss"]["grid"])


def system_prediction_inputs(wildcards):
    return {
        "model": f"results/{wildcards.corpus}/models/{wildcards.system}.npz",
        **split_inputs(wildcards.corpus, wildcards.split),
    }


def system_learner(wildcards):
    return config["learners"][wildcards.system]["learner"]


def system_params(wildcards):
    return json.dumps(
        config["learners"][wildcards.system].get("params", {}), sort_keys=True
    )


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


# ---- leaderboard ------------------------------------------------------------------------------


def leaderboard_inputs(wildcards):
    c = wildcards.corpus
    out = {
        "scores": f"results/{c}/scores/systems_test.csv",
        "compiled": f"results/{c}/compiled/test.npz",
    }
    for s in systems():
        out[f"json_{s}"] = f"results/{c}/scores/{s}/test.json"
        if s in LEARNER_SYSTEMS:
            out[f"bench_{s}"] = f"results/{c}/benchmarks/train_{s}.tsv"
    return out


def leaderboard_args(wildcards, input):
    args = [f"--compiled {input.compiled}"]
    args += [f"--score-json {s}={input.get('json_%s' % s)}" for s in systems()]
    args += [
        f"--benchmark {s}={input.get('bench_%s' % s)}"
        for s in systems()
        if s in LEARNER_SYSTEMS
    ]
    return " ".join(args)


# ---- skipped experiments and docs ------------------------------------------------------------


def skipped_json(wildcards):
    """The skipped experiments as JSON (params: the table is rewritten when the set changes)."""
    return json.dumps(paper_registry.skipped_experiments(config))


# ---- docs -------------------------------------------------------------------------------------


def docs_templates():
    """docs/templates/results-<corpus>.md of every configured corpus that has one, results-<paper>.md of
    every paper run that has its own page (its experiments use corpora of their own), and the
    performance page (benchmark JSONs, made by `snakemake bench` or `python bench/<name>.py`).
    """
    names = (
        [f"results-{c}" for c in RUNS]
        + [f"results-{p}" for p in config["run"]["papers"]]
        + ["performance"]
    )
    return [
        f"docs/templates/{n}.md"
        for n in names
        if os.path.exists(os.path.join(REPO_DIR, f"docs/templates/{n}.md"))
    ]


def docs_inputs(wildcards):
    """Every result file the configured corpora's docs pages cite (so `snakemake docs` makes them)."""
    from coreflab.report.docs import references

    out = []
    for template in docs_templates():
        with open(os.path.join(REPO_DIR, template), encoding="utf-8") as fh:
            text = fh.read()
        out += [f"results/{r}" for r in references(text) if not r.startswith("bench/")]
    for paper in PAPER_PLUGINS.values():
        # a cited table nothing makes under this config: say why, before a MissingInputException would
        why = paper.docs_blocker(config, out) if paper.docs_blocker else None
        if why:
            sys.exit(f"coreflab: error: `snakemake docs` {why}")
    return sorted(set(out))


def docs_args(wildcards):
    pages = [(t, t.replace("docs/templates/", "docs/")) for t in docs_templates()]
    return " ".join(f"--template {t} --out {o}" for t, o in pages)
