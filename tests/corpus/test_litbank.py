"""LitBank source on a fixture written in LitBank's format (13 columns + tenfold id files)."""

import pytest
from corpus_builders import litbank_doc, make_litbank

from coreflab.corpus.readers.litbank import load_litbank, read_ids
from coreflab.errors import InputFormatError, UserError


def test_fold0_splits_and_columns(tmp_path):
    root = make_litbank(tmp_path)
    train = load_litbank(root, "train", fold=0)
    assert [d.doc_id for d in train] == ["1_alpha_brat"]
    doc = train[0]
    assert doc.words == ["Emma", "saw", "her", "host", "She", "left", "."]
    assert doc.sentence_ends == [4, 7]
    assert doc.clusters == [[(0, 0), (4, 4)], [(2, 3)]]
    assert all(doc.columns[c] is None for c in ("pos", "parse", "lemma", "speaker", "ne"))
    assert [d.doc_id for d in load_litbank(root, "dev", 0)] == ["2_beta_brat"]
    assert [d.doc_id for d in load_litbank(root, "test", "1")] == ["1_alpha_brat"]


def test_repository_layout_is_accepted(tmp_path):
    make_litbank(tmp_path / "x")
    (tmp_path / "repo" / "coref").mkdir(parents=True)
    (tmp_path / "repo" / "data").mkdir()
    (tmp_path / "x" / "conll").rename(tmp_path / "repo" / "coref" / "conll")
    (tmp_path / "x" / "splits_tenfold").rename(tmp_path / "repo" / "data" / "litbank_tenfold_splits")
    assert [d.doc_id for d in load_litbank(tmp_path / "repo", "dev", 1)] == ["2_beta_brat"]


def test_read_ids_strips_tsv_and_blank_lines(tmp_path):
    p = tmp_path / "x.ids"
    p.write_text("a_brat.tsv\n\nb_brat\n")
    assert read_ids(p) == [("a_brat", 1), ("b_brat", 3)]


def test_missing_document_names_id_file_and_line(tmp_path):
    root = make_litbank(tmp_path)
    (root / "splits_tenfold" / "0" / "dev.ids").write_text("2_beta_brat.tsv\nnope_brat.tsv\n")
    with pytest.raises(InputFormatError) as err:
        load_litbank(root, "dev", 0)
    assert err.value.line == 2 and err.value.path.endswith("dev.ids") and "nope_brat" in err.value.message


@pytest.mark.parametrize("fold", [10, -1, "x"])
def test_bad_fold(tmp_path, fold):
    with pytest.raises(UserError, match="fold"):
        load_litbank(make_litbank(tmp_path), "train", fold)


def test_malformed_bracket_reported(tmp_path):
    root = make_litbank(tmp_path)
    (root / "conll" / "3_gamma_brat.conll").write_text(litbank_doc("3_gamma_brat", [[("Rain", "5)")]]))
    with pytest.raises(InputFormatError) as err:
        load_litbank(root, "test", 0)
    assert err.value.line == 2 and err.value.path.endswith("3_gamma_brat.conll")
