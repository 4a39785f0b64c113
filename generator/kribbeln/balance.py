"""Balance constraints of a Kribbeln block: the YAML loader and the check of a finished block.

The file (`task_catalog/kribbeln/balance.yaml`, a user's own with `--balance`)
states what every sampled block must meet; `violations` checks a block against
it, constraint by constraint, and is what the sampler's result, the manifest
and the tests rely on. Difficulty is a task's p_success (lower = harder).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from generator.core.errors import CatalogError, Msg
from generator.core.fields import Fields, position
from generator.kribbeln.dice import SUBDIR
from generator.kribbeln.tasks import FAMILIES

DEFAULT_FILE = f"{SUBDIR}/balance.yaml"
AREA_ORDERS = ("rising", "flat")
AREAS = 3
TASKS_PER_AREA = 2
TASKS_PER_SHEET = AREAS * TASKS_PER_AREA


@dataclass(frozen=True)
class Balance:
    """What every sheet and the block as a whole must meet."""

    p_min: float = 0.45
    p_max: float = 0.95
    families: tuple[str, ...] = FAMILIES
    areas: str = "rising"  # "rising" | "flat"
    area_step: float = 0.02
    area_tolerance: float = 0.05
    mean_tolerance: float = 0.01
    area_mean_tolerance: float = 0.04
    max_color_per_sheet: int = 2
    # tasks above p_max on every sheet: the seed's easy forms ("kein Würfel zeigt Rot",
    # 0.97–0.99) have a place, one a sheet as on the original pad (docs/kribbeln.md)
    easy_per_sheet: int = 1
    stars: tuple[float, float] = (0.85, 0.70)
    attempts: int = 12  # restarts of the sampler's search (a count: no clock decides)
    source: str = "defaults"
    positions: dict[str, tuple[int, int]] = field(default_factory=dict, compare=False, repr=False)

    def error(self, key: str, message: Msg | str) -> CatalogError:
        """A CatalogError pointing at the line of `key` in the balance file."""
        line, column = self.positions.get(key, (None, None))
        return CatalogError(message, file=self.source, line=line, column=column)

    def drawable(self, p_success: float) -> bool:
        """Whether a task of this p_success may be on a sheet: in [p_min, p_max], or an easy
        task above p_max while sheets take easy tasks."""
        if p_success < self.p_min - 1e-12:
            return False
        return p_success <= self.p_max + 1e-12 or self.easy_per_sheet > 0

    def is_easy(self, p_success: float) -> bool:
        """Above p_max: an easy task (a sheet holds exactly `easy_per_sheet` of them)."""
        return p_success > self.p_max + 1e-12

    def stars_of(self, p_success: float) -> int:
        """The difficulty mark: 1 (easy) … 3 (hard) stars."""
        one, two = self.stars
        return 1 if p_success >= one else 2 if p_success >= two else 3

    def settings(self) -> dict[str, object]:
        """The constraints as the file writes them (for the manifest and the key)."""
        return {
            "p_min": self.p_min,
            "p_max": self.p_max,
            "families": list(self.families),
            "areas": self.areas,
            "area_step": self.area_step,
            "area_tolerance": self.area_tolerance,
            "mean_tolerance": self.mean_tolerance,
            "area_mean_tolerance": self.area_mean_tolerance,
            "max_color_per_sheet": self.max_color_per_sheet,
            "easy_per_sheet": self.easy_per_sheet,
            "stars": list(self.stars),
            "unique_tasks": True,
        }


@dataclass(frozen=True)
class TaskFacts:
    """What the constraints look at in a task."""

    id: str
    family: str
    colors: tuple[str, ...]
    p_success: float


@dataclass(frozen=True)
class Violation:
    """One broken constraint: its name, the sheet (1-based, None = the block) and what is wrong."""

    constraint: str
    sheet: int | None
    message: str

    def __str__(self) -> str:
        where = f"sheet {self.sheet}: " if self.sheet else ""
        return f"{self.constraint}: {where}{self.message}"


def _number(f: Fields, key: str, low: float, high: float, default: float) -> float:
    value = float(f.get(key, (int, float), default))
    if not low <= value <= high:
        raise f.error(
            key,
            Msg(
                "key_expected_number_found",
                key=key,
                low=f"{low:g}",
                high=f"{high:g}",
                value=f"{value:g}",
            ),
        )
    return value


def parse_balance(data: Any, label: str) -> Balance:
    """Validate one balance file's data."""
    f = Fields(data, label)
    f.unknown_keys(
        {
            "p_min",
            "p_max",
            "families",
            "areas",
            "area_step",
            "area_tolerance",
            "mean_tolerance",
            "area_mean_tolerance",
            "max_color_per_sheet",
            "easy_per_sheet",
            "stars",
            "search",
        }
    )
    d = Balance()
    p_min = _number(f, "p_min", 0.0, 1.0, d.p_min)
    p_max = _number(f, "p_max", 0.0, 1.0, d.p_max)
    if p_min > p_max:
        raise f.error("p_max", Msg("key_p_max_below", p_max=f"{p_max:g}", p_min=f"{p_min:g}"))
    families = f.get("families", list, list(d.families))
    for fam in families:
        if fam not in FAMILIES:
            raise f.error(
                "families",
                Msg("key_families_unknown_family", fam=f"{fam!r}", families=", ".join(FAMILIES)),
            )
    if len(set(families)) != len(families):
        raise f.error("families", Msg("key_families_family_listed"))
    stars = f.get("stars", list, list(d.stars))
    if (
        len(stars) != 2
        or not all(isinstance(s, (int, float)) and not isinstance(s, bool) for s in stars)
        or not 1 >= stars[0] >= stars[1] >= 0
    ):
        raise f.error(
            "stars",
            Msg("key_stars_expected_two"),
        )
    attempts = d.attempts
    if "search" in f.data:
        s = Fields(f.get("search", dict), label, "search")
        s.unknown_keys({"attempts", "seconds"})
        attempts = s.int_in("attempts", 1, 1000, d.attempts)
        # older files give a time limit too: still checked, no longer used (a seed gives
        # the same block on any machine only if no clock ends the search)
        _number(s, "seconds", 0.1, 60.0, 4.0)
    positions = {}
    for k in f.data:
        line, column = position(data, k)
        if line is not None:
            positions[str(k)] = (line, column or 0)
    return Balance(
        p_min=p_min,
        p_max=p_max,
        families=tuple(families),
        areas=f.choice("areas", AREA_ORDERS, d.areas),
        area_step=_number(f, "area_step", 0.0, 1.0, d.area_step),
        area_tolerance=_number(f, "area_tolerance", 0.0, 1.0, d.area_tolerance),
        mean_tolerance=_number(f, "mean_tolerance", 0.0, 1.0, d.mean_tolerance),
        area_mean_tolerance=_number(f, "area_mean_tolerance", 0.0, 1.0, d.area_mean_tolerance),
        max_color_per_sheet=f.int_in("max_color_per_sheet", 0, TASKS_PER_SHEET, 2),
        easy_per_sheet=f.int_in("easy_per_sheet", 0, TASKS_PER_SHEET, d.easy_per_sheet),
        stars=(float(stars[0]), float(stars[1])),
        attempts=attempts,
        source=label,
        positions=positions,
    )


