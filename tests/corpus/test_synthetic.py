"""The embedded synthetic corpus: determinism, lossless CoNLL, well-formed trees, agreement,
and the presence of every phenomenon the generator promises (coreflab.corpus.synthetic.generator)."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coreflab.corpus.readers.conll import format_conll, parse_conll
from coreflab.corpus.synthetic import lexicon as lex
from coreflab.corpus.synthetic.generator import DEFAULT_KNOBS, SIZES, SPLITS, generate_corpus, generate_document
from coreflab.errors import UserError

THIRD = {
    "he": ("m", "sg"),
    "him": ("m", "sg"),
    "his": ("m", "sg"),
    "she": ("f", "sg"),
    "her": ("f", "sg"),
    "it": ("n", "sg"),
    "its": ("n", "sg"),
    "they": ("-", "pl"),
    "them": ("-", "pl"),
    "their": ("-", "pl"),
}
FIRST = {"i", "me", "my"}
SECOND = {"you", "your"}
AMBIGUOUS = {s for s, _ in lex.AMBIGUOUS_DESCRIPTORS}


@pytest.fixture(scope="module")
def default():
    return generate_corpus("default", seed=0)


@pytest.fixture(scope="module")
def tiny():
    return generate_corpus("tiny", seed=0)


def all_docs(corpus):
    return [d for s in SPLITS for d in corpus[s]]


def constituents(doc):
    """(label, start, end) of every constituent, from the parse bits (checks balance)."""
    out = []
    start = 0
    for end in doc.sentence_ends:
        stack = []
        for t in range(start, end):
            bit = doc.columns["parse"][t]
            assert re.fullmatch(r"(\([A-Z$`',.:]+)*\*\)*", bit), bit
            for label in bit.split("*")[0].split("(")[1:]:
                stack.append((label, t))
            for _ in range(bit.count(")")):
                assert stack, f"{doc.doc_id}: close without open at token {t}"
                label, s = stack.pop()
                out.append((label, s, t))
        assert not stack, f"{doc.doc_id}: sentence ending at {end} is unbalanced"
        assert doc.columns["parse"][start].startswith("(TOP(S")
        start = end
    return out


def cluster_gender(doc, cluster):
    """Gender a cluster's names reveal ('m'/'f'), or None."""
    pos = doc.columns["pos"]
    for s, e in cluster:
        if e == s or any(p != "NNP" for p in pos[s : e + 1]):
            continue  # not a full name ("Mary Jones 's house" is a house; "Thomas" may be a surname)
        first = doc.words[s]
        if first in lex.MALE_FIRST or first == "Mr.":
            return "m"
        if first in lex.FEMALE_FIRST or first == "Ms.":
            return "f"
    return None


def nonlocal_cases(doc):
    """Pronouns whose nearest preceding mention is a gender-ambiguous "the <descriptor>" of
    another cluster whose names give it the other gender (only cluster-level information
    rules that candidate out)."""
    cluster_of = {span: k for k, c in enumerate(doc.clusters) for span in c}
    mentions = sorted(cluster_of, key=lambda se: (se[1], -se[0]))
    n = 0
    for s, e in mentions:
        w = doc.words[s].lower()
        if s != e or w not in THIRD or THIRD[w][0] not in "mf":
            continue
        before = [m for m in mentions if m[1] < s]
        if not before:
            continue
        ps, pe = before[-1]
        if pe - ps != 1 or doc.words[ps].lower() != "the" or doc.words[pe] not in AMBIGUOUS:
            continue
        k = cluster_of[(ps, pe)]
        g = cluster_gender(doc, doc.clusters[k])
        if k != cluster_of[(s, e)] and g is not None and g != THIRD[w][0]:
            n += 1
    return n


def test_tiny_has_exactly_the_declared_counts(tiny):
    assert SIZES["tiny"]["docs"] == (12, 4, 4)
    assert [len(tiny[s]) for s in SPLITS] == [12, 4, 4]
    for split in SPLITS:
        for i, doc in enumerate(tiny[split]):
            genre, rest = doc.doc_id.split("/", 1)
            assert rest == f"synth/{split}/{i:04d}"
            assert genre in ("nw", "bn", "mz", "wb", "pt", "bc", "tc")
            assert doc.part == 0


def test_declared_sizes():
    assert SIZES["default"]["docs"] == (200, 50, 50)
    assert SIZES["conll2012"]["docs"] == (2802, 343, 348)


