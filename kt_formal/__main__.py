"""``python -m kt_formal`` runs the ``kt-formal`` command."""

import sys

from kt_formal.cli import main

sys.exit(main())
