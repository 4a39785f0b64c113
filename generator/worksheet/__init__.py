"""Maths worksheets for teachers: "make the target from these dice" problems by level.

A pure core, loading at the edge: `levels` (the YAML levels of each family),
`difficulty` (the score from the solver), `pool` (every problem of a level, solved
once), `sampler` (versions with the same difficulty profile), `roster` (pupils'
names), `spec` (sections that mix families and levels), `model` (what a sheet and
the answer key show) and `sheet` (the pipeline that writes the PDF and manifest).
"""
