"""``Registry[T]`` and the families (polibench/kit/registry.py): lazy ``"module:object"`` entries resolved once,
entry points read from an installed distribution's metadata (a dist-info made here, as a build would install it),
a plugin never replacing a built-in, one error for an unknown name, families in their order, one error for a
broken family or stale metadata."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from polibench.errors import BackendError, PolibenchError
from polibench.kit import registry as kit_registry
from polibench.kit.registry import Family, Registry, entry_point_targets, families, own_entry_point_targets


@pytest.fixture
def installed(tmp_path, monkeypatch):
    """``install(module_source, entry_points)``: a package ``planted_plugin`` and the dist-info pip would write for
    it, on sys.path; the entry-point and family caches are cleared before and after, so nothing leaks."""
    counter = [0]

    def install(source: str, entry_points: str) -> Path:
        counter[0] += 1
        root = tmp_path / f"site{counter[0]}"
        (root / "planted_plugin").mkdir(parents=True)
        (root / "planted_plugin" / "__init__.py").write_text(textwrap.dedent(source))
        dist = root / "planted_plugin-0.1.dist-info"
        dist.mkdir()
        (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: planted-plugin\nVersion: 0.1\n")
        (dist / "entry_points.txt").write_text(textwrap.dedent(entry_points))
        monkeypatch.syspath_prepend(str(root))
        entry_point_targets.cache_clear()
        families.cache_clear()
        return root

    yield install
    sys.modules.pop("planted_plugin", None)
    entry_point_targets.cache_clear()
    families.cache_clear()


def _is_int(name: str, found: object) -> int:
    if not isinstance(found, int):
        raise TypeError(f"is not a number (got {type(found).__name__})")
    return found


def test_a_lazy_entry_is_imported_when_asked_for_and_resolved_once(installed):
    installed('''
        LOADS = []
        def make():
            LOADS.append(1)
            return 42
        ''', "")
    checks = []
    numbers: Registry[int] = Registry("number", check=lambda name, found: checks.append(name) or _is_int(name, found()))
    numbers.add("answer", "planted_plugin:make")
    assert "planted_plugin" not in sys.modules  # registering and listing import nothing
    assert numbers.names() == ["answer"] and "answer" in numbers and numbers.target("answer") == "planted_plugin:make"
    assert "planted_plugin" not in sys.modules
    assert numbers.get("answer") == 42 and numbers.get("answer") == 42 and numbers.items() == [("answer", 42)]
    assert sys.modules["planted_plugin"].LOADS == [1] and checks == ["answer"]  # the factory ran once


def test_adding_a_name_twice_is_refused_unless_replaced():
    numbers: Registry[int] = Registry("number")
    numbers.add("one", 1)
    with pytest.raises(ValueError, match="a number named 'one' is already registered"):
        numbers.add("one", 2)
    numbers.add("one", 3, replace=True)
    assert numbers.get("one") == 3
    numbers.remove("one")
    numbers.remove("never-there")  # ignored
    assert numbers.names() == []


def test_an_unknown_name_is_one_error_listing_every_registered_name():
    numbers: Registry[int] = Registry("number", error=BackendError)
    for name, value in (("two", 2), ("one", 1), ("three", 3)):
        numbers.add(name, value)
    with pytest.raises(BackendError) as err:
        numbers.get("four")
    assert str(err.value) == "unknown number 'four'; registered numbers: one, three, two"
    with pytest.raises(BackendError) as err:
        numbers.require(["one", "four", "five"], "task 'x'")
    assert str(err.value) == "task 'x': unknown number(s) four, five; registered numbers: one, three, two"
    numbers.require(["one", "two"], "task 'x'")  # all known: nothing raised


def test_entry_points_add_plugins_after_the_built_ins_and_never_replace_one(installed):
    installed('''
        ONE = "the plugin's one"
        NINE = 9
        ZERO = 0
        ''', '''
        [polibench.numbers]
        one = planted_plugin:ONE
        zero = planted_plugin:ZERO
        nine = planted_plugin:NINE
        ''')
    assert entry_point_targets("numbers") == {"nine": "planted_plugin:NINE", "one": "planted_plugin:ONE",
                                              "zero": "planted_plugin:ZERO"}
    numbers: Registry[int] = Registry("number", group="numbers", check=_is_int, entries={"two": 2})
    numbers.add("one", 1)
    assert numbers.names() == ["two", "one", "nine", "zero"]  # built-ins as added, then plugins by name
    assert "planted_plugin" not in sys.modules  # listing imports no plugin
    assert numbers.items() == [("two", 2), ("one", 1), ("nine", 9), ("zero", 0)]  # the built-in 'one' stays


def test_builtins_declared_by_polibench_itself_come_first_and_a_missing_one_is_stale_metadata(installed, monkeypatch):
    """Built-ins that live a layer above their registry (the scorers) are polibench's own entry points: another
    distribution declaring the same name does not replace one, and a built-in the installed metadata lacks is one
    error saying to reinstall (here the planted distribution plays polibench)."""
    root = installed('''
        ONE, TWO, ZERO, OTHER_ONE = 1, 2, 0, -1
        ''', '''
        [polibench.numbers]
        two = planted_plugin:TWO
        one = planted_plugin:ONE
        ''')
    other = root / "other_plugin-0.1.dist-info"
    other.mkdir()
    (other / "METADATA").write_text("Metadata-Version: 2.1\nName: other-plugin\nVersion: 0.1\n")
    (other / "entry_points.txt").write_text("[polibench.numbers]\none = planted_plugin:OTHER_ONE\n"
                                            "zero = planted_plugin:ZERO\n")
    monkeypatch.setattr(kit_registry, "OWN_DISTRIBUTION", "planted-plugin")
    own_entry_point_targets.cache_clear()
    try:
        assert own_entry_point_targets("numbers") == {"one": "planted_plugin:ONE", "two": "planted_plugin:TWO"}
        assert entry_point_targets("numbers")["one"] == "planted_plugin:ONE"  # the own distribution wins the name
        numbers: Registry[int] = Registry("number", group="numbers", check=_is_int, builtins=("two", "one"))
        assert numbers.names() == ["one", "two", "zero"]  # built-ins (by name), then the other plugins
        assert numbers.get("one") == 1 and numbers.get("zero") == 0
        stale: Registry[int] = Registry("number", group="numbers", builtins=("one", "three"))
        with pytest.raises(PolibenchError) as err:
            stale.names()
        assert str(err.value) == ("polibench's built-in numbers are not registered (three missing from group "
                                  "polibench.numbers): reinstall polibench (pip install -e .)")
    finally:
        own_entry_point_targets.cache_clear()


def test_a_broken_plugin_is_one_error_naming_it_and_its_target(installed):
    installed('''
        TEXT = "not a number"
        def boom():
            raise RuntimeError("planted failure")
        ''', '''
        [polibench.numbers]
        gone = planted_plugin_missing:THING
        text = planted_plugin:TEXT
        typo = planted_plugin:NO_SUCH_NAME
        ''')
    numbers: Registry[int] = Registry("number", group="numbers", check=_is_int, install_hint="see the install docs")
    expected = {
        "gone": "number 'gone' (planted_plugin_missing:THING) needs a package that is not installed "
                "(planted_plugin_missing); see the install docs",
        "text": "number 'text' (planted_plugin:TEXT): is not a number (got str)",
        "typo": "number 'typo' (planted_plugin:NO_SUCH_NAME) cannot be loaded: AttributeError: module "
                "'planted_plugin' has no attribute 'NO_SUCH_NAME'",
    }
    for name, message in expected.items():
        with pytest.raises(PolibenchError) as err:
            numbers.get(name)
        assert str(err.value) == message


FAMILIES = '''
    from polibench.kit.registry import Family

    LATE = Family(name="late", order=900, metrics=(7,), scorers={"lexical-again": "planted_plugin:SEVEN"})
    EARLY = Family(name="early", order=10, metrics=(1, 2))
    SAME_ORDER_A = Family(name="a-same", order=50, metrics=(5,))
    SAME_ORDER_B = Family(name="b-same", order=50, scorers={"five": "planted_plugin:FIVE"})
    NOT_A_FAMILY = {"name": "dict"}
    SEVEN, FIVE = 7, 5
    '''


def test_families_load_sorted_by_order_then_name_and_feed_the_registries_parts(installed):
    installed(FAMILIES, '''
        [polibench.families]
        late = planted_plugin:LATE
        b-same = planted_plugin:SAME_ORDER_B
        early = planted_plugin:EARLY
        a-same = planted_plugin:SAME_ORDER_A
        [polibench.scored]
        extra = planted_plugin:SEVEN
        ''')
    planted = {"early", "a-same", "b-same", "late"}  # polibench's own families (polibench/families/) load too
    assert [f.name for f in families() if f.name in planted] == ["early", "a-same", "b-same", "late"]
    assert families() is families()  # loaded once per process
    metrics: Registry[int] = Registry("metric", part="metrics", key=lambda n: f"m{n}")
    metrics.add("m0", 0)
    planted_items = [(name, value) for name, value in metrics.items() if isinstance(value, int)]
    assert planted_items == [("m0", 0), ("m1", 1), ("m2", 2), ("m5", 5), ("m7", 7)]
    first: Registry[int] = Registry("metric", part="metrics", key=lambda n: f"m{n}", families_first=True)
    first.add("m0", 0)  # the built-ins are the families' own: an added entry (a user's, in-process) follows them
    assert [name for name, value in first.items() if isinstance(value, int)] == ["m1", "m2", "m5", "m7", "m0"]
    scorers: Registry[int] = Registry("scorer", group="scored", part="scorers")
    assert scorers.names() == ["five", "lexical-again", "extra"]  # families in their order, then the group
    assert scorers.target("five") == "planted_plugin:FIVE" and scorers.get("lexical-again") == 7


def test_a_broken_family_is_one_error_naming_it(installed):
    installed(FAMILIES, '''
        [polibench.families]
        early = planted_plugin:EARLY
        dict = planted_plugin:NOT_A_FAMILY
        ''')
    with pytest.raises(PolibenchError) as err:
        families()
    assert str(err.value) == "family 'dict' (planted_plugin:NOT_A_FAMILY) is not a polibench Family (got dict)"
    installed(FAMILIES.replace("SEVEN, FIVE = 7, 5", "raise ImportError('planted import failure')"), '''
        [polibench.families]
        early = planted_plugin:EARLY
        ''')
    sys.modules.pop("planted_plugin", None)
    with pytest.raises(PolibenchError) as err:
        families()
    assert str(err.value) == ("family 'early' (planted_plugin:EARLY) cannot be loaded: ImportError: planted import "
                              "failure")


def test_built_in_families_missing_from_the_metadata_say_to_reinstall(installed, monkeypatch):
    installed(FAMILIES, '''
        [polibench.families]
        early = planted_plugin:EARLY
        ''')
    monkeypatch.setattr(kit_registry, "BUILTIN_FAMILIES", ("early",))
    assert "early" in [f.name for f in families()]  # declared: no complaint
    families.cache_clear()
    monkeypatch.setattr(kit_registry, "BUILTIN_FAMILIES", ("early", "undeclared"))
    with pytest.raises(PolibenchError) as err:
        families()
    assert str(err.value) == ("polibench's built-in families are not registered (undeclared missing from group "
                              "polibench.families): reinstall polibench (pip install -e .)")


def test_a_family_is_a_plain_frozen_record():
    family = Family(name="toy", metrics=("m",))
    assert family.order == 1000 and family.reports == {} and family.tasks is None
    with pytest.raises(AttributeError):
        family.name = "other"  # type: ignore[misc]
