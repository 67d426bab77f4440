"""The memory guard: work whose size can be estimated before it starts is refused, with a
one-line reason, when it would not fit in the memory available now."""

from __future__ import annotations

import os

from kt_formal.exceptions import ResourceLimit

__all__ = ["available_memory", "ensure_memory"]


def available_memory() -> int:
    """Bytes of memory available now (``MemAvailable``), or a large number if unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 1 << 62


def ensure_memory(n_bytes: float, what: str) -> None:
    """Refuse, before allocating, work estimated at ``n_bytes`` beyond 80% of available memory."""
    free = available_memory()
    if n_bytes > 0.8 * free:
        raise ResourceLimit(f"{what} needs about {_size(n_bytes)}; {_size(free)} of memory is available")


def _size(n_bytes: float) -> str:
    """``18.6 GiB``, ``120 MiB``, ``98 KiB``."""
    for unit, shift in (("GiB", 30), ("MiB", 20)):
        if n_bytes >= 1 << shift:
            return f"{n_bytes / (1 << shift):.1f} {unit}" if shift == 30 else f"{n_bytes / (1 << shift):.0f} {unit}"
    return f"{n_bytes / 1024:.0f} KiB"
