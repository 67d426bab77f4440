"""kt_formal: find, build and certify knight's tours.

>>> import kt_formal as kt
>>> result = kt.find_tour(kt.Board(6, 6))
>>> result.status.value, result.tour.check() is None
('found', True)
>>> "importlib" in dir(kt)
False
>>> kt.decide(5, 5).answer
'no'

The command line's verbs are here too, with its options as keyword arguments and results
whose ``to_json()`` is the object ``--json`` prints: ``kt.tour``, ``kt.decide``,
``kt.count``, ``kt.verify``, ``kt.census``, ``kt.census_report`` (see :mod:`kt_formal.api`). Boards and tours
draw themselves in a notebook (``_repr_svg_``, :mod:`kt_formal.svg`).
"""

#: public name -> module defining it; imported on first use (PEP 562), so that
#: ``kt-formal --help`` and ``kt-formal verify`` start without numba or OR-Tools.
_LAZY = {
    "Board": "kt_formal.board",
    "Tour": "kt_formal.tours",
    "knight_graph": "kt_formal.graph",
    "neighbour_table": "kt_formal.graph",
    "check_tour": "kt_formal.certificate",
    "verify_tour": "kt_formal.certificate",
    "find_tour": "kt_formal.solve",
    "Result": "kt_formal.solve",
    "Status": "kt_formal.solve",
    "Question": "kt_formal.solve",
    "tour": "kt_formal.api.answers",
    "decide": "kt_formal.api.answers",
    "count": "kt_formal.api.answers",
    "census": "kt_formal.api.surveys",
    "census_report": "kt_formal.api.surveys",
    "verify": "kt_formal.api.checking",
    "Verification": "kt_formal.api.checking",
    "Family": "kt_formal.survey.families",
    "Decision": "kt_formal.api.answers",
    "CountResult": "kt_formal.api.answers",
    "CensusResult": "kt_formal.api.surveys",
    "ReportResult": "kt_formal.api.surveys",
    "Verdict": "kt_formal.pipeline",
    "find_proof": "kt_formal.proofs",
    "check_proof": "kt_formal.proofs",
    "KtFormalError": "kt_formal.exceptions",
    "InvalidInput": "kt_formal.exceptions",
    "ResourceLimit": "kt_formal.exceptions",
    "CertificateRejected": "kt_formal.exceptions",
    "ProvenImpossible": "kt_formal.exceptions",
    "LimitReached": "kt_formal.exceptions",
}

def __getattr__(name):
    from importlib import import_module

    module = _LAZY.get(name)
    if module is None:
        if name == "io":  # kt_formal.io, e.g. kt_formal.io.render
            return import_module("kt_formal.io")
        raise AttributeError(f"module 'kt_formal' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__():
    """The public names only (the lazily imported ones included)."""
    return sorted(__all__)


__version__ = "0.1.0"

__all__ = [
    "Board",
    "Tour",
    "knight_graph",
    "neighbour_table",
    "check_tour",
    "verify_tour",
    "find_tour",
    "tour",
    "decide",
    "count",
    "census",
    "census_report",
    "verify",
    "Verification",
    "Family",
    "Decision",
    "CountResult",
    "CensusResult",
    "ReportResult",
    "Verdict",
    "find_proof",
    "check_proof",
    "Result",
    "Status",
    "Question",
    "KtFormalError",
    "InvalidInput",
    "ResourceLimit",
    "CertificateRejected",
    "ProvenImpossible",
    "LimitReached",
    "__version__",
]
