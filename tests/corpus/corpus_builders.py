"""Builders of small corpus folders and archives shared by the corpus tests (a helper module, so that
no test file imports another)."""

import io
import tarfile
import urllib.error

from coreflab.corpus.readers.conll import parse_conll
from coreflab.corpus.readers.ptb import unescape_ptb


# from test_conll2012_release.py
def release_part(doc_id, part, rows, speaker="spk1"):
    lines = [f"#begin document ({doc_id}); part {part:03d}"]
    for i, (word, pos, parse, coref) in enumerate(rows):
        lines.append(" ".join([doc_id, str(part), str(i), word, pos, parse, "-", "-", "-", speaker, "*", "*", coref]))
    return "\n".join(lines + ["", "#end document", ""])


ROWS = [("John", "NNP", "(TOP(S(NP*)", "(0)"), ("left", "VBD", "(VP*)", "-"), (".", ".", "*))", "-")]


def make_release(root):
    """<root>/data/{train,development,test}/data/<lang>/annotations/<genre>/<src>/<nn>/*_{gold,auto}_conll"""
    files = {
        ("train", "english", "nw/wsj/00", "wsj_0001"): [("nw/wsj/00/wsj_0001", 0), ("nw/wsj/00/wsj_0001", 1)],
        ("train", "english", "bc/cnn/00", "cnn_0002"): [("bc/cnn/00/cnn_0002", 0)],
        ("development", "english", "nw/wsj/24", "wsj_2401"): [("nw/wsj/24/wsj_2401", 0)],
        ("test", "english", "nw/wsj/23", "wsj_2301"): [("nw/wsj/23/wsj_2301", 0)],
        ("train", "chinese", "nw/xinhua/00", "chtb_0001"): [("nw/xinhua/00/chtb_0001", 0)],
    }
    for (split, lang, sub, stem), parts in files.items():
        folder = root / "data" / split / "data" / lang / "annotations" / sub
        folder.mkdir(parents=True, exist_ok=True)
        for kind in ("gold", "auto"):
            speaker = "spk1" if kind == "gold" else "-"
            text = "".join(release_part(d, p, ROWS, speaker) for d, p in parts)
            folder.joinpath(f"{stem}.v4_{kind}_conll").write_text(text)
        folder.joinpath(f"{stem}.v4_gold_skel").write_text("not read")
    return root


