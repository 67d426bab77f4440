"""Reading the user's files: every failure becomes one clear InvalidInput line.

>>> read_user_text("/nonexistent/board.txt", what="mask file ")
Traceback (most recent call last):
...
kt_formal.kernel.errors.InvalidInput: mask file /nonexistent/board.txt does not exist
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

from kt_formal.exceptions import InvalidInput

__all__ = ["user_file_errors", "read_user_text"]


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


def read_user_text(path, what: str = "", limit: int = 1 << 30) -> str:
    """The UTF-8 text of a file, refusing files over ``limit`` bytes before reading them (and
    devices or pipes, whose size is not known ahead, once ``limit`` bytes have been read)."""
    with user_file_errors(path, what) as p:
        size = p.stat().st_size
        if size > limit:
            raise InvalidInput(f"{what}{p} is {size} bytes; the limit is {limit >> 20} MiB")
        with open(p, "rb") as fh:
            data = fh.read(limit + 1)
        if len(data) > limit:
            raise InvalidInput(f"{what}{p} holds more than {limit} bytes; the limit is {limit >> 20} MiB")
        return data.decode("utf-8")
