"""The piece library: build with CP-SAT, verify on load, refuse corrupted files."""

import json

import pytest

from kt_formal.combine import library
from kt_formal.exceptions import CertificateRejected
from kt_formal.combine.library import PieceSpec, build_piece, load_piece, write_piece

SPEC = PieceSpec("test-5x6", 5, 6, closed=True, forced=(((0, 1), (2, 0)), ((0, 2), (1, 0))),
                 kind="test", seed=3)
OPEN_SPEC = PieceSpec("test-open-3x8", 3, 8, closed=False, start=(0, 0), end=(1, 6), kind="element-A")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    d = tmp_path_factory.mktemp("models")
    pieces = library.build_library([SPEC, OPEN_SPEC], d)
    return d, pieces


def test_built_pieces_are_verified_and_meet_their_specs(built):
    d, pieces = built
    for piece in pieces:
        assert piece.tour.check() is None
        assert library.spec_violation(piece.spec, piece.tour) is None
    element = load_piece("test-open-3x8", d)
    assert (element.tour.start, element.tour.end) == ((0, 0), (1, 6))
    assert sorted(library.check_library(d)) == [("test-5x6", None), ("test-open-3x8", None)]


def test_regeneration_repeats(built):
    _, pieces = built
    again = build_piece(SPEC)
    assert again.to_dict()["sha256"] == pieces[0].to_dict()["sha256"]


def _tamper(d, name, fn):
    path = d / f"{name}.json"
    data = json.loads(path.read_text())
    fn(data)
    path.write_text(json.dumps(data))


@pytest.mark.parametrize("mutate, reason", [
    (lambda p: p["tour"]["squares"].__setitem__(0, p["tour"]["squares"][1]), "checksum"),
    (lambda p: p.__setitem__("name", "other"), "checksum"),
])
def test_tampered_piece_is_refused(tmp_path, mutate, reason):
    piece = build_piece(SPEC)
    write_piece(piece, tmp_path)
    _tamper(tmp_path, SPEC.name, mutate)
    with pytest.raises(CertificateRejected, match=reason):
        load_piece(SPEC.name, tmp_path)


def test_forged_checksum_still_fails_the_checker(tmp_path):
    piece = build_piece(SPEC)
    d = piece.to_dict()
    sq = d["tour"]["squares"]
    sq[3], sq[4] = sq[4], sq[3]
    d["sha256"] = library._checksum(d)  # a forger who recomputes the checksum
    with pytest.raises(CertificateRejected, match="knight move"):
        library.load_piece_dict(d)


def test_spec_violation_is_caught_even_with_valid_tour(tmp_path):
    piece = build_piece(OPEN_SPEC)
    d = piece.to_dict()
    d["spec"]["end"] = [2, 7]
    d["sha256"] = library._checksum(d)
    with pytest.raises(CertificateRejected, match="ends at"):
        library.load_piece_dict(d)


def test_truncated_and_missing_files(tmp_path):
    piece = build_piece(SPEC)
    path = write_piece(piece, tmp_path)
    path.write_text(path.read_text()[:100])
    with pytest.raises(CertificateRejected, match="not valid JSON"):
        load_piece(SPEC.name, tmp_path)
    with pytest.raises(CertificateRejected, match="missing"):
        load_piece("nope", tmp_path)


def test_shipped_library_checks(cli):
    run = cli("models", "check")
    assert run.code == 0, run.out
    assert "pieces verified" in run.out
