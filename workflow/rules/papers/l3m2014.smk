# Samdani, Chang & Roth 2014: L3M and its baselines (Table 1), robustness, CCCP vs SGD,
# order control, and supervised document clustering of 20 Newsgroups posts (Table 2).

from coreflab.papers.l3m2014 import runs as l3m2014_runs

L3M2014 = l3m2014_runs.Grid(config)


localrules:
    l3m2014_tables,
    l3m2014_newsgroups_tables,


# results/doccluster/ is no corpus: its tables come from the 20 Newsgroups runs alone
ruleorder: l3m2014_newsgroups_tables > l3m2014_tables


rule l3m2014_curves:
    input:
        unpack(train_dev_test_inputs),
    output:
        csv="results/{corpus}/paper/l3m2014/runs/curves_{technique}.csv",
    log:
        "results/{corpus}/logs/l3m2014_curves_{technique}.log",
    benchmark:
        "results/{corpus}/benchmarks/l3m2014_curves_{technique}.tsv"
    # the longest single job of the default run (Corr-Clustering's curve): started as soon as its
    # features exist, it no longer runs alone at the end with the other core idle (66 s of 15 min)
    priority: 10
    conda:
        "../../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=8000,
        runtime=120,
    params:
        learner=L3M2014.learner,
        params=L3M2014.params,
        grid=json.dumps(config["l3m2014"]["tune"], sort_keys=True),
        passes=config["l3m2014"]["passes"],
        seed=config["seed"],
    shell:
        "coreflab l3m2014 curves --learner {params.learner} --params {params.params:q} --grid {params.grid:q} "
        "--passes {params.passes} --seed {params.seed} "
        "--train-compiled {input.train_compiled} --train-arcs {input.train_arcs} --train-conll {input.train_conll} "
        "--dev-compiled {input.dev_compiled} --dev-arcs {input.dev_arcs} --dev-conll {input.dev_conll} "
        "--test-compiled {input.test_compiled} --test-arcs {input.test_arcs} --test-conll {input.test_conll} "
        "--out {output.csv} > {log} 2>&1"


rule l3m2014_study:
    input:
        unpack(train_dev_test_inputs),
        curves=L3M2014.study_curves,
    output:
        csv="results/{corpus}/paper/l3m2014/runs/{study}.csv",
    log:
        "results/{corpus}/logs/l3m2014_{study}.log",
    benchmark:
        "results/{corpus}/benchmarks/l3m2014_{study}.tsv"
    wildcard_constraints:
        study="robustness|cccp_vs_sgd|order_control",
    conda:
        "../../envs/coreflab.yaml"
    threads: config["l3m2014"]["study_jobs"]
    resources:
        mem_mb=8000,
        runtime=120,
    params:
        runs=config["l3m2014"]["robustness_runs"],
        sizing=(
            f"--init-sd {config['l3m2014']['robustness_init_sd']} "
            f"--max-passes {config['l3m2014']['study_max_passes']} "
            f"--max-mentions {config['l3m2014']['cccp_max_mentions']}"
        ),
        cccp=L3M2014.cccp_args(),
        seed=config["seed"],
    shell:
        "coreflab l3m2014 {wildcards.study} --runs {params.runs} {params.cccp} {params.sizing} --jobs {threads} --seed {params.seed} "
        "--corpus {wildcards.corpus} --curves {input.curves} "
        "--train-compiled {input.train_compiled} --train-arcs {input.train_arcs} --train-conll {input.train_conll} "
        "--test-compiled {input.test_compiled} --test-arcs {input.test_arcs} --test-conll {input.test_conll} "
        "--out {output.csv} > {log} 2>&1"


# CCCP vs SGD on 20 Newsgroups author clustering (the paper's task, §5.3), beside each corpus's own study:
# its tables sit in results/doccluster/paper/l3m2014/ with Table 2 (one experiment, one scorecard column)
rule l3m2014_cccp_newsgroups:
    output:
        csv="results/doccluster/runs/cccp_vs_sgd.csv",
    log:
        "results/doccluster/logs/cccp_vs_sgd.log",
    benchmark:
        "results/doccluster/benchmarks/cccp_vs_sgd.tsv"
    conda:
        "../../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=4000,
        runtime=60,
    params:
        source=L3M2014.doccluster_source_args(),
        cccp=L3M2014.cccp_args(),
        set_size=config["l3m2014"]["cccp_set_size"],
        seed=config["seed"],
    shell:
        "coreflab l3m2014 cccp_vs_sgd --newsgroups {params.source} --set-size {params.set_size} {params.cccp} "
        "--seed {params.seed} --out {output.csv} > {log} 2>&1"


