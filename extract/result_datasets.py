"""Shared tasks as the data set of a result: named in a sentence ('SemEval-2017 Task 3', 'the NADI shared task'),
or in the title of a system paper ('Adullam at SemEval-2017 Task 4: ...'), where the pipeline may have typed the
name otherwise (a Task, a Metric) or not found it."""
from __future__ import annotations

import re

from spacy.tokens import Span

_SERIES = re.compile(r"\b(?:SemEval|WMT|IWSLT|CoNLL|TREC|CLEF|BioASQ|W-?NUT|NTCIR|SMM4H|BioNLP|MEDIQA|GermEval|"
                     r"EVALITA|IberLEF|FIRE|VLSP|NADI|CheckThat!?)[-‐ ]?(?:20|19)?\d\d(?:\s+(?:[Ss]hared\s+)?[Tt]asks?"
                     r"\s*\d+[A-Za-z]?)?")
_NAMED_TASK = re.compile(r"(?:\b[A-Z][\w’'\-]*\s+){1,6}(?:[Ss]hared\s+[Tt]ask|[Cc]hallenge|[Cc]ompetition)\b")
_SYSTEM_TITLE = re.compile(r"^\s*(?:[^:]{1,80}?\s(?:at|@)\s*|[^:@]{1,60}@)(?P<event>[^:]{2,80}?)\s*[:–-]\s")
_OVERVIEW_TITLE = re.compile(r"^\s*(?:Overview of (?:the )?)?(?P<event>[^:]{2,80}?)\s*:")
_YEAR = re.compile(r"(?:19|20)\d\d")
_QUOTES = "“”\"'‘’"
_PAIR_JOINS = re.compile(r"\s*(?:->|→|[-–—/]|\bto\b|\s)\s*")


def shared_task_spans(sent: Span, text: str) -> list[Span]:
    """The shared-task names of a sentence ('SemEval-2017 Task 3', 'the NADI shared task') whose text is `text`,
    as token spans."""
    doc, found = sent.doc, list[Span]()
    for pattern in (_SERIES, _NAMED_TASK):
        for match in pattern.finditer(text):
            span = doc.char_span(sent.start_char + match.start(), sent.start_char + match.end(),
                                 alignment_mode="contract")
            if span is not None and len(span) and not any(span.start < other.end and other.start < span.end
                                                          for other in found):
                found.append(span)
    return sorted(found, key=lambda span: span.start)


def title_shared_task(title: str | None, words: frozenset[str]) -> str:
    """The shared task a system paper's title names ('McRock at SemEval-2024 Task 4: ...' -> 'SemEval-2024 Task 4';
    'SemEval-2024 Task 5: ...', 'PalmX 2025: The First Shared Task ...'), '' when the title names none: after 'at'
    or '@' a name with a year or one of `words` ('task', 'shared', 'semeval', ...), before the colon of a title a
    shared task's name with a year."""
    if not title:
        return ""
    system = _SYSTEM_TITLE.match(title)
    if system:
        event = system["event"].strip(_QUOTES + " ")
        if _YEAR.search(event) or any(word in event.lower() for word in words):
            return event
    overview = _OVERVIEW_TITLE.match(title)
    if overview and _YEAR.search(overview["event"]) and (_SERIES.search(overview["event"])
                                                        or re.search(r"(?i)shared task", title)):
        return overview["event"].strip(_QUOTES + " ")
    return ""


_DATA_NAME = r"(?:[A-Z][\w\-]*\s+){0,5}[A-Z][\w\-]*\s+(?:Dataset|Corpus|Benchmark)"
# '... on Hemorica Dataset'; 'The Multilingual Microblog Translation Corpus: ...'; 'Chase: A Large-Scale and Pragmatic
# Chinese Dataset for ...'
_TITLE_DATA = (re.compile(rf"\bon\s+(?:the\s+)?(?P<name>{_DATA_NAME})\b"),
               re.compile(rf"^(?:The\s+)?(?P<name>{_DATA_NAME})\s*:"),
               re.compile(r"^(?P<name>[^:\s][^:]{0,40}?)\s*:\s+An?\s[^:]{0,60}?\b(?:Dataset|Corpus|Benchmark)\b"))


def title_dataset(title: str | None) -> str:
    """The data set a title names: a capitalised name ending in Dataset, Corpus or Benchmark after 'on' or before
    the colon ('... on Code-switched RHS Dataset', 'The Multilingual Microblog Translation Corpus: ...'), or the name
    before the colon of 'Name: A ... Dataset' ('Chase: A Large-Scale and Pragmatic Chinese Dataset for ...'); ''
    when it names none."""
    found = next((match for pattern in _TITLE_DATA if (match := pattern.search(title or ""))), None)
    return found["name"] if found else ""


