"""dicesheets: printable, solver-verified sheets for Kribbeln, Kniffel and Schlaues Köpfchen."""

__version__ = "0.1.0"
