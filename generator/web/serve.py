"""`dicesheets serve`: the web page for teachers, game groups and playtesters.

The command is declared in `generator.registry`; this is its action, beside the app it
starts (the CLI imports nothing of the web page, the web page nothing of the CLI).
"""

from __future__ import annotations

import click

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def serve(host: str, port: int, catalog: str | None, open_browser: bool, workers: int | None,
          time_limit: float, header_timeout: float, body_timeout: float) -> None:  # fmt: skip
    """Serve the web page: worksheets, Kniffel, Köpfchen, Kribbeln, the coach, playtesting."""
    import logging
    import os
    from pathlib import Path

    from generator.core.errors import Msg, UserError

    try:
        from generator.web import server
        from generator.web.app import Settings, create_app
    except ImportError as exc:
        raise UserError(Msg("web_page_needs_web", name=exc.name)) from None
    if host not in LOOPBACK:
        click.echo(
            f"dicesheets: warning: listening on {host}: the page is reachable from other "
            "machines; put it behind your school's proxy with HTTPS",
            err=True,
        )
    settings = Settings(
        catalog=Path(catalog).resolve() if catalog else None,
        workers=workers or max(1, min(4, os.cpu_count() or 1)),
        time_limit=time_limit,
        body_timeout=body_timeout,
    )
    sock = server.bind(host, port)  # before "serving on": a port in use is one line, exit 2
    app = create_app(settings)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    click.echo(f"dicesheets: serving on {url} (Ctrl-C ends)", err=True)
    if open_browser:
        import threading
        import webbrowser

        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    # access_log off: the app logs each request itself, without query strings
    server.run(app, sock, header_timeout)
