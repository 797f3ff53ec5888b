"""Greedy template selection: forward, backward and non-local steps on a known objective."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from coreflab.learn.selection import greedy_selection, split_documents


def test_greedy_selection_finds_the_best_subset_of_a_known_objective():
    value = {"a": 3.0, "b": 2.0, "c": -1.0, "d": 0.01, "n1": 1.5, "n2": -2.0}

    def evaluate(local, nonlocal_=()):
        return sum(value[t] for t in local) + sum(value[t] for t in nonlocal_)

    local, nonlocal_, rows = greedy_selection(
        evaluate, ["c"], ["a", "b", "c", "d"], ["n1", "n2"], min_gain=0.05, max_steps=10, log=lambda *_: None
    )
    assert sorted(local) == ["a", "b"]  # c removed by a backward step, d's gain is below min_gain
    assert nonlocal_ == ["n1"]
    kept = [(r[1], r[2], r[3]) for r in rows if r[5] and r[0] > 0]
    assert ("local", "remove", "c") in kept and ("nonlocal", "add", "n1") in kept
    assert rows[0][4] == -1.0


def test_nonlocal_phase_takes_its_own_step_budget():
    """nonlocal_max_steps bounds the non-local forward steps whatever the local phase took; None
    leaves them what the local phase left of 2 x max_steps."""
    value = {"a": 3.0, "z": 0.0, "n1": 1.5, "n2": 1.0, "n3": 0.5, "n4": 0.25}

    def evaluate(local, nonlocal_=()):
        return sum(value[t] for t in local) + sum(value[t] for t in nonlocal_ or ())

    def chosen(**kw):
        return greedy_selection(evaluate, ["a", "z"], ["a", "z"], ["n1", "n2", "n3", "n4"], log=lambda *_: None, **kw)[
            1
        ]

    # no add candidate and no gain from a removal: one local step, which leaves 2 x 1 - 1 = 1 non-local step
    assert chosen(max_steps=1) == ["n1"]
    assert chosen(max_steps=1, nonlocal_max_steps=3) == ["n1", "n2", "n3"]
    assert chosen(max_steps=2) == ["n1", "n2", "n3"]  # 2 x 2 - 1
    assert chosen(max_steps=2, nonlocal_max_steps=1) == ["n1"]
    assert chosen(max_steps=1, nonlocal_max_steps=10) == ["n1", "n2", "n3", "n4"]  # stops when none is left


def test_split_is_seeded_and_by_document():
    docs = list(range(20))
    a, b = split_documents(docs, seed=3)
    assert len(a) == 15 and len(b) == 5 and sorted(a + b) == docs
    assert split_documents(docs, seed=3) == (a, b) and split_documents(docs, seed=4) != (a, b)


def test_nonlocal_candidates_are_judged_against_the_beam_learner_with_local_features_only():
    value = {"a": 3.0, "n1": 1.5, "n2": -2.0}

    def evaluate(local, nonlocal_=None):
        score = sum(value[t] for t in local)
        if nonlocal_ is None:
            return score + 10.0  # exact search scores higher than the beam learner on the same features
        return score + sum(value[t] for t in nonlocal_)

    local, nonlocal_, rows = greedy_selection(
        evaluate, ["a"], ["a"], ["n1", "n2"], min_gain=0.05, max_steps=5, log=lambda *_: None
    )
    assert nonlocal_ == ["n1"]
    assert ("nonlocal", "start", 3.0) in [(r[1], r[2], r[4]) for r in rows]


def test_nonlocal_evaluations_train_for_nonlocal_iterations(monkeypatch):
    """The exact-search evaluations train `iterations` passes, the delayed-LaSO ones (local-only
    start included) `nonlocal_iterations`, defaulting to `iterations`."""
    from coreflab.corpus.synthetic.generator import generate_corpus
    from coreflab.learn import selection

    seen = []
    real = selection.make_learner

    def spy(name, params):
        seen.append((name, params["n_iter"]))
        return real(name, params)

    monkeypatch.setattr(selection, "make_learner", spy)
    docs = generate_corpus("tiny", seed=0)["train"][:8]
    local = ["bias", "ana_type", "head_match"]
    ev = selection.Evaluator(docs, "synth", iterations=1, beam=2, n_bits=12, nonlocal_iterations=3)
    ev(local)
    ev(local, [])
    ev(local, ["cluster_size"])
    assert seen == [("bk_baseline", 1), ("bk_delayed_laso", 3), ("bk_delayed_laso", 3)]
    seen.clear()
    selection.Evaluator(docs, "synth", iterations=2, beam=2, n_bits=12)(local, [])
    assert seen == [("bk_delayed_laso", 2)]


def test_nonlocal_evaluations_average_over_seeds_at_their_own_beam(monkeypatch):
    """Each delayed-LaSO evaluation trains `nonlocal_seeds` models (seed, seed + 1, …) at `nonlocal_beam`
    and returns their mean held-out MELA."""
    from coreflab.corpus.synthetic.generator import generate_corpus
    from coreflab.learn import selection

    seen, scores = [], iter([70.0, 74.0])
    real = selection.make_learner

    def spy(name, params):
        seen.append((name, params.get("beam"), params["seed"]))
        return real(name, params)

    monkeypatch.setattr(selection, "make_learner", spy)
    monkeypatch.setattr(selection, "score_model", lambda *a: type("S", (), {"mela": next(scores)})())
    docs = generate_corpus("tiny", seed=0)["train"][:8]
    ev = selection.Evaluator(docs, "synth", seed=5, iterations=1, beam=2, n_bits=12, nonlocal_beam=4, nonlocal_seeds=2)
    assert ev(["bias", "ana_type", "head_match"], ["cluster_size"]) == 72.0
    assert seen == [("bk_delayed_laso", 4, 5), ("bk_delayed_laso", 4, 6)]


def test_stores_cut_from_the_pool_judge_every_set_as_extraction_does(monkeypatch):
    """An Evaluator with the template pool scores each candidate set exactly as one extracting the
    set's stores: backward (one removed), forward (one appended out of pool order), non-local, and a
    set outside the pool (extracted)."""
    from coreflab.corpus.synthetic.generator import generate_corpus
    from coreflab.learn import selection

    docs = generate_corpus("tiny", seed=0)["train"][:10]
    pool = ["bias", "ana_type", "ante_type", "head_match", "exact_match", "sent_dist", "ana_type+ante_type"]
    opts = {"iterations": 2, "beam": 2, "n_bits": 14, "window": 6, "nonlocal_iterations": 2}
    cut, extracted = selection.Evaluator(docs, "synth", pool=pool, **opts), selection.Evaluator(docs, "synth", **opts)
    extractions = []
    real = selection.extract_arc_store
    monkeypatch.setattr(selection, "extract_arc_store", lambda *a, **k: extractions.append(a[1]) or real(*a, **k))
    sets = [(pool[:3] + pool[4:],), (["bias", "head_match", "ana_type"],), (pool[:4], ["cluster_size"])]
    for args in sets:
        n = len(extractions)
        assert cut(*args) == extracted(*args)
        assert len(extractions) == n + 2  # the extracting evaluator's two stores; none for the pool's
    outside = ["bias", "ana_head"]  # ana_head is not in the pool: extracted
    assert cut(outside) == extracted(outside)


def test_a_pool_beyond_the_memory_budget_is_not_kept(monkeypatch):
    from coreflab.corpus.synthetic.generator import generate_corpus
    from coreflab.learn import selection

    docs = generate_corpus("tiny", seed=0)["train"][:6]
    pool = ["bias", "ana_type", "head_match"]
    assert selection.Evaluator(docs, "synth", n_bits=12, pool=pool).pools is not None
    monkeypatch.setattr(selection, "POOL_BUDGET_BYTES", 1000)
    from coreflab.features import template_subsets

    def built(*a, **k):  # the budget is judged from counts, before any pool is extracted
        raise AssertionError("a pool over the budget was built")

    monkeypatch.setattr(template_subsets.TemplatePool, "__init__", built)
    ev = selection.Evaluator(docs, "synth", n_bits=12, pool=pool, sample=False)
    assert ev.pools is None and ev(pool) == selection.Evaluator(docs, "synth", n_bits=12)(pool)


@pytest.mark.slow
def test_a_step_reports_its_progress_every_tenth_and_scores_the_same_in_parallel():
    """A line per tenth of a step's candidates, with the best score so far; the scores (and so the
    selection) are those of evaluating one at a time."""
    from coreflab.learn.selection import _evaluate_all

    cands = [f"t{i}" for i in range(25)]
    lines = []
    local, _, rows = greedy_selection(
        _sum_of_indices, list(cands), cands, [], min_gain=0.05, max_steps=1, jobs=1, log=lines.append
    )
    progress = [line for line in lines if "evaluated" in line]
    assert [line.split(":")[1].split()[0] for line in progress] == [
        f"{k}/25" for k in (3, 5, 8, 10, 13, 15, 18, 20, 23)
    ]
    assert all(line.startswith("  step 1 (remove): ") and ", best so far " in line for line in progress)
    # removing t0 (index 0) loses nothing: the best of the first three removals is 300 - 0
    assert progress[0].endswith("best so far 300.00")
    sets = [([c for c in cands if c != t],) for t in cands]
    assert _evaluate_all(_sum_of_indices, sets, 2) == _evaluate_all(_sum_of_indices, sets, 1)
    assert [r[4] for r in rows[1:]] == _evaluate_all(_sum_of_indices, sets, 1)


def _sum_of_indices(local, nonlocal_=None):
    """A known objective, importable by joblib's workers: the sum of the templates' indices."""
    return float(sum(int(t[1:]) for t in local))


@pytest.mark.slow
def test_a_warning_in_a_parallel_evaluation_is_one_line_naming_the_verb(capfd):
    """Joblib's workers print warnings as the command does (`coreflab select: warning: ...`), not with
    Python's source path and code line."""
    import uuid

    from joblib.externals.loky import get_reusable_executor

    from coreflab.learn.selection import _evaluate_all

    get_reusable_executor().shutdown(wait=True)  # workers started now write to this test's captured stderr
    message = f"a repeated key mention ({uuid.uuid4().hex})"
    assert _evaluate_all(_warns, [([message],), ([message],)], 2) == [1.0, 1.0]
    err = capfd.readouterr().err
    assert f"coreflab select: warning: {message}" in err and ".py:" not in err


