"""The ``openai`` backend against a real HTTP server on loopback that injects faults in a seeded pattern."""

from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("openai")

sys.path.insert(0, str(Path(__file__).parent.parent))
from fault_server import KINDS, FaultServer, reply_text, request_key  # noqa: E402

from polibench.cli.main import main  # noqa: E402
from polibench.models.retry import RetryPolicy, parse_retry_after  # noqa: E402
from polibench.results.files import read_samples  # noqa: E402

SECRET = "sk-polibench-test-SECRET-4242"


@pytest.fixture(autouse=True)
def _env(tmp_path, monkeypatch):
    monkeypatch.setenv("POLIBENCH_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY",
                 "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)


def run(server_url: str, out: Path, *extra: str, model_args: str = "") -> int:
    args = ["run", "--model", "fake", "--base-url", server_url, "--tasks", "pct", "--limit", "8", "--samples", "3",
            "--scorer", "lexical", "--output", str(out), "--no-progress", "--seed", "5"]
    if model_args:
        args += ["--model-args", model_args]
    return main(args + list(extra))


def server_key(sample) -> str:
    return request_key({"model": "fake", "messages": [m.model_dump() for m in sample.messages], "seed": sample.seed})


def all_files_text(root: Path) -> str:
    return "\n".join(p.read_bytes().decode("utf-8", "replace") for p in root.rglob("*") if p.is_file())


def test_faults_are_survived_each_response_once_within_the_concurrency_bound(tmp_path, capsys):
    # The timeout leaves room for a busy CI machine; hangs last until the client gives up.
    fast = "concurrency=3,timeout=1.5,backoff_base=0.05,backoff_max=0.3,max_retries=10"
    with FaultServer(seed=11, fault_rate=0.7, max_faults=3, hang_seconds=5.0, expected_key=SECRET) as server:
        assert run(server.base_url, tmp_path / "out", model_args=fast) == 0
        stats = server.stats()
        replies = dict(server.state.replies)
    samples = read_samples(tmp_path / "out" / "samples.jsonl")
    assert len(samples) == 24 and len({s.key for s in samples}) == 24
    # Every kind of fault was injected, and every request still got exactly one successful answer.
    assert set(stats["injected"]) == set(KINDS), stats["injected"]
    assert stats["successes"] == 24 and stats["duplicated_successes"] == 0
    assert stats["attempts"] == 24 + sum(stats["injected"].values())
    for s in samples:
        assert s.response == replies[server_key(s)]
        assert s.usage.completion_tokens == len(s.response.split())
    assert stats["max_in_flight"] <= 3
    assert stats["min_wait_after_429"] >= 1.0  # Retry-After: 1 was honoured
    assert stats["auth_ok"] == stats["attempts"] and stats["auth_bad"] == 0
    # The API key reached the server but no file, cache or message.
    captured = capsys.readouterr()
    assert SECRET not in all_files_text(tmp_path) and SECRET not in captured.out + captured.err
    print(json.dumps({"fault_test": stats}))  # quoted in the report (pytest -s)


def test_rerun_makes_zero_calls_and_no_cache_makes_them_again(tmp_path):
    with FaultServer(seed=1) as server:
        assert run(server.base_url, tmp_path / "a", "--limit", "2") == 0
        first = server.stats()["attempts"]
        assert run(server.base_url, tmp_path / "b", "--limit", "2") == 0
        assert server.stats()["attempts"] == first == 6
        assert run(server.base_url, tmp_path / "c", "--limit", "2", "--no-cache") == 0
        assert server.stats()["attempts"] == 12
    a = json.loads((tmp_path / "a" / "results.json").read_text())
    b = json.loads((tmp_path / "b" / "results.json").read_text())
    assert a["results"] == b["results"]


def test_completions_endpoint_sends_plain_text_and_seed(tmp_path):
    with FaultServer(seed=2) as server:
        assert run(server.base_url, tmp_path / "o", "--limit", "1", "--samples", "2",
                   model_args="endpoint=completions") == 0
        replies = dict(server.state.replies)
    samples = read_samples(tmp_path / "o" / "samples.jsonl")
    for s in samples:
        key = request_key({"model": "fake", "prompt": s.prompt, "seed": s.seed})
        assert s.response == replies[key]


def test_gives_up_after_max_retries_with_one_message(tmp_path, capsys):
    with FaultServer(seed=0, fault_rate=1.0, max_faults=50, kinds=("503",)) as server:
        code = run(server.base_url, tmp_path / "o", "--limit", "1", "--samples", "1",
                   model_args="max_retries=2,backoff_base=0.01")
        assert server.stats()["attempts"] == 3
    err = capsys.readouterr().err
    assert code == 2
    assert "gave up after 3 attempts" in err and "HTTP 503" in err and "Traceback" not in err
    assert not (tmp_path / "o" / "results.json").exists()


def test_wrong_api_key_is_one_message_without_the_key(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-wrong-SECRET-999")
    with FaultServer(expected_key="sk-right") as server:
        code = run(server.base_url, tmp_path / "o", "--limit", "1")
        stats = server.stats()
    err = capsys.readouterr().err
    assert code == 2 and "HTTP 401" in err
    assert "sk-wrong-SECRET-999" not in err and err.count("\n") <= 3
    # The preflight's one free request (GET /models) found the bad key: no completion was requested, nothing
    # was written, and the message says so.
    assert stats["auth_bad"] == 1 and stats["attempts"] == 0 and stats["model_lists"] == 0
    assert "before any prompt was sent" in err and "Traceback" not in err
    assert not (tmp_path / "o").exists()


def test_preflight_lists_models_once_and_warns_about_an_unlisted_model(tmp_path, capsys):
    with FaultServer(seed=3, expected_key=SECRET) as server:
        assert run(server.base_url, tmp_path / "a", "--limit", "1", "--samples", "1") == 0
        assert server.stats()["model_lists"] == 1
        assert "does not list model" not in capsys.readouterr().err
        args = ["run", "--model", "other", "--base-url", server.base_url, "--tasks", "pct", "--limit", "1",
                "--samples", "1", "--scorer", "lexical", "--output", str(tmp_path / "b"), "--no-progress"]
        assert main(args) == 0  # a proxy may serve more than it lists: a warning, not an error
        assert "does not list model 'other' (it lists fake)" in capsys.readouterr().err
        assert server.stats()["model_lists"] == 2


def test_preflight_fails_on_a_bad_scorer_before_the_server_sees_a_request(tmp_path, capsys):
    with FaultServer(expected_key=SECRET) as server:
        code = main(["run", "--model", "fake", "--base-url", server.base_url, "--tasks", "pct", "--limit", "1",
                     "--scorer", "nli", "--scorer-args", f"model={tmp_path / 'nowhere'}",
                     "--output", str(tmp_path / "o"), "--no-progress"])
        stats = server.stats()
    err = capsys.readouterr().err
    assert code == 2 and "stance scorer 'nli'" in err and "no such checkpoint folder" in err
    assert stats["attempts"] == 0 and stats["model_lists"] == 0 and stats["auth_bad"] == 0
    assert not (tmp_path / "o").exists()


def test_missing_key_unreachable_url_bad_args_unknown_backend_exit_2(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY")
    assert main(["run", "--backend", "openai", "--model", "gpt-4o-mini", "--tasks", "pct", "--limit", "1",
                 "--scorer", "lexical", "--output", str(tmp_path / "o")]) == 2
    assert "OPENAI_API_KEY" in capsys.readouterr().err

    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    started = time.monotonic()
    assert run(f"http://127.0.0.1:{port}/v1", tmp_path / "o", "--limit", "1") == 2
    assert time.monotonic() - started < 10
    assert "cannot reach http://127.0.0.1" in capsys.readouterr().err

    for bad in ("concurrency=0", "endpoint=embeddings", "no_such_option=1", "api_key=sk-x", "batch_retry=maybe",
                "price_input=cheap"):
        assert run("http://127.0.0.1:9/v1", tmp_path / "o", model_args=bad) == 2
        err = capsys.readouterr().err
        assert err.count("polibench: error:") == 1 and "Traceback" not in err, bad
    assert main(["run", "--backend", "nope", "--model", "x", "--tasks", "pct"]) == 2
    assert "unknown backend 'nope'" in capsys.readouterr().err
    assert main(["run", "--backend", "hf", "--base-url", "http://127.0.0.1:9/v1", "--tasks", "pct"]) == 2


def test_retry_after_parsing_and_backoff():
    assert parse_retry_after({"retry-after": "3"}) == 3.0
    assert parse_retry_after({"retry-after-ms": "250", "retry-after": "9"}) == 0.25
    assert parse_retry_after({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}) == 0.0  # a date in the past
    assert parse_retry_after({"retry-after": "soon"}) is None and parse_retry_after(None) is None
    policy = RetryPolicy(base_delay=1.0, max_delay=8.0)
    rng = random.Random(0)
    delays = [policy.delay(a, None, rng) for a in range(6)]
    for attempt, d in enumerate(delays):
        cap = min(8.0, 2.0 ** attempt)
        assert cap / 2 <= d <= cap
    assert 5.0 <= policy.delay(0, 5.0, rng) <= 5.5  # Retry-After wins over a short backoff


def test_several_servers_one_dies_each_response_once_and_results_equal_one_server(tmp_path, capsys):
    """Three loopback servers of one model: one fails now and then, one dies mid-run. Every response arrives once
    (over all servers), equal to the one-server run's; the load is spread; the cache identity does not name the
    servers, so a rerun on other servers of the model sends nothing."""
    fast = "concurrency=4,timeout=2,backoff_base=0.05,backoff_max=0.2,max_retries=10"
    with FaultServer(seed=4) as single:
        assert run(single.base_url, tmp_path / "one", "--no-cache", model_args=fast) == 0
    with FaultServer(seed=4, latency=0.01) as a, FaultServer(seed=4, latency=0.01, die_after=5) as dying, \
            FaultServer(seed=4, latency=0.01, fault_rate=0.3, kinds=("503", "drop")) as flaky:
        urls = ",".join(s.base_url for s in (a, dying, flaky))
        assert run(urls, tmp_path / "many", model_args=fast) == 0
        err = capsys.readouterr().err
        successes = a.state.successes + dying.state.successes + flaky.state.successes
        sent = [s.stats()["attempts"] for s in (a, dying, flaky)]
        assert dying.state.dead and sum(dying.state.successes.values()) == 5
        # the other servers of the model, in another order: every response comes from the cache
        before = a.stats()["attempts"] + flaky.stats()["attempts"]
        assert run(f"{flaky.base_url}|{a.base_url}", tmp_path / "again", model_args=fast) == 0
        assert a.stats()["attempts"] + flaky.stats()["attempts"] == before
    one, many = read_samples(tmp_path / "one" / "samples.jsonl"), read_samples(tmp_path / "many" / "samples.jsonl")
    assert len(many) == 24 and sorted(successes.values()) == [1] * 24, successes
    assert {s.key: s.response for s in one} == {s.key: s.response for s in many}
    assert min(sent) >= 4 and sum(sent) >= 24, (sent, err)  # the load was spread over all three
    assert "requests per server" in err and "out of rotation" in err, err
    results = [json.loads((tmp_path / d / "results.json").read_text())["results"] for d in ("one", "many", "again")]
    assert results[0] == results[1] == results[2]


BATCH = "batch=true,poll_interval=0.05,backoff_base=0.05"
PRICES = "price_input=2.5,price_output=10,batch_price_input=1.25,batch_price_output=5"


def test_batch_killed_mid_poll_resumes_the_same_batch_and_retries_failures_in_one_new_batch(tmp_path, capsys):
    """The client is killed (SIGKILL) while it polls; the rerun resumes that batch instead of paying again, retries
    its failed requests in one new batch, and every response arrives once, as a live run gives it."""
    from batch_server import BatchServer

    args = f"{BATCH},batch_retry=batch,{PRICES}"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    with BatchServer(delay=1.5, fail_rate=0.3, seed=1) as server:
        command = [sys.executable, "-m", "polibench", "run", "--model", "fake", "--base-url", server.base_url,
                   "--tasks", "pct", "--limit", "8", "--samples", "3", "--scorer", "lexical", "--seed", "5",
                   "--output", str(tmp_path / "killed"), "--no-progress", "--model-args", args]
        log = (tmp_path / "killed.log").open("w")
        proc = subprocess.Popen(command, env=env, stdout=log, stderr=log)
        deadline = time.monotonic() + 60
        while server.stats()["polls"] < 2 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        proc.kill()
        proc.wait()
        log.close()
        assert server.stats()["batches"] == 1 and server.stats()["answered"] == 0  # killed mid-poll
        assert run(server.base_url, tmp_path / "resumed", model_args=args) == 0
        err = capsys.readouterr().err
        stats, replies = server.stats(), dict(server.state.replies)
        assert run(server.base_url, tmp_path / "again", model_args=args) == 0  # all cached: no batch
        assert server.stats()["batches"] == 2
    assert "resuming batch batch_1" in err and "in_progress" in err
    failed = stats["batch_sizes"][1]
    assert stats["batch_sizes"][0] == 24 and 0 < failed < 24, stats  # one paid batch, then only its failures
    assert f"{failed} requests failed" in err and "batch_retry=batch" in err
    assert stats["answered"] == 24 and stats["answered_twice"] == 0 and stats["live"] == 0
    samples = read_samples(tmp_path / "resumed" / "samples.jsonl")
    # each response is the one the live fault server gives the same request (its reply depends on the body only)
    assert all(s.response == replies[server_key(s)] == reply_text(server_key(s)) for s in samples)
    tokens_in = sum(s.usage.prompt_tokens for s in samples)
    tokens_out = sum(s.usage.completion_tokens for s in samples)
    batch_cost, live_cost = (tokens_in * 1.25 + tokens_out * 5) / 1e6, (tokens_in * 2.5 + tokens_out * 10) / 1e6
    assert (f"{tokens_in} input + {tokens_out} output tokens; ${batch_cost:.6f} at the given batch prices; "
            f"${live_cost:.6f} at the given live prices; saved ${live_cost - batch_cost:.6f}") in err


def test_batch_killed_while_submitting_then_failures_stop_with_a_message_then_go_live(tmp_path, capsys,
                                                                                      monkeypatch):
    """Killed between the server creating the batch and the client hearing of it: the rerun finds that batch by
    its submission id instead of paying again. Its failures stop the run (no terminal to ask), then go live."""
    import openai.resources.batches as batches
    from batch_server import BatchServer

    create = batches.Batches.create

    def create_then_die(self, *args, **kwargs):
        create(self, *args, **kwargs)
        raise KeyboardInterrupt

    with BatchServer(delay=0.2, fail_rate=0.3, seed=1) as server:
        with monkeypatch.context() as patch:
            patch.setattr(batches.Batches, "create", create_then_die)
            assert run(server.base_url, tmp_path / "k", model_args=BATCH) != 0
        assert server.stats()["batches"] == 1 and server.stats()["polls"] == 0
        assert run(server.base_url, tmp_path / "a", model_args=BATCH) == 2  # batch_retry=ask, no terminal
        err = capsys.readouterr().err
        assert "resuming batch batch_1" in err and server.stats()["batches"] == 1
        assert "requests failed" in err and "batch_retry=live" in err and "Traceback" not in err
        assert not (tmp_path / "a").exists()
        assert run(server.base_url, tmp_path / "b", model_args=f"{BATCH},batch_retry=live") == 0
        stats = server.stats()
    assert "retrying them live (batch_retry=live)" in capsys.readouterr().err
    assert stats["batches"] == 1 and stats["answered"] + stats["live"] == 24 and stats["answered_twice"] == 0
    assert 0 < stats["live"] < 24 and len(read_samples(tmp_path / "b" / "samples.jsonl")) == 24


def test_server_pool_picks_the_least_loaded_and_backs_off_a_failing_server_exponentially(monkeypatch):
    from polibench.models import server_pool
    from polibench.models.server_pool import Server, ServerPool

    now = [100.0]
    monkeypatch.setattr(server_pool.time, "monotonic", lambda: now[0])
    servers = [Server("a", "a"), Server("b", "b"), Server("c", "c")]
    pool = ServerPool(servers, RetryPolicy(base_delay=1.0, max_delay=8.0))
    picked = []
    for _ in range(4):
        server = pool.pick(now[0])
        server.in_flight += 1
        server.sent += 1
        picked.append(server.url)
    assert picked == ["a", "b", "c", "a"]  # fewest in flight, then fewest sent, then the order given
    b = pool.servers[1]
    downtimes = []
    for _ in range(5):  # b keeps failing: out of rotation for 1, 2, 4, 8, 8 s (half of each random)
        b.in_flight = 1
        pool.release(b, ok=False)
        downtimes.append(b.down_until - now[0])
        assert pool.pick(now[0]) is not b and not b.available(now[0])
        now[0] = b.down_until
    for attempt, down in enumerate(downtimes):
        cap = min(8.0, 2.0 ** attempt)
        assert cap / 2 <= down <= cap, downtimes
    # back after its backoff, on probation: one request at a time until one succeeds
    assert b.available(now[0])
    b.in_flight = 1
    assert not b.available(now[0])
    pool.release(b, ok=True)
    b.in_flight = 5
    assert b.available(now[0]) and b.failures == 0
