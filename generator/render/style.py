"""Typography shared by every printed page: leading, vertical centring, the text greys.

Sizes, margins and fills that belong to one product stay in its layout module
(each defined once there); what every page shares is defined here.
"""

from __future__ import annotations

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
