"""Checkpoints of a frontier count: its states written after a step of the sweep (a square),
so that a count stopped (killed, a machine rebooted) goes on from the last one written.

A checkpoint directory holds at most one finished checkpoint, ``step-NNNNNNNN/`` (the
sweep's square index of the step): one ``keys-J.npy`` and ``counts-J.npy``
a chunk of states, and ``meta.json`` with what the count is (:func:`question_key`), the
tours finished so far, the counts known (a row of boards) and the sweep's bookkeeping.
It is written into a hidden directory first and renamed when whole, the older one then
removed, so a count killed while writing keeps its previous checkpoint. When the count
ends its answer is written to ``result.json`` and the states are removed.

The arrays are read back mapped from their files (not copied into memory): the next step
reads them once.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time

import numpy as np

from kt_formal.exceptions import InvalidInput
from kt_formal.files import read_user_text

__all__ = ["question_key", "board_checkpointer", "Checkpointer", "DEFAULT_EVERY"]

#: Seconds between checkpoints (after the first step past them): a count shorter
#: than this writes none.
DEFAULT_EVERY = 60.0

_FORMAT = 1


def question_key(**what) -> str:
    """A digest of what a count asks (board, kind of tour, ends, moves, encoding)."""
    text = json.dumps(what, sort_keys=True, separators=(",", ":"), default=list)
    return hashlib.sha256(text.encode()).hexdigest()


def board_checkpointer(lay, closed, directory, every, symmetry, limb, keys=None) -> "Checkpointer":
    """The checkpoints of one board's count (its sweep layout ``lay``; ``limb``: the counts'
    encoding, ``keys`` the states' where it is not the plain digits)."""
    key = question_key(kind="board", rows=lay.rows, cols=lay.cols, closed=bool(closed), holes=sorted(lay.live.dead),
                       ends=sorted(lay.ends), forced=sorted(sorted(e) for e in lay.forced_set), limb=limb,
                       forbidden=sorted(sorted(e) for e in lay.forbidden_set), **({} if symmetry else {"mirror": False}),
                       **({"keys": keys} if keys else {}))
    what = f"{'closed' if closed else 'open'} tours of a {lay.rows}x{lay.cols} board"
    return Checkpointer(directory, key, what, every)


class Checkpointer:
    """Writes and reads the checkpoints of one count in ``directory``.

    ``every``: seconds between checkpoints (``None``: :data:`DEFAULT_EVERY`, and then also
    five times what writing the last one took, so a count of large steps does not spend
    its time writing).
    """

    def __init__(self, directory: str, key: str, describe: str, every: float | None = None):
        if not directory:
            raise InvalidInput("--checkpoint needs a directory")
        try:
            os.makedirs(directory, exist_ok=True)
        except OSError as exc:
            raise InvalidInput(f"cannot make the checkpoint directory {directory!r}: {exc.strerror}") from None
        if not os.path.isdir(directory):
            raise InvalidInput(f"the checkpoint path {directory!r} is not a directory")
        if every is not None and not every >= 0:
            raise InvalidInput(f"the checkpoint interval must be 0 or more seconds, not {every}")
        self.dir = directory
        self.key = key
        self.describe = describe
        self.every = DEFAULT_EVERY if every is None else float(every)
        self.spaced = every is None  # the default: also five times the last write apart
        self.last = time.monotonic()
        self.cost = 0.0
        self.written = 0  # checkpoints written by this process

    # ------------------------------------------------------------------ writing
    def due(self) -> bool:
        gap = max(self.every, 5 * self.cost) if self.spaced else self.every
        return time.monotonic() - self.last >= gap

    def write(self, step: int, chunks, meta: dict) -> str:
        """Write the states after sweep step ``step`` and ``meta``; returns the directory."""
        t = time.monotonic()
        tmp = os.path.join(self.dir, f".partial-{step:08d}-{os.getpid()}")
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(tmp)
        for j, (keys, counts) in enumerate(chunks):
            np.save(os.path.join(tmp, f"keys-{j}.npy"), np.ascontiguousarray(keys))
            np.save(os.path.join(tmp, f"counts-{j}.npy"), np.ascontiguousarray(counts))
        doc = dict(meta, format=_FORMAT, key=self.key, question=self.describe, step=step, chunks=len(chunks))
        with open(os.path.join(tmp, "meta.json"), "w") as fh:
            json.dump(doc, fh, indent=1, default=str)
            fh.flush()
            os.fsync(fh.fileno())
        final = os.path.join(self.dir, f"step-{step:08d}")
        shutil.rmtree(final, ignore_errors=True)
        os.rename(tmp, final)
        for name in os.listdir(self.dir):  # the older checkpoints and any half-written one
            path = os.path.join(self.dir, name)
            if path != final and (name.startswith("step-") or name.startswith(".partial-")):
                shutil.rmtree(path, ignore_errors=True)
        self.written += 1
        self.cost = time.monotonic() - t
        self.last = time.monotonic()
        return final

    def finish(self, result: dict) -> None:
        """The count is done: its answer into ``result.json``, the states removed."""
        with open(os.path.join(self.dir, "result.json.tmp"), "w") as fh:
            json.dump(dict(result, key=self.key, question=self.describe), fh, indent=1, default=str)
        os.replace(os.path.join(self.dir, "result.json.tmp"), os.path.join(self.dir, "result.json"))
        for name in os.listdir(self.dir):
            if name.startswith("step-") or name.startswith(".partial-"):
                shutil.rmtree(os.path.join(self.dir, name), ignore_errors=True)

    # ------------------------------------------------------------------ reading
    def result(self):
        """The answer of a finished count of this question in the directory, or None."""
        path = os.path.join(self.dir, "result.json")
        if not os.path.exists(path):
            return None
        doc = self._read_json(path)
        self._check(doc, path)
        return doc

    def latest(self):
        """``(step, chunks, meta)`` of the last whole checkpoint, or None."""
        names = sorted(n for n in os.listdir(self.dir) if n.startswith("step-")
                       and os.path.exists(os.path.join(self.dir, n, "meta.json")))
        if not names:
            return None
        where = os.path.join(self.dir, names[-1])
        meta = self._read_json(os.path.join(where, "meta.json"))
        self._check(meta, where)
        chunks = []
        try:
            for j in range(int(meta["chunks"])):
                keys = np.load(os.path.join(where, f"keys-{j}.npy"), mmap_mode="c")
                counts = np.load(os.path.join(where, f"counts-{j}.npy"), mmap_mode="c")
                if keys.dtype != np.int64 or counts.dtype != np.int64 or counts.ndim != 2 \
                        or counts.shape[0] != keys.shape[0]:
                    raise ValueError("arrays of the wrong shape or type")
                chunks.append((keys, counts))
        except (OSError, ValueError, KeyError) as exc:
            raise InvalidInput(f"the checkpoint {where} is damaged ({exc})") from None
        return int(meta["step"]), chunks, meta

    def _read_json(self, path):
        try:
            doc = json.loads(read_user_text(path, "checkpoint file ", limit=1 << 20))
        except (InvalidInput, ValueError) as exc:
            raise InvalidInput(f"cannot read the checkpoint {path} ({exc})") from None
        if not isinstance(doc, dict):
            raise InvalidInput(f"the checkpoint {path} is damaged")
        return doc

    def _check(self, doc, where):
        if doc.get("format") not in (None, _FORMAT) or doc.get("key") != self.key:
            raise InvalidInput(f"the checkpoint in {where} is of another count ({doc.get('question', '?')}), "
                               f"not {self.describe}")
