# The leaderboard: every configured system on the same test split, significance against the best,
# and the training cost of each learner.


include: "leaderboard_helpers.smk"


localrules:
    leaderboard,


rule leaderboard:
    input:
        unpack(leaderboard_inputs),
    output:
        csv="results/{corpus}/leaderboard.csv",
        md=report(
            "results/{corpus}/leaderboard.html",
            caption="../report/leaderboard.rst",
            category="Leaderboards",
            labels={"corpus": "{corpus}", "table": "leaderboard"},
        ),
        md_md="results/{corpus}/leaderboard.md",
        tex="results/{corpus}/leaderboard.tex",
        costs=report(
            "results/{corpus}/leaderboard_costs.html",
            caption="../report/leaderboard_costs.rst",
            category="Leaderboards",
            labels={"corpus": "{corpus}", "table": "training cost"},
        ),
        costs_md="results/{corpus}/leaderboard_costs.md",
        costs_csv="results/{corpus}/leaderboard_costs.csv",
    log:
        "results/{corpus}/logs/leaderboard.log",
    benchmark:
        "results/{corpus}/benchmarks/leaderboard.tsv"
    conda:
        "../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        prefix="results/{corpus}/leaderboard",
        extra=leaderboard_args,
        seed=config["seed"],
    shell:
        "coreflab leaderboard --scores {input.scores} --split test {params.extra} --seed {params.seed} "
        "--out-prefix {params.prefix} > {log} 2>&1"
