"""The web page on loopback: what a teacher waits for, and the server under 16 teachers.

One command, on a quiet machine: `python -m bench bench_web` (about 3 minutes). It prints
the load average before and after, because every figure depends on it.

The server is a real `dicesheets serve` process on 127.0.0.1 (2 build workers, the default
queue); clients are threads with their own HTTP connection. The figures:

- preview of a 24-pupil class set (versions A–C, two in large print, key): a new seed
  each time (no cache answers), p50 and p95 (aim: p50 ≤ 300 ms, p95 ≤ 1 s), beside the
  baseline of the same run: the same set built, rendered whole and its first two pages
  rasterised in this process (what every preview cost before);
- the preview while the class list is typed (the same settings, other names), one page
  of the pager on demand, and an identical request (the cache);
- typing a date slowly: ten previews each aborted by the next after 0.1 s, then the
  last one: how long after the last key it comes (the aborted builds are stopped);
- the whole class set downloaded over HTTP against the same build in process;
- 16 teachers at once (aim: p95 ≤ 2 s, no error): each changes the form, waits for the
  preview, looks at it for 1–3 s, sometimes pages on, and downloads the set at the end;
- stress, as before: 16 clients × 25 requests without pause (worksheet previews and
  downloads, Kniffel blocks, Köpfchen boards), then 64 clients (503s, no collapse).

Peak memory is the high-water mark (VmHWM) of the server and its processes, summed.
"""

from __future__ import annotations

import os
import random
import socket
import statistics
import subprocess
import threading
import time
from contextlib import suppress
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
PORTS = range(8150, 8200)  # this project's range on the shared machine: 8100–8199


def free_port() -> int:
    """A port of the range nobody listens on (another bench may run beside this one)."""
    for port in PORTS:
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port in 8150–8199")


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def start_server(port: int) -> subprocess.Popen[bytes]:
    cmd = dicesheets("serve", "--host", "127.0.0.1", "--port", str(port), "--workers", "2")
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and proc.poll() is None:  # (ours, not another's)
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


def loadavg() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


CLASS_SET = {**WORKSHEET, "roster_text": "\n".join(PUPILS), "large_print_for": "Ömer, Mia"}


def preview_figures(http: httpx.Client) -> None:
    """What one teacher waits for: previews, the pager, the cache, typing."""
    from generator.web.products import Job, page_pngs, run_job

    for i in range(3):  # warm: the workers, the level's pool
        http.post("/api/preview/worksheet", data={**CLASS_SET, "seed": str(i + 1)})
    latencies = []
    for i in range(30):
        start = time.perf_counter()
        response = http.post("/api/preview/worksheet", data={**CLASS_SET, "seed": str(700 + i)})
        latencies.append(time.perf_counter() - start)
        assert response.status_code == 200, response.text[:300]
    shown = len(response.json()["pages"])
    count = response.json()["count"]

    # the baseline: every preview before built the whole set and rendered it all
    params = {"family": "koepfchen", "level": 2, "problems": 20, "impossible": 0,
              "versions": 3, "title": None, "lang": "de", "paper": "a4",
              "large_print": False, "spec": None, "large_print_for": "Ömer, Mia"}  # fmt: skip
    roster = CLASS_SET["roster_text"].encode()

    def whole(seed: int) -> None:
        job = Job("worksheet", {**params, "seed": seed}, "both", roster=roster)
        page_pngs(run_job(job).pdf, [1, 2])

    seeds = iter(range(900, 1000))
    before, _ = median_time(lambda: whole(next(seeds)), repeat=7)
    line(
        f"preview, 24-pupil set ({shown} of {count} pages), new seed each",
        statistics.median(latencies),
        f"p95 {p95(latencies) * 1000:.0f} ms over {len(latencies)}; baseline: the whole set "
        "built and rendered in process, its first 2 pages rasterised",
        baseline=before,
    )

    typed = []
    for i in range(15):  # the list grows name by name: same settings, other names
        data = {**CLASS_SET, "seed": "77", "roster_text": "\n".join(PUPILS[: 10 + i])}
        start = time.perf_counter()
        assert http.post("/api/preview/worksheet", data=data).status_code == 200
        typed.append(time.perf_counter() - start)
    line("preview while the class list is typed", statistics.median(typed),
         f"p95 {p95(typed) * 1000:.0f} ms over {len(typed)}")  # fmt: skip

    paged = []
    for n in range(2, 50, 4):
        data = {**CLASS_SET, "seed": "78", "preview_page": str(n), "preview_only": "1"}
        start = time.perf_counter()
        assert http.post("/api/preview/worksheet", data=data).status_code == 200
        paged.append(time.perf_counter() - start)
    line("pager: one page on demand", statistics.median(paged),
         f"p95 {p95(paged) * 1000:.0f} ms over {len(paged)}")  # fmt: skip

    same = {**CLASS_SET, "seed": "79"}
    http.post("/api/preview/worksheet", data=same)
    hit, _ = median_time(lambda: http.post("/api/preview/worksheet", data=same), repeat=9)
    line("identical request (the cache)", hit)

    # typing a date slowly: each keystroke's preview is aborted by the next after 0.1 s
    base = str(http.base_url).rstrip("/")
    for i in range(10):
        date = {**CLASS_SET, "seed": "80", "date": f"12.0{i}."}
        # the client gives up: the connection closes, the server stops the build
        with httpx.Client(base_url=base, timeout=0.1) as quick, suppress(httpx.TimeoutException):
            quick.post("/api/preview/worksheet", data=date)
    start = time.perf_counter()
    last = {**CLASS_SET, "seed": "80", "date": "12.03.2027"}
    assert http.post("/api/preview/worksheet", data=last).status_code == 200
    line("typing a date: the last preview after 10 aborted ones", time.perf_counter() - start,
         "one run")  # fmt: skip


