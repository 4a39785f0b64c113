"""Fitting text to a width: line breaks, balanced lines, no orphan, syllable breaks and "…".

The one toolkit every layout sets its text with (`flow`'s paragraphs and footers,
the Kribbeln names, tasks and hints, the worksheet's titles, headings and names):

- `wrap` / `wrap_words`: lines no wider than the width, broken at whitespace but
  never at a no-break space (U+00A0 binds "ab 0", the list of signs);
- `balanced_lines`: as many lines as `wrap` gives, made as even as they can be;
- `lines_without_orphan`: no short word alone on the last line;
- `name_lines`: a name in one or two lines, broken after a space or hyphen, most evenly;
- `syllable_breaks`: where a word may be hyphenated (a rough German and English rule);
- `broken_lines`: a name that fits no way else, broken inside words, the last line "…";
- `shortened`: as many whole words as fit, then " …" (or a cut word and "…");
- `clipped`: as many characters as fit, then "…".
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Sequence

from generator.render.fonts import text_width, width_caches

NO_BREAK = "\u00a0"  # templates bind words with it ("+, −, · und :" stays on one line)
BREAKS = re.compile(r"[^\S\u00a0]+")  # where a line may break: whitespace but the no-break space
ELLIPSIS = "…"
ORPHAN = 0.25  # a paragraph's last line is at least this share of the width
NAME_BREAKS = " -‐"  # a name may break after a space or a hyphen
_TRAILING = re.compile(r"[\s\-‐]+$")  # dropped before a "…": "Anna-…" would be odd


def wrap_words(text: str, size: float, width: float, bold: bool = False) -> list[list[str]]:
    """The words of each line no wider than `width` (a word longer than a line stands alone);
    a no-break space binds the words around it into one word."""
    lines: list[list[str]] = []
    for word in BREAKS.split(text.strip()):
        if lines and text_width(" ".join([*lines[-1], word]), size, bold) <= width:
            lines[-1].append(word)
        elif word:
            lines.append([word])
    return lines


def _joined(lines: list[list[str]]) -> list[str]:
    return [" ".join(line).replace(NO_BREAK, " ") for line in lines]


def wrap(text: str, size: float, width: float, bold: bool = False) -> list[str]:
    """Split `text` into lines no wider than `width` (a no-break space prints as a space)."""
    return _joined(wrap_words(text, size, width, bold))


@functools.lru_cache(maxsize=4096)  # the size searches ask for the same lines again and again
def balanced_lines(text: str, size: float, width: float, bold: bool = False) -> tuple[str, ...]:
    """`wrap`, with the lines made as even as the same number of lines allows.

    A text in a wide cell would otherwise leave one word alone on its last line.
    """
    lines = wrap(text, size, width, bold)
    if len(lines) < 2:
        return tuple(lines)
    low, high = width / len(lines), width
    for _ in range(12):  # the narrowest width that keeps the number of lines
        middle = (low + high) / 2
        if len(wrap(text, size, middle, bold)) == len(lines):
            high = middle
        else:
            low = middle
    return tuple(wrap(text, size, high, bold))


width_caches.append(balanced_lines.cache_clear)


def lines_without_orphan(text: str, size: float, width: float, bold: bool = False) -> list[str]:
    """The lines of `text`, never a short word alone on the last one ("… ab" / "0."):
    words move down from the line above until the last line is a quarter of the width.
    A no-break space binds the words around it."""
    lines = wrap_words(text, size, width, bold)
    if len(lines) >= 2:
        above, last = lines[-2], lines[-1]
        while len(above) > 1 and text_width(" ".join(last), size, bold) < ORPHAN * width:
            if text_width(" ".join([above[-1], *last]), size, bold) > width:
                break
            last.insert(0, above.pop())
    return _joined(lines)


def _name_tokens(name: str) -> list[str]:
    """Where a name may break: after spaces and hyphens ("Anna-" "Lena", "Nguyễn " …)."""
    tokens, current = [], ""
    for ch in name:
        current += ch
        if ch in NAME_BREAKS:
            tokens.append(current)
            current = ""
    return [*tokens, current] if current else tokens


def name_lines(
    name: str, size: float, width: float, lines: int, bold: bool = False
) -> tuple[str, ...]:
    """`name` on one line, or (with `lines` ≥ 2) on two broken after a space or hyphen, the
    longer line as short as can be; () if it cannot be set so."""

    def fits(text: str) -> bool:
        return text_width(text.strip(), size, bold) <= width

    if fits(name):
        return (name,)
    tokens = _name_tokens(name)
    if lines < 2:
        return ()
    options = [
        ("".join(tokens[:k]).strip(), "".join(tokens[k:]).strip()) for k in range(1, len(tokens))
    ]
    fitting = [o for o in options if fits(o[0]) and fits(o[1])]
    if not fitting:
        return ()
    return min(fitting, key=lambda o: max(text_width(x, size, bold) for x in o))


def _vowel(ch: str) -> bool:
    return unicodedata.normalize("NFD", ch)[:1].lower() in "aeiouy"


KEEP_TOGETHER = ("sch", "ch", "ck", "ph", "th", "sh")  # never split inside these


def syllable_breaks(word: str) -> list[int]:
    """Where a word may be broken with a hyphen: before a consonant (or ch, sch …) and a vowel.

    A rough rule of German and English hyphenation (Ma-xi-mi-li-an, Kier-ke-gaard,
    Chris-to-pher), enough for a name that is too long for its cell; two letters
    at least stay on either side.
    """
    breaks = []
    i = 2
    while i < len(word) - 1:
        group = next((g for g in KEEP_TOGETHER if word[i:].lower().startswith(g)), word[i])
        after = i + len(group)
        if (
            after < len(word)
            and _vowel(word[after])
            and not _vowel(group[0])
            and any(_vowel(ch) for ch in word[:i])
        ):
            breaks.append(i)
        i = after if len(group) > 1 else i + 1
    return breaks


def _fits(size: float, width: float, bold: bool) -> Callable[[str], bool]:
    return lambda text: text_width(text, size, bold) <= width


def clipped(text: str, size: float, width: float, bold: bool = False) -> str:
    """As many of `text`'s characters as fit with "…" after them (spaces and hyphens before
    the "…" dropped); at least one character."""
    fits = _fits(size, width, bold)
    k = len(text)
    while k > 1 and not fits(_TRAILING.sub("", text[:k]) + ELLIPSIS):
        k -= 1
    return _TRAILING.sub("", text[:k]) + ELLIPSIS


def shortened(text: str, size: float, width: float, bold: bool = False) -> str:
    """`text`, or as many of its words as fit with " …" (the first word `clipped` when it is
    too long even so)."""
    fits = _fits(size, width, bold)
    if fits(text):
        return text
    words = text.split(" ")
    while len(words) > 1:
        words.pop()
        cut = " ".join(words).rstrip(" –-,;:")
        if fits(cut + " " + ELLIPSIS):
            return cut + " " + ELLIPSIS
    return clipped(words[0], size, width, bold)


def was_shortened(lines: Sequence[str], text: str) -> bool:
    """Whether `lines` (from `broken_lines`, `shortened` or `clipped`) lost letters of
    `text`: the last ends in an "…" that `text` does not."""
    return bool(lines) and lines[-1].endswith("…") and not text.endswith("…")


def broken_lines(
    text: str, size: float, width: float, lines: int, bold: bool = False
) -> tuple[str, ...]:
    """A name too long for its cell in at most `lines` lines: broken after a space or hyphen,
    else at a syllable (with "-"), else anywhere; the last line `clipped` with "…"."""
    fits = _fits(size, width, bold)
    out: list[str] = []
    rest = text.strip()
    while rest:
        if fits(rest):
            return (*out, rest)
        if len(out) == lines - 1:  # the last line: as much as fits, then "…"
            return (*out, clipped(rest, size, width, bold))
        # the longest start that fits: at a space or hyphen, else at a syllable, else anywhere
        spaces = [
            i + 1 for i, ch in enumerate(rest) if ch in NAME_BREAKS and fits(rest[: i + 1].strip())
        ]
        word_end = next((i for i, ch in enumerate(rest) if ch in NAME_BREAKS), len(rest))
        syllables = [i for i in syllable_breaks(rest[:word_end]) if fits(rest[:i] + "-")]
        if spaces:
            cut = max(spaces)
            out.append(rest[:cut].strip())
        else:
            cut = max(syllables, default=0)
            if not cut:
                cut = max((k for k in range(1, len(rest)) if fits(rest[:k] + "-")), default=1)
            out.append(rest[:cut] + "-")
        rest = rest[cut:].strip()
    return tuple(out)
