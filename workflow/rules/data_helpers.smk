# Input functions and settings of data.smk's rules (Snakemake's lint wants rules and functions apart).


def source_param(wildcards):
    return run_source(wildcards.corpus)


def corpus_options(wildcards):
    """The source options of one corpus as JSON (params: a change reruns the import)."""
    return json.dumps(
        config["corpora"].get(run_source(wildcards.corpus), {}), sort_keys=True
    )


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
