"""The CLI's messages in the page's language.

The solvers, loaders and option checks say what is wrong in English, once, for
the CLI. A page in another language recognises the common shapes of those
messages and says them again with the words of `templates/<lang>/web.j2`
(macro `msg_<shape>`, with the parts of the message as arguments); a message of
a shape it does not know is shown as the CLI prints it.
"""

from __future__ import annotations

import re

from generator.web.pages import words

# (shape, pattern of the English message); the first that matches the whole message wins
SHAPES = [
    ("not_integer", r"(?:Invalid value for '(?P<option>[^']+)': )?'(?P<value>.*)' "
                    r"is not a valid integer\."),
    ("not_choice", r"(?:Invalid value for '(?P<option>[^']+)': )?'(?P<value>.*)' "
                   r"is not (?:one of )?(?P<choices>.+)\."),
    ("range", r"expected (?P<low>\d+)–(?P<high>\d+) (?P<what>[^,(]+?)(?: \([^)]*\))?, "
              r"found (?P<found>.+)"),
    ("range_bare", r"expected (?P<low>\d+)–(?P<high>\d+), found (?P<found>.+)"),
    ("at_least", r"expected at least (?P<low>\d+) (?P<what>[^,]+?), found (?P<found>.+)"),
    ("unknown_level", r"unknown level (?P<level>\S+) for family '(?P<family>[^']+)' "
                      r"\(expected one of (?P<known>.+)\)"),
    ("too_many_impossible", r"(?P<impossible>\d+) impossible problems but only "
                            r"(?P<problems>\d+) problems \(expected at most \d+\)"),
    ("name_empty", r"name (?P<n>\d+) is empty \(expected comma-separated names\)"),
    ("names_for_players", r"(?P<names>\d+) names(?: given)? for (?P<players>\d+) players.*"),
    ("control_character", r"(?P<where>.+):(?P<line>\d+): the name contains a control character"),
    ("name_too_long", r"(?P<where>.+):(?P<line>\d+): a name of (?P<length>\d+) characters "
                      r"\(expected at most (?P<most>\d+)\)"),
    ("no_names", r"(?P<where>.+) has no names \(expected one name per line\)"),
    ("not_utf8", r"(?P<where>.+) is not UTF-8 text \(byte (?P<byte>\d+)\); save it as UTF-8"),
    ("utf8_line", r"(?P<where>.+):(?P<line>\d+): not UTF-8 text, while the other lines are "
                  r"UTF-8 .*"),
    ("too_large", r"(?P<where>.+) is larger than (?P<limit>\d+) bytes"),
    ("impossible_score", r"(?P<points>\d+) is not a possible score for '(?P<box>[^']+)'"),
    ("game_over", r"every box is filled: the game is over"),
    ("die_face", r"a die shows 1–(?P<faces>\d+), found '(?P<found>.*)'"),
    ("dice_count", r"expected (?P<dice>\d+) dice, found (?P<found>\d+)"),
    ("rolls_left", r"expected 0, 1 or 2(?:, found (?P<found>.+))?"),
]  # fmt: skip
_COMPILED = [(shape, re.compile(pattern)) for shape, pattern in SHAPES]


def in_language(message: str, lang: str) -> str:
    """`message` as a page in `lang` says it (English: as the CLI prints it)."""
    if lang == "en":
        return message
    t = words(lang)
    for shape, pattern in _COMPILED:
        match = pattern.fullmatch(message)
        if match and t.has(f"msg_{shape}"):
            parts = {k: (v if v is not None else "") for k, v in match.groupdict().items()}
            return str(t(f"msg_{shape}", **parts))
    return message
