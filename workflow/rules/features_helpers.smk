# Input functions and settings of features.smk's rules (Snakemake's lint wants rules and functions apart).


def selection_file(corpus):
    """The selected templates a corpus's learners use: its own selection's, or with
    `selection.from_corpus` another corpus's (synth_hard: H&M's loss transfer only)."""
    source = config["selection"]["from_corpus"].get(corpus, corpus)
    return f"results/{source}/selection/selected.yaml"


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
