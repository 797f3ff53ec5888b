"""What a user's slip costs: one line naming what is wrong, no traceback, nothing written beside it."""

import re

import numpy as np
import pytest

from coreflab.cli import main
from coreflab.corpus.compile import compile_documents
from coreflab.corpus.readers.conll import parse_conll
from coreflab.errors import UserError
from coreflab.learn.output import response_documents

ROWS = [("John", "(1)"), ("saw", "-"), ("the", "(2"), ("dog", "2)"), (".", "-"), None,
        ("It", "(2)"), ("barked", "-"), ("at", "-"), ("him", "(1)"), (".", "-"), None,
        ("Mary", "-"), ("left", "-"), (".", "-")]  # fmt: skip


def conll_text(rows=ROWS, doc_id="a"):
    """One document in the official 12-column layout (no parse, no names)."""
    lines, i = [f"#begin document ({doc_id}); part 000"], 0
    for r in rows:
        if r is None:
            lines.append("")
            i = 0
            continue
        lines.append(f"{doc_id}\t0\t{i}\t{r[0]}\tXX\t-\t-\t-\t-\tA\t*\t{r[1]}")
        i += 1
    return "\n".join(lines + ["", "#end document", ""])


def test_out_naming_a_folder_is_one_line_and_leaves_no_temp_file(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "key.conll").write_text(conll_text())
    (tmp_path / "out").mkdir()
    rc = main(["prepare", "--conll", "key.conll", "--corpus", "x", "--split", "dev", "--out", "out"])
    err = capsys.readouterr().err
    assert rc == 2 and err.strip() == "coreflab prepare: error: --out out: is a directory; give the file to write"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["key.conll", "out"] and not any((tmp_path / "out").iterdir())


def test_synth_writes_into_its_out_folder(tmp_path):
    (tmp_path / "s").mkdir()
    assert main(["synth", "--size", "tiny", "--out", str(tmp_path / "s")]) == 0
    assert (tmp_path / "s" / "dev.conll").is_file()


def test_a_missing_input_file_is_one_line_naming_it(tmp_path, capsys):
    rc = main(["leaderboard", "--scores", str(tmp_path / "nosuch.csv"), "--out-prefix", str(tmp_path / "lb")])
    err = capsys.readouterr().err.strip()
    assert rc == 2 and "\n" not in err and err.startswith("coreflab leaderboard: error:") and "nosuch.csv" in err


def test_an_unexpected_error_is_one_line_unless_a_traceback_is_asked_for(tmp_path, capsys, monkeypatch):
    # a key file where the leaderboard expects its score table: no `corpus` column
    (tmp_path / "scores.csv").write_text("a,b\n1,2\n")
    args = ["leaderboard", "--scores", str(tmp_path / "scores.csv"), "--out-prefix", str(tmp_path / "lb")]
    monkeypatch.delenv("COREFLAB_TRACEBACK", raising=False)
    rc = main(args)
    err = capsys.readouterr().err.strip()
    assert rc == 1 and "\n" not in err and "COREFLAB_TRACEBACK=1" in err and "Traceback" not in err
    assert re.search(r"raised at coreflab/[\w/]+\.py:\d+", err)  # the package's line, not pandas'
    monkeypatch.setenv("COREFLAB_TRACEBACK", "1")
    with pytest.raises(KeyError):
        main(args)


def test_a_key_with_other_tokens_than_the_compiled_split_is_refused():
    """Predicted spans are token positions: on a key with a token less they would land elsewhere."""
    docs = parse_conll(conll_text(), "key.conll")
    corpus = compile_documents(docs, "x", "dev", "gold")
    ante = np.full(int(corpus.arrays["doc_mention_offsets"][-1]), -1, dtype=np.int64)
    assert len(response_documents(docs, corpus, ante, source="key.conll")) == 1
    shorter = parse_conll(conll_text(rows=ROWS[:13] + ROWS[14:]), "short.conll")  # without "left"
    with pytest.raises(UserError, match=r"short.conll: document .* has 12 tokens, the compiled split 13"):
        response_documents(shorter, corpus, ante, source="short.conll")


