"""A one-document CoNLL-2012 split (13 tokens, 2 entities, unannotated \"Mary\") for the prepare tests,
and `prepare`, which compiles such a file as `coreflab prepare` does."""

import json

from coreflab.cli import main
from coreflab.corpus.compiled import CompiledCorpus

ROWS = [
    ("John", "NNP", "(TOP(S(NP*)", "(PERSON)", "(1)"),
    ("saw", "VBD", "(VP*", "*", "-"),
    ("the", "DT", "(NP*", "*", "(2"),
    ("dog", "NN", "*))", "*", "2)"),
    (".", ".", "*))", "*", "-"),
    None,
    ("It", "PRP", "(TOP(S(NP*)", "*", "(2)"),
    ("barked", "VBD", "(VP*", "*", "-"),
    ("at", "IN", "(PP*", "*", "-"),
    ("him", "PRP", "(NP*)))", "*", "(1)"),
    (".", ".", "*))", "*", "-"),
    None,
    ("Mary", "NNP", "(TOP(S(NP*)", "(PERSON)", "-"),
    ("left", "VBD", "(VP*)", "*", "-"),
    (".", ".", "*))", "*", "-"),
]


def conll_text(doc_id="nw/a/00/a_0000", rows=ROWS):
    lines = [f"#begin document ({doc_id}); part 000"]
    i = 0
    for r in rows:
        if r is None:
            lines.append("")
            i = 0
            continue
        w, p, b, n, c = r
        lines.append(f"{doc_id}\t0\t{i}\t{w}\t{p}\t{b}\t-\t-\t-\tA\t{n}\t-\t{c}")
        i += 1
    return "\n".join(lines + ["", "#end document", ""])


# the same text with "Mary" a one-mention entity: 1 of 3 key clusters is a singleton (33% > 25%)
ROWS_SINGLETON = [r if r is None or r[0] != "Mary" else (*r[:4], "(3)") for r in ROWS]


def prepare(tmp_path, conll, *extra):
    out, stats = tmp_path / "c.npz", tmp_path / "c.json"
    argv = ["prepare", "--conll", str(conll), "--corpus", "toy", "--split", "dev", "--out", str(out)]
    assert main([*argv, "--stats", str(stats), *extra]) == 0
    return CompiledCorpus.load(out), json.loads(stats.read_text())
