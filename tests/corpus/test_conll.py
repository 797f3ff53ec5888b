"""The CoNLL-2012 reader/writer: round trips, layouts, and one clear error per malformation."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coreflab.corpus.conll import format_conll, parse_conll, read_conll, read_conll_path, write_conll
from coreflab.corpus.document import Document
from coreflab.errors import InputFormatError, UserError

DOC = """#begin document (nw/test/01); part 000
nw/test/01\t0\t0\tJohn\tNNP\t(TOP(S(NP*)\t-\t-\t-\tspk1\t(PERSON)\t*\t(0)
nw/test/01\t0\t1\tsaw\tVBD\t(VP*\tsee\t01\t1\tspk1\t*\t(V*)\t-
nw/test/01\t0\t2\this\tPRP$\t(NP(NP*\t-\t-\t-\tspk1\t*\t*\t(0)|(1
nw/test/01\t0\t3\tdog\tNN\t*))\t-\t-\t-\tspk1\t*\t*\t1)
nw/test/01\t0\t4\t.\t.\t*)))\t-\t-\t-\tspk1\t*\t*\t-

nw/test/01\t0\t0\tIt\tPRP\t(TOP(S(NP*)\t-\t-\t-\tspk1\t*\t*\t(1)
nw/test/01\t0\t1\tbarked\tVBD\t(VP*)\tbark\t01\t1\tspk1\t*\t(V*)\t-
nw/test/01\t0\t2\t.\t.\t*))\t-\t-\t-\tspk1\t*\t*\t-