def test_a_misspelled_import_option_is_refused_with_the_close_one(tmp_path, capsys):
    rc = main(["import", "--corpus", "conll2012", "--split", "dev", "--option", f"local_dir={tmp_path}",
               "--option", "langauge=chinese", "--out", str(tmp_path / "dev.conll")])  # fmt: skip
    err = capsys.readouterr().err.strip()
    assert rc == 2 and "'langauge'" in err and "did you mean 'language'?" in err and "annotation" in err
    assert not (tmp_path / "dev.conll").exists()


def test_a_count_below_its_minimum_is_refused_with_the_option(capsys):
    from coreflab.arg_types import at_least

    assert at_least(0)("0") == 0 and at_least(1)("7") == 7
    with pytest.raises(SystemExit) as stop:
        main(["l3m2014", "robustness", "--compiled", "c.npz", "--arcs", "a.npz", "--runs", "-1", "--out", "r.csv"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and "argument --runs: must be at least 1, got -1" in err
    with pytest.raises(SystemExit):
        main(["select", "--jobs", "two"])
    assert "argument --jobs: expected an integer, got 'two'" in capsys.readouterr().err


def test_a_score_file_without_scores_is_refused(tmp_path, capsys):
    (tmp_path / "e.json").write_text("{}")
    rc = main(["scores-table", "--corpus", "x", "--split", "dev", "--score", f"sys={tmp_path / 'e.json'}",
               "--out", str(tmp_path / "t.csv")])  # fmt: skip
    assert rc == 2 and "e.json: no scores in it" in capsys.readouterr().err and not (tmp_path / "t.csv").exists()


def test_comment_lines_between_sentences_survive_into_the_response(tmp_path):
    """A key with `# sent_id` lines: scorer.pl counts them as token positions, so a response written from
    it keeps them where they were, and the two stay aligned."""
    from coreflab.corpus.readers.conll import format_conll
    from coreflab.metrics.coref_file import parse_coref_bytes

    lines = conll_text().splitlines()
    lines.insert(1, "# sent_id = 1")
    lines.insert(lines.index("") + 1, "# sent_id = 2")  # after the first sentence's blank line
    lines.insert(len(lines) - 1, "# end of text")  # after the last sentence, before '#end document'
    key_text = "\n".join(lines) + "\n"
    docs = parse_conll(key_text, "key.conll")
    assert docs[0].comments == [(0, "# sent_id = 1"), (5, "# sent_id = 2"), (13, "# end of text")]
    corpus = compile_documents(docs, "x", "dev", "gold")
    ante = np.full(int(corpus.arrays["doc_mention_offsets"][-1]), -1, dtype=np.int64)
    response = format_conll(response_documents(docs, corpus, ante, keep_singletons=True))
    assert [x for x in response.splitlines() if x.startswith("# ")] == [
        "# sent_id = 1",
        "# sent_id = 2",
        "# end of text",
    ]
    key, resp = parse_coref_bytes(key_text.encode(), "key"), parse_coref_bytes(response.encode(), "resp")
    assert key.n_tokens.tolist() == resp.n_tokens.tolist() == [16]  # 13 tokens and 3 comment lines


def test_ctrl_c_is_one_line_and_exit_130(monkeypatch, capsys):
    import coreflab.commands.scores_table as verb

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(verb, "run", interrupted)
    assert main(["scores-table", "--corpus", "x", "--split", "dev", "--score", "a=b.json", "--out", "t.csv"]) == 130
    assert capsys.readouterr().err.strip() == "coreflab scores-table: interrupted"


def test_a_byte_order_mark_does_not_hide_the_first_document(tmp_path):
    from coreflab.corpus.readers.conll import read_conll

    (tmp_path / "bom.conll").write_bytes(b"\xef\xbb\xbf" + conll_text().encode())
    (doc,) = read_conll(tmp_path / "bom.conll")
    assert doc.doc_id == "a" and len(doc.words) == 13
