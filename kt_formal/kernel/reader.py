"""Strict, bounded reading of certificates: nothing read is trusted, nothing is read without limit.

* At most :data:`MAX_BYTES` are read from any input: regular files, devices such as
  ``/dev/zero``, pipes and FIFOs (opened without blocking, so a FIFO with no writer
  cannot stall the reader, and a silent writer is given up after :data:`WAIT_SECONDS`).
* JSON is parsed strictly: a duplicate key, ``NaN`` or ``Infinity``, an integer of more
  than :data:`MAX_DIGITS` digits or nesting deeper than Python allows is refused, naming
  where in the file it stands.

>>> loads_strict('{"a": 1, "a": 2}')
Traceback (most recent call last):
...
kt_formal.kernel.errors.CertificateRejected: duplicate key 'a' (line 1)
"""

from __future__ import annotations

import json
import math
import os
import re
import select
import stat
import sys
import time

from kt_formal.kernel.errors import CertificateRejected, InvalidInput

__all__ = ["MAX_BYTES", "UTF8_BOM", "FILE_KINDS", "file_kind", "read_bounded", "loads_strict", "read_certificate", "certificate_from_text"]

#: Largest certificate read (bytes). A JSON tour is limited to 10^6 squares, about 15 MB.
MAX_BYTES = 64 << 20
#: Longest integer accepted in a certificate (digits).
MAX_DIGITS = 30
#: How long a pipe or FIFO may stay silent before the reader gives up (seconds).
WAIT_SECONDS = 10.0


#: The UTF-8 byte-order mark some editors write at the start of a text file: read past, not refused.
UTF8_BOM = b"\xef\xbb\xbf"

#: What a path is when it is not a regular file, by its mode: the words of every reader's refusal.
FILE_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
              (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def file_kind(mode: int) -> str | None:
    """What a file of ``mode`` (``os.stat(...).st_mode``) is when not a regular file, else None.

    >>> file_kind(stat.S_IFIFO), file_kind(stat.S_IFREG) is None
    ('a FIFO (named pipe)', True)
    """
    for test, kind in FILE_KINDS:
        if test(mode):
            return kind
    return None


def read_bounded(path, limit: int = MAX_BYTES, what: str = "") -> bytes:
    """The bytes of ``path`` (``-`` for standard input), refusing more than ``limit``.

    A pipe or a device is read too (``verify <(kt-formal tour ...)``), within the same bound;
    one that gives no data is refused, saying what it is (a FIFO without a writer, say)."""
    name = "standard input" if str(path) == "-" else str(path)
    try:
        if str(path) == "-":
            fd, close = sys.stdin.fileno(), False
        else:
            fd, close = os.open(path, os.O_RDONLY | os.O_NONBLOCK), True
    except FileNotFoundError:
        raise InvalidInput(f"{what}{name} does not exist") from None
    except OSError as exc:
        raise InvalidInput(f"cannot read {what}{name}: {exc.strerror}") from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise InvalidInput(f"{what}{name} is a directory")
        if stat.S_ISREG(st.st_mode) and st.st_size > limit:
            raise InvalidInput(f"{what}{name} is {st.st_size:,} bytes; certificates are read up to {limit:,} bytes")
        chunks, size = [], 0
        deadline = time.monotonic() + WAIT_SECONDS
        while size <= limit:
            try:
                chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            except BlockingIOError:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([fd], [], [], left)[0]:
                    raise InvalidInput(f"{what}{name} gave no data for {WAIT_SECONDS:g} s") from None
                continue
            except OSError as exc:
                raise InvalidInput(f"cannot read {what}{name}: {exc.strerror}") from None
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            deadline = time.monotonic() + WAIT_SECONDS
        if size > limit:
            raise InvalidInput(f"{what}{name} holds more than {limit:,} bytes; certificates are "
                               f"read up to that size")
        kind = file_kind(st.st_mode)
        if not size and close and kind is not None:
            raise InvalidInput(f"{what}{name} is {kind}, not a regular file, and gave no data")
        return b"".join(chunks)
    finally:
        if close:
            os.close(fd)


def _line_of(text: str, pattern: str, nth: int = 0) -> str:
    found = list(re.finditer(pattern, text))
    if len(found) > nth:
        return f"line {text.count(chr(10), 0, found[nth].start()) + 1}"
    return "somewhere"


def loads_strict(text: str):
    """Parse JSON refusing duplicate keys, NaN/Infinity and absurd integers."""

    def pairs(items):
        out = {}
        for k, v in items:
            if k in out:
                where = _line_of(text, r'"%s"\s*:' % re.escape(k), 1)
                raise CertificateRejected(f"duplicate key {k!r} ({where})")
            out[k] = v
        return out

    def constant(name):
        raise CertificateRejected(f"{name} is not a number a certificate may hold "
                                  f"({_line_of(text, re.escape(name))})")

    def integer(digits: str):
        if len(digits.lstrip("-")) > MAX_DIGITS:
            raise CertificateRejected(f"an integer of {len(digits.lstrip('-'))} digits "
                                      f"({_line_of(text, re.escape(digits[:20]))}) is too large")
        return int(digits)

    def real(digits: str):
        x = float(digits)
        if not math.isfinite(x):
            raise CertificateRejected(f"the number {digits[:20]} ({_line_of(text, re.escape(digits[:20]))}) "
                                      "is not finite")
        return x

    try:
        return json.loads(text, object_pairs_hook=pairs, parse_constant=constant, parse_int=integer,
                          parse_float=real)
    except json.JSONDecodeError as exc:
        raise CertificateRejected(f"not valid JSON (line {exc.lineno}, column {exc.colno}: "
                                  f"{exc.msg}); truncated or corrupted?") from None
    except RecursionError:
        raise CertificateRejected("nested too deeply to be a certificate") from None


def read_certificate(path, limit: int = MAX_BYTES) -> dict:
    """Read a certificate file: bounded, UTF-8 (a byte-order mark at its start read past),
    strict JSON, a JSON object."""
    data = read_bounded(path, limit, what="certificate ").removeprefix(UTF8_BOM)  # an editor's byte-order mark
    if not data.strip():
        raise InvalidInput(f"certificate {'standard input' if str(path) == '-' else path} is empty")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CertificateRejected(f"not UTF-8 text (byte {exc.start})") from None
    return certificate_from_text(text, limit)


def certificate_from_text(text, limit: int = MAX_BYTES) -> dict:
    """A certificate held as text (a census row's, say), read as :func:`read_certificate`
    reads a file: at most ``limit`` characters, strict JSON, a JSON object.

    >>> certificate_from_text('{"kind": "tour", "kind": "proof"}')
    Traceback (most recent call last):
    ...
    kt_formal.kernel.errors.CertificateRejected: duplicate key 'kind' (line 1)
    """
    if not isinstance(text, str):
        raise CertificateRejected(f"a certificate must be JSON text, not {type(text).__name__}")
    if len(text) > limit:
        raise CertificateRejected(f"a certificate of {len(text):,} characters; certificates are read up to "
                                  f"{limit:,}")
    d = loads_strict(text)
    if not isinstance(d, dict):
        raise CertificateRejected("a certificate must be a JSON object")
    return d
