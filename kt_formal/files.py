"""The user's files: read bounded, written whole, never one over the other.

Every file a command reads must be a *regular file* (a FIFO would block for ever,
a device such as ``/dev/zero`` never ends) and is read up to a byte limit; every
failure is one clear :class:`InvalidInput` line. Every file a command writes is an
*output*: :class:`output_file` refuses one that is a file the command reads (same
path, or the same file through a hard link or a symbolic link), writes to a
temporary name in the same folder and renames it into place only when the writing
succeeded, so a failed command leaves an existing file as it was; ``-`` is standard
output.

>>> read_user_text("/nonexistent/board.txt", what="mask file ")
Traceback (most recent call last):
...
kt_formal.kernel.errors.InvalidInput: mask file /nonexistent/board.txt does not exist
"""

from __future__ import annotations

import os
import stat
import sys
from contextlib import contextmanager
from pathlib import Path

from kt_formal.exceptions import InvalidInput
from kt_formal.kernel.reader import file_kind

__all__ = ["user_file_errors", "regular_file", "read_user_bytes", "read_user_text", "same_file",
           "refuse_overwrites", "reading", "output_file", "OutputFile", "output_name", "STDOUT"]

#: The name that means standard output wherever a file is written.
STDOUT = "-"

#: The files the running command reads (see :func:`reading`); no output may be one of them.
_READING: list = []


@contextmanager
def user_file_errors(path, what: str = ""):
    """Turn OS and decoding errors met while reading ``path`` into :class:`InvalidInput`.

    ``what`` is a prefix such as ``"mask file "`` for the messages.
    """
    p = Path(path)
    try:
        yield p
    except FileNotFoundError:
        raise InvalidInput(f"{what}{p} does not exist") from None
    except IsADirectoryError:
        raise InvalidInput(f"{what}{p} is a directory") from None
    except UnicodeDecodeError:
        raise InvalidInput(f"{what}{p} is not a text file") from None
    except OSError as exc:
        raise InvalidInput(f"cannot read {what}{p}: {exc.strerror}") from None


def regular_file(path, what: str = "") -> Path:
    """``path`` as a Path, refusing (through symbolic links) anything but a regular file.

    Only the status is asked, the file is not opened: a FIFO without a writer is refused
    at once instead of blocking, a device (``/dev/zero``) instead of being read for ever.
    """
    with user_file_errors(path, what) as p:
        st = p.stat()
    kind = file_kind(st.st_mode)
    if kind is not None:
        raise InvalidInput(f"{what}{p} is {kind}, not a regular file")
    return p


def read_user_bytes(path, what: str = "", limit: int = 1 << 30) -> bytes:
    """The bytes of a regular file, refusing one over ``limit`` bytes before reading it
    (and reading at most ``limit + 1`` bytes, should it grow meanwhile)."""
    p = regular_file(path, what)
    size = p.stat().st_size
    if size > limit:
        raise InvalidInput(f"{what}{p} is {size} bytes; the limit is {_limit_words(limit)}")
    with user_file_errors(p, what), open(p, "rb") as fh:
        data = fh.read(min(size, limit) + 1)  # (a read of limit + 1 bytes asks for a buffer that large)
        if len(data) > size:  # it grew meanwhile: read on, up to the limit
            data += fh.read(limit + 1 - len(data))
    if len(data) > limit:
        raise InvalidInput(f"{what}{p} holds more than {limit} bytes; the limit is {_limit_words(limit)}")
    return data


def _limit_words(limit: int) -> str:
    return f"{limit >> 20} MiB" if limit >= 1 << 20 else f"{limit} bytes"


def read_user_text(path, what: str = "", limit: int = 1 << 30) -> str:
    """The UTF-8 text of a regular file of at most ``limit`` bytes (:func:`read_user_bytes`)."""
    data = read_user_bytes(path, what, limit)
    with user_file_errors(path, what):
        return data.decode("utf-8")


# ---------------------------------------------------------------------- outputs
def output_name(path) -> str:
    """How messages name an output: its path, or "standard output" for ``-``."""
    return "standard output" if str(path) == STDOUT else str(path)


def same_file(a, b) -> bool:
    """Whether paths ``a`` and ``b`` name one file: the same path, or (both existing) the
    same device and inode, as a hard link or a symbolic link gives."""
    if os.path.abspath(a) == os.path.abspath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def refuse_overwrites(outputs, inputs=()) -> None:
    """Refuse (InvalidInput) an output that is one of ``inputs`` or another output.

    ``outputs`` and ``inputs`` are ``(name, path)`` pairs, ``name`` the option that gave
    the path (for the message). Standard output (``-``) may be given once.
    """
    outputs = [(n, str(p)) for n, p in outputs if p]
    inputs = [(n, str(p)) for n, p in inputs if p and str(p) != STDOUT]
    for i, (name, path) in enumerate(outputs):
        for _, src in inputs:
            if path != STDOUT and same_file(path, src):
                what = "a file the command reads" if path == src else f"the same file as {src}, which the command reads"
                raise InvalidInput(f"{name} {path} is {what}: refusing to write over it")
        for other, earlier in outputs[:i]:
            if path == earlier == STDOUT or (STDOUT not in (path, earlier) and same_file(path, earlier)):
                raise InvalidInput(f"{name} {path} is also the output of {other}: give each output its own file")


