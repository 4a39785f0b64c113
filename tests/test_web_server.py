"""The web server as `dicesheets serve` runs it (issue 25): unknown fields, clients that leave
mid-body, uvicorn's own 400s, a port in use, and requests whose head or body never arrives."""

from __future__ import annotations

import logging
import socket
import subprocess
import sys
import time
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")
pytest.importorskip("httpx", reason="httpx (Starlette's test client) is not installed")

from starlette.testclient import TestClient

from generator.web.app import Settings, create_app
from generator.web.guard import HEADERS
from generator.web.pages import PAGES
from tests.web_support import WORKSHEET, free_socket, live_server


@pytest.fixture(scope="module")
def client():
    # (the longest time limit: a busy machine's slow build is a 503, and 503 is not the point)
    with TestClient(create_app(Settings(workers=1, time_limit=600))) as c:
        yield c


# 7. a field a page does not have is ignored, whatever page it is posted to
@pytest.mark.parametrize("page", sorted(PAGES))
def test_a_class_list_posted_to_any_page_is_never_a_500(client, page: str) -> None:
    for path in (f"/api/preview/{page}", f"/download/{page}", f"/{page}"):
        response = client.post(path, data={"roster_text": "Anna\nBen\n", "seed": "3"})
        assert response.status_code < 500, (path, response.text[-500:])
    upload = client.post(
        f"/api/preview/{page}", data={"seed": "3"},
        files={"roster_file": ("k.txt", b"Anna\n", "text/plain")},
    )  # fmt: skip
    assert upload.status_code < 500, upload.text[-500:]


