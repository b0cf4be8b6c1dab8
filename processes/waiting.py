"""Work this process does while it only waits on its workers: the next step's imports, declared by the
caller (`when_idle`) and run by the code that waits (`idle`), so that neither passes it through the calls
between them."""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress

_declared: list[Callable[[], object]] = []


@contextmanager
def when_idle(work: Callable[[], object]) -> Iterator[None]:
    """Declare `work` for the block: an `idle()` block inside it runs the work beside itself."""
    _declared.append(work)
    try:
        yield
    finally:
        _declared.remove(work)


@contextmanager
def idle() -> Iterator[None]:
    """Run the declared work in a thread of this process while the block runs (the block only waits on
    other processes), joined before it ends (nothing forks with a thread half way through an import). A
    failure is left to the real import to report."""
    work = list(_declared)
    if not work:
        yield
        return

    def run() -> None:
        for item in work:
            with suppress(Exception):
                item()

    thread = threading.Thread(target=run, name="paperkg-idle", daemon=True)
    thread.start()
    try:
        yield
    finally:
        thread.join()
