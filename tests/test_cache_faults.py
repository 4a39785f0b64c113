"""Damaged cache entries of every kind: recomputed (same figures), rewritten, never a hang."""

from __future__ import annotations

import dataclasses
import io
import json
import os
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from generator.io import cache
from generator.io.cache import DISK


def _kniffel_rules():
    from generator.kniffel.load import load_rules

    full = load_rules("kniffel")
    # three boxes instead of thirteen: the same solver and table, solved in milliseconds
    return dataclasses.replace(full, boxes=full.boxes[:2] + full.boxes[-1:])


def kniffel_table() -> Any:
    from generator.kniffel.load import load_strategy

    return load_strategy(_kniffel_rules()).values


def kniffel_coach() -> Any:
    """An answer of the coach, which reads the table entry value by value (no numpy)."""
    from generator.kniffel.coach import advise, make_position, parse_roll
    from generator.kniffel.load import load_table

    rules = _kniffel_rules()
    table = load_table(rules)
    return advise(table, make_position(rules, "", None), parse_roll(["13356"]), 2).to_json()


def kniffel_scores() -> Any:
    from generator.kniffel.load import load_strategy
    from generator.kniffel.simulate import score_distribution

    return score_distribution(load_strategy(_kniffel_rules()), 300, 5, store=DISK).counts


def _kribbeln():
    from generator.kribbeln.load import load_dice, load_tasks

    dice, _ = load_dice(None)
    return dice, load_tasks(dice, None)


def kribbeln_row() -> Any:
    from generator.kribbeln.solver import row_figures

    return row_figures(_kribbeln()[0], store=DISK)


def kribbeln_tasks() -> Any:
    from generator.kribbeln.solver import analyze_tasks

    dice, catalog = _kribbeln()
    return analyze_tasks(dice, catalog.tasks[:2], store=DISK)


def kribbeln_task_policy() -> Any:
    from generator.kribbeln.solver import task_policy

    dice, catalog = _kribbeln()
    policy = task_policy(dice, catalog.tasks[0], store=DISK)
    return policy.start, [h.tolist() for h in policy.holds]


def kribbeln_row_policy() -> Any:
    from generator.kribbeln.solver import row_policy

    policy = row_policy(_kribbeln()[0], 10, store=DISK)
    return policy.start, [h.tolist() for h in policy.holds]


def kribbeln_holds() -> Any:
    from generator.kribbeln.simulate import _row_score_holds

    return _row_score_holds(_kribbeln()[0], 10, 3, DISK)


def worksheet_pool() -> Any:
    from generator.worksheet import pool
    from generator.worksheet.load import load_family

    pool.clear_memo()  # the pool is also kept in memory: read it from disk
    found = pool.level_pool(load_family("koepfchen").level(1), store=DISK)
    return found.solvable, found.impossible


def template_bytecode() -> Any:
    from generator.io.templates import read_templates
    from generator.text import words as text

    text._ENVIRONMENTS.clear()  # compile again, through the bytecode cache of this folder
    return text.Texts("kniffel_block", "de", read_templates(()))("game_label", n=2)


KINDS: dict[str, Callable[[], Any]] = {
    "kniffel table": kniffel_table,
    "kniffel coach": kniffel_coach,
    "kniffel scores": kniffel_scores,
    "kribbeln row": kribbeln_row,
    "kribbeln task figures": kribbeln_tasks,
    "kribbeln task policy": kribbeln_task_policy,
    "kribbeln row policy": kribbeln_row_policy,
    "kribbeln holds": kribbeln_holds,
    "worksheet pool": worksheet_pool,
    "template bytecode": template_bytecode,
}


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, np.ndarray):
        return a.shape == b.shape and bool(np.array_equal(a, b, equal_nan=True))
    return a == b