def _warns(local, nonlocal_=None):
    import warnings

    warnings.warn(local[0], stacklevel=2)
    return 1.0


class _ArrayProbe:
    """An evaluator holding an array large enough for joblib to memory-map it to the workers."""

    def __init__(self):
        self.big = np.zeros(1 << 18)

    def __call__(self, k):
        writable = bool(self.big.flags.writeable)
        self.big[k] = 1.0  # a worker's write must not reach the parent or the next task
        return float(writable) + float(self.big.sum())


@pytest.mark.slow
def test_workers_see_writable_copies_of_the_evaluators_arrays():
    """numba compiles a separate kernel for read-only arrays: the workers' arrays are writable
    (copy-on-write), so they use the kernels the parent compiled; writes stay in the worker."""
    from coreflab.learn.selection import _evaluate_all

    probe = _ArrayProbe()
    assert _evaluate_all(probe, [(0,), (1,), (2,), (3,)], 2) == [2.0, 2.0, 2.0, 2.0]
    assert probe.big.sum() == 0.0


def test_each_phase_start_is_evaluated_in_the_batch_of_its_first_step(monkeypatch):
    """The start set and the non-local start (local features only) go to the workers with the first
    step's candidates, ahead of them; the rows and the choice are those of evaluating them first, alone."""
    from coreflab.learn import selection

    value = {"a": 3.0, "b": 2.0, "c": -1.0, "n1": 1.5, "n2": -2.0}
    direct = []

    def evaluate(local, nonlocal_=None):
        direct.append((tuple(local), nonlocal_))
        return sum(value[t] for t in local) + sum(value[t] for t in nonlocal_ or ())

    batches = []
    real = selection._evaluate_all

    def spy(ev, sets, jobs, progress=None):
        batches.append([tuple(map(tuple, s)) for s in sets])
        return real(ev, sets, jobs, progress)

    monkeypatch.setattr(selection, "_evaluate_all", spy)
    lines = []
    local, nonlocal_, rows = selection.greedy_selection(
        evaluate, ["c", "a"], ["a", "b", "c"], ["n1", "n2"], max_steps=1, nonlocal_max_steps=1, log=lines.append
    )
    assert batches[0][0] == (("c", "a"),) and len(batches[0]) == 1 + 1  # start, then the one add candidate (b)
    assert batches[1][0] == (("c", "a", "b"), ()) and len(batches[1]) == 1 + 2  # non-local start, n1, n2
    assert len(direct) == sum(len(b) for b in batches)  # nothing evaluated outside a batch
    assert rows == [
        (0, "local", "start", "c, a", 2.0, True),
        (1, "local", "add", "b", 4.0, True),
        (1, "nonlocal", "start", "-", 4.0, True),
        (2, "nonlocal", "add", "n1", 5.5, True),
        (2, "nonlocal", "add", "n2", 2.0, False),
    ]
    assert (local, nonlocal_) == (["c", "a", "b"], ["n1"])
    assert lines[0] == "start: 2 templates, MELA 2.00" and lines[2].startswith("non-local start")