rule doccluster:
    output:
        csv="results/doccluster/runs/{key}_{order}.csv",
    log:
        "results/doccluster/logs/doccluster_{key}_{order}.log",
    benchmark:
        "results/doccluster/benchmarks/doccluster_{key}_{order}.tsv"
    wildcard_constraints:
        key="author|thread",
        order="natural|shuffled",
    conda:
        "../../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=8000,
        runtime=60,
    params:
        source=L3M2014.doccluster_source_args(),
        set_size=config["doccluster"]["set_size"],
        max_sets=config["doccluster"]["max_sets"],
        folds=config["doccluster"]["folds"],
        passes=config["doccluster"]["passes"],
        tune=L3M2014.doccluster_tune_args(),
        shuffle=L3M2014.doccluster_shuffle_flag,
        seed=config["seed"],
    shell:
        "coreflab l3m2014 doccluster {params.source} --key {wildcards.key} --set-size {params.set_size} "
        "--max-sets {params.max_sets} --folds {params.folds} --passes {params.passes} {params.tune} {params.shuffle} "
        "--seed {params.seed} --out {output.csv} > {log} 2>&1"


rule l3m2014_tables:
    input:
        unpack(L3M2014.table_inputs),
    output:
        table1=report(
            "results/{corpus}/paper/l3m2014/table1.html",
            caption="report/l3m2014_table1.rst",
            category="Samdani, Chang & Roth 2014",
            labels={"corpus": "{corpus}", "item": "Table 1"},
        ),
        table1_md="results/{corpus}/paper/l3m2014/table1.md",
        robustness=report(
            "results/{corpus}/paper/l3m2014/robustness.html",
            caption="report/l3m2014_robustness.rst",
            category="Samdani, Chang & Roth 2014",
            labels={"corpus": "{corpus}", "item": "robustness"},
        ),
        robustness_md="results/{corpus}/paper/l3m2014/robustness.md",
        robustness_csv="results/{corpus}/paper/l3m2014/robustness.csv",
        cccp=report(
            "results/{corpus}/paper/l3m2014/cccp_vs_sgd.html",
            caption="report/l3m2014_cccp.rst",
            category="Samdani, Chang & Roth 2014",
            labels={"corpus": "{corpus}", "item": "CCCP vs SGD"},
        ),
        cccp_md="results/{corpus}/paper/l3m2014/cccp_vs_sgd.md",
        cccp_csv="results/{corpus}/paper/l3m2014/cccp_vs_sgd.csv",
        order=report(
            "results/{corpus}/paper/l3m2014/order_control.html",
            caption="report/l3m2014_order.rst",
            category="Samdani, Chang & Roth 2014",
            labels={"corpus": "{corpus}", "item": "order control"},
        ),
        order_md="results/{corpus}/paper/l3m2014/order_control.md",
        order_csv="results/{corpus}/paper/l3m2014/order_control.csv",
        csv="results/{corpus}/paper/l3m2014/table1.csv",
    log:
        "results/{corpus}/logs/l3m2014_tables.log",
    benchmark:
        "results/{corpus}/benchmarks/l3m2014_tables.tsv"
    conda:
        "../../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        doccluster=L3M2014.doccluster_args,
        out_dir="results/{corpus}/paper/l3m2014",
    shell:
        "coreflab l3m2014 tables --corpus {wildcards.corpus} --curves {input.curves} --robustness {input.robustness} "
        "--cccp {input.cccp} --order {input.order} {params.doccluster} --out-dir {params.out_dir} > {log} 2>&1"


rule l3m2014_newsgroups_tables:
    input:
        cccp="results/doccluster/runs/cccp_vs_sgd.csv",
        doccluster=l3m2014_runs.doccluster_files(config),
    output:
        table2_vi=report(
            "results/doccluster/paper/l3m2014/table2_vi.html",
            caption="report/l3m2014_table2_vi.rst",
            category="Samdani, Chang & Roth 2014",
            labels={"corpus": "20 Newsgroups", "item": "Table 2 (VI)"},
        ),
        table2_vi_md="results/doccluster/paper/l3m2014/table2_vi.md",
        table2_vi_csv="results/doccluster/paper/l3m2014/table2_vi.csv",
        cccp=report(
            "results/doccluster/paper/l3m2014/cccp_vs_sgd.html",
            caption="report/l3m2014_cccp.rst",
            category="Samdani, Chang & Roth 2014",
            labels={"corpus": "20 Newsgroups", "item": "CCCP vs SGD"},
        ),
        cccp_md="results/doccluster/paper/l3m2014/cccp_vs_sgd.md",
        cccp_csv="results/doccluster/paper/l3m2014/cccp_vs_sgd.csv",
    log:
        "results/doccluster/logs/l3m2014_newsgroups_tables.log",
    conda:
        "../../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    shell:
        "coreflab l3m2014 newsgroups-tables --cccp {input.cccp} --doccluster {input.doccluster} "
        '--out-dir "$(dirname {output.cccp_csv})" > {log} 2>&1'
