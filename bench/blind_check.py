"""Check a blind round's hand-written files against its abstracts and paperkg's schema, and count them.

    python bench/blind_check.py bench/data/blind6

entities.tsv (`abstract <TAB> name <TAB> type`): every name is written in its abstract or title (LaTeX and
Markdown emphasis removed; `long form (ACR)` when the long form and the acronym are both written, each checked on
its own), the type is one of the four entity labels, no name twice in one abstract. expected.txt
(`abstract | head | TYPE | tail`): both ends are entities of that abstract, of the labels core/schema.py REL_ENDS
lets the type join. Prints the counts per type; exits 1 when a line fails.
"""
from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

from paperkg.core.schema import ENTITY_LABELS, ENTITY_REL_TYPES, RelType, relation_allowed

ACRONYM_NAME = re.compile(r"^(?P<long>.+) \((?P<short>[^()]+)\)$")


def plain(text: str) -> str:
    """The text a reader sees: \\textbf{X}, \\emph{X} and **X** as X."""
    return re.sub(r"\\(?:textbf|emph|textit)\{([^{}]*)\}", r"\1", text).replace("**", "")


def written(name: str, text: str) -> bool:
    """Whether a name (or both halves of `long form (ACR)`) is written in the text."""
    if name in text:
        return True
    parts = ACRONYM_NAME.match(name)
    return bool(parts) and parts["long"] in text and parts["short"] in text


def check(folder: Path) -> list[str]:
    """The problems found (one line each), after printing the counts."""
    rows = [json.loads(line) for line in (folder / "sample.jsonl").read_text(encoding="utf8").splitlines()]
    texts = [plain(row["title"] + "\n" + row["abstract"]) for row in rows]
    problems: list[str] = []
    types: dict[tuple[int, str], str] = {}
    for number, line in enumerate((folder / "entities.tsv").read_text(encoding="utf8").splitlines(), 1):
        abstract, name, label = line.split("\t")
        key = (int(abstract), name)
        if label not in {str(lab.value) for lab in ENTITY_LABELS}:
            problems.append(f"entities.tsv line {number}: type {label!r} is none of the four entity labels")
        if key in types:
            problems.append(f"entities.tsv line {number}: {name!r} is listed twice for abstract {abstract}")
        if not written(name, texts[int(abstract)]):
            problems.append(f"entities.tsv line {number}: {name!r} is not written in abstract {abstract}")
        types[key] = label
    kinds = {str(kind.value) for kind in ENTITY_REL_TYPES}
    relations = Counter()
    for number, line in enumerate((folder / "expected.txt").read_text(encoding="utf8").splitlines(), 1):
        abstract, head, kind, tail = (part.strip() for part in line.split("|"))
        ends = [types.get((int(abstract), end)) for end in (head, tail)]
        if kind not in kinds:
            problems.append(f"expected.txt line {number}: {kind!r} is not an entity-entity relation type")
        elif None in ends:
            problems.append(f"expected.txt line {number}: an end is not an entity of abstract {abstract}")
        elif not relation_allowed(RelType(kind), ends[0], ends[1]):
            problems.append(f"expected.txt line {number}: {kind} may not join {ends[0]} to {ends[1]}")
        relations[kind] += 1
    entities = Counter(types.values())
    print("entities:", ", ".join(f"{label} {count}" for label, count in entities.most_common()), f"(all {len(types)})")
    print("relations:", ", ".join(f"{kind} {count}" for kind, count in relations.most_common()),
          f"(all {sum(relations.values())})")
    return problems


def main() -> None:
    if len(sys.argv) != 2 or not (Path(sys.argv[1]) / "sample.jsonl").is_file():
        sys.exit("usage: python bench/blind_check.py FOLDER (the folder of sample.jsonl, entities.tsv, expected.txt)")
    problems = check(Path(sys.argv[1]))
    print("\n".join(problems) or "all lines check")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
