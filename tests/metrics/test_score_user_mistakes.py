"""What a new user gets wrong with `coreflab score`, and what they are told.

The numbers stay those of the official scorer v8.01 (which checks none of this); what changes is
stderr: a warning per document whose token counts differ between key and response (the first 5,
then a count), response documents the key lacks, an empty response; a key holding no documents
is a one-line error. A leading UTF-8 byte-order mark is stripped (with a warning: v8.01 keeps it).
A folder's files are those named `*conll` or `*.txt`, a `.txt` without a `#begin document` line
being skipped with a warning; a document twice in a folder names both `#begin document` lines,
with a hint for a CoNLL-2012 release folder. An unknown metric in scorer.pl's argument form is
named as such.
"""

import json

import pytest

from coreflab.cli import main
from coreflab.metrics.coref_file import ByteOrderMarkWarning, parse_coref_bytes


def doc(name, cells, part="000"):
    """One 5-column document (the reference scorer's layout) with these coreference cells."""
    lines = [f"#begin document ({name}); part {part}"]
    lines += [f"{name}\t0\t{i}\tw{i}\t{cell}" for i, cell in enumerate(cells)]
    return "\n".join(lines + ["#end document"]) + "\n"


def write(path, *docs):
    path.write_text("".join(docs))
    return path


def score(capsys, *argv):
    code = main(["score", *map(str, argv), "--format", "json"])
    out = capsys.readouterr()
    return code, (json.loads(out.out) if code == 0 else None), out.err


def warnings_of(err):
    lines = err.splitlines()
    assert all(line.startswith("coreflab score: warning: ") for line in lines), err
    return [line.removeprefix("coreflab score: warning: ") for line in lines]


KEY_CELLS = ["(1", "1)", "(1)", "-", "(2)", "(2)"]


# 1. token counts


def test_a_response_missing_a_token_keeps_the_numbers_and_warns_once(tmp_path, capsys):
    key = write(tmp_path / "key.conll", doc("a", KEY_CELLS), doc("b", KEY_CELLS))
    # the response of 'a' lacks its 4th token, so its (2) mentions sit one token early
    short = write(tmp_path / "short.conll", doc("a", ["(1", "1)", "(1)", "(2)", "(2)"]), doc("b", KEY_CELLS))
    code, got, err = score(capsys, key, short)
    assert code == 0
    assert warnings_of(err) == [
        "document '(a); part 000' has 6 tokens in the key and 5 in the response: mentions are matched by token "
        "position, so scores may be wrong"
    ]
    # by hand: key mentions a: {0-1, 2} {4, 5}, b the same; response a: {0-1, 2} {3, 4}: 3 of a's 4 found
    assert (got["mentions"]["recall_num"], got["mentions"]["recall_den"]) == (7, 8)
    assert (got["muc"]["recall_num"], got["muc"]["recall_den"]) == (3, 4)  # a's {4, 5} link is lost


def test_extra_tokens_and_sentences_warn_too(tmp_path, capsys):
    key = write(tmp_path / "key.conll", doc("a", KEY_CELLS))
    longer = (tmp_path / "long.conll").write_text(doc("a", KEY_CELLS).replace("#end", "\na\t1\t0\tx\t-\n#end"))
    assert longer
    code, got, err = score(capsys, key, tmp_path / "long.conll")
    assert code == 0 and got["muc"]["f1"] == 100.0
    assert warnings_of(err) == [
        "document '(a); part 000' has 6 tokens in the key and 7 in the response: mentions are matched by token "
        "position, so scores may be wrong"
    ]


def test_token_count_warnings_stop_after_five_then_count_the_rest(tmp_path, capsys):
    names = [f"d{i}" for i in range(8)]
    key = write(tmp_path / "key.conll", *(doc(n, KEY_CELLS) for n in names))
    response = write(tmp_path / "resp.conll", *(doc(n, KEY_CELLS[:-1]) for n in names))
    code, _, err = score(capsys, key, response)
    messages = warnings_of(err)
    assert code == 0 and len(messages) == 6
    assert [m.split("'")[1] for m in messages[:5]] == [f"(d{i}); part 000" for i in range(5)]
    assert messages[5] == "... and 3 more document(s) whose token counts differ between key and response"