# from test_download.py
def codeload_tarball(path, top, files):
    """A tarball shaped like codeload.github.com's: everything under `<repo>-<commit>/`."""
    with tarfile.open(path, "w:gz") as tar:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(f"{top}/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def offline_fetch(url, dest):
    raise urllib.error.URLError("Name or service not known")


# from test_gum.py
WORDS = ["I", "ca", "n't", "(", "see", ")", "it", ".", "He", ":)"]
NATIVE = [
    "(person-1-Sam_Jones)(object-3",
    "object-3)",
    "_",
    "(abstract-2",
    "_",
    "abstract-2)",
    "(abstract-2)",
    "_",
    "(person-1-Sam_Jones)",
    "_",
]
ONTO = ["(7)", "_", "_", "(8", "_", "8)", "(8)", "_", "(7)", "_"]


def conllu_text(doc_id, words=WORDS):
    w = list(words)
    rows = [
        f"# newdoc id = {doc_id}",
        "# sent_id = s1",
        "# speaker = Dr  Who",
        "# text = ...",
        f"1\t{w[0]}\tI\tPRON\tPRP\t_\t3\tnsubj\t_\t_",
        "2-3\tcan't\t_\t_\t_\t_\t_\t_\t_\t_",
        f"2\t{w[1]}\tcan\tAUX\tMD\t_\t5\taux\t_\t_",
        f"3\t{w[2]}\tnot\tPART\tRB\t_\t5\tadvmod\t_\t_",
        f"4\t{w[3]}\t(\tPUNCT\t-LRB-\t_\t5\tpunct\t_\t_",
        f"5\t{w[4]}\tsee\tVERB\tVB\t_\t0\troot\t_\t_",
        f"6\t{w[5]}\t)\tPUNCT\t-RRB-\t_\t5\tpunct\t_\t_",
        f"7\t{w[6]}\tit\tPRON\tPRP\t_\t5\tobj\t_\t_",
        "7.1\tsaw\tsee\tVERB\tVBD\t_\t_\t_\t5:conj\t_",
        f"8\t{w[7]}\t.\tPUNCT\t.\t_\t5\tpunct\t_\t_",
        "",
        "# sent_id = s2",
        f"1\t{w[8]}\the\tPRON\tPRP\t_\t0\troot\t_\t_",
        f"2\t{w[9]}\t:)\tSYM\tNFP\t_\t1\tdiscourse\t_\t_",
        "",
    ]
    return "\n".join(rows) + "\n"


PTB = """(ROOT
  (S
    (NP-SBJ (PRP I))
    (VP (MD ca) (RB n't)
      (PRN (-LRB- -LRB-) (VP (VB see)) (-RRB- -RRB-))
      (NP (PRP
        it)))
    (. .)))

(ROOT (FRAG (NP (PRP He)) (NFP :-RRB-)))
"""
BITS = ["(TOP(S(NP*)", "(VP*", "*", "(PRN*", "(VP*)", "*)", "(NP*))", "*))", "(TOP(FRAG(NP*)", "*))"]


def coref_text(doc_id, cells, words=WORDS):
    head = f"# begin document {doc_id}" if cells is NATIVE else "# begin document "
    return "\n".join([head] + [f"{i}\t{w}\t{c}" for i, (w, c) in enumerate(zip(words, cells))]) + "\n# end document\n"


SPLITS = [
    ("GUM_news_a", "train"),
    ("GUM_reddit_b", "train"),
    ("GUM_bio_c", "dev"),
    ("GUM_fiction_d", "test"),
    ("GENTLE_poetry_e", "test2"),
]


def tar_xz(path, files):
    with tarfile.open(path, "w:xz") as tar:
        for name, text in files.items():
            data = text.encode("utf-8")
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))


def make_gum(root, layout="shared", bad_onto=None):
    """A GUM copy with five documents; the reddit one is masked like the release."""
    root.mkdir(parents=True, exist_ok=True)
    native_dir = root / ("conll_gum_native" if layout == "shared" else "coref/gum/conll")
    onto_dir = root / ("conll_ontogum" if layout == "shared" else "coref/ontogum/conll")
    native_dir.mkdir(parents=True)
    onto_dir.mkdir(parents=True)
    dep, const = {}, {}
    for doc_id, _ in SPLITS:
        words = ["_" * len(w) for w in WORDS] if "reddit" in doc_id else WORDS
        native_dir.joinpath(f"{doc_id}.conll").write_text(coref_text(doc_id, NATIVE, words))
        onto = ONTO if doc_id != bad_onto else ["3)"] + ONTO[1:]
        onto_dir.joinpath(f"{doc_id}.conll").write_text(coref_text(doc_id, onto, words))
        dep[f"dep/{doc_id}.conllu"] = conllu_text(doc_id, words)
        ptb = PTB
        if "reddit" in doc_id:
            for w in ("I", "ca", "n't", "-LRB-", "see", "-RRB-", "it", ".", "He", ":-RRB-"):
                ptb = ptb.replace(f" {w})", " " + "_" * len(unescape_ptb(w)) + ")").replace(
                    f"\n        {w})", "\n        _)"
                )
        const[f"const/{doc_id}.ptb"] = ptb
    # GENTLE's OntoGUM file carries a bracket error like the real one; it is never read
    onto_dir.joinpath("GENTLE_poetry_e.conll").write_text(coref_text("GENTLE_poetry_e", ["3)"] + ONTO[1:]))
    if layout == "shared":
        tar_xz(root / "dep_conllu.tar.xz", dep)
        tar_xz(root / "const_ptb.tar.xz", const)
        root.joinpath("splits.tsv").write_text("doc_id\tsplit\n" + "".join(f"{d}\t{s}\n" for d, s in SPLITS))
    else:
        for name, text in {**dep, **const}.items():
            (root / name).parent.mkdir(exist_ok=True)
            (root / name).write_text(text)
        md = ["# Splits", "", "Some text.", ""]
        for split in ("dev", "test", "test2", "train"):
            md += [f"## {split}", ""] + [f"  * {d}" for d, s in SPLITS if s == split] + [""]
        root.joinpath("splits.md").write_text("\n".join(md))
    return root


