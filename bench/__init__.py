"""Benchmarks: ``python -m bench`` runs them all; ``python -m bench words timer`` runs some."""
