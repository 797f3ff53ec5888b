# Singh et al. (2011): distributed MCMC cross-document coreference on Dask.
# Person-X (synthetic, strings hidden) for Figs. 5-6; a large synthetic corpus and ECB+ with
# string-match initialisation for Fig. 7 and Table 2. Sizes and sample counts come from
# config["crossdoc"]; the 1.5M-mention scaling run is bench/crossdoc.py, not a rule.
# Every corpus's prior (b, w) is set by crossdoc_calibrate, by the paper's protocol for that corpus:
# Person-X (Figs. 5-6, §5.2): b such that the predicted number of entities equals the true number,
# on the whole corpus (nothing held out); the large corpus and ECB+ (Fig. 7, Table 2, §5.3): b and w
# tuned by B3 F1 on 5% held-out entities, or more of them while they are fewer than
# crossdoc.tune.heldout_min_entities or have fewer than crossdoc.tune.heldout_min_mentions mentions. The runs and baselines read it from
# results/crossdoc/tuning/ and are scored on the entities it did not hold out.
# The run jobs of Figs. 5-7 also trace the chain with every other seed of config["seeds"], in the
# same job (mostly fixed overhead): the figures' bands; calibration and baselines use one seed.

from coreflab.papers.singh2011 import runs as singh2011_runs

SINGH2011 = singh2011_runs.Grid(config)


localrules:
    crossdoc_report,


rule crossdoc_personx:
    output:
        corpus="results/crossdoc/data/personx.npz",
    log:
        "results/crossdoc/logs/personx.log",
    benchmark:
        "results/crossdoc/benchmarks/personx.tsv"
    conda:
        "../../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        size=config["crossdoc"]["personx_size"],
        seed=config["crossdoc"]["seed"],
    shell:
        "coreflab singh2011 synth --size {params.size} --seed {params.seed} --person-x "
        "--out {output.corpus} > {log} 2>&1"


rule crossdoc_large:
    output:
        corpus="results/crossdoc/data/large.npz",
    log:
        "results/crossdoc/logs/large.log",
    benchmark:
        "results/crossdoc/benchmarks/large.tsv"
    conda:
        "../../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=4000,
        runtime=20,
    params:
        size=config["crossdoc"]["large_size"],
        seed=config["crossdoc"]["seed"],
    shell:
        "coreflab singh2011 synth --size {params.size} --seed {params.seed} --out {output.corpus} > {log} 2>&1"


rule crossdoc_ecbplus:
    output:
        corpus="results/crossdoc/data/ecbplus.npz",
    log:
        "results/crossdoc/logs/ecbplus.log",
    benchmark:
        "results/crossdoc/benchmarks/ecbplus.tsv"
    conda:
        "../../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        source=SINGH2011.ecbplus_source_args,
        window=config["crossdoc"]["ecbplus_context_window"],
    shell:
        "coreflab singh2011 ecbplus {params.source} --context-window {params.window} --out {output.corpus} > {log} 2>&1"


rule crossdoc_calibrate:
    """The prior of a corpus by the paper's protocol (runs.tuning_params picks the rule). Person-X
    (§5.2): b such that the predicted number of entities equals (is closest to) the true number,
    searched by bracketing from the bias grid's ends and bisection on log b, with the chain of the
    evaluated run at the most workers; nothing is held out. Large corpus and ECB+ (§5.3): b and w
    chosen by B3 F1 on 5% of the entities (more while they are fewer than heldout_min_entities or
    have fewer than heldout_min_mentions mentions, at most half the mentions), which every run and baseline of that corpus then
    leaves out."""
    input:
        corpus="results/crossdoc/data/{corpus}.npz",
    output:
        prior="results/crossdoc/tuning/{corpus}{ctx}{setting}.json",
    log:
        "results/crossdoc/logs/calibrate_{corpus}{ctx}{setting}.log",
    benchmark:
        "results/crossdoc/benchmarks/calibrate_{corpus}{ctx}{setting}.tsv"
    wildcard_constraints:
        corpus="[a-z]+",
        ctx="|_union",
        setting="|_within",
    conda:
        "../../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        # Person-X: about 14 chains of the evaluated run on every mention (the node-level union
        # chains take about 45 CPU-s each at personx_small: about 11 minutes in all)
        runtime=40,
    params:
        tune=SINGH2011.tuning_params,
        within=lambda wc: "--within-topic" if wc.setting else "",
        bias_grid=" ".join(map(str, config["crossdoc"]["tune"]["bias_grid"])),
        frac=config["crossdoc"]["tune"]["heldout_frac"],
        by=config["crossdoc"]["tune"]["heldout_by"],
        min_mentions=config["crossdoc"]["tune"]["heldout_min_mentions"],
        min_entities=config["crossdoc"]["tune"]["heldout_min_entities"],
        sweeps=config["crossdoc"]["calibration_steps"],
        workers=max(config["crossdoc"]["workers"]),
        t_start=config["crossdoc"]["t_start"],
        t_stop=config["crossdoc"]["t_stop"],
        sub_ratio=config["crossdoc"]["sub_bias_ratio"],
        super_ratio=config["crossdoc"]["super_bias_ratio"],
        seed=config["crossdoc"]["seed"],
    shell:
        "coreflab singh2011 calibrate --corpus {input.corpus} --rule {params.tune[rule]} "
        "--model {params.tune[model]} --context {params.tune[context]} "
        "--string-weight {params.tune[start_w]} "
        "--sub-bias-ratio {params.sub_ratio} --super-bias-ratio {params.super_ratio} "
        "--bias-grid {params.bias_grid} --weight-grid {params.tune[weights]} --heldout-frac {params.frac} --heldout-by {params.by} "
        "--heldout-min-mentions {params.min_mentions} --heldout-min-entities {params.min_entities} "
        "--sweeps {params.sweeps} --init {params.tune[init]} {params.within} --rounds {params.tune[rounds]} "
        "--eval-samples-per-round {params.tune[samples]} --eval-workers {params.workers} "
        "--t-start {params.t_start} --t-stop {params.t_stop} --seed {params.seed} --out {output.prior} > {log} 2>&1"


