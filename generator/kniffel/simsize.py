"""How many games the score simulation plays: the default and the limits.

Apart from `simulate` (numpy) so that the block command and the CLI can name them cheaply.
"""

from __future__ import annotations

from generator.core.errors import InputError

DEFAULT_GAMES = 100_000
MIN_GAMES = 100
MAX_GAMES = 1_000_000  # all games advance together: ~1 GB and ~45 s at the limit


def check_games(games: int) -> None:
    """InputError unless `games` is a sensible simulation size."""
    if not MIN_GAMES <= games <= MAX_GAMES:
        raise InputError(
            "games", f"expected {MIN_GAMES}–{MAX_GAMES} simulated games, found {games}"
        )
