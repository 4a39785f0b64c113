"""The `--watch` preview page: `index.html` beside the PNGs, always showing the newest build.

The page reloads itself every second, so a browser tab opened once on the file
(no server needed) follows every rebuild; the images carry their modification
time in the address, so only the pages that changed are fetched again. When a
rebuild fails the page keeps the last good previews and shows the error above them.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path

from generator.io.files import write_files_atomic

PAGE = "index.html"
RELOAD_SECONDS = 1

_HTML = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="refresh" content="{reload}">
<title>{title}</title>
<style>
body {{ font-family: sans-serif; margin: 1em; background: #e8e8e8; color: #222; }}
header {{ position: sticky; top: 0; background: #e8e8e8; padding-bottom: .5em; }}
h1 {{ font-size: 1em; margin: 0; font-family: monospace; }}
p.status {{ margin: .3em 0; }}
p.error {{ background: #b00020; color: white; padding: .5em; font-family: monospace;
  white-space: pre-wrap; }}
h2 {{ font-size: 1em; margin: 1.5em 0 .5em; }}
figure {{ display: inline-block; margin: 0 1em 1em 0; vertical-align: top; }}
img {{ box-shadow: 0 1px 4px rgba(0, 0, 0, .3); background: white; max-width: 95vw;
  max-height: calc(100vh - 7em); }}
figcaption {{ font-size: .8em; color: #555; }}
</style>
</head>
<body>
<header>
<h1>{title}</h1>
<p class="status">{status}</p>
{error}
</header>
{documents}
</body>
</html>
"""


def page_html(
    title: str, status: str, documents: Sequence[tuple[str, Sequence[Path]]], error: str | None
) -> str:
    """The page: per document (a PDF's name) its PNG pages, under the status and the error."""
    parts = []
    for name, pngs in documents:
        figures = "\n".join(
            f'<figure><img src="{html.escape(png.name)}?v={_stamp(png)}" alt="">'
            f"<figcaption>{html.escape(png.name)}</figcaption></figure>"
            for png in pngs
        )
        parts.append(f"<h2>{html.escape(name)}</h2>\n{figures}")
    return _HTML.format(
        reload=RELOAD_SECONDS,
        title=html.escape(title),
        status=html.escape(status),
        error=f'<p class="error">{html.escape(error)}</p>' if error else "",
        documents="\n".join(parts),
    )


def _stamp(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return 0


def write_page(
    folder: Path,
    title: str,
    status: str,
    documents: Sequence[tuple[str, Sequence[Path]]],
    error: str | None = None,
) -> Path:
    """Write `folder/index.html` (atomically: a reload never sees half a page)."""
    path = folder / PAGE
    write_files_atomic([(path, page_html(title, status, documents, error).encode("utf-8"))])
    return path
