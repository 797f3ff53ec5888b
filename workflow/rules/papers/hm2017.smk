# Haponchyk & Moschitti 2017: regressor data and fit (Table 1, Fig. 2), feature ranking,
# tuning, LSP_F / LSP_YJ / LSP_rho runs per feature-space size (Fig. 3, Tables 2-4).
# The run grid (learners, fractions, tuning grids) comes from coreflab.papers.hm2017.runs.
# response_singletons (auto: as the training key) is the mode of the learned loss as well as of the scored
# responses: the regressor data's features and MELA labels, lsp_rho's inference and every score.

from coreflab.papers.hm2017 import runs as hm2017_runs

HM2017 = hm2017_runs.Grid(config)


localrules:
    hm2017_table1,
    hm2017_report,
    hm2017_import_regressor,


# hm2017.transfer: Table 4's LSP_rho with another corpus's regressor, written by that corpus's own run
# (its config, its settings). The copy is made outside the DAG, so this run never rebuilds the other
# corpus; a new source regressor (its digest) makes the copy again.
rule hm2017_import_regressor:
    output:
        regressor="results/{corpus}/paper/hm2017/transfer/{source}.json",
    log:
        "results/{corpus}/logs/hm2017_import_regressor_{source}.log",
    conda:
        "../../envs/coreflab.yaml"
    params:
        source=lambda wc: HM2017.import_params(wc)["path"],
        digest=lambda wc: HM2017.import_params(wc)["digest"],
    shell:
        "cp {params.source:q} {output.regressor} && echo 'copied {params.source} (sha256 {params.digest})' > {log}"


rule hm2017_mela_data:
    input:
        compiled="results/{corpus}/compiled/train.npz",
        arcs=f"results/{{corpus}}/features/{FEATURESET}/train.npz",
        conll="results/{corpus}/data/train.conll",
    output:
        csv="results/{corpus}/paper/hm2017/mela_data.csv",
    log:
        "results/{corpus}/logs/hm2017_mela_data.log",
    benchmark:
        "results/{corpus}/benchmarks/hm2017_mela_data.tsv"
    conda:
        "../../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=4000,
        runtime=60,
    params:
        singletons=config["response_singletons"],
        per_sample=config["hm2017"]["data"]["per_sample"],
        n_iter=config["hm2017"]["data"]["n_iter"],
        C=config["hm2017"]["data"]["C"],
        r=config["hm2017"]["data"]["r"],
        seed=config["seed"],
    shell:
        "coreflab hm2017 mela-data --compiled {input.compiled} --arcs {input.arcs} --per-sample {params.per_sample} "
        "--n-iter {params.n_iter} --C {params.C} --r {params.r} --seed {params.seed} "
        "--conll {input.conll} --keep-singletons {params.singletons} --out {output.csv} > {log} 2>&1"


rule hm2017_mela_fit:
    input:
        csv="results/{corpus}/paper/hm2017/mela_data.csv",
    output:
        regressor="results/{corpus}/paper/hm2017/regressor.json",
    log:
        "results/{corpus}/logs/hm2017_mela_fit.log",
    benchmark:
        "results/{corpus}/benchmarks/hm2017_mela_fit.tsv"
    conda:
        "../../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        seed=config["seed"],
    shell:
        "coreflab hm2017 mela-fit --data {input.csv} --seed {params.seed} --out {output.regressor} > {log} 2>&1"


rule hm2017_table1:
    input:
        csv="results/{corpus}/paper/hm2017/mela_data.csv",
    output:
        table1=report(
            "results/{corpus}/paper/hm2017/table1.html",
            caption="report/hm2017_table1.rst",
            category="Haponchyk & Moschitti 2017",
            labels={"corpus": "{corpus}", "item": "Table 1"},
        ),
        table1_md="results/{corpus}/paper/hm2017/table1.md",
        table1_csv="results/{corpus}/paper/hm2017/table1.csv",
        table1_tex="results/{corpus}/paper/hm2017/table1.tex",
        fig2=report(
            "results/{corpus}/paper/hm2017/fig2.png",
            caption="report/hm2017_fig2.rst",
            category="Haponchyk & Moschitti 2017",
            labels={"corpus": "{corpus}", "item": "Fig. 2"},
        ),
        fig2_pdf="results/{corpus}/paper/hm2017/fig2.pdf",
        fig2_csv="results/{corpus}/paper/hm2017/fig2.csv",
    log:
        "results/{corpus}/logs/hm2017_table1.log",
    benchmark:
        "results/{corpus}/benchmarks/hm2017_table1.tsv"
    conda:
        "../../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        seed=config["seed"],
        seeds=HM2017.seeds_args,
    shell:
        "coreflab hm2017 table1 --data {input.csv} --seed {params.seed} {params.seeds} "
        '--out-dir "$(dirname {output.table1_csv})" > {log} 2>&1'


rule hm2017_select:
    input:
        compiled="results/{corpus}/compiled/train.npz",
        arcs=f"results/{{corpus}}/features/{FEATURESET}/train.npz",
    output:
        ranking="results/{corpus}/paper/hm2017/ranking.npz",
    log:
        "results/{corpus}/logs/hm2017_select.log",
    benchmark:
        "results/{corpus}/benchmarks/hm2017_select.tsv"
    conda:
        "../../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=mem_mb_from_inputs(3.5, 8000),
        runtime=30,
    params:
        seed=config["seed"],
    shell:
        "coreflab hm2017 select --compiled {input.compiled} --arcs {input.arcs} --seed {params.seed} "
        "--out {output.ranking} > {log} 2>&1"


