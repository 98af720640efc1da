"""``polibench run``: evaluate a model on tasks and write a run folder."""

from __future__ import annotations

import argparse
import datetime as _dt
import re
import sys
from pathlib import Path
from typing import Optional

from polibench.cli.args import add_min_coverage_flag, parse_kv, parse_task_names, probability
from polibench.cli.flags import accept_lm_eval_spellings, keep_old_spellings
from polibench.taskspec import DEFAULT_TASKS

# lm-eval's --model names a model class; polibench's --backend is that
# (docs/running.md, "Coming from lm-evaluation-harness").
# Given to polibench's --model, each gets one line naming the polibench spelling.
LM_EVAL_MODEL_TYPES = {
    "hf": "hf", "hf-auto": "hf", "huggingface": "hf", "vllm": "vllm", "gguf": "llamacpp", "ggml": "llamacpp",
    "llamacpp": "llamacpp", "openai": "openai", "openai-completions": "openai", "openai-chat-completions": "openai",
    "local-completions": "openai", "local-chat-completions": "openai", "mlm": "mlm", "lm-eval": "lm-eval",
}


def add_parser(sub) -> None:
    p = sub.add_parser("run", help=f"evaluate a model on tasks (default: the embedded model on {DEFAULT_TASKS})",
                       description="Evaluate a model. With no --model, runs the embedded SmolLM2-135M-Instruct "
                                   "offline with the offline default stance scorer.")
    p.add_argument("--model", help="hub id, local folder or .gguf file (default: the embedded SmolLM2 model)")
    p.add_argument("--backend", help="hf, llamacpp, vllm, openai, mlm, lm-eval (default: chosen from --model; "
                                     "see docs/backends.md)")
    p.add_argument("--model-args", help="backend options as k=v,k=v (e.g. dtype=bfloat16,device=cuda)")
    p.add_argument("--tasks", default=DEFAULT_TASKS, help=f"comma-separated task names (default: {DEFAULT_TASKS})")
    p.add_argument("--limit", type=int, metavar="N",
                   help="a quick look: only N statements of each instrument, spread across both axes and balanced "
                        "by side, picked with a fixed seed (the same N statements in every run); for testing, not "
                        "comparable to full runs")
    p.add_argument("--samples", type=int, help="responses per prompt (overrides the task's setting)")
    p.add_argument("--output", metavar="DIR", help="run folder (default: runs/<model>-<UTC time>)")
    p.add_argument("--seed", type=int, help="run seed (overrides the task's seed)")
    p.add_argument("--batch-size", type=batch_size_flag, default="auto",
                   help="sequences generated together by hf, llamacpp and mlm: a number, or auto (the default: "
                        "16 for llamacpp, 8 for hf on CPU, the most that fits on a GPU; see docs/backends.md)")
    p.add_argument("--scorer", help="stance scorer (overrides the task's; see `polibench list`)")
    p.add_argument("--scorer-args", help="scorer options as k=v,k=v (e.g. model=PATH)")
    p.add_argument("--judge-model", help="the grader model of LLM-judge scorers (issuebench's issue_judge, judge): "
                                         "hub id, .gguf file or served model name (default: the embedded SmolLM2)")
    p.add_argument("--judge-backend", help="the grader's backend (hf, llamacpp, vllm, openai; default: chosen from "
                                           "--judge-model)")
    p.add_argument("--judge-args", help="the grader backend's options as k=v,k=v (e.g. base_url=http://host/v1)")
    p.add_argument("--issues", help="IssueBench tasks: only these issues, comma-separated topic_ids (e.g. "
                                    "358,129; see tasks/issuebench/instrument_issuebench.yaml)")
    p.add_argument("--threshold", type=probability,
                   help="confidence filter: drop stances below this confidence (default: the task's, 0.9)")
    p.add_argument("--include-path", action="append", default=[], help="extra folder of task YAML files")
    p.add_argument("--no-progress", action="store_true", help="hide progress bars")
    p.add_argument("--base-url", help="OpenAI-compatible server (e.g. http://127.0.0.1:8000/v1); implies "
                                      "--backend openai; the API key is read from $OPENAI_API_KEY only")
    p.add_argument("--concurrency", type=int, help="requests in flight for the openai backend (default 8)")
    p.add_argument("--no-cache", action="store_true",
                   help="neither reuse nor store responses (default cache: $POLIBENCH_CACHE/responses.sqlite, "
                        "which lets an interrupted run resume)")
    p.add_argument("--log_samples", "--log-samples", action="store_true",
                   help="accepted for lm-eval's command lines and ignored: polibench always writes every response "
                        "to samples.jsonl")
    p.add_argument("--shard", metavar="I/N",
                   help="answer only shard I of N (0 <= I < N; chosen by cache key) and write a shard folder, to be "
                        "merged with `polibench merge` (docs/backends.md, \"Scaling out\")")
    add_min_coverage_flag(p)
    keep_old_spellings(p, {"--output-path": "--output"})
    accept_lm_eval_spellings(p)
    p.set_defaults(handler=run_command)