def test_same_seed_same_bytes_other_seed_differs():
    a = format_conll(all_docs(generate_corpus("tiny", seed=5)))
    b = format_conll(all_docs(generate_corpus("tiny", seed=5)))
    c = format_conll(all_docs(generate_corpus("tiny", seed=6)))
    assert a == b
    assert a != c


def test_a_document_does_not_depend_on_the_corpus_size(tiny, default):
    # documents draw from their own (seed, split, index) stream; only lengths differ per size
    spec = dict(SIZES["tiny"])
    doc = generate_document(0, 0, 3, spec, dict(DEFAULT_KNOBS), "train")
    assert format_conll([doc]) == format_conll([tiny["train"][3]])


@settings(max_examples=8, deadline=None)
@given(st.integers(min_value=0, max_value=2**31))
def test_conll_round_trip_is_lossless(seed):
    docs = all_docs(generate_corpus("tiny", seed=seed))
    text = format_conll(docs)
    back = parse_conll(text)
    assert len(back) == len(docs)
    for a, b in zip(docs, back):
        b.source = a.source
        assert a == b
    assert format_conll(back) == text
    # doc part word# word pos parse lemma frameset sense speaker ne, one args column, coref
    assert all(len(line.split("\t")) == 13 for line in text.splitlines() if line and not line.startswith("#"))


def test_trees_are_balanced_and_mentions_are_np_constituents(default):
    for doc in all_docs(default)[:120]:
        nps = {(s, e) for label, s, e in constituents(doc) if label == "NP"}
        for cluster in doc.clusters:
            for s, e in cluster:
                if s == e and doc.columns["pos"][s] == "PRP$":
                    continue  # possessive determiners are mentions inside an NP, as in OntoNotes
                assert (s, e) in nps, (doc.doc_id, s, e, doc.words[s : e + 1])


def test_every_sentence_ends_with_a_period_and_words_have_no_blanks(tiny):
    for doc in all_docs(tiny):
        for end in doc.sentence_ends:
            assert doc.words[end - 1] == "."
        assert all(w and not re.search(r"\s", w) for w in doc.words)


def test_ne_column_is_ontonotes_style(default):
    for doc in all_docs(default)[:100]:
        open_label = None
        for _t, cell in enumerate(doc.columns["ne"]):
            if cell == "*":
                continue
            m = re.fullmatch(r"\(([A-Z]+)\)|\(([A-Z]+)\*|\*\)", cell)
            assert m, cell
            if cell.endswith("*"):
                assert open_label is None
                open_label = m.group(2)
            elif cell == "*)":
                assert open_label is not None
                open_label = None
        assert open_label is None


def test_no_singletons_and_no_repeated_spans(default):
    for doc in all_docs(default):
        spans = [span for c in doc.clusters for span in c]
        assert len(spans) == len(set(spans))
        assert all(len(c) >= 2 for c in doc.clusters)


def test_pronouns_agree_with_their_entity(default):
    checked = 0
    for doc in all_docs(default):
        for cluster in doc.clusters:
            classes = {
                THIRD[doc.words[s].lower()]
                for s, e in cluster
                if s == e and doc.words[s].lower() in THIRD and doc.columns["pos"][s].startswith("PRP")
            }
            ne = {doc.columns["ne"][s].strip("()*") for s, e in cluster}
            if "ORG" in ne:  # organisations are "it" or, notionally plural, "they"
                assert classes <= {("n", "sg"), ("-", "pl")}, (doc.doc_id, classes)
                continue
            assert len(classes) <= 1, (doc.doc_id, classes)
            g = cluster_gender(doc, cluster)
            if classes and g is not None:
                assert classes == {(g, "sg")}, (doc.doc_id, cluster)
                checked += 1
            if classes and "GPE" in ne:
                assert classes == {("n", "sg")}
    assert checked > 100


def test_first_and_second_person_follow_the_speaker(default):
    n_turns = 0
    for doc in all_docs(default):
        spk = doc.columns["speaker"]
        for cluster in doc.clusters:
            firsts = {spk[s] for s, e in cluster if doc.words[s].lower() in FIRST}
            seconds = {spk[s] for s, e in cluster if doc.words[s].lower() in SECOND}
            assert "-" not in firsts | seconds  # "I"/"you" only in quoted speech or turns
            assert len(firsts) <= 1  # one entity is "I" for one speaker only
            assert not firsts & seconds  # nobody calls themselves "you"
            n_turns += bool(firsts and seconds)
    assert n_turns > 20  # speaker changes: the same entity is "I" in one turn, "you" in another


