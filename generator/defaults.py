"""The default set of sheets written by `dicesheets all` (and so by `make run`)."""

from __future__ import annotations

from pathlib import Path

from generator.kniffel.oddscard import OddsRequest, write_odds_card
from generator.kniffel.sheet import BlockRequest, write_block
from generator.koepfchen.sheet import BoardRequest, write_board
from generator.kribbeln.sheet import BlockRequest as KribbelnRequest
from generator.kribbeln.sheet import write_block as write_kribbeln_block
from generator.worksheet.sheet import WorksheetRequest, write_worksheet


def write_default_set(out: str | Path, seed: int = 1) -> list[Path]:
    """Write every default sheet into the folder `out`; return the PDF paths."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    written = [
        write_block(BlockRequest(rules="kniffel", lang="de", players=4, seed=seed), folder),
        write_block(BlockRequest(rules="yahtzee", lang="en", players=4, seed=seed), folder),
        # the Kniffel odds card (solved and simulated once, then read from the cache)
        write_odds_card(OddsRequest(rules="kniffel", lang="de", seed=seed), folder),
    ]
    # a level-2 worksheet, versions A–C, the answer key after the sheets
    worksheet = WorksheetRequest(level=2, versions=3, seed=seed, lang="de")
    written.append(write_worksheet(worksheet, folder).pdf)
    # Schlaues Köpfchen: the original board and one sampled board, each with rules and key
    written.append(write_board(BoardRequest(profile="classic", seed=seed), folder))
    written.append(write_board(BoardRequest(profile="einmaleins", seed=seed), folder))
    # Kribbeln: a balanced six-sheet German pad with rules page and answer key
    written.append(write_kribbeln_block(KribbelnRequest(pages=6, lang="de", seed=seed), folder))
    return written
