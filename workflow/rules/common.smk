# Helpers, wildcard constraints and target lists: the only place for Python functions.

import json
import os
import sys

from coreflab import optional_data
from coreflab.config import check_config, check_corpus_folders
from coreflab.errors import UserError

try:
    config = check_config(config, workflow.source_path("../schemas/config.schema.yaml"))
    check_corpus_folders(config)
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


PAPER_OUTPUTS = {
    "bk2014": ["paper/bk2014/fig3.png", "paper/bk2014/fig4.png", "paper/bk2014/table1.md", "selection/steps.csv"],
    "bk2014_table2": ["paper/bk2014/table2.md"],
    "cc2007": ["paper/cc2007/table1.md", "paper/cc2007/table2.md", "paper/cc2007/table3.md"],
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
    for name in ("fig5_workers.png", "fig6_hierarchy.png", "fig7_large.png", "table2.md")
]


def paper_targets(paper, corpora=None):
    """The outputs of one paper's experiments for the configured corpora."""
    if paper == "singh2011":  # cross-document: its own corpora, not the within-document ones
        return SINGH2011_OUTPUTS
    if paper == "bk2014" and "bk_delayed_laso" in config["systems"]:  # Table 2 needs that leaderboard system
        return paper_targets("bk2014_table2", corpora) + [
            f"results/{c}/{n}" for c in corpora or config["run"]["corpora"] for n in PAPER_OUTPUTS["bk2014"]
        ]
    names = PAPER_OUTPUTS[paper]
    if paper == "l3m2014" and doccluster_enabled():
        names = names + ["paper/l3m2014/table2_vi.md"]
    return [f"results/{corpus}/{name}" for corpus in corpora or config["run"]["corpora"] for name in names]


def config_json(wildcards):
    """The validated config (defaults filled in), for the results manifest."""
    return json.dumps(config, sort_keys=True)


def all_targets(wildcards):
    out = []
    for corpus in config["run"]["corpora"]:
        out += [
            f"results/{corpus}/manifest.json",
            f"results/{corpus}/leaderboard.md",
            f"results/{corpus}/overview.png",
            f"results/{corpus}/overview.pdf",
        ]
        # models are targets too: deleting one reruns its training and exactly what depends on it
        # (Snakemake does not regenerate a missing intermediate file whose consumers are up to date)
        out += [f"results/{corpus}/models/{s}.npz" for s in systems() if s in LEARNER_SYSTEMS]
    for paper in config["run"]["papers"]:
        out.extend(paper_targets(paper))
    out.append("results/skipped_experiments.md")
    return out


# ---- features and learners -------------------------------------------------------------

def featureset_dir(name):
    """Folder name under results/<corpus>/features/ of a configured feature set (name or path)."""
    return os.path.splitext(os.path.basename(name))[0] if name.endswith((".yaml", ".yml")) else name


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
    return configured if featureset_dir(configured) == wildcards.featureset else wildcards.featureset


LEARNER_SYSTEMS = sorted(config["learners"])
LEARNER_SYSTEM_REGEX = "|".join(LEARNER_SYSTEMS) if LEARNER_SYSTEMS else "(?!)"


def window_option(wildcards):
    """--window (and --no-reach) of the arc stores, shared by features, selection and overview."""
    window = config["features"]["window"]
    return (f"--window {window}" if window else "") + ("" if config["features"]["reach"] else " --no-reach")


def singletons_flag(wildcards):
    """Singletons in responses: `auto` leaves it to `coreflab predict`, which keeps them iff the
    key annotates them (as string match does); keep/drop force it."""
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
    train, dev = split_inputs(corpus, "train", featureset), split_inputs(corpus, "dev", featureset)
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
    return out


def tuned_option(wildcards, input):
    return f"--tuned {input.tuned}" if "tuned" in input.keys() else ""


def root_loss_grid(wildcards):
    return ",".join(f"{x:g}" for x in config["root_loss"]["grid"])


def system_prediction_inputs(wildcards):
    return {"model": f"results/{wildcards.corpus}/models/{wildcards.system}.npz", **split_inputs(wildcards.corpus, wildcards.split)}


def system_learner(wildcards):
    return config["learners"][wildcards.system]["learner"]


def system_params(wildcards):
    return json.dumps(config["learners"][wildcards.system].get("params", {}), sort_keys=True)


