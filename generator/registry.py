"""Every command and product of dicesheets, declared once: the CLI, the web page, `all`,
validate's rehearsal, the page-health matrix and the fuzz campaign are made from this.

A *command* is its words, help and parameters as data (`generator.surface.model`);
the CLI makes its click commands from them (`generator.cli.commands`) and the web page
its forms (`generator.web.forms`), both through `generator.surface.params`, so both
check a value and a combination of options (`rules`) the same way.

A *product* is a command that prints: its request, load and build ("module:attribute",
imported when used: importing this module imports no game, numpy, ReportLab or click),
its default file names, the kinds of page it prints, what `dicesheets all` writes of it,
what `validate` rehearses and its web page.

Adding a product is one `Product` here (and its command) plus its room
(`generator/<game>/`: request, load, build); CONTRIBUTING.md says how.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from generator.surface.model import (
    Argument,
    Choice,
    Command,
    Count,
    File,
    Group,
    Option,
    Product,
    Range,
    Rehearse,
    Stream,
    WebPage,
    Whole,
)

if TYPE_CHECKING:
    from generator.io.catalog import Catalog

# --- the shared options ---------------------------------------------------------------------

# numpy's generators take no negative seed, and a bound keeps seeds printable and portable
# (the seed is recorded in every manifest)
MAX_SEED = 2**32 - 1
SEED_TYPE = Range(0, MAX_SEED)
FRESH_SEEDS = (1, 99_999)  # a drawn seed: five digits at most, easy to copy from a footer

# Players per game: Kniffel's pad has one block per player (1 = solitaire, at most 8
# blocks in a set); Kribbeln is a game for 2–5, a sheet has room for 8 columns, the
# simulation plays as many; Köpfchen's race is exact for up to 6 players (1: one alone).
KNIFFEL_PLAYERS = Count(1, 8, "players")
KRIBBELN_PLAYERS = Count(2, 8, "players", "2–5")
KOEPFCHEN_PLAYERS = Count(1, 6, "players")
REPORT_PLAYERS = Count(2, 8, "players")  # Köpfchen's report: 2–6, checked by the report
KNIFFEL_GAMES = Count(1, 6, "game columns")
COPIES = Count(1, 1000, "copies")
KRIBBELN_PAGES = Count(1, 100, "sheets")
KRIBBELN_WEB_PAGES = 6  # what the shipped tasks and balance can build (a test keeps it so)

PAPERS = Choice(("a4", "letter"))
LANGS = Choice(("de", "en"))
OUT = Option(
    ("--out",),
    File(),
    default=None,
    help="Output file, or a folder for the default file name (default: output/).",
)
PAPER = Option(("--paper",), PAPERS, default="a4", show_default=True, help="Paper size.")
LANDSCAPE = Option(
    ("--landscape",), is_flag=True, default=False, help="Turn the page to landscape."
)
SEED = Option(
    ("--seed",), SEED_TYPE, default=1, show_default=True, help="Random seed (same seed, same PDF)."
)
FRESH_SEED = Option(
    ("--seed",),
    SEED_TYPE,
    default=None,
    help="Random seed: the same seed gives the same PDF byte for byte. Without it a new "
    "one is drawn, printed on stderr, on the sheet and in the manifest.",
)
JSON = Option(("--json", "as_json"), is_flag=True, help="Print the figures as JSON.")
SHEET = (OUT, PAPER, LANDSCAPE, SEED)  # every command that writes a PDF with a fixed seed


def lang(default: str | None = "de") -> Option:
    """--lang de|en (None: the product's own, e.g. the rule set's language)."""
    return Option(
        ("--lang",),
        LANGS,
        default=default,
        show_default=default is not None,
        help="Language of the printed text.",
    )


def seed(help: str) -> Option:
    return Option(("--seed",), SEED_TYPE, default=1, show_default=True, help=help)


# --- the choices a browser picks from (the catalog's names) --------------------------------


def rule_names(catalog: Catalog) -> list[str]:
    return catalog.names("kniffel")


def profile_names(catalog: Catalog) -> list[str]:
    from generator.koepfchen.load import profile_names

    return profile_names(catalog)


def family_names(catalog: Catalog) -> list[str]:
    from generator.worksheet.load import family_names

    return family_names(catalog)


def spec_names(catalog: Catalog) -> list[str]:
    from generator.worksheet.load import spec_names

    return spec_names(catalog)


def topic_names(catalog: Catalog) -> list[str]:
    """The topics of Klasse 1–4, by Klasse (the web page groups its menu so)."""
    from generator.worksheet.topics import TOPICS

    return [t.id for t in TOPICS]


# --- the checks across options (both surfaces run them) -------------------------------------

SINGLE_SECTION = ("family", "level", "problems", "impossible", "ops", "targets")


def spec_alone(params: Mapping[str, Any], given: frozenset[str]) -> None:
    """A worksheet spec names its sections: none of the single section's options with it."""
    from generator.core.errors import Msg, OptionError

    if params.get("spec") is None:
        return
    for name in SINGLE_SECTION:
        if name in given:
            raise OptionError(f"--{name}", Msg("spec_names_sections_leave", name=name))


FAMILY_ONLY = ("family", "level", "impossible", "ops", "targets", "spec")
TOPIC_CONTROLS = ("number_range", "carry", "unknown", "rows", "dice")


