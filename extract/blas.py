"""The trained components' matrix products on numpy's BLAS, one thread per process.

Why: thinc's NumpyOps multiplies with BLIS by default, and the BLIS wheel selects its 'generic'
sub-configuration on this project's CPU (AMD EPYC; `BLIS_ARCH_DEBUG=1` says so): 34 GFLOP/s where
numpy's OpenBLAS does 77 in one thread on the tok2vec's products (a batch's thousands of token rows
by 288 columns), which are half of the extraction's CPU time: 12,000 -> 16,900 words per CPU second
on the example corpus. The sums come out in another order, so the last bits of the scores differ:
on 1,000 real abstracts one relation's confidence moved by 0.0001. One
thread: parallel extraction already runs one worker per core, and BLAS threads competing with them
for the cores cost more CPU than they save.
"""
from __future__ import annotations

from spacy.language import Language
from thinc.api import Model, NumpyOps
from threadpoolctl import threadpool_limits

_NUMPY_BLAS = NumpyOps(use_blis=False)


def use_numpy_blas(nlp: Language) -> None:
    """Run every layer of the pipeline's trained components on numpy's BLAS, in one thread."""
    for _, component in nlp.components:
        model = getattr(component, "model", None)
        if isinstance(model, Model):
            for layer in model.walk():
                layer.ops = _NUMPY_BLAS
    threadpool_limits(limits=1, user_api="blas")
