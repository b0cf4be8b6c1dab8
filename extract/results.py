"""spaCy component `paperkg_results`: the results an abstract reports, as a span group of their values
(doc.spans["results"] by default) and the records behind it (doc._.paperkg_results, extensions.py).

Per sentence with a digit: its value expressions (result_values.py); a trained model says which are results
(a number that is a sample size, a year, a model size or a setting is not) and another which are changes
('by 2.1 points') rather than levels reached; then rules give each its metric phrase (result_metrics.py), data
set, method, comparison, task and split from the words between them and the pipeline's entity mentions
(doc.spans["entities"]; result_parts.py). The method is the paper's own unless the sentence gives the value to
another by name.
"""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator
from typing import Any

from spacy.attrs import SENT_START, SHAPE
from spacy.language import Language
from spacy.matcher import PhraseMatcher
from spacy.tokens import Doc, Span, SpanGroup

from paperkg.core.schema import NodeLabel

from .entities import SPANS_KEY as ENTITIES_KEY
from .extensions import ResultRecord, register_extensions
from .linear_model import LinearModel
from .resources import DataComponent, DataFiles
from .result_context import SentenceContext, SentenceTokens, value_features, value_run
from .result_cues import ResultCues
from .result_datasets import (benchmark_name, language_pair, model_name, named_on, shared_task_spans, title_dataset,
                              title_shared_task)
from .result_metrics import metric_phrases
from .result_refusals import refused
from .result_parts import attach_comparison, attach_dataset, attach_method, attach_metric, sentence_split
from .result_values import Value, find_values

SPANS_KEY = "results"  # the default of the spans_key setting
RESULT_FILES = {"cues": "results/cues.json", "metrics": "results/metrics.txt",
                "generic_metrics": "results/generic_metrics.txt", "models": "results/models.json",
                "languages": "results/languages.txt", "model_families": "results/model_families.txt"}
_DIGIT = re.compile(r"\d")
_NAMED_LABELS = (NodeLabel.METHOD.value, NodeLabel.DATASET.value)
_EQUALS = re.compile(r"(?<![\w@.\-])([A-Za-z][\w@.\-]*)\s?[=:]\s?$")
Part = tuple[int, int, int]  # (start, end, entity index) of a result's metric, data set, method or task; -1: none
_POINTS = re.compile(r"\s*(?:-\s*)?(?:points?|pp|percentage points?|pts?)\b", re.IGNORECASE)