def topic_alone(params: Mapping[str, Any], given: frozenset[str]) -> None:
    """A topic chooses the problems: no family options with it, no topic controls without."""
    from generator.core.errors import Msg, OptionError

    if params.get("as_json") and not params.get("list_topics"):
        raise OptionError("--json", Msg("lists_topics_use_topics"))
    if params.get("topic") is not None:
        for name in FAMILY_ONLY:
            if name in given:
                raise OptionError(f"--{name}", Msg("topic_chooses_problems_leave", name=name))
        return
    if params.get("spec") is not None:
        return  # a spec's sections may be topics: their controls are the spec's
    for name in TOPIC_CONTROLS:
        if name in given:
            flag = "--range" if name == "number_range" else f"--{name}"
            raise OptionError(flag, Msg("topic_s_control_use"))


def pages_or_block(params: Mapping[str, Any], given: frozenset[str]) -> None:
    """`kribbeln simulate` plays the sheets of one file: --pages or --block."""
    from generator.core.errors import Msg, OptionError

    if params.get("pages_file") and params.get("block_file"):
        raise OptionError("--block", Msg("give_pages_file_block"))


def sheets_or_pages(params: Mapping[str, Any], given: frozenset[str]) -> None:
    """`kribbeln block --sheets FILE` prints the file's sheets: as many as it lists, and
    none of the last pad's (--pin)."""
    from generator.core.errors import Msg, OptionError

    if params.get("sheets_file") and "pages" in given:
        raise OptionError("--pages", Msg("sheets_count_pages"))
    if params.get("sheets_file") and params.get("pin") is not None:
        raise OptionError("--pin", Msg("pin_or_sheets"))


# --- the commands ---------------------------------------------------------------------------

KNIFFEL_RULES = Option(
    ("--rules",),
    default="kniffel",
    show_default=True,
    help="Rule set: kniffel or yahtzee.",
    catalog=rule_names,
)
JOKER = Option(
    ("--joker",),
    Choice(("none", "free", "forced")),
    default=None,
    help="Joker rule instead of the rule set's own: none; free (any open box; Full House "
    "and straights at full value once the matching upper box is filled — the published "
    "254.5896); forced (Hasbro).",
)
SIMULATED_GAMES = Option(
    ("--games",),
    Whole(100, 1_000_000),
    default=100_000,  # generator.kniffel.simsize.DEFAULT_GAMES (a test keeps them equal)
    show_default=True,
    help="Simulated games for the score distribution, 100–1,000,000 "
    "(a million take ~45 s and 1 GB of memory).",
)
PROFILE = Option(
    ("--profile",),
    default="classic",
    show_default=True,
    help="Board profile: classic, plus-minus, einmaleins, challenge, or a path to a .yaml file.",
    catalog=profile_names,
)
DICE = Option(
    ("--dice", "dice_file"),
    File(dir_okay=False),
    default=None,
    help="Your own dice (YAML, as task_catalog/kribbeln/dice.yaml; default: the shipped dice).",
)
TASKS = Option(
    ("--tasks", "tasks_file"),
    File(dir_okay=False),
    default=None,
    help="Your own task catalog (YAML as task_catalog/kribbeln/tasks.yaml, or CSV), or a "
    "shipped one by name: variants (the seed's tasks and other counts; default: the seed's).",
)
BALANCE = Option(
    ("--balance", "balance_file"),
    File(dir_okay=False),
    default=None,
    help="Your own balance constraints (YAML, as task_catalog/kribbeln/balance.yaml).",
)
# Kniffel's --rules names the rule set: its rules page is switched off by --no-rules alone
KNIFFEL_RULES_PAGE = Option(
    ("--rules-page/--no-rules", "rules_page"),
    default=True,
    show_default=True,
    help="Add the rules page (the joker as played); --no-rules leaves it out.",
)
RULES_PAGE = Option(
    ("--rules/--no-rules",), default=True, show_default=True, help="Add the rules page."
)
NUMBER_OPS = Option(
    ("--ops",),
    metavar="OPS",
    default="+-*/",
    show_default=True,
    help="Allowed operations, any of + - * / (young pupils: +-).",
)
DIVISION = Option(
    ("--division",),
    Choice(("integer", "rational")),
    default="integer",
    show_default=True,
    help="integer: every intermediate result a whole number ≥ 0; "
    "rational: fractions and negatives allowed along the way (24 game).",
)
NUMBER_RULES = (DIVISION, NUMBER_OPS)
ROLLS_LEFT_REQUIRED = Option(
    ("--rolls-left",),
    Whole(0, 2),
    required=True,
    help="Re-rolls still allowed after this roll (0–2 with three rolls per turn).",
)
FACES = Option(
    ("--faces",), Whole(2, 20), default=6, show_default=True, help="Faces per die, 2–20."
)
TARGET_HELP = "The number to make, 0–1000000."

GROUPS = {
    group.name: group
    for group in (
        Group("kniffel",
              "Kniffel / Yahtzee: score blocks, scoring, coach, expected score, odds card."),
        Group(
            "koepfchen",
            "Schlaues Köpfchen: balanced boards, rules page, answer key, game-length analysis.",
        ),
        Group(
            "kribbeln",
            "Kribbeln: task difficulty, best holds, Kribbeln rows, task-sheet blocks, scoring, "
            "games.",
        ),
        Group("numbers",
              "Numbers puzzles (Schlaues Köpfchen, 24, Countdown): solve, odds, hold advice."),
    )
}  # fmt: skip

