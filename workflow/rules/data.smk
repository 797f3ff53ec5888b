# Corpus import (synthetic generator, open corpora, a user's CoNLL-2012 release) and compilation.


include: "data_helpers.smk"


rule import_corpus:
    output:
        conll="results/{corpus}/data/{split}.conll",
    log:
        "results/{corpus}/logs/import_{split}.log",
    benchmark:
        "results/{corpus}/benchmarks/import_{split}.tsv"
    # on every learner's path (data, features, root loss, selection): first, so that the jobs that
    # do not need them (Singh, 20 Newsgroups) fill the gaps instead of running before them
    priority: 20
    conda:
        "../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=4000,
        runtime=30,
    params:
        options=corpus_options,
        source=source_param,
    shell:
        "coreflab import --corpus {params.source} --split {wildcards.split} "
        "--options-json {params.options:q} --out {output.conll} > {log} 2>&1"


rule mention_model:
    input:
        conll="results/{corpus}/data/train.conll",
    output:
        model="results/{corpus}/mentions/model.npz",
        stats="results/{corpus}/mentions/model.json",
    log:
        "results/{corpus}/logs/mention_model.log",
    benchmark:
        "results/{corpus}/benchmarks/mention_model.tsv"
    priority: 20
    conda:
        "../envs/coreflab.yaml"
    threads: 2  # every learner waits for it: its six fits take both cores
    resources:
        mem_mb=4000,
        runtime=30,
    params:
        c=config["mention_model"]["c"],
        folds=config["mention_model"]["folds"],
        candidates=config["mention_model"]["candidates"],
    shell:
        "coreflab mention-model --conll {input.conll} --corpus {wildcards.corpus} --c {params.c} "
        "--folds {params.folds} --candidates {params.candidates} --jobs {threads} --out {output.model} --stats {output.stats} > {log} 2>&1"


rule prepare:
    input:
        unpack(prepare_inputs),
    output:
        compiled="results/{corpus}/compiled/{split}.npz",
        stats="results/{corpus}/compiled/{split}.stats.json",
    log:
        "results/{corpus}/logs/prepare_{split}.log",
    benchmark:
        "results/{corpus}/benchmarks/prepare_{split}.tsv"
    # on every learner's path (data, features, root loss, selection): first, so that the jobs that
    # do not need them (Singh, 20 Newsgroups) fill the gaps instead of running before them
    priority: 20
    conda:
        "../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=4000,
        runtime=30,
    params:
        mentions=mentions_param,
        model=mention_model_args,
        parses=parses_param,
        singletons=config["response_singletons"],
    shell:
        "coreflab prepare --conll {input.conll} --corpus {wildcards.corpus} --split {wildcards.split} "
        "--mentions {params.mentions} {params.model} --parses {params.parses} "
        "--singletons {params.singletons} --scheme-key {input.scheme} "
        "--out {output.compiled} --stats {output.stats} > {log} 2>&1"


localrules:
    mentions_table,


rule mentions_table:
    input:
        stats=expand(
            "results/{{corpus}}/compiled/{split}.stats.json", split=EVAL_SPLITS
        ),
        model="results/{corpus}/mentions/model.npz",
    output:
        csv="results/{corpus}/mentions/detection.csv",
        md="results/{corpus}/mentions/detection.md",
        tex="results/{corpus}/mentions/detection.tex",
        html=report(
            "results/{corpus}/mentions/detection.html",
            caption="../report/mentions_table.rst",
            category="Mentions",
            labels={"corpus": "{corpus}", "table": "mention detection"},
        ),
    log:
        "results/{corpus}/logs/mentions_table.log",
    conda:
        "../envs/coreflab.yaml"
    params:
        prefix="results/{corpus}/mentions/detection",
        stats=lambda wildcards, input: " ".join(f"--stats {s}" for s in input.stats),
        filter=config["mention_model"]["filter_below"],
    shell:
        "coreflab mentions-table {params.stats} --corpus {wildcards.corpus} --filter {params.filter} "
        "--out-prefix {params.prefix} > {log} 2>&1"
