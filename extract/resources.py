"""The data files of the rule components: read from extract/data/ when a pipeline is assembled,
saved with the pipeline (`nlp.to_disk`) and read back from there (`spacy.load`).

A component keeps its files byte for byte, so a saved pipeline holds exactly the word lists,
cues, lexicons and statistics it ran with, whatever the installed package has since.
"""
from __future__ import annotations

import gzip
import json
from collections.abc import Iterable
from importlib import resources
from pathlib import Path
from typing import Any

import srsly
from spacy.tokens import Doc

DATA_DIR = Path(str(resources.files(__package__) / "data"))


class DataFiles:
    """Named data files (names relative to a data directory) kept as their exact bytes, with parsers
    for the formats used; a name ending in .gz is read through gzip."""

    def __init__(self, contents: dict[str, bytes]) -> None:
        self.contents = dict(sorted(contents.items()))

    @classmethod
    def read(cls, directory: Path, names: Iterable[str]) -> DataFiles:
        """The named files of `directory`; a missing one is a ValueError naming it."""
        contents = {}
        for name in names:
            path = directory / name
            if not path.is_file():
                raise ValueError(f"{path}: data file missing (a paperkg pipeline component needs it).")
            contents[name] = path.read_bytes()
        return cls(contents)

    def write(self, directory: Path) -> None:
        """Write every file under `directory`, creating subfolders as needed."""
        for name, content in self.contents.items():
            path = directory / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)

    def to_bytes(self) -> bytes:
        """The files as one msgpack blob."""
        return srsly.msgpack_dumps(self.contents)

    @classmethod
    def from_bytes(cls, data: bytes) -> DataFiles:
        """The files from `to_bytes` output."""
        return cls(srsly.msgpack_loads(data))

    def text(self, name: str) -> str:
        """A file's text (UTF-8; gunzipped first for a .gz name)."""
        content = self.contents[name]
        return (gzip.decompress(content) if name.endswith(".gz") else content).decode("utf8")

    def lines(self, name: str) -> tuple[str, ...]:
        """Non-empty lines that are not comments ('#')."""
        return tuple(line for line in self.text(name).splitlines() if line.strip() and not line.startswith("#"))

    def words(self, name: str) -> frozenset[str]:
        """The lines of a word list, lower-cased and stripped."""
        return frozenset(line.strip().lower() for line in self.lines(name))

    def table(self, name: str) -> tuple[tuple[str, ...], ...]:
        """Rows of a tab-separated file, cells stripped."""
        return tuple(tuple(cell.strip() for cell in line.split("\t")) for line in self.lines(name))

    def json(self, name: str) -> Any:
        """A JSON file's value."""
        return json.loads(self.text(name))


class DataComponent:
    """Base of the rule components whose behaviour comes from data files.

    `initialize(data_dir=...)` reads the files (the pipeline config points it at extract/data/),
    `to_disk`/`from_disk` and `to_bytes`/`from_bytes` save and restore them with the pipeline;
    subclasses build their matchers and word sets in `build` and do their work in `process`.
    """

    def __init__(self, name: str, files: Iterable[str]) -> None:
        self.name = name
        self.files = tuple(sorted(set(files)))
        self.data: DataFiles | None = None

    def __call__(self, doc: Doc) -> Doc:
        if self.data is None:
            raise ValueError(f"pipeline component {self.name!r} has no data files: load the pipeline with "
                             "paperkg.load_pipeline() or spacy.load(), or call nlp.initialize().")
        return self.process(doc)

    def process(self, doc: Doc) -> Doc:
        """Annotate one Doc (the data is loaded)."""
        raise NotImplementedError

    def build(self, data: DataFiles) -> None:
        """Derive the component's matchers and word sets from its data files."""
        raise NotImplementedError

    def load(self, data: DataFiles) -> None:
        """Take `data` as the component's files and rebuild from them."""
        self.build(data)
        self.data = data

    def initialize(self, get_examples: Any = None, *, nlp: Any = None, data_dir: str | None = None) -> None:
        """Read the data files from `data_dir` (default: the package's extract/data/)."""
        self.load(DataFiles.read(Path(data_dir) if data_dir else DATA_DIR, self.files))

    def to_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> None:
        """Save the data files into the component's folder of a saved pipeline."""
        self._loaded().write(Path(path))

    def from_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> DataComponent:
        """Load the data files saved with a pipeline."""
        self.load(DataFiles.read(Path(path), self.files))
        return self

    def to_bytes(self, *, exclude: Iterable[str] = ()) -> bytes:
        """The data files as bytes."""
        return self._loaded().to_bytes()

    def from_bytes(self, data: bytes, *, exclude: Iterable[str] = ()) -> DataComponent:
        """Load the data files from `to_bytes` output."""
        self.load(DataFiles.from_bytes(data))
        return self

    def _loaded(self) -> DataFiles:
        if self.data is None:
            raise ValueError(f"pipeline component {self.name!r} has no data files to save.")
        return self.data
