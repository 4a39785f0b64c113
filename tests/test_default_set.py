"""`dicesheets all` (what `make run` writes): every sheet, byte-identical across processes,
fonts embedded, nothing outside the page, a manifest beside every PDF."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.pdfcheck import chars_outside, fonts, page_sizes

EXPECTED = {
    "kniffel-block-de.pdf",
    "yahtzee-block-en.pdf",
    "kniffel-odds-de.pdf",
}


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folders = []
    for hashseed in ("0", "4242"):
        folder = tmp_path_factory.mktemp(f"all-{hashseed}")
        env = {**os.environ, "PYTHONHASHSEED": hashseed}
        proc = subprocess.run(
            [sys.executable, "-m", "generator", "all", "--out", str(folder)],
            env=env, capture_output=True, text=True, timeout=900,
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        folders.append(folder)
    return folders[0], folders[1]


def _digests(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def test_default_set_is_complete_and_byte_identical(two_runs: tuple[Path, Path]) -> None:
    first, second = two_runs
    names = {p.name for p in first.glob("*.pdf")}
    assert EXPECTED <= names
    assert any(n.startswith("worksheet") for n in names)
    assert sum(n.startswith("koepfchen") for n in names) == 2
    assert any(n.startswith("kribbeln") for n in names)
    assert _digests(first) == _digests(second)


def test_every_default_pdf_prints_cleanly(two_runs: tuple[Path, Path]) -> None:
    folder, _ = two_runs
    for pdf in sorted(folder.glob("*.pdf")):
        manifest = json.loads(pdf.with_suffix(".json").read_text(encoding="utf-8"))
        assert manifest["pdf"] == pdf.name and manifest["seed"] == 1
        assert manifest["version"]
        used = fonts(pdf)
        assert used and all(used.values()), (pdf.name, used)
        assert all("DejaVuSans" in name for name in used), (pdf.name, used)
        assert chars_outside(pdf) == [], pdf.name
        for width, height in page_sizes(pdf):
            assert {round(width), round(height)} in ({595, 842}, {612, 792}), pdf.name