def test_the_reader_counts_tokens_as_v801_does():
    # an empty line is no token; a '#' line inside a document is one (v8.01 counts every non-empty line)
    text = "#begin document (a); part 000\nt\t(1\n\n   \n# note\nt\t1)\n#end document\n"
    f = parse_coref_bytes(text.encode())
    assert f.n_tokens.tolist() == [3] and f.begin_lines == [1]


# 2. no documents


@pytest.mark.parametrize("text", ["", "# a comment, no document\n", "\n\n"])
def test_a_key_without_documents_is_a_one_line_error(tmp_path, capsys, text):
    key = tmp_path / "key.conll"
    key.write_text(text)
    response = write(tmp_path / "resp.conll", doc("a", KEY_CELLS))
    code, _, err = score(capsys, key, response)
    assert code == 2
    assert err.startswith(f"coreflab score: error: {key}: the key holds no documents")
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert main(["compare", str(key), str(response), str(response), "--samples", "5"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"coreflab compare: error: {key}: the key holds no documents")


def test_a_key_folder_of_empty_files_is_the_same_error(tmp_path, capsys):
    (tmp_path / "key").mkdir()
    (tmp_path / "key" / "a.conll").write_text("")
    code, _, err = score(capsys, tmp_path / "key", write(tmp_path / "resp.conll", doc("a", KEY_CELLS)))
    assert code == 2 and "the key holds no documents" in err


def test_an_empty_response_scores_zero_and_says_every_key_document_is_missing(tmp_path, capsys):
    key = write(tmp_path / "key.conll", doc("a", KEY_CELLS), doc("b", KEY_CELLS))
    empty = tmp_path / "empty.conll"
    empty.write_text("")
    code, got, err = score(capsys, key, empty)
    assert code == 0 and got["muc"]["recall_num"] == 0 and got["muc"]["recall_den"] == 4
    assert warnings_of(err) == [
        f"{empty} holds no documents: all 2 key document(s) are missing from the response, scored as empty"
    ]


def test_missing_key_documents_are_named(tmp_path, capsys):
    key = write(tmp_path / "key.conll", doc("a", KEY_CELLS), doc("b", KEY_CELLS))
    response = write(tmp_path / "resp.conll", doc("a", KEY_CELLS))
    _, _, err = score(capsys, key, response)
    assert warnings_of(err) == ["1 key document(s) missing from the response, scored as empty (first: '(b); part 000')"]


# 3. response documents the key lacks


def test_response_documents_the_key_lacks_are_ignored_with_a_warning(tmp_path, capsys):
    key = write(tmp_path / "key.conll", doc("a", KEY_CELLS))
    same = write(tmp_path / "same.conll", doc("a", KEY_CELLS))
    extra = write(tmp_path / "extra.conll", doc("a", KEY_CELLS), doc("b", KEY_CELLS), doc("a", KEY_CELLS, part="001"))
    _, alone, err = score(capsys, key, same)
    assert err == ""
    code, got, err = score(capsys, key, extra)
    assert code == 0 and got == alone  # ignored, as v8.01 ignores them
    assert warnings_of(err) == [
        "2 response document(s) not in the key, ignored as the official scorer v8.01 ignores them "
        "(first: '(b); part 000', '(a); part 001')"
    ]


def test_compare_reports_how_each_system_pairs_with_the_key(tmp_path, capsys):
    key = write(tmp_path / "key.conll", doc("a", KEY_CELLS), doc("b", KEY_CELLS))
    a = write(tmp_path / "a.conll", doc("a", KEY_CELLS), doc("b", KEY_CELLS))
    b = write(tmp_path / "b.conll", doc("a", KEY_CELLS), doc("c", KEY_CELLS))
    assert main(["compare", str(key), str(a), str(b), "--samples", "20"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"coreflab compare: warning: system B ({b}): 1 key document(s) missing from the response, scored as empty "
        "(first: '(b); part 000')",
        f"coreflab compare: warning: system B ({b}): 1 response document(s) not in the key, ignored as the official "
        "scorer v8.01 ignores them (first: '(c); part 000')",
    ]


# 4. byte-order mark


@pytest.mark.parametrize("side", ["key", "response"])
def test_a_leading_byte_order_mark_is_stripped_with_one_warning(tmp_path, capsys, side):
    plain = write(tmp_path / "plain.conll", doc("a", KEY_CELLS), doc("b", KEY_CELLS))
    bom = tmp_path / "bom.conll"
    bom.write_bytes(b"\xef\xbb\xbf" + plain.read_bytes())
    _, expected, _ = score(capsys, plain, plain)
    code, got, err = score(capsys, *((bom, plain) if side == "key" else (plain, bom)))
    assert code == 0 and got == expected
    (message,) = warnings_of(err)
    assert message.startswith(f"{bom}: starts with a UTF-8 byte-order mark, ignored")
    with pytest.warns(ByteOrderMarkWarning, match="byte-order mark"):
        f = parse_coref_bytes(b"\xef\xbb\xbf" + plain.read_bytes())
    assert f.docs == [("a", 0), ("b", 0)] and f.begin_lines == [1, 9]  # line numbers as in the file


def test_a_byte_order_mark_elsewhere_is_still_an_error(tmp_path, capsys):
    bad = tmp_path / "bad.conll"
    bad.write_bytes(b"\n\xef\xbb\xbf" + doc("a", KEY_CELLS).encode())
    code, _, err = score(capsys, bad, bad)
    assert code == 2 and err.startswith(f"coreflab score: error: {bad}:2: token line outside a document")


# 5. folders


def test_a_folder_skips_notes_and_hidden_copies(tmp_path, capsys):
    folder = tmp_path / "key"
    (folder / ".ipynb_checkpoints").mkdir(parents=True)
    write(folder / "a.v4_gold_conll", doc("a", KEY_CELLS))
    write(folder / "b.txt", doc("b", KEY_CELLS))  # a .txt with documents is read
    write(folder / ".ipynb_checkpoints" / "a.v4_gold_conll", doc("a", KEY_CELLS))  # would be a duplicate
    (folder / "notes.txt").write_text("scored with coreflab\n")
    (folder / "README.md").write_text("(1) not CoNLL\n")
    response = write(tmp_path / "resp.conll", doc("a", KEY_CELLS), doc("b", KEY_CELLS))
    code, got, err = score(capsys, folder, response)
    assert code == 0 and got["muc"]["f1"] == 100.0 and got["mentions"]["recall_den"] == 8
    assert warnings_of(err) == [
        f"{folder}: skipped 1 .txt file(s) holding no '#begin document' line, not CoNLL: notes.txt"
    ]


def test_a_conll_named_file_without_begin_line_is_still_an_error(tmp_path, capsys):
    folder = tmp_path / "key"
    folder.mkdir()
    (folder / "a.conll").write_text("a\t0\t0\tw\t(1)\n")
    code, _, err = score(capsys, folder, folder)
    assert code == 2 and err.startswith(f"coreflab score: error: {folder / 'a.conll'}:1: token line outside")


def test_a_folder_of_notes_only_is_an_error(tmp_path, capsys):
    (tmp_path / "key").mkdir()
    (tmp_path / "key" / "notes.txt").write_text("nothing here\n")
    code, _, err = score(capsys, tmp_path / "key", tmp_path / "key")
    assert code == 2 and "directory holds no CoNLL files" in err and len(err.strip().splitlines()) == 1


def test_a_release_folder_with_gold_and_auto_files_names_both_lines_and_hints(tmp_path, capsys):
    folder = tmp_path / "release"
    folder.mkdir()
    write(folder / "x.v4_auto_conll", doc("x", KEY_CELLS))
    write(folder / "x.v4_gold_conll", doc("w", KEY_CELLS), doc("x", KEY_CELLS))
    code, _, err = score(capsys, folder, folder)
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert err.startswith(
        f"coreflab score: error: {folder / 'x.v4_gold_conll'}:9: duplicate document '(x); part 000' "
        f"(also at {folder / 'x.v4_auto_conll'}:1)"
    )
    assert "holds both *_gold_conll and *_auto_conll files" in err


def test_a_duplicate_across_plain_files_has_no_release_hint(tmp_path, capsys):
    folder = tmp_path / "key"
    folder.mkdir()
    write(folder / "a.conll", doc("x", KEY_CELLS))
    write(folder / "b.conll", doc("x", KEY_CELLS))
    code, _, err = score(capsys, folder, folder)
    assert code == 2 and f"{folder / 'b.conll'}:1: duplicate document '(x); part 000'" in err
    assert f"(also at {folder / 'a.conll'}:1)" in err and "_gold_conll" not in err


# 6. unknown metric


@pytest.mark.parametrize(
    "argv", [["foo", "{k}", "{k}", "none"], ["foo", "{k}", "{k}"], ["MUCC", "{k}", "{k}", "(a); part 000"]]
)
def test_an_unknown_metric_is_named(tmp_path, capsys, argv):
    key = write(tmp_path / "key.conll", doc("a", KEY_CELLS))
    first = argv[0]
    assert main(["score", *(a.format(k=key) for a in argv)]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"coreflab score: error: unknown metric {first!r}; scorer.pl's metrics: muc bcub ceafm ceafe blanc all "
        "(this command also takes lea and mela)\n"
    )


def test_a_missing_key_file_with_three_operands_is_not_an_unknown_metric(tmp_path, capsys):
    key = write(tmp_path / "key.conll", doc("a", KEY_CELLS))
    assert main(["score", str(tmp_path / "nokey.conll"), str(tmp_path / "noresp.conll"), str(key)]) == 2
    err = capsys.readouterr().err
    assert "unknown metric" not in err and "expected KEY RESPONSE" in err


@pytest.mark.parametrize("metric", ["lea", "mela", "ceafm"])
def test_every_listed_metric_is_taken(tmp_path, capsys, metric):
    key = write(tmp_path / "key.conll", doc("a", KEY_CELLS))
    assert main(["score", metric, str(key), str(key), "none"]) == 0
    assert capsys.readouterr().err == ""


# 7. a non-numeric part


def test_a_non_numeric_part_is_kept_as_its_own_document_as_v801_keeps_it(tmp_path, capsys):
    """v8.01 names a document by the whole rest of its '#begin document ' line: '(a); part abc' is a document
    of its own, matched with the same line in the response, and distinct from '(a); part 000'."""
    odd = doc("a", KEY_CELLS).replace("part 000", "part abc")
    key = write(tmp_path / "key.conll", odd, doc("a", ["-"] * 6))
    response = write(tmp_path / "resp.conll", odd, doc("a", KEY_CELLS))
    code, got, err = score(capsys, key, response)
    assert code == 0 and err == ""
    f = parse_coref_bytes(key.read_bytes())
    assert f.headers == ["(a); part abc", "(a); part 000"] and len(set(f.docs)) == 2
    # by hand: '(a); part abc' is found whole (2 of 2 links); '(a); part 000' has no key mention, 2 invented links
    assert (got["muc"]["recall_num"], got["muc"]["recall_den"]) == (2, 2)
    assert (got["muc"]["precision_num"], got["muc"]["precision_den"]) == (2, 4)
    assert main(["score", "muc", str(key), str(response), "(a); part abc", "--format", "json"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert one["muc"]["f1"] == 100.0
