# The arc feature store of every split (local features of every candidate arc, computed once), and
# greedy template selection (B&K 2014 Sec. 6): featureset `selected` is its output, which every learner
# is trained on.


def selection_file(corpus):
    return f"results/{corpus}/selection/selected.yaml"


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


rule features:
    input:
        unpack(featureset_inputs),
    output:
        arcs="results/{corpus}/features/{featureset}/{split}.npz",
    log:
        "results/{corpus}/logs/features_{featureset}_{split}.log",
    benchmark:
        "results/{corpus}/benchmarks/features_{featureset}_{split}.tsv"
    # on every learner's path (data, features, root loss, selection): first, so that the jobs that
    # do not need them (Singh, 20 Newsgroups) fill the gaps instead of running before them
    priority: 20
    conda:
        "../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=6000,
        runtime=30,
    params:
        bits=config["features"]["bits"],
        window=window_option,
        featureset=featureset_arg,
        layout="" if config["features"]["shared_rows"] else "--flat",
    shell:
        "coreflab features --compiled {input.compiled} --featureset {params.featureset} "
        "--bits {params.bits} {params.window} {params.layout} --out {output.arcs} > {log} 2>&1"


rule select_templates:
    input:
        unpack(selection_inputs),
    output:
        log=report(
            "results/{corpus}/selection/steps.html",
            caption="../report/selection.rst",
            category="Björkelund & Kuhn 2014",
            labels={"corpus": "{corpus}", "item": "feature selection"},
        ),
        log_csv="results/{corpus}/selection/steps.csv",
        featureset="results/{corpus}/selection/selected.yaml",
    log:
        "results/{corpus}/logs/select_templates.log",
    benchmark:
        "results/{corpus}/benchmarks/select_templates.tsv"
    # on every learner's path (data, features, root loss, selection): first, so that the jobs that
    # do not need them (Singh, 20 Newsgroups) fill the gaps instead of running before them
    priority: 20
    conda:
        "../envs/coreflab.yaml"
    threads: config["selection"]["jobs"]
    resources:
        mem_mb=8000,
        runtime=240,
    params:
        mentions=mentions_param,
        model=selection_model_args,
        start=config["selection"]["start"],
        candidates=config["selection"]["candidates"],
        nonlocal_candidates=",".join(config["selection"]["nonlocal_candidates"]),
        iterations=config["selection"]["iterations"],
        nonlocal_schedule=selection_nonlocal_schedule,
        max_steps=config["selection"]["max_steps"],
        nonlocal_max_steps=selection_option("nonlocal_max_steps"),
        sample="" if config["selection"]["sample"] else "--no-sample",
        seed=config["seed"],
        bits=config["features"]["bits"],
        window=window_option,
        singletons=config["response_singletons"],
    shell:
        "coreflab select --conll {input.conll} --corpus {wildcards.corpus} --mentions {params.mentions} {params.model} "
        "--singletons {params.singletons} --policy-from {input.compiled} "
        "--start {params.start} --candidates {params.candidates} --nonlocal {params.nonlocal_candidates:q} "
        "--iterations {params.iterations} {params.nonlocal_schedule} --bits {params.bits} {params.window} --max-steps {params.max_steps} {params.nonlocal_max_steps} {params.sample} --jobs {threads} --seed {params.seed} "
        "--tuned {input.tuned} --log-out {output.log_csv} --out {output.featureset} > {log} 2>&1"
