"""``python -m kt_formal`` runs the ``kt-formal`` command."""

from kt_formal.cli import run

run()
