"""GUM / OntoGUM source on fixtures in GUM's own formats: 3-column coreference CoNLL,
CoNLL-U and PTB side files packed into tar.xz archives like the released ones."""

import pytest
from corpus_builders import BITS, PTB, SPLITS, WORDS, conllu_text, make_gum

from coreflab.corpus.readers import gum
from coreflab.corpus.readers.conll import format_conll, parse_conll
from coreflab.corpus.readers.conllu import parse_conllu
from coreflab.corpus.readers.gum import load_gum, read_splits
from coreflab.corpus.readers.ptb import normalise_label, parse_ptb, unescape_ptb
from coreflab.errors import InputFormatError, UserError


def test_merged_document_columns(tmp_path):
    docs = load_gum(make_gum(tmp_path / "g"), ["train", "dev", "test"])
    assert {s: [d.doc_id for d in v] for s, v in docs.items()} == {
        "train": ["GUM_news_a"],
        "dev": ["GUM_bio_c"],
        "test": ["GUM_fiction_d"],
    }
    doc = docs["train"][0]
    assert doc.words == WORDS and doc.part == 0
    assert doc.sentence_ends == [8, 10]
    assert doc.columns["pos"] == ["PRP", "MD", "RB", "-LRB-", "VB", "-RRB-", "PRP", ".", "PRP", "NFP"]
    assert doc.columns["lemma"] == ["I", "can", "not", "(", "see", ")", "it", ".", "he", ":)"]
    assert doc.columns["speaker"] == ["Dr_Who"] * 8 + ["-"] * 2
    assert doc.columns["parse"] == BITS
    assert doc.columns["ne"] is None and doc.args is None
    assert doc.clusters == [[(0, 0), (8, 8)], [(0, 1)], [(3, 5), (6, 6)]]
    assert doc.cluster_labels == ["1", "3", "2"]


def test_ontogum_scheme_and_repository_layout(tmp_path):
    shared = load_gum(make_gum(tmp_path / "s"), ["dev"], scheme="ontogum")["dev"][0]
    repo = load_gum(make_gum(tmp_path / "r", layout="repo"), ["dev"], scheme="ontogum")["dev"][0]
    for doc in (shared, repo):
        assert doc.doc_id == "GUM_bio_c"  # OntoGUM's header has no id: taken from the file name
        assert doc.clusters == [[(0, 0), (8, 8)], [(3, 5), (6, 6)]] and doc.cluster_labels == ["7", "8"]
    assert format_conll([shared]) == format_conll([repo]).replace(str(tmp_path / "r"), str(tmp_path / "s"))


def test_normalised_output_reads_back_identically(tmp_path):
    doc = load_gum(make_gum(tmp_path / "g"), ["test"])["test"][0]
    back = parse_conll(format_conll([doc]), "x.conll")[0]
    assert (back.doc_id, back.words, back.sentence_ends, back.clusters) == (
        doc.doc_id,
        doc.words,
        doc.sentence_ends,
        doc.clusters,
    )
    for name in ("pos", "parse", "lemma", "speaker"):
        assert back.columns[name] == doc.columns[name]


def test_reddit_needs_restored_text(tmp_path):
    root = make_gum(tmp_path / "g")
    with pytest.raises(UserError, match="masked"):
        load_gum(root, ["train"], include_reddit=True)


def test_used_document_with_bracket_error_is_reported(tmp_path):
    root = make_gum(tmp_path / "g", bad_onto="GUM_bio_c")
    assert len(load_gum(root, ["train", "test"], scheme="ontogum")["test"]) == 1
    with pytest.raises(InputFormatError) as err:
        load_gum(root, ["dev"], scheme="ontogum")
    assert err.value.path.endswith("conll_ontogum/GUM_bio_c.conll") and err.value.line == 2


