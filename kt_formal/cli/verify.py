"""``kt-formal verify``: check a certificate or a tour file independently.

Re-check a certificate (JSON) or a tour file (any format 'kt-formal tour' writes) from
the board and the knight rule alone.
"""

from __future__ import annotations

import os
import sys

from kt_formal.cli.parsing import PROG
from kt_formal.exceptions import InvalidInput, KtFormalError, exit_code_of
from kt_formal.cli.scripting import add_script_arguments
from kt_formal.cli.common import _bounded, command, MAX_SECONDS


VERIFY_EXAMPLES = """\
examples:
  kt-formal tour 8 8 --format json --out t.json && kt-formal verify t.json
  kt-formal tour 8 8 --out t.txt && kt-formal verify t.txt
  kt-formal tour 8 8 --format npy --out t.npy && kt-formal verify t.npy
  kt-formal tour 10000 10000 --out t.ktour && kt-formal verify t.ktour
  kt-formal tour 8 8 | kt-formal verify -    standard input, in any of these formats
  kt-formal verify --db census.sqlite        every certificate stored by 'kt-formal census'
                                             (--replay re-runs exhaustive records there too)

Every format 'kt-formal tour' writes is read: JSON certificate, numbered grid (text:
rows of step numbers, holes as '#', '.', '-' or 0; or a .npy integer array, 0 on
holes), coords or chess list, successor array (.npy), binary order file (.ktour).
Every file kt-formal writes says whether its tour is closed (a grid in its first line,
a .npy grid in a line after its array). A grid without that line (printed, or saved
by numpy itself) is checked as an open tour unless --closed is given.
"""


def _add_verify(sub) -> None:
    p = command(sub, __doc__, VERIFY_EXAMPLES)
    p.add_argument("files", nargs="*", metavar="FILE",
                   help="tour file to check (any format 'kt-formal tour' writes) or a proof "
                        "certificate (.json); several files give one line each and a total")
    p.add_argument("--closed", action="store_true",
                   help="check a grid as a closed tour (the last square a knight move from the first); a file that says it holds an open tour is then refused")
    p.add_argument("--replay", action="store_true",
                   help="re-run the search an 'exhaustive' record names (the kernel runs no search, "
                        "so without --replay such a record is NOT CHECKED)")
    p.add_argument("--time-limit", type=_bounded(float, 0.001, MAX_SECONDS, "--time-limit"), default=60.0,
                   metavar="S", help="with --replay: stop a replay after S seconds and report unknown, exit 3 "
                                     "(default 60; with --db, S for all the replays together)")
    p.add_argument("--db", metavar="FILE", help="re-check every certificate stored in a census database")
    add_script_arguments(p, "verify")
    p.set_defaults(run=_run_verify)


def _is_json_file(path: str) -> bool:
    """True for a JSON certificate, and for anything that is not a regular file (a pipe,
    a FIFO, a device): those are read only by the kernel's bounded reader."""
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO without writer must not block
    except OSError:
        return True  # the reader reports the error
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return True
        head = os.read(fd, 4096)
    except OSError:
        return True
    finally:
        os.close(fd)
    return head.lstrip().startswith(b"{")


def _verify_stdin(closed: bool, replay: bool, time_limit: float) -> str:
    """``verify -``: standard input, read once up to the certificate reader's bound, then
    checked as the file it is (a certificate, a grid, a list, a ``.npy`` or ``.ktour`` file)."""
    import tempfile

    from kt_formal.kernel.reader import MAX_BYTES, read_bounded
    from kt_formal.tourfile import BINARY_MAGIC

    data = read_bounded("-", MAX_BYTES)
    if not data.strip():
        raise InvalidInput("standard input is empty")
    suffix = (".json" if data.lstrip().startswith(b"{") else ".npy" if data.startswith(b"\x93NUMPY")
              else ".ktour" if data.startswith(BINARY_MAGIC) else ".txt")
    with tempfile.TemporaryDirectory(prefix="kt-formal-stdin-") as tmp:
        path = os.path.join(tmp, "standard-input" + suffix)
        with open(path, "wb") as fh:
            fh.write(data)
        try:
            claim = _verify_one(path, closed, replay, time_limit)
        except KtFormalError as exc:  # its messages name the file: here, standard input
            raise type(exc)(str(exc).replace(path, "standard input").replace(os.path.basename(path),
                                                                              "standard input")) from None
    return claim[:-1] + ", from standard input)" if claim.endswith(")") and suffix != ".json" else claim


