# Corpus import (synthetic generator, open corpora, a user's CoNLL-2012 release) and compilation.


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
    shell:
        "coreflab import --corpus {wildcards.corpus} --split {wildcards.split} "
        "--options-json {params.options:q} --out {output.conll} > {log} 2>&1"


rule prepare:
    input:
        conll="results/{corpus}/data/{split}.conll",
        # the training key decides, once per corpus, whether responses keep one-mention clusters
        scheme="results/{corpus}/data/train.conll",
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
        mentions=config["mentions"],
        singletons=config["response_singletons"],
    shell:
        "coreflab prepare --conll {input.conll} --corpus {wildcards.corpus} --split {wildcards.split} "
        "--mentions {params.mentions} --singletons {params.singletons} --scheme-key {input.scheme} "
        "--out {output.compiled} --stats {output.stats} > {log} 2>&1"
