"""Checkpoints of a frontier count: its states written after a step of the sweep (a square),
so that a count stopped (killed, a machine rebooted) goes on from the last one written.

A checkpoint directory holds at most one finished checkpoint, ``step-NNNNNNNN/`` (the
sweep's square index of the step): one ``keys-J.npy`` and ``counts-J.npy`` a chunk of
states, and ``meta.json`` with the question's fingerprint (:func:`question_key`: board,
holes, ends, open or closed, method, the states' format), the tours finished so far, the
counts known (a row of boards), the sweep's bookkeeping, the size and SHA-256 of every
array file and a digest of all of it. It is written into a hidden directory first and
renamed when whole, the older one then removed, so a count killed while writing keeps its
previous checkpoint. When the count ends its answer is written to ``result.json`` (a
temporary name, then renamed) and the states are removed.

On resume everything is checked before a number is used: the meta files are read only if
they are regular files, at most :data:`META_BYTES`; every field has its type and range;
the digest, the fingerprint, and the size and checksum of every array file must match.
Any damage or mismatch is an :class:`~kt_formal.exceptions.InvalidInput` (one line): a
checkpoint never yields a wrong count. The checksums guard against damage and edits, not
against someone who recomputes them.

A directory that holds a checkpoint is taken only to resume it: a new count there is
refused (:func:`discard` removes the old one when asked to).

>>> question_key(kind="board", rows=5, cols=6) == question_key(cols=6, rows=5, kind="board")
True
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import shutil
import stat
import time

import numpy as np

from kt_formal.exceptions import InvalidInput, Worded
from kt_formal.files import read_user_bytes

__all__ = ["question_key", "board_checkpointer", "row_checkpointer", "discard", "Checkpointer", "DEFAULT_EVERY",
           "META_BYTES"]

#: Seconds between checkpoints (after the first step past them): a count shorter
#: than this writes none.
DEFAULT_EVERY = 60.0

#: The most bytes a ``meta.json`` or ``result.json`` may have (a row of a thousand boards'
#: counts takes a few hundred kB).
META_BYTES = 16 * 2**20

_FORMAT = 2  # 1: no checksums, no digest
_BLOCK = 2**20  # bytes read at a time for a checksum
_BIG = 2**62
_HEX = frozenset("0123456789abcdef")


def question_key(**what) -> str:
    """A digest of what a count asks (board, kind of tour, ends, moves, encoding)."""
    text = json.dumps(what, sort_keys=True, separators=(",", ":"), default=list)
    return hashlib.sha256(text.encode()).hexdigest()


def board_checkpointer(lay, closed, directory, every, symmetry, limb, keys=None, ends=(None, None),
                       resume: bool = False) -> "Checkpointer":
    """The checkpoints of one board's count (its sweep layout ``lay``; ``limb``: the counts'
    encoding, ``keys`` the states' where it is not the plain digits; ``ends``: the start and
    end squares as asked)."""
    key = question_key(kind="board", method="frontier", format=_FORMAT, rows=lay.rows, cols=lay.cols,
                       closed=bool(closed), holes=sorted(lay.live.dead), ends=sorted(lay.ends),
                       asked=[None if q is None else [int(x) for x in q] for q in ends],
                       forced=sorted(sorted(e) for e in lay.forced_set), limb=limb,
                       forbidden=sorted(sorted(e) for e in lay.forbidden_set), **({} if symmetry else {"mirror": False}),
                       **({"keys": keys} if keys else {}))
    what = f"{'closed' if closed else 'open'} tours of a {lay.rows}x{lay.cols} board"
    return Checkpointer(directory, key, what, every, resume=resume, carries="done", steps=lay.N + lay.W)


def row_checkpointer(k, closed, partial, directory, every, symmetry, limb, keys=None,
                     resume: bool = False) -> "Checkpointer":
    """The checkpoints of a row of counts, ``k x n`` for n up to some width, in one sweep."""
    key = question_key(kind="row", method="frontier", format=_FORMAT, k=k, closed=bool(closed),
                       partial=bool(partial), limb=limb, **({} if symmetry else {"mirror": False}),
                       **({"keys": keys} if keys else {}))
    what = (f"the {'closed' if closed else 'open'} tours of {k} x n boards"
            + (" with partly filled last columns" if partial else ""))
    return Checkpointer(directory, key, what, every, resume=resume, carries="out")


#: The states after a step (``step-NNNNNNNN``) and those being written (``.partial-NNNNNNNN-PID``).
_STATES = re.compile(r"(step-\d{8,}|\.partial-\d{8,}-\d+)\Z")


def _states(name: str) -> bool:
    """A directory of states a checkpoint writes, whole or half-written (no other name)."""
    return _STATES.match(name) is not None


def _ours(name: str) -> bool:
    """A name a checkpoint writes (``result.json.PID.tmp``: a result being written)."""
    return _states(name) or re.match(r"result\.json(\.\d+\.tmp)?\Z", name) is not None


def discard(directory: str) -> int:
    """Remove the checkpoint files in ``directory`` (its ``step-*``, a ``result.json`` and
    half-written ones; nothing else); returns how many entries went."""
    try:
        names = [n for n in os.listdir(directory) if _ours(n)]
    except FileNotFoundError:
        return 0
    except OSError as exc:
        raise InvalidInput(f"cannot read the checkpoint directory {directory!r}: {exc.strerror}") from None
    for name in names:
        path = os.path.join(directory, name)
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
        else:
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass
    return len(names)


# ---------------------------------------------------------------- reading files safely
def _read_small(path: str, limit: int = META_BYTES) -> bytes:
    """The bytes of ``path``: a regular file (not a device or a pipe) of at most ``limit``."""
    try:
        return read_user_bytes(path, "the checkpoint file ", limit=limit)
    except InvalidInput as exc:
        if os.path.isfile(path) and os.path.getsize(path) > limit:
            raise InvalidInput(f"the checkpoint file {path} is damaged: larger than {limit:,} bytes") from None
        raise


def _file_sum(path: str) -> tuple[int, str]:
    """(size, SHA-256) of the regular file ``path``, read a block at a time."""
    h = hashlib.sha256()
    size = 0
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            raise InvalidInput(f"the checkpoint file {path} is not a regular file")
        with open(path, "rb") as fh:
            while block := fh.read(_BLOCK):
                h.update(block)
                size += len(block)
    except OSError as exc:
        raise InvalidInput(f"cannot read the checkpoint file {path}: {exc.strerror}") from None
    return size, h.hexdigest()


class _Summing:
    """A file wrapper that sums (SHA-256) and counts what is written through it."""

    def __init__(self, fh):
        self.fh, self.h, self.size = fh, hashlib.sha256(), 0

    def write(self, data) -> int:
        view = memoryview(data).cast("B")
        self.h.update(view)
        self.size += view.nbytes
        return self.fh.write(view)


def _save(path: str, array) -> list:
    """``np.save`` to ``path``, its [size, SHA-256] summed as written."""
    with open(path, "wb") as fh:
        out = _Summing(fh)
        np.save(out, np.ascontiguousarray(array))
    return [out.size, out.h.hexdigest()]


def _plain(value):
    """JSON of numpy's numbers (a count's bookkeeping may hold them)."""
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    return str(value)


def _digest(doc: dict) -> str:
    body = {k: v for k, v in doc.items() if k != "digest"}
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _write_json(path: str, doc: dict) -> None:
    """``doc`` with its digest into ``path``: a temporary name, flushed to disk, renamed."""
    doc = json.loads(json.dumps(doc, default=_plain))
    doc["digest"] = _digest(doc)
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w") as fh:
        json.dump(doc, fh, indent=1)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


# ---------------------------------------------------------------- the fields, checked
def _nat(x, hi=_BIG) -> bool:
    return type(x) is int and 0 <= x <= hi


def _digits(x) -> bool:
    return isinstance(x, str) and 0 < len(x) <= 100_000 and x.isascii() and x.isdigit()


def _hex64(x) -> bool:
    return isinstance(x, str) and len(x) == 64 and set(x) <= _HEX


def _nats(x) -> bool:
    return isinstance(x, list) and len(x) <= 10**6 and all(_nat(v) for v in x)


def _ratios(x) -> bool:  # a step's states over its input's, by square of the column (k <= 8)
    return isinstance(x, dict) and all(_digits(a) and int(a) < 8 and type(b) in (int, float) and math.isfinite(b)
                                       and 0 <= b <= 64 for a, b in x.items())


def _known(x) -> bool:  # the counts of a row known so far: [n, "count"] or [[n, j], "count"]
    def key(v):
        return _nat(v, 10**9) or (isinstance(v, list) and len(v) == 2 and all(_nat(u, 10**9) for u in v))
    return isinstance(x, list) and len(x) <= 10**7 and all(
        isinstance(e, list) and len(e) == 2 and key(e[0]) and _digits(e[1]) for e in x)


_COMMON = {"format": lambda x: x == _FORMAT, "key": _hex64, "question": lambda x: isinstance(x, str) and len(x) < 1000,
           "digest": _hex64, "peak": _nat, "per_column": _nats}
_META = dict(_COMMON, step=lambda x: _nat(x, 10**12), chunks=lambda x: _nat(x, 10**6), passes=_nat, spilled=_nat,
             ratio=_ratios, files=lambda x: isinstance(x, dict), done=_digits, out=_known)
_RESULT = dict(_COMMON, count=_digits)


class Checkpointer:
    """Writes and reads the checkpoints of one count in ``directory``.

    ``every``: seconds between checkpoints (``None``: :data:`DEFAULT_EVERY`, and then also
    five times what writing the last one took, so a count of large steps does not spend
    its time writing). Without ``resume`` a directory that holds a checkpoint is refused.
    ``carries``: the field of the count's own in ``meta.json`` (``done``: the tours
    finished; ``out``: a row's counts); ``steps``: the sweep's number of steps, if known.
    """

    def __init__(self, directory: str, key: str, describe: str, every: float | None = None, *,
                 resume: bool = False, carries: str = "done", steps: int | None = None):
        if not directory:
            raise InvalidInput(Worded("{checkpoint} needs a directory", {"checkpoint": "checkpoint"}))
        if every is not None and not every >= 0:
            raise InvalidInput(f"the checkpoint interval must be 0 or more seconds, not {every}")
        try:
            os.makedirs(directory, exist_ok=True)
        except OSError as exc:
            raise InvalidInput(f"cannot make the checkpoint directory {directory!r}: {exc.strerror}") from None
        if not os.path.isdir(directory):
            raise InvalidInput(f"the checkpoint path {directory!r} is not a directory")
        self.dir = directory
        self.key = key
        self.describe = describe
        self.carries = carries
        self.steps = steps
        self.every = DEFAULT_EVERY if every is None else float(every)
        self.spaced = every is None  # the default: also five times the last write apart
        self.last = time.monotonic()
        self.cost = 0.0
        self.written = 0  # checkpoints written by this process
        if not resume:
            self._refuse_an_old_one()

    def _refuse_an_old_one(self) -> None:
        """A new count does not write over a checkpoint: say whose it is and what to do."""
        held = sorted(n for n in os.listdir(self.dir) if _states(n) and n.startswith("step-") or n == "result.json")
        if not held:
            return
        try:
            doc = (self._read_json(os.path.join(self.dir, "result.json")) if held[-1] == "result.json"
                   else self._read_json(os.path.join(self.dir, held[-1], "meta.json")))
            whose = "of this count" if doc.get("key") == self.key else \
                f"of another count ({str(doc.get('question', '?'))[:200]})"
        except InvalidInput:
            whose = "that cannot be read"
        raise InvalidInput(Worded(f"the directory {self.dir} holds a checkpoint {whose}: {{resume}} goes on from it, "
                                  "{discard checkpoint} removes it",
                                  {"resume": "resume=True", "discard checkpoint": "discard_checkpoint=True"}))

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
        files = {}
        for j, (keys, counts) in enumerate(chunks):
            files[f"keys-{j}.npy"] = _save(os.path.join(tmp, f"keys-{j}.npy"), keys)
            files[f"counts-{j}.npy"] = _save(os.path.join(tmp, f"counts-{j}.npy"), counts)
        _write_json(os.path.join(tmp, "meta.json"), dict(meta, format=_FORMAT, key=self.key, question=self.describe,
                                                        step=step, chunks=len(chunks), files=files))
        final = os.path.join(self.dir, f"step-{step:08d}")
        shutil.rmtree(final, ignore_errors=True)
        os.rename(tmp, final)
        for name in os.listdir(self.dir):  # the older checkpoints and any half-written one
            path = os.path.join(self.dir, name)
            if path != final and _states(name):
                shutil.rmtree(path, ignore_errors=True)
        self.written += 1
        self.cost = time.monotonic() - t
        self.last = time.monotonic()
        return final

    def finish(self, result: dict) -> None:
        """The count is done: its answer into ``result.json``, the states removed."""
        _write_json(os.path.join(self.dir, "result.json"),
                    dict(result, format=_FORMAT, key=self.key, question=self.describe))
        for name in os.listdir(self.dir):
            if _states(name):
                shutil.rmtree(os.path.join(self.dir, name), ignore_errors=True)

    # ------------------------------------------------------------------ reading
    def result(self):
        """The answer of a finished count of this question in the directory, or None."""
        path = os.path.join(self.dir, "result.json")
        if not os.path.lexists(path):
            return None
        return self._checked(self._read_json(path), path, _RESULT, ("count",))

    def latest(self):
        """``(step, chunks, meta)`` of the last whole checkpoint, or None."""
        names = sorted(n for n in os.listdir(self.dir) if _states(n) and n.startswith("step-")
                       and os.path.lexists(os.path.join(self.dir, n, "meta.json")))
        if not names:
            return None
        where = os.path.join(self.dir, names[-1])
        meta = self._checked(self._read_json(os.path.join(where, "meta.json")), where, _META,
                             ("step", "chunks", "files", "passes", "spilled", "ratio", self.carries))
        step, n = meta["step"], meta["chunks"]
        want = {f"{kind}-{j}.npy" for j in range(n) for kind in ("keys", "counts")}
        if names[-1] != f"step-{step:08d}" or set(meta["files"]) != want or \
                (self.steps is not None and step >= self.steps):
            raise InvalidInput(f"the checkpoint {where} is damaged (its step or files do not match its meta.json)")
        for name, sig in sorted(meta["files"].items()):
            if not (isinstance(sig, list) and len(sig) == 2 and _nat(sig[0]) and _hex64(sig[1])):
                raise InvalidInput(f"the checkpoint {where} is damaged (meta.json: the files)")
            if _file_sum(os.path.join(where, name)) != (sig[0], sig[1]):
                raise InvalidInput(f"the checkpoint {where} is damaged ({name} is not the file written: "
                                   "its size or SHA-256 differs)")
        chunks = []
        try:
            for j in range(n):
                keys = np.load(os.path.join(where, f"keys-{j}.npy"), mmap_mode="c", allow_pickle=False)
                counts = np.load(os.path.join(where, f"counts-{j}.npy"), mmap_mode="c", allow_pickle=False)
                if keys.dtype != np.int64 or counts.dtype != np.int64 or counts.ndim != 2 \
                        or keys.ndim != 1 or counts.shape[0] != keys.shape[0]:
                    raise ValueError("arrays of the wrong shape or type")
                chunks.append((keys, counts))
        except (OSError, ValueError) as exc:
            raise InvalidInput(f"the checkpoint {where} is damaged ({exc})") from None
        return step, chunks, meta

    def _read_json(self, path):
        data = _read_small(path)
        try:
            doc = json.loads(data)
        except (ValueError, RecursionError) as exc:
            raise InvalidInput(f"cannot read the checkpoint {path} ({str(exc)[:100]})") from None
        if not isinstance(doc, dict):
            raise InvalidInput(f"the checkpoint {path} is damaged (not a JSON object)")
        return doc

    def _checked(self, doc: dict, where: str, fields: dict, also: tuple) -> dict:
        """``doc`` once its format, fields, digest and fingerprint are this count's."""
        if doc.get("format") != _FORMAT:
            raise InvalidInput(f"the checkpoint in {where} is of another format ({str(doc.get('format'))[:20]}, "
                               f"not {_FORMAT}): --discard-checkpoint removes it")
        required = set(_COMMON) | set(also)
        bad = sorted(str(k)[:40] for k, v in doc.items() if k not in fields or not fields[k](v))
        missing = sorted(required - set(doc))
        if bad or missing:
            what = ", ".join([f"{k!r} out of range or of the wrong type" for k in bad]
                             + [f"{k!r} missing" for k in missing])
            raise InvalidInput(f"the checkpoint in {where} is damaged ({what[:300]})")
        if doc["digest"] != _digest(doc):
            raise InvalidInput(f"the checkpoint in {where} is damaged (its digest does not match: edited?)")
        if doc["key"] != self.key:
            raise InvalidInput(f"the checkpoint in {where} is of another count ({doc['question'][:200]}), "
                               f"not {self.describe}")
        return doc
