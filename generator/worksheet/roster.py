"""A class roster: one pupil's name per line (UTF-8), for personalised worksheets.

Decisions: surrounding spaces are dropped and runs of spaces or tabs become one
space; blank lines are skipped; a byte-order mark is accepted. A name that appears
again (compared case-insensitively, Unicode-normalised) is kept — both pupils get
a sheet, possibly of different versions — with a warning naming both lines.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from pathlib import Path

from generator.errors import Input, UserError

MAX_NAMES = 500
MAX_BYTES = 200_000
MAX_NAME_LENGTH = 80


@dataclass(frozen=True)
class Pupil:
    name: str
    line: int  # 1-based line in the roster file


@dataclass(frozen=True)
class Roster:
    pupils: tuple[Pupil, ...]
    warnings: tuple[str, ...]


def parse_roster(text: str, label: str) -> Roster:
    """The pupils of a roster text; `label` names the file in messages."""
    where = Input("roster")
    pupils: list[Pupil] = []
    warnings: list[str] = []
    first_seen: dict[str, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        name = " ".join(unicodedata.normalize("NFC", raw).split())
        if not name:
            continue
        if any(unicodedata.category(ch) == "Cc" for ch in name):
            raise UserError(f"{label}:{number}: the name contains a control character", where=where)
        if len(name) > MAX_NAME_LENGTH:
            raise UserError(
                f"{label}:{number}: a name of {len(name)} characters "
                f"(expected at most {MAX_NAME_LENGTH})",
                where=where,
            )
        folded = name.casefold()
        if folded in first_seen:
            warnings.append(
                f"{label}:{number}: '{name}' appears again (first on line {first_seen[folded]}); "
                "both get a sheet"
            )
        else:
            first_seen[folded] = number
        pupils.append(Pupil(name, number))
    if not pupils:
        raise UserError(f"{label} has no names (expected one name per line)", where=where)
    if len(pupils) > MAX_NAMES:
        raise UserError(
            f"{label} has {len(pupils)} names (expected at most {MAX_NAMES})", where=where
        )
    return Roster(tuple(pupils), tuple(warnings))


def read_roster(path: str | Path) -> Roster:
    """Read a roster file: UTF-8 text, one name per line."""
    from generator.io.userfiles import read_bytes

    try:
        data = read_bytes(Path(path), str(path), MAX_BYTES)
    except UserError as exc:
        raise UserError(f"{exc.where}: {exc.message}", where=Input("roster")) from None
    return roster_from_bytes(data, str(path))


def roster_from_bytes(data: bytes, label: str) -> Roster:
    """The roster in `data` (a file's bytes, e.g. uploaded); `label` names it in messages."""
    where = Input("roster")
    if len(data) > MAX_BYTES:
        raise UserError(f"{label} is larger than {MAX_BYTES} bytes", where=where)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UserError(
            f"{label} is not UTF-8 text (byte {exc.start}); save it as UTF-8", where=where
        ) from None
    return parse_roster(text, label)
