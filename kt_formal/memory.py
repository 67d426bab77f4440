"""The memory guard: work whose size can be estimated before it starts is refused, with a
one-line reason, when it would not fit in the memory available now.

Only :data:`USABLE_SHARE` of the available memory is given to one piece of work; the rest
is headroom for what the estimate leaves out (the interpreter, copies made along the way),
and a refusal says both figures.

>>> fits(100, free=1000), fits(900, free=1000)
(True, False)
"""

from __future__ import annotations

import os

from kt_formal.exceptions import ResourceLimit

__all__ = ["available_memory", "ensure_memory", "fits", "USABLE_SHARE"]

#: The share of the available memory one piece of work may use.
USABLE_SHARE = 0.8


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
    """Whether work estimated at ``n_bytes`` fits in :data:`USABLE_SHARE` of the memory
    available now (or of ``free`` bytes)."""
    return n_bytes <= USABLE_SHARE * (available_memory() if free is None else free)


def ensure_memory(n_bytes: float, what: str) -> None:
    """Refuse, before allocating, work estimated at ``n_bytes`` beyond :data:`USABLE_SHARE` of
    the memory available now.

    The message says what would be needed and what may be used, and why that is less than
    what is available: "a hole mask needs about 18.6 GiB; at most 17.9 GiB of memory may be used (80% of
    the 22.3 GiB available, the rest kept as headroom)".
    """
    free = available_memory()
    if not fits(n_bytes, free):
        usable = USABLE_SHARE * free
        need, most = _size(n_bytes), _size(usable)
        if need == most:  # close enough to print alike: bytes tell them apart
            need, most = f"{int(n_bytes):,} bytes", f"{int(usable):,} bytes"
        raise ResourceLimit(f"{what} needs about {need}; at most {most} of memory may be used "
                            f"({USABLE_SHARE:.0%} of the {_size(free)} available, the rest kept as headroom)")


def _size(n_bytes: float) -> str:
    """``18.6 GiB``, ``120 MiB``, ``98 KiB`` (``14.2 TiB`` and on for what no machine has)."""
    for unit, shift in (("EiB", 60), ("PiB", 50), ("TiB", 40)):
        if n_bytes >= 1 << shift:
            return f"{n_bytes / (1 << shift):.1f} {unit}"
    if n_bytes >= 1 << 30:
        return f"{n_bytes / (1 << 30):.1f} GiB"
    return f"{n_bytes / (1 << 20):.0f} MiB" if n_bytes >= 1 << 20 else f"{n_bytes / 1024:.0f} KiB"
