"""Kniffel block batches (pages/s, size, peak memory) and `dicesheets --help` start-up time."""

from __future__ import annotations

import io
import subprocess
import sys
import tracemalloc

from bench.common import line, median_time
from generator.kniffel.block import make_spec
from generator.kniffel.block_layout import layout_block
from generator.kniffel.load import load_rules
from generator.render.draw import _draw, render_pdf
from generator.render.fonts import register_fonts


def _block_pdf(pages: int) -> bytes:
    spec = make_spec(load_rules("kniffel"), "de", 1, 6, "Zoë", pages)
    return render_pdf(layout_block(spec, "a4", False, "1"))


def _plain_canvas_pdf(pages: int) -> bytes:
    """Baseline: the same grid drawn item by item on every page, no reusable form."""
    from reportlab.pdfgen import canvas

    spec = make_spec(load_rules("kniffel"), "de", 1, 6, "Zoë", 1)
    doc = layout_block(spec, "a4", False, "1")
    register_fonts()
    buffer = io.BytesIO()
    c = canvas.Canvas(buffer, pagesize=(doc.width, doc.height), invariant=1)
    for _ in range(pages):
        for item in doc.forms["block"]:
            _draw(c, item)
        for item in doc.pages[0].items[1:]:
            _draw(c, item)
        c.showPage()
    c.save()
    return buffer.getvalue()


def _peak_mib(fn, *args) -> float:
    tracemalloc.start()
    fn(*args)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def main() -> None:
    pages = 1000
    t_block, pdf = median_time(lambda: _block_pdf(pages), repeat=3)
    t_plain, plain = median_time(lambda: _plain_canvas_pdf(pages), repeat=3)
    line(
        f"kniffel block, {pages} pages",
        t_block,
        f"{pages / t_block:.0f} pages/s, {len(pdf) / 1024:.0f} KiB "
        f"(plain canvas: {pages / t_plain:.0f} pages/s, {len(plain) / 1024:.0f} KiB)",
        baseline=t_plain,
    )
    peak_small, peak_large = _peak_mib(_block_pdf, 100), _peak_mib(_block_pdf, 1000)
    print(f"kniffel block peak Python memory: 100 pages {peak_small:.1f} MiB, "
          f"1000 pages {peak_large:.1f} MiB", flush=True)  # fmt: skip

    def run(args: list[str]) -> None:
        subprocess.run([sys.executable, *args], check=True, capture_output=True)

    t_pass, _ = median_time(lambda: run(["-c", "pass"]), repeat=7)
    t_help, _ = median_time(lambda: run(["-m", "generator", "--help"]), repeat=7)
    line("dicesheets --help", t_help, baseline=t_pass)
