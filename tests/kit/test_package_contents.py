"""What the wheel ships: code and data of polibench, never the test helpers or the data-building tools."""

from pathlib import Path

from setuptools import find_packages

ROOT = Path(__file__).resolve().parents[2]


def test_no_code_ships_under_data_and_no_test_helper_in_the_package():
    data = ROOT / "polibench" / "data"
    assert not [p for p in data.rglob("*.py")], "data-building tools belong in tools/<product>/ (outside the wheel)"
    assert not (ROOT / "polibench" / "stance" / "testing.py").exists()
    packages = find_packages(str(ROOT), include=["polibench", "polibench.*"])
    assert "polibench.kit" in packages and not [p for p in packages if "tools" in p or "tests" in p]
    assert (ROOT / "tools" / "stance" / "build_gold.py").is_file()  # kept in the repository


def test_every_task_file_is_installed_with_the_package():
    """An installed polibench reads its task YAML from ``<prefix>/share/polibench/tasks`` (polibench/paths.py):
    every file under tasks/ must be matched by a ``[options.data_files]`` pattern of setup.cfg, to the same
    relative folder."""
    import configparser
    import fnmatch

    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg")
    installed: set[str] = set()
    for target, patterns in config["options.data_files"].items():
        folder = target.removeprefix("share/polibench/")
        for pattern in (p.strip() for p in patterns.replace("\n", ",").split(",") if p.strip()):
            matched = [p for p in ROOT.glob(pattern) if p.is_file()]
            assert matched, f"setup.cfg data_files pattern {pattern!r} matches no file"
            assert all(str(p.parent.relative_to(ROOT)) == folder for p in matched), (pattern, folder)
            installed.update(str(p.relative_to(ROOT)) for p in matched)
    shipped = {str(p.relative_to(ROOT)) for p in (ROOT / "tasks").rglob("*")
               if p.is_file() and (p.suffix == ".yaml" or p.name == "LICENSE")}
    missing = sorted(shipped - installed)
    assert not missing, f"task files an installed polibench would lack (add them to setup.cfg): {missing}"
    assert not [p for p in installed if fnmatch.fnmatch(p, "*.py")]
