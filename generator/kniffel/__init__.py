"""Kniffel / Yahtzee: rule sets, the scoring engine and the score block model."""
