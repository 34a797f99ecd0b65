"""league.tenhou is pure Python: it runs, and its tests run, without Django or a database."""

from __future__ import annotations

import subprocess
import sys

from tests.realdata import REPO


def test_the_importer_needs_no_django():
    code = "import sys, league.tenhou; sys.exit('django' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], cwd=REPO).returncode == 0
