"""The parts of a CoNLL-U file that CoNLL-2012 documents need: sentences, lemma, XPOS, speaker.

GUM's dependency layer (`dep/*.conllu`, Universal Dependencies format,
https://universaldependencies.org/format.html) is where its sentence boundaries, gold PTB
part-of-speech tags (XPOS), lemmas and per-sentence `# speaker = ...` comments live. Only
syntactic words are kept: multiword-token ranges (`5-6`) and empty nodes (`27.1`) are not
tokens of the coreference layer, so they are skipped.
"""

from dataclasses import dataclass, field

from coreflab.errors import InputFormatError


@dataclass
class ConlluSentence:
    """One sentence: parallel per-word lists (with each word's line), the speaker comment
    (or None) and the line of its first word."""

    words: list = field(default_factory=list)
    lemmas: list = field(default_factory=list)
    upos: list = field(default_factory=list)
    xpos: list = field(default_factory=list)
    lines: list = field(default_factory=list)
    speaker: str | None = None
    line: int = 0


def parse_conllu(text, source="<string>"):
    """The sentences of a CoNLL-U text, in order; malformed lines raise InputFormatError."""
    sentences = []
    current = ConlluSentence()
    pending_speaker = None
    for lineno, line in enumerate(text.split("\n"), start=1):
        line = line.rstrip("\r")
        if not line.strip():
            if current.words:
                sentences.append(current)
                current = ConlluSentence()
            pending_speaker = None
            continue
        if line.startswith("#"):
            key, sep, value = line[1:].partition("=")
            if sep and key.strip() == "speaker":
                pending_speaker = value.strip()
            continue
        fields = line.split("\t")
        if len(fields) != 10:
            raise InputFormatError(source, lineno, f"found {len(fields)} tab-separated fields; expected 10 (CoNLL-U)")
        tid = fields[0]
        if "-" in tid or "." in tid:
            continue  # multiword range or empty node: not a token of the coreference layer
        if not tid.isdigit():
            raise InputFormatError(
                source, lineno, f"token id {tid!r}; expected an integer, a range 'N-M' or an empty node 'N.M'"
            )
        if int(tid) != len(current.words) + 1:
            raise InputFormatError(
                source, lineno, f"token id {tid}; expected {len(current.words) + 1} (ids count from 1 in each sentence)"
            )
        if not current.words:
            current.line = lineno
            current.speaker = pending_speaker
        current.words.append(fields[1])
        current.lemmas.append(fields[2])
        current.upos.append(fields[3])
        current.xpos.append(fields[4])
        current.lines.append(lineno)
    if current.words:
        sentences.append(current)
    return sentences
