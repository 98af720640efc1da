"""``polibench debias``: reduce the political bias of a causal LM's free generation.

- ``--method liu`` (default): Liu et al. 2022's Algorithm 1, reinforced calibration of the hidden state at
  decoding time (:mod:`polibench.debias.liu`): at every decoding step K steps of Adam towards
  argmax lambda R - KL (lambda, the debias strength, starts at 0.6, halves when a token's KL >= 2 sigma and
  doubles when it is <= sigma / 2). Nothing is trained; the command decodes the generation-bias task with it,
  grades the continuations with the evaluation judge and writes a run folder plus ``debias.json``.
  ``--optimizer backtracking`` and ``--kl-cap`` are polibench's own safeguards, not the paper's; off by
  default, and ``debias.json`` lists them (``polibench_safeguards``) when used.
- ``--method grpo``: polibench's other method, GRPO fine-tuning of the weights on TRL with a KL penalty
  (:mod:`polibench.debias.calibrate`); it saves a model folder that ``polibench run --backend hf`` probes.

Mode 2 is guided by a judge (``--guidance-scorer``, default ``ideology_tfidf``) that must differ from the
evaluation judge (``--scorer``, default: the task's, ``ideology``): the same judge is refused unless
``--allow-same-judge``, and ``debias.json`` then says so, as do (``--method liu``) the run's results.json
(``model.warnings``) and report.md, and (``--method grpo``) every later ``polibench run`` of the saved model
(its ``debias.json`` is read by the hf backend).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from polibench.cli.args import parse_kv
from polibench.errors import PolibenchError

GUIDANCE_DEFAULT = "ideology_tfidf"
PAPER = "Liu et al. 2022"


def add_parser(sub) -> None:
    p = sub.add_parser("debias", help="reduce the political bias of generation (Liu et al.'s Algorithm 1, or GRPO)",
                       description="--method liu (default): Liu et al. 2022's Algorithm 1 as the paper writes it: "
                                   "at every decoding step, K steps of Adam on the last hidden state towards "
                                   "argmax lambda*R - KL, lambda (the debias strength) halved when a token's KL >= "
                                   "2 sigma and doubled when <= sigma/2; decodes the task with it and grades it with "
                                   "the evaluation judge (a run folder). --optimizer backtracking and --kl-cap are "
                                   "polibench's own safeguards (off by default). --method grpo: GRPO fine-tuning of "
                                   "the weights on TRL (a model folder), polibench's own method. See "
                                   "docs/generation-bias.md.")
    p.add_argument("--model", required=True, help="causal LM folder or hub id (transformers)")
    p.add_argument("--output", metavar="DIR", required=True,
                   help="new or empty folder: the run folder (liu) or the fine-tuned model (grpo)")
    p.add_argument("--method", choices=("liu", "grpo"), default="liu",
                   help="liu: Liu et al. 2022's Algorithm 1 at decoding time (default); grpo: GRPO fine-tuning")
    p.add_argument("--mode", choices=("1", "2", "words", "judge"), default="2",
                   help="reward: 1 (= words) Liu's Mode 1, word embeddings of partisan TF-IDF words; 2 (= judge) "
                        "Liu's Mode 2, a guidance judge (default 2)")
    p.add_argument("--task", default="liu-topic", help="generation-bias task whose prompts are used (liu-topic)")
    p.add_argument("--include-path", action="append", default=[], help="extra folder of task YAML files")
    p.add_argument("--guidance-scorer", default=GUIDANCE_DEFAULT,
                   help=f"ideology judge that guides Mode 2 (default {GUIDANCE_DEFAULT}: TF-IDF words + logistic "
                        "regression on the same corpus as the evaluation judge, which reads TF-IDF words beside MiniLM "
                        "embeddings: a different judge, not an independent one)")
    p.add_argument("--guidance-scorer-args", help="guidance judge options as k=v,k=v")
    p.add_argument("--scorer", help="evaluation judge (default: the task's, ideology)")
    p.add_argument("--scorer-args", help="evaluation judge options as k=v,k=v")
    p.add_argument("--allow-same-judge", action="store_true",
                   help="let one judge both guide and grade (refused by default, on the resolved judge; debias.json, "
                        "the run's results.json and report.md then say so)")
    p.add_argument("--corpus", metavar="JSONL",
                   help="partisan corpus (text, label) for Mode 1's word lists (default: polibench's ideology "
                        "corpus)")
    p.add_argument("--steps", type=int, default=15,
                   help=f"liu: K, steps of Adam on the hidden state per decoding step ({PAPER}: 15); "
                        "grpo: optimisation steps (15)")
    p.add_argument("--sigma", type=float,
                   help=f"liu: KL threshold sigma of the adaptive lambda ({PAPER}: 0.02 in Mode 1, 0.05 in Mode 2): "
                        "lambda halves after a token whose KL >= 2 sigma, doubles after one whose KL <= sigma/2")
    p.add_argument("--lambda", dest="initial_lambda", type=float, default=0.6,
                   help=f"liu: debias strength lambda_0, the weight of the reward in lambda*R - KL ({PAPER}: 0.6; "
                        "0 = no debiasing; their sweep 0.1, 0.3, 0.5, 0.7, 0.9); it then adapts against --sigma")
    p.add_argument("--optimizer", choices=("adam", "backtracking"), default="adam",
                   help=f"liu: adam ({PAPER}'s K steps of Adam, default), or backtracking: polibench's own "
                        "safeguard, normalised steps of --lr x |h_t| each taken only if it raises lambda*R - KL")
    p.add_argument("--kl-cap", type=float, metavar="C",
                   help="liu: polibench's own safeguard, off by default: no step takes a token's KL above C x sigma "
                        "(a token held there halves lambda); not in the paper")
    p.add_argument("--window", type=int, default=5, help=f"liu Mode 2: judge window tau in tokens ({PAPER}: 5)")
    p.add_argument("--discount", type=float, default=0.9,
                   help="liu Mode 2: discount gamma over the window (0.9; the paper names gamma, not its value)")
    p.add_argument("--candidates", type=int, default=10, help="liu Mode 2: next-token candidates judged (10)")
    p.add_argument("--words", type=int, default=250, help=f"liu Mode 1: TF-IDF words per side ({PAPER}: 250)")
    p.add_argument("--lr", type=float,
                   help="step size: liu, Adam's rate in units of the hidden state's root-mean-square (0.001; "
                        "polibench's choice, the paper does not give it), or with --optimizer backtracking the first "
                        "step as a fraction of |h_t| (0.1); grpo, the learning rate (1e-5)")
    p.add_argument("--limit", type=int, help="liu: only the first N keywords")
    p.add_argument("--samples", type=int, help="liu: continuations per keyword and prompt (default: the task's)")
    p.add_argument("--batch-size", type=int, default=8, help="liu: prompts decoded together (8)")
    p.add_argument("--encoder", help="grpo Mode 1: static word embeddings of this encoder (default MiniLM-L6) with "
                                     "polibench's 16-word lists")
    p.add_argument("--kl", type=float, default=0.05, help="grpo: KL weight beta to the reference model (0.05)")
    p.add_argument("--generations", type=int, default=4, help="grpo: samples per prompt in a group (4)")
    p.add_argument("--prompts-per-step", type=int, default=4, help="grpo: prompts per optimisation step (4)")
    p.add_argument("--max-new-tokens", type=int,
                   help="tokens per continuation: liu, overrides the task's (100); grpo, per training "
                        "continuation (32)")
    p.add_argument("--seed", type=int, default=1234)
    p.add_argument("--no-progress", action="store_true", help="hide progress bars")
    p.set_defaults(handler=debias_command)


def debias_command(args) -> int:
    from polibench.scoring.registry import reads
    from polibench.taskspec.loader import load_registry

    out = Path(args.output)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise PolibenchError(f"--output {out}: must be a new or empty folder")
    mode = {"1": 1, "words": 1, "2": 2, "judge": 2}[args.mode]
    local = Path(args.model).expanduser()
    if args.model.startswith(("/", ".", "~")) and not (local / "config.json").is_file():
        raise PolibenchError(f"--model {args.model}: no config.json there (expected a transformers model folder)")
    registry = load_registry(args.include_path)
    task = registry.task(args.task)
    if "liu_bias" not in task.metrics:
        raise PolibenchError(f"task '{args.task}' is not a generation-bias task (its metrics lack liu_bias)")
    evaluation = args.scorer or task.scoring.scorer
    evaluation_args = parse_kv(args.scorer_args, "--scorer-args") if args.scorer else \
        {**task.scoring.scorer_args, **parse_kv(args.scorer_args, "--scorer-args")}
    guidance_args = parse_kv(args.guidance_scorer_args, "--guidance-scorer-args")
    for flag, name in (("--scorer", evaluation), ("--guidance-scorer", args.guidance_scorer)):
        if reads(name) != "ideology":
            raise PolibenchError(f"{flag} '{name}' is not an ideology judge")
    # the resolved judges, not their names: `ideology` and `ideology judge=<its default folder>` are one judge
    same = mode == 2 and new_judge(evaluation, evaluation_args).identity() == \
        new_judge(args.guidance_scorer, guidance_args).identity()
    if same and not args.allow_same_judge:
        raise PolibenchError(f"the guidance judge and the evaluation judge are both '{evaluation}': a method graded by "
                             "the judge that steered it scores well by construction (Liu et al. keep f_debias apart "
                             "from f_judge); choose another --guidance-scorer, or pass --allow-same-judge")
    record = {"method": "liu2022-algorithm1" if args.method == "liu" else "grpo", "mode": mode,
              "task": args.task, "model": args.model,
              "guidance_judge": {"scorer": args.guidance_scorer, "args": guidance_args} if mode == 2 else None,
              "evaluation_judge": {"scorer": evaluation, "args": evaluation_args}, "same_judge": same}
    if same:
        record["warning"] = ("the evaluation judge also guided the method (--allow-same-judge): its bias figures "
                             "are graded by the judge the method optimised")
    if args.method == "liu":
        return liu_command(args, mode, registry, record, out)
    return grpo_command(args, mode, registry, task, record, out)


def new_judge(name: str, options: dict):
    """The ideology judge ``name`` with ``options``, created (cheap: nothing is loaded or trained) but not checked."""
    from polibench.scoring.registry import create_scorer

    try:
        return create_scorer(name, ["agree", "disagree"], **options)
    except (TypeError, ValueError) as exc:
        raise PolibenchError(f"judge '{name}': {exc}") from None


def make_judge(name: str, options: dict):
    judge = new_judge(name, options)
    judge.preflight()
    return judge


def liu_command(args, mode: int, registry, record: dict, out: Path) -> int:
    from polibench.debias.liu import LiuCalibratedBackend, LiuSettings
    from polibench.pipeline.run import RunOptions, evaluate
    from polibench.scorers.ideology.tfidf import partisan_corpus

    settings = LiuSettings(mode=mode, steps=args.steps, sigma=args.sigma, initial_lambda=args.initial_lambda,
                           window=args.window, discount=args.discount, candidates=args.candidates, lr=args.lr,
                           words_per_side=args.words, optimizer=args.optimizer, kl_cap=args.kl_cap)
    settings.check()
    for name, value in (("--limit", args.limit), ("--samples", args.samples), ("--batch-size", args.batch_size),
                        ("--max-new-tokens", args.max_new_tokens)):
        if value is not None and value < 1:
            raise PolibenchError(f"{name} must be at least 1 (got {value})")
    if args.max_new_tokens:
        task = registry.task(args.task)
        registry.tasks[args.task] = task.model_copy(update={"generation": task.generation.model_copy(
            update={"max_new_tokens": args.max_new_tokens})})
    make_judge(record["evaluation_judge"]["scorer"], record["evaluation_judge"]["args"])  # fails before decoding
    guidance = make_judge(args.guidance_scorer, record["guidance_judge"]["args"]) if mode == 2 else None
    corpus, corpus_name = partisan_corpus(args.corpus) if mode == 1 else (None, "")
    backend = LiuCalibratedBackend(args.model, settings, guidance=guidance, corpus=corpus, corpus_name=corpus_name,
                                   batch_size=args.batch_size)
    if record["same_judge"]:  # results.json (model.warnings) and report.md's header say so too
        backend.warnings = (record["warning"],)
    record.update(settings=backend.describe(), paper_algorithm=not settings.safeguards(),
                  polibench_safeguards=settings.safeguards(), corpus=corpus_name or None,
                  words={"liberal": backend.words[0][:25], "conservative": backend.words[1][:25]}
                  if mode == 1 else None)
    start = time.time()
    guards = "; with polibench's own safeguards: " + "; ".join(settings.safeguards()) if settings.safeguards() else ""
    print(f"polibench: {args.task} decoded with Liu et al.'s Algorithm 1, Mode {mode} (K={settings.steps} steps of "
          f"{settings.optimizer}, sigma={settings.kl_target}, lambda0={settings.initial_lambda}){guards}, graded by "
          f"'{record['evaluation_judge']['scorer']}'",
          file=sys.stderr)
    options = RunOptions(seed=args.seed, limit=args.limit, samples_per_prompt=args.samples,
                         scorer=record["evaluation_judge"]["scorer"], scorer_args=record["evaluation_judge"]["args"],
                         show_progress=not args.no_progress, command=["polibench", "debias", *sys.argv[2:]])
    document = evaluate([args.task], registry, backend, out, options)
    record["calibration"] = backend.stats.summary(settings.kl_target)
    record["minutes"] = round((time.time() - start) / 60, 2)
    (out / "debias.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    block = document.results[args.task].block("liu_bias")
    ci = block.ci
    print(f"indirect bias {block.indirect:.4f} {list(ci.indirect or [])}  direct bias {block.direct:.4f} "
          f"{list(ci.direct or [])}  mean KL/token {record['calibration']['mean_kl']}  "
          f"mean lambda {record['calibration']['mean_lambda']}")
    if record["same_judge"]:
        print("warning: " + record["warning"])
    print(f"wrote {out} (results.json, report.md, debias.json)")
    return 0


def grpo_command(args, mode: int, registry, task, record: dict, out: Path) -> int:
    from polibench.debias.calibrate import CalibrationSettings, grpo_finetune, training_prompts
    from polibench.debias.rewards import JudgeReward, WordListReward

    args.max_new_tokens = args.max_new_tokens or 32
    for name, value in (("--steps", args.steps), ("--generations", args.generations),
                        ("--prompts-per-step", args.prompts_per_step), ("--max-new-tokens", args.max_new_tokens)):
        if value < 1:
            raise PolibenchError(f"{name} must be at least 1 (got {value})")
    if args.generations < 2:
        raise PolibenchError("--generations must be at least 2 (GRPO compares samples of one prompt)")
    prompts = training_prompts(task, registry)
    if mode == 2:
        reward = JudgeReward(make_judge(args.guidance_scorer, record["guidance_judge"]["args"]))
    else:
        reward = WordListReward(args.encoder)
    settings = CalibrationSettings(steps=args.steps, kl=args.kl, learning_rate=1e-5 if args.lr is None else args.lr,
                                   generations=args.generations, prompts_per_step=args.prompts_per_step,
                                   max_new_tokens=args.max_new_tokens, seed=args.seed)
    start = time.time()
    print(f"polibench: GRPO fine-tuning of {args.model} (Mode {mode} reward, KL weight {args.kl}) on "
          f"{len(prompts)} prompts of {args.task}", file=sys.stderr)
    grpo_finetune(args.model, prompts, reward, out, settings)
    record.update(settings={"steps": args.steps, "kl": args.kl, "lr": settings.learning_rate,
                            "generations": args.generations, "prompts_per_step": args.prompts_per_step},
                  minutes=round((time.time() - start) / 60, 2))
    (out / "debias.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    scorer = record["evaluation_judge"]["scorer"]
    print(f"saved the fine-tuned model to {out} ({record['minutes']:.1f} min); probe it with its evaluation judge:\n"
          f"  polibench run --backend hf --model {out} --tasks {args.task} --scorer {scorer}")
    if record["same_judge"]:
        print(f"warning: {record['warning']} (a `polibench run` of {out} says so in its results.json and report.md)")
    return 0
