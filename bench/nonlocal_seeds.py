"""Benchmark: does B&K's non-local gain survive retraining? Table 1's two runs over many seeds.

Table 1 (results/<corpus>/paper/bk2014/table1.*) compares delayed LaSO with local and with the
selected non-local templates for the config's seeds. This script retrains the same two runs (the
workflow's stores, tuned root loss and command, `coreflab train`) at any beam and number of
iterations for any seeds, reads dev MELA after every iteration from their curves, and records per
iteration the mean, sd and standard error of the per-seed difference (non-local minus local) and
how many seeds the non-local model is ahead in. It answers what one seed's bootstrap cannot:
whether the difference is larger than what retraining alone moves it by, and whether it grows
with training (B&K's Fig. 3) or fades.

    python bench/nonlocal_seeds.py --results results/gum --beam 10 --iterations 20 --seeds 1-8 --label gum_b10

Run it in a workflow's working directory after the workflow made the corpus's stores
(results/<corpus>/features/<featureset>/, compiled/, tuning/root_loss.json). Writes
bench/results/nonlocal_seeds_<label>.json and .md; the models are thrown away.
"""

import argparse
import json
import math
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pandas as pd

from coreflab.papers.bk2014.report import load_curves, seed_differences, seed_mela
from coreflab.papers.bk2014.runs import run_name

FEATURES = ("local", "nonlocal")
COREFLAB = [sys.executable, "-m", "coreflab.cli"]  # the `coreflab` command of this interpreter's install


def parse_seeds(text):
    """'1-4,7' -> [1, 2, 3, 4, 7]; a malformed list or an empty range stops with a one-line message."""
    out = []
    for part in text.split(","):
        lo, _, hi = part.strip().partition("-")
        try:
            first, last = int(lo), int(hi or lo)
        except ValueError:
            sys.exit(f"nonlocal_seeds: --seeds {text!r}: {part.strip()!r} is not a seed or a range like 1-8")
        if last < first:
            sys.exit(f"nonlocal_seeds: --seeds {text!r}: the range {part.strip()} is empty")
        out += list(range(first, last + 1))
    return sorted(set(out))


def train_command(results, featureset, features, beam, iterations, nonlocal_templates, seed, curve, model):
    """The workflow's `bk2014_run` command (workflow/rules/papers/bk2014.smk) for one run."""
    results = Path(results)
    params = {"beam": beam, "n_iter": iterations}
    if features == "nonlocal":
        params["nonlocal_templates"] = nonlocal_templates
    cmd = [
        *COREFLAB, "train", "--learner", "bk_delayed_laso",
        "--compiled", str(results / "compiled" / "train.npz"),
        "--arcs", str(results / "features" / featureset / "train.npz"),
        "--dev-compiled", str(results / "compiled" / "dev.npz"),
        "--dev-arcs", str(results / "features" / featureset / "dev.npz"),
        "--dev-conll", str(results / "data" / "dev.conll"),
        "--curve", str(curve),
        "--params", json.dumps(params, sort_keys=True),
        "--seed", str(seed),
        "--out", str(model),
    ]  # fmt: skip
    tuned = results / "tuning" / "root_loss.json"
    if tuned.exists():
        cmd[-2:-2] = ["--tuned", str(tuned)]
    return cmd


def seed_table(curves, beam):
    """Dev MELA of the two runs, read as Table 1 reads it (`seed_mela`): rows (iteration, seed), columns
    local and nonlocal."""
    epochs = sorted(curves.loc[curves.metric == "mela", "epoch"].unique())
    return pd.concat({int(e): seed_mela(curves, beam, e) for e in epochs}, names=["iteration", "seed"])


def difference_rows(table):
    """One row per iteration of a `seed_table` over the seeds that have both runs: mean dev MELA of
    each, and the per-seed difference's mean, sd (n-1), standard error, seeds ahead."""
    rows = []
    for iteration, by_seed in table.groupby(level="iteration"):
        diff = seed_differences(by_seed)
        if diff.empty:
            raise ValueError("no seed has both a local and a non-local curve")
        n = len(diff)
        both = by_seed.loc[diff.index]
        sd = float(diff.std(ddof=1)) if n > 1 else float("nan")
        rows.append(
            {
                "iteration": int(iteration),
                "seeds": n,
                "local": round(float(both["local"].mean()), 4),
                "nonlocal": round(float(both["nonlocal"].mean()), 4),
                "difference": round(float(diff.mean()), 4),
                "sd": round(sd, 4),
                "se": round(sd / math.sqrt(n), 4),
                "ahead": int((diff > 0).sum()),
            }
        )
    return rows


