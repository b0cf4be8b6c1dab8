"""Training corpora for the types head: the three benchmarks in paperkg's types, as DocBin files.

paperkg's types are Method, Task, Dataset, Metric; each source annotates only some of them:

  source   annotates                                   unannotated
  scierc   Method, Task, Metric, Dataset*               -     (*Material only where it names a data set)
  tdmsci   Task, Dataset, Metric                        Method
  scier    Method, Task, Dataset                        Metric

Why partial annotation: in a naive union every unannotated token is O, so TDMSci teaches that a
Method is O and SciER that "accuracy" is O. spaCy's NER gives no loss at a token whose BILUO tag is
missing, for any label, so marking every unknown token missing would also throw away the source's
O evidence for its own labels. Instead (policy "teacher") only the tokens that a teacher model,
trained on the sources that do annotate the label, tags with it are missing; every other token is O.
Policy "naive" (every unannotated token O) builds the teachers' own corpora.

Conventions (kept from the experiments that chose this recipe, docs/guides/training.md):
* A gold span ending in "( ACR )" is split into the name and the acronym with the same label, as
  paperkg writes them (TDMSci writes one span, SciERC mostly one, SciER two).
* SciERC Material becomes Dataset only where it names a data set (`names_a_dataset`); other
  Materials are missing (O under "naive"); OtherScientificTerm and Generic are O.
* Of overlapping spans the longer (then the earlier) is kept; the benchmark's own tokens are kept.
* Dev docs carry the benchmark's own gold (SciERC's acronym pairs split, as it is scored).

A doc carries its gold in doc.spans["types"], unknown regions in doc.spans["types_missing"] (read by
`paperkg_span_ner`), and its source and key in user_data (read by the types scorer).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from spacy.tokens import Doc, DocBin, Span
from spacy.vocab import Vocab

from paperkg.extract.evaluate.benchmarks import Record, read_benchmark
from paperkg.extract.evaluate.entities import split_acronym_pair
from paperkg.extract.span_ner import TYPES_KEY

TYPES = ("Method", "Task", "Dataset", "Metric")
SOURCES = ("scierc", "tdmsci", "scier")
ANNOTATED = {"scierc": frozenset({"Method", "Task", "Metric", "Dataset"}),
             "tdmsci": frozenset({"Task", "Dataset", "Metric"}),
             "scier": frozenset({"Method", "Task", "Dataset"})}
MISSING_KEY = TYPES_KEY + "_missing"
# The benchmark files of each split (TDMSci has one file; its dev part is held out by a hash).
FILES = {("train", "scierc"): ("scierc/train.json", None), ("train", "tdmsci"): ("tdmsci/train.conll", "train"),
         ("train", "scier"): ("scier/train.jsonl", None), ("dev", "scierc"): ("scierc/dev.json", None),
         ("dev", "tdmsci"): ("tdmsci/train.conll", "dev"), ("dev", "scier"): ("scier/dev.jsonl", None)}
LANGUAGES = frozenset("""English Japanese Czech French Arabic Dutch Bulgarian Chinese Finnish Korean German
Spanish Italian Portuguese Russian Hindi Turkish Turk-ish Swedish Danish Greek Hebrew Urdu Persian
Slavic Hungarian Polish Romanian Catalan Basque Thai Vietnamese Indonesian Malay Tamil Bengali
Mandarin Cantonese Latin European Asian American British Web""".split())
RESOURCE_NAMES = frozenset({"wordnet", "propbank", "framenet"})

Spans = list[tuple[int, int, str]]
Teacher = Mapping[tuple[str, str], Spans]  # (source, key) -> teacher spans of the labels it lacks


def records(benchmarks: Path, split: str, source: str, limit: int = 0) -> list[Record]:
    """A split of one source's records (the first `limit` when limit > 0)."""
    name, tdmsci_split = FILES[(split, source)]
    return read_benchmark(source, benchmarks / name, tdmsci_split, limit)


