"""`paperkg eval acronyms`: the acronym component on SDU@AAAI-21 acronym identification data,
scored the official way (phrase level; short and long forms; macro average).

A phrase is a maximal run of tokens labelled short (or long), identified by (sentence, first
token, last token). P/R/F1 are computed per kind; the macro score averages the two
precisions and the two recalls and takes F1 from those averages.
"""
from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from spacy.tokens import Doc
from spacy.vocab import Vocab

from .acronym_baselines import schwartz_hearst_capitals_labels, schwartz_hearst_labels
from paperkg.core.errors import ExitCode, PaperkgError

KINDS = ("short", "long")
HELD_OUT_PERCENT = 30


@dataclass(frozen=True)
class SduSentence:
    """One SDU item: its id, the given tokens and the gold BIO labels."""

    id: str
    tokens: list[str]
    labels: list[str]


def read_sdu(path: str | Path) -> list[SduSentence]:
    """Read an SDU-format JSON list of {id, tokens, labels}; name the item that is malformed."""
    path = Path(path)
    try:
        items = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise PaperkgError(f"{path}: cannot read the SDU file ({exc.strerror}).", ExitCode.USAGE) from exc
    except json.JSONDecodeError as exc:
        raise PaperkgError(f"{path}:{exc.lineno}: not valid JSON ({exc.msg}).", ExitCode.USAGE) from exc
    if not isinstance(items, list):
        raise PaperkgError(f"{path}: expected a JSON list of {{id, tokens, labels}} items.", ExitCode.USAGE)
    sentences = []
    for n, item in enumerate(items):
        ok = (isinstance(item, dict) and isinstance(item.get("tokens"), list)
              and isinstance(item.get("labels"), list) and len(item["tokens"]) == len(item["labels"]))
        if not ok:
            raise PaperkgError(
                f"{path}: item {n} needs 'tokens' and 'labels' lists of the same length.", ExitCode.USAGE
            )
        sentences.append(SduSentence(str(item.get("id", n)), list(item["tokens"]), list(item["labels"])))
    return sentences


def is_held_out(sentence_id: str) -> bool:
    """Deterministic 70/30 split by a hash of the id: the 30% was never used to tune rules."""
    digest = hashlib.sha1(sentence_id.encode("utf-8")).digest()
    return int.from_bytes(digest[:4], "big") % 100 < HELD_OUT_PERCENT


def phrases(labels: list[str], kind: str) -> list[tuple[int, int]]:
    """Maximal runs (first, last token, inclusive) of tokens labelled B-/I-<kind>."""
    runs, start = [], None
    for i, label in enumerate(list(labels) + ["O"]):
        inside = label.endswith("-" + kind)
        if inside and start is None:
            start = i
        elif not inside and start is not None:
            runs.append((start, i - 1))
            start = None
    return runs


def _prf(tp: int, predicted: int, gold: int) -> dict[str, float]:
    precision = tp / predicted if predicted else 0.0
    recall = tp / gold if gold else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": precision, "recall": recall, "f1": f1, "gold": gold, "predicted": predicted, "correct": tp}


def score(gold: list[list[str]], predicted: list[list[str]]) -> dict[str, dict[str, float]]:
    """Official SDU phrase-level scores for parallel lists of per-sentence label lists."""
    if len(gold) != len(predicted):
        raise ValueError(f"{len(gold)} gold sentences but {len(predicted)} predicted")
    result: dict[str, dict[str, float]] = {}
    for kind in KINDS:
        g = {(n, s, e) for n, labels in enumerate(gold) for s, e in phrases(labels, kind)}
        p = {(n, s, e) for n, labels in enumerate(predicted) for s, e in phrases(labels, kind)}
        result[kind] = _prf(len(g & p), len(p), len(g))
    precision = sum(result[k]["precision"] for k in KINDS) / len(KINDS)
    recall = sum(result[k]["recall"] for k in KINDS) / len(KINDS)
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    result["macro"] = {"precision": precision, "recall": recall, "f1": f1}
    return result


