"""Singh et al. 2011 §5.2 (issue 43): on Person-X the bias b is set so that the predicted number of
entities equals the true number (Figs. 5-6), not tuned by B3 F1 on held-out entities; the large
corpus and ECB+ (Fig. 7, Table 2) keep the held-out B3 tuning of §5.3."""

import json
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from coreflab.cli import main
from coreflab.papers.singh2011 import runs, tuning
from coreflab.papers.singh2011.shard import ModelParams
from coreflab.papers.singh2011.synthetic import SynthCrossdocConfig, generate

ROUNDS, SAMPLES, WORKERS = 4, 4000, 2


def personx_corpus():
    """A small Person-X-like corpus: 300 mentions of 10 entities, every string X."""
    cfg = SynthCrossdocConfig(
        n_mentions=300, n_entities=10, vocab=1500, context_len=20, topic_words=12, topic_rate=0.5, seed=3
    )
    return generate(cfg).person_x()


def test_personx_priors_use_the_entity_count_rule_and_the_large_corpus_heldout_b3(default_config):
    cfg = default_config["crossdoc"]
    assert runs.tuning_params(cfg, "personx")["rule"] == "entity-count"
    assert runs.tuning_params(cfg, "personx", "_union")["rule"] == "entity-count"
    assert runs.tuning_params(cfg, "large")["rule"] == "heldout-b3"
    assert runs.tuning_params(cfg, "ecbplus")["rule"] == "heldout-b3"


def _calibrate(path, out, rule, bias_grid=("0.02", "0.5"), extra=()):
    argv = ["singh2011", "calibrate", "--corpus", str(path), "--rule", rule, "--model", "flat"]
    argv += ["--string-weight", "0", "--weight-grid", "0", "--bias-grid", *bias_grid, "--init", "singletons"]
    argv += ["--rounds", str(ROUNDS), "--eval-samples-per-round", str(SAMPLES), "--eval-workers", str(WORKERS)]
    return main(argv + list(extra) + ["--out", str(out)])


def test_personx_run_predicts_the_true_number_of_entities(tmp_path, default_config):
    """The workflow's Person-X calibration (rule from `tuning_params`) gives a b at which the
    evaluated run (same schedule, most workers) ends with the true number of entities, on every
    mention; neither end of the bias grid does, so the search did more than pick a grid point."""
    corpus = personx_corpus()
    true_entities = len(np.unique(corpus.gold))
    path = tmp_path / "personx.npz"
    corpus.save(path)
    prior_path = tmp_path / "personx.json"
    rule = runs.tuning_params(default_config["crossdoc"], "personx")["rule"]
    assert _calibrate(path, prior_path, rule) == 0
    prior = json.loads(prior_path.read_text())
    assert prior["rule"] == "entity-count" and prior["dev_entities"] == []  # nothing held out
    assert prior["true_entities"] == true_entities
    gaps = {t["bias"]: abs(t["entities"] - true_entities) for t in prior["tries"]}
    assert gaps[prior["bias"]] == min(gaps.values()) == 0
    assert gaps[0.02] > 0 and gaps[0.5] > 0

    trace_path = tmp_path / "t.csv"
    argv = ["singh2011", "run", "--corpus", str(path), "--prior-from", str(prior_path), "--model", "flat"]
    argv += ["--string-weight", "0", "--init", "singletons", "--scheduler", "serial", "--workers", str(WORKERS)]
    argv += ["--rounds", str(ROUNDS), "--samples-per-round", str(SAMPLES), "--trace", str(trace_path)]
    assert main(argv) == 0
    last = pd.read_csv(trace_path).iloc[-1]
    assert int(last["mentions"]) == len(corpus)
    assert int(last["entities"]) == prior["predicted_entities"] == true_entities


def test_entity_count_rule_sets_b_only(tmp_path, capsys):
    path = tmp_path / "personx.npz"
    personx_corpus().save(path)
    assert _calibrate(path, tmp_path / "p.json", "entity-count", extra=["--weight-grid", "0", "0.8"]) != 0
    assert "sets b only" in capsys.readouterr().err and not (tmp_path / "p.json").exists()


def _fake_count(monkeypatch, count_of_b):
    """`count_calibrated_bias` with the chain replaced by `count_of_b` (a function of b)."""
    calls = []

    def fake(corpus, params, schedule, within_topic=False, executor=None):
        calls.append(params.bias)
        assert params.sub_bias == pytest.approx(3 * params.bias)  # the ratios are kept
        return count_of_b(params.bias)

    monkeypatch.setattr(tuning, "predicted_entities", fake)
    monkeypatch.setattr(tuning, "SerialExecutor", lambda data: None)
    return calls


def _corpus(n_entities):
    return SimpleNamespace(gold=np.repeat(np.arange(n_entities), 3), features=lambda: None)


PARAMS = ModelParams(model="flat", bias=0.05, sub_bias=0.15, super_bias=0.015, string_weight=0.0)
SCHEDULE = {"rounds": 1, "samples": 10, "shards": 2, "t_start": 0.05, "t_stop": 0.0005, "init": "singletons", "seed": 1}


def test_count_search_bisects_log_b_to_the_true_count(monkeypatch):
    calls = _fake_count(monkeypatch, lambda b: int(1000 * b))  # monotone in b
    params, tries, target = tuning.count_calibrated_bias(_corpus(37), PARAMS, 0.01, 0.64, SCHEDULE, bisections=20)
    assert target == 37 and int(1000 * params.bias) == 37
    assert calls[:3] == [0.01, 0.64, pytest.approx(0.08)]  # the ends, then the geometric midpoint
    assert params.sub_bias == pytest.approx(3 * params.bias) and params.super_bias == pytest.approx(0.3 * params.bias)
    assert [t["entities"] for t in tries] == [int(1000 * b) for b in calls]


def test_count_search_widens_the_bracket_and_takes_the_closest_smaller_b(monkeypatch):
    # the true count (500) is above the count at the grid's top: hi is widened by 4 until it brackets
    calls = _fake_count(monkeypatch, lambda b: int(1000 * b))
    params, _, _ = tuning.count_calibrated_bias(_corpus(500), PARAMS, 0.01, 0.1, SCHEDULE, bisections=30)
    assert 0.4 in calls and int(1000 * params.bias) == 500
    # a step the count jumps over (10 -> 30, target 20): the closest counts tie, the smaller b wins
    _fake_count(monkeypatch, lambda b: 10 if b < 0.05 else 30)
    params, tries, _ = tuning.count_calibrated_bias(_corpus(20), PARAMS, 0.01, 0.64, SCHEDULE, bisections=6)
    assert {t["entities"] for t in tries} == {10, 30} and params.bias == min(t["bias"] for t in tries) == 0.01
    assert len(tries) == 2 + 6