def test_known_erratum_is_repaired_only_on_request(tmp_path, monkeypatch, capsys):
    root = make_gum(tmp_path / "g")
    path = root / "conll_ontogum" / "GUM_fiction_d.conll"
    path.write_text(path.read_text().replace("4\tsee\t_", "4\t\t_"))
    monkeypatch.setattr(gum, "ERRATA", (("ontogum", "GUM_fiction_d", 6, "4\t\t_", "4\tsee\t_", "lost word"),))
    with pytest.raises(InputFormatError, match="apply_errata: true") as err:
        load_gum(root, ["test"], scheme="ontogum")
    assert err.value.line == 6
    [doc] = load_gum(root, ["test"], scheme="ontogum", apply_errata=True)["test"]
    assert doc.words == WORDS
    assert capsys.readouterr().err.endswith("GUM_fiction_d.conll:6: repaired known erratum (lost word)\n")


def test_word_mismatch_names_conllu_member_and_line(tmp_path):
    root = make_gum(tmp_path / "g")
    path = root / "conll_gum_native" / "GUM_bio_c.conll"
    path.write_text(path.read_text().replace("4\tsee", "4\tsaw"))
    with pytest.raises(InputFormatError) as err:
        load_gum(root, ["dev"])
    assert err.value.path.endswith("dep_conllu.tar.xz:dep/GUM_bio_c.conllu")
    assert err.value.line == 10 and "'see'" in err.value.message and "'saw'" in err.value.message


def test_leaf_count_mismatch_names_tree_line(tmp_path):
    root = make_gum(tmp_path / "g", layout="repo")
    (root / "const" / "GUM_bio_c.ptb").write_text(PTB.replace("(NFP :-RRB-)", "(NFP :-RRB-) (. .)"))
    with pytest.raises(InputFormatError) as err:
        load_gum(root, ["dev"])
    assert err.value.path.endswith("GUM_bio_c.ptb") and err.value.line == 10


def test_read_splits_both_formats_agree(tmp_path):
    assert read_splits(make_gum(tmp_path / "s")) == SPLITS
    assert sorted(read_splits(make_gum(tmp_path / "r", layout="repo"))) == sorted(SPLITS)


def test_missing_layer_is_a_user_error(tmp_path):
    root = make_gum(tmp_path / "g")
    (root / "const_ptb.tar.xz").unlink()
    with pytest.raises(UserError, match="const"):
        load_gum(root, ["dev"])


# --- the two side-format readers -------------------------------------------------------


def test_ptb_unescape_and_labels():
    assert unescape_ptb("friend-LRB-s-RRB-") == "friend(s)"
    assert unescape_ptb("-LCB--RSB-") == "{]"
    assert [normalise_label(x) for x in ("ROOT", "NP-SBJ", "NP=2", "-NONE-", "S")] == ["TOP", "NP", "NP", "-NONE-", "S"]


def test_ptb_bits_and_wrapper():
    trees = parse_ptb(PTB, "x.ptb")
    assert [t.line for t in trees] == [1, 10]
    assert trees[0].bits + trees[1].bits == BITS
    assert trees[0].leaves[3] == "-LRB-" and trees[0].tags[6] == "PRP"
    assert parse_ptb("( (S (NP (DT a)) (VP (VBZ is))) )")[0].bits == ["(TOP(S(NP*)", "(VP*)))"]


@pytest.mark.parametrize(
    "text,line",
    [("(ROOT (NP (NN a))", 1), ("(ROOT (NN a)))\n", 1), ("(ROOT\n (NP ()))", 2), ("(ROOT (NP (NN a)))\nword", 2)],
)
def test_ptb_errors(text, line):
    with pytest.raises(InputFormatError) as err:
        parse_ptb(text, "x.ptb")
    assert err.value.line == line


def test_conllu_sentences():
    sents = parse_conllu(conllu_text("d"), "d.conllu")
    assert [len(s.words) for s in sents] == [8, 2]
    assert sents[0].speaker == "Dr  Who" and sents[1].speaker is None
    assert (sents[0].line, sents[1].line) == (5, 17)
    with pytest.raises(InputFormatError) as err:
        parse_conllu("1\ta\ta\tX\tX\t_\t0\troot\t_\t_\n3\tb\tb\tX\tX\t_\t1\tdep\t_\t_\n", "d.conllu")
    assert err.value.line == 2
