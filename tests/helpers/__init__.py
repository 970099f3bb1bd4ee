"""Helpers several test modules and benchmarks share: one place for each."""
