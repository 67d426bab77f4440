"""The root of kt_formal's exception tree and the errors the kernel raises itself.

Every error the toolkit raises on purpose derives from :class:`KtFormalError`. The rest
of the tree (errors of searches and limits) and what the command line makes of each (its
exit code) are above the kernel, in :mod:`kt_formal.exceptions`.

>>> issubclass(CertificateNotChecked, CertificateRejected)
True
"""

import re

__all__ = ["KtFormalError", "InvalidInput", "CertificateRejected", "CertificateNotChecked", "Worded"]


class KtFormalError(Exception):
    """Base of every error kt_formal raises on purpose."""


class InvalidInput(KtFormalError, ValueError):
    """Bad input: a size out of range, a square off the board, a malformed file."""


class CertificateRejected(KtFormalError):
    """A tour or proof certificate failed independent verification."""


class CertificateNotChecked(CertificateRejected):
    """The certificate is a record that only re-running an engine could confirm.

    The kernel runs no search, so it accepts nothing on such a record's word;
    ``kt-formal verify --replay`` re-runs the engine, and says that it trusted it.
    """


class Worded(str):
    """A message that names options: the string names them in Python's words (``python``,
    a field of ``template`` each); :meth:`in_words` names them in other words (the command's).

    Parameters
    ----------
    template : str
        The message with a ``{field}`` for each option it names.
    python : mapping
        Each field in Python's words (a keyword argument: ``resume=True``).
    """

    template: str
    python: dict

    def __new__(cls, template: str, python):
        text = super().__new__(cls, _fill(template, python))
        text.template, text.python = template, dict(python)
        return text

    def __reduce__(self):  # pickled with its fields (errors cross process pools)
        return Worded, (self.template, self.python)

    def edited(self, edit) -> "Worded":
        """This message with ``edit`` (a function of a text) applied to its template."""
        return Worded(edit(self.template), self.python)

    def in_words(self, words) -> str:
        """The message with each field named by ``words`` (Python's where ``words`` has none)."""
        return _fill(self.template, {k: words.get(k, v) for k, v in self.python.items()})


def _fill(template: str, words) -> str:
    """``template`` with each ``{field}`` of ``words`` replaced (other braces, such as a file
    name's, are left as they are)."""
    return re.sub(r"\{([^{}]+)\}", lambda m: words.get(m[1], m[0]), template)