class ResultFinder(DataComponent):
    """Writes the results span group and doc._.paperkg_results."""

    def __init__(self, nlp: Language, name: str, files: dict[str, str], threshold: float | None,
                 entities_key: str, spans_key: str) -> None:
        super().__init__(name, files.values())
        register_extensions()
        self.nlp = nlp
        self.file_names = dict(files)
        self.threshold = threshold  # None: the result model's own
        self.entities_key = entities_key
        self.spans_key = spans_key
        self._digit_shapes: dict[int, bool] = {}  # word shape id -> whether it has a digit

    def build(self, data: DataFiles) -> None:
        names = self.file_names
        self.cues = ResultCues.from_data(data, names["cues"])
        self.matcher = PhraseMatcher(self.nlp.vocab, attr="LOWER")
        self.matcher.add("METRIC", [self.nlp.make_doc(line) for line in data.lines(names["metrics"])])
        models = data.json(names["models"])
        self.result_model = LinearModel.from_dict(models["result"])
        self.change_model = LinearModel.from_dict(models["change"])
        self.generic_metrics = frozenset(data.words(names["generic_metrics"]))
        self.metric_words = data.words(names["metrics"])
        self.languages = data.words(names["languages"])
        self.model_families = data.words(names["model_families"])
        self.modifier_stops = (self.cues.metric_stops | self.cues.result_verbs | self.cues.compare_words
                               | self.cues.comparatives)

    def process(self, doc: Doc) -> Doc:
        records: list[ResultRecord] = []
        spans: list[Span] = []
        numbered = self._numbered_sentences(doc)
        if numbered:
            paper = _Paper(doc, self.entities_key, self.cues)
            for position, sent in numbered:
                found = list(self._sentence_results(doc, position, sent, paper, _last_metric(records)))
                spans += [span for span, _ in found]
                records += [record for _, record in found]
        doc.spans[self.spans_key] = SpanGroup(doc, name=self.spans_key, spans=spans)
        doc._.paperkg_results = records
        return doc

    def _numbered_sentences(self, doc: Doc) -> list[tuple[int, Span]]:
        """(position, sentence) of the sentences with a digit, found from the tokens' shapes ('dd.d', 'Xxx-d': no
        Token or Span is made for the others, and most sentences state no number)."""
        digits = self._digit_shapes
        numbered = [i for i, shape in enumerate(doc.to_array(SHAPE).tolist())
                    if digits.get(shape) or (shape not in digits and self._note_shape(shape))]
        if not numbered:
            return []
        starts = [i for i, start in enumerate(doc.to_array(SENT_START).tolist()) if start == 1] or [0]
        found: dict[int, Span] = {}
        for token in numbered:
            position = bisect_right(starts, token) - 1
            if position not in found:
                end = starts[position + 1] if position + 1 < len(starts) else len(doc)
                found[position] = doc[starts[position]:end]
        return sorted(found.items())

    def _note_shape(self, shape: int) -> bool:
        """Whether a word shape has a digit ('d'), remembered by its id (shapes are few)."""
        self._digit_shapes[shape] = has = "d" in self.nlp.vocab.strings[shape]
        return has

    def context(self, doc: Doc, position: int, sent: Span, entities: list[Span]) -> SentenceContext | None:
        """The sentence as the models read it: its values, metric phrases and typed mentions (None: no value)."""
        words = SentenceTokens.read(sent)
        named = [(e.start_char, e.end_char) for e in entities if e.label_ in _NAMED_LABELS + (NodeLabel.TASK.value,)]
        values = [value for value in find_values(words.text, sent.start_char) if not _in_name(value, named)]
        if not values:
            return None
        value_spans = [_token_span(doc, v.start, v.end) for v in values]
        data = [e for e in entities if self.names_data(e)]
        metrics = metric_phrases(words, self.matcher, [e for e in entities if e.label_ == NodeLabel.METRIC.value
                                                       and e not in data],
                                 self.modifier_stops, [(s.start, s.end) for s in value_spans], self.generic_metrics,
                                 [e for e in entities if e.label_ in _NAMED_LABELS])
        datasets = [self._with_variant(e) for e in data
                    if not any(e.start < m.end and m.start < e.end for m in metrics)
                    and not any(e.start < v.end and v.start < e.end for v in value_spans)]
        datasets += [span for span in shared_task_spans(sent, words.text)
                     if not any(span.start < d.end and d.start < span.end for d in datasets)]
        return SentenceContext(words, position, values, value_spans, metrics, entities,
                               sorted(datasets, key=lambda span: span.start))

    def names_data(self, mention: Span) -> bool:
        """Whether an entity mention names a data set: one typed Dataset; one typed Method named like a benchmark
        ('LiveCodeBench', 'SHADE-Arena'); a benchmark-shaped name in the place of one ('on M-OWODB and S-OWODB', 'For
        CMU-MOSI, ...') the pipeline typed a Method (not the paper's own) or a Metric (no metric's name); no language
        or language pair alone, no model ('Flan-T5')."""
        label = mention.label_
        if label == NodeLabel.METHOD.value:
            named = benchmark_name(mention.text, self.cues.benchmark_ends) or (
                not mention._.paperkg_proposed and named_on(mention))
        elif label == NodeLabel.METRIC.value:
            named = mention.text.lower() not in self.metric_words and named_on(mention)
        else:
            named = label == NodeLabel.DATASET.value
        return named and not language_pair(mention.text, self.languages) \
            and not model_name(mention.text, self.model_families)

    def _with_variant(self, mention: Span) -> Span:
        """A data set's mention with the variant written after it ('LiveCodeBench Pro', 'SWE-bench Verified')."""
        doc = mention.doc
        if mention.end < len(doc) and doc[mention.end].text[:1].isupper() and \
                doc[mention.end].lower_ in self.cues.benchmark_variants:
            return doc[mention.start:mention.end + 1]
        return mention

    def _sentence_results(self, doc: Doc, position: int, sent: Span, paper: _Paper,
                          before: Part) -> Iterator[tuple[Span, ResultRecord]]:
        entities = paper.in_sentence(sent)
        ctx = self.context(doc, position, sent, entities)
        if ctx is None:
            return
        threshold = self.result_model.threshold if self.threshold is None else self.threshold
        split = sentence_split(ctx, self.cues)
        tasks = ctx.of_label(NodeLabel.TASK.value)
        features = [value_features(ctx, k, self.cues) for k in range(len(ctx.values))]
        confidences = [self.result_model.probability(found) for found in features]
        ctx.results = [k for k, confidence in enumerate(confidences) if confidence >= threshold
                       and not refused(ctx, k, self.cues)]
        changes = {k: self.change_model.probability(features[k]) for k in ctx.results}
        for k in ctx.results:
            value, confidence = ctx.values[k], confidences[k]
            run = value_run(ctx, k)  # a list of values is of one kind ('by 7.6 and 8.4 BLEU', '5.7% and 3.4% gains')
            change = value.text.startswith("+") or sum(changes[j] for j in run) / len(run) >= \
                self.change_model.threshold  # '+14.6%' is a change, whatever the words around it
            unit = "points" if not value.unit and _POINTS.match(ctx.after(value.end, 30)) else value.unit
            metric = self._equals_metric(ctx, value.start) or paper.part(attach_metric(ctx, k))
            if metric[0] < 0:
                metric = before  # the last metric reported ('... BLEU', then 'a relative gain of 21%')
            dataset = attach_dataset(ctx, k) or paper.own_dataset or paper.earlier_dataset(sent, self.names_data)
            named = attach_method(ctx, k, self.cues)
            method = named or (None if value.start_of_move else paper.own_method)
            task = min(tasks, key=lambda t: abs(t.start - ctx.spans[k].start)) if tasks else paper.main_task
            comparison = attach_comparison(ctx, k, self.cues)
            record = ResultRecord(
                value.start, value.end, value.value, unit, "change" if change else "absolute",
                self._relative(ctx, k, change), self._direction(ctx, k) if change else "", split,
                named is None and not value.start_of_move, round(confidence, 4),
                *metric, *paper.part(dataset), *paper.part(method), *paper.part(task), *_chars(comparison),
                "" if dataset else paper.title_task or paper.title_data)
            yield ctx.spans[k], record

    def _equals_metric(self, ctx: SentenceContext, start: int) -> Part | None:
        """The metric written glued before the value with '=' or ':' ('FID=5.31', 'mAP@0.5=0.78'), if any."""
        before = ctx.before(start, 40)
        found = _EQUALS.search(before)
        if found is None or not (found[1].lower() in self.metric_words or "@" in found[1]):
            return None
        offset = start - len(before)
        return offset + found.start(1), offset + found.end(1), -1

    def _relative(self, ctx: SentenceContext, k: int, change: bool) -> bool:
        """A relative change ('a relative 24%', '3x', '15% fewer'), or a share of a compared figure."""
        value, span = ctx.values[k], ctx.spans[k]
        near = {ctx.word(span.start - 1), ctx.word(span.start - 2), ctx.word(span.end), ctx.word(span.end + 1)}
        if value.unit == "x" or near & self.cues.relative_words:
            return True
        return change and value.unit == "%" and ctx.word(span.end) in self.cues.comparatives

    def _direction(self, ctx: SentenceContext, k: int) -> str:
        """'down' for a change the words around it say is a fall ('reduces WER by 4%', 'a 44% reduction'), else 'up'."""
        value, span = ctx.values[k], ctx.spans[k]
        if value.text[:1] in "-−":
            return "down"
        near = {ctx.word(span.start - n) for n in range(1, 6)} | {ctx.word(span.end + n) for n in range(3)}
        return "down" if near & self.cues.down_words else "up"


