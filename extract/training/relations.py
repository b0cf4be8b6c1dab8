"""Training of the relation component (extract/relation_model.py), the recipe's step "relations".

The pipeline's tok2vec is frozen, so each candidate pair's features are computed once (the tok2vec
run over the benchmark's own tokens, gold entities in paperkg's types) and only the classifiers
learn, each on its own with its own seed: a few epochs of Adam on a masked binary cross-entropy (a type
the source does not annotate carries no loss: SciERC has no TRAINED_ON, BENCHMARK_FOR, SUBTASK_OF,
SYNONYM_OF). The threshold of each type is then the one with the best micro F1 on SciER dev end to end
(the pipeline's own entities), and the precision table (what a relation's confidence says) is measured
on SciER dev with the gold mentions. Settings: extract/training/configs/relations.cfg.
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import numpy
import spacy
from spacy.language import Language
from spacy.tokens import Doc, Span
from thinc.api import Adam, Model, fix_random_seed

from paperkg.core.schema import SYMMETRIC_REL_TYPES, RelType, relation_allowed
from paperkg.extract.evaluate.relation_benchmarks import ANNOTATED, RelationRecord, read_relations
from paperkg.extract.pair_encoder import PairTokens, select_pairs, stack_tokens
from paperkg.extract.relation_model import LABELS, RelationModel, candidate_pairs, end_tags, feature_width

COMPONENT = "relation_model"
JUDGED_Z = 1.2816  # one-sided 90% bound on the hand-judged precision (judged_precision)
FACTORY = "paperkg_relation_model"


@dataclass
class Featurized:
    """Candidate pairs of a set of documents: features, gold (0/1 per type) and loss mask per pair, and their
    sentence tokens for a pair encoder (None without one)."""

    X: numpy.ndarray
    Y: numpy.ndarray
    mask: numpy.ndarray
    tokens: PairTokens | None = None

    def inputs(self, batch: numpy.ndarray) -> Any:
        """The classifier's input for the pairs `batch`: their feature rows (and sentence tokens)."""
        return self.X[batch] if self.tokens is None else (self.X[batch], select_pairs(self.tokens, batch))


def gold_docs(nlp: Language, records: Sequence[RelationRecord], negatives_from: Sequence[str] = ()) -> list[Doc]:
    """Docs on the records' own tokens with doc.tensor from the tok2vec and the gold entities; for the
    sources in `negatives_from`, `nlp` is the whole pipeline and its own mentions that overlap no gold
    mention are added: pairs with them are what end-to-end extraction must learn to leave out."""
    from paperkg.extract.evaluate.relations import RELATION_PIPES

    docs = [r.record.doc(nlp.vocab) for r in records]
    if negatives_from:
        with nlp.select_pipes(disable=[name for name in RELATION_PIPES if name in nlp.pipe_names]):
            docs = list(nlp.pipe(docs, batch_size=32))
    else:
        docs = list(cast(Any, nlp.get_pipe("tok2vec")).pipe(docs, batch_size=64))  # a TrainablePipe: it has pipe()
    for doc, r in zip(docs, records):
        spans = list(r.entities)
        if r.source in negatives_from:
            covered = {i for s, e, _ in spans for i in range(s, e)}
            spans += [(e.start, e.end, e.label_) for e in doc.spans.get("entities", [])
                      if not covered & set(range(e.start, e.end))]
        doc.spans["entities"] = [Span(doc, s, e, label=label) for s, e, label in sorted(spans)]
    return docs


def head_vocabulary(docs: Sequence[Doc], size: int) -> list[str]:
    """The `size` words that most often end an entity mention (a mention's head word; ties alphabetical)."""
    counts = Counter(doc[span.end - 1].lower_ for doc in docs for span in doc.spans["entities"])
    return [word for word, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:size]]


def tag_vocabulary(docs: Sequence[Doc]) -> list[str]:
    """Every end_tags value of the docs' mentions, sorted (gold mentions the pipeline did not find have no source)."""
    return sorted({tag for doc in docs for span in doc.spans["entities"] for tag in end_tags(span)})


