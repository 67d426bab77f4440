"""The memory guard: work whose size can be estimated before it starts is refused, with a
one-line reason, when it would not fit in the memory available now."""

from __future__ import annotations

import os

from kt_formal.exceptions import ResourceLimit

__all__ = ["available_memory", "ensure_memory", "fits"]


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


def fits(n_bytes: float, free: int | None = None) -> bool:
    """Whether work estimated at ``n_bytes`` fits in 80% of the memory available now."""
    return n_bytes <= 0.8 * (available_memory() if free is None else free)


def ensure_memory(n_bytes: float, what: str) -> None:
    """Refuse, before allocating, work estimated at ``n_bytes`` beyond 80% of available memory."""
    free = available_memory()
    if not fits(n_bytes, free):
        raise ResourceLimit(f"{what} needs about {_size(n_bytes)}; {_size(free)} of memory is available")


def _size(n_bytes: float) -> str:
    """``18.6 GiB``, ``120 MiB``, ``98 KiB``."""
    if n_bytes >= 1 << 30:
        return f"{n_bytes / (1 << 30):.1f} GiB"
    return f"{n_bytes / (1 << 20):.0f} MiB" if n_bytes >= 1 << 20 else f"{n_bytes / 1024:.0f} KiB"