def paper_inputs(corpus, *splits):
    """Named compiled/arcs/conll inputs of several splits: train_compiled, test_arcs, ..."""
    out = {}
    for split in splits:
        for kind, path in split_inputs(corpus, split).items():
            out[f"{split}_{kind}"] = path
    return out


# ---- Björkelund & Kuhn 2014 --------------------------------------------------------------


def bk2014_runs():
    """Run names <learner>-<local|nonlocal>-b<beam> for Figs. 3 and 4 and Table 1."""
    beams = config["bk2014"]["beams"]
    runs = ["bk_baseline-local-b1"]
    for features in ("local", "nonlocal"):
        runs += [f"bk_early-{features}-b{b}" for b in beams]
        runs += [f"{l}-{features}-b{beams[0]}" for l in config["bk2014"]["strategies"] if l != "bk_early"]
    return sorted(set(runs))


def _bk_run_parts(run):
    learner, features, beam = run.rsplit("-", 2)
    return learner, features, int(beam[1:])


def bk2014_run_inputs(wildcards):
    return {**training_inputs(wildcards.corpus), "tuned": root_loss_file(wildcards.corpus)}


def bk2014_run_learner(wildcards):
    return _bk_run_parts(wildcards.run)[0]


def bk2014_run_params(wildcards):
    learner, features, beam = _bk_run_parts(wildcards.run)
    params = {"n_iter": config["bk2014"]["iterations"], "beam": beam}
    if features == "nonlocal":
        params["nonlocal_templates"] = config["bk2014"]["nonlocal_templates"]
    return json.dumps(params, sort_keys=True)


def bk2014_curve_files(wildcards):
    return [f"results/{wildcards.corpus}/paper/bk2014/runs/{r}.csv" for r in bk2014_runs()]


def bk2014_curve_args(wildcards, input):
    return " ".join(f"--curve {r}={p}" for r, p in zip(bk2014_runs(), input.curves))


def bk2014_beams(wildcards):
    return ",".join(str(b) for b in config["bk2014"]["beams"])


# ---- Choi & Cardie 2007 -------------------------------------------------------------------


def cc2007_runs():
    """<learner>-<bias>-<λ>: BASE and both SLT variants, unbiased and with every bias × λ."""
    runs = []
    for learner in ("cc_base", "cc_slt_closest", "cc_slt_preserving"):
        runs.append(f"{learner}-none-1")
        runs += [f"{learner}-{b}-{w:g}" for b in config["cc2007"]["biases"] for w in config["cc2007"]["bias_weights"]]
    return runs


def cc2007_run_inputs(wildcards):
    return paper_inputs(wildcards.corpus, "train", "test")


def cc2007_run_args(wildcards):
    learner, bias, weight = wildcards.run.rsplit("-", 2)
    return f"--learner {learner} --bias {bias} --bias-weight {weight}"


def cc2007_run_files(wildcards):
    return [f"results/{wildcards.corpus}/paper/cc2007/runs/{r}.csv" for r in cc2007_runs()]


# ---- Samdani, Chang & Roth 2014 -------------------------------------------------------------

L3M_BASELINES = ("corr_clustering", "spanning_forest", "sumlink", "binleftlink")


def l3m2014_techniques():
    return [*L3M_BASELINES, *(f"l3m-g{g:g}" for g in config["l3m2014"]["gammas"])]


def l3m2014_inputs(wildcards):
    return paper_inputs(wildcards.corpus, "train", "dev", "test")


def l3m2014_learner(wildcards):
    return "l3m" if wildcards.technique.startswith("l3m-g") else wildcards.technique


def l3m2014_params(wildcards):
    params = dict(config["l3m2014"]["learner_params"].get(l3m2014_learner(wildcards), {}))
    if wildcards.technique.startswith("l3m-g"):
        params["gamma"] = float(wildcards.technique[len("l3m-g"):])
    return json.dumps(params, sort_keys=True)


def doccluster_enabled():
    return optional_data.doccluster_enabled(config)


def doccluster_files():
    if not doccluster_enabled():
        return []
    return [f"results/doccluster/runs/{k}_{o}.csv" for k in ("author", "thread") for o in ("natural", "shuffled")]


