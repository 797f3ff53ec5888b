"""`coreflab score` / `compare` read any column layout the official scorer reads.

The coreference column is the last one, documents come from `#begin document (id); part
NNN` (missing part: 000), and everything else on a token line is ignored. The baseline is
the 12-column file read by the project's full CoNLL-2012 reader and scored in memory, so
the fast scoring reader (`coreflab.metrics.coref_file`) is checked against the full reader
too.
"""

import json
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coreflab.cli import main
from coreflab.corpus.document import Document
from coreflab.corpus.readers.conll import format_conll, parse_conll, read_conll_path
from coreflab.errors import InputFormatError
from coreflab.metrics.coref_file import parse_coref_bytes, read_coref_path
from coreflab.metrics.scorer import score_documents, score_files

METRICS = ("mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea")


def random_docs(seed, n_docs=4, n_tok=40, nested=True):
    """Documents with overlapping, nested (also same-cluster) and one-token mentions."""
    rng = np.random.default_rng(seed)
    docs = []
    for d in range(n_docs):
        spans = {(int(s), int(min(s + rng.integers(0, 4), n_tok - 1))) for s in rng.integers(0, n_tok, size=14)}
        spans = sorted(spans)
        labels = rng.integers(0, 5 if nested else 50, size=len(spans))
        clusters = [[sp for sp, lab in zip(spans, labels) if lab == c] for c in sorted(set(labels.tolist()))]
        words = [f"w{t}" for t in range(n_tok)]
        docs.append(
            Document(
                f"doc{d}",
                d % 2,
                words,
                [n_tok // 2, n_tok],
                clusters=clusters,
                cluster_labels=[str(c) for c in range(len(clusters))],
            )
        )
    return docs


def with_columns(text, width):
    """The CoNLL-2012 text (13 columns) cut down to `width` columns, coreference last."""
    out = []
    for line in text.split("\n"):
        if not line or line.startswith("#"):
            out.append(line)
            continue
        f = line.split("\t")
        keep = {1: [], 3: [2, 3], 4: [0, 2, 3], 5: [0, 1, 2, 3], 12: list(range(11)), 13: list(range(12))}[width]
        out.append("\t".join([f[i] for i in keep] + [f[-1]]))
    return "\n".join(out)


def json_scores(capsys, key, response):
    assert main(["score", str(key), str(response), "--format", "json", "--per-doc"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("width", [1, 3, 4, 5, 13])
def test_every_layout_scores_as_the_12_column_file(width, tmp_path, capsys):
    key_docs = random_docs(1)
    resp_docs = [d.with_clusters(c.clusters) for d, c in zip(key_docs, random_docs(2))]
    files = {}
    for w in (12, width):
        for side, docs in (("key", key_docs), ("resp", resp_docs)):
            files[side, w] = tmp_path / f"{side}{w}.conll"
            files[side, w].write_text(with_columns(format_conll(docs), w))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        baseline = score_documents(read_conll_path(files["key", 12]), read_conll_path(files["resp", 12]))
        got = json_scores(capsys, files["key", width], files["resp", width])
    for m in METRICS:
        r, p, f = baseline.prf(m)
        assert (got[m]["recall"], got[m]["precision"], got[m]["f1"]) == pytest.approx(
            (100 * r, 100 * p, 100 * f), abs=1e-9
        )
    assert [d["doc_id"] for d in got["documents"]] == [d.doc_id for d in key_docs]


def test_missing_part_is_part_000(tmp_path, capsys):
    body = "t\t0\t0\ta\t(1\nt\t0\t1\tb\t1)\nt\t0\t2\tc\t(1)\n#end document\n"
    key = tmp_path / "key.conll"
    key.write_text("#begin document (d1);\n" + body)
    resp = tmp_path / "resp.conll"
    resp.write_text("#begin document (d1); part 000\n" + body)
    got = json_scores(capsys, key, resp)
    assert "missing from the response" not in capsys.readouterr().err
    assert got["documents"][0]["part"] == 0
    assert got["muc"]["recall"] == 100 and got["mentions"]["precision"] == 100
    resp.write_text("#begin document (d1); part 001\n" + body)  # another part: a different document
    got = json_scores(capsys, key, resp)
    assert got["mentions"]["recall"] == 0


def test_compare_accepts_five_column_files(tmp_path, capsys):
    key_docs = random_docs(3)
    paths = []
    for name, docs in (("key", key_docs), ("a", key_docs), ("b", random_docs(4))):
        p = tmp_path / f"{name}.conll"
        p.write_text(with_columns(format_conll([d.with_clusters(c.clusters) for d, c in zip(key_docs, docs)]), 5))
        paths.append(str(p))
    assert main(["compare", *paths, "--samples", "200", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert f"F1 over {len(key_docs)} documents" in out and "system A: 100.00" in out


def test_the_full_reader_keeps_its_12_column_strictness():
    text = "#begin document (d); part 000\nd\t0\t0\ta\t(1)\n#end document\n"
    with pytest.raises(InputFormatError, match="expected at least 12"):
        parse_conll(text)
    assert len(parse_coref_bytes(text.encode()).docs) == 1


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.booleans())
def test_scoring_reader_reads_the_clusters_the_full_reader_reads(seed, nested):
    text = format_conll(random_docs(seed, n_docs=3, n_tok=25, nested=nested))
    full = parse_conll(text)
    fast = parse_coref_bytes(text.encode())
    assert fast.docs == [d.key for d in full]
    cl, _ = fast.cluster_arrays()
    for i, doc in enumerate(full):
        mine = {}
        for k in np.flatnonzero(fast.m_doc == i):
            mine.setdefault(int(cl[k]), []).append((int(fast.m_start[k]), int(fast.m_end[k])))
        assert sorted(sorted(c) for c in mine.values()) == sorted(sorted(c) for c in doc.clusters)
        assert fast.clusters(i) == doc.clusters  # the Python reading keeps v8.01's order


def test_directory_of_files_reads_like_one_file(tmp_path):
    docs = random_docs(5)
    (tmp_path / "all.conll").write_text(format_conll(docs))
    folder = tmp_path / "parts"
    folder.mkdir()
    for d in docs:
        (folder / f"{d.doc_id}.conll").write_text(with_columns(format_conll([d]), 5))
    one, many = read_coref_path(tmp_path / "all.conll"), read_coref_path(folder)
    assert one.docs == many.docs
    a, b = score_files(one, one), score_files(many, one)
    for m in METRICS:
        assert np.allclose(a.per_doc[m], b.per_doc[m])
