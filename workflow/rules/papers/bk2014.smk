# Björkelund & Kuhn 2014: dev learning curves of every update strategy, Figs. 3-4, Tables 1-2.
# Its template selection (Sec. 6) and root-loss tuning feed every learner: workflow/rules/features.smk
# and learn.smk.

from coreflab.papers.bk2014 import runs as bk2014_runs

BK2014 = bk2014_runs.Grid(config)


localrules:
    bk2014_report,
    bk2014_table2,


# one learning curve per run, to bk2014.iterations; the model file is the model Table 1 reports
# (after bk2014.table1_iteration, default the last)
rule bk2014_run:
    input:
        unpack(tuned_training_inputs),
    output:
        model="results/{corpus}/paper/bk2014/runs/{run}.npz",
        curve="results/{corpus}/paper/bk2014/runs/{run}.csv",
    log:
        "results/{corpus}/logs/bk2014_{run}.log",
    benchmark:
        "results/{corpus}/benchmarks/bk2014_{run}.tsv"
    conda:
        "../../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=8000,
        runtime=240,
    params:
        learner=BK2014.run_learner,
        params=BK2014.run_params,
        seed=BK2014.run_seed,
        tuned=tuned_option,
        table1_iteration=BK2014.table1_iteration,
    shell:
        "coreflab train --learner {params.learner} --compiled {input.compiled} --arcs {input.arcs} "
        "--dev-compiled {input.dev_compiled} --dev-arcs {input.dev_arcs} --dev-conll {input.dev_conll} "
        "--curve {output.curve} --params {params.params:q} {params.tuned} --seed {params.seed} "
        "--out {output.model} --out-epoch {params.table1_iteration} > {log} 2>&1"


# Table 1's two models on dev (its iteration), scored per document: the paired bootstrap of its difference row
rule bk2014_dev_scores:
    input:
        unpack(lambda wildcards: paper_inputs(wildcards.corpus, "dev")),
        model="results/{corpus}/paper/bk2014/runs/{run}.npz",
    output:
        conll=temp("results/{corpus}/paper/bk2014/dev/{run}.conll"),
        json="results/{corpus}/paper/bk2014/dev/{run}.json",
    log:
        "results/{corpus}/logs/bk2014_dev_{run}.log",
    benchmark:
        "results/{corpus}/benchmarks/bk2014_dev_{run}.tsv"
    wildcard_constraints:
        run=r"bk_delayed_laso-(local|nonlocal)-b\d+",
    conda:
        "../../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=4000,
        runtime=30,
    params:
        singletons=singletons_flag,
    shell:
        "coreflab predict --model {input.model} --compiled {input.dev_compiled} --arcs {input.dev_arcs} "
        "--conll {input.dev_conll} {params.singletons} --out {output.conll} > {log} 2>&1 && "
        "coreflab score {input.dev_conll} {output.conll} --format json --per-doc > {output.json} 2>> {log}"


rule bk2014_report:
    input:
        unpack(BK2014.table1_dev_scores),
        curves=BK2014.curve_files,
        table1_curves=BK2014.table1_seed_files,
    output:
        fig3=report(
            "results/{corpus}/paper/bk2014/fig3.png",
            caption="report/bk2014_fig3.rst",
            category="Björkelund & Kuhn 2014",
            labels={"corpus": "{corpus}", "item": "Fig. 3"},
        ),
        fig3_pdf="results/{corpus}/paper/bk2014/fig3.pdf",
        fig4=report(
            "results/{corpus}/paper/bk2014/fig4.png",
            caption="report/bk2014_fig4.rst",
            category="Björkelund & Kuhn 2014",
            labels={"corpus": "{corpus}", "item": "Fig. 4"},
        ),
        fig4_pdf="results/{corpus}/paper/bk2014/fig4.pdf",
        table1=report(
            "results/{corpus}/paper/bk2014/table1.html",
            caption="report/bk2014_table1.rst",
            category="Björkelund & Kuhn 2014",
            labels={"corpus": "{corpus}", "item": "Table 1"},
        ),
        table1_md="results/{corpus}/paper/bk2014/table1.md",
        table1_csv="results/{corpus}/paper/bk2014/table1.csv",
        table1_tex="results/{corpus}/paper/bk2014/table1.tex",
        seeds_csv="results/{corpus}/paper/bk2014/nonlocal_seeds.csv",
        seeds_md="results/{corpus}/paper/bk2014/nonlocal_seeds.md",
    log:
        "results/{corpus}/logs/bk2014_report.log",
    benchmark:
        "results/{corpus}/benchmarks/bk2014_report.tsv"
    conda:
        "../../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        curves=BK2014.curve_args,
        beams=BK2014.beams,
        dev_scores=BK2014.table1_dev_args,
        table1_curves=BK2014.table1_seed_args,
        table1_iteration=BK2014.table1_iteration,
        seed=config["seed"],
        out_dir="results/{corpus}/paper/bk2014",
    shell:
        "coreflab bk2014 report {params.curves} {params.table1_curves} {params.dev_scores} --beams {params.beams} --corpus {wildcards.corpus} "
        "--seed {params.seed} --table1-iteration {params.table1_iteration} --out-dir {params.out_dir} > {log} 2>&1"


rule bk2014_table2:
    input:
        unpack(leaderboard_inputs),
    output:
        md=report(
            "results/{corpus}/paper/bk2014/table2.html",
            caption="report/bk2014_table2.rst",
            category="Björkelund & Kuhn 2014",
            labels={"corpus": "{corpus}", "item": "Table 2"},
        ),
        md_md="results/{corpus}/paper/bk2014/table2.md",
        csv="results/{corpus}/paper/bk2014/table2.csv",
        tex="results/{corpus}/paper/bk2014/table2.tex",
    log:
        "results/{corpus}/logs/bk2014_table2.log",
    benchmark:
        "results/{corpus}/benchmarks/bk2014_table2.tsv"
    conda:
        "../../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        prefix="results/{corpus}/paper/bk2014/table2",
        extra=leaderboard_args,
        seed=config["seed"],
    shell:
        "coreflab leaderboard --scores {input.scores} --split test {params.extra} --seed {params.seed} "
        "--reference bk_delayed_laso --caption 'Björkelund & Kuhn 2014 Table 2 on {wildcards.corpus} (test): "
        "non-local delayed LaSO beside every other system; † = significantly different, paired bootstrap, p < 0.05' "
        "--out-prefix {params.prefix} > {log} 2>&1"