def between_vocabulary(docs: Sequence[Doc], max_gap: int, size: int) -> list[str]:
    """The `size` words seen most often between the two mentions of a candidate pair (ties alphabetical)."""
    counts: Counter[str] = Counter()
    for doc in docs:
        entities = list(doc.spans["entities"])
        for a, b in candidate_pairs(doc, entities, max_gap):
            if entities[a].start < entities[b].start:
                counts.update({t.lower_ for t in doc[entities[a].end:entities[b].start]})
    return [word for word, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:size]]


def featurize(component: RelationModel, docs: Sequence[Doc], records: Sequence[RelationRecord]) -> Featurized:
    """Features, gold and mask of every candidate pair of gold-entity docs."""
    xs, ys, masks, tokens = [], [], [], []
    for doc, r in zip(docs, records):
        entities = list(doc.spans["entities"])
        pairs, features = component.featurize(doc, entities)
        if not pairs:
            continue
        X = features.rows(feature_width(doc.tensor.shape[1], len(component.cfg["between_words"]),
                                        len(component.cfg["head_words"]), len(component.cfg["end_tags"])))
        gold: dict[tuple[int, int, int, int], set[str]] = {}
        for h0, h1, t0, t1, kind in r.relations:  # a symmetric type holds both ways round: neither is a negative
            for key in ((h0, h1, t0, t1), (t0, t1, h0, h1)) if kind in SYMMETRIC_REL_TYPES else ((h0, h1, t0, t1),):
                gold.setdefault(key, set()).add(kind.value)
        Y = numpy.zeros((len(pairs), len(LABELS)), dtype="f")
        for row, (a, b) in zip(Y, pairs):
            for label in gold.get((entities[a].start, entities[a].end, entities[b].start, entities[b].end), ()):
                row[LABELS.index(label)] = 1
        annotated = numpy.array([label in {k.value for k in ANNOTATED[r.source]} for label in LABELS], dtype="f")
        xs.append(X)
        ys.append(Y)
        masks.append(numpy.tile(annotated, (len(pairs), 1)))
        if features.tokens is not None:
            tokens.append(features.tokens)
    return Featurized(numpy.vstack(xs), numpy.vstack(ys), numpy.vstack(masks), stack_tokens(tokens) if tokens else None)


def fit(model: Model, data: Featurized, epochs: int, batch_size: int, learn_rate: float,
        positive_weight: float, seed: int) -> list[float]:
    """Train a classifier on featurized pairs; returns the mean loss of each epoch."""
    fix_random_seed(seed)
    rng = numpy.random.default_rng(seed)
    optimizer = Adam(learn_rate)
    losses = []
    for _ in range(epochs):
        order = rng.permutation(len(data.X))
        total = 0.0
        for at in range(0, len(order), batch_size):
            batch = order[at:at + batch_size]
            Y, M = data.Y[batch], data.mask[batch]
            P, backprop = model.begin_update(data.inputs(batch))
            weight = M * (1 + (positive_weight - 1) * Y)
            backprop(((P - Y) * weight / len(batch)).astype("f"))
            model.finish_update(optimizer)
            total += float(-(weight * (Y * numpy.log(P + 1e-7) + (1 - Y) * numpy.log(1 - P + 1e-7))).sum())
        losses.append(total / max(len(order), 1))
    return losses


def new_component(settings: dict[str, Any], between_words: list[str], head_words: list[str], tags: list[str],
                  tensor_width: int) -> tuple[Language, RelationModel]:
    """A blank pipeline holding an initialised relation component with the settings' classifiers."""
    nlp = spacy.blank("en")
    config = {"model": {"@architectures": "paperkg.RelationEnsemble.v1", "members": settings["members"],
                        "hidden_width": settings["hidden_width"], "dropout": settings["dropout"],
                        "encoder_width": settings.get("encoder_width", 0),
                        "max_position": settings.get("max_position", 10)},
              "max_gap": settings["max_gap"], "cue_types": list(settings.get("cue_types", []))}
    component = cast(RelationModel, nlp.add_pipe(FACTORY, name=COMPONENT, config=config))
    component.initialize(lambda: [], between_words=between_words, head_words=head_words, tags=tags,
                         tensor_width=tensor_width)
    return nlp, component


