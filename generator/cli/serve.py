"""`dicesheets serve`: the web page for teachers, game groups and playtesters."""

from __future__ import annotations

import click

LOOPBACK = ("127.0.0.1", "localhost", "::1")


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (anything but loopback makes the page reachable "
              "from other machines).")  # fmt: skip
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True,
              help="Port to listen on.")  # fmt: skip
@click.option("--catalog", type=click.Path(file_okay=False, exists=True), default=None,
              help="Your catalog folder: used for every page, and the playtest page shows "
              "its problems and a live preview.")  # fmt: skip
@click.option("--open", "open_browser", is_flag=True, help="Open the page in a browser.")
@click.option("--workers", type=click.IntRange(1, 32), default=None,
              help="Build processes (default: the number of cores, at most 4).")  # fmt: skip
@click.option("--time-limit", type=click.FloatRange(1, 600), default=30.0, show_default=True,
              help="Seconds one build may take before it is stopped.")  # fmt: skip
@click.option("--header-timeout", type=click.FloatRange(0.1, 300), default=10.0,
              show_default=True,
              help="Seconds a client may take to send a request's headers before the "
              "connection is closed.")  # fmt: skip
def serve(host: str, port: int, catalog: str | None, open_browser: bool, workers: int | None,
          time_limit: float, header_timeout: float) -> None:  # fmt: skip
    """Serve the web page: worksheets, Kniffel, Köpfchen, Kribbeln, the coach, playtesting."""
    import logging
    import os
    from pathlib import Path

    from generator.core.errors import UserError

    try:
        from generator.web import server
        from generator.web.app import Settings, create_app
    except ImportError as exc:
        raise UserError(
            f"the web page needs the 'web' extra ({exc.name} is missing): "
            "pip install 'dicesheets[web]', or run make serve"
        ) from None
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
