"""Worksheets for a class: 30 personalised sheets with their key (aim: < 5 s), cold and warm.

Baseline: the same worksheet without a roster (one sheet per version, same key), so the
ratio is what 30 names cost on top of the problems, the layout and the key. A second
line: the teacher's class set — 24 pupils from an Excel CSV (Windows-1252, header row),
two of them in large print, double-sided — against the same 24 names as a plain list.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path

from bench.common import line, median_time
from generator.io.writer import write_built
from generator.worksheet.build import WorksheetRequest, build_worksheet
from generator.worksheet.load import load_worksheet
from generator.worksheet.pool import clear_memo

PUPILS = [
    "Zoë", "Łukasz", "Ömer", "Nguyễn Văn An", "Søren", "Αλέξανδρος", "Mia", "Ben", "Emma",
    "Noah", "Lina", "Paul", "Ella", "Finn", "Hannah", "Elias", "Lea", "Jonas", "Marie", "Leon",
    "Sophie", "Luis", "Clara", "Felix", "Ida", "Anton", "Frieda", "Karl", "Greta", "Milan",
]  # fmt: skip


def _run(folder: Path, roster: Path | None, progress=None) -> Path:
    """Write the worksheet (ws-class.pdf with the roster, ws-versions.pdf without)."""
    req = WorksheetRequest(
        level=2, problems=20, versions=3, impossible=2, seed=1,
        roster=str(roster) if roster else None,
    )  # fmt: skip
    name = "ws-class.pdf" if roster else "ws-versions.pdf"
    built = build_worksheet(load_worksheet(req, progress=progress), req, progress)
    return write_built(built, folder / name).pdfs[0]


def _class_set(folder: Path, roster: Path, teacher: bool) -> Path:
    req = WorksheetRequest(
        level=2, problems=20, versions=3, seed=1, roster=str(roster), duplex=teacher,
        date="KW 12" if teacher else None,
    )  # fmt: skip
    built = build_worksheet(load_worksheet(req), req)
    return write_built(built, folder / ("set.pdf" if teacher else "plain.pdf")).pdfs[0]


def class_set(folder: Path) -> None:
    """24 pupils from an Excel table with two in large print, against a plain list."""
    names = PUPILS[6:30]
    csv = folder / "klasse.csv"
    rows = ["Vorname;Nachname;Klasse;Großdruck"]
    rows += [f"{n};Muster;3b;{'x' if i in (2, 7) else ''}" for i, n in enumerate(names)]
    csv.write_bytes(("\r\n".join(rows) + "\r\n").encode("cp1252"))
    plain = folder / "plain.txt"
    plain.write_text("\n".join(f"{n} Muster" for n in names) + "\n", encoding="utf-8")
    t_set, pdf = median_time(lambda: _class_set(folder, csv, True), repeat=5)
    t_plain, _ = median_time(lambda: _class_set(folder, plain, False), repeat=5)
    contents = json.loads(pdf.with_suffix(".json").read_text(encoding="utf-8"))["contents"]
    line(
        "worksheet class set: 24 from Excel CSV, 2 large print, duplex (warm)",
        t_set,
        f"{contents['sheet_pages']} sheet pages + {contents['key_pages']} key pages",
        baseline=t_plain,
    )


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        roster = folder / "class.txt"
        roster.write_text("\n".join(PUPILS) + "\n", encoding="utf-8")
        old = os.environ.get("DICESHEETS_CACHE")
        os.environ["DICESHEETS_CACHE"] = str(folder / "cache")
        try:
            clear_memo()
            stages: list[tuple[float, str]] = []
            start = time.perf_counter()
            _run(
                folder,
                roster,
                lambda stage, done, total: stages.append((time.perf_counter(), stage)),
            )
            cold = time.perf_counter() - start
            pool_s = max((t for t, s in stages if s == "pool"), default=start) - start
            t_warm, pdf = median_time(lambda: _run(folder, roster), repeat=5)
            t_base, _ = median_time(lambda: _run(folder, None), repeat=5)
            class_set(folder)
        finally:
            if old is None:
                os.environ.pop("DICESHEETS_CACHE", None)
            else:
                os.environ["DICESHEETS_CACHE"] = old
        contents = json.loads(pdf.with_suffix(".json").read_text(encoding="utf-8"))["contents"]
        pages = contents["sheet_pages"] + contents["key_pages"]
        line(
            "worksheet, 30 personalised sheets + key (warm)",
            t_warm,
            f"{pdf.stat().st_size / 1024:.0f} KiB, {pages} pages; cold (pool solved): "
            f"{cold * 1000:.0f} ms, of which pool {pool_s * 1000:.0f} ms; aim < 5000 ms",
            baseline=t_base,
        )
