"""Combine every extractor's spans into one typed, non-overlapping entity layer, doc.spans["entities"],
and decide which of those mentions become graph nodes. (Each span group read or written is named by a
setting; the keys quoted here are the defaults.)

Boundaries (the documented combination rule): the statistical model's spans (doc.spans["types"]) first,
then acronym definitions, lexicon terms, data sets named by cues and name-shaped tokens where the model has
none; candidates with exactly the same tokens are merged (the model's boundary, the acronym's long form, the
lexicon's canonical name).

Types: the lexicon's or a data cue's, unless it and the model's are both Method or Task (that
distinction depends on context, which the model reads); else the model's, else the head word's
("...attention" is a Method), else Method for a proposed name; one name gets one type in a paper
(the vote of its mentions).

Nodes: a mention becomes a graph node when it reads as a term: a defined acronym, a lexicon
entry, a data set named by a cue, a name (a name-shaped token, a Title Case phrase, names before
a data noun), a proposal, or a model span that passes the corpus termhood test (termhood.py). Every other
mention stays in the extraction record with the reason it is not a node.
"""
from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

from spacy.language import Language
from spacy.tokens import Doc, Span

from paperkg.core.canonical import group_form
from paperkg.core.schema import TERM_LABELS, NodeLabel

from .candidates import DATASETS_KEY, METHODS_KEY, NAMES_KEY, name_kind, reads_as_name
from .cues import Cues
from .extensions import SPAN_ATTRIBUTES, acronym_records, register_extensions
from .junk_names import JunkNames
from .lexicon import SPANS_KEY as LEXICON_KEY
from .proposals import ProposalRules
from .resources import DataComponent, DataFiles
from .roles import assign_roles
from .span_ner import TYPES_KEY
from .sentence_spans import group_by_sentence
from .termhood import Termhood
from .typing import OTHER_TERM, HeadNouns

_TERM_TOKEN = re.compile(r"^\w[\w'’./+-]*$")
_JOINERS = frozenset("-/–")
# tokens that join the words of one name ("few - shot", "Re - ID") when split off
_NOT_LAST = frozenset({"and", "or", "of", "for", "the", "a", "an", "with", "to", "in", "on", "by", "from", "via"})
UNTYPED = "Unknown"
# Votes of one mention for its name's type, by how the type was found.
_TYPE_WEIGHT = {"lexicon": 4, "acronym": 2, "cue": 2, "name": 1, "model": 1}
SPANS_KEY = "entities"  # the default of the spans_key setting: the group every later reader takes


@dataclass
class Candidate:
    """A span some extractor proposes as an entity, before overlaps are resolved."""

    start: int
    end: int
    source: str
    label: str
    canonical: str | None = None
    acronym: str | None = None
    shape: str = ""
    long_form: bool = False

    @property
    def boundary_source(self) -> str:
        """What boundary_priority ranks: 'definition' for the long form of a defined acronym."""
        return "definition" if self.long_form else self.source


@dataclass
class Chosen:
    """One entity span after overlaps are resolved, with what the candidates on exactly its tokens say."""

    start: int
    end: int
    candidates: list[Candidate]

    def first(self, order: list[str], attribute: str) -> str | None:
        """The attribute of the first candidate, in `order` of sources, that has one."""
        for source in order:
            for cand in self.candidates:
                value = getattr(cand, attribute)
                if cand.source == source and value and value != UNTYPED:
                    return value
        return None