def _raw(port: int, data: bytes, wait: float = 0.0, timeout: float = 30.0) -> bytes:
    """Send `data` on a fresh connection, close our side after `wait`, return what came."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(data)
        time.sleep(wait)
        sock.shutdown(socket.SHUT_WR)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
        return b"".join(chunks)


# 11. a client that leaves in the middle of its body: no traceback, no 500 in the log
def test_a_client_leaving_mid_body_is_no_error(caplog) -> None:
    caplog.set_level(logging.INFO)
    with live_server(create_app(Settings(workers=1))) as url:
        port = int(url.rsplit(":", 1)[1])
        head = (
            b"POST /api/preview/worksheet HTTP/1.1\r\nHost: x\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 5000\r\n\r\n"
        )
        for _ in range(3):
            with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
                sock.sendall(head + b"family=koepfchen&level=")
            time.sleep(0.2)
        time.sleep(0.5)
        assert b"200 OK" in _raw(port, b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    logged = [r.getMessage() for r in caplog.records]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], logged
    assert not any(" 500 " in m for m in logged), logged
    assert any("POST /api/preview/worksheet 499" in m for m in logged), logged


# 12. the 400 uvicorn answers itself carries the security headers
def test_protocol_level_400s_carry_the_security_headers() -> None:
    with live_server(create_app(Settings(workers=1))) as url:
        port = int(url.rsplit(":", 1)[1])
        for junk in (b"GARBAGE\x00\r\n\r\n", b"GET / HTTP/1.1\r\nBad Header\r\n\r\n"):
            answer = _raw(port, junk).decode("latin-1")
            assert answer.startswith("HTTP/1.1 400"), answer
            head = answer.split("\r\n\r\n", 1)[0].lower()
            for name, value in HEADERS:
                assert f"{name.decode()}: {value.decode().lower()}" in head, (name, head)


# 15. a request whose head trickles in is closed after the header timeout
def test_a_half_sent_request_is_closed_after_the_header_timeout() -> None:
    with live_server(create_app(Settings(workers=1)), header_timeout=0.3) as url:
        port = int(url.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # never the empty line
            assert sock.recv(100) == b""  # closed by the server (the generous bound: 60 s)
        # a whole request on a kept-alive connection, then half a second one: closed too
        with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
            sock.sendall(b"GET /favicon.ico HTTP/1.1\r\nHost: x\r\n\r\n")
            assert sock.recv(1000).startswith(b"HTTP/1.1 204")
            sock.sendall(b"GET / HTTP/1.1\r\n")
            assert sock.recv(100) == b""
        # a prompt request on the same server is answered
        assert b"200 OK" in _raw(port, b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")


# a request whose body stops or trickles: 408 after the body timeout, one log line
@pytest.mark.parametrize("kind", ["stopped", "trickling"])
def test_a_slow_body_is_answered_408_after_the_body_timeout(caplog, kind: str) -> None:
    caplog.set_level(logging.INFO)
    head = (
        b"POST /api/preview/worksheet HTTP/1.1\r\nHost: x\r\n"
        b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 4000\r\n\r\n"
    )
    with live_server(create_app(Settings(workers=1, body_timeout=0.5))) as url:
        port = int(url.rsplit(":", 1)[1])
        # (without a body timeout the server waits for ever: the 20 s bound fails the test)
        with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
            sock.sendall(head + b"family=koepfchen&level=")
            if kind == "trickling":  # a byte every 0.1 s, for longer than the timeout allows
                for byte in b"2&versions=1&problems=4":
                    try:
                        sock.sendall(bytes([byte]))
                    except OSError:
                        break
                    time.sleep(0.1)
            answer = b""
            while chunk := sock.recv(65536):  # ends when the server closes the connection
                answer += chunk
        text = answer.decode("latin-1")
        assert text.startswith("HTTP/1.1 408"), text
        head_lower = text.split("\r\n\r\n", 1)[0].lower()
        assert "connection: close" in head_lower, head_lower
        for name, value in HEADERS:
            assert f"{name.decode()}: {value.decode().lower()}" in head_lower, name
        # the server still answers others
        assert b"200 OK" in _raw(port, b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    logged = [r.getMessage() for r in caplog.records]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], logged
    slow = [m for m in logged if m.startswith("POST /api/preview/worksheet")]
    assert len(slow) == 1 and " 408 " in slow[0], logged
    assert not any("Traceback" in m for m in logged), logged


def test_a_prompt_body_is_not_cut_by_the_body_timeout() -> None:
    with TestClient(create_app(Settings(workers=1, body_timeout=0.5))) as fast:
        response = fast.post("/api/preview/worksheet", data=WORKSHEET)
        assert response.status_code == 200, response.text[:500]


# 14. a port in use: one line, exit 2, and no "serving on" before it
def test_serve_on_a_port_in_use_is_one_line() -> None:
    taken = free_socket()
    port = taken.getsockname()[1]
    try:
        done = subprocess.run(
            [sys.executable, "-m", "generator", "serve", "--port", str(port)],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
    finally:
        taken.close()
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [
        f"dicesheets: error: option --port: cannot listen on 127.0.0.1 port {port}: the port is "
        "in use (another server?); expected a free port"
    ], done.stderr


def test_serve_passes_the_bound_socket_and_the_timeout(run_cli, monkeypatch) -> None:
    from generator.web import server

    seen: dict[str, Any] = {}

    def run(app: Any, sock: socket.socket, header_timeout: float) -> None:
        seen.update(app=app, port=sock.getsockname()[1], timeout=header_timeout)
        sock.close()

    monkeypatch.setattr(server, "run", run)
    taken = free_socket()
    port = taken.getsockname()[1]
    taken.close()
    result = run_cli(
        "serve", "--port", str(port), "--header-timeout", "2.5", "--body-timeout", "7.5"
    )
    assert result.exit_code == 0, result.output
    assert seen["port"] == port and seen["timeout"] == 2.5
    assert seen["app"].body_timeout == 7.5
    assert f"serving on http://127.0.0.1:{port}/" in result.output


def test_the_guarded_protocol_is_what_uvicorn_gets(monkeypatch) -> None:
    import uvicorn

    from generator.web import server

    configs: list[Any] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets: configs.append(self.config))
    sock = free_socket()
    try:
        server.run(object(), sock, 4.0)
    finally:
        sock.close()
    protocol = configs[0].http
    assert issubclass(protocol, server.GuardedH11Protocol) and protocol.header_timeout == 4.0
