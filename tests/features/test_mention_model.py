"""The mention classifier: features that mean the same in every split, a fit that separates what it can,
cross-fitted training probabilities, and the candidate filter that keeps the compiled split consistent."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coreflab.corpus.compile import compile_documents, embedding_rows
from coreflab.corpus.readers.conll import parse_conll
from coreflab.errors import UserError
from coreflab.features.mention_model import (
    MentionModel,
    apply_mention_model,
    cross_fitted_probabilities,
    design_matrix,
    detection_by_type,
    fit_mention_model,
    select_mentions,
)

# per sentence: (words, POS, parse, coref) -- "the report" is never an entity, "the director" always is
SENTENCES = [
    ("The director read the report .", "DT NN VBD DT NN .", "(TOP(S(NP* *) (VP* (NP* *)) *))", "(0 0) - - - -"),
    ("She liked it .", "PRP VBD PRP .", "(TOP(S(NP*) (VP* (NP*)) *))", "(0) - - -"),
    ("The report was long .", "DT NN VBD JJ .", "(TOP(S(NP* *) (VP* (ADJP*)) *))", "- - - - -"),
]


def conll_text(n_docs, order=None, prefix="d"):
    lines = []
    for d in range(n_docs):
        lines.append(f"#begin document ({prefix}{d}); part 000")
        for k in order or range(len(SENTENCES)):
            words, pos, parse, coref = SENTENCES[k]
            bits = _bits(parse, len(words.split()))
            for i, (w, p, b, c) in enumerate(zip(words.split(), pos.split(), bits, coref.split())):
                lines.append(f"{prefix}{d}\t0\t{i}\t{w}\t{p}\t{b}\t-\t-\t-\tA\t*\t-\t{_coref(c, d)}")
            lines.append("")
        lines.append("#end document")
    return "\n".join(lines) + "\n"


def _bits(parse, n):
    """The per-token parse bits of a bracketing written with one * per token."""
    out, cur = [], ""
    for ch in parse:
        if ch == "*":
            out.append(cur + "*")
            cur = ""
        elif ch == ")":
            out[-1] += ")"
        elif ch != " ":
            cur += ch
    assert len(out) == n
    return out


def _coref(c, d):
    return c.replace("0", str(d)) if c != "-" else "-"


def compiled(n_docs, split="train", order=None):
    return compile_documents(parse_conll(conll_text(n_docs, order)), "toy", split, mentions="predicted")


@pytest.fixture(scope="module")
def fit6():
    """compiled(6) and its 3-fold fit (one fit is four liblinear fits over 2**20 columns: the tests share it)."""
    corpus = compiled(6)
    return corpus, fit_mention_model(corpus, folds=3)


def test_features_mean_the_same_in_every_split():
    """Vocabulary ids differ between splits (a split numbers strings as it meets them); the features must not."""
    a = compiled(1)
    b = compiled(1, "test", order=[2, 1, 0])  # the same sentences in another order: other vocabulary ids
    assert a.vocab != b.vocab
    row = {(int(s), int(e)): i for i, (s, e) in enumerate(zip(a.m_start, a.m_end))}
    ia = row[(10, 11)]  # "The report" opening the third sentence of a
    ib = 0  # ... and opening the document b
    assert b.vocab[b.m_full_str[ib]] == a.vocab[a.m_full_str[ia]] == "the report"
    fa, fb = set(design_matrix(a)[ia].indices.tolist()), set(design_matrix(b)[ib].indices.tolist())
    # only the templates of position differ: the sentence index, the previous word, first of its head
    assert len(fa) == len(fb) and len(fa - fb) == 3


def test_the_fit_separates_entities_from_non_entities_and_cross_fits():
    corpus = compiled(10)
    model = fit_mention_model(corpus, folds=5)
    prob = model.probabilities(corpus)
    y = corpus.m_in_key.astype(bool)
    assert prob[y].min() > 0.5 > prob[~y].max()
    crossed = cross_fitted_probabilities(corpus, model)
    assert crossed.shape == prob.shape and not np.array_equal(crossed, prob)  # each fold scored by other folds
    assert crossed[y].min() > 0.5 > crossed[~y].max()  # every fold saw the same sentences
    assert "train_cross_fitted" in model.stats


def test_the_model_round_trips(tmp_path, fit6):
    corpus, model = fit6
    model.save(tmp_path / "m.npz")
    again = MentionModel.load(tmp_path / "m.npz")
    assert np.array_equal(again.probabilities(corpus), model.probabilities(corpus))
    assert (again.candidates, again.extractor) == ("rules", "predicted")
    extended = compile_documents(parse_conll(conll_text(6)), "toy", "train", mentions="candidates")
    fit_mention_model(extended, folds=3, candidates="extended").save(tmp_path / "x.npz")
    assert MentionModel.load(tmp_path / "x.npz").extractor == "candidates"  # prepare extracts what it classified
    (tmp_path / "bad.npz").write_bytes(b"not a model")
    with pytest.raises(UserError, match="not a mention model"):
        MentionModel.load(tmp_path / "bad.npz")


def test_a_split_without_non_mentions_is_a_user_error():
    corpus = compiled(2)
    corpus.arrays["m_in_key"][:] = 1
    with pytest.raises(UserError, match="both in and out of the key"):
        fit_mention_model(corpus)


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_selecting_mentions_keeps_the_split_consistent(data):
    corpus = compiled(3)
    keep = np.asarray(data.draw(st.lists(st.booleans(), min_size=corpus.n_mentions, max_size=corpus.n_mentions)))
    out = select_mentions(corpus, keep)
    assert out.n_mentions == int(keep.sum())
    for k in ("m_start", "m_end", "m_cluster", "m_in_key", "m_head"):
        assert np.array_equal(out.arrays[k], corpus.arrays[k][keep])
    offs = out.arrays["doc_mention_offsets"]
    assert np.array_equal(np.diff(offs), np.bincount(corpus.m_doc[keep], minlength=corpus.n_docs))
    assert np.array_equal(out.arrays["m_embedded"], embedding_rows(offs, out.m_start, out.m_end))
    assert np.array_equal(out.arrays["tok_word"], corpus.arrays["tok_word"])


def test_apply_filters_below_the_probability_and_records_it():
    corpus = compiled(8)
    model = fit_mention_model(corpus, folds=2)
    filtered, prob = apply_mention_model(corpus, model, 0.5)
    assert filtered.n_mentions == int((prob >= 0.5).sum()) < corpus.n_mentions
    assert np.all(filtered.arrays["m_entity"] >= 0.5)
    key = compile_documents(parse_conll(conll_text(8)), "toy", "train", mentions="gold")
    table = detection_by_type(key, {"all": (corpus, None), "kept": (corpus, prob >= 0.5)})
    assert table["kept"]["all"]["precision"] == 1.0 and table["kept"]["all"]["recall"] == 1.0
    assert table["all"]["all"]["recall"] == 1.0 and table["all"]["all"]["precision"] < 1.0


def test_prepare_reuses_the_cross_fitted_probabilities_of_the_models_own_training_split(tmp_path, monkeypatch, fit6):
    """The model keeps its training split's cross-fitted probabilities: for that split (same documents,
    same candidates) they are the folds' fits bit for bit, without fitting again; any other split is
    cross-fitted anew."""
    import coreflab.features.mention_model as mm

    corpus, fitted = fit6
    fitted.save(tmp_path / "m.npz")
    model = MentionModel.load(tmp_path / "m.npz")
    fresh = MentionModel.load(tmp_path / "m.npz")
    fresh.train_probabilities = None
    expected = cross_fitted_probabilities(corpus, fresh)

    def no_fit(*args, **kwargs):
        raise AssertionError("fitted again")

    monkeypatch.setattr(mm, "_fit", no_fit)
    again = compiled(6)  # prepare compiles the training file anew
    assert np.array_equal(cross_fitted_probabilities(again, model), expected)
    other = compiled(6, order=[1, 0, 2])  # other spans, as many of them: only the fingerprint tells
    assert other.n_mentions == corpus.n_mentions
    with pytest.raises(AssertionError, match="fitted again"):
        cross_fitted_probabilities(other, model)


def test_fits_in_threads_give_the_model_of_fits_one_at_a_time(fit6):
    """The whole fit and the folds' fits run in threads: the same weights and cross-fitted probabilities."""
    corpus, one = fit6  # jobs=1
    two = fit_mention_model(corpus, folds=3, jobs=2)
    assert np.array_equal(one.weights, two.weights) and one.intercept == two.intercept
    assert np.array_equal(one.train_probabilities, two.train_probabilities)
    fresh = MentionModel(one.weights, one.intercept, one.c, one.folds, {})  # nothing stored: fits the folds
    assert np.array_equal(cross_fitted_probabilities(corpus, fresh, jobs=2), one.train_probabilities)


@pytest.mark.slow
def test_the_fit_does_not_depend_on_the_blas_threads_it_is_given():
    """Snakemake gives a job as many BLAS threads as cores; liblinear's sums must not see them, in the
    mention-model job's fits or in the cross-fits of template selection's parts."""
    from threadpoolctl import threadpool_limits

    from coreflab.corpus.synthetic.generator import generate_corpus

    # large enough that two BLAS threads change liblinear's weights when it is given them
    corpus = compile_documents(generate_corpus("default", seed=0)["train"][:8], "synth", "train", "predicted")
    one = fit_mention_model(corpus, folds=2)
    with threadpool_limits(limits=2, user_api="blas"):
        two = fit_mention_model(corpus, folds=2, jobs=2)
    assert np.array_equal(one.weights, two.weights) and np.array_equal(one.train_probabilities, two.train_probabilities)
    fresh = MentionModel(one.weights, one.intercept, one.c, one.folds, {})  # nothing stored: fits the folds
    with threadpool_limits(limits=2, user_api="blas"):
        assert np.array_equal(cross_fitted_probabilities(corpus, fresh, jobs=2), one.train_probabilities)
