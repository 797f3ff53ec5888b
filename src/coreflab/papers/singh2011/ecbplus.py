"""ECB+ (Cybulska & Vossen 2014) entity mentions with cross-document instance ids.

The corpus ships as CAT/CROMER XML (tokens with sentence numbers, `<Markables>` anchored to
tokens, `<Relations>` with CROSS_DOC_COREF whose `note` is the instance id). For the
cross-document model (Singh et al. 2011 §2.1) a mention needs a context bag and a gold entity:
  * mentions: participant, location and time markables (HUMAN*, NON_HUMAN*, LOC*, TIME*) that are
    the source of a CROSS_DOC_COREF relation (the instance id is the gold entity);
  * context: a window of `window` tokens on each side of the mention in its document (the paper's
    context is the text around one link, "at least 36 words"), without the mention's own tokens and
    without any other entity mention's tokens (so the Person-X variant really hides the name, and
    two mentions of one sentence do not share each other's words); `window` None: the mention's
    sentence, as before; lower-cased, English stop words removed;
  * by default only the sentences listed in ECBplus_coreference_sentences.csv (README: the
    annotation is complete only there).
Read straight from the tar.xz with `tarfile` (never extracted).
"""

import csv
import tarfile
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
from sklearn.feature_extraction.text import CountVectorizer

from coreflab.errors import InputFormatError, UserError
from coreflab.papers.singh2011.data import CrossdocCorpus, tfidf_rows

ARCHIVE = "ECBplus_xml.tar.xz"
SENTENCES = "ECBplus_coreference_sentences.csv"
ENTITY_PREFIXES = ("HUMAN", "NON_HUMAN", "LOC", "TIME")
PUBLIC_SOURCE = "github.com/cltl/ECB-parser and github.com/cltl/ecbPlus at pinned commits"
XML_FOLDER = "ECB+"


def locate(local_dir, download=False, resources_dir=None, fetch=None):
    """The ECB+ folder: a local directory with the archive, or the pinned download when allowed.

    The download (`crossdoc.ecbplus_download: true`) lands in `resources/ecbplus/` as the parser
    repository's `ECB+/<topic>/<doc>.xml` files plus the sentence list; `read_ecbplus` reads that
    folder or the packed `ECBplus_xml.tar.xz` of a shared copy alike.
    """
    if local_dir:
        path = Path(local_dir)
        if (path / ARCHIVE).exists() or (path / XML_FOLDER).is_dir():
            return path
        if not download:
            raise UserError(
                f"{path}: no {ARCHIVE} there; set crossdoc.ecbplus_dir to a folder holding "
                f"{ARCHIVE} and {SENTENCES}, or set crossdoc.ecbplus_download: true to fetch it from {PUBLIC_SOURCE}"
            )
    if not download:
        raise UserError(
            f"no ECB+ folder given; set crossdoc.ecbplus_dir to a folder holding {ARCHIVE} and {SENTENCES}, "
            f"or set crossdoc.ecbplus_download: true to fetch it from {PUBLIC_SOURCE}"
        )
    from coreflab.corpus.download import DEFAULT_RESOURCES, download_corpus

    return download_corpus("ecbplus", Path(resources_dir or DEFAULT_RESOURCES) / "ecbplus", fetch=fetch)


def _xml_documents(folder):
    """{member name: XML text} from the packed archive, or from the downloaded `ECB+/` folder (same names)."""
    docs = {}
    if (folder / ARCHIVE).exists():
        with tarfile.open(folder / ARCHIVE, mode="r:xz") as tar:
            for member in tar:  # in stream order: random access into an .xz stream decompresses again
                if member.isfile() and member.name.endswith(".xml"):
                    docs[member.name] = tar.extractfile(member).read().decode("utf-8")
        return docs
    for path in sorted((folder / XML_FOLDER).glob("**/*.xml")):
        docs[path.relative_to(folder).as_posix()] = path.read_text(encoding="utf-8")
    return docs


