"""The web page on loopback: preview latency, a class set over HTTP against the same build in
process, and load — 16 clients (no errors allowed), then 64 (the pool answers 503, no collapse).

The server is a real `dicesheets serve` process on 127.0.0.1 (2 build workers, the default
queue); clients are threads with their own HTTP connection. Every request has its own seed,
so the server's cache never answers. Peak memory is the high-water mark (VmHWM) of the
server and of each of its processes (fork server, build workers), summed.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from bench.common import dicesheets, line, median_time

PUPILS = [
    "Zoë", "Łukasz", "Ömer", "Nguyễn Văn An", "Søren", "Αλέξανδρος", "Mia", "Ben", "Emma",
    "Noah", "Lina", "Paul", "Ella", "Finn", "Hannah", "Elias", "Lea", "Jonas", "Marie", "Leon",
    "Sophie", "Luis", "Clara", "Felix",
]  # fmt: skip
WORKSHEET = {"family": "koepfchen", "level": "2", "problems": "20", "versions": "3",
             "impossible": "0", "paper": "a4", "lang": "de"}  # fmt: skip
PORT = 8150  # this project's range on the shared machine: 8100–8199


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def start_server(port: int) -> subprocess.Popen[bytes]:
    cmd = dicesheets("serve", "--host", "127.0.0.1", "--port", str(port), "--workers", "2")
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/", timeout=1)
            return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.terminate()
    raise RuntimeError("the server did not start")


def tree(pid: int) -> list[int]:
    """The process and all its descendants (from /proc)."""
    found = [pid]
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return found
    for child in children:
        found += tree(int(child))
    return found


def peak_mb(pid: int) -> float:
    total = 0
    for p in tree(pid):
        try:
            for row in Path(f"/proc/{p}/status").read_text().splitlines():
                if row.startswith("VmHWM:"):
                    total += int(row.split()[1])
        except OSError:
            continue
    return total / 1024


def request_mix(i: int) -> tuple[str, dict[str, str]]:
    """Worksheets (preview and download), Kniffel blocks and Köpfchen boards in turn."""
    seed = str(10_000 + i)
    kind = i % 4
    if kind == 0:
        return "/api/preview/worksheet", {**WORKSHEET, "seed": seed}
    if kind == 1:
        return "/download/worksheet", {**WORKSHEET, "seed": seed, "part": "both"}
    if kind == 2:
        games = str(1 + i % 6)
        return "/download/kniffel", {"rules": "kniffel", "games": games, "copies": str(1 + i % 3),
                                     "part": "pdf"}  # fmt: skip
    return "/download/koepfchen", {"profile": "einmaleins", "seed": seed, "part": "pdf"}


def load(base: str, clients: int, per_client: int, offset: int) -> dict[str, Any]:
    """`clients` threads, each sending `per_client` requests one after the other."""
    times: list[float] = []
    statuses: dict[int, int] = {}
    lock = threading.Lock()

    def client(c: int) -> None:
        with httpx.Client(base_url=base, timeout=120) as http:
            for r in range(per_client):
                path, data = request_mix(offset + c * per_client + r)
                start = time.perf_counter()
                try:
                    code = http.post(path, data=data).status_code
                except httpx.HTTPError:
                    code = -1
                took = time.perf_counter() - start
                with lock:
                    statuses[code] = statuses.get(code, 0) + 1
                    if code == 200:
                        times.append(took)

    threads = [threading.Thread(target=client, args=(c,)) for c in range(clients)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {"wall": time.perf_counter() - start, "times": times, "statuses": statuses}


def main() -> None:
    from generator.web.products import Job, run_job

    proc = start_server(PORT)
    base = f"http://127.0.0.1:{PORT}"
    try:
        with httpx.Client(base_url=base, timeout=60) as http:
            # preview latency: one form change (a new seed, or one more name) → new PNGs
            for i in range(3):
                http.post("/api/preview/worksheet", data={**WORKSHEET, "seed": str(i + 1)})
            latencies = []
            for i in range(20):
                data = {**WORKSHEET, "seed": str(500 + i)}
                if i % 2:
                    data["roster_text"] = "\n".join(PUPILS[: 5 + i % 7])
                start = time.perf_counter()
                response = http.post("/api/preview/worksheet", data=data)
                latencies.append(time.perf_counter() - start)
                assert response.status_code == 200, response.text
            line("preview (form change → 2 PNGs), warm", statistics.median(latencies),
                 f"p95 {p95(latencies) * 1000:.0f} ms, {len(latencies)} changes")  # fmt: skip

            # a class set: 24 named pupils, versions A–C, key — over HTTP and in process
            roster = "\n".join(PUPILS)
            data = {**WORKSHEET, "seed": "7", "roster_text": roster, "part": "both"}
            http_time, response = median_time(lambda: http.post("/download/worksheet", data=data))
            params = {"family": "koepfchen", "level": 2, "problems": 20, "impossible": 0,
                      "versions": 3, "seed": 7, "title": None, "lang": "de", "paper": "a4",
                      "large_print": False, "spec": None}  # fmt: skip
            # in process: the same load → build() → render_pdf, without HTTP and the pool
            job = Job("worksheet", params, "pdf", roster=roster.encode(), roster_label="class list")
            local_time, built = median_time(lambda: run_job(job))
            same = response.content == built.pdf
            line("class set (24 names, A–C, key) over HTTP", http_time,
                 f"{len(response.content) // 1024} kB, same bytes as in process: {same}",
                 baseline=local_time)  # fmt: skip

        # load: 16 clients × 25 requests (every one must succeed), then 64 clients
        for clients, per_client in ((16, 25), (64, 5)):
            result = load(base, clients, per_client, offset=clients * 1000)
            times, statuses = result["times"], result["statuses"]
            errors = sum(n for code, n in statuses.items() if code not in (200, 503))
            served = statuses.get(200, 0)
            rate = served / result["wall"]
            line(
                f"load {clients} clients × {per_client} requests",
                statistics.median(times),
                f"p95 {p95(times) * 1000:.0f} ms, {served} served, "
                f"{statuses.get(503, 0)} answered 503, errors {errors}, {rate:.1f} req/s, "
                f"peak memory {peak_mb(proc.pid):.0f} MB",
            )
    finally:
        proc.terminate()
        proc.wait(10)


if __name__ == "__main__":
    sys.exit(main())
