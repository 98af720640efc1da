"""Which stance scorer read each leaderboard entry, against the reference scorer (issue 36 §2).

A task was read by the reference scorer when its scorer has a reference fingerprint
(:data:`polibench.scoring.fingerprint.REFERENCE`) and its recorded fingerprint has the reference's weights.
Everything else is named: another scorer, the same scorer with other weights (trained elsewhere; its canary
readings say whether it reads a fixed set of answers alike), or no fingerprint at all (results written before
polibench recorded one). Positions read by different scorers are not directly comparable; re-reading one side with
one scorer makes them so (``polibench leaderboard verify --rescore``, ``polibench score RUN --scorer NAME --output
NEW``).
"""

from __future__ import annotations

from typing import Iterable

from polibench.scoring.fingerprint import READS_NOTHING, Reading


def entry_readings(entry) -> dict[str, Reading]:
    """Task name -> its reading, for the tasks of a leaderboard entry that a stance scorer read (``abstain``, which
    reads nothing, is left out)."""
    return {t.name: Reading(t.scorer, t.scorer_fingerprint.model_dump() if t.scorer_fingerprint else None)
            for t in entry.tasks if t.scorer and t.scorer not in READS_NOTHING}


def others(entries: Iterable) -> list[tuple[str, str, Reading]]:
    """``(entry id, task, reading)`` of every task read by a scorer other than the reference one."""
    return [(entry.entry_id, task, reading) for entry in entries
            for task, reading in entry_readings(entry).items() if not reading.is_reference]
