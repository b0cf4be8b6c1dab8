"""Join the hand-written acronym definitions of bench/data/acronyms_fields_dev/ to their abstracts, with offsets.

    python bench/acronym_fields_offsets.py

definitions.tsv (`id <TAB> short form <TAB> long form`, written by hand from sample.jsonl) gives no positions:
each definition is looked up in its abstract as the long form and the short form side by side, in either order,
with only a bracket, a slash or a closing LaTeX brace between them ("long form (SF)", "SF (long form)",
"\\emph{long form} (SF)", "(long form / SF)"). A definition written twice in the list is the second such place.
A definition found nowhere stops the script with its line.
Writes acronyms_fields_dev.jsonl (the format of tests/data/acronyms_noncs_dev.jsonl, plus field and title) and
prints the counts per field.
"""
from __future__ import annotations

import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

FOLDER = Path(__file__).parent / "data" / "acronyms_fields_dev"
BETWEEN = re.compile(r"\s*\}?\s*[(/]\s*")


def places(text: str, short: str, long: str) -> list[dict]:
    """Every place where the long and the short form stand side by side, in text order."""
    found = []
    for first, second, short_first in ((long, short, False), (short, long, True)):
        for head in re.finditer(re.escape(first), text):
            rest = text[head.end():]
            gap = BETWEEN.match(rest)
            if gap and rest[gap.end():].startswith(second) and not rest[gap.end() + len(second):][:1].isalnum():
                start = head.end() + gap.end()
                spans = ((head.start(), head.end()), (start, start + len(second)))
                (s_start, s_end), (l_start, l_end) = spans if short_first else spans[::-1]
                found.append({"short": short, "long": long, "short_start": s_start, "short_end": s_end,
                              "long_start": l_start, "long_end": l_end})
    return sorted(found, key=lambda d: min(d["short_start"], d["long_start"]))


def main() -> None:
    rows = [json.loads(line) for line in (FOLDER / "sample.jsonl").read_text(encoding="utf8").splitlines()]
    wanted: dict[str, list[tuple[int, str, str]]] = defaultdict(list)
    for number, line in enumerate((FOLDER / "definitions.tsv").read_text(encoding="utf8").splitlines(), 1):
        paper, short, long = line.split("\t")
        wanted[paper].append((number, short, long))
    unknown = set(wanted) - {row["id"] for row in rows}
    if unknown:
        sys.exit(f"definitions.tsv names ids that sample.jsonl lacks: {sorted(unknown)}")
    counts: Counter[str] = Counter()
    with (FOLDER / "acronyms_fields_dev.jsonl").open("w", encoding="utf8") as out:
        for row in rows:
            used: Counter[tuple[str, str]] = Counter()
            definitions = []
            for number, short, long in wanted[row["id"]]:
                options = places(row["text"], short, long)
                if used[short, long] >= len(options):
                    sys.exit(f"definitions.tsv line {number}: {short!r} = {long!r} is not written side by side "
                             f"in {row['id']} (found {len(options)} times)")
                definitions.append(options[used[short, long]])
                used[short, long] += 1
            counts[row["field"]] += len(definitions)
            out.write(json.dumps({"id": row["id"], "field": row["field"], "categories": row["categories"],
                                  "license": row["license"], "title": row["title"], "text": row["text"],
                                  "definitions": sorted(definitions, key=lambda d: d["long_start"])},
                                 ensure_ascii=False) + "\n")
    print(", ".join(f"{field} {count}" for field, count in counts.items()), f"(all {sum(counts.values())})")


if __name__ == "__main__":
    main()
