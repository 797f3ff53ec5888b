"""Benchmark: what each part of the mention stage does end to end (rules only, rules + classifier).

For a predicted-mention run of the workflow (results/<corpus>_predicted/, made with the mention
classifier), this script compiles the same splits with the rules alone (every candidate kept, unlinked
mentions dropped: the policy without a model) and trains, predicts and scores string match and
B&K's baseline on both, with the run's feature set (selection/selected.yaml), window and tuned root
loss. A third row scores the classifier run's predictions with every one-mention cluster dropped,
which separates the filter's effect from the singleton decisions'.

    python bench/mention_stage.py --results results/gum_predicted --window 50 --label gum

Writes bench/results/mention_stage_<label>.json and .md (test split: MELA and mention detection).
"""

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COREFLAB = [sys.executable, "-m", "coreflab.cli"]
SPLITS = ("train", "dev", "test")


def run(cmd, log):
    with open(log, "a", encoding="utf-8") as fh:
        subprocess.run(cmd, check=True, stdout=fh, stderr=subprocess.STDOUT)


def score(key, response):
    out = subprocess.run(
        [*COREFLAB, "score", str(key), str(response), "--format", "json"], check=True, capture_output=True
    )
    s = json.loads(out.stdout)
    return {
        "mela": s["mela"],
        "muc_recall": s["muc"]["recall"],
        "mention_recall": s["mentions"]["recall"],
        "mention_precision": s["mentions"]["precision"],
        "mention_f1": s["mentions"]["f1"],
    }


def systems(results, compiled, arcs, work, log, window, featureset, singletons=""):
    """String match and bk_baseline trained on (compiled, arcs): their test scores."""
    data = results / "data"
    out = {}
    sm = work / "string_match.conll"
    run([*COREFLAB, "baseline", "--compiled", str(compiled["test"]), "--conll", str(data / "test.conll"),
         "--out", str(sm)], log)  # fmt: skip
    out["string_match"] = score(data / "test.conll", sm)
    model, curve, pred = work / "bk_baseline.npz", work / "curve.csv", work / "bk_baseline.conll"
    cmd = [
        *COREFLAB, "train", "--learner", "bk_baseline", "--compiled", str(compiled["train"]),
        "--arcs", str(arcs["train"]), "--dev-compiled", str(compiled["dev"]), "--dev-arcs", str(arcs["dev"]),
        "--dev-conll", str(data / "dev.conll"), "--curve", str(curve), "--params", json.dumps({"n_iter": 10}),
        "--seed", "1", "--out", str(model),
    ]  # fmt: skip
    tuned = results / "tuning" / "root_loss.json"
    if tuned.exists():
        cmd[-2:-2] = ["--tuned", str(tuned)]
    run(cmd, log)
    for name, flag in (("bk_baseline", singletons), ("bk_baseline, one-mention clusters dropped", "--drop-singletons")):
        run([*COREFLAB, "predict", "--model", str(model), "--compiled", str(compiled["test"]), "--arcs",
             str(arcs["test"]), "--conll", str(data / "test.conll"), *([flag] if flag else []),
             "--out", str(pred)], log)  # fmt: skip
        out[name] = score(data / "test.conll", pred)
    return out


def features(compiled, work, log, window, featureset):
    arcs = {}
    for split in SPLITS:
        arcs[split] = work / f"arcs_{split}.npz"
        cmd = [*COREFLAB, "features", "--compiled", str(compiled[split]), "--featureset", str(featureset),
               "--out", str(arcs[split])]  # fmt: skip
        if window:
            cmd[-2:-2] = ["--window", str(window)]
        run(cmd, log)
    return arcs


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--results", required=True, help="a predicted-mention run's results folder")
    p.add_argument("--window", type=int, default=None, help="the run's features.window")
    p.add_argument("--label", required=True)
    args = p.parse_args()
    results = Path(args.results)
    featureset = results / "selection" / "selected.yaml"
    if not (results / "mentions" / "model.npz").exists():
        sys.exit(f"mention_stage: {results} is not a predicted-mention run with the mention classifier")
    t0 = time.perf_counter()
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        log = work / "log.txt"
        rules = {}
        for split in SPLITS:
            rules[split] = work / f"rules_{split}.npz"
            run([*COREFLAB, "prepare", "--conll", str(results / "data" / f"{split}.conll"), "--corpus", "rules",
                 "--split", split, "--mentions", "predicted", "--scheme-key", str(results / "data" / "train.conll"),
                 "--out", str(rules[split])], log)  # fmt: skip
        (work / "rules").mkdir()
        arcs = features(rules, work / "rules", log, args.window, featureset)
        rows["rules only"] = systems(results, rules, arcs, work / "rules", log, args.window, featureset)
        clf = {split: results / "compiled" / f"{split}.npz" for split in SPLITS}
        (work / "clf").mkdir()
        arcs = features(clf, work / "clf", log, args.window, featureset)
        rows["rules + classifier"] = systems(results, clf, arcs, work / "clf", log, args.window, featureset)
    record = {"label": args.label, "results": str(results), "seconds": round(time.perf_counter() - t0, 1), "rows": rows}
    out = Path(__file__).parent / "results" / f"mention_stage_{args.label}.json"
    out.write_text(json.dumps(record, indent=2) + "\n")
    lines = [
        "| mention stage | system | MELA | MUC R | mentions R | mentions P | mentions F1 |",
        "|---|---|---|---|---|---|---|",
    ]
    for stage, by_system in rows.items():
        for system, s in by_system.items():
            lines.append(
                f"| {stage} | {system} | {s['mela']:.2f} | {s['muc_recall']:.2f} | {s['mention_recall']:.2f} | "
                f"{s['mention_precision']:.2f} | {s['mention_f1']:.2f} |"
            )
    out.with_suffix(".md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
