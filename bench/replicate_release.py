"""A CoNLL-2012 release repeated to CoNLL-2012's size: the cost benchmark of predicted mentions.

The synthetic corpus of CoNLL-2012's size (bench/conll2012_size.yaml) measures the gold-mention run,
but its generated trees give about 1.2 predicted mentions per key mention, where a real release
gives several candidates per key mention (the cost the mention stage and every learner pay with
predicted mentions). This writes each split of an existing release (the official layout, e.g. the
OntoGUM stand-in of `coreflab convert-gum`) `--times` times, every copy's documents renamed
`<id>_copy<k>`, so that the token count and the real mention density meet at CoNLL-2012's size
(train 1.3M tokens: OntoGUM's 177k × 7). The copies make the learning curves meaningless, and the
mention classifier's cross-fitted folds hold copies of each training document, so the overlay keeps
every candidate (an upper bound of the cost); the run is for time and memory only:

    python bench/replicate_release.py --release STANDIN --out BIG --times 7 5 5   (train dev test)
    /usr/bin/time -v snakemake --cores 2 --configfile config/conll2012.yaml mine.yaml \
        bench/predicted_mentions.yaml                  (mine.yaml: conll2012.local_dir BIG)
"""

import argparse
import re
import sys
from pathlib import Path

SPLITS = ("train", "development", "test")
BEGIN = re.compile(r"^#begin document \((.*)\); part (\d+)")


def copy_text(text, k):
    """One release file's text with every document id (header and first column) suffixed `_copy<k>`."""
    out = []
    doc = None
    for line in text.splitlines(keepends=True):
        m = BEGIN.match(line)
        if m:
            doc = m.group(1)
            line = f"#begin document ({doc}_copy{k}); part {m.group(2)}" + line[m.end() :]
        elif doc is not None and line.startswith((doc + "\t", doc + " ")):
            line = f"{doc}_copy{k}" + line[len(doc) :]
        out.append(line)
    return "".join(out)


def replicate(release, out, times):
    """Write `out/data/<split>/...` with each file of `release`'s split `times[split]` times."""
    written = 0
    for split, n in zip(SPLITS, times):
        files = sorted((release / "data" / split).rglob("*_conll"))
        if not files:
            sys.exit(f"replicate_release: no *_conll files under {release / 'data' / split}")
        for f in files:
            rel = f.relative_to(release)
            text = f.read_text(encoding="utf-8")
            for k in range(n):
                dest = out / rel.parent / f.name.replace(".v4_", f"_copy{k}.v4_", 1)
                dest.parent.mkdir(parents=True, exist_ok=True)
                dest.write_text(copy_text(text, k), encoding="utf-8")
                written += 1
    return written


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--release", type=Path, required=True, help="a release in the official layout (data/<split>/...)")
    p.add_argument("--out", type=Path, required=True, help="new folder for the repeated release")
    p.add_argument("--times", type=int, nargs=3, default=(7, 5, 5), metavar=("TRAIN", "DEV", "TEST"))
    args = p.parse_args(argv)
    if args.out.exists() and any(args.out.iterdir()):
        sys.exit(f"replicate_release: {args.out} exists and is not empty")
    print(f"{replicate(args.release, args.out, args.times)} files written to {args.out}")


if __name__ == "__main__":
    main()