def load_records(benchmarks: Path, sources: Sequence[str], split: str, limit: int = 0) -> list[RelationRecord]:
    """The relation records of the sources' split (the first `limit` of each file when > 0)."""
    files = {("scier", "train"): "scier/train.jsonl", ("scier", "dev"): "scier/dev.jsonl",
             ("scierc", "train"): "scierc/train.json", ("scierc", "dev"): "scierc/dev.json"}
    return [r for source in sources for r in read_relations(source, benchmarks / files[(source, split)], limit)]


def train(benchmarks: Path, source_model: Path, out: Path, config: Path, seed: int, limit: int = 0) -> dict[str, Any]:
    """Train the relation component on the configured train sources with features from `source_model`'s
    tok2vec, tune its thresholds on SciER dev end to end (the pipeline assembled from `source_model`),
    save it as a pipeline in `out`; returns its dev figures."""
    from thinc.api import Config

    from paperkg.extract.evaluate import relations as evaluation
    from paperkg.extract.pipeline import load_pipeline

    settings = Config().from_disk(config)["relations"]
    pipeline = load_pipeline(source_model)
    records = load_records(benchmarks, settings["train_sources"], "train", limit)
    docs = gold_docs(pipeline, records, settings["negatives_from"])
    words = between_vocabulary(docs, settings["max_gap"], settings["between_words"])
    tags = tag_vocabulary(docs) if settings.get("end_tags", False) else []
    fix_random_seed(seed)  # the classifiers' initial weights
    nlp, component = new_component(settings, words, head_vocabulary(docs, settings["head_words"]), tags,
                                   docs[0].tensor.shape[1])
    data = featurize(component, docs, records)
    losses = [fit(member, data, settings["epochs"], settings["batch_size"], settings["learn_rate"],
                  settings["positive_weight"], seed + i)[-1] for i, member in enumerate(component.model.layers)]
    dev = load_records(benchmarks, ["scier"], "dev", limit)
    end_to_end = evaluation.process(pipeline, dev, False)
    component.cfg["thresholds"] = choose_thresholds(component, end_to_end, dev, settings["threshold_grid"])
    component.cfg["precision"] = precision_table(component, evaluation.process(pipeline, dev, True), end_to_end, dev,
                                                 settings["threshold_grid"])
    out.parent.mkdir(parents=True, exist_ok=True)
    nlp.to_disk(out)
    figures = {"train_pairs": len(data.X), "train_relations": int(data.Y.sum()),
               "final_loss": round(sum(losses) / len(losses), 4), "thresholds": component.cfg["thresholds"],
               "precision": component.cfg["precision"]}
    pipeline.add_pipe(COMPONENT, source=nlp)
    for fmt, gold in (("scier", False), ("scier", True), ("scierc", False), ("scierc", True)):
        result = evaluation.run(pipeline, benchmarks / ("scier/dev.jsonl" if fmt == "scier" else "scierc/dev.json"),
                                fmt, gold_entities=gold, limit=limit)
        figures[f"rel_{fmt}_{'gold' if gold else 'e2e'}_f_dev"] = round(result["exact"]["f1"], 4)
    return figures


