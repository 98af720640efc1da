"""``polibench list``: tasks, instruments, variant sets, backends, scorers and metrics (plugins included)."""

from __future__ import annotations

import argparse

from polibench.cli.flags import accept_lm_eval_spellings


def add_parser(sub) -> None:
    p = sub.add_parser("list", help="show tasks, instruments, prompt variant sets, backends, scorers and metrics")
    p.add_argument("--include-path", action="append", default=[], help="extra folder of task YAML files")
    accept_lm_eval_spellings(p)
    p.set_defaults(handler=list_command)


def list_command(args: argparse.Namespace) -> int:
    from polibench.metrics.registry import registered
    from polibench.metrics.run_level import registered_run_metrics
    from polibench.models.registry import BACKENDS
    from polibench.scoring.option_lexicon import language_name
    from polibench.scoring.registry import SCORERS
    from polibench.taskspec.loader import load_registry

    reg = load_registry(args.include_path)
    print("Tasks:")
    for name, task in sorted(reg.tasks.items()):
        n_items = sum(len(reg.instruments[i].items) for i in task.instruments)
        n_variants = len(reg.variant_sets[task.variant_set].variants)
        language = f" ({language_name(task.language)})" if task.language else ""
        print(f"  {name:<16} {n_items:>4} items x {len(task.forms)} form(s) x {n_variants} variant(s) x "
              f"{task.generation.samples} sample(s)   [{', '.join(task.instruments)}]{language}")
    print("Instruments:")
    for name, inst in sorted(reg.instruments.items()):
        print(f"  {name:<16} {len(inst.items):>4} items   {inst.name}")
    print("Prompt variant sets:")
    for name, vs in sorted(reg.variant_sets.items()):
        print(f"  {name:<16} {len(vs.variants):>4} variants")
    print("Backends: " + ", ".join(sorted(BACKENDS.names())))
    print("Scorers:  " + ", ".join(sorted(SCORERS.names())))
    print("Metrics:  " + ", ".join(sorted(registered())))
    print("Run-level metrics: " + ", ".join(registered_run_metrics()))
    return 0
