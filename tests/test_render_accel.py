"""ReportLab's C accelerator is in use and writes the very bytes of its Python fallbacks."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

# run the CLI with the accelerator hidden (`None` in sys.modules makes its import fail)
WITHOUT = (
    "import sys\n"
    "if sys.argv.pop(1) == 'hide':\n"
    "    sys.modules['_rl_accel'] = None\n"
    "from generator.cli import cli\n"
    "cli.main(sys.argv[1:], prog_name='dicesheets')\n"
)


def test_the_accelerator_is_installed() -> None:
    from reportlab.lib import rl_accel

    assert type(rl_accel.fp_str).__name__ == "builtin_function_or_method"


@pytest.mark.parametrize(
    "args",
    [
        ["kniffel", "block", "--players", "5", "--names", "Zoë,Łukasz,Ömer", "--copies", "3"],
        ["koepfchen", "board", "--profile", "classic"],
    ],
)
def test_same_pdf_with_and_without_the_accelerator(args: list[str], tmp_path: Path) -> None:
    pdfs = []
    for mode in ("hide", "use"):
        out = tmp_path / f"{mode}.pdf"
        subprocess.run(
            [sys.executable, "-c", WITHOUT, mode, *args, "--out", str(out)],
            check=True,
            capture_output=True,
        )
        pdfs.append(out.read_bytes())
    assert pdfs[0] == pdfs[1]