def area_means(p: Sequence[float]) -> list[float]:
    """The mean p_success of each colour area of a sheet (tasks in row order)."""
    return [
        sum(p[a * TASKS_PER_AREA : (a + 1) * TASKS_PER_AREA]) / TASKS_PER_AREA for a in range(AREAS)
    ]


def area_violation(means: Sequence[float], balance: Balance) -> str | None:
    """What is wrong with the order of a sheet's area means, or None."""
    if balance.areas == "rising":
        for a in range(1, len(means)):
            # rising difficulty: p_success falls by at least the step (1e-9: float sums)
            if means[a - 1] - means[a] < balance.area_step - 1e-9:
                return (
                    f"area {a + 1} (mean p_success {means[a]:.3f}) is not at least "
                    f"{balance.area_step:g} harder than area {a} ({means[a - 1]:.3f})"
                )
        return None
    mean = sum(means) / len(means)
    for a, m in enumerate(means):
        if abs(m - mean) > balance.area_tolerance + 1e-9:
            return (
                f"area {a + 1} (mean p_success {m:.3f}) is more than "
                f"{balance.area_tolerance:g} from the sheet's mean {mean:.3f}"
            )
    return None


def violations(sheets: Sequence[Sequence[TaskFacts]], balance: Balance) -> list[Violation]:
    """Every constraint a block breaks (empty: the block is fine). Tasks in row order."""
    found: list[Violation] = []
    seen: Counter[str] = Counter(t.id for sheet in sheets for t in sheet)
    for task_id, n in sorted(seen.items()):
        if n > 1:
            found.append(Violation("unique_tasks", None, f"task '{task_id}' is used {n} times"))
    means = []
    areas: list[tuple[int, list[float]]] = []  # (sheet, its area means) of the full sheets
    for s, sheet in enumerate(sheets, start=1):
        if len(sheet) != TASKS_PER_SHEET:
            found.append(Violation("tasks", s, f"{len(sheet)} tasks, expected {TASKS_PER_SHEET}"))
            continue
        p = [t.p_success for t in sheet]
        means.append(sum(p) / len(p))
        for t in sheet:
            if not balance.drawable(t.p_success):
                found.append(
                    Violation(
                        "p_range",
                        s,
                        f"task '{t.id}' has p_success {t.p_success:.4f}, outside "
                        f"[{balance.p_min:g}, {balance.p_max:g}]",
                    )
                )
        missing = [f for f in balance.families if f not in {t.family for t in sheet}]
        if missing:
            found.append(Violation("families", s, f"no task of family {', '.join(missing)}"))
        easy = [t.id for t in sheet if balance.is_easy(t.p_success)]
        if balance.easy_per_sheet and len(easy) != balance.easy_per_sheet:
            found.append(
                Violation(
                    "easy_per_sheet",
                    s,
                    f"{len(easy)} tasks above p_max {balance.p_max:g}, expected "
                    f"{balance.easy_per_sheet}",
                )
            )
        areas.append((s, area_means(p)))
        problem = area_violation(areas[-1][1], balance)
        if problem:
            found.append(Violation("areas", s, problem))
        named = Counter(c for t in sheet for c in t.colors)
        for color, n in sorted(named.items()):
            if n > balance.max_color_per_sheet:
                found.append(
                    Violation(
                        "max_color_per_sheet",
                        s,
                        f"color '{color}' is named by {n} tasks "
                        f"(at most {balance.max_color_per_sheet})",
                    )
                )
    if means:
        block_mean = sum(means) / len(means)
        for s, m in enumerate(means, start=1):
            if abs(m - block_mean) > balance.mean_tolerance + 1e-9:
                found.append(
                    Violation(
                        "mean_tolerance",
                        s,
                        f"mean p_success {m:.4f} is more than {balance.mean_tolerance:g} "
                        f"from the block's mean {block_mean:.4f}",
                    )
                )
    for a in range(AREAS):
        block_area = sum(m[a] for _, m in areas) / len(areas) if areas else 0.0
        for s, sheet_areas in areas:
            if abs(sheet_areas[a] - block_area) > balance.area_mean_tolerance + 1e-9:
                found.append(
                    Violation(
                        "area_mean_tolerance",
                        s,
                        f"area {a + 1} has mean p_success {sheet_areas[a]:.4f}, more than "
                        f"{balance.area_mean_tolerance:g} from the block's area-{a + 1} "
                        f"mean {block_area:.4f}",
                    )
                )
    return found