def teachers(base: str, count: int, rounds: int) -> dict[str, Any]:
    """`count` teachers at once: a form change and its preview, 1–3 s looking, now and then
    a page of the pager; the whole set downloaded at the end."""
    waits: list[float] = []
    downloads: list[float] = []
    statuses: dict[int, int] = {}
    lock = threading.Lock()

    def teacher(t: int) -> None:
        rng = random.Random(t)
        with httpx.Client(base_url=base, timeout=120) as http:

            def ask(path: str, data: dict[str, str], into: list[float]) -> None:
                start = time.perf_counter()
                try:
                    code = http.post(path, data=data).status_code
                except httpx.HTTPError:
                    code = -1
                took = time.perf_counter() - start
                with lock:
                    statuses[code] = statuses.get(code, 0) + 1
                    into.append(took)

            form = {**CLASS_SET, "roster_text": "\n".join(PUPILS[: 18 + t % 7])}
            for r in range(rounds):
                form["seed"] = str(5000 + t * 100 + r)
                form["level"] = str(1 + (t + r) % 4)
                ask("/api/preview/worksheet", form, waits)
                if r % 3 == 2:
                    page = {**form, "preview_page": str(rng.randint(1, 40)), "preview_only": "1"}
                    ask("/api/preview/worksheet", page, waits)
                time.sleep(rng.uniform(1.0, 3.0))
            ask("/download/worksheet", {**form, "part": "both"}, downloads)

    threads = [threading.Thread(target=teacher, args=(t,)) for t in range(count)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {"wall": time.perf_counter() - start, "waits": waits, "downloads": downloads,
            "statuses": statuses}  # fmt: skip


def main() -> None:
    from generator.web.products import Job, run_job

    print(f"load average before: {loadavg()} ({os.cpu_count()} cores)", flush=True)
    port = free_port()
    proc = start_server(port)
    base = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=base, timeout=60) as http:
            preview_figures(http)

            # a class set: 24 named pupils, versions A–C, key — over HTTP and in process,
            # each with its own seed (the cache would answer a repeated one)
            roster = "\n".join(PUPILS)
            over_http = iter(range(7, 100))

            def download() -> httpx.Response:
                data = {**WORKSHEET, "seed": str(next(over_http)), "roster_text": roster}
                return http.post("/download/worksheet", data={**data, "part": "both"})

            http_time, response = median_time(download)
            params = {"family": "koepfchen", "level": 2, "problems": 20, "impossible": 0,
                      "versions": 3, "title": None, "lang": "de", "paper": "a4",
                      "large_print": False, "spec": None}  # fmt: skip
            # in process: the same load → build() → render_pdf, without HTTP and the pool
            in_process = iter(range(7, 100))
            local_time, built = median_time(lambda: run_job(Job(
                "worksheet", {**params, "seed": next(in_process)}, "pdf", roster=roster.encode(),
                roster_label="class list")))  # fmt: skip
            same = response.content == built.pdf  # (the fifth of each: the same seed)
            line("class set (24 names, A–C, key) over HTTP", http_time,
                 f"{len(response.content) // 1024} kB, same bytes as in process: {same}",
                 baseline=local_time)  # fmt: skip

        result = teachers(base, 16, 6)
        waits, statuses = result["waits"], result["statuses"]
        errors = sum(n for code, n in statuses.items() if code != 200)
        line(
            "16 teachers at once: previews and pages",
            statistics.median(waits),
            f"p95 {p95(waits) * 1000:.0f} ms over {len(waits)}, errors {errors}; their "
            f"downloads of the whole set: median {statistics.median(result['downloads']):.2f} s,"
            f" p95 {p95(result['downloads']):.2f} s; peak memory {peak_mb(proc.pid):.0f} MB",
        )

        # stress: 16 clients × 25 requests without pause (every one must succeed), then 64
        for clients, per_client in ((16, 25), (64, 5)):
            result = load(base, clients, per_client, offset=clients * 1000)
            times, statuses = result["times"], result["statuses"]
            errors = sum(n for code, n in statuses.items() if code not in (200, 503))
            served = statuses.get(200, 0)
            rate = served / result["wall"]
            line(
                f"stress {clients} clients × {per_client} requests, no pause",
                statistics.median(times),
                f"p95 {p95(times) * 1000:.0f} ms, {served} served, "
                f"{statuses.get(503, 0)} answered 503, errors {errors}, {rate:.1f} req/s, "
                f"peak memory {peak_mb(proc.pid):.0f} MB",
            )
    finally:
        proc.terminate()
        proc.wait(10)
        print(f"load average after: {loadavg()}", flush=True)