def per_seed_mela(table):
    """{"<features>-s<seed>": dev MELA after each iteration} of every run trained, seeds in numeric order."""
    out = {}
    for features in FEATURES:
        for seed in sorted(table.index.get_level_values("seed").unique(), key=int):
            values = table.xs(seed, level="seed")[features].dropna()
            if len(values):  # a seed that ran one of the two runs only
                out[f"{features}-s{seed}"] = [round(float(x), 4) for x in values]
    return out


def markdown(rows, caption):
    table = pd.DataFrame(rows)
    fmt = [".0f" if c in ("iteration", "seeds", "ahead") else ".2f" for c in table.columns]
    return f"{caption}\n\n{table.to_markdown(index=False, floatfmt=fmt)}\n"


def run_all(args, seeds, work):
    """Train every (features, seed) run, args.jobs at a time; {run name: curve path}, named as the
    workflow names Table 1's runs (`bk_delayed_laso-<features>-b<beam>-s<seed>`)."""
    jobs = [(f, s) for s in seeds for f in FEATURES]

    def one(job):
        features, seed = job
        run = run_name("bk_delayed_laso", features, args.beam, seed)
        curve = work / f"{run}.csv"
        cmd = train_command(
            args.results, args.featureset, features, args.beam, args.iterations, args.nonlocal_templates,
            seed, curve, work / f"{run}.npz",
        )  # fmt: skip
        log = work / f"{run}.log"
        with open(log, "w") as fh:
            if subprocess.run(cmd, stdout=fh, stderr=subprocess.STDOUT).returncode:
                sys.exit(f"nonlocal_seeds: coreflab train failed for {features} seed {seed}:\n{log.read_text()}")
        (work / f"{run}.npz").unlink(missing_ok=True)
        print(f"  {features} seed {seed} done", flush=True)
        return run, curve

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        return dict(pool.map(one, jobs))


def default_label(results, beam):
    """The record's name when none is given: results/gum at beam 5 -> gum_b5."""
    return f"{Path(results).resolve().name}_b{beam}"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--results", required=True, help="the workflow's results/<corpus> directory")
    p.add_argument("--featureset", default="selected", help="store folder under features/ (default: selected)")
    p.add_argument("--beam", type=int, default=5)
    p.add_argument("--iterations", type=int, default=5)
    p.add_argument("--seeds", default="1-5", help="e.g. 1-8 or 1,3,5")
    p.add_argument("--nonlocal-templates", default="selected", help="'selected' or a comma-separated list")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--label", help="record name (default: <corpus>_b<beam>, e.g. gum_b5)")
    p.add_argument("--out-dir", default=str(Path(__file__).resolve().parent / "results"))
    args = p.parse_args(argv)
    if args.nonlocal_templates != "selected":
        args.nonlocal_templates = [t.strip() for t in args.nonlocal_templates.split(",") if t.strip()]
    missing = [
        f
        for f in ("compiled/train.npz", f"features/{args.featureset}/train.npz")
        if not (Path(args.results) / f).exists()
    ]
    if missing:
        sys.exit(f"nonlocal_seeds: {args.results} has no {', '.join(missing)}: run the workflow for that corpus first")
    seeds = parse_seeds(args.seeds)
    args.label = args.label or default_label(args.results, args.beam)
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="nonlocal_seeds_") as tmp:
        table = seed_table(load_curves(run_all(args, seeds, Path(tmp))), args.beam)
    rows = difference_rows(table)
    record = {
        "label": args.label,
        "results": str(args.results),
        "featureset": args.featureset,
        "learner": "bk_delayed_laso",
        "beam": args.beam,
        "iterations": args.iterations,
        "seeds": seeds,
        "nonlocal_templates": args.nonlocal_templates,
        "per_iteration": rows,
        "per_seed_dev_mela": per_seed_mela(table),
        "wall_s": round(time.perf_counter() - t0, 1),
    }
    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    (out / f"nonlocal_seeds_{args.label}.json").write_text(json.dumps(record, indent=1) + "\n")
    caption = (
        f"Dev MELA of delayed LaSO (beam {args.beam}), non-local minus local, over seeds {args.seeds} "
        f"({args.results}, features/{args.featureset})"
    )
    text = markdown(rows, caption)
    (out / f"nonlocal_seeds_{args.label}.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
