"""dicesheets: printable, solver-verified sheets for Kribbeln, Kniffel and Schlaues Köpfchen."""

# an error's words come from templates: the text layer tells the core how to say them
import generator.text.errors  # noqa: F401

__version__ = "0.1.0"
