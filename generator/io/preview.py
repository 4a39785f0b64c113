"""PNG previews of a PDF, rendered in-process with PDFium (no system tools needed)."""

from __future__ import annotations

import hashlib
import io
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from generator.core.errors import InputError, Msg, UserError
from generator.io.files import write_files_atomic

if TYPE_CHECKING:
    from PIL import Image

MIN_DPI, MAX_DPI = 20, 600
# level 3: a third faster than Pillow's default 6 for these pages, and no larger
COMPRESS_LEVEL = 3
# the PNG of each page image encoded lately: a --watch rebuild encodes only the pages that
# changed (encoding is most of a preview's time; the same image gives the same bytes)
_ENCODED: OrderedDict[bytes, bytes] = OrderedDict()
KEEP_ENCODED = 64


def _png(image: Image.Image, dpi: int) -> bytes:
    """A page image as PNG bytes (the same image, the same bytes: kept for the next run)."""
    key = hashlib.sha256(repr((image.mode, image.size, dpi)).encode() + image.tobytes()).digest()
    found = _ENCODED.get(key)
    if found is None:
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", dpi=(dpi, dpi), compress_level=COMPRESS_LEVEL)
        found = _ENCODED[key] = buffer.getvalue()
        while len(_ENCODED) > KEEP_ENCODED:
            _ENCODED.popitem(last=False)
    _ENCODED.move_to_end(key)
    return found


def pdf_to_png(
    pdf: Path | bytes,
    folder: Path,
    dpi: int = 100,
    stem: str | None = None,
    announce: Callable[[list[Path]], None] | None = None,
) -> list[Path]:
    """Write one PNG per page of `pdf` (a file or PDF bytes) into `folder` as
    `<stem>-<page>.png` (stem: the file's, required for bytes); return the paths.
    `announce(paths)` says them before they are renamed into place."""
    files = png_files(pdf, folder, dpi, stem)
    paths = [path for path, _ in files]
    write_files_atomic(files, announce=None if announce is None else lambda: announce(paths))
    return paths


def png_files(
    pdf: Path | bytes, folder: Path, dpi: int = 100, stem: str | None = None
) -> list[tuple[Path, bytes]]:
    """The PNG pages `pdf_to_png` writes, as (path, bytes), rendered but not written."""
    import pypdfium2 as pdfium

    if not MIN_DPI <= dpi <= MAX_DPI:
        raise InputError("dpi", Msg("range_bare", low=MIN_DPI, high=MAX_DPI, found=dpi))
    if folder.exists() and not folder.is_dir():
        raise InputError("png", Msg("not_a_folder", path=folder))
    if stem is None:
        assert isinstance(pdf, Path), "PDF bytes need a stem"
        stem = pdf.stem
    try:
        document = pdfium.PdfDocument(pdf if isinstance(pdf, bytes) else str(pdf))
    except (pdfium.PdfiumError, OSError) as exc:
        where = str(pdf) if isinstance(pdf, Path) else stem
        raise UserError(Msg("cannot_open_pdf", exc=exc), where=where) from None
    files: list[tuple[Path, bytes]] = []
    try:
        digits = max(1, len(str(len(document))))
        for number in range(len(document)):
            page = document[number]
            image = page.render(scale=dpi / 72).to_pil()
            files.append((folder / f"{stem}-{number + 1:0{digits}d}.png", _png(image, dpi)))
            page.close()
    finally:
        document.close()
    return files
