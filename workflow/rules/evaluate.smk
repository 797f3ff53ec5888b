# Baseline predictions, scoring with the CoNLL metrics, tidy score tables.


include: "evaluate_helpers.smk"


rule string_match:
    input:
        compiled="results/{corpus}/compiled/{split}.npz",
        conll="results/{corpus}/data/{split}.conll",
    output:
        conll="results/{corpus}/predictions/string_match/{split}.conll",
    log:
        "results/{corpus}/logs/string_match_{split}.log",
    benchmark:
        "results/{corpus}/benchmarks/string_match_{split}.tsv"
    conda:
        "../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=20,
    params:
        singletons=config["response_singletons"],
    shell:
        "coreflab baseline --compiled {input.compiled} --conll {input.conll} "
        "--singletons {params.singletons} --out {output.conll} > {log} 2>&1"


rule score:
    input:
        key="results/{corpus}/data/{split}.conll",
        response="results/{corpus}/predictions/{system}/{split}.conll",
    output:
        json="results/{corpus}/scores/{system}/{split}.json",
    log:
        "results/{corpus}/logs/score_{system}_{split}.log",
    benchmark:
        "results/{corpus}/benchmarks/score_{system}_{split}.tsv"
    conda:
        "../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    shell:
        "coreflab score {input.key} {input.response} --format json --per-doc > {output.json} 2> {log}"


rule scores_table:
    input:
        unpack(score_files),
    output:
        csv="results/{corpus}/scores/systems_{split}.csv",
    log:
        "results/{corpus}/logs/scores_table_{split}.log",
    benchmark:
        "results/{corpus}/benchmarks/scores_table_{split}.tsv"
    conda:
        "../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        scores=score_args,
    shell:
        "coreflab scores-table --corpus {wildcards.corpus} --split {wildcards.split} "
        "{params.scores} --out {output.csv} > {log} 2>&1"
