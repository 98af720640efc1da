"""One folder per measurement family (issue 40): each family's ``__init__`` declares its :class:`~polibench.kit.
registry.Family` (what it computes, how report.md and the leaderboard show it), found through the entry-point group
``polibench.families`` (setup.cfg), exactly as a plugin package's family is. Nothing here registers on import; the
registries take the families' parts when first used. See docs/architecture.md."""