#end document
"""


def test_reads_tokens_sentences_columns_and_clusters():
    (doc,) = parse_conll(DOC)
    assert doc.key == ("nw/test/01", 0)
    assert doc.words == ["John", "saw", "his", "dog", ".", "It", "barked", "."]
    assert doc.sentence_ends == [5, 8]
    assert doc.column("pos")[2] == "PRP$"
    assert doc.column("speaker") == ["spk1"] * 8
    assert doc.args[1] == ("(V*)",)
    assert doc.cluster_labels == ["0", "1"]
    assert doc.clusters == [[(0, 0), (2, 2)], [(2, 3), (5, 5)]]


def test_round_trip_is_lossless(tmp_path):
    docs = parse_conll(DOC)
    write_conll(docs, tmp_path / "out.conll")
    again = read_conll(tmp_path / "out.conll")
    for a, b in zip(docs, again):
        assert (a.key, a.words, a.sentence_ends, a.columns, a.args, a.clusters) == (
            b.key, b.words, b.sentence_ends, b.columns, b.args, b.clusters
        )
    assert format_conll(again) == format_conll(docs)


def test_three_column_layout_and_back_to_back_items():
    text = "# begin document GUM_x\n0\tA\t(a-1(b-2\n1\tman\tb-2)\n2\tsat\ta-1)\n# end document\n"
    (doc,) = parse_conll(text)
    assert doc.doc_id == "GUM_x" and doc.part == 0
    assert doc.clusters == [[(0, 2)], [(0, 1)]]
    assert doc.column("pos") is None


def test_empty_id_takes_file_name(tmp_path):
    path = tmp_path / "GUM_y.conll"
    path.write_text("# begin document \n0\tHi\t(1)\n# end document\n")
    assert read_conll(path)[0].doc_id == "GUM_y"


def test_nested_same_id_and_crossing_mentions_as_the_official_scorer_reads_them():
    text = "#begin document (d); part 0\n" + "".join(
        f"d 0 {i} w{i} - - - - - - - - {c}\n" for i, c in enumerate(["(1|(2", "(1)", "1)|(3", "2)", "3)"])
    ) + "#end document\n"
    (doc,) = parse_conll(text)
    assert doc.clusters == [[(1, 1), (0, 2)], [(0, 3)], [(2, 4)]]


@pytest.mark.parametrize(
    "text, line, phrase",
    [
        ("d 0 0 w - - - - - - - - (1)\n", 1, "outside a document"),
        ("#begin document (d); part 0\nd 0 0 w - - - - - - - - (1)\n", 1, "never closed"),
        ("#begin document (d); part 0\nd 0 0 w - - - - - - - - (1\n#end document\n", 2, "never closed"),
        ("#begin document (d); part 0\nd 0 0 w - - - - - - - - 1)\n#end document\n", 2, "never opened"),
        ("#begin document (d); part 0\nd 0 0 w - - - - - - - - (1)\n#end document\n"
         "#begin document (d); part 0\nd 0 0 w - - - - - - - - (1)\n#end document\n", 4, "duplicate document"),
        ("#end document\n", 1, "without a matching"),
        ("#begin document (d); part 0\nd 0 0 w - - - - - - (1)\n#end document\n", 2, "expected at least 12"),
        ("#begin document (d); part 0\nd 0 0 w - (S* - - - - - - -\n\n#end document\n", 2, "unbalanced parse"),
        ("#begin document (d); part 0\nd 0 0 w - - - - - - - - (1)x\n#end document\n", 2, "bad coreference"),
        ("#begin document (d); part 0\n#begin document (e); part 0\n", 2, "still open"),
    ],
)
def test_malformed_input_names_file_line_and_expectation(text, line, phrase):
    with pytest.raises(InputFormatError) as err:
        parse_conll(text, "f.conll")
    assert err.value.line == line
    assert phrase in str(err.value)
    assert str(err.value).startswith(f"f.conll:{line}:")


def test_non_utf8_is_an_error_with_line(tmp_path):
    path = tmp_path / "bad.conll"
    path.write_bytes(b"#begin document (d); part 0\nd 0 0 caf\xe9 - - - - - - - - -\n#end document\n")
    with pytest.raises(InputFormatError) as err:
        read_conll(path)
    assert err.value.line == 2 and "UTF-8" in str(err.value)


def test_directory_reading_and_missing_paths(tmp_path):
    (tmp_path / "a.conll").write_text(DOC)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.conll").write_text(DOC.replace("nw/test/01", "nw/test/02"))
    docs = read_conll_path(tmp_path)
    assert [d.doc_id for d in docs] == ["nw/test/01", "nw/test/02"]
    with pytest.raises(UserError):
        read_conll_path(tmp_path / "missing")
    (tmp_path / "sub" / "c.conll").write_text(DOC)
    with pytest.raises(UserError, match="duplicate document"):
        read_conll_path(tmp_path)


def test_atomic_write_leaves_nothing_on_failure(tmp_path):
    class Boom(Document):
        pass

    bad = Document("d", 0, ["a"], [1], clusters=[[(0, 5)]], cluster_labels=["1"])
    with pytest.raises(IndexError):
        write_conll([bad], tmp_path / "x.conll")
    assert list(tmp_path.iterdir()) == []


@st.composite
def documents(draw):
    n = draw(st.integers(1, 12))
    cuts = sorted(draw(st.sets(st.integers(1, n - 1), max_size=3))) if n > 1 else []
    spans = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, 3)), max_size=8, unique=True))
    spans = sorted({(s, min(n - 1, s + k)) for s, k in spans})
    labels = draw(st.lists(st.integers(0, 3), min_size=len(spans), max_size=len(spans)))
    clusters = {}
    for span, lab in zip(spans, labels):
        # spans of one id cannot cross (brackets are matched per id), so skip those
        if any(s < span[0] <= e < span[1] or span[0] < s <= span[1] < e for s, e in clusters.get(lab, [])):
            continue
        clusters.setdefault(lab, []).append(span)
    keys = sorted(clusters)
    return Document("doc", 0, [f"w{i}" for i in range(n)], cuts + [n],
                    clusters=[clusters[k] for k in keys], cluster_labels=[str(k) for k in keys])


@settings(max_examples=150, deadline=None)
@given(documents())
def test_round_trip_property(doc):
    (back,) = parse_conll(format_conll([doc]))
    assert back.words == doc.words and back.sentence_ends == doc.sentence_ends
    assert {lab: sorted(c) for lab, c in zip(back.cluster_labels, back.clusters)} == {
        lab: sorted(c) for lab, c in zip(doc.cluster_labels, doc.clusters)
    }
