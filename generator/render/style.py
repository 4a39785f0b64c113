"""Typography shared by every printed page: leading, vertical centring, the text greys,
and the house style every product keeps (titles, footer, the paper's edge).

Sizes, margins and fills that belong to one product stay in its layout module
(each defined once there); what every page shares is defined here.
"""

from __future__ import annotations

from generator.render.primitives import MM

LEADING = 1.3
"""Line step of flowing text, as a multiple of the font size."""

BASELINE_RAISE = 0.25
"""A flowing line's baseline sits this share of the size above the foot of its line box."""

BASELINE_CENTRED = 0.24 + (LEADING - 1) / 2
"""The baseline of a line whose glyphs sit centred in their line box (descent + half leading)."""

CENTRE = 0.36
"""`middle - CENTRE * size` is the baseline that centres digits and capitals on `middle`."""

INK = "#000000"
WHITE = "#ffffff"
DARK_GREY = "#333333"  # small print and notes that must still read well
GREY = "#555555"  # labels, legends, footers
MID_GREY = "#666666"  # footers of text pages and reports
LIGHT_GREY = "#777777"  # footers of the Kribbeln block
RULE_GREY = "#999999"  # the lines between table rows
HEADER_FILL = "#d9d9d9"  # a table's header row
ZEBRA_FILL = "#f3f3f3"  # every other table row


def centred(middle: float, size: float) -> float:
    """The baseline that centres text of `size` vertically on `middle`."""
    return middle - CENTRE * size


# --- the house style: the same on every product, on A4 and Letter ------------------------

TITLE = 18.0
"""The title of a sheet players or pupils get: a block, a board, a pad's sheet, the odds card."""

TEXT_TITLE = 16.0
"""The title of a text page: rules, an answer key, a report."""

EDGE = 5 * MM
"""Nothing is printed closer to the paper's edge: most printers cannot print the outer ~4 mm."""

FOOTER_SIZE = 7.0
FOOTER_MIN = 6.0  # a long footer shrinks to this, then it is shortened
FOOTER_INK = MID_GREY
FOOTER_BASELINE = 7 * MM
"""The footer's baseline above the paper's bottom edge (its descenders stay clear of `EDGE`)."""

FOOTER_ROOM = 11 * MM
"""What the footer takes at the paper's foot: a layout's content ends above this."""
