"""`coreflab features` end to end on a hand-built compiled split."""

import argparse

import pytest

from coreflab.commands import features as cmd
from coreflab.errors import UserError
from coreflab.features import ArcStore
from coreflab.features.random_corpus import random_compiled_corpus

from .feature_builders import EXAMPLE, build_corpus


def _args(**kw):
    p = argparse.ArgumentParser()
    cmd.add_arguments(p)
    argv = []
    for k, v in kw.items():
        argv += [f"--{k}", str(v)]
    return p.parse_args(argv)


def test_features_command(tmp_path, capsys):
    c = build_corpus([EXAMPLE, EXAMPLE], missing=("parse",))
    c.save(tmp_path / "dev.npz")
    out = tmp_path / "arcs.npz"
    assert cmd.run(_args(compiled=tmp_path / "dev.npz", featureset="small", out=out, bits=18, window=2)) == 0
    s = ArcStore.load(out)
    assert s.n_bits == 18 and s.window == 2 and s.n_arcs == 2 * (1 + 2 + 3 + 3 + 3)
    text = capsys.readouterr().out
    assert f"arcs {s.n_arcs}" in text and f"entries {s.n_entries}" in text and "unavailable templates: none" in text
    assert cmd.run(_args(compiled=tmp_path / "dev.npz", featureset="local", out=out)) == 0
    text = capsys.readouterr().out
    assert "ana_path_s: ana_path_s needs 'parse'" in text


def test_features_command_errors(tmp_path):
    with pytest.raises(UserError, match="not found"):
        cmd.run(_args(compiled=tmp_path / "none.npz", featureset="small", out=tmp_path / "a.npz"))
    build_corpus([EXAMPLE]).save(tmp_path / "dev.npz")
    with pytest.raises(UserError, match="window"):
        cmd.run(_args(compiled=tmp_path / "dev.npz", featureset="small", out=tmp_path / "a.npz", window=0))


def test_list_and_required_options(capsys):
    p = argparse.ArgumentParser()
    cmd.add_arguments(p)
    assert cmd.run(p.parse_args(["--list"])) == 0
    out = capsys.readouterr().out
    assert "alias" in out and "[needs parse]" in out
    with pytest.raises(UserError, match="--compiled is required"):
        cmd.run(p.parse_args(["--featureset", "small"]))


def test_the_command_writes_shared_rows_unless_told_flat(tmp_path, capsys):
    corpus = random_compiled_corpus(4, mean_mentions=20, seed=2)
    corpus.save(tmp_path / "train.npz")
    p = argparse.ArgumentParser()
    cmd.add_arguments(p)
    base = ["--compiled", str(tmp_path / "train.npz"), "--featureset", "local_fine", "--bits", "16", "--window", "8"]
    assert cmd.run(p.parse_args(base + ["--out", str(tmp_path / "shared.npz")])) == 0
    assert "shared rows, flat" in capsys.readouterr().out
    assert cmd.run(p.parse_args(base + ["--flat", "--out", str(tmp_path / "flat.npz")])) == 0
    shared, flat = ArcStore.load(tmp_path / "shared.npz").validate(), ArcStore.load(tmp_path / "flat.npz").validate()
    assert shared.n_rows > 0 and flat.n_rows == 0 and shared.nbytes < flat.nbytes
    assert shared.meta["nonlocal"] == flat.meta["nonlocal"] and shared.templates == flat.templates
    for a in range(flat.n_arcs):
        assert sorted(shared.arc_features(a).tolist()) == sorted(flat.arc_features(a).tolist())
