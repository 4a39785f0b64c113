"""A command imports what it uses and nothing else (start-up time is paid per import).

(Pillow's Image module comes with ReportLab itself, which imports it at start.)
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

PROBE = (
    "import sys\n"
    "from generator.cli import cli\n"
    "try:\n"
    "    cli.main(sys.argv[1:], prog_name='dicesheets')\n"
    "except SystemExit as exc:\n"
    "    assert not exc.code, exc.code\n"
    "print('MODULES', ' '.join(sorted(sys.modules)), file=sys.stderr)\n"
)


@pytest.mark.parametrize(
    ("args", "unused"),
    [
        (["kniffel", "block", "--players", "2"], {"numpy", "pypdfium2"}),
        (["worksheet", "--level", "1", "--problems", "4"], {"numpy", "pypdfium2"}),
        (["koepfchen", "board", "--profile", "classic"], {"pypdfium2"}),
    ],
)
def test_pdf_commands_import_only_what_they_use(
    args: list[str], unused: set[str], tmp_path: Path
) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, *args, "--out", str(tmp_path) + "/"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    modules = set(proc.stderr.split("MODULES", 1)[1].split())
    assert "reportlab" in modules  # it did write a PDF
    assert not unused & modules
