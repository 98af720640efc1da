"""``polibench leaderboard verify|build``: re-check entries, and write the static site."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Optional

from polibench.cli.args import add_command_group
from polibench.cli.fairness import DEFAULT_FAIRNESS_ENTRIES
from polibench.cli.flags import PositionalRenamed, keep_old_spellings
from polibench.cli.submit import DEFAULT_ENTRIES

DEFAULT_SITE = "leaderboard/site"


def add_parser(sub) -> None:
    actions = add_command_group(sub, "leaderboard", help="verify leaderboard entries or build the static site",
                                description=None, dest="action", metavar="ACTION")
    v = actions.add_parser("verify", help="recompute every entry whose samples are shipped")
    v.add_argument("--entries", default=DEFAULT_ENTRIES, help=f"entries folder (default: {DEFAULT_ENTRIES})")
    v.add_argument("old_entries", nargs="?", default=argparse.SUPPRESS, help=argparse.SUPPRESS,
                   action=PositionalRenamed, new_flag="--entries", new_dest="entries")
    v.add_argument("--fairness", help=f"fairness submissions folder to check too (default: {DEFAULT_FAIRNESS_ENTRIES} "
                                      "when it exists)")
    v.add_argument("--strict", action="store_true", help="also fail on entries whose samples are not shipped")
    v.add_argument("--rescore", nargs="*", metavar="ENTRY",
                   help="re-read entries' responses with this machine's stance scorer (--scorer) and print which "
                        "readings change and how far each position moves; ENTRY: part of an entry's file name "
                        "(default: every entry read by a scorer other than the reference one). Writes nothing")
    v.add_argument("--scorer", default="embedded", help="with --rescore: the stance scorer to re-read with "
                                                        "(default: embedded, trained here on first use)")
    v.set_defaults(handler=verify_command)
    b = actions.add_parser("build", help="write the static site (open index.html, no server needed)")
    b.add_argument("--entries", default=DEFAULT_ENTRIES, help=f"entries folder (default: {DEFAULT_ENTRIES})")
    b.add_argument("--fairness", help=f"fairness submissions folder for the fairness tab (default: "
                                      f"{DEFAULT_FAIRNESS_ENTRIES} when it exists)")
    b.add_argument("--output", metavar="DIR", default=DEFAULT_SITE, help=f"site folder (default: {DEFAULT_SITE})")
    b.add_argument("--verify", action=argparse.BooleanOptionalAction, default=True,
                   help="recompute every entry and fairness submission from its shipped files first and refuse to "
                        "build on a failure (the default); --no-verify skips it, and the site then says so")
    keep_old_spellings(b, {"--out": "--output"})
    b.set_defaults(handler=build_command)


def fairness_dir(given: Optional[str]) -> Optional[Path]:
    """The fairness submissions folder: the one given (which must exist), else the default when present."""
    from polibench.errors import PolibenchError

    if given is None:
        return Path(DEFAULT_FAIRNESS_ENTRIES) if Path(DEFAULT_FAIRNESS_ENTRIES).is_dir() else None
    if not Path(given).is_dir():
        raise PolibenchError(f"--fairness {given}: no such folder")
    return Path(given)


def verify_command(args: argparse.Namespace) -> int:
    from polibench.leaderboard.verify import FAILED, UNAVAILABLE, verify_dir

    outcomes = verify_dir(Path(args.entries))
    _print_outcomes(outcomes)
    failed = sum(o.status == FAILED for o in outcomes)
    missing = sum(o.status == UNAVAILABLE for o in outcomes)
    print(f"{len(outcomes)} entries: {len(outcomes) - failed - missing} verified, {failed} failed, "
          f"{missing} without samples")
    readings_report(Path(args.entries))
    if args.rescore is not None:
        rescore_report(Path(args.entries), args.rescore, args.scorer)
    fairness = fairness_dir(args.fairness)
    if fairness is not None:
        from polibench.leaderboard.fairness_submit import submission_paths, verify_submission

        checked = [verify_submission(path) for path in submission_paths(fairness)]
        _print_outcomes(checked)
        bad = sum(o.status == FAILED for o in checked)
        print(f"{len(checked)} fairness submissions: {len(checked) - bad} verified, {bad} failed")
        failed += bad
    return 1 if failed or (args.strict and missing) else 0


def _entries(entries_dir: Path) -> list:
    """The entries of the folder that load (verify has named the others)."""
    from polibench.errors import PolibenchError
    from polibench.leaderboard.schema import entry_paths, load_entry

    out = []
    for path in entry_paths(entries_dir):
        try:
            out.append((path, load_entry(path)))
        except PolibenchError:
            continue
    return out


def readings_report(entries_dir: Path) -> None:
    """Which stance scorer read the entries: the reference's fingerprint, and every entry read by another one."""
    from polibench.leaderboard.scorers import entry_readings, others
    from polibench.scoring.fingerprint import REFERENCE, describe

    entries = [entry for _, entry in _entries(entries_dir)]
    named = others(entries)
    other_entries = sorted({entry for entry, _, _ in named})
    for scorer, found in REFERENCE.items():
        print(f"reference {scorer} stance scorer: {describe(found)} (recipe {found.get('recipe_version')}, trained on "
              f"{found.get('trained_on')})")
    unread = sum(1 for entry in entries if not entry_readings(entry))
    print(f"stance scorers: {len(entries) - len(other_entries) - unread} entries read by the reference scorer, "
          f"{len(other_entries)} by another" + (f", {unread} by none (answers read by their options alone)"
                                                 if unread else "") + (":" if named else ""))
    for entry, task, reading in named:
        print(f"  {entry}: {task} {reading.why_not_reference()}")
    if named:
        print("  positions read by different scorers are not directly comparable: `polibench leaderboard verify "
              "--rescore ENTRY` re-reads an entry with this machine's scorer")


