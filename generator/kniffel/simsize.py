"""How many games the score simulation plays: the default and the limits.

Apart from `simulate` (numpy) so that the block command and the CLI can name them cheaply.
"""

from __future__ import annotations

from generator.errors import OptionError

DEFAULT_GAMES = 100_000
MIN_GAMES = 100
MAX_GAMES = 10_000_000


def check_games(games: int) -> None:
    """OptionError unless `games` is a sensible simulation size."""
    if not MIN_GAMES <= games <= MAX_GAMES:
        raise OptionError(
            "--games", f"expected {MIN_GAMES}–{MAX_GAMES} simulated games, found {games}"
        )
