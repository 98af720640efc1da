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
