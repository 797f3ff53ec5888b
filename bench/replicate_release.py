"""A CoNLL-2012 release repeated to CoNLL-2012's size: the cost benchmark of predicted mentions.

The synthetic corpus of CoNLL-2012's size (bench/conll2012_size.yaml) measures the gold-mention run,
but its generated trees give about 1.2 predicted mentions per key mention, where a real release
gives several candidates per key mention (the cost the mention stage and every learner pay with
predicted mentions). This writes each split of an existing release (the official layout, e.g. the
OntoGUM stand-in of `coreflab convert-gum`) `--times` times, every copy's documents renamed
`<id>_copy<k>`, so that the token count and the real mention density meet at CoNLL-2012's size
(train 1.3M tokens: OntoGUM's 177k × 7).

Copies are written copy by copy (`annotations/copyKK/...`, so a reader meets all of copy 0, then all
of copy 1), and the training split keeps a multiple of `--folds` documents: document i of copy k then
sits at index k·N + i, in cross-fitting fold i mod folds whatever k is, so the mention classifier's
cross-fitted folds never score a document with a model fit on its own copies, and its filter keeps what
it would on a release this size. The copies make the learning curves meaningless; the run is for time
and memory only:

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


def n_documents(text):
    """Documents (`#begin document` lines) in a release file's text."""
    return sum(1 for line in text.splitlines() if BEGIN.match(line))


def replicate(release, out, times, folds=5):
    """Write `out/data/<split>/.../annotations/copyKK/...` with each file of `release`'s split
    `times[split]` times, copy by copy; the training split's last files are left out until its document
    count is a multiple of `folds` (see the module docstring)."""
    written = 0
    for split, n in zip(SPLITS, times):
        files = sorted((release / "data" / split).rglob("*_conll"))
        if not files:
            sys.exit(f"replicate_release: no *_conll files under {release / 'data' / split}")
        texts = [f.read_text(encoding="utf-8") for f in files]
        if split == "train" and folds > 1:
            counts = [n_documents(t) for t in texts]
            while files and sum(counts) % folds:
                files, texts, counts = files[:-1], texts[:-1], counts[:-1]
            if not files:
                sys.exit(f"replicate_release: no prefix of the training files holds a multiple of {folds} documents")
        for k in range(n):
            for f, text in zip(files, texts):
                rel = f.relative_to(release / "data" / split)
                parts = rel.parts
                cut = parts.index("annotations") + 1 if "annotations" in parts else len(parts) - 1
                dest = out / "data" / split / Path(*parts[:cut]) / f"copy{k:02d}" / Path(*parts[cut:])
                dest = dest.with_name(f.name.replace(".v4_", f"_copy{k}.v4_", 1))
                dest.parent.mkdir(parents=True, exist_ok=True)
                dest.write_text(copy_text(text, k), encoding="utf-8")
                written += 1
    return written


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--release", type=Path, required=True, help="a release in the official layout (data/<split>/...)")
    p.add_argument("--out", type=Path, required=True, help="new folder for the repeated release")
    p.add_argument("--times", type=int, nargs=3, default=(7, 5, 5), metavar=("TRAIN", "DEV", "TEST"))
    p.add_argument(
        "--folds", type=int, default=5, help="the mention classifier's cross-fitting folds (config mention_model.folds)"
    )
    args = p.parse_args(argv)
    if args.out.exists() and any(args.out.iterdir()):
        sys.exit(f"replicate_release: {args.out} exists and is not empty")
    print(f"{replicate(args.release, args.out, args.times, args.folds)} files written to {args.out}")


if __name__ == "__main__":
    main()