class _CallCounter:
    """An evaluator a worker may keep (it has a worker_key): returns how often this copy was called."""

    def __init__(self, key):
        self.worker_key, self.calls = key, 0

    def __call__(self, _):
        self.calls += 1
        return float(self.calls)


@pytest.mark.slow
def test_a_worker_keeps_one_copy_of_a_keyed_evaluator():
    """Each task unpickles the evaluator afresh; a worker reuses the first copy of a keyed one (so its
    memory maps stay touched), and a new key replaces it."""
    import uuid
    from collections import Counter

    from coreflab.learn.selection import _evaluate_all

    first = _evaluate_all(_CallCounter(uuid.uuid4().hex), [(i,) for i in range(40)], 2)
    # joblib sends the first tasks one per batch (a fresh copy each): without reuse at least four 1s.
    # With it, each of the two workers counts 1, 2, ..., n on its own copy.
    counts = Counter(first)
    assert 1 <= counts[1.0] <= 2 and all(counts[c + 1.0] <= counts[c] for c in map(float, range(1, 41)))
    # a new key starts from a fresh copy in every worker: its counts restart
    second = _evaluate_all(_CallCounter(uuid.uuid4().hex), [(i,) for i in range(4)], 2)
    assert min(second) == 1.0


@pytest.mark.slow
def test_a_real_evaluator_scores_the_same_in_workers_that_reuse_it():
    from coreflab.corpus.synthetic.generator import generate_corpus
    from coreflab.learn import selection

    docs = generate_corpus("tiny", seed=0)["train"][:10]
    pool = ["bias", "ana_type", "ante_type", "head_match", "exact_match", "sent_dist", "ana_type+ante_type"]
    ev = selection.Evaluator(docs, "synth", pool=pool, iterations=2, beam=2, n_bits=14, window=6)
    sets = [([t for t in pool if t != d],) for d in pool] * 2 + [(pool[:4], ["cluster_size"])]
    assert selection._evaluate_all(ev, sets, 2) == selection._evaluate_all(ev, sets, 1)


