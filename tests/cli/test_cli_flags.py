"""One flag name per concept in every command; old spellings still work for one release, hidden and warning."""

import argparse

import pytest

from polibench.cli.flags import PolibenchParser, keep_old_spellings
from polibench.cli.main import build_parser

# (old argv, new argv): the same request with the old and the new spelling.
RENAMED = [
    (["run", "--output-path", "D"], ["run", "--output", "D"]),
    (["run", "--output-path=D"], ["run", "--output=D"]),
    (["stance", "train", "--base", "B", "--train", "T", "--output", "O"],
     ["stance", "train", "--model", "B", "--train", "T", "--output", "O"]),
    (["stance", "train", "--model", "B", "--train", "T", "--output", "O", "--warmup", "0.25"],
     ["stance", "train", "--model", "B", "--train", "T", "--output", "O", "--warmup-ratio", "0.25"]),
    (["fairness", "train", "--model", "m", "--task", "t", "--name", "N"],
     ["fairness", "train", "--model", "m", "--task", "t", "--model-id", "N"]),
    (["fairness", "train", "--model", "m", "--task", "t", "--output-dir", "D"],
     ["fairness", "train", "--model", "m", "--task", "t", "--output", "D"]),
    (["fairness", "train", "--model", "m", "--task", "t", "--overwrite"],
     ["fairness", "train", "--model", "m", "--task", "t", "--force"]),
    (["fairness", "eval", "R", "--bootstrap-seed", "3"], ["fairness", "eval", "R", "--seed", "3"]),
    (["fairness", "compare", "E", "--output-dir", "D"], ["fairness", "compare", "E", "--output", "D"]),
    (["fairness", "compare", "E", "--output", "D", "--task", "a,b"],
     ["fairness", "compare", "E", "--output", "D", "--tasks", "a,b"]),
    (["fairness", "compare", "E", "--output", "D", "--grouping", "g"],
     ["fairness", "compare", "E", "--output", "D", "--groupings", "g"]),
    (["fairness", "compare", "E", "--output", "D", "--metric", "f1"],
     ["fairness", "compare", "E", "--output", "D", "--metrics", "f1"]),
    (["leaderboard", "build", "--out", "S"], ["leaderboard", "build", "--output", "S"]),
    (["leaderboard", "verify", "E"], ["leaderboard", "verify", "--entries", "E"]),
]
OLD_FLAGS = {"--output-path", "--output-dir", "--out", "--base", "--warmup", "--name", "--overwrite",
             "--bootstrap-seed", "--grouping", "--metric"}


def parsers(parser: argparse.ArgumentParser, path=()):
    """Every (command path, parser) below ``parser``, itself included."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield from parsers(child, path + (name,))


@pytest.mark.parametrize("old, new", RENAMED, ids=[" ".join(o) for o, _ in RENAMED])
def test_old_spelling_parses_like_the_new_one_and_warns_once(old, new, capsys):
    from_new = vars(build_parser().parse_args(new))
    assert capsys.readouterr().err == ""
    from_old = vars(build_parser().parse_args(old))
    warning = capsys.readouterr().err.strip().splitlines()
    assert from_old == from_new
    renamed = [arg for arg in new if arg not in old and arg.startswith("--")]
    assert len(warning) == 1 and "deprecated" in warning[0] and renamed[0].split("=")[0] in warning[0]


def test_values_reach_the_right_setting():
    """Not just 'parses': the old spelling's value lands where the handler reads the new one."""
    args = build_parser().parse_args(["fairness", "compare", "E", "--output-dir", "D", "--metric", "f1",
                                      "--task", "a,b"])
    assert (args.output, args.metrics, args.tasks) == ("D", "f1", "a,b")
    args = build_parser().parse_args(["leaderboard", "verify", "X"])
    assert args.entries == "X" and args.strict is False
    assert build_parser().parse_args(["leaderboard", "verify"]).entries == "leaderboard/entries"
    assert build_parser().parse_args(["stance", "train", "--base", "B", "--train", "T", "--output", "O"]).model == "B"


def test_old_spellings_are_hidden_from_every_help(capsys):
    for path, parser in parsers(build_parser()):
        text = parser.format_help()
        declared = set(parser._option_string_actions)
        assert not (declared & OLD_FLAGS) or path[-1:] == ("submit",) and declared & OLD_FLAGS == {"--name"}, path
        for old in parser.old_spellings:
            assert old + " " not in text and old + "\n" not in text and old + "]" not in text, (path, old)
    verify = dict(parsers(build_parser()))[("leaderboard", "verify")].format_help()
    assert "[--entries ENTRIES]" in verify and "old_entries" not in verify


def test_one_flag_per_concept_in_every_command():
    """Where a command writes is --output, never --out/--output-dir/--output-path; lists have plural names."""
    for path, parser in parsers(build_parser()):
        for flag in parser._option_string_actions:
            if flag.startswith("--out"):
                assert flag == "--output", (path, flag)
        if "--model" in parser._option_string_actions and path[0] == "stance" and path[1] == "train":
            assert "--base" not in parser._option_string_actions
    train = dict(parsers(build_parser()))[("stance", "train")]
    assert train._option_string_actions["--model"].required


def test_required_new_flag_is_still_required(capsys):
    with pytest.raises(SystemExit) as exc:
        build_parser().parse_args(["stance", "train", "--train", "T", "--output", "O"])
    assert exc.value.code == 2 and "--model" in capsys.readouterr().err


def test_double_dash_ends_the_rewriting():
    parser = PolibenchParser(prog="x")
    parser.add_argument("--new")
    parser.add_argument("rest", nargs="*")
    keep_old_spellings(parser, {"--old": "--new"})
    args = parser.parse_args(["--old", "1", "--", "--old"])
    assert args.new == "1" and args.rest == ["--old"]


def test_keep_old_spellings_refuses_mistakes():
    parser = PolibenchParser(prog="x")
    parser.add_argument("--new")
    parser.add_argument("--also")
    with pytest.raises(ValueError):
        keep_old_spellings(parser, {"--old": "--missing"})
    with pytest.raises(ValueError):
        keep_old_spellings(parser, {"--also": "--new"})
    with pytest.raises(TypeError):
        keep_old_spellings(argparse.ArgumentParser(), {"--old": "--new"})
