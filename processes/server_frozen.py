"""Imported last in a pre-loaded pool's fork server (paperkg.processes.pool), after the modules that load
what the workers share: the heap is frozen, so the workers' garbage collections do not write to (and so
copy) the pages it lies in, and the free heap loading left (~10 MB the server and every worker would
otherwise hold) is given back."""
import gc

from paperkg.processes.memory import release_free_heap

gc.collect()
gc.freeze()
release_free_heap()