def test_phenomena_are_present(default):
    docs = all_docs(default)
    counts = dict.fromkeys(
        ("apposition", "quote", "dialogue", "pleonastic", "generic", "surname", "head", "possessive"), 0
    )
    for doc in docs:
        mentions = {span for c in doc.clusters for span in c}
        words, pos = doc.words, doc.columns["pos"]
        cons = constituents(doc)
        for label, s, e in cons:
            if label != "NP":
                continue
            if (s, e) not in mentions and not any(s <= a and b <= e for a, b in mentions):
                counts["generic"] += 1
            if (s, e) in mentions and "," in words[s : e + 1] and pos[e].startswith("NN"):
                counts["apposition"] += 1
        counts["quote"] += words.count("``")
        counts["dialogue"] += doc.doc_id.split("/")[0] in ("bc", "tc")
        counts["pleonastic"] += sum(1 for t, w in enumerate(words) if w.lower() == "it" and (t, t) not in mentions)
        counts["possessive"] += sum(1 for t, p in enumerate(pos) if p == "POS" and any(e == t for _, e in mentions))
        # distinct clusters with the same surname / the same head noun
        heads = {}
        surnames = {}
        for k, c in enumerate(doc.clusters):
            for s, e in c:
                if pos[e] == "NNP" and doc.columns["ne"][e] in ("*)", "(PERSON)"):
                    surnames.setdefault(words[e], set()).add(k)
                elif pos[e] in ("NN", "NNS") and words[s].lower() in ("the", "a", "an"):
                    heads.setdefault(words[e].lower(), set()).add(k)
        counts["surname"] += sum(len(v) > 1 for v in surnames.values())
        counts["head"] += sum(len(v) > 1 for v in heads.values())
    for name, n in counts.items():
        assert n >= 10, (name, counts)


def test_the_nonlocal_pronoun_case_occurs_and_follows_its_knob(default):
    assert sum(nonlocal_cases(d) for d in all_docs(default)) >= 30
    off = sum(nonlocal_cases(d) for d in all_docs(generate_corpus("tiny", 1, {"nonlocal_rate": 0})))
    on = sum(nonlocal_cases(d) for d in all_docs(generate_corpus("tiny", 1, {"nonlocal_rate": 1})))
    assert on > off


def test_knobs_change_the_corpus():
    # no pronoun realisations and no forced ones: no third-person pronoun is a mention
    corpus = generate_corpus("tiny", 2, {"pronoun_rate": 0, "nonlocal_rate": 0})
    for doc in all_docs(corpus):
        for s, e in doc.mentions:
            assert not (s == e and doc.words[s].lower() in THIRD), (doc.doc_id, doc.words[s])
    plain = generate_corpus("tiny", 2, {"quote_rate": 0, "dialogue_rate": 0})
    assert all(set(d.columns["speaker"]) == {"-"} for d in all_docs(plain))


@pytest.mark.parametrize(
    "knobs, message",
    [
        ({"pronoun_ratee": 0.5}, "unknown synthetic corpus knob 'pronoun_ratee'"),
        ({"pronoun_rate": 1.5}, "expected a probability"),
        ({"pronoun_rate": "lots"}, "expected a number"),
        ({"entities_per_sentence": 0}, "expected a positive number"),
        ({"pronoun_reach": 1.5}, "expected an integer"),
    ],
)
def test_bad_knobs_are_user_errors(knobs, message):
    with pytest.raises(UserError, match=message):
        generate_corpus("tiny", 0, knobs)


def test_bad_size_and_seed_are_user_errors():
    with pytest.raises(UserError, match="unknown synthetic corpus size 'huge'"):
        generate_corpus("huge")
    with pytest.raises(UserError, match="non-negative integer"):
        generate_corpus("tiny", seed=-1)


def test_conll2012_size_statistics_on_a_sample():
    # the first 150 training documents of the conll2012 size (the full corpus takes ~15 s)
    spec, knobs = SIZES["conll2012"], dict(DEFAULT_KNOBS)
    docs = [generate_document(0, 0, i, spec, knobs) for i in range(150)]
    mentions = [sum(len(c) for c in d.clusters) for d in docs]
    tokens = sum(len(d.words) for d in docs)
    assert 40 <= sum(mentions) / len(docs) <= 75  # CoNLL-2012 English: about 55
    assert max(mentions) >= 150  # a long tail
    assert 250 <= tokens / len(docs) <= 500  # about 1.3M tokens / 3,493 documents
