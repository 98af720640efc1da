"""Metrics computed from scored samples only, so that results.json can always be recomputed."""
