"""Simulation: tournaments (seeded games over local processes, Ray or Dask), ratings, and benchmarks."""
