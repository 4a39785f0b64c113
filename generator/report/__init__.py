"""The balance report for playtesters: figures and charts of a board or a block."""