def language_pair(name: str, languages: frozenset[str]) -> bool:
    """Whether a name is a language or a language pair alone ('English', 'German-English', 'En→De', 'Russian to
    Chinese'): no data set, though the pipeline may type it one."""
    parts = [part for part in _PAIR_JOINS.split(name.strip().lower()) if part]
    return bool(parts) and all(part in languages for part in parts)


def model_name(name: str, families: frozenset[str]) -> bool:
    """Whether a name starts with a model family's name ('Flan-T5', 'GPT-4o', 'Qwen2.5-VL', 'Gemma3', 'BART'): a
    model, no data set, though the pipeline may type it one."""
    lower = name.strip().lower()
    return any(lower.startswith(family) and _FAMILY_END.match(lower, len(family)) for family in families)


_FAMILY_END = re.compile(r"$|[\d\-./: ]")
_ON_WORDS = frozenset({"on", "for"})
_LIST_HEADS = frozenset({"on", "datasets", "benchmarks"})  # what a list of benchmark names follows
_LIST_GLUE = frozenset({",", "and", "or", "&"})
_AFTER_A_BENCHMARK = frozenset({",", ".", ";", ":", "and", "or", ")", "(", "dataset", "datasets", "benchmark",
                                "benchmarks", "respectively", "test", "dev", "set", "sets", "split", "while", "with",
                                "without", "compared", "in", "at", "across", "over", "than"})
_NO_BENCHMARK = re.compile(r"^[A-Z]+s$|\d(?:\.\d+)?B$")  # 'LLMs', 'MCQs'; a model's size ('LLaVA-NeXT-7B')
_BENCHMARK_SHAPE = re.compile(r"^(?=.*(?:\d|[A-Z].*[A-Z]|-))[A-Z][\w\-.+]*(?:\s[A-Z][\w\-.+]*)?$")
_WORD_SHAPE = re.compile(r"^(?=.*(?:\d|[A-Z].*[A-Z]|-))[A-Z][\w\-.+^()]*$")
_VERSION = re.compile(r"[-_ ]?[vV]?\d+(?:\.\d+)*$")
MAX_LIST = 12


def named_on(mention: Span) -> bool:
    """A mention the pipeline typed otherwise that the sentence reads as a benchmark: a name shaped like one
    ('M-OWODB', 'IEMOCAP', 'AlpacaEval2', 'Spider Dev') right after 'on' (or a sentence's first 'For'), or in a list of
    such names after 'on' or 'datasets' ('on M-OWODB and S-OWODB', 'the public datasets SIIM-ACR, EGD-CXR'), and
    before a comma, 'and', 'dataset', the sentence's end or the like ('on CS-Campus3D and ...', 'For CMU-MOSI, ...')."""
    doc = mention.doc
    before = doc[mention.start - 1].lower_ if mention.start > 0 else ""
    if before == "for" and not doc[mention.start - 1].is_sent_start:
        return False  # '61.4% for Mem0' is Mem0's figure; 'For CMU-MOSI, we ...' names the data
    if before in _LIST_GLUE:
        before = _list_head(mention)
    after = doc[mention.end].lower_ if mention.end < len(doc) else "."
    return ((before in _ON_WORDS or before in _LIST_HEADS) and after in _AFTER_A_BENCHMARK
            and bool(_BENCHMARK_SHAPE.match(mention.text)) and not _NO_BENCHMARK.search(mention.text))


def _list_head(mention: Span) -> str:
    """The word before the list of benchmark-shaped names a mention ends ('on' in 'on A, B, and C'), '' when the
    words before it are no such list."""
    doc, position = mention.doc, mention.start - 1
    floor = max(mention.sent.start, mention.start - MAX_LIST)
    while position >= floor and (doc[position].lower_ in _LIST_GLUE or doc[position].lower_ == "the"
                                 or _WORD_SHAPE.match(doc[position].text)):
        position -= 1
    return doc[position].lower_ if position >= floor else ""


def benchmark_name(name: str, ends: frozenset[str]) -> bool:
    """A one-word name ending, after a capital or a hyphen, in a benchmark's usual end ('LiveCodeBench', 'IFEval',
    'SHADE-Arena', 'ChartQA', 'AlpacaEval2'; `ends`: 'bench', 'eval', ...), a version number allowed after it."""
    name = _VERSION.sub("", name.strip())
    if not name[:1].isupper() or " " in name:
        return False
    lower = name.lower()
    return any(lower.endswith(end) and len(name) > len(end)
               and (name[-len(end)].isupper() or name[-len(end) - 1] == "-") for end in ends)
