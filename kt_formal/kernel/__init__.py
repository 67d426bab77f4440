"""The trusted kernel of kt_formal: everything a claim of the toolkit rests on.

It imports the standard library and numpy only, and nothing else of kt_formal, so it
can be read in one sitting and checked on its own. It runs no search.

* :mod:`~kt_formal.kernel.geometry`: squares, colours, knight moves.
* :mod:`~kt_formal.kernel.errors`: the one exception tree.
* :mod:`~kt_formal.kernel.shape`: the board a certificate names, read strictly.
* :mod:`~kt_formal.kernel.tourcheck`: the tour check (numpy, chunked).
* :mod:`~kt_formal.kernel.proofcheck`: a checker for every proof kind.
* :mod:`~kt_formal.kernel.reader`: bounded reading of files, strict JSON.
* :mod:`~kt_formal.kernel.cnf`: the arc CNF of "there is a tour", and cut axioms.
* :mod:`~kt_formal.kernel.rup`: the DRUP checker of ``drup`` certificates.
* :mod:`~kt_formal.kernel.check`: :func:`check_certificate`, the one entry.

The names below are loaded on first use, so that importing the exception tree
(:mod:`kt_formal.kernel.errors`) does not import numpy.

>>> from kt_formal import kernel
>>> sorted(kernel.KINDS)
['drup', 'proof', 'tour']
"""

__all__ = ["FORMAT", "KINDS", "Claim", "check_certificate", "check_proof", "check_tour", "check_tour_certificate",
           "read_certificate", "tour_squares"]


def __getattr__(name):
    if name not in __all__:
        raise AttributeError(f"module 'kt_formal.kernel' has no attribute {name!r}")
    from kt_formal.kernel import check  # every name above is there

    return getattr(check, name)


def __dir__():
    return sorted([*globals(), *__all__])