STARTER_GAMES = ("kribbeln", "kniffel", "koepfchen", "worksheet")  # generator.io.starter.GAMES

COMMANDS: dict[str, Command] = {
    command.path: command
    for command in (
        Command(
            "all",
            "Write the default set of sheets into a folder.",
            (
                Option(("--out",), File(file_okay=False), default="output", show_default=True,
                       help="Folder for the sheets."),
                seed("Random seed."),
            ),
            run="generator.cli.all:all_command",
        ),
        Command(
            "init",
            "Write commented copies of the shipped catalog and templates into DIR.\n\n"
            "A DIR that holds a catalog already gets the files it lacks; a file you changed\n"
            "(one that differs from what this version writes) is kept, and named.",
            (
                Argument("folder", File(), metavar="DIR"),
                Option(("--game", "games"), Choice(STARTER_GAMES), multiple=True,
                       help="Only the files this game uses (repeat for several; default: all)."),
                Option(("--force",), is_flag=True,
                       help="Replace the files you changed too, each after saving it as NAME.bak."),
            ),
            run="generator.cli.init:init_command",
        ),
        # --- Kniffel ---
        Command(
            "kniffel block",
            "A printable score block (one block per player; --lang defaults to the rule set's).",
            (
                Option(("--players",), KNIFFEL_PLAYERS, default=None,
                       help="Number of players, 1–8 (default: names or 1)."),
                Option(("--games",), KNIFFEL_GAMES, default=6, show_default=True,
                       help="Game columns per player, 1–6."),
                KNIFFEL_RULES,
                Option(("--names",), default=None,
                       help='Player names, comma-separated: "Anna,Jörg".'),
                Option(("--copies",), COPIES, default=1, show_default=True,
                       help="How many copies of the set, 1–1000."),
                Option(("--per-page",), Choice(("auto", "1", "2")), default="auto",
                       show_default=True, help="Blocks side by side on a page."),
                Option(("--layout",), Choice(("player", "family")), default="player",
                       show_default=True,
                       help="player: a block per player to cut apart; family: one sheet with "
                       "the players as columns, names across the top (1–6 players, 1–3 "
                       "games)."),
                JOKER,
                KNIFFEL_RULES_PAGE,
                lang(None),
                *SHEET,
            ),
        ),
        Command(
            "kniffel rules",
            "The rules page on its own: the boxes with examples, bonus, joker, tips.",
            (KNIFFEL_RULES, JOKER, lang(None), *SHEET),
        ),
        Command(
            "kniffel score",
            "Check a filled-in game (YAML) and print the totals and the winner.\n\n"
            "Every game's upper sum, bonus, upper and lower totals are shown too; the text\n"
            "is in --lang (default: the rule set's language).",
            (
                Argument("file", File(dir_okay=False)),
                lang(None),
                Option(("--json", "as_json"), is_flag=True, help="Print the result as JSON."),
            ),
            run="generator.cli.kniffel:score",
        ),
        Command(
            "kniffel advise",
            "What to keep (or, with no roll left, which box to fill) under optimal play.",
            (
                KNIFFEL_RULES,
                JOKER,
                Option(("--filled",), default="",
                       help='Boxes filled so far with their points: "Einser=3,Kniffel=0" '
                       "(ids or labels, de/en)."),
                Option(("--upper",), Whole(0, 105), default=None,
                       help="Upper-section sum so far, 0–105; default and check: the sum of "
                       "the filled upper boxes."),
                Option(("--roll",), required=True,
                       help="The five dice lying now: --roll 1 3 3 4 6."),
                Argument("more_dice", nargs=-1, metavar=""),
                Option(("--rolls-left",), Whole(0, 2), default=2, show_default=True,
                       help="Re-rolls left, 0–2: 2 after the first roll, 0 after the last "
                       "(then: which box)."),
                JSON,
            ),
            run="generator.cli.kniffel:advise",
        ),
        Command(
            "kniffel solve",
            "The optimal expected score (exact) and the score spread (seeded simulation).",
            (KNIFFEL_RULES, JOKER, SIMULATED_GAMES, seed("Seed of the simulation."), JSON),
            run="generator.cli.kniffel:solve",
        ),
        Command(
            "kniffel odds",
            "A one-page odds card: pattern odds, optimal expected score, score histogram "
            "(and the rules page).",
            (KNIFFEL_RULES, JOKER, SIMULATED_GAMES, KNIFFEL_RULES_PAGE, lang(None), *SHEET),
            run="generator.cli.kniffel:odds",
        ),
        # --- Schlaues Köpfchen ---
        Command(
            "koepfchen board",
            "A printable board (one page, or two to glue), with rules page and answer key.\n\n"
            "A sampled profile draws a new board each run unless --seed is given; the fixed\n"
            "classic board needs no seed.",
            (
                PROFILE,
                Option(("--key/--no-key",), default=True, show_default=True,
                       help="Add the answer key."),
                RULES_PAGE,
                lang("de"),
                OUT,
                PAPER,
                LANDSCAPE,
                FRESH_SEED,
                Option(("--targets",), default=None,
                       help='Your own targets, one per field: "3,8,12,…" (the profile gives '
                            "the dice, rules and track; nothing is sampled)."),
            ),
            run="generator.cli.koepfchen:board",
        ),
        Command(
            "koepfchen analyze",
            "Every field's odds, exact game length (Markov chain) and a Monte Carlo cross-check.",
            (
                PROFILE,
                seed("Board and simulation seed."),
                Option(("--players",), KOEPFCHEN_PLAYERS, default=4, show_default=True,
                       help="Players in the simulated race, 1–6."),
                Option(("--games",), Whole(1, 1_000_000), default=20000, show_default=True,
                       help="Simulated races (Monte Carlo), 1–1,000,000."),
                JSON,
            ),
            run="generator.cli.koepfchen:analyze",
        ),
        Command("koepfchen profiles", "List the board profiles.",
                run="generator.cli.koepfchen:profiles"),
        # --- Kribbeln ---
        Command(
            "kribbeln analyze",
            "Every task: family, text, p_success and expected_pips under optimal play (3 rolls)."
            "\n\np_success: the probability of fulfilling the task, playing for that.\n"
            "expected_pips: the expected score (pip sum if fulfilled, else 0), playing for that.",
            (
                DICE,
                TASKS,
                Option(("--sort",),
                       Choice(("catalog", "p_success", "expected_pips", "id", "family")),
                       default="catalog", show_default=True,
                       help="Order of the tasks (p_success and expected_pips: highest first)."),
                lang("de"),
                JSON,
            ),
            run="generator.cli.kribbeln:analyze",
        ),
        Command(
            "kribbeln hold",
            "The best dice to keep from a roll, and the value of every option, best first.",
            (
                Option(("--task", "task_id"), required=True,
                       help="Task id (see `kribbeln analyze`)."),
                Option(("--roll",), required=True,
                       help='The value on die 1…6, e.g. "3 5 1 6 2 2" (colors follow).'),
                ROLLS_LEFT_REQUIRED,
                Option(("--goal",), Choice(("success", "pips")), default="success",
                       show_default=True,
                       help="Play for the probability of success, or for the expected pips."),
                DICE,
                TASKS,
                lang("de"),
                JSON,
            ),
            run="generator.cli.kribbeln:hold",
        ),
        Command(
            "kribbeln row",
            "A Kribbeln row (no task): expected best pip sum and P(beating a previous value k).",
            (DICE, TASKS, JSON),
            run="generator.cli.kribbeln:row",
        ),
        Command(
            "kribbeln export-tasks",
            "Write the task catalog (shipped, --catalog's or --tasks) as CSV or YAML.\n\n"
            "Reading the file back with --tasks gives the same tasks, so a catalog can be\n"
            "kept in a spreadsheet and turned back into YAML (or the other way round).",
            (
                Option(("--csv", "fmt"), flag_value="csv", default=True,
                       help="As CSV for a spreadsheet (default): id, type, parameters, family, "
                            "then text_de, text_en, p_success and expected_pips (not read back)."),
                Option(("--yaml", "fmt"), flag_value="yaml", help="As a YAML task catalog."),
                Option(("--out", "target"), File(dir_okay=False, allow_dash=True), default="-",
                       show_default=True, help="The file to write (- for standard output)."),
                DICE,
                TASKS,
            ),
            run="generator.cli.kribbeln:export_tasks",
        ),
        Command(
            "kribbeln block",
            "A pad of balanced task sheets (seeded), with rules page and answer key.\n\n"
            "Every sheet meets the constraints of the balance file; when they cannot all\n"
            "be met the command stops (exit 2) and names the constraint that binds.",
            (
                Option(("--pages",), KRIBBELN_PAGES, default=6, show_default=True,
                       help="Task sheets in the block (one a page), 1–100."),
                Option(("--sheets", "sheets_file"), File(dir_okay=False), default=None,
                       help="Print these sheets instead of sampling: one line of six task ids "
                       "per sheet (CSV or text), a YAML `sheets:` list, or a pad's manifest "
                       "(.json). Missed balance constraints are warnings."),
                Option(("--pin",), default=None, metavar="2,5",
                       help="Keep these sheets of the last pad (its manifest beside the "
                       "output, else the newest pad in that folder) and sample the others "
                       "without their tasks. Missed balance constraints are warnings."),
                BALANCE,
                DICE,
                TASKS,
                Option(("--players",), KRIBBELN_PLAYERS, default=None,
                       help="Player columns, 2–8 (2–5 in the real game; default: the names "
                       "given, else 5)."),
                Option(("--names",), default=None,
                       help='Player names for the top row: "Anna,Ben,Cem".'),
                RULES_PAGE,
                Option(("--key/--no-key",), default=True, show_default=True,
                       help="Add the answer key (last pages)."),
                lang("de"),
                OUT,
                PAPER,
                LANDSCAPE,
                FRESH_SEED,
            ),
            rules=(sheets_or_pages,),
        ),
        Command(
            "kribbeln score",
            "Score a filled sheet (YAML: names, ten rows of pips or X): points, totals, winner."
            "\n\nChecks the Kribbeln rising rule: a Kribbeln value not higher than the same\n"
            "player's previous one is reported with its row and scored as X.",
            (Argument("file", File(dir_okay=False)), JSON),
            run="generator.cli.kribbeln:score",
        ),
        Command(
            "kribbeln simulate",
            "Whole games with the rules: points per seat, X rates, Kribbeln use, ties, per sheet."
            "\n\nWithout --pages or --block the block of `kribbeln block --seed S` is played.\n"
            "Every player plays optimally for --goal; a failed task uses the area's\n"
            "Kribbeln field whenever that is allowed (empty, and higher than the last\n"
            "Kribbeln value), then tries the task again.",
            (
                Option(("--players",), KRIBBELN_PLAYERS, default=4, show_default=True,
                       help="Players, 2–8 (2–5 in the real game)."),
                Option(("--games",), Whole(1, 1_000_000), default=10_000, show_default=True,
                       help="Games to play, 1–1,000,000."),
                SEED,
                Option(("--pages", "pages_file"), File(dir_okay=False), default=None,
                       help="Sheets to play (YAML: `sheets:` lists of six task ids in row "
                       "order)."),
                Option(("--block", "block_file"), File(dir_okay=False), default=None,
                       help="Play the sheets of a block: the manifest (.json) `kribbeln "
                       "block` wrote."),
                Option(("--goal",), Choice(("pips", "success")), default="pips",
                       show_default=True,
                       help="What every player plays for: the expected pips, or the "
                       "probability of success."),
                BALANCE,
                DICE,
                TASKS,
                JSON,
            ),
            run="generator.cli.kribbeln:simulate",
            rules=(pages_or_block,),
        ),
        # --- numbers puzzles ---
        Command(
            "numbers solve",
            "Make a target from NUMBERS: can it be done, in how many ways, how most simply?\n\n"
            "NUMBERS: 1–6 whole numbers, each used at most once. Distinct solutions differ by\n"
            "more than the order of terms or factors and the way they are bracketed. With\n"
            "--batch, blank lines and '#' comments are skipped; a bad line prints\n"
            '{"line": N, "error": "..."}, the rest is still solved, and the exit status is 2.',
            (
                Argument("numbers_", nargs=-1, metavar="NUMBERS..."),
                Option(("--target",), metavar="N", default=None, help=TARGET_HELP),
                Option(("--batch",), Stream("utf-8-sig"), metavar="FILE", default=None,
                       help="Solve one puzzle per line of FILE ('-': stdin), e.g. '3 6 1 -> 8'; "
                       "prints one JSON object per line."),
                Option(("--all", "all_solutions"), is_flag=True,
                       help="List every distinct solution, simplest first."),
                Option(("--use-all",), is_flag=True, help="Every number must be used (24 game)."),
                *NUMBER_RULES,
                JSON,
            ),
            run="generator.cli.numbers:solve",
            context={"ignore_unknown_options": True},
        ),
        Command(
            "numbers odds",
            "Odds per target: in one roll, and within --rolls rolls keeping the best dice.",
            (
                Option(("--dice",), Whole(1, 5), default=3, show_default=True,
                       help="Number of dice, 1–5."),
                FACES,
                Option(("--rolls",), Whole(1, 6), default=3, show_default=True,
                       help="Rolls per turn, 1–6."),
                Option(("--targets",), metavar="SPEC", default="1-40", show_default=True,
                       help="Targets: ranges and lists such as 1-40 or 1,2,5-9 (at most 1000, "
                       "each 0–1000000)."),
                *NUMBER_RULES,
                JSON,
            ),
            run="generator.cli.numbers:odds",
        ),
        Command(
            "numbers hold",
            "Which dice to keep: every choice with its chance of success, best first.\n\n"
            "DICE: the values the dice show now, e.g. 2 5 6.",
            (
                Argument("dice", nargs=-1, metavar="DICE..."),
                Option(("--target",), metavar="N", required=True, help=TARGET_HELP),
                ROLLS_LEFT_REQUIRED,
                FACES,
                *NUMBER_RULES,
                JSON,
            ),
            run="generator.cli.numbers:hold",
            context={"ignore_unknown_options": True},
        ),
        # --- the rest ---
        Command(
            "preview",
            "Render every page of a PDF as a PNG file.",
            (
                Argument("pdf", File(dir_okay=False, exists=True)),
                Option(("--png", "png_dir"), File(file_okay=False), required=True,
                       help="Folder for the PNG files (one per page)."),
                Option(("--dpi",), Whole(20, 600), default=100, show_default=True,
                       help="Resolution, 20–600."),
            ),
            run="generator.cli.preview:preview",
        ),
        Command(
            "report",
            "Charts and figures that show how a board or a block plays.",
            (
                Option(("--game",), Choice(("kribbeln", "koepfchen")), required=True,
                       help="Which game's balance to report."),
                Option(("--profile",), default="classic", show_default=True,
                       help="Köpfchen board profile."),
                Option(("--players",), REPORT_PLAYERS, default=4, show_default=True,
                       help="Players: Köpfchen 2–6, Kribbeln 2–8 (2–5 in the real game)."),
                Option(("--pages",), KRIBBELN_PAGES, default=6, show_default=True,
                       help="Kribbeln: sheets, 1–100."),
                Option(("--games",), Whole(1, 1_000_000), default=2000, show_default=True,
                       help="Kribbeln: simulated games, 1–1,000,000."),
                Option(("--balance", "balance_file"), default=None, help="Kribbeln: balance file."),
                Option(("--dice", "dice_file"), default=None, help="Kribbeln: dice file."),
                Option(("--tasks", "tasks_file"), default=None, help="Kribbeln: task file."),
                Option(("--json", "as_json"), is_flag=True,
                       help="Also print the figures as JSON."),
                lang(),
                *SHEET,
            ),
            run="generator.cli.report:report_command",
        ),
        Command(
            "serve",
            "Serve the web page: worksheets, Kniffel, Köpfchen, Kribbeln, the coach, playtesting.",
            (
                Option(("--host",), default="127.0.0.1", show_default=True,
                       help="Address to listen on (anything but loopback makes the page "
                       "reachable from other machines)."),
                Option(("--port",), Range(1, 65535), default=8000, show_default=True,
                       help="Port to listen on."),
                Option(("--catalog",), File(file_okay=False, exists=True), default=None,
                       help="Your catalog folder: used for every page, and the playtest page "
                       "shows its problems and a live preview."),
                Option(("--open", "open_browser"), is_flag=True,
                       help="Open the page in a browser."),
                Option(("--workers",), Range(1, 32), default=None,
                       help="Build processes (default: the number of cores, at most 4)."),
                Option(("--time-limit",), Range(1, 600, real=True), default=30.0,
                       show_default=True, help="Seconds one build may take before it is "
                       "stopped."),
                Option(("--header-timeout",), Range(0.1, 300, real=True), default=10.0,
                       show_default=True, help="Seconds a client may take to send a "
                       "request's headers before the connection is closed."),
                Option(("--body-timeout",), Range(0.1, 600, real=True), default=30.0,
                       show_default=True, help="Seconds a client may take to send a "
                       "request's body after its headers before it is answered 408 and "
                       "the connection is closed."),
            ),
            run="generator.web.serve:serve",
        ),
        Command(
            "validate",
            "Check catalog files for form and meaning; list every problem as file:line:column.",
            (
                Argument("files", File(dir_okay=False), nargs=-1),
                Option(("--catalog", "folder"), File(file_okay=False, exists=True),
                       help="Check this catalog folder (default: the shipped catalog)."),
                Option(("--strict",), is_flag=True, help="Treat warnings as problems too."),
            ),
            run="generator.cli.validate:validate_command",
        ),
        # --- worksheets ---
        Command(
            "worksheet",
            "Maths worksheets: make the target from the dice, checked by the solver.\n\n"
            "Each version (A, B, …) has its own problems with the same difficulty profile;\n"
            "the answer key lists the simplest solution and how many solutions each has.",
            (
                Option(("--level",), Whole(1, 4), default=2, show_default=True,
                       help="Level of the family, 1–4."),
                Option(("--problems",), Whole(1, 100), default=20, show_default=True,
                       help="Problems per sheet (1–100)."),
                Option(("--versions",), Whole(1, 26), default=1, show_default=True,
                       help="Versions A, B, C … (1–26)."),
                Option(("--family",), default="koepfchen", show_default=True,
                       help="koepfchen (2–3 dice, whole numbers) or 24 (four numbers, all used, "
                       "fractions allowed).", catalog=family_names),
                Option(("--impossible",), Whole(0, 100), default=0, show_default=True,
                       help="How many problems have no solution (marked in the key), 0–100, at "
                       "most --problems."),
                Option(("--ops",), default=None,
                       help="Operations instead of the level's: any of + - * / (− × ÷ · : too), "
                       "e.g. +-."),
                Option(("--targets",), default=None,
                       help="Target range instead of the level's, e.g. 1-20."),
                Option(("--title",), default=None, help="Title printed on every sheet."),
                Option(("--roster",), File(dir_okay=False), default=None,
                       help="Class list: one name per line, or a CSV/text table as Excel saves "
                       "it (with a header row such as Vorname;Nachname;Klasse;Großdruck;Stufe). "
                       "One named sheet per pupil; a Stufe gives that pupil a sheet of that "
                       "level."),
                Option(("--names",), default=None,
                       help='The class as "Anna, Ben, Cem" instead of --roster.'),
                Option(("--large-print",), is_flag=True, default=False,
                       help="Text ≥ 16 pt, bigger dice and lines."),
                Option(("--large-print-for",), default=None,
                       help='Large print only for these pupils of the class list: "Cem, '
                       'Hannes".'),
                Option(("--class", "klass"), default=None,
                       help='Written on the class line: "3b".'),
                Option(("--date",), default=None, help='Written on the date line: "KW 12".'),
                Option(("--per-page",), Whole(1, 100), default=None,
                       help="At most N problems on a page (1–100)."),
                Option(("--one-page",), is_flag=True, default=False,
                       help="Every sheet on one page (or an error)."),
                Option(("--duplex",), is_flag=True, default=False,
                       help="Double-sided printing: every pupil's sheet gets an even number of "
                       "pages."),
                Option(("--key/--no-key",), default=True, show_default=True,
                       help="Print the answer key."),
                Option(("--key-file",), File(), default=None,
                       help="Write the answer key to this PDF instead of after the sheets."),
                Option(("--spec",), default=None,
                       help="A worksheet spec (YAML, or a shipped one: mixed) with sections "
                       "that mix families and levels; replaces --family --level --problems "
                       "--impossible.", catalog=spec_names),
                Option(("--topic",), default=None,
                       help="A topic of Klasse 1–4 instead of --family/--level, e.g. "
                       "add-20-carry, number-wall-3 (all of them: --topics).",
                       catalog=topic_names),
                Option(("--topics", "list_topics"), is_flag=True, default=False,
                       help="List the topics with their names, Klasse and controls, and stop."),
                Option(("--json", "as_json"), is_flag=True, default=False,
                       help="With --topics: the list as JSON."),
                Option(("--range", "number_range"), default=None,
                       help="Topics: the largest number of each problem in A-B, e.g. 20-100."),
                Option(("--carry",), Choice(("yes", "no", "mixed")), default=None,
                       help="Topics: a carry/borrow (Zehnerübergang) in some column of every "
                       "problem, in none, or half each."),
                Option(("--unknown",), Choice(("result", "operand", "mixed")), default=None,
                       help="Topics: where the blank goes."),
                Option(("--rows",), default=None,
                       help="Topics: the times-table rows, e.g. 2,5,10."),
                Option(("--dice",), is_flag=True, default=False,
                       help="Klasse 1 topics: numbers 1–6 drawn as dice pips."),
                PAPER,
                lang("de"),
                FRESH_SEED,
                OUT,
            ),
            run="generator.cli.worksheet:worksheet",
            rules=(spec_alone, topic_alone),
        ),
    )
}  # fmt: skip


