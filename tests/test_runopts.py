"""Options every command gets: --catalog overlay, --png previews, --watch rebuilds."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

from generator.core.resources import catalog_dir, templates_dir

SHIPPED = (catalog_dir() / "kniffel" / "kniffel.yaml").read_text(encoding="utf-8")


def make_catalog(folder: Path, threshold: int = 60) -> Path:
    (folder / "kniffel").mkdir(parents=True)
    (folder / "kniffel" / "kniffel.yaml").write_text(
        SHIPPED.replace("threshold: 63", f"threshold: {threshold}"), encoding="utf-8"
    )
    (folder / "kniffel" / "family.yaml").write_text(
        SHIPPED.replace("id: kniffel", "id: family").replace("value: 35", "value: 50"),
        encoding="utf-8",
    )
    return folder


def test_user_catalog_replaces_one_file_and_adds_another(run_cli, tmp_path: Path) -> None:
    cat = make_catalog(tmp_path / "mine")
    result = run_cli("kniffel", "block", "--catalog", cat, "--out", tmp_path / "a.pdf")
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "a.json").read_text(encoding="utf-8"))
    assert manifest["contents"]["upper_bonus"] == {"threshold": 60, "value": 35}
    result = run_cli(
        "kniffel", "block", "--rules", "family", "--catalog", cat, "--out", tmp_path / "b.pdf"
    )
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "b.json").read_text(encoding="utf-8"))
    assert manifest["contents"]["upper_bonus"] == {"threshold": 63, "value": 50}
    # the shipped catalog is untouched and used again without --catalog
    assert (catalog_dir() / "kniffel" / "kniffel.yaml").read_text(encoding="utf-8") == SHIPPED
    assert run_cli("kniffel", "block", "--out", tmp_path / "c.pdf").exit_code == 0
    manifest = json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))
    assert manifest["contents"]["upper_bonus"]["threshold"] == 63
    assert run_cli("kniffel", "block", "--rules", "family").exit_code == 2


def test_user_profile_is_added_next_to_the_shipped_ones(run_cli, tmp_path: Path) -> None:
    cat = make_catalog(tmp_path / "mine")
    (cat / "koepfchen").mkdir()
    classic = (catalog_dir() / "koepfchen" / "plus-minus.yaml").read_text(encoding="utf-8")
    (cat / "koepfchen" / "kurz.yaml").write_text(
        classic.replace("id: plus-minus", "id: kurz").replace("max: 12", "max: 11"),
        encoding="utf-8",
    )
    out = tmp_path / "b.pdf"
    result = run_cli("koepfchen", "board", "--profile", "kurz", "--catalog", cat, "--out", out)
    assert result.exit_code == 0, result.output + result.stderr
    contents = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))["contents"]
    assert contents["profile"] == "kurz"
    assert max(f["target"] for f in contents["fields"]) <= 11
    # the replaced Kniffel rule set and the added profile work in the same catalog
    assert run_cli("kniffel", "block", "--catalog", cat, "--out", tmp_path / "k.pdf").exit_code == 0
    assert run_cli("koepfchen", "board", "--profile", "kurz").exit_code == 2


def test_user_template_overrides_text(run_cli, tmp_path: Path) -> None:
    from generator.core.resources import templates_dir

    cat = tmp_path / "mine"
    (cat / "templates" / "de").mkdir(parents=True)
    text = (templates_dir() / "de" / "kniffel_block.j2").read_text(encoding="utf-8")
    (cat / "templates" / "de" / "kniffel_block.j2").write_text(
        text.replace("Endsumme", "Alles zusammen"), encoding="utf-8"
    )
    result = run_cli("kniffel", "block", "--catalog", cat, "--out", tmp_path / "a.pdf")
    assert result.exit_code == 0, result.output
    rows = json.loads((tmp_path / "a.json").read_text(encoding="utf-8"))["contents"]["rows"]
    assert rows[-1]["label"] == "Alles zusammen"


def test_missing_catalog_folder_is_exit_2(run_cli, tmp_path: Path) -> None:
    result = run_cli("kniffel", "block", "--catalog", tmp_path / "nope")
    assert result.exit_code == 2 and "--catalog" in result.stderr


def test_png_previews_on_a_rendering_command(run_cli, tmp_path: Path) -> None:
    result = run_cli("kniffel", "block", "--players", "3", "--no-rules",
                     "--out", tmp_path / "k.pdf", "--png", tmp_path / "png",
                     "--dpi", "30")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "png").iterdir()) == ["k-1.png", "k-2.png", "k-3.png"]


def _reader(stream, lines: queue.Queue) -> None:
    for line in stream:
        lines.put(line)


def _wait_for(lines: queue.Queue, needle: str, timeout: float = 300) -> str:
    """The next line with `needle`; the cap is for a busy machine (the line comes in seconds)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=deadline - time.monotonic())
        except queue.Empty:
            break
        if needle in line:
            return line
    raise AssertionError(f"no line with {needle!r} within {timeout} s")