def _last_metric(records: list[ResultRecord]) -> Part:
    """The metric of the last result found, when it has one (else none)."""
    if records and records[-1].metric_start >= 0:
        return records[-1].metric_start, records[-1].metric_end, records[-1].metric_entity
    return -1, -1, -1


_DATA_WORDS = frozenset({"dataset", "datasets", "benchmark", "benchmarks", "corpus", "set", "split", "suite"})
_ON_WORDS = frozenset({"on", "using", "from"})


def _evaluated_on(mention: Span) -> bool:
    """A data set named as what is evaluated on: 'on' or 'using' shortly before it, or 'dataset', 'benchmark' and
    the like right after it or at its end ('We evaluate on the IMDB sentiment analysis dataset', 'On ImageNet')."""
    doc = mention.doc
    if mention[-1].lower_ in _DATA_WORDS or (mention.end < len(doc) and doc[mention.end].lower_ in _DATA_WORDS):
        return True
    return any(token.lower_ in _ON_WORDS for token in doc[max(mention.sent.start, mention.start - 3):mention.start])


def _in_name(value: Value, names: list[tuple[int, int]]) -> bool:
    """A whole number without a unit inside a method's, task's or data set's name ('WMT 2014', 'Llama 2') is the
    name's."""
    whole = not value.unit and "." not in value.text and not value.ranged
    return whole and any(start <= value.start and value.end <= end for start, end in names)


