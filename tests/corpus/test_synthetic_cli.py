"""`coreflab synth`: writes train/dev/test.conll that read back as the generated corpus."""

import pytest

from coreflab.commands import synth
from coreflab.corpus.readers.conll import format_conll, read_conll
from coreflab.corpus.synthetic.generator import SPLITS, generate_corpus
from coreflab.errors import UserError


def run_synth(argv):
    import argparse

    parser = argparse.ArgumentParser()
    synth.add_arguments(parser)
    return synth.run(parser.parse_args(argv))


def test_writes_three_splits_that_read_back(tmp_path):
    out = tmp_path / "synth"
    assert run_synth(["--size", "tiny", "--seed", "4", "--out", str(out), "--knob", "pronoun_rate=0.5"]) == 0
    corpus = generate_corpus("tiny", 4, {"pronoun_rate": "0.5"})
    assert sorted(p.name for p in out.iterdir()) == ["dev.conll", "test.conll", "train.conll"]
    for split in SPLITS:
        text = (out / f"{split}.conll").read_text(encoding="utf-8")
        assert text == format_conll(corpus[split])
        assert [d.key for d in read_conll(out / f"{split}.conll")] == [d.key for d in corpus[split]]


def test_bad_knob_leaves_nothing_behind(tmp_path):
    out = tmp_path / "synth"
    with pytest.raises(UserError, match="unknown synthetic corpus knob 'nope'"):
        run_synth(["--size", "tiny", "--out", str(out), "--knob", "nope=1"])
    with pytest.raises(UserError, match="expected NAME=VALUE"):
        run_synth(["--size", "tiny", "--out", str(out), "--knob", "pronoun_rate"])
    assert not out.exists()


def test_cli_exit_status_for_a_bad_knob(tmp_path, capsys):
    from coreflab.cli import main

    out = tmp_path / "x"
    assert main(["synth", "--size", "tiny", "--out", str(out), "--knob", "quote_rate=7"]) == 2
    err = capsys.readouterr().err
    assert "quote_rate" in err and len(err.strip().splitlines()) == 1
    assert not out.exists()
