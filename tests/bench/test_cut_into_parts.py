"""bench/cut_into_parts.py: documents cut into parts of N sentences, read back as the scorer sees them
(an entity with a mention on each side of a cut becomes a one-mention cluster in each part)."""

from coreflab.corpus.readers.conll import parse_conll
from coreflab.learn.output import key_singleton_counts
from tests.bench.bench_script import load_bench_script

mod = load_bench_script("cut_into_parts")


def sentence(doc_id, words_coref):
    return [f"{doc_id}\t0\t{i}\t{w}\tNN\t*\t-\t-\t-\t-\t*\t{c}" for i, (w, c) in enumerate(words_coref)]


def test_a_cut_between_two_mentions_leaves_a_one_mention_cluster_in_each_part():
    doc = "nw/x/00/x_0000"
    sents = [
        sentence(doc, [("Ann", "(1)"), ("ran", "-")]),
        sentence(doc, [("She", "(1)"), ("won", "-")]),
        sentence(doc, [("Bob", "(2)"), ("sat", "-")]),
        sentence(doc, [("He", "(2)"), ("saw", "-"), ("Ann", "(1)")]),
    ]
    text = "\n".join([f"#begin document ({doc}); part 000"] + ["\n".join(s) + "\n" for s in sents] + ["#end document"])
    assert key_singleton_counts(parse_conll(text)) == (0, 2)
    parts = parse_conll(mod.cut_text(text, 2))
    assert [(d.doc_id, d.part, len(d.words)) for d in parts] == [(doc, 0, 4), (doc, 1, 5)]
    # part 000: {Ann, She}; part 001: {Bob, He} and {Ann}, the entity's one mention on this side of the cut
    assert key_singleton_counts(parts) == (1, 3)
    lines = [line for line in mod.cut_text(text, 2).splitlines() if line.startswith(doc)]
    assert [line.split("\t")[1] for line in lines] == ["0"] * 4 + ["1"] * 5  # the part column follows
    assert parse_conll(mod.cut_text(text, 4))[0].clusters == parse_conll(text)[0].clusters  # one part: unchanged