def test_held_out_responses_follow_the_whole_training_key_or_the_choice():
    """The held-out quarter is scored by the corpus's convention (the whole training key's, as `coreflab
    prepare` records it for the training split), not by its own documents' share of one-mention
    clusters; keep/drop overrides both."""
    from coreflab.corpus.synthetic.generator import generate_corpus
    from coreflab.learn import selection
    from coreflab.learn.output import key_has_singletons

    docs = generate_corpus("tiny", seed=0)["train"][:8]
    held = split_documents(docs, 1)[1][0]  # the Evaluator's default seed
    taken = {t for c in held.clusters for s, e in c for t in range(s, e + 1)}
    free = [t for t in range(len(held.words)) if t not in taken][: len(held.clusters)]
    docs = [d.with_clusters(d.clusters + [[(t, t)] for t in free]) if d is held else d for d in docs]
    ev = selection.Evaluator(docs, "synth", n_bits=12)
    assert key_has_singletons(ev.held_docs) and not key_has_singletons(docs)  # the two disagree
    assert ev.held.response_singletons is False
    for choice in (True, False):
        assert selection.Evaluator(docs, "synth", n_bits=12, keep_singletons=choice).held.response_singletons is choice


def test_stores_over_the_extraction_budget_share_rows_and_hold_the_flat_ids(monkeypatch):
    """Above both budgets an evaluation's stores are built with shared rows, a block at a time: each
    arc still reads the ids of the flat store extraction gives."""
    from coreflab.corpus.synthetic.generator import generate_corpus
    from coreflab.features.extract import extract_arc_store
    from coreflab.features.shared_rows import expand
    from coreflab.learn import selection

    docs = generate_corpus("tiny", seed=0)["train"][:6]
    pool = ["bias", "ana_type", "ante_type", "head_match", "ana_type+ante_type"]
    assert not selection.Evaluator(docs, "synth", n_bits=12, pool=pool).shared_stores
    monkeypatch.setattr(selection, "POOL_BUDGET_BYTES", 1000)
    assert not selection.Evaluator(docs, "synth", n_bits=12, pool=pool, sample=False).shared_stores
    monkeypatch.setattr(selection, "EXTRACT_BUDGET_BYTES", 1000)
    ev = selection.Evaluator(docs, "synth", n_bits=12, pool=pool, sample=False)
    assert ev.pools is None and ev.shared_stores
    for store, part in zip(ev._stores(pool), (ev.train, ev.held)):
        flat = extract_arc_store(part, pool, n_bits=12)
        assert store.n_rows > 0
        wide = expand(store)
        np.testing.assert_array_equal(wide.arc_feat_offsets, flat.arc_feat_offsets)
        arc = np.repeat(np.arange(flat.n_arcs), np.diff(flat.arc_feat_offsets))
        np.testing.assert_array_equal(  # the same ids on every arc, in rows-then-own order
            wide.arc_feats[np.lexsort((wide.arc_feats, arc))], flat.arc_feats[np.lexsort((flat.arc_feats, arc))]
        )
    assert 0.0 < ev(pool) <= 100.0


