"""Layout and drawing: the only package that imports ReportLab.

A sheet is first a layout (`primitives.Document`: pages of boxes, lines and
text in points), built by a `layout_*` module and testable as numbers; then
`draw.render_pdf` turns the finished layout into PDF bytes.
"""
