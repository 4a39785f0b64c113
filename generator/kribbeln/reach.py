"""Which tasks of a catalog no pad can use under its balance, and why: no task dropped in silence.

A task is out of reach when its p_success lies outside the balance's band
`p_min`–`p_max` (the sampler never looks at it), or when it lies inside but none of
`SAMPLES` sampled pads (seeds 1…SAMPLES, as many sheets as the default pad) draws it:
the other constraints leave it no place (or leave it one so rarely that a designer
should know). The sampled pads are kept in the solver cache, keyed by the tasks'
figures, the balance and the sampler's code, so a second `validate` is quick.
"""

from __future__ import annotations

import hashlib
import inspect
import marshal
import sys
from dataclasses import dataclass
from typing import Any

from generator.core.errors import CatalogError, Msg
from generator.core.store import Store, key_for
from generator.kribbeln.build import BlockInputs, sample_block_of

SAMPLES = 40  # pads sampled: a task the search may use is drawn in 40 with odds of 1 in 10⁵
PAGES = 6  # the default pad
NAMESPACE = "kribbeln-reach"


@dataclass(frozen=True)
class Unreachable:
    """A task no pad uses: why (`below`/`above` the band, or `never_drawn`) and its figure."""

    id: str
    reason: str  # "below" | "above" | "never_drawn"
    p_success: float
    samples: int  # the pads sampled (for never_drawn)
    line: int | None = None  # the task's place in its file
    column: int | None = None

    def msg(self, p_min: float, p_max: float) -> Msg:
        """What a designer reads: the task, the reason and the figure."""
        p = f"{self.p_success:.3f}"
        if self.reason == "never_drawn":
            return Msg("task_never_drawn", task=self.id, p=p, samples=self.samples, pages=PAGES)
        band = f"{p_min:g}–{p_max:g}"
        if self.reason == "below":
            return Msg("task_below_band", task=self.id, p=p, band=band)
        return Msg("task_above_band", task=self.id, p=p, band=band)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "reason": self.reason,
            "p_success": round(self.p_success, 10),
            **({"samples": self.samples} if self.reason == "never_drawn" else {}),
        }


def _sampler_code() -> str:
    """A fingerprint of the code of the Kribbeln modules loaded (the sampler's among them):
    a changed search draws other pads."""
    digest = hashlib.sha256()
    for name, module in sorted(sys.modules.items()):
        if not name.startswith("generator.kribbeln.") or module is None:
            continue
        for _, obj in sorted(vars(module).items()):
            members = [obj, *vars(obj).values()] if inspect.isclass(obj) else [obj]
            for member in members:
                code = getattr(member, "__code__", None)
                if code is not None and getattr(member, "__module__", None) == name:
                    digest.update(marshal.dumps(code))
    return digest.hexdigest()[:16]


def drawn_tasks(inputs: BlockInputs, samples: int, *, store: Store) -> list[str] | None:
    """The ids of every task some of `samples` sampled pads draws (None: no pad is found)."""

    def compute() -> list[str] | None:
        seen: set[str] = set()
        for seed in range(1, samples + 1):
            try:
                block = sample_block_of(inputs, PAGES, seed)
            except CatalogError:  # the balance cannot be met: reported where it is checked
                return None
            seen |= {t.id for sheet in block.sheets for t in sheet.tasks}
        return sorted(seen)

    facts = [
        (t.id, t.family, list(t.colors), inputs.figures[t.id].p_success)
        for t in inputs.catalog.tasks
    ]
    settings = {**inputs.balance.settings(), "attempts": inputs.balance.attempts}
    key = key_for("drawn", _sampler_code(), PAGES, samples, settings, facts)
    found = store.json(NAMESPACE, key, compute, lambda data: data is None or isinstance(data, list))
    return None if found is None else [str(x) for x in found]


def unreachable(
    inputs: BlockInputs, samples: int = SAMPLES, *, store: Store
) -> tuple[Unreachable, ...]:
    """Every task of the catalog no pad uses under the balance, in the catalog's order."""
    b = inputs.balance
    out: list[Unreachable] = []
    in_band = []
    for t in inputs.catalog.tasks:
        p = inputs.figures[t.id].p_success
        reason = "below" if p < b.p_min - 1e-12 else "above" if p > b.p_max + 1e-12 else None
        if reason is None:
            in_band.append(t)
        else:
            out.append(Unreachable(t.id, reason, p, 0, t.line, t.column))
    drawn = drawn_tasks(inputs, samples, store=store) if in_band else []
    if drawn is not None:
        seen = set(drawn)
        out += [
            Unreachable(t.id, "never_drawn", inputs.figures[t.id].p_success, samples, t.line,
                        t.column)
            for t in in_band
            if t.id not in seen
        ]  # fmt: skip
    order = {t.id: k for k, t in enumerate(inputs.catalog.tasks)}
    return tuple(sorted(out, key=lambda u: order[u.id]))
