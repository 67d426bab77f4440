"""What a frontier count may hold: the bytes a state costs in memory and on disk, the table's
share of this machine's memory, and the default bound on a step's states.
"""

from __future__ import annotations

import os

__all__ = ["BYTES_PER_STATE", "physical_memory", "TABLE_BYTES", "SPILL_BYTES_PER_STATE", "DEFAULT_MAX_STATES"]


#: What one state of a step's output costs at the step's peak, measured on 8 x 8 (230
#: million states after 159 million: 10.4 GB; 384 million after 161 million: 15.0 GB)
#: and 7 x 8 (22.5 million: 1.35 GB with the interpreter): the input's key and count,
#: the table's slot at three quarters full, the dense output.
BYTES_PER_STATE = 48


def physical_memory() -> int:
    """Bytes of this machine's memory (8 GB where the system does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        return 8 << 30


#: The most memory the hash table of one step may take: a step that needs more runs in
#: passes (and its states go to files in the spill directory).
TABLE_BYTES = int(0.6 * physical_memory())


#: What one state of a step held in files costs on disk: its key and count as input and
#: as output (one limb each), with a quarter to spare.
SPILL_BYTES_PER_STATE = 40


#: Default bound on the states of one step: what fits in 70 % of this machine's memory.
DEFAULT_MAX_STATES = max(1_000_000, int(0.7 * physical_memory()) // BYTES_PER_STATE)
