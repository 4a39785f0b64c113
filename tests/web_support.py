"""Helpers for the web tests: the form a teacher sends, a live server on a free port."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

NAMES = ["Zoë", "Łukasz", "Ömer", "Nguyễn Văn An", "Søren"]
PORTS = range(8101, 8200)  # this project's share of the shared machine's ports

WORKSHEET = {
    "family": "koepfchen",
    "level": "2",
    "problems": "20",
    "versions": "3",
    "impossible": "0",
    "paper": "a4",
    "lang": "de",
    "seed": "7",
}


def free_socket() -> socket.socket:
    """A listening socket on 127.0.0.1 with a free port of our range."""
    for port in PORTS:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            sock.close()
            continue
        sock.listen(64)
        return sock
    raise RuntimeError("no free port in 8101–8199")


@contextlib.contextmanager
def live_server(app: Any, header_timeout: float | None = None) -> Iterator[str]:
    """Real uvicorn in a thread on 127.0.0.1, as `dicesheets serve` runs it; yields the URL."""
    import uvicorn

    from generator.web.server import HEADER_TIMEOUT, protocol

    sock = free_socket()
    port = sock.getsockname()[1]
    http = protocol(header_timeout or HEADER_TIMEOUT)
    server = uvicorn.Server(uvicorn.Config(app, http=http, log_level="warning", access_log=False))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 120  # a cap for a busy machine; it starts in milliseconds
    while not server.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.02)
    if not server.started:
        raise RuntimeError(f"uvicorn did not start on port {port}")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def warm_tables() -> None:
    """Solve the coach's two tables into the session's cache before a browser asks for them:
    a cold solve on a busy shared machine can run past the test server's time limit."""
    from generator.web.products import Job, run_job

    for rules in ("kniffel", "yahtzee"):
        params = {"rules": rules, "joker": None, "filled": "", "roll": "1 3 3 4 6", "rolls_left": 2}
        assert run_job(Job("coach", params, "advise")).error is None
