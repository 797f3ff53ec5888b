"""GUM and OntoGUM coreference as full CoNLL-2012 documents.

GUM (Zeldes 2017, "The GUM corpus", LRE 51(3)) releases its layers separately: the
coreference CoNLL files have only `index word coref` (no sentences), the CoNLL-U files
(`dep/`) carry sentence boundaries, gold PTB tags, lemmas and `# speaker` comments, and
the PTB files (`const/`) carry constituency trees. The three share one token sequence
(268,089 tokens over 281 documents), so merging is a check-and-zip per token: any word
that disagrees is reported with file and line, never repaired silently.
OntoGUM (Zhu et al. 2021, "OntoGUM: Evaluating contextualized SOTA coreference resolution
on 12 more genres", ACL) is the same text with OntoNotes-style coreference (no singletons).

Two directory layouts are read: the layout of a shared copy (`conll_gum_native/`,
`conll_ontogum/`, `dep_conllu.tar.xz`, `const_ptb.tar.xz`, `splits.tsv`) and the layout
of the repository / coreflab's download (`coref/gum/conll/`, `coref/ontogum/conll/`,
`dep/`, `const/`, `splits.md`). Archives are read in place with `tarfile`.

The 18 `GUM_reddit_*` documents are distributed with every word masked (`_`); they are
skipped unless `include_reddit` is set, which needs a copy whose text was restored.
The GENTLE documents (split `test2`) are out-of-domain and are not part of train/dev/test.
"""

import re
import sys
import tarfile
from pathlib import Path

from coreflab.corpus.document import OPTIONAL_COLUMNS, Document
from coreflab.corpus.readers.conll import parse_conll
from coreflab.corpus.readers.conllu import parse_conllu
from coreflab.corpus.readers.ptb import parse_ptb, unescape_ptb
from coreflab.errors import InputFormatError, UserError

SCHEMES = {"gum": ("conll_gum_native", "coref/gum/conll"), "ontogum": ("conll_ontogum", "coref/ontogum/conll")}
_LAYERS = {"dep": ("dep_conllu.tar.xz", "dep", ".conllu"), "const": ("const_ptb.tar.xz", "const", ".ptb")}
_NATIVE_LABEL = re.compile(r"^[A-Za-z]+-(\d+)(?:-.*)?$")

# Known errors of the pinned release (amir-zeldes/gum @ 72ce5ac), repaired only when the user
# asks (`apply_errata`), each repair announced on stderr:
# (scheme, document, line, line as released, line repaired, why)
ERRATA = (
    (
        "ontogum",
        "GUM_news_iodine",
        381,
        "379\t\t_",
        "379\t|\t_",
        "empty word cell; the native coreference file and the CoNLL-U have '|' there",
    ),
)


