"""Simulation: benchmarks now; tournaments, ratings and executors build on it."""
