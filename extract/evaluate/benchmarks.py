"""Readers of the public entity benchmarks (SciERC, TDMSci, SciER) into one common form, for
scoring (`paperkg eval entities`) and for building the training corpus (extract/training/).

A `Record` is one document: a SciERC abstract, a TDMSci sentence, a SciER train sentence or a
SciER dev paper, with its tokens, trailing-space flags, sentence starts and gold spans in the
source's own labels (token offsets, end exclusive), plus regions whose annotation is unknown.
"""
from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path

from spacy.tokens import Doc
from spacy.vocab import Vocab

from paperkg.core.errors import PaperkgError

FORMATS = ("scierc", "tdmsci", "scier")
SCIERC_LABELS = ("Task", "Method", "Metric", "Material", "OtherScientificTerm", "Generic")
TDMSCI_LABELS = {"TASK": "Task", "DATASET": "Dataset", "METRIC": "Metric"}
# SciERC writes brackets and quotes as Penn Treebank escapes; real text has the characters.
PTB_ESCAPES = {"-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-LCB-": "{", "-RCB-": "}",
               "``": '"', "''": '"'}
TDMSCI_DEV_PERCENT = 20
_NO_SPACE_BEFORE = {",", ".", ";", ":", ")", "]", "}", "%", "'s", "n't", "?", "!"}
_NO_SPACE_AFTER = {"(", "[", "{"}


@dataclass
class Record:
    """One benchmark document with its gold spans (source labels, token offsets, end exclusive)."""

    source: str
    key: str
    words: list[str]
    spaces: list[bool]
    sent_starts: list[bool]
    spans: list[tuple[int, int, str]]
    missing: list[tuple[int, int]] = field(default_factory=list)

    def doc(self, vocab: Vocab) -> Doc:
        """A Doc on the record's own tokens and sentence starts, without annotation."""
        return Doc(vocab, words=self.words, spaces=self.spaces,
                   sent_starts=self.sent_starts)  # type: ignore[arg-type]  # spaCy types it List[bool | int | None]


def read_benchmark(fmt: str, path: Path, split: str | None = None, limit: int = 0) -> list[Record]:
    """The records of a benchmark file (the first `limit` when > 0, read no further); TDMSci takes
    `split` ("train", "dev": its held-out part, None: all). One sentence naming the file and line
    when the file is not in that layout."""
    if fmt not in FORMATS:
        raise PaperkgError(f"--format must be one of {', '.join(FORMATS)}, not {fmt!r}.")
    if not path.is_file():
        raise PaperkgError(f"{path}: no such file.")
    readers = {"scierc": read_scierc, "tdmsci": lambda p: read_tdmsci(p, split), "scier": read_scier}
    try:
        return list(islice(readers[fmt](path), limit or None))
    except (ValueError, KeyError, TypeError, IndexError) as error:
        raise PaperkgError(f"{path} is not a {fmt} file: {error}") from None
    except UnicodeDecodeError as error:
        raise PaperkgError(f"{path} is not UTF-8 text (byte {error.start}).") from None


def _json_records(path: Path, record: Callable[[dict, int], Record]) -> Iterator[Record]:
    """`record(item, line number)` for every non-blank JSON line; a line that does not parse, or
    lacks what `record` reads, raises ValueError naming its number."""
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                yield record(json.loads(line), number)
            except (ValueError, KeyError, TypeError) as error:
                raise ValueError(f"line {number}: {error}") from None


def read_scierc(path: Path) -> Iterator[Record]:
    """SciERC JSON lines: one record per abstract, PTB escapes undone, labels as given."""
    def record(item: dict, number: int) -> Record:
        sentences = [[PTB_ESCAPES.get(str(w), str(w)) for w in s] for s in item["sentences"]]
        spans = [(int(a), int(b) + 1, str(label)) for sent in item["ner"] for a, b, label in sent]
        words = [w for s in sentences for w in s]
        starts = [i == 0 for s in sentences for i in range(len(s))]
        return Record("scierc", str(item.get("doc_key", f"{path.name}:{number}")), words,
                      guess_spaces(words), starts, spans)

    return _json_records(path, record)


def read_tdmsci(path: Path, split: str | None = None) -> Iterator[Record]:
    """TDMSci CoNLL (token, character offset, BIO label): one record per sentence."""
    rows: list[list[str]] = []
    number = 0
    with path.open(encoding="utf-8") as lines:
        for line_number, line in enumerate([*lines, ""], 1):
            if line.strip():
                rows.append(line.rstrip("\n").split("\t"))
                if len(rows[-1]) != 3:
                    raise ValueError(f"line {line_number}: expected token<TAB>offset<TAB>label")
                continue
            if rows:
                number += 1
                record = _tdmsci_sentence(rows, f"{path.name}:{number}")
                rows = []
                if split is None or tdmsci_split(record.words) == split:
                    yield record


