"""The library of certified pieces in ``models/``: small tours the combinators assemble.

A *piece* is a tour of a small board made to a *spec*: its size, closed or open, fixed
end squares, and moves it must contain (Parberry's structured corner moves, the rotation and support models'
element ends, the "port" moves that let two pieces be joined). Each piece is one JSON
file; ``models/manifest.json`` lists them with checksums. Every piece is verified when
it is loaded: the tour by the independent checker, the spec (ends, forced moves) by
looking at the tour, and the file by its checksum. A corrupted file is refused with a
clear message.

Pieces are regenerated with CP-SAT from their specs (``kt-formal models build``);
specs carry the solver seed, so regeneration repeats.

Spec sources: each combinator module lists its specs in ``PIECE_SPECS``; the modules
named in :data:`SPEC_SOURCES` are collected by :func:`all_specs`.

>>> spec = PieceSpec("demo-3x4", 3, 4, closed=False, start=(0, 0))
>>> piece = build_piece(spec)
>>> piece.tour.check() is None, piece.tour.start
(True, (0, 0))
>>> load_piece_dict(piece.to_dict()).name
'demo-3x4'
"""

from __future__ import annotations

import hashlib
import importlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from kt_formal.board import Board
from kt_formal.certificate import FORMAT, tour_from_dict, tour_to_dict
from kt_formal.exceptions import CertificateRejected, InvalidInput
from kt_formal.files import output_file
from kt_formal.tours import Tour

__all__ = [
    "PieceSpec",
    "Piece",
    "build_piece",
    "load_piece",
    "load_piece_dict",
    "models_dir",
    "all_specs",
    "check_library",
    "build_library",
    "write_piece",
    "write_manifest",
    "SPEC_SOURCES",
    "SPEC_BUILDERS",
]

#: Modules whose ``PIECE_SPECS`` lists make up the library.
SPEC_SOURCES: tuple[str, ...] = (
    "kt_formal.combine.divide",
    "kt_formal.combine.strips",
    "kt_formal.combine.frame",
    "kt_formal.combine.margin_pieces",
    "kt_formal.combine.margin_odd_pieces",
    "kt_formal.combine.margin_stretch",
    "kt_formal.combine.margin_thick",
)

#: Piece kinds built by a model of their own: kind -> module with ``build_base(spec, time_limit, workers)``.
SPEC_BUILDERS: dict[str, str] = {"margin-stretch": "kt_formal.combine.margin_stretch_build"}

MANIFEST = "manifest.json"


def models_dir() -> Path:
    """The library folder: ``kt_formal/models`` when installed, ``models/`` in a checkout."""
    package = Path(__file__).resolve().parent.parent  # kt_formal/
    installed = package / "models"
    if (installed / MANIFEST).exists():
        return installed
    return package.parent / "models"


def _sq(x) -> tuple[int, int] | None:
    return None if x is None else (int(x[0]), int(x[1]))


@dataclass(frozen=True)
class PieceSpec:
    """What a piece must be.

    Parameters
    ----------
    name : str
        File stem, e.g. ``structured-6x8``.
    rows, cols : int
    closed : bool
    start, end : (row, col) or None
        Fixed end squares (for a closed piece ``end`` is the last square, next to ``start``).
    forced : tuple of ((r, c), (r, c))
        Moves the tour must contain.
    holes : tuple of (r, c)
        Removed squares, if the piece has any.
    kind : str
        A label for the combinators (``structured``, ``element-A``, ``strip`` ...).
    seed : int
        CP-SAT random seed used to build it.
    """

    name: str
    rows: int
    cols: int
    closed: bool = True
    start: tuple | None = None
    end: tuple | None = None
    forced: tuple = ()
    holes: tuple = ()
    kind: str = "tour"
    seed: int = 0

    def board(self) -> Board:
        return Board(self.rows, self.cols, holes=list(self.holes) or None)

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "rows": self.rows,
            "cols": self.cols,
            "closed": self.closed,
            "start": None if self.start is None else list(self.start),
            "end": None if self.end is None else list(self.end),
            "forced": [[list(a), list(b)] for a, b in self.forced],
            "holes": [list(h) for h in self.holes],
            "kind": self.kind,
            "seed": self.seed,
        }

    @classmethod
    def from_dict(cls, d: dict) -> "PieceSpec":
        try:
            return cls(
                name=str(d["name"]),
                rows=int(d["rows"]),
                cols=int(d["cols"]),
                closed=bool(d["closed"]),
                start=_sq(d.get("start")),
                end=_sq(d.get("end")),
                forced=tuple((_sq(a), _sq(b)) for a, b in d.get("forced", [])),
                holes=tuple(_sq(h) for h in d.get("holes", [])),
                kind=str(d.get("kind", "tour")),
                seed=int(d.get("seed", 0)),
            )
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise CertificateRejected(f"malformed piece spec: {exc}") from None


