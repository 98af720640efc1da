"""One flag name per concept in every command; renamed flags keep their old spelling for one release.

The vocabulary (docs/glossary.md, "Command-line flags"): ``--output`` is where a command writes, ``--model``
the model it works on, ``--seed`` one seed and ``--seeds`` several, ``--include-path`` an extra folder of
task files, ``--no-progress`` hides progress bars, ``--scorer``/``--scorer-args`` pick the stance scorer,
``--entries`` is a leaderboard entries folder, ``--force`` replaces what is already there. A flag that takes
a comma-separated list has a plural name (``--tasks``, ``--seeds``, ``--metrics``); one value, a singular one.

An old spelling is not declared to argparse (so ``--help`` never shows it): :class:`PolibenchParser`
rewrites it to the new flag before parsing and prints one deprecation line to stderr naming the new flag.

lm-evaluation-harness users' hands type ``--model_args``, ``--output_path``, ``--batch_size`` and
``--include_path``: :func:`accept_lm_eval_spellings` makes each a silent, permanent spelling of the polibench
flag that means the same (rewritten the same way, with no warning; the command's help lists them).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence


def warn_renamed(old: str, new: str) -> None:
    print(f"polibench: warning: {old} is deprecated and will be removed in the next release; use {new}",
          file=sys.stderr)


class PolibenchParser(argparse.ArgumentParser):
    """An ArgumentParser that accepts the old spellings registered with :func:`keep_old_spellings`.

    Sub-command parsers inherit the class (argparse creates them with the parent's type), and each one
    rewrites only its own arguments, so ``--out`` can be old in one command and unknown in another.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.old_spellings: dict[str, str] = {}
        self.lm_eval_spellings: dict[str, str] = {}

    def error(self, message: str):
        """A bad flag or value: its one line (naming the flag and what was expected) and exit code 2, without the
        usage block argparse prints first; the line says where the usage is."""
        self.exit(2, f"{self.prog}: error: {message} (usage: {self.prog} --help)\n")

    def parse_known_args(self, args: Sequence[str] | None = None, namespace=None):
        if args is None:
            args = sys.argv[1:]
        return super().parse_known_args(self._renamed(list(args)), namespace)

    def _renamed(self, args: list[str]) -> list[str]:
        if not self.old_spellings and not self.lm_eval_spellings:
            return args
        out = []
        for position, arg in enumerate(args):
            if arg == "--":  # everything after it is a positional value
                return out + args[position:]
            flag, eq, value = arg.partition("=")
            new = self.old_spellings.get(flag)
            if new is not None:
                warn_renamed(flag, new)
                arg = new + eq + value
            elif flag in self.lm_eval_spellings:
                arg = self.lm_eval_spellings[flag] + eq + value
            out.append(arg)
        return out


def keep_old_spellings(parser: argparse.ArgumentParser, renamed: Mapping[str, str]) -> None:
    """Accept each ``old`` flag of ``renamed`` (``{old: new}``) as a hidden, warning spelling of ``new``."""
    if not isinstance(parser, PolibenchParser):
        raise TypeError(f"{parser.prog}: old spellings need a PolibenchParser (build it with cli.main.build_parser)")
    declared = parser._option_string_actions  # argparse keeps no public index of its flags
    for old, new in renamed.items():
        if new not in declared:
            raise ValueError(f"{parser.prog}: {old} renamed to undeclared flag {new}")
        if old in declared:
            raise ValueError(f"{parser.prog}: {old} is still declared; an old spelling must not be")
        parser.old_spellings[old] = new


# lm-evaluation-harness's spelling -> the polibench flag that means the same
# (docs/running.md, "Coming from lm-evaluation-harness").
LM_EVAL_SPELLINGS = {"--model_args": "--model-args", "--output_path": "--output", "--batch_size": "--batch-size",
                     "--include_path": "--include-path"}


def accept_lm_eval_spellings(parser: argparse.ArgumentParser) -> None:
    """Accept lm-eval's spelling of each of ``parser``'s flags that :data:`LM_EVAL_SPELLINGS` maps, silently."""
    if not isinstance(parser, PolibenchParser):
        raise TypeError(f"{parser.prog}: lm-eval spellings need a PolibenchParser (cli.main.build_parser)")
    declared = parser._option_string_actions
    accepted = {ours: theirs for theirs, ours in LM_EVAL_SPELLINGS.items() if ours in declared}
    for theirs, ours in LM_EVAL_SPELLINGS.items():
        if ours in accepted:
            parser.lm_eval_spellings[theirs] = ours
    if accepted:
        note = "lm-eval's spellings are accepted: " + ", ".join(f"{t} for {o}" for o, t in accepted.items())
        parser.epilog = f"{parser.epilog}\n{note}" if parser.epilog else note


class PositionalRenamed(argparse.Action):
    """A positional argument kept for one release as an old spelling of the option ``new_flag``.

    Declare it with ``nargs="?"``, ``help=argparse.SUPPRESS`` and ``default=argparse.SUPPRESS``: absent, it
    does nothing; given, it warns and stores its value where ``new_flag`` would.
    """

    def __init__(self, option_strings, dest, new_flag: str, new_dest: str, **kwargs):
        super().__init__(option_strings, dest, **kwargs)
        self.new_flag = new_flag
        self.new_dest = new_dest

    def __call__(self, parser, namespace, values, option_string=None):
        warn_renamed(f"a positional {self.new_flag.lstrip('-').upper()} argument", f"{self.new_flag} {values}")
        setattr(namespace, self.new_dest, values)