def _tdmsci_sentence(rows: list[list[str]], key: str) -> Record:
    words = [r[0] for r in rows]
    offsets = [int(r[1]) for r in rows]
    spaces = [offsets[i] + len(words[i]) < offsets[i + 1] for i in range(len(words) - 1)] + [False]
    spans, start, label = [], None, ""
    for i, tag in enumerate([r[2] for r in rows] + ["O"]):
        if start is not None and not (tag.startswith("I-") and tag[2:] == label):
            spans.append((start, i, TDMSCI_LABELS[label]))
            start = None
        if tag.startswith("B-") or (tag.startswith("I-") and start is None):
            start, label = i, tag[2:]
    return Record("tdmsci", key, words, spaces, [i == 0 for i in range(len(words))], spans)


def tdmsci_split(words: list[str]) -> str:
    """"dev" for about 20% of TDMSci sentences (the first 8 hex digits of the SHA-1 of the
    space-joined tokens, modulo 100, below 20), else "train": TDMSci has no dev split of its own."""
    digest = hashlib.sha1(" ".join(words).encode("utf-8")).hexdigest()
    return "dev" if int(digest[:8], 16) % 100 < TDMSCI_DEV_PERCENT else "train"


def read_scier(path: Path) -> Iterator[Record]:
    """SciER JSON lines, either layout: train (one sentence a line, mention strings)
    or dev (one paper a line with doc_tokens, sentences and inclusive token spans)."""
    return _json_records(path, lambda item, number: _scier_paper(item) if "doc_tokens" in item
                         else _scier_sentence(item, f"{item.get('doc_id', path.name)}:{number}"))


def _scier_paper(item: dict) -> Record:
    words = [str(w) for w in item["doc_tokens"]]
    starts = [False] * len(words)
    offset = 0
    for sentence in item["sentences"]:
        if offset < len(words):
            starts[offset] = True
        offset += len(sentence)
    spans = [(int(a), int(b) + 1, str(label)) for sent in item["ner"] for a, b, label in sent]
    return Record("scier", str(item["doc_id"]), words, guess_spaces(words), starts, spans)


def _space_split(text: str) -> list[str]:
    """Tokens joined by single spaces; a whitespace token (a run of spaces) becomes one " " token."""
    out: list[str] = []
    for piece in text.split(" "):
        if piece:
            out.append(piece)
        elif not out or out[-1] != " ":
            out.append(" ")
    while out and out[-1] == " ":
        out.pop()
    while out and out[0] == " ":
        out.pop(0)
    return out


def _scier_sentence(item: dict, key: str) -> Record:
    """Locate the mention strings in the sentence: longest first, an occurrence may not overlap a
    longer mention; a string found more often than it is listed is ambiguous, and all its free
    occurrences are marked missing."""
    words = _space_split(item["sentence"])
    wanted = Counter((tuple(_space_split(m)), label) for m, label in item["ner"])
    taken: set[int] = set()
    spans: list[tuple[int, int, str]] = []
    missing: list[tuple[int, int]] = []
    for (mention, label), count in sorted(wanted.items(), key=lambda kv: (-len(kv[0][0]), kv[0])):
        m = list(mention)
        found = [i for i in range(len(words) - len(m) + 1)
                 if words[i:i + len(m)] == m and not taken & set(range(i, i + len(m)))]
        if len(found) > count:
            missing.extend((i, i + len(m)) for i in found)
        else:
            spans.extend((i, i + len(m), label) for i in found)
        for i in found:
            taken |= set(range(i, i + len(m)))
    return Record("scier", key, words, guess_spaces(words), [i == 0 for i in range(len(words))],
                  sorted(spans), sorted(missing))


def guess_spaces(words: list[str]) -> list[bool]:
    """Trailing-space flags for benchmarks that give only tokens: no space before closing
    punctuation or after an opening bracket, none around a hyphen between word tokens
    ("domain - specific" was "domain-specific"), none between single digits (SciER splits
    "2014" into "2 0 1 4"); a guess, so that the text reads like real text."""
    spaces = []
    for i, word in enumerate(words):
        nxt = words[i + 1] if i + 1 < len(words) else None
        if nxt is None or nxt in _NO_SPACE_BEFORE or word in _NO_SPACE_AFTER or word.isspace() or nxt.isspace():
            spaces.append(False)
        elif (nxt == "-" and word[-1:].isalnum()) or (word == "-" and nxt[:1].isalnum()
                                                      and i > 0 and words[i - 1][-1:].isalnum()):
            spaces.append(False)
        else:
            spaces.append(not (len(word) == 1 and word.isdigit() and len(nxt) == 1 and nxt.isdigit()))
    return spaces