def paperkg_labeller() -> Callable[[list[list[str]]], list[list[str]]]:
    """Label token lists with the pipeline's acronym component on the given tokens.

    The component reads token texts only, so the Docs get a plain Vocab without lexical
    attribute getters: with English's, Doc(vocab, words=...) computes shape, like_num,
    like_url... for every new word.
    """
    from paperkg.extract.acronyms import bio_labels
    from paperkg.extract.pipeline_cache import cached_pipeline

    component = cached_pipeline(rules_only=True).get_pipe("paperkg_acronyms")
    vocab = Vocab()

    def label(token_lists: list[list[str]]) -> list[list[str]]:
        return [bio_labels(component(Doc(vocab, words=tokens))) for tokens in token_lists]

    return label


def _per_sentence(labeller: Callable[[list[str]], list[str]]) -> Callable[[list[list[str]]], list[list[str]]]:
    return lambda token_lists: [labeller(tokens) for tokens in token_lists]


SYSTEMS: dict[str, Callable[[], Callable[[list[list[str]]], list[list[str]]]]] = {
    "paperkg": paperkg_labeller,
    "schwartz-hearst": lambda: _per_sentence(schwartz_hearst_labels),
    "schwartz-hearst-capitals": lambda: _per_sentence(schwartz_hearst_capitals_labels),
}


def run(path: str | Path, predictions_out: str | Path | None = None, system: str = "paperkg") -> dict:
    """Label an SDU file with `system`, score it (whole file and the tune/held-out parts) and
    optionally write the predictions as JSON for error analysis."""
    if system not in SYSTEMS:
        raise PaperkgError(f"unknown acronym system {system!r}; choose one of {', '.join(SYSTEMS)}.")
    sentences = read_sdu(path)
    labeller = SYSTEMS[system]()
    token_lists = [s.tokens for s in sentences]
    predicted, cold = _timed(labeller, token_lists)
    _, warm = _timed(labeller, token_lists)
    gold = [s.labels for s in sentences]
    parts = {"held_out": [is_held_out(s.id) for s in sentences]}
    parts["tune"] = [not h for h in parts["held_out"]]
    kept = {name: ([g for g, k in zip(gold, keep, strict=True) if k],
                   [p for p, k in zip(predicted, keep, strict=True) if k]) for name, keep in parts.items()}
    result = {
        "system": system,
        "file": str(path),
        "sentences": len(sentences),
        "speed": {"first_pass": cold, "second_pass": warm},
        "sentences_per_second": warm["sentences_per_second"],
        "scores": score(gold, predicted),
        "parts": {name: {"sentences": len(g), "scores": score(g, p)} for name, (g, p) in kept.items()},
    }
    if predictions_out is not None:
        _write_predictions(Path(predictions_out), sentences, predicted)
    return result


def _timed(labeller: Callable[[list[list[str]]], list[list[str]]], token_lists: list[list[str]]
           ) -> tuple[list[list[str]], dict[str, float]]:
    """Label once; wall-clock and CPU throughput (CPU time is what one process costs when
    other jobs share the machine). The first pass also fills spaCy's vocabulary."""
    wall, cpu = time.perf_counter(), time.process_time()
    predicted = labeller(token_lists)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    n = len(token_lists)
    return predicted, {
        "seconds": round(wall, 4),
        "sentences_per_second": round(n / wall, 1) if wall else 0.0,
        "sentences_per_cpu_second": round(n / cpu, 1) if cpu else 0.0,
    }


def _write_predictions(path: Path, sentences: list[SduSentence], predicted: list[list[str]]) -> None:
    rows = [{"id": s.id, "tokens": s.tokens, "labels": s.labels, "predicted": p}
            for s, p in zip(sentences, predicted, strict=True)]
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
    tmp.replace(path)


def _score_lines(scores: dict) -> list[str]:
    lines = []
    for kind in (*KINDS, "macro"):
        s = scores[kind]
        lines.append(f"  {kind:<6} P {s['precision']:.4f}  R {s['recall']:.4f}  F1 {s['f1']:.4f}")
    return lines


def format_report(result: dict) -> str:
    """Human-readable report of run()'s result."""
    speed = result["speed"]
    lines = [f"{result['system']} on {result['file']}: {result['sentences']} sentences",
             *(f"  {name.replace('_', ' ')}: {s['sentences_per_second']} sentences/s "
               f"({s['sentences_per_cpu_second']} per CPU second)" for name, s in speed.items()),
             "whole file:", *_score_lines(result["scores"])]
    for name, part in result["parts"].items():
        lines += [f"{name} part ({part['sentences']} sentences, split by a hash of the id):",
                  *_score_lines(part["scores"])]
    return "\n".join(lines)