def test_watch_rebuilds_after_an_edit_and_survives_an_error(tmp_path: Path) -> None:
    cat = make_catalog(tmp_path / "mine")
    rules = cat / "kniffel" / "kniffel.yaml"
    proc = subprocess.Popen(
        [sys.executable, "-m", "generator", "kniffel", "block", "--catalog", str(cat), "--watch",
         "--out", str(tmp_path / "w.pdf")],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env={**os.environ},
    )  # fmt: skip
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=_reader, args=(proc.stderr, lines), daemon=True).start()
    try:
        _wait_for(lines, "[watch] built")
        manifest = json.loads((tmp_path / "w.json").read_text(encoding="utf-8"))
        assert manifest["contents"]["upper_bonus"]["threshold"] == 60
        time.sleep(0.05)
        rules.write_text(
            rules.read_text(encoding="utf-8").replace("threshold: 60", "threshold: 55")
        )
        _wait_for(lines, "[watch] changed: kniffel.yaml")
        _wait_for(lines, "[watch] built")
        manifest = json.loads((tmp_path / "w.json").read_text(encoding="utf-8"))
        assert manifest["contents"]["upper_bonus"]["threshold"] == 55
        rules.write_text("id: [broken\n")
        assert "kniffel.yaml" in _wait_for(lines, "dicesheets: error:")
        _wait_for(lines, "[watch] built")  # still watching after the error
        assert proc.poll() is None
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_watch_keeps_a_preview_page_current(tmp_path: Path) -> None:
    import re

    cat = make_catalog(tmp_path / "mine")
    template = cat / "templates" / "de" / "kniffel_block.j2"
    template.parent.mkdir(parents=True)
    shipped = (templates_dir() / "de" / "kniffel_block.j2").read_text(encoding="utf-8")
    template.write_text(shipped, encoding="utf-8")
    preview = cat / "preview"  # inside the catalog: its own files must not trigger rebuilds
    proc = subprocess.Popen(
        [sys.executable, "-m", "generator", "kniffel", "block", "--catalog", str(cat), "--watch",
         "--players", "2", "--out", str(tmp_path / "w.pdf"), "--png",
         str(preview), "--dpi", "30"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env={**os.environ},
    )  # fmt: skip
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=_reader, args=(proc.stderr, lines), daemon=True).start()
    page = preview / "index.html"
    try:
        announced = _wait_for(lines, "[watch] preview: ")
        assert page.resolve().as_uri() in announced
        _wait_for(lines, "[watch] built")
        html = page.read_text(encoding="utf-8")
        assert '<meta http-equiv="refresh" content="1">' in html
        pngs = sorted(p.stem for p in preview.glob("*.png"))
        assert pngs and re.findall(r'<img src="(w-\d)\.png\?v=\d+"', html) == pngs
        assert "<h2>w.pdf</h2>" in html and 'class="error"' not in html
        template.write_text(shipped.replace("{% endmacro %}", "{{ nope }}{% endmacro %}", 1))
        _wait_for(lines, "dicesheets: error:")
        _wait_for(lines, "[watch] built")
        html = page.read_text(encoding="utf-8")
        assert "the build failed" in html and "nope" in html.split('class="error"')[1]
        assert "w-1.png" in html  # the last good previews stay
        template.write_text(shipped.replace("Name", "Name &amp; <Team>", 1), encoding="utf-8")
        _wait_for(lines, "[watch] built")
        assert 'class="error"' not in page.read_text(encoding="utf-8")
        time.sleep(1.0)  # a second poll: the page written just now must not count as a change
        assert lines.empty(), lines.get()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_watch_keeps_the_first_drawn_seed_and_its_file(tmp_path: Path) -> None:
    """Without --seed, every rebuild of a watch session uses the seed drawn first: one file,
    replaced in place, and the status lines say which seed and which file."""
    cat = tmp_path / "mine"
    (cat / "kribbeln").mkdir(parents=True)
    balance = cat / "kribbeln" / "balance.yaml"
    balance.write_text((catalog_dir() / "kribbeln" / "balance.yaml").read_text(encoding="utf-8"))
    out = tmp_path / "out"
    proc = subprocess.Popen(
        [sys.executable, "-m", "generator", "kribbeln", "block", "--catalog", str(cat), "--watch",
         "--pages", "2", "--no-key", "--no-rules", "--out", str(out) + "/", "--png",
         str(tmp_path / "png"), "--dpi", "20"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env={**os.environ},
    )  # fmt: skip
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=_reader, args=(proc.stderr, lines), daemon=True).start()
    try:
        first = _wait_for(lines, "[watch] built")
        pdfs = sorted(p.name for p in out.glob("*.pdf"))
        assert len(pdfs) == 1, pdfs
        seed = pdfs[0].split("-")[2]
        assert f"seed {seed} (kept for every rebuild)" in first and pdfs[0] in first
        stamp = (out / pdfs[0]).stat().st_mtime_ns
        for n in range(2):
            time.sleep(0.05)
            balance.write_text(balance.read_text(encoding="utf-8") + f"# edit {n}\n")
            again = _wait_for(lines, "[watch] built")
            assert f"seed {seed} (kept" in again
            assert sorted(p.name for p in out.glob("*.pdf")) == pdfs  # the same file …
        assert (out / pdfs[0]).stat().st_mtime_ns > stamp  # … written again
        html = (tmp_path / "png" / "index.html").read_text(encoding="utf-8")
        assert f"seed {seed}" in html
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_the_preview_page_escapes_what_it_shows(tmp_path: Path) -> None:
    from generator.io.previewpage import page_html

    png = tmp_path / "a&b-1.png"
    png.write_bytes(b"")
    html = page_html("dicesheets <x>", "ok", [("a&b.pdf", [png])], "bad <tag>")
    assert "dicesheets &lt;x&gt;" in html and "bad &lt;tag&gt;" in html
    assert '<img src="a&amp;b-1.png?v=' in html and "<h2>a&amp;b.pdf</h2>" in html


def test_catalog_of_one_run_does_not_leak_into_the_next(run_cli, tmp_path: Path) -> None:
    from generator.cli.runopts import SETTINGS

    cat = make_catalog(tmp_path / "mine")
    assert run_cli("kniffel", "block", "--catalog", cat, "--out", tmp_path / "a.pdf").exit_code == 0
    assert SETTINGS.catalog is None
