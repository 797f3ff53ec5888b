# Benchmarks (cost as the work grows): `snakemake bench` reruns the scaling sweeps
# (bench/scaling.py: time and peak memory against candidate arcs and beam size; the Dask worker
# numbers are read from bench/crossdoc.py's JSON) and collects every bench/results/*.json into
# one figure and one table of numbers against their targets (`coreflab bench-report`). Not part of
# `all`, not run by CI: the sweeps take about 5 minutes on two cores and need ~2 GB. The other
# bench/*.py scripts are run by hand; their committed JSONs are read as they are. The committed
# scaling.json counts as up to date: `snakemake bench --forcerun bench_scaling` measures again.


localrules:
    bench,
    bench_collect,


rule bench_scaling:
    input:
        # ancient: a fresh clone writes the script and its committed record in either order
        script=ancient("bench/scaling.py"),
    output:
        json="bench/results/scaling.json",
    log:
        "results/bench/logs/scaling.log",
    benchmark:
        "results/bench/benchmarks/scaling.tsv"
    conda:
        "../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=4000,
        runtime=30,
    shell:
        "python {input.script} --out {output.json} > {log} 2>&1"


rule bench_collect:
    input:
        scaling="bench/results/scaling.json",
        others=[
            f"bench/results/{name}.json"
            for name in glob_wildcards("bench/results/{name,[A-Za-z0-9_]+}.json").name
            if name != "scaling"
        ],
    output:
        png=report(
            "bench/results/scaling.png",
            category="Benchmarks",
            labels={"figure": "scaling"},
        ),
        pdf="bench/results/scaling.pdf",
        csv="bench/results/scaling.csv",
        md=report(
            "bench/results/scaling.md",
            category="Benchmarks",
            labels={"table": "targets"},
        ),
    log:
        "results/bench/logs/collect.log",
    benchmark:
        "results/bench/benchmarks/collect.tsv"
    conda:
        "../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    shell:
        "coreflab bench-report {input.scaling} {input.others} --png {output.png} --pdf {output.pdf} "
        "--csv {output.csv} --md {output.md} > {log} 2>&1"


rule bench:
    input:
        rules.bench_collect.output,