# --- the products -----------------------------------------------------------------------------

KRIBBELN_TEMPLATES = frozenset(
    {"kribbeln_sheet", "kribbeln_tasks", "kribbeln_rules", "kribbeln_key"}
)
KOEPFCHEN_TEMPLATES = frozenset({"koepfchen_board", "koepfchen_rules", "koepfchen_key"})

PRODUCTS: dict[str, Product] = {
    product.id: product
    for product in (
        Product(
            "kniffel-block",
            "kniffel block",
            "generator.kniffel.build:BlockRequest",
            "generator.kniffel.load:load_block",
            "generator.kniffel.build:build_block",
            files=("*-block-*.pdf",),
            page_kinds=("kniffel-block", "kniffel-family", "kniffel-block-rules"),
            templates=frozenset({"kniffel_block", "kniffel_rules"}),
            defaults=(
                {"rules": "kniffel", "lang": "de", "players": 4},
                {"rules": "yahtzee", "lang": "en", "players": 4},
            ),
            rehearse=(
                Rehearse("Kniffel block (kniffel rules)",
                         {"rules": "kniffel", "players": 3, "names": "Anna"}),
                Rehearse("Kniffel block (yahtzee rules)",
                         {"rules": "yahtzee", "players": 3, "names": "Anna"}),
                Rehearse("Kniffel family sheet",
                         {"rules": "yahtzee", "players": 4, "games": 2, "layout": "family",
                          "names": "Anna,Ben"}),
            ),
            # a score block draws nothing at random: its seed only reaches the CLI's manifest
            # the English page is the Yahtzee score block: its rules, so its sheet language
            web=WebPage("kniffel", skip=frozenset({"seed"}), has_seed=False,
                        lang_defaults={"en": {"rules": "yahtzee"}}),
        ),
        Product(
            "kniffel-odds",
            "kniffel odds",
            "generator.kniffel.oddsrequest:OddsRequest",
            "generator.kniffel.load:load_odds",
            "generator.kniffel.build:build_odds",
            files=("*-odds-*.pdf",),
            page_kinds=("odds-card", "odds-rules"),
            templates=frozenset({"kniffel_odds", "kniffel_rules"}),
            # the odds card (solved and simulated once, then read from the cache)
            defaults=({"rules": "kniffel", "lang": "de"},),
            rehearse=(Rehearse("Kniffel odds card", {"rules": "kniffel", "games": 2000}),),
            # a million games take ~45 s and 1 GB: the page builds up to 200,000 (~5 s on
            # a quiet 2-core machine, 15 s at load 17) within its 30 s limit
            web=WebPage("kniffel-odds", has_seed=False, most={"games": 200_000},
                        lang_defaults={"en": {"rules": "yahtzee"}}),
            warm="generator.kniffel.load:warm_odds",
            # what the warm-up imports: the table, the simulation, the pair of processes
            # (numpy with them), the rule-set reader; none of the pages' modules, Jinja2 or
            # ReportLab
            warm_imports=(
                "generator.kniffel.load",
                "generator.kniffel.oddsrequest",
                "generator.kniffel.simulate",
                "generator.io.pair",
                "generator.io.userfiles",
            ),
            prepare="generator.cli.defaults:prepare_odds",
        ),
        Product(
            "kniffel-rules",
            "kniffel rules",
            "generator.kniffel.build:RulesRequest",
            "generator.kniffel.load:load_rules_page",
            "generator.kniffel.build:build_rules",
            files=("*-rules-*.pdf",),
            page_kinds=("kniffel-rules",),
            templates=frozenset({"kniffel_rules"}),
            rehearse=(
                Rehearse("Kniffel rules page", {"rules": "kniffel"}),
                Rehearse("Yahtzee rules page (free joker)", {"rules": "yahtzee", "joker": "free"}),
            ),
            # the rules draw nothing at random: the seed only reaches the CLI's manifest
            web=WebPage("kniffel-rules", skip=frozenset({"seed"}), has_seed=False),
        ),
        Product(
            "worksheet",
            "worksheet",
            "generator.worksheet.build:WorksheetRequest",
            "generator.worksheet.load:load_worksheet",
            "generator.worksheet.sheet:build_sheet",
            files=("worksheet-*.pdf",),
            page_kinds=("worksheet-sheet", "worksheet-large-sheet", "worksheet-key",
                        "topic-sheet", "topic-large-sheet", "topic-key"),
            templates=frozenset({"worksheet"}),
            # a level-2 worksheet, versions A–C, the answer key after the sheets
            defaults=({"level": 2, "versions": 3, "lang": "de"},),
            rehearse=(
                Rehearse("worksheet (level 2, large print)",
                         {"level": 2, "versions": 2, "impossible": 2, "large_print": True}),
                Rehearse("worksheet (a class list with levels)", {"level": 2, "problems": 6},
                         tweak="levels"),
                Rehearse("worksheet (24 game, level 3)", {"family": "24", "level": 3,
                                                          "problems": 6}),
                Rehearse("worksheet (the mixed spec, a class list)", {"spec": "mixed"},
                         tweak="pupils"),
                Rehearse("worksheet (a tally topic, a class list)",
                         {"topic": "dice-tally", "problems": 2, "names": "Zoë, Łukasz"}),
                Rehearse("worksheet (a spec of two topics)", {"topic": "add-10"},
                         tweak="topics"),
            ),
            web=WebPage(
                "worksheet",
                skip=frozenset({"roster", "key_file", "names", "list_topics", "as_json"}),
                parts=("both", "sheets", "key"),
                own_fields=("roster",),
                groups=(
                    ("topic", ("topic", "number_range", "carry", "unknown", "rows", "dice")),
                    ("problems", ("family", "level", "ops", "targets", "problems", "impossible",
                                  "versions", "spec")),
                    ("class", ("roster", "large_print", "large_print_for", "klass", "date",
                               "title")),
                    ("print", ("paper", "lang", "per_page", "one_page", "duplex", "key")),
                ),
                # a spec replaces the single section (what it does not name stays the default)
                replaced_by={"spec": ("family", "level", "problems", "impossible"),
                             "topic": ("family", "level", "impossible", "ops", "targets",
                                       "spec")},
            ),
            fresh_seed=True,
            extra={"key": "key_file"},
        ),
        Product(
            "koepfchen",
            "koepfchen board",
            "generator.koepfchen.build:BoardRequest",
            "generator.koepfchen.load:load_board",
            "generator.koepfchen.build:build_board",
            files=("koepfchen-*.pdf",),
            page_kinds=("koepfchen-board", "koepfchen-rules", "koepfchen-key"),
            templates=KOEPFCHEN_TEMPLATES,
            # the original board and one sampled board, each with rules and key
            defaults=({"profile": "classic"}, {"profile": "einmaleins"}),
            rehearse=(
                Rehearse("Köpfchen board (classic)", {"profile": "classic"}),
                Rehearse("Köpfchen board (challenge)", {"profile": "challenge"}),
                Rehearse("Köpfchen board (fractions allowed)", {"profile": "plus-minus"},
                         tweak="rational"),
            ),
            web=WebPage("koepfchen"),
            fresh_seed=True,
        ),
        Product(
            "kribbeln",
            "kribbeln block",
            "generator.kribbeln.build:BlockRequest",
            "generator.kribbeln.load:load_block",
            "generator.kribbeln.build:build_block",
            files=("kribbeln-block-*.pdf",),
            page_kinds=("kribbeln-sheet", "kribbeln-rules", "kribbeln-key"),
            templates=KRIBBELN_TEMPLATES,
            # a balanced six-sheet German pad with rules page and answer key
            defaults=({"pages": 6, "lang": "de"},),
            rehearse=(
                Rehearse("Kribbeln block", {"names": "Anna,Ben"}),
                Rehearse("Kribbeln block of sheets chosen by hand", {}, tweak="chosen"),
            ),
            # the shipped tasks balance six sheets and no more (seven: no block meets the
            # shipped balance); the command line prints more with a balance or sheets of its own
            # --pin reads the last pad in the output folder: the command line's alone
            web=WebPage("kribbeln", skip=frozenset({"pin"}), most={"pages": KRIBBELN_WEB_PAGES},
                        most_why={"pages": "balance"}),
            fresh_seed=True,
            since="generator.kribbeln.build:news_not_on",
        ),
        Product(
            "report",
            "report",
            "generator.report.balance:ReportRequest",
            "generator.report.balance:load_report",
            "generator.report.balance:build_report",
            files=("report-*.pdf",),
            page_kinds=("report-kribbeln", "report-koepfchen"),
            templates=frozenset({"report"}),
            rehearse=(
                # the report charts the game's own pages too
                Rehearse("Kribbeln balance report", {"game": "kribbeln", "games": 200},
                         also=KRIBBELN_TEMPLATES),
                Rehearse("Köpfchen balance report", {"game": "koepfchen", "games": 200},
                         also=KOEPFCHEN_TEMPLATES),
            ),
        ),
    )
}  # fmt: skip

# what sets each input a build or the writer names (`InputError.subject`, `Input`);
# a subject not listed is its own option (`rolls_left` → option --rolls-left)
WHERE_FOR = {"pdf": "option --out", "key": "option --key-file", "folder": "argument DIR"}

# pages of the web app that are no product's form: the coach answers `kniffel advise`
COACH = "kniffel advise"
NAV = ("worksheet", "kniffel", "kniffel-odds", "kniffel-rules", "koepfchen", "kribbeln", "coach")


def group_of(path: str) -> str | None:
    """The group a command belongs to ("kniffel block" → "kniffel"), or None."""
    words = path.split()
    return words[0] if len(words) > 1 else None


def top_names() -> list[str]:
    """The words `dicesheets` takes first: every command and group."""
    return sorted({path.split()[0] for path in COMMANDS})


def subcommands(group: str) -> list[Command]:
    return [c for c in COMMANDS.values() if group_of(c.path) == group]


def product_of(path: str) -> Product | None:
    """The product a command prints, or None."""
    return next((p for p in PRODUCTS.values() if p.command == path), None)