rule crossdoc_personx_run:
    input:
        corpus="results/crossdoc/data/personx.npz",
        prior="results/crossdoc/tuning/personx{ctx}.json",
    output:
        trace="results/crossdoc/traces/personx_{model}{ctx}_K{workers}.csv",
    log:
        "results/crossdoc/logs/personx_{model}{ctx}_K{workers}.log",
    benchmark:
        "results/crossdoc/benchmarks/personx_{model}{ctx}_K{workers}.tsv"
    wildcard_constraints:
        model="[a-z]+",
        ctx="|_union",
    conda:
        "../../envs/coreflab.yaml"
    threads: max(config["crossdoc"]["workers"])
    resources:
        mem_mb=4000,
        runtime=30,
    params:
        rounds=config["crossdoc"]["rounds"],
        samples=config["crossdoc"]["samples_per_round"],
        t_start=config["crossdoc"]["t_start"],
        t_stop=config["crossdoc"]["t_stop"],
        sub_ratio=config["crossdoc"]["sub_bias_ratio"],
        super_ratio=config["crossdoc"]["super_bias_ratio"],
        scheduler=config["crossdoc"]["scheduler"],
        seed=config["crossdoc"]["seed"],
        seeds=SINGH2011.run_seeds_args,
        context=lambda wc: "union" if wc.ctx else "pairwise",
    shell:
        "coreflab singh2011 run --corpus {input.corpus} --corpus-name personx --model {wildcards.model} "
        "--context {params.context} "
        "--prior-from {input.prior} --sub-bias-ratio {params.sub_ratio} --super-bias-ratio {params.super_ratio} "
        "--string-weight 0 --init singletons --scheduler {params.scheduler} --workers {wildcards.workers} "
        "--rounds {params.rounds} --samples-per-round {params.samples} --t-start {params.t_start} "
        "--t-stop {params.t_stop} --seed {params.seed} {params.seeds} --trace {output.trace} > {log} 2>&1"


rule crossdoc_string_init_run:
    input:
        corpus="results/crossdoc/data/{corpus}.npz",
        prior="results/crossdoc/tuning/{corpus}{setting}.json",
    output:
        trace="results/crossdoc/traces/{corpus}_string_{model}_K{workers}{setting}.csv",
        labels="results/crossdoc/labels/{corpus}_string_{model}_K{workers}{setting}.npy",
    log:
        "results/crossdoc/logs/{corpus}_string_{model}_K{workers}{setting}.log",
    benchmark:
        "results/crossdoc/benchmarks/{corpus}_string_{model}_K{workers}{setting}.tsv"
    wildcard_constraints:
        workers=r"\d+",
        setting="|_within",
    conda:
        "../../envs/coreflab.yaml"
    threads: max(config["crossdoc"]["workers"])
    resources:
        mem_mb=6000,
        runtime=60,
    params:
        within=lambda wc: "--within-topic" if wc.setting else "",
        context=config["crossdoc"]["context"],
        rounds=config["crossdoc"]["large_rounds"],
        samples=config["crossdoc"]["large_samples_per_round"],
        t_start=config["crossdoc"]["t_start"],
        t_stop=config["crossdoc"]["t_stop"],
        sub_ratio=config["crossdoc"]["sub_bias_ratio"],
        super_ratio=config["crossdoc"]["super_bias_ratio"],
        scheduler=config["crossdoc"]["scheduler"],
        seed=config["crossdoc"]["seed"],
        seeds=SINGH2011.seeds_args,
    shell:
        "coreflab singh2011 run --corpus {input.corpus} --corpus-name {wildcards.corpus} --model {wildcards.model} "
        "--context {params.context} "
        "--prior-from {input.prior} --sub-bias-ratio {params.sub_ratio} --super-bias-ratio {params.super_ratio} "
        "--init string {params.within} --scheduler {params.scheduler} "
        "--workers {wildcards.workers} --rounds {params.rounds} --samples-per-round {params.samples} "
        "--t-start {params.t_start} --t-stop {params.t_stop} --seed {params.seed} {params.seeds} "
        "--trace {output.trace} --labels {output.labels} > {log} 2>&1"