def read_selected_sentences(path):
    """{(topic, file stem): set of sentence numbers} from the README's sentence index."""
    selected = {}
    with open(path, newline="") as fh:
        for lineno, row in enumerate(csv.reader(fh), 1):
            if lineno == 1:
                continue
            if len(row) != 3:
                raise InputFormatError(path, lineno, "expected Topic,File,Sentence Number")
            selected.setdefault((row[0], row[1]), set()).add(int(row[2]))
    return selected


CONTEXT_WINDOW = 18  # tokens each side: 36 words around a mention, the paper's least context


def parse_document(xml_text, name, window=CONTEXT_WINDOW):
    """Mentions of one XML document: list of (mention string, sentence no, context words, instance).
    Context: `window` tokens each side (document order, other entity mentions' tokens left out), or
    the mention's sentence when `window` is None."""
    try:
        root = ET.fromstring(xml_text)
    except ET.ParseError as err:
        raise InputFormatError(name, err.position[0], f"malformed ECB+ XML: {err}") from None
    tokens = {}
    sentences = {}
    for tok in root.iter("token"):
        tid, sent = int(tok.get("t_id")), int(tok.get("sentence"))
        tokens[tid] = (sent, tok.text or "")
        sentences.setdefault(sent, []).append(tid)
    instance = {}
    for rel in root.iter("CROSS_DOC_COREF"):
        for src in rel.findall("source"):
            instance[src.get("m_id")] = rel.get("note")
    markables = root.find("Markables")
    kept = []
    for mk in markables if markables is not None else []:
        anchors = [int(a.get("t_id")) for a in mk.findall("token_anchor")]
        mid = mk.get("m_id")
        if anchors and mk.tag.startswith(ENTITY_PREFIXES) and mid in instance and anchors[0] in tokens:
            kept.append((mid, anchors))
    mention_tokens = {t for _, anchors in kept for t in anchors}
    order = sorted(tokens)
    position = {t: i for i, t in enumerate(order)}
    out = []
    for mid, anchors in kept:
        sent = tokens[anchors[0]][0]
        own = set(anchors)
        if window is None:
            context = [tokens[t][1] for t in sentences[sent] if t not in own]
        else:
            lo = max(0, min(position[t] for t in anchors) - window)
            hi = max(position[t] for t in anchors) + window + 1
            context = [tokens[t][1] for t in order[lo:hi] if t not in own and t not in mention_tokens]
        text = " ".join(tokens[t][1] for t in anchors)
        out.append((text, sent, " ".join(context), instance[mid]))
    return out


def read_ecbplus(
    local_dir, restrict_sentences=True, download=False, resources_dir=None, fetch=None, window=CONTEXT_WINDOW
):
    """The ECB+ entity mentions as a `CrossdocCorpus` (whole corpus; topic ids kept for blocking);
    `window`: context tokens each side of a mention (None: its sentence)."""
    folder = locate(local_dir, download, resources_dir, fetch)
    selected = read_selected_sentences(folder / SENTENCES) if restrict_sentences else None
    docs_xml = _xml_documents(folder)
    texts, contexts, gold, docs, topics = [], [], [], [], []
    for doc_index, name in enumerate(sorted(docs_xml)):
        stem = Path(name).stem  # e.g. 3_9ecb
        topic, file_stem = stem.split("_", 1)
        keep = selected.get((topic, file_stem), set()) if selected is not None else None
        for mention, sent, context, inst in parse_document(docs_xml[name], name, window):
            if keep is not None and sent not in keep:
                continue
            texts.append(mention.lower())
            contexts.append(context)
            gold.append(inst)
            docs.append(doc_index)
            topics.append(int(topic))
    if not texts:
        raise UserError(f"{folder}: no cross-document entity mentions found in its ECB+ XML")
    counts = CountVectorizer(lowercase=True, stop_words="english", token_pattern=r"(?u)\b[a-zA-Z][a-zA-Z]+\b")
    X = tfidf_rows(counts.fit_transform(contexts))
    names, strings = np.unique(np.array(texts), return_inverse=True)
    _, gold_ids = np.unique(np.array(gold), return_inverse=True)
    return CrossdocCorpus(
        X,
        strings.astype(np.int64),
        gold_ids.astype(np.int64),
        np.array(docs, dtype=np.int64),
        np.array(topics, dtype=np.int64),
        [str(s) for s in names],
        "ecbplus",
    )
