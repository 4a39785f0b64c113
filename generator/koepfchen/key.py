"""The answer key's data: the hardest targets of a board and one simplest solution per roll.

A roll is a multiset of white dice (order does not matter), listed in the
roll-and-hold solver's state order; a roll appears in a target's table exactly
when the target can be made from it, with the simplest solution the solver finds.

Which targets get a table (a decision, README "Schlaues Köpfchen boards"): the
key lists every roll that makes a target only while few do (at most
DETAIL_MAX_ROLLS distinct rolls). That is where a teacher needs the way at hand
(39 on the classic board: only 3 3 6). A target that more rolls make is
found in most turns anyway (plus-minus's 11: 13 of 56 rolls, 75 % in three
rolls); the key names it with its odds and how many rolls make it, no list.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.koepfchen.board import Board

DETAIL_MAX_ROLLS = 12  # about a third of a key column of rows


@dataclass(frozen=True)
class RollSolution:
    """One roll that makes the target and the simplest way to do it."""

    roll: tuple[int, ...]
    solution: str  # e.g. "6 × 6 + 1"


@dataclass(frozen=True)
class HardTarget:
    """A hard target of the board: where it stands, its odds, every roll that makes it."""

    target: int
    fields: tuple[int, ...]
    single_roll: float
    within: float
    rolls: tuple[RollSolution, ...]
    all_rolls: int  # distinct rolls of the white dice

    @property
    def detailed(self) -> bool:
        """Whether the key prints this target's table of rolls (few rolls make it)."""
        return len(self.rolls) <= DETAIL_MAX_ROLLS


def hardest_targets(board: Board, count: int) -> list[HardTarget]:
    """The `count` distinct targets with the lowest R-roll odds, hardest first."""
    from generator.core.rollhold import IdenticalDice
    from generator.numbers import reachable_targets, simplest

    profile = board.profile
    by_target: dict[int, list[int]] = {}
    for f in board.fields:
        by_target.setdefault(f.target, []).append(f.index)
    odds = {f.target: (f.single_roll, f.within) for f in board.fields}
    # hardest first; odds equal to 9 decimals are a tie (37, 38 and 39 on the classic
    # board differ only in the last bits), then the smaller target first
    ranked = sorted(by_target, key=lambda t: (round(odds[t][1], 9), round(odds[t][0], 9), t))
    ranked = ranked[:count]
    states = IdenticalDice(profile.dice, profile.faces).states
    result = []
    for target in ranked:
        rolls = []
        for roll in states:
            if target in reachable_targets(roll, profile.rules):
                found = simplest(roll, target, profile.rules)
                assert found is not None  # reachable means a solution exists
                rolls.append(RollSolution(roll, found.text))
        result.append(
            HardTarget(
                target=target,
                fields=tuple(by_target[target]),
                single_roll=odds[target][0],
                within=odds[target][1],
                rolls=tuple(rolls),
                all_rolls=len(states),
            )
        )
    return result
