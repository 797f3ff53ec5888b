"""Hand-built compiled corpora for the feature tests (no data layer needed)."""

import numpy as np

from coreflab.corpus.compiled import ARRAY_FIELDS, CompiledCorpus
from coreflab.features.random_corpus import blank_missing


def build_corpus(docs, missing=(), name="hand", split="dev"):
    """docs: list of dicts with
        sentences: list of lists of words
        mentions:  list of dicts (start, end, head, type, gender=0, number=0, ne=0,
                   cluster=0, category=..., path_s=..., embedded=-1), sorted by (start, end)
        speakers:  optional speaker name per sentence
        genre:     optional genre string
    Strings are interned into one vocabulary as the data layer does."""
    vocab, index = [], {}

    def vid(s):
        if s is None:
            return -1
        if s not in index:
            index[s] = len(vocab)
            vocab.append(s)
        return index[s]

    cols = {k: [] for k in ARRAY_FIELDS}
    m_off, t_off, s_off = [0], [0], [0]
    for d, doc in enumerate(docs):
        words = [w for sent in doc["sentences"] for w in sent]
        tok_sent = [k for k, sent in enumerate(doc["sentences"]) for _ in sent]
        ends = np.cumsum([len(s) for s in doc["sentences"]])
        speakers = doc.get("speakers")
        cols["tok_word"] += [vid(w) for w in words]
        cols["tok_lower"] += [vid(w.lower()) for w in words]
        cols["tok_pos"] += [vid(p) for p in doc.get("pos", ["NN"] * len(words))]
        cols["tok_speaker"] += [vid(speakers[k]) if speakers else -1 for k in tok_sent]
        cols["tok_sentence"] += tok_sent
        cols["sent_end"] += list(ends)
        for m in doc["mentions"]:
            s, e, h = m["start"], m["end"], m["head"]
            cols["m_doc"].append(d)
            cols["m_start"].append(s)
            cols["m_end"].append(e)
            cols["m_head"].append(h)
            cols["m_sentence"].append(tok_sent[s])
            cols["m_type"].append(m["type"])
            cols["m_gender"].append(m.get("gender", 0))
            cols["m_number"].append(m.get("number", 0))
            cols["m_ne"].append(vid(m["ne"]) if m.get("ne") else 0)
            cols["m_head_str"].append(vid(words[h].lower()))
            cols["m_first_str"].append(vid(words[s].lower()))
            cols["m_last_str"].append(vid(words[e].lower()))
            cols["m_full_str"].append(vid(" ".join(words[s : e + 1]).lower()))
            cols["m_pronoun"].append(vid(words[s].lower()) if m["type"] == 1 else -1)
            cols["m_category"].append(vid(m.get("category", "NP")))
            cols["m_subcategory"].append(vid(m.get("subcategory", "NNP")))
            cols["m_path_root"].append(vid(m.get("path_root", "NP/S/TOP")))
            cols["m_path_s"].append(vid(m.get("path_s", "NP/S")))
            cols["m_embedded"].append(m.get("embedded", -1))
            cols["m_cluster"].append(m.get("cluster", 0))
            cols["m_in_key"].append(1)
        m_off.append(m_off[-1] + len(doc["mentions"]))
        t_off.append(t_off[-1] + len(words))
        s_off.append(s_off[-1] + len(doc["sentences"]))
        cols["doc_parts"].append(0)
        cols["doc_genre"].append(vid(doc.get("genre")))
    arrays = {k: np.asarray(v, dtype=ARRAY_FIELDS[k]) for k, v in cols.items() if k in ARRAY_FIELDS}
    arrays["doc_mention_offsets"] = np.array(m_off, np.int64)
    arrays["doc_token_offsets"] = np.array(t_off, np.int64)
    arrays["doc_sentence_offsets"] = np.array(s_off, np.int64)
    blank_missing(arrays, missing)
    return CompiledCorpus(
        name=name,
        split=split,
        doc_ids=[f"hand/{d}" for d in range(len(docs))],
        vocab=vocab,
        missing=list(missing),
        arrays=arrays,
    )


# "Drug Emporium Inc. said Gary Wilber was named CEO . | He said DEI would grow ."
#  0    1        2    3    4    5      6   7     8   9   10 11   12  13    14   15
P, N, C = 1, 2, 3
MALE, FEMALE, NEUTER = 1, 2, 3
SING, PLUR = 1, 2
EXAMPLE = {
    "sentences": [
        ["Drug", "Emporium", "Inc.", "said", "Gary", "Wilber", "was", "named", "CEO", "."],
        ["He", "said", "DEI", "would", "grow", "."],
    ],
    "speakers": ["A", "B"],
    "genre": "nw",
    "mentions": [
        dict(start=0, end=2, head=1, type=N, gender=NEUTER, number=SING, ne="ORG", cluster=0),
        dict(start=4, end=5, head=5, type=N, gender=MALE, number=SING, ne="PERSON", cluster=1),
        dict(start=8, end=8, head=8, type=C, gender=0, number=SING, cluster=2),
        dict(start=10, end=10, head=10, type=P, gender=MALE, number=SING, cluster=1),
        dict(start=12, end=12, head=12, type=N, gender=NEUTER, number=SING, ne="ORG", cluster=0),
    ],
}


def chain_doc(n_mentions, sentence_every=1):
    """A document with one one-word mention per sentence ("wK .")."""
    sents = [[f"w{k}", "."] for k in range(n_mentions)]
    ments = [dict(start=2 * k, end=2 * k, head=2 * k, type=C) for k in range(n_mentions)]
    return {"sentences": sents, "mentions": ments}