def choose_thresholds(component: RelationModel, docs: list[Doc], records: Sequence[RelationRecord],
                      grid: Sequence[float]) -> dict[str, float]:
    """Thresholds from `grid` for the best exact micro F1 on the docs (processed without the component)."""
    from paperkg.extract.evaluate import relations as evaluation

    cues = [list(doc._.paperkg_relations or []) for doc in docs]
    predictions = component.predict(docs)
    gold = evaluation.gold_arcs(records)
    labels = [kind for kind in evaluation.RelType if kind.value in LABELS]
    results = {}
    for threshold in grid:
        component.cfg["thresholds"] = {label: threshold for label in LABELS}
        for doc, kept in zip(docs, cues):
            doc._.paperkg_relations = kept
        component.set_annotations(docs, predictions)
        predicted = [(r.record.key, arc) for r, doc in zip(records, docs) for arc in evaluation.predicted_arcs(doc)]
        results[threshold] = evaluation.score(gold, predicted, labels)["per_label"]
    for doc, kept in zip(docs, cues):
        doc._.paperkg_relations = kept
    return micro_thresholds(results, LABELS, grid, sum(results[grid[0]][label]["gold"] for label in LABELS))


def micro_thresholds(results: dict[float, dict[str, dict]], labels: Sequence[str], grid: Sequence[float],
                     gold: int, rounds: int = 3) -> dict[str, float]:
    """Thresholds that maximise micro F1 (2 TP / (predicted + gold)): each type's best own F1 first, then
    coordinate ascent, one type at a time, on the per-type counts at each threshold (`results`)."""
    chosen = {label: max(grid, key=lambda t: (round(results[t][label]["f1"], 6), t)) for label in labels}

    def micro(choice: dict[str, float]) -> float:
        tp = sum(results[choice[label]][label]["tp"] for label in labels)
        return 2 * tp / (sum(results[choice[label]][label]["predicted"] for label in labels) + gold or 1)

    for _ in range(rounds):
        for label in labels:
            chosen[label] = max(grid, key=lambda t: (round(micro({**chosen, label: t}), 6), t))
    return chosen


def precision_table(component: RelationModel, gold_docs: list[Doc], end_to_end: list[Doc],
                    records: Sequence[RelationRecord], grid: Sequence[float]) -> dict[str, list[list[float]]]:
    """Per type, from each threshold of `grid` up: how many of the model's relations at least that probable are
    right on dev, the lower of two measures: with the gold mentions, arguments exact (`gold_docs`), and end to end,
    each argument overlapping the gold one's (`end_to_end`: the pipeline's own mentions; a reader judges the
    relation, not the exact span, but the mentions are what the graph is built from). Both docs are processed
    without the component; each measure counts one wrong relation more than seen and is made non-decreasing
    (monotone_precision). What training writes; bench/relations_dev.py --calibrate replaces the end-to-end
    measure by the hand-judged abstracts (judged_precision)."""
    return lower_of(dev_precision(component, gold_docs, records, grid, overlap=False),
                    dev_precision(component, end_to_end, records, grid, overlap=True))


def dev_precision(component: RelationModel, docs: list[Doc], records: Sequence[RelationRecord],
                  grid: Sequence[float], overlap: bool) -> dict[str, list[list[float]]]:
    """Per type, the monotone_precision table of the model's relations on benchmark docs (see scored_relations)."""
    scored = scored_relations(component, docs, records, overlap)
    return {label: monotone_precision(scored[label], grid) for label in LABELS}


def judged_precision(judged: Iterable[tuple[str, float, bool]], grid: Sequence[float],
                     floor: float) -> dict[str, list[list[float]]]:
    """Per type, from each threshold of `grid` up: the one-sided lower bound (wilson_lower) of the precision of
    the hand-judged relations (type, probability, right) at least that probable, each bound on the relations
    that threshold keeps (their share made non-decreasing by pooling, their number as counted: pooled blocks of
    nested sets would count a relation once per threshold), then made non-decreasing; 0 below `floor`, the
    lowest probability the judged list goes down to (nothing is known there)."""
    by_type: dict[str, list[tuple[float, bool]]] = {label: [] for label in LABELS}
    for label, probability, right in judged:
        if probability >= floor:
            by_type[label].append((probability, right))
    table = {}
    for label, scored in by_type.items():
        shares = monotone_precision(scored, grid, lambda block: block[0] / block[1] if block[1] else 0.0)
        best, rows = 0.0, []
        for threshold, share in shares:
            kept = sum(score >= threshold for score, _ in scored)
            best = max(best, round(wilson_lower(share * kept, kept), 4)) if threshold >= floor else 0.0
            rows.append([threshold, best])
        table[label] = rows
    return table


