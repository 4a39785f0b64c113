"""Benchmarks: `make bench` (python -m bench) runs every bench_*.py module's main()."""