def doccluster_shuffle_flag(wildcards):
    return "--shuffle-items" if wildcards.order == "shuffled" else ""


def l3m2014_table_inputs(wildcards):
    base = f"results/{wildcards.corpus}/paper/l3m2014/runs"
    return {
        "curves": [f"{base}/curves_{t}.csv" for t in l3m2014_techniques()],
        "robustness": f"{base}/robustness.csv",
        "cccp": f"{base}/cccp_vs_sgd.csv",
        "order": f"{base}/order_control.csv",
        "doccluster": doccluster_files(),
    }


def l3m2014_doccluster_args(wildcards, input):
    files = " ".join(input.doccluster)
    return f"--doccluster {files}" if input.doccluster else ""

PAPERS = ["bk2014", "cc2007", "l3m2014", "hm2017", "singh2011"]


# ---- leaderboard ------------------------------------------------------------------------------


def leaderboard_inputs(wildcards):
    c = wildcards.corpus
    out = {"scores": f"results/{c}/scores/systems_test.csv"}
    for s in systems():
        out[f"json_{s}"] = f"results/{c}/scores/{s}/test.json"
        if s in LEARNER_SYSTEMS:
            out[f"bench_{s}"] = f"results/{c}/benchmarks/train_{s}.tsv"
    return out


def leaderboard_args(wildcards, input):
    args = [f"--score-json {s}={input.get('json_%s' % s)}" for s in systems()]
    args.extend(f"--benchmark {s}={input.get('bench_%s' % s)}" for s in systems() if s in LEARNER_SYSTEMS)
    return " ".join(args)


# ---- Haponchyk & Moschitti 2017 ------------------------------------------------------------

# ---- Haponchyk & Moschitti 2017 ----------------------------------------------------------

HM2017_LEARNERS = ["lsp_f", "lsp_yj", "lsp_rho"]


wildcard_constraints:
    hm_learner="lsp_f|lsp_yj|lsp_rho|lsp_rho_from_[A-Za-z0-9_]+",
    fraction="[0-9.]+",


def hm2017_base_learner(name):
    """lsp_rho_from_<corpus> (LSP_rho with another corpus's regressor) trains lsp_rho."""
    return "lsp_rho" if name.startswith("lsp_rho") else name


def hm2017_fraction(f):
    return f"{float(f):g}"


def hm2017_tune_inputs(wildcards):
    out = paper_inputs(wildcards.corpus, "train", "dev")
    if wildcards.learner == "lsp_rho":
        out["regressor"] = f"results/{wildcards.corpus}/paper/hm2017/regressor.json"
    return out


def hm2017_tune_options(wildcards, input):
    if wildcards.learner == "lsp_rho":
        return f"--regressor {input.regressor}"
    tune = config["hm2017"]["tune"]
    r = tune["r_f"] if wildcards.learner == "lsp_f" else tune["r_yj"]
    return "--r-grid " + ",".join(f"{x:g}" for x in r)


def hm2017_C_grid(wildcards):
    return ",".join(f"{x:g}" for x in config["hm2017"]["tune"]["C"])


def hm2017_run_inputs(wildcards):
    c = wildcards.corpus
    out = paper_inputs(c, "train", "dev", "test")
    out["ranking"] = f"results/{c}/paper/hm2017/ranking.npz"
    out["tuned"] = f"results/{c}/paper/hm2017/tune/{hm2017_base_learner(wildcards.hm_learner)}.json"
    if wildcards.hm_learner == "lsp_rho":
        out["regressor"] = f"results/{c}/paper/hm2017/regressor.json"
    elif wildcards.hm_learner.startswith("lsp_rho_from_"):
        source = wildcards.hm_learner[len("lsp_rho_from_"):]
        out["regressor"] = f"results/{source}/paper/hm2017/regressor.json"
    return out


def hm2017_run_options(wildcards, input):
    opts = (f"--learner {hm2017_base_learner(wildcards.hm_learner)} --label {wildcards.hm_learner} "
            f"--tuned {input.tuned}")
    regressor = getattr(input, "regressor", None)
    if regressor:
        opts += f" --regressor {regressor}"
    return opts


def hm2017_run_params(wildcards):
    h = config["hm2017"]
    params = {"n_iter": h["n_iter"]}
    if wildcards.hm_learner.startswith("lsp_rho"):
        params.update(calibration=h["calibration"], max_passes=h["max_passes"])
    return json.dumps(params, sort_keys=True)


