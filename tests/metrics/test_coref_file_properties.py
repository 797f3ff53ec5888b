"""Properties of the scoring reader on arbitrary cell sequences.

Why: the reader pairs brackets vectorised and falls back to the plain Python reading of a
document only for what the vectorised path does not take; both must give the same
mentions, and any input must end either in a CorefFile or in a one-line UserError (never
another exception, which the CLI would print as a traceback).
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from coreflab.errors import UserError
from coreflab.metrics.coref_file import parse_coref_bytes

CELLS = [
    "-",
    "_",
    "(1",
    "1)",
    "(1)",
    "(2",
    "2)",
    "(2)|(1",
    "2)|1)",
    "(1(2",
    "1)2)",
    "1)|(1",
    "(1)|(1)",
    "(12",
    "12)",
    "(3)",
]
LINES = CELLS + [
    "#begin document (d); part 000",
    "#begin document (e);",
    "#end document",
    "",
    " \t",
    "(x1)",
    "(01)",
    "((1)",
    "|",
    "# note",
    "\r",
]


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(CELLS), min_size=1, max_size=12))
def test_vectorised_mentions_equal_the_python_reading(cells):
    data = (
        "#begin document (d);\n" + "".join(f"s\t0\t{i}\tw\t{c}\n" for i, c in enumerate(cells)) + "#end document\n"
    ).encode()
    try:
        f = parse_coref_bytes(data, "f")
    except UserError:
        return
    cl, _ = f.cluster_arrays()
    arrays = {}
    for k in range(len(f.m_doc)):
        arrays.setdefault(int(cl[k]), []).append((int(f.m_start[k]), int(f.m_end[k])))
    f._clusters.clear()  # read the document again, the plain Python way
    assert sorted(sorted(c) for c in arrays.values()) == sorted(sorted(c) for c in f.clusters(0))


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(LINES), max_size=14), st.booleans())
def test_any_input_reads_or_fails_with_a_user_error(lines, final_newline):
    data = ("\n".join(lines) + ("\n" if final_newline else "")).encode()
    try:
        f = parse_coref_bytes(data, "f")
    except UserError as err:
        assert str(err).startswith("f:") and "\n" not in str(err)
        return
    for d in range(len(f.docs)):
        f.clusters(d)
