"""Benchmark: read + validate + compile a ~1.3M-token corpus (issue 3: >= 200,000 tokens/s).

Writes the `conll2012`-size synthetic corpus (coreflab.corpus.synthetic) as CoNLL-2012
text once (not timed), then times, on one core, parsing that text (the validating reader)
and compiling it with gold and with predicted mentions. numba's one-off start-up (loading
cached kernels) is measured separately on a small warm-up document and reported apart.
CPU time (`time.process_time`, one thread) is the headline number, since wall time on a
shared machine depends on the neighbours; wall times are stored too.
Falls back to LitBank from the shared data when the generator is unavailable.

    python bench/corpus.py [--size conll2012] [--split train] [--out bench/results/corpus.json]
"""

import argparse
import json
import platform
import sys
import time
from pathlib import Path

from coreflab.corpus.compile import compile_documents
from coreflab.corpus.conll import format_conll, parse_conll, read_conll_path


def _documents(size):
    try:
        from coreflab.corpus.synthetic import generate_corpus
    except ImportError:
        path = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "litbank" / "conll"
        docs = read_conll_path(path)
        return "litbank", format_conll(docs)
    splits = generate_corpus(size, seed=0)
    docs = [d for split in splits.values() for d in split]
    return f"synth-{size}", format_conll(docs)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", default="conll2012")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent / "results" / "corpus.json"))
    args = ap.parse_args(argv)

    name, text = _documents(args.size)
    t0 = time.perf_counter()
    warm = parse_conll(text[: text.index("#end document") + len("#end document\n")])
    compile_documents(warm, "warm", "x", "gold")
    compile_documents(warm, "warm", "x", "predicted")
    startup = time.perf_counter() - t0

    result = {"corpus": name, "python": platform.python_version(), "numba_startup_s": round(startup, 3)}
    t0, c0 = time.perf_counter(), time.process_time()
    docs = parse_conll(text, "<bench>")
    t_read, c_read = time.perf_counter() - t0, time.process_time() - c0
    n_tok = sum(len(d.words) for d in docs)
    result.update(documents=len(docs), tokens=n_tok, read_wall_s=round(t_read, 3), read_cpu_s=round(c_read, 3),
                  read_cpu_tok_per_s=round(n_tok / c_read))
    for mode in ("gold", "predicted"):
        t0, c0 = time.perf_counter(), time.process_time()
        corpus = compile_documents(docs, name, "all", mode)
        t_comp, c_comp = time.perf_counter() - t0, time.process_time() - c0
        result[mode] = {
            "mentions": corpus.n_mentions,
            "compile_wall_s": round(t_comp, 3),
            "compile_cpu_s": round(c_comp, 3),
            "compile_cpu_tok_per_s": round(n_tok / c_comp),
            "read_plus_compile_cpu_tok_per_s": round(n_tok / (c_read + c_comp)),
        }
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    json.dump(result, sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main()
