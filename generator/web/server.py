"""uvicorn as `dicesheets serve` runs it: the socket bound first, h11 with two guards.

- The socket is bound before anything is printed, so a port in use is one line and
  exit 2 (uvicorn would log it and exit 1 after "serving on …").
- `protocol(header_timeout)` is uvicorn's h11 protocol with the answers it makes
  itself guarded: the 400 for a request it cannot parse carries the security headers
  of `guard.HEADERS` (those answers never reach the ASGI app, so the `Guard` cannot
  add them), and a connection that has not sent a request's headers within
  `header_timeout` seconds is closed (uvicorn has a keep-alive timeout between
  requests, none while a request's head trickles in: slow clients held connections
  open for ever).
"""

from __future__ import annotations

import asyncio
import errno
import socket
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from generator.core.errors import InputError
from generator.web.guard import HEADERS

HEADER_TIMEOUT = 10.0  # seconds for a request's line and headers (a browser needs milliseconds)


class GuardedH11Protocol(H11Protocol):
    """h11 with the security headers on its own 400s and a timeout for a request's head."""

    header_timeout = HEADER_TIMEOUT
    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._await_head()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:  # the head is in: the request runs
            self._stop_timer()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._await_head()  # the next request on this connection

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_timer()
        super().connection_lost(exc)

    def _await_head(self) -> None:
        self._stop_timer()
        self._head_timer = self.loop.call_later(self.header_timeout, self._head_too_slow)

    def _stop_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()

    def send_400_response(self, msg: str) -> None:
        headers = [
            (b"content-type", b"text/plain; charset=utf-8"),
            (b"connection", b"close"),
            *HEADERS,
        ]
        try:
            head = h11.Response(status_code=400, headers=headers, reason=b"Bad Request")
            self.transport.write(self.conn.send(head))
            self.transport.write(self.conn.send(h11.Data(data=msg.encode("ascii", "replace"))))
            self.transport.write(self.conn.send(h11.EndOfMessage()))
        except h11.LocalProtocolError:  # (the connection's state allows no answer)
            pass
        self.transport.close()


def protocol(header_timeout: float = HEADER_TIMEOUT) -> type[GuardedH11Protocol]:
    """The protocol class for uvicorn's `http=` with this header timeout."""
    return type("GuardedH11Protocol", (GuardedH11Protocol,), {"header_timeout": header_timeout})


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on host:port; a port in use or an unknown host is an InputError."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        sock = socket.socket(family, kind, proto)
    except (OSError, UnicodeError) as exc:
        raise InputError("host", f"cannot listen on '{host}': {exc}") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        what = (
            "the port is in use (another server?); expected a free port"
            if exc.errno == errno.EADDRINUSE
            else exc.strerror or str(exc)
        )
        raise InputError("port", f"cannot listen on {host} port {port}: {what}") from None
    sock.set_inheritable(True)
    return sock


def run(app: Any, sock: socket.socket, header_timeout: float = HEADER_TIMEOUT) -> None:
    """Serve `app` on the bound `sock` until Ctrl-C (the access log is the app's own)."""
    import uvicorn

    config = uvicorn.Config(
        app, http=protocol(header_timeout), access_log=False, log_level="warning"
    )
    uvicorn.Server(config).run(sockets=[sock])