class EntityAssembler(DataComponent):
    """Collects candidates, resolves overlaps, types them, marks proposals, roles and graph nodes."""

    def __init__(self, name: str, files: dict[str, str], *, boundary_priority: list[str], type_priority: list[str],
                 trusted_sources: list[str], ambiguous_types: list[str], source_priority: list[str],
                 source_confidence: dict[str, float], max_model_term: int,
                 proposal_window: int,
                 apposition_span: int, model_spans_key: str, min_df: int, max_word_share: float,
                 established_df: int, spans_key: str, lexicon_key: str, names_key: str,
                 cue_keys: tuple[str, ...]) -> None:
        super().__init__(name, files.values())
        register_extensions()
        self.file_names = dict(files)
        self.boundary_priority = list(boundary_priority)
        self.type_priority = list(type_priority)
        self.trusted_sources = list(trusted_sources)
        self.ambiguous_types = frozenset(ambiguous_types)
        self.source_priority = list(source_priority)
        self.source_confidence = dict(source_confidence)
        self.max_model_term = max_model_term
        self.proposal_window = proposal_window
        self.apposition_span = apposition_span
        self.model_spans_key = model_spans_key
        self.spans_key = spans_key
        self.lexicon_key = lexicon_key
        self.names_key = names_key
        self.cue_keys = cue_keys
        self.min_df = min_df
        self.max_word_share = max_word_share
        self.established_df = established_df

    def build(self, data: DataFiles) -> None:
        names = self.file_names
        self.cues = Cues.from_data(data, names["cues"])
        self.head_nouns = HeadNouns.from_data(data, names["head_nouns"])
        self.stop_phrases = data.words(names["stop_phrases"])
        self.generic_words = data.words(names["generic_words"])
        self.not_in_terms = data.words(names["not_in_terms"])
        self.termhood = Termhood.from_data(data, names["corpus_df"], self.min_df, self.max_word_share)
        self.junk_names = JunkNames.from_data(data, names["modifier_affixes"], names["verb_openers"])
        self.proposals = ProposalRules(self.cues, self.head_nouns, self.termhood, self.proposal_window,
                                       self.apposition_span, self.established_df)

    def process(self, doc: Doc) -> Doc:
        model_labels = self._model_labels(doc)
        chosen = self._resolve_overlaps(list(self._candidates(doc, model_labels)))
        spans = [span for span in (self._to_span(doc, c) for c in chosen) if span is not None]
        found_by_model = {(c.start, c.end) for c in chosen if any(x.source == "model" for x in c.candidates)}
        self._vote_types(spans)
        sentences = list(doc.sents)
        self.proposals.mark(doc, spans, sentences, group_by_sentence(sentences, spans))
        spans = self._shared_tasks(spans)
        spans = [s for s in spans if s._.paperkg_source != "name" or (s.start, s.end) in found_by_model
                 or self._keep_name(s)]
        for span in spans:
            if span.label_ == UNTYPED:
                span.label_ = NodeLabel.METHOD.value if span._.paperkg_proposed else OTHER_TERM
            span._.paperkg_termhood = self._termhood(span)
            span._.paperkg_node = span._.paperkg_termhood in TERM_RULES
        assign_roles(sentences, group_by_sentence(sentences, spans), self.cues)
        doc.spans[self.spans_key] = spans
        doc._.paperkg_undefined_acronyms = self._undefined_acronyms(doc, spans)
        return doc

    def _shared_tasks(self, spans: list[Span]) -> list[Span]:
        """A name written as a shared task's ('the SMM4H Shared Task 2021', 'a shared task called Adap-MT 2020') is
        a Task in all its mentions of the paper, named with the campaign words that follow it ('SMM4H Shared
        Task'), and no proposal: the paper takes part in it. A data set stays one ('the IWSLT2013 evaluation
        campaign': the campaign's data)."""
        words = self.cues.campaign_words
        starts = {span.start for span in spans}
        named: dict[str, str] = {}
        widths: dict[tuple[int, int], int] = {}  # a mention -> the campaign words after it that join its name
        for span in spans:
            if span.label_ == NodeLabel.DATASET.value:
                continue
            after = _campaign_after(span, words)
            if after and not starts & set(range(span.end, span.end + after)):
                widths[span.start, span.end] = after
                named[span.text] = span.doc[span.start:span.end + after].text
            elif _called_campaign(span, words):
                named.setdefault(span.text, span._.paperkg_canonical or span.text)
        kept = []
        for span in spans:
            if (name := named.get(span.text)) is not None:
                if (after := widths.get((span.start, span.end), 0)):
                    wide = Span(span.doc, span.start, span.end + after)
                    for attribute in SPAN_ATTRIBUTES:
                        setattr(wide._, attribute, getattr(span._, attribute))
                    span = wide
                span.label_, span._.paperkg_proposed, span._.paperkg_canonical = NodeLabel.TASK.value, False, name
            kept.append(span)
        return kept

    def _model_labels(self, doc: Doc) -> list[str | None]:
        """Per token, the model's type of the span that covers it (None outside the model's spans)."""
        labels: list[str | None] = [None] * len(doc)
        for span in doc.spans.get(self.model_spans_key, []):
            labels[span.start:span.end] = [span.label_] * len(span)
        return labels

    def _candidates(self, doc: Doc, model_labels: list[str | None]) -> list[Candidate]:
        """The rules' candidates, then the model's spans: a model span that wraps a rule's span keeps
        its boundary only when it reads as a term itself ("zero-shot cross-lingual transfer" around
        the lexicon's "cross-lingual transfer"), not when it runs on ("Meta-World benchmark demonstrate")."""
        rules = list(self._rule_candidates(doc, model_labels))
        starts = sorted((c.start, c.end) for c in rules)
        model = []
        for span in doc.spans.get(self.model_spans_key, []):
            if not self._plausible_model_term(span):
                continue
            if not _wraps_a_rule(span, starts) or self._reads_as_term(span):
                model.append(Candidate(span.start, span.end, "model", span.label_))
        return rules + model

    def _reads_as_term(self, span: Span) -> bool:
        """A name, or a phrase the termhood test accepts."""
        return self._phrase_rule(span) in TERM_RULES

    def _phrase_rule(self, span: Span) -> str:
        """'name' for a name (Title Case, a name shape, or names before a data noun: 'the WSJ corpus'),
        else the corpus termhood rule or the reason against it."""
        if reads_as_name(span) or (span[-1].lower_ in self.cues.dataset_nouns
                                   and any(_names_something(t) for t in span[:-1])):
            return "name"
        generic_heads = self.cues.kind_nouns | self.stop_phrases
        return self.termhood.rule(span, self.head_nouns.label_of(span), self.generic_words, generic_heads,
                                  self.cues.vague_heads)

    def _rule_candidates(self, doc: Doc, model_labels: list[str | None]) -> Iterator[Candidate]:
        found = doc.spans.get(self.lexicon_key, [])
        lexicon = {(s.start, s.end): s for s in found}
        other_sense: set[str] = set()  # short forms the paper defines as another thing than the lexicon's

        def typed(long: Span, short: Span) -> tuple[str, str, str]:
            """(source, label, canonical) of an acronym pair: the lexicon's if it knows the long form, or the
            short form with a long form of the same words; the paper's own definition otherwise ('MAE' that
            a paper defines as masked autoencoders is not the lexicon's mean absolute error)."""
            known = lexicon.get((long.start, long.end)) or lexicon.get((short.start, short.end))
            if known and not _defines_other_sense(long, short, known, found):
                return "lexicon", known.label_, known.kb_id_
            if known:
                other_sense.update({short.text, short.text.rstrip("s")})
            label = (_majority(model_labels[long.start:long.end]) or _majority(model_labels[short.start:short.end])
                     or self.head_nouns.label_of(long) or UNTYPED)
            return "acronym", label, long.text

        for record in acronym_records(doc):
            if record.kind in ("definition", "resolved"):
                short, long = doc[record.start:record.end], doc[record.long_start:record.long_end]
                source, label, canonical = typed(long, short)
                parts = (long, short) if record.kind == "definition" else (short,)
                for part in parts:
                    yield Candidate(part.start, part.end, source, label, canonical, short.text,
                                    long_form=part is long and record.kind == "definition")
        for span in found:
            if span.text not in other_sense:
                yield Candidate(span.start, span.end, "lexicon", span.label_, span.kb_id_, span.id_ or None)
        for key in self.cue_keys:
            for span in doc.spans.get(key, []):
                yield Candidate(span.start, span.end, "cue", span.label_)
        for span in doc.spans.get(self.names_key, []):
            label = _majority(model_labels[span.start:span.end]) or span.label_
            yield Candidate(span.start, span.end, "name", label, shape=span.kb_id_)

    def _plausible_model_term(self, span: Span) -> bool:
        """The model's span reads as a phrase: at most max_model_term word-like tokens, none of them a
        pronoun, verb or other word of not_in_terms.txt, not starting inside a hyphenated word
        ('art method' of 'state-of-the-art method'), and a lone lower-case word only when its head
        word agrees with the label ('summarization' Task, not 'revisiting')."""
        inner = {t.i for t in span[1:-1]}
        if len(span) > self.max_model_term or not all(_TERM_TOKEN.match(t.text) or (t.i in inner and t.text in _JOINERS)
                                                      for t in span):
            return False
        if any(t.lower_ in self.not_in_terms for t in span):
            return False
        if span.start > 0 and not span.doc[span.start - 1].whitespace_ and span.doc[span.start - 1].text in "-–":
            return False
        return len(span) > 1 or not span.text.islower() or self.head_nouns.label_of(span) in (span.label_, None)

    def _resolve_overlaps(self, candidates: list[Candidate]) -> list[Chosen]:
        """Spans by boundary priority (then longer, then earlier), none overlapping; each keeps every
        candidate with exactly its boundaries (an acronym's long form, a lexicon entry, a model type)."""
        by_span: dict[tuple[int, int], list[Candidate]] = defaultdict(list)
        for cand in candidates:
            by_span[(cand.start, cand.end)].append(cand)

        def rank(key: tuple[int, int]) -> tuple[int, int, int]:
            best = min(self.boundary_priority.index(c.boundary_source) for c in by_span[key])
            return (best, key[0] - key[1], key[0])

        taken: set[int] = set()
        chosen = []
        for key in sorted(by_span, key=rank):
            tokens = set(range(*key))
            if tokens & taken:
                continue
            taken |= tokens
            chosen.append(Chosen(key[0], key[1], by_span[key]))
        return sorted(chosen, key=lambda c: c.start)

    def _to_span(self, doc: Doc, chosen: Chosen) -> Span | None:
        """The entity span: the type by type priority, the canonical name and acronym from the rules
        that found exactly these tokens, the source by source priority (it decides the node rule)."""
        source = next(s for s in self.source_priority if any(c.source == s for c in chosen.candidates))
        start, end = chosen.start, chosen.end
        if source in {"model", "cue"}:
            while start < end and (doc[start].lower_ in self.generic_words or doc[start].is_punct):
                start += 1
            while end > start and doc[end - 1].is_punct:
                end -= 1
        label = self._type(chosen) or UNTYPED
        if label not in TERM_LABEL_NAMES:
            label = UNTYPED
        canonical = chosen.first(["lexicon", "acronym"], "canonical")
        span = Span(doc, start, end, label=label)
        if not self._is_term(span, canonical):
            return None
        if canonical is None and label == NodeLabel.DATASET.value:
            canonical = self._data_set_name(span)
        shape = chosen.first(["name"], "shape")
        span._.paperkg_canonical = canonical or span.text
        span._.paperkg_acronym = (chosen.first(["acronym", "lexicon"], "acronym")
                                  or (span.text if shape == "caps" else None))
        span._.paperkg_source = source
        span._.paperkg_confidence = self.source_confidence[source]
        return span

    def _data_set_name(self, span: Span) -> str | None:
        """A data set's name without the common noun after it: 'Wikipedia dataset' is the node
        'Wikipedia' (the evidence keeps the words as written); 'the Song Describer Dataset' keeps its
        capitalised noun."""
        if len(span) > 1 and span[-1].text.islower() and span[-1].lower_ in self.cues.dataset_nouns \
                and reads_as_name(span[:-1]):
            return span[:-1].text
        return None

    def _type(self, chosen: Chosen) -> str | None:
        """The lexicon's (or a data cue's) type, unless it and the model's are both among the
        ambiguous types (Method or Task: 'data augmentation' is either, and the model reads the
        context); else the first type in type priority."""
        known = chosen.first(self.trusted_sources, "label")
        model = chosen.first(["model"], "label")
        if known and not (model and {known, model} <= self.ambiguous_types):
            return known
        return chosen.first(self.type_priority, "label")

    def _is_term(self, span: Span, canonical: str | None = None) -> bool:
        text = span.text.lower()
        if len(span) == 0 or len(text) < 2 or text in self.stop_phrases:
            return False
        if canonical is not None and canonical.lower() in self.stop_phrases:
            return False
        if all(t.lower_ in self.generic_words or t.lower_ in self.stop_phrases or t.is_punct for t in span):
            return False
        if all(t.like_num or t.is_punct for t in span):
            return False
        return not (span[0].is_punct or span[-1].lower_ in _NOT_LAST)

    @staticmethod
    def _vote_types(spans: list[Span]) -> None:
        """One type per name in a paper: the weighted vote of its typed mentions (ties in a fixed order)."""
        votes: dict[str, Counter[str]] = defaultdict(Counter)
        for span in spans:
            if span.label_ != UNTYPED:
                votes[span._.paperkg_canonical.lower()][span.label_] += _TYPE_WEIGHT[span._.paperkg_source]
        for span in spans:
            counts = votes.get(span._.paperkg_canonical.lower())
            if counts:
                span.label_ = max(TERM_LABEL_NAMES, key=lambda label: (counts[label], -TERM_LABEL_NAMES.index(label)))

    def _termhood(self, span: Span) -> str:
        """The rule by which the mention is a graph node (TERM_RULES), or the reason it is not (a junk
        name: a modifier, a verb phrase, ...; the lexicon's entries are trusted)."""
        if span.label_ not in TERM_LABEL_NAMES:
            return "untyped"
        source = span._.paperkg_source
        junk = self.junk_names.reason(span) if source != "lexicon" else None
        if junk:
            return junk
        if span._.paperkg_proposed:
            return "proposal"
        if source != "model":
            return source
        return self._phrase_rule(span)

    @staticmethod
    def _keep_name(span: Span) -> bool:
        """Acronym-like and Title-Hyphenated names that the model did not find are kept only when
        proposed or typed by context."""
        weak = span._.paperkg_acronym is not None or name_kind(span.text) == "weak"
        return not weak or span._.paperkg_proposed or span.label_ == NodeLabel.DATASET.value

    @staticmethod
    def _undefined_acronyms(doc: Doc, spans: list[Span]) -> list[Span]:
        """Undefined short forms that no entity covers (the graph may resolve them across papers)."""
        covered = {i for s in spans for i in range(s.start, s.end)}
        return [doc[r.start:r.end] for r in acronym_records(doc)
                if r.kind == "undefined" and not covered.intersection(range(r.start, r.end))]


