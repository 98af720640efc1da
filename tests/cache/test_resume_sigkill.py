"""Kill a real ``polibench run`` with SIGKILL midway, run the same command again, compare with a clean run."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("openai")

sys.path.insert(0, str(Path(__file__).parent.parent))
from fault_server import FaultServer  # noqa: E402

N_REQUESTS = 36  # 12 PCT items x 1 variant x 3 samples


def command(base_url: str) -> list[str]:
    return [sys.executable, "-m", "polibench", "run", "--model", "fake", "--base-url", base_url, "--tasks", "pct",
            "--limit", "12", "--samples", "3", "--seed", "9", "--scorer", "lexical", "--concurrency", "2",
            "--output", "out", "--no-progress"]


def env_for(folder: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    env.update(POLIBENCH_CACHE=str(folder / "cache"), OPENAI_API_KEY="sk-local", OMP_NUM_THREADS="1")
    return env


def cached_rows(db: Path) -> int:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1) as conn:
            return conn.execute("SELECT COUNT(*) FROM responses").fetchone()[0]
    except sqlite3.Error:
        return 0


def without_date(path: Path) -> dict:
    document = json.loads(path.read_text())
    document.pop("date")
    return document


def test_sigkill_midway_then_resume_equals_an_uninterrupted_run(tmp_path):
    clean, killed = tmp_path / "clean", tmp_path / "killed"
    clean.mkdir()
    killed.mkdir()
    with FaultServer(seed=3, latency=0.08) as server:
        subprocess.run(command(server.base_url), cwd=clean, env=env_for(clean), check=True, capture_output=True,
                       timeout=120)
        assert server.stats()["attempts"] == N_REQUESTS

        proc = subprocess.Popen(command(server.base_url), cwd=killed, env=env_for(killed),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        db = killed / "cache" / "responses.sqlite"
        deadline = time.monotonic() + 90
        while cached_rows(db) < 10 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        assert proc.returncode == -signal.SIGKILL
        persisted = cached_rows(db)
        assert 10 <= persisted < N_REQUESTS, persisted
        assert not (killed / "out" / "results.json").exists()  # nothing half-published

        before = server.stats()["attempts"]
        subprocess.run(command(server.base_url), cwd=killed, env=env_for(killed), check=True, capture_output=True,
                       timeout=120)
        resumed_calls = server.stats()["attempts"] - before
    assert resumed_calls == N_REQUESTS - persisted  # nothing persisted was asked again
    assert cached_rows(db) == N_REQUESTS
    clean_lines = (clean / "out" / "samples.jsonl").read_text().splitlines()
    resumed_lines = (killed / "out" / "samples.jsonl").read_text().splitlines()
    assert resumed_lines == clean_lines and len(clean_lines) == N_REQUESTS
    assert without_date(killed / "out" / "results.json") == without_date(clean / "out" / "results.json")
