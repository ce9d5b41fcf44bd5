"""Baselines measured beside laro's engines in the same benchmark run."""
