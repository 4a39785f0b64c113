"""Kribbeln: colour dice, the task catalog and the exact optimal-play task solver.

- `dice`: the six colour dice (`DiceSet`, `Color`) and their YAML loader;
- `tasks`: the eleven task types, the task catalog loader and task wording;
- `masks`: every task as a boolean mask over all 6^6 rolls (numpy);
- `solver`: p_success, expected_pips, Kribbeln-row figures and the best holds;
- `report`: what `dicesheets kribbeln analyze|hold|row` print (no click).
"""
