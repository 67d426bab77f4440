"""The command's words for the options that the package's messages name.

A message that names an option is a :class:`~kt_formal.exceptions.Worded` text: a Python
caller reads it naming the keyword argument (``resume=True``); the command shows it naming
its own option (``--resume``) through :func:`in_command_words`, and nothing else changes.

>>> from kt_formal.exceptions import Worded
>>> in_command_words(Worded("{dask} counts one board at a time", {"dask": "dask"}))
'--dask counts one board at a time'
"""

from __future__ import annotations

from kt_formal.exceptions import Worded, message_in

__all__ = ["command_words", "in_command_words"]


def command_words() -> dict:
    """How the command names each field a message may hold: its option."""
    from kt_formal.counting.policy import COMMAND_WORDS
    from kt_formal.survey.families import COMMAND_WORDS as CENSUS_WORDS
    from kt_formal.tourfile import BINARY_SUFFIX

    return {**CENSUS_WORDS, **COMMAND_WORDS, "remove squares": "--remove-squares", "csv": "--csv",
            "findings": "--findings", "dask": "--dask", "sequence": "a --sequence", "no mirror": "--no-mirror",
            "check": "--check", "engine cpsat": "--engine cpsat", "out binary": f"--out FILE{BINARY_SUFFIX}",
            "out npy": "--out FILE.npy", "format succ": "--format succ",
            "writes succ": "'kt-formal tour --format succ'", "closed": "--closed",
            "replay": "kt-formal verify --replay FILE"}


def in_command_words(what) -> str:
    """``what`` (an exception or a text) as the command says it: the options it names as
    the command's (:func:`command_words`, loaded only then), when it names any."""
    text = what if isinstance(what, str) else what.args[0] if len(what.args) == 1 else None
    return message_in(what, command_words()) if isinstance(text, Worded) else str(what)
