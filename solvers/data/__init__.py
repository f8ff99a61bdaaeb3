"""Data files shipped with the solvers (proven lemmas)."""