TERM_LABEL_NAMES = tuple(label.value for label in TERM_LABELS)
# How a mention becomes a node; any other termhood value says why it is not one.
TERM_RULES = frozenset({"acronym", "lexicon", "cue", "name", "proposal", "corpus", "head"})


def _names_something(token) -> bool:
    """A token that makes a phrase specific: a name shape (FrameNet, BERT, 3D) or a capitalised word
    that does not just start the sentence (the WSJ corpus, Chinese-to-English translation)."""
    return name_kind(token.text) is not None or (token.text[:1].isupper() and not token.is_sent_start)


def _campaign_after(span: Span, campaign_words: frozenset[str]) -> int:
    """How many tokens of campaign words follow the span ('Shared Task', 'shared-task'), or 0."""
    doc = span.doc
    for size in range(1, 4):
        following = doc[span.end:min(span.end + size, span.sent.end)]
        if " ".join(following.text.lower().replace("-", " ").split()) in campaign_words:
            return len(following)
    return 0


def _called_campaign(span: Span, campaign_words: frozenset[str]) -> bool:
    """The words before the span end with a campaign word and 'called' or 'named' ('a shared task called X')."""
    before = " ".join(span.doc[max(span.sent.start, span.start - 4):span.start].text.lower().replace("-", " ").split())
    return before.endswith(tuple(f"{words} {verb}" for words in campaign_words for verb in ("called", "named")))


