"""llama.cpp's default thread count (polibench.models.llamacpp.default_threads): every core on a quiet machine, one
on a busy one, where llama.cpp's spin-waiting threads stall each other."""

from __future__ import annotations

import os

from polibench.models.llamacpp import default_threads


def test_every_core_when_quiet_one_when_busy(monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3}, raising=False)
    assert default_threads(load=0.3) == 4 and default_threads(load=3.9) == 4
    assert default_threads(load=4.0) == 1 and default_threads(load=22.0) == 1
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)
    assert default_threads(load=22.0) == 1  # one core: one thread either way
    monkeypatch.setattr(os, "getloadavg", lambda: (9.0, 1.0, 1.0))
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    assert default_threads() == 1  # the last minute's load when none is given
