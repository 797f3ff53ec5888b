from coreflab.corpus.compile import compile_documents
from coreflab.corpus.document import Document
from coreflab.learn.output import clusters_per_document
from coreflab.learn.trees.string_match import StringMatch, string_match_antecedents

NO_COLUMNS = {k: None for k in ("pos", "parse", "lemma", "frameset", "sense", "speaker", "ne")}


def doc_from(text, phrases):
    """Whitespace tokens, sentences ending at '.', mentions = the given phrases (each one
    (phrase, occurrence)); every mention is its own gold cluster (the baseline ignores the key)."""
    words = text.split()
    ends = [i + 1 for i, w in enumerate(words) if w == "."]
    spans = []
    for phrase, k in phrases:
        p = phrase.split()
        hits = [i for i in range(len(words)) if words[i : i + len(p)] == p]
        spans.append((hits[k], hits[k] + len(p) - 1))
    doc = Document("d", 0, words, ends, columns=dict(NO_COLUMNS), clusters=[[s] for s in spans])
    return doc, compile_documents([doc], "toy", "test")


def spans_text(doc, clusters):
    return [[" ".join(doc.words[s : e + 1]) for s, e in c] for c in clusters]


def test_small_document_exact_clusters():
    text = "John Smith met Mary . He gave her a book . Smith liked the book . The red book was new ."
    doc, c = doc_from(
        text,
        [
            ("John Smith", 0),
            ("Mary", 0),
            ("He", 0),
            ("her", 0),
            ("a book", 0),
            ("Smith", 1),
            ("the book", 0),
            ("The red book", 0),
        ],
    )
    ante = string_match_antecedents(c).tolist()
    # rows in text order: 0 John Smith, 1 Mary, 2 He, 3 her, 4 a book, 5 Smith, 6 the book, 7 The red book
    # He skips Mary (female by the name list); Smith: head match; the book / The red book: head 'book'
    assert ante == [-1, -1, 0, 1, -1, 0, 4, 6]
    assert spans_text(doc, clusters_per_document(c, ante, keep_singletons=True)[0]) == [
        ["John Smith", "He", "Smith"],
        ["Mary", "her"],
        ["a book", "the book", "The red book"],
    ]


def test_full_string_beats_head_and_window_limits_pronouns():
    text = "the old man . a young man . the old man . x . x . x . x . he ."
    doc, c = doc_from(text, [("the old man", 0), ("a young man", 0), ("the old man", 1), ("he", 0)])
    # row 2 matches row 0 by full string although row 1 shares the head and is closer;
    # 'he' is 5 sentences after the last candidate: outside a window of 3
    assert StringMatch(window=3).fit().predict(c).tolist() == [-1, 0, 0, -1]
    assert StringMatch(window=6).predict(c).tolist()[3] == 2


def test_first_person_links_only_to_first_person():
    text = "Mary said : I am tired and she is too . I know ."
    doc, c = doc_from(text, [("Mary", 0), ("I", 0), ("she", 0), ("I", 1)])
    assert string_match_antecedents(c).tolist() == [-1, -1, 0, 1]


def test_no_link_into_an_enclosing_mention():
    text = "the man with the man ."
    doc, c = doc_from(text, [("the man with the man", 0), ("the man", 0), ("the man", 1)])
    # rows sorted by (start, end): 0 (0,1), 1 (0,4), 2 (3,4); row 1 has head 'man' (cut before
    # 'with') but contains rows 0 and 2, so it links to neither; row 2 matches row 0's string
    assert string_match_antecedents(c).tolist() == [-1, -1, 0]


def test_antecedents_are_earlier_rows_of_the_same_document():
    from pathlib import Path

    import numpy as np
    import pytest

    from coreflab.corpus.readers.conll import read_conll_path

    path = Path(__file__).resolve().parents[3] / ".." / "shared" / "data" / "litbank" / "conll"
    if not path.exists():
        pytest.skip("shared LitBank data not present")
    c = compile_documents(read_conll_path(path)[:4], "litbank", "x")
    ante = string_match_antecedents(c)
    j = np.flatnonzero(ante >= 0)
    i = ante[j]
    assert (i < j).all() and (c.m_doc[i] == c.m_doc[j]).all()
    nested = ((c.m_start[i] <= c.m_start[j]) & (c.m_end[j] <= c.m_end[i])) | (
        (c.m_start[j] <= c.m_start[i]) & (c.m_end[i] <= c.m_end[j])
    )
    assert not nested.any()
    clusters = clusters_per_document(c, StringMatch().predict(c), keep_singletons=True)
    assert sum(len(m) for doc in clusters for m in doc) == c.n_mentions


def test_predict_gives_document_local_antecedents_as_every_learner():
    """Rows in string_match_antecedents, document-local indices in predict (what `check_antecedents` asks)."""
    import numpy as np

    from coreflab.learn.output import check_antecedents

    text = "John Smith met Mary . He gave her a book . Smith liked the book ."
    phrases = [("John Smith", 0), ("Mary", 0), ("He", 0), ("her", 0), ("Smith", 1)]
    docs = [doc_from(text, phrases)[0] for _ in range(3)]
    docs = [
        Document(f"d{k}", 0, d.words, d.sentence_ends, columns=d.columns, clusters=d.clusters)
        for k, d in enumerate(docs)
    ]
    c = compile_documents(docs, "toy", "test")
    rows = string_match_antecedents(c)
    local = StringMatch().predict(c)
    assert local.tolist() == [-1, -1, 0, 1, 0] * 3
    assert rows.tolist()[5:10] == [-1, -1, 5, 6, 5]
    assert np.array_equal(check_antecedents(c, local), local)
