"""The app's outer layer: request size and time limits, security headers, an access log.

A client that disconnects before its request is read is no error: Starlette's
`ClientDisconnect` ends the request quietly and the log line says 499. A client
that has not sent its whole body `body_timeout` seconds after its head (it stopped,
or trickles it byte by byte) is answered 408 with `Connection: close`, and the
connection ends; the log line says 408 (the head has its own timeout in
`generator.web.server`).

Pure ASGI, so the limit holds before any form is parsed: a body larger than
`max_body` (by its Content-Length or as it streams in) is answered 413. The log
line has the method, the path (never the query string or the body: class lists
are sent in the body), the status and the time taken.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from starlette.requests import ClientDisconnect

log = logging.getLogger("dicesheets.web")

# no inline script or style, nothing from other sites; previews are data: images
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cache-control", b"no-store"),  # pages and PDFs may carry pupils' names
]

Scope = dict[str, Any]
QUIET = {"/api/playtest/state"}  # asked twice a second by an open playtest page
CLIENT_GONE = 499
BODY_TIMEOUT = 30.0  # seconds for a request's body after its head (a class list takes ms)


SLOW_BODY = "408: the request's body did not arrive in time"


class TooLarge(Exception):
    pass


class BodyTimeout(Exception):
    """The request's body did not arrive within the body timeout."""


class Guard:
    """Wraps the app: 413 for large bodies, 408 for slow ones, security headers on every
    answer, the access log."""

    def __init__(self, app: Any, max_body: int, body_timeout: float = BODY_TIMEOUT) -> None:
        self.app = app
        self.max_body = max_body
        self.body_timeout = body_timeout

    def __getattr__(self, name: str) -> Any:
        return getattr(self.app, name)

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.monotonic()
        status = {"code": 0}
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and (
            not (length.isascii() and length.isdigit()) or int(length) > self.max_body
        ):
            await self._too_large(send, status)
            self._log(scope, status["code"], started)
            return
        seen = 0
        gone = False  # the client went away: nothing to answer, nothing to count as an error
        body_done = False  # (after the body, a wait for the client's disconnect has no limit)
        deadline = started + self.body_timeout

        async def limited_receive() -> Any:
            nonlocal seen, gone, body_done
            if body_done:
                message = await receive()
            else:
                try:
                    left = max(0.0, deadline - time.monotonic())
                    message = await asyncio.wait_for(receive(), left)
                except asyncio.TimeoutError:
                    raise BodyTimeout from None
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    raise TooLarge
                body_done = not message.get("more_body", False)
            elif message["type"] == "http.disconnect":
                gone = True
            return message

        async def guarded_send(message: Any) -> None:
            if gone:
                return  # (Starlette's 500 for the ClientDisconnect it raised: no one to read it)
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
                names = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in HEADERS if k not in names]
                message = {**message, "headers": list(message.get("headers", [])) + extra}
            await send(message)

        try:
            await self.app(scope, limited_receive, guarded_send)
        except TooLarge:
            if not status["code"]:
                await self._too_large(send, status)
        except BodyTimeout:
            if not status["code"]:
                await self._too_slow(send, status)
        except ClientDisconnect:
            if not gone:
                raise
        finally:
            # a client that left mid-request is logged as 499, nginx's "client closed request"
            self._log(scope, CLIENT_GONE if gone else status["code"], started)

    async def _too_large(self, send: Any, status: dict[str, int]) -> None:
        status["code"] = 413
        body = b"413: the request is too large"
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode()), *HEADERS],
            }
        )  # fmt: skip
        await send({"type": "http.response.body", "body": body})

    async def _too_slow(self, send: Any, status: dict[str, int]) -> None:
        status["code"] = 408
        body = SLOW_BODY.encode()
        await send(
            {
                "type": "http.response.start",
                "status": 408,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close"), *HEADERS],
            }
        )  # fmt: skip
        await send({"type": "http.response.body", "body": body})

    def _log(self, scope: Scope, code: int, started: float) -> None:
        if scope.get("path") in QUIET and code == 200:
            return
        took = (time.monotonic() - started) * 1000
        log.info("%s %s %d %.0f ms", scope.get("method"), scope.get("path"), code, took)