rule crossdoc_baselines:
    input:
        corpus="results/crossdoc/data/{corpus}.npz",
        prior="results/crossdoc/tuning/{corpus}.json",
        within=lambda wc: (
            ["results/crossdoc/tuning/ecbplus_within.json"]
            if wc.corpus == "ecbplus"
            else []
        ),
    output:
        csv="results/crossdoc/baselines/{corpus}.csv",
        labels="results/crossdoc/baselines/{corpus}.labels.npz",
    log:
        "results/crossdoc/logs/baselines_{corpus}.log",
    benchmark:
        "results/crossdoc/benchmarks/baselines_{corpus}.tsv"
    conda:
        "../../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=4000,
        runtime=20,
    params:
        within=lambda wc, input: (
            f"--prior-within-from {input.within[0]}" if input.within else ""
        ),
        neighbours=config["crossdoc"]["neighbours"],
        seed=config["crossdoc"]["seed"],
    shell:
        "coreflab singh2011 baselines --corpus {input.corpus} --corpus-name {wildcards.corpus} "
        "--prior-from {input.prior} {params.within} --neighbours {params.neighbours} "
        "--seed {params.seed} --out {output.csv} --labels-out {output.labels} > {log} 2>&1"


# Table 2's test: the model against each baseline, paired bootstrap over documents
rule crossdoc_significance:
    input:
        unpack(SINGH2011.significance_models),
        baselines="results/crossdoc/baselines/{corpus}.labels.npz",
    output:
        csv="results/crossdoc/significance/{corpus}.csv",
    log:
        "results/crossdoc/logs/significance_{corpus}.log",
    conda:
        "../../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        models=lambda wc, input: " ".join(
            f"{k}={input[k]}"
            for k in ("whole_corpus", "within_topic")
            if k in input.keys()
        ),
        seed=config["seed"],
    shell:
        "coreflab singh2011 significance --baseline-labels {input.baselines} --model {params.models} "
        "--corpus-name {wildcards.corpus} --seed {params.seed} --out {output.csv} > {log} 2>&1"


rule crossdoc_report:
    input:
        fig5=expand(
            "results/crossdoc/traces/personx_flat_K{workers}.csv",
            workers=config["crossdoc"]["workers"],
        ),
        fig6=expand(
            "results/crossdoc/traces/personx_{model}_K{workers}.csv",
            model=["flat", "sub", "super", "hier"]
            + [f"{m}_union" for m in config["crossdoc"]["fig6_union"]],
            workers=max(config["crossdoc"]["workers"]),
        ),
        fig7=SINGH2011.fig7_traces,
        baselines=SINGH2011.baseline_files,
        significance=SINGH2011.significance_files,
    output:
        fig5=report(
            "results/crossdoc/paper/singh2011/fig5_workers.png",
            caption="report/singh2011_fig5.rst",
            category="Singh et al. 2011",
            labels={"figure": "fig5_workers"},
        ),
        fig5_pdf="results/crossdoc/paper/singh2011/fig5_workers.pdf",
        fig6=report(
            "results/crossdoc/paper/singh2011/fig6_hierarchy.png",
            caption="report/singh2011_fig6.rst",
            category="Singh et al. 2011",
            labels={"figure": "fig6_hierarchy"},
        ),
        fig6_pdf="results/crossdoc/paper/singh2011/fig6_hierarchy.pdf",
        fig7=report(
            "results/crossdoc/paper/singh2011/fig7_large.png",
            caption="report/singh2011_fig7.rst",
            category="Singh et al. 2011",
            labels={"figure": "fig7_large"},
        ),
        fig7_pdf="results/crossdoc/paper/singh2011/fig7_large.pdf",
        table_csv="results/crossdoc/paper/singh2011/table2.csv",
        table_md=report(
            "results/crossdoc/paper/singh2011/table2.html",
            caption="report/singh2011_table2.rst",
            category="Singh et al. 2011",
            labels={"table": "table2"},
        ),
        table_md_md="results/crossdoc/paper/singh2011/table2.md",
        table_tex="results/crossdoc/paper/singh2011/table2.tex",
    log:
        "results/crossdoc/logs/report.log",
    benchmark:
        "results/crossdoc/benchmarks/report.tsv"
    conda:
        "../../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=5,
    shell:
        "coreflab singh2011 report --fig5 {input.fig5} --fig6 {input.fig6} --fig7 {input.fig7} "
        "--baselines {input.baselines} --significance {input.significance} "
        "--outdir results/crossdoc/paper/singh2011 > {log} 2>&1"
