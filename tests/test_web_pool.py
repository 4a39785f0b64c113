"""The build pool drops a job nobody waits for and stops one that runs, so an aborted or
superseded preview never keeps a worker busy; a client that leaves stops its build."""

from __future__ import annotations

import asyncio
import secrets
import socket
import time
from urllib.parse import urlsplit

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")

from generator.web.pool import BuildPool, BuildTimeout
from tests.slowjobs import forever, quick

CAP = 120  # seconds: a cap for a busy machine, met at once when the pool works


def test_a_running_job_whose_caller_gives_up_is_stopped_in_its_worker() -> None:
    async def scenario() -> tuple[int, int, int]:
        pool = BuildPool(1, 4, time_limit=600)  # one worker: the next job needs it back
        try:
            assert await pool.run(quick, 1) == 2  # the worker is up
            stuck = asyncio.ensure_future(pool.run(forever))
            while pool._state[1] == 0:  # (the slot's running job)
                await asyncio.sleep(0.01)
            stuck.cancel()
            # without the stop, this waits for ever (the time limit is 10 minutes)
            answer = await asyncio.wait_for(pool.run(quick, 21), CAP)
            return answer, pool.stopped, pool.admitted
        finally:
            pool.close()

    assert asyncio.run(scenario()) == (42, 1, 0)


def test_a_waiting_job_whose_caller_gives_up_never_runs() -> None:
    async def scenario() -> tuple[int, int]:
        pool = BuildPool(1, 4, time_limit=600)
        try:
            await pool.run(quick, 0)
            first = asyncio.ensure_future(pool.run(forever))
            waiting = asyncio.ensure_future(pool.run(forever))  # waits for the one worker
            while pool._state[1] == 0:
                await asyncio.sleep(0.01)
            waiting.cancel()
            await asyncio.sleep(0)
            queued = pool.admitted  # the running one alone
            first.cancel()
            await asyncio.wait_for(pool.run(quick, 1), CAP)
            return queued, pool.stopped
        finally:
            pool.close()

    # the waiting job was dropped before it started: only the running one had to be stopped
    assert asyncio.run(scenario()) == (1, 1)


def test_the_time_limit_still_stops_a_build() -> None:
    async def scenario() -> None:
        pool = BuildPool(1, 4, time_limit=0.2)
        try:
            with pytest.raises(BuildTimeout):
                await pool.run(forever)
            assert await pool.run(quick, 2) == 4
        finally:
            pool.close()

    asyncio.run(scenario())


def test_a_client_that_leaves_stops_its_build() -> None:
    """A browser aborts a preview (a newer one replaces it): its connection closes, and the
    server stops the build instead of finishing it for nobody."""
    from generator.web.app import Settings, create_app
    from tests.web_support import live_server

    app = create_app(Settings(workers=1))
    with live_server(app) as url:
        parts = urlsplit(url)
        # seconds of simulation, with a seed no cache has seen
        body = f"games=200000&rules=kniffel&seed={secrets.randbelow(10**9) + 2}".encode()
        head = (
            f"POST /api/preview/kniffel-odds HTTP/1.1\r\nHost: {parts.netloc}\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        ).encode()
        pool = app.state.pool
        with socket.create_connection((parts.hostname, parts.port)) as sock:
            sock.sendall(head + body)
            deadline = time.monotonic() + CAP
            while (pool._state is None or pool._state[1] == 0) and time.monotonic() < deadline:
                time.sleep(0.01)
        # the connection is closed: the build is stopped and the worker is free
        deadline = time.monotonic() + CAP
        while (pool.stopped == 0 or pool.admitted) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert pool.stopped == 1 and pool.admitted == 0
