"""Random compiled corpora shaped like real ones, for tests and benchmarks.

Why: the feature store and the decoders are benchmarked at CoNLL-2012 training size
(2,802 documents, mean 55 mentions per document with a long tail to several hundred)
without needing the licensed data. Attributes are random but well-formed (codes and
vocabulary ids as in `coreflab.corpus.compiled`), with small vocabularies so string and
head matches, acronyms and shared speakers actually occur.
"""

import numpy as np

from coreflab.corpus.compiled import ARRAY_FIELDS, CompiledCorpus

_ATTRS = ("pos", "parse", "speaker", "ne", "genre")


def random_vocab(n_words):
    """Lower-case words, their capitalised forms and a few all-caps acronyms."""
    lower = [f"w{k}" for k in range(n_words)]
    cap = [f"W{k}" for k in range(n_words)]
    acr = ["WW", "W.W.", "WWW", "IBM", "DEI", "US"]
    return lower + cap + acr + ["ibm", "dei", "us", "www", "ww"]


def random_compiled_corpus(
    n_docs,
    mean_mentions=55.0,
    sigma=0.8,
    max_mentions=700,
    n_words=50,
    missing=(),
    seed=0,
    name="random",
    split="train",
):
    """A CompiledCorpus with lognormal mention counts per document (mean `mean_mentions`)."""
    rng = np.random.default_rng(seed)
    vocab = random_vocab(n_words)
    index = {w: k for k, w in enumerate(vocab)}
    lower_of = np.array(
        [
            index[w.lower().replace(".", "")]
            if w.lower().replace(".", "") in index
            else index[w.lower()]
            if w.lower() in index
            else k
            for k, w in enumerate(vocab)
        ],
        dtype=np.int32,
    )
    mu = np.log(mean_mentions) - sigma**2 / 2
    n_m = np.clip(np.rint(rng.lognormal(mu, sigma, n_docs)), 1, max_mentions).astype(np.int64)
    cols = {k: [] for k in ARRAY_FIELDS}
    tok_base = 0
    doc_m_off, doc_t_off, doc_s_off = [0], [0], [0]
    n_sent_total = 0
    for d in range(n_docs):
        n_tok = int(n_m[d]) * 8 + 5  # ~8 tokens per mention, as in CoNLL-2012
        words = rng.integers(0, len(vocab), n_tok).astype(np.int32)
        sent_len = rng.integers(3, 25, n_tok)
        sent_end = np.minimum(np.cumsum(sent_len), n_tok)
        sent_end = np.unique(sent_end)
        tok_sent = np.searchsorted(sent_end, np.arange(n_tok), side="right").astype(np.int32)
        start = rng.integers(0, n_tok, int(n_m[d] * 1.2) + 2)  # oversample, then dedupe
        length = np.minimum(rng.geometric(0.5, start.shape[0]), 6)
        end = np.minimum(start + length - 1, n_tok - 1)
        end = np.minimum(end, sent_end[tok_sent[start]] - 1)  # within the sentence
        spans = np.unique(np.stack([start, end], 1), axis=0)  # sorted by (start, end)
        if spans.shape[0] > n_m[d]:
            spans = spans[np.sort(rng.choice(spans.shape[0], int(n_m[d]), replace=False))]
        s, e = spans[:, 0].astype(np.int32), spans[:, 1].astype(np.int32)
        m = s.shape[0]
        head = (s + rng.integers(0, 1 + e - s)).astype(np.int32)
        lw = lower_of[words]
        mtype = rng.integers(1, 4, m).astype(np.int8)
        cols["tok_word"].append(words)
        cols["tok_lower"].append(lw)
        cols["tok_pos"].append(rng.integers(0, 5, n_tok).astype(np.int32))
        cols["tok_speaker"].append(rng.integers(0, 3, len(sent_end))[tok_sent].astype(np.int32))
        cols["tok_sentence"].append(tok_sent)
        cols["sent_end"].append(sent_end.astype(np.int32))
        cols["m_doc"].append(np.full(m, d, np.int32))
        cols["m_start"].append(s)
        cols["m_end"].append(e)
        cols["m_head"].append(head)
        cols["m_sentence"].append(tok_sent[s])
        cols["m_type"].append(mtype)
        cols["m_gender"].append(rng.integers(0, 4, m).astype(np.int8))
        cols["m_number"].append(rng.integers(0, 3, m).astype(np.int8))
        cols["m_ne"].append(rng.integers(0, 4, m).astype(np.int32))
        cols["m_head_str"].append(lw[head])
        cols["m_first_str"].append(lw[s])
        cols["m_last_str"].append(lw[e])
        cols["m_full_str"].append(np.where(s == e, lw[s], rng.integers(0, 8, m)).astype(np.int32))
        cols["m_pronoun"].append(np.where(mtype == 1, lw[s], -1).astype(np.int32))
        for key in ("m_category", "m_subcategory", "m_path_root", "m_path_s"):
            cols[key].append(rng.integers(0, 6, m).astype(np.int32))
        emb = rng.integers(-3, m, m)
        cols["m_embedded"].append(np.where(emb < 0, -1, emb).astype(np.int32))
        cols["m_cluster"].append(rng.integers(0, max(1, m // 3), m).astype(np.int32))
        cols["m_in_key"].append(np.ones(m, np.int8))
        tok_base += n_tok
        n_sent_total += len(sent_end)
        doc_m_off.append(doc_m_off[-1] + m)
        doc_t_off.append(tok_base)
        doc_s_off.append(n_sent_total)
    arrays = {k: np.concatenate(v).astype(ARRAY_FIELDS[k]) for k, v in cols.items() if v}
    arrays["doc_parts"] = np.zeros(n_docs, np.int32)
    arrays["doc_genre"] = rng.integers(0, 3, n_docs).astype(np.int32)
    arrays["doc_mention_offsets"] = np.array(doc_m_off, np.int64)
    arrays["doc_token_offsets"] = np.array(doc_t_off, np.int64)
    arrays["doc_sentence_offsets"] = np.array(doc_s_off, np.int64)
    blank_missing(arrays, missing)
    return CompiledCorpus(
        name=name,
        split=split,
        doc_ids=[f"random/{d:05d}" for d in range(n_docs)],
        vocab=vocab,
        missing=list(missing),
        arrays=arrays,
    )


# the arrays that hold each optional annotation layer (what a corpus without it lacks)
LAYER_ARRAYS = {
    "pos": ["tok_pos"],
    "speaker": ["tok_speaker"],
    "ne": ["m_ne"],
    "genre": ["doc_genre"],
    "parse": ["m_category", "m_subcategory", "m_path_root", "m_path_s"],
}


def blank_missing(arrays, missing):
    """Set the arrays of every missing layer to -1 (unknown), as the compiler does for such corpora."""
    for attr in missing:
        for key in LAYER_ARRAYS[attr]:
            arrays[key] = np.full_like(arrays[key], -1)


__all__ = ["LAYER_ARRAYS", "blank_missing", "random_compiled_corpus", "random_vocab"]