def _token_span(doc: Doc, start: int, end: int) -> Span:
    """The tokens holding the characters [start, end) (a value may be a part of a token: '9%-19')."""
    span = doc.char_span(start, end, alignment_mode="expand")
    assert span is not None  # expanding always finds tokens for characters inside the text
    return span


class _Paper:
    """What the sentences of one Doc share, made once a sentence states a number: the entity mentions (by
    sentence), the paper's own method and data set, its main task and the shared task or data set its title names."""

    def __init__(self, doc: Doc, entities_key: str, cues: ResultCues) -> None:
        self.entities = list(doc.spans.get(entities_key, []))
        self.starts = [span.start for span in self.entities]
        self.index = {(span.start, span.end): position for position, span in enumerate(self.entities)}
        extensions = [span._ for span in self.entities]
        self.own_method = self._first(extensions, lambda ext, span: ext.paperkg_proposed
                                      and span.label_ == NodeLabel.METHOD.value)
        self.own_dataset = self._first(extensions, lambda ext, span: ext.paperkg_proposed
                                       and span.label_ == NodeLabel.DATASET.value)
        self.main_task = self._first(extensions, lambda ext, span: span.label_ == NodeLabel.TASK.value
                                     and ext.paperkg_role == "addresses")
        self.title_task = title_shared_task(doc._.paperkg_title, cues.shared_task_words)
        self.title_data = title_dataset(doc._.paperkg_title)

    def _first(self, extensions: list, test: Callable[[Any, Span], bool]) -> Span | None:
        return next((span for ext, span in zip(extensions, self.entities) if test(ext, span)), None)

    def in_sentence(self, sent: Span) -> list[Span]:
        """The entity mentions starting in a sentence."""
        return self.entities[bisect_left(self.starts, sent.start):bisect_left(self.starts, sent.end)]

    def earlier_dataset(self, sent: Span, names_data: Callable[[Span], bool]) -> Span | None:
        """The data set of the nearest earlier sentence that names one ('We evaluate on IMDB.', then '82.38%'),
        None when that sentence names two or more ('on A and B': which one is not said)."""
        found: list[Span] = []
        for mention in reversed(self.entities[:bisect_left(self.starts, sent.start)]):
            if found and mention.end <= found[0].sent.start:
                break
            if names_data(mention) and _evaluated_on(mention):
                found.append(mention)
        return found[0] if len({mention.text.lower() for mention in found}) == 1 else None

    def part(self, span: Span | None) -> Part:
        """(start, end, entity index) of a part: the index of the mention it is, else of the longest mention
        inside it ('F1-score' in 'macro F1-score'), -1 when it holds none."""
        if span is None:
            return -1, -1, -1
        found = self.index.get((span.start, span.end))
        if found is None:
            inside = [e for e in self.in_sentence(span) if e.end <= span.end]
            longest = max(inside, key=len) if inside else None
            found = -1 if longest is None else self.index[longest.start, longest.end]
        return span.start_char, span.end_char, found


def _chars(span: Span | None) -> tuple[int, int]:
    return (-1, -1) if span is None else (span.start_char, span.end_char)


@Language.factory(
    "paperkg_results",
    assigns=["doc.spans", "doc._.paperkg_results"],
    requires=["token.is_sent_start", "doc.spans", "span._.paperkg_proposed", "span._.paperkg_role"],
    default_config={"files": RESULT_FILES, "threshold": None, "entities_key": ENTITIES_KEY, "spans_key": SPANS_KEY},
)
def make_result_finder(nlp: Language, name: str, files: dict[str, str], threshold: float | None, entities_key: str,
                       spans_key: str) -> ResultFinder:
    """Factory: the data files (cue words, metric words, the trained models), the result model's threshold
    (null: the one it was trained with) and the span groups read and written are settings."""
    return ResultFinder(nlp, name, files, threshold, entities_key, spans_key)
