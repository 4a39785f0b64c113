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
def previews(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("png")


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory: pytest.TempPathFactory, previews: Path) -> tuple[Path, Path]:
    folders = []
    for hashseed in ("0", "4242"):
        folder = tmp_path_factory.mktemp(f"all-{hashseed}")
        env = {**os.environ, "PYTHONHASHSEED": hashseed}
        # the first run also writes the --png previews (at a low dpi: they are only counted);
        # it starts from an empty solver cache, so the Kniffel solve runs in the second
        # process; the second run has one processor, so everything runs in one
        png = ["--png", str(previews), "--dpi", "20"] if hashseed == "0" else []
        if hashseed == "0":
            env["DICESHEETS_CACHE"] = str(tmp_path_factory.mktemp("cold-cache"))
        one_cpu = None if hashseed == "0" else _one_processor
        proc = subprocess.run(
            [sys.executable, "-m", "generator", "all", "--out", str(folder), *png],
            env=env, capture_output=True, text=True, timeout=900, preexec_fn=one_cpu,
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        folders.append(folder)
    return folders[0], folders[1]


def _one_processor() -> None:
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


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


def test_all_png_writes_every_page_of_every_pdf(
    two_runs: tuple[Path, Path], previews: Path
) -> None:
    folder, _ = two_runs
    expected = set()
    for pdf in sorted(folder.glob("*.pdf")):
        pages = len(page_sizes(pdf))
        digits = len(str(pages))
        expected |= {f"{pdf.stem}-{n:0{digits}d}.png" for n in range(1, pages + 1)}
    assert any(name.startswith("worksheet-") for name in expected)  # the one that was missing
    assert {p.name for p in previews.iterdir()} == expected