def names_a_dataset(words: list[str], at_sentence_start: bool) -> bool:
    """SciERC Material that names a data set: a capital letter that is not a language name or a
    sentence-initial capital ("Penn WSJ corpus"), or a known resource ("WordNet")."""
    tokens = [w for w in words if w not in "()[]"]
    if any(any(c.isupper() for c in w) and w not in LANGUAGES and not (i == 0 and at_sentence_start and w[1:].islower())
           for i, w in enumerate(tokens)):
        return True
    return bool(tokens) and tokens[-1].lower() in RESOURCE_NAMES


def non_overlapping(spans: Iterable[tuple[int, int, str]]) -> Spans:
    """Of overlapping spans keep the longer (then the earlier), in document order."""
    kept: Spans = []
    taken: set[int] = set()
    for s, e, label in sorted(set(spans), key=lambda x: (x[0] - x[1], x[0])):
        if not taken & set(range(s, e)):
            kept.append((s, e, label))
            taken |= set(range(s, e))
    return sorted(kept)


def types_gold(record: Record, policy: str, teacher: Teacher | None = None,
               split_acronyms: bool = True) -> tuple[Spans, list[tuple[int, int]]]:
    """The record's gold in paperkg's types and its unknown regions (maximal runs of missing tokens).
    policy "naive": every token outside a gold span is O; "teacher": teacher-tagged tokens of a label
    the source does not annotate are missing, as are SciERC's non-data-set Materials."""
    spans: Spans = []
    missing = list(record.missing)
    for start, end, label in record.spans:
        if record.source != "scierc" or label in ("Method", "Task", "Metric"):
            spans.append((start, end, label))
        elif label == "Material":
            if names_a_dataset(record.words[start:end], record.sent_starts[start]):
                spans.append((start, end, "Dataset"))
            elif policy != "naive":
                missing.append((start, end))
    if split_acronyms:
        spans = [piece for span in spans for piece in split_acronym_pair(*span, record.words)]
    spans = non_overlapping(spans)
    lacking = set(TYPES) - ANNOTATED[record.source]
    if policy == "teacher" and lacking and teacher is not None:
        covered = {i for s, e, _ in spans for i in range(s, e)}
        missing += [(s, e) for s, e, label in teacher.get((record.source, record.key), [])
                    if label in lacking and not covered & set(range(s, e))]
    covered = {i for s, e, _ in spans for i in range(s, e)}
    runs: list[tuple[int, int]] = []  # spaCy wants disjoint spans: maximal runs of unknown tokens
    for i in sorted({i for s, e in missing for i in range(s, e)} - covered):
        if runs and runs[-1][1] == i:
            runs[-1] = (runs[-1][0], i + 1)
        else:
            runs.append((i, i + 1))
    return spans, runs


def training_doc(vocab: Vocab, record: Record, spans: Spans, missing: list[tuple[int, int]]) -> Doc:
    """A Doc on the record's tokens with the types gold, the unknown regions, source and key."""
    doc = record.doc(vocab)
    doc.spans[TYPES_KEY] = [Span(doc, s, e, label=label) for s, e, label in spans]
    doc.spans[MISSING_KEY] = [Span(doc, s, e, label="MISSING") for s, e in missing]
    doc.user_data["source"] = record.source
    doc.user_data["key"] = record.key
    return doc


def write_corpus(benchmarks: Path, out_dir: Path, policy: str, teacher: Teacher | None = None,
                 train_sources: Iterable[str] = SOURCES, limit: int = 0) -> dict[str, int]:
    """Write out_dir/train/SOURCE.spacy for the train sources and out_dir/dev/SOURCE.spacy for all three
    (the first `limit` records of each when limit > 0); returns the documents written per split/source."""
    vocab = Vocab()
    counts = {}
    for split, sources in (("train", tuple(train_sources)), ("dev", SOURCES)):
        for source in sources:
            docs = DocBin(attrs=["ORTH", "SENT_START"], store_user_data=True)
            for record in records(benchmarks, split, source, limit):
                if split == "train":
                    spans, missing = types_gold(record, policy, teacher)
                else:
                    spans, missing = types_gold(record, "naive", split_acronyms=source == "scierc")
                docs.add(training_doc(vocab, record, spans, missing))
            path = out_dir / split / f"{source}.spacy"
            path.parent.mkdir(parents=True, exist_ok=True)
            docs.to_disk(path)
            counts[f"{split}/{source}"] = len(docs)
    return counts