@given(
    st.lists(st.integers(0, 50), min_size=1, max_size=30),
    st.integers(0, 400),
    st.integers(0, 3),
)
def test_documents_within_a_budget_are_the_longest_seeded_prefix_that_fits(doc_bytes, budget, seed):
    from coreflab.learn.selection import documents_within

    keep = documents_within(doc_bytes, budget, seed)
    assert np.array_equal(keep, documents_within(doc_bytes, budget, seed))  # seeded
    assert np.all(np.diff(keep) > 0) and len(keep) >= 1
    order = np.random.default_rng(seed).permutation(len(doc_bytes))
    assert set(keep.tolist()) == set(order[: len(keep)].tolist())  # a prefix of the seeded order
    total = sum(doc_bytes[i] for i in keep)
    assert total <= budget or len(keep) == 1  # within the budget, or the one document it starts with
    if len(keep) < len(doc_bytes):  # the next document would overflow it
        assert total + doc_bytes[order[len(keep)]] > budget


def test_above_both_budgets_templates_are_judged_on_a_sample_whose_pool_fits(monkeypatch):
    """With the pool of the whole training part over its budget and each evaluation's flat stores over
    theirs, the evaluator keeps a seeded sample of each part's documents (about the same share of both),
    whose pool is within the budget and is built; `sample=False` judges on every document instead, and
    so does the default while flat stores fit."""
    from coreflab.corpus.synthetic.generator import generate_corpus
    from coreflab.features.extract import tagged_store_bytes
    from coreflab.learn import selection

    docs = generate_corpus("tiny", seed=0)["train"][:16]
    pool = ["bias", "ana_type", "ante_type", "head_match"]
    whole = selection.Evaluator(docs, "synth", n_bits=12, pool=pool)
    assert whole.sampled is None and whole.pools is not None
    need = tagged_store_bytes(whole.train, pool, n_bits=12)
    monkeypatch.setattr(selection, "POOL_BUDGET_BYTES", need)  # the whole part's pool: over 3/4 of it
    flat_fits = selection.Evaluator(docs, "synth", n_bits=12, pool=pool)
    assert flat_fits.sampled is None and flat_fits.pools is None and not flat_fits.shared_stores
    monkeypatch.setattr(selection, "EXTRACT_BUDGET_BYTES", 1000)
    ev = selection.Evaluator(docs, "synth", n_bits=12, pool=pool)
    (n, of), (k, held_of) = ev.sampled["train"], ev.sampled["held"]
    assert (of, held_of) == (whole.train.n_docs, whole.held.n_docs) and 1 <= n < of and 1 <= k <= held_of
    assert (ev.train.n_docs, ev.held.n_docs) == (n, k)
    assert set(ev.train.doc_ids) < set(whole.train.doc_ids) and set(ev.held.doc_ids) <= set(whole.held.doc_ids)
    assert abs(k / held_of - n / of) <= 1 / held_of  # the same share of each part
    assert tagged_store_bytes(ev.train, pool, n_bits=12) <= selection.SAMPLE_SHARE_OF_BUDGET * 3 * need / 4
    assert ev.pools is not None
    again = selection.Evaluator(docs, "synth", n_bits=12, pool=pool)
    assert again.train.doc_ids == ev.train.doc_ids and again(pool) == ev(pool)  # seeded
    off = selection.Evaluator(docs, "synth", n_bits=12, pool=pool, sample=False)
    assert off.sampled is None and off.pools is None and off.train.doc_ids == whole.train.doc_ids


