"""The Python face of kt_formal, and all the ``kt-formal`` command asks of the package.

The verbs :func:`tour`, :func:`decide`, :func:`count`, :func:`verify` and :func:`census`
are plain functions with full signatures; each returns a result whose ``to_json()`` is
the object the command's ``--json`` prints (schema ``kt-formal/1``, docs/json.md). A
board is a :class:`~kt_formal.board.Board` or its size ``rows, cols`` with
``holes=[(r, c), ...]`` as ``Board`` takes them (see :func:`make_board`). The command
(:mod:`kt_formal.cli`) parses, calls this module and renders: it imports nothing else of
the package but :mod:`kt_formal.io`.

Names are imported on first use (PEP 562), so that ``kt-formal --help`` and ``kt-formal
verify`` start without NumPy's solvers and compiled kernels.

>>> from kt_formal import api
>>> d = api.decide(10, 10, holes=[(1, 6), (1, 7), (2, 6), (2, 7)])
>>> d.answer, d.to_json()["command"], d.question.board.n_holes
('no', 'exists', 4)
>>> api.count(3, 10, time_limit=api.DEFAULT_TIME_LIMIT).count
16
"""

from __future__ import annotations

from kt_formal.exceptions import (CertificateNotChecked, CertificateRejected, InvalidInput, KtFormalError,
                                  LimitReached, ResourceLimit, Worded, exit_code_of, message_in)
from kt_formal.defaults import DEFAULT_THREADS, DEFAULT_TIME_LIMIT
from kt_formal.files import STDOUT, output_file, output_name, reading, refuse_overwrites
from kt_formal.progress import progress_for

#: public name -> the module that defines it, imported on first use.
_LAZY = {
    **dict.fromkeys(("tour", "decide", "count", "make_board", "count_result", "Decision", "CountResult"),
                    "kt_formal.api.answers"),
    **dict.fromkeys(("verify", "verify_database", "Verification", "DatabaseCheck"), "kt_formal.api.checking"),
    **dict.fromkeys(("census", "census_report", "CensusResult", "ReportResult", "CENSUS_TIME_LIMIT", "board_size"),
                    "kt_formal.api.surveys"),
    **dict.fromkeys(("engine_names", "warm_up", "model_pieces", "check_models", "build_models", "frame_model",
                     "graph_summary", "write_knight_graph", "open_tour_exists", "count_sequence", "second_count",
                     "count_method", "parse_threads", "square_name", "MAX_SHORT_SIDE"),
                    "kt_formal.api.tools"),
    **dict.fromkeys(("check_time_limit", "Question", "Limits"), "kt_formal.question"),
    **dict.fromkeys(("command_words", "in_command_words"), "kt_formal.api.words"),
    "Family": "kt_formal.survey.families",
    "MAX_SIDE": "kt_formal.board",
    **dict.fromkeys(("JSON_MAX_SQUARES", "TEXT_SLOW_SQUARES", "json_limit_message", "format_for_path",
                     "write_grid", "BINARY_SUFFIX"), "kt_formal.tourfile"),
}

__all__ = ["tour", "decide", "count", "verify", "census", "census_report", "verify_database", "make_board",
           "count_result", "Decision", "CountResult", "Verification", "DatabaseCheck", "CensusResult",
           "ReportResult", "Family", "CENSUS_TIME_LIMIT", "DEFAULT_TIME_LIMIT", "DEFAULT_THREADS", "check_time_limit", "Question",
           "Limits", "board_size", "engine_names", "warm_up", "model_pieces", "check_models", "build_models",
           "frame_model", "graph_summary", "write_knight_graph", "open_tour_exists", "count_sequence",
           "second_count", "count_method", "parse_threads", "square_name", "MAX_SHORT_SIDE", "MAX_SIDE",
           "JSON_MAX_SQUARES", "TEXT_SLOW_SQUARES", "json_limit_message", "format_for_path", "write_grid",
           "BINARY_SUFFIX", "Worded", "message_in", "command_words", "in_command_words",
           "KtFormalError", "InvalidInput", "ResourceLimit", "CertificateRejected", "CertificateNotChecked",
           "LimitReached", "exit_code_of", "STDOUT", "output_file", "output_name", "reading", "refuse_overwrites",
           "progress_for"]


def __getattr__(name):
    from importlib import import_module

    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'kt_formal.api' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(__all__)
