"""Shared PDF checks for the tests: text, geometry, fonts (opened with pdfplumber and pypdf)."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
from pypdf import PdfReader

A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)


def page_words(path: Path) -> list[list[dict]]:
    """The words of every page with their boxes (pdfplumber coordinates: top-down)."""
    with pdfplumber.open(str(path)) as pdf:
        return [
            page.extract_words(keep_blank_chars=False, use_text_flow=True) for page in pdf.pages
        ]


def page_texts(path: Path) -> list[str]:
    with pdfplumber.open(str(path)) as pdf:
        return [page.extract_text() or "" for page in pdf.pages]


def page_sizes(path: Path) -> list[tuple[float, float]]:
    reader = PdfReader(str(path))
    return [(float(p.mediabox.width), float(p.mediabox.height)) for p in reader.pages]


def chars_outside(path: Path, margin: float = 0.0) -> list[str]:
    """Characters lying (partly) outside the page inset by `margin` points."""
    bad = []
    with pdfplumber.open(str(path)) as pdf:
        for number, page in enumerate(pdf.pages, start=1):
            for ch in page.chars:
                if (
                    ch["x0"] < margin - 0.01
                    or ch["x1"] > page.width - margin + 0.01
                    or ch["top"] < margin - 0.01
                    or ch["bottom"] > page.height - margin + 0.01
                ):
                    bad.append(f"page {number}: {ch['text']!r} at {ch['x0']:.1f},{ch['top']:.1f}")
    return bad


def overlapping_words(path: Path, tolerance: float = 0.3) -> list[str]:
    """Pairs of words on a page whose boxes overlap by more than `tolerance` points."""
    bad = []
    for number, words in enumerate(page_words(path), start=1):
        boxes = sorted(words, key=lambda w: w["x0"])
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                if b["x0"] >= a["x1"] - tolerance:
                    break
                dx = min(a["x1"], b["x1"]) - max(a["x0"], b["x0"])
                dy = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
                if dx > tolerance and dy > tolerance:
                    bad.append(f"page {number}: {a['text']!r} overlaps {b['text']!r}")
    return bad


def fonts(path: Path) -> dict[str, bool]:
    """Every font used in the PDF → whether its file is embedded."""
    reader = PdfReader(str(path))
    found: dict[str, bool] = {}

    def visit(resources: object) -> None:
        if not resources:
            return
        res = resources.get_object()
        font_dict = res.get("/Font")
        if font_dict:
            for ref in font_dict.get_object().values():
                font = ref.get_object()
                name = str(font.get("/BaseFont"))
                embedded = False
                descendants = font.get("/DescendantFonts")
                candidates = (
                    [font] + [d.get_object() for d in descendants.get_object()]
                    if descendants
                    else [font]
                )
                for cand in candidates:
                    desc = cand.get("/FontDescriptor")
                    if desc is not None:
                        desc = desc.get_object()
                        embedded = embedded or any(
                            k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3")
                        )
                found[name] = found.get(name, False) or embedded
        xobjects = res.get("/XObject")
        if xobjects:
            for ref in xobjects.get_object().values():
                visit(ref.get_object().get("/Resources"))

    for page in reader.pages:
        visit(page.get("/Resources"))
    return found
