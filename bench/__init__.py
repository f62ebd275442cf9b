"""Benchmarks for `make bench`: figures, not tests (a slow shared machine fails nothing)."""