def _verify_one(path: str, closed: bool, replay: bool = False, time_limit: float = 60.0) -> str:
    """The claim of one checked file; raises CertificateRejected or InvalidInput (LimitReached
    when a replay ran out of ``time_limit`` seconds)."""
    from kt_formal import kernel
    from kt_formal.claims import check_certificate
    from kt_formal.exceptions import CertificateNotChecked, CertificateRejected

    if path == "-":
        return _verify_stdin(closed, replay, time_limit)
    if _is_json_file(path):
        d = kernel.read_certificate(path)
        try:
            claim = check_certificate(d)
        except CertificateNotChecked:
            if not replay:
                raise
            from kt_formal.proofs.replay import replay_exhaustive

            return "REPLAYED: " + replay_exhaustive(d, time_limit)
        if closed and d.get("kind") == "tour" and d.get("closed") is False:
            raise CertificateRejected("the certificate is of an open tour; --closed was asked")
        return "OK: " + claim
    from kt_formal.io.formats import read_tour_file

    from kt_formal.claims import question_text

    tour, how = read_tour_file(path, closed=True if closed else None)  # checked by the kernel's tour check
    b = tour.board
    cols = b.cols
    first, last = divmod(int(tour.order[0]), cols), divmod(int(tour.order[-1]), cols)
    what = question_text(b.rows, cols, b.n_holes, b.first_holes(6), tour.closed, first, last)
    closing = ", the closing move included" if tour.closed else ""
    return (f"OK: {what}: every square visited once, every step a knight move{closing} "
            f"({len(tour)} square{'s' if len(tour) != 1 else ''}; read as a {how})")


def _run_verify(args) -> int:
    """One line per file; exit 0 when every file verifies, 1 if any is rejected or not
    checked, 2 if any is unreadable."""

    if args.db is not None:
        if args.files:
            raise InvalidInput("give either certificate files or --db FILE, not both")
        return _run_verify_db(args)
    if not args.files:
        raise InvalidInput("give a certificate file to check (or --db FILE)")
    return _verify_scripted(args)




def _run_verify_db(args) -> int:
    from kt_formal.survey.report import verify_store
    from kt_formal.progress import progress_for

    with progress_for(enabled=not getattr(args, "quiet", False), label="verify") as progress:
        checked, failed, unknown, failures = verify_store(args.db, progress=progress, replay=args.replay,
                                                             time_limit=args.time_limit)
    if getattr(args, "json", False):
        from kt_formal.io import jsonout

        for line in failures:
            jsonout.emit(jsonout.verify_json(args.db, "rejected", 1, line))
        text = (f"{checked - failed} of {checked} certificates verified in {args.db}; {unknown} unknown rows "
                "without a certificate")
        jsonout.emit(jsonout.verify_json(args.db, "verified" if not failed else "rejected", 1 if failed else 0,
                                         text, checked={"checked": checked, "failed": failed,
                                                        "unknown_rows": unknown}))
        return 1 if failed else 0
    for line in failures:
        print(line)
    print(f"{checked - failed} of {checked} certificates verified in {args.db}"
          f"{f'; {failed} REJECTED or NOT CHECKED' if failed else ''}; {unknown} unknown rows without a certificate")
    return 1 if failed else 0


def _verify_scripted(args) -> int:
    """``verify --json`` (one object per file, a line each) and ``verify --squares``."""
    from kt_formal.exceptions import CertificateNotChecked, CertificateRejected, LimitReached
    from kt_formal.io import jsonout

    codes = []
    many = len(args.files) > 1
    for path in args.files:
        try:
            claim = _verify_one(path, args.closed, args.replay, args.time_limit)
            answer, code = ("replayed" if claim.startswith("REPLAYED") else "verified"), 0
            claim = claim.split(": ", 1)[1]
            claim = _styled_claim(args, path, claim)
            text = f"{'REPLAYED' if answer == 'replayed' else 'OK'}: {claim}"
        except CertificateNotChecked as exc:
            answer, code, claim, text = "not-checked", 1, str(exc), str(exc)
        except CertificateRejected as exc:
            answer, code, claim, text = "rejected", 1, str(exc), f"REJECTED: {exc}"
        except LimitReached as exc:
            if not many and not args.json:
                raise
            answer, code, claim, text = "unknown", 3, str(exc), f"UNKNOWN: {exc}"
        except KtFormalError as exc:
            if not many and not args.json:
                raise
            if args.json:
                print(f"{PROG}: {path}: {exc}", file=sys.stderr)
            answer, code, claim, text = "bad-input", exit_code_of(exc), str(exc), f"BAD INPUT: {exc}"
        codes.append(code)
        if args.json:
            jsonout.emit(jsonout.verify_json(path, answer, code, claim))
        else:
            print(f"{path + ': ' if many else ''}{text}", flush=True)
    if many and not args.json:
        print(f"{codes.count(0)} of {len(codes)} files verified")
    return max(codes)


def _styled_claim(args, path: str, claim: str) -> str:
    """The claim with its squares written as --squares says (chess names up to 26 columns)."""
    import re

    from kt_formal.cli.parsing import restyle, square_style

    m = re.search(r"of the (\d+)x(\d+) board", claim)
    if not m:
        return claim
    rows, cols = int(m.group(1)), int(m.group(2))
    return restyle(claim, rows, [], square_style(getattr(args, "squares", None), [], cols), cols)
