# The arc feature store of every split (local features of every candidate arc, computed once).


rule features:
    input:
        compiled="results/{corpus}/compiled/{split}.npz",
    output:
        arcs="results/{corpus}/features/{featureset}/{split}.npz",
    params:
        bits=config["features"]["bits"],
        window=window_option,
    log:
        "results/{corpus}/logs/features_{featureset}_{split}.log",
    benchmark:
        "results/{corpus}/benchmarks/features_{featureset}_{split}.tsv"
    threads: 1
    resources:
        mem_mb=6000,
        runtime=30,
    conda:
        "../envs/coreflab.yaml"
    shell:
        "coreflab features --compiled {input.compiled} --featureset {wildcards.featureset} "
        "--bits {params.bits} {params.window} --out {output.arcs} > {log} 2>&1"