def batch_size_flag(value: str):
    """``--batch-size``: ``auto`` or a positive whole number (argparse reports anything else, exit code 2)."""
    if value == "auto":
        return value
    if value.isdigit() and int(value) >= 1:
        return int(value)
    raise argparse.ArgumentTypeError(f"expected a positive whole number or 'auto', got '{value}'")


def check_model_is_not_a_backend(model: str | None, model_args: str | None) -> None:
    """``--model hf`` (lm-eval's spelling of the backend) stops with one line naming polibench's spelling."""
    from polibench.errors import PolibenchError

    if model is None or model not in LM_EVAL_MODEL_TYPES or Path(model).exists():
        return
    pretrained = re.search(r"(?:^|,)pretrained=([^,]+)", model_args or "")
    name = pretrained.group(1) if pretrained else "NAME"
    raise PolibenchError(f"--model {model} names a backend, not a model (lm-eval's --model is polibench's --backend):"
                         f" use --backend {LM_EVAL_MODEL_TYPES[model]} --model {name}")


def default_output(model_name: str, shard=None) -> Path:
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", model_name).strip("._") or "model"
    stamp = _dt.datetime.now(_dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    return Path("runs") / (f"{slug}-{stamp}" + ("" if shard is None else f"-shard{shard.index}of{shard.count}"))


def run_command(args: argparse.Namespace) -> int:
    from polibench.cache import CachingBackend, ResponseCache
    from polibench.cache.shard import Shard
    from polibench.errors import PolibenchError
    from polibench.models.base import display_name
    from polibench.models.registry import check_backend_args, create_backend
    from polibench.models.select import choose
    from polibench.pipeline.plan import RunOptions, RunPlan, check_issue_ids
    from polibench.pipeline.respond import BackendResponses
    from polibench.pipeline.run import run_pipeline, run_shard
    from polibench.scoring.registry import OFFLINE_DEFAULT
    from polibench.taskspec.loader import load_registry

    if args.backend not in ("openai", "lm-eval") and not args.base_url:  # a served model may have any name
        check_model_is_not_a_backend(args.model, args.model_args)
    for flag in ("limit", "samples", "concurrency"):
        value = getattr(args, flag)
        if value is not None and value < 1:
            raise PolibenchError(f"--{flag.replace('_', '-')} must be at least 1 (got {value})")
    shard = Shard.parse(args.shard) if args.shard is not None else None
    plan = RunPlan.from_registry(load_registry(args.include_path), parse_task_names(args.tasks))
    model_args = parse_kv(args.model_args, "--model-args")
    scorer_args = parse_kv(args.scorer_args, "--scorer-args")
    judge_args = {**parse_kv(args.judge_args, "--judge-args"),
                  **{k: v for k, v in (("model", args.judge_model), ("backend", args.judge_backend)) if v}}
    issues = [i.strip() for i in args.issues.split(",") if i.strip()] if args.issues is not None else None
    if issues is not None:
        if not issues:
            raise PolibenchError("--issues: expected comma-separated IssueBench topic_ids (e.g. 358,129), got none")
        check_issue_ids(plan, issues)
    backend_name, model, embedded = choose(args.model, args.backend, base_url=args.base_url)
    if backend_name in ("hf", "mlm", "llamacpp") and "batch_size" not in model_args:
        model_args["batch_size"] = args.batch_size
    if args.base_url or args.concurrency:
        if backend_name != "openai":
            raise PolibenchError(f"--base-url and --concurrency are for the openai backend, not '{backend_name}'")
        if args.base_url:
            model_args["base_url"] = args.base_url
        if args.concurrency:
            model_args["concurrency"] = args.concurrency
    options = RunOptions(seed=args.seed, limit=args.limit, issues=issues, judge_args=judge_args,
                         samples_per_prompt=args.samples, scorer=args.scorer,
                         offline_default=None if args.scorer or not embedded else OFFLINE_DEFAULT,
                         scorer_args=scorer_args, threshold=args.threshold, show_progress=not args.no_progress,
                         command=sys.argv[1:], min_coverage=args.min_coverage, shard=shard)
    out = Path(args.output) if args.output else default_output(display_name(model or backend_name), shard)
    if shard is not None and ((backend_name == "hf" and model_args.get("batch_size") != 1)
                              or model_args.get("group_samples") is True or model_args.get("batched") is True):
        print("polibench: note: this backend's responses depend on the other requests of their batch (hf batches, "
              "group_samples, batched): a shard's are valid samples, but not those of the unsharded run; for "
              "identical ones use --batch-size 1 (hf) or leave group_samples/batched off", file=sys.stderr)
    caches: list[ResponseCache] = []  # opened with the backend, once the cheap checks have passed

    def create():  # called by the pipeline's preflight after its cheap checks (the model is loaded here)
        backend = create_backend(backend_name, model, model_args)
        if args.no_cache:
            return backend
        caches.append(ResponseCache())
        return CachingBackend(backend, caches[0])

    source = BackendResponses(
        create, check_args=lambda: check_backend_args(backend_name, model, model_args),
        note=f"polibench: model {model or model_args.get('model', '')} on backend '{backend_name}'"
             + (" (embedded default)" if embedded else "") + f"; tasks {', '.join(plan.task_names)}")
    try:
        if shard is not None:
            manifest = run_shard(plan, source, out, options)
        else:
            document = run_pipeline(plan, source, out, options)
    finally:
        for cache in caches:
            print(f"polibench: response cache {cache.path}: {cache.hits} reused, {cache.writes} new", file=sys.stderr)
            cache.close()
    if shard is not None:
        counts = ", ".join(f"{task} {n:,}" for task, n in manifest.n_samples.items())
        print(f"shard {shard}: {sum(manifest.n_samples.values()):,} samples ({counts}); no results: merge all "
              "shards with `polibench merge SHARD... --output RUN`")
        print(f"wrote {out}/samples.jsonl, shard.json")
        return 0
    print_summary(document, out, args.min_coverage)
    return 0


def summary_lines(document, min_coverage: Optional[float] = None) -> list[str]:
    """One line per task: each metric's ``summary`` fragment (:class:`polibench.metrics.registry.Metric`), then a
    --limit run's label (the lines ``run`` prints; the README's demo line is checked against them); then the
    lines of each run-level metric's ``summary`` hook (:class:`polibench.metrics.run_level.RunMetric`), then one
    ``warning:`` line per run-level warning (e.g. the model is not really answering). A
    position is qualified where it cannot be read at face value (:mod:`polibench.metrics.position`): no
    position, insufficient data (fewer than ``min_coverage`` of an axis's statements answered), a degenerate
    interval, acquiescence, a --limit run."""
    from polibench.metrics.position import LIMIT_LABEL, MIN_AXIS_COVERAGE
    from polibench.report.registry import ShowContext, show, show_run

    lines = []
    for task, results in document.results.items():
        ctx = ShowContext(task=task, results=results, scoring=document.scoring.get(task, {}),
                          min_coverage=MIN_AXIS_COVERAGE if min_coverage is None else min_coverage)
        line = f"{task}:" + "".join(show(metric.name, "summary", block, ctx, default="")
                                    for metric, block in results.metrics())
        if document.run.limit is not None:
            line += f"; --limit {document.run.limit}: {LIMIT_LABEL}"
        lines.append(line)
    for metric, block in document.run_metrics.blocks():
        lines += show_run(metric.name, "summary", block, document, default=[])
    # what a reader must see before trusting the lines above (e.g. the model is not really answering)
    lines += [f"warning: {text}" for _, text in document.run_metrics.warnings()]
    return lines


def print_summary(document, out: Path, min_coverage: Optional[float] = None) -> None:
    """:func:`summary_lines`, then where the run was written."""
    for line in summary_lines(document, min_coverage):
        print(line)
    print(f"wrote {out}/samples.jsonl, results.json, report.md")
