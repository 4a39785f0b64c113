"""The pure core: dice, rolls and holds, task and board models, solvers and samplers (no I/O)."""