@contextmanager
def reading(paths):
    """While the block runs, every :class:`output_file` refuses to write over ``paths``."""
    paths = [str(p) for p in paths if p and str(p) != STDOUT]
    _READING.extend(paths)
    try:
        yield
    finally:
        del _READING[len(_READING) - len(paths):]


class OutputFile:
    """A file written whole or not at all (see the module docstring); made by :func:`output_file`.

    ``with output_file(path) as fh:`` gives an open file (text, or bytes when
    ``binary``); when the block ends without an exception the file is renamed into place,
    else it is removed and an existing file at ``path`` keeps its contents. Call
    :meth:`discard` inside the block to drop what was written (a run that ended
    without its answer).
    """

    def __init__(self, path, *, inputs=(), binary: bool = False, newline: str | None = None):
        self.path = str(path)
        self.inputs = [str(p) for p in inputs if p]
        self.binary = binary
        self.newline = newline
        self._tmp: str | None = None
        self._fh = None
        self._keep = True

    def discard(self) -> None:
        """Keep nothing of what the block wrote (an existing file stays as it was)."""
        self._keep = False

    def __enter__(self):
        if self.path == STDOUT:
            sys.stdout.flush()
            return sys.stdout.buffer if self.binary else sys.stdout
        refuse_overwrites([("output", self.path)], [("", p) for p in (*_READING, *self.inputs)])
        target = self.path
        try:
            st = os.stat(target)
        except OSError:
            st = None
        if st is not None and stat.S_ISDIR(st.st_mode):
            raise InvalidInput(f"cannot write {self.path}: it is a directory")
        if st is not None and not stat.S_ISREG(st.st_mode):  # a device or pipe (/dev/null): written to
            return self._open(target, "w")
        target = os.path.realpath(target)  # through a symbolic link: the file it names is replaced
        folder, name = os.path.split(target)
        for i in range(100):
            tmp = os.path.join(folder, f".{name}.{os.getpid()}-{i}.tmp")
            try:
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
                if st is not None:  # the file it replaces keeps its permissions
                    os.fchmod(fd, stat.S_IMODE(st.st_mode))
                break
            except FileExistsError:
                continue
            except OSError as exc:
                raise InvalidInput(f"cannot write {self.path}: {exc.strerror}") from None
        else:
            raise InvalidInput(f"cannot write {self.path}: no free temporary name in its folder")
        self._tmp, self._target = tmp, target
        try:
            return self._open(fd, "w")
        except InvalidInput:
            os.close(fd)
            os.unlink(tmp)
            raise

    def _open(self, file, mode):
        try:
            if self.binary:
                self._fh = open(file, mode + "b")
            else:
                self._fh = open(file, mode, encoding="utf-8", newline=self.newline)
        except OSError as exc:
            raise InvalidInput(f"cannot write {self.path}: {exc.strerror}") from None
        return self._fh

    def __exit__(self, kind, exc, tb):
        if self.path == STDOUT:
            (sys.stdout.buffer if self.binary else sys.stdout).flush()
            return False
        try:
            try:
                self._fh.close()
            except OSError as err:
                if kind is None:
                    raise InvalidInput(f"cannot write {self.path}: {err.strerror}") from None
            if kind is None and self._keep and self._tmp is not None:
                try:
                    os.replace(self._tmp, self._target)
                except OSError as err:
                    raise InvalidInput(f"cannot write {self.path}: {err.strerror}") from None
                self._tmp = None
        finally:
            if self._tmp is not None:
                try:
                    os.unlink(self._tmp)
                except OSError:
                    pass
        if isinstance(exc, OSError) and not isinstance(exc, (BrokenPipeError, InterruptedError)):
            raise InvalidInput(f"cannot write {self.path}: {exc.strerror or exc}") from None
        return False


def output_file(path, *, inputs=(), binary: bool = False, newline: str | None = None) -> OutputFile:
    """Write ``path`` whole or not at all, never over a file being read (:class:`OutputFile`).

    ``path`` ``-`` is standard output. ``inputs`` are files the writer reads, refused as
    ``path`` (so are those of the running command, :func:`reading`).

    Examples
    --------
    >>> import tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "out.txt")
    >>> with output_file(p) as fh:
    ...     _ = fh.write("kept")
    >>> try:
    ...     with output_file(p) as fh:
    ...         _ = fh.write("half")
    ...         raise ValueError("the writer failed")
    ... except ValueError:
    ...     pass
    >>> open(p).read()
    'kept'
    >>> output_file(p, inputs=[p]).__enter__()  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    kt_formal.kernel.errors.InvalidInput: output .../out.txt is a file the command reads: refusing to write over it
    """
    return OutputFile(path, inputs=inputs, binary=binary, newline=newline)
