"""What the two surfaces share: the vocabulary the registry is written in, and the parser of it.

`model` holds the data classes `generator.registry` declares every command and product
with; `params` turns them into the click parameters both the CLI and the web page parse
with, and runs a command's cross-option rules. Neither imports `generator.cli` or
`generator.web`.
"""
