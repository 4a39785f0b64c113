"""A class set of a topic worksheet: 30 named sheets of three versions with the key (aim: < 1 s).

Baseline: the same topic without names (one sheet per version, same key), so the
ratio is what 30 named sheets cost on top of dealing, checking and the layout.
One core: run it alone (`python -m bench.bench_worksheet_topics`), with the load
reported by `uptime` beside the figures.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from bench.bench_worksheet import PUPILS
from bench.common import line, median_time
from generator.io.writer import write_built
from generator.worksheet.build import WorksheetRequest
from generator.worksheet.roster import names_roster
from generator.worksheet.topicsheet import build_topic_worksheet

TOPICS = ("add-20-carry", "number-wall-4", "column-add", "magic-square")


def _run(folder: Path, topic: str, named: bool) -> Path:
    names = ", ".join(PUPILS) if named else None
    req = WorksheetRequest(topic=topic, problems=20, versions=3, seed=1, names=names)
    built = build_topic_worksheet(req, names_roster(names) if names else None, None)
    return write_built(built, folder / f"{topic}-{named}.pdf").pdfs[0]


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for topic in TOPICS:
            t_class, _ = median_time(lambda t=topic: _run(folder, t, True), repeat=5)
            t_base, _ = median_time(lambda t=topic: _run(folder, t, False), repeat=5)
            line(f"topic {topic}: 30 pupils, key", t_class, "1 core", t_base)


if __name__ == "__main__":
    main()
