"""Progress on long work: a live status line on a terminal, silence everywhere else.

The contract every engine accepts is a plain callable::

    progress(done: float, total: float | None, text: str) -> None

``done`` and ``total`` are in any unit the caller likes (seconds, nodes, boards);
``total`` is None when unknown. Calls may come from any thread and as often as
wanted: the display redraws at most :data:`RATE` times a second from its own thread,
so the line also keeps moving (spinner and elapsed time) while the caller is quiet.

:func:`progress_for` makes one for a ``with`` block. It draws on standard error only
when that is a terminal and progress is enabled (``--quiet`` disables it); otherwise
the callable does nothing at all. The line appears only after :data:`DELAY` seconds,
so quick commands never flicker, and is erased at the end of the block. With
``lines=True`` (a long count's ``-v``) a stream that is not a terminal (a log file) gets
one plain line each time ``done`` moves on instead: ``count: column 5 of 9, ...``.

>>> with progress_for(enabled=False, label="cpsat") as p:
...     p(1.0, 60.0, "searching")
>>> p.active
False
>>> format_status("cpsat", 3.0, 60.0, "searching", 3.2, 0)
'⠋ cpsat: searching 3/60 [..........]  5%  3.2 s'
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time

__all__ = ["Progress", "progress_for", "format_status", "format_duration", "null_progress", "RATE", "DELAY"]

#: Redraws per second at most.
RATE = 10.0
#: Seconds before the line first appears.
DELAY = 0.3

_SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
_BAR = 10


def null_progress(done: float = 0.0, total: float | None = None, text: str = "") -> None:
    """A progress callable that does nothing (the default for engines)."""


def _num(x: float) -> str:
    return f"{x:.0f}" if abs(x) >= 10 or float(x).is_integer() else f"{x:.1f}"


def format_duration(seconds: float) -> str:
    """A time left, as rough as an estimate is: seconds, minutes, then hours.

    >>> format_duration(42), format_duration(600), format_duration(7200)
    ('42 s', '10 min', '2.0 h')
    """
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def format_status(label: str, done: float, total: float | None, text: str,
                  elapsed: float, tick: int, width: int = 79) -> str:
    """One status line: spinner, label, text, done/total with a bar when total is known, elapsed."""
    parts = [_SPINNER[tick % len(_SPINNER)], f"{label}:" if label else ""]
    if text:
        parts.append(text)
    if total:
        frac = min(1.0, max(0.0, done / total))
        filled = int(frac * _BAR)
        parts.append(f"{_num(done)}/{_num(total)} [{'#' * filled}{'.' * (_BAR - filled)}] {frac * 100:2.0f}%")
    elif done:
        parts.append(_num(done))
    parts.append(f" {elapsed:.1f} s")
    line = " ".join(p for p in parts if p)
    return line[:width]


class Progress:
    """A live status line on ``stream`` (see the module docstring); call it as the contract says.

    Parameters
    ----------
    label : str
        Shown before the status text (e.g. the engine name).
    stream : file, optional
        Default standard error.
    active : bool
        Draw at all; when False every call is a no-op.
    rate : float
        Redraws per second at most.
    delay : float
        Seconds before the first draw.
    """

    def __init__(self, label: str = "", stream=None, active: bool = True,
                 rate: float = RATE, delay: float = DELAY, lines: bool = False):
        self.label = label
        self.lines = lines  # a plain line each time ``done`` moves on, no redraws
        self._last = None
        self.stream = stream if stream is not None else sys.stderr
        self.active = bool(active)
        self.interval = 1.0 / rate
        self.delay = delay
        self._state = (0.0, None, "")
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = None
        self._start = time.monotonic()
        self._drawn = False
        self._tick = 0
        self._width = 79

    def __call__(self, done: float = 0.0, total: float | None = None, text: str = "") -> None:
        if not self.active:
            return
        self._state = (float(done), None if total is None else float(total), str(text))
        if self.lines and done != self._last:
            self._last = done
            with self._lock:
                try:
                    self.stream.write(f"{self.label}: {text or _num(done)} "
                                      f"({time.monotonic() - self._start:.0f} s)\n")
                    self.stream.flush()
                except (OSError, ValueError):
                    self.active = False

    # ------------------------------------------------------------------ drawing
    def _draw(self) -> None:
        done, total, text = self._state
        line = format_status(self.label, done, total, text, time.monotonic() - self._start,
                             self._tick, self._width)
        self._tick += 1
        with self._lock:
            try:
                self.stream.write("\r\x1b[K" + line)
                self.stream.flush()
                self._drawn = True
            except (OSError, ValueError):  # terminal gone: stop drawing
                self.active = False

    def _run(self) -> None:
        if self._stop.wait(self.delay):
            return
        while self.active and not self._stop.is_set():
            self._draw()
            self._stop.wait(self.interval)

    def start(self) -> "Progress":
        if self.lines:
            self._start = time.monotonic()
            return self
        if self.active and self._thread is None:
            try:
                import shutil

                self._width = max(20, shutil.get_terminal_size((80, 24)).columns - 1)
            except (OSError, ValueError):
                pass
            self._start = time.monotonic()
            self._thread = threading.Thread(target=self._run, name="kt-formal-progress", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        """Stop the redraws and erase the line."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        if self._drawn:
            with self._lock:
                try:
                    self.stream.write("\r\x1b[K")
                    self.stream.flush()
                except (OSError, ValueError):
                    pass
            self._drawn = False
        self.active = False


def _is_terminal(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


@contextlib.contextmanager
def progress_for(enabled: bool = True, label: str = "", stream=None, lines: bool = False, **kwargs):
    """A :class:`Progress` for a ``with`` block: live on a terminal, silent otherwise (or,
    with ``lines``, a plain line each time ``done`` moves on).

    Parameters
    ----------
    enabled : bool
        False (``--quiet``) silences it whatever the stream is.
    label : str
        Shown at the start of the line.
    stream : file, optional
        Default standard error; nothing is drawn unless it is a terminal.
    **kwargs
        ``rate`` and ``delay`` of :class:`Progress`.
    """
    stream = stream if stream is not None else sys.stderr
    terminal = _is_terminal(stream)
    p = Progress(label, stream, active=enabled and (terminal or lines), lines=lines and not terminal, **kwargs)
    p.start()
    try:
        yield p
    finally:
        p.close()