@dataclass
class Piece:
    """A verified tour made to a :class:`PieceSpec`."""

    spec: PieceSpec
    tour: Tour
    made_by: dict = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.spec.name

    def to_dict(self) -> dict:
        tour = tour_to_dict(self.tour)
        body = {
            "format": FORMAT,
            "kind": "piece",
            "name": self.spec.name,
            "spec": self.spec.to_dict(),
            "made_by": self.made_by,
            "tour": tour,
        }
        body["sha256"] = _checksum(body)
        return body


def _checksum(body: dict) -> str:
    """sha256 of the canonical JSON of everything except the checksum itself."""
    clean = {k: v for k, v in body.items() if k != "sha256"}
    text = json.dumps(clean, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def spec_violation(spec: PieceSpec, tour: Tour) -> str | None:
    """Why ``tour`` does not meet ``spec`` (board, closedness, ends, forced moves), or None."""
    if tour.board != spec.board():
        return f"the tour is for {tour.board.describe()}, the spec says {spec.board().describe()}"
    if tour.closed != spec.closed:
        return f"the spec asks for {'a closed' if spec.closed else 'an open'} tour"
    if spec.start is not None and tour.start != spec.start:
        return f"the tour starts at {tour.start}, the spec says {spec.start}"
    if spec.end is not None and tour.end != spec.end:
        return f"the tour ends at {tour.end}, the spec says {spec.end}"
    if spec.forced:
        cols = tour.board.cols
        moves = set(map(frozenset, tour.edges().tolist()))
        for a, b in spec.forced:
            if frozenset((a[0] * cols + a[1], b[0] * cols + b[1])) not in moves:
                return f"the tour lacks the required move {a} -> {b}"
    return None


def load_piece_dict(d) -> Piece:
    """Verify a piece given as a dict: checksum, tour (independent checker), spec."""
    if not isinstance(d, dict) or d.get("format") != FORMAT or d.get("kind") != "piece":
        raise CertificateRejected("not a kt-formal piece (format/kind missing)")
    name = d.get("name", "?")
    if d.get("sha256") != _checksum(d):
        raise CertificateRejected(f"piece {name}: checksum mismatch (the file was changed or corrupted)")
    spec = PieceSpec.from_dict(d.get("spec") or {})
    if spec.name != name:
        raise CertificateRejected(f"piece {name}: spec names {spec.name!r}")
    try:
        tour = tour_from_dict(d.get("tour"))
    except CertificateRejected as exc:
        raise CertificateRejected(f"piece {name}: {exc}") from None
    reason = spec_violation(spec, tour)
    if reason is not None:
        raise CertificateRejected(f"piece {name}: {reason}")
    made_by = d.get("made_by") if isinstance(d.get("made_by"), dict) else {}
    return Piece(spec, tour, made_by)


def load_piece(name: str, directory: Path | None = None) -> Piece:
    """Load and verify the piece ``name`` from the library folder.

    Raises
    ------
    CertificateRejected
        When the file is missing, corrupted, or its tour or spec does not check.
    """
    directory = Path(directory) if directory is not None else models_dir()
    path = directory / f"{name}.json"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CertificateRejected(
            f"library piece {name} is missing from {directory.name}/ (run 'kt-formal models build')"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CertificateRejected(f"cannot read library piece {name}: {exc}") from None
    try:
        d = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CertificateRejected(f"library piece {name} is not valid JSON ({exc.msg}); corrupted?") from None
    return load_piece_dict(d)


def build_piece(spec: PieceSpec, time_limit: float = 120.0, workers: int = 2) -> Piece:
    """Make a piece with CP-SAT (forced moves and fixed ends in the circuit model).

    Raises
    ------
    InvalidInput
        If CP-SAT proves the spec impossible or runs out of time (the message says which).
    """
    if spec.kind in SPEC_BUILDERS:  # a model of its own (named, so the library imports no combinator)
        build = importlib.import_module(SPEC_BUILDERS[spec.kind]).build_base
        return build(spec, time_limit=time_limit, workers=workers)
    from kt_formal.engines import cpsat
    from kt_formal.question import Limits, Question

    request = Question(spec.board(), closed=spec.closed, start=spec.start, end=spec.end,
                          forced=spec.forced)
    result = cpsat.CpSat().run(request, Limits(time_limit, seed=spec.seed, threads=workers))
    if not result.found:
        raise InvalidInput(f"piece {spec.name}: {result.status.value}: {result.message}")
    reason = spec_violation(spec, result.tour)
    if reason is not None:  # pragma: no cover - found() already checks ends and forced moves
        raise RuntimeError(f"piece {spec.name}: {reason}")
    made_by = {"engine": "cpsat", "model": "add_circuit with fixed ends and forced moves",
               "seed": spec.seed, "workers": workers}
    return Piece(spec, result.tour, made_by)


def write_piece(piece: Piece, directory: Path | None = None) -> Path:
    directory = Path(directory) if directory is not None else models_dir()
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{piece.name}.json"
    with output_file(path) as fh:
        fh.write(json.dumps(piece.to_dict(), separators=(",", ":")) + "\n")
    return path


def all_specs() -> list[PieceSpec]:
    """Every spec listed by the modules in :data:`SPEC_SOURCES`, names unique."""
    specs: dict[str, PieceSpec] = {}
    for mod_name in SPEC_SOURCES:
        mod = importlib.import_module(mod_name)
        for spec in getattr(mod, "PIECE_SPECS", ()):
            if spec.name in specs and specs[spec.name] != spec:
                raise RuntimeError(f"two different specs are named {spec.name}")
            specs[spec.name] = spec
    return list(specs.values())


def write_manifest(directory: Path | None = None) -> list[Piece]:
    """Rewrite the manifest from every piece file in the folder (each verified first)."""
    directory = Path(directory) if directory is not None else models_dir()
    pieces = [load_piece(p.stem, directory) for p in sorted(directory.glob("*.json"))
              if p.name != MANIFEST]
    entries = [
        {"name": p.name, "file": f"{p.name}.json", "rows": p.spec.rows, "cols": p.spec.cols,
         "kind": p.spec.kind, "closed": p.spec.closed, "sha256": p.to_dict()["sha256"]}
        for p in pieces
    ]
    with output_file(directory / MANIFEST) as fh:
        # one compact entry a line: diffs stay readable, the file stays small (8,785 pieces)
        head = json.dumps({"format": FORMAT, "kind": "manifest"})[:-1]
        fh.write(head + ', "pieces": [\n' + ",\n".join(json.dumps(e, separators=(",", ":")) for e in entries)
                 + "\n]}\n")
    return pieces


def build_library(specs=None, directory: Path | None = None, progress=None,
                  time_limit: float = 120.0) -> list[Piece]:
    """Regenerate pieces with CP-SAT, write them and the manifest; return them.

    ``progress(done, total, text)`` is called after each piece.
    """
    specs = list(all_specs() if specs is None else specs)
    directory = Path(directory) if directory is not None else models_dir()
    pieces = []
    for i, spec in enumerate(specs):
        if progress is not None:
            progress(i, len(specs), f"building {spec.name}")
        piece = build_piece(spec, time_limit=time_limit)
        write_piece(piece, directory)
        pieces.append(piece)
    if progress is not None:
        progress(len(specs), len(specs), "done")
    write_manifest(directory)
    return pieces


def check_library(directory: Path | None = None) -> list[tuple[str, str | None]]:
    """Verify every piece in the manifest; ``[(name, None or reason), ...]``.

    Pieces in the manifest whose file is missing, pieces whose checksum differs from
    the manifest, and spec files not listed are all reported.
    """
    directory = Path(directory) if directory is not None else models_dir()
    try:
        manifest = json.loads((directory / MANIFEST).read_text(encoding="utf-8"))
        entries = manifest["pieces"]
    except FileNotFoundError:
        return [("manifest", f"{directory.name}/{MANIFEST} is missing (run 'kt-formal models build')")]
    except (json.JSONDecodeError, KeyError, TypeError) as exc:
        return [("manifest", f"{MANIFEST} is malformed: {exc}")]
    report = []
    listed = set()
    for e in entries:
        name = e.get("name", "?") if isinstance(e, dict) else "?"
        listed.add(f"{name}.json")
        try:
            piece = load_piece(name, directory)
            if piece.to_dict()["sha256"] != e.get("sha256"):
                raise CertificateRejected(f"piece {name}: checksum differs from the manifest")
            report.append((name, None))
        except CertificateRejected as exc:
            report.append((name, str(exc)))
    for path in sorted(directory.glob("*.json")):
        if path.name != MANIFEST and path.name not in listed:
            report.append((path.stem, "not listed in the manifest"))
    return report