def rescore_report(entries_dir: Path, patterns: list[str], scorer: str) -> None:
    """``verify --rescore``: each chosen entry re-read with ``scorer``; what changes, how far positions move."""
    from polibench.leaderboard.reread import Scorers, reread_entry
    from polibench.leaderboard.scorers import others
    from polibench.scoring.fingerprint import describe

    entries = _entries(entries_dir)
    if patterns:
        chosen = [(p, e) for p, e in entries if any(pattern in p.name for pattern in patterns)]
        if not chosen:
            from polibench.errors import PolibenchError

            raise PolibenchError(f"--rescore: no entry in {entries_dir} matches {', '.join(patterns)}")
    else:
        named = {entry for entry, _, _ in others([e for _, e in entries])}
        chosen = [(p, e) for p, e in entries if e.entry_id in named]
        if not chosen:
            print("--rescore: every entry was read by the reference scorer; name entries to re-read them anyway")
            return
    scorers = Scorers(default=scorer)  # one scorer per label set, shared by every chosen entry
    for path, _ in chosen:
        found = reread_entry(path, scorers, show_progress=False)
        used = scorers.fingerprint()
        print(f"re-read {path.name} with this machine's {scorer} scorer {describe(used)}: {found.read} responses read "
              f"by a scorer; {found.labels_changed} labels changed, {found.pairs_changed} (label, kept) pairs "
              f"changed ({found.agreement:.1%} agree)")
        for movement in found.movements:
            print(f"  {movement.describe()}")


def _print_outcomes(outcomes) -> None:
    for o in outcomes:
        print(f"{o.status:>21}  {o.path.name}: {o.detail}")


def build_command(args: argparse.Namespace) -> int:
    from polibench.leaderboard.build import build_site

    site = build_site(Path(args.entries), Path(args.output), verify=args.verify,
                      fairness_dir=fairness_dir(args.fairness))
    print(f"wrote {site.index} ({site.n_entries} entries, {site.n_fairness} fairness submissions"
          + (", verified" if args.verify else ", NOT verified (--no-verify)")
          + "); open it in a browser, no server needed")
    return 0