def _wrong_structure(path: Path) -> bytes:
    """A well-formed entry with a sound checksum but the wrong structure."""
    if path.suffix == ".cache":  # Jinja2's bytecode: the right magic, then no code object
        import jinja2.bccache

        return cache._seal(jinja2.bccache.bc_magic + b"not pickled, not marshalled")
    if path.suffix == ".json":
        payload = json.dumps({"solvable": [[1]], "p_above": "x", "p_success": 7}).encode()
    else:
        buffer = io.BytesIO()
        np.savez(buffer, values=np.zeros(3), counts=np.array([-1]), holds=np.zeros(2))
        payload = buffer.getvalue()
    return cache._seal(payload)


def _digit_changed(data: bytes) -> bytes:
    header, _, payload = data.partition(b"\n")
    for i in range(len(payload) // 2, len(payload)):
        if payload[i : i + 1].isdigit():
            digit = b"7" if payload[i : i + 1] != b"7" else b"3"
            return header + b"\n" + payload[:i] + digit + payload[i + 1 :]
    # binary payload: flip one byte of the array data
    i = len(payload) - 20
    return header + b"\n" + payload[:i] + bytes([payload[i] ^ 1]) + payload[i + 1 :]


def _old_format(data: bytes) -> bytes:
    return data.partition(b"\n")[2]  # the payload without the checksum line


def _link(path: Path, data: bytes) -> None:
    elsewhere = path.with_name("elsewhere")
    elsewhere.write_bytes(data)
    path.unlink()
    path.symlink_to(elsewhere)


FAULTS: dict[str, Callable[[Path, bytes], None]] = {
    "truncated": lambda p, d: p.write_bytes(d[: len(d) // 2]),
    "empty": lambda p, d: p.write_bytes(b""),
    "garbage": lambda p, d: p.write_bytes(os.urandom(len(d))),
    "wrong structure": lambda p, d: p.write_bytes(_wrong_structure(p)),
    "one digit changed": lambda p, d: p.write_bytes(_digit_changed(d)),
    "old format": lambda p, d: p.write_bytes(_old_format(d)),
    "fifo": lambda p, d: (p.unlink(), os.mkfifo(p)),
    "folder": lambda p, d: (p.unlink(), p.mkdir()),
    "link": _link,
    "read-only": lambda p, d: (p.write_bytes(d[:10]), p.chmod(0o444), p.parent.chmod(0o555)),
}
REWRITTEN = {"truncated", "empty", "garbage", "wrong structure", "one digit changed",
             "old format", "fifo", "link"}  # fmt: skip


@pytest.fixture
def fresh_cache(tmp_path: Path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("DICESHEETS_CACHE", str(folder))
    yield folder
    for sub in [folder, *folder.rglob("*")]:
        if sub.is_dir() and not sub.is_symlink():
            sub.chmod(0o755)


def _entries(folder: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in folder.rglob("*") if p.is_file() and not p.is_symlink()}


def _alarm(signum, frame):
    raise TimeoutError("the cache read hung")


@pytest.mark.parametrize("fault", FAULTS)
@pytest.mark.parametrize("kind", KINDS)
def test_a_damaged_entry_is_recomputed_and_rewritten(fresh_cache: Path, kind: str, fault: str):
    produce = KINDS[kind]
    reference = produce()
    entries = _entries(fresh_cache)
    assert entries, "the kind stores nothing in the cache"
    for path, data in entries.items():
        FAULTS[fault](path, data)
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(20)
    try:
        again = produce()
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    if isinstance(reference, tuple):
        assert all(_same(a, b) for a, b in zip(reference, again))
    else:
        assert _same(reference, again), (kind, fault)
    for path, data in entries.items():
        if fault in REWRITTEN:
            assert not path.is_symlink() and path.read_bytes() == data, (kind, fault, path)
    assert not [p for p in fresh_cache.rglob("*.tmp")]


def test_a_store_that_fails_only_costs_time(fresh_cache: Path, monkeypatch) -> None:
    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("tempfile.mkstemp", refuse)  # (the cache imports it when it stores)
    for produce in KINDS.values():
        produce()
    assert not [p for p in fresh_cache.rglob("*") if p.is_file()]


def test_an_entry_checks_its_checksum() -> None:
    sealed = cache._seal(b'{"a": 1}')
    assert sealed.startswith(cache.FORMAT)
    assert sealed.endswith(b'\n{"a": 1}')
