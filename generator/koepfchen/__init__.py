"""Schlaues Köpfchen boards: profiles, balanced sampling, exact game analysis (docs/rules.md §3).

- `profile`: board profiles from `task_catalog/koepfchen/*.yaml`, validated with positions;
- `board`: a board (a target on every field) with its odds, and the constraint check;
- `sampler`: seeded, bounded sampling of a board that meets every constraint;
- `analysis`: the Markov chain of one player's game, exact races, a Monte Carlo cross-check;
- `key`: the answer key data (hardest targets, one simplest solution per roll);
- `sheet`: the pipeline from options to PDF + manifest (no click).
"""