def _defines_other_sense(long: Span, short: Span, known: Span, lexicon: list[Span]) -> bool:
    """Whether a definition's long form names another thing than the lexicon entry found on it or its short
    form: the entry names the short form's long form ('MAE': mean absolute error), not the short form itself
    ('BERT'), no span of that entry lies within the long form and their words differ."""
    if long.start <= known.start and known.end <= long.end or group_form(known.kb_id_) == group_form(short.text):
        return False
    if any(s.kb_id_ == known.kb_id_ and long.start <= s.start and s.end <= long.end for s in lexicon):
        return False
    return group_form(long.text) != group_form(known.kb_id_)


def _majority(labels: list[str | None]) -> str | None:
    """The most frequent label among tokens (None when no token has one)."""
    counts = Counter(label for label in labels if label)
    return max(sorted(counts), key=counts.__getitem__) if counts else None


ENTITY_FILES = {"cues": "cues.json", "head_nouns": "head_nouns.tsv", "stop_phrases": "stop_phrases.txt",
                "generic_words": "generic_words.txt", "not_in_terms": "not_in_terms.txt",
                "corpus_df": "corpus_df.tsv.gz", "modifier_affixes": "modifier_affixes.txt",
                "verb_openers": "verb_openers.txt"}


@Language.factory(
    "paperkg_entities",
    assigns=["doc.spans", "span._.paperkg_canonical", "span._.paperkg_acronym", "span._.paperkg_source",
             "span._.paperkg_confidence", "span._.paperkg_proposed", "span._.paperkg_role",
             "span._.paperkg_node", "span._.paperkg_termhood", "doc._.paperkg_undefined_acronyms"],
    requires=["token.is_sent_start", "doc._.paperkg_acronym_records"],
    default_config={
        "files": ENTITY_FILES,
        "boundary_priority": ["definition", "model", "acronym", "lexicon", "cue", "name"],
        "type_priority": ["acronym", "model", "lexicon", "cue", "name"],
        "trusted_sources": ["lexicon", "cue"], "ambiguous_types": ["Method", "Task"],
        "source_priority": ["acronym", "lexicon", "cue", "name", "model"],
        "source_confidence": {"acronym": 0.95, "lexicon": 0.9, "cue": 0.8, "name": 0.7, "model": 0.6},
        "max_model_term": 6, "proposal_window": 20, "apposition_span": 10,
        "min_df": 5, "max_word_share": 0.1, "established_df": 20,
        "spans_key": SPANS_KEY, "model_spans_key": TYPES_KEY, "lexicon_key": LEXICON_KEY, "names_key": NAMES_KEY,
        "datasets_key": DATASETS_KEY, "methods_key": METHODS_KEY,
    },
)
def make_entity_assembler(nlp: Language, name: str, files: dict[str, str], boundary_priority: list[str],
                          type_priority: list[str], trusted_sources: list[str], ambiguous_types: list[str],
                          source_priority: list[str],
                          source_confidence: dict[str, float], max_model_term: int, proposal_window: int,
                          apposition_span: int, model_spans_key: str, min_df: int, max_word_share: float,
                          established_df: int, spans_key: str, lexicon_key: str, names_key: str,
                          datasets_key: str, methods_key: str) -> EntityAssembler:
    """Factory: priorities, confidences, windows, termhood thresholds and the span groups read and
    written are settings; the word lists and the corpus statistics are data files."""
    return EntityAssembler(name, files, boundary_priority=boundary_priority, type_priority=type_priority,
                           trusted_sources=trusted_sources, ambiguous_types=ambiguous_types,
                           source_priority=source_priority, source_confidence=source_confidence,
                           max_model_term=max_model_term, proposal_window=proposal_window,
                           apposition_span=apposition_span, model_spans_key=model_spans_key, min_df=min_df,
                           max_word_share=max_word_share, established_df=established_df, spans_key=spans_key,
                           lexicon_key=lexicon_key, names_key=names_key, cue_keys=(datasets_key, methods_key))


def entities_key(nlp: Language) -> str:
    """The span group the pipeline's entity layer is written to (its spans_key setting): where the
    extraction record, the evaluations and the relation components read the entities."""
    return next((pipe.spans_key for _, pipe in nlp.components if isinstance(pipe, EntityAssembler)), SPANS_KEY)


def _wraps_a_rule(span: Span, rules: list[tuple[int, int]]) -> bool:
    """Whether the span holds a shorter rule candidate; `rules` are (start, end) sorted, so only those starting
    inside the span are looked at (all of them for every span is quadratic in a text of thousands of terms)."""
    for at in range(bisect_left(rules, (span.start, span.start)), len(rules)):
        start, end = rules[at]
        if start >= span.end:
            return False
        if end <= span.end and end - start < len(span):
            return True
    return False