def load_gum(root, splits, scheme="gum", include_reddit=False, apply_errata=False):
    """{split: [Document]} for the named splits (`train`, `dev`, `test`, `test2`).

    Documents come in the order of the split list; each carries POS (XPOS), lemma,
    speaker and parse-bit columns besides its gold clusters. A malformed document is an
    InputFormatError; `apply_errata` repairs the known ones listed in `ERRATA`.
    """
    root = Path(root)
    if scheme not in SCHEMES:
        raise UserError(f"unknown GUM scheme {scheme!r}; expected one of {sorted(SCHEMES)}")
    if not root.is_dir():
        raise UserError(f"{root}: no such directory (expected a GUM copy)")
    membership = read_splits(root)
    wanted = {}
    for split in splits:
        ids = [d for d, s in membership if s == split]
        if not ids:
            raise UserError(
                f"{root}: split {split!r} has no documents; splits are {sorted({s for _, s in membership})}"
            )
        if not include_reddit:
            ids = [d for d in ids if not d.startswith("GUM_reddit_")]
        wanted[split] = ids
    all_ids = {d for ids in wanted.values() for d in ids}
    coref_dir = _find(root, SCHEMES[scheme], "coreference CoNLL folder")
    corefs = {}  # read first: a malformed coreference file fails before the archives are unpacked
    for doc_id in sorted(all_ids):
        path = coref_dir / f"{doc_id}.conll"
        if not path.is_file():
            raise UserError(f"{path}: missing; the split list names document {doc_id!r}")
        coref = _read_coref(path, scheme, doc_id, apply_errata)
        if len(coref) != 1:
            raise InputFormatError(path, None, f"holds {len(coref)} documents; expected 1")
        corefs[doc_id] = (str(path), coref[0])
    dep = _read_layer(root, "dep", all_ids)
    const = _read_layer(root, "const", all_ids)
    out = {}
    for split, ids in wanted.items():
        docs = []
        for doc_id in ids:
            path, coref = corefs[doc_id]
            dep_source, dep_text = dep[doc_id]
            const_source, const_text = const[doc_id]
            doc = merge_layers(
                coref,
                parse_conllu(dep_text, dep_source),
                parse_ptb(const_text, const_source),
                path,
                dep_source,
                const_source,
            )
            doc.doc_id = doc_id
            if include_reddit and doc_id.startswith("GUM_reddit_") and all(set(w) == {"_"} for w in doc.words):
                raise UserError(
                    f"{path}: the words of {doc_id} are masked ('_'); restore the reddit text (see README_reddit) or leave include_reddit false"
                )
            if scheme == "gum":
                doc.cluster_labels = _native_numbers(doc.cluster_labels)
            docs.append(doc)
        out[split] = docs
    return out


def _read_coref(path, scheme, doc_id, apply_errata):
    """The coreference layer of one document, with its known erratum repaired on request."""
    text = path.read_text(encoding="utf-8")
    errata = [e for e in ERRATA if e[:2] == (scheme, doc_id)]
    if apply_errata and errata:
        lines = text.split("\n")
        for _, _, line, broken, fixed, why in errata:
            if line <= len(lines) and lines[line - 1].rstrip("\r") == broken:
                lines[line - 1] = fixed
                print(f"coreflab: {path}:{line}: repaired known erratum ({why})", file=sys.stderr)
        text = "\n".join(lines)
    try:
        return parse_conll(text, str(path), layout="index_word_coref")
    except InputFormatError as err:
        if errata and not apply_errata and err.line in {e[2] for e in errata}:
            raise InputFormatError(
                err.path,
                err.line,
                f"{err.message} [known erratum of the release: set corpora.{scheme}.apply_errata: true to repair it]",
            ) from None
        raise


def read_splits(root):
    """[(doc_id, split)] from `splits.tsv` (doc_id<TAB>split) or GUM's own `splits.md`."""
    root = Path(root)
    tsv, md = root / "splits.tsv", root / "splits.md"
    pairs = []
    if tsv.is_file():
        for lineno, line in enumerate(tsv.read_text(encoding="utf-8").splitlines(), start=1):
            if not line.strip() or (lineno == 1 and line.startswith("doc_id")):
                continue
            fields = line.split("\t")
            if len(fields) != 2:
                raise InputFormatError(tsv, lineno, f"found {len(fields)} fields; expected doc_id<TAB>split")
            pairs.append((fields[0].strip(), fields[1].strip()))
        return pairs
    if md.is_file():
        split = None
        for lineno, line in enumerate(md.read_text(encoding="utf-8").splitlines(), start=1):
            if line.startswith("## "):
                split = line[3:].strip()
            elif line.strip().startswith("* "):
                if split is None:
                    raise InputFormatError(md, lineno, "document listed before any '## <split>' heading")
                pairs.append((line.strip()[2:].strip(), split))
        return pairs
    raise UserError(f"{root}: neither splits.tsv nor splits.md found (expected a GUM copy)")