def lower_of(*tables: dict[str, list[list[float]]]) -> dict[str, list[list[float]]]:
    """Per type and threshold, the lowest of the precision tables (all on the same grid)."""
    return {label: [[rows[0][0], min(row[1] for row in rows)] for rows in zip(*(table[label] for table in tables))]
            for label in tables[0]}


def wilson_lower(right: float, kept: float, z: float = JUDGED_Z) -> float:
    """The one-sided Wilson lower bound of a precision of `right` in `kept` (0 when nothing is kept): small
    hand-judged counts promise less than their share."""
    if not kept:
        return 0.0
    share = right / kept
    centre = share + z * z / (2 * kept)
    margin = z * math.sqrt(share * (1 - share) / kept + z * z / (4 * kept * kept))
    return max(0.0, (centre - margin) / (1 + z * z / kept))


def scored_relations(component: RelationModel, docs: list[Doc], records: Sequence[RelationRecord],
                     overlap: bool) -> dict[str, list[tuple[float, bool]]]:
    """Per type, (probability, right) of every candidate pair whose labels the type allows: right when a gold
    relation of the type has the same arguments or, with `overlap`, arguments overlapping them."""
    from paperkg.extract.evaluate import relations as evaluation

    gold = evaluation.gold_arcs(records)
    exact = {(key, evaluation.canonical(arc)) for key, arc in gold}
    by_key: dict[str, list] = {}
    for key, arc in gold:
        by_key.setdefault(key, []).append(arc)
    found: dict[str, list[tuple[float, bool]]] = {label: [] for label in LABELS}
    for record, doc, (pairs, scores) in zip(records, docs, component.predict(docs)):
        entities = list(doc.spans["entities"])
        for (a, b), row in zip(pairs, scores):
            head, tail = entities[a], entities[b]
            for k, label in enumerate(LABELS):
                if relation_allowed(RelType(label), head.label_, tail.label_):
                    arc = evaluation.canonical((head.start, head.end, tail.start, tail.end, RelType(label)))
                    right = (any(evaluation.overlapping(arc, other) for other in by_key.get(record.record.key, ()))
                             if overlap else (record.record.key, arc) in exact)
                    found[label].append((float(row[k]), right))
    return found


def monotone_precision(scored: Sequence[tuple[float, bool]], grid: Sequence[float],
                       ratio: Callable[[list[float]], float] | None = None) -> list[list[float]]:
    """[threshold, precision] for each threshold of `grid` (see precision_table), precision measured by `ratio`
    of [right, kept] (default _ratio); pool adjacent violators."""
    ratio = ratio or _ratio
    blocks: list[list[float]] = []  # [hits, kept, number of thresholds] per pooled block
    for threshold in grid:
        kept = [right for score, right in scored if score >= threshold]
        if kept:
            blocks.append([float(sum(kept)), float(len(kept)), 1.0])
        elif blocks:
            blocks[-1][2] += 1
        else:
            blocks.append([0.0, 0.0, 1.0])
        while len(blocks) > 1 and ratio(blocks[-2]) > ratio(blocks[-1]):
            hits, kept_, count = blocks.pop()
            blocks[-1] = [blocks[-1][0] + hits, blocks[-1][1] + kept_, blocks[-1][2] + count]
    values = [round(ratio(block), 4) for block in blocks for _ in range(int(block[2]))]
    return [[threshold, value] for threshold, value in zip(grid, values)]


def _ratio(block: list[float]) -> float:
    """Hits over kept plus one: a cautious precision, one wrong relation more than seen (few relations say little)."""
    return block[0] / (block[1] + 1)