rule hm2017_tune:
    input:
        unpack(train_dev_inputs),
        unpack(HM2017.tune_inputs),
    output:
        json="results/{corpus}/paper/hm2017/tune/{learner}.json",
    log:
        "results/{corpus}/logs/hm2017_tune_{learner}.log",
    benchmark:
        "results/{corpus}/benchmarks/hm2017_tune_{learner}.tsv"
    conda:
        "../../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=8000,
        runtime=120,
    params:
        options=HM2017.tune_options,
        sample_docs=config["hm2017"]["tune"]["sample_docs"],
        n_iter=config["hm2017"]["tune"]["n_iter"],
        C_grid=HM2017.C_grid,
        singletons=config["response_singletons"],
        seed=config["seed"],
    shell:
        "coreflab hm2017 tune --learner {wildcards.learner} {params.options} "
        "--train-compiled {input.train_compiled} --train-arcs {input.train_arcs} "
        "--dev-compiled {input.dev_compiled} --dev-arcs {input.dev_arcs} --dev-conll {input.dev_conll} "
        "--sample-docs {params.sample_docs} --n-iter {params.n_iter} --C-grid {params.C_grid} "
        "--singletons {params.singletons} --seed {params.seed} --out {output.json} > {log} 2>&1"


rule hm2017_run:
    input:
        unpack(train_dev_test_inputs),
        unpack(HM2017.run_inputs),
    output:
        csv="results/{corpus}/paper/hm2017/runs/{hm_learner}-{fraction}.csv",
    log:
        "results/{corpus}/logs/hm2017_run_{hm_learner}-{fraction}.log",
    benchmark:
        "results/{corpus}/benchmarks/hm2017_run_{hm_learner}-{fraction}.tsv"
    wildcard_constraints:
        hm_learner="lsp_f|lsp_yj|lsp_rho|lsp_rho_from_[A-Za-z0-9_]+",
        fraction="[0-9.]+",
    conda:
        "../../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=8000,
        runtime=480,
    params:
        options=HM2017.run_options,
        params=HM2017.run_params,
        singletons=config["response_singletons"],
        seed=config["seed"],
        seeds=HM2017.run_seeds,
    shell:
        "coreflab hm2017 run {params.options} --params {params.params:q} --seed {params.seed} {params.seeds} "
        "--singletons {params.singletons} "
        "--train-compiled {input.train_compiled} --train-arcs {input.train_arcs} "
        "--dev-compiled {input.dev_compiled} --dev-arcs {input.dev_arcs} --dev-conll {input.dev_conll} "
        "--test-compiled {input.test_compiled} --test-arcs {input.test_arcs} --test-conll {input.test_conll} "
        "--ranking {input.ranking} --n-fraction {wildcards.fraction} --out {output.csv} > {log} 2>&1"


rule hm2017_report:
    input:
        unpack(HM2017.report_inputs),
    output:
        fig3=report(
            "results/{corpus}/paper/hm2017/fig3.png",
            caption="report/hm2017_fig3.rst",
            category="Haponchyk & Moschitti 2017",
            labels={"corpus": "{corpus}", "item": "Fig. 3"},
        ),
        fig3_pdf="results/{corpus}/paper/hm2017/fig3.pdf",
        fig3_best="results/{corpus}/paper/hm2017/fig3_best.csv",
        curve_md="results/{corpus}/paper/hm2017/curve.md",
        curve_csv="results/{corpus}/paper/hm2017/curve.csv",
        table2=report(
            "results/{corpus}/paper/hm2017/table2.html",
            caption="report/hm2017_table2.rst",
            category="Haponchyk & Moschitti 2017",
            labels={"corpus": "{corpus}", "item": "Table 2"},
        ),
        table2_md="results/{corpus}/paper/hm2017/table2.md",
        table2_csv="results/{corpus}/paper/hm2017/table2.csv",
        table2_tex="results/{corpus}/paper/hm2017/table2.tex",
        table3=report(
            "results/{corpus}/paper/hm2017/table3.html",
            caption="report/hm2017_table3.rst",
            category="Haponchyk & Moschitti 2017",
            labels={"corpus": "{corpus}", "item": "Table 3"},
        ),
        table3_md="results/{corpus}/paper/hm2017/table3.md",
        table3_csv="results/{corpus}/paper/hm2017/table3.csv",
        table3_tex="results/{corpus}/paper/hm2017/table3.tex",
        table4=report(
            "results/{corpus}/paper/hm2017/table4.html",
            caption="report/hm2017_table4.rst",
            category="Haponchyk & Moschitti 2017",
            labels={"corpus": "{corpus}", "item": "Table 4"},
        ),
        table4_md="results/{corpus}/paper/hm2017/table4.md",
        table4_csv="results/{corpus}/paper/hm2017/table4.csv",
        table4_tex="results/{corpus}/paper/hm2017/table4.tex",
    log:
        "results/{corpus}/logs/hm2017_report.log",
    benchmark:
        "results/{corpus}/benchmarks/hm2017_report.tsv"
    conda:
        "../../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        seed=config["seed"],
        # Table 4's runs by name: a transfer source's regressor appearing adds one, and this reruns the report
        table4_runs=lambda wc, input: " ".join(
            os.path.basename(p) for p in input.second_runs
        ),
    shell:
        "coreflab hm2017 report --runs {input.runs} --second-runs {input.second_runs} --seed {params.seed} "
        '--ranking {input.ranking} --tuned {input.tuned} --out-dir "$(dirname {output.table2_csv})" > {log} 2>&1'