def merge_layers(coref_doc, sentences, trees, coref_source, dep_source, const_source):
    """One Document from the coreference tokens, CoNLL-U sentences and PTB trees.

    Words must agree across the layers (PTB leaves after unescaping); sentence boundaries
    and speakers come from the CoNLL-U, tags and lemmas from it too, parse bits from the
    trees (one tree per sentence).
    """
    words = coref_doc.words
    n_dep = sum(len(s.words) for s in sentences)
    if n_dep != len(words):
        raise InputFormatError(dep_source, None, f"{n_dep} words; expected {len(words)} as in {coref_source}")
    if len(trees) != len(sentences):
        raise InputFormatError(
            const_source, None, f"{len(trees)} trees; expected one per sentence of {dep_source} ({len(sentences)})"
        )
    pos, lemma, parse, speaker, ends = [], [], [], [], []
    t = 0
    for sent, tree in zip(sentences, trees):
        if len(tree.leaves) != len(sent.words):
            raise InputFormatError(
                const_source,
                tree.line,
                f"tree has {len(tree.leaves)} leaves; expected {len(sent.words)} as the sentence at {dep_source}:{sent.line}",
            )
        spk = "-" if not sent.speaker else "_".join(sent.speaker.split())
        for k, (form, leaf) in enumerate(zip(sent.words, tree.leaves)):
            if form != words[t]:
                raise InputFormatError(
                    dep_source, sent.lines[k], f"word {form!r}; expected {words[t]!r} (token {t} of {coref_source})"
                )
            if unescape_ptb(leaf) != form:
                raise InputFormatError(
                    const_source, tree.line, f"leaf {leaf!r} (word {k + 1} of this tree); expected {form!r}"
                )
            t += 1
        pos += [x if x and " " not in x else _cell(x) for x in sent.xpos]
        lemma += [x if x and " " not in x else _cell(x) for x in sent.lemmas]
        parse += tree.bits
        speaker += [spk] * len(sent.words)
        ends.append(t)
    columns = {name: None for name in OPTIONAL_COLUMNS}
    columns.update(pos=pos, parse=parse, lemma=lemma, speaker=speaker)
    return Document(
        doc_id=coref_doc.doc_id,
        part=0,
        words=words,
        sentence_ends=ends,
        columns=columns,
        args=None,
        clusters=coref_doc.clusters,
        cluster_labels=coref_doc.cluster_labels,
        source=coref_source,
    )


def _cell(value):
    return "_".join(value.split()) or "_"


def _native_numbers(labels):
    """GUM native labels `person-10-Charles_Bolden` -> `10` (the entity number), so ids are
    plain numbers as in CoNLL-2012; kept as they are if two labels would share a number."""
    numbers = [m.group(1) if (m := _NATIVE_LABEL.match(lab)) else lab for lab in labels]
    return numbers if len(set(numbers)) == len(numbers) else list(labels)


def _find(root, candidates, what):
    for rel in candidates:
        if (root / rel).is_dir():
            return root / rel
    raise UserError(f"{root}: no {what} (looked for {', '.join(candidates)})")


def _read_layer(root, layer, ids):
    """{doc_id: (source name, text)} for the wanted documents of one layer (tar.xz or folder)."""
    archive_name, folder, suffix = _LAYERS[layer]
    found = {}
    archive = root / archive_name
    if archive.is_file():
        try:
            with tarfile.open(archive, "r:*") as tar:
                for member in tar:
                    name = member.name.rsplit("/", 1)[-1]
                    if member.isfile() and name.endswith(suffix) and name[: -len(suffix)] in ids:
                        text = tar.extractfile(member).read().decode("utf-8")
                        found[name[: -len(suffix)]] = (f"{archive}:{member.name}", text)
        except (tarfile.TarError, EOFError, OSError) as err:
            raise UserError(f"{archive}: cannot read the archive ({err})") from None
        except UnicodeDecodeError:
            raise InputFormatError(archive, None, f"member {member.name} is not UTF-8") from None
    elif (root / folder).is_dir():
        for doc_id in ids:
            path = root / folder / f"{doc_id}{suffix}"
            if path.is_file():
                found[doc_id] = (str(path), path.read_text(encoding="utf-8"))
    else:
        raise UserError(f"{root}: no {archive_name} and no {folder}/ folder (the {layer} layer of GUM)")
    missing = sorted(set(ids) - set(found))
    if missing:
        where = archive if archive.is_file() else root / folder
        raise UserError(f"{where}: no {suffix} file for {len(missing)} document(s), e.g. {missing[0]}")
    return found
