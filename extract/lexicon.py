"""Lexicon entities: a PhraseMatcher over the term lists lexicon/{method,task,dataset,metric}.txt."""
from __future__ import annotations

from dataclasses import dataclass

from spacy.language import Language
from spacy.matcher import PhraseMatcher
from spacy.tokens import Doc, Span

from paperkg.core.schema import NodeLabel
from paperkg.core.words import plural_forms

from .resources import DataComponent, DataFiles
from .words import version_after

LEXICON_FILES = {NodeLabel.METHOD.value: "lexicon/method.txt", NodeLabel.TASK.value: "lexicon/task.txt",
                 NodeLabel.DATASET.value: "lexicon/dataset.txt", NodeLabel.METRIC.value: "lexicon/metric.txt"}
SPANS_KEY = "lexicon"  # the default of the spans_key setting


@dataclass(frozen=True)
class LexiconEntry:
    """One lexicon term: its type, canonical name and the acronym among its aliases, if any."""

    label: str
    canonical: str
    acronym: str | None


def lexicon_entries(data: DataFiles, files: dict[str, str]) -> dict[str, list[tuple[str, LexiconEntry]]]:
    """Map each label to (surface form, entry) pairs, plural forms included."""
    lexicon: dict[str, list[tuple[str, LexiconEntry]]] = {}
    for label, name in files.items():
        pairs = lexicon.setdefault(label, [])
        for row in data.table(name):
            canonical = row[0]
            aliases = [a.strip() for a in row[1].split("|")] if len(row) > 1 and row[1] else []
            acronym = next((a for a in aliases if _is_acronym(a, canonical)), None)
            entry = LexiconEntry(label, canonical, acronym)
            for surface in [canonical, *aliases]:
                for form in sorted({surface, *plural_forms(surface)}):
                    pairs.append((form, entry))
    return lexicon


def _is_acronym(text: str, canonical: str) -> bool:
    """An alias is the acronym of a multi-word name when it is one word of mostly capitals (LLM, mAP)."""
    letters = [c for c in text if c.isalpha()]
    capitals = sum(c.isupper() for c in letters)
    return " " in canonical and " " not in text and capitals >= 2 and capitals * 2 >= len(letters)


class LexiconMatcher(DataComponent):
    """Finds lexicon terms into doc.spans: label = type, kb_id = canonical name, id = its acronym.

    Lower-case terms match any case; terms with capitals (CIFAR-10, BLEU) match exactly. A data
    set followed by its version or year ('BraTS 2023', 'Common Voice 16') is that release.
    """

    def __init__(self, nlp: Language, name: str, files: dict[str, str], spans_key: str) -> None:
        super().__init__(name, files.values())
        self.nlp = nlp
        self.label_files = dict(files)
        self.spans_key = spans_key
        self.entries: dict[int, LexiconEntry] = {}
        self.exact = PhraseMatcher(nlp.vocab, attr="ORTH")
        self.caseless = PhraseMatcher(nlp.vocab, attr="LOWER")

    def build(self, data: DataFiles) -> None:
        self.entries = {}
        self.exact = PhraseMatcher(self.nlp.vocab, attr="ORTH")
        self.caseless = PhraseMatcher(self.nlp.vocab, attr="LOWER")
        for label, pairs in sorted(lexicon_entries(data, self.label_files).items()):
            for surface, entry in pairs:
                key = f"{label}|{entry.canonical}"
                self.entries[self.nlp.vocab.strings.add(key)] = entry
                matcher = self.caseless if surface == surface.lower() else self.exact
                matcher.add(key, [self.nlp.make_doc(surface)])

    def process(self, doc: Doc) -> Doc:
        spans = []
        for matcher in (self.exact, self.caseless):
            for match_id, start, end in matcher(doc):
                entry = self.entries[match_id]
                version = version_after(doc, end) if entry.label == NodeLabel.DATASET.value else 0
                canonical = doc[start:end + version].text if version else entry.canonical
                spans.append(Span(doc, start, end + version, label=entry.label, kb_id=canonical,
                                  span_id=entry.acronym or ""))
        doc.spans[self.spans_key] = sorted(spans, key=lambda s: (s.start, -len(s), s.label_))
        return doc


@Language.factory("paperkg_lexicon", assigns=["doc.spans"],
                  default_config={"files": LEXICON_FILES, "spans_key": SPANS_KEY})
def make_lexicon_matcher(nlp: Language, name: str, files: dict[str, str], spans_key: str) -> LexiconMatcher:
    """Factory: `files` maps a label to its term list among the component's data files; `spans_key`
    names the span group written."""
    return LexiconMatcher(nlp, name, files, spans_key)
