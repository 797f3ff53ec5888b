"""ECB+ mention contexts: a window around the mention without any entity mention's tokens."""

from coreflab.papers.singh2011.ecbplus import parse_document


def document(words, sentences, mentions):
    """XML of one document: `mentions` = [(m_id, [token positions 0-based], instance)]."""
    tokens = "".join(
        f'<token t_id="{i + 1}" sentence="{s}">{w}</token>' for i, (w, s) in enumerate(zip(words, sentences))
    )
    marks = "".join(
        f'<HUMAN_PART_PER m_id="{m}">' + "".join(f'<token_anchor t_id="{t + 1}"/>' for t in at) + "</HUMAN_PART_PER>"
        for m, at, _ in mentions
    )
    rels = "".join(
        f'<CROSS_DOC_COREF r_id="{m}" note="{inst}"><source m_id="{m}"/><target m_id="99"/></CROSS_DOC_COREF>'
        for m, _, inst in mentions
    )
    return f'<Document doc_name="x">{tokens}<Markables>{marks}</Markables><Relations>{rels}</Relations></Document>'


WORDS = "alpha Smith met Jones in beta gamma . delta said Smith won".split()
SENTS = [0] * 8 + [1] * 4
MENTIONS = [("1", [1], "A"), ("2", [3], "B"), ("3", [10], "A")]


def test_window_context_leaves_out_every_mention_and_crosses_sentences():
    out = parse_document(document(WORDS, SENTS, MENTIONS), "x.xml", window=2)
    contexts = [c for (_, _, c, _) in out]
    # Smith (position 1): alpha, [Smith], met, [Jones]: the other mention's token is not context
    # Jones (3): [Smith] met [Jones] in beta; the second Smith (10): delta said [Smith] won, across no mention
    assert contexts == ["alpha met", "met in beta", "delta said won"]
    # a window of 4 crosses the sentence boundary: gamma . delta said [Smith] won
    assert parse_document(document(WORDS, SENTS, MENTIONS), "x.xml", window=4)[2][2] == "gamma . delta said won"


def test_sentence_context_is_the_old_behaviour():
    out = parse_document(document(WORDS, SENTS, MENTIONS), "x.xml", window=None)
    assert out[0][2] == "alpha met Jones in beta gamma ."


def test_a_wide_window_stays_in_the_document():
    out = parse_document(document(WORDS, SENTS, MENTIONS), "x.xml", window=100)
    assert out[0][2].split() == [w for i, w in enumerate(WORDS) if i not in (1, 3, 10)]
