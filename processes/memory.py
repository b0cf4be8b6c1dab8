"""The C heap's free pages given back to the system."""
from __future__ import annotations

import sys

from paperkg.processes.forked import libc


def release_free_heap() -> None:
    """Give the C heap's free pages back to the system (glibc's malloc_trim; a no-op elsewhere): the fork
    server's after loading what the workers share, which it and every worker would otherwise keep (~10 MB
    each). Not after each batch in the workers: it costs ~15% more CPU (the next batch faults the pages in
    again) and hardly lowers their peak, which is the batch's own activations (docs/performance.md)."""
    trim = getattr(libc(), "malloc_trim", None) if sys.platform.startswith("linux") else None
    if trim is not None:
        trim(0)