# from test_litbank.py
def litbank_doc(name, sentences):
    """A LitBank CoNLL file: sentences are lists of (word, coref-cell)."""
    lines = [f"#begin document ({name}); part 0"]
    for sent in sentences:
        for i, (word, coref) in enumerate(sent):
            lines.append("\t".join([name, "0", str(i), word] + ["_"] * 8 + [coref]))
        lines.append("")
    lines.append("#end document")
    return "\n".join(lines) + "\n"


def make_litbank(root):
    conll = root / "conll"
    conll.mkdir(parents=True)
    conll.joinpath("1_alpha_brat.conll").write_text(
        litbank_doc(
            "1_alpha_brat",
            [[("Emma", "(0)"), ("saw", ""), ("her", "(1"), ("host", "1)")], [("She", "(0)"), ("left", ""), (".", "")]],
        )
    )
    conll.joinpath("2_beta_brat.conll").write_text(
        litbank_doc("2_beta_brat", [[("The", "(3"), ("old", ""), ("man", "3)")]])
    )
    conll.joinpath("3_gamma_brat.conll").write_text(litbank_doc("3_gamma_brat", [[("Rain", "")]]))
    for fold in (0, 1):
        d = root / "splits_tenfold" / str(fold)
        d.mkdir(parents=True)
        order = ["1_alpha_brat", "2_beta_brat", "3_gamma_brat"]
        if fold == 1:
            order = order[::-1]
        for split, name in zip(("train", "dev", "test"), order):
            d.joinpath(f"{split}.ids").write_text(f"{name}.tsv\n")
    return root


# from test_mentions.py (also test_candidate_mentions.py)
def conll_doc(rows, doc_id="t"):
    """rows: (word, pos, parse bit, ne, coref) per token; '' row = sentence break."""
    lines = [f"#begin document ({doc_id}); part 000"]
    i = 0
    for r in rows:
        if not r:
            lines.append("")
            i = 0
            continue
        w, p, b, n, c = r
        lines.append(f"{doc_id}\t0\t{i}\t{w}\t{p}\t{b}\t-\t-\t-\tA\t{n}\t-\t{c}")
        i += 1
    lines += ["", "#end document", ""]
    return parse_conll("\n".join(lines))[0]


# John Smith said it is likely that he saw the dog of Mary .
SENTENCE = [
    ("John", "NNP", "(TOP(S(NP*", "(PERSON*", "(1"),
    ("Smith", "NNP", "*)", "*)", "1)"),
    ("said", "VBD", "(VP*", "*", "-"),
    ("it", "PRP", "(SBAR(S(NP*)", "*", "-"),
    ("is", "VBZ", "(VP*", "*", "-"),
    ("likely", "JJ", "(ADJP*)", "*", "-"),
    ("that", "IN", "(SBAR*", "*", "-"),
    ("he", "PRP", "(S(NP*)", "*", "(1)"),
    ("saw", "VBD", "(VP*", "*", "-"),
    ("the", "DT", "(NP(NP*", "*", "(2"),
    ("dog", "NN", "*)", "*", "-"),
    ("of", "IN", "(PP*", "*", "-"),
    ("Mary", "NNP", "(NP*))))))))))", "(PERSON)", "(3)|2)"),
    (".", ".", "*))", "*", "-"),
]
