# Config validation, wildcard constraints, target lists and the generic input functions: the only
# place for functions in the rule files. Each paper's run grid is coreflab.papers.<paper>.runs.Grid,
# bound to the config at the top of workflow/rules/papers/<paper>.smk.

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
from coreflab.learn.pairwise.crf_slt import first_fit_donor

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


PAPER_OUTPUTS = {
    "bk2014": [
        "paper/bk2014/fig3.png",
        "paper/bk2014/fig4.png",
        "paper/bk2014/table1.md",
        "selection/steps.csv",
    ],
    "bk2014_table2": ["paper/bk2014/table2.md"],
    "cc2007": [
        "paper/cc2007/table1.md",
        "paper/cc2007/table2.md",
        "paper/cc2007/table3.md",
    ],
    "hm2017": [
        "paper/hm2017/table1.md",
        "paper/hm2017/fig2.png",
        "paper/hm2017/fig3.png",
        "paper/hm2017/table2.md",
        "paper/hm2017/table3.md",
        "paper/hm2017/table4.md",
    ],
    "l3m2014": [
        "paper/l3m2014/table1.md",
        "paper/l3m2014/robustness.md",
        "paper/l3m2014/cccp_vs_sgd.md",
        "paper/l3m2014/order_control.md",
    ],
}


SINGH2011_OUTPUTS = [
    f"results/crossdoc/paper/singh2011/{name}"
    for name in (
        "fig5_workers.png",
        "fig6_hierarchy.png",
        "fig7_large.png",
        "table2.md",
    )
]


def paper_targets(paper, corpora=None):
    """The outputs of one paper's experiments for the configured corpora."""
    if (
        paper == "singh2011"
    ):  # cross-document: its own corpora, not the within-document ones
        return SINGH2011_OUTPUTS
    if (
        paper == "bk2014" and "bk_delayed_laso" in config["systems"]
    ):  # Table 2 needs that leaderboard system
        return paper_targets("bk2014_table2", corpora or paper_runs("bk2014")) + [
            f"results/{c}/{n}"
            for c in corpora or paper_runs("bk2014")
            for n in PAPER_OUTPUTS["bk2014"]
        ]
    names = PAPER_OUTPUTS[paper]
    if paper == "l3m2014" and doccluster_enabled():
        names = names + ["paper/l3m2014/table2_vi.md"]
    return [
        f"results/{corpus}/{name}"
        for corpus in corpora or paper_runs(paper)
        for name in names
    ]


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
    return f"results/{corpus}/tuning/root_loss.json"


def uses_tuned_root_loss(learner, params):
    """B&K learners take the root loss tuned on dev unless their parameters set one."""
    return learner.startswith("bk_") and "root_loss" not in params


def system_training_inputs(wildcards):
    out = training_inputs(wildcards.corpus)
    entry = config["learners"][wildcards.system]
    if uses_tuned_root_loss(entry["learner"], entry.get("params", {})):
        out["tuned"] = root_loss_file(wildcards.corpus)
    # Choi & Cardie's SLT learners start from BASE's fit: a leaderboard cc_base with the same
    # settings gives it instead of a second fit from scratch (the same model bit for bit)
    donor = first_fit_donor(config["learners"], config["systems"], wildcards.system)
    if donor is not None:
        out["first_fit"] = f"results/{wildcards.corpus}/models/{donor}.npz"
    return out


def tuned_option(wildcards, input):
    return f"--tuned {input.tuned}" if "tuned" in input.keys() else ""


def first_fit_option(wildcards, input):
    return f"--first-fit {input.first_fit}" if "first_fit" in input.keys() else ""


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
    """Training inputs and the tuned root loss (B&K learners whatever their parameters)."""
    return {
        **training_inputs(wildcards.corpus),
        "tuned": root_loss_file(wildcards.corpus),
    }


def doccluster_enabled():
    return optional_data.doccluster_enabled(config)


PAPERS = ["bk2014", "cc2007", "l3m2014", "hm2017", "singh2011"]


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
            donor = first_fit_donor(config["learners"], config["systems"], s)
            if donor is not None:  # its cost includes the fit it starts from
                out[f"bench_{s}_first_fit"] = (
                    f"results/{c}/benchmarks/train_{donor}.tsv"
                )
    return out


def leaderboard_args(wildcards, input):
    args = [f"--compiled {input.compiled}"]
    args += [f"--score-json {s}={input.get('json_%s' % s)}" for s in systems()]
    for s in systems():
        if s in LEARNER_SYSTEMS:
            paths = [
                input.get(k)
                for k in (f"bench_{s}", f"bench_{s}_first_fit")
                if k in input.keys()
            ]
            args.append(f"--benchmark {s}={','.join(paths)}")
    return " ".join(args)


# ---- wildcards of the paper rules --------------------------------------------------------


wildcard_constraints:
    hm_learner="lsp_f|lsp_yj|lsp_rho|lsp_rho_from_[A-Za-z0-9_]+",
    fraction="[0-9.]+",


# ---- skipped experiments and docs ------------------------------------------------------------


def skipped_json(wildcards):
    """The skipped experiments as JSON (params: the table is rewritten when the set changes)."""
    return json.dumps(optional_data.skipped_experiments(config))


# ---- docs -------------------------------------------------------------------------------------


def docs_templates():
    """docs/templates/results-<corpus>.md of every configured corpus that has one, and the
    performance page (benchmark JSONs, made by `snakemake bench` or `python bench/<name>.py`).
    """
    names = [f"results-{c}" for c in RUNS] + ["performance"]
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
    if not doccluster_enabled() and any(
        r.endswith("paper/l3m2014/table2_vi.csv") for r in out
    ):
        # nothing makes the table then: say why, before a MissingInputException would
        why, how = optional_data.newsgroups_missing(config)
        sys.exit(
            f"coreflab: error: `snakemake docs` re-renders pages that cite {optional_data.NEWSGROUPS}, "
            f"which this config skips ({why}): {how}"
        )
    return sorted(set(out))


def docs_args(wildcards):
    pages = [(t, t.replace("docs/templates/", "docs/")) for t in docs_templates()]
    return " ".join(f"--template {t} --out {o}" for t, o in pages)
