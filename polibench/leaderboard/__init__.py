"""The static leaderboard: verifiable entries and the site built from them.

``schema`` defines the versioned entry file; ``extract`` is the one place that reads a run's results.json
layout; ``submit`` turns a run folder into an entry after recomputing every number from its samples;
``verify`` re-checks entries against their shipped samples; ``build`` writes the static site.
"""