def test_select_leaves_out_templates_the_corpus_cannot_compute(tmp_path, capsys):
    """A corpus without speakers or parses: the speaker templates are left out of the start set and the
    candidates, the parse's non-local template out of the non-local candidates (said once), never evaluated
    as a step that changes nothing, never selected."""
    import pandas as pd
    import yaml

    from coreflab.cli import main
    from coreflab.corpus.readers.conll import write_conll
    from coreflab.corpus.synthetic.generator import generate_corpus

    conll, fs = tmp_path / "train.conll", tmp_path / "start.yaml"
    docs = generate_corpus("tiny", seed=0)["train"][:8]
    for doc in docs:
        doc.columns.pop("speaker", None)
        doc.columns.pop("parse", None)
    write_conll(docs, conll)
    fs.write_text(yaml.safe_dump(["bias", "ana_type", "head_match", "same_speaker", "ana_type+same_speaker"]))
    out, log = tmp_path / "selected.yaml", tmp_path / "steps.csv"
    args = ["select", "--conll", str(conll), "--corpus", "synth", "--start", str(fs), "--candidates", str(fs),
            "--nonlocal", "syntactic_context,cluster_size", "--iterations", "1", "--bits", "12", "--max-steps", "1",
            "--out", str(out), "--log-out", str(log)]  # fmt: skip
    assert main(args) == 0
    said = capsys.readouterr().out
    assert "left out 3 templates the corpus cannot compute: same_speaker (" in said
    assert "syntactic_context (corpus has no m_path_s)" in said
    rows = pd.read_csv(log)
    assert rows.loc[rows.action == "remove", "template"].tolist() == ["bias", "ana_type", "head_match"]
    assert rows.loc[(rows.phase == "nonlocal") & (rows.action == "add"), "template"].tolist() == ["cluster_size"]
    assert not any("speaker" in t for t in yaml.safe_load(out.read_text()))
