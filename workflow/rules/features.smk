# The arc feature store of every split (local features of every candidate arc, computed once).
# featureset `selected` is the output of template selection (papers/bk2014.smk): selection → every learner.


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
