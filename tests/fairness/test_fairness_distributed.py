"""`polibench fairness train` under torchrun with two CPU processes (gloo): the same code path as several
GPUs. Only rank 0 writes, and the predictions cover every test item exactly once."""

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from fairness_helpers import YODER_IDENTITY
from tiny_models import tiny_nli_model

from polibench.cli.main import main

pytest.importorskip("torch")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_two_process_torchrun_writes_one_complete_run(tmp_path):
    data_dir = tmp_path / "data"
    assert main(["fairness", "data", "--task", "hate-identity", "--path", str(YODER_IDENTITY), "--data-dir",
                 str(data_dir), "--no-progress"]) == 0
    model = tiny_nli_model(tmp_path / "tiny-bert")
    env = {**os.environ, "OMP_NUM_THREADS": "1", "HF_HUB_OFFLINE": "1", "POLIBENCH_CACHE": str(tmp_path / "cache"),
           "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    proc = subprocess.run(
        [sys.executable, "-m", "torch.distributed.run", "--nproc_per_node", "2", "--master_addr", "127.0.0.1",
         "--master_port", str(free_port()), "-m", "polibench", "fairness", "train", "--model", str(model),
         "--model-id", "tiny", "--task", "hate-identity", "--seeds", "3", "--epochs", "1", "--batch-size", "4",
         "--max-length", "16", "--data-dir", str(data_dir), "--output", str(tmp_path / "runs"),
         "--no-progress"],
        capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    seed = tmp_path / "runs" / "tiny" / "hate-identity" / "seed-3"
    record = json.loads((seed / "run.json").read_text())
    assert record["world_size"] == 2
    ids = [json.loads(line)["id"] for line in (seed / "predictions.jsonl").read_text().splitlines()]
    assert len(ids) == record["data"]["n_test"] == len(set(ids))  # gathered from both ranks, no duplicates
    assert proc.stdout.count("wrote ") == 1  # only rank 0 reports
    assert sorted(p.name for p in (tmp_path / "runs" / "tiny" / "hate-identity").iterdir()) == ["seed-3"]
