"""What a build needs to know of the pipeline without loading it: where the shipped model lies and
the longest text it takes. Importing this imports no spaCy, so a build whose workers extract never
pays for spaCy's import in its own process (about 1 s of CPU before the workers can start).
"""
from __future__ import annotations

from pathlib import Path

DEFAULT_MODEL = Path(__file__).parent / "model"
# The longest text the pipeline takes (spaCy's own default, set here explicitly): every component
# is linear in the text up to it; a longer abstract is skipped with a warning before extraction.
MAX_TEXT_CHARS = 1_000_000
# Abstracts per spaCy batch: the tok2vec's activations for the batch in flight are most of a worker's peak
# memory (32 abstracts about 75 MB, 8 about 22 MB) at no cost in CPU, and the output is the same for any size.
BATCH_SIZE = 8
