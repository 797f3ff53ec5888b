# Choi & Cardie 2007: BASE, SLT (both E-steps) and biased potentials; Tables 1-3. One job per
# bias setting trains the three learners, which share their first fit (iteration 1 on y*); a
# learner the leaderboard already fits with the same settings is scored from its model.

from coreflab.papers.cc2007 import runs as cc2007_runs

CC2007 = cc2007_runs.Grid(config)


localrules:
    cc2007_tables,


rule cc2007_run:
    input:
        unpack(train_test_inputs),
        unpack(CC2007.fitted_models),
    output:
        base="results/{corpus}/paper/cc2007/runs/cc_base-{setting}.csv",
        closest="results/{corpus}/paper/cc2007/runs/cc_slt_closest-{setting}.csv",
        preserving="results/{corpus}/paper/cc2007/runs/cc_slt_preserving-{setting}.csv",
    log:
        "results/{corpus}/logs/cc2007_{setting}.log",
    benchmark:
        "results/{corpus}/benchmarks/cc2007_{setting}.tsv"
    wildcard_constraints:
        setting="(none|p1|pa)-[0-9.]+",
    # the run's longest jobs on real corpora (five pair-model fits each): started first, not left
    # to run alone at the end (GUM: the last 4 minutes of the run, on one core)
    priority: 6
    conda:
        "../../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=8000,
        runtime=240,
    params:
        args=CC2007.setting_args,
        seed=config["seed"],
        iterations=config["cc2007"]["em_iterations"],
        max_iter=config["cc2007"]["max_iter"],
        fitted=CC2007.fitted_args,
    shell:
        "coreflab cc2007 run {params.args} --em-iterations {params.iterations} --max-iter {params.max_iter} "
        "--seed {params.seed} {params.fitted} "
        "--learner cc_base --out {output.base} --learner cc_slt_closest --out {output.closest} "
        "--learner cc_slt_preserving --out {output.preserving} "
        "--train-compiled {input.train_compiled} --train-arcs {input.train_arcs} --train-conll {input.train_conll} "
        "--test-compiled {input.test_compiled} --test-arcs {input.test_arcs} --test-conll {input.test_conll} "
        "> {log} 2>&1"


rule cc2007_tables:
    input:
        runs=CC2007.run_files,
    output:
        table1=report(
            "results/{corpus}/paper/cc2007/table1.html",
            caption="report/cc2007_table1.rst",
            category="Choi & Cardie 2007",
            labels={"corpus": "{corpus}", "item": "Table 1"},
        ),
        table1_md="results/{corpus}/paper/cc2007/table1.md",
        table2=report(
            "results/{corpus}/paper/cc2007/table2.html",
            caption="report/cc2007_table2.rst",
            category="Choi & Cardie 2007",
            labels={"corpus": "{corpus}", "item": "Table 2"},
        ),
        table2_md="results/{corpus}/paper/cc2007/table2.md",
        table3=report(
            "results/{corpus}/paper/cc2007/table3.html",
            caption="report/cc2007_table3.rst",
            category="Choi & Cardie 2007",
            labels={"corpus": "{corpus}", "item": "Table 3"},
        ),
        table3_md="results/{corpus}/paper/cc2007/table3.md",
        csv="results/{corpus}/paper/cc2007/table1.csv",
        table2_csv="results/{corpus}/paper/cc2007/table2.csv",
        table3_csv="results/{corpus}/paper/cc2007/table3.csv",
    log:
        "results/{corpus}/logs/cc2007_tables.log",
    benchmark:
        "results/{corpus}/benchmarks/cc2007_tables.tsv"
    conda:
        "../../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        out_dir="results/{corpus}/paper/cc2007",
    shell:
        "coreflab cc2007 tables --runs {input.runs} --corpus {wildcards.corpus} --out-dir {params.out_dir} > {log} 2>&1"