def hm2017_second_corpus(corpus):
    """Table 4's corpus for `corpus` (config hm2017.pairs; itself when unpaired)."""
    return config["hm2017"]["pairs"].get(corpus, corpus)


def hm2017_report_inputs(wildcards):
    c = wildcards.corpus
    h = config["hm2017"]
    second = hm2017_second_corpus(c)
    base = f"results/{c}/paper/hm2017"
    return {
        "runs": [f"{base}/runs/{l}-{hm2017_fraction(f)}.csv" for l in HM2017_LEARNERS for f in h["fractions"]],
        "second_runs": [f"results/{second}/paper/hm2017/runs/{l}-1.csv"
                        for l in HM2017_LEARNERS + [f"lsp_rho_from_{c}"]],
        "tuned": [f"{base}/tune/{l}.json" for l in HM2017_LEARNERS],
        "ranking": f"{base}/ranking.npz",
    }


# ---- Singh et al. 2011 ------------------------------------------------------------------------


def ecbplus_available():
    """ECB+ runs when its folder exists (config crossdoc.ecbplus_dir); the synthetic corpora always run."""
    return optional_data.ecbplus_available(config)


def skipped_json(wildcards):
    """The skipped experiments as JSON (params: the table is rewritten when the set changes)."""
    return json.dumps(optional_data.skipped_experiments(config))


def crossdoc_fig7_traces(wildcards):
    workers = config["crossdoc"]["workers"]
    out = [f"results/crossdoc/traces/large_string_hier_K{k}.csv" for k in workers]
    if ecbplus_available():
        out.append(f"results/crossdoc/traces/ecbplus_string_hier_K{max(workers)}.csv")
        out.append(f"results/crossdoc/traces/ecbplus_string_hier_K{max(workers)}_within.csv")  # within-topic
    return out


def crossdoc_tuning_params(wildcards):
    """Model, initialisation, string-weight grid and evaluated schedule the prior is tuned for:
    Person-X runs (Figs. 5-6) start from singletons with w meaningless (every string is X), the
    string-initialised runs (Fig. 7, Table 2) use the hierarchical model."""
    c = config["crossdoc"]
    if wildcards.corpus == "personx":
        # mention-pair Person-X runs share the flat model's prior; node-level (union) runs score
        # aggregated contexts, whose cosines are on another scale, so they get their own
        union = wildcards.ctx == "_union"
        return dict(model="hier" if union else "flat", context="union" if union else "pairwise",
                    init="singletons", weights="0", start_w=0, rounds=c["rounds"], samples=c["samples_per_round"])
    return dict(model="hier", context=c["context"], init="string",
                weights=" ".join(map(str, c["tune"]["string_weight_grid"])), start_w=c["string_weight"],
                rounds=c["large_rounds"], samples=c["large_samples_per_round"])


def crossdoc_baseline_files(wildcards):
    corpora = ["large", "ecbplus"] if ecbplus_available() else ["large"]
    return [f"results/crossdoc/baselines/{c}.csv" for c in corpora]


# ---- docs -------------------------------------------------------------------------------------


def docs_templates():
    """docs/templates/results-<corpus>.md of every configured corpus that has one, and the
    performance page (benchmark JSONs, made by `snakemake bench` or `python bench/<name>.py`)."""
    names = [f"results-{c}" for c in config["run"]["corpora"]] + ["performance"]
    return [f"docs/templates/{n}.md" for n in names if os.path.exists(os.path.join(workflow.basedir, f"docs/templates/{n}.md"))]


def docs_inputs(wildcards):
    """Every result file the configured corpora's docs pages cite (so `snakemake docs` makes them)."""
    from coreflab.report.docs import references

    out = []
    for template in docs_templates():
        with open(os.path.join(workflow.basedir, template), encoding="utf-8") as fh:
            text = fh.read()
        out += [f"results/{r}" for r in references(text) if not r.startswith("bench/")]
    return sorted(set(out))


def docs_args(wildcards):
    pages = [(t, t.replace("docs/templates/", "docs/")) for t in docs_templates()]
    return " ".join(f"--template {t} --out {o}" for t, o in pages)
