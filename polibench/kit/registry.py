"""One registry type for every kind of thing polibench finds by name: metrics, run-level metrics, backends,
scorers, task folders (and, as issue 40 goes on, readings, reports and boards).

:class:`Registry` holds the objects of one kind by name, in the manner of lm-eval's ``api/registry.py`` and
Inspect's entry points. An entry is the object itself or a ``"module:object"`` string imported on first use (so
that ``polibench list`` does not pay for torch or vLLM); installed packages add theirs through the entry-point
group ``polibench.<group>`` and through the parts of their :class:`Family`; a plugin never replaces a built-in of
the same name. An unknown name is one error, with one wording for every kind:
``unknown <kind> 'x'; registered <kind>s: a, b, c``.

:class:`Family` is one measurement family as its entry point (group ``polibench.families``) names it;
:func:`families` loads every installed one, once per process. :func:`entry_point_targets` reads a group's
``{name: "module:object"}`` without importing anything.

The module sits in the kit, below every layer: it imports only :mod:`polibench.errors` and the standard library.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from functools import cache
from importlib.metadata import entry_points
from operator import attrgetter
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable, Generic, Mapping, Optional, Sequence, TypeVar, Union, cast

from polibench.errors import PolibenchError

T = TypeVar("T")

# The entry-point group of families: ``polibench.families``.
FAMILIES_GROUP = "families"
# The names of polibench's own families (polibench/families/), declared in its setup.cfg; when one of them is not
# found, the installed metadata is older than the source.
BUILTIN_FAMILIES: tuple[str, ...] = ("pct", "faulborn", "coverage", "prismia", "even_handedness", "generation_bias",
                                     "issue_bias", "logprob", "refusal", "channels", "languages", "answering")
STALE_METADATA = "reinstall polibench (pip install -e .)"


def group_name(group: str) -> str:
    """``"polibench.<group>"``: the entry-point group of ``group`` ("metrics", "backends", "families", ...)."""
    return f"polibench.{group}"


# The distribution whose entry points are the built-ins (polibench's own families and scorers, in its setup.cfg).
OWN_DISTRIBUTION = "polibench"


def _is_own(ep: Any) -> bool:
    dist = getattr(ep, "dist", None)
    return dist is not None and (dist.metadata["Name"] or "").lower() == OWN_DISTRIBUTION


@cache
def entry_point_targets(group: str) -> dict[str, str]:
    """``{name: "module:object"}`` of the entry points of group ``polibench.<group>`` of every installed
    distribution, sorted by name (polibench's own wins a name two distributions declare); nothing is imported.
    Read once per process."""
    found: dict[str, str] = {}
    for ep in sorted(entry_points(group=group_name(group)), key=_is_own):  # polibench's own last: it wins
        found[ep.name] = ep.value
    return {name: found[name] for name in sorted(found)}


@cache
def own_entry_point_targets(group: str) -> dict[str, str]:
    """The entries of group ``polibench.<group>`` that polibench itself declares (its setup.cfg): the built-ins of
    a registry whose built-ins live a layer above it (the scorers), sorted by name; nothing is imported."""
    found = {ep.name: ep.value for ep in entry_points(group=group_name(group)) if _is_own(ep)}
    return {name: found[name] for name in sorted(found)}


class LoadError(Exception):
    """Why a ``"module:object"`` target could not be imported (the message says it; the registry names the entry)."""


class PackageMissing(LoadError):
    """A ``"module:object"`` target needs a package that is not installed (an optional extra, e.g. vLLM)."""


def load_target(target: str) -> Any:
    """The object a ``"module:object"`` (or ``"module:object.attribute"``, or ``"module"``) string names,
    imported now; a failure is a :class:`LoadError` saying why."""
    module_name, _, attribute = target.partition(":")
    try:
        found: Any = importlib.import_module(module_name.strip())
        for part in filter(None, attribute.strip().split(".")):
            found = getattr(found, part)
    except ModuleNotFoundError as exc:
        raise PackageMissing(f"needs a package that is not installed ({exc.name})") from exc
    except Exception as exc:  # a broken plugin: say what, instead of a traceback from deep inside polibench
        raise LoadError(f"cannot be loaded: {type(exc).__name__}: {exc}") from exc
    return found


class Registry(Generic[T]):
    """Objects of one kind by name. An entry is the object itself or a ``"module:object"`` string imported on first
    use; installed packages add theirs through entry points; a plugin never replaces a built-in of the same name.

    ``kind``: the word every message uses ("metric", "backend", "scorer", "run-level metric", "task folder").
    ``group``: entry points of ``polibench.<group>`` add entries (name -> "module:object", nothing imported).
    ``part``: each installed family's :class:`Family` attribute of that name adds its entries (a tuple of objects,
    named by ``key``, or a mapping of names to objects or ``"module:object"`` strings).
    ``check(name, obj) -> T``: what a name resolves to is checked (isinstance, or a factory called); a
    ``TypeError`` or ``ValueError`` it raises becomes ``error``, naming the entry and its target.
    ``key``: the name of an object given without one. ``error``: the class of every message.
    ``install_hint``: added to the message of a target whose package is not installed.
    ``entries``: added now, in their order (the built-ins, as :meth:`add` would add them).
    ``families_first``: the built-ins are the families' own (metrics): the families' entries come first.
    ``builtins``: the names polibench's own distribution declares in ``group`` (built-ins that live a layer above
    the registry, e.g. the scorers): they come right after the added entries, no family or plugin replaces them,
    and one missing from the installed metadata is one error saying to reinstall polibench.

    Order (:meth:`names`): the entries added with :meth:`add` (the built-ins, in the order they were added), then
    the ``builtins`` declared in ``group`` (by name), then those of the families (in their order), then the other
    plugins (by name); with ``families_first``, the families' entries, then the added ones, then the other plugins.
    """

    def __init__(self, kind: str, *, group: Optional[str] = None, part: Optional[str] = None,
                 check: Optional[Callable[[str, Any], T]] = None, key: Callable[[T], str] = attrgetter("name"),
                 error: type[PolibenchError] = PolibenchError, install_hint: str = "",
                 entries: Mapping[str, Union[T, str]] = MappingProxyType({}), families_first: bool = False,
                 builtins: Sequence[str] = ()) -> None:
        self.kind, self.group, self.part = kind, group, part
        self.builtins = tuple(builtins)
        self.check, self.key, self.error, self.install_hint = check, key, error, install_hint
        self.families_first = families_first
        self._own: dict[str, Union[T, str]] = {}
        self._found: Optional[dict[str, Union[T, str]]] = None
        self._from_families: set[str] = set()
        self._resolved: dict[str, T] = {}
        for name, target in entries.items():
            self.add(name, target)

    def __repr__(self) -> str:
        return f"Registry({self.kind!r}, {len(self._own)} added)"

    # -- adding and removing ------------------------------------------------------------------------------------

    def add(self, name: str, target: Union[T, str], *, replace: bool = False) -> None:
        """Register ``target`` (an object, or a ``"module:object"`` imported when first asked for) under ``name``.
        A name added twice is a ``ValueError`` unless ``replace``; an object is checked now (the check's own
        ``TypeError``/``ValueError`` is raised as it is: this is a programmer's call, not a user's input)."""
        if (name in self._own or name in (self._found or {})) and not replace:
            raise ValueError(f"a {self.kind} named '{name}' is already registered")
        self._resolved.pop(name, None)
        if not isinstance(target, str) and self.check is not None:
            checked = self.check(name, target)
            self._own[name] = checked
            self._resolved[name] = checked
        else:
            self._own[name] = target
            if not isinstance(target, str):
                self._resolved[name] = target

    def register(self, name: str, target: T, replace: bool = False) -> T:
        """:meth:`add` the object ``target`` under ``name`` and return it: what the layers' ``register_<kind>``
        functions are (``register_board = BOARDS.register``)."""
        self.add(name, target, replace=replace)
        return target

    def register_own(self, target: T, replace: bool = False) -> T:
        """:meth:`register` ``target`` under its own name (``key``), every other name known first (the families'
        too: a clash with one of theirs is an error now, not a shadowed entry later)."""
        self.names()
        return self.register(self.key(target), target, replace=replace)

    def remove(self, name: str) -> None:
        """Forget ``name`` (added or found; a name that is not registered is ignored)."""
        self._own.pop(name, None)
        self._resolved.pop(name, None)
        if self._found is not None:
            self._found.pop(name, None)

    # -- looking up ---------------------------------------------------------------------------------------------

    def _entries(self) -> dict[str, Union[T, str]]:
        """The entries in :meth:`names` order: added ones, the families' and the entry points' that no added entry
        shadows (an added entry wins a name; so does a family over an entry point)."""
        if self._found is None:
            found: dict[str, Union[T, str]] = {}
            if self.builtins:
                own = own_entry_point_targets(self.group or "")
                missing = [name for name in self.builtins if name not in own]
                if missing:
                    raise PolibenchError(f"polibench's built-in {self.kind}s are not registered ({', '.join(missing)} "
                                         f"missing from group {group_name(self.group or '')}): {STALE_METADATA}")
                found.update(own)
            if self.part is not None:
                for family in families():
                    entries = getattr(family, self.part)
                    pairs = entries.items() if isinstance(entries, Mapping) else ((self.key(e), e) for e in entries)
                    for name, target in pairs:
                        found.setdefault(name, target)
            self._from_families = set(found) - set(self.builtins)
            if self.group is not None:
                for name, target in entry_point_targets(self.group).items():
                    found.setdefault(name, target)
            self._found = found
        others = {n: t for n, t in self._found.items() if n not in self._own}
        if not self.families_first:
            return {**self._own, **others}
        return {**{n: t for n, t in others.items() if n in self._from_families}, **self._own,
                **{n: t for n, t in others.items() if n not in self._from_families}}

    def names(self) -> list[str]:
        """Every name: added, then the families' (in their order), then other plugins' (by name). Imports no
        ``"module:object"`` target (the families themselves are loaded, once per process)."""
        return list(self._entries())

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in self._entries()

    def unknown(self, name: str) -> PolibenchError:
        """The one error for a name nobody registered: ``unknown <kind> 'x'; registered <kind>s: a, b``."""
        return self.error(f"unknown {self.kind} '{name}'; registered {self.kind}s: {', '.join(sorted(self.names()))}")

    def target(self, name: str) -> Union[T, str]:
        """The entry as registered, unresolved (``"module:Class"`` for a lazy one): what ``polibench list`` shows."""
        entries = self._entries()
        if name not in entries:
            raise self.unknown(name)
        return entries[name]

    def get(self, name: str) -> T:
        """The object ``name`` resolves to, imported and checked once; an unknown name is one error (:meth:`unknown`)
        and so is a target that cannot be imported or fails the check (naming the entry and its target)."""
        if name in self._resolved:
            return self._resolved[name]
        target = self.target(name)
        found: Any = target
        if isinstance(target, str):
            try:
                found = load_target(target)
            except LoadError as exc:
                hint = f"; {self.install_hint}" if self.install_hint and isinstance(exc, PackageMissing) else ""
                raise self.error(f"{self.kind} '{name}' ({target}) {exc}{hint}") from None
        if self.check is not None:
            try:
                found = self.check(name, found)
            except (TypeError, ValueError) as exc:
                where = f" ({target})" if isinstance(target, str) else ""
                raise self.error(f"{self.kind} '{name}'{where}: {exc}") from None
        self._resolved[name] = cast(T, found)
        return self._resolved[name]

    def require(self, names: Sequence[str], where: str) -> None:
        """One error listing every unknown name of ``names``:
        ``<where>: unknown <kind>(s) a, b; registered <kind>s: ...`` (run before any work is spent)."""
        unknown = [name for name in names if name not in self]
        if unknown:
            raise self.error(f"{where}: unknown {self.kind}(s) {', '.join(unknown)}; registered {self.kind}s: "
                             f"{', '.join(sorted(self.names()))}")

    def items(self) -> list[tuple[str, T]]:
        """Every entry resolved, in :meth:`names` order."""
        return [(name, self.get(name)) for name in self.names()]

    def resolved(self) -> list[tuple[str, T]]:
        """The entries resolved so far or given as objects (added, or the families' once loaded), in :meth:`names`
        order; imports nothing and loads no family. For a check that compares a new entry with the others (e.g. a
        metric's results key)."""
        entries = {**(self._found or {}), **self._own}
        order = list(self._entries()) if self._found is not None else list(self._own)
        return [(name, self._resolved.get(name, cast(T, entries[name]))) for name in order
                if name in self._resolved or not isinstance(entries[name], str)]


def subclass_of(base: type) -> Callable[[str, Any], Any]:
    """A :class:`Registry` check for registries of classes (backends, scorers): the entry is a subclass of ``base``
    (typed loosely: ``base`` is usually abstract, which ``type[T]`` would refuse)."""

    def check(name: str, found: Any) -> Any:
        if not (isinstance(found, type) and issubclass(found, base)):
            raise TypeError(f"is not a {base.__name__} subclass (got {found!r})")
        return found

    return check


@dataclass(frozen=True)
class Family:
    """One measurement family as its entry point (group ``polibench.families``, ``"package.module:FAMILY"``) names
    it: what it computes, what its scorers write, how report.md and the leaderboard show it. A built-in family
    (polibench/families/<name>/__init__.py) and a plugin package's are the same object."""

    name: str
    order: int = 1000                       # built-ins 10, 20, ... (their registration order); plugins after
    metrics: tuple[Any, ...] = ()           # polibench.metrics.registry.Metric
    run_metrics: tuple[Any, ...] = ()       # polibench.metrics.run_level.RunMetric
    readings: tuple[Any, ...] = ()          # what a plugin's own scorer writes into each sample
    scorers: Mapping[str, str] = field(default_factory=dict)       # name -> "module:Class" (a plugin's own scorer)
    reports: Mapping[str, Any] = field(default_factory=dict)       # metric name -> how report.md shows it
    run_reports: Mapping[str, Any] = field(default_factory=dict)   # run-level metric name -> the same
    boards: Mapping[str, Any] = field(default_factory=dict)        # metric name -> its leaderboard board
    run_boards: Mapping[str, Any] = field(default_factory=dict)    # run-level metric name -> its board
    tasks: Optional[Path] = None            # a folder of task YAML files


@cache
def families() -> tuple[Family, ...]:
    """Every installed family (entry-point group ``polibench.families``), loaded once per process, sorted by
    (order, name). One :class:`~polibench.errors.PolibenchError` naming a family that fails to import or is not a
    :class:`Family`; and, when a built-in family is not declared, one saying that polibench's installed metadata is
    stale (polibench run from a source tree newer than its ``pip install -e .``)."""
    declared = entry_point_targets(FAMILIES_GROUP)
    missing = [name for name in BUILTIN_FAMILIES if name not in declared]
    if missing:
        raise PolibenchError(f"polibench's built-in families are not registered ({', '.join(missing)} missing "
                             f"from group {group_name(FAMILIES_GROUP)}): {STALE_METADATA}")
    found = []
    for name, target in declared.items():
        try:
            family = load_target(target)
        except LoadError as exc:
            raise PolibenchError(f"family '{name}' ({target}) {exc}") from None
        if not isinstance(family, Family):
            raise PolibenchError(f"family '{name}' ({target}) is not a polibench Family (got {type(family).__name__})")
        found.append(family)
    return tuple(sorted(found, key=lambda f: (f.order, f.name)))
